/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.manager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.AgentState;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.AgentStatus;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.AgentStatusBuilder;

/**
 * The LLDP topology kept in step with the switches' status: a burst of changes makes one
 * recomputation, a status that changes nothing of the neighbours (a new age, a new contact)
 * writes nothing, a neighbour that ages out at its agent takes its links with it, and a failed
 * write is tried again.
 */
class LldpTopologyTest {
    private final List<Runnable> scheduled = new ArrayList<>();
    private final List<LldpFabric.Graph> written = new ArrayList<>();
    private final LldpTopology topology = new LldpTopology(scheduled::add, written::add);

    /** The status of a switch whose agent hears {@code neighbours} ({interface, system name, port}), at this age. */
    private static AgentStatus sw(final String id, final long age, final String[]... neighbours) {
        return sw(id, age, List.of("bridge"), neighbours);
    }

    private static AgentStatus sw(final String id, final long age, final List<String> capabilities,
            final String[]... neighbours) {
        final List<AgentProbe.Neighbour> list = new ArrayList<>();
        for (var n : neighbours) {
            list.add(new AgentProbe.Neighbour(n[0], "chassis-" + n[1], "local", n[2], "interface_name", null, n[1],
                List.of(), capabilities, capabilities, 120, age, null));
        }
        final var b = new AgentStatusBuilder().setState(AgentState.CAPTURING);
        LldpStatus.apply(b, new AgentProbe.Lldp(id, java.util.Map.of(), list, 0));
        return b.build();
    }

    private void runScheduled() {
        final var now = new ArrayList<>(scheduled);
        scheduled.clear();
        now.forEach(Runnable::run);
    }

    @Test
    void aBurstIsOneWriteAndNothingNewIsNoWrite() {
        for (int age = 0; age < 50; age++) {
            topology.changed("leaf1", sw("leaf1", age, new String[] {"swp1", "spine1", "swp1"}));
            topology.changed("spine1", sw("spine1", age, new String[] {"swp1", "leaf1", "swp1"}));
        }
        assertEquals(1, scheduled.size(), "one recomputation for the burst");
        runScheduled();
        assertEquals(1, written.size());
        assertEquals(2, written.get(0).links().size());

        // the next probes: new ages, the same neighbours: not even a recomputation
        topology.changed("leaf1", sw("leaf1", 60, new String[] {"swp1", "spine1", "swp1"}));
        assertTrue(scheduled.isEmpty());
        // a change that moves no node nor link (spine1 is found by its name whatever it enables):
        // a recomputation that writes nothing
        topology.changed("leaf1", sw("leaf1", 60, List.of("bridge", "router"), new String[] {"swp1", "spine1",
            "swp1"}));
        assertEquals(1, scheduled.size());
        runScheduled();
        assertEquals(1, written.size(), "nothing changed: nothing written");
        assertFalse(topology.flush());
    }

    @Test
    void aNeighbourThatAgesOutTakesItsLinksWithIt() {
        topology.changed("leaf1", sw("leaf1", 1, new String[] {"swp1", "spine1", "swp1"},
            new String[] {"swp2", "spine2", "swp1"}));
        runScheduled();
        assertEquals(4, written.get(0).links().size());
        // spine2's LLDPDUs stopped: its agent forgot it, the next probe's status lacks it
        topology.changed("leaf1", sw("leaf1", 2, new String[] {"swp1", "spine1", "swp1"}));
        runScheduled();
        assertEquals(2, written.size());
        assertEquals(java.util.Set.of("leaf1:swp1", "spine1:swp1"), written.get(1).links().keySet());
        assertFalse(written.get(1).nodes().containsKey("spine2"));
        // the switch leaves the list: an empty topology
        topology.changed("leaf1", null);
        runScheduled();
        assertEquals(3, written.size());
        assertTrue(written.get(2).nodes().isEmpty());
        assertEquals(3, topology.writes());
    }

    @Test
    void aFailedWriteIsTriedAgain() {
        topology.changed("leaf1", sw("leaf1", 1, new String[] {"swp1", "spine1", "swp1"}));
        runScheduled();
        assertEquals(1, written.size());
        topology.failed();
        assertEquals(1, scheduled.size());
        runScheduled();
        assertEquals(2, written.size());
        assertEquals(written.get(0), written.get(1));
    }
}
