/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.insight;

import static java.util.Objects.requireNonNull;

import org.eclipse.jdt.annotation.Nullable;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.insight.rev261201.ProblemKind;

/**
 * What failed in one session, judged from every switch's view of it: the kind, the cause in
 * words, and the place that tells where to look (for a REJ the switch and port where it entered the
 * fabric, for an unanswered message the last switch that saw it on its way).
 *
 * @param rejectReason the REJ's reason code, or -1
 * @param time when, seconds since the epoch (the session's last CM message), NaN when unknown
 * @param failed true when the session was rejected or timed out (a switch said so), false for a
 *     DREQ still unanswered after the half-closed delay (it may yet be answered)
 */
record Verdict(ProblemKind kind, String reason, int rejectReason, @Nullable String node, @Nullable String tp,
        @Nullable String requesterIp, @Nullable String responderIp, double time, boolean failed) {

    Verdict {
        requireNonNull(kind);
        requireNonNull(reason);
    }
}
