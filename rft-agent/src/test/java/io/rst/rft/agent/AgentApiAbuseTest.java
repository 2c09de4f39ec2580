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
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rst.rft.wire.TlsFiles;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent's API tried as an attacker on the management network would: many idle connections,
 * requests sent a byte a second, floods of bad tokens, oversized heads. After each, a good client
 * gets its status, and the replayed capture lost no frame to the abuse. Then all of it at once
 * against a TLS agent whose storm replays again and again for as long as the abuse lasts, with the
 * controller's own kind of client (the JDK's HttpClient over TLS) asking meanwhile; how long it
 * waited is printed, not asserted (timings belong in the benchmarks).
 */
class AgentApiAbuseTest {
    private static final Logger LOG = LoggerFactory.getLogger(AgentApiAbuseTest.class);

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TOKEN = "abuse-test-token";

    @TempDir
    Path dir;
    private Agent agent;
    private final List<Socket> sockets = new ArrayList<>();
    private final SlowClients slow = new SlowClients();
    /** Set when the agent serves TLS: every client of this test then speaks it, trusting this. */
    private SSLContext tls;

    @BeforeEach
    void start() throws Exception {
        final List<byte[]> frames = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            frames.add(TestFrames.udp(0x0a000101, 0x0a000201, 50000, new byte[] {1, 2, (byte) (i >> 8), (byte) i}));
        }
        final Path pcap = dir.resolve("storm.pcap");
        TestFrames.writePcap(pcap, frames, System.currentTimeMillis() * 1000L);
        Files.writeString(dir.resolve("token"), TOKEN + "\n");
        Files.setPosixFilePermissions(dir.resolve("token"), PosixFilePermissions.fromString("rw-------"));
        final AgentOptions o = AgentOptions.parse(List.of("--listen", "127.0.0.1:0", "--token-file",
            dir.resolve("token").toString(), "--state-dir", dir.resolve("state").toString(), "--replay",
            pcap.toString(), "--agent-id", "leaf1", "--plain-http"));
        agent = new Agent(o, EventPerFrameProcessor::new);
        agent.start();
    }

    @AfterEach
    void stop() {
        slow.close();
        for (Socket s : sockets) {
            try {
                s.close();
            } catch (IOException e) {
                // already closed by the agent
            }
        }
        if (agent != null) {
            agent.close();
        }
    }

    private Socket connect() throws IOException {
        final Socket s = tls != null ? tls.getSocketFactory().createSocket("127.0.0.1", agent.address().getPort())
            : new Socket("127.0.0.1", agent.address().getPort());
        s.setSoTimeout(10_000);
        return s;
    }

    /** A request whose head a slow client sends a byte a second (about 70 s for all of it). */
    private static final byte[] SLOW_REQUEST = ("GET /v1/status HTTP/1.1\r\nHost: agent\r\n"
        + "X-Slow: aaaaaaaaaaaaaaaaaaaa\r\n\r\n").getBytes(StandardCharsets.US_ASCII);

    /**
     * Slow clients: each connection is sent the next byte of {@link #SLOW_REQUEST} once a second,
     * by a timer, until a write fails (the agent cut it) or the request is all sent.
     */
    private static final class SlowClients implements AutoCloseable {
        private final ScheduledExecutorService timer = Executors.newScheduledThreadPool(4);
        private final AtomicInteger added = new AtomicInteger();
        private final AtomicInteger cut = new AtomicInteger();
        private final AtomicInteger sentWhole = new AtomicInteger();

        void add(final Socket socket) {
            added.incrementAndGet();
            final AtomicInteger next = new AtomicInteger();
            final CompletableFuture<ScheduledFuture<?>> self = new CompletableFuture<>();
            self.complete(timer.scheduleAtFixedRate(() -> {
                try {
                    socket.getOutputStream().write(SLOW_REQUEST[next.getAndIncrement()]);
                    socket.getOutputStream().flush();
                    if (next.get() < SLOW_REQUEST.length) {
                        return;
                    }
                    sentWhole.incrementAndGet();
                } catch (IOException e) {
                    cut.incrementAndGet();
                }
                self.join().cancel(false);
            }, 0, 1, TimeUnit.SECONDS));
        }

        /** Whether every connection added has ended: cut by the agent, or its request sent whole. */
        boolean allEnded() {
            return cut.get() + sentWhole.get() == added.get();
        }

        /** Connections whose request was sent whole: the agent let them take over a minute. */
        int sentWhole() {
            return sentWhole.get();
        }

        @Override
        public void close() {
            timer.shutdownNow();
        }
    }

    /** One request on a fresh connection: the status code and the body. */
    private record Answer(int status, String body) {
    }

    private static Answer exchange(final Socket socket, final String method, final String path, final String token)
            throws IOException {
        final OutputStream out = socket.getOutputStream();
        out.write((method + " " + path + " HTTP/1.1\r\nHost: agent\r\n"
            + (token == null ? "" : "Authorization: Bearer " + token + "\r\n") + "Content-Length: 0\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII));
        out.flush();
        return readAnswer(socket.getInputStream());
    }

    private static Answer readAnswer(final InputStream in) throws IOException {
        final StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            final int b = in.read();
            if (b < 0) {
                throw new IOException("closed in the answer's head: " + head);
            }
            head.append((char) b);
        }
        final String h = head.toString();
        final int status = Integer.parseInt(h.substring(9, 12));
        int len = 0;
        for (String line : h.split("\r\n")) {
            if (line.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:")) {
                len = Integer.parseInt(line.substring(15).strip());
            }
        }
        return new Answer(status, new String(in.readNBytes(len), StandardCharsets.UTF_8));
    }

    /** The status, asked by a good client on a new connection, and answered. */
    private JsonNode goodStatus() throws Exception {
        try (Socket s = connect()) {
            final Answer a = exchange(s, "GET", "/v1/status", TOKEN);
            assertEquals(200, a.status(), a.body());
            return JSON.readTree(a.body());
        }
    }

    /** Replays the storm again and checks that every frame was decoded, none dropped. */
    private void replayAndCheckNoDrops() throws Exception {
        try (Socket s = connect()) {
            assertEquals(200, exchange(s, "POST", "/v1/stop", TOKEN).status());
            assertEquals(200, exchange(s, "POST", "/v1/start", TOKEN).status());
        }
    }

    private void assertNoQueueDrops() throws Exception {
        final JsonNode st = await("the replay finishes").atMost(Duration.ofSeconds(20))
            .pollInterval(Duration.ofMillis(50)).until(this::goodStatus,
                s -> s.path("interfaces").path(0).path("finished").asBoolean()
                    && s.path("counters").path("queue_backlog").asLong() == 0);
        assertEquals(0, st.path("counters").path("queue_drops").asLong(), st.toString());
        // every frame read (the storm, once per replay) was decoded
        final long read = st.path("interfaces").path(0).path("packets").asLong();
        assertTrue(read >= 20_000, st.toString());
        assertEquals(read, st.path("counters").path("frames").asLong(), st.toString());
    }

    @Test
    void thousandIdleConnections() throws Exception {
        goodStatus();
        for (int i = 0; i < 1000; i++) {
            sockets.add(connect());
        }
        replayAndCheckNoDrops();
        assertNoQueueDrops();
        final JsonNode st = goodStatus();
        assertTrue(st.path("api").path("dropped_connections").asLong() > 0, st.toString());
        assertTrue(st.path("api").path("connections").asLong() <= 512, st.toString());
    }

    @Test
    void hundredSlowRequestsAreCutAfterTheHeadDeadline() throws Exception {
        for (int i = 0; i < 100; i++) {
            final Socket s = connect();
            sockets.add(s);
            slow.add(s);
        }
        replayAndCheckNoDrops();
        assertNoQueueDrops();
        // the head deadline (5 s from the first byte) cuts every one of them; a good client asking
        // meanwhile is answered each time
        await("the slow requests are cut").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200))
            .until(() -> goodStatus().path("api").path("timed_out_connections").asLong() >= 100);
    }

    @Test
    void tenThousandBadTokensAreCounted() throws Exception {
        final List<Thread> clients = new ArrayList<>();
        final AtomicInteger refused = new AtomicInteger();
        replayAndCheckNoDrops();
        for (int c = 0; c < 20; c++) {
            clients.add(Thread.ofVirtual().start(() -> {
                try (Socket s = connect()) {
                    for (int i = 0; i < 500; i++) {
                        final Answer a = exchange(s, "GET", "/v1/status", "wrong-" + i);
                        if (a.status() == 401) {
                            refused.incrementAndGet();
                        }
                    }
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }));
        }
        for (Thread t : clients) {
            t.join(60_000);
        }
        assertEquals(10_000, refused.get());
        final JsonNode st = goodStatus();
        assertEquals(10_000, st.path("api").path("auth_failures").asLong(), st.toString());
        assertNoQueueDrops();
    }

    @Test
    void oversizedHeadsAreRefused() throws Exception {
        for (int i = 0; i < 50; i++) {
            try (Socket s = connect()) {
                s.getOutputStream().write(("GET /v1/status HTTP/1.1\r\nHost: x\r\nX-Big: " + "a".repeat(20_000)
                    + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                assertEquals(431, readAnswer(s.getInputStream()).status());
            } catch (IOException e) {
                // a reset while we were still sending is a refusal too
            }
        }
        for (int i = 0; i < 50; i++) {
            try (Socket s = connect()) {
                final StringBuilder many = new StringBuilder("GET /v1/status HTTP/1.1\r\n");
                for (int h = 0; h < 2000; h++) {
                    many.append("X-H").append(h).append(": v\r\n");
                }
                s.getOutputStream().write(many.append("\r\n").toString().getBytes(StandardCharsets.US_ASCII));
                assertEquals(431, readAnswer(s.getInputStream()).status());
            } catch (IOException e) {
                // refused by closing
            }
        }
        goodStatus();
    }

    @Test
    @SuppressWarnings("checkstyle:IllegalCatch") // the storm thread hands whatever failed to the test thread
    void everyAbuseAtOnceOverTlsWhileTheStormReplays() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/openssl")), "openssl is needed to make certificates");
        final Path pki = dir.resolve("pki");
        certs("ca", pki.toString());
        certs("switch", pki.toString(), "leaf1", "--ip", "127.0.0.1");
        agent.close();
        final AgentOptions o = AgentOptions.parse(List.of("--listen", "127.0.0.1:0", "--token-file",
            dir.resolve("token").toString(), "--state-dir", dir.resolve("state-tls").toString(), "--replay",
            dir.resolve("storm.pcap").toString(), "--agent-id", "leaf1", "--tls-cert", pki.resolve("leaf1.crt")
                .toString(), "--tls-key", pki.resolve("leaf1.key").toString()));
        agent = new Agent(o, EventPerFrameProcessor::new);
        agent.start();
        tls = SSLContext.getInstance("TLS");
        tls.init(null, TlsFiles.trustManagers(pki.resolve("ca.crt")).getTrustManagers(), null);
        final int port = agent.address().getPort();

        // the storm replays again and again, each time to its end, while the abuse lasts
        final AtomicBoolean abusing = new AtomicBoolean(true);
        final AtomicInteger replays = new AtomicInteger();
        final List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
        // a keep-alive connection waiting for its next request may be pushed out by newcomers at the
        // connection limit, by design: the clients of this test connect again, and say how often
        final AtomicInteger reconnects = new AtomicInteger();
        final Thread storm = Thread.ofVirtual().start(() -> {
            try {
                while (abusing.get()) {
                    try {
                        replayAndCheckNoDrops();
                        await("the storm's replay finishes").atMost(Duration.ofSeconds(60))
                            .pollInterval(Duration.ofMillis(20))
                            .until(() -> goodStatus().path("interfaces").path(0).path("finished").asBoolean());
                        replays.incrementAndGet();
                    } catch (IOException e) {
                        reconnects.incrementAndGet();
                    }
                }
            } catch (Exception | AssertionError e) {
                failures.add(e);
            }
        });
        // 1,000 idle connections that never start TLS
        for (int i = 0; i < 1000; i++) {
            sockets.add(new Socket("127.0.0.1", port));
        }
        // 100 slow requests: TLS set up, then the request a byte a second
        for (int i = 0; i < 100; i++) {
            try {
                final Socket s = connect();
                sockets.add(s);
                ((SSLSocket) s).startHandshake();
                slow.add(s);
            } catch (IOException e) {
                // refused before it could be slow: the agent may be at its connection limit
            }
        }
        // 10,000 requests with bad tokens, on 20 TLS connections
        final AtomicInteger refused = new AtomicInteger();
        final List<Thread> flood = new ArrayList<>();
        for (int c = 0; c < 20; c++) {
            flood.add(Thread.ofVirtual().start(() -> {
                int sent = 0;
                while (sent < 500) {
                    try (Socket s = connect()) {
                        while (sent < 500) {
                            if (exchange(s, "GET", "/v1/status", "wrong-" + sent).status() == 401) {
                                refused.incrementAndGet();
                            }
                            sent++;
                        }
                    } catch (IOException e) {
                        if (reconnects.incrementAndGet() > 1000) {
                            failures.add(e);
                            return;
                        }
                    }
                }
            }));
        }
        // meanwhile the controller's kind of client asks, on a new TLS connection each time, and is
        // answered: never blinded, though the first ask meets the burst of 120 handshakes (both
        // ends of them in this JVM on a 2-core machine) and may wait a few seconds. It asks as the
        // flood starts and again each time the flood has made 2,000 more requests.
        final List<Long> during = new ArrayList<>();
        for (int i = 1; i <= 5; i++) {
            during.add(controllerStatus(port));
            final int due = i * 2000;
            await("the flood's next 2,000 requests").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(50))
                .until(() -> refused.get() >= due || flood.stream().noneMatch(Thread::isAlive));
        }
        for (Thread t : flood) {
            t.join(90_000);
        }
        // the slow requests end when the agent cuts them (5 s from their first byte)
        await("every slow request is cut").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
            .until(slow::allEnded);
        assertEquals(0, slow.sentWhole(), "a slow request was never cut");
        // afterwards, with the storm still replaying and the idle connections left open: answered
        final List<Long> after = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            after.add(controllerStatus(port));
        }
        abusing.set(false);
        storm.join(60_000);
        assertEquals(List.of(), failures);
        assertEquals(10_000, refused.get());
        // logged for the record: how long the controller waited during the abuse and after it
        LOG.info("controller status during the abuse {} ms, afterwards {} ms; {} reconnects of the test's own clients",
            during, after, reconnects.get());
        // every frame read was decoded (frames == packets), none dropped
        assertNoQueueDrops();
        final JsonNode st = goodStatus();
        // a request whose answer a pushed-out connection never read is sent again, and counted again
        assertTrue(st.path("api").path("auth_failures").asLong() >= 10_000, st.toString());
        // the storm ran again during the abuse, not only at the agent's start
        assertTrue(replays.get() >= 1 && st.path("interfaces").path(0).path("packets").asLong() >= 40_000,
            replays.get() + " replays: " + st);
    }

    /**
     * How long the controller's kind of client, on a connection of its own (TLS handshake
     * included), waits for its status, which must be a 200.
     */
    private long controllerStatus(final int port) throws Exception {
        final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).sslContext(tls)
            .connectTimeout(Duration.ofSeconds(30)).build();
        final long t0 = System.nanoTime();
        final var rsp = client.send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + "/v1/status"))
            .header("Authorization", "Bearer " + TOKEN).timeout(Duration.ofSeconds(30)).build(),
            HttpResponse.BodyHandlers.ofString());
        final long ms = (System.nanoTime() - t0) / 1_000_000;
        assertEquals(200, rsp.statusCode(), rsp.body());
        return ms;
    }

    private static void certs(final String... args) throws Exception {
        final List<String> cmd = new ArrayList<>(List.of("bash", Path.of("..", "scripts", "certs.sh").toString()));
        cmd.addAll(List.of(args));
        final Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(
            ProcessBuilder.Redirect.DISCARD).start();
        assertTrue(p.waitFor(30, java.util.concurrent.TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), "rst certs " + String.join(" ", args));
    }
}
