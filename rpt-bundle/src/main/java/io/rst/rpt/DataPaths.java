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
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.eclipse.jdt.annotation.Nullable;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.DataFlow;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.Session;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.TrafficKind;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.direction.Hop;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.direction.HopBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.path.DataForwardBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.path.DataReverseBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.rpt.PathBuilder;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.NodeId;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.TpId;
import org.opendaylight.yangtools.yang.common.Uint16;

/**
 * A session's data paths beside its CM paths. Agents that sample data packets say, per session
 * and direction, on which port its data entered their switch ({@code requester-data},
 * {@code responder-data} in {@code rft}); those sightings are assembled exactly as the CM
 * messages' are ({@link PathAssembler}), and compared with the CM path of the same direction:
 * where a switch's data entered on another port than its CM, or a switch saw the data but was
 * not on the CM path, the paths differ (ECMP hashed the data's UDP source port to another member)
 * and the anomaly says where. Where no switch sampled the session's data, nothing is added.
 */
final class DataPaths {
    /**
     * A silent switch on a data path: an agent can tell a data packet's session only where it saw
     * the CM message that announced the destination QP (the REP for the requester's data to the
     * responder's QP, the REQ for the responder's data), so a spine that message did not cross is
     * inferred from the links, as a silent switch on a CM path is.
     */
    private static final String SILENT_DATA = "RFT there could not tell this data's session (the CM message that"
        + " announced the destination QP, REP or REQ, took another path; or its agent does not sample data)";

    private DataPaths() {
        // utility
    }

    /**
     * Adds {@code data-forward}, {@code data-reverse}, {@code data-path-differs} and the anomalies
     * to {@code builder}.
     *
     * @param byNode the session as each switch that saw it has it
     */
    static void add(final PathBuilder builder, final Map<String, Session> byNode, final PathAssembler.Fabric fabric,
            final @Nullable String requester, final @Nullable String responder,
            final PathAssembler.DirectionResult cmForward, final PathAssembler.DirectionResult cmReverse) {
        final List<PathAssembler.Observation> forward = new ArrayList<>();
        final List<PathAssembler.Observation> reverse = new ArrayList<>();
        for (var entry : byNode.entrySet()) {
            final Session s = entry.getValue();
            final long first = s.getFirstSeen() == null ? 0
                : s.getFirstSeen().getValue().decimalValue().movePointRight(6).longValue();
            observe(entry.getKey(), s.getRequesterData(), first, forward);
            observe(entry.getKey(), s.getResponderData(), first, reverse);
        }
        if (forward.isEmpty() && reverse.isEmpty()) {
            return;
        }
        final var fwd = PathAssembler.assemble(forward, fabric, requester, responder);
        final var rev = PathAssembler.assemble(reverse, fabric, responder, requester);
        final var f = new DataForwardBuilder().setComplete(fwd.complete()).setHop(hops(fwd, TrafficKind.Data))
            .setGap(gaps(fwd));
        if (fwd.source() != null) {
            f.setSourceNode(new NodeId(fwd.source().node())).setSourceTp(tp(fwd.source().tp()));
        }
        if (fwd.destination() != null) {
            f.setDestinationNode(new NodeId(fwd.destination().node())).setDestinationTp(tp(fwd.destination().tp()));
        }
        final var r = new DataReverseBuilder().setComplete(rev.complete()).setHop(hops(rev, TrafficKind.Data))
            .setGap(gaps(rev));
        if (rev.source() != null) {
            r.setSourceNode(new NodeId(rev.source().node())).setSourceTp(tp(rev.source().tp()));
        }
        if (rev.destination() != null) {
            r.setDestinationNode(new NodeId(rev.destination().node())).setDestinationTp(tp(rev.destination().tp()));
        }
        final Set<String> anomalies = new LinkedHashSet<>();
        final var existing = builder.getAnomaly();
        if (existing != null) {
            anomalies.addAll(existing);
        }
        final boolean fwdDiffers = differ("forward", cmForward, forward, anomalies);
        final boolean revDiffers = differ("reverse", cmReverse, reverse, anomalies);
        builder.setDataForward(f.build()).setDataReverse(r.build()).setDataPathDiffers(fwdDiffers || revDiffers)
            .setAnomaly(anomalies.isEmpty() ? null : anomalies);
    }

    private static Set<String> gaps(final PathAssembler.DirectionResult path) {
        final Set<String> out = new LinkedHashSet<>();
        for (var gap : path.gaps()) {
            out.add(gap.replace(PathAssembler.SILENT, SILENT_DATA));
        }
        return out;
    }

    private static void observe(final String node, final @Nullable DataFlow flow, final long first,
            final List<PathAssembler.Observation> out) {
        if (flow != null) {
            out.add(new PathAssembler.Observation(node, flow.getIngressPort(), first));
        }
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
            out.add(b.build());
        }
        return out;
    }

    private static @Nullable TpId tp(final @Nullable String tp) {
        return tp == null ? null : new TpId(tp);
    }
}
