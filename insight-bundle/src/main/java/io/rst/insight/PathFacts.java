/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.insight;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import org.eclipse.jdt.annotation.Nullable;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.LearnedFrom;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.Direction;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.rpt.Path;

/**
 * What the detectors and metrics need of one session's path: the switches of each direction in
 * order, whether each direction is complete, and whether the two are asymmetric. A CM session's
 * directions are its CM paths; a data-learned session's, its data paths (it has no CM), and a
 * one-way flow's, its one data path (no reverse, which is then taken as complete: nobody knows it).
 *
 * @param learnedData whether the session was learnt from data packets
 * @param oneWay whether it is a one-way flow
 */
record PathFacts(String sessionId, @Nullable String requesterIp, @Nullable String responderIp, List<String> forward,
        List<String> reverse, boolean forwardComplete, boolean reverseComplete, boolean asymmetric,
        List<String> dataApart, boolean learnedData, boolean oneWay) {

    PathFacts {
        requireNonNull(sessionId);
        forward = List.copyOf(forward);
        reverse = List.copyOf(reverse);
        dataApart = List.copyOf(dataApart);
    }

    /** A CM session's path. */
    PathFacts(final String sessionId, final @Nullable String requesterIp, final @Nullable String responderIp,
            final List<String> forward, final List<String> reverse, final boolean forwardComplete,
            final boolean reverseComplete, final boolean asymmetric, final List<String> dataApart) {
        this(sessionId, requesterIp, responderIp, forward, reverse, forwardComplete, reverseComplete, asymmetric,
            dataApart, false, false);
    }

    static PathFacts of(final Path path) {
        final boolean data = path.getLearnedFrom() == LearnedFrom.Data;
        final boolean oneWay = data && Boolean.TRUE.equals(path.getOneWay());
        final Direction forward = data ? path.getDataForward() : path.getForward();
        final Direction reverse = data ? path.getDataReverse() : path.getReverse();
        return new PathFacts(path.getSessionId(),
            path.getRequesterIp() == null ? null : path.getRequesterIp().stringValue(),
            path.getResponderIp() == null ? null : path.getResponderIp().stringValue(),
            nodes(forward), nodes(reverse), complete(forward), oneWay || complete(reverse),
            Boolean.TRUE.equals(path.getAsymmetric()),
            // where data and CM part: the rpt's anomalies that say so
            Boolean.TRUE.equals(path.getDataPathDiffers()) && path.getAnomaly() != null
                ? path.getAnomaly().stream().filter(a -> a.contains(" data ")).sorted().toList() : List.of(),
            data, oneWay);
    }

    boolean complete() {
        return forwardComplete && reverseComplete;
    }

    private static boolean complete(final @Nullable Direction direction) {
        return direction != null && Boolean.TRUE.equals(direction.getComplete());
    }

    /** Where its session was learnt from, as a problem says it ({@link Problem#learnedFrom()}). */
    String learnedFrom() {
        return learnedData ? Problem.DATA : Problem.CM;
    }

    /**
     * Whether this path, compared with the one before, changed a switch rather than only grew:
     * a direction that had switches and now has others. A path that appears, or a direction that
     * gains its first switches (a table arriving late), is not a change of path.
     */
    boolean replaces(final PathFacts before) {
        return changed(before.forward, forward) || changed(before.reverse, reverse);
    }

    private static boolean changed(final List<String> before, final List<String> after) {
        return !before.isEmpty() && !after.isEmpty() && !before.equals(after) && !grew(before, after);
    }

    /** The same switches with more observed around them (a gap filled): not a new route. */
    private static boolean grew(final List<String> before, final List<String> after) {
        if (after.size() <= before.size()) {
            return false;
        }
        // before is a subsequence of after: the old switches kept, in order, with others added
        int matched = 0;
        for (var node : after) {
            if (matched < before.size() && node.equals(before.get(matched))) {
                matched++;
            }
        }
        return matched == before.size();
    }

    private static List<String> nodes(final @Nullable Direction direction) {
        final var out = new ArrayList<String>();
        if (direction != null && direction.getHop() != null) {
            for (var hop : direction.getHop()) {
                if (hop.getNodeId() != null) {
                    out.add(hop.getNodeId().getValue());
                }
            }
        }
        return out;
    }
}
