/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rst.rft.session.SessionConfig;
import io.rst.rft.session.SessionRecord;
import io.rst.rft.session.SessionTable;
import io.rst.rft.testutil.Captures;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every row of every ../shared/pcaps/*.cm.tsv (tshark 4.0's decode, checked against the bytes)
 * equals our decode field by field, and the session table ends with the lifecycle of the file.
 */
class RealCaptureCmTest {
    /** The ground truth is there (four captures carry a .cm.tsv); without it, one skip says why. */
    @org.junit.jupiter.api.Test
    void groundTruthIsThere() throws IOException {
        org.junit.jupiter.api.Assertions.assertTrue(groundTruth().count() >= 4, "expected 4 .cm.tsv files");
    }

    static Stream<Path> groundTruth() throws IOException {
        try (Stream<Path> s = Files.list(Captures.dir())) {
            return s.filter(p -> p.toString().endsWith(".cm.tsv")).sorted().toList().stream();
        }
    }

    private static List<Map<String, String>> rows(final Path tsv) throws IOException {
        final List<String> lines = Files.readAllLines(tsv, StandardCharsets.UTF_8);
        final String[] head = lines.get(0).split("\t", -1);
        final List<Map<String, String>> out = new ArrayList<>();
        for (String l : lines.subList(1, lines.size())) {
            if (l.isBlank()) {
                continue;
            }
            final String[] f = l.split("\t", -1);
            final Map<String, String> row = new HashMap<>();
            for (int i = 0; i < head.length; i++) {
                row.put(head[i], i < f.length ? f[i] : "");
            }
            out.add(row);
        }
        return out;
    }

    private static Path pcapOf(final Path tsv) {
        final String n = tsv.getFileName().toString();
        return tsv.resolveSibling(n.substring(0, n.length() - ".cm.tsv".length()));
    }

    private static long num(final String text) {
        return text.startsWith("0x") ? Long.parseUnsignedLong(text.substring(2), 16) : Long.parseLong(text);
    }

    @ParameterizedTest
    @MethodSource("groundTruth")
    void everyCmRowEqualsOurDecode(final Path tsv) throws IOException {
        final List<Map<String, String>> rows = rows(tsv);
        final List<CmMessage> ours = Captures.cmMessages(pcapOf(tsv));
        assertEquals(rows.size(), ours.size(), "number of CM MADs");
        for (int i = 0; i < rows.size(); i++) {
            final Map<String, String> r = rows.get(i);
            final CmMessage m = ours.get(i);
            final String where = tsv.getFileName() + " frame " + r.get("frame");
            assertEquals(num(r.get("frame")), m.frame(), where);
            assertEquals(new BigDecimal(r.get("time_epoch")).movePointRight(9).longValueExact(), m.timeNanos(), where);
            assertEquals(r.get("src_ip"), m.srcIpString(), where);
            assertEquals(r.get("dst_ip"), m.dstIpString(), where);
            assertEquals(num(r.get("udp_srcport")), m.udpSrcPort(), where);
            assertEquals(num(r.get("attr_id")), m.attributeId(), where);
            assertEquals(r.get("msg"), m.type().name(), where);
            assertEquals(num(r.get("method")), m.method(), where);
            assertEquals(num(r.get("transaction_id")), m.transactionId(), where);
            assertEquals(num(r.get("bth_destqp")), m.bthDestQp(), where);
            assertEquals(num(r.get("deth_srcqp")), m.dethSrcQp(), where);
            check(r, "local_comm_id", m.hasLocalCommId(), m.localCommId() & 0xffffffffL, where);
            check(r, "remote_comm_id", m.hasRemoteCommId(), m.remoteCommId() & 0xffffffffL, where);
            check(r, "local_qpn", m.hasLocalQpn(), m.localQpn(), where);
            check(r, "remote_qpn", m.hasRemoteQpn(), m.remoteQpn(), where);
            check(r, "service_id", m.hasServiceId(), m.serviceId(), where);
            check(r, "starting_psn", m.type() == CmMessageType.REQ || m.type() == CmMessageType.REP,
                m.startingPsn(), where);
            check(r, "rej_reason", m.type() == CmMessageType.REJ, m.rejectReason(), where);
        }
    }

    private static void check(final Map<String, String> row, final String col, final boolean has, final long ours,
            final String where) {
        final String v = row.get(col);
        if (v.isEmpty()) {
            assertFalse(has, where + ": we report " + col + " that tshark does not");
        } else {
            assertTrue(has, where + ": we omit " + col);
            assertEquals(num(v), ours, where + " " + col);
        }
    }

    @ParameterizedTest
    @MethodSource("groundTruth")
    void sessionsEqualTheLifecycleOfTheFile(final Path tsv) throws IOException {
        final List<Map<String, String>> rows = rows(tsv);
        final SessionTable t = new SessionTable(SessionConfig.DEFAULT, null);
        long last = 0;
        for (CmMessage m : Captures.cmMessages(pcapOf(tsv))) {
            t.accept(m, null);
            last = m.timeMicros();
        }
        t.expire(last);
        final List<SessionRecord> s = t.snapshot();
        assertEquals(1, s.size());
        final SessionRecord r = s.get(0);
        final Map<String, String> req = rows.get(0);
        final Map<String, String> rep = rows.get(1);
        assertEquals("REQ", req.get("msg"));
        assertEquals(req.get("src_ip"), r.requesterIp());
        assertEquals(req.get("dst_ip"), r.responderIp());
        assertEquals(req.get("local_comm_id"), r.requesterCommId());
        assertEquals(rep.get("local_comm_id"), r.responderCommId());
        assertEquals(num(req.get("local_qpn")), r.requesterQpn().longValue());
        assertEquals(num(rep.get("local_qpn")), r.responderQpn().longValue());
        assertEquals(req.get("service_id"), r.serviceId());
        assertEquals(rows.stream().map(x -> x.get("msg")).toList(), r.messages());
        assertEquals("CLOSED", r.state().name());
        assertTrue(r.rolesKnown());
        assertEquals(req.get("src_ip") + "/" + req.get("local_comm_id") + "/" + req.get("dst_ip"), r.sessionId());
        assertEquals(new BigDecimal(req.get("time_epoch")).setScale(6), r.firstSeen());
        assertEquals(new BigDecimal(rows.get(rows.size() - 1).get("time_epoch")).setScale(6), r.lastSeen());
        assertNull(r.rejectReason());
        for (int i = 0; i < rows.size(); i++) {
            assertEquals(rows.get(i).get("src_ip").equals(req.get("src_ip")), r.messageLog().get(i).fromRequester());
        }
    }
}
