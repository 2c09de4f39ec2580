/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.insight;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.eclipse.jdt.annotation.Nullable;
import org.junit.jupiter.api.Test;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.AgentState;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.CmMessageType;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.SessionState;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.insight.rev261201.ProblemKind;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.insight.rev261201.Severity;

/**
 * The detectors on an index built by hand, without a datastore: what a problem says of the
 * sessions it groups (their count, times, sample, switches).
 */
public class ProblemDetectorTest {
    private static final double NOW = 100_000;
    private static final String A = "10.0.1.2";
    private static final String B = "10.0.4.2";

    private final FabricIndex index = new FabricIndex();
    private final ProblemDetector detector = new ProblemDetector(ProblemDetector.Options.DEFAULTS);

    @Test
    public void aFlappingPairNamesEverySwitchThatSawASetUpInItsWindow() {
        // three set-ups of the same endpoints within a minute, two ended, each seen by other switches
        see("f1", "leaf1", SessionState.CLOSED, NOW - 60, -1, null);
        see("f1", "spine1", SessionState.CLOSED, NOW - 60, -1, null);
        see("f2", "leaf1", SessionState.REJECTED, NOW - 40, 28, "swp1");
        see("f3", "leaf2", SessionState.ESTABLISHED, NOW - 20, -1, null);
        see("f3", "spine2", SessionState.ESTABLISHED, NOW - 20, -1, null);
        // an older set-up outside the densest window: not in the problem
        see("f0", "spine9", SessionState.CLOSED, NOW - 1000, -1, null);

        final var flapping = only(ProblemKind.Flapping);
        assertEquals(3, flapping.count());
        assertEquals(List.of("f1", "f2", "f3"), flapping.sessions());
        assertEquals(List.of("leaf1", "leaf2", "spine1", "spine2"),
            flapping.places().stream().map(Problem.Place::node).toList());
        assertEquals("leaf1", flapping.node());
        assertTrue(flapping.detail().endsWith("; seen at leaf1, leaf2, spine1, spine2"), flapping.detail());
        assertTrue(flapping.detail().startsWith(A + " -> " + B + " (service 0x106)"), flapping.detail());
        assertTrue(flapping.title().startsWith("Flapping: 3 set-ups in 40 s, 2 ended"), flapping.title());
        assertEquals(NOW - 60, flapping.firstSeen(), 0);
        assertEquals(NOW - 20, flapping.lastSeen(), 0);
    }

    @Test
    public void rejectionsAtOnePortAreOneProblemCountingEachAndAtAnotherPortAnother() {
        for (int i = 0; i < 30; i++) {
            see("r" + (100 + i), "leaf2", SessionState.REJECTED, NOW - 300 + i, 28, "swp3");
        }
        see("r200", "leaf2", SessionState.REJECTED, NOW - 10, 28, "swp4");

        final var rejected = detector.detect(index, NOW).stream().filter(p -> p.kind() == ProblemKind.Rejected)
            .toList();
        assertEquals(2, rejected.size());
        final var big = rejected.get(0);
        assertEquals(30, big.count());
        assertEquals("leaf2", big.node());
        assertEquals("swp3", big.tp());
        assertEquals(28, big.rejectReason());
        assertEquals("REJ entered the fabric at leaf2 port swp3", big.detail());
        assertEquals(List.of(new Problem.Place("leaf2", "swp3")), big.places());
        // the first of them to the last, and a sample of the first 20 in order
        assertEquals(NOW - 300 + 1, big.firstSeen(), 0);
        assertEquals(NOW - 300 + 29 + 1, big.lastSeen(), 0);
        assertEquals(ProblemDetector.SAMPLE, big.sessions().size());
        assertEquals("r100", big.sessions().get(0));
        final var small = rejected.get(1);
        assertEquals(1, small.count());
        assertEquals("swp4", small.tp());
        assertEquals(List.of("r200"), small.sessions());
    }

    @Test
    public void theMessageThatTellsWhereIsTheLatestOrEarliestWithAReadableTimeTiesGoingToTheFirstSwitchByName() {
        // a DREQ that got no DREP: the latest DREQ names the place; leaf9's time is unreadable
        final double first = NOW - 100;
        final String[][] dreqs = {{"leaf9", "swp7"}, {"spine2", "swp2"}, {"leaf3", "swp3"}, {"leaf1", "swp4"}};
        final double[] times = {Double.NaN, first + 5, first + 5, first + 4};
        for (int i = 0; i < dreqs.length; i++) {
            final var m = new Sighting.Messages();
            m.add(CmMessageType.REQ, "swp1", first);
            m.add(CmMessageType.REP, "swp1", first);
            m.add(CmMessageType.DREQ, dreqs[i][1], times[i]);
            index.putSighting(new Sighting(dreqs[i][0], SessionState.TIMEDOUT, A, B, "0x106", true, -1, first,
                first + 6, m), "d1", NOW);
        }
        final var verdict = detector.verdict(index.sightings("d1"), NOW);
        assertEquals(ProblemKind.DreqUnanswered, verdict.kind());
        // the latest readable DREQ is at first + 5, seen by spine2 and leaf3 alike: leaf3 by name
        assertEquals("leaf3", verdict.node());
        assertEquals("swp3", verdict.tp());
    }

    @Test
    public void aRejectionIsPlacedWhereTheEarliestReadableRejEnteredTiesGoingToTheFirstSwitchByName() {
        final double first = NOW - 100;
        // whatever order the switches come in
        for (var order : List.of(List.of(0, 1, 2, 3), List.of(3, 2, 1, 0), List.of(2, 0, 3, 1))) {
            final String[][] rejs = {{"leaf9", "swp7"}, {"spine1", "swp5"}, {"leaf3", "swp6"}, {"leaf2", "swp3"}};
            final double[] times = {Double.NaN, first + 2, first + 1, first + 1};
            final int[] reasons = {5, 5, 5, 28};
            final var sightings = new ArrayList<Sighting>();
            for (int i : order) {
                final var m = new Sighting.Messages();
                m.add(CmMessageType.REQ, "swp1", first);
                m.add(CmMessageType.REJ, rejs[i][1], times[i]);
                sightings.add(new Sighting(rejs[i][0], SessionState.REJECTED, A, B, "0x106", true, reasons[i], first,
                    first + 3, m));
            }
            final var verdict = detector.verdict(sightings, NOW);
            assertEquals(ProblemKind.Rejected, verdict.kind());
            assertEquals("leaf2", verdict.node());
            assertEquals("swp3", verdict.tp());
            // the reason is that REJ's, not the least of them
            assertEquals(28, verdict.rejectReason());
        }
    }

    @Test
    public void anUnansweredRepIsPlacedAtTheLatestRepOrMraAndAnUnansweredReqAtTheLatestReqOrTheFirstSwitch() {
        final double first = NOW - 100;
        final var rep = new Sighting.Messages();
        rep.add(CmMessageType.REQ, "swp1", first);
        rep.add(CmMessageType.REP, "swp2", first + 1);
        final var mra = new Sighting.Messages();
        mra.add(CmMessageType.REQ, "swp1", first);
        mra.add(CmMessageType.MRA, "swp8", first + 3);
        final var repUnanswered = detector.verdict(List.of(
            new Sighting("leaf1", SessionState.TIMEDOUT, A, B, null, true, -1, first, first + 4, rep),
            new Sighting("spine1", SessionState.REPSENT, A, B, null, true, -1, first, first + 4, mra)), NOW);
        assertEquals(ProblemKind.RepUnanswered, repUnanswered.kind());
        assertEquals("spine1", repUnanswered.node());
        assertEquals("swp8", repUnanswered.tp());

        // the only REQ's time unreadable: still its place
        final var reqNoTime = new Sighting.Messages();
        reqNoTime.add(CmMessageType.REQ, "swp9", Double.NaN);
        final var reqUnanswered = detector.verdict(List.of(
            new Sighting("spine2", SessionState.TIMEDOUT, A, B, null, true, -1, first, first + 4,
                new Sighting.Messages()),
            new Sighting("leaf5", SessionState.REQSENT, A, B, null, true, -1, first, first + 4, reqNoTime)), NOW);
        assertEquals(ProblemKind.ReqUnanswered, reqUnanswered.kind());
        assertEquals("leaf5", reqUnanswered.node());
        assertEquals("swp9", reqUnanswered.tp());

        // no switch saw the REQ: the first switch by name, no port
        final var none = detector.verdict(List.of(
            new Sighting("spine2", SessionState.TIMEDOUT, A, B, null, true, -1, first, first + 4,
                new Sighting.Messages()),
            new Sighting("leaf7", SessionState.REQSENT, A, B, null, true, -1, first, first + 4,
                new Sighting.Messages())), NOW);
        assertEquals(ProblemKind.ReqUnanswered, none.kind());
        assertEquals("leaf7", none.node());
        assertNull(none.tp());
    }

    /** A switch's sighting of a data-learned session or flow, seen from {@code first} to {@code last}. */
    private void seeData(final String id, final String node, final int origin, final double first, final double last) {
        index.putSighting(new Sighting(node, SessionState.ACTIVE, A, B, null, false, -1, first, last,
            new Sighting.Messages(), origin), id, NOW);
    }

    @Test
    public void aOneWayRcFlowNobodySawAnsweredForAMinuteIsHalfSeen() {
        final int flow = Sighting.DATA | Sighting.ONE_WAY | Sighting.RC;
        // carried data for two minutes, seen at two spines: no response anywhere
        seeData("A/-/B/qp0x000001", "spine1", flow, NOW - 120, NOW - 1);
        seeData("A/-/B/qp0x000001", "spine2", flow, NOW - 100, NOW - 2);
        seeData("A/-/B/qp0x000002", "spine1", flow, NOW - 90, NOW);
        seeData("A/-/B/qp0x000002", "spine2", flow, NOW - 90, NOW);
        // too short to say
        seeData("A/-/B/qp0x000003", "spine1", flow, NOW - 30, NOW);
        // UD has no responses; a flow paired, or ambiguous, had its other direction seen somewhere
        seeData("A/-/B/qp0x000004", "spine1", Sighting.DATA | Sighting.ONE_WAY, NOW - 500, NOW);
        seeData("A/-/B/qp0x000005", "spine1", flow | Sighting.PAIRED, NOW - 500, NOW);
        seeData("A/-/B/qp0x000006", "spine1", flow | Sighting.AMBIGUOUS, NOW - 500, NOW);
        // a switch paired it: one switch saw both ways
        seeData("A/-/B/qp0x000007", "spine1", flow, NOW - 500, NOW);
        seeData("A/-/B/qp0x000007", "leaf1", Sighting.DATA | Sighting.RC, NOW - 500, NOW);
        // a data-learned session has no CM to fail
        seeData("A/qp0x000008/B/qp0x000009", "leaf1", Sighting.DATA | Sighting.RC, NOW - 500, NOW);

        final var half = only(ProblemKind.HalfSeen);
        assertEquals(2, half.count());
        assertEquals(List.of("A/-/B/qp0x000001", "A/-/B/qp0x000002"), half.sessions());
        assertEquals("data", half.learnedFrom());
        assertEquals("spine1", half.node());
        assertEquals(List.of("spine1", "spine2"), half.places().stream().map(Problem.Place::node).toList());
        assertEquals(NOW - 120, half.firstSeen(), 0);
        assertTrue(half.detail().startsWith("one-way RC flows seen at spine1, spine2 (the first "
            + A + " -> " + B + ") carried data for"), half.detail());
        // nothing else: no session failed, no set-ups flap
        assertEquals(List.of(ProblemKind.HalfSeen), detector.detect(index, NOW).stream().map(Problem::kind).toList());
        assertNull(detector.verdict(index.sightings("A/qp0x000008/B/qp0x000009"), NOW));
        // and the summary says where they were learnt
        final var entry = ProblemSummary.of(detector.detect(index, NOW)).toContainer(null).nonnullProblem().values()
            .iterator().next();
        assertEquals("data", entry.getLearnedFrom().getName());

        // the flow paired after all: no longer half-seen
        seeData("A/-/B/qp0x000001", "spine1", flow | Sighting.PAIRED, NOW - 120, NOW - 1);
        assertEquals(1, only(ProblemKind.HalfSeen).count());
    }

    /**
     * A one-way flow the controller joined into the CM session of its QPs (spine1 saw the data, not
     * the CM messages) is that session's data: not half-seen, and not a session of its own.
     */
    @Test
    public void aFlowJoinedToItsCmSessionIsNotHalfSeenNorASessionOfItsOwn() {
        final var m = new Sighting.Messages();
        m.add(CmMessageType.REQ, "swp1", NOW - 200);
        m.add(CmMessageType.REP, "swp2", NOW - 200);
        index.putSighting(new Sighting("leaf1", SessionState.ESTABLISHED, A, B, null, true, -1, NOW - 200, NOW - 200,
            m), "A/0x00000001/B", NOW);
        final int joined = Sighting.DATA | Sighting.ONE_WAY | Sighting.RC | Sighting.PAIRED | Sighting.JOINED;
        seeData("A/-/B/qp0x000001", "spine1", joined, NOW - 190, NOW);
        seeData("A/-/B/qp0x000001", "spine2", joined, NOW - 190, NOW);
        assertEquals(List.of(), detector.detect(index, NOW));
        assertEquals(1, index.sessionCount());
        // unjoined at one switch (the CM session went): a session of its own again, and, nobody
        // having seen its answers, half-seen
        seeData("A/-/B/qp0x000001", "spine2", Sighting.DATA | Sighting.ONE_WAY | Sighting.RC, NOW - 190, NOW);
        assertEquals(2, index.sessionCount());
        seeData("A/-/B/qp0x000001", "spine1", Sighting.DATA | Sighting.ONE_WAY | Sighting.RC, NOW - 190, NOW);
        assertEquals(1, only(ProblemKind.HalfSeen).count());
    }

    @Test
    public void aDataSessionSeenTimedOutIsNoFailedSetUp() {
        // whatever its sightings say, a data-learned session's are not CM's
        final var m = new Sighting.Messages();
        m.add(CmMessageType.REQ, "swp1", NOW - 10);
        assertNull(detector.verdict(List.of(new Sighting("leaf1", SessionState.TIMEDOUT, A, B, null, false, -1,
            NOW - 10, NOW - 5, m, Sighting.DATA)), NOW));
    }

    @Test
    public void anEnabledSwitchWhoseAgentDoesNotCaptureIsAProblemOfItsOwnAndNoOtherStateIs() {
        index.putAgent(new AgentFacts("leaf1", AgentState.STOPPED, "capture stopped by the operator", NOW - 30, NOW,
            5));
        index.putAgent(new AgentFacts("leaf2", AgentState.NOADDRESS, null, NOW - 40, Double.NaN, -1));
        index.putAgent(new AgentFacts("spine1", AgentState.UNREACHABLE, "connection refused", NOW - 50, NOW - 60, 9));
        for (var state : List.of(AgentState.CAPTURING, AgentState.CONNECTING, AgentState.DISABLED,
                AgentState.NOTCONFIGURED)) {
            index.putAgent(new AgentFacts("other-" + state.getName(), state, null, NOW - 10, NOW, 1));
        }

        final var problems = detector.detect(index, NOW);
        assertEquals(List.of("agent-unreachable|spine1", "agent-not-capturing|leaf1", "agent-not-capturing|leaf2"),
            problems.stream().map(Problem::id).toList());
        final var stopped = problems.get(1);
        assertEquals(ProblemKind.AgentNotCapturing, stopped.kind());
        assertEquals(Severity.Warning, stopped.severity());
        assertEquals("Capture stopped on the agent", stopped.title());
        assertEquals("leaf1: the agent answers but does not capture (capture stopped by the operator); its sessions"
            + " are not followed, and paths through it have a gap there", stopped.detail());
        assertEquals("leaf1", stopped.node());
        assertEquals("STOPPED", stopped.reason());
        assertEquals(1, stopped.count());
        assertEquals(NOW - 30, stopped.firstSeen(), 0);
        assertEquals(List.of(new Problem.Place("leaf1", null)), stopped.places());
        final var noAddress = problems.get(2);
        assertEquals("RFT on, but no agent address", noAddress.title());
        assertEquals("NO_ADDRESS", noAddress.reason());
        assertTrue(noAddress.detail().startsWith("leaf2: RFT is enabled but the switch has no agent address"),
            noAddress.detail());
        assertEquals(NOW - 40, noAddress.lastSeen(), 0);
        // counted per kind and per switch like every problem
        final var summary = ProblemSummary.of(problems);
        assertEquals(2L, summary.byKind().get(ProblemKind.AgentNotCapturing));
        assertEquals(1L, summary.bySwitch().get("leaf2").get(ProblemKind.AgentNotCapturing));
    }

    /** A switch's sighting of a session between A and B, set up at {@code first}, last seen a second later. */
    private void see(final String id, final String node, final SessionState state, final double first,
            final int reason, final @Nullable String rejPort) {
        final var m = new Sighting.Messages();
        m.add(CmMessageType.REQ, "swp1", first);
        if (rejPort == null) {
            m.add(CmMessageType.REP, "swp1", first);
        } else {
            m.add(CmMessageType.REJ, rejPort, first + 0.001);
        }
        index.putSighting(new Sighting(node, state, A, B, "0x106", true, reason, first, first + 1, m), id, NOW);
    }

    private Problem only(final ProblemKind kind) {
        final var found = detector.detect(index, NOW).stream().filter(p -> p.kind() == kind).toList();
        assertEquals(1, found.size(), found.toString());
        return found.get(0);
    }
}
