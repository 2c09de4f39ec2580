/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.agent;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rst.rft.decode.CmMessageType;
import io.rst.rft.decode.JsonBytes;
import io.rst.rft.pcap.CmFrameBuilder;
import io.rst.rft.pcap.DataFrameBuilder;
import io.rst.rft.session.SessionBinary;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent's real processor with data sampling: sessions learnt from data reach the event stream,
 * the snapshot and the status counters; a replayed file ages on its own clock.
 */
class AgentDataSessionsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final byte[] A = {10, 0, 0, 1};
    private static final byte[] B = {10, 0, 0, 2};
    private static final String PAIR = "10.0.0.1/qp0x000a01/10.0.0.2/qp0x000b02";

    @TempDir
    Path dir;
    private final List<Agent> agents = new ArrayList<>();

    @AfterEach
    void stop() {
        agents.forEach(Agent::close);
    }

    /** Collects what a processor reports, as the agent's event log would. */
    private static final class Events implements FrameProcessor.SessionEvents {
        final List<JsonNode> lines = new ArrayList<>();
        int binary;

        @Override
        public void onSession(final Object record, final long timeMicros) {
            throw new AssertionError("the real processor writes JSON");
        }

        @Override
        public void onSessionJson(final JsonBytes session, final long timeMicros) {
            try {
                lines.add(JSON.readTree(session.toByteArray()));
            } catch (IOException e) {
                throw new AssertionError(e);
            }
        }

        @Override
        public void onSessionJson(final JsonBytes session, final SessionBinary wal, final long timeMicros) {
            if (wal != null) {
                binary++;
            }
            onSessionJson(session, timeMicros);
        }
    }

    private static byte[] data(final byte[] src, final byte[] dst, final int qp, final int op, final int psn) {
        return new DataFrameBuilder().ips(src, dst).destQp(qp).opcode(op).psn(psn).build();
    }

    /**
     * PSNs 0 to {@code count - 1}: each an RDMA WRITE from A (in on swp1) and B's ACK (in on
     * swp2), a microsecond apart from {@code time} on, a batch each; returns the next time.
     */
    private static long writesWithAcks(final CmFrameProcessor processor, final int count, final long time) {
        long now = time;
        for (int psn = 0; psn < count; psn++) {
            final byte[] w = data(A, B, 0x000b02, DataFrameBuilder.RC_WRITE_ONLY, psn);
            processor.onFrame(w, 0, w.length, now++, "swp1");
            final byte[] k = data(B, A, 0x000a01, DataFrameBuilder.RC_ACK, psn);
            processor.onFrame(k, 0, k.length, now++, "swp2");
            processor.endBatch();
        }
        return now;
    }

    private static byte[] cm(final CmMessageType type, final byte[] src, final byte[] dst, final int lc, final int rc,
            final int qpn) {
        // rdma_cm's timeouts: a REQ waits 16 x 4.3 s for its answer
        return cm(new CmFrameBuilder().ips(src, dst).type(type).commIds(lc, rc).localQpn(qpn).remoteQpn(qpn)
            .timeouts(20, 20, 15));
    }

    private static byte[] cm(final CmFrameBuilder builder) {
        final byte[] f = new byte[builder.length()];
        builder.build(f);
        return f;
    }

    @Test
    void sampledDataMakesSessionsEventsAndCounters() throws Exception {
        final AgentOptions o = AgentOptions.parse(List.of("--data-sample", "4", "--data-report-ms", "1000",
            "--data-idle", "10", "--max-flows", "100", "--state-dir", dir.toString()));
        final Events ev = new Events();
        final CmFrameProcessor p = new CmFrameProcessor(o, ev);
        p.recordBinary();
        // writes with an ACK each: PSNs 0..15, of which 0, 4, 8, 12 are sampled
        long time = writesWithAcks(p, 16, 1_700_000_000_000_000L);
        // garbage: RC data to QP 1
        final byte[] g = data(A, B, 1, DataFrameBuilder.RC_WRITE_ONLY, 0);
        p.onFrame(g, 0, g.length, time++, "swp1");
        p.endBatch();
        final ObjectNode c = JSON.createObjectNode();
        p.addCounters(c);
        assertEquals(33, c.path("data_packets").asLong());
        assertEquals(2, c.path("data_flows").asLong(), c.toString());
        assertEquals(1, c.path("data_sessions").asLong());
        assertEquals(0, c.path("data_one_way").asLong());
        assertEquals(0, c.path("data_flows_evicted").asLong());
        assertEquals(0, c.path("data_pair_ambiguous").asLong());
        assertEquals(1, c.path("data_bth_rejected").asLong());
        final List<String> ids = ev.lines.stream()
            .map(n -> (n.path("removed").asBoolean() ? "-" : "") + n.path("session_id").asText()).toList();
        assertEquals(List.of("10.0.0.1/-/10.0.0.2/qp0x000b02", "10.0.0.2/-/10.0.0.1/qp0x000a01",
            "-10.0.0.1/-/10.0.0.2/qp0x000b02", "-10.0.0.2/-/10.0.0.1/qp0x000a01", PAIR), ids.subList(0, 5));
        assertEquals(0, ev.binary, "data-learned events carry no binary WAL record: the WAL keeps their line");
        final JsonNode pair = ev.lines.get(4);
        assertEquals("data", pair.path("learned_from").asText());
        assertEquals("swp1", pair.path("requester_data").path("ingress_port").asText());
        assertEquals("swp2", pair.path("responder_data").path("ingress_port").asText());
        // the snapshot lists it; a new processor restores it from the saved line
        final ByteArrayOutputStream saved = new ByteArrayOutputStream();
        p.writeSessions(saved);
        final String line = saved.toString().strip();
        assertTrue(line.contains("\"session_id\":\"" + PAIR + "\""), line);
        final CmFrameProcessor q = new CmFrameProcessor(o, new Events());
        assertTrue(q.restore(JSON.readTree(line)));
        final ByteArrayOutputStream again = new ByteArrayOutputStream();
        q.writeSessions(again);
        assertEquals(line, again.toString().strip());
        // a replayed "removed" event takes it out again
        final ObjectNode removed = (ObjectNode) JSON.readTree(line);
        removed.put("removed", true);
        assertTrue(q.restore(removed));
        final ByteArrayOutputStream none = new ByteArrayOutputStream();
        q.writeSessions(none);
        assertEquals("", none.toString());
        // idle after 10 s on the capture's clock
        p.expire(time + 11_000_000L);
        final JsonNode last = ev.lines.get(ev.lines.size() - 1);
        assertEquals(PAIR, last.path("session_id").asText());
        assertEquals("IDLE", last.path("state").asText());
        // without --data-sample no data is learnt and no data counter shows
        final CmFrameProcessor off = new CmFrameProcessor(AgentOptions.parse(List.of("--state-dir", dir.toString())),
            new Events());
        final ObjectNode oc = JSON.createObjectNode();
        off.addCounters(oc);
        assertFalse(oc.has("data_flows"));
    }

    private Agent replay(final Path state, final String name, final List<byte[]> frames, final long start,
            final String... extra) throws Exception {
        final Path pcap = dir.resolve(name);
        TestFrames.writePcap(pcap, frames, start);
        if (!Files.exists(dir.resolve("token"))) {
            Files.writeString(dir.resolve("token"), "tok\n");
            Files.setPosixFilePermissions(dir.resolve("token"),
                java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        }
        final List<String> args = new ArrayList<>(List.of("--listen", "127.0.0.1:0", "--token-file",
            dir.resolve("token").toString(), "--state-dir", state.toString(), "--replay", pcap.toString(),
            "--data-sample", "1", "--plain-http"));
        args.addAll(List.of(extra));
        final AgentOptions o = AgentOptions.parse(args);
        final Agent a = new Agent(o, events -> new CmFrameProcessor(o, events));
        agents.add(a);
        a.start();
        await("the replay finishes").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(20))
            .until(a::status, st -> st.path("interfaces").path(0).path("finished").asBoolean()
                && st.path("counters").path("frames").asLong() >= frames.size());
        return a;
    }

    private static Map<String, String> snapshot(final Agent agent) throws IOException {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        agent.writeSnapshot(out);
        final Map<String, String> byId = new java.util.TreeMap<>();
        for (JsonNode s : JSON.readTree(out.toByteArray()).path("sessions")) {
            byId.put(s.path("session_id").asText(), s.toString());
        }
        return byId;
    }

    @Test
    void dataLearnedSessionsSurviveARestartFromTheWriteAheadLogAndFromACheckpoint() throws Exception {
        final List<byte[]> frames = new ArrayList<>();
        for (int psn = 0; psn < 3; psn++) {
            frames.add(data(A, B, 0x000b02, DataFrameBuilder.RC_WRITE_ONLY, psn));
            frames.add(data(B, A, 0x000a01, DataFrameBuilder.RC_ACK, psn));
        }
        frames.add(data(A, B, 0x000c03, DataFrameBuilder.UD_SEND_ONLY, 9));
        frames.add(data(B, A, 0x000d04, DataFrameBuilder.RC_SEND_ONLY, 10));
        final long start = System.currentTimeMillis() * 1000L;
        final Path state = dir.resolve("state");
        final Agent a = replay(state, "a.pcap", frames, start, "--flush-ms", "20", "--event-hold-ms", "0");
        await("the events are flushed").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(20))
            .until(() -> a.log().lastSeq() >= 3 && a.persistedSeq() >= a.log().lastSeq());
        final Map<String, String> before = snapshot(a);
        assertEquals(java.util.Set.of(PAIR, "10.0.0.1/-/10.0.0.2/qp0x000c03", "10.0.0.2/-/10.0.0.1/qp0x000d04"),
            before.keySet());
        // the image a crash leaves: the write-ahead log, no checkpoint of this table
        final Path image = dir.resolve("image");
        try (var files = Files.walk(state)) {
            for (Path p : files.toList()) {
                final Path q = image.resolve(state.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(q);
                } else {
                    Files.copy(p, q);
                }
            }
        }
        final Agent b = replay(image, "empty.pcap", List.of(), start, "--flush-ms", "20");
        assertEquals(before, snapshot(b), "replayed from the write-ahead log's lines");
        assertEquals(3, b.status().path("restored").path("restored_sessions").asLong());
        b.close();
        // a clean stop writes a checkpoint; the next start restores from it
        final Agent c = replay(image, "empty2.pcap", List.of(), start, "--flush-ms", "20");
        assertEquals(before, snapshot(c), "restored from the checkpoint");
        final JsonNode counters = c.status().path("counters");
        assertEquals(1, counters.path("data_sessions").asLong());
        assertEquals(2, counters.path("data_one_way").asLong());
    }

    @Test
    void maxFlowsZeroLearnsNothingFromData() throws Exception {
        final AgentOptions o = AgentOptions.parse(List.of("--data-sample", "1", "--max-flows", "0", "--state-dir",
            dir.toString()));
        final Events ev = new Events();
        final CmFrameProcessor p = new CmFrameProcessor(o, ev);
        writesWithAcks(p, 8, 1_700_000_000_000_000L);
        final ObjectNode c = JSON.createObjectNode();
        p.addCounters(c);
        assertEquals(16, c.path("data_packets").asLong(), c.toString());
        assertEquals(16, c.path("data_unmatched").asLong(), c.toString());
        assertEquals(0, c.path("data_flows").asLong(), c.toString());
        assertEquals(List.of(), ev.lines, "no session learnt from data");
    }

    @Test
    void aReplayedFileAgesOnItsOwnClock() throws Exception {
        // a capture recorded two hours ago: a connection that closed, one still setting up, and
        // a data-learned session; with a retention of one hour
        final long start = (System.currentTimeMillis() - 2 * 3600_000L) * 1000L;
        final List<byte[]> frames = new ArrayList<>();
        frames.add(cm(CmMessageType.REQ, A, B, 1, 0, 0x101));
        frames.add(cm(CmMessageType.REP, B, A, 2, 1, 0x202));
        frames.add(cm(CmMessageType.RTU, A, B, 1, 2, 0));
        frames.add(cm(CmMessageType.DREQ, A, B, 1, 2, 0x202));
        frames.add(cm(CmMessageType.DREP, B, A, 2, 1, 0));
        for (int psn = 0; psn < 3; psn++) {
            frames.add(data(A, B, 0x000b02, DataFrameBuilder.RC_WRITE_ONLY, psn));
            frames.add(data(B, A, 0x000a01, DataFrameBuilder.RC_ACK, psn));
        }
        frames.add(cm(CmMessageType.REQ, A, B, 3, 0, 0x303));
        // the file's last frame: a REQ that gives up after 1.07 s (4.096 us x 2^18, no retries):
        // once it has timed out, the sessions have aged more than a second past the file's end
        frames.add(cm(new CmFrameBuilder().ips(A, B).type(CmMessageType.REQ).commIds(5, 0).localQpn(0x505)
            .timeouts(18, 18, 0)));
        final Agent a = replay(dir.resolve("state"), "old.pcap", frames, start, "--retention", "3600", "--flush-ms",
            "0");
        await("the last REQ times out on the file's clock").atMost(Duration.ofSeconds(20))
            .pollInterval(Duration.ofMillis(50))
            .until(() -> a.status().path("counters").path("timed_out").asLong() > 0);
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        a.writeSnapshot(out);
        final Map<String, JsonNode> byId = new HashMap<>();
        for (JsonNode s : JSON.readTree(out.toByteArray()).path("sessions")) {
            byId.put(s.path("session_id").asText(), s);
        }
        assertEquals(java.util.Set.of("10.0.0.1/0x00000001/10.0.0.2", "10.0.0.1/0x00000003/10.0.0.2",
            "10.0.0.1/0x00000005/10.0.0.2", PAIR), byId.keySet(), "nothing expired on the file's clock");
        assertEquals("CLOSED", byId.get("10.0.0.1/0x00000001/10.0.0.2").path("state").asText(),
            "finished an hour before the file's end? no: within its retention on the file's clock " + byId.keySet());
        assertEquals("REQ_SENT", byId.get("10.0.0.1/0x00000003/10.0.0.2").path("state").asText(),
            "its REQ's wait (69 s) has not passed on the file's clock, seconds after its last frame");
        assertEquals("TIMED_OUT", byId.get("10.0.0.1/0x00000005/10.0.0.2").path("state").asText());
        assertEquals("ACTIVE", byId.get(PAIR).path("state").asText());
        final JsonNode counters = a.status().path("counters");
        assertEquals(1, counters.path("timed_out").asLong(), counters.toString());
        assertEquals(0, counters.path("expired").asLong(), counters.toString());
        assertNull(byId.get(PAIR).get("requester_comm_id"));
    }
}
