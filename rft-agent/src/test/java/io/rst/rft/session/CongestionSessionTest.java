/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.session;

import static io.rst.rft.pcap.DataFrameBuilder.RC_ACK;
import static io.rst.rft.pcap.DataFrameBuilder.RC_WRITE_ONLY;
import static io.rst.rft.pcap.DataFrameBuilder.UC_WRITE_ONLY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.rst.rft.decode.CmMessageType;
import io.rst.rft.decode.JsonBytes;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * ECN figures and CNPs per session and direction: a CM session's and a data-learned session's
 * directions count their sampled packets' ECN-capable and CE marks and their DSCP, and the CNPs
 * about their data (sent the other way, to the sender's QP); a CNP never makes, pairs or changes a
 * flow; the figures survive a CM take-over, a restore and the write-ahead log's binary record.
 */
class CongestionSessionTest {
    private static final byte[] A = DataTraffic.ip("10.0.0.1");
    private static final byte[] B = DataTraffic.ip("10.0.0.2");
    private static final byte[] C = DataTraffic.ip("10.0.0.3");
    private static final int QA = 0x000a01;
    private static final int QB = 0x000b02;
    private static final String PAIR_ID = "10.0.0.1/qp0x000a01/10.0.0.2/qp0x000b02";
    private static final String CM_ID = "10.0.0.1/0x00000011/10.0.0.2";
    private static final int NOT_ECT = 0;
    private static final int ECT1 = 1;
    private static final int ECT0 = 2;
    private static final int CE = 3;

    /** A's session to B set up by CM: A's QP QA, B's QP QB. */
    private static DataTraffic cmSession() {
        final DataTraffic d = new DataTraffic();
        d.cm(CmMessageType.REQ, A, B, 0x11, 0, QA);
        d.cm(CmMessageType.REP, B, A, 0x22, 0x11, QB);
        d.cm(CmMessageType.RTU, A, B, 0x11, 0x22, 0);
        d.drain();
        return d;
    }

    private static void send(final DataTraffic traffic, final byte[] src, final byte[] dst, final int qp,
            final int op, final int psn, final int ecn) {
        traffic.ecn = ecn;
        assertTrue(traffic.send(src, dst, qp, op, psn));
    }

    @Test
    void aCmSessionCountsEcnAndCnpsPerDirection() {
        final DataTraffic d = cmSession();
        // A to B: 3 ECT(0), 2 CE; B to A: an ECT(1), a CE and a Not-ECT answer
        for (int i = 0; i < 5; i++) {
            send(d, A, B, QB, RC_WRITE_ONLY, i, i < 3 ? ECT0 : CE);
        }
        send(d, B, A, QA, RC_ACK, 0, ECT1);
        send(d, B, A, QA, RC_ACK, 1, CE);
        send(d, B, A, QA, RC_ACK, 2, NOT_ECT);
        // B answers A's CE-marked data with CNPs to A's QP: about A's data; one from A to B's QP
        assertTrue(d.cnp(B, A, QA));
        assertTrue(d.cnp(B, A, QA));
        assertTrue(d.cnp(A, B, QB));
        final SessionRecord r = d.records().get(CM_ID);
        assertEquals(new DataFlow(50002, "swp1", 5, 26, 5, 2, 2), r.requesterData());
        assertEquals(new DataFlow(50001, "swp1", 3, 26, 2, 1, 1), r.responderData());
        assertEquals(3, d.table.cnps());
        assertEquals(0, d.table.cnpUnmatched());
        assertEquals(8, d.table.dataMatched(), "CNPs are not data packets");
        // the first CE and the first CNP of a direction are news, the counts after them are not
        assertEquals(1, d.drain(), "one event for the batch");
        final JsonNode event = d.events.get(d.events.size() - 1);
        assertEquals(2, event.path("requester_data").path("ce").asInt());
        assertEquals(1, event.path("responder_data").path("cnp").asInt());
        send(d, A, B, QB, RC_WRITE_ONLY, 5, CE);
        assertTrue(d.cnp(B, A, QA));
        assertEquals(0, d.drain(), "more of the same is no event");
        assertTrue(d.cnp(A, B, QB));
        assertEquals(0, d.drain());
        final SessionRecord later = d.records().get(CM_ID);
        assertEquals(3, later.requesterData().ce());
        assertEquals(3, later.requesterData().cnp());
        assertEquals(2, later.responderData().cnp());
        // a new DSCP is news
        d.table.acceptData(dataWithDscp(d, A, B, QB, 34), "swp1");
        assertEquals(1, d.drain());
        assertEquals(34, d.events.get(d.events.size() - 1).path("requester_data").path("dscp").asInt());
    }

    private static io.rst.rft.decode.CmMessage dataWithDscp(final DataTraffic traffic, final byte[] src,
            final byte[] dst, final int qp, final int dscp) {
        final byte[] f = new io.rst.rft.pcap.DataFrameBuilder().ips(src, dst).destQp(qp).dscp(dscp).psn(9).build();
        final io.rst.rft.decode.CmMessage m = new io.rst.rft.decode.CmMessage();
        m.setCapture(1, traffic.now * 1000L);
        new io.rst.rft.decode.FrameDecoder().decodeEthernet(f, 0, f.length, m);
        return m;
    }

    @Test
    void aDirectionWithCnpsAloneSaysNothingOfWhereItsDataEnters() {
        final DataTraffic d = cmSession();
        send(d, A, B, QB, RC_WRITE_ONLY, 0, CE);
        // B's data to A crossed another switch: this one sees only the CNPs A sends about it
        assertTrue(d.cnp(A, B, QB));
        final SessionRecord r = d.records().get(CM_ID);
        assertEquals(new DataFlow(0, null, 0, null, 0, 0, 1), r.responderData());
        final String json = json(d);
        assertTrue(json.contains("\"responder_data\":{\"udp_src_port\":0,\"packets\":0,\"ect\":0,\"ce\":0,"
            + "\"cnp\":1}"), json);
        d.drain();
    }

    @Test
    void cnpsOfNoSessionAreCountedAndMakeNothing() {
        final DataTraffic d = cmSession();
        final int flows = d.table.dataFlows();
        assertFalse(d.cnp(C, A, 0x777), "no session or flow has that QP");
        assertFalse(d.cnp(C, A, QA), "A's QP, but its session's peer is B");
        assertFalse(d.cnp(A, C, 0x888));
        assertEquals(3, d.table.cnpUnmatched());
        assertEquals(3, d.table.cnps());
        assertEquals(flows, d.table.dataFlows(), "a CNP makes no flow");
        assertEquals(0, d.table.dataBthRejected());
        assertEquals(1, d.records().size());
        assertNull(d.records().get(CM_ID).requesterData());
        // CNPs to a finished session's QP are a newer session's
        d.cm(CmMessageType.DREQ, A, B, 0x11, 0x22, QB);
        d.cm(CmMessageType.DREP, B, A, 0x22, 0x11, 0);
        assertFalse(d.cnp(B, A, QA));
        assertEquals(4, d.table.cnpUnmatched());
        // nothing but CNPs between two hosts makes no flow, however many
        for (int i = 0; i < 100; i++) {
            assertFalse(d.cnp(C, B, 0x100 + i % 3));
        }
        assertEquals(flows, d.table.dataFlows());
        assertEquals(0, d.table.dataSessions());
        assertEquals(104, d.table.cnpUnmatched());
        // a table that does not track data counts every CNP as no session's
        final SessionTable plain = new SessionTable(SessionConfig.DEFAULT, null);
        assertFalse(plain.acceptCnp(dataWithDscp(d, B, A, QA, 48)));
        assertEquals(1, plain.cnpUnmatched());
    }

    /** Writes an RC session between A (QP QA) and B (QP QB) learnt from data: WRITEs A to B, ACKs back. */
    private static void pairedByData(final DataTraffic traffic, final int ecnToB, final int ecnToA) {
        for (int psn = 0; psn < 4; psn++) {
            send(traffic, A, B, QB, RC_WRITE_ONLY, psn, ecnToB);
            send(traffic, B, A, QA, RC_ACK, psn, ecnToA);
        }
    }

    @Test
    void aDataLearnedPairCountsEcnAndCnpsPerDirection() {
        final DataTraffic d = new DataTraffic();
        pairedByData(d, ECT0, ECT0);
        send(d, A, B, QB, RC_WRITE_ONLY, 4, CE);
        send(d, A, B, QB, RC_WRITE_ONLY, 5, CE);
        send(d, B, A, QA, RC_ACK, 5, CE);
        assertEquals(1, d.table.dataSessions());
        assertTrue(d.cnp(B, A, QA));
        assertTrue(d.cnp(B, A, QA));
        assertTrue(d.cnp(A, B, QB));
        d.drain();
        final SessionRecord r = d.records().get(PAIR_ID);
        assertNotNull(r, d.records().keySet().toString());
        // A is the lower endpoint: requester_data is A to B
        assertEquals(new DataFlow(50002, "swp1", 6, 26, 6, 2, 2), r.requesterData());
        assertEquals(new DataFlow(50001, "swp1", 5, 26, 5, 1, 1), r.responderData());
        assertEquals(2, d.table.dataFlows(), "CNPs made no flow");
        assertEquals(0, d.table.dataBthRejected());
        assertEquals(0, d.table.dataUntracked());
        assertEquals(0, d.table.cnpUnmatched());
        // the reported record says the same (DataTraffic checks its bytes against Jackson's)
        final JsonNode last = d.events.get(d.events.size() - 1);
        assertEquals(PAIR_ID, last.path("session_id").asText());
        assertEquals(2, last.path("requester_data").path("cnp").asInt());
        assertEquals(1, last.path("responder_data").path("ce").asInt());
    }

    @Test
    void aCnpNeverPairsOrChangesAFlowsTransport() {
        final DataTraffic d = new DataTraffic();
        send(d, A, B, 0x700, UC_WRITE_ONLY, 1, ECT0);
        // CNPs along a UC flow (opcode 0x81 is no UC opcode): not rejected, the flow stays UC
        assertTrue(d.cnp(A, B, 0x700));
        assertTrue(d.cnp(A, B, 0x700));
        assertEquals(0, d.table.dataBthRejected());
        assertEquals(1, d.table.dataFlows());
        // CNPs the other way, from B to a QP of A, find no flow and make none
        assertFalse(d.cnp(B, A, 0x701));
        assertEquals(1, d.table.dataFlows());
        d.drain();
        final SessionRecord uc = d.records().get("10.0.0.1/-/10.0.0.2/qp0x000700");
        assertEquals("UC", uc.transport());
        assertEquals(Boolean.TRUE, uc.oneWay());
        assertEquals(new DataFlow(50000, "swp1", 1, 26, 1, 0, 0), uc.requesterData());
        // the CNPs from A to B's QP are about B's data back, which this switch did not sample
        assertEquals(new DataFlow(0, null, 0, null, 0, 0, 2), uc.responderData());
        // an RC flow and the CNPs that answer it: still two one-way flows, no pairing
        final DataTraffic e = new DataTraffic();
        for (int psn = 0; psn < 5; psn++) {
            send(e, A, B, QB, RC_WRITE_ONLY, psn, CE);
            assertFalse(e.cnp(B, A, QA), "no flow goes from B to QA");
        }
        send(e, B, A, QA, RC_WRITE_ONLY, 100, ECT0);
        for (int i = 0; i < 5; i++) {
            assertTrue(e.cnp(B, A, QA));
        }
        assertEquals(0, e.table.dataSessions(), "CNPs are no answers: no pairing");
        assertEquals(2, e.table.dataOneWay());
        e.drain();
    }

    @Test
    void cmTakesOverADataLearnedPairWithItsFigures() {
        final DataTraffic d = new DataTraffic();
        pairedByData(d, CE, ECT1);
        assertTrue(d.cnp(B, A, QA));
        assertTrue(d.cnp(A, B, QB));
        assertTrue(d.cnp(A, B, QB));
        d.drain();
        assertEquals(1, d.table.dataSessions());
        d.cm(CmMessageType.REQ, A, B, 0x11, 0, QA);
        d.cm(CmMessageType.REP, B, A, 0x22, 0x11, QB);
        d.drain();
        assertEquals(0, d.table.dataFlows(), "the CM session took both flows");
        final SessionRecord r = d.records().get(CM_ID);
        assertEquals(new DataFlow(50002, "swp1", 4, 26, 4, 4, 1), r.requesterData());
        assertEquals(new DataFlow(50001, "swp1", 4, 26, 4, 0, 2), r.responderData());
    }

    @Test
    void theFiguresSurviveARestore() throws Exception {
        final DataTraffic d = cmSession();
        send(d, A, B, QB, RC_WRITE_ONLY, 0, CE);
        send(d, B, A, QA, RC_ACK, 0, ECT1);
        assertTrue(d.cnp(B, A, QA));
        // a data-learned pair and a one-way flow with CNPs alone in its responder data
        pairedByDataBetween(d, C, B, 0x0c01, 0x0b09, CE);
        assertTrue(d.cnp(B, C, 0x0c01));
        send(d, C, A, 0x0a77, UC_WRITE_ONLY, 1, CE);
        assertTrue(d.cnp(C, A, 0x0a77));
        d.drain();
        final List<SessionRecord> before = d.table.snapshot();
        assertEquals(3, before.size());
        final DataTraffic back = new DataTraffic();
        for (SessionRecord r : before) {
            final JsonBytes j = new JsonBytes(256);
            r.appendJson(j);
            assertTrue(back.table.restore(DataTraffic.JSON.readValue(j.toString(), SessionRecord.class)),
                j.toString());
        }
        assertEquals(before, back.table.snapshot());
    }

    @Test
    void theWriteAheadLogsBinaryRecordHoldsTheFiguresAndAnOlderRecordStillReads() {
        final DataTraffic d = cmSession();
        d.table.recordBinary();
        send(d, A, B, QB, RC_WRITE_ONLY, 0, CE);
        send(d, A, B, QB, RC_WRITE_ONLY, 1, ECT0);
        send(d, B, A, QA, RC_ACK, 0, ECT1);
        assertTrue(d.cnp(B, A, QA));
        assertTrue(d.cnp(A, B, QB));
        final List<String> json = new ArrayList<>();
        final List<byte[]> bin = new ArrayList<>();
        d.table.drainChanges(new JsonBytes(64), j -> {
            json.add(j.toString());
            bin.add(d.table.lastBinary().toByteArray());
        });
        assertEquals(1, json.size());
        assertTrue(json.get(0).contains("\"requester_data\":{\"udp_src_port\":50002,\"ingress_port\":\"swp1\","
            + "\"packets\":2,\"dscp\":26,\"ect\":2,\"ce\":1,\"cnp\":1}"), json.get(0));
        final SessionTable back = new SessionTable(SessionConfig.DEFAULT, null);
        back.trackData();
        final JsonBytes out = new JsonBytes(64);
        final byte[] record = bin.get(0);
        assertTrue(back.restoreBinary(record, 0, record.length, true, out));
        assertEquals(json.get(0), out.toString());
        assertEquals(json.get(0), toJson(back.snapshot().get(0)));
        // format 1 (an agent before these figures): each direction without DSCP, ECT, CE and CNPs
        assertEquals(2, record[0]);
        final int a = 63 + 7;
        final int b = a + 13 + 7;
        final byte[] old = cut(cut(record, b, b + 13), a, a + 13);
        old[0] = 1;
        final SessionTable older = new SessionTable(SessionConfig.DEFAULT, null);
        older.trackData();
        assertTrue(older.restoreBinary(old, 0, old.length, true, out));
        final String without = json.get(0).replaceAll(",\"dscp\":[0-9]+,\"ect\":[0-9]+,\"ce\":[0-9]+,\"cnp\":[0-9]+",
            ",\"ect\":0,\"ce\":0,\"cnp\":0");
        assertEquals(without, out.toString());
        assertEquals(without, toJson(older.snapshot().get(0)));
        // a record whose counts went negative was not written by a table
        final byte[] bad = record.clone();
        bad[a + 1] = (byte) 0x80;
        assertFalse(new SessionTable(SessionConfig.DEFAULT, null).restoreBinary(bad, 0, bad.length, true, out));
    }

    private static String toJson(final SessionRecord record) {
        final JsonBytes j = new JsonBytes(256);
        record.appendJson(j);
        return j.toString();
    }

    private static void pairedByDataBetween(final DataTraffic traffic, final byte[] requester,
            final byte[] responder, final int requesterQp, final int responderQp, final int ecn) {
        for (int psn = 0; psn < 3; psn++) {
            send(traffic, requester, responder, responderQp, RC_WRITE_ONLY, psn, ecn);
            send(traffic, responder, requester, requesterQp, RC_ACK, psn, ECT0);
        }
    }

    private static String json(final DataTraffic traffic) {
        final StringBuilder sb = new StringBuilder();
        traffic.table.snapshotJson(new JsonBytes(256), j -> sb.append(j).append('\n'));
        return sb.toString();
    }

    static byte[] cut(final byte[] record, final int from, final int to) {
        final byte[] out = new byte[record.length - (to - from)];
        System.arraycopy(record, 0, out, 0, from);
        System.arraycopy(record, to, out, from, record.length - to);
        return out;
    }
}
