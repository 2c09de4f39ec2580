/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rpt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rst.rpt.PathAssembler.DirectionResult;
import io.rst.rpt.PathAssembler.Fabric;
import io.rst.rpt.PathAssembler.HopResult;
import io.rst.rpt.PathAssembler.HostEnd;
import io.rst.rpt.PathAssembler.Observation;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Path assembly on a two-tier fabric, links both ways.
 * <pre>
 *            spine1                      spine2
 *       eth1 /    \ eth2            eth1 /    \ eth2
 *     eth3 leaf1   leaf2 eth3      eth4 leaf1   leaf2 eth4
 *   eth1 |  eth2 \   / eth2 | eth1
 *       h1a       hd        h2a           (hd dual-homed: eth0 on leaf1, eth1 on leaf2)
 * </pre>
 */
class PathAssemblerTest {
    private static final String H1A = "10.1.0.2";
    private static final String H2A = "10.2.0.2";
    private static final String HD = "10.3.0.2";
    private static final Set<String> SWITCHES = Set.of("leaf1", "leaf2", "spine1", "spine2");
    // links both ways, as LLDP-learnt topologies and the lab have them
    private static final LinkIndex LINKS = both(LinkIndex.builder(),
        "h1a", "h1a-eth0", "leaf1", "leaf1-eth1",
        "h2a", "h2a-eth0", "leaf2", "leaf2-eth1",
        "hd", "hd-eth0", "leaf1", "leaf1-eth2",
        "hd", "hd-eth1", "leaf2", "leaf2-eth2",
        "leaf1", "leaf1-eth3", "spine1", "spine1-eth1",
        "leaf1", "leaf1-eth4", "spine2", "spine2-eth1",
        "leaf2", "leaf2-eth3", "spine1", "spine1-eth2",
        "leaf2", "leaf2-eth4", "spine2", "spine2-eth2").build();
    private static final HostIndex HOSTS = HostIndex.builder().host("h1a", List.of(H1A)).host("h2a", List.of(H2A))
        .host("hd", List.of(HD, "fd00::3:2")).switchNode("leaf1").switchNode("leaf2").switchNode("spine1")
        .switchNode("spine2").build();
    private static final Fabric FABRIC = new Fabric(LINKS, HOSTS, SWITCHES);

    private static LinkIndex.Builder both(final LinkIndex.Builder builder, final String... ends) {
        for (int i = 0; i < ends.length; i += 4) {
            builder.link(ends[i], ends[i + 1], ends[i + 2], ends[i + 3]);
            builder.link(ends[i + 2], ends[i + 3], ends[i], ends[i + 1]);
        }
        return builder;
    }

    @Test
    void chainsObservationsByLinksFromHostToHostWhateverTheirOrder() {
        final var result = PathAssembler.assemble(List.of(
            new Observation("leaf2", "leaf2-eth3", 30),
            new Observation("leaf1", "leaf1-eth1", 10),
            new Observation("spine1", "spine1-eth1", 20)), FABRIC, H1A, H2A);
        assertEquals(List.of(
            new HopResult("leaf1", "leaf1-eth1", "leaf1-eth3", true),
            new HopResult("spine1", "spine1-eth1", "spine1-eth2", true),
            new HopResult("leaf2", "leaf2-eth3", "leaf2-eth1", true)), result.hops());
        assertEquals(new HostEnd("h1a", "h1a-eth0"), result.source());
        assertEquals(new HostEnd("h2a", "h2a-eth0"), result.destination());
        assertTrue(result.complete(), result.gaps().toString());
    }

    @Test
    void aSilentSpineBetweenTwoObservedLeavesIsInferredAndStillAGap() {
        final var result = PathAssembler.assemble(List.of(
            new Observation("leaf1", "leaf1-eth1", 10),
            new Observation("leaf2", "leaf2-eth4", 30)), FABRIC, H1A, H2A);
        assertEquals(List.of(
            new HopResult("leaf1", "leaf1-eth1", "leaf1-eth4", true),
            new HopResult("spine2", "spine2-eth1", "spine2-eth2", false),
            new HopResult("leaf2", "leaf2-eth4", "leaf2-eth1", true)), result.hops());
        assertFalse(result.complete());
        assertEquals(1, result.gaps().size(), result.gaps().toString());
        assertTrue(result.gaps().get(0).startsWith("switch spine2 ") && result.gaps().get(0).contains("saw nothing")
            && result.gaps().get(0).contains("inferred from topology"), result.gaps().toString());
        assertEquals(new HostEnd("h2a", "h2a-eth0"), result.destination());
    }

    @Test
    void aSilentFirstLeafIsInferredFromTheSourceHost() {
        final var result = PathAssembler.assemble(List.of(
            new Observation("spine1", "spine1-eth1", 20),
            new Observation("leaf2", "leaf2-eth3", 30)), FABRIC, H1A, H2A);
        assertEquals(List.of(
            new HopResult("leaf1", "leaf1-eth1", "leaf1-eth3", false),
            new HopResult("spine1", "spine1-eth1", "spine1-eth2", true),
            new HopResult("leaf2", "leaf2-eth3", "leaf2-eth1", true)), result.hops());
        assertEquals(new HostEnd("h1a", "h1a-eth0"), result.source());
        assertFalse(result.complete());
        assertTrue(result.gaps().get(0).startsWith("switch leaf1 ") && result.gaps().get(0).contains("inferred"),
            result.gaps().toString());
    }

    @Test
    void aSilentLastLeafIsInferredTowardsTheDestinationHost() {
        final var result = PathAssembler.assemble(List.of(
            new Observation("leaf1", "leaf1-eth1", 10),
            new Observation("spine1", "spine1-eth1", 20)), FABRIC, H1A, H2A);
        assertEquals(List.of(
            new HopResult("leaf1", "leaf1-eth1", "leaf1-eth3", true),
            new HopResult("spine1", "spine1-eth1", "spine1-eth2", true),
            new HopResult("leaf2", "leaf2-eth3", "leaf2-eth1", false)), result.hops());
        assertEquals(new HostEnd("h2a", "h2a-eth0"), result.destination());
        assertFalse(result.complete());
        assertTrue(result.gaps().get(0).startsWith("switch leaf2 ") && result.gaps().get(0).contains("inferred"),
            result.gaps().toString());
    }

    @Test
    void aDualHomedDestinationIsReachedThroughTheLinkFromTheLastSwitch() {
        final var viaLeaf2 = PathAssembler.assemble(List.of(
            new Observation("leaf1", "leaf1-eth1", 10), new Observation("spine1", "spine1-eth1", 20),
            new Observation("leaf2", "leaf2-eth3", 30)), FABRIC, H1A, HD);
        assertEquals("leaf2-eth2", viaLeaf2.hops().get(2).egressTp());
        assertEquals(new HostEnd("hd", "hd-eth1"), viaLeaf2.destination());
        assertTrue(viaLeaf2.complete(), viaLeaf2.gaps().toString());
        // from its other address, and the other way: the source is where the first hop's ingress leads
        final var back = PathAssembler.assemble(List.of(new Observation("leaf1", "leaf1-eth2", 10)), FABRIC,
            "fd00:0::3:2", H1A);
        assertEquals(List.of(new HopResult("leaf1", "leaf1-eth2", "leaf1-eth1", true)), back.hops());
        assertEquals(new HostEnd("hd", "hd-eth0"), back.source());
        assertEquals(new HostEnd("h1a", "h1a-eth0"), back.destination());
        assertTrue(back.complete(), back.gaps().toString());
    }

    @Test
    void noHopIsInventedWhereTheTopologyLeavesAChoice() {
        // hx sits on leaf3 and leaf4, both silent, both under spine1: which one carried it?
        final var links = both(both(LinkIndex.builder(),
            "h1a", "h1a-eth0", "leaf1", "leaf1-eth1",
            "leaf1", "leaf1-eth3", "spine1", "spine1-eth1"),
            "spine1", "spine1-eth3", "leaf3", "leaf3-eth3",
            "spine1", "spine1-eth4", "leaf4", "leaf4-eth3",
            "hx", "hx-eth0", "leaf3", "leaf3-eth1",
            "hx", "hx-eth1", "leaf4", "leaf4-eth1").build();
        final var fabric = new Fabric(links, HostIndex.builder().host("h1a", List.of(H1A))
            .host("hx", List.of("10.9.0.2")).build(), Set.of("leaf1", "spine1", "leaf3", "leaf4"));
        final var result = PathAssembler.assemble(List.of(
            new Observation("leaf1", "leaf1-eth1", 10), new Observation("spine1", "spine1-eth1", 20)),
            fabric, H1A, "10.9.0.2");
        assertEquals(List.of("leaf1", "spine1"), nodes(result));
        assertNull(result.hops().get(1).egressTp());
        assertEquals(new HostEnd("hx", null), result.destination());
        assertFalse(result.complete());
        assertTrue(result.gaps().get(0).contains("no link to the destination host hx")
            && result.gaps().get(0).contains("[leaf3, leaf4]"), result.gaps().toString());

        // two links from leaf1 to a silent spine2: its ingress port is not unique, so no hop
        final var parallel = both(LinkIndex.builder(),
            "leaf1", "leaf1-eth4", "spine2", "spine2-eth1",
            "leaf1", "leaf1-eth5", "spine2", "spine2-eth3",
            "leaf2", "leaf2-eth4", "spine2", "spine2-eth2").build();
        final var split = PathAssembler.assemble(List.of(
            new Observation("leaf1", "leaf1-eth1", 10), new Observation("leaf2", "leaf2-eth4", 30)),
            new Fabric(parallel, HostIndex.EMPTY, SWITCHES), H1A, H2A);
        assertEquals(List.of("leaf1", "leaf2"), nodes(split));
        assertTrue(split.gaps().stream().anyMatch(gap -> gap.startsWith("switch spine2 ")
            && gap.contains("no hop inferred")), split.gaps().toString());
        assertTrue(split.gaps().stream()
            .anyMatch(gap -> gap.startsWith("path breaks before leaf2 (it came from spine2")), split.gaps().toString());

        // a silent first switch the source host is not on: nothing to start from
        final var notOnIt = PathAssembler.assemble(List.of(new Observation("spine1", "spine1-eth1", 20)),
            FABRIC, H2A, H1A);
        assertEquals(List.of("spine1"), nodes(notOnIt), "nor back down to the switch it came from");
        assertEquals(new HostEnd("h2a", null), notOnIt.source());
        assertTrue(notOnIt.gaps().stream()
            .anyMatch(gap -> gap.startsWith("switch leaf1 ") && !gap.contains("inferred")), notOnIt.gaps().toString());
    }

    @Test
    void aBrokenPathKeepsItsEndsInPlaceWhateverTheSwitchesClocksSay() {
        // spine2 is no RFT switch: nothing joins the pieces, and leaf2's clock is behind leaf1's
        final var result = PathAssembler.assemble(List.of(
            new Observation("leaf2", "leaf2-eth4", 10), new Observation("leaf1", "leaf1-eth1", 50)),
            new Fabric(LINKS, HOSTS, Set.of("leaf1", "leaf2")), H1A, H2A);
        assertEquals(List.of("leaf1", "leaf2"), nodes(result));
        assertEquals(new HostEnd("h1a", "h1a-eth0"), result.source());
        assertEquals(new HostEnd("h2a", "h2a-eth0"), result.destination());
        assertEquals(
            List.of("path breaks before leaf2 (it came from spine2 port spine2-eth2, which RFT does not trace)"),
            result.gaps());
    }

    @Test
    void withoutHostsInTheTopologyThePathStillRunsFromTheFeedingNode() {
        final var result = PathAssembler.assemble(List.of(
            new Observation("leaf1", "leaf1-eth1", 10), new Observation("spine1", "spine1-eth1", 20),
            new Observation("leaf2", "leaf2-eth3", 30)), new Fabric(LINKS, HostIndex.EMPTY, SWITCHES), H1A, H2A);
        assertEquals(new HostEnd("h1a", "h1a-eth0"), result.source());
        assertNull(result.destination(), "which host holds the receiver's IP is not known");
        assertNull(result.hops().get(2).egressTp());
        assertTrue(result.complete(), result.gaps().toString());
    }

    @Test
    void anAddressTwoHostsClaimIsNobodys() {
        final var hosts = HostIndex.builder().host("h1a", List.of(H1A)).host("h9", List.of(H1A, "not-an-ip")).build();
        assertNull(hosts.hostOf(H1A));
        assertNull(hosts.hostOf("not-an-ip"));
        assertEquals("hd", HOSTS.hostOf("FD00::3:2"));
        assertTrue(HOSTS.isHost("h1a") && HOSTS.isSwitch("spine1") && !HOSTS.isSwitch("h1a"));
    }

    @Test
    void missingLinkBreaksThePath() {
        final var result = PathAssembler.assemble(List.of(
            new Observation("leaf1", "leaf1-eth1", 10),
            new Observation("spine1", "spine1-eth9", 20)), FABRIC, H1A, H2A);
        assertFalse(result.complete());
        assertTrue(result.gaps().stream().anyMatch(gap -> gap.contains("breaks before spine1")),
            result.gaps().toString());
    }

    @Test
    void asymmetryIsAFinding() {
        final var forward = PathAssembler.assemble(List.of(
            new Observation("leaf1", "leaf1-eth1", 10), new Observation("spine1", "spine1-eth1", 20),
            new Observation("leaf2", "leaf2-eth3", 30)), FABRIC, H1A, H2A);
        final var viaSameSpine = PathAssembler.assemble(List.of(
            new Observation("leaf2", "leaf2-eth1", 40), new Observation("spine1", "spine1-eth2", 50),
            new Observation("leaf1", "leaf1-eth3", 60)), FABRIC, H2A, H1A);
        final var viaOtherSpine = PathAssembler.assemble(List.of(
            new Observation("leaf2", "leaf2-eth1", 40), new Observation("spine2", "spine2-eth2", 50),
            new Observation("leaf1", "leaf1-eth4", 60)), FABRIC, H2A, H1A);
        assertTrue(viaOtherSpine.complete());
        assertEquals(new HostEnd("h1a", "h1a-eth0"), viaOtherSpine.destination());
        assertFalse(PathAssembler.asymmetric(forward, viaSameSpine));
        assertTrue(PathAssembler.asymmetric(forward, viaOtherSpine));
    }

    @Test
    void nothingSeenIsReported() {
        final var result = PathAssembler.assemble(List.of(), FABRIC, H1A, H2A);
        assertFalse(result.complete());
        assertEquals(List.of(), result.hops());
        assertEquals(1, result.gaps().size());
    }

    @Test
    void indexesOfTheSameFactsAreEqual() {
        assertEquals(both(LinkIndex.builder(), "a", "a1", "b", "b1").build(),
            both(LinkIndex.builder(), "b", "b1", "a", "a1").build());
        assertFalse(LINKS.equals(LinkIndex.EMPTY));
        assertEquals(HostIndex.builder().host("h", List.of("10.0.0.1")).build(),
            HostIndex.builder().host("h", List.of("10.0.0.1")).build());
    }

    private static List<String> nodes(final DirectionResult result) {
        return result.hops().stream().map(HopResult::node).toList();
    }
}
