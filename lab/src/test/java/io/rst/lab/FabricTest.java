/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FabricTest {
    @Test
    void defaultFabricHasTheLeafSpineShape() {
        final var f = Fabric.defaults();
        assertEquals(6, f.switches().size());
        assertEquals(8, f.hosts().size());
        // 8 host links + 4 leaves x 2 spines
        assertEquals(16, f.links().size());
        assertEquals(List.of("swp1", "swp2", "swp3", "swp4"),
            f.ports("leaf1").stream().map(Fabric.Port::name).toList());
        assertEquals(new Fabric.Port("spine2", "swp1", "10.254.2.0/31"), f.peer("leaf1", "swp4"));
        assertEquals(new Fabric.Port("h1a", "eth0", "10.1.0.2/24"), f.peer("leaf1", "swp1"));
        assertEquals("10.3.1.2", f.hostIp("h3b"));
        assertEquals("h3b", f.hostsByIp().get("10.3.1.2"));
        assertEquals("10.255.0.10", f.mgmtIp("spine1"));
        assertEquals("10.255.0.12", f.mgmtIp("leaf1"));
    }

    @Test
    void interfaceNamesAreUniqueWithinEachNamespaceAndFitTheKernelLimit() {
        final var f = new Fabric(3, 5, 4, Set.of("h2a", "h5d"));
        for (var n : f.nodes()) {
            final Set<String> names = new HashSet<>();
            for (var p : f.ports(n.id())) {
                assertTrue(names.add(p.name()), n.id() + " has two " + p.name());
                assertTrue(p.name().length() <= 15);
            }
        }
    }

    @Test
    void leavesSpreadOverEverySpineAndSpinesRouteToEachLeaf() {
        final var f = Fabric.defaults();
        assertEquals(List.of(
            "route add 10.2.0.0/16 nexthop via 10.254.1.0 dev swp3 nexthop via 10.254.2.0 dev swp4",
            "route add 10.3.0.0/16 nexthop via 10.254.1.0 dev swp3 nexthop via 10.254.2.0 dev swp4",
            "route add 10.4.0.0/16 nexthop via 10.254.1.0 dev swp3 nexthop via 10.254.2.0 dev swp4"),
            f.routes("leaf1"));
        assertEquals("route add 10.3.0.0/16 via 10.254.1.5 dev swp3", f.routes("spine1").get(2));
        assertEquals(List.of("route add default via 10.2.1.1 dev eth0"), f.routes("h2b"));
    }

    @Test
    void aDownLinkIsWithdrawnLikeARoutingProtocolWould() {
        final var f = Fabric.defaults();
        assertEquals("leaf1:swp3", f.fabricLinkName("spine1", "swp1"));
        assertEquals("leaf1:swp3", f.fabricLinkName("leaf1", "swp3"));
        final Set<String> down = Set.of("leaf1:swp3");
        assertEquals("route add 10.2.0.0/16 via 10.254.2.0 dev swp4", f.routes("leaf1", down).get(0));
        // other leaves no longer reach leaf1 through spine1
        assertEquals("route add 10.1.0.0/16 via 10.254.2.2 dev swp4", f.routes("leaf2", down).get(0));
        assertTrue(f.routes("spine1", down).stream().noneMatch(r -> r.startsWith("route add 10.1.")));
    }

    @Test
    void aDualHomedHostHasTwoLeavesAndAnAddressBothAnnounce() {
        final var f = new Fabric(2, 4, 2, Set.of("h4b"));
        assertEquals("10.200.4.2", f.hostIp("h4b"));
        assertEquals(new Fabric.Port("leaf1", "swp3", "10.1.101.1/24"), f.peer("h4b", "eth1"));
        assertEquals("route add default src 10.200.4.2 nexthop via 10.4.1.1 dev eth0 nexthop via 10.1.101.1 dev eth1",
            f.routes("h4b").get(0));
        assertTrue(f.routes("spine1").contains(
            "route add 10.200.4.2/32 nexthop via 10.254.1.7 dev swp4 nexthop via 10.254.1.1 dev swp1"));
        assertTrue(f.routes("leaf1").contains("route add 10.200.4.2/32 via 10.1.101.2 dev swp3"));
    }

    @Test
    void badSizesAreRefusedInWords() {
        assertThrows(IllegalArgumentException.class, () -> new Fabric(0, 4, 2, Set.of()));
        assertThrows(IllegalArgumentException.class, () -> new Fabric(2, 4, 27, Set.of()));
        assertEquals("--dual-homed names no host of this fabric: h9a",
            assertThrows(IllegalArgumentException.class, () -> new Fabric(2, 4, 2, Set.of("h9a"))).getMessage());
    }
}
