/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.agent;

import edu.umd.cs.findbugs.annotations.SuppressFBWarnings;
import io.rst.rft.capture.CaptureGroup;
import io.rst.rft.capture.FrameSink;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import org.eclipse.jdt.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The decode thread: drains the capture rings into the {@link FrameProcessor}, which it owns, and
 * runs tasks that other threads submit ({@link #call}) between batches, so that snapshots of the
 * table are taken without locks and are consistent with the event log's sequence numbers.
 */
@SuppressFBWarnings(value = { "NP_NONNULL_FIELD_NOT_INITIALIZED_IN_CONSTRUCTOR", "NP_STORE_INTO_NONNULL_FIELD" },
    justification = "SpotBugs reads no TYPE_USE @Nullable on fields: these fields are @Nullable")
final class DecodeLoop implements FrameSink {
    private static final Logger LOG = LoggerFactory.getLogger(DecodeLoop.class);
    private static final int BATCH = 512;
    private static final long TICK_NANOS = 1_000_000_000L;
    /** The longest sleep of a caught-up decode thread: 5 ms, at most 200 wake-ups a second. */
    private static final long IDLE_PARK_NANOS = 5_000_000L;

    private final CaptureGroup capture;
    private final FrameProcessor processor;
    private final String[] portNames;
    private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final AtomicLong frames = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private volatile boolean running;
    private volatile @Nullable Thread thread;
    private long frameCount;
    private final long holdNanos;
    /** Expiry runs on the capture's clock (replayed files) rather than the wall clock. */
    private final boolean captureClock;
    /** The latest capture time handed to the processor, microseconds; MIN_VALUE before the first frame. */
    private long captureMicros = Long.MIN_VALUE;
    /** When (System.nanoTime) that frame was handed over: the capture's clock runs on from there. */
    private long captureAtNanos;

    /**
     * A loop whose session changes become events at most {@code holdMillis} after the first of
     * them: a set-up (REQ, REP, RTU, the first data packets, within milliseconds of each other)
     * is then one event rather than one per decode batch, for the agent's log and stream and for
     * every client that applies them. 0: each batch's changes at the batch's end.
     */
    DecodeLoop(final CaptureGroup capture, final FrameProcessor processor, final int holdMillis) {
        this(capture, processor, holdMillis, false);
    }

    /**
     * The same, and with {@code captureClock} sessions age on the capture's clock instead of the
     * wall clock: the latest frame's time, running on at the wall clock's pace from when that frame
     * was handed over. A replayed file recorded an hour ago would otherwise see every finished
     * session past its retention, and every waiting one past its deadline, as soon as it is read;
     * so its sessions age as they did after the capture, from its last frame on. Before the first
     * frame nothing ages.
     */
    DecodeLoop(final CaptureGroup capture, final FrameProcessor processor, final int holdMillis,
            final boolean captureClock) {
        this.captureClock = captureClock;
        this.capture = capture;
        this.processor = processor;
        this.holdNanos = holdMillis * 1_000_000L;
        portNames = new String[capture.sources().size()];
        for (int i = 0; i < portNames.length; i++) {
            portNames[i] = capture.portName(i);
        }
    }

    /** Frames handed to the processor. */
    long frames() {
        return frames.get();
    }

    /** Frames whose processing threw (a bug in a decoder; counted, the thread goes on). */
    long failures() {
        return failures.get();
    }

    synchronized void start() {
        if (thread != null) {
            return;
        }
        running = true;
        final Thread t = new Thread(this::run, "decode");
        // Without its decode thread the agent would answer its API yet see nothing: an Error there
        // (out of memory, say) ends the process with status 70, so that its supervisor restarts it
        // and clients resume from the persisted event log.
        t.setUncaughtExceptionHandler((dead, e) -> {
            LOG.error("the decode thread died; the agent exits (status 70) to be restarted", e);
            Runtime.getRuntime().halt(70);
        });
        t.setDaemon(true);
        thread = t;
        t.start();
    }

    /** Stops after draining what the rings hold; idempotent. */
    synchronized void stop() {
        final Thread t = thread;
        if (t == null) {
            return;
        }
        running = false;
        LockSupport.unpark(t);
        try {
            t.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        thread = null;
    }

    /**
     * Runs {@code task} on the decode thread; if the thread is not running, runs it here (the
     * processor then has no other user).
     */
    @SuppressWarnings("checkstyle:IllegalCatch") // whatever the task throws goes to its future, not to the decode loop
    <T> CompletableFuture<T> call(final Supplier<T> task) {
        final CompletableFuture<T> f = new CompletableFuture<>();
        final Runnable r = () -> {
            try {
                f.complete(task.get());
            } catch (RuntimeException e) {
                f.completeExceptionally(e);
            }
        };
        final Thread t = thread;
        if (t == null) {
            synchronized (this) {
                if (thread == null) {
                    r.run();
                    return f;
                }
            }
        }
        tasks.add(r);
        LockSupport.unpark(thread);
        return f;
    }

    private void run() {
        long nextTick = System.nanoTime() + TICK_NANOS;
        // changes made by batches not yet reported, and when they must be at the latest
        boolean unreported = false;
        long reportBy = 0;
        while (running) {
            final int n = capture.drainInTimeOrder(this, BATCH * portNames.length, System.currentTimeMillis() * 1000L,
                false);
            if (n > 0 && !unreported) {
                unreported = true;
                reportBy = System.nanoTime() + holdNanos;
            }
            if (unreported && System.nanoTime() - reportBy >= 0) {
                endBatch();
                unreported = false;
            }
            runTasks();
            final long now = System.nanoTime();
            if (now - nextTick >= 0) {
                nextTick = now + TICK_NANOS;
                tick();
            }
            if (n == 0) {
                // Caught up. libpcap hands frames over a kernel block at a time (up to its read
                // timeout apart), so frames come in bursts: sleep until the next is likely, up to
                // IDLE_PARK_NANOS, but never past a hold's end or the next tick. Each wake-up is a
                // context switch, dear on a virtual machine (docs/benchmarks.md, "The whole
                // system: ./rst bench lab"); the
                // rings hold far more than a sleep's worth of frames, and submitted tasks and
                // stop() wake the thread at once.
                long wait = Math.min(IDLE_PARK_NANOS, nextTick - now);
                if (unreported) {
                    wait = Math.min(wait, reportBy - now);
                }
                if (wait > 0) {
                    LockSupport.parkNanos(wait);
                }
            }
        }
        if (unreported) {
            endBatch();
        }
        while (capture.drainInTimeOrder(this, BATCH * portNames.length, Long.MAX_VALUE, true) > 0) {
            // what was captured before stop still counts
            endBatch();
        }
        runTasks();
    }

    @SuppressWarnings("checkstyle:IllegalCatch") // a failed report costs the batch's report, not the decode thread
    private void endBatch() {
        try {
            processor.endBatch();
        } catch (RuntimeException e) {
            if (failures.getAndIncrement() < 10) {
                LOG.error("reporting the session changes of a batch failed", e);
            }
        }
    }

    // a failed expiry is logged and tried again at the next tick, not the end of the decode thread
    @SuppressWarnings("checkstyle:IllegalCatch")
    private void tick() {
        final long now;
        if (captureClock) {
            if (captureMicros == Long.MIN_VALUE) {
                return;
            }
            now = captureMicros + (System.nanoTime() - captureAtNanos) / 1000L;
        } else {
            now = System.currentTimeMillis() * 1000L;
        }
        try {
            processor.expire(now);
        } catch (RuntimeException e) {
            LOG.error("session expiry failed", e);
        }
    }

    private void runTasks() {
        for (Runnable r = tasks.poll(); r != null; r = tasks.poll()) {
            r.run();
        }
    }

    // the decoder must not throw on bad input; if it does, one frame is lost, not the decode thread
    @Override
    @SuppressWarnings("checkstyle:IllegalCatch")
    public void onFrame(final byte[] buf, final int off, final int len, final long tsMicros, final int ifIndex) {
        frameCount++;
        frames.lazySet(frameCount);
        if (captureClock && tsMicros > captureMicros) {
            captureMicros = tsMicros;
            captureAtNanos = System.nanoTime();
        }
        try {
            processor.onFrame(buf, off, len, tsMicros, portNames[ifIndex]);
        } catch (RuntimeException e) {
            // the decoder must not throw on bad input; if it does, one frame is lost, not the agent
            if (failures.getAndIncrement() < 10) {
                LOG.error("frame {} on {} broke the decoder", frameCount, portNames[ifIndex], e);
            }
        }
    }
}
