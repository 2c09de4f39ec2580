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
            null, 0, true, "swp1", false, null, true, true, "RC", PAIRED, null);
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
