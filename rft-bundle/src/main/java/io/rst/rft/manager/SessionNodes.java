/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.manager;

import java.util.Set;
import org.eclipse.jdt.annotation.Nullable;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.Rft;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rdma.session.Message;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rdma.session.RequesterData;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rdma.session.ResponderData;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft.Switch;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.Session;
import org.opendaylight.yangtools.yang.common.QName;
import org.opendaylight.yangtools.yang.common.Uint32;
import org.opendaylight.yangtools.yang.data.api.YangInstanceIdentifier;
import org.opendaylight.yangtools.yang.data.api.YangInstanceIdentifier.NodeIdentifier;
import org.opendaylight.yangtools.yang.data.api.YangInstanceIdentifier.NodeIdentifierWithPredicates;
import org.opendaylight.yangtools.yang.data.api.schema.LeafNode;
import org.opendaylight.yangtools.yang.data.api.schema.MapEntryNode;
import org.opendaylight.yangtools.yang.data.spi.node.ImmutableNodes;

/**
 * The flow table's sessions as the datastore holds them (NormalizedNode), built by hand: their
 * paths, their leaves' identifiers and layouts, and the changes the manager makes to an entry
 * (unconfirmed, pairing). The binding codec streams a session through reflection and a codec per
 * leaf: it would be most of the RFT manager's time under a storm (a profile at 20,000 CM
 * packets/s: 88% of its thread). The followers build the same nodes directly from the agents'
 * records ({@link SessionStream}, with the layouts here); {@code SessionNodesTest} holds them to
 * the codec's output, leaf by leaf, so a leaf added to the model and not here fails there.
 */
final class SessionNodes {
    static final QName SESSION = Session.QNAME;
    static final NodeIdentifier RFT = NodeIdentifier.create(Rft.QNAME);
    static final NodeIdentifier SWITCH = NodeIdentifier.create(Switch.QNAME);
    static final QName NODE_ID = QName.create(Switch.QNAME, "node-id").intern();
    static final NodeIdentifier SESSIONS = NodeIdentifier.create(SESSION);
    static final QName SESSION_ID = leaf("session-id");
    static final NodeIdentifier SESSION_ID_LEAF = NodeIdentifier.create(SESSION_ID);
    static final NodeIdentifier LEARNED_FROM = id("learned-from");
    static final NodeIdentifier TRANSPORT = id("transport");
    static final NodeIdentifier ONE_WAY = id("one-way");
    static final NodeIdentifier PAIR_AMBIGUOUS = id("pair-ambiguous");
    static final NodeIdentifier PAIRED_SESSION = id("paired-session");
    static final NodeIdentifier REQUESTER_IP = id("requester-ip");
    static final NodeIdentifier RESPONDER_IP = id("responder-ip");
    static final NodeIdentifier REQUESTER_COMM_ID = id("requester-comm-id");
    static final NodeIdentifier RESPONDER_COMM_ID = id("responder-comm-id");
    static final NodeIdentifier REQUESTER_QPN = id("requester-qpn");
    static final NodeIdentifier RESPONDER_QPN = id("responder-qpn");
    static final NodeIdentifier SERVICE_ID = id("service-id");
    static final NodeIdentifier ROLES_KNOWN = id("roles-known");
    static final NodeIdentifier RDMA_CM_SRC_PORT = id("rdma-cm-src-port");
    static final NodeIdentifier RDMA_CM_DST_PORT = id("rdma-cm-dst-port");
    static final NodeIdentifier REQUESTER_UDP_SRC_PORT = id("requester-udp-src-port");
    static final NodeIdentifier RESPONDER_UDP_SRC_PORT = id("responder-udp-src-port");
    static final NodeIdentifier REQUESTER_DATA = NodeIdentifier.create(RequesterData.QNAME);
    static final NodeIdentifier RESPONDER_DATA = NodeIdentifier.create(ResponderData.QNAME);
    static final NodeIdentifier UDP_SRC_PORT = id("udp-src-port");
    static final NodeIdentifier INGRESS_PORT = id("ingress-port");
    static final NodeIdentifier PACKETS = id("packets");
    static final NodeIdentifier DSCP = id("dscp");
    static final NodeIdentifier ECT_PACKETS = id("ect-packets");
    static final NodeIdentifier CE_PACKETS = id("ce-packets");
    static final NodeIdentifier CNP_PACKETS = id("cnp-packets");
    static final NodeIdentifier STATE = id("state");
    static final NodeIdentifier REJECT_REASON = id("reject-reason");
    static final NodeIdentifier UNCONFIRMED = id("unconfirmed");
    static final NodeIdentifier DROPPED_MESSAGES = id("dropped-messages");
    static final NodeIdentifier FIRST_SEEN = id("first-seen");
    static final NodeIdentifier LAST_SEEN = id("last-seen");
    static final NodeIdentifier MESSAGES = NodeIdentifier.create(Message.QNAME);
    static final QName SEQ = leaf("seq");
    static final NodeIdentifier SEQ_LEAF = NodeIdentifier.create(SEQ);
    static final NodeIdentifier TYPE = id("type");
    static final NodeIdentifier INGRESS_TP = id("ingress-tp");
    static final NodeIdentifier TIME = id("time");
    static final NodeIdentifier FROM_REQUESTER = id("from-requester");

    /**
     * A session entry's children, as the flow table's entries built from agents' records hold them;
     * first-seen and last-seen as microseconds (see {@link NodeLayout}).
     */
    static final NodeLayout SESSION_LAYOUT = new NodeLayout(new NodeIdentifier[] {
        SESSION_ID_LEAF, LEARNED_FROM, TRANSPORT, ONE_WAY, PAIR_AMBIGUOUS, PAIRED_SESSION, REQUESTER_IP,
        RESPONDER_IP, REQUESTER_COMM_ID, RESPONDER_COMM_ID, REQUESTER_QPN, RESPONDER_QPN, SERVICE_ID, ROLES_KNOWN,
        RDMA_CM_SRC_PORT, RDMA_CM_DST_PORT, REQUESTER_UDP_SRC_PORT, RESPONDER_UDP_SRC_PORT, STATE, REJECT_REASON,
        UNCONFIRMED, DROPPED_MESSAGES, FIRST_SEEN, LAST_SEEN,
    }, Set.of(FIRST_SEEN, LAST_SEEN), REQUESTER_DATA, RESPONDER_DATA, MESSAGES);
    /** A message entry's children. */
    static final NodeLayout MESSAGE_LAYOUT = new NodeLayout(new NodeIdentifier[] {
        SEQ_LEAF, TYPE, INGRESS_TP, TIME, FROM_REQUESTER,
    });
    /** A data flow's ({@code requester-data}, {@code responder-data}) children. */
    static final NodeLayout DATA_LAYOUT = new NodeLayout(new NodeIdentifier[] {
        UDP_SRC_PORT, INGRESS_PORT, PACKETS, DSCP, ECT_PACKETS, CE_PACKETS, CNP_PACKETS,
    });

    private SessionNodes() {
        // utility
    }

    private static QName leaf(final String name) {
        return QName.create(SESSION, name).intern();
    }

    private static NodeIdentifier id(final String name) {
        return NodeIdentifier.create(leaf(name));
    }

    /** {@code rft/switch[node-id]}. */
    static YangInstanceIdentifier switchPath(final String nodeId) {
        return YangInstanceIdentifier.of(RFT, SWITCH, NodeIdentifierWithPredicates.of(Switch.QNAME, NODE_ID, nodeId));
    }

    /** {@code rft/switch[node-id]/session[session-id]}. */
    static YangInstanceIdentifier sessionPath(final String nodeId, final String sessionId) {
        return YangInstanceIdentifier.of(RFT, SWITCH, NodeIdentifierWithPredicates.of(Switch.QNAME, NODE_ID, nodeId),
            SESSIONS, NodeIdentifierWithPredicates.of(SESSION, SESSION_ID, sessionId));
    }

    /** {@code switch/session[session-id]} under a switch's path (from {@link #switchPath}). */
    static YangInstanceIdentifier sessionPath(final YangInstanceIdentifier switchPath, final String sessionId) {
        return switchPath.node(SESSIONS).node(NodeIdentifierWithPredicates.of(SESSION, SESSION_ID, sessionId));
    }

    /** A switch entry with its key alone: what a merge needs to make sure the entry exists. */
    static MapEntryNode switchEntry(final String nodeId) {
        return ImmutableNodes.newMapEntryBuilder()
            .withNodeIdentifier(NodeIdentifierWithPredicates.of(Switch.QNAME, NODE_ID, nodeId))
            .withChild(ImmutableNodes.leafNode(NodeIdentifier.create(NODE_ID), nodeId))
            .build();
    }

    /**
     * {@code session} with its {@code unconfirmed} leaf set to {@code why}: the whole entry, to put
     * (a merge of the leaf alone would make the datastore copy the entry through yangtools' builder,
     * which takes none but its own entries, see {@link CompactEntry}).
     */
    static MapEntryNode withUnconfirmed(final MapEntryNode session, final String why) {
        if (session instanceof CompactEntry compact) {
            return compact.with(UNCONFIRMED, why);
        }
        final var builder = ImmutableNodes.newMapEntryBuilder().withNodeIdentifier(session.name());
        for (var child : session.body()) {
            if (!UNCONFIRMED.equals(child.name())) {
                builder.withChild(child);
            }
        }
        return builder.withChild(ImmutableNodes.leafNode(UNCONFIRMED, why)).build();
    }

    /**
     * {@code session} with its {@code paired-session} and {@code pair-ambiguous} leaves as
     * {@code pairing} says (a one-way flow's pairing by the controller, {@link DataPairing}): the
     * whole entry, to put; {@code session} itself where they are so already.
     */
    static MapEntryNode withPairing(final MapEntryNode session, final DataPairing.Outcome pairing) {
        final Object paired = session.childByArg(PAIRED_SESSION) instanceof LeafNode<?> leaf ? leaf.body() : null;
        final Object ambiguous = session.childByArg(PAIR_AMBIGUOUS) instanceof LeafNode<?> leaf ? leaf.body() : null;
        final Object wantAmbiguous = pairing.ambiguous() ? Boolean.TRUE : null;
        if (java.util.Objects.equals(paired, pairing.pairedId())
                && java.util.Objects.equals(ambiguous, wantAmbiguous)) {
            return session;
        }
        if (session instanceof CompactEntry compact) {
            return compact.with(PAIRED_SESSION, pairing.pairedId()).with(PAIR_AMBIGUOUS, wantAmbiguous);
        }
        final var builder = ImmutableNodes.newMapEntryBuilder().withNodeIdentifier(session.name());
        for (var child : session.body()) {
            if (!PAIRED_SESSION.equals(child.name()) && !PAIR_AMBIGUOUS.equals(child.name())) {
                builder.withChild(child);
            }
        }
        if (pairing.pairedId() != null) {
            builder.withChild(ImmutableNodes.leafNode(PAIRED_SESSION, pairing.pairedId()));
        }
        if (pairing.ambiguous()) {
            builder.withChild(ImmutableNodes.leafNode(PAIR_AMBIGUOUS, Boolean.TRUE));
        }
        return builder.build();
    }

    /**
     * What joining data into CM sessions needs of a CM session's entry ({@link DataPairing#observeCm}):
     * its ends, or null where it is data-learned, its roles are not known (its requester a guess),
     * an address is missing or neither QP was announced to the switch.
     */
    static DataPairing.@Nullable CmEnds cmEnds(final MapEntryNode session) {
        if (leafValue(session, LEARNED_FROM) instanceof String learned && !"cm".equals(learned)
                || Boolean.FALSE.equals(leafValue(session, ROLES_KNOWN))
                || !(leafValue(session, REQUESTER_IP) instanceof String requester)
                || !(leafValue(session, RESPONDER_IP) instanceof String responder)) {
            return null;
        }
        final int requesterQpn = leafValue(session, REQUESTER_QPN) instanceof Uint32 qpn ? qpn.intValue() : -1;
        final int responderQpn = leafValue(session, RESPONDER_QPN) instanceof Uint32 qpn ? qpn.intValue() : -1;
        return requesterQpn < 0 && responderQpn < 0 ? null
            : new DataPairing.CmEnds(requester, requesterQpn, responder, responderQpn);
    }

    /** Whether the entry is a data-learned record (learned-from data). */
    static boolean learnedData(final MapEntryNode session) {
        return "data".equals(leafValue(session, LEARNED_FROM));
    }

    private static @Nullable Object leafValue(final MapEntryNode session, final NodeIdentifier leaf) {
        return session.childByArg(leaf) instanceof LeafNode<?> value ? value.body() : null;
    }
}
