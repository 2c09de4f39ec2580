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
import org.opendaylight.yangtools.yang.common.Uint64;

/**
 * What the detectors and metrics need of one session's path: the switches of each direction in
 * order, whether each direction is complete, and whether the two are asymmetric. A CM session's
 * directions are its CM paths; a data-learned session's, its data paths (it has no CM), and a
 * one-way flow's, its one data path (no reverse, which is then taken as complete: nobody knows it).
 *
 * <p>Beside them, for a path whose data is sampled, each data direction's congestion figures
 * ({@link Ecn}): what the congested detector and the per-port ECN metrics read.
 *
 * @param learnedData whether the session was learnt from data packets
 * @param oneWay whether it is a one-way flow
 * @param dataForwardEcn data-forward's congestion figures, or null where it has none
 * @param dataReverseEcn data-reverse's, or null
 */
record PathFacts(String sessionId, @Nullable String requesterIp, @Nullable String responderIp, List<String> forward,
        List<String> reverse, boolean forwardComplete, boolean reverseComplete, boolean asymmetric,
        List<String> dataApart, boolean learnedData, boolean oneWay, @Nullable Ecn dataForwardEcn,
        @Nullable Ecn dataReverseEcn) {

    /**
     * One hop's congestion figures as the path table carries them, -1 for each it does not.
     *
     * @param tp the port the data entered the switch by (ingress-tp), or null
     */
    record HopFigures(String node, @Nullable String tp, long ect, long ce, long cnp) {
        HopFigures {
            requireNonNull(node);
        }
    }

    /**
     * A data direction's congestion figures (rdma-path-table's direction leaves).
     *
     * @param ceShare the CE share at the last hop that reported ECN figures, NaN where absent
     * @param cePackets the CE-marked sampled packets at that hop, -1 where absent
     * @param cnpPackets the most CNPs any switch saw about the direction's data, -1 where absent
     * @param ectPackets the most ECN-capable sampled packets any hop reported, -1 where none did
     * @param marked whether the direction has a marked-at (a hop saw CE)
     * @param markedNode marked-at's node-id: the node whose egress marked, or null
     * @param markedTp marked-at's egress-tp, or null
     * @param nextNode marked-at's next-node-id, the first hop that saw CE, or null
     * @param nextTp marked-at's next-ingress-tp, or null
     * @param certain marked-at's certain
     * @param hops the hops that reported a figure, in path order
     */
    record Ecn(double ceShare, long cePackets, long cnpPackets, long ectPackets, boolean marked,
            @Nullable String markedNode, @Nullable String markedTp, @Nullable String nextNode,
            @Nullable String nextTp, boolean certain, List<HopFigures> hops) {
        Ecn {
            hops = List.copyOf(hops);
        }

        /** CNPs per ECN-capable sampled packet: NaN where either is unknown or none was sampled. */
        double cnpPerPacket() {
            return cnpPackets < 0 || ectPackets <= 0 ? Double.NaN : (double) cnpPackets / ectPackets;
        }

        /** Whether the direction saw any sign of congestion: CE at a hop, or a CNP. */
        boolean anySign() {
            return cePackets > 0 || cnpPackets > 0 || ceShare > 0 || marked;
        }
    }

    PathFacts {
        requireNonNull(sessionId);
        forward = List.copyOf(forward);
        reverse = List.copyOf(reverse);
        dataApart = List.copyOf(dataApart);
    }

    /** A path without congestion figures. */
    PathFacts(final String sessionId, final @Nullable String requesterIp, final @Nullable String responderIp,
            final List<String> forward, final List<String> reverse, final boolean forwardComplete,
            final boolean reverseComplete, final boolean asymmetric, final List<String> dataApart,
            final boolean learnedData, final boolean oneWay) {
        this(sessionId, requesterIp, responderIp, forward, reverse, forwardComplete, reverseComplete, asymmetric,
            dataApart, learnedData, oneWay, null, null);
    }

    /** A data direction's figures: data-forward's ({@link Problem#FORWARD}) or data-reverse's. */
    @Nullable Ecn ecn(final String direction) {
        return Problem.FORWARD.equals(direction) ? dataForwardEcn : dataReverseEcn;
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
            data, oneWay, read(path.getDataForward()), read(path.getDataReverse()));
    }

    private static @Nullable Ecn read(final @Nullable Direction direction) {
        if (direction == null) {
            return null;
        }
        final var hops = new ArrayList<HopFigures>();
        if (direction.getHop() != null) {
            for (var hop : direction.getHop()) {
                if (hop.getNodeId() != null && (hop.getEctPackets() != null || hop.getCePackets() != null
                        || hop.getCnpPackets() != null)) {
                    hops.add(new HopFigures(hop.getNodeId().getValue(),
                        hop.getIngressTp() == null ? null : hop.getIngressTp().getValue(), count(hop.getEctPackets()),
                        count(hop.getCePackets()), count(hop.getCnpPackets())));
                }
            }
        }
        final var at = direction.getMarkedAt();
        return ecnOf(direction.getCeShare() == null ? Double.NaN : direction.getCeShare().doubleValue(),
            count(direction.getCePackets()), count(direction.getCnpPackets()), at != null,
            at == null || at.getNodeId() == null ? null : at.getNodeId().getValue(),
            at == null || at.getEgressTp() == null ? null : at.getEgressTp().getValue(),
            at == null || at.getNextNodeId() == null ? null : at.getNextNodeId().getValue(),
            at == null || at.getNextIngressTp() == null ? null : at.getNextIngressTp().getValue(),
            at != null && Boolean.TRUE.equals(at.getCertain()), hops);
    }

    /** A direction's figures, or null where it has none at all. */
    @SuppressWarnings("checkstyle:ParameterNumber")
    static @Nullable Ecn ecnOf(final double ceShare, final long cePackets, final long cnpPackets, final boolean marked,
            final @Nullable String markedNode, final @Nullable String markedTp, final @Nullable String nextNode,
            final @Nullable String nextTp, final boolean certain, final List<HopFigures> hops) {
        if (Double.isNaN(ceShare) && cePackets < 0 && cnpPackets < 0 && !marked && hops.isEmpty()) {
            return null;
        }
        long ect = -1;
        for (var hop : hops) {
            ect = Math.max(ect, hop.ect());
        }
        return new Ecn(ceShare, cePackets, cnpPackets, ect, marked, markedNode, markedTp, nextNode, nextTp, certain,
            hops);
    }

    private static long count(final @Nullable Uint64 value) {
        return value == null ? -1 : Math.max(0, value.longValue());
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
