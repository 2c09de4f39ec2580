/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.session;

import static io.rst.rft.pcap.DataFrameBuilder.CNP;
import static io.rst.rft.pcap.DataFrameBuilder.RC_ACK;
import static io.rst.rft.pcap.DataFrameBuilder.RC_ATOMIC_ACK;
import static io.rst.rft.pcap.DataFrameBuilder.RC_CMP_SWAP;
import static io.rst.rft.pcap.DataFrameBuilder.RC_FETCH_ADD;
import static io.rst.rft.pcap.DataFrameBuilder.RC_READ_REQUEST;
import static io.rst.rft.pcap.DataFrameBuilder.RC_READ_RESPONSE_FIRST;
import static io.rst.rft.pcap.DataFrameBuilder.RC_READ_RESPONSE_LAST;
import static io.rst.rft.pcap.DataFrameBuilder.RC_READ_RESPONSE_MIDDLE;
import static io.rst.rft.pcap.DataFrameBuilder.RC_SEND_FIRST;
import static io.rst.rft.pcap.DataFrameBuilder.RC_SEND_LAST;
import static io.rst.rft.pcap.DataFrameBuilder.RC_SEND_MIDDLE;
import static io.rst.rft.pcap.DataFrameBuilder.RC_SEND_ONLY;
import static io.rst.rft.pcap.DataFrameBuilder.RC_WRITE_FIRST;
import static io.rst.rft.pcap.DataFrameBuilder.RC_WRITE_LAST;
import static io.rst.rft.pcap.DataFrameBuilder.RC_WRITE_MIDDLE;
import static io.rst.rft.pcap.DataFrameBuilder.RC_WRITE_ONLY;
import static io.rst.rft.pcap.DataFrameBuilder.UC_WRITE_ONLY;
import static io.rst.rft.pcap.DataFrameBuilder.UD_SEND_ONLY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.rst.rft.decode.CmMessageType;
import io.rst.rft.decode.JsonBytes;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Sessions learnt from sampled data packets: RC flows paired by the PSNs of their answers, one-way
 * flows, their lifecycle and reports, and CM taking over. Generated traffic through the decoder.
 */
class DataSessionTest {
    private static final byte[] A = DataTraffic.ip("10.0.0.1");
    private static final byte[] B = DataTraffic.ip("10.0.0.2");
    private static final byte[] C = DataTraffic.ip("10.0.0.3");
    /** The QP at A, and the QP at B. */
    private static final int QA = 0x000a01;
    private static final int QB = 0x000b02;
    private static final String PAIR_ID = "10.0.0.1/qp0x000a01/10.0.0.2/qp0x000b02";
    private static final String X_ID = "10.0.0.1/-/10.0.0.2/qp0x000b02";
    private static final String Y_ID = "10.0.0.2/-/10.0.0.1/qp0x000a01";

    /** A writes to B (PSNs from {@code psn}), B acknowledges each write. */
    private static int writesAcked(final DataTraffic traffic, final int psn, final int count) {
        for (int i = 0; i < count; i++) {
            traffic.send(A, B, QB, RC_WRITE_ONLY, psn + i & 0xffffff);
            traffic.send(B, A, QA, RC_ACK, psn + i & 0xffffff);
        }
        return psn + count & 0xffffff;
    }

    @Test
    void oneWayWritesAnsweredByAcksPairAfterTwoVotes() {
        final DataTraffic d = new DataTraffic();
        d.send(A, B, QB, RC_WRITE_ONLY, 1000);
        d.drain();
        assertEquals(List.of(X_ID), d.eventIds(), "a request alone: a one-way RC flow");
        final JsonNode x = d.events.get(0);
        assertTrue(x.path("one_way").asBoolean());
        assertEquals("RC", x.path("transport").asText());
        assertEquals("data", x.path("learned_from").asText());
        assertEquals("[1000]", x.path("request_psns").toString());
        assertEquals("[]", x.path("response_psns").toString());
        assertTrue(x.path("requester_comm_id").isMissingNode());
        assertEquals(QB, x.path("responder_qpn").asInt());
        assertTrue(x.path("requester_qpn").isMissingNode());
        assertEquals("ACTIVE", x.path("state").asText());

        d.send(B, A, QA, RC_ACK, 1000);
        d.drain();
        assertEquals(0, d.table.dataSessions(), "one vote is not enough");
        assertEquals(List.of(X_ID, Y_ID), d.eventIds(), "the ACKs' flow: one-way too");
        assertEquals("[1000]", d.events.get(1).path("response_psns").toString());
        d.send(A, B, QB, RC_WRITE_ONLY, 1001);
        d.send(B, A, QA, RC_ACK, 1001);
        d.drain();
        assertEquals(List.of(X_ID, Y_ID, "-" + X_ID, "-" + Y_ID, PAIR_ID), d.eventIds(),
            "both one-way records leave, then the pair appears");
        assertEquals(1, d.table.dataSessions());
        assertEquals(0, d.table.dataOneWay());
        assertEquals(2, d.table.dataFlows());
        final SessionRecord r = d.records().get(PAIR_ID);
        assertNotNull(r, d.records().keySet().toString());
        assertEquals(1, d.records().size(), "the one-way records are gone");
        assertEquals("data", r.learnedFrom());
        assertFalse(r.rolesKnown());
        assertNull(r.oneWay());
        assertEquals("RC", r.transport());
        assertEquals("10.0.0.1", r.requesterIp());
        assertEquals("10.0.0.2", r.responderIp());
        assertEquals(QA, r.requesterQpn());
        assertEquals(QB, r.responderQpn());
        assertNull(r.requesterCommId());
        assertEquals(2, r.requesterData().packets(), "A to B: the two writes");
        assertEquals(2, r.responderData().packets(), "B to A: the two ACKs");
        assertEquals(50000 + (QB & 0xff), r.requesterData().udpSrcPort());
        assertEquals("swp1", r.requesterData().ingressPort());
        assertNull(r.requestPsns());
        assertEquals(SessionState.ACTIVE, r.state());
        assertTrue(r.messages().isEmpty() && r.messageLog().isEmpty());
        assertTrue(r.firstSeen().compareTo(r.lastSeen()) < 0);
    }

    @Test
    void endpointsAreOrderedByAddressThenQpnWhicheverSideRequests() {
        // B is the requester here: the record still names the lower endpoint (A) first
        final DataTraffic d = new DataTraffic();
        for (int i = 0; i < 2; i++) {
            d.send(B, A, QA, RC_SEND_ONLY, 77 + i);
            d.send(A, B, QB, RC_ACK, 77 + i);
        }
        d.drain();
        final SessionRecord r = d.records().get(PAIR_ID);
        assertNotNull(r, d.records().keySet().toString());
        assertEquals(2, r.requesterData().packets(), "A to B, the ACKs");
        // the same host on both sides: the QPN decides
        final DataTraffic loop = new DataTraffic();
        for (int i = 0; i < 2; i++) {
            loop.send(A, A, 0x300, RC_SEND_ONLY, 5 + i);
            loop.send(A, A, 0x200, RC_ACK, 5 + i);
        }
        loop.drain();
        assertEquals(List.of("10.0.0.1/qp0x000200/10.0.0.1/qp0x000300"), List.copyOf(loop.records().keySet()));
    }

    @Test
    void twoWayTrafficVotesTheSamePairFromBothSides() {
        final DataTraffic d = new DataTraffic();
        // A sends a three-packet SEND, B acknowledges its last PSN; B sends one, A acknowledges it
        d.send(A, B, QB, RC_SEND_FIRST, 500);
        d.send(A, B, QB, RC_SEND_MIDDLE, 501);
        d.send(A, B, QB, RC_SEND_LAST, 502);
        d.send(B, A, QA, RC_SEND_ONLY, 9000);
        d.send(B, A, QA, RC_ACK, 502);
        assertEquals(0, d.table.dataSessions(), "one vote so far");
        d.send(A, B, QB, RC_ACK, 9000);
        assertEquals(1, d.table.dataSessions(), "the other side's ACK is the second vote for the same pair");
        d.drain();
        final SessionRecord r = d.records().get(PAIR_ID);
        assertEquals(4, r.requesterData().packets());
        assertEquals(2, r.responderData().packets());
    }

    @Test
    void readResponsesCountOnFromTheirRequest() {
        final DataTraffic d = new DataTraffic();
        // a READ of 64 KiB at PSN 300: up to 256 responses (at the 256-byte MTU bound), here 16
        d.send(A, B, QB, RC_READ_REQUEST, 300, 65536, "swp1");
        d.send(B, A, QA, RC_READ_RESPONSE_FIRST, 300);
        assertEquals(0, d.table.dataSessions());
        d.send(B, A, QA, RC_READ_RESPONSE_MIDDLE, 307);
        assertEquals(1, d.table.dataSessions(), "a middle response fits its READ's window");
        // a response past the READ's window is no evidence
        final DataTraffic e = new DataTraffic();
        e.send(A, B, QB, RC_READ_REQUEST, 300, 1024, "swp1");
        e.send(B, A, QA, RC_READ_RESPONSE_FIRST, 300);
        e.send(B, A, QA, RC_READ_RESPONSE_LAST, 304);
        assertEquals(0, e.table.dataSessions(), "1 KiB is 4 responses at most: PSN 304 is not one of them");
        e.send(B, A, QA, RC_READ_RESPONSE_LAST, 303);
        assertEquals(1, e.table.dataSessions());
    }

    @Test
    void atomicsAreAnsweredByAtomicAcks() {
        final DataTraffic d = new DataTraffic();
        d.send(A, B, QB, RC_CMP_SWAP, 40);
        d.send(B, A, QA, RC_ATOMIC_ACK, 40);
        d.send(A, B, QB, RC_FETCH_ADD, 41);
        d.send(B, A, QA, RC_ATOMIC_ACK, 41);
        assertEquals(1, d.table.dataSessions());
        d.drain();
        assertEquals(List.of(PAIR_ID), List.copyOf(d.records().keySet()));
    }

    @Test
    void coalescedAcksNameOnlyTheLastPsn() {
        final DataTraffic d = new DataTraffic();
        // a 10-packet WRITE, acknowledged once for its last packet; twice
        for (int round = 0; round < 2; round++) {
            final int base = 2000 + round * 10;
            d.send(A, B, QB, RC_WRITE_FIRST, base);
            for (int i = 1; i < 9; i++) {
                d.send(A, B, QB, RC_WRITE_MIDDLE, base + i);
            }
            d.send(A, B, QB, RC_WRITE_LAST, base + 9);
            d.send(B, A, QA, RC_ACK, base + 9);
        }
        assertEquals(1, d.table.dataSessions());
        d.drain();
        final SessionRecord r = d.records().get(PAIR_ID);
        assertEquals(20, r.requesterData().packets());
        assertEquals(2, r.responderData().packets());
    }

    @Test
    void psnArithmeticWrapsAt2To24() {
        final DataTraffic d = new DataTraffic();
        final int next = writesAcked(d, 0xfffffe, 1);
        assertEquals(0xffffff, next);
        writesAcked(d, next, 1);
        assertEquals(1, d.table.dataSessions(), "0xfffffe and 0xffffff");
        final DataTraffic r = new DataTraffic();
        // a READ at 0xfffffd of 2 KiB: responses 0xfffffd .. 0x000004
        r.send(A, B, QB, RC_READ_REQUEST, 0xfffffd, 2048, "swp1");
        r.send(B, A, QA, RC_READ_RESPONSE_MIDDLE, 0x000002);
        r.send(B, A, QA, RC_READ_RESPONSE_LAST, 0x000004);
        assertEquals(1, r.table.dataSessions(), "responses after the wrap fit the READ before it");
        r.drain();
        final SessionRecord s = r.records().get(PAIR_ID);
        assertNotNull(s);
        final DataTraffic w = new DataTraffic();
        w.send(A, B, QB, RC_WRITE_ONLY, 0xfffffe);
        w.send(A, B, QB, RC_WRITE_ONLY, 0xffffff);
        w.send(A, B, QB, RC_WRITE_ONLY, 0);
        w.send(B, A, QA, RC_ACK, 0);
        w.send(B, A, QA, RC_ACK, 0xffffff);
        assertEquals(1, w.table.dataSessions());
    }

    @Test
    void twoQpPairsBetweenTheSameHostsWithOverlappingPsnsAreNeverCrossPaired() {
        final DataTraffic d = new DataTraffic();
        final int qa1 = 0x100;
        final int qa2 = 0x200;
        final int qb1 = 0x300;
        final int qb2 = 0x400;
        // both QP pairs start at PSN 0 (as NCCL sets them) and run in step: every ACK fits both
        for (int i = 0; i < 20; i++) {
            d.send(A, B, qb1, RC_WRITE_ONLY, i);
            d.send(A, B, qb2, RC_WRITE_ONLY, i);
            d.send(B, A, qa1, RC_ACK, i);
            d.send(B, A, qa2, RC_ACK, i);
        }
        assertEquals(0, d.table.dataSessions(), "never a guess");
        assertEquals(40, d.table.dataPairAmbiguous());
        assertEquals(4, d.table.dataOneWay());
        // then the second pair runs ahead: its ACKs fit it alone, and so do the first pair's
        for (int i = 0; i < 20; i++) {
            d.send(A, B, qb2, RC_WRITE_ONLY, 1000 + i);
            d.send(B, A, qa2, RC_ACK, 1000 + i);
            d.send(A, B, qb1, RC_WRITE_ONLY, 20 + i);
            d.send(B, A, qa1, RC_ACK, 20 + i);
        }
        d.drain();
        assertEquals(2, d.table.dataSessions());
        final List<String> ids = d.eventIds();
        assertTrue(ids.contains("10.0.0.1/qp0x000100/10.0.0.2/qp0x000300"), ids.toString());
        assertTrue(ids.contains("10.0.0.1/qp0x000200/10.0.0.2/qp0x000400"), ids.toString());
        assertFalse(ids.stream().anyMatch(s -> s.endsWith("qp0x000100/10.0.0.2/qp0x000400")
            || s.endsWith("qp0x000200/10.0.0.2/qp0x000300")), ids.toString());
    }

    @Test
    void aVoteForAnotherPairResetsTheCount() {
        final DataTraffic d = new DataTraffic();
        final int qa2 = 0x0a02;
        d.send(A, B, QB, RC_WRITE_ONLY, 10);
        d.send(A, B, QB, RC_WRITE_ONLY, 11);
        d.send(B, A, QA, RC_ACK, 10);
        // another QP at A answers PSN 11 (a forged or stray answer): the count starts again
        d.send(B, A, qa2, RC_ACK, 11);
        d.send(A, B, QB, RC_WRITE_ONLY, 12);
        d.send(B, A, QA, RC_ACK, 12);
        assertEquals(0, d.table.dataSessions(), "two votes, but not in a row for one pair");
        d.send(A, B, QB, RC_WRITE_ONLY, 13);
        d.send(B, A, QA, RC_ACK, 13);
        assertEquals(1, d.table.dataSessions());
        d.drain();
        assertNotNull(d.records().get(PAIR_ID));
        assertNotNull(d.records().get("10.0.0.2/-/10.0.0.1/qp0x000a02"), "the stray stays one-way");
    }

    @Test
    void samplingOneInNPairsAfterAboutKTimesNAnswers() {
        // the agent samples PSNs that are multiples of N: an ACK and the request it names together
        for (int n : new int[] {1, 4, 16, 64}) {
            final DataTraffic d = new DataTraffic();
            d.sampleMask = n - 1;
            int psn = 0x123457;
            int answers = 0;
            while (d.table.dataSessions() == 0 && answers < 100 * n) {
                d.send(A, B, QB, RC_WRITE_ONLY, psn);
                d.send(B, A, QA, RC_ACK, psn);
                psn = psn + 1 & 0xffffff;
                answers++;
            }
            assertEquals(1, d.table.dataSessions(), "N=" + n);
            // K votes: the K-th sampled answer pairs, after (K - 1) * N + (distance to the first) answers
            assertTrue(answers <= DataFlowTable.VOTES_TO_PAIR * n, "N=" + n + ": " + answers + " answers");
            assertTrue(answers > (DataFlowTable.VOTES_TO_PAIR - 1) * n, "N=" + n + ": " + answers + " answers");
        }
    }

    @Test
    void aQpPairUsedAgainAfterIdleIsANewSession() {
        final DataTraffic d = new DataTraffic(new DataConfig(1 << 16, 30_000_000L, 0L));
        writesAcked(d, 100, 2);
        d.drain();
        final SessionRecord first = d.records().get(PAIR_ID);
        assertNotNull(first);
        d.now += 31_000_000L;
        d.expire();
        d.drain();
        assertEquals(SessionState.IDLE, d.records().get(PAIR_ID).state());
        assertEquals("IDLE", d.events.get(d.events.size() - 1).path("state").asText());
        d.events.clear();
        // the same QP numbers again, a new connection: the IDLE record leaves, a new one is learnt
        writesAcked(d, 5000, 2);
        d.drain();
        assertEquals("-" + PAIR_ID, d.eventIds().get(0), d.eventIds().toString());
        assertEquals(PAIR_ID, d.eventIds().get(d.eventIds().size() - 1));
        final SessionRecord second = d.records().get(PAIR_ID);
        assertEquals(SessionState.ACTIVE, second.state());
        assertTrue(second.firstSeen().compareTo(first.lastSeen()) > 0, "a new first_seen");
        assertEquals(2, second.requesterData().packets(), "the old counts are not carried over");
        // still quiet past the idle time the record is not idle until expiry says so, but a packet
        // after the idle time starts a new one even before
        d.now += 40_000_000L;
        writesAcked(d, 9000, 1);
        d.drain();
        assertTrue(d.eventIds().contains("-" + PAIR_ID));
    }

    @Test
    void idleRecordsLeaveAfterTheRetention() {
        final DataTraffic d = new DataTraffic(new SessionConfig(100, 60_000_000L, 0L, 32),
            new DataConfig(1 << 16, 30_000_000L, 0L));
        writesAcked(d, 1, 2);
        d.send(A, C, 0x77, UD_SEND_ONLY, 3);
        d.drain();
        d.now += 89_000_000L;
        d.expire();
        d.drain();
        assertEquals(2, d.records().size(), "idle, within the retention");
        d.now += 2_000_000L;
        d.expire();
        d.drain();
        assertTrue(d.records().isEmpty());
        assertEquals(2, d.table.dataExpired());
        assertEquals(0, d.table.dataFlows());
        assertTrue(d.eventIds().containsAll(List.of("-" + PAIR_ID, "-10.0.0.1/-/10.0.0.3/qp0x000077")));
    }

    @Test
    void garbageBthIsCountedAndNeverMergesOrGrowsTheTable() {
        final int max = 512;
        final DataTraffic d = new DataTraffic(new DataConfig(max, 30_000_000L, 0L));
        d.send(A, B, 0, RC_WRITE_ONLY, 1);
        d.send(A, B, 1, RC_ACK, 1);
        d.send(A, B, QB, 0x15, 1);
        assertEquals(3, d.table.dataBthRejected(), "QP 0, QP 1, reserved opcode 0x15");
        assertEquals(0, d.table.dataFlows());
        d.send(A, B, QB, RC_WRITE_ONLY, 1);
        d.send(A, B, QB, UC_WRITE_ONLY, 2);
        assertEquals(4, d.table.dataBthRejected(), "a live RC QP does not turn UC");
        // a CNP is no data packet: counted on the flow it travels with, never rejected, untracked or a flow
        final int flows = d.table.dataFlows();
        d.send(A, B, QB, CNP, 0);
        assertEquals(0, d.table.dataUntracked());
        assertEquals(4, d.table.dataBthRejected());
        assertEquals(flows, d.table.dataFlows());
        assertEquals(1, d.table.cnps());
        assertEquals(0, d.table.cnpUnmatched());
        // two real sessions between the same hosts, in a flood of random packets
        final Random rnd = new Random(7);
        final byte[] s = new byte[4];
        final byte[] t = new byte[4];
        int p1 = 0x10000;
        int p2 = 0x900000;
        for (int i = 0; i < 20_000; i++) {
            s[0] = 10;
            s[1] = 9;
            s[2] = (byte) rnd.nextInt(4);
            s[3] = (byte) rnd.nextInt(256);
            t[0] = 10;
            t[1] = 9;
            t[2] = (byte) rnd.nextInt(4);
            t[3] = (byte) rnd.nextInt(256);
            final int[] ops = {RC_WRITE_ONLY, RC_ACK, RC_READ_REQUEST, RC_READ_RESPONSE_FIRST, 0x15, UC_WRITE_ONLY,
                UD_SEND_ONLY, RC_ATOMIC_ACK};
            d.send(s, t, rnd.nextInt(4), ops[rnd.nextInt(ops.length)], rnd.nextInt(1 << 24));
            if (i % 50 == 0) {
                p1 = writesAckedOn(d, QA, QB, p1);
                p2 = writesAckedOn(d, 0x0a09, 0x0b09, p2);
                d.drain();
            }
            assertTrue(d.table.dataFlows() <= max, "bounded");
        }
        d.drain();
        assertTrue(d.table.dataFlowsEvicted() > 0);
        assertTrue(d.table.dataBthRejected() > 2000);
        final Map<String, SessionRecord> recs = d.records();
        assertNotNull(recs.get(PAIR_ID), "the real sessions stay paired, each with its own partner");
        assertNotNull(recs.get("10.0.0.1/qp0x000a09/10.0.0.2/qp0x000b09"));
        for (JsonNode e : d.events) {
            final String id = e.path("session_id").asText();
            if (id.startsWith("10.0.0.1/qp") && id.contains("10.0.0.2")) {
                assertTrue(id.equals(PAIR_ID) || id.equals("10.0.0.1/qp0x000a09/10.0.0.2/qp0x000b09"), id);
            }
        }
        // garbage pairs only garbage: every paired record's flows go between the garbage hosts
        for (SessionRecord r : recs.values()) {
            if (r.oneWay() == null && !r.sessionId().equals(PAIR_ID)
                    && !r.sessionId().equals("10.0.0.1/qp0x000a09/10.0.0.2/qp0x000b09")) {
                assertTrue(r.requesterIp().startsWith("10.9.") && r.responderIp().startsWith("10.9."), r.sessionId());
            }
        }
    }

    private static int writesAckedOn(final DataTraffic traffic, final int qa, final int qb, final int psn) {
        traffic.send(A, B, qb, RC_WRITE_ONLY, psn);
        traffic.send(B, A, qa, RC_ACK, psn);
        return psn + 1;
    }

    @Test
    void udAndUcFlowsStayOneWay() {
        final DataTraffic d = new DataTraffic();
        for (int i = 0; i < 5; i++) {
            d.send(A, B, 0x500, UD_SEND_ONLY, i);
            d.send(B, A, 0x600, UD_SEND_ONLY, i);
            d.send(A, B, 0x700, UC_WRITE_ONLY, i);
            d.send(B, A, 0x800, UC_WRITE_ONLY, i);
        }
        d.drain();
        assertEquals(0, d.table.dataSessions());
        assertEquals(4, d.table.dataOneWay());
        final Map<String, SessionRecord> recs = d.records();
        final SessionRecord ud = recs.get("10.0.0.1/-/10.0.0.2/qp0x000500");
        assertEquals("UD", ud.transport());
        assertEquals(Boolean.TRUE, ud.oneWay());
        assertNull(ud.requestPsns(), "PSN evidence is for RC only");
        assertEquals(5, ud.requesterData().packets());
        assertNull(ud.responderData());
        assertEquals("UC", recs.get("10.0.0.2/-/10.0.0.1/qp0x000800").transport());
    }

    @Test
    void aCmSessionsQpsNeverMakeASecondSession() {
        final DataTraffic d = new DataTraffic();
        d.cm(CmMessageType.REQ, A, B, 0x11, 0, QA);
        d.cm(CmMessageType.REP, B, A, 0x22, 0x11, QB);
        d.cm(CmMessageType.RTU, A, B, 0x11, 0x22, 0);
        writesAcked(d, 42, 5);
        d.drain();
        assertEquals(0, d.table.dataFlows(), "the CM session's data is the CM session's");
        final List<SessionRecord> all = d.table.snapshot();
        assertEquals(1, all.size());
        assertEquals("cm", all.get(0).learnedFrom());
        assertEquals(5, all.get(0).requesterData().packets());
        assertEquals(5, all.get(0).responderData().packets());
        assertNull(all.get(0).transport());
    }

    @Test
    void cmAnnouncingADataLearnedQpPairTakesItOver() {
        final DataTraffic d = new DataTraffic();
        // data first (its CM handed over late, or seen on another path)
        writesAcked(d, 42, 3);
        d.drain();
        assertEquals(1, d.table.dataSessions());
        d.cm(CmMessageType.REQ, A, B, 0x11, 0, QA);
        d.cm(CmMessageType.REP, B, A, 0x22, 0x11, QB);
        d.drain();
        assertEquals(0, d.table.dataFlows());
        assertTrue(d.eventIds().contains("-" + PAIR_ID));
        final List<SessionRecord> all = d.table.snapshot();
        assertEquals(1, all.size(), "never two sessions for one QP pair");
        assertEquals("cm", all.get(0).learnedFrom());
        assertEquals(3, all.get(0).requesterData().packets(), "the data-learned counts joined");
        assertEquals(3, all.get(0).responderData().packets());
        // and the data after it goes to the CM session
        writesAcked(d, 45, 1);
        assertEquals(4, d.table.snapshot().get(0).requesterData().packets());
        assertEquals(0, d.table.dataFlows());
        // a one-way flow toward a QP CM announces joins as well
        final DataTraffic e = new DataTraffic();
        e.send(A, B, QB, UC_WRITE_ONLY, 1);
        e.send(A, B, QB, UC_WRITE_ONLY, 2);
        e.drain();
        e.cm(CmMessageType.REQ, A, B, 0x11, 0, QA);
        e.cm(CmMessageType.REP, B, A, 0x22, 0x11, QB);
        e.drain();
        assertEquals(0, e.table.dataFlows());
        assertEquals(2, e.table.snapshot().get(0).requesterData().packets());
        assertTrue(e.eventIds().contains("-" + X_ID));
    }

    @Test
    void aBusyFlowIsReportedAtMostOncePerReportInterval() {
        final DataTraffic d = new DataTraffic(new DataConfig(1 << 16, 30_000_000L, 5_000_000L));
        // 10 s of writes and ACKs every 10 ms, drained after every packet as the agent would
        int psn = 0;
        int events = 0;
        for (int i = 0; i < 1000; i++) {
            d.send(A, B, QB, RC_WRITE_ONLY, psn);
            events += d.drain();
            d.send(B, A, QA, RC_ACK, psn);
            events += d.drain();
            psn++;
            d.now += 9_980;
        }
        final long pairReports = d.events.stream().filter(e -> e.path("session_id").asText().equals(PAIR_ID)).count();
        assertTrue(pairReports >= 2 && pairReports <= 3, "10 s at one report per 5 s: " + pairReports);
        assertTrue(events <= 8, "one-way records, their removal, the pair: " + d.eventIds());
        // nothing changed: nothing reported
        d.now += 6_000_000L;
        d.expire();
        final int before = d.events.size();
        d.drain();
        final int after = d.events.size();
        assertTrue(after - before <= 1, "only the last change still held back");
        d.now += 6_000_000L;
        d.drain();
        assertEquals(after, d.events.size(), "no change, no report");
        // the held-back change did come: the last report has every packet
        final JsonNode last = d.events.get(d.events.size() - 1);
        assertEquals(1000, last.path("requester_data").path("packets").asInt());
        assertEquals(1000, last.path("responder_data").path("packets").asInt());
    }

    @Test
    void dataRecordsAreRestoredAndForgotten() {
        final DataTraffic d = new DataTraffic();
        writesAcked(d, 1, 2);
        d.send(A, C, 0x33, RC_WRITE_ONLY, 7);
        d.send(C, A, 0x44, UD_SEND_ONLY, 8);
        d.now += 31_000_000L;
        d.expire();
        d.send(A, C, 0x33, RC_WRITE_ONLY, 9);
        d.drain();
        final List<SessionRecord> saved = d.table.snapshot();
        assertEquals(3, saved.size());
        final DataTraffic e = new DataTraffic();
        for (SessionRecord r : saved) {
            assertTrue(e.table.restore(r), r.sessionId());
        }
        assertEquals(json(saved), json(e.table.snapshot()), "restored as saved");
        assertEquals(1, e.table.dataSessions());
        // a restored one-way RC flow keeps its request PSNs as evidence: one more answer pairs it
        e.send(A, C, 0x33, RC_WRITE_ONLY, 10);
        e.send(C, A, 0x55, RC_ACK, 9);
        e.send(C, A, 0x55, RC_ACK, 10);
        assertEquals(2, e.table.dataSessions());
        assertTrue(e.table.forget(saved.stream().filter(r -> r.sessionId().equals(PAIR_ID)).findFirst().orElseThrow()));
        assertEquals(1, e.table.dataSessions());
        // a table that does not learn from data refuses them
        final SessionTable plain = new SessionTable(SessionConfig.DEFAULT, null);
        assertFalse(plain.restore(saved.get(0)));
        // damaged records are refused
        final SessionRecord bad = new SessionRecord("x", false, "data", Boolean.TRUE, "XX", "10.0.0.1", "10.0.0.2",
            null, null, null, 5, null, null, null, null, null, new DataFlow(1, null, 1), null, List.of(), List.of(),
            SessionState.ACTIVE, null, List.of(), BigDecimal.ONE, BigDecimal.ONE, List.of(), 0);
        assertFalse(e.table.restore(bad), "unknown transport");
    }

    private static String json(final List<SessionRecord> rs) {
        final JsonBytes j = new JsonBytes(1024);
        final List<String> out = new ArrayList<>();
        for (SessionRecord r : rs) {
            j.reset();
            r.appendJson(j);
            out.add(j.toString());
        }
        return String.join("\n", out);
    }
}
