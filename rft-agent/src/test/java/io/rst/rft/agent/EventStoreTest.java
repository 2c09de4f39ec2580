/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The crash-safe state on disk: a WAL cut at every byte of its last records, a damaged record, a
 * checkpoint cut at every byte, a checkpoint that failed half-way, garbage everywhere.
 */
class EventStoreTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String INSTANCE = "i-1";

    @TempDir
    Path dir;

    private static EventLog.Event event(final long seq, final String id, final boolean removed) {
        final String line = "{\"seq\":" + seq + ",\"time\":" + (1000 + seq) + ".5,\"type\":\"session\",\"session\":"
            + "{\"session_id\":\"" + id + "\",\"n\":" + seq + (removed ? ",\"removed\":true" : "") + "}}\n";
        return new EventLog.Event(seq, line.getBytes(StandardCharsets.UTF_8));
    }

    /** What a restarting agent would make of the state: the table, and the events it retains. */
    private static final class Restored implements EventStore.Loaded {
        final Map<String, Long> table = new LinkedHashMap<>();
        final List<Long> seqs = new ArrayList<>();

        @Override
        public void session(final JsonNode record) {
            table.put(record.path("session_id").asText(), record.path("n").asLong());
        }

        @Override
        public void event(final EventLog.Event event, final JsonNode session, final boolean afterCheckpoint) {
            seqs.add(event.seq());
            try {
                assertEquals(event.seq(), JSON.readTree(event.line()).path("seq").asLong(), "the line is the event's");
            } catch (IOException x) {
                throw new AssertionError(x);
            }
            if (afterCheckpoint) {
                if (session.path("removed").asBoolean()) {
                    table.remove(session.path("session_id").asText());
                } else {
                    table.put(session.path("session_id").asText(), session.path("n").asLong());
                }
            }
        }
    }

    private static EventStore.Pages pages(final List<String> pageJson) {
        final int[] i = {0};
        return out -> {
            if (i[0] >= pageJson.size()) {
                return -1;
            }
            final String page = pageJson.get(i[0]++);
            out.write(page.getBytes(StandardCharsets.UTF_8));
            // the writer of a page knows how many sessions it put there
            return page.split("\"session_id\"", -1).length - 1;
        };
    }

    private static String page(final int from, final int to) {
        final StringBuilder b = new StringBuilder();
        for (int k = from; k < to; k++) {
            if (k > from) {
                b.append(',');
            }
            b.append("{\"session_id\":\"c").append(k).append("\",\"n\":").append(k).append(",\"note\":\"{x}\"}");
        }
        return b.toString();
    }

    private Path onlyWal() throws IOException {
        try (Stream<Path> s = Files.list(dir.resolve(EventStore.WAL_DIR))) {
            final List<Path> l = s.toList();
            assertEquals(1, l.size(), l.toString());
            return l.get(0);
        }
    }

    @Test
    void everyCutOfTheWalLosesOnlyTheRecordsCutAndIsReported() throws Exception {
        final List<EventLog.Event> events = new ArrayList<>();
        for (long s = 6; s <= 20; s++) {
            events.add(event(s, "s" + s % 4, s == 17));
        }
        try (EventStore store = new EventStore(dir, JSON)) {
            store.checkpoint(5, 1_000_000L, INSTANCE, false, 1, pages(List.of(page(0, 3))));
            store.startWal(6);
            store.append(events);
            store.sync();
        }
        final Path wal = onlyWal();
        final byte[] whole = Files.readAllBytes(wal);
        // where each record ends
        final long[] ends = new long[events.size()];
        long at = 0;
        for (int i = 0; i < events.size(); i++) {
            at += 8 + events.get(i).line().length;
            ends[i] = at;
        }
        assertEquals(whole.length, at);
        final int fromRecord = events.size() - 5;
        for (int cut = (int) ends[fromRecord - 1]; cut <= whole.length; cut++) {
            Files.write(wal, Arrays.copyOf(whole, cut));
            int kept = 0;
            while (kept < ends.length && ends[kept] <= cut) {
                kept++;
            }
            final boolean boundary = kept == 0 ? cut == 0 : ends[kept - 1] == cut;
            final Restored r = new Restored();
            final EventStore.LoadReport rep = new EventStore(dir, JSON).load(INSTANCE, r);
            assertEquals(5, rep.checkpointSeq());
            assertNull(rep.checkpointProblem());
            assertEquals(kept, r.seqs.size(), "cut at " + cut);
            assertEquals(5 + kept, rep.lastSeq());
            assertEquals(1000 + 5 + kept + 0.5, rep.lastTimeMicros() / 1e6, 1e-9);
            assertEquals(boundary, rep.problems().isEmpty(), "cut at " + cut + ": " + rep.problems());
            assertEquals(cut - (kept == 0 ? 0 : ends[kept - 1]), rep.skippedBytes());
            assertFalse(rep.clean());
            // the table: the checkpoint, then each event kept; the removed session is gone once its event is in
            final Map<String, Long> expected = new LinkedHashMap<>();
            for (int k = 0; k < 3; k++) {
                expected.put("c" + k, (long) k);
            }
            for (int i = 0; i < kept; i++) {
                final long s = events.get(i).seq();
                if (s == 17) {
                    expected.remove("s" + s % 4);
                } else {
                    expected.put("s" + s % 4, s);
                }
            }
            assertEquals(expected, r.table, "cut at " + cut);
        }
    }

    @Test
    void aDamagedRecordStopsItsFileButNotTheLoad() throws Exception {
        try (EventStore store = new EventStore(dir, JSON)) {
            store.startWal(1);
            final List<EventLog.Event> first = new ArrayList<>();
            for (long s = 1; s <= 10; s++) {
                first.add(event(s, "s" + s, false));
            }
            store.append(first);
            store.startWal(11);
            store.append(List.of(event(11, "s11", false), event(12, "s12", false)));
        }
        final Path wal1;
        try (Stream<Path> s = Files.list(dir.resolve(EventStore.WAL_DIR))) {
            wal1 = s.sorted().findFirst().orElseThrow();
        }
        final byte[] b = Files.readAllBytes(wal1);
        final int fifth = 4 * (8 + event(1, "s1", false).line().length);
        b[fifth + 20] ^= 0x40;
        Files.write(wal1, b);
        final Restored r = new Restored();
        final EventStore.LoadReport rep = new EventStore(dir, JSON).load(INSTANCE, r);
        assertEquals(List.of(1L, 2L, 3L, 4L, 11L, 12L), r.seqs);
        assertEquals(1, rep.problems().size());
        assertTrue(rep.problems().get(0).contains("CRC"), rep.problems().toString());
        assertEquals(b.length - fifth, rep.skippedBytes());
        assertEquals(12, rep.lastSeq());
    }

    @Test
    void aCheckpointCutAtAnyByteGivesTheWholePagesBeforeTheCut() throws Exception {
        final List<String> pages = new ArrayList<>();
        for (int p = 0; p < 5; p++) {
            pages.add(page(p * 10, p * 10 + 10));
        }
        try (EventStore store = new EventStore(dir, JSON)) {
            store.checkpoint(50, 2_000_000L, INSTANCE, true, 1, pages(pages));
        }
        final Path cp = dir.resolve(EventStore.CHECKPOINT);
        final byte[] whole = Files.readAllBytes(cp);
        final Restored full = new Restored();
        final EventStore.LoadReport ok = new EventStore(dir, JSON).load(INSTANCE, full);
        assertEquals(50, full.table.size());
        assertTrue(ok.clean());
        assertNull(ok.checkpointProblem());
        final EventStore.LoadReport other = new EventStore(dir, JSON).load("another", new Restored());
        assertNotNull(other.checkpointProblem(), "another instance's checkpoint is reported and not used");
        assertEquals(0, other.checkpointSeq());
        int lastSessions = 0;
        for (int cut = 0; cut < whole.length; cut++) {
            Files.write(cp, Arrays.copyOf(whole, cut));
            final Restored r = new Restored();
            final EventStore.LoadReport rep = new EventStore(dir, JSON).load(INSTANCE, r);
            assertNotNull(rep.checkpointProblem(), "cut at " + cut);
            assertFalse(rep.clean());
            assertEquals(0, r.table.size() % 10, "whole pages only");
            assertEquals(r.table.size(), rep.checkpointSessions());
            assertTrue(r.table.size() >= lastSessions, "a longer file never gives fewer sessions");
            lastSessions = r.table.size();
        }
        assertEquals(50, lastSessions, "cut inside the trailer: every page is there");
    }

    @Test
    void aCheckpointThatFailsHalfWayLeavesThePreviousOneWhole() throws Exception {
        try (EventStore store = new EventStore(dir, JSON)) {
            store.checkpoint(10, 1L, INSTANCE, false, 1, pages(List.of(page(0, 10))));
            final int[] n = {0};
            assertThrows(IOException.class, () -> store.checkpoint(20, 2L, INSTANCE, false, 1, out -> {
                if (n[0]++ > 0) {
                    throw new IOException("disk full");
                }
                out.write(page(0, 20).getBytes(StandardCharsets.UTF_8));
                return 20;
            }));
        }
        assertTrue(Files.exists(dir.resolve(EventStore.CHECKPOINT + ".tmp")), "what a crash would leave");
        final Restored r = new Restored();
        final EventStore.LoadReport rep = new EventStore(dir, JSON).load(INSTANCE, r);
        assertNull(rep.checkpointProblem());
        assertEquals(10, rep.checkpointSeq());
        assertEquals(10, r.table.size());
    }

    @Test
    void aCheckpointDeletesTheWalFilesItAndTheRetainedWindowMakeUseless() throws Exception {
        try (EventStore store = new EventStore(dir, JSON)) {
            store.startWal(1);
            store.append(List.of(event(1, "a", false), event(2, "b", false)));
            store.startWal(3);
            store.append(List.of(event(3, "a", false)));
            store.startWal(4);
            // clients still resume from 3: the file with 3 stays
            store.checkpoint(3, 1L, INSTANCE, false, 3, pages(List.of(page(0, 2))));
            try (Stream<Path> s = Files.list(dir.resolve(EventStore.WAL_DIR))) {
                assertEquals(2, s.count());
            }
            store.append(List.of(event(4, "c", false)));
            store.startWal(5);
            store.checkpoint(4, 1L, INSTANCE, false, 5, pages(List.of(page(0, 3))));
            try (Stream<Path> s = Files.list(dir.resolve(EventStore.WAL_DIR))) {
                assertEquals(1, s.count(), "only the newest (empty) file is left");
            }
        }
        final Restored r = new Restored();
        final EventStore.LoadReport rep = new EventStore(dir, JSON).load(INSTANCE, r);
        assertEquals(4, rep.lastSeq());
        assertEquals(3, r.table.size());
    }

    @Test
    void eventsTheCheckpointHoldsAreRetainedWithoutTheirSessions() throws Exception {
        try (EventStore store = new EventStore(dir, JSON)) {
            store.startWal(1);
            final List<EventLog.Event> events = new ArrayList<>();
            for (long s = 1; s <= 20; s++) {
                events.add(event(s, "s" + s % 3, false));
            }
            store.append(events);
            store.checkpoint(10, 1L, INSTANCE, false, 1, pages(List.of(page(0, 2))));
        }
        final Restored r = new Restored();
        final EventStore.LoadReport rep = new EventStore(dir, JSON).load(INSTANCE, r);
        assertEquals(20, r.seqs.size());
        assertEquals(20, rep.lastSeq());
        assertEquals(1020_500_000L, rep.lastTimeMicros());
        // c0, c1 from the checkpoint; s0..s2 from events 11..20 only
        assertEquals(Map.of("c0", 0L, "c1", 1L, "s0", 18L, "s1", 19L, "s2", 20L), r.table);
    }

    @Test
    void theLineHeadIsReadAsJacksonReadsIt() throws Exception {
        final EventLog log = new EventLog(8);
        final io.rst.rft.decode.JsonBytes j = new io.rst.rft.decode.JsonBytes(16);
        j.raw("{\"session_id\":\"x\"}");
        for (long t : new long[] {0L, 1L, 999_999L, 1_764_000_000_123_456L, 1_764_000_000_000_000L}) {
            log.appendSession(t, j);
            final byte[] line = log.after(log.lastSeq() - 1, 1).get(0).line();
            final JsonNode n = JSON.readTree(line);
            final long[] head = EventStore.head(line);
            assertEquals(2, head.length, new String(line, StandardCharsets.UTF_8));
            assertEquals(n.path("seq").asLong(), head[0]);
            assertEquals(t, head[1]);
        }
        assertEquals(0, EventStore.head("{\"time\":1,\"seq\":2}".getBytes(StandardCharsets.UTF_8)).length);
        assertEquals(0, EventStore.head("{\"seq\":2,\"time\":}".getBytes(StandardCharsets.UTF_8)).length);
        assertEquals(0, EventStore.head("{\"seq\":".getBytes(StandardCharsets.UTF_8)).length);
    }

    @Test
    void theWalIsWrittenInFilesOfBoundedSize() throws Exception {
        final List<EventLog.Event> events = new ArrayList<>();
        final String pad = "p".repeat(1000);
        for (long s = 1; s <= 20_000; s++) {
            final String line = "{\"seq\":" + s + ",\"time\":1.0,\"type\":\"session\",\"session\":{\"session_id\":\"s"
                + s % 7 + "\",\"n\":" + s + ",\"pad\":\"" + pad + "\"}}\n";
            events.add(new EventLog.Event(s, line.getBytes(StandardCharsets.UTF_8)));
        }
        try (EventStore store = new EventStore(dir, JSON)) {
            store.startWal(1);
            for (int i = 0; i < events.size(); i += 1000) {
                store.append(events.subList(i, i + 1000));
            }
        }
        try (Stream<Path> s = Files.list(dir.resolve(EventStore.WAL_DIR))) {
            final List<Path> files = s.toList();
            assertTrue(files.size() >= 2, files.toString());
            for (Path f : files) {
                assertTrue(Files.size(f) < EventStore.SEGMENT_BYTES + (2 << 20), f.toString());
            }
        }
        final Restored r = new Restored();
        final EventStore.LoadReport rep = new EventStore(dir, JSON).load(INSTANCE, r);
        assertEquals(20_000, r.seqs.size());
        assertTrue(rep.problems().isEmpty());
        assertEquals(7, r.table.size());
    }

    @Test
    void garbageEverywhereIsReportedAndSkipped() throws Exception {
        final Random rnd = new Random(7);
        final byte[] junk = new byte[5000];
        rnd.nextBytes(junk);
        Files.createDirectories(dir.resolve(EventStore.WAL_DIR));
        Files.write(dir.resolve(EventStore.CHECKPOINT), junk);
        Files.write(dir.resolve(EventStore.WAL_DIR).resolve("wal-0000000000000000001.log"), junk);
        Files.write(dir.resolve(EventStore.WAL_DIR).resolve("wal-junk.log"), junk);
        // a record whose frame is whole but whose payload is no event
        try (EventStore store = new EventStore(dir, JSON)) {
            store.startWal(7);
            store.append(List.of(new EventLog.Event(7, "not json\n".getBytes(StandardCharsets.UTF_8)),
                event(8, "x", false)));
        }
        final Restored r = new Restored();
        final EventStore.LoadReport rep = new EventStore(dir, JSON).load(INSTANCE, r);
        assertNotNull(rep.checkpointProblem());
        assertEquals(0, rep.checkpointSeq());
        assertEquals(2, rep.problems().size(), rep.problems().toString());
        assertEquals(List.of(8L), r.seqs);
        assertEquals(8, rep.lastSeq());
    }
}
