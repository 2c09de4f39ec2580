/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rpt;

import static java.util.Objects.requireNonNull;

import io.rst.yang.time.Times;
import org.eclipse.jdt.annotation.Nullable;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.LearnedFrom;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.SessionState;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rdma.session.Message;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rdma.session.RequesterData;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rdma.session.ResponderData;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.Session;
import org.opendaylight.yangtools.yang.common.QName;
import org.opendaylight.yangtools.yang.common.Uint32;
import org.opendaylight.yangtools.yang.common.Uint64;
import org.opendaylight.yangtools.yang.data.api.YangInstanceIdentifier.NodeIdentifier;
import org.opendaylight.yangtools.yang.data.api.schema.DataContainerNode;
import org.opendaylight.yangtools.yang.data.api.schema.LeafNode;
import org.opendaylight.yangtools.yang.data.api.schema.MapEntryNode;
import org.opendaylight.yangtools.yang.data.api.schema.MapNode;

/**
 * What the RPT needs of a session as one switch has it ({@code rft/switch/session}), and nothing
 * else: read straight from the session's list entry, so that neither the binding objects of the
 * session and its messages (decoded lazily, then cached) nor the entry itself are kept. A path is
 * assembled from these alone ({@link RptWorker}, {@link DataPaths}); two that are equal give the
 * same path, so a session reported again with only what no path shows changed (a packet count,
 * an unconfirmed mark) is not assembled again.
 *
 * @param node the switch, one shared copy ({@link Names})
 * @param requesterIp the requester's address as the datastore has it, or null
 * @param responderIp the responder's address, or null
 * @param requesterQpn the requester's QP number, or -1 where absent
 * @param responderQpn the responder's QP number, or -1 where absent
 * @param state the session's state, or null
 * @param firstSeenMicros first-seen in microseconds since the epoch, 0 where absent
 * @param lastSeenMicros last-seen in microseconds, 0 where absent
 * @param forward whether a message from the requester was seen
 * @param forwardTp where the requester's first message entered the switch (may be null if it did not say)
 * @param forwardMicros when the switch saw it
 * @param reverse whether a message from the responder was seen
 * @param reverseTp where the responder's first message entered
 * @param reverseMicros when the switch saw it
 * @param requesterData whether the switch sampled the requester's data
 * @param requesterDataPort where that data entered, or null
 * @param responderData whether the switch sampled the responder's data
 * @param responderDataPort where that data entered, or null
 * @param learnedData whether the switch learnt the session from its data packets (else from CM)
 * @param oneWay whether it is a one-way flow ({@code requester-data} the flow; no requester QPN)
 * @param transport a data-learned session's transport (RC, UC, UD), or null
 * @param pairedSession the session the controller paired this data-learned record into (a one-way
 *        flow's pair, or the CM session a record of its QPs joined), or null
 * @param sourceId the flow table's id of what this stands for, where it is not the path's own: a
 *        one-way flow taken into the session it was paired into ({@link #partOf}), or a
 *        data-learned record into the CM session it joined ({@link #joining}); else null
 */
record SwitchSession(String node, @Nullable String requesterIp, @Nullable String responderIp, int requesterQpn,
        int responderQpn, @Nullable SessionState state, long firstSeenMicros, long lastSeenMicros, boolean forward,
        @Nullable String forwardTp, long forwardMicros, boolean reverse, @Nullable String reverseTp,
        long reverseMicros, boolean requesterData, @Nullable String requesterDataPort, boolean responderData,
        @Nullable String responderDataPort, boolean learnedData, boolean oneWay, @Nullable String transport,
        @Nullable String pairedSession, @Nullable String sourceId) {

    static final NodeIdentifier SESSION = NodeIdentifier.create(Session.QNAME);
    static final QName SESSION_ID = leafName("session-id");
    private static final NodeIdentifier REQUESTER_IP = leaf("requester-ip");
    private static final NodeIdentifier RESPONDER_IP = leaf("responder-ip");
    private static final NodeIdentifier REQUESTER_QPN = leaf("requester-qpn");
    private static final NodeIdentifier RESPONDER_QPN = leaf("responder-qpn");
    private static final NodeIdentifier STATE = leaf("state");
    private static final NodeIdentifier FIRST_SEEN = leaf("first-seen");
    private static final NodeIdentifier LAST_SEEN = leaf("last-seen");
    private static final NodeIdentifier REQUESTER_DATA = NodeIdentifier.create(RequesterData.QNAME);
    private static final NodeIdentifier RESPONDER_DATA = NodeIdentifier.create(ResponderData.QNAME);
    private static final NodeIdentifier INGRESS_PORT = leaf("ingress-port");
    private static final NodeIdentifier PACKETS = leaf("packets");
    private static final NodeIdentifier MESSAGE = NodeIdentifier.create(Message.QNAME);
    private static final NodeIdentifier TYPE = leaf("type");
    private static final NodeIdentifier INGRESS_TP = leaf("ingress-tp");
    private static final NodeIdentifier TIME = leaf("time");
    private static final NodeIdentifier FROM_REQUESTER = leaf("from-requester");
    private static final NodeIdentifier LEARNED_FROM = leaf("learned-from");
    private static final NodeIdentifier ONE_WAY = leaf("one-way");
    private static final NodeIdentifier TRANSPORT = leaf("transport");
    private static final NodeIdentifier PAIRED_SESSION = leaf("paired-session");

    SwitchSession {
        requireNonNull(node);
    }

    /** Who sent a message. */
    private enum Sender { REQUESTER, RESPONDER, UNKNOWN }

    /**
     * Reads a session's list entry. Leaves of another type than the model's are taken as absent (the
     * datastore validates what it stores, so they are not expected).
     *
     * @param node the switch, already interned
     */
    static SwitchSession of(final String node, final MapEntryNode entry) {
        // addresses are not interned: there may be as many as sessions (see sharing())
        final String requesterIp = string(entry, REQUESTER_IP);
        final String responderIp = string(entry, RESPONDER_IP);
        final String stateName = string(entry, STATE);
        final SessionState state = stateName == null ? null : SessionState.forName(stateName);
        boolean forward = false;
        String forwardTp = null;
        long forwardMicros = 0;
        boolean reverse = false;
        String reverseTp = null;
        long reverseMicros = 0;
        if (entry.childByArg(MESSAGE) instanceof MapNode messages) {
            // ordered-by user: the first of each side in the order the switch saw them
            for (var message : messages.body()) {
                final var sender = sender(message);
                if (sender == Sender.REQUESTER && !forward) {
                    forward = true;
                    forwardTp = Names.intern(string(message, INGRESS_TP));
                    forwardMicros = micros(message, TIME);
                } else if (sender == Sender.RESPONDER && !reverse) {
                    reverse = true;
                    reverseTp = Names.intern(string(message, INGRESS_TP));
                    reverseMicros = micros(message, TIME);
                }
                if (forward && reverse) {
                    break;
                }
            }
        }
        final var requesterData = sampled(entry.childByArg(REQUESTER_DATA));
        final var responderData = sampled(entry.childByArg(RESPONDER_DATA));
        final boolean learnedData = LearnedFrom.Data.getName().equals(string(entry, LEARNED_FROM));
        final boolean oneWay = learnedData && Boolean.TRUE.equals(value(entry, ONE_WAY));
        return new SwitchSession(node, requesterIp, responderIp, qpn(entry, REQUESTER_QPN), qpn(entry, RESPONDER_QPN),
            state, micros(entry, FIRST_SEEN), micros(entry, LAST_SEEN), forward, forwardTp, forwardMicros, reverse,
            reverseTp, reverseMicros, requesterData != null,
            requesterData == null ? null : Names.intern(string(requesterData, INGRESS_PORT)), responderData != null,
            responderData == null ? null : Names.intern(string(responderData, INGRESS_PORT)), learnedData, oneWay,
            learnedData ? Names.intern(string(entry, TRANSPORT)) : null,
            learnedData ? string(entry, PAIRED_SESSION) : null, null);
    }

    /**
     * This data-learned record (a one-way flow, or a session the switch paired) as a part of the
     * CM session whose ends are {@code cm} (as the switches that saw its CM messages report them):
     * its data in the CM session's directions, {@code requester-data} being the requester's data to
     * the responder's QP. Null where its QPs are not the CM session's (nor, for a QP the CM session
     * has not announced, its address's).
     *
     * @param flowId the record's own id in the flow table
     */
    @Nullable SwitchSession joining(final Ends cm, final String flowId) {
        if (!learnedData || requesterIp == null || responderIp == null) {
            return null;
        }
        final boolean toResponder;
        final boolean toRequester;
        if (oneWay) {
            // the flow goes from requesterIp to QP responderQpn at responderIp
            toResponder = cm.isResponder(responderIp, responderQpn) && cm.requesterIp().equals(requesterIp);
            toRequester = cm.isRequester(responderIp, responderQpn) && cm.responderIp().equals(requesterIp);
        } else {
            // the switch's lower endpoint is the requester (as the CM session has it), or the responder
            toResponder = cm.isRequester(requesterIp, requesterQpn) && cm.isResponder(responderIp, responderQpn);
            toRequester = cm.isResponder(requesterIp, requesterQpn) && cm.isRequester(responderIp, responderQpn);
        }
        if (toResponder == toRequester) {
            return null;
        }
        final boolean reqData;
        final String reqPort;
        final boolean respData;
        final String respPort;
        if (oneWay) {
            reqData = toResponder && requesterData;
            reqPort = toResponder ? requesterDataPort : null;
            respData = toRequester && requesterData;
            respPort = toRequester ? requesterDataPort : null;
        } else {
            reqData = toResponder ? requesterData : responderData;
            reqPort = toResponder ? requesterDataPort : responderDataPort;
            respData = toResponder ? responderData : requesterData;
            respPort = toResponder ? responderDataPort : requesterDataPort;
        }
        return new SwitchSession(node, cm.requesterIp(), cm.responderIp(), cm.requesterQpn(), cm.responderQpn(), null,
            firstSeenMicros, lastSeenMicros, false, null, 0, false, null, 0, reqData, reqPort, respData, respPort,
            false, false, null, null, flowId);
    }

    /**
     * A CM session's ends as the RPT knows them from the switches that report it.
     *
     * @param requesterQpn the requester's QP, -1 where no switch saw it announced
     * @param responderQpn the responder's QP, -1 likewise
     */
    record Ends(String requesterIp, int requesterQpn, String responderIp, int responderQpn) {
        /** Whether QP {@code qpn} at {@code ip} is the requester's (its address, where its QP is unknown). */
        boolean isRequester(final String ip, final int qpn) {
            return requesterIp.equals(ip) && (requesterQpn < 0 || requesterQpn == qpn);
        }

        /** Whether QP {@code qpn} at {@code ip} is the responder's (its address, where its QP is unknown). */
        boolean isResponder(final String ip, final int qpn) {
            return responderIp.equals(ip) && (responderQpn < 0 || responderQpn == qpn);
        }
    }

    /**
     * This one-way flow as a part of the data-learned session {@code sessionId} it was paired into
     * ({@code IP_A/qp0xAAAAAA/IP_B/qp0xBBBBBB}): its data is that session's A-to-B data if it goes to
     * B's QP, its B-to-A data if it goes to A's; null where the id does not say so, or the flow goes
     * to neither.
     *
     * @param flowId the flow's own id in the flow table
     */
    @Nullable SwitchSession partOf(final String sessionId, final String flowId) {
        final var ends = DataEnds.parse(sessionId);
        if (ends == null || !oneWay || responderIp == null || requesterIp == null) {
            return null;
        }
        final boolean toB = ends.ipB().equals(responderIp) && ends.qpB() == responderQpn
            && ends.ipA().equals(requesterIp);
        final boolean toA = ends.ipA().equals(responderIp) && ends.qpA() == responderQpn
            && ends.ipB().equals(requesterIp);
        if (toB == toA) {
            // neither, or both (one address, one QP: not a pair)
            return null;
        }
        return new SwitchSession(node, ends.ipA(), ends.ipB(), ends.qpA(), ends.qpB(), state, firstSeenMicros,
            lastSeenMicros, false, null, 0, false, null, 0, toB && requesterData, toB ? requesterDataPort : null,
            toA && requesterData, toA ? requesterDataPort : null, true, false, transport, null, flowId);
    }

    /**
     * The two ends of a data-learned session, from its id {@code IP_A/qp0xAAAAAA/IP_B/qp0xBBBBBB}.
     */
    record DataEnds(String ipA, int qpA, String ipB, int qpB) {
        static @Nullable DataEnds parse(final String id) {
            final String[] parts = id.split("/", -1);
            if (parts.length != 4 || parts[0].isEmpty() || parts[2].isEmpty()) {
                return null;
            }
            final int qpA = qpn(parts[1]);
            final int qpB = qpn(parts[3]);
            return qpA < 0 || qpB < 0 ? null : new DataEnds(parts[0], qpA, parts[2], qpB);
        }

        private static int qpn(final String text) {
            if (text.length() != 10 || !text.startsWith("qp0x")) {
                return -1;
            }
            try {
                return Integer.parseInt(text.substring(4), 16);
            } catch (NumberFormatException e) {
                return -1;
            }
        }
    }

    /**
     * This, with the addresses' strings of {@code other} (the same session at another switch) where
     * they are equal: one copy per session rather than one per switch.
     */
    SwitchSession sharing(final SwitchSession other) {
        final boolean requester = requesterIp != null && requesterIp.equals(other.requesterIp);
        final boolean responder = responderIp != null && responderIp.equals(other.responderIp);
        if (!requester && !responder) {
            return this;
        }
        return new SwitchSession(node, requester ? other.requesterIp : requesterIp,
            responder ? other.responderIp : responderIp, requesterQpn, responderQpn, state, firstSeenMicros,
            lastSeenMicros, forward, forwardTp, forwardMicros, reverse, reverseTp, reverseMicros, requesterData,
            requesterDataPort, responderData, responderDataPort, learnedData, oneWay, transport, pairedSession,
            sourceId);
    }

    /** REQ and RTU come from the requester, REP, REJ and MRA (of a REQ) from the responder. */
    private static Sender sender(final DataContainerNode message) {
        if (value(message, FROM_REQUESTER) instanceof Boolean fromRequester) {
            return fromRequester ? Sender.REQUESTER : Sender.RESPONDER;
        }
        final String type = string(message, TYPE);
        if (type == null) {
            return Sender.UNKNOWN;
        }
        return switch (type) {
            case "REQ", "RTU" -> Sender.REQUESTER;
            case "REP", "REJ", "MRA" -> Sender.RESPONDER;
            default -> Sender.UNKNOWN;
        };
    }

    private static @Nullable Object value(final DataContainerNode parent, final NodeIdentifier name) {
        return parent.childByArg(name) instanceof LeafNode<?> leaf ? leaf.body() : null;
    }

    /**
     * A direction's data as the switch sampled it, or null: an object of 0 packets holds only the
     * CNPs about that data (its agent sampled none of it), which says nothing about where it goes.
     */
    private static @Nullable DataContainerNode sampled(final @Nullable Object child) {
        return child instanceof DataContainerNode data
            && !(value(data, PACKETS) instanceof Uint64 packets && packets.longValue() == 0) ? data : null;
    }

    private static @Nullable String string(final DataContainerNode parent, final NodeIdentifier name) {
        return value(parent, name) instanceof String text ? text : null;
    }

    private static int qpn(final DataContainerNode parent, final NodeIdentifier name) {
        // a 24-bit number: it fits an int, and -1 stands for none
        return value(parent, name) instanceof Uint32 qpn && qpn.longValue() <= Integer.MAX_VALUE ? qpn.intValue() : -1;
    }

    /** A {@code date-and-time} leaf in microseconds since the epoch, 0 where absent or unreadable. */
    private static long micros(final DataContainerNode parent, final NodeIdentifier name) {
        if (value(parent, name) instanceof String time) {
            final long micros = Times.micros(time);
            return micros == Times.INVALID ? 0 : micros;
        }
        return 0;
    }

    private static QName leafName(final String localName) {
        return QName.create(Session.QNAME, localName).intern();
    }

    private static NodeIdentifier leaf(final String localName) {
        return NodeIdentifier.create(leafName(localName));
    }

    /** The requester's first message as an observation, or null where none was seen. */
    PathAssembler.@Nullable Observation forwardObservation() {
        return forward ? new PathAssembler.Observation(node, forwardTp, forwardMicros) : null;
    }

    /** The responder's first message as an observation, or null where none was seen. */
    PathAssembler.@Nullable Observation reverseObservation() {
        return reverse ? new PathAssembler.Observation(node, reverseTp, reverseMicros) : null;
    }
}
