/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.session;

/**
 * The lifecycle of a session as seen from one switch (see package documentation): the CM states
 * of a session learnt from CM messages, and ACTIVE / IDLE for one learnt from sampled data.
 */
public enum SessionState {
    REQ_SENT,
    REP_SENT,
    ESTABLISHED,
    REJECTED,
    DISCONNECTING,
    CLOSED,
    TIMED_OUT,
    /** A data-learned session or flow whose sampled packets keep coming. */
    ACTIVE,
    /** A data-learned session or flow without a sampled packet for the data idle time. */
    IDLE;

    private static final SessionState[] VALUES = values();

    static SessionState ofOrdinal(final int ordinal) {
        return VALUES[ordinal];
    }

    /** True for the states after which only retention matters (CLOSED, REJECTED, TIMED_OUT). */
    public boolean isFinished() {
        return this == CLOSED || this == REJECTED || this == TIMED_OUT;
    }
}
