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
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real agent restarted on the image a crash leaves (its state directory copied while it runs:
 * a WAL possibly cut mid-record, a checkpoint possibly half-written), and on a garbage state
 * directory.
 */
class AgentRestoreTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;
    private final List<Agent> agents = new ArrayList<>();

    @AfterEach
    void stop() {
        agents.forEach(Agent::close);
    }

    private Agent start(final Path state, final int frames, final int firstSession, final String... extra)
            throws Exception {
        final Path pcap = dir.resolve("f" + agents.size() + ".pcap");
        final List<byte[]> fs = new ArrayList<>();
        for (int i = 0; i < frames; i++) {
            fs.add(TestFrames.udp(0x0a000101, 0x0a000201, 50000, new byte[] {1, 2, 3, (byte) (firstSession + i)}));
        }
        TestFrames.writePcap(pcap, fs, System.currentTimeMillis() * 1000L);
        Files.writeString(dir.resolve("token"), "tok\n");
        java.nio.file.Files.setPosixFilePermissions(dir.resolve("token"),
            java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        final List<String> args = new ArrayList<>(List.of("--listen", "127.0.0.1:0", "--token-file",
            dir.resolve("token").toString(), "--state-dir", state.toString(), "--replay", pcap.toString(),
            "--agent-id", "leaf1", "--plain-http"));
        args.addAll(List.of(extra));
        final AgentOptions o = AgentOptions.parse(args);
        final Agent a = new Agent(o, EventPerFrameProcessor::new);
        agents.add(a);
        a.start();
        return a;
    }

    private static void awaitSeq(final Agent agent, final long seq) {
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(10)).untilAsserted(() ->
            assertTrue(agent.log().lastSeq() >= seq, "agent did not reach event " + seq + ": " + agent.status()));
    }

    private static void awaitPersisted(final Agent agent, final long seq) {
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(5)).untilAsserted(() ->
            assertTrue(agent.persistedSeq() >= seq, "agent did not flush event " + seq + ": " + agent.status()));
    }

    /** session_id to message count, from the agent's snapshot. */
    private static Map<String, Long> table(final Agent agent) throws IOException {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        agent.writeSnapshot(out);
        final Map<String, Long> t = new HashMap<>();
        for (JsonNode s : JSON.readTree(out.toByteArray()).path("sessions")) {
            assertTrue(t.put(s.path("session_id").asText(), s.path("messages").asLong()) == null, "no duplicate");
        }
        return t;
    }

    private static void copyTree(final Path from, final Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                final Path q = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(q);
                } else {
                    try {
                        Files.copy(p, q, StandardCopyOption.REPLACE_EXISTING);
                    } catch (java.nio.file.NoSuchFileException e) {
                        // renamed or deleted while copied: so would a crash have found it
                    }
                }
            }
        }
    }

    @Test
    void aCrashImageRestoresEverySessionFlushedAndContinuesTheNumbering() throws Exception {
        final Path state = dir.resolve("state");
        // a WAL of 1 MiB makes several checkpoints; 16 events retained make the old WAL files go
        final Agent a = start(state, 30_000, 0, "--flush-ms", "20", "--wal-mb", "1", "--retain-events", "16",
            "--retain-mb", "1");
        awaitSeq(a, 30_000);
        awaitPersisted(a, 30_000);
        final Map<String, Long> before = table(a);
        assertEquals(256, before.size());
        final JsonNode st = a.status();
        assertTrue(st.path("durability").path("checkpoints").asLong() >= 2, st.toString());
        assertTrue(st.path("durability").path("wal_bytes").asLong() < 3 << 20, "disk stays bounded: " + st);
        final Path image = dir.resolve("image");
        copyTree(state, image);
        final String instance = a.instance();

        final Agent b = start(image, 3, 0, "--flush-ms", "20");
        final JsonNode rs = b.status();
        assertEquals(instance, rs.path("instance").asText());
        assertEquals(256, rs.path("restored").path("restored_sessions").asLong(), rs.toString());
        assertFalse(rs.path("restored").path("clean").asBoolean());
        assertTrue(rs.path("restored").has("possibly_lost_after"), rs.toString());
        assertEquals(30_000, rs.path("restored").path("last_seq").asLong(), "everything was flushed before the copy");
        // the numbering continues: the new frames are events 30001..30003 of the same instance, and
        // continue their restored sessions s0..s2; every other session is in its last state
        awaitSeq(b, 30_003);
        assertEquals(30_003, b.log().lastSeq());
        final Map<String, Long> expected = new HashMap<>(before);
        for (int i = 0; i < 3; i++) {
            expected.merge("s" + i, 1L, Long::sum);
        }
        assertTrue(expected.equals(table(b)), "every session in its last state");
    }

    @Test
    void aLargeTableIsCheckpointedLessOften() {
        final long mb = 1L << 20;
        // never below --wal-mb
        assertFalse(Agent.checkpointDue(64 * mb, 64 * mb, 10_000_000, 0, 0, 0));
        assertTrue(Agent.checkpointDue(64 * mb, 65 * mb, 10, 0, 0, 0), "an empty table: --wal-mb alone");
        // beyond it, when the WAL holds more than two events per session of the table
        assertFalse(Agent.checkpointDue(64 * mb, 100 * mb, 200_000, 100 * mb, 100_000, 100_000));
        assertTrue(Agent.checkpointDue(64 * mb, 100 * mb, 200_001, 100 * mb, 100_000, 100_000));
        // the table grew to three times the checkpoint's sessions: counted by its sessions now
        assertFalse(Agent.checkpointDue(64 * mb, 100 * mb, 600_000, 100 * mb, 100_000, 300_000));
        assertTrue(Agent.checkpointDue(64 * mb, 100 * mb, 600_001, 100 * mb, 100_000, 300_000));
        // it shrank: by the checkpoint's
        assertTrue(Agent.checkpointDue(64 * mb, 100 * mb, 200_001, 100 * mb, 100_000, 10_000));
        // sessions unknown (a checkpoint found unreadable at start): twice its bytes
        assertFalse(Agent.checkpointDue(64 * mb, 200 * mb, 1, 100 * mb, 0, 0));
        assertTrue(Agent.checkpointDue(64 * mb, 201 * mb, 1, 100 * mb, 0, 0));
    }

    @Test
    void crashImagesTakenAtRandomMomentsRestoreWhatWasFlushed() throws Exception {
        final Path state = dir.resolve("state");
        final Agent a = start(state, 60_000, 0, "--flush-ms", "10", "--wal-mb", "1");
        final Random rnd = new Random(11);
        // images at random points of the replay: when the agent's log has reached each of these
        final long[] moments = rnd.longs(5, 1, 60_000).sorted().toArray();
        for (int k = 0; k < 5; k++) {
            awaitSeq(a, moments[k]);
            // what the agent had surely flushed before the image: events up to then
            final long flushedBefore = a.log().lastSeq();
            awaitPersisted(a, flushedBefore);
            final Path image = dir.resolve("image" + k);
            copyTree(state, image);
            final Agent b = start(image, 1, 0, "--flush-ms", "0");
            final JsonNode rs = b.status();
            assertTrue(rs.path("restored").path("last_seq").asLong() >= flushedBefore, rs.toString());
            assertEquals(a.instance(), rs.path("instance").asText());
            assertTrue(b.log().lastSeq() >= rs.path("restored").path("last_seq").asLong(), "the numbering continues");
            final long sessions = rs.path("restored").path("restored_sessions").asLong();
            assertEquals(Math.min(256, rs.path("restored").path("last_seq").asLong()), sessions, rs.toString());
            b.close();
        }
    }

    @Test
    void aGarbageStateDirectoryIsReportedAndTheAgentRuns() throws Exception {
        final Path state = dir.resolve("state");
        Files.createDirectories(state.resolve("wal"));
        final byte[] junk = new byte[3000];
        new Random(3).nextBytes(junk);
        Files.write(state.resolve("agent.json"), junk);
        Files.write(state.resolve("checkpoint.rst"), junk);
        Files.write(state.resolve("checkpoint.rst.tmp"), junk);
        Files.write(state.resolve("wal").resolve("wal-0000000000000000001.log"), junk);
        final Agent a = start(state, 10, 0);
        awaitSeq(a, 10);
        final JsonNode st = a.status();
        // agent.json unreadable: a new instance, so the old files are not even read
        assertEquals(10, st.path("last_seq").asLong());
        a.close();

        // now garbage under an instance the agent knows
        Files.write(state.resolve("checkpoint.rst"), junk);
        Files.write(state.resolve("wal").resolve("wal-0000000000000000005.log"), junk);
        final Agent b = start(state, 4, 100);
        final JsonNode rs = b.status();
        assertTrue(rs.path("restored").path("checkpoint_problem").asText().contains("unreadable"), rs.toString());
        assertFalse(rs.path("restored").path("wal_problems").isEmpty(), rs.toString());
        assertTrue(rs.path("restored").path("wal_skipped_bytes").asLong() > 0);
        // the first WAL file's events 1..10 are whole: the table comes back from them
        assertEquals(10, rs.path("restored").path("restored_sessions").asLong(), rs.toString());
        awaitSeq(b, 14);
        assertEquals(14, table(b).size());
    }
}
