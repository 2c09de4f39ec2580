/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What the lab tells each lldpd at its start, and how it reads what one hears (lldpcli's
 * keyvalue output, as lldpd 1.0.16 prints it).
 */
class LabLldpdTest {
    @Test
    void eachLldpdIsNamedAfterItsNodeAndSendsEverySecondWithATtlOfThree() {
        assertEquals("""
            configure system hostname leaf3
            configure lldp portidsubtype ifname
            configure system capabilities enabled bridge,router
            configure lldp tx-interval 1
            configure lldp tx-hold 3
            """, Lab.lldpdConfig("leaf3", true));
        assertEquals("""
            configure system hostname h2b
            configure lldp portidsubtype ifname
            configure lldp tx-interval 1
            configure lldp tx-hold 3
            """, Lab.lldpdConfig("h2b", false));
        assertEquals(3, Lab.LLDP_TTL_SECONDS);
    }

    @Test
    void theNeighboursAreReadByInterfaceAsNameAndPort() {
        final String out = """
            lldp.swp1.via=LLDP
            lldp.swp1.rid=1
            lldp.swp1.age=0 day, 00:00:02
            lldp.swp1.chassis.mac=ce:9a:f1:9f:5c:96
            lldp.swp1.chassis.name=h1a
            lldp.swp1.chassis.descr=Debian GNU/Linux 12 (bookworm) Linux 6.1 x86_64
            lldp.swp1.chassis.mgmt-ip=10.1.0.2
            lldp.swp1.chassis.Station.enabled=on
            lldp.swp1.port.ifname=eth0
            lldp.swp1.port.ttl=3
            lldp.swp3.via=LLDP
            lldp.swp3.chassis.name=spine1
            lldp.swp3.chassis.Router.enabled=on
            lldp.swp3.port.ifname=swp1
            lldp.swp3.port.descr=to leaf1
            lldp.swp3.port.ttl=3
            lldp.swp2.via=LLDP
            lldp.swp2.chassis.name=h1b
            lldp.swp2.port.mac=e6:3a:4b:76:8a:c5
            lldp.swp2.port.descr=eth0
            lldp.swp4.via=LLDP
            lldp.swp4.chassis.mac=aa:23:8e:a0:c7:e3
            """;
        // the port by its interface name, else (a MAC port ID) its description; swp4's neighbour
        // sent no system name: it is not taken as any node
        assertEquals(Map.of("swp1", "h1a:eth0", "swp2", "h1b:eth0", "swp3", "spine1:swp1"),
            Lab.parseNeighbours(out));
        assertEquals(Map.of(), Lab.parseNeighbours(""));
    }
}
