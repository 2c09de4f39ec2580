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
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * One-way RC flows that different switches saw are paired by their PSNs, or by the QPs of a
 * session another switch paired; where more than one flow fits, nothing is.
 */
class DataPairingTest {
    private static final String A = "10.0.0.1";
    private static final String B = "10.0.0.2";

    /** What each switch was told to write again. */
    private final Map<String, List<Set<String>>> told = new HashMap<>();

    private DataPairing pairing(final String... nodes) {
        final var pairing = new DataPairing();
        for (var node : nodes) {
            pairing.register(node, ids -> told.computeIfAbsent(node, k -> new ArrayList<>()).add(Set.copyOf(ids)));
        }
        return pairing;
    }

    private static DataPairing.Facts flow(final String src, final String dst, final int dstQpn, final int[] requests,
            final int[] responses) {
        return new DataPairing.Facts(true, true, src, dst, -1, dstQpn, requests, responses);
    }

    private static String flowId(final String src, final String dst, final int qpn) {
        return src + "/-/" + dst + "/qp0x" + String.format("%06x", qpn);
    }

    private static int[] psns(final int... psns) {
        return psns;
    }

    @Test
    void twoDirectionsSeenAtTwoSwitchesArePairedByTheirPsns() {
        final var pairing = pairing("spine1", "spine2");
        // A -> B to QP 0x22 crosses spine1; B -> A to QP 0x11 (its ACKs) crosses spine2
        final var x = flowId(A, B, 0x22);
        final var y = flowId(B, A, 0x11);
        pairing.observe("spine1", x, flow(A, B, 0x22, psns(4096, 8192), psns()));
        pairing.observe("spine2", y, flow(B, A, 0x11, psns(), psns(4096)));
        assertEquals(2, pairing.sweep());
        final var paired = "10.0.0.1/qp0x000011/10.0.0.2/qp0x000022";
        assertEquals(new DataPairing.Outcome(paired, false), pairing.outcome(x));
        assertEquals(new DataPairing.Outcome(paired, false), pairing.outcome(y));
        assertEquals(List.of(Set.of(x)), told.get("spine1"));
        assertEquals(List.of(Set.of(y)), told.get("spine2"));
        assertEquals(2, pairing.paired());

        // nothing changed: nothing to write again
        told.clear();
        pairing.observe("spine1", x, flow(A, B, 0x22, psns(4096, 8192), psns()));
        assertEquals(0, pairing.sweep());
        assertTrue(told.isEmpty());

        // the other direction gone: the flow is one-way again, and its switch is told
        pairing.forget("spine2", y);
        assertEquals(1, pairing.sweep());
        assertEquals(DataPairing.Outcome.NONE, pairing.outcome(x));
        assertEquals(DataPairing.Outcome.NONE, pairing.outcome(y));
        assertEquals(List.of(Set.of(x)), told.get("spine1"));
    }

    @Test
    void theRequestsOfEitherSideMayBeAnswered() {
        final var pairing = pairing("spine1", "spine2");
        // B's READ responses to A's request: the answer is in A -> B's responses... the other way round
        final var x = flowId(A, B, 0x22);
        final var y = flowId(B, A, 0x11);
        pairing.observe("spine1", x, flow(A, B, 0x22, psns(), psns(0xFFF000)));
        pairing.observe("spine2", y, flow(B, A, 0x11, psns(0xFFF000, 0xFFE000), psns()));
        pairing.sweep();
        assertEquals("10.0.0.1/qp0x000011/10.0.0.2/qp0x000022", pairing.outcome(x).pairedId());
        assertEquals(pairing.outcome(x), pairing.outcome(y));
    }

    @Test
    void aSecondFlowThatFitsMakesThePairingAmbiguous() {
        final var pairing = pairing("spine1", "spine2", "spine3");
        final var x = flowId(A, B, 0x22);
        final var y = flowId(B, A, 0x11);
        final var z = flowId(B, A, 0x33);
        pairing.observe("spine1", x, flow(A, B, 0x22, psns(4096, 8192), psns()));
        pairing.observe("spine2", y, flow(B, A, 0x11, psns(), psns(4096)));
        pairing.observe("spine3", z, flow(B, A, 0x33, psns(), psns(8192)));
        pairing.sweep();
        for (var id : List.of(x, y, z)) {
            assertEquals(DataPairing.Outcome.AMBIGUOUS, pairing.outcome(id), id);
        }
        assertEquals(3, pairing.ambiguous());
        // z's PSNs move on: x and y are the only fit again
        pairing.observe("spine3", z, flow(B, A, 0x33, psns(), psns(12288 + 4096 * 100)));
        pairing.sweep();
        assertEquals("10.0.0.1/qp0x000011/10.0.0.2/qp0x000022", pairing.outcome(x).pairedId());
        assertEquals(DataPairing.Outcome.NONE, pairing.outcome(z));
    }

    @Test
    void aFlowJoinsTheSessionAnotherSwitchPairedByItsQp() {
        final var pairing = pairing("leaf1", "spine1");
        final var session = "10.0.0.1/qp0x000011/10.0.0.2/qp0x000022";
        pairing.observe("leaf1", session, new DataPairing.Facts(false, true, A, B, 0x11, 0x22, null, null));
        // spine1 saw A -> B only, with no PSN in common with anything: the QP decides
        final var x = flowId(A, B, 0x22);
        final var y = flowId(B, A, 0x11);
        pairing.observe("spine1", x, flow(A, B, 0x22, psns(4096), psns()));
        pairing.observe("spine1", y, flow(B, A, 0x11, psns(), psns()));
        pairing.sweep();
        assertEquals(new DataPairing.Outcome(session, false), pairing.outcome(x));
        assertEquals(new DataPairing.Outcome(session, false), pairing.outcome(y));
        // a flow to the same QP from another address is not that session's
        final var other = flowId("10.0.0.9", B, 0x22);
        pairing.observe("spine1", other, flow("10.0.0.9", B, 0x22, psns(4096), psns()));
        pairing.sweep();
        assertEquals(DataPairing.Outcome.NONE, pairing.outcome(other));
        // the session gone from every switch: the flows are one-way again
        pairing.forget("leaf1", session);
        pairing.sweep();
        assertEquals(DataPairing.Outcome.NONE, pairing.outcome(x));
    }

    private static final String CM_ID = "10.0.0.1/0x00000abc/10.0.0.2";
    /** The CM session between A's QP 0x11 (requester) and B's QP 0x22 (responder). */
    private static final DataPairing.CmEnds CM = new DataPairing.CmEnds(A, 0x11, B, 0x22);

    @Test
    void aFlowOfACmSessionsQpJoinsThatSession() {
        final var pairing = pairing("leaf1", "spine1");
        // spine1 saw the data A -> B to the responder's QP, not the CM messages (ECMP)
        final var x = flowId(A, B, 0x22);
        pairing.observe("spine1", x, flow(A, B, 0x22, psns(4096), psns()));
        assertTrue(pairing.tracksCm());
        pairing.observeCm("leaf1", CM_ID, CM);
        pairing.sweep();
        assertEquals(new DataPairing.Outcome(CM_ID, false), pairing.outcome(x));
        assertEquals(List.of(Set.of(x)), told.get("spine1"));
        // the other direction, to the requester's QP, joins it too
        final var y = flowId(B, A, 0x11);
        pairing.observe("spine1", y, flow(B, A, 0x11, psns(), psns()));
        pairing.sweep();
        assertEquals(CM_ID, pairing.outcome(y).pairedId());
        // a flow to the same QP from another address is not that session's
        final var other = flowId("10.0.0.9", B, 0x22);
        pairing.observe("spine1", other, flow("10.0.0.9", B, 0x22, psns(), psns()));
        pairing.sweep();
        assertEquals(DataPairing.Outcome.NONE, pairing.outcome(other));
        // the CM session gone from every switch: the flows are on their own again
        pairing.forget("leaf1", CM_ID);
        pairing.sweep();
        assertEquals(DataPairing.Outcome.NONE, pairing.outcome(x));
        assertEquals(DataPairing.Outcome.NONE, pairing.outcome(y));
        assertEquals(0, pairing.cmSessions());
    }

    @Test
    void aDataLearnedSessionOfACmSessionsQpsJoinsIt() {
        final var pairing = pairing("leaf1", "spine1");
        final var data = "10.0.0.1/qp0x000011/10.0.0.2/qp0x000022";
        pairing.observe("spine1", data, new DataPairing.Facts(false, true, A, B, 0x11, 0x22, null, null));
        // the CM session as a switch that saw the REQ alone has it: the requester's QP and B's address
        pairing.observeCm("leaf1", CM_ID, new DataPairing.CmEnds(A, 0x11, B, -1));
        assertEquals(1, pairing.sweep());
        assertEquals(new DataPairing.Outcome(CM_ID, false), pairing.outcome(data));
        assertEquals(1, pairing.joined());
        assertEquals(List.of(Set.of(data)), told.get("spine1"));
        // another QP pair between the same two hosts is not it
        final var otherData = "10.0.0.1/qp0x000033/10.0.0.2/qp0x000044";
        pairing.observe("spine1", otherData, new DataPairing.Facts(false, true, A, B, 0x33, 0x44, null, null));
        pairing.sweep();
        assertEquals(DataPairing.Outcome.NONE, pairing.outcome(otherData));
        // the CM session's responder QP, learnt at another switch, must agree
        pairing.observeCm("spine2", CM_ID, new DataPairing.CmEnds(A, 0x11, B, 0x99));
        pairing.sweep();
        assertEquals(DataPairing.Outcome.NONE, pairing.outcome(data));
        assertEquals(0, pairing.joined());
    }

    @Test
    void cmWinsOverADataLearnedSessionAndAFlowOfThatSessionFollows() {
        final var pairing = pairing("leaf1", "leaf2", "spine1");
        final var data = "10.0.0.1/qp0x000011/10.0.0.2/qp0x000022";
        // leaf2 paired the two directions, spine1 saw one of them, leaf1 the CM messages
        pairing.observe("leaf2", data, new DataPairing.Facts(false, true, A, B, 0x11, 0x22, null, null));
        final var x = flowId(A, B, 0x22);
        pairing.observe("spine1", x, flow(A, B, 0x22, psns(4096), psns()));
        pairing.sweep();
        assertEquals(data, pairing.outcome(x).pairedId());
        pairing.observeCm("leaf1", CM_ID, CM);
        pairing.sweep();
        assertEquals(CM_ID, pairing.outcome(x).pairedId());
        assertEquals(CM_ID, pairing.outcome(data).pairedId());
        // a flow that matches the data-learned session by the QP the CM session did not announce
        // (no REP seen anywhere) joins the CM session through it
        final var pairing2 = pairing("leaf1", "leaf2", "spine1");
        pairing2.observe("leaf2", data, new DataPairing.Facts(false, true, A, B, 0x11, 0x22, null, null));
        pairing2.observe("spine1", x, flow(A, B, 0x22, psns(4096), psns()));
        pairing2.observeCm("leaf1", CM_ID, new DataPairing.CmEnds(A, 0x11, B, -1));
        pairing2.sweep();
        assertEquals(CM_ID, pairing2.outcome(x).pairedId());
    }

    @Test
    void theLastCmSessionOfAReusedQpWins() {
        final var pairing = pairing("leaf1", "spine1");
        final var x = flowId(A, B, 0x22);
        pairing.observe("spine1", x, flow(A, B, 0x22, psns(), psns()));
        pairing.observeCm("leaf1", "10.0.0.1/0x00000001/10.0.0.2", CM);
        pairing.observeCm("leaf1", CM_ID, CM);
        pairing.sweep();
        assertEquals(CM_ID, pairing.outcome(x).pairedId());
    }

    @Test
    void cmSessionsAreTrackedOnceDataIsAndTheFollowersTellThoseTheyHeld() {
        final var pairing = new DataPairing();
        final List<String> replayed = new ArrayList<>();
        pairing.register("leaf1", ids -> { }, () -> {
            replayed.add("leaf1");
            pairing.observeCm("leaf1", CM_ID, CM);
        });
        pairing.register("spine1", ids -> { });
        // no data-learned record yet: nothing kept of CM sessions
        pairing.observeCm("leaf1", CM_ID, CM);
        assertFalse(pairing.tracksCm());
        assertEquals(0, pairing.cmSessions());
        final var x = flowId(A, B, 0x22);
        pairing.observe("spine1", x, flow(A, B, 0x22, psns(), psns()));
        pairing.sweep();
        assertEquals(List.of("leaf1"), replayed);
        assertEquals(1, pairing.cmSessions());
        assertEquals(CM_ID, pairing.outcome(x).pairedId());
        // once
        pairing.sweep();
        assertEquals(List.of("leaf1"), replayed);
    }

    @Test
    void theCmSessionsTrackedAreBounded() {
        final var pairing = new DataPairing(2);
        pairing.observe("spine1", flowId(A, B, 1), flow(A, B, 1, psns(), psns()));
        for (int q = 1; q <= 4; q++) {
            pairing.observeCm("leaf1", A + "/0x0000000" + q + "/" + B, new DataPairing.CmEnds(A, q + 100, B, q));
        }
        assertEquals(2, pairing.cmSessions());
        assertEquals(2, pairing.untracked());
        // neither QP announced: nothing to join by
        pairing.forgetNode("leaf1");
        pairing.observeCm("leaf1", CM_ID, new DataPairing.CmEnds(A, -1, B, -1));
        assertEquals(0, pairing.cmSessions());
    }

    @Test
    void unreliableTransportsAreNeverPaired() {
        final var pairing = pairing("spine1", "spine2");
        pairing.observe("spine1", flowId(A, B, 0x22), new DataPairing.Facts(true, false, A, B, -1, 0x22,
            psns(4096), psns()));
        pairing.observe("spine2", flowId(B, A, 0x11), new DataPairing.Facts(true, false, B, A, -1, 0x11,
            psns(), psns(4096)));
        assertEquals(0, pairing.sweep());
        assertEquals(0, pairing.flows());
    }

    @Test
    void aFlowSeenAtTwoSwitchesPoolsItsEvidence() {
        final var pairing = pairing("leaf1", "spine1", "spine2");
        final var x = flowId(A, B, 0x22);
        final var y = flowId(B, A, 0x11);
        pairing.observe("leaf1", x, flow(A, B, 0x22, psns(4096), psns()));
        pairing.observe("spine1", x, flow(A, B, 0x22, psns(8192), psns()));
        pairing.observe("spine2", y, flow(B, A, 0x11, psns(), psns(8192)));
        pairing.sweep();
        assertEquals("10.0.0.1/qp0x000011/10.0.0.2/qp0x000022", pairing.outcome(x).pairedId());
        // both switches that have x write it again
        assertEquals(List.of(Set.of(x)), told.get("leaf1"));
        assertEquals(List.of(Set.of(x)), told.get("spine1"));
        // a switch turned off: its evidence goes, the rest stands
        pairing.forgetNode("leaf1");
        pairing.sweep();
        assertEquals("10.0.0.1/qp0x000011/10.0.0.2/qp0x000022", pairing.outcome(x).pairedId());
        pairing.forgetNode("spine1");
        pairing.sweep();
        assertEquals(DataPairing.Outcome.NONE, pairing.outcome(y));
    }

    @Test
    void theTableIsBounded() {
        final var pairing = new DataPairing(2);
        for (int q = 1; q <= 5; q++) {
            pairing.observe("spine1", flowId(A, B, q), flow(A, B, q, psns(q), psns()));
        }
        assertEquals(2, pairing.flows());
        assertEquals(3, pairing.untracked());
    }

    @Test
    void sessionIdsOrderTheEndpointsAsTheAgentsDo() {
        // by the address's bytes, not its text: 10.0.0.9 before 10.0.0.10
        assertEquals("10.0.0.9/qp0x000005/10.0.0.10/qp0x000001", DataPairing.sessionId("10.0.0.10", 1, "10.0.0.9", 5));
        // IPv4 before IPv6
        assertEquals("10.0.0.1/qp0x000002/fd00::1/qp0x000001", DataPairing.sessionId("fd00::1", 1, "10.0.0.1", 2));
        // one address: by QPN
        assertEquals("10.0.0.1/qp0x000001/10.0.0.1/qp0xabcdef", DataPairing.sessionId("10.0.0.1", 0xabcdef,
            "10.0.0.1", 1));
        assertTrue(DataPairing.compareEndpoints("::ffff:10.0.0.1", 1, "10.0.0.2", 1) > 0);
        assertFalse(DataPairing.compareEndpoints("fd00::1", 1, "fd00::2", 1) > 0);
        assertThrows(IllegalArgumentException.class, () -> DataPairing.bytes("not-an-address"));
    }
}
