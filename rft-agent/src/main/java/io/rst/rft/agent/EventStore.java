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
import com.fasterxml.jackson.databind.node.ObjectNode;
import edu.umd.cs.findbugs.annotations.SuppressFBWarnings;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.CRC32C;
import org.eclipse.jdt.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent's state on disk, crash-safe: a checkpoint of the whole session table
 * ({@code checkpoint.rst}) plus a write-ahead log of the events since ({@code wal/wal-FIRSTSEQ.log}).
 * Every record of both is framed as {@code u32 length, u32 CRC-32C of the payload, payload} (big
 * endian), so that a record cut short by a crash, or damaged, is detected, reported and skipped;
 * nothing read from disk is ever fatal.
 *
 * <p>A checkpoint is a header record ({@code H} + JSON: instance, seq, time), pages of sessions
 * ({@code S} + session objects separated by commas) and a trailer ({@code E} + JSON: sessions
 * written, whether it was written at a clean shutdown). It is written to {@code checkpoint.rst.tmp},
 * fsynced and renamed over the previous one, which thus stays whole until the new one is. A
 * session may be in a state newer than the header's seq: the WAL's events after that seq are full
 * states, so replaying them over the checkpoint comes to the same end.
 *
 * <p>Each WAL record is one event: {@code W}, u64 seq, u64 time, and the session as a binary
 * record ({@link io.rst.rft.session.SessionBinary}, a tenth of its JSON), from which the event's
 * line is written again when read; or, for an event without a binary record, the event line as
 * the API serves it. A new WAL file is started at every
 * start (never appending after a torn tail), before every checkpoint and past 8 MiB; files wholly older than
 * the checkpoint and than the in-memory log's retained window are deleted, so that disk use is
 * bounded by the retained events plus the WAL size that triggers a checkpoint.
 *
 * <p>Only one thread writes (the persister, or {@code close} after it stopped).
 */
@SuppressFBWarnings(value = { "NP_NONNULL_FIELD_NOT_INITIALIZED_IN_CONSTRUCTOR", "NP_STORE_INTO_NONNULL_FIELD" },
    justification = "SpotBugs reads no TYPE_USE @Nullable on fields: these fields are @Nullable")
public final class EventStore implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(EventStore.class);
    static final String CHECKPOINT = "checkpoint.rst";
    static final String WAL_DIR = "wal";
    private static final String WAL_PREFIX = "wal-";
    private static final String WAL_SUFFIX = ".log";
    /** No record is larger: a length beyond it is damage, not a record. */
    static final int MAX_RECORD = 64 << 20;
    /** A WAL file is closed and the next one started beyond this size. */
    static final long SEGMENT_BYTES = 8 << 20;
    private static final byte HEADER = 'H';
    private static final byte PAGE = 'S';
    private static final byte TRAILER = 'E';

    /** Receives what is read back at start-up: first the checkpoint's sessions, then the WAL's events. */
    public interface Loaded {
        /** A session of the checkpoint. */
        void session(JsonNode record);

        /**
         * An event of the WAL, in order; {@code afterCheckpoint} when it is newer than the
         * checkpoint, and only then with its session record (else null: the checkpoint has it).
         */
        void event(EventLog.Event event, JsonNode session, boolean afterCheckpoint);

        /**
         * An event of the WAL written as a binary record ({@link EventLog#WAL_BINARY}: its session
         * from byte {@link EventLog#WAL_HEADER} of {@code record} on), in order with the others.
         *
         * @return false when its session is damaged (reported as a problem, the event skipped)
         */
        default boolean binaryEvent(final long seq, final long timeMicros, final byte[] record,
                final boolean afterCheckpoint) {
            return false;
        }
    }

    /** A page's bytes, framed from its own array rather than from a copy. */
    private static final class PageBuffer extends ByteArrayOutputStream {
        PageBuffer() {
            super(64 * 1024);
        }

        byte[] array() {
            return buf;
        }
    }

    /** Writes a checkpoint's sessions, one page at a time. */
    @FunctionalInterface
    public interface Pages {
        /**
         * Puts the next page (session objects separated by commas) into {@code out}.
         *
         * @return the number of sessions in the page (the trailer counts them; scanning a page's
         *         bytes for them would cost the persister more than writing it), or -1 when there are no
         *         more pages
         */
        int next(ByteArrayOutputStream out) throws IOException;
    }

    /**
     * What a load found.
     *
     * @param checkpointSeq the seq of the checkpoint restored (0: none)
     * @param checkpointTimeMicros when it was written (0: none)
     * @param checkpointSessions sessions read from it
     * @param checkpointProblem what was wrong with it, or null
     * @param walEvents events read from the WAL
     * @param lastSeq the newest seq read (checkpoint or WAL)
     * @param lastTimeMicros the newest time read: what arrived after it may be lost (0: none)
     * @param problems what was torn, damaged or skipped in the WAL
     * @param skippedBytes bytes of the WAL not read because of them
     * @param clean whether the state is that of a clean shutdown (nothing can have been lost)
     */
    public record LoadReport(long checkpointSeq, long checkpointTimeMicros, long checkpointSessions,
            String checkpointProblem, long walEvents, long lastSeq, long lastTimeMicros, List<String> problems,
            long skippedBytes, boolean clean) {
        public LoadReport {
            problems = List.copyOf(problems);
        }
    }

    private final Path checkpoint;
    private final Path walDir;
    private final ObjectMapper mapper;
    private final CRC32C crc = new CRC32C();
    private @Nullable FileChannel wal;
    // direct: a heap buffer would be copied once more, into the JDK's temporary direct buffer, on
    // every write
    private ByteBuffer buf = ByteBuffer.allocateDirect(1 << 20);
    private long walBytesSinceCheckpoint;
    private long walEventsSinceCheckpoint;
    /** The size of the last checkpoint written or found at start (0: none). */
    private long checkpointBytes;
    private long checkpointSessions;
    /** Bytes in the current WAL file. */
    private long walFileBytes;
    private long checkpoints;

    public EventStore(final Path stateDir, final ObjectMapper mapper) throws IOException {
        this.checkpoint = stateDir.resolve(CHECKPOINT);
        this.walDir = stateDir.resolve(WAL_DIR);
        this.mapper = mapper;
        Files.createDirectories(walDir);
        checkpointBytes = Files.exists(checkpoint) ? Files.size(checkpoint) : 0;
    }

    /** Events appended to the WAL since the last checkpoint. */
    public long walEventsSinceCheckpoint() {
        return walEventsSinceCheckpoint;
    }

    /** Bytes appended to the WAL since the last checkpoint (what a compaction would reclaim). */
    public long walBytesSinceCheckpoint() {
        return walBytesSinceCheckpoint;
    }

    /** The size of the last checkpoint, written by this process or found at start (0: none). */
    public long checkpointBytes() {
        return checkpointBytes;
    }

    /** Sessions in the last checkpoint, written by this process or read at start (0: none or unknown). */
    public long checkpointSessions() {
        return checkpointSessions;
    }

    /** Checkpoints written by this process. */
    public long checkpoints() {
        return checkpoints;
    }

    /** Deletes the checkpoint and the WAL: a new event log starts. */
    public void clear() throws IOException {
        closeWal();
        for (Path p : walFiles().values()) {
            Files.deleteIfExists(p);
        }
        Files.deleteIfExists(checkpoint);
        Files.deleteIfExists(tmp());
    }

    // ------------------------------------------------------------------ reading

    /** Reads the checkpoint of {@code instance}, then the WAL, into {@code into}; never throws on damage. */
    @SuppressWarnings("checkstyle:IllegalCatch") // a checkpoint damaged in any way is reported, not thrown
    public LoadReport load(final String instance, final Loaded into) {
        final List<String> problems = new ArrayList<>();
        long cpSeq = 0;
        long cpTime = 0;
        long cpSessions = 0;
        String cpProblem = null;
        boolean cpClean = false;
        if (Files.isRegularFile(checkpoint)) {
            try (InputStream in = new BufferedInputStream(Files.newInputStream(checkpoint), 1 << 16)) {
                final Frames f = new Frames(in);
                byte[] rec = f.next();
                if (rec.length == 0 || rec[0] != HEADER) {
                    throw new IOException(f.problem != null ? f.problem : "no header");
                }
                final JsonNode h = mapper.readTree(rec, 1, rec.length - 1);
                if (!instance.equals(h.path("instance").asText(null))) {
                    cpProblem = "checkpoint belongs to instance " + h.path("instance").asText("?") + ", ignored";
                } else {
                    cpSeq = h.path("seq").asLong(0);
                    cpTime = h.path("time_us").asLong(0);
                    boolean ended = false;
                    while ((rec = f.next()).length > 0) {
                        if (rec[0] == PAGE) {
                            cpSessions += readPage(rec, into);
                        } else if (rec[0] == TRAILER) {
                            cpClean = mapper.readTree(rec, 1, rec.length - 1).path("clean").asBoolean(false);
                            ended = true;
                            break;
                        }
                    }
                    if (!ended) {
                        cpProblem = "checkpoint cut short or damaged after " + cpSessions + " sessions"
                            + (f.problem != null ? " (" + f.problem + ")" : "") + "; sessions after them may be lost";
                    }
                }
            } catch (IOException | RuntimeException e) {
                cpProblem = "checkpoint unreadable: " + e.getMessage();
                cpSeq = 0;
            }
            if (cpProblem != null) {
                LOG.warn("checkpoint {}: {}", checkpoint, cpProblem);
            }
        }
        long walEvents = 0;
        long lastSeq = cpSeq;
        long lastTime = cpTime;
        long skipped = 0;
        boolean newerEvents = false;
        for (Map.Entry<Long, Path> e : walFiles().entrySet()) {
            final Path p = e.getValue();
            long size = 0;
            try (InputStream in = new BufferedInputStream(Files.newInputStream(p), 1 << 16)) {
                size = Files.size(p);
                final Frames f = new Frames(in);
                for (byte[] rec = f.next(); rec.length > 0; rec = f.next()) {
                    if (rec[0] == EventLog.WAL_BINARY) {
                        final long seq = rec.length > EventLog.WAL_HEADER ? EventLog.walLong(rec, 1) : 0;
                        final long time = rec.length > EventLog.WAL_HEADER ? EventLog.walLong(rec, 9) : 0;
                        if (seq < 1 || !into.binaryEvent(seq, time, rec, seq > cpSeq)) {
                            problems.add(p.getFileName() + ": record at byte " + f.recordStart
                                + " is not an event, skipped");
                            continue;
                        }
                        walEvents++;
                        newerEvents |= seq > cpSeq;
                        if (seq > lastSeq) {
                            lastSeq = seq;
                            lastTime = time;
                        }
                        continue;
                    }
                    // events the checkpoint already holds are only retained again: their seq and
                    // time are read from the line's start, without parsing it all
                    final long[] head = head(rec);
                    final long seq;
                    long time;
                    JsonNode session = null;
                    if (head.length == 2 && head[0] <= cpSeq) {
                        seq = head[0];
                        time = head[1];
                    } else {
                        final JsonNode node;
                        try {
                            node = mapper.readTree(rec);
                        } catch (IOException x) {
                            problems.add(p.getFileName() + ": record at byte " + f.recordStart
                                + " is not an event, skipped");
                            continue;
                        }
                        seq = node.path("seq").asLong(0);
                        session = node.get("session");
                        time = Math.round(node.path("time").asDouble(0) * 1e6);
                        if (seq < 1 || session == null || !session.isObject()) {
                            problems.add(p.getFileName() + ": record at byte " + f.recordStart
                                + " is not an event, skipped");
                            continue;
                        }
                    }
                    walEvents++;
                    final boolean after = seq > cpSeq;
                    newerEvents |= after;
                    into.event(new EventLog.Event(seq, rec), after ? session : null, after);
                    if (seq > lastSeq) {
                        lastSeq = seq;
                        lastTime = time;
                    }
                }
                if (f.problem != null) {
                    skipped += size - f.recordStart;
                    problems.add(p.getFileName() + ": " + f.problem + " at byte " + f.recordStart + ", "
                        + (size - f.recordStart) + " bytes skipped");
                }
            } catch (IOException x) {
                problems.add(p.getFileName() + ": unreadable: " + x.getMessage());
            }
        }
        if (cpProblem == null) {
            checkpointSessions = cpSessions;
        }
        for (String s : problems) {
            LOG.warn("write-ahead log: {}", s);
        }
        return new LoadReport(cpSeq, cpTime, cpSessions, cpProblem, walEvents, lastSeq, lastTime, problems, skipped,
            cpClean && cpProblem == null && !newerEvents && problems.isEmpty());
    }

    private static final long[] NO_HEAD = new long[0];
    private static final byte[] SEQ_PREFIX = "{\"seq\":".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final byte[] TIME_PREFIX = ",\"time\":".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    /**
     * The seq and the time (microseconds) of an event line as {@link EventLog} writes it
     * ({@code {"seq":N,"time":SECONDS.FRACTION,...}}); empty when the line has another shape.
     */
    static long[] head(final byte[] line) {
        int pos = SEQ_PREFIX.length;
        if (!startsWith(line, 0, SEQ_PREFIX)) {
            return NO_HEAD;
        }
        long seq = 0;
        final int seqStart = pos;
        while (pos < line.length && line[pos] >= '0' && line[pos] <= '9' && pos - seqStart < 18) {
            seq = seq * 10 + line[pos++] - '0';
        }
        if (pos == seqStart || seq < 1 || !startsWith(line, pos, TIME_PREFIX)) {
            return NO_HEAD;
        }
        pos += TIME_PREFIX.length;
        long secs = 0;
        final int timeStart = pos;
        while (pos < line.length && line[pos] >= '0' && line[pos] <= '9' && pos - timeStart < 15) {
            secs = secs * 10 + line[pos++] - '0';
        }
        if (pos == timeStart) {
            return NO_HEAD;
        }
        long micros = 0;
        int digits = 0;
        if (pos < line.length && line[pos] == '.') {
            pos++;
            while (pos < line.length && line[pos] >= '0' && line[pos] <= '9') {
                if (digits < 6) {
                    micros = micros * 10 + line[pos] - '0';
                    digits++;
                }
                pos++;
            }
        }
        if (pos >= line.length || line[pos] != ',') {
            return NO_HEAD;
        }
        for (; digits < 6; digits++) {
            micros *= 10;
        }
        return new long[] {seq, secs * 1_000_000L + micros};
    }

    private static boolean startsWith(final byte[] bytes, final int at, final byte[] prefix) {
        if (at + prefix.length > bytes.length) {
            return false;
        }
        for (int k = 0; k < prefix.length; k++) {
            if (bytes[at + k] != prefix[k]) {
                return false;
            }
        }
        return true;
    }

    private int readPage(final byte[] rec, final Loaded into) throws IOException {
        // a page is objects separated by commas: read it as the array it is the inside of
        final byte[] arr = new byte[rec.length + 1];
        arr[0] = '[';
        System.arraycopy(rec, 1, arr, 1, rec.length - 1);
        arr[rec.length] = ']';
        int count = 0;
        for (JsonNode s : mapper.readTree(arr)) {
            into.session(s);
            count++;
        }
        return count;
    }

    /** What {@code Frames.next} gives at the end (a record is never empty). */
    private static final byte[] NONE = new byte[0];

    /**
     * Reads framed records until the end or the first torn or damaged one (then {@link #problem});
     * {@link #NONE} after the last.
     */
    @SuppressFBWarnings(value = "NP_NONNULL_FIELD_NOT_INITIALIZED_IN_CONSTRUCTOR",
        justification = "SpotBugs reads no TYPE_USE @Nullable on fields: these fields are @Nullable")
    private final class Frames {
        private final InputStream in;
        private final byte[] headerBytes = new byte[8];
        long offset;
        long recordStart;
        @Nullable String problem;

        Frames(final InputStream in) {
            this.in = in;
        }

        byte[] next() throws IOException {
            recordStart = offset;
            final int got = in.readNBytes(headerBytes, 0, 8);
            if (got == 0) {
                return NONE;
            }
            if (got < 8) {
                problem = "torn record header";
                return NONE;
            }
            final ByteBuffer b = ByteBuffer.wrap(headerBytes);
            final int len = b.getInt();
            final int sum = b.getInt();
            if (len <= 0 || len > MAX_RECORD) {
                problem = "damaged record length " + len;
                return NONE;
            }
            final byte[] payload;
            try {
                payload = in.readNBytes(len);
            } catch (EOFException e) {
                problem = "torn record";
                return NONE;
            }
            if (payload.length < len) {
                problem = "torn record";
                return NONE;
            }
            crc.reset();
            crc.update(payload);
            if ((int) crc.getValue() != sum) {
                problem = "record fails its CRC";
                return NONE;
            }
            offset += 8 + len;
            return payload;
        }
    }

    // ------------------------------------------------------------------ writing

    /** Starts a new WAL file whose first event will be {@code firstSeq}. */
    public void startWal(final long firstSeq) throws IOException {
        closeWal();
        final Path p = walDir.resolve(String.format("%s%019d%s", WAL_PREFIX, firstSeq, WAL_SUFFIX));
        wal = FileChannel.open(p, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.WRITE);
        walFileBytes = 0;
    }

    /** Appends events (in order, after those already written) to the current WAL file. */
    public void append(final List<EventLog.Event> events) throws IOException {
        if (wal == null) {
            throw new IOException("no write-ahead log file open");
        }
        for (EventLog.Event e : events) {
            if (walFileBytes + buf.position() >= SEGMENT_BYTES) {
                // files of bounded size, so that a checkpoint frees the disk in steps, not all at once
                drain(wal);
                wal.force(false);
                startWal(e.seq());
            }
            // the session's binary record when the event has one (a tenth of its JSON line)
            final byte[] rec = e.wal() != null ? e.wal() : e.line();
            if (buf.remaining() < rec.length + 8 && buf.position() > 0) {
                // written when full rather than grown: the buffer stays at its size
                drain(wal);
            }
            frame(rec, 0, rec.length, (byte) 0, false);
            walEventsSinceCheckpoint++;
        }
        drain(wal);
    }

    /** Makes what was appended durable (fsync): a crash after this loses none of it. */
    public void sync() throws IOException {
        if (wal != null) {
            wal.force(false);
        }
    }

    private void frame(final byte[] bytes, final int off, final int len, final byte type, final boolean typed) {
        final int plen = len + (typed ? 1 : 0);
        if (buf.remaining() < plen + 8) {
            final ByteBuffer bigger =
                ByteBuffer.allocateDirect(Math.max(buf.capacity() * 2, buf.position() + plen + 8));
            buf.flip();
            bigger.put(buf);
            buf = bigger;
        }
        crc.reset();
        if (typed) {
            crc.update(type);
        }
        crc.update(bytes, off, len);
        buf.putInt(plen).putInt((int) crc.getValue());
        if (typed) {
            buf.put(type);
        }
        buf.put(bytes, off, len);
    }

    private void drain(final FileChannel ch) throws IOException {
        buf.flip();
        while (buf.hasRemaining()) {
            final int n = ch.write(buf);
            if (ch == wal) {
                walBytesSinceCheckpoint += n;
                walFileBytes += n;
            }
        }
        buf.clear();
    }

    /**
     * Writes a checkpoint of the table as of event {@code seq} (temp file, fsync, rename), then
     * deletes the WAL files it and the retained window make useless. Call {@link #startWal} with
     * the next event to write before taking the table's handles, so that every event newer than
     * {@code seq} is in a file that stays.
     *
     * @param firstRetainedSeq the in-memory log's oldest retained event: WAL files holding it or
     *        newer events are kept, so that clients resume across a restart as before it
     */
    public void checkpoint(final long seq, final long timeMicros, final String instance, final boolean clean,
            final long firstRetainedSeq, final Pages pages) throws IOException {
        final Path tmp = tmp();
        final PageBuffer page = new PageBuffer();
        long sessions = 0;
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE)) {
            final ObjectNode h = mapper.createObjectNode().put("format", 1).put("instance", instance).put("seq", seq)
                .put("time_us", timeMicros);
            final byte[] hb = mapper.writeValueAsBytes(h);
            frame(hb, 0, hb.length, HEADER, true);
            drain(ch);
            while (true) {
                page.reset();
                final int inPage = pages.next(page);
                if (inPage < 0) {
                    break;
                }
                if (page.size() == 0) {
                    continue;
                }
                sessions += inPage;
                // framed from the page's own array: a copy per page would be most of a checkpoint's garbage
                frame(page.array(), 0, page.size(), PAGE, true);
                drain(ch);
            }
            final byte[] tb = mapper.writeValueAsBytes(mapper.createObjectNode().put("sessions", sessions)
                .put("clean", clean));
            frame(tb, 0, tb.length, TRAILER, true);
            drain(ch);
            ch.force(true);
            checkpointBytes = ch.size();
            checkpointSessions = sessions;
        }
        try {
            Files.move(tmp, checkpoint, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, checkpoint, StandardCopyOption.REPLACE_EXISTING);
        }
        syncDir(checkpoint.getParent());
        checkpoints++;
        walBytesSinceCheckpoint = 0;
        walEventsSinceCheckpoint = 0;
        // a file's events end where the next file's begin
        final List<Map.Entry<Long, Path>> files = new ArrayList<>(walFiles().entrySet());
        for (int i = 0; i + 1 < files.size(); i++) {
            final long nextFirst = files.get(i + 1).getKey();
            if (nextFirst <= seq + 1 && nextFirst <= firstRetainedSeq) {
                Files.deleteIfExists(files.get(i).getValue());
            }
        }
    }

    private static void syncDir(final Path dir) {
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        } catch (IOException e) {
            // not every file system lets a directory be opened: the rename is then as durable as it gets
            LOG.debug("cannot fsync {}: {}", dir, e.getMessage());
        }
    }

    private Path tmp() {
        return checkpoint.resolveSibling(CHECKPOINT + ".tmp");
    }

    /** Bytes of every WAL file on disk. */
    public long walBytesOnDisk() {
        long total = 0;
        try {
            for (Path p : walFiles().values()) {
                total += Files.size(p);
            }
        } catch (IOException e) {
            LOG.debug("cannot size the WAL: {}", e.getMessage());
        }
        return total;
    }

    private TreeMap<Long, Path> walFiles() {
        final TreeMap<Long, Path> out = new TreeMap<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(walDir, WAL_PREFIX + "*" + WAL_SUFFIX)) {
            for (Path p : ds) {
                final String n = p.getFileName().toString();
                try {
                    out.put(Long.parseLong(n.substring(WAL_PREFIX.length(), n.length() - WAL_SUFFIX.length())), p);
                } catch (NumberFormatException e) {
                    LOG.debug("ignoring {}", p);
                }
            }
        } catch (IOException e) {
            LOG.warn("cannot list {}: {}", walDir, e.getMessage());
        }
        return out;
    }

    private void closeWal() throws IOException {
        if (wal != null) {
            wal.close();
            wal = null;
        }
    }

    /** One line for the log. */
    static String describe(final LoadReport report) {
        return "checkpoint seq " + report.checkpointSeq() + " (" + report.checkpointSessions() + " sessions), "
            + report.walEvents() + " WAL events, up to seq " + report.lastSeq()
            + (report.clean() ? ", clean shutdown" : "");
    }

    @Override
    public void close() throws IOException {
        closeWal();
    }
}
