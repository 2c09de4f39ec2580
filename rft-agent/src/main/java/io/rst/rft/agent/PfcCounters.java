/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.agent;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rst.rft.decode.CmMessage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.function.ToIntFunction;

/**
 * The PFC frames that entered each interface, per priority: how many asked that priority to
 * pause (its bit set in the frame's priority-enable vector), how many of those asked 0 quanta
 * (an XON: resume at once), the quanta asked in all, and the time the priority was paused: each
 * frame pauses it for its quanta (a quantum is 512 bit times at the link's speed) from its
 * capture time, a later frame restarting the timer (so an XON ends a pause early), and the time
 * paused is the union of those intervals, up to the latest clock this table was given. Decode
 * thread only; nothing is allocated per frame once an interface is known, and at most
 * {@link #MAX_INTERFACES} interfaces are (the frames of others are counted, not tabled).
 *
 * <p>The link speed comes from {@code speedOf} (on a switch, {@code /sys/class/net/IF/speed}),
 * read when an interface's first PFC frame comes and again at each {@link #refreshSpeeds()}; where
 * it says nothing (a replay, a virtual interface), the configured default.
 */
final class PfcCounters {
    static final int PRIORITIES = 8;
    static final int MAX_INTERFACES = 256;
    /** Bits per pause quantum (IEEE 802.3 annex 31B). */
    private static final long BITS_PER_QUANTUM = 512;

    private final ToIntFunction<String> speedOf;
    private final int defaultMbps;
    private final Map<String, Integer> index = new HashMap<>();
    private String[] names = new String[4];
    private int[] mbps = new int[4];
    private int interfaces;

    // per interface * PRIORITIES + priority
    private long[] frames = new long[4 * PRIORITIES];
    private long[] xon = new long[4 * PRIORITIES];
    private long[] quanta = new long[4 * PRIORITIES];
    /** Nanoseconds paused in the intervals that ended or were cut short by a later frame. */
    private long[] pausedBefore = new long[4 * PRIORITIES];
    /** The current interval: from the last frame's time to when its pause ends (nanoseconds). */
    private long[] start = new long[4 * PRIORITIES];
    private long[] until = new long[4 * PRIORITIES];

    private long now = Long.MIN_VALUE;
    private long total;
    private long untabled;

    /**
     * A table.
     *
     * @param speedOf an interface's link speed in Mbit/s, or 0 or less when it does not say
     * @param defaultMbps the speed assumed then
     */
    PfcCounters(final ToIntFunction<String> speedOf, final int defaultMbps) {
        if (defaultMbps < 1) {
            throw new IllegalArgumentException("link speed must be positive: " + defaultMbps);
        }
        this.speedOf = speedOf;
        this.defaultMbps = defaultMbps;
    }

    /** Link speeds as Linux says them: {@code /sys/class/net/IF/speed} in Mbit/s, -1 when it does not say. */
    static int sysfsSpeed(final String ifName) {
        if (ifName.isEmpty() || ifName.indexOf('/') >= 0 || ifName.startsWith(".")) {
            return -1;
        }
        try {
            final String text = Files.readString(Path.of("/sys/class/net", ifName, "speed"), StandardCharsets.US_ASCII)
                .strip();
            final int mbps = Integer.parseInt(text);
            return mbps > 0 ? mbps : -1;
        } catch (IOException | NumberFormatException e) {
            // down links, virtual interfaces and missing files do not say
            return -1;
        }
    }

    /** PFC frames counted in all (those of interfaces beyond the bound included). */
    long frames() {
        return total;
    }

    /** PFC frames of interfaces beyond {@link #MAX_INTERFACES}: counted in {@link #frames()} only. */
    long untabled() {
        return untabled;
    }

    /** The clock moves on (nanoseconds since the epoch; it never goes back). */
    void advance(final long nowNanos) {
        if (nowNanos > now) {
            now = nowNanos;
        }
    }

    /**
     * One PFC frame ({@code msg} decoded as {@link io.rst.rft.decode.DecodeResult#PFC}) that entered
     * {@code port} at {@code timeNanos}.
     */
    void frame(final String port, final long timeNanos, final CmMessage msg) {
        total++;
        advance(timeNanos);
        final int i = interfaceOf(port);
        if (i < 0) {
            untabled++;
            return;
        }
        final int speed = mbps[i];
        final int enable = msg.pfcEnable();
        for (int p = 0; p < PRIORITIES; p++) {
            if ((enable & 1 << p) == 0) {
                // a time of a priority not enabled is ignored, as a receiver does
                continue;
            }
            final int k = i * PRIORITIES + p;
            final long q = msg.pfcQuanta(p);
            final long pause = q * BITS_PER_QUANTUM * 1000L / speed;
            if (frames[k] == 0) {
                start[k] = timeNanos;
            } else {
                // frames of one interface come in order; a late one restarts the timer at the last start
                final long t = Math.max(timeNanos, start[k]);
                pausedBefore[k] += Math.min(t, until[k]) - start[k];
                start[k] = t;
            }
            until[k] = start[k] + pause;
            frames[k]++;
            quanta[k] += q;
            if (q == 0) {
                xon[k]++;
            }
        }
    }

    private int interfaceOf(final String port) {
        final Integer known = index.get(port);
        if (known != null) {
            return known;
        }
        if (interfaces == MAX_INTERFACES) {
            return -1;
        }
        final int i = interfaces++;
        if (i == names.length) {
            final int cap = Math.min(MAX_INTERFACES, i * 2);
            names = Arrays.copyOf(names, cap);
            mbps = Arrays.copyOf(mbps, cap);
            frames = Arrays.copyOf(frames, cap * PRIORITIES);
            xon = Arrays.copyOf(xon, cap * PRIORITIES);
            quanta = Arrays.copyOf(quanta, cap * PRIORITIES);
            pausedBefore = Arrays.copyOf(pausedBefore, cap * PRIORITIES);
            start = Arrays.copyOf(start, cap * PRIORITIES);
            until = Arrays.copyOf(until, cap * PRIORITIES);
        }
        names[i] = port;
        mbps[i] = speed(port);
        index.put(port, i);
        return i;
    }

    private int speed(final String port) {
        final int said = speedOf.applyAsInt(port);
        return said > 0 ? said : defaultMbps;
    }

    /** Reads the link speeds again (a link renegotiated); off the per-frame path. */
    void refreshSpeeds() {
        for (int i = 0; i < interfaces; i++) {
            mbps[i] = speed(names[i]);
        }
    }

    /** Nanoseconds the interface and priority at {@code entry} was paused, up to the clock. */
    private long pausedNanos(final int entry) {
        return pausedBefore[entry] + Math.max(0L, Math.min(now, until[entry]) - start[entry]);
    }

    /**
     * Appends one object per interface and priority that a frame asked to pause, interfaces in
     * the order their first frame came: {@code interface}, {@code priority}, {@code frames},
     * {@code xon}, {@code quanta}, {@code paused_us}, {@code paused} (the last frame's pause has
     * not ended at the clock), {@code last} (the last frame's time), {@code link_speed_mbps}.
     */
    void write(final ArrayNode out) {
        for (int i = 0; i < interfaces; i++) {
            for (int p = 0; p < PRIORITIES; p++) {
                final int k = i * PRIORITIES + p;
                if (frames[k] == 0) {
                    continue;
                }
                final ObjectNode o = out.addObject();
                o.put("interface", names[i]);
                o.put("priority", p);
                o.put("frames", frames[k]);
                o.put("xon", xon[k]);
                o.put("quanta", quanta[k]);
                o.put("paused_us", pausedNanos(k) / 1000L);
                o.put("paused", until[k] > now);
                o.put("last", Instant.ofEpochSecond(0L, start[k]).toString());
                o.put("link_speed_mbps", mbps[i]);
            }
        }
    }
}
