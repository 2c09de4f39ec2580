/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.insight;

import io.rst.yang.time.Times;
import java.util.Collection;
import org.eclipse.jdt.annotation.Nullable;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.CmMessageType;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.Rft;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.SessionState;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rdma.session.Message;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft.Switch;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.Session;
import org.opendaylight.yangtools.yang.common.QName;
import org.opendaylight.yangtools.yang.data.api.YangInstanceIdentifier;
import org.opendaylight.yangtools.yang.data.api.YangInstanceIdentifier.NodeIdentifier;
import org.opendaylight.yangtools.yang.data.api.YangInstanceIdentifier.NodeIdentifierWithPredicates;
import org.opendaylight.yangtools.yang.data.api.schema.DataContainerNode;
import org.opendaylight.yangtools.yang.data.api.schema.MapEntryNode;
import org.opendaylight.yangtools.yang.data.api.schema.MapNode;

/**
 * A switch's view of a session read from the flow table's node itself (the datastore's
 * NormalizedNode), leaf by leaf: a binding {@code Session} decodes lazily and checks every
 * address's and id's pattern again on each read, which would be most of the insight worker's time
 * following a storm. {@code SessionLeavesTest} holds it to {@link Sighting#of(String, Session)}.
 */
final class SessionLeaves {
    static final NodeIdentifier RFT = NodeIdentifier.create(Rft.QNAME);
    static final NodeIdentifier SWITCH = NodeIdentifier.create(Switch.QNAME);
    static final QName NODE_ID = QName.create(Switch.QNAME, "node-id").intern();
    static final NodeIdentifier SESSIONS = NodeIdentifier.create(Session.QNAME);
    static final QName SESSION_ID = leaf("session-id");
    private static final NodeIdentifier REQUESTER_IP = id("requester-ip");
    private static final NodeIdentifier RESPONDER_IP = id("responder-ip");
    private static final NodeIdentifier SERVICE_ID = id("service-id");
    private static final NodeIdentifier ROLES_KNOWN = id("roles-known");
    private static final NodeIdentifier STATE = id("state");
    private static final NodeIdentifier REJECT_REASON = id("reject-reason");
    private static final NodeIdentifier FIRST_SEEN = id("first-seen");
    private static final NodeIdentifier LAST_SEEN = id("last-seen");
    private static final NodeIdentifier LEARNED_FROM = id("learned-from");
    private static final NodeIdentifier ONE_WAY = id("one-way");
    private static final NodeIdentifier TRANSPORT = id("transport");
    private static final NodeIdentifier PAIRED_SESSION = id("paired-session");
    private static final NodeIdentifier PAIR_AMBIGUOUS = id("pair-ambiguous");
    private static final NodeIdentifier MESSAGES = NodeIdentifier.create(Message.QNAME);
    private static final NodeIdentifier TYPE = id("type");
    private static final NodeIdentifier INGRESS_TP = id("ingress-tp");
    private static final NodeIdentifier TIME = id("time");

    private SessionLeaves() {
        // utility
    }

    private static QName leaf(final String name) {
        return QName.create(Session.QNAME, name).intern();
    }

    private static NodeIdentifier id(final String name) {
        return NodeIdentifier.create(leaf(name));
    }

    /** {@code rft/switch}: the list the insight worker follows. */
    static YangInstanceIdentifier switches() {
        return YangInstanceIdentifier.of(RFT, SWITCH);
    }

    /** The node id of a switch entry's key, or {@code null} for another path argument. */
    static @Nullable String nodeId(final YangInstanceIdentifier.PathArgument arg) {
        return arg instanceof NodeIdentifierWithPredicates key && key.getValue(NODE_ID) instanceof String id ? id
            : null;
    }

    /** The session id of a session entry's key, or {@code null}. */
    static @Nullable String sessionId(final YangInstanceIdentifier.PathArgument arg) {
        return arg instanceof NodeIdentifierWithPredicates key && key.getValue(SESSION_ID) instanceof String id ? id
            : null;
    }

    /** A switch entry's sessions. */
    static Collection<MapEntryNode> sessionsOf(final MapEntryNode sw) {
        return sw.childByArg(SESSIONS) instanceof MapNode map ? map.body() : java.util.List.of();
    }

    static Sighting sighting(final String switchId, final MapEntryNode session) {
        final var seen = new Sighting.Messages();
        if (session.childByArg(MESSAGES) instanceof MapNode messages) {
            for (var message : messages.body()) {
                final var type = value(message, TYPE) instanceof String name ? CmMessageType.forName(name) : null;
                if (type != null) {
                    seen.add(type, value(message, INGRESS_TP) instanceof String tp ? tp : null,
                        seconds(message, TIME));
                }
            }
        }
        final var state = value(session, STATE) instanceof String name ? SessionState.forName(name) : null;
        final var reason = value(session, REJECT_REASON) instanceof Number number ? number.intValue() : -1;
        return new Sighting(switchId, state, text(session, REQUESTER_IP), text(session, RESPONDER_IP),
            text(session, SERVICE_ID), !Boolean.FALSE.equals(value(session, ROLES_KNOWN)), reason,
            seconds(session, FIRST_SEEN), seconds(session, LAST_SEEN), seen, Sighting.origin(
                text(session, LEARNED_FROM), value(session, ONE_WAY) instanceof Boolean b ? b : null,
                text(session, TRANSPORT), text(session, PAIRED_SESSION),
                value(session, PAIR_AMBIGUOUS) instanceof Boolean b ? b : null));
    }

    private static @Nullable Object value(final DataContainerNode node, final NodeIdentifier leaf) {
        final var child = node.childByArg(leaf);
        return child == null ? null : child.body();
    }

    private static @Nullable String text(final DataContainerNode node, final NodeIdentifier leaf) {
        return value(node, leaf) instanceof String text ? text : null;
    }

    private static double seconds(final DataContainerNode node, final NodeIdentifier leaf) {
        return value(node, leaf) instanceof String time ? Times.seconds(time) : Double.NaN;
    }
}
