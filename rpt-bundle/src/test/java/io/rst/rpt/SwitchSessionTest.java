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

import org.junit.jupiter.api.Test;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.SessionState;

/**
 * A one-way flow the controller paired is taken into the paired session as that session's data in
 * the flow's direction, by the ends the session's id names.
 */
class SwitchSessionTest {
    private static final String PAIRED = "10.0.0.1/qp0x000011/10.0.0.2/qp0x000022";

    private static SwitchSession flow(final String src, final String dst, final int qpn) {
        return new SwitchSession("spine1", src, dst, -1, qpn, SessionState.ACTIVE, 100, 200, false, null, 0, false,
            null, 0, true, "swp1", false, null, true, true, "RC", PAIRED, null, null, null);
    }

    @Test
    void aFlowToTheHigherEndIsTheSessionsForwardDataAndToTheLowerItsReverse() {
        final var forward = flow("10.0.0.1", "10.0.0.2", 0x22).partOf(PAIRED, "10.0.0.1/-/10.0.0.2/qp0x000022");
        assertEquals("10.0.0.1", forward.requesterIp());
        assertEquals(0x11, forward.requesterQpn());
        assertEquals(0x22, forward.responderQpn());
        assertTrue(forward.requesterData());
        assertEquals("swp1", forward.requesterDataPort());
        assertFalse(forward.responderData());
        assertFalse(forward.oneWay());
        assertTrue(forward.learnedData());
        assertNull(forward.pairedSession());
        assertEquals("10.0.0.1/-/10.0.0.2/qp0x000022", forward.sourceId());

        final var reverse = flow("10.0.0.2", "10.0.0.1", 0x11).partOf(PAIRED, "10.0.0.2/-/10.0.0.1/qp0x000011");
        assertFalse(reverse.requesterData());
        assertTrue(reverse.responderData());
        assertEquals("swp1", reverse.responderDataPort());
        assertEquals("10.0.0.2", reverse.responderIp());
    }

    /** The CM session whose requester is 10.0.0.2's QP 0x22 and responder 10.0.0.1's QP 0x11. */
    private static final SwitchSession.Ends CM = new SwitchSession.Ends("10.0.0.2", 0x22, "10.0.0.1", 0x11);

    @Test
    void aDataRecordJoinedToACmSessionIsItsDataInTheCmDirections() {
        // 10.0.0.1 -> 10.0.0.2's QP 0x22: the responder's data to the requester
        final var flow = flow("10.0.0.1", "10.0.0.2", 0x22).joining(CM, "f");
        assertEquals("10.0.0.2", flow.requesterIp());
        assertEquals(0x11, flow.responderQpn());
        assertFalse(flow.requesterData());
        assertTrue(flow.responderData());
        assertEquals("swp1", flow.responderDataPort());
        assertFalse(flow.learnedData());
        assertFalse(flow.forward());
        assertNull(flow.state());
        assertEquals("f", flow.sourceId());
        assertTrue(flow("10.0.0.2", "10.0.0.1", 0x11).joining(CM, "g").requesterData());
        // a data-learned session: its lower endpoint (10.0.0.1) is the CM session's responder, so
        // its A-to-B data is the responder's
        final var session = new SwitchSession("spine1", "10.0.0.1", "10.0.0.2", 0x11, 0x22, SessionState.ACTIVE, 100,
            200, false, null, 0, false, null, 0, true, "swp1", true, "swp2", true, false, "RC", "cm", null, null, null)
            .joining(CM, "s");
        assertTrue(session.requesterData());
        assertEquals("swp2", session.requesterDataPort());
        assertEquals("swp1", session.responderDataPort());
        // where the CM session's responder QP is not known, its address decides
        assertTrue(flow("10.0.0.2", "10.0.0.1", 0x11)
            .joining(new SwitchSession.Ends("10.0.0.2", 0x22, "10.0.0.1", -1), "h").requesterData());
        // another QP, another sender: not this session's
        assertNull(flow("10.0.0.1", "10.0.0.2", 0x23).joining(CM, "x"));
        assertNull(flow("10.0.0.9", "10.0.0.2", 0x22).joining(CM, "x"));
    }

    @Test
    void aFlowTheIdDoesNotNameIsNotTaken() {
        // another QP, another sender, a session id of another shape
        assertNull(flow("10.0.0.1", "10.0.0.2", 0x23).partOf(PAIRED, "x"));
        assertNull(flow("10.0.0.9", "10.0.0.2", 0x22).partOf(PAIRED, "x"));
        assertNull(flow("10.0.0.1", "10.0.0.2", 0x22).partOf("10.0.0.1/0x00000001/10.0.0.2", "x"));
        assertNull(flow("10.0.0.1", "10.0.0.2", 0x22).partOf("10.0.0.1/qp0x11/10.0.0.2/qp0x000022", "x"));
        assertEquals(new SwitchSession.DataEnds("fd00::1", 1, "fd00::2", 0xabcdef),
            SwitchSession.DataEnds.parse("fd00::1/qp0x000001/fd00::2/qp0xabcdef"));
        assertNull(SwitchSession.DataEnds.parse("10.0.0.1/-/10.0.0.2/qp0x000022"));
    }
}
