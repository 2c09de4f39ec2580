/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.insight;

import java.util.ArrayList;
import java.util.List;
import org.eclipse.jdt.annotation.Nullable;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.Rpt;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.rpt.Path;
import org.opendaylight.yangtools.yang.common.Decimal64;
import org.opendaylight.yangtools.yang.common.QName;
import org.opendaylight.yangtools.yang.common.Uint64;
import org.opendaylight.yangtools.yang.data.api.YangInstanceIdentifier;
import org.opendaylight.yangtools.yang.data.api.YangInstanceIdentifier.NodeIdentifier;
import org.opendaylight.yangtools.yang.data.api.YangInstanceIdentifier.NodeIdentifierWithPredicates;
import org.opendaylight.yangtools.yang.data.api.schema.DataContainerNode;
import org.opendaylight.yangtools.yang.data.api.schema.LeafNode;
import org.opendaylight.yangtools.yang.data.api.schema.LeafSetNode;
import org.opendaylight.yangtools.yang.data.api.schema.MapEntryNode;
import org.opendaylight.yangtools.yang.data.api.schema.MapNode;
import org.opendaylight.yangtools.yang.data.tree.api.DataTreeCandidate;
import org.opendaylight.yangtools.yang.data.tree.api.ModificationType;

/**
 * A path's facts read from the path table's node itself, leaf by leaf, as {@link SessionLeaves}
 * reads sessions: a binding {@code Path} decodes lazily and checks its addresses' patterns on
 * each read. {@code PathLeavesTest} holds it to {@link PathFacts#of(Path)}.
 */
final class PathLeaves {
    static final NodeIdentifier RPT = NodeIdentifier.create(Rpt.QNAME);
    static final NodeIdentifier PATH = NodeIdentifier.create(Path.QNAME);
    static final QName SESSION_ID = leaf("session-id");
    private static final NodeIdentifier REQUESTER_IP = id("requester-ip");
    private static final NodeIdentifier RESPONDER_IP = id("responder-ip");
    private static final NodeIdentifier FORWARD = id("forward");
    private static final NodeIdentifier REVERSE = id("reverse");
    private static final NodeIdentifier DATA_FORWARD = id("data-forward");
    private static final NodeIdentifier DATA_REVERSE = id("data-reverse");
    private static final NodeIdentifier LEARNED_FROM = id("learned-from");
    private static final NodeIdentifier ONE_WAY = id("one-way");
    private static final NodeIdentifier HOP = id("hop");
    private static final NodeIdentifier NODE_ID = id("node-id");
    private static final NodeIdentifier COMPLETE = id("complete");
    private static final NodeIdentifier ASYMMETRIC = id("asymmetric");
    private static final NodeIdentifier DATA_PATH_DIFFERS = id("data-path-differs");
    private static final NodeIdentifier ANOMALY = id("anomaly");
    private static final NodeIdentifier INGRESS_TP = id("ingress-tp");
    private static final NodeIdentifier ECT_PACKETS = id("ect-packets");
    private static final NodeIdentifier CE_PACKETS = id("ce-packets");
    private static final NodeIdentifier CNP_PACKETS = id("cnp-packets");
    private static final NodeIdentifier CE_SHARE = id("ce-share");
    private static final NodeIdentifier MARKED_AT = id("marked-at");
    private static final NodeIdentifier EGRESS_TP = id("egress-tp");
    private static final NodeIdentifier NEXT_NODE_ID = id("next-node-id");
    private static final NodeIdentifier NEXT_INGRESS_TP = id("next-ingress-tp");
    private static final NodeIdentifier CERTAIN = id("certain");
    /** marked-at's node-id: the same QName as a hop's. */
    private static final NodeIdentifier MARKED_NODE_ID = NODE_ID;

    private PathLeaves() {
        // utility
    }

    private static QName leaf(final String name) {
        return QName.create(Path.QNAME, name).intern();
    }

    private static NodeIdentifier id(final String name) {
        return NodeIdentifier.create(leaf(name));
    }

    /** {@code rpt/path}: the list the insight worker follows. */
    static YangInstanceIdentifier paths() {
        return YangInstanceIdentifier.of(RPT, PATH);
    }

    private static final NodeIdentifier FAILED_COMMITS = NodeIdentifier.create(
        QName.create(Rpt.QNAME, "failed-commits").intern());

    /**
     * {@code rpt/failed-commits}, followed by itself: a listener there hears of nothing but its
     * changes (one at {@code rpt} would be told of every commit of paths).
     */
    static YangInstanceIdentifier failedCommitsPath() {
        return YangInstanceIdentifier.of(RPT, FAILED_COMMITS);
    }

    /**
     * {@code rpt/failed-commits} as the last of {@code changes} (registered at the leaf) left it
     * (0 when removed), or -1 when none changed it.
     */
    static long failedCommits(final List<DataTreeCandidate> changes) {
        long failed = -1;
        for (var change : changes) {
            final var leaf = change.getRootNode();
            if (leaf.modificationType() != ModificationType.UNMODIFIED) {
                failed = leaf.dataAfter() instanceof LeafNode<?> after && after.body() instanceof Uint64 n
                    ? n.longValue() : 0;
            }
        }
        return failed;
    }

    /** The session id of a path entry's key, or {@code null} for another path argument. */
    static @Nullable String sessionId(final YangInstanceIdentifier.PathArgument arg) {
        return arg instanceof NodeIdentifierWithPredicates key && key.getValue(SESSION_ID) instanceof String id ? id
            : null;
    }

    static PathFacts facts(final String sessionId, final MapEntryNode path) {
        final List<String> dataApart = new ArrayList<>();
        if (Boolean.TRUE.equals(value(path, DATA_PATH_DIFFERS))
                && path.childByArg(ANOMALY) instanceof LeafSetNode<?> set) {
            // where data and CM part: the rpt's anomalies that say so
            for (var anomaly : set.body()) {
                if (anomaly.body() instanceof String text && text.contains(" data ")) {
                    dataApart.add(text);
                }
            }
            dataApart.sort(null);
        }
        // a data-learned session's directions are its data paths (it has no CM ones)
        final boolean data = "data".equals(value(path, LEARNED_FROM));
        final boolean oneWay = data && Boolean.TRUE.equals(value(path, ONE_WAY));
        final var forward = path.childByArg(data ? DATA_FORWARD : FORWARD) instanceof DataContainerNode d ? d : null;
        final var reverse = path.childByArg(data ? DATA_REVERSE : REVERSE) instanceof DataContainerNode d ? d : null;
        return new PathFacts(sessionId, text(path, REQUESTER_IP), text(path, RESPONDER_IP), nodes(forward),
            nodes(reverse), complete(forward), oneWay || complete(reverse),
            Boolean.TRUE.equals(value(path, ASYMMETRIC)), dataApart, data, oneWay,
            ecn(path.childByArg(DATA_FORWARD) instanceof DataContainerNode d ? d : null),
            ecn(path.childByArg(DATA_REVERSE) instanceof DataContainerNode d ? d : null));
    }

    /** A data direction's congestion figures, as {@link PathFacts#of} reads them. */
    private static PathFacts.@Nullable Ecn ecn(final @Nullable DataContainerNode direction) {
        if (direction == null) {
            return null;
        }
        final var hops = new ArrayList<PathFacts.HopFigures>();
        if (direction.childByArg(HOP) instanceof MapNode list) {
            for (var hop : list.body()) {
                final long ect = count(hop, ECT_PACKETS);
                final long ce = count(hop, CE_PACKETS);
                final long cnp = count(hop, CNP_PACKETS);
                if (value(hop, NODE_ID) instanceof String node && (ect >= 0 || ce >= 0 || cnp >= 0)) {
                    hops.add(new PathFacts.HopFigures(node, text(hop, INGRESS_TP), ect, ce, cnp));
                }
            }
        }
        final var at = direction.childByArg(MARKED_AT) instanceof DataContainerNode d ? d : null;
        return PathFacts.ecnOf(value(direction, CE_SHARE) instanceof Decimal64 share ? share.doubleValue() : Double.NaN,
            count(direction, CE_PACKETS), count(direction, CNP_PACKETS), at != null,
            at == null ? null : text(at, MARKED_NODE_ID), at == null ? null : text(at, EGRESS_TP),
            at == null ? null : text(at, NEXT_NODE_ID), at == null ? null : text(at, NEXT_INGRESS_TP),
            at != null && Boolean.TRUE.equals(value(at, CERTAIN)), hops);
    }

    private static long count(final DataContainerNode node, final NodeIdentifier leaf) {
        return value(node, leaf) instanceof Uint64 n ? Math.max(0, n.longValue()) : -1;
    }

    private static List<String> nodes(final @Nullable DataContainerNode direction) {
        final var out = new ArrayList<String>();
        if (direction != null && direction.childByArg(HOP) instanceof MapNode hops) {
            for (var hop : hops.body()) {
                if (value(hop, NODE_ID) instanceof String node) {
                    out.add(node);
                }
            }
        }
        return out;
    }

    private static boolean complete(final @Nullable DataContainerNode direction) {
        return direction != null && Boolean.TRUE.equals(value(direction, COMPLETE));
    }

    private static @Nullable Object value(final DataContainerNode node, final NodeIdentifier leaf) {
        final var child = node.childByArg(leaf);
        return child == null ? null : child.body();
    }

    private static @Nullable String text(final DataContainerNode node, final NodeIdentifier leaf) {
        return value(node, leaf) instanceof String text ? text : null;
    }
}
