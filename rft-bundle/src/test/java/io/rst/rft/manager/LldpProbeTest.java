/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.manager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.AgentState;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.AgentStatusBuilder;

/**
 * The LLDP part of an agent's status as the probe reads it: the agent's name, its interfaces'
 * MACs and its neighbours; entries without interface, chassis ID or port ID, repeated ones and
 * those beyond the bound skipped and counted; bad values of an entry left out, the entry kept;
 * and the agent-status leaves written from them.
 */
class LldpProbeTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode json(final String text) throws Exception {
        return JSON.readTree(text);
    }

    @Test
    void neighboursInterfacesAndTheAgentsName() throws Exception {
        final var lldp = HttpAgentProbe.lldp(json("""
            {"agent_id":"leaf1","interfaces":[{"name":"swp1","mac":"0C:42:A1:00:00:01"},{"name":"swp2","mac":null},
              {"name":"swp3","mac":"not-a-mac"},{"name":""},{"mac":"02:00:00:00:00:09"}],
             "lldp":[{"interface":"swp1","chassis_id":"0c:42:a1:00:10:00","chassis_id_subtype":"mac_address",
               "port_id":"swp31","port_id_subtype":"interface_name","port_description":"to leaf1",
               "system_name":"spine1","management_addresses":["10.0.0.11","fd00::11","bogus",7],
               "capabilities":["bridge","router"],"enabled_capabilities":["router",3],"ttl":120,"age_seconds":7,
               "last_seen":"2026-12-01T09:29:53.000100Z"},
              {"interface":"swp2","chassis_id":"host-a","port_id":"eth0","ttl":"x","age_seconds":-1,
               "last_seen":"yesterday","capabilities":null}]}"""));
        assertNotNull(lldp);
        assertEquals("leaf1", lldp.agentId());
        assertEquals(List.of("swp1", "swp2", "swp3"), List.copyOf(lldp.interfaces().keySet()));
        assertEquals(Optional.of("0c:42:a1:00:00:01"), lldp.interfaces().get("swp1"));
        assertEquals(Optional.empty(), lldp.interfaces().get("swp2"));
        assertEquals(Optional.empty(), lldp.interfaces().get("swp3"), "no MAC");
        assertEquals(0, lldp.skipped());
        assertEquals(2, lldp.neighbours().size());
        final var spine = lldp.neighbours().get(0);
        assertEquals(new AgentProbe.Neighbour("swp1", "0c:42:a1:00:10:00", "mac_address", "swp31", "interface_name",
            "to leaf1", "spine1", List.of("10.0.0.11", "fd00::11"), List.of("bridge", "router"), List.of("router"),
            120, 7, "2026-12-01T09:29:53.000100Z"), spine);
        final var host = lldp.neighbours().get(1);
        assertEquals(new AgentProbe.Neighbour("swp2", "host-a", null, "eth0", null, null, null, List.of(), List.of(),
            List.of(), -1, -1, null), host);

        // written into the switch's agent status
        final var b = new AgentStatusBuilder().setState(AgentState.CAPTURING);
        LldpStatus.apply(b, lldp);
        final var status = b.build();
        assertEquals("leaf1", status.getAgentId());
        assertEquals(3, status.nonnullInterface().size());
        assertEquals("0c:42:a1:00:00:01", status.nonnullInterface().values().iterator().next().getMac().getValue());
        assertEquals(2, status.nonnullLldpNeighbour().size());
        final var written = status.nonnullLldpNeighbour().values().iterator().next();
        assertEquals("spine1", written.getSystemName());
        assertEquals(2, written.getManagementAddress().size());
        assertEquals(java.util.Set.of("router"), written.getEnabledCapabilities());
        assertEquals(120, written.getTtl().intValue());
        assertNull(status.getLldpSkipped());
        // and read back for the topology
        final var sw = LldpTopology.of("leaf1", status);
        assertNotNull(sw);
        assertEquals("0c:42:a1:00:00:01", sw.interfaces().get("swp1"));
        assertEquals("", sw.interfaces().get("swp2"));
        assertEquals(List.of("router"), sw.neighbours().get(0).capabilities());
    }

    @Test
    void entriesWithoutTheirKeysRepeatedOrBeyondTheBoundAreSkippedAndCounted() throws Exception {
        final ObjectNode status = JSON.createObjectNode();
        final ArrayNode list = status.putArray("lldp");
        list.addObject().put("interface", "swp1").put("chassis_id", "c").put("port_id", "p");
        list.addObject().put("interface", "swp1").put("chassis_id", "c").put("port_id", "p");
        list.addObject().put("chassis_id", "c").put("port_id", "p");
        list.addObject().put("interface", "swp1").put("port_id", "p");
        list.addObject().put("interface", "swp1").put("chassis_id", "c").put("port_id", "");
        list.addObject().put("interface", 5).put("chassis_id", "c").put("port_id", "q");
        list.add("not an object");
        for (int i = 0; i < AgentProbe.MAX_LLDP + 3; i++) {
            list.addObject().put("interface", "swp2").put("chassis_id", "c" + i).put("port_id", "p");
        }
        final var lldp = HttpAgentProbe.lldp(status);
        assertNotNull(lldp);
        assertEquals(AgentProbe.MAX_LLDP, lldp.neighbours().size());
        assertEquals(6 + 4, lldp.skipped());
        final var b = new AgentStatusBuilder();
        LldpStatus.apply(b, lldp);
        assertEquals(10, b.getLldpSkipped().intValue());

        // a list that is not one: nothing taken, and said so
        final var notAList = HttpAgentProbe.lldp(json("{\"lldp\":{\"interface\":\"swp1\"}}"));
        assertNotNull(notAList);
        assertEquals(0, notAList.neighbours().size());
        assertEquals(1, notAList.skipped());
    }

    @Test
    void anAgentWithoutLldpReportsNone() throws Exception {
        assertNull(HttpAgentProbe.lldp(json("{\"agent_id\":\"leaf1\",\"interfaces\":[{\"name\":\"replay\"}]}")));
        assertNull(HttpAgentProbe.lldp(json("{\"lldp\":null}")));
        // interface MACs without neighbours: the MACs still count
        final var macs = HttpAgentProbe.lldp(json(
            "{\"interfaces\":[{\"name\":\"swp1\",\"mac\":\"02:00:00:00:00:01\"}]}"));
        assertNotNull(macs);
        assertEquals(0, macs.neighbours().size());
    }
}
