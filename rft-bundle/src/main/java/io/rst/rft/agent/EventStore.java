/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The event log on disk, so that sequence numbers and retained events survive a restart:
 * append-only segment files {@code events/events-FIRSTSEQ.ndjson} holding the same NDJSON lines
 * the API serves, a new segment every {@code segmentEvents} events and after every start, and
 * segments wholly older than the in-memory log's first retained event deleted. Disk use is thus
 * bounded by the log's capacity plus one segment. {@code sessions.ndjson} holds the table as of
 * a clean shutdown (a header line with its seq, then one session record per line).
 *
 * <p>Only the persister thread writes; a line cut short by a crash is skipped on load.
 */
public final class EventStore implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(EventStore.class);
    private static final String PREFIX = "events-";
    private static final String SUFFIX = ".ndjson";

    /** Receives events read back at start-up. */
    @FunctionalInterface
    public interface Loaded {
        void event(EventLog.Event event, JsonNode session);
    }

    /** Writes the table's records, one JSON object per line. */
    @FunctionalInterface
    public interface RecordWriter {
        void write(OutputStream out) throws IOException;
    }

    private final Path dir;
    private final Path sessionsFile;
    private final int segmentEvents;
    private final ObjectMapper mapper;
    private OutputStream current;
    private int currentCount;
    private long skippedLines;

    public EventStore(final Path stateDir, final int segmentEvents, final ObjectMapper mapper) throws IOException {
        if (segmentEvents < 1) {
            throw new IllegalArgumentException("segmentEvents must be positive");
        }
        this.dir = stateDir.resolve("events");
        this.sessionsFile = stateDir.resolve("sessions.ndjson");
        this.segmentEvents = segmentEvents;
        this.mapper = mapper;
        Files.createDirectories(dir);
    }

    /** Lines skipped on load because they were not a whole event. */
    public long skippedLines() {
        return skippedLines;
    }

    /** Deletes every stored event and the sessions file: the log starts anew. */
    public void clear() throws IOException {
        closeSegment();
        for (Path p : segments().values()) {
            Files.deleteIfExists(p);
        }
        Files.deleteIfExists(sessionsFile);
    }

    /** Reads every stored event, oldest first. */
    public void load(final Loaded into) throws IOException {
        for (Path p : segments().values()) {
            try (BufferedReader r = Files.newBufferedReader(p, StandardCharsets.UTF_8)) {
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                    parse(line, into);
                }
            }
        }
    }

    private void parse(final String line, final Loaded into) {
        try {
            final JsonNode node = mapper.readTree(line);
            final long seq = node.path("seq").asLong(0);
            final JsonNode session = node.get("session");
            if (seq < 1 || session == null || !session.isObject()) {
                skippedLines++;
                return;
            }
            into.event(new EventLog.Event(seq, (line + "\n").getBytes(StandardCharsets.UTF_8)), session);
        } catch (IOException e) {
            skippedLines++;
        }
    }

    /** Appends events (in order, after the ones already stored). */
    public void append(final List<EventLog.Event> events) throws IOException {
        for (EventLog.Event e : events) {
            if (current == null || currentCount >= segmentEvents) {
                closeSegment();
                final Path p = dir.resolve(String.format("%s%019d%s", PREFIX, e.seq(), SUFFIX));
                current = new BufferedOutputStream(Files.newOutputStream(p, StandardOpenOption.CREATE,
                    StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE), 1 << 16);
                currentCount = 0;
            }
            current.write(e.line());
            currentCount++;
        }
    }

    /** Pushes buffered lines to the file system. */
    public void flush() throws IOException {
        if (current != null) {
            current.flush();
        }
    }

    /** Deletes segments whose events are all older than {@code firstRetainedSeq}. */
    public void prune(final long firstRetainedSeq) throws IOException {
        final List<Long> firsts = new ArrayList<>(segments().keySet());
        final TreeMap<Long, Path> all = segments();
        for (int i = 0; i + 1 < firsts.size(); i++) {
            if (firsts.get(i + 1) <= firstRetainedSeq) {
                Files.deleteIfExists(all.get(firsts.get(i)));
            }
        }
    }

    private TreeMap<Long, Path> segments() throws IOException {
        final TreeMap<Long, Path> out = new TreeMap<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, PREFIX + "*" + SUFFIX)) {
            for (Path p : ds) {
                final String n = p.getFileName().toString();
                try {
                    out.put(Long.parseLong(n.substring(PREFIX.length(), n.length() - SUFFIX.length())), p);
                } catch (NumberFormatException e) {
                    LOG.debug("ignoring {}", p);
                }
            }
        }
        return out;
    }

    private void closeSegment() throws IOException {
        if (current != null) {
            current.close();
            current = null;
        }
    }

    /** Writes the table as of event {@code seq}, replacing the old one (atomically where possible). */
    public void writeSessions(final long seq, final String instance, final RecordWriter records) throws IOException {
        final Path tmp = sessionsFile.resolveSibling(sessionsFile.getFileName() + ".tmp");
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16)) {
            out.write(mapper.writeValueAsBytes(mapper.createObjectNode().put("seq", seq).put("instance", instance)));
            out.write('\n');
            records.write(out);
        }
        try {
            Files.move(tmp, sessionsFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, sessionsFile, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /**
     * Reads the table saved at the last clean shutdown, one record at a time (a million sessions
     * never sit in memory as JSON trees), if it belongs to {@code instance}.
     *
     * @return the seq it was saved at, or -1 if there is none for this instance (or it is unreadable)
     */
    public long readSessions(final String instance, final Consumer<JsonNode> each) {
        if (!Files.isRegularFile(sessionsFile)) {
            return -1;
        }
        try (BufferedReader r = Files.newBufferedReader(sessionsFile, StandardCharsets.UTF_8)) {
            final String head = r.readLine();
            if (head == null) {
                return -1;
            }
            final JsonNode h = mapper.readTree(head);
            if (!instance.equals(h.path("instance").asText(null))) {
                return -1;
            }
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                try {
                    final JsonNode n = mapper.readTree(line);
                    if (n != null && n.isObject()) {
                        each.accept(n);
                    }
                } catch (IOException e) {
                    skippedLines++;
                }
            }
            return h.path("seq").asLong(0);
        } catch (IOException e) {
            LOG.warn("ignoring unreadable {}: {}", sessionsFile, e.getMessage());
            return -1;
        }
    }

    @Override
    public void close() throws IOException {
        closeSegment();
    }
}
