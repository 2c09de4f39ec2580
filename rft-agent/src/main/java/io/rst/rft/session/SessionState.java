/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.session;

/** The lifecycle of a CM session as seen from one switch (see package documentation). */
public enum SessionState {
    REQ_SENT,
    REP_SENT,
    ESTABLISHED,
    REJECTED,
    DISCONNECTING,
    CLOSED,
    TIMED_OUT;

    private static final SessionState[] VALUES = values();

    static SessionState ofOrdinal(final int ordinal) {
        return VALUES[ordinal];
    }

    /** True for the states after which only retention matters (CLOSED, REJECTED, TIMED_OUT). */
    public boolean isFinished() {
        return this == CLOSED || this == REJECTED || this == TIMED_OUT;
    }
}
