/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rst.rft.decode.JsonBytes;
import io.rst.rft.session.SessionBinary;
import java.io.IOException;
import java.io.OutputStream;

/**
 * What the decode thread does with each frame: decode it and keep the session table. Owned by,
 * and only ever called on, the decode thread (or before it starts, or after it stopped), so an
 * implementation needs no locking.
 */
public interface FrameProcessor {
    /** Where a processor reports session changes; each call becomes one event. */
    interface SessionEvents {
        /** A session's new state as an immutable, Jackson-serialisable record (slow path). */
        void onSession(Object record, long timeMicros);

        /**
         * A session's new state already written as one JSON object (ASCII); the buffer is only
         * read during the call. The fast path: no record, no Jackson.
         */
        void onSessionJson(JsonBytes session, long timeMicros);

        /**
         * The same, with the session's binary record for the write-ahead log (read only during the
         * call; null when not asked for with {@link FrameProcessor#recordBinary()}).
         */
        default void onSessionJson(final JsonBytes session, final SessionBinary wal, final long timeMicros) {
            onSessionJson(session, timeMicros);
        }
    }

    /** One frame; the buffer is reused after the call returns. */
    void onFrame(byte[] buf, int off, int len, long tsMicros, String ingressPort);

    /**
     * Called after each batch of frames, before anything else runs on the decode thread
     * (snapshots, status): a processor that coalesces changes reports them here.
     */
    default void endBatch() {
        // nothing pending by default
    }

    /** Ages sessions out; called about once a second with the wall clock. */
    void expire(long nowMicros);


    /**
     * Puts back a session saved before a restart (a record as {@link #sessionsJson} writes
     * it), replacing any with the same identity.
     *
     * @return whether it was taken
     */
    boolean restore(JsonNode record);

    /** Writes every live session as one JSON object per line (the state saved at shutdown). */
    void writeSessions(OutputStream out) throws IOException;

    /**
     * Adds this processor's counters to the status {@code counters} object: {@code cm_mads},
     * {@code data_packets}, {@code skipped} (reason to count), {@code sessions_live},
     * {@code evictions}, {@code restored_sessions}; with data sampling the {@code data_*} ones too
     * ({@code data_flows}, {@code data_sessions}, {@code data_one_way}, {@code data_flows_evicted},
     * {@code data_pair_ambiguous}, {@code data_bth_rejected} ...); with congestion counting
     * {@code cnps}, {@code cnp_unmatched}, {@code pfc_frames}, {@code pfc_untabled}; with LLDP
     * {@code lldp_frames}, {@code lldp_malformed}, {@code lldp_neighbours} ...
     */
    void addCounters(ObjectNode counters);

    /**
     * Adds this processor's own top-level status fields (the PFC table, {@code pfc}; the LLDP
     * neighbours, {@code lldp}); none by default.
     */
    default void addStatus(final ObjectNode status) {
        // nothing beyond the counters by default
    }

    /**
     * Opaque handles of the table's sessions, in snapshot order, for {@link #sessionsJson}; on
     * the decode thread.
     */
    Object[] sessionHandles();

    /**
     * The same handles in any order (a checkpoint needs none): by default {@link #sessionHandles()};
     * on the decode thread.
     */
    default Object[] checkpointHandles() {
        return sessionHandles();
    }

    /**
     * Sessions in the table, read from any thread (a value a moment old is good enough: it sizes
     * the next checkpoint).
     */
    default int liveSessions() {
        return 0;
    }

    /** Has each session event also carry its binary record (for the write-ahead log). */
    default void recordBinary() {
        // no binary records by default
    }

    /**
     * Reads a binary record of the write-ahead log: its session's JSON into {@code json} and, when
     * {@code apply}, the session back into the table (or out, if the record says removed); on the
     * decode thread or before it starts.
     *
     * @return false when the record is damaged or refused
     */
    default boolean restoreBinary(final byte[] record, final int off, final int len, final boolean apply,
            final JsonBytes json) {
        return false;
    }

    /**
     * Writes the sessions of {@code handles[from, to)} still in the table, as JSON objects
     * separated by commas, to {@code out}; on the decode thread.
     *
     * @return the number of sessions written
     */
    default int sessionsJson(final Object[] handles, final int from, final int to,
            final com.fasterxml.jackson.databind.ObjectMapper mapper, final java.io.ByteArrayOutputStream out)
            throws IOException {
        int written = 0;
        for (int i = from; i < to; i++) {
            final Object h = handles[i];
            handles[i] = null;
            if (h == null) {
                continue;
            }
            if (written++ > 0) {
                out.write(',');
            }
            mapper.writeValue(out, h);
        }
        return written;
    }
}
