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
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rst.rft.decode.CmMessageType;
import io.rst.rft.pcap.CmFrameBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent in this JVM, replaying generated pcap files (one session event per frame), checked
 * through its real HTTP API: authentication, errors, snapshot and stream consistency, resume
 * after a disconnect and after a restart, and the reset when a client is too far behind.
 */
class AgentApiTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TOKEN = "t0ken-for-tests";

    @TempDir
    Path dir;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private Agent agent;

    @AfterEach
    void stop() {
        if (agent != null) {
            agent.close();
        }
    }

    private Agent startAgent(final List<byte[]> frames, final String name, final int retain) throws Exception {
        return startAgent(frames, name, retain, false);
    }

    /**
     * An agent replaying {@code frames}; with {@code cm} the real decoder and session table, whose
     * changes become events at the end of each batch ({@code --event-hold-ms 0}): once a frame
     * is decoded, its events are in the log.
     */
    private Agent startAgent(final List<byte[]> frames, final String name, final int retain, final boolean cm)
            throws Exception {
        final Path pcap = dir.resolve(name + ".pcap");
        TestFrames.writePcap(pcap, frames, System.currentTimeMillis() * 1000L);
        Files.writeString(dir.resolve("token"), TOKEN + "\n");
        Files.setPosixFilePermissions(dir.resolve("token"), PosixFilePermissions.fromString("rw-------"));
        final AgentOptions o = AgentOptions.parse(List.of("--listen", "127.0.0.1:0", "--token-file",
            dir.resolve("token").toString(), "--state-dir", dir.resolve("state").toString(), "--replay",
            pcap.toString(), "--retain-events", Integer.toString(retain), "--agent-id", "leaf1", "--plain-http",
            "--event-hold-ms", cm ? "0" : "50"));
        final Agent a = new Agent(o, cm ? events -> AgentCommand.cmProcessor(o, events) : EventPerFrameProcessor::new);
        a.start();
        return a;
    }

    private static List<byte[]> frames(final int count, final int firstSession) {
        final List<byte[]> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            out.add(TestFrames.udp(0x0a000101, 0x0a000201, 50000, new byte[] {1, 2, 3, (byte) (firstSession + i)}));
        }
        return out;
    }

    private HttpResponse<String> get(final String path, final String token) throws Exception {
        final HttpRequest.Builder b = HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(20));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(final String path) throws Exception {
        return http.send(HttpRequest.newBuilder(uri(path)).header("Authorization", "Bearer " + TOKEN)
            .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
    }

    private URI uri(final String path) {
        final InetSocketAddress a = agent.address();
        return URI.create("http://127.0.0.1:" + a.getPort() + path);
    }

    private JsonNode status() throws Exception {
        final HttpResponse<String> r = get("/v1/status", TOKEN);
        assertEquals(200, r.statusCode(), r.body());
        return JSON.readTree(r.body());
    }

    private void awaitEvents(final long seq) {
        await("agent reaches event " + seq).atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
            .until(() -> status().path("last_seq").asLong() >= seq);
    }

    private List<JsonNode> events(final String query) throws Exception {
        final HttpResponse<String> r = get("/v1/events?" + query, TOKEN);
        assertEquals(200, r.statusCode(), r.body());
        assertEquals("application/x-ndjson", r.headers().firstValue("Content-Type").orElse(""));
        final List<JsonNode> out = new ArrayList<>();
        for (String line : r.body().split("\n")) {
            if (!line.isEmpty()) {
                out.add(JSON.readTree(line));
            }
        }
        return out;
    }

    private static void assertSeqs(final List<JsonNode> events, final long from, final long to) {
        assertEquals(to - from + 1, events.size(), events.toString());
        for (int i = 0; i < events.size(); i++) {
            assertEquals("session", events.get(i).path("type").asText());
            assertEquals(from + i, events.get(i).path("seq").asLong());
        }
    }

    @Test
    void authenticationAndErrors() throws Exception {
        agent = startAgent(frames(3, 0), "a", 1024);
        final HttpResponse<String> health = get("/v1/health", null);
        assertEquals(200, health.statusCode());
        assertEquals("ok", JSON.readTree(health.body()).path("status").asText());
        for (String p : List.of("/v1/status", "/v1/sessions", "/v1/events?after=0&wait=0", "/nope")) {
            final HttpResponse<String> none = get(p, null);
            assertEquals(401, none.statusCode(), p);
            assertTrue(JSON.readTree(none.body()).has("error"));
            assertEquals(401, get(p, "wrong").statusCode(), p);
            assertEquals(401, get(p, TOKEN + "x").statusCode(), p);
        }
        assertEquals(404, get("/v1/nothing", TOKEN).statusCode());
        assertEquals(400, get("/v1/events?after=-1&wait=0", TOKEN).statusCode());
        assertEquals(400, get("/v1/events?after=x&wait=0", TOKEN).statusCode());
        assertEquals(400, get("/v1/events?after=1&after=2", TOKEN).statusCode());
        assertEquals(400, get("/v1/events?after=99999999999999999999", TOKEN).statusCode());
        final HttpResponse<String> wrongMethod = http.send(HttpRequest.newBuilder(uri("/v1/status"))
            .header("Authorization", "Bearer " + TOKEN).DELETE().build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(405, wrongMethod.statusCode());
        final HttpResponse<String> big = http.send(HttpRequest.newBuilder(uri("/v1/start"))
            .header("Authorization", "Bearer " + TOKEN)
            .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[100_000])).build(),
            HttpResponse.BodyHandlers.ofString());
        assertEquals(413, big.statusCode());
        assertTrue(JSON.readTree(big.body()).has("error"));
        // raw garbage on the socket, and a request with an enormous header, then the agent still answers
        try (Socket s = new Socket("127.0.0.1", agent.address().getPort())) {
            s.setSoTimeout(5000);
            final OutputStream out = s.getOutputStream();
            out.write("\u0000\u0001garbage\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            final InputStream in = s.getInputStream();
            in.readAllBytes();
        } catch (IOException e) {
            // the server may just close: what matters is that it lives on
        }
        try (Socket s = new Socket("127.0.0.1", agent.address().getPort())) {
            s.setSoTimeout(5000);
            final OutputStream out = s.getOutputStream();
            out.write(("GET /v1/status HTTP/1.1\r\nHost: x\r\nX-Big: " + "a".repeat(2_000_000) + "\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            s.getInputStream().readAllBytes();
        } catch (IOException e) {
            // refused by closing: fine
        }
        awaitEvents(3);
        assertEquals("leaf1", status().path("agent_id").asText());
    }

    @Test
    void snapshotThenStreamAndResumeAfterDisconnect() throws Exception {
        agent = startAgent(frames(20, 0), "a", 1024);
        awaitEvents(20);
        final JsonNode st = status();
        assertEquals(20, st.path("counters").path("frames").asLong());
        assertEquals(20, st.path("counters").path("events").asLong());
        assertEquals(1, st.path("first_retained_seq").asLong());
        assertEquals("replay", st.path("interfaces").get(0).path("name").asText());

        final JsonNode snap = JSON.readTree(get("/v1/sessions", TOKEN).body());
        assertEquals(20, snap.path("seq").asLong());
        assertEquals(20, snap.path("sessions").size());
        assertEquals("replay", snap.path("sessions").get(0).path("ingress_port").asText());

        // a client that saw up to 7 and reconnects gets 8..20, nothing else
        assertSeqs(events("after=7&wait=0"), 8, 20);
        assertSeqs(events("after=20&wait=0"), 21, 20);
        // a wait with nothing new returns after about that long
        final long t0 = System.nanoTime();
        assertSeqs(events("after=20&wait=1"), 21, 20);
        assertTrue(System.nanoTime() - t0 >= 900_000_000L);
    }

    @Test
    void clientTooFarBehindGetsResetWithSnapshot() throws Exception {
        agent = startAgent(frames(40, 0), "a", 16);
        awaitEvents(40);
        assertEquals(25, status().path("first_retained_seq").asLong());
        final List<JsonNode> ev = events("after=3&wait=0");
        final JsonNode reset = ev.get(0);
        assertEquals("reset", reset.path("type").asText());
        assertEquals(25, reset.path("first_retained_seq").asLong());
        assertEquals(40, reset.path("snapshot").path("seq").asLong());
        assertEquals(40, reset.path("snapshot").path("sessions").size());
        assertEquals(1, ev.size(), "events after the snapshot follow, and there are none");
        // resuming from within the retained window is gap-free
        assertSeqs(events("after=24&wait=0"), 25, 40);
        // another instance's sequence numbers get a reset too
        assertEquals("reset", events("after=30&wait=0&instance=other").get(0).path("type").asText());
        assertEquals("reset", events("after=41&wait=0").get(0).path("type").asText());
    }

    @Test
    void resumeAfterRestartLosesNothingRetainedAndKeepsTheSwitch() throws Exception {
        agent = startAgent(frames(10, 0), "a", 1024);
        awaitEvents(10);
        final String instance = status().path("instance").asText();
        assertEquals(200, post("/v1/stop").statusCode());
        assertFalse(status().path("capturing").asBoolean());
        agent.close();

        // the restarted agent replays another file: its events continue the numbering
        agent = startAgent(frames(5, 100), "b", 1024);
        JsonNode st = status();
        assertEquals(instance, st.path("instance").asText());
        assertFalse(st.path("capturing").asBoolean(), "the operator's off switch survives a restart");
        assertEquals(10, st.path("last_seq").asLong());
        // sessions seen before the restart are still in the snapshot
        JsonNode snap = JSON.readTree(get("/v1/sessions", TOKEN).body());
        assertEquals(10, snap.path("seq").asLong());
        assertEquals(10, snap.path("sessions").size());
        assertSeqs(events("after=4&wait=0&instance=" + instance), 5, 10);

        assertEquals(200, post("/v1/start").statusCode());
        awaitEvents(15);
        assertSeqs(events("after=10&wait=0&instance=" + instance), 11, 15);
        final List<JsonNode> all = events("after=0&wait=0");
        assertSeqs(all, 1, 15);
        assertEquals("s100", all.get(10).path("session").path("session_id").asText());
        snap = JSON.readTree(get("/v1/sessions", TOKEN).body());
        assertEquals(15, snap.path("seq").asLong());
        assertEquals(15, snap.path("sessions").size());
    }

    private static byte[] cm(final CmMessageType type, final byte[] src, final byte[] dst, final int lc,
            final int rc) {
        final CmFrameBuilder fb = new CmFrameBuilder().ips(src, dst).type(type).commIds(lc, rc).localQpn(0x42)
            .remoteQpn(0x43).timeouts(20, 20, 15);
        final byte[] frame = new byte[1024];
        return java.util.Arrays.copyOf(frame, fb.build(frame));
    }

    /**
     * Waits until the session table has taken {@code count} CM MADs: its counters are read on the
     * decode thread between batches, and each batch's changes are events by its end
     * (--event-hold-ms 0), so they are reported too.
     */
    private void awaitCmMads(final long count) {
        await("agent decodes " + count + " CM MADs").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
            .until(() -> status().path("counters").path("cm_mads").asLong() >= count);
    }

    @Test
    void restartedAgentContinuesItsSessionsWithTheRealTable() throws Exception {
        final byte[] a = {10, 0, 0, 1};
        final byte[] b = {10, 0, 0, 2};
        final byte[] c = {10, 0, 0, 3};
        agent = startAgent(List.of(cm(CmMessageType.REQ, a, b, 1, 0), cm(CmMessageType.REP, b, a, 2, 1),
            cm(CmMessageType.RTU, a, b, 1, 2), cm(CmMessageType.REQ, c, b, 5, 0)), "a", 1024, true);
        awaitCmMads(4);
        JsonNode snap = JSON.readTree(get("/v1/sessions", TOKEN).body());
        assertEquals(2, snap.path("sessions").size());
        assertEquals("ESTABLISHED", snap.path("sessions").get(0).path("state").asText());
        final long seqBefore = snap.path("seq").asLong();
        assertTrue(seqBefore >= 2, "at least one event per session");
        // every event is the session's state at the time: the last one of the first session has it established
        final List<JsonNode> ev = events("after=0&wait=0");
        assertEquals(seqBefore, ev.size());
        agent.close();

        // after the restart, the connection ends: DREQ and DREP continue the same session
        agent = startAgent(List.of(cm(CmMessageType.DREQ, a, b, 1, 2), cm(CmMessageType.DREP, b, a, 2, 1)), "b",
            1024, true);
        assertEquals(2, status().path("counters").path("restored_sessions").asLong());
        awaitCmMads(2);
        snap = JSON.readTree(get("/v1/sessions", TOKEN).body());
        assertEquals(2, snap.path("sessions").size(), snap.toString());
        final JsonNode s = snap.path("sessions").get(0);
        assertEquals("10.0.0.1/0x00000001/10.0.0.2", s.path("session_id").asText());
        assertEquals("CLOSED", s.path("state").asText());
        assertEquals("[\"REQ\",\"REP\",\"RTU\",\"DREQ\",\"DREP\"]", s.path("messages").toString());
        assertEquals("10.0.0.3/0x00000005/10.0.0.2", snap.path("sessions").get(1).path("session_id").asText(),
            "the other one is still there");
        // and the event stream goes on from where it was, with the continued session
        final List<JsonNode> after = events("after=" + seqBefore + "&wait=0");
        assertFalse(after.isEmpty());
        assertEquals(seqBefore + 1, after.get(0).path("seq").asLong());
        assertEquals("CLOSED", after.get(after.size() - 1).path("session").path("state").asText());
    }

    @Test
    @SuppressWarnings("checkstyle:IllegalCatch") // the starter thread's tasks throw Exception
    void streamDeliversEventsAsTheyHappen() throws Exception {
        agent = startAgent(frames(6, 0), "a", 1024);
        assertEquals(200, post("/v1/stop").statusCode());
        agent.close();
        agent = startAgent(frames(6, 50), "b", 1024);
        final long base = status().path("last_seq").asLong();
        // a client waits on the open stream, then capture turns on and events flow to it: capture
        // turns on once the agent has a connection open besides the one asking for its status
        final Thread starter = new Thread(() -> {
            try {
                await("the client's stream is open").atMost(Duration.ofSeconds(10))
                    .pollInterval(Duration.ofMillis(20))
                    .until(() -> status().path("api").path("connections").asLong() >= 2);
                post("/v1/start");
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        starter.start();
        final List<JsonNode> ev = events("after=" + base + "&wait=3");
        starter.join();
        assertSeqs(ev, base + 1, base + 6);
    }
}
