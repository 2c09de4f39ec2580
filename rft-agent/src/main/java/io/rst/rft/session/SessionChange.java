/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.session;

/** Why a {@link SessionListener} is called. */
public enum SessionChange {
    /** The first message of a session was seen. */
    CREATED,
    /** A message was added to the session (its state may have changed). */
    UPDATED,
    /** A REQ got no answer within its CM response timeout: the state is now TIMED_OUT. */
    TIMED_OUT,
    /** A finished session outlived the retention time and left the table. */
    EXPIRED,
    /** The table was full and this, its least recently updated session, was dropped. */
    EVICTED,
    /**
     * A data-learned record left because what it described is now another record's: two one-way
     * flows paired into a session, a QP pair taken over by a CM session, a QP pair seen again
     * after it was idle (a new session under the same id).
     */
    REPLACED
}
