/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Frames of several ports reach the decoder in capture-time order: on a switch a REQ enters an
 * uplink and, 3 ms later, its REP enters the host port, yet libpcap may hand the uplink's frame
 * over up to its read timeout later. Found in the lab fabric: leaves took the REP first, and the
 * late REQ started the session over.
 */
class CaptureGroupOrderTest {
    /** A source that captures nothing by itself: the test fills its ring. */
    private static final class Fake extends CaptureSource {
        private final long bound;
        private boolean done;

        Fake(final String name, final long bound) {
            super(name, new FrameRing(64, 64));
            this.bound = bound;
        }

        @Override
        public long deliveryBoundMicros() {
            return bound;
        }

        @Override
        public boolean exhausted() {
            return done;
        }

        @Override
        protected void capture() {
            // nothing: frames are offered by the test
        }

        @Override
        protected void wakeUp() {
            // nothing waits
        }

        void frame(final long ts) {
            ring().offer(new byte[] {(byte) ts}, 1, ts);
        }
    }

    private final List<String> seen = new ArrayList<>();
    private final FrameSink sink = (buf, off, len, ts, ifIndex) -> seen.add(ifIndex + "@" + ts);

    @Test
    void framesOfSeveralPortsGoInCaptureTimeOrder() {
        final var host = new Fake("swp1", 130_000);
        final var uplink = new Fake("swp3", 130_000);
        final var group = new CaptureGroup(List.of(host, uplink));
        host.frame(3_000);      // the REP, handed over first
        uplink.frame(1_000);    // the REQ it answers
        host.frame(9_000);
        uplink.frame(5_000);
        assertEquals(4, group.drainInTimeOrder(sink, 100, 10_000_000, false));
        assertEquals(List.of("1@1000", "0@3000", "1@5000", "0@9000"), seen);
    }

    @Test
    void aFrameWaitsWhileAQuietPortCouldStillDeliverAnEarlierOne() {
        final var host = new Fake("swp1", 130_000);
        final var uplink = new Fake("swp3", 130_000);
        final var group = new CaptureGroup(List.of(host, uplink));
        host.frame(1_000_000);
        // 100 ms later the uplink could still hand over a frame from before it
        assertEquals(0, group.drainInTimeOrder(sink, 100, 1_100_000, false));
        uplink.frame(999_000);
        // the earlier frame goes; the later still waits, the uplink being quiet again
        assertEquals(1, group.drainInTimeOrder(sink, 100, 1_100_000, false));
        assertEquals(List.of("1@999000"), seen);
        // past the bound it goes
        assertEquals(1, group.drainInTimeOrder(sink, 100, 1_131_000, false));
        assertEquals(List.of("1@999000", "0@1000000"), seen);
    }

    @Test
    void aFileWaitsForTheOtherFilesUnlessTheyEnded() {
        final var a = new Fake("swp1", Long.MAX_VALUE);
        final var b = new Fake("swp2", Long.MAX_VALUE);
        final var group = new CaptureGroup(List.of(a, b));
        a.frame(5);
        assertEquals(0, group.drainInTimeOrder(sink, 100, Long.MAX_VALUE - 1, false));
        b.done = true;
        assertEquals(1, group.drainInTimeOrder(sink, 100, 0, false));
    }

    @Test
    void aRingHalfFullIsDrainedRatherThanRiskADrop() {
        final var busy = new Fake("swp1", 130_000);
        final var quiet = new Fake("swp2", 130_000);
        final var group = new CaptureGroup(List.of(busy, quiet));
        for (int i = 0; i < 40; i++) {
            busy.frame(1_000_000 + i);
        }
        assertEquals(9, group.drainInTimeOrder(sink, 100, 1_000_100, false),
            "frames go until the ring is below half full");
    }
}
