/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rpt;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.eclipse.jdt.annotation.Nullable;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.TrafficKind;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.direction.Hop;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.direction.HopBuilder;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.NodeId;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.TpId;
import org.opendaylight.yangtools.yang.common.Decimal64;
import org.opendaylight.yangtools.yang.common.Uint16;
import org.opendaylight.yangtools.yang.common.Uint64;
import org.opendaylight.yangtools.yang.common.Uint8;

/**
 * A session's data paths beside its CM paths. Agents that sample data packets say, per session
 * and direction, on which port its data entered their switch ({@code requester-data},
 * {@code responder-data} in {@code rft}); those sightings are assembled exactly as the CM
 * messages' are ({@link PathAssembler}), and compared with the CM path of the same direction:
 * where a switch's data entered on another port than its CM, or a switch saw the data but was
 * not on the CM path, the paths differ (ECMP hashed the data's UDP source port to another member)
 * and the anomaly says where. Where no switch sampled the session's data, nothing is added. Each
 * hop carries its switch's congestion figures for the direction, its DSCP's priority mapped by the
 * fabric's map, and each direction what they make of it ({@link Congestion}).
 */
final class DataPaths {
    /**
     * A silent switch on a data path: its agent claims a data packet for a CM session where it saw
     * the CM message that announced the destination QP, and learns it from the data elsewhere (a
     * record the controller joins into the CM session); a switch that reports neither is inferred
     * from the links, as a silent switch on a CM path is.
     */
    private static final String SILENT_DATA = "RFT there could not tell this data's session (its agent does not"
        + " sample data, or sampled none of it yet)";

    private DataPaths() {
        // utility
    }

    /**
     * A session's data paths and the verdict on them.
     *
     * @param forward the requester's data, its gaps worded for data
     * @param reverse the responder's data; null for a one-way flow, which has one direction
     * @param differs whether either parted from its CM ({@code data-path-differs}); false for a
     *        data-learned session, which has no CM
     * @param anomalies where, in words, or null where nowhere
     */
    record Result(PathAssembler.DirectionResult forward, PathAssembler.@Nullable DirectionResult reverse,
            boolean differs, @Nullable List<String> anomalies) {
    }

    /**
     * The paths of a session learnt from its data (no CM messages): its data in both directions,
     * assembled as a CM session's data is, or the one direction of a one-way flow (its forward:
     * requester-data from the sender to the receiver; the path's {@code one-way} says the other
     * direction is unknown).
     *
     * @param seen the session (or the flows paired into it) as each switch that saw it has it
     */
    static Result ofData(final List<SwitchSession> seen, final PathAssembler.Fabric fabric,
            final @Nullable String requester, final @Nullable String responder, final boolean oneWay) {
        final List<PathAssembler.Observation> forward = new ArrayList<>();
        final List<PathAssembler.Observation> reverse = new ArrayList<>();
        for (var s : seen) {
            if (s.requesterData()) {
                forward.add(observation(s, true, fabric));
            }
            if (s.responderData()) {
                reverse.add(observation(s, false, fabric));
            }
        }
        final var fwd = dataGaps(PathAssembler.assemble(forward, fabric, requester, responder), cnps(seen, true));
        return new Result(fwd, oneWay ? null : dataGaps(PathAssembler.assemble(reverse, fabric, responder, requester),
            cnps(seen, false)), false, null);
    }

    /** A switch's sighting of a direction's data, with its congestion figures, their DSCP mapped. */
    private static PathAssembler.Observation observation(final SwitchSession seen, final boolean requester,
            final PathAssembler.Fabric fabric) {
        final var figures = requester ? seen.requesterFigures() : seen.responderFigures();
        return new PathAssembler.Observation(seen.node(), requester ? seen.requesterDataPort()
            : seen.responderDataPort(), seen.firstSeenMicros(), figures == null ? null : figures.mapped(fabric.dscp()));
    }

    /**
     * The most CNPs any switch saw about a direction's data (the requester's, or the responder's),
     * whether or not it saw the data; -1 where none reported CNPs. Every switch on the CNPs' way
     * counts them all (they are not sampled), so the most is the one that saw them all.
     */
    private static long cnps(final List<SwitchSession> seen, final boolean requester) {
        long most = -1;
        for (var s : seen) {
            final var figures = requester ? s.requesterFigures() : s.responderFigures();
            if (figures != null) {
                most = Math.max(most, figures.cnp());
            }
        }
        return most;
    }

    /**
     * The session's {@code data-forward}, {@code data-reverse}, {@code data-path-differs} and
     * anomalies, or null where no switch sampled its data.
     *
     * @param seen the session as each switch that saw it has it
     */
    static @Nullable Result of(final List<SwitchSession> seen, final PathAssembler.Fabric fabric,
            final @Nullable String requester, final @Nullable String responder,
            final PathAssembler.DirectionResult cmForward, final PathAssembler.DirectionResult cmReverse) {
        List<PathAssembler.Observation> forward = null;
        List<PathAssembler.Observation> reverse = null;
        for (var s : seen) {
            if (s.requesterData()) {
                if (forward == null) {
                    forward = new ArrayList<>();
                }
                forward.add(observation(s, true, fabric));
            }
            if (s.responderData()) {
                if (reverse == null) {
                    reverse = new ArrayList<>();
                }
                reverse.add(observation(s, false, fabric));
            }
        }
        if (forward == null && reverse == null) {
            return null;
        }
        if (forward == null) {
            forward = List.of();
        }
        if (reverse == null) {
            reverse = List.of();
        }
        final var fwd = dataGaps(PathAssembler.assemble(forward, fabric, requester, responder), cnps(seen, true));
        final var rev = dataGaps(PathAssembler.assemble(reverse, fabric, responder, requester), cnps(seen, false));
        final Set<String> anomalies = new LinkedHashSet<>();
        final boolean fwdDiffers = differ("forward", cmForward, forward, anomalies);
        final boolean revDiffers = differ("reverse", cmReverse, reverse, anomalies);
        return new Result(fwd, rev, fwdDiffers || revDiffers, anomalies.isEmpty() ? null : List.copyOf(anomalies));
    }

    /**
     * The direction with its gaps worded for data, each once, and its congestion ({@link Congestion#of},
     * with {@code cnp} the most CNPs a switch saw about it).
     */
    private static PathAssembler.DirectionResult dataGaps(final PathAssembler.DirectionResult path, final long cnp) {
        final var worded = new PathAssembler.DirectionResult(path.hops(), path.complete(), List.copyOf(gaps(path)),
            path.source(), path.destination());
        return worded.withCongestion(Congestion.of(worded, cnp));
    }

    private static Set<String> gaps(final PathAssembler.DirectionResult path) {
        final Set<String> out = new LinkedHashSet<>();
        for (var gap : path.gaps()) {
            out.add(gap.replace(PathAssembler.SILENT, SILENT_DATA));
        }
        return out;
    }

    /**
     * Whether a direction's data parted from its CM: a switch that sampled the data but is not on
     * the CM path, or where the data entered on another port than the CM did. Switches that sampled
     * nothing are not held against either (sampling may miss a short flow).
     */
    static boolean differ(final String direction, final PathAssembler.DirectionResult cm,
            final List<PathAssembler.Observation> data, final Set<String> anomalies) {
        boolean differs = false;
        for (var obs : data) {
            PathAssembler.HopResult cmHop = null;
            for (var hop : cm.hops()) {
                if (hop.node().equals(obs.node())) {
                    cmHop = hop;
                    break;
                }
            }
            if (cmHop == null) {
                anomalies.add(direction + " data crosses " + obs.node() + " (in on " + obs.ingressTp()
                    + "), its CM does not: " + nodes(cm));
                differs = true;
            } else if (cmHop.observed() && obs.ingressTp() != null
                    && !Objects.equals(cmHop.ingressTp(), obs.ingressTp())) {
                anomalies.add(direction + " data enters " + obs.node() + " on " + obs.ingressTp() + ", its CM on "
                    + cmHop.ingressTp());
                differs = true;
            }
        }
        return differs;
    }

    private static String nodes(final PathAssembler.DirectionResult path) {
        final List<String> names = new ArrayList<>();
        for (var hop : path.hops()) {
            names.add(hop.node());
        }
        return names.isEmpty() ? "no CM path" : "CM via " + String.join(", ", names);
    }

    /** A count as the model has it, null (absent) where unknown. */
    static @Nullable Uint64 counter(final long value) {
        return value < 0 ? null : Uint64.valueOf(value);
    }

    /** A share in ten-thousandths as the model has it (decimal64, four digits), null where unknown. */
    static @Nullable Decimal64 share(final long tenThousandths) {
        return tenThousandths < 0 ? null : Decimal64.of(4, tenThousandths);
    }

    /** A direction's hops as the model lists them, each saying which traffic it was learnt from. */
    static List<Hop> hops(final PathAssembler.DirectionResult result, final TrafficKind traffic) {
        final List<Hop> out = new ArrayList<>();
        int index = 0;
        for (var hop : result.hops()) {
            final var b = new HopBuilder().setIndex(Uint16.valueOf(index++)).setNodeId(new NodeId(hop.node()))
                .setObserved(hop.observed()).setTraffic(traffic);
            if (hop.ingressTp() != null) {
                b.setIngressTp(new TpId(hop.ingressTp()));
            }
            if (hop.egressTp() != null) {
                b.setEgressTp(new TpId(hop.egressTp()));
            }
            final var figures = hop.figures();
            if (figures != null) {
                b.setDscp(figures.dscp() < 0 ? null : Uint8.valueOf(figures.dscp()))
                    .setPriority(figures.priority() < 0 ? null : Uint8.valueOf(figures.priority()))
                    .setEctPackets(counter(figures.ect())).setCePackets(counter(figures.ce()))
                    .setCeShare(share(figures.ceShare()))
                    .setCnpPackets(counter(figures.cnp()));
            }
            out.add(b.build());
        }
        return out;
    }
}
