/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.manager;

import java.time.Duration;

/**
 * Whether a switch's agent is dropping captured frames, from the counters its status reports at
 * each probe. The counters run from the agent's start, so drops it had before the controller
 * first saw it say nothing of now: the agent is dropping when a count grew between two probes,
 * and stops being so after {@link #QUIET} without growth. Confined to the tracker's thread.
 */
final class CaptureDrops {
    /** Without growth for this long, the agent is no longer dropping. */
    static final Duration QUIET = Duration.ofMinutes(1);

    private final long quietMillis;
    private boolean known;
    private long kernel;
    private long queue;
    private long sinceMillis;
    private long lastMillis;

    CaptureDrops() {
        this(QUIET);
    }

    CaptureDrops(final Duration quiet) {
        quietMillis = quiet.toMillis();
    }

    /** What the agent's status said at {@code nowMillis}. */
    void update(final long kernelDrops, final long queueDrops, final long nowMillis) {
        final long before = kernel + queue;
        final long total = kernelDrops + queueDrops;
        // a count lower than before: the agent restarted and counts from 0 again
        final long base = total < before ? 0 : before;
        if (known && total > base) {
            if (sinceMillis == 0) {
                sinceMillis = nowMillis;
            }
            lastMillis = nowMillis;
        } else if (sinceMillis != 0 && nowMillis - lastMillis >= quietMillis) {
            sinceMillis = 0;
        }
        known = true;
        kernel = kernelDrops;
        queue = queueDrops;
    }

    /** Whether the agent has reported its counters. */
    boolean known() {
        return known;
    }

    long kernel() {
        return kernel;
    }

    long queue() {
        return queue;
    }

    long total() {
        return kernel + queue;
    }

    /** Since when the agent is dropping (millis), 0 when it is not. */
    long sinceMillis() {
        return sinceMillis;
    }

    /** When a probe last found the count grown (millis), 0 if never. */
    long lastMillis() {
        return lastMillis;
    }
}
