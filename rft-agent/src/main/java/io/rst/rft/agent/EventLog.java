/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.agent;

import edu.umd.cs.findbugs.annotations.SuppressFBWarnings;
import io.rst.rft.decode.JsonBytes;
import io.rst.rft.session.SessionBinary;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jdt.annotation.Nullable;

/**
 * The agent's retained session events: a bounded ring of NDJSON lines with increasing sequence
 * numbers (the first event is 1). Each line is serialised once, when appended, and then served
 * as bytes to every client and to the store. Appends come from the decode thread; readers are
 * HTTP threads and the persister. The log is bounded twice, by events and by bytes of lines (what
 * its heap costs): beyond either, the oldest events are forgotten, and a client resuming from
 * before them is told so ({@link #firstRetainedSeq()}).
 */
public final class EventLog {
    /**
     * One retained event: its sequence number, its line (NDJSON, newline included) and, until the
     * write-ahead log has it, its binary record for the log.
     */
    @SuppressFBWarnings(value = "NP_STORE_INTO_NONNULL_FIELD",
        justification = "SpotBugs reads no TYPE_USE @Nullable on fields: these fields are @Nullable")
    public static final class Event {
        private final long seq;
        private final byte[] line;
        /** Released once written ({@link #written()}): the ring keeps events long, the log needs it once. */
        private byte @Nullable [] wal;

        /** An event with a binary record for the write-ahead log. */
        public Event(final long seq, final byte[] line, final byte[] wal) {
            if (seq < 1) {
                throw new IllegalArgumentException("seq must be positive: " + seq);
            }
            this.seq = seq;
            this.line = line;
            this.wal = wal;
        }

        /** An event without a binary record: its line is what the write-ahead log keeps. */
        public Event(final long seq, final byte[] line) {
            this(seq, line, null);
        }

        public long seq() {
            return seq;
        }

        public byte[] line() {
            return line;
        }

        /** The binary record for the write-ahead log; null once written, or when there is none. */
        public byte[] wal() {
            return wal;
        }

        /** The write-ahead log has it: its binary record is let go (by the log's only writer). */
        public void written() {
            wal = null;
        }
    }

    /** The first byte of a binary WAL record ({@link #WAL_HEADER} bytes: it, seq, time; then the session's). */
    public static final byte WAL_BINARY = 'W';
    /** Bytes before a binary WAL record's session: the type, u64 seq, u64 time in microseconds. */
    public static final int WAL_HEADER = 17;

    private static final byte[] K_SEQ = JsonBytes.ascii("{\"seq\":");
    private static final byte[] K_TIME = JsonBytes.ascii(",\"time\":");
    private static final byte[] K_SESSION = JsonBytes.ascii(",\"type\":\"session\",\"session\":");
    private static final byte[] END = JsonBytes.ascii("}\n");

    private final Event[] ring;
    /** Where lines are put together; guarded by this. */
    private final JsonBytes line = new JsonBytes(1024);
    private final long maxBytes;
    private long lastSeq;
    private long count;
    private long bytes;

    /** A log of at most {@code capacity} events, whatever their size. */
    public EventLog(final int capacity) {
        this(capacity, Long.MAX_VALUE);
    }

    /** A log of at most {@code capacity} events and {@code maxBytes} bytes of lines (at least one event). */
    public EventLog(final int capacity, final long maxBytes) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be positive: " + capacity);
        }
        if (maxBytes < 1) {
            throw new IllegalArgumentException("maxBytes must be positive: " + maxBytes);
        }
        ring = new Event[capacity];
        this.maxBytes = maxBytes;
    }

    /** Bytes of the retained lines. */
    public synchronized long retainedBytes() {
        return bytes;
    }

    public int capacity() {
        return ring.length;
    }

    /**
     * Appends a session event; the record is given as its JSON serialisation (ASCII). The line is
     * put together in a reused buffer and copied once into the retained event.
     *
     * @return the event's sequence number
     */
    public synchronized long appendSession(final long timeMicros, final JsonBytes sessionJson) {
        return appendSession(timeMicros, sessionJson, null);
    }

    /**
     * Appends a session event, with the session's binary record for the write-ahead log when
     * {@code wal} is not null (kept beside the line: {@link Event#wal()}).
     *
     * @return the event's sequence number
     */
    public synchronized long appendSession(final long timeMicros, final JsonBytes sessionJson,
            final SessionBinary wal) {
        final long seq = lastSeq + 1;
        put(new Event(seq, line(seq, timeMicros, sessionJson), wal == null ? null : walRecord(seq, timeMicros, wal)));
        return seq;
    }

    /**
     * Puts back an event read as a binary record at start-up (its line written anew from the
     * session's JSON), as {@link #restore(Event)} does.
     */
    public synchronized boolean restoreSession(final long seq, final long timeMicros, final JsonBytes sessionJson) {
        if (seq < 1) {
            return false;
        }
        return restore(new Event(seq, line(seq, timeMicros, sessionJson)));
    }

    private byte[] line(final long seq, final long timeMicros, final JsonBytes sessionJson) {
        line.reset();
        line.raw(K_SEQ).decimal(seq).raw(K_TIME).seconds(timeMicros * 1000L, 6).raw(K_SESSION).append(sessionJson)
            .raw(END);
        return line.toByteArray();
    }

    private static byte[] walRecord(final long seq, final long timeMicros, final SessionBinary wal) {
        final byte[] r = new byte[WAL_HEADER + wal.length()];
        r[0] = WAL_BINARY;
        for (int i = 0; i < 8; i++) {
            r[1 + i] = (byte) (seq >>> (56 - 8 * i));
            r[9 + i] = (byte) (timeMicros >>> (56 - 8 * i));
        }
        System.arraycopy(wal.bytes(), 0, r, WAL_HEADER, wal.length());
        return r;
    }

    /** A big-endian u64 of a binary WAL record at {@code off}. */
    public static long walLong(final byte[] record, final int off) {
        long value = 0;
        for (int i = 0; i < 8; i++) {
            value = value << 8 | record[off + i] & 0xff;
        }
        return value;
    }

    /**
     * Puts back an event read from the store at start-up; events must come in increasing order.
     * An event that does not follow the last one is ignored.
     *
     * @return whether it was taken
     */
    public synchronized boolean restore(final Event event) {
        if (event.seq() <= lastSeq) {
            return false;
        }
        if (count > 0 && event.seq() != lastSeq + 1) {
            // a hole in the stored log: what came before it cannot be served without a gap
            forgetAll();
        }
        put(event);
        return true;
    }

    private void put(final Event event) {
        lastSeq = event.seq();
        final int i = (int) (lastSeq % ring.length);
        if (count == ring.length) {
            // the slot holds the oldest event
            bytes -= ring[i].line().length;
        } else {
            count++;
        }
        ring[i] = event;
        bytes += event.line().length;
        while (bytes > maxBytes && count > 1) {
            final int oldest = (int) ((lastSeq - count + 1) % ring.length);
            bytes -= ring[oldest].line().length;
            ring[oldest] = null;
            count--;
        }
        notifyAll();
    }

    private void forgetAll() {
        java.util.Arrays.fill(ring, null);
        count = 0;
        bytes = 0;
    }

    /**
     * Makes the next sequence number at least {@code seq + 1} (restoring a saved table whose
     * events are gone), forgetting retained events if it jumps.
     */
    public synchronized void skipTo(final long seq) {
        if (seq > lastSeq) {
            lastSeq = seq;
            forgetAll();
        }
    }

    /** The sequence number of the newest event, 0 if there never was one. */
    public synchronized long lastSeq() {
        return lastSeq;
    }

    /** The sequence number of the oldest retained event; {@code lastSeq() + 1} if none is. */
    public synchronized long firstRetainedSeq() {
        return lastSeq - count + 1;
    }

    /** Up to {@code max} retained events with a sequence number above {@code after}, in order. */
    public synchronized List<Event> after(final long after, final int max) {
        final long from = Math.max(after + 1, firstRetainedSeq());
        final long to = Math.min(lastSeq, from + max - 1);
        final List<Event> out = new ArrayList<>((int) Math.max(0, to - from + 1));
        for (long s = from; s <= to; s++) {
            out.add(ring[(int) (s % ring.length)]);
        }
        return out;
    }

    /**
     * Waits until an event after {@code seq} exists, or {@code timeoutMillis} passes.
     *
     * @return whether one exists
     */
    public synchronized boolean awaitAfter(final long seq, final long timeoutMillis) throws InterruptedException {
        final long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
        while (lastSeq <= seq) {
            final long left = (deadline - System.nanoTime()) / 1_000_000L;
            if (left <= 0) {
                return false;
            }
            wait(left);
        }
        return true;
    }

}
