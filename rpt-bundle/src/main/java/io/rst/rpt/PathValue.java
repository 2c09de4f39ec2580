/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rpt;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.Interner;
import com.google.common.collect.Interners;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.eclipse.jdt.annotation.Nullable;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.IpAddress;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.Ipv4Address;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.Ipv6Address;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.LearnedFrom;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.Qpn;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.SessionState;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.Transport;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.TrafficKind;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.direction.MarkedAt;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.direction.MarkedAtBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.path.DataForwardBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.path.DataReverseBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.path.ForwardBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.path.ReverseBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.rpt.Path;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.rpt.PathBuilder;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.NodeId;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.TpId;
import org.opendaylight.yangtools.yang.common.Uint16;
import org.opendaylight.yangtools.yang.common.Uint32;

/**
 * A session's path as the RPT holds it: what {@code rdma-path-table:rpt/path} shows, in a compact
 * form (strings shared through {@link Names}, directions shared between the sessions that took the
 * same way), in place of a binding {@link Path} per session. {@link PathNodes} writes it; the RPCs,
 * which are rare, make the binding {@link Path} of the few they answer with ({@link #toBinding()}).
 * Two equal values are the same path: an unchanged path is not written again.
 *
 * @param sessionId the session
 * @param requesterIp the requester's address, or null
 * @param responderIp the responder's address, or null
 * @param requesterQpn the requester's QP number, -1 where unknown
 * @param responderQpn the responder's QP number, -1 where unknown
 * @param state the session's state, or null
 * @param forward the CM path from the requester; null for a data-learned session (no CM)
 * @param reverse the CM path from the responder; null for a data-learned session
 * @param asymmetric whether the two CM paths cross other switches (a data-learned session's data paths)
 * @param data the data paths, or null where no switch sampled the session's data
 * @param learnedData whether the session was learnt from data packets (else from CM)
 * @param oneWay whether it is a one-way flow (its data forward alone)
 * @param transport a data-learned session's transport (RC, UC, UD), or null
 */
record PathValue(String sessionId, @Nullable String requesterIp, @Nullable String responderIp, int requesterQpn,
        int responderQpn, @Nullable SessionState state, PathAssembler.@Nullable DirectionResult forward,
        PathAssembler.@Nullable DirectionResult reverse, boolean asymmetric, DataPaths.@Nullable Result data,
        boolean learnedData, boolean oneWay, @Nullable String transport) {

    /**
     * Directions as many sessions share them (those between the same hosts that took the same
     * way): one copy each, for as long as a path holds it.
     */
    private static final Interner<PathAssembler.DirectionResult> DIRECTIONS = Interners.newWeakInterner();

    PathValue {
        requireNonNull(sessionId);
        if (!learnedData && (forward == null || reverse == null)) {
            throw new IllegalArgumentException("a CM session's path has both CM directions: " + sessionId);
        }
        forward = share(forward);
        reverse = share(reverse);
        if (data != null) {
            data = new DataPaths.Result(share(data.forward()), share(data.reverse()), data.differs(),
                data.anomalies());
        }
    }

    /** A CM session's path. */
    PathValue(final String sessionId, final @Nullable String requesterIp, final @Nullable String responderIp,
            final int requesterQpn, final int responderQpn, final @Nullable SessionState state,
            final PathAssembler.DirectionResult forward, final PathAssembler.DirectionResult reverse,
            final boolean asymmetric, final DataPaths.@Nullable Result data) {
        this(sessionId, requesterIp, responderIp, requesterQpn, responderQpn, state, forward, reverse, asymmetric,
            data, false, false, null);
    }

    /**
     * Whether every direction the path has is complete: a CM session's two CM paths, a
     * data-learned session's two data paths, a one-way flow's one.
     */
    boolean complete() {
        if (!learnedData) {
            return forward.complete() && reverse.complete();
        }
        return data != null && data.forward().complete() && (data.reverse() == null || data.reverse().complete());
    }

    /** One copy of {@code direction}, its gaps each once (the model's gaps are a set). */
    @SuppressWarnings("null")
    private static PathAssembler.@Nullable DirectionResult share(
            final PathAssembler.@Nullable DirectionResult direction) {
        if (direction == null) {
            return null;
        }
        final var gaps = direction.gaps();
        final var distinct = gaps.size() < 2 ? direction : new PathAssembler.DirectionResult(direction.hops(),
            direction.complete(), List.copyOf(new LinkedHashSet<>(gaps)), direction.source(),
            direction.destination(), direction.congestion());
        return DIRECTIONS.intern(distinct);
    }

    /** Whether any of its paths (CM or data) starts, ends or has a hop at one of {@code nodes}. */
    boolean touches(final Set<String> nodes) {
        return touches(forward, nodes) || touches(reverse, nodes)
            || data != null && (touches(data.forward(), nodes) || touches(data.reverse(), nodes));
    }

    private static boolean touches(final PathAssembler.@Nullable DirectionResult direction, final Set<String> nodes) {
        if (direction == null) {
            return false;
        }
        final var source = direction.source();
        final var destination = direction.destination();
        if (source != null && nodes.contains(source.node())
                || destination != null && nodes.contains(destination.node())) {
            return true;
        }
        for (var hop : direction.hops()) {
            if (nodes.contains(hop.node())) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether either CM path (a data-learned session's data paths) has a hop at {@code node} (and
     * {@code tp}, in or out, where given).
     */
    boolean crosses(final String node, final @Nullable String tp) {
        if (learnedData) {
            return data != null && (crosses(data.forward(), node, tp) || crosses(data.reverse(), node, tp));
        }
        return crosses(forward, node, tp) || crosses(reverse, node, tp);
    }

    private static boolean crosses(final PathAssembler.@Nullable DirectionResult direction, final String node,
            final @Nullable String tp) {
        if (direction == null) {
            return false;
        }
        for (var hop : direction.hops()) {
            if (node.equals(hop.node())
                    && (tp == null || tp.equals(hop.ingressTp()) || tp.equals(hop.egressTp()))) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether a data path (data-forward, data-reverse) has a hop at {@code node} (and {@code tp},
     * in or out, where given) whose data is in {@code priority} there.
     */
    boolean crossesData(final String node, final @Nullable String tp, final int priority) {
        return data != null && (crossesData(data.forward(), node, tp, priority)
            || crossesData(data.reverse(), node, tp, priority));
    }

    private static boolean crossesData(final PathAssembler.@Nullable DirectionResult direction, final String node,
            final @Nullable String tp, final int priority) {
        if (direction == null) {
            return false;
        }
        for (var hop : direction.hops()) {
            final var figures = hop.figures();
            if (node.equals(hop.node()) && figures != null && figures.priority() == priority
                    && (tp == null || tp.equals(hop.ingressTp()) || tp.equals(hop.egressTp()))) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether a data path leaves {@code node} through {@code tp} in {@code priority}: a PFC pause
     * of that port and priority holds its data up.
     */
    boolean leavesIn(final String node, final String tp, final int priority) {
        return data != null && (leavesIn(data.forward(), node, tp, priority)
            || leavesIn(data.reverse(), node, tp, priority));
    }

    private static boolean leavesIn(final PathAssembler.@Nullable DirectionResult direction, final String node,
            final String tp, final int priority) {
        if (direction == null) {
            return false;
        }
        for (var hop : direction.hops()) {
            final var figures = hop.figures();
            if (node.equals(hop.node()) && tp.equals(hop.egressTp()) && figures != null
                    && figures.priority() == priority) {
                return true;
            }
        }
        return false;
    }

    /** Whether the session runs between these two addresses (either way) with this QP number, if any. */
    boolean between(final String one, final String other, final @Nullable Qpn qpn) {
        final boolean ends = one.equals(requesterIp) && other.equals(responderIp)
            || other.equals(requesterIp) && one.equals(responderIp);
        if (!ends) {
            return false;
        }
        if (qpn == null) {
            return true;
        }
        final long wanted = qpn.getValue().longValue();
        return wanted == requesterQpn || wanted == responderQpn;
    }

    /** The path as the binding API has it (what a reader of {@code rpt/path} gets). */
    Path toBinding() {
        final var builder = new PathBuilder().setSessionId(sessionId)
            .setRequesterIp(ip(requesterIp)).setResponderIp(ip(responderIp))
            .setRequesterQpn(qpn(requesterQpn)).setResponderQpn(qpn(responderQpn))
            .setState(state)
            .setLearnedFrom(learnedData ? LearnedFrom.Data : LearnedFrom.Cm)
            .setTransport(transport == null ? null : Transport.forName(transport))
            .setOneWay(oneWay ? Boolean.TRUE : null)
            .setAsymmetric(asymmetric);
        if (forward != null) {
            final var forwardBuilder = new ForwardBuilder().setComplete(forward.complete())
                .setHop(DataPaths.hops(forward, TrafficKind.Cm)).setGap(Set.copyOf(forward.gaps()));
            if (forward.source() != null) {
                forwardBuilder.setSourceNode(new NodeId(forward.source().node()))
                    .setSourceTp(tp(forward.source().tp()));
            }
            if (forward.destination() != null) {
                forwardBuilder.setDestinationNode(new NodeId(forward.destination().node()))
                    .setDestinationTp(tp(forward.destination().tp()));
            }
            builder.setForward(forwardBuilder.build());
        }
        if (reverse != null) {
            final var reverseBuilder = new ReverseBuilder().setComplete(reverse.complete())
                .setHop(DataPaths.hops(reverse, TrafficKind.Cm)).setGap(Set.copyOf(reverse.gaps()));
            if (reverse.source() != null) {
                reverseBuilder.setSourceNode(new NodeId(reverse.source().node()))
                    .setSourceTp(tp(reverse.source().tp()));
            }
            if (reverse.destination() != null) {
                reverseBuilder.setDestinationNode(new NodeId(reverse.destination().node()))
                    .setDestinationTp(tp(reverse.destination().tp()));
            }
            builder.setReverse(reverseBuilder.build());
        }
        if (data != null) {
            final var fwd = data.forward();
            final var f = new DataForwardBuilder().setComplete(fwd.complete())
                .setHop(DataPaths.hops(fwd, TrafficKind.Data)).setGap(new LinkedHashSet<>(fwd.gaps()));
            if (fwd.source() != null) {
                f.setSourceNode(new NodeId(fwd.source().node())).setSourceTp(tp(fwd.source().tp()));
            }
            if (fwd.destination() != null) {
                f.setDestinationNode(new NodeId(fwd.destination().node()))
                    .setDestinationTp(tp(fwd.destination().tp()));
            }
            final var fwdCongestion = fwd.congestion();
            if (fwdCongestion != null) {
                f.setCeShare(DataPaths.share(fwdCongestion.ceShare())).setCePackets(DataPaths.counter(
                    fwdCongestion.ce())).setCnpPackets(DataPaths.counter(fwdCongestion.cnp()));
                final var marked = fwdCongestion.markedAt();
                if (marked != null) {
                    f.setMarkedAt(markedAt(marked));
                }
            }
            builder.setDataForward(f.build());
            final var rev = data.reverse();
            if (rev != null) {
                final var r = new DataReverseBuilder().setComplete(rev.complete())
                    .setHop(DataPaths.hops(rev, TrafficKind.Data)).setGap(new LinkedHashSet<>(rev.gaps()));
                if (rev.source() != null) {
                    r.setSourceNode(new NodeId(rev.source().node())).setSourceTp(tp(rev.source().tp()));
                }
                if (rev.destination() != null) {
                    r.setDestinationNode(new NodeId(rev.destination().node()))
                        .setDestinationTp(tp(rev.destination().tp()));
                }
                final var revCongestion = rev.congestion();
                if (revCongestion != null) {
                    r.setCeShare(DataPaths.share(revCongestion.ceShare())).setCePackets(DataPaths.counter(
                        revCongestion.ce())).setCnpPackets(DataPaths.counter(revCongestion.cnp()));
                    final var marked = revCongestion.markedAt();
                    if (marked != null) {
                        r.setMarkedAt(markedAt(marked));
                    }
                }
                builder.setDataReverse(r.build());
            }
            if (!learnedData) {
                // data against CM: a data-learned session has no CM to differ from
                builder.setDataPathDiffers(data.differs());
            }
            builder.setAnomaly(data.anomalies() == null ? null : new LinkedHashSet<>(data.anomalies()));
        }
        return builder.build();
    }

    /** The binding paths of {@code values}, for the RPCs' answers. */
    static List<Path> toBinding(final Iterable<PathValue> values) {
        final List<Path> out = new ArrayList<>();
        for (var value : values) {
            out.add(value.toBinding());
        }
        return out;
    }

    /** Where a direction's marking starts, as the model has it. */
    private static MarkedAt markedAt(final Congestion.MarkedAt marked) {
        return new MarkedAtBuilder().setNodeId(marked.node() == null ? null : new NodeId(marked.node()))
            .setEgressTp(tp(marked.egressTp())).setNextNodeId(new NodeId(marked.nextNode()))
            .setNextIngressTp(tp(marked.nextIngressTp())).setHopIndex(Uint16.valueOf(marked.hopIndex()))
            .setCertain(marked.certain()).build();
    }

    private static @Nullable IpAddress ip(final @Nullable String text) {
        if (text == null) {
            return null;
        }
        // the union's members in the model's order, as the codec tries them: an IPv4 address has no colon
        return text.indexOf(':') < 0 ? new IpAddress(new Ipv4Address(text)) : new IpAddress(new Ipv6Address(text));
    }

    private static @Nullable Qpn qpn(final int value) {
        return value < 0 ? null : new Qpn(Uint32.valueOf(value));
    }

    private static @Nullable TpId tp(final @Nullable String tp) {
        return tp == null ? null : new TpId(tp);
    }
}
