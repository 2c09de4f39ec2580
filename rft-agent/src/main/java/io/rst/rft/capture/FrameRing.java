/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.capture;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A bounded single-producer single-consumer queue of frames, with every slot's bytes allocated
 * once up front, so that handing a frame from a capture thread to the decode thread allocates
 * nothing and never blocks: when the ring is full the frame is dropped and counted.
 *
 * <p>The producer publishes a slot by advancing {@code tail} with a release store after writing
 * it; the consumer frees a slot by advancing {@code head} the same way after reading it. Each side
 * only ever writes its own index, so no lock and no compare-and-set are needed.
 */
public final class FrameRing {
    /** What {@link #claim()} returns when no slot is free. */
    public static final byte[] FULL = new byte[0];

    private final byte[][] data;
    private final int[] lengths;
    private final long[] times;
    private final int mask;
    private final int slotBytes;
    private final AtomicLong head = new AtomicLong();
    private final AtomicLong tail = new AtomicLong();
    private final AtomicLong drops = new AtomicLong();
    private final AtomicLong truncated = new AtomicLong();

    /**
     * Makes a ring.
     *
     * @param slots number of frames it holds, rounded up to a power of two, at least 2
     * @param slotBytes bytes kept of each frame; longer frames are cut to this length (counted)
     */
    public FrameRing(final int slots, final int slotBytes) {
        if (slots < 2 || slots > 1 << 24) {
            throw new IllegalArgumentException("slots out of range: " + slots);
        }
        if (slotBytes < 64) {
            throw new IllegalArgumentException("slotBytes too small: " + slotBytes);
        }
        final int size = Integer.highestOneBit(slots - 1) << 1;
        data = new byte[size][slotBytes];
        lengths = new int[size];
        times = new long[size];
        mask = size - 1;
        this.slotBytes = slotBytes;
    }

    /**
     * Copies a frame in. Producer thread only.
     *
     * @return false if the ring was full and the frame was dropped
     */
    public boolean offer(final byte[] frame, final int len, final long tsMicros) {
        if (!offerIfRoom(frame, len, tsMicros)) {
            drops.incrementAndGet();
            return false;
        }
        return true;
    }

    /**
     * Copies a frame in if there is room, without counting a drop otherwise: for a producer that
     * can wait (a file). Producer thread only.
     *
     * @return false if the ring was full
     */
    public boolean offerIfRoom(final byte[] frame, final int len, final long tsMicros) {
        final long t = tail.get();
        if (t - head.get() > mask) {
            return false;
        }
        final int i = (int) t & mask;
        int stored = len;
        if (stored > slotBytes) {
            stored = slotBytes;
            truncated.incrementAndGet();
        }
        System.arraycopy(frame, 0, data[i], 0, stored);
        lengths[i] = stored;
        times[i] = tsMicros;
        tail.lazySet(t + 1);
        return true;
    }

    /**
     * The buffer of the next free slot, for a producer that reads a frame straight into it (no
     * copy in between), or {@link #FULL} (empty) when the ring is full. Nothing is published until
     * {@link #commit}. Producer thread only.
     */
    public byte[] claim() {
        final long t = tail.get();
        if (t - head.get() > mask) {
            return FULL;
        }
        return data[(int) t & mask];
    }

    /**
     * Publishes the slot {@link #claim()} returned, holding {@code len} bytes ({@code wireLen} on
     * the wire: more means cut to the slot, counted). Producer thread only.
     */
    public void commit(final int len, final int wireLen, final long tsMicros) {
        final long t = tail.get();
        final int i = (int) t & mask;
        if (wireLen > len) {
            truncated.incrementAndGet();
        }
        lengths[i] = len;
        times[i] = tsMicros;
        tail.lazySet(t + 1);
    }

    /** Counts a frame dropped because {@link #claim()} found the ring full. Producer thread only. */
    public void countDrop() {
        drops.incrementAndGet();
    }

    /**
     * Hands up to {@code max} frames to {@code sink}, oldest first. Consumer thread only.
     *
     * @return the number of frames handed over
     */
    public int drain(final FrameSink sink, final int ifIndex, final int max) {
        final long h = head.get();
        final long available = Math.min(tail.get() - h, max);
        for (long k = 0; k < available; k++) {
            final int i = (int) (h + k) & mask;
            try {
                sink.onFrame(data[i], 0, lengths[i], times[i], ifIndex);
            } finally {
                head.lazySet(h + k + 1);
            }
        }
        return (int) available;
    }

    /** Capture time of the oldest waiting frame, or {@link Long#MAX_VALUE} when none waits. */
    public long headTime() {
        final long h = head.get();
        if (tail.get() == h) {
            return Long.MAX_VALUE;
        }
        return times[(int) (h & mask)];
    }

    /** Frames waiting. */
    public int size() {
        return (int) (tail.get() - head.get());
    }

    /** Bytes kept of each frame. */
    public int slotBytes() {
        return slotBytes;
    }

    /** Capacity in frames. */
    public int capacity() {
        return mask + 1;
    }

    /** Frames dropped because the ring was full. */
    public long drops() {
        return drops.get();
    }

    /** Frames cut to the slot size. */
    public long truncated() {
        return truncated.get();
    }
}
