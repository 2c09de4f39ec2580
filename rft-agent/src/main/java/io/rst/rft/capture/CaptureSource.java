/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.capture;

import edu.umd.cs.findbugs.annotations.SuppressFBWarnings;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.jdt.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One source of frames (an interface, or a pcap file being replayed) with its own thread and its
 * own {@link FrameRing}. The thread only reads from libpcap and copies into the ring; it never
 * waits on the consumer. Counters are written by the source's thread and read by anyone.
 */
@SuppressFBWarnings(value = { "NP_NONNULL_FIELD_NOT_INITIALIZED_IN_CONSTRUCTOR", "NP_STORE_INTO_NONNULL_FIELD" },
    justification = "SpotBugs reads no TYPE_USE @Nullable on fields: these fields are @Nullable")
public abstract class CaptureSource {
    private static final Logger LOG = LoggerFactory.getLogger(CaptureSource.class);

    private final String name;
    private final FrameRing ring;
    private final AtomicLong packets = new AtomicLong();
    private final AtomicLong kernelDrops = new AtomicLong();
    private final AtomicLong interfaceDrops = new AtomicLong();
    private volatile @Nullable String error;
    private volatile boolean running;
    private @Nullable Thread thread;

    protected CaptureSource(final String name, final FrameRing ring) {
        this.name = name;
        this.ring = ring;
    }

    /** The name that frames of this source carry as their ingress port. */
    public final String name() {
        return name;
    }

    public final FrameRing ring() {
        return ring;
    }

    /** Frames read from libpcap (handed to the ring or dropped there). */
    public final long packets() {
        return packets.get();
    }

    /** Frames the kernel dropped because the capture buffer was full (libpcap ps_drop). */
    public final long kernelDrops() {
        return kernelDrops.get();
    }

    /** Frames the interface dropped (libpcap ps_ifdrop). */
    public final long interfaceDrops() {
        return interfaceDrops.get();
    }

    /** The last error that stopped or prevented capture, or null. */
    public final String error() {
        return error;
    }

    public final boolean isRunning() {
        return running;
    }

    /** Starts the thread; does nothing if already running. */
    public final synchronized void start() {
        if (thread != null) {
            return;
        }
        error = null;
        running = true;
        final Thread t = new Thread(this::runLoop, "capture-" + name);
        t.setDaemon(true);
        thread = t;
        t.start();
    }

    /** Stops the thread and waits for it; idempotent. */
    public final synchronized void stop() {
        final Thread t = thread;
        if (t == null) {
            return;
        }
        running = false;
        wakeUp();
        try {
            t.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (t.isAlive()) {
            LOG.warn("capture thread {} did not stop within 5 s", t.getName());
        }
        thread = null;
    }

    @SuppressWarnings("checkstyle:IllegalCatch") // the capture thread's last resort
    private void runLoop() {
        try {
            capture();
        } catch (RuntimeException | Error e) {
            // a capture library failure ends this source only; it is reported in the status
            error = String.valueOf(e);
            LOG.error("capture on {} failed", name, e);
        } finally {
            running = false;
        }
    }

    /** Whether the capture loop should keep going. */
    protected final boolean keepRunning() {
        return running;
    }

    /** Records the reason capture stopped or could not start. */
    protected final void setError(final String message) {
        error = message;
    }

    /** Publishes the packet count (single writer: the source's thread). */
    protected final void publishPackets(final long count) {
        packets.lazySet(count);
    }

    /** Publishes libpcap's cumulative drop counters. */
    protected final void publishDrops(final long kernel, final long iface) {
        kernelDrops.lazySet(kernel);
        interfaceDrops.lazySet(iface);
    }

    /**
     * How long after its capture time a frame may still reach the ring, in microseconds, or
     * {@link Long#MAX_VALUE} when there is no bound (a file is read as fast as it is consumed:
     * its frames' times say nothing of when they arrive). Frames of several sources are handed on
     * in capture-time order once no source can still deliver an earlier one.
     */
    public long deliveryBoundMicros() {
        return Long.MAX_VALUE;
    }

    /**
     * The interface's MAC address as lower-case colon-separated hex, read once when capture
     * starts, or null when unknown (a replayed file, an interface without one).
     */
    public @Nullable String mac() {
        return null;
    }

    /** True when the source will deliver no more frames (a file read to its end, a stopped source). */
    public boolean exhausted() {
        return !running;
    }

    /** The capture loop; returns when {@link #keepRunning()} turns false or the source ends. */
    protected abstract void capture();

    /** Makes a blocked {@link #capture()} return soon; called from another thread. */
    protected abstract void wakeUp();
}
