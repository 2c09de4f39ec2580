/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.insight;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.eclipse.jdt.annotation.Nullable;
import org.junit.jupiter.api.Test;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.AgentState;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.insight.rev261201.ProblemKind;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.insight.rev261201.Severity;

/**
 * The congestion detectors on an index built by hand: congested data directions against the CE
 * share and CNP thresholds (at the threshold is not above it), PFC storms against the paused share,
 * and links paused at both ends.
 */
public class CongestionDetectorTest {
    private static final double NOW = 100_000;
    private static final String A = "10.0.1.2";
    private static final String B = "10.0.4.2";

    private final FabricIndex index = new FabricIndex();
    private final ProblemDetector detector = new ProblemDetector(ProblemDetector.Options.DEFAULTS);

    @Test
    public void aCeShareAboveTheThresholdIsCongestedAndOneAtItIsNot() {
        // exactly 0.05 (the default): not above it
        path("at", Problem.FORWARD, 0.05, 5, 100, 0, "leaf1", "swp3");
        assertTrue(of(ProblemKind.Congested).isEmpty(), of(ProblemKind.Congested).toString());
        assertEquals(0, detector.congestedSessions(index));

        // just above, twice at the same place: one problem counting both
        path("over1", Problem.FORWARD, 0.0501, 501, 10_000, 0, "leaf1", "swp3");
        path("over2", Problem.FORWARD, 0.2, 20, 100, 3, "leaf1", "swp3");
        final var congested = only(ProblemKind.Congested);
        assertEquals(2, congested.count());
        assertEquals(List.of("over1", "over2"), congested.sessions());
        assertEquals(Severity.Warning, congested.severity());
        assertEquals("leaf1", congested.node());
        assertEquals("swp3", congested.tp());
        assertEquals(Problem.FORWARD, congested.direction());
        assertEquals(Problem.DATA, congested.learnedFrom());
        assertEquals(List.of(new Problem.Place("leaf1", "swp3")), congested.places());
        assertEquals("Congested: data marked CE at leaf1 port swp3", congested.title());
        assertTrue(congested.detail().startsWith("2 sessions' data-forward (requester to responder): marked CE"
            + " leaving leaf1 port swp3, on the link into spine1 on swp2;"), congested.detail());
        // the figures summed over the congested sessions only (not "at", at the threshold)
        assertTrue(congested.detail().contains("a CE share up to 0.2000 (521 CE-marked of 10100 ECN-capable sampled"
            + " packets in all), 3 CNPs (up to 0.0300 per sampled packet)"), congested.detail());
        assertEquals(2, detector.congestedSessions(index));
        // counted at the marking port
        assertEquals(2L, ProblemSummary.of(detector.detect(index, NOW)).byPort()
            .get(new Problem.Place("leaf1", "swp3")).get(ProblemKind.Congested));
    }

    @Test
    public void cnpsAboveOnePerHundredSampledPacketsAreCongestedAndOnePerHundredIsNot() {
        // no CE anywhere: CNPs only; 1 per 100 ECN-capable sampled packets is the threshold itself
        path("one", Problem.REVERSE, 0, 0, 100, 1, null, null);
        assertTrue(of(ProblemKind.Congested).isEmpty(), of(ProblemKind.Congested).toString());
        path("two", Problem.REVERSE, 0, 0, 100, 2, null, null);
        final var congested = only(ProblemKind.Congested);
        assertEquals(List.of("two"), congested.sessions());
        assertEquals(Problem.REVERSE, congested.direction());
        assertNull(congested.node());
        assertTrue(congested.places().isEmpty());
        assertEquals("Congested: CNPs, no CE seen", congested.title());
        assertTrue(congested.detail().contains("responder to requester"), congested.detail());

        // CNPs with no sampled packet to weigh them against: not judged
        path("unweighed", Problem.FORWARD, Double.NaN, -1, -1, 50, null, null);
        assertEquals(List.of("two"), only(ProblemKind.Congested).sessions());
    }

    @Test
    public void theThresholdsAreTheOperatorsAndBadOnesAreRefused() {
        path("s", Problem.FORWARD, 0.03, 3, 100, 0, "leaf1", "swp3");
        assertTrue(of(ProblemKind.Congested).isEmpty());
        final var lower = new ProblemDetector(ProblemDetector.Options.congestion(0.02, 0.01, 0.5));
        assertEquals(1, lower.detect(index, NOW).stream().filter(p -> p.kind() == ProblemKind.Congested).count());
        assertThrows(IllegalArgumentException.class, () -> ProblemDetector.Options.congestion(1.5, 0.01, 0.5));
        assertThrows(IllegalArgumentException.class, () -> ProblemDetector.Options.congestion(0.05, -1, 0.5));
        assertThrows(IllegalArgumentException.class, () -> ProblemDetector.Options.congestion(0.05, 0.01, Double.NaN));
        // from etc/io.rst.insight.cfg: bad text gives the defaults, good text its values
        assertEquals(ProblemDetector.Options.DEFAULTS, InsightService.options("lots", "0.01", "0.5"));
        assertEquals(ProblemDetector.Options.DEFAULTS, InsightService.options("0.05", "0.01", "2"));
        final var read = InsightService.options(" 0.1", "0.02 ", "0.75");
        assertEquals(0.1, read.congestedCeShare(), 0);
        assertEquals(0.02, read.congestedCnpPerPacket(), 0);
        assertEquals(0.75, read.pfcStormShare(), 0);
    }

    @Test
    public void aPathThatLosesItsMarksLeavesTheProblemAndThePortSums() {
        path("p", Problem.FORWARD, 0.5, 50, 100, 0, "leaf1", "swp3");
        assertEquals(1, of(ProblemKind.Congested).size());
        assertEquals(100, index.ecnByPort().get("spine1").get("swp2")[0]);
        assertEquals(50, index.ecnByPort().get("spine1").get("swp2")[1]);
        path("p", Problem.FORWARD, 0, 0, 100, 0, null, null);
        assertTrue(of(ProblemKind.Congested).isEmpty());
        assertTrue(index.congestionByPlace().isEmpty(), index.congestionByPlace().toString());
        assertEquals(0, index.ecnByPort().get("spine1").get("swp2")[1]);
        index.removePath("p");
        assertTrue(index.ecnByPort().isEmpty(), index.ecnByPort().toString());
    }

    @Test
    public void aPortPausedMoreThanHalfTheIntervalIsAStormHoldingUpItsSessionsAndHalfIsNot() {
        index.putAgent(agent("leaf1", pfc("swp1", 3, 0.5, true), pfc("swp2", 3, 0.9, false),
            pfc("swp2", 6, Double.NaN, true)));
        index.putPausedPort(new FabricIndex.PausedPort("leaf1", "swp2", 3), new FabricIndex.HeldUp(42,
            List.of("s1", "s2")));
        final var storm = only(ProblemKind.PfcStorm);
        assertEquals("pfc-storm|leaf1|swp2|3", storm.id());
        assertEquals(Severity.Critical, storm.severity());
        assertEquals("leaf1", storm.node());
        assertEquals("swp2", storm.tp());
        assertEquals(3, storm.priority());
        assertEquals(42, storm.heldUp());
        assertEquals(List.of("s1", "s2"), storm.sessions());
        assertEquals(1, storm.count());
        assertTrue(storm.detail().contains("paused priority 3 for 0.9000 of the agent's last probe interval"),
            storm.detail());
        assertTrue(storm.detail().endsWith("it holds up 42 sessions whose data leaves through that port in that"
            + " priority"), storm.detail());

        // an agent that no longer answers: its figures are stale, no storm
        index.putAgent(new AgentFacts("leaf1", AgentState.UNREACHABLE, null, NOW, NOW, 1)
            .withPfc(List.of(pfc("swp2", 3, 0.9, false))));
        assertTrue(of(ProblemKind.PfcStorm).isEmpty());
    }

    @Test
    public void pausesAtBothEndsOfOneLinkInOnePriorityAreOneDeadlockSuspect() {
        // leaf1 swp5 <-> spine1 swp1, listed one way only in the topology
        index.links(Map.of(new Problem.Place("leaf1", "swp5"), new Problem.Place("spine1", "swp1"),
            new Problem.Place("spine1", "swp1"), new Problem.Place("leaf1", "swp5")));
        // one side paused: no suspect
        index.putAgent(agent("leaf1", pfc("swp5", 3, 0.2, false)));
        index.putAgent(agent("spine1", pfc("swp1", 4, 0.3, false), pfc("swp2", 3, 0.3, true)));
        assertTrue(of(ProblemKind.PfcDeadlockSuspect).isEmpty(), of(ProblemKind.PfcDeadlockSuspect).toString());

        // the other end paused in the same priority: one problem, however the ends are walked
        index.putAgent(agent("spine1", pfc("swp1", 4, 0.3, false), pfc("swp1", 3, 0, true)));
        index.putPausedPort(new FabricIndex.PausedPort("leaf1", "swp5", 3), new FabricIndex.HeldUp(2,
            List.of("b", "d")));
        index.putPausedPort(new FabricIndex.PausedPort("spine1", "swp1", 3), new FabricIndex.HeldUp(1,
            List.of("a")));
        final var suspect = only(ProblemKind.PfcDeadlockSuspect);
        assertEquals(Severity.Critical, suspect.severity());
        assertEquals("leaf1", suspect.node());
        assertEquals("swp5", suspect.tp());
        assertEquals(new Problem.Place("spine1", "swp1"), suspect.peer());
        assertEquals(3, suspect.priority());
        assertEquals(3, suspect.heldUp());
        assertEquals(List.of("a", "b", "d"), suspect.sessions());
        assertEquals(List.of(new Problem.Place("leaf1", "swp5"), new Problem.Place("spine1", "swp1")),
            suspect.places());
        assertTrue(suspect.detail().contains("leaf1 paused 0.2000 of its interval; spine1 paused 0.0000 of its"
            + " interval, paused now"), suspect.detail());

        // without the link in the topology: no suspect
        index.links(Map.of());
        assertTrue(of(ProblemKind.PfcDeadlockSuspect).isEmpty());
    }

    @Test
    public void theProblemsCarryTheirCongestionLeavesIntoTheContainer() {
        index.putAgent(agent("leaf1", pfc("swp2", 3, 0.9, false)));
        path("c", Problem.REVERSE, 0.5, 5, 10, 0, "leaf1", "swp3");
        final var entries = ProblemSummary.of(detector.detect(index, NOW)).toContainer(null).nonnullProblem()
            .values();
        final var storm = entries.stream().filter(p -> p.getKind() == ProblemKind.PfcStorm).findFirst()
            .orElseThrow();
        assertEquals(3, storm.getPriority().intValue());
        assertEquals(0, storm.getHeldUpSessions().intValue());
        assertNull(storm.getDirection());
        final var congested = entries.stream().filter(p -> p.getKind() == ProblemKind.Congested).findFirst()
            .orElseThrow();
        assertEquals("data-reverse", congested.getDirection().getName());
        assertNull(congested.getPriority());
        assertFalse(congested.getDetail().isEmpty());
    }

    /**
     * A data-learned path whose {@code direction} has these figures at spine1 (its last hop,
     * entered on swp2), marked at {@code markedNode}'s {@code markedTp} (null: no marked-at).
     */
    private void path(final String id, final String direction, final double share, final long ce, final long ect,
            final long cnp, final @Nullable String markedNode, final @Nullable String markedTp) {
        final var hops = List.of(new PathFacts.HopFigures("leaf1", "swp1", ect, 0, cnp),
            new PathFacts.HopFigures("spine1", "swp2", ect, ce, cnp));
        final var ecn = PathFacts.ecnOf(share, ce, cnp, markedNode != null, markedNode, markedTp,
            markedNode == null ? null : "spine1", markedNode == null ? null : "swp2", true, hops);
        index.putPath(new PathFacts(id, A, B, List.of("leaf1", "spine1"), List.of("spine1", "leaf1"), true, true,
            false, List.of(), true, false, Problem.FORWARD.equals(direction) ? ecn : null,
            Problem.REVERSE.equals(direction) ? ecn : null));
    }

    private static AgentFacts agent(final String node, final AgentFacts.Pfc... pfc) {
        return new AgentFacts(node, AgentState.CAPTURING, null, NOW, NOW, 1).withPfc(List.of(pfc));
    }

    private static AgentFacts.Pfc pfc(final String tp, final int priority, final double share, final boolean paused) {
        return new AgentFacts.Pfc(tp, priority, 10, 1_000_000, paused, share, NOW - 1);
    }

    private List<Problem> of(final ProblemKind kind) {
        return detector.detect(index, NOW).stream().filter(p -> p.kind() == kind).toList();
    }

    private Problem only(final ProblemKind kind) {
        final var found = of(kind);
        assertEquals(1, found.size(), found.toString());
        return found.get(0);
    }
}
