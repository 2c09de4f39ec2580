/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.agent;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * What the decode thread does with each frame: decode it and keep the session table. Owned by,
 * and only ever called on, the decode thread, so an implementation needs no locking.
 */
public interface FrameProcessor {
    /** Called on every change of a session, with its new immutable, Jackson-serialisable record. */
    @FunctionalInterface
    interface SessionEvents {
        void onSession(String sessionId, Object record, long timeMicros);
    }

    /** One frame; the buffer is reused after the call returns. */
    void onFrame(byte[] buf, int off, int len, long tsMicros, String ingressPort);

    /** Ages sessions out; called about once a second with the wall clock. */
    void expire(long nowMicros);

    /** The live sessions' immutable records. */
    List<?> sessions();

    /**
     * Adds this processor's counters to the status {@code counters} object: {@code cm_mads},
     * {@code data_packets}, {@code skipped} (reason to count), {@code sessions_live},
     * {@code evictions}.
     */
    void addCounters(ObjectNode counters);
}
