/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rst.rft.decode.CmMessage;
import io.rst.rft.decode.CmMessageType;
import io.rst.rft.decode.DecodeResult;
import io.rst.rft.decode.FrameDecoder;
import io.rst.rft.decode.JsonBytes;
import io.rst.rft.pcap.CmFrameBuilder;
import io.rst.rft.pcap.CmTrafficGenerator;
import io.rst.rft.testutil.Captures;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

class SessionTableTest {
    private static final Logger LOG = LoggerFactory.getLogger(SessionTableTest.class);

    private static final byte[] A = {10, 0, 0, 1};
    private static final byte[] B = {10, 0, 0, 2};

    @TempDir
    Path tmp;

    private final FrameDecoder decoder = new FrameDecoder();
    private final CmFrameBuilder fb = new CmFrameBuilder();
    private final byte[] frame = new byte[1024];
    private final CmMessage msg = new CmMessage();
    private final List<SessionChange> changes = new ArrayList<>();

    /** A message from a to b at time t (microseconds). */
    private CmMessage msg(final CmMessageType type, final byte[] src, final byte[] dst, final int lc, final int rc,
            final long timeMicros) {
        fb.ips(src, dst).type(type).commIds(lc, rc);
        final int len = fb.build(frame);
        msg.setCapture(1, timeMicros * 1000L);
        assertEquals(DecodeResult.CM_MAD, decoder.decodeEthernet(frame, 0, len, msg));
        return msg;
    }

    /** A data packet (RC SEND Only) from a to QP {@code qpn} at b, from UDP port {@code sport}. */
    private CmMessage data(final byte[] src, final byte[] dst, final int qpn, final int sport, final int psn) {
        final CmFrameBuilder d = new CmFrameBuilder().ips(src, dst).udpPorts(sport, 4791).type(CmMessageType.REQ);
        final int len = d.build(frame);
        // BTH at 14 + 20 + 8: opcode RC SEND Only, the destination QP, the PSN
        frame[42] = 0x04;
        frame[46] = 0;
        frame[47] = (byte) (qpn >>> 16);
        frame[48] = (byte) (qpn >>> 8);
        frame[49] = (byte) qpn;
        frame[51] = (byte) (psn >>> 16);
        frame[52] = (byte) (psn >>> 8);
        frame[53] = (byte) psn;
        msg.setCapture(1, 5_000_000_000L);
        assertEquals(DecodeResult.ROCE_DATA, decoder.decodeEthernet(frame, 0, len, msg));
        return msg;
    }

    /** A table that samples data, holding A's session to B set up at 1 s (A's QP 0x101, B's 0x202). */
    private SessionTable establishedWithData() {
        final SessionTable t = table(10, 1_000_000_000L);
        t.trackData();
        fb.timeouts(16, 16, 2).localQpn(0x101);
        t.accept(msg(CmMessageType.REQ, A, B, 0x11, 0, 1_000_000L), "swp1");
        fb.localQpn(0x202);
        t.accept(msg(CmMessageType.REP, B, A, 0x22, 0x11, 1_001_000L), "swp2");
        t.accept(msg(CmMessageType.RTU, A, B, 0x11, 0x22, 1_002_000L), "swp1");
        return t;
    }

    private SessionTable table(final int max, final long retention) {
        return new SessionTable(new SessionConfig(max, retention, 0L, 32), (c, r) -> changes.add(c));
    }

    @Test
    void everyGeneratedScenarioEndsInItsExpectedState() throws Exception {
        final Path pcap = tmp.resolve("all.pcap");
        final CmTrafficGenerator g = new CmTrafficGenerator(CmTrafficGenerator.Options.allTypes(110, 7));
        g.write(pcap);
        final SessionTable t = new SessionTable(SessionConfig.DEFAULT, null);
        long last = 0;
        for (CmMessage c : Captures.cmMessages(pcap)) {
            t.accept(c, "eth1");
            last = c.timeMicros();
        }
        t.expire(last);
        final Map<String, SessionRecord> byRequester = t.snapshot().stream()
            .collect(Collectors.toMap(r -> r.requesterIp() + "/" + r.requesterCommId(), Function.identity()));
        assertEquals(g.expected().size(), byRequester.size(), "one session per connection (SIDR makes none)");
        for (CmTrafficGenerator.Expected e : g.expected()) {
            final String key = e.requesterIp() + "/" + String.format("0x%08x", e.requesterCid());
            final SessionRecord r = byRequester.get(key);
            assertEquals(e.state(), r.state().name(), key + " " + e.messages());
            assertEquals(e.messages(), r.messages(), key);
            assertEquals(e.rolesKnown(), r.rolesKnown(), key);
            assertTrue(r.messageLog().stream().allMatch(x -> "eth1".equals(x.ingressPort())));
        }
        assertEquals(21, t.ignored(), "SIDR_REQ and SIDR_REP of 10 connections and the ClassPortInfo: not tabled");
    }

    @Test
    void expiryTakesFinishedSessionsByLastMessageAndLeavesEstablishedOnesAlone() {
        final SessionTable t = table(1000, 10_000_000L);
        fb.timeouts(16, 16, 0); // 268 ms, no retries
        // a REQ that will time out, then 300 sessions closed after it (more than the finished
        // list is searched back), then 100 established ones
        t.accept(msg(CmMessageType.REQ, A, B, 1, 0, 1_000_000L), null);
        for (int i = 0; i < 300; i++) {
            final int cid = 1000 + i;
            final long at = 2_000_000L + 1_000L * i;
            t.accept(msg(CmMessageType.REQ, A, B, cid, 0, at), null);
            t.accept(msg(CmMessageType.REP, B, A, cid + 5000, cid, at + 100), null);
            t.accept(msg(CmMessageType.DREQ, A, B, cid, cid + 5000, at + 200), null);
            t.accept(msg(CmMessageType.DREP, B, A, cid + 5000, cid, at + 300), null);
        }
        for (int i = 0; i < 100; i++) {
            final int cid = 9000 + i;
            t.accept(msg(CmMessageType.REQ, A, B, cid, 0, 3_000_000L), null);
            t.accept(msg(CmMessageType.REP, B, A, cid + 5000, cid, 3_000_100L), null);
            t.accept(msg(CmMessageType.RTU, A, B, cid, cid + 5000, 3_000_200L), null);
        }
        assertEquals(1, t.expire(4_000_000L), "the first REQ timed out, nothing else changed");
        assertEquals(1, t.timedOut());
        // a late DREP for the first closed session starts its retention again
        t.accept(msg(CmMessageType.DREP, B, A, 6000, 1000, 5_000_000L), null);
        // the other 299 closed sessions leave by their last messages, none early
        assertEquals(0, t.expire(12_000_000L + 299L));
        assertEquals(149, t.expire(12_000_000L + 1_000L * 149 + 300));
        assertEquals(150, t.expire(13_999_999L));
        assertEquals(102, t.size());
        // the timed-out session stays 10 s from when it was found timed out
        assertEquals(1, t.expire(14_000_000L), "the timed-out session");
        assertEquals(1, t.expire(15_000_000L), "the one with the late DREP");
        assertEquals(100, t.size());
        assertEquals(0, t.expire(1_000_000_000L), "established sessions wait for nothing");
        assertEquals(100, t.size());
        assertEquals(300, t.expired() - 1);
    }

    @Test
    void reqWithoutAnswerTimesOutOnlyWhenEveryRetrysWaitPassedAndRetriesDoNotMakeNewSessions() {
        final SessionTable t = table(10, 1_000_000L);
        fb.timeouts(16, 16, 2); // 4.096 us * 2^16 = 268 ms, retried twice
        t.accept(msg(CmMessageType.REQ, A, B, 0x11, 0, 1_000_000L), null);
        // no retry seen yet: the requester may still retry twice, 268 ms apart
        assertEquals(0, t.expire(1_000_000L + 3 * 268_435L - 1));
        t.accept(msg(CmMessageType.REQ, A, B, 0x11, 0, 1_200_000L), null);
        assertEquals(1, t.size());
        // one retry seen: one left, so the wait is two timeouts from it
        assertEquals(0, t.expire(1_200_000L + 2 * 268_435L - 1));
        assertEquals(SessionState.REQ_SENT, t.snapshot().get(0).state());
        assertEquals(1, t.expire(1_200_000L + 2 * 268_435L));
        assertEquals(SessionState.TIMED_OUT, t.snapshot().get(0).state());
        assertEquals(List.of("REQ", "REQ"), t.snapshot().get(0).messages());
        assertEquals(1, t.timedOut());
        // a late REP still joins the session
        fb.localQpn(77);
        t.accept(msg(CmMessageType.REP, B, A, 0x22, 0x11, 2_000_000L), null);
        assertEquals(SessionState.REP_SENT, t.snapshot().get(0).state());
        assertEquals(77, t.snapshot().get(0).responderQpn());
        assertEquals(List.of(SessionChange.CREATED, SessionChange.UPDATED, SessionChange.TIMED_OUT,
            SessionChange.UPDATED), changes);
    }

    @Test
    void mraExtendsTheWaitAndRejWithReasonRejects() {
        final SessionTable t = table(10, 1_000_000L);
        fb.timeouts(10, 10, 2); // 4 ms
        t.accept(msg(CmMessageType.REQ, A, B, 0x11, 0, 1_000_000L), null);
        fb.mra(0, 20); // 4.3 s
        t.accept(msg(CmMessageType.MRA, B, A, 0x22, 0x11, 1_001_000L), null);
        assertEquals(0, t.expire(2_000_000L));
        assertEquals(SessionState.REQ_SENT, t.snapshot().get(0).state());
        fb.reject(28, 0);
        t.accept(msg(CmMessageType.REJ, B, A, 0x22, 0x11, 3_000_000L), null);
        final SessionRecord r = t.snapshot().get(0);
        assertEquals(SessionState.REJECTED, r.state());
        assertEquals(28, r.rejectReason());
        assertEquals(List.of("REQ", "MRA", "REJ"), r.messages());
        assertEquals("0x00000022", r.responderCommId());
    }

    @Test
    void sampledDataPacketsTellWhereEachDirectionsDataEntersAndFromWhichPort() throws Exception {
        final byte[] c = {10, 0, 0, 3};
        final SessionTable t = establishedWithData();
        changes.clear();
        // A's data to B's QP enters on swp3, not where A's CM entered (another ECMP member)
        assertTrue(t.acceptData(data(A, B, 0x202, 50001, 0), "swp3"));
        assertTrue(t.acceptData(data(A, B, 0x202, 50001, 1), "swp3"));
        assertTrue(t.acceptData(data(B, A, 0x101, 50002, 0), "swp2"));
        assertEquals(List.of(SessionChange.UPDATED, SessionChange.UPDATED), changes,
            "the first packet of each direction is news, a second one the same way is not");
        SessionRecord record = t.snapshot().get(0);
        assertEquals(new DataFlow(50001, "swp3", 2, 0, 0, 0, 0), record.requesterData());
        assertEquals(new DataFlow(50002, "swp2", 1, 0, 0, 0, 0), record.responderData());
        assertEquals(SessionState.ESTABLISHED, record.state());
        // not this session's: to its QP from a third host, to a QP nobody set up
        assertFalse(t.acceptData(data(c, B, 0x202, 50003, 0), "swp4"));
        assertFalse(t.acceptData(data(A, B, 0x999, 50001, 0), "swp3"));
        assertEquals(3, t.dataMatched());
        assertEquals(2, t.dataUnmatched());
        // the JSON written from the fields is the record's, and it reads back
        final JsonBytes j = new JsonBytes(256);
        record.appendJson(j);
        final List<String> snap = new ArrayList<>();
        t.snapshotJson(new JsonBytes(256), x -> snap.add(x.toString()));
        assertEquals(j.toString(), snap.get(0));
        assertTrue(snap.get(0).contains("\"requester_data\":{\"udp_src_port\":50001,\"ingress_port\":\"swp3\","
            + "\"packets\":2,\"dscp\":0,\"ect\":0,\"ce\":0,\"cnp\":0}"), snap.get(0));
        final SessionTable back = table(10, 1_000_000_000L);
        back.trackData();
        assertTrue(back.restore(new ObjectMapper().readValue(snap.get(0), SessionRecord.class)));
        assertEquals(record, back.snapshot().get(0));
        assertTrue(back.acceptData(data(A, B, 0x202, 50009, 2), "swp4"), "restored QPNs find their session");
        assertEquals(new DataFlow(50009, "swp4", 3, 0, 0, 0, 0), back.snapshot().get(0).requesterData());
        // the QPNs used again by a new connection of the same hosts: the data is the new session's
        fb.localQpn(0x101);
        t.accept(msg(CmMessageType.REQ, A, B, 0x33, 0, 2_000_000L), "swp1");
        fb.localQpn(0x202);
        t.accept(msg(CmMessageType.REP, B, A, 0x44, 0x33, 2_001_000L), "swp2");
        assertTrue(t.acceptData(data(A, B, 0x202, 50005, 0), "swp5"));
        record = t.snapshot().get(1);
        assertEquals("0x00000033", record.requesterCommId());
        assertEquals(new DataFlow(50005, "swp5", 1, 0, 0, 0, 0), record.requesterData());
        assertEquals(new DataFlow(50001, "swp3", 2, 0, 0, 0, 0), t.snapshot().get(0).requesterData());
        // a table that does not track data takes none
        assertFalse(table(10, 1_000_000L).acceptData(data(A, B, 0x202, 50001, 0), "swp3"));
    }

    @Test
    void dataToAQpOfAFinishedSessionIsNotItsEvenFromTheSamePeer() {
        // found in the lab: a session closed, its QPN was used again by a new session of the same
        // two hosts whose CM crossed the other spine, and the new session's data, which crossed
        // this one, was taken for the closed session's (its data path then named the wrong spine)
        final SessionTable t = establishedWithData();
        assertTrue(t.acceptData(data(A, B, 0x202, 50001, 0), "swp3"));
        t.accept(msg(CmMessageType.DREQ, A, B, 0x11, 0x22, 1_100_000L), "swp1");
        t.accept(msg(CmMessageType.DREP, B, A, 0x22, 0x11, 1_101_000L), "swp2");
        assertEquals(SessionState.CLOSED, t.snapshot().get(0).state());
        changes.clear();
        // the new session's data: the same hosts, the same QP number, another source port and port
        final CmMessage later = data(A, B, 0x202, 50007, 0);
        later.setCapture(1, 1_200_000_000L);
        assertFalse(t.acceptData(later, "swp4"));
        assertEquals(new DataFlow(50001, "swp3", 1, 0, 0, 0, 0), t.snapshot().get(0).requesterData(),
            "a closed session keeps the data it had");
        assertEquals(List.of(), changes);
        assertEquals(1, t.dataMatched());
        assertEquals(1, t.dataUnmatched());
        // the same for a rejected session's QP, announced in its REQ
        fb.localQpn(0x303);
        t.accept(msg(CmMessageType.REQ, B, A, 0x55, 0, 2_000_000L), "swp2");
        t.accept(msg(CmMessageType.REJ, A, B, 0x66, 0x55, 2_001_000L), "swp1");
        assertEquals(SessionState.REJECTED, t.snapshot().get(1).state());
        assertFalse(t.acceptData(data(A, B, 0x303, 50008, 0), "swp3"));
        assertNull(t.snapshot().get(1).responderData());
        assertEquals(2, t.dataUnmatched());
    }

    @Test
    void dataHandedOverBeforeTheMessageThatAnnouncedItsQpJoinsWhenItComes() {
        // found in the lab under load: the data entered the leaf's uplink after the REP entered
        // its host port, but the uplink's ring was drained first
        final SessionTable t = table(10, 1_000_000_000L);
        t.trackData();
        fb.timeouts(16, 16, 2).localQpn(0x101);
        t.accept(msg(CmMessageType.REQ, A, B, 0x11, 0, 1_000_000L), "swp1");
        final CmMessage early = data(A, B, 0x202, 50001, 0);
        early.setCapture(1, 1_010_000_000L);
        assertFalse(t.acceptData(early, "swp3"));
        assertEquals(1, t.dataUnmatched());
        fb.localQpn(0x202);
        t.accept(msg(CmMessageType.REP, B, A, 0x22, 0x11, 1_004_000L), "swp2");
        assertEquals(new DataFlow(50001, "swp3", 1, 0, 0, 0, 0), t.snapshot().get(0).requesterData());
        assertEquals(1, t.dataMatched());
        assertEquals(0, t.dataUnmatched());
        // data captured before the QP was announced is another (older) QP's: it does not join
        fb.localQpn(0x303);
        t.accept(msg(CmMessageType.REQ, A, B, 0x33, 0, 2_000_000L), "swp1");
        final CmMessage old = data(A, B, 0x404, 50002, 0);
        old.setCapture(1, 1_500_000_000L);
        assertFalse(t.acceptData(old, "swp3"));
        fb.localQpn(0x404);
        t.accept(msg(CmMessageType.REP, B, A, 0x44, 0x33, 2_004_000L), "swp2");
        assertNull(t.snapshot().get(1).requesterData());
        assertEquals(1, t.dataUnmatched());
    }

    @Test
    void aRejOfAReqNamesTheRespondersCommId() {
        final SessionTable t = table(10, 1_000_000L);
        fb.timeouts(16, 16, 2);
        t.accept(msg(CmMessageType.REQ, A, B, 0x11, 0, 1_000_000L), "swp1");
        fb.reject(8, 0);
        t.accept(msg(CmMessageType.REJ, B, A, 0x22, 0x11, 1_003_000L), "swp2");
        final SessionRecord r = t.snapshot().get(0);
        assertEquals(SessionState.REJECTED, r.state());
        assertEquals("0x00000022", r.responderCommId());
        assertEquals(List.of(true, false), r.messageLog().stream().map(SessionMessage::fromRequester).toList());
        // the responder's endpoint now finds the session too: its repeated REJ is not a new one
        t.accept(msg(CmMessageType.REJ, B, A, 0x22, 0x11, 1_004_000L), "swp2");
        assertEquals(1, t.size());
    }

    @Test
    void mraThenRetriesEachAfterTheReqsTimeout() {
        final SessionTable t = table(10, 1_000_000L);
        fb.timeouts(10, 10, 3); // 4,194 us each, retried three times
        t.accept(msg(CmMessageType.REQ, A, B, 0x11, 0, 1_000_000L), null);
        fb.mra(0, 16); // 268 ms more
        t.accept(msg(CmMessageType.MRA, B, A, 0x22, 0x11, 1_001_000L), null);
        assertEquals(0, t.expire(1_001_000L + 268_435L + 3 * 4_194L - 1));
        assertEquals(1, t.expire(1_001_000L + 268_435L + 3 * 4_194L));
    }

    @Test
    void anAnswerHandedOverBeforeItsReqKeepsTheSessionWhenTheReqComesLate() {
        // found in the lab: a leaf's host port delivered the REJ (or REP) before its uplink
        // delivered the REQ that had entered 3 ms earlier; the late REQ started a new session
        final SessionTable t = table(10, 1_000_000_000L);
        fb.timeouts(10, 10, 2);
        fb.reject(8, 0);
        t.accept(msg(CmMessageType.REJ, B, A, 0x22, 0x11, 1_003_000L), null);
        fb.localQpn(5);
        t.accept(msg(CmMessageType.REQ, A, B, 0x11, 0, 1_000_000L), null);
        assertEquals(0, t.expire(9_000_000L));
        assertEquals(1, t.snapshot().size());
        final SessionRecord r = t.snapshot().get(0);
        assertEquals(SessionState.REJECTED, r.state());
        assertEquals(8, r.rejectReason());
        assertEquals(5, r.requesterQpn());
        assertEquals(new java.math.BigDecimal("1.000000"), r.firstSeen());

        fb.localQpn(6);
        t.accept(msg(CmMessageType.REP, B, A, 0x44, 0x33, 2_003_000L), null);
        fb.localQpn(7);
        t.accept(msg(CmMessageType.REQ, A, B, 0x33, 0, 2_000_000L), null);
        t.accept(msg(CmMessageType.RTU, A, B, 0x33, 0x44, 2_006_000L), null);
        assertEquals(0, t.expire(9_000_000L));
        final var established = t.snapshot().stream().filter(x -> x.requesterCommId().equals("0x00000033")).toList();
        assertEquals(1, established.size());
        assertEquals(SessionState.ESTABLISHED, established.get(0).state());
        // a REQ later than what the session saw still starts a new connection on a reused CID
        t.accept(msg(CmMessageType.REQ, A, B, 0x11, 0, 3_000_000L), null);
        assertEquals(SessionState.REQ_SENT, t.snapshot().stream().filter(x -> x.requesterCommId().equals("0x00000011")
            && x.state() == SessionState.REQ_SENT).findFirst().orElseThrow().state());
    }

    @Test
    void aHostsCommIdInTwoSessionsWithDifferentPeersKeepsTheirMessagesApart() {
        // found in the lab benchmark: host A's comm ID 0x11 was its side of a closed session with
        // C (A answered C's REQ) and then the requester's side of a new session with B; the new
        // session's REP and RTU were looked up by (A, 0x11), found the closed session first, and
        // the new one timed out on that switch although it was established
        final SessionTable t = table(10, 1_000_000_000L);
        fb.timeouts(16, 16, 2);
        sessionsOfOneCommIdWithTwoPeers(t, true);
        assertEquals(0, t.expire(90_000_000L));
        final var byPeer = t.snapshot().stream().collect(Collectors.toMap(SessionRecord::responderIp, r -> r));
        assertEquals(2, byPeer.size());
        assertEquals(SessionState.ESTABLISHED, byPeer.get("10.0.0.2").state());
        assertEquals(Integer.valueOf(0x202), byPeer.get("10.0.0.2").responderQpn());
        assertEquals("0x00000022", byPeer.get("10.0.0.2").responderCommId());
        assertEquals(SessionState.CLOSED, byPeer.get("10.0.0.1").state());
        assertEquals(5, byPeer.get("10.0.0.1").messageLog().size());

        // the same with the first session still live: each message goes to the session of its peers
        final SessionTable live = table(10, 1_000_000_000L);
        sessionsOfOneCommIdWithTwoPeers(live, false);
        final var livePeers = live.snapshot().stream().collect(Collectors.toMap(SessionRecord::responderIp, r -> r));
        assertEquals(2, livePeers.size());
        assertEquals(SessionState.ESTABLISHED, livePeers.get("10.0.0.2").state());
        assertEquals(SessionState.ESTABLISHED, livePeers.get("10.0.0.1").state());
        assertEquals(3, livePeers.get("10.0.0.1").messageLog().size());
    }

    /**
     * C (10.0.0.3) sets up a session with A, A answering with comm ID 0x11, closed with
     * {@code close}; then A sets up one with B from the same comm ID 0x11 (QPs 0x101 and 0x202).
     */
    private void sessionsOfOneCommIdWithTwoPeers(final SessionTable table, final boolean close) {
        final byte[] c = {10, 0, 0, 3};
        table.accept(msg(CmMessageType.REQ, c, A, 0x55, 0, 1_000_000L), null);
        table.accept(msg(CmMessageType.REP, A, c, 0x11, 0x55, 1_001_000L), null);
        table.accept(msg(CmMessageType.RTU, c, A, 0x55, 0x11, 1_002_000L), null);
        if (close) {
            table.accept(msg(CmMessageType.DREQ, c, A, 0x55, 0x11, 2_000_000L), null);
            table.accept(msg(CmMessageType.DREP, A, c, 0x11, 0x55, 2_001_000L), null);
        }
        fb.localQpn(0x101);
        table.accept(msg(CmMessageType.REQ, A, B, 0x11, 0, 3_000_000L), null);
        fb.localQpn(0x202);
        table.accept(msg(CmMessageType.REP, B, A, 0x22, 0x11, 3_001_000L), null);
        table.accept(msg(CmMessageType.RTU, A, B, 0x11, 0x22, 3_002_000L), null);
    }

    @Test
    void passiveSideDreqCrossingDreqsAndLateDrep() {
        final SessionTable t = table(10, 60_000_000L);
        t.accept(msg(CmMessageType.REQ, A, B, 1, 0, 1_000L), null);
        t.accept(msg(CmMessageType.REP, B, A, 2, 1, 2_000L), null);
        t.accept(msg(CmMessageType.RTU, A, B, 1, 2, 3_000L), null);
        // the responder disconnects, and the requester at the same time
        t.accept(msg(CmMessageType.DREQ, B, A, 2, 1, 4_000L), null);
        t.accept(msg(CmMessageType.DREQ, A, B, 1, 2, 4_001L), null);
        assertEquals(SessionState.DISCONNECTING, t.snapshot().get(0).state());
        // DREP twelve seconds later
        t.accept(msg(CmMessageType.DREP, A, B, 1, 2, 12_004_000L), null);
        t.accept(msg(CmMessageType.DREP, B, A, 2, 1, 12_004_100L), null);
        final SessionRecord r = t.snapshot().get(0);
        assertEquals(1, t.size());
        assertEquals(SessionState.CLOSED, r.state());
        assertEquals(List.of(false, true), List.of(r.messageLog().get(3).fromRequester(),
            r.messageLog().get(4).fromRequester()));
        assertEquals("10.0.0.1/0x00000001/10.0.0.2", r.sessionId());
    }

    @Test
    void interleavedConnectionsStayApartAndMidSessionCaptureKeepsWhatWasSeen() {
        final SessionTable t = table(10, 60_000_000L);
        t.accept(msg(CmMessageType.REQ, A, B, 1, 0, 1_000L), null);
        t.accept(msg(CmMessageType.REQ, A, B, 3, 0, 1_001L), null);
        t.accept(msg(CmMessageType.REP, B, A, 4, 3, 1_002L), null);
        t.accept(msg(CmMessageType.REP, B, A, 2, 1, 1_003L), null);
        t.accept(msg(CmMessageType.RTU, A, B, 3, 4, 1_004L), null);
        // a third connection whose setup was before the capture started: DREQ from B only
        fb.remoteQpn(99);
        t.accept(msg(CmMessageType.DREQ, B, A, 7, 8, 1_005L), null);
        final List<SessionRecord> s = t.snapshot();
        assertEquals(3, s.size());
        assertEquals(SessionState.REP_SENT, s.get(0).state());
        assertEquals("0x00000002", s.get(0).responderCommId());
        assertEquals(SessionState.ESTABLISHED, s.get(1).state());
        assertEquals("0x00000004", s.get(1).responderCommId());
        final SessionRecord mid = s.get(2);
        assertFalse(mid.rolesKnown());
        assertEquals(SessionState.DISCONNECTING, mid.state());
        assertEquals("10.0.0.1/0x00000008/10.0.0.2/0x00000007", mid.sessionId(), "endpoints in byte order");
        assertEquals(99, mid.responderQpn(), "DREQ names its receiver's QPN");
        assertNull(mid.serviceId());
    }

    @Test
    void finishedSessionsAgeOutAndAFullTableEvictsTheLeastRecentlyUpdated() {
        final SessionTable t = table(3, 10_000_000L);
        fb.timeouts(31, 31, 15); // 2.4 hours: no REQ times out here
        for (int i = 0; i < 5; i++) {
            t.accept(msg(CmMessageType.REQ, A, B, 100 + i, 0, 1_000L * i), null);
        }
        assertEquals(3, t.size());
        assertEquals(2, t.evictions());
        assertEquals(List.of("0x00000066", "0x00000067", "0x00000068"),
            t.snapshot().stream().map(SessionRecord::requesterCommId).toList());
        // the oldest survivor (0x66) completes its lifecycle
        t.accept(msg(CmMessageType.REP, B, A, 9, 102, 6_000L), null);
        t.accept(msg(CmMessageType.DREQ, A, B, 102, 9, 7_000L), null);
        t.accept(msg(CmMessageType.DREP, B, A, 9, 102, 8_000L), null);
        assertEquals(SessionState.CLOSED, t.snapshot().stream().filter(r -> r.requesterCommId().equals("0x00000066"))
            .findFirst().orElseThrow().state());
        t.expire(8_000L + 9_999_999L);
        assertEquals(3, t.size());
        t.expire(8_000L + 10_000_000L);
        assertEquals(1, t.expired(), "the CLOSED session left");
        assertEquals(2, t.size());
        assertEquals(0, t.timedOut());
        assertTrue(changes.contains(SessionChange.EVICTED) && changes.contains(SessionChange.EXPIRED));
    }

    @Test
    void aFullTableEvictsFinishedSessionsBeforeAnIdleLiveOne() {
        final SessionTable t = table(3, 3_600_000_000L);
        fb.timeouts(31, 31, 15);
        // a storage connection set up long ago: no CM message since its RTU
        t.accept(msg(CmMessageType.REQ, A, B, 0x71, 0, 1_000L), null);
        t.accept(msg(CmMessageType.REP, B, A, 0x81, 0x71, 2_000L), null);
        t.accept(msg(CmMessageType.RTU, A, B, 0x71, 0x81, 3_000L), null);
        // churn: two short sessions, set up and closed later
        for (int i = 0; i < 2; i++) {
            final long at = 1_000_000L * (i + 1);
            t.accept(msg(CmMessageType.REQ, A, B, 0x72 + i, 0, at), null);
            t.accept(msg(CmMessageType.REP, B, A, 0x82 + i, 0x72 + i, at + 1), null);
            t.accept(msg(CmMessageType.DREQ, A, B, 0x72 + i, 0x82 + i, at + 2), null);
            t.accept(msg(CmMessageType.DREP, B, A, 0x82 + i, 0x72 + i, at + 3), null);
        }
        assertEquals(3, t.size());
        // the table is full: a new session pushes out the one that finished first, not the live one
        t.accept(msg(CmMessageType.REQ, A, B, 0x74, 0, 3_000_000L), null);
        assertEquals(1, t.evictions());
        assertEquals(List.of("0x00000071", "0x00000073", "0x00000074"),
            t.snapshot().stream().map(SessionRecord::requesterCommId).sorted().toList());
        t.accept(msg(CmMessageType.REQ, A, B, 0x75, 0, 4_000_000L), null);
        assertEquals(List.of("0x00000071", "0x00000074", "0x00000075"),
            t.snapshot().stream().map(SessionRecord::requesterCommId).sorted().toList());
        // nothing finished is left: now the least recently updated goes, the idle live one
        t.accept(msg(CmMessageType.REQ, A, B, 0x76, 0, 5_000_000L), null);
        assertEquals(3, t.evictions());
        assertEquals(List.of("0x00000074", "0x00000075", "0x00000076"),
            t.snapshot().stream().map(SessionRecord::requesterCommId).sorted().toList());
        assertTrue(changes.contains(SessionChange.EVICTED));
    }

    @Test
    void eachSideKeepsTheUdpSourcePortOfItsFirstCmPacket() throws Exception {
        final SessionTable t = table(10, 1_000_000L);
        fb.udpPorts(50001, 4791);
        t.accept(msg(CmMessageType.REQ, A, B, 1, 0, 1_000L), "swp1");
        // a REQ retry from another port does not move it: ECMP placed the first one
        fb.udpPorts(50002, 4791);
        t.accept(msg(CmMessageType.REQ, A, B, 1, 0, 2_000L), "swp1");
        SessionRecord record = t.snapshot().get(0);
        assertEquals(50001, record.requesterUdpSrcPort());
        assertNull(record.responderUdpSrcPort(), "the responder has sent nothing yet");
        fb.udpPorts(60001, 4791);
        t.accept(msg(CmMessageType.REP, B, A, 2, 1, 3_000L), "swp2");
        fb.udpPorts(50003, 4791);
        t.accept(msg(CmMessageType.RTU, A, B, 1, 2, 4_000L), "swp1");
        fb.udpPorts(60002, 4791);
        t.accept(msg(CmMessageType.DREQ, B, A, 2, 1, 5_000L), "swp2");
        record = t.snapshot().get(0);
        assertEquals(50001, record.requesterUdpSrcPort());
        assertEquals(60001, record.responderUdpSrcPort());

        // a session seen from the responder's REJ on: the responder's port only
        fb.udpPorts(61000, 4791).reject(28, 0);
        t.accept(msg(CmMessageType.REJ, B, A, 0x22, 0x21, 6_000L), "swp2");
        record = t.snapshot().get(1);
        assertEquals("10.0.0.1", record.requesterIp());
        assertNull(record.requesterUdpSrcPort());
        assertEquals(61000, record.responderUdpSrcPort());

        // DREQ and DREP only: by direction, the DREQ's sender taken for the requester
        fb.udpPorts(40001, 4791);
        t.accept(msg(CmMessageType.DREQ, B, A, 0x10, 0x11, 7_000L), null);
        fb.udpPorts(40002, 4791);
        t.accept(msg(CmMessageType.DREP, A, B, 0x11, 0x10, 8_000L), null);
        record = t.snapshot().get(2);
        assertFalse(record.rolesKnown());
        assertEquals("10.0.0.2", record.requesterIp());
        assertEquals(40001, record.requesterUdpSrcPort());
        assertEquals(40002, record.responderUdpSrcPort());

        // both writers say it, under the names of INTERFACES.md, and a restart keeps it
        final ObjectMapper om = new ObjectMapper();
        final List<String> saved = new ArrayList<>();
        t.snapshotJson(new JsonBytes(64), j -> saved.add(j.toString()));
        final JsonNode first = om.readTree(saved.get(0));
        assertEquals(50001, first.get("requester_udp_src_port").asInt());
        assertEquals(60001, first.get("responder_udp_src_port").asInt());
        assertFalse(om.readTree(saved.get(1)).has("requester_udp_src_port"), "absent, not 0, when not seen");
        final SessionTable after = table(10, 1_000_000L);
        for (String line : saved) {
            assertTrue(after.restore(om.readValue(line, SessionRecord.class)), line);
        }
        assertEquals(t.snapshot(), after.snapshot());
        // the restored session keeps its first ports when the connection goes on
        fb.udpPorts(50009, 4791);
        after.accept(msg(CmMessageType.DREP, A, B, 1, 2, 9_000L), "swp1");
        assertEquals(50001, after.snapshot().get(0).requesterUdpSrcPort());
    }

    @Test
    void jacksonWritesTheSameJsonAsOurWriter() throws Exception {
        final SessionTable t = table(10, 1L);
        fb.localQpn(5).serviceId(0x0000000001060000L | 4420).ipCm(4, 5555, A, B);
        t.accept(msg(CmMessageType.REQ, A, B, 1, 0, 1_000L), "swp1");
        t.accept(msg(CmMessageType.REP, B, A, 2, 1, 2_000L), "swp2");
        final SessionRecord r = t.snapshot().get(0);
        final JsonBytes j = new JsonBytes(256);
        r.appendJson(j);
        final ObjectMapper om = new ObjectMapper();
        final JsonNode ours = om.readTree(j.toString());
        final JsonNode theirs = om.readTree(om.writeValueAsString(r));
        assertEquals(ours, theirs);
        for (String f : List.of("requester_ip", "responder_ip", "requester_comm_id", "responder_comm_id",
                "requester_qpn", "responder_qpn", "service_id", "state", "messages", "first_seen", "last_seen",
                "session_id", "requester_udp_src_port", "responder_udp_src_port")) {
            assertTrue(ours.has(f), f);
        }
        assertEquals("swp2", ours.get("message_log").get(1).get("ingress_port").asText());
        assertEquals(4420, ours.get("rdma_cm_dst_port").asInt());
        assertEquals(0, new java.math.BigDecimal("0.001").compareTo(ours.get("first_seen").decimalValue()));
    }

    /** Every scenario of the generator, IPv4 and IPv6, through both writers: the same bytes. */
    @Test
    void changeTrackingWritesWhatTheRecordsWriteOncePerSessionPerDrain() throws Exception {
        final Path pcap = tmp.resolve("all.pcap");
        new CmTrafficGenerator(CmTrafficGenerator.Options.allTypes(110, 3)).write(pcap);
        final SessionTable t = new SessionTable(SessionConfig.DEFAULT, null);
        t.trackChanges();
        final List<String> drained = new ArrayList<>();
        final JsonBytes scratch = new JsonBytes(64);
        int accepted = 0;
        for (CmMessage c : Captures.cmMessages(pcap)) {
            if (t.accept(c, "swp" + (accepted % 3))) {
                accepted++;
            }
        }
        // one drain after everything: each session once, in its final state
        assertEquals(t.size(), t.pendingChanges());
        assertEquals(t.size(), t.drainChanges(scratch, j -> drained.add(j.toString())));
        assertEquals(0, t.pendingChanges());
        final List<String> expected = new ArrayList<>();
        for (SessionRecord r : t.snapshot()) {
            final JsonBytes j = new JsonBytes(64);
            r.appendJson(j);
            expected.add(j.toString());
        }
        assertEquals(expected.stream().sorted().toList(), drained.stream().sorted().toList());
        final List<String> snap = new ArrayList<>();
        t.snapshotJson(scratch, j -> snap.add(j.toString()));
        assertEquals(expected, snap, "snapshotJson: same bytes, same order as snapshot()");
        assertTrue(accepted > 3 * t.size(), "sessions changed several times, reported once");
        // a message, then an expiry: each session changed reported (once) again
        t.accept(msg(CmMessageType.REQ, A, B, 0x77, 0, 1_000L), "swp9");
        t.accept(msg(CmMessageType.REQ, A, B, 0x77, 0, 2_000L), "swp9");
        assertEquals(1, t.drainChanges(scratch, j -> assertTrue(j.toString().contains("\"REQ\",\"REQ\""))));
        assertEquals(0, t.drainChanges(scratch, j -> { }));
    }

    @Test
    void sessionsLeavingTheTableAreReportedOnceMoreMarkedRemoved() {
        final SessionTable t = table(2, 1_000_000L);
        t.trackChanges();
        final JsonBytes scratch = new JsonBytes(64);
        final List<String> drained = new ArrayList<>();
        // one connection through to CLOSED, one still being set up
        t.accept(msg(CmMessageType.REQ, A, B, 0x11, 0, 1_000L), "swp1");
        t.accept(msg(CmMessageType.REP, B, A, 0x21, 0x11, 2_000L), "swp2");
        t.accept(msg(CmMessageType.RTU, A, B, 0x11, 0x21, 3_000L), "swp1");
        t.accept(msg(CmMessageType.DREQ, A, B, 0x11, 0x21, 4_000L), "swp1");
        t.accept(msg(CmMessageType.DREP, B, A, 0x21, 0x11, 5_000L), "swp2");
        t.accept(msg(CmMessageType.REQ, A, B, 0x12, 0, 6_000L), "swp1");
        t.drainChanges(scratch, j -> drained.add(j.toString()));
        assertEquals(2, drained.size());
        assertTrue(drained.stream().noneMatch(j -> j.contains("\"removed\"")), drained.toString());

        // past the retention the closed one ages out: one more report, marked removed
        drained.clear();
        t.expire(5_000L + 1_000_000L);
        assertEquals(1, t.size());
        assertEquals(1, t.drainChanges(scratch, j -> drained.add(j.toString())));
        assertTrue(drained.get(0).contains("0x00000011") && drained.get(0).endsWith(",\"removed\":true}"),
            drained.get(0));

        // at the limit a new session evicts the oldest: reported removed too, the new one not
        drained.clear();
        t.accept(msg(CmMessageType.REQ, A, B, 0x13, 0, 2_000_000L), "swp1");
        t.accept(msg(CmMessageType.REQ, A, B, 0x14, 0, 2_000_001L), "swp1");
        t.drainChanges(scratch, j -> drained.add(j.toString()));
        assertEquals(1, drained.stream().filter(j -> j.endsWith(",\"removed\":true}")).count(), drained.toString());
        assertTrue(drained.stream().filter(j -> j.endsWith(",\"removed\":true}"))
            .allMatch(j -> j.contains("0x00000012")), drained.toString());
    }

    @Test
    void checkpointHandlesComeLeastRecentlyActiveFirstAndARestoreKeepsTheEvictionOrder() throws Exception {
        final SessionTable t = table(3, 10_000_000L);
        fb.timeouts(31, 31, 15);
        t.accept(msg(CmMessageType.REQ, A, B, 0x51, 0, 1_000L), null);
        t.accept(msg(CmMessageType.REQ, A, B, 0x52, 0, 2_000L), null);
        t.accept(msg(CmMessageType.REQ, A, B, 0x53, 0, 3_000L), null);
        // the first one moves on: it is now the most recently active
        t.accept(msg(CmMessageType.REP, B, A, 0x61, 0x51, 4_000L), null);
        final Object[] handles = t.sessionHandlesInEvictionOrder();
        final ObjectMapper om = new ObjectMapper();
        final List<String> saved = new ArrayList<>();
        assertEquals(3, t.snapshotJson(handles, 0, handles.length, new JsonBytes(64), j -> saved.add(j.toString())));
        assertEquals(List.of("0x00000052", "0x00000053", "0x00000051"),
            saved.stream().map(l -> {
                try {
                    return om.readTree(l).get("requester_comm_id").asText();
                } catch (java.io.IOException e) {
                    throw new AssertionError(e);
                }
            }).toList());
        // restored in that order, a full table evicts what was least recently active before the restart
        final SessionTable after = table(3, 10_000_000L);
        for (String line : saved) {
            assertTrue(after.restore(om.readValue(line, SessionRecord.class)), line);
        }
        after.accept(msg(CmMessageType.REQ, A, B, 0x54, 0, 5_000L), null);
        assertEquals(1, after.evictions());
        assertEquals(List.of("0x00000051", "0x00000053", "0x00000054"),
            after.snapshot().stream().map(SessionRecord::requesterCommId).sorted().toList());
    }

    @Test
    void pagedSnapshotWritesCurrentStatesAndSkipsWhatLeftTheTable() {
        final SessionTable t = table(10, 1_000_000L);
        t.accept(msg(CmMessageType.REQ, A, B, 0x31, 0, 1_000L), "swp1");
        t.accept(msg(CmMessageType.REJ, B, A, 0x41, 0x31, 2_000L), "swp2");
        t.accept(msg(CmMessageType.REQ, A, B, 0x32, 0, 3_000L), "swp1");
        t.accept(msg(CmMessageType.REQ, A, B, 0x33, 0, 4_000L), "swp1");
        final Object[] handles = t.sessionHandles();
        assertEquals(3, handles.length);
        // between pages: the rejected one ages out, another moves on
        t.expire(2_000L + 1_000_000L);
        t.accept(msg(CmMessageType.REP, B, A, 0x42, 0x33, 1_100_000L), "swp2");
        final JsonBytes scratch = new JsonBytes(64);
        final List<String> pages = new ArrayList<>();
        assertEquals(1, t.snapshotJson(handles, 0, 2, scratch, j -> pages.add(j.toString())));
        assertEquals(1, t.snapshotJson(handles, 2, 3, scratch, j -> pages.add(j.toString())));
        assertTrue(pages.get(0).contains("0x00000032"), pages.toString());
        assertTrue(pages.get(1).contains("0x00000033") && pages.get(1).contains("\"REP_SENT\""), pages.toString());
        assertTrue(java.util.Arrays.stream(handles).allMatch(java.util.Objects::isNull), "handles released as written");
    }

    @Test
    void dreqWithoutDrepTimesOutAfterTheReceiversCmResponseTimeout() {
        final SessionTable t = table(10, 1_000_000_000L);
        fb.timeouts(16, 18, 2); // A waits 2^16 * 4.096 us = 268 ms for B; B waits 2^18 (1.07 s) for A
        t.accept(msg(CmMessageType.REQ, A, B, 1, 0, 1_000_000L), null);
        t.accept(msg(CmMessageType.REP, B, A, 2, 1, 1_001_000L), null);
        t.accept(msg(CmMessageType.RTU, A, B, 1, 2, 1_002_000L), null);
        assertEquals(0, t.expire(100_000_000L), "ESTABLISHED waits for nothing");
        // the responder disconnects: it waits for the requester's DREP, 1.07 s
        t.accept(msg(CmMessageType.DREQ, B, A, 2, 1, 200_000_000L), null);
        // ... for each of its two retries too
        assertEquals(0, t.expire(200_000_000L + 3 * 1_073_741L - 1));
        assertEquals(SessionState.DISCONNECTING, t.snapshot().get(0).state());
        assertEquals(1, t.expire(200_000_000L + 3 * 1_073_741L));
        assertEquals(SessionState.TIMED_OUT, t.snapshot().get(0).state());
        assertEquals(1, t.timedOut());
        // a DREQ retry: waiting again; then the DREP closes it
        t.accept(msg(CmMessageType.DREQ, B, A, 2, 1, 202_000_000L), null);
        assertEquals(SessionState.DISCONNECTING, t.snapshot().get(0).state());
        t.accept(msg(CmMessageType.DREP, A, B, 1, 2, 202_100_000L), null);
        assertEquals(0, t.expire(300_000_000L));
        assertEquals(SessionState.CLOSED, t.snapshot().get(0).state());
        // the requester's DREQ waits 3 x 268 ms (its REQ said no packet life time), and a DREQ of
        // a session whose REQ was not seen 16 x (4.3 s + 2 x 1.07 s): rdma_cm's default timeout and
        // RoCE packet life time, retried 15 times
        t.accept(msg(CmMessageType.REQ, A, B, 3, 0, 400_000_000L), null);
        t.accept(msg(CmMessageType.REP, B, A, 4, 3, 400_001_000L), null);
        t.accept(msg(CmMessageType.DREQ, A, B, 3, 4, 400_002_000L), null);
        t.accept(msg(CmMessageType.DREQ, A, B, 5, 6, 400_002_000L), null);
        assertEquals(0, t.expire(400_002_000L + 3 * 268_435L - 1));
        assertEquals(1, t.expire(400_002_000L + 3 * 268_435L));
        assertEquals(0, t.expire(400_002_000L + 16 * (4_294_967L + 2_147_483L) - 1));
        assertEquals(1, t.expire(400_002_000L + 16 * (4_294_967L + 2_147_483L)));
        assertEquals(List.of(SessionState.CLOSED, SessionState.TIMED_OUT, SessionState.TIMED_OUT),
            t.snapshot().stream().map(SessionRecord::state).toList());
    }

    @Test
    void theRequestersWaitsIncludeTwiceThePacketLifeTimeItsReqShows() {
        final SessionTable t = table(10, 1_000_000_000L);
        // rdma_cm's: CM response timeout 20 (4.3 s), 15 retries; packet life time 18, so the REQ's
        // local ACK timeout is 19 (4.096 us * 2^19 = 2.15 s = 2 x the packet life time)
        fb.timeouts(20, 20, 15).localAckTimeout(19);
        t.accept(msg(CmMessageType.REQ, A, B, 1, 0, 1_000_000L), null);
        t.accept(msg(CmMessageType.REP, B, A, 2, 1, 1_001_000L), null);
        t.accept(msg(CmMessageType.RTU, A, B, 1, 2, 1_002_000L), null);
        t.accept(msg(CmMessageType.DREQ, A, B, 1, 2, 10_000_000L), null);
        // Linux's requester waits 2 x packet life time + the CM response timeout for each of the 16
        // tries: 69 s after the DREQ its retries are still within their wait
        assertEquals(0, t.expire(10_000_000L + 16 * 4_294_967L + 1_000_000L));
        assertEquals(SessionState.DISCONNECTING, t.snapshot().get(0).state());
        assertEquals(0, t.expire(10_000_000L + 16 * (4_294_967L + 2_147_483L) - 1));
        assertEquals(1, t.expire(10_000_000L + 16 * (4_294_967L + 2_147_483L)));
        assertEquals(SessionState.TIMED_OUT, t.snapshot().get(0).state());
        // the responder's CM waits its CM response timeout alone (Linux's passive side)
        t.accept(msg(CmMessageType.REQ, A, B, 3, 0, 200_000_000L), null);
        t.accept(msg(CmMessageType.REP, B, A, 4, 3, 200_001_000L), null);
        t.accept(msg(CmMessageType.RTU, A, B, 3, 4, 200_002_000L), null);
        t.accept(msg(CmMessageType.DREQ, B, A, 4, 3, 210_000_000L), null);
        assertEquals(0, t.expire(210_000_000L + 16 * 4_294_967L - 1));
        assertEquals(1, t.expire(210_000_000L + 16 * 4_294_967L));
        // a REQ: 268 ms and 2.15 s before it times out, not 268 ms
        fb.timeouts(16, 16, 0);
        t.accept(msg(CmMessageType.REQ, A, B, 5, 0, 400_000_000L), null);
        assertEquals(0, t.expire(400_000_000L + 268_435L + 1_000_000L));
        assertEquals(SessionState.REQ_SENT, t.snapshot().get(2).state());
        assertEquals(0, t.expire(400_000_000L + 268_435L + 2_147_483L - 1));
        assertEquals(1, t.expire(400_000_000L + 268_435L + 2_147_483L));
        assertEquals(SessionState.TIMED_OUT, t.snapshot().get(2).state());
    }

    @Test
    void restoredSessionsContinueWhereTheyWere() throws Exception {
        final SessionTable before = table(10, 60_000_000L);
        final byte[] a6 = new byte[16];
        final byte[] b6 = new byte[16];
        a6[0] = (byte) 0xfd;
        a6[15] = 1;
        b6[0] = (byte) 0xfd;
        b6[15] = 2;
        fb.localQpn(0x123).serviceId(0x0000000001060000L | 4420).ipCm(4, 5555, A, B);
        before.accept(msg(CmMessageType.REQ, A, B, 1, 0, 1_000L), "swp1");
        fb.localQpn(0x456);
        before.accept(msg(CmMessageType.REP, B, A, 2, 1, 2_000L), "swp2");
        before.accept(msg(CmMessageType.RTU, A, B, 1, 2, 3_000L), "swp1");
        fb.noIpCm().serviceId(0x1234L);
        before.accept(msg(CmMessageType.REQ, a6, b6, 7, 0, 4_000L), "swp3");
        fb.reject(28, 0);
        before.accept(msg(CmMessageType.REJ, b6, a6, 8, 7, 5_000L), "swp4");
        fb.remoteQpn(99);
        before.accept(msg(CmMessageType.DREQ, B, A, 0x10, 0x11, 6_000L), null);

        // what the agent saves at shutdown and reads back at start: JSON lines, through Jackson
        final ObjectMapper om = new ObjectMapper();
        final List<String> saved = new ArrayList<>();
        before.snapshotJson(new JsonBytes(64), j -> saved.add(j.toString()));
        final SessionTable after = table(10, 60_000_000L);
        for (String line : saved) {
            assertTrue(after.restore(om.readValue(line, SessionRecord.class)), line);
        }
        assertEquals(3, after.restored());
        assertEquals(0, after.created());
        assertEquals(before.snapshot(), after.snapshot(), "the same records after the restart");
        // restoring again replaces, it does not duplicate
        assertTrue(after.restore(om.readValue(saved.get(0), SessionRecord.class)));
        assertEquals(3, after.size());

        // the first connection ends: DREQ and DREP join the restored session, not a new one
        after.accept(msg(CmMessageType.DREQ, A, B, 1, 2, 7_000L), "swp1");
        after.accept(msg(CmMessageType.DREP, B, A, 2, 1, 8_000L), "swp2");
        assertEquals(3, after.size());
        assertEquals(0, after.created());
        final SessionRecord r = after.snapshot().get(0);
        assertEquals(SessionState.CLOSED, r.state());
        assertEquals(List.of("REQ", "REP", "RTU", "DREQ", "DREP"), r.messages());
        assertEquals(List.of("swp1", "swp2", "swp1", "swp1", "swp2"),
            r.messageLog().stream().map(SessionMessage::ingressPort).toList());
        assertEquals(0x123, r.requesterQpn());
        assertEquals(99, r.responderQpn(), "as the last DREQ named it");
        assertEquals(5555, r.rdmaCmSrcPort());
        // the mid-session one (roles unknown) is found through its other endpoint too
        after.accept(msg(CmMessageType.DREP, A, B, 0x11, 0x10, 9_000L), null);
        assertEquals(3, after.size());
        assertEquals(SessionState.CLOSED, after.snapshot().get(2).state());
        // a restored DISCONNECTING session waits rdma_cm's default CM response timeout and twice
        // its RoCE packet life time from its last message, for each of the default 15 retries and
        // the last
        final SessionTable waiting = table(10, 600_000_000L);
        waiting.restore(om.readValue(saved.get(2), SessionRecord.class));
        assertEquals(0, waiting.expire(6_000L + 16 * (4_294_967L + 2_147_483L) - 1));
        assertEquals(1, waiting.expire(6_000L + 16 * (4_294_967L + 2_147_483L)));
        // what this table cannot have written is refused
        final JsonNode bad = om.readTree(saved.get(0));
        ((com.fasterxml.jackson.databind.node.ObjectNode) bad).put("requester_ip", "example.com");
        assertFalse(after.restore(om.treeToValue(bad, SessionRecord.class)));
        ((com.fasterxml.jackson.databind.node.ObjectNode) bad).put("requester_ip", "10.0.0.1")
            .put("requester_comm_id", "0x1");
        assertFalse(after.restore(om.treeToValue(bad, SessionRecord.class)));
    }

    /**
     * Fills a table with 500k live (ESTABLISHED) sessions and measures the heap they hold.
     * The budget is 256 bytes per live session, index included.
     */
    @Test
    void heapPerLiveSessionIsWithinBudget() {
        final int n = 500_000;
        final SessionTable t = new SessionTable(new SessionConfig(n, 1L, 0L, 32), null);
        final byte[] a = new byte[4];
        final byte[] b = new byte[4];
        final long before = usedHeap();
        for (int i = 0; i < n; i++) {
            a[0] = 10;
            a[1] = (byte) (i >>> 16);
            a[2] = (byte) (i >>> 8);
            a[3] = (byte) i;
            b[0] = 11;
            System.arraycopy(a, 1, b, 1, 3);
            t.accept(msg(CmMessageType.REQ, a, b, i, 0, i), null);
            t.accept(msg(CmMessageType.REP, b, a, ~i, i, i + 1), null);
            t.accept(msg(CmMessageType.RTU, a, b, i, ~i, i + 2), null);
        }
        final long after = usedHeap();
        assertEquals(n, t.size());
        final double perSession = (after - before) / (double) n;
        LOG.info("heap per live session: {} bytes ({} sessions)", String.format("%.1f", perSession), n);
        assertTrue(perSession <= 256, "heap per live session " + perSession);
        assertEquals(SessionState.ESTABLISHED, t.snapshot().get(n - 1).state());
    }

    private static long usedHeap() {
        final Runtime rt = Runtime.getRuntime();
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            System.gc();
            used = Math.min(used, rt.totalMemory() - rt.freeMemory());
        }
        return used;
    }
}
