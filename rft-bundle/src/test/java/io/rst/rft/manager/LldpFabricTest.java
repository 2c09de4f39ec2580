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

import io.rst.rft.manager.LldpFabric.End;
import io.rst.rft.manager.LldpFabric.Neighbour;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.eclipse.jdt.annotation.Nullable;
import org.junit.jupiter.api.Test;

/**
 * How the agents' LLDP neighbours become the rst-lldp topology: a neighbour found by MAC (chassis
 * ID or port ID), by system name (node-id or agent id), by management address; a host; a switch
 * without agent; the port by MAC, name or description; links both ways; and the two kinds of
 * disagreement, whose links are left out.
 */
class LldpFabricTest {
    private static Neighbour heard(final String iface, final String chassisSubtype, final String chassis,
            final String portSubtype, final String port, final @Nullable String description,
            final @Nullable String name, final List<String> addresses, final List<String> capabilities) {
        return new Neighbour(iface, chassis, chassisSubtype, port, portSubtype, description, name, addresses,
            capabilities);
    }

    /** A neighbour that says its name and its port's name (lldpd with portidsubtype ifname). */
    private static Neighbour named(final String iface, final String name, final String port) {
        return heard(iface, "local", "chassis-" + name, "interface_name", port, null, name, List.of(),
            List.of("bridge", "router"));
    }

    private static LldpFabric.Switch sw(final String id, final Map<String, String> interfaces,
            final Neighbour... neighbours) {
        return new LldpFabric.Switch(id, null, null, interfaces, List.of(neighbours));
    }

    private static Set<String> links(final LldpFabric.Graph graph) {
        final Set<String> out = new java.util.TreeSet<>();
        graph.links().values().forEach(l -> out.add(l.id() + ">" + l.destination()));
        return out;
    }

    @Test
    void aNeighbourIsFoundByTheMacOfItsChassisOrPort() {
        // lldpd's defaults: chassis ID the MAC of one interface, port ID the port's MAC, its name as description
        final var leaf = sw("leaf1", Map.of("swp1", "02:00:00:00:01:01", "swp2", "02:00:00:00:01:02"),
            heard("swp1", "mac_address", "02:00:00:00:0a:01", "mac_address", "02:00:00:00:0a:02", "swp2",
                "not-the-node-id", List.of(), List.of("bridge")));
        final var spine = sw("spine1", Map.of("swp1", "02:00:00:00:0a:01", "swp2", "02:00:00:00:0a:02"),
            heard("swp2", "mac_address", "02:00:00:00:01:01", "mac_address", "02:00:00:00:01:01", "swp1",
                null, List.of(), List.of()));
        final var g = LldpFabric.build(List.of(leaf, spine));
        assertEquals(Set.of("leaf1:swp1>spine1:swp2", "spine1:swp2>leaf1:swp1"), links(g));
        assertTrue(g.disagreements().isEmpty(), g.disagreements().toString());
        assertTrue(g.nodes().get("spine1").isSwitch());
        assertEquals(Set.of("swp2"), g.nodes().get("spine1").tps());

        // the chassis MAC is no interface's, the port's is: found by the port
        final var byPort = sw("leaf1", Map.of("swp1", "02:00:00:00:01:01"), heard("swp1", "mac_address",
            "02:00:00:00:ff:ff", "mac_address", "02:00:00:00:0A:02", null, null, List.of(), List.of()));
        final var g2 = LldpFabric.build(List.of(byPort, sw("spine1", Map.of("swp2", "02:00:00:00:0a:02"))));
        assertEquals(Set.of("leaf1:swp1>spine1:swp2", "spine1:swp2>leaf1:swp1"), links(g2));
    }

    @Test
    void aPortIdMacMatchingNoInterfaceFallsBackToTheDescriptionThenTheText() {
        final var spine = new LldpFabric.Switch("spine1", null, null, Map.of("swp7", ""), List.of());
        final var viaDescription = sw("leaf1", Map.of(), heard("swp1", "local", "x", "mac_address",
            "02:00:00:00:0a:07", "swp7", "spine1", List.of(), List.of()));
        assertEquals(Set.of("leaf1:swp1>spine1:swp7", "spine1:swp7>leaf1:swp1"),
            links(LldpFabric.build(List.of(viaDescription, spine))));
        final var viaText = sw("leaf1", Map.of(), heard("swp1", "local", "x", "mac_address", "02:00:00:00:0a:07",
            "uplink", "spine1", List.of(), List.of()));
        assertEquals(Set.of("leaf1:swp1>spine1:02:00:00:00:0a:07", "spine1:02:00:00:00:0a:07>leaf1:swp1"),
            links(LldpFabric.build(List.of(viaText, spine))));
        // a port name the switch does not capture on, but whose description it does: the description
        final var described = sw("leaf1", Map.of(), heard("swp1", "local", "x", "local", "7", "swp7", "spine1",
            List.of(), List.of()));
        assertEquals(Set.of("leaf1:swp1>spine1:swp7", "spine1:swp7>leaf1:swp1"),
            links(LldpFabric.build(List.of(described, spine))));
    }

    @Test
    void aNeighbourIsFoundByItsSystemNameAsNodeIdOrAgentId() {
        final var leaf = sw("leaf1", Map.of(), named("swp1", "spine1", "swp3"), named("swp2", "agent-of-spine2",
            "swp4"));
        final var spine2 = new LldpFabric.Switch("spine2", "agent-of-spine2", null, Map.of(), List.of());
        final var g = LldpFabric.build(List.of(leaf, sw("spine1", Map.of()), spine2));
        assertEquals(Set.of("leaf1:swp1>spine1:swp3", "spine1:swp3>leaf1:swp1", "leaf1:swp2>spine2:swp4",
            "spine2:swp4>leaf1:swp2"), links(g));
    }

    @Test
    void aNeighbourIsFoundByItsManagementAddress() {
        final var leaf = sw("leaf1", Map.of(), heard("swp1", "local", "c", "interface_name", "swp9", null,
            "sp1.example", List.of("fd00:0:0::11", "10.9.9.9"), List.of("bridge")));
        final var spine = new LldpFabric.Switch("spine1", null, "fd00::11", Map.of(), List.of());
        final var g = LldpFabric.build(List.of(leaf, spine));
        assertEquals(Set.of("leaf1:swp1>spine1:swp9", "spine1:swp9>leaf1:swp1"), links(g));
        assertFalse(g.nodes().containsKey("sp1.example"));
    }

    @Test
    void aNeighbourThatIsNoSwitchIsAHostWithItsAddresses() {
        final var leaf = sw("leaf1", Map.of(),
            heard("swp5", "mac_address", "02:00:00:00:00:05", "mac_address", "02:00:00:00:00:05", "eth0", "host5",
                List.of("10.0.1.5", "fd00::5"), List.of("station")),
            // no name, no capabilities: host:CHASSIS
            heard("swp6", "mac_address", "02:00:00:00:00:06", "interface_name", "eth1", null, null,
                List.of("10.0.1.6"), List.of()));
        final var g = LldpFabric.build(List.of(leaf));
        final var host5 = g.nodes().get("host5");
        assertFalse(host5.isSwitch());
        assertEquals(Set.of("10.0.1.5", "fd00::5"), host5.ips());
        assertEquals(Set.of("02:00:00:00:00:05"), host5.tps(), "its port by the port ID's text");
        final var host6 = g.nodes().get("host:02:00:00:00:00:06");
        assertFalse(host6.isSwitch());
        assertEquals(Set.of("10.0.1.6"), host6.ips());
        assertEquals(Set.of("leaf1:swp5>host5:02:00:00:00:00:05", "host5:02:00:00:00:00:05>leaf1:swp5",
            "leaf1:swp6>host:02:00:00:00:00:06:eth1", "host:02:00:00:00:00:06:eth1>leaf1:swp6"), links(g));
        assertTrue(g.nodes().get("leaf1").isSwitch());
        assertEquals(Set.of("swp5", "swp6"), g.nodes().get("leaf1").tps());
    }

    @Test
    void aBridgeOrRouterWithoutAgentIsASwitchNode() {
        final var leaf = sw("leaf1", Map.of(), heard("swp1", "mac_address", "02:00:00:00:0b:01", "interface_name",
            "Ethernet4", null, "border1", List.of("10.0.0.99"), List.of("router")),
            heard("swp2", "mac_address", "02:00:00:00:0b:02", "interface_name", "Ethernet8", null, null, List.of(),
                List.of("bridge")));
        final var g = LldpFabric.build(List.of(leaf));
        assertTrue(g.nodes().get("border1").isSwitch());
        assertTrue(g.nodes().get("border1").ips().isEmpty(), "a switch carries no host addresses");
        assertTrue(g.nodes().get("02:00:00:00:0b:02").isSwitch(), "named by its chassis ID");
        assertTrue(links(g).contains("border1:Ethernet4>leaf1:swp1"), links(g).toString());
        assertTrue(TopologySwitches.isSwitch(LldpTopologyService.topology(g).nonnullNode().values().stream()
            .filter(n -> n.getNodeId().getValue().equals("border1")).findFirst().orElseThrow()));
    }

    @Test
    void aFarEndWhoseAgentHearsSomeoneElseIsAMismatch() {
        // leaf1:swp1 says spine1:swp1; spine1's agent hears leaf2:swp3 on swp1, and leaf2 agrees
        final var leaf1 = sw("leaf1", Map.of(), named("swp1", "spine1", "swp1"));
        final var leaf2 = sw("leaf2", Map.of(), named("swp3", "spine1", "swp1"));
        final var spine = sw("spine1", Map.of(), named("swp1", "leaf2", "swp3"), named("swp2", "leaf3", "swp1"));
        final var g = LldpFabric.build(List.of(leaf1, leaf2, spine));
        assertEquals(Set.of("spine1:swp2>leaf3:swp1", "leaf3:swp1>spine1:swp2"), links(g),
            "neither contested link is written");
        assertEquals(Set.of("leaf1:swp1->spine1:swp1", "leaf2:swp3->spine1:swp1"), g.disagreements().keySet());
        final var mismatch = g.disagreements().get("leaf1:swp1->spine1:swp1");
        assertTrue(mismatch.mismatch());
        assertEquals(new End("leaf1", "swp1"), mismatch.claimer());
        assertEquals(new End("spine1", "swp1"), mismatch.far());
        assertEquals("leaf2:swp3", mismatch.peerSays());
        assertEquals("leaf1:swp1 says its neighbour is spine1:swp1, but spine1's agent hears leaf2:swp3 on swp1:"
            + " the link is left out", mismatch.detail());
        final var other = g.disagreements().get("leaf2:swp3->spine1:swp1");
        assertFalse(other.mismatch());
        assertEquals("leaf1:swp1", other.peerSays());
        // the nodes and ports stay
        assertEquals(Set.of("swp1", "swp2"), g.nodes().get("spine1").tps());
    }

    @Test
    void twoPortsClaimingOneFarPortAreADisagreement() {
        // spine1's agent hears nothing on swp1 (no LLDP there): two leaves claim it
        final var leaf1 = sw("leaf1", Map.of(), named("swp1", "spine1", "swp1"));
        final var leaf2 = sw("leaf2", Map.of(), named("swp1", "spine1", "swp1"));
        final var g = LldpFabric.build(List.of(leaf1, leaf2, sw("spine1", Map.of())));
        assertTrue(g.links().isEmpty(), links(g).toString());
        assertEquals(Set.of("leaf1:swp1->spine1:swp1", "leaf2:swp1->spine1:swp1"), g.disagreements().keySet());
        final var d = g.disagreements().get("leaf1:swp1->spine1:swp1");
        assertFalse(d.mismatch());
        assertEquals("leaf2:swp1", d.peerSays());
        assertEquals("leaf1:swp1 says its neighbour is spine1:swp1, but spine1:swp1 is linked to leaf2:swp1 too by"
            + " the neighbours heard: the links are left out", d.detail());
        // the topology written lists them
        final var topology = LldpTopologyService.topology(g);
        final var written = topology.augmentation(org.opendaylight.yang.gen.v1.urn.io.rst.rst.topology.rev261201
            .RstLldpTopologyAttributes.class).nonnullLldpDisagreement();
        assertEquals(2, written.size());
        final var first = written.values().iterator().next();
        assertEquals("leaf1", first.getNodeId().getValue());
        assertEquals("swp1", first.getTpId().getValue());
        assertEquals("spine1", first.getPeerNodeId().getValue());
        assertEquals("spine1:swp1", first.getSays());
    }

    @Test
    void aLinkBothEndsAgreeOnIsWrittenOnceEachWay() {
        final var leaf = sw("leaf1", Map.of(), named("swp1", "spine1", "swp1"));
        final var spine = sw("spine1", Map.of(), named("swp1", "leaf1", "swp1"));
        final var g = LldpFabric.build(List.of(leaf, spine));
        assertEquals(Set.of("leaf1:swp1>spine1:swp1", "spine1:swp1>leaf1:swp1"), links(g));
        assertTrue(g.disagreements().isEmpty());
        final var topology = LldpTopologyService.topology(g);
        assertEquals("rst-lldp", topology.getTopologyId().getValue());
        assertEquals(2, topology.nonnullLink().size());
        final var link = topology.nonnullLink().values().iterator().next();
        assertEquals("leaf1:swp1", link.getLinkId().getValue());
        assertEquals("leaf1", link.getSource().getSourceNode().getValue());
        assertEquals("swp1", link.getSource().getSourceTp().getValue());
        assertEquals("spine1", link.getDestination().getDestNode().getValue());
        assertEquals("swp1", link.getDestination().getDestTp().getValue());
        // the same input, the same graph
        assertEquals(g, LldpFabric.build(new ArrayList<>(List.of(spine, leaf))));
    }
}
