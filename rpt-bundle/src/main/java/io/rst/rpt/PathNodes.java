/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rpt;

import java.util.List;
import java.util.Set;
import org.eclipse.jdt.annotation.Nullable;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.Qpn;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.Direction;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.Rpt;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.direction.Hop;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.path.DataForward;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.path.DataReverse;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.path.Forward;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.path.Reverse;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.rpt.Path;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.IpAddress;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.Uri;
import org.opendaylight.yangtools.binding.EnumTypeObject;
import org.opendaylight.yangtools.yang.common.QName;
import org.opendaylight.yangtools.yang.data.api.YangInstanceIdentifier;
import org.opendaylight.yangtools.yang.data.api.YangInstanceIdentifier.NodeIdentifier;
import org.opendaylight.yangtools.yang.data.api.YangInstanceIdentifier.NodeIdentifierWithPredicates;
import org.opendaylight.yangtools.yang.data.api.schema.ContainerNode;
import org.opendaylight.yangtools.yang.data.api.schema.MapEntryNode;
import org.opendaylight.yangtools.yang.data.api.schema.NormalizedNode.BuilderFactory;
import org.opendaylight.yangtools.yang.data.api.schema.builder.DataContainerNodeBuilder;
import org.opendaylight.yangtools.yang.data.spi.node.ImmutableNodes;

/**
 * A path as the datastore stores it ({@code rdma-path-table:rpt/path}, a {@code MapEntryNode}),
 * built by hand from the binding {@link Path}. The binding codec streams a DataObject through a
 * generic, reflective writer, and a profile of a CM storm showed the RPT's thread spending half its
 * time there; these builders with identifiers made once cost a fraction of that. The values are
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

    // hop grouping
    private static final QName INDEX_QNAME = QName.create(Hop.QNAME, "index").intern();
    private static final NodeIdentifier INDEX = NodeIdentifier.create(INDEX_QNAME);
    private static final NodeIdentifier NODE_ID = leaf("node-id");
    private static final NodeIdentifier INGRESS_TP = leaf("ingress-tp");
    private static final NodeIdentifier EGRESS_TP = leaf("egress-tp");
    private static final NodeIdentifier OBSERVED = leaf("observed");
    private static final NodeIdentifier TRAFFIC = leaf("traffic");

    // builders sized for their children: a path's entry has up to 13, a direction 7, a hop 6 (the
    // default size would grow the entry's map while it is filled)
    private static final BuilderFactory BUILDERS = ImmutableNodes.builderFactory();
    private static final int PATH_CHILDREN = 13;
    private static final int DIRECTION_CHILDREN = 7;
    private static final int HOP_CHILDREN = 6;

    private static final YangInstanceIdentifier RPT_PATH = YangInstanceIdentifier.of(RPT);
    private static final YangInstanceIdentifier PATHS = YangInstanceIdentifier.of(RPT, PATH);

    private PathNodes() {
        // utility
    }

    /** {@code rpt}, where the empty path table is written at the start. */
    static YangInstanceIdentifier rptIdentifier() {
        return RPT_PATH;
    }

    /** The empty {@code rpt} container. */
    static ContainerNode emptyRpt() {
        return ImmutableNodes.newContainerBuilder().withNodeIdentifier(RPT).build();
    }

    /** {@code rpt/path[session-id=ID]}. */
    static YangInstanceIdentifier identifier(final String sessionId) {
        return PATHS.node(key(sessionId));
    }

    /** The path's list entry, as the binding codec would give it for {@code path}. */
    static MapEntryNode node(final Path path) {
        final String id = path.getSessionId();
        final var b = BUILDERS.newMapEntryBuilder(PATH_CHILDREN).withNodeIdentifier(key(id))
            .withChild(ImmutableNodes.leafNode(SESSION_ID, id));
        ip(b, REQUESTER_IP, path.getRequesterIp());
        ip(b, RESPONDER_IP, path.getResponderIp());
        qpn(b, REQUESTER_QPN, path.getRequesterQpn());
        qpn(b, RESPONDER_QPN, path.getResponderQpn());
        enumeration(b, STATE, path.getState());
        direction(b, FORWARD, path.getForward());
        direction(b, REVERSE, path.getReverse());
        direction(b, DATA_FORWARD, path.getDataForward());
        direction(b, DATA_REVERSE, path.getDataReverse());
        bool(b, DATA_PATH_DIFFERS, path.getDataPathDiffers());
        bool(b, ASYMMETRIC, path.getAsymmetric());
        strings(b, ANOMALY, path.getAnomaly());
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
        parent.withChild(b.build());
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
