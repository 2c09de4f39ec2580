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
 * What the problem detectors need of one switch's view of a session, instead of the session's
 * message list: which message types the switch saw, and where (port) and when the telling ones
 * ({@link Told}: REQ, REP or MRA, REJ, DREQ) first entered it, kept in the sighting's own
 * components. A sighting is one object of about 112 bytes with compressed pointers (nine
 * references, three ints, a boolean, six doubles); its strings are the datastore's leaves, shared
 * with it. A {@code Seen} object per telling message besides would be, at 275,000 sessions
 * of three switches each, two million of the controller's heap objects, all walked by G1's
 * marking. The detectors ask {@link #saw(Told)}, {@link #tp(Told)} and {@link #time(Told)}, which
 * make nothing.
 *
 * <p>Equality is the record's, over every component (a double's by {@link Double#compare}, so
 * NaN equals NaN): the index skips a view equal to the one it holds. A message not seen has a
 * null port and a NaN time, which the constructor holds it to, so that sightings that tell the
 * same are equal; a message seen may have either too (no port known, a time unreadable), and its
 * {@code told} bit alone says it was seen.
 *
 * @param messageTypes a bit per {@link CmMessageType} ordinal the switch saw
 * @param rejectReason the REJ's reason code, or -1
 * @param firstSeen seconds since the epoch, or NaN when unknown
 * @param told a bit per telling message the switch saw ({@link Told#bit()}); its port and time are
 *        in the components named after it
 * @param origin how the switch learnt the session, bits: {@link #DATA} (from data packets, else CM),
 *        {@link #ONE_WAY}, {@link #RC}, {@link #PAIRED}, {@link #JOINED} and {@link #AMBIGUOUS} (the
 *        controller's pairing of a one-way flow, or its join of a record into a CM session); 0 for a
 *        CM session
 */
record Sighting(String switchId, @Nullable SessionState state, @Nullable String requesterIp,
        @Nullable String responderIp, @Nullable String serviceId, boolean rolesKnown, int rejectReason,
        double firstSeen, double lastSeen, int messageTypes, int told, @Nullable String reqTp, double reqTime,
        @Nullable String repTp, double repTime, @Nullable String rejTp, double rejTime, @Nullable String dreqTp,
        double dreqTime, int origin) {

    /** Learnt from data packets (learned-from data). */
    static final int DATA = 1;
    /** A one-way flow (one-way true). */
    static final int ONE_WAY = 2;
    /** Its transport is RC (responses expected). */
    static final int RC = 4;
    /** The controller paired the one-way flow into a session (paired-session). */
    static final int PAIRED = 8;
    /** The controller found more than one flow to pair it with (pair-ambiguous). */
    static final int AMBIGUOUS = 16;
    /**
     * The controller joined the record into the CM session of its QPs (paired-session names a CM
     * session): the switch saw that session's data, not its CM messages. With {@link #PAIRED}.
     */
    static final int JOINED = 32;

    /**
     * The telling messages: those whose first sighting names a problem's place (where a REJ
     * entered the fabric, where an unanswered REQ, REP or DREQ was last seen on its way).
     */
    enum Told {
        /** A REQ. */
        REQ,
        /** A REP, or an MRA (which answers the REQ in its stead). */
        REP,
        /** A REJ. */
        REJ,
        /** A DREQ. */
        DREQ;

        /** How many there are. */
        static final int COUNT = 4;
        /** Every one's bit. */
        static final int ALL = (1 << COUNT) - 1;

        /** Its bit in {@link Sighting#told()}. */
        int bit() {
            return 1 << ordinal();
        }

        /** The telling message a CM message type is, or null for the others. */
        static @Nullable Told of(final CmMessageType type) {
            return switch (type) {
                case REQ -> REQ;
                case REP, MRA -> REP;
                case REJ -> REJ;
                case DREQ -> DREQ;
                default -> null;
            };
        }
    }

    /**
     * A switch's messages, gathered in the order it saw them: which types, and the first of each
     * telling one. Both readers (binding and the datastore's nodes) go through it; it is not kept.
     */
    static final class Messages {
        int types;
        int told;
        private final @Nullable String[] tps = new String[Told.COUNT];
        private final double[] times = {Double.NaN, Double.NaN, Double.NaN, Double.NaN};

        void add(final CmMessageType type, final @Nullable String tp, final double time) {
            types |= 1 << type.ordinal();
            final var which = Told.of(type);
            if (which != null && (told & which.bit()) == 0) {
                told |= which.bit();
                tps[which.ordinal()] = tp;
                times[which.ordinal()] = time;
            }
        }
    }

    Sighting {
        requireNonNull(switchId);
        if ((told & ~Told.ALL) != 0 || unseenButKept(told, Told.REQ, reqTp, reqTime)
                || unseenButKept(told, Told.REP, repTp, repTime) || unseenButKept(told, Told.REJ, rejTp, rejTime)
                || unseenButKept(told, Told.DREQ, dreqTp, dreqTime)) {
            throw new IllegalArgumentException("a telling message not seen has a port or a time, or no such message: "
                + told);
        }
    }

    /** A CM session's sighting. */
    @SuppressWarnings("checkstyle:ParameterNumber")
    Sighting(final String switchId, final @Nullable SessionState state, final @Nullable String requesterIp,
            final @Nullable String responderIp, final @Nullable String serviceId, final boolean rolesKnown,
            final int rejectReason, final double firstSeen, final double lastSeen, final int messageTypes,
            final int told, final @Nullable String reqTp, final double reqTime, final @Nullable String repTp,
            final double repTime, final @Nullable String rejTp, final double rejTime, final @Nullable String dreqTp,
            final double dreqTime) {
        this(switchId, state, requesterIp, responderIp, serviceId, rolesKnown, rejectReason, firstSeen, lastSeen,
            messageTypes, told, reqTp, reqTime, repTp, repTime, rejTp, rejTime, dreqTp, dreqTime, 0);
    }

    /** A sighting of the messages gathered in {@code messages} (of a CM session). */
    Sighting(final String switchId, final @Nullable SessionState state, final @Nullable String requesterIp,
            final @Nullable String responderIp, final @Nullable String serviceId, final boolean rolesKnown,
            final int rejectReason, final double firstSeen, final double lastSeen, final Messages messages) {
        this(switchId, state, requesterIp, responderIp, serviceId, rolesKnown, rejectReason, firstSeen, lastSeen,
            messages, 0);
    }

    /** A sighting of the messages gathered in {@code messages}, the session learnt as {@code origin} says. */
    Sighting(final String switchId, final @Nullable SessionState state, final @Nullable String requesterIp,
            final @Nullable String responderIp, final @Nullable String serviceId, final boolean rolesKnown,
            final int rejectReason, final double firstSeen, final double lastSeen, final Messages messages,
            final int origin) {
        this(switchId, state, requesterIp, responderIp, serviceId, rolesKnown, rejectReason, firstSeen, lastSeen,
            messages.types, messages.told, messages.tps[0], messages.times[0], messages.tps[1], messages.times[1],
            messages.tps[2], messages.times[2], messages.tps[3], messages.times[3], origin);
    }

    /** Whether the switch learnt the session from its data packets. */
    boolean learnedData() {
        return (origin & DATA) != 0;
    }

    /**
     * A one-way RC flow that the controller neither paired nor found ambiguous: nobody saw a
     * response to it (a candidate for half-seen).
     */
    boolean unansweredOneWay() {
        return (origin & (DATA | ONE_WAY | RC | PAIRED | AMBIGUOUS)) == (DATA | ONE_WAY | RC);
    }

    /** Whether the record is part of a CM session (joined by the controller), not a session of its own. */
    boolean joined() {
        return (origin & JOINED) != 0;
    }

    /**
     * The origin bits of a session's leaves (rdma-flow-table's learned-from, one-way, transport,
     * pairing: {@code pairedSession} the session it was paired into or joined, or null).
     */
    static int origin(final @Nullable String learnedFrom, final @Nullable Boolean oneWay,
            final @Nullable String transport, final @Nullable String pairedSession,
            final @Nullable Boolean ambiguous) {
        if (!"data".equals(learnedFrom)) {
            return 0;
        }
        return DATA | (Boolean.TRUE.equals(oneWay) ? ONE_WAY : 0) | ("RC".equals(transport) ? RC : 0)
            | (pairedSession != null ? PAIRED : 0) | (pairedSession != null && !dataId(pairedSession) ? JOINED : 0)
            | (Boolean.TRUE.equals(ambiguous) ? AMBIGUOUS : 0);
    }

    /** Whether {@code id} is a data-learned session's ({@code IP_A/qp0xAAAAAA/IP_B/qp0xBBBBBB}), else a CM one's. */
    static boolean dataId(final String id) {
        final int one = id.indexOf('/');
        final int two = one < 0 ? -1 : id.indexOf('/', one + 1);
        final int three = two < 0 ? -1 : id.indexOf('/', two + 1);
        return three > 0 && id.indexOf('/', three + 1) < 0 && id.startsWith("qp0x", one + 1) && two - one == 11
            && id.startsWith("qp0x", three + 1) && id.length() - three == 11;
    }

    private static boolean unseenButKept(final int told, final Told which, final @Nullable String tp,
            final double time) {
        return (told & which.bit()) == 0 && (tp != null || !Double.isNaN(time));
    }

    /** Whether the switch saw the message (for {@link Told#REP}, a REP or an MRA). */
    boolean saw(final Told which) {
        return (told & which.bit()) != 0;
    }

    /** Whether the switch saw a message of this type (an MRA is not a REP here, unlike {@link #saw(Told)}). */
    boolean saw(final CmMessageType type) {
        return (messageTypes & 1 << type.ordinal()) != 0;
    }

    /** Where the first such message entered the switch: null if unknown or not seen. */
    @Nullable String tp(final Told which) {
        return switch (which) {
            case REQ -> reqTp;
            case REP -> repTp;
            case REJ -> rejTp;
            case DREQ -> dreqTp;
        };
    }

    /** When the first such message was seen, in seconds since the epoch: NaN if unreadable or not seen. */
    double time(final Told which) {
        return switch (which) {
            case REQ -> reqTime;
            case REP -> repTime;
            case REJ -> rejTime;
            case DREQ -> dreqTime;
        };
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
            seen, origin(session.getLearnedFrom() == null ? null : session.getLearnedFrom().getName(),
                session.getOneWay(), session.getTransport() == null ? null : session.getTransport().getName(),
                session.getPairedSession(), session.getPairAmbiguous()));
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
