/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.insight;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import org.junit.Test;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.CmMessageType;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.SessionState;

/** A sighting keeps its telling messages in itself: which were seen, where and when, as given. */
public class SightingTest {
    private static Sighting of(final Sighting.Messages m) {
        return new Sighting("leaf1", SessionState.REPSENT, "10.0.0.1", "10.0.0.2", "0x106", true, -1, 1.0, 5.0,
            m.types, m.req, m.rep, m.rej, m.dreq);
    }

    @Test
    public void aMessageSeenWithoutATimeIsSeenAndAnMraStandsForTheRep() {
        final var m = new Sighting.Messages();
        m.add(CmMessageType.REQ, null, Double.NaN);
        m.add(CmMessageType.MRA, "swp2", 5.0);
        m.add(CmMessageType.REQ, "swp9", 6.0);
        final var s = of(m);
        assertEquals(new Sighting.Seen(null, Double.NaN), s.req());
        assertEquals(new Sighting.Seen("swp2", 5.0), s.rep());
        assertNull(s.rej());
        assertNull(s.dreq());
        assertTrue(s.saw(CmMessageType.MRA));
        assertFalse(s.saw(CmMessageType.REP));

        // equal by value, and told apart by a message's presence, port or time
        final var same = new Sighting.Messages();
        same.add(CmMessageType.REQ, null, Double.NaN);
        same.add(CmMessageType.MRA, "swp2", 5.0);
        assertEquals(s, of(same));
        assertEquals(s.hashCode(), of(same).hashCode());
        final var noReq = new Sighting.Messages();
        noReq.add(CmMessageType.MRA, "swp2", 5.0);
        noReq.types |= 1 << CmMessageType.REQ.ordinal();
        assertNotEquals(s, of(noReq));
        final var otherPort = new Sighting.Messages();
        otherPort.add(CmMessageType.REQ, null, Double.NaN);
        otherPort.add(CmMessageType.MRA, "swp3", 5.0);
        assertNotEquals(s, of(otherPort));
        final var dreq = new Sighting.Messages();
        dreq.add(CmMessageType.REQ, null, Double.NaN);
        dreq.add(CmMessageType.MRA, "swp2", 5.0);
        dreq.add(CmMessageType.DREQ, "swp1", 7.0);
        assertEquals(new Sighting.Seen("swp1", 7.0), of(dreq).dreq());
        assertNotEquals(s, of(dreq));
    }
}
