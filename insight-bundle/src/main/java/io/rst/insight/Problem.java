/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.insight;

import static java.util.Objects.requireNonNull;

import edu.umd.cs.findbugs.annotations.SuppressFBWarnings;
import java.util.List;
import org.eclipse.jdt.annotation.Nullable;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.insight.rev261201.ProblemKind;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.insight.rev261201.Severity;

/**
 * One problem group: a kind, a cause and a place, with how many sessions (or set-ups, or agents)
 * it covers and some of them by name.
 *
 * @param node the switch where it shows, if any
 * @param tp the port of that switch where the telling message entered, if known
 * @param rejectReason the REJ's reason code, or -1
 * @param firstSeen seconds since the epoch, NaN when unknown
 * @param places every switch (and port) it concerns, for the per-switch and per-port counts
 * @param learnedFrom for a problem about sessions, where they were learnt from ("cm" or "data",
 *        rdma-flow-table's learned-from): all of a problem's the same; null for agents' problems
 * @param direction for congested, the direction of the data ("data-forward" or "data-reverse"), else null
 * @param priority for the PFC problems, the paused priority; else -1
 * @param peer for pfc-deadlock-suspect, the other end of the link; else null
 * @param heldUp for the PFC problems, the sessions whose data the pause holds up; else -1
 */
@SuppressFBWarnings(value = "NP_STORE_INTO_NONNULL_FIELD",
    justification = "learnedFrom, direction and peer are @Nullable: SpotBugs reads no TYPE_USE @Nullable on fields")
record Problem(String id, ProblemKind kind, Severity severity, String title, String detail, @Nullable String node,
        @Nullable String tp, int rejectReason, @Nullable String reason, @Nullable String requesterIp,
        @Nullable String responderIp, int count, double firstSeen, double lastSeen, List<String> sessions,
        List<Place> places, @Nullable String learnedFrom, @Nullable String direction, int priority,
        @Nullable Place peer, long heldUp) {

    /** Sessions learnt from CM messages. */
    static final String CM = "cm";
    /** Sessions learnt from data packets. */
    static final String DATA = "data";
    /** The requester's data (rdma-path-table's data-forward). */
    static final String FORWARD = "data-forward";
    /** The responder's data (rdma-path-table's data-reverse). */
    static final String REVERSE = "data-reverse";

    /** A switch, or one port of it. */
    record Place(String node, @Nullable String tp) {
        Place {
            requireNonNull(node);
        }
    }

    Problem {
        requireNonNull(id);
        requireNonNull(kind);
        requireNonNull(severity);
        requireNonNull(title);
        requireNonNull(detail);
        if (count < 1) {
            throw new IllegalArgumentException("a problem covers at least one thing, not " + count);
        }
        sessions = List.copyOf(sessions);
        places = List.copyOf(places);
        if (learnedFrom != null && !CM.equals(learnedFrom) && !DATA.equals(learnedFrom)) {
            throw new IllegalArgumentException("learnt from cm or data, not " + learnedFrom);
        }
        if (direction != null && !FORWARD.equals(direction) && !REVERSE.equals(direction)) {
            throw new IllegalArgumentException("data-forward or data-reverse, not " + direction);
        }
        if (priority < -1 || priority > 7) {
            throw new IllegalArgumentException("a priority from 0 to 7, not " + priority);
        }
    }

    /** A problem that is not about congestion, its sessions learnt as {@code learnedFrom} says. */
    @SuppressWarnings("checkstyle:ParameterNumber")
    Problem(final String id, final ProblemKind kind, final Severity severity, final String title, final String detail,
            final @Nullable String node, final @Nullable String tp, final int rejectReason,
            final @Nullable String reason, final @Nullable String requesterIp, final @Nullable String responderIp,
            final int count, final double firstSeen, final double lastSeen, final List<String> sessions,
            final List<Place> places, final @Nullable String learnedFrom) {
        this(id, kind, severity, title, detail, node, tp, rejectReason, reason, requesterIp, responderIp, count,
            firstSeen, lastSeen, sessions, places, learnedFrom, null, -1, null, -1);
    }

    /** A problem about no sessions (an agent's), or whose sessions' origin is not said. */
    @SuppressWarnings("checkstyle:ParameterNumber")
    Problem(final String id, final ProblemKind kind, final Severity severity, final String title, final String detail,
            final @Nullable String node, final @Nullable String tp, final int rejectReason,
            final @Nullable String reason, final @Nullable String requesterIp, final @Nullable String responderIp,
            final int count, final double firstSeen, final double lastSeen, final List<String> sessions,
            final List<Place> places) {
        this(id, kind, severity, title, detail, node, tp, rejectReason, reason, requesterIp, responderIp, count,
            firstSeen, lastSeen, sessions, places, null);
    }
}
