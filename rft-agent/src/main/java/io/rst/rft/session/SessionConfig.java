/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.session;

/**
 * Settings of a {@link SessionTable}.
 *
 * @param maxSessions the most sessions held; beyond, the session that finished first is evicted,
 *        or with none finished the least recently updated
 * @param retentionMicros how long a finished (CLOSED, REJECTED, TIMED_OUT) session stays after
 *        its last message, in microseconds
 * @param minCmTimeoutMicros floor under the CM response timeout a REQ (or MRA) carries: a REQ
 *        times out after max(its timeout, this floor) without an answer
 * @param maxMessagesPerSession messages kept per session (REQ retries beyond are counted only)
 */
public record SessionConfig(int maxSessions, long retentionMicros, long minCmTimeoutMicros,
        int maxMessagesPerSession) {
    /** 1M sessions, 10 minutes of retention, no timeout floor, 32 messages per session. */
    public static final SessionConfig DEFAULT = new SessionConfig(1 << 20, 600_000_000L, 0L, 32);

    public SessionConfig {
        if (maxSessions < 1) {
            throw new IllegalArgumentException("maxSessions must be positive: " + maxSessions);
        }
        if (retentionMicros < 0 || minCmTimeoutMicros < 0) {
            throw new IllegalArgumentException("times must not be negative");
        }
        if (maxMessagesPerSession < 1 || maxMessagesPerSession > 4096) {
            throw new IllegalArgumentException("maxMessagesPerSession out of 1..4096: " + maxMessagesPerSession);
        }
    }
}
