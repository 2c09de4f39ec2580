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
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rst.insight.Sighting.Told;
import io.rst.yang.time.Times;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.yang.types.rev130715.DateAndTime;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.CmMessageType;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.SessionState;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rdma.session.MessageBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.SessionBuilder;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.TpId;
import org.opendaylight.yangtools.yang.common.Uint32;

/** A sighting keeps its telling messages in itself: which were seen, where and when, as given. */
public class SightingTest {
    private static Sighting of(final Sighting.Messages messages) {
        return new Sighting("leaf1", SessionState.REPSENT, "10.0.0.1", "10.0.0.2", "0x106", true, -1, 1.0, 5.0,
            messages);
    }

    @Test
    public void aMessageSeenWithoutATimeIsSeenAndAnMraStandsForTheRep() {
        final var m = new Sighting.Messages();
        m.add(CmMessageType.REQ, null, Double.NaN);
        m.add(CmMessageType.MRA, "swp2", 5.0);
        m.add(CmMessageType.REQ, "swp9", 6.0);
        final var s = of(m);
        assertTrue(s.saw(Told.REQ));
        assertNull(s.tp(Told.REQ));
        assertTrue(Double.isNaN(s.time(Told.REQ)));
        assertTrue(s.saw(Told.REP));
        assertEquals("swp2", s.tp(Told.REP));
        assertEquals(5.0, s.time(Told.REP), 0);
        assertFalse(s.saw(Told.REJ));
        assertNull(s.tp(Told.REJ));
        assertTrue(Double.isNaN(s.time(Told.REJ)));
        assertFalse(s.saw(Told.DREQ));
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
        final var otherTime = new Sighting.Messages();
        otherTime.add(CmMessageType.REQ, null, 4.0);
        otherTime.add(CmMessageType.MRA, "swp2", 5.0);
        assertNotEquals(s, of(otherTime));
        final var dreq = new Sighting.Messages();
        dreq.add(CmMessageType.REQ, null, Double.NaN);
        dreq.add(CmMessageType.MRA, "swp2", 5.0);
        dreq.add(CmMessageType.DREQ, "swp1", 7.0);
        assertEquals("swp1", of(dreq).tp(Told.DREQ));
        assertEquals(7.0, of(dreq).time(Told.DREQ), 0);
        assertNotEquals(s, of(dreq));
    }

    @Test
    public void theFirstOfARepAndAnMraIsTheRepsPlace() {
        final var m = new Sighting.Messages();
        m.add(CmMessageType.REP, "swp4", 2.0);
        m.add(CmMessageType.MRA, "swp5", 1.0);
        final var s = of(m);
        assertEquals("swp4", s.tp(Told.REP));
        assertEquals(2.0, s.time(Told.REP), 0);
        assertTrue(s.saw(CmMessageType.REP) && s.saw(CmMessageType.MRA));
        // the other types tell no place
        assertEquals(Told.REP, Told.of(CmMessageType.MRA));
        assertNull(Told.of(CmMessageType.RTU));
        assertNull(Told.of(CmMessageType.DREP));
        assertEquals(Told.values().length, Told.COUNT);
    }

    @Test
    public void theBindingReaderKeepsAnMraWithoutRepAndAReqWithoutTime() {
        final var session = new SessionBuilder().setSessionId("x").setState(SessionState.TIMEDOUT)
            .setMessage(List.of(
                new MessageBuilder().setSeq(Uint32.ZERO).setType(CmMessageType.REQ).setIngressTp(new TpId("swp1"))
                    .build(),
                new MessageBuilder().setSeq(Uint32.ONE).setType(CmMessageType.MRA).setIngressTp(new TpId("swp2"))
                    .setTime(new DateAndTime(Times.format(1_764_547_200_500_000L))).build()))
            .build();
        final var s = Sighting.of("leaf1", session);
        assertTrue(s.saw(Told.REQ));
        assertEquals("swp1", s.tp(Told.REQ));
        assertTrue(Double.isNaN(s.time(Told.REQ)));
        assertTrue(s.saw(Told.REP));
        assertEquals("swp2", s.tp(Told.REP));
        assertEquals(1_764_547_200.5, s.time(Told.REP), 1e-6);
        assertFalse(s.saw(CmMessageType.REP));
        assertFalse(s.saw(Told.REJ));
        assertFalse(s.saw(Told.DREQ));
        assertEquals(Told.REQ.bit() | Told.REP.bit(), s.told());
    }

    @Test
    public void aMessageNotSeenHasNoPortNorTime() {
        assertThrows(IllegalArgumentException.class, () -> new Sighting("leaf1", null, null, null, null, true, -1,
            Double.NaN, Double.NaN, 0, 0, "swp1", Double.NaN, null, Double.NaN, null, Double.NaN, null, Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> new Sighting("leaf1", null, null, null, null, true, -1,
            Double.NaN, Double.NaN, 0, Told.REQ.bit(), null, Double.NaN, null, Double.NaN, null, Double.NaN, null,
            3.0));
        assertThrows(IllegalArgumentException.class, () -> new Sighting("leaf1", null, null, null, null, true, -1,
            Double.NaN, Double.NaN, 0, 16, null, Double.NaN, null, Double.NaN, null, Double.NaN, null, Double.NaN));
    }
}
