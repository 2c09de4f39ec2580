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
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rst.rpt.PathAssembler.HopResult;
import io.rst.rpt.PathAssembler.Observation;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Path assembly on a two-tier fabric: h1a - leaf1 - spine1/spine2 - leaf2 - h2a.
 */
class PathAssemblerTest {
    private static final Set<String> SWITCHES = Set.of("leaf1", "leaf2", "spine1", "spine2");
    // links both ways, as LLDP-learnt topologies have them
    private static final LinkIndex LINKS = LinkIndex.builder()
        .link("h1a", "h1a-eth0", "leaf1", "leaf1-eth1").link("leaf1", "leaf1-eth1", "h1a", "h1a-eth0")
        .link("leaf1", "leaf1-eth3", "spine1", "spine1-eth1").link("spine1", "spine1-eth1", "leaf1", "leaf1-eth3")
        .link("leaf1", "leaf1-eth4", "spine2", "spine2-eth1").link("spine2", "spine2-eth1", "leaf1", "leaf1-eth4")
        .link("leaf2", "leaf2-eth3", "spine1", "spine1-eth2").link("spine1", "spine1-eth2", "leaf2", "leaf2-eth3")
        .link("leaf2", "leaf2-eth4", "spine2", "spine2-eth2").link("spine2", "spine2-eth2", "leaf2", "leaf2-eth4")
        .link("h2a", "h2a-eth0", "leaf2", "leaf2-eth1").link("leaf2", "leaf2-eth1", "h2a", "h2a-eth0")
        .build();

    @Test
    void chainsObservationsByLinksWhateverTheirOrder() {
        final var result = PathAssembler.assemble(List.of(
            new Observation("leaf2", "leaf2-eth3", 30),
            new Observation("leaf1", "leaf1-eth1", 10),
            new Observation("spine1", "spine1-eth1", 20)), LINKS, SWITCHES);
        assertEquals(List.of(
            new HopResult("leaf1", "leaf1-eth1", "leaf1-eth3", true),
            new HopResult("spine1", "spine1-eth1", "spine1-eth2", true),
            new HopResult("leaf2", "leaf2-eth3", null, true)), result.hops());
        assertTrue(result.complete(), result.gaps().toString());
    }

    @Test
    void unobservedSwitchIsAGapNotPaperedOver() {
        final var result = PathAssembler.assemble(List.of(
            new Observation("leaf1", "leaf1-eth1", 10),
            new Observation("leaf2", "leaf2-eth4", 30)), LINKS, SWITCHES);
        assertFalse(result.complete());
        assertTrue(result.gaps().stream().anyMatch(gap -> gap.contains("spine2")), result.gaps().toString());
        assertEquals(2, result.hops().size());
    }

    @Test
    void missingLinkBreaksThePath() {
        final var result = PathAssembler.assemble(List.of(
            new Observation("leaf1", "leaf1-eth1", 10),
            new Observation("spine1", "spine1-eth9", 20)), LINKS, SWITCHES);
        assertFalse(result.complete());
        assertTrue(result.gaps().stream().anyMatch(gap -> gap.contains("breaks before spine1")), result.gaps().toString());
    }

    @Test
    void asymmetryIsAFinding() {
        final var forward = PathAssembler.assemble(List.of(
            new Observation("leaf1", "leaf1-eth1", 10), new Observation("spine1", "spine1-eth1", 20),
            new Observation("leaf2", "leaf2-eth3", 30)), LINKS, SWITCHES);
        final var viaSameSpine = PathAssembler.assemble(List.of(
            new Observation("leaf2", "leaf2-eth1", 40), new Observation("spine1", "spine1-eth2", 50),
            new Observation("leaf1", "leaf1-eth3", 60)), LINKS, SWITCHES);
        final var viaOtherSpine = PathAssembler.assemble(List.of(
            new Observation("leaf2", "leaf2-eth1", 40), new Observation("spine2", "spine2-eth2", 50),
            new Observation("leaf1", "leaf1-eth4", 60)), LINKS, SWITCHES);
        assertTrue(viaOtherSpine.complete());
        assertFalse(PathAssembler.asymmetric(forward, viaSameSpine));
        assertTrue(PathAssembler.asymmetric(forward, viaOtherSpine));
    }

    @Test
    void nothingSeenIsReported() {
        final var result = PathAssembler.assemble(List.of(), LINKS, SWITCHES);
        assertFalse(result.complete());
        assertEquals(List.of(), result.hops());
        assertEquals(1, result.gaps().size());
    }
}
