/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.insight;

import static java.util.Objects.requireNonNull;

import io.rst.yang.time.Times;
import java.util.List;
import org.eclipse.jdt.annotation.Nullable;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.IpAddress;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.Ipv4Address;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.Ipv6Address;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.yang.types.rev130715.DateAndTime;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.CmMessageType;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.SessionState;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rdma.session.Message;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.Session;

/**
 * What the problem detectors need of one switch's view of a session, a few dozen bytes instead of
 * the session's message list: which message types the switch saw, and where (port) and when the
 * telling ones (REQ, REP or MRA, REJ, DREQ) first entered it, kept in the sighting itself (no
 * object per message: at 275,000 sessions of three switches each, the {@link Seen} objects it
 * kept until the fourteenth session were two million of the controller's heap objects, all walked
 * by G1's marking). A {@link Seen} is made when a detector asks ({@link #req()} and the others).
 *
 * @param messageTypes a bit per {@link CmMessageType} ordinal the switch saw
 * @param rejectReason the REJ's reason code, or -1
 * @param firstSeen seconds since the epoch, or NaN when unknown
 * @param told a bit per telling message the switch saw ({@link #REQ}, {@link #REP}, {@link #REJ},
 *        {@link #DREQ}); its port and time are in the components named after it
 */
record Sighting(String switchId, @Nullable SessionState state, @Nullable String requesterIp,
        @Nullable String responderIp, @Nullable String serviceId, boolean rolesKnown, int rejectReason,
        double firstSeen, double lastSeen, int messageTypes, int told, @Nullable String reqTp, double reqTime,
        @Nullable String repTp, double repTime, @Nullable String rejTp, double rejTime, @Nullable String dreqTp,
        double dreqTime) {

    /** {@link #told}: the switch saw a REQ. */
    static final int REQ = 1;
    /** {@link #told}: the switch saw a REP or an MRA. */
    static final int REP = 2;
    /** {@link #told}: the switch saw a REJ. */
    static final int REJ = 4;
    /** {@link #told}: the switch saw a DREQ. */
    static final int DREQ = 8;

    /** Where (the ingress port, if known) and when a switch first saw a message type. */
    record Seen(@Nullable String tp, double time) {
    }

    /** A sighting with its telling messages given as {@link Seen}s, each null where not seen. */
    Sighting(final String switchId, final @Nullable SessionState state, final @Nullable String requesterIp,
            final @Nullable String responderIp, final @Nullable String serviceId, final boolean rolesKnown,
            final int rejectReason, final double firstSeen, final double lastSeen, final int messageTypes,
            final @Nullable Seen req, final @Nullable Seen rep, final @Nullable Seen rej, final @Nullable Seen dreq) {
        this(switchId, state, requesterIp, responderIp, serviceId, rolesKnown, rejectReason, firstSeen, lastSeen,
            messageTypes, (req == null ? 0 : REQ) | (rep == null ? 0 : REP) | (rej == null ? 0 : REJ)
                | (dreq == null ? 0 : DREQ),
            req == null ? null : req.tp(), req == null ? Double.NaN : req.time(),
            rep == null ? null : rep.tp(), rep == null ? Double.NaN : rep.time(),
            rej == null ? null : rej.tp(), rej == null ? Double.NaN : rej.time(),
            dreq == null ? null : dreq.tp(), dreq == null ? Double.NaN : dreq.time());
    }

    /** The first REQ the switch saw, or null. */
    @Nullable Seen req() {
        return (told & REQ) == 0 ? null : new Seen(reqTp, reqTime);
    }

    /** The first REP or MRA the switch saw, or null. */
    @Nullable Seen rep() {
        return (told & REP) == 0 ? null : new Seen(repTp, repTime);
    }

    /** The first REJ the switch saw, or null. */
    @Nullable Seen rej() {
        return (told & REJ) == 0 ? null : new Seen(rejTp, rejTime);
    }

    /** The first DREQ the switch saw, or null. */
    @Nullable Seen dreq() {
        return (told & DREQ) == 0 ? null : new Seen(dreqTp, dreqTime);
    }

    /**
     * A switch's messages, gathered in the order it saw them: which types, and the first of each
     * telling one. Both readers (binding and the datastore's nodes) go through it; it is not kept.
     */
    static final class Messages {
        int types;
        @Nullable Seen req;
        @Nullable Seen rep;
        @Nullable Seen rej;
        @Nullable Seen dreq;

        void add(final CmMessageType type, final @Nullable String tp, final double time) {
            types |= 1 << type.ordinal();
            switch (type) {
                case REQ -> req = req == null ? new Seen(tp, time) : req;
                case REP, MRA -> rep = rep == null ? new Seen(tp, time) : rep;
                case REJ -> rej = rej == null ? new Seen(tp, time) : rej;
                case DREQ -> dreq = dreq == null ? new Seen(tp, time) : dreq;
                default -> {
                    // the other types tell no problem's place
                }
            }
        }
    }

    Sighting {
        requireNonNull(switchId);
    }

    static Sighting of(final String switchId, final Session session) {
        final var seen = new Messages();
        final List<Message> messages = session.getMessage();
        if (messages != null) {
            for (var message : messages) {
                final var type = message.getType();
                if (type != null) {
                    final var tp = message.getIngressTp();
                    seen.add(type, tp == null ? null : String.valueOf(tp.getValue()), seconds(message.getTime()));
                }
            }
        }
        final var reason = session.getRejectReason();
        final var service = session.getServiceId();
        return new Sighting(switchId, session.getState(), ip(session.getRequesterIp()), ip(session.getResponderIp()),
            service == null ? null : service.getValue(), !Boolean.FALSE.equals(session.getRolesKnown()),
            reason == null ? -1 : reason.intValue(), seconds(session.getFirstSeen()), seconds(session.getLastSeen()),
            seen.types, seen.req, seen.rep, seen.rej, seen.dreq);
    }

    boolean saw(final CmMessageType type) {
        return (messageTypes & 1 << type.ordinal()) != 0;
    }

    /**
     * Seconds since the epoch of one of rdma-flow-table's times ({@code yang:date-and-time}); NaN
     * where absent or unreadable. The one place here that reads that type.
     */
    static double seconds(final @Nullable DateAndTime time) {
        return time == null ? Double.NaN : Times.seconds(time.getValue());
    }

    /** An address as the datastore takes it, from the text the index keeps. */
    static IpAddress ipAddress(final String text) {
        return text.indexOf(':') >= 0 ? new IpAddress(new Ipv6Address(text)) : new IpAddress(new Ipv4Address(text));
    }

    private static @Nullable String ip(final @Nullable IpAddress ip) {
        return ip == null ? null : ip.stringValue();
    }
}
