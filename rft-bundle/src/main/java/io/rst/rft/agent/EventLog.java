/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.agent;

import io.rst.rft.decode.JsonBytes;
import java.util.ArrayList;
import java.util.List;

/**
 * The agent's retained session events: a bounded ring of NDJSON lines with increasing sequence
 * numbers (the first event is 1). Each line is serialised once, when appended, and then served
 * as bytes to every client and to the store. Appends come from the decode thread; readers are
 * HTTP threads and the persister. When full, the oldest event is forgotten, and a client resuming
 * from before it is told so ({@link #firstRetainedSeq()}).
 */
public final class EventLog {
    /** One retained event: its sequence number and its line (NDJSON, newline included). */
    public record Event(long seq, byte[] line) {
        public Event {
            if (seq < 1) {
                throw new IllegalArgumentException("seq must be positive: " + seq);
            }
        }
    }

    private static final byte[] K_SEQ = JsonBytes.ascii("{\"seq\":");
    private static final byte[] K_TIME = JsonBytes.ascii(",\"time\":");
    private static final byte[] K_SESSION = JsonBytes.ascii(",\"type\":\"session\",\"session\":");
    private static final byte[] END = JsonBytes.ascii("}\n");

    private final Event[] ring;
    /** Where lines are put together; guarded by this. */
    private final JsonBytes line = new JsonBytes(1024);
    private long lastSeq;
    private long count;

    public EventLog(final int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be positive: " + capacity);
        }
        ring = new Event[capacity];
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
        final long seq = lastSeq + 1;
        line.reset();
        line.raw(K_SEQ).decimal(seq).raw(K_TIME).seconds(timeMicros * 1000L, 6).raw(K_SESSION).append(sessionJson)
            .raw(END);
        put(new Event(seq, line.toByteArray()));
        return seq;
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
            count = 0;
        }
        put(event);
        return true;
    }

    private void put(final Event event) {
        lastSeq = event.seq();
        ring[(int) (lastSeq % ring.length)] = event;
        if (count < ring.length) {
            count++;
        }
        notifyAll();
    }

    /**
     * Makes the next sequence number at least {@code seq + 1} (restoring a saved table whose
     * events are gone), forgetting retained events if it jumps.
     */
    public synchronized void skipTo(final long seq) {
        if (seq > lastSeq) {
            lastSeq = seq;
            count = 0;
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
