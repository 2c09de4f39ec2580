/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rpt;

import java.util.EnumMap;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;
import org.eclipse.jdt.annotation.Nullable;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.IpAddress;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.Uri;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.LearnedFrom;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.Qpn;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.SessionState;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.Transport;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.Direction;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.Rpt;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.TrafficKind;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.direction.Hop;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.direction.MarkedAt;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.path.DataForward;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.path.DataReverse;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.path.Forward;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.path.Reverse;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.rpt.Path;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.rpt.PausedPort;
import org.opendaylight.yangtools.binding.EnumTypeObject;
import org.opendaylight.yangtools.yang.common.Decimal64;
import org.opendaylight.yangtools.yang.common.QName;
import org.opendaylight.yangtools.yang.common.Uint16;
import org.opendaylight.yangtools.yang.common.Uint32;
import org.opendaylight.yangtools.yang.common.Uint64;
import org.opendaylight.yangtools.yang.common.Uint8;
import org.opendaylight.yangtools.yang.data.api.YangInstanceIdentifier;
import org.opendaylight.yangtools.yang.data.api.YangInstanceIdentifier.NodeIdentifier;
import org.opendaylight.yangtools.yang.data.api.YangInstanceIdentifier.NodeIdentifierWithPredicates;
import org.opendaylight.yangtools.yang.data.api.schema.ContainerNode;
import org.opendaylight.yangtools.yang.data.api.schema.DataContainerChild;
import org.opendaylight.yangtools.yang.data.api.schema.LeafNode;
import org.opendaylight.yangtools.yang.data.api.schema.MapEntryNode;
import org.opendaylight.yangtools.yang.data.api.schema.NormalizedNode;
import org.opendaylight.yangtools.yang.data.api.schema.NormalizedNode.BuilderFactory;
import org.opendaylight.yangtools.yang.data.api.schema.builder.DataContainerNodeBuilder;
import org.opendaylight.yangtools.yang.data.spi.node.ImmutableNodes;

/**
 * A path as the datastore stores it ({@code rdma-path-table:rpt/path}, a {@code MapEntryNode}),
 * built by hand from the RPT's {@link PathValue} (or from a binding {@link Path}, which the tests
 * hold against the codec and the value's node against). The binding codec streams a DataObject through a
 * generic, reflective writer, in which, in a profile of a CM storm, the RPT's thread would spend half
 * its time; these builders with identifiers made once cost a fraction of that. The values are
 * those the codec gives (enumerations as their YANG names, {@code rft:qpn} as {@code Uint32},
 * {@code inet:ip-address} and {@code nt:node-id}/{@code nt:tp-id} as strings), so a reader through
 * the binding API sees the same {@link Path}; {@code PathNodesTest} holds this against the codec
 * for every leaf, container, list and leaf-list of the model.
 */
final class PathNodes {
    private static final NodeIdentifier RPT = NodeIdentifier.create(Rpt.QNAME);
    private static final NodeIdentifier PATH = NodeIdentifier.create(Path.QNAME);
    private static final QName SESSION_ID_QNAME = QName.create(Path.QNAME, "session-id").intern();
    private static final NodeIdentifier SESSION_ID = NodeIdentifier.create(SESSION_ID_QNAME);
    private static final NodeIdentifier REQUESTER_IP = leaf("requester-ip");
    private static final NodeIdentifier RESPONDER_IP = leaf("responder-ip");
    private static final NodeIdentifier REQUESTER_QPN = leaf("requester-qpn");
    private static final NodeIdentifier RESPONDER_QPN = leaf("responder-qpn");
    private static final NodeIdentifier STATE = leaf("state");
    private static final NodeIdentifier LEARNED_FROM = leaf("learned-from");
    private static final NodeIdentifier TRANSPORT = leaf("transport");
    private static final NodeIdentifier ONE_WAY = leaf("one-way");
    private static final NodeIdentifier FORWARD = NodeIdentifier.create(Forward.QNAME);
    private static final NodeIdentifier REVERSE = NodeIdentifier.create(Reverse.QNAME);
    private static final NodeIdentifier DATA_FORWARD = NodeIdentifier.create(DataForward.QNAME);
    private static final NodeIdentifier DATA_REVERSE = NodeIdentifier.create(DataReverse.QNAME);
    private static final NodeIdentifier DATA_PATH_DIFFERS = leaf("data-path-differs");
    private static final NodeIdentifier ASYMMETRIC = leaf("asymmetric");
    private static final NodeIdentifier ANOMALY = leaf("anomaly");

    // direction grouping
    private static final NodeIdentifier SOURCE_NODE = leaf("source-node");
    private static final NodeIdentifier SOURCE_TP = leaf("source-tp");
    private static final NodeIdentifier DESTINATION_NODE = leaf("destination-node");
    private static final NodeIdentifier DESTINATION_TP = leaf("destination-tp");
    private static final NodeIdentifier COMPLETE = leaf("complete");
    private static final NodeIdentifier HOP = NodeIdentifier.create(Hop.QNAME);
    private static final NodeIdentifier GAP = leaf("gap");
    private static final NodeIdentifier CE_SHARE = leaf("ce-share");
    private static final NodeIdentifier CE_PACKETS = leaf("ce-packets");
    private static final NodeIdentifier CNP_PACKETS = leaf("cnp-packets");
    private static final NodeIdentifier MARKED_AT = NodeIdentifier.create(MarkedAt.QNAME);

    // marked-at
    private static final NodeIdentifier MARKED_NODE_ID = leaf("node-id");
    private static final NodeIdentifier MARKED_EGRESS_TP = leaf("egress-tp");
    private static final NodeIdentifier NEXT_NODE_ID = leaf("next-node-id");
    private static final NodeIdentifier NEXT_INGRESS_TP = leaf("next-ingress-tp");
    private static final NodeIdentifier HOP_INDEX = leaf("hop-index");
    private static final NodeIdentifier CERTAIN = leaf("certain");

    // hop grouping
    private static final QName INDEX_QNAME = QName.create(Hop.QNAME, "index").intern();
    private static final NodeIdentifier INDEX = NodeIdentifier.create(INDEX_QNAME);
    private static final NodeIdentifier NODE_ID = leaf("node-id");
    private static final NodeIdentifier INGRESS_TP = leaf("ingress-tp");
    private static final NodeIdentifier EGRESS_TP = leaf("egress-tp");
    private static final NodeIdentifier OBSERVED = leaf("observed");
    private static final NodeIdentifier TRAFFIC = leaf("traffic");
    private static final NodeIdentifier DSCP = leaf("dscp");
    private static final NodeIdentifier PRIORITY = leaf("priority");
    private static final NodeIdentifier ECT_PACKETS = leaf("ect-packets");

    private static final LeafNode<Boolean> DATA_PATH_DIFFERS_TRUE = ImmutableNodes.leafNode(DATA_PATH_DIFFERS, true);
    private static final LeafNode<Boolean> DATA_PATH_DIFFERS_FALSE = ImmutableNodes.leafNode(DATA_PATH_DIFFERS, false);
    private static final LeafNode<Boolean> ASYMMETRIC_TRUE = ImmutableNodes.leafNode(ASYMMETRIC, true);
    private static final LeafNode<Boolean> ASYMMETRIC_FALSE = ImmutableNodes.leafNode(ASYMMETRIC, false);
    private static final LeafNode<Boolean> COMPLETE_TRUE = ImmutableNodes.leafNode(COMPLETE, true);
    private static final LeafNode<Boolean> COMPLETE_FALSE = ImmutableNodes.leafNode(COMPLETE, false);
    private static final LeafNode<Boolean> OBSERVED_TRUE = ImmutableNodes.leafNode(OBSERVED, true);
    private static final LeafNode<Boolean> OBSERVED_FALSE = ImmutableNodes.leafNode(OBSERVED, false);
    private static final LeafNode<String> LEARNED_CM = ImmutableNodes.leafNode(LEARNED_FROM, LearnedFrom.Cm.getName());
    private static final LeafNode<String> LEARNED_DATA = ImmutableNodes.leafNode(LEARNED_FROM,
        LearnedFrom.Data.getName());
    private static final LeafNode<Boolean> ONE_WAY_TRUE = ImmutableNodes.leafNode(ONE_WAY, true);
    private static final Map<String, LeafNode<String>> TRANSPORTS = Map.of(
        Transport.RC.getName(), ImmutableNodes.leafNode(TRANSPORT, Transport.RC.getName()),
        Transport.UC.getName(), ImmutableNodes.leafNode(TRANSPORT, Transport.UC.getName()),
        Transport.UD.getName(), ImmutableNodes.leafNode(TRANSPORT, Transport.UD.getName()));

    // builders sized for their children: a path's entry has up to 16, a direction 11, a hop 12, a
    // marked-at 6 (the default size would grow the entry's map while it is filled)
    private static final BuilderFactory BUILDERS = ImmutableNodes.builderFactory();
    private static final int PATH_CHILDREN = 16;
    private static final int DIRECTION_CHILDREN = 11;
    private static final int HOP_CHILDREN = 12;
    private static final int MARKED_AT_CHILDREN = 6;

    private static final YangInstanceIdentifier RPT_PATH = YangInstanceIdentifier.of(RPT);
    private static final YangInstanceIdentifier PATHS = YangInstanceIdentifier.of(RPT, PATH);

    private PathNodes() {
        // utility
    }

    /** {@code rpt}, where the empty path table is written at the start. */
    static YangInstanceIdentifier rptIdentifier() {
        return RPT_PATH;
    }

    private static final QName FAILED_COMMITS = QName.create(Rpt.QNAME, "failed-commits").intern();
    private static final YangInstanceIdentifier FAILED_COMMITS_PATH = RPT_PATH.node(FAILED_COMMITS);

    /** {@code rpt/failed-commits}. */
    static YangInstanceIdentifier failedCommitsIdentifier() {
        return FAILED_COMMITS_PATH;
    }

    /** The {@code rpt/failed-commits} leaf. */
    static LeafNode<Uint64> failedCommits(final long count) {
        return ImmutableNodes.leafNode(FAILED_COMMITS, Uint64.valueOf(count));
    }

    /** The empty {@code rpt} container. */
    static ContainerNode emptyRpt() {
        return ImmutableNodes.newContainerBuilder().withNodeIdentifier(RPT).build();
    }

    /** {@code rpt/path[session-id=ID]}. */
    static YangInstanceIdentifier identifier(final String sessionId) {
        return PATHS.node(key(sessionId));
    }

    /**
     * The path's list entry, as the binding codec would give it for {@code path}. The RPT writes
     * {@link #node(PathValue, Cache)}; this one is the reference the tests hold that against.
     */
    static MapEntryNode node(final Path path) {
        final String id = path.getSessionId();
        final var b = BUILDERS.newMapEntryBuilder(PATH_CHILDREN).withNodeIdentifier(key(id))
            .withChild(ImmutableNodes.leafNode(SESSION_ID, id));
        ip(b, REQUESTER_IP, path.getRequesterIp());
        ip(b, RESPONDER_IP, path.getResponderIp());
        qpn(b, REQUESTER_QPN, path.getRequesterQpn());
        qpn(b, RESPONDER_QPN, path.getResponderQpn());
        enumeration(b, STATE, path.getState());
        enumeration(b, LEARNED_FROM, path.getLearnedFrom());
        enumeration(b, TRANSPORT, path.getTransport());
        bool(b, ONE_WAY, path.getOneWay());
        direction(b, FORWARD, path.getForward());
        direction(b, REVERSE, path.getReverse());
        direction(b, DATA_FORWARD, path.getDataForward());
        direction(b, DATA_REVERSE, path.getDataReverse());
        bool(b, DATA_PATH_DIFFERS, path.getDataPathDiffers());
        bool(b, ASYMMETRIC, path.getAsymmetric());
        strings(b, ANOMALY, path.getAnomaly());
        return b.build();
    }

    /**
     * The list entry of {@code path}: what {@link #node(Path)} gives for {@link PathValue#toBinding()},
     * built without the binding objects, and from parts shared between paths where they repeat
     * (the {@link Cache}'s).
     */
    static MapEntryNode node(final PathValue path, final Cache cache) {
        final String id = path.sessionId();
        final var b = BUILDERS.newMapEntryBuilder(PATH_CHILDREN).withNodeIdentifier(key(id))
            .withChild(ImmutableNodes.leafNode(SESSION_ID, id));
        // addresses are not cached: there may be as many as paths
        if (path.requesterIp() != null) {
            b.withChild(ImmutableNodes.leafNode(REQUESTER_IP, path.requesterIp()));
        }
        if (path.responderIp() != null) {
            b.withChild(ImmutableNodes.leafNode(RESPONDER_IP, path.responderIp()));
        }
        if (path.requesterQpn() >= 0) {
            b.withChild(ImmutableNodes.leafNode(REQUESTER_QPN, Uint32.valueOf(path.requesterQpn())));
        }
        if (path.responderQpn() >= 0) {
            b.withChild(ImmutableNodes.leafNode(RESPONDER_QPN, Uint32.valueOf(path.responderQpn())));
        }
        if (path.state() != null) {
            b.withChild(cache.state(path.state()));
        }
        b.withChild(path.learnedData() ? LEARNED_DATA : LEARNED_CM);
        if (path.transport() != null) {
            b.withChild(transport(path.transport()));
        }
        if (path.oneWay()) {
            b.withChild(ONE_WAY_TRUE);
        }
        if (path.forward() != null) {
            b.withChild(cache.direction(Cache.FORWARD, path.forward()));
        }
        if (path.reverse() != null) {
            b.withChild(cache.direction(Cache.REVERSE, path.reverse()));
        }
        final var data = path.data();
        if (data != null) {
            b.withChild(cache.direction(Cache.DATA_FORWARD, data.forward()));
            if (data.reverse() != null) {
                b.withChild(cache.direction(Cache.DATA_REVERSE, data.reverse()));
            }
            if (!path.learnedData()) {
                b.withChild(data.differs() ? DATA_PATH_DIFFERS_TRUE : DATA_PATH_DIFFERS_FALSE);
            }
            final var anomalies = data.anomalies();
            if (anomalies != null) {
                b.withChild(anomalies(anomalies));
            }
        }
        b.withChild(path.asymmetric() ? ASYMMETRIC_TRUE : ASYMMETRIC_FALSE);
        return b.build();
    }

    private static LeafNode<String> transport(final String name) {
        final var known = TRANSPORTS.get(name);
        return known != null ? known : ImmutableNodes.leafNode(TRANSPORT, name);
    }

    private static DataContainerChild anomalies(final List<String> anomalies) {
        final var set = BUILDERS.<String>newSystemLeafSetBuilder(anomalies.size()).withNodeIdentifier(ANOMALY);
        for (var anomaly : anomalies) {
            set.withChildValue(anomaly);
        }
        return set.build();
    }

    /**
     * What writing {@code after} where {@code before} was written changes, child by child of the
     * path's entry: the new child where it differs, {@code null} where {@code after} has it no
     * more (a delete). The RPT writes these instead of the whole entry when a path it wrote
     * changes: the datastore's commit serialises what is written, and a session's state changing
     * (set up, closing, closed) is one leaf of a path's hundred. Applied to {@code node(before)},
     * they give {@code node(after)}.
     */
    static Map<NodeIdentifier, @Nullable NormalizedNode> changes(final PathValue before, final PathValue after,
            final Cache cache) {
        final Map<NodeIdentifier, @Nullable NormalizedNode> out = new LinkedHashMap<>();
        change(out, REQUESTER_IP, before.requesterIp(), after.requesterIp(),
            () -> ImmutableNodes.leafNode(REQUESTER_IP, after.requesterIp()));
        change(out, RESPONDER_IP, before.responderIp(), after.responderIp(),
            () -> ImmutableNodes.leafNode(RESPONDER_IP, after.responderIp()));
        change(out, REQUESTER_QPN, qpn(before.requesterQpn()), qpn(after.requesterQpn()),
            () -> ImmutableNodes.leafNode(REQUESTER_QPN, Uint32.valueOf(after.requesterQpn())));
        change(out, RESPONDER_QPN, qpn(before.responderQpn()), qpn(after.responderQpn()),
            () -> ImmutableNodes.leafNode(RESPONDER_QPN, Uint32.valueOf(after.responderQpn())));
        change(out, STATE, before.state(), after.state(), () -> cache.state(after.state()));
        change(out, LEARNED_FROM, before.learnedData(), after.learnedData(),
            () -> after.learnedData() ? LEARNED_DATA : LEARNED_CM);
        change(out, TRANSPORT, before.transport(), after.transport(), () -> transport(after.transport()));
        change(out, ONE_WAY, before.oneWay() ? Boolean.TRUE : null, after.oneWay() ? Boolean.TRUE : null,
            () -> ONE_WAY_TRUE);
        change(out, FORWARD, before.forward(), after.forward(),
            () -> cache.direction(Cache.FORWARD, after.forward()));
        change(out, REVERSE, before.reverse(), after.reverse(),
            () -> cache.direction(Cache.REVERSE, after.reverse()));
        final var was = before.data();
        final var now = after.data();
        change(out, DATA_FORWARD, was == null ? null : was.forward(), now == null ? null : now.forward(),
            () -> cache.direction(Cache.DATA_FORWARD, now.forward()));
        change(out, DATA_REVERSE, was == null ? null : was.reverse(), now == null ? null : now.reverse(),
            () -> cache.direction(Cache.DATA_REVERSE, now.reverse()));
        change(out, DATA_PATH_DIFFERS, was == null || before.learnedData() ? null : was.differs(),
            now == null || after.learnedData() ? null : now.differs(),
            () -> now.differs() ? DATA_PATH_DIFFERS_TRUE : DATA_PATH_DIFFERS_FALSE);
        change(out, ANOMALY, was == null ? null : was.anomalies(), now == null ? null : now.anomalies(),
            () -> anomalies(now.anomalies()));
        change(out, ASYMMETRIC, before.asymmetric(), after.asymmetric(),
            () -> after.asymmetric() ? ASYMMETRIC_TRUE : ASYMMETRIC_FALSE);
        return out;
    }

    private static void change(final Map<NodeIdentifier, @Nullable NormalizedNode> out, final NodeIdentifier child,
            final @Nullable Object before, final @Nullable Object after, final Supplier<NormalizedNode> made) {
        if (!Objects.equals(before, after)) {
            out.put(child, after == null ? null : made.get());
        }
    }

    /**
     * The parts of path nodes that repeat between paths, made once: a direction (the sessions
     * between two hosts that took the same way have the same), a hop, a leaf naming a node or a
     * port, a state. Nodes are immutable, so the datastore holds one copy for all the paths
     * that have it. Each kind is kept for the {@link #SIZE} last used. Not thread-safe: the RPT's
     * thread only.
     */
    static final class Cache {
        static final int FORWARD = 0;
        static final int REVERSE = 1;
        static final int DATA_FORWARD = 2;
        static final int DATA_REVERSE = 3;
        /** Entries of each kind kept at most. */
        static final int SIZE = 8192;

        private static final NodeIdentifier[] CONTAINERS = {
            NodeIdentifier.create(Forward.QNAME), NodeIdentifier.create(Reverse.QNAME),
            NodeIdentifier.create(DataForward.QNAME), NodeIdentifier.create(DataReverse.QNAME)};

        private record HopKey(int index, PathAssembler.HopResult hop, boolean data) {
        }

        private final List<Map<PathAssembler.DirectionResult, ContainerNode>> directions = List.of(lru(), lru(), lru(),
            lru());
        private final Map<HopKey, MapEntryNode> hops = lru();
        // by leaf (a handful), then by value
        private final Map<NodeIdentifier, Map<String, LeafNode<String>>> leaves = new IdentityHashMap<>();
        private final Map<SessionState, LeafNode<String>> states = new EnumMap<>(SessionState.class);
        private final Map<Integer, NodeIdentifierWithPredicates> hopKeys = new HashMap<>();
        private final Map<Integer, LeafNode<Uint16>> hopIndexes = new HashMap<>();
        private final LeafNode<String>[] traffic;

        @SuppressWarnings("unchecked")
        Cache() {
            traffic = new LeafNode[] {ImmutableNodes.leafNode(TRAFFIC, TrafficKind.Cm.getName()),
                ImmutableNodes.leafNode(TRAFFIC, TrafficKind.Data.getName())};
        }

        private static <K, V> Map<K, V> lru() {
            return new LinkedHashMap<>(64, 0.75f, true) {
                private static final long serialVersionUID = 1L;

                @Override
                protected boolean removeEldestEntry(final Map.Entry<K, V> eldest) {
                    return size() > SIZE;
                }
            };
        }

        LeafNode<String> leaf(final NodeIdentifier name, final String value) {
            final var byValue = leaves.computeIfAbsent(name, k -> lru());
            final var known = byValue.get(value);
            if (known != null) {
                return known;
            }
            final LeafNode<String> made = ImmutableNodes.leafNode(name, value);
            byValue.put(value, made);
            return made;
        }

        LeafNode<String> state(final SessionState state) {
            return states.computeIfAbsent(state, s -> ImmutableNodes.leafNode(STATE, s.getName()));
        }

        ContainerNode direction(final int which, final PathAssembler.DirectionResult direction) {
            final var byDirection = directions.get(which);
            final var known = byDirection.get(direction);
            if (known != null) {
                return known;
            }
            final var b = BUILDERS.newContainerBuilder(DIRECTION_CHILDREN).withNodeIdentifier(CONTAINERS[which]);
            final var source = direction.source();
            if (source != null) {
                b.withChild(leaf(SOURCE_NODE, source.node()));
                if (source.tp() != null) {
                    b.withChild(leaf(SOURCE_TP, source.tp()));
                }
            }
            final var destination = direction.destination();
            if (destination != null) {
                b.withChild(leaf(DESTINATION_NODE, destination.node()));
                if (destination.tp() != null) {
                    b.withChild(leaf(DESTINATION_TP, destination.tp()));
                }
            }
            b.withChild(direction.complete() ? COMPLETE_TRUE : COMPLETE_FALSE);
            final var hopResults = direction.hops();
            if (!hopResults.isEmpty()) {
                final boolean data = which >= DATA_FORWARD;
                final var list = BUILDERS.newUserMapBuilder(hopResults.size()).withNodeIdentifier(HOP);
                int index = 0;
                for (var hop : hopResults) {
                    list.withChild(hop(index++, hop, data));
                }
                b.withChild(list.build());
            }
            // the gaps are a set: each once, as the binding path has them
            final var gaps = BUILDERS.<String>newSystemLeafSetBuilder(direction.gaps().size()).withNodeIdentifier(GAP);
            for (var gap : direction.gaps()) {
                gaps.withChildValue(gap);
            }
            b.withChild(gaps.build());
            final var congestion = direction.congestion();
            if (congestion != null) {
                count(b, CE_PACKETS, congestion.ce());
                share(b, CE_SHARE, congestion.ceShare());
                count(b, CNP_PACKETS, congestion.cnp());
                final var marked = congestion.markedAt();
                if (marked != null) {
                    b.withChild(markedAt(marked));
                }
            }
            final var made = b.build();
            byDirection.put(direction, made);
            return made;
        }

        private ContainerNode markedAt(final Congestion.MarkedAt marked) {
            final var b = BUILDERS.newContainerBuilder(MARKED_AT_CHILDREN).withNodeIdentifier(MARKED_AT);
            if (marked.node() != null) {
                b.withChild(leaf(MARKED_NODE_ID, marked.node()));
            }
            if (marked.egressTp() != null) {
                b.withChild(leaf(MARKED_EGRESS_TP, marked.egressTp()));
            }
            b.withChild(leaf(NEXT_NODE_ID, marked.nextNode()));
            if (marked.nextIngressTp() != null) {
                b.withChild(leaf(NEXT_INGRESS_TP, marked.nextIngressTp()));
            }
            b.withChild(ImmutableNodes.leafNode(HOP_INDEX, Uint16.valueOf(marked.hopIndex())));
            b.withChild(ImmutableNodes.leafNode(CERTAIN, marked.certain()));
            return b.build();
        }

        private MapEntryNode hop(final int index, final PathAssembler.HopResult hop, final boolean data) {
            final var key = new HopKey(index, hop, data);
            final var known = hops.get(key);
            if (known != null) {
                return known;
            }
            final var b = BUILDERS.newMapEntryBuilder(HOP_CHILDREN)
                .withNodeIdentifier(hopKeys.computeIfAbsent(index,
                    i -> NodeIdentifierWithPredicates.of(Hop.QNAME, INDEX_QNAME, Uint16.valueOf(i))))
                .withChild(hopIndexes.computeIfAbsent(index, i -> ImmutableNodes.leafNode(INDEX, Uint16.valueOf(i))))
                .withChild(leaf(NODE_ID, hop.node()));
            if (hop.ingressTp() != null) {
                b.withChild(leaf(INGRESS_TP, hop.ingressTp()));
            }
            if (hop.egressTp() != null) {
                b.withChild(leaf(EGRESS_TP, hop.egressTp()));
            }
            b.withChild(hop.observed() ? OBSERVED_TRUE : OBSERVED_FALSE);
            b.withChild(traffic[data ? 1 : 0]);
            final var figures = hop.figures();
            if (figures != null) {
                if (figures.dscp() >= 0) {
                    b.withChild(ImmutableNodes.leafNode(DSCP, Uint8.valueOf(figures.dscp())));
                }
                if (figures.priority() >= 0) {
                    b.withChild(ImmutableNodes.leafNode(PRIORITY, Uint8.valueOf(figures.priority())));
                }
                count(b, ECT_PACKETS, figures.ect());
                count(b, CE_PACKETS, figures.ce());
                share(b, CE_SHARE, figures.ceShare());
                count(b, CNP_PACKETS, figures.cnp());
            }
            final var made = b.build();
            hops.put(key, made);
            return made;
        }
    }

    private static final NodeIdentifier PAUSED_PORT = NodeIdentifier.create(PausedPort.QNAME);
    private static final QName PAUSED_NODE_ID = QName.create(PausedPort.QNAME, "node-id").intern();
    private static final QName PAUSED_TP_ID = QName.create(PausedPort.QNAME, "tp-id").intern();
    private static final QName PAUSED_PRIORITY = QName.create(PausedPort.QNAME, "priority").intern();
    private static final NodeIdentifier PAUSED = leaf("paused");
    private static final NodeIdentifier PAUSED_SHARE = leaf("paused-share");
    private static final NodeIdentifier SESSION_COUNT = leaf("session-count");
    private static final NodeIdentifier SESSION = leaf("session");
    private static final YangInstanceIdentifier PAUSED_PORTS = YangInstanceIdentifier.of(RPT, PAUSED_PORT);

    /** {@code rpt/paused-port[node-id, tp-id, priority]}. */
    static YangInstanceIdentifier pausedPortIdentifier(final String node, final String tp, final int priority) {
        return PAUSED_PORTS.node(pausedPortKey(node, tp, Uint8.valueOf(priority)));
    }

    private static NodeIdentifierWithPredicates pausedPortKey(final String node, final String tp,
            final Uint8 priority) {
        // the key's leaves in the model's order
        final Map<QName, Object> keys = new LinkedHashMap<>();
        keys.put(PAUSED_NODE_ID, node);
        keys.put(PAUSED_TP_ID, tp);
        keys.put(PAUSED_PRIORITY, priority);
        return NodeIdentifierWithPredicates.of(PausedPort.QNAME, keys);
    }

    /** A paused port's list entry, as the binding codec would give it for its binding {@link PausedPort}. */
    static MapEntryNode pausedPort(final PausedPorts.Entry entry) {
        final var pause = entry.pause();
        final var priority = Uint8.valueOf(pause.priority());
        final var b = BUILDERS.newMapEntryBuilder(7)
            .withNodeIdentifier(pausedPortKey(entry.node(), pause.tp(), priority))
            .withChild(ImmutableNodes.leafNode(NodeIdentifier.create(PAUSED_NODE_ID), entry.node()))
            .withChild(ImmutableNodes.leafNode(NodeIdentifier.create(PAUSED_TP_ID), pause.tp()))
            .withChild(ImmutableNodes.leafNode(NodeIdentifier.create(PAUSED_PRIORITY), priority))
            .withChild(ImmutableNodes.leafNode(PAUSED, pause.paused()))
            .withChild(ImmutableNodes.leafNode(SESSION_COUNT, Uint32.valueOf(entry.count())));
        share(b, PAUSED_SHARE, pause.share());
        if (!entry.sessions().isEmpty()) {
            final var set = BUILDERS.<String>newSystemLeafSetBuilder(entry.sessions().size())
                .withNodeIdentifier(SESSION);
            entry.sessions().forEach(set::withChildValue);
            b.withChild(set.build());
        }
        return b.build();
    }

    /** The reference for {@link #pausedPort(PausedPorts.Entry)}: a binding paused port as the codec gives it. */
    static MapEntryNode pausedPort(final PausedPort port) {
        final var b = BUILDERS.newMapEntryBuilder(7)
            .withNodeIdentifier(pausedPortKey(port.getNodeId().getValue(), port.getTpId().getValue(),
                port.getPriority()));
        uri(b, NodeIdentifier.create(PAUSED_NODE_ID), port.getNodeId());
        uri(b, NodeIdentifier.create(PAUSED_TP_ID), port.getTpId());
        uint8(b, NodeIdentifier.create(PAUSED_PRIORITY), port.getPriority());
        bool(b, PAUSED, port.getPaused());
        decimal(b, PAUSED_SHARE, port.getPausedShare());
        if (port.getSessionCount() != null) {
            b.withChild(ImmutableNodes.leafNode(SESSION_COUNT, port.getSessionCount()));
        }
        strings(b, SESSION, port.getSession());
        return b.build();
    }

    private static NodeIdentifierWithPredicates key(final String sessionId) {
        return NodeIdentifierWithPredicates.of(Path.QNAME, SESSION_ID_QNAME, sessionId);
    }

    private static void direction(final DataContainerNodeBuilder<?, ?> parent, final NodeIdentifier name,
            final @Nullable Direction direction) {
        if (direction == null) {
            return;
        }
        final var b = BUILDERS.newContainerBuilder(DIRECTION_CHILDREN).withNodeIdentifier(name);
        uri(b, SOURCE_NODE, direction.getSourceNode());
        uri(b, SOURCE_TP, direction.getSourceTp());
        uri(b, DESTINATION_NODE, direction.getDestinationNode());
        uri(b, DESTINATION_TP, direction.getDestinationTp());
        bool(b, COMPLETE, direction.getComplete());
        hops(b, direction.getHop());
        strings(b, GAP, direction.getGap());
        decimal(b, CE_SHARE, direction.getCeShare());
        uint64(b, CE_PACKETS, direction.getCePackets());
        uint64(b, CNP_PACKETS, direction.getCnpPackets());
        final var marked = direction.getMarkedAt();
        if (marked != null) {
            final var m = BUILDERS.newContainerBuilder(MARKED_AT_CHILDREN).withNodeIdentifier(MARKED_AT);
            uri(m, MARKED_NODE_ID, marked.getNodeId());
            uri(m, MARKED_EGRESS_TP, marked.getEgressTp());
            uri(m, NEXT_NODE_ID, marked.getNextNodeId());
            uri(m, NEXT_INGRESS_TP, marked.getNextIngressTp());
            if (marked.getHopIndex() != null) {
                m.withChild(ImmutableNodes.leafNode(HOP_INDEX, marked.getHopIndex()));
            }
            bool(m, CERTAIN, marked.getCertain());
            b.withChild(m.build());
        }
        parent.withChild(b.build());
    }

    private static void decimal(final DataContainerNodeBuilder<?, ?> parent, final NodeIdentifier name,
            final @Nullable Decimal64 value) {
        if (value != null) {
            parent.withChild(ImmutableNodes.leafNode(name, value));
        }
    }

    private static void uint64(final DataContainerNodeBuilder<?, ?> parent, final NodeIdentifier name,
            final @Nullable Uint64 value) {
        if (value != null) {
            parent.withChild(ImmutableNodes.leafNode(name, value));
        }
    }

    private static void uint8(final DataContainerNodeBuilder<?, ?> parent, final NodeIdentifier name,
            final @Nullable Uint8 value) {
        if (value != null) {
            parent.withChild(ImmutableNodes.leafNode(name, value));
        }
    }

    /** A count leaf, where known (not negative). */
    private static void count(final DataContainerNodeBuilder<?, ?> parent, final NodeIdentifier name,
            final long value) {
        if (value >= 0) {
            parent.withChild(ImmutableNodes.leafNode(name, Uint64.valueOf(value)));
        }
    }

    /** A share leaf (decimal64, four digits) from ten-thousandths, where known (not negative). */
    private static void share(final DataContainerNodeBuilder<?, ?> parent, final NodeIdentifier name,
            final long tenThousandths) {
        if (tenThousandths >= 0) {
            parent.withChild(ImmutableNodes.leafNode(name, Decimal64.of(4, tenThousandths)));
        }
    }

    private static void hops(final DataContainerNodeBuilder<?, ?> parent, final @Nullable List<Hop> hops) {
        // the binding builders keep no empty list (they store null), so neither does the codec
        if (hops == null || hops.isEmpty()) {
            return;
        }
        // ordered-by user: the hops' order is the path's
        final var list = BUILDERS.newUserMapBuilder(hops.size()).withNodeIdentifier(HOP);
        for (var hop : hops) {
            final var index = hop.getIndex();
            final var b = BUILDERS.newMapEntryBuilder(HOP_CHILDREN)
                .withNodeIdentifier(NodeIdentifierWithPredicates.of(Hop.QNAME, INDEX_QNAME, index))
                .withChild(ImmutableNodes.leafNode(INDEX, index));
            uri(b, NODE_ID, hop.getNodeId());
            uri(b, INGRESS_TP, hop.getIngressTp());
            uri(b, EGRESS_TP, hop.getEgressTp());
            bool(b, OBSERVED, hop.getObserved());
            enumeration(b, TRAFFIC, hop.getTraffic());
            uint8(b, DSCP, hop.getDscp());
            uint8(b, PRIORITY, hop.getPriority());
            uint64(b, ECT_PACKETS, hop.getEctPackets());
            uint64(b, CE_PACKETS, hop.getCePackets());
            decimal(b, CE_SHARE, hop.getCeShare());
            uint64(b, CNP_PACKETS, hop.getCnpPackets());
            list.withChild(b.build());
        }
        parent.withChild(list.build());
    }

    private static void strings(final DataContainerNodeBuilder<?, ?> parent, final NodeIdentifier name,
            final @Nullable Set<String> values) {
        if (values == null) {
            return;
        }
        // an empty set stays an empty leaf-list, as the codec writes it: a binding reader gets an
        // empty set back, not null, and the path read equals the path the RPT holds
        final var b = BUILDERS.<String>newSystemLeafSetBuilder(values.size()).withNodeIdentifier(name);
        for (var value : values) {
            b.withChildValue(value);
        }
        parent.withChild(b.build());
    }

    private static void ip(final DataContainerNodeBuilder<?, ?> parent, final NodeIdentifier name,
            final @Nullable IpAddress value) {
        if (value != null) {
            // a union of strings: the codec gives the member's string
            parent.withChild(ImmutableNodes.leafNode(name, value.stringValue()));
        }
    }

    private static @Nullable Integer qpn(final int qpn) {
        return qpn >= 0 ? qpn : null;
    }

    private static void qpn(final DataContainerNodeBuilder<?, ?> parent, final NodeIdentifier name,
            final @Nullable Qpn value) {
        if (value != null) {
            parent.withChild(ImmutableNodes.leafNode(name, value.getValue()));
        }
    }

    private static void uri(final DataContainerNodeBuilder<?, ?> parent, final NodeIdentifier name,
            final @Nullable Uri value) {
        if (value != null) {
            parent.withChild(ImmutableNodes.leafNode(name, value.getValue()));
        }
    }

    private static void enumeration(final DataContainerNodeBuilder<?, ?> parent, final NodeIdentifier name,
            final @Nullable EnumTypeObject value) {
        if (value != null) {
            parent.withChild(ImmutableNodes.leafNode(name, value.getName()));
        }
    }

    private static void bool(final DataContainerNodeBuilder<?, ?> parent, final NodeIdentifier name,
            final @Nullable Boolean value) {
        if (value != null) {
            parent.withChild(ImmutableNodes.leafNode(name, value));
        }
    }

    private static NodeIdentifier leaf(final String localName) {
        return NodeIdentifier.create(QName.create(Path.QNAME, localName).intern());
    }
}
