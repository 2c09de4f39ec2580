/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.manager;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import edu.umd.cs.findbugs.annotations.SuppressFBWarnings;
import io.rst.yang.time.Times;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.eclipse.jdt.annotation.Nullable;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.IpAddress;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.Ipv4Address;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.Ipv6Address;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.CmMessageType;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.LearnedFrom;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.SessionState;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.Transport;
import org.opendaylight.yangtools.yang.common.Uint16;
import org.opendaylight.yangtools.yang.common.Uint32;
import org.opendaylight.yangtools.yang.common.Uint64;
import org.opendaylight.yangtools.yang.common.Uint8;
import org.opendaylight.yangtools.yang.data.api.YangInstanceIdentifier.NodeIdentifier;
import org.opendaylight.yangtools.yang.data.api.YangInstanceIdentifier.NodeIdentifierWithPredicates;
import org.opendaylight.yangtools.yang.data.api.schema.ContainerNode;
import org.opendaylight.yangtools.yang.data.api.schema.MapEntryNode;
import org.opendaylight.yangtools.yang.data.api.schema.UserMapNode;

/**
 * The controller's one reader of an agent's session record (the JSON of {@code GET /v1/sessions},
 * of the event stream's session events and of a reset's snapshot): read straight from the JSON
 * stream into the flow table's node, in one pass: no JSON tree, no binding object, no regular
 * expression for the common values. What the agent says is input from the network: a record that
 * does not fit the model is refused with the reason, never half-taken. {@code SessionStreamTest}
 * holds it to the model's generated classes (the same nodes, the same refusals). Parsing is most
 * of a follower's time, and a follower reads every session change of its switch.
 *
 * <p>One instance per follower (not thread-safe): it keeps the switch's port names, so that a
 * million sessions share a few strings for their ports.
 */
@SuppressFBWarnings(value = "NP_NONNULL_FIELD_NOT_INITIALIZED_IN_CONSTRUCTOR",
    justification = "SpotBugs reads no TYPE_USE @Nullable on fields: these fields are @Nullable")
final class SessionStream {
    /**
     * One record: its session id, and its node, or {@code null} if the agent removed the session;
     * for a data-learned session, what the controller's pairing needs ({@link DataPairing}).
     */
    record Parsed(String id, @Nullable MapEntryNode node, DataPairing.@Nullable Facts data) {
        Parsed(final String id, final @Nullable MapEntryNode node) {
            this(id, node, null);
        }

        boolean removed() {
            return node == null;
        }
    }

    /** A record the model cannot take. */
    static class BadRecordException extends Exception {
        private static final long serialVersionUID = 1L;

        BadRecordException(final String message) {
            super(message);
        }
    }

    /**
     * A record whose {@code learned_from} the controller does not know (an agent newer than the
     * controller): refused, and counted apart from the other refusals.
     */
    static final class UnknownLearnedFromException extends BadRecordException {
        private static final long serialVersionUID = 1L;

        UnknownLearnedFromException(final String value) {
            super("unknown learned_from " + value + " (this controller knows cm and data)");
        }
    }

    /** The most PSNs of one kind a record's evidence keeps ({@code request_psns}, {@code response_psns}). */
    static final int MAX_PSNS = 8;

    private static final int MAX_NAMES = 4096;
    /** The highest DSCP: six bits. */
    private static final int MAX_DSCP = 63;
    private static final String LEARNED_CM = LearnedFrom.Cm.getName();
    private static final String LEARNED_DATA = LearnedFrom.Data.getName();

    /** A record's fields in the order the agent writes them (SessionWriter). */
    private static final NameOrder RECORD = new NameOrder("session_id", "learned_from", "roles_known",
        "requester_ip", "responder_ip", "requester_comm_id", "responder_comm_id", "requester_qpn", "responder_qpn",
        "service_id", "rdma_cm_src_port", "rdma_cm_dst_port", "requester_udp_src_port", "responder_udp_src_port",
        "transport", "one_way", "requester_data", "responder_data", "request_psns", "response_psns", "state",
        "reject_reason", "messages", "first_seen", "last_seen", "message_log", "dropped_messages", "removed");
    private static final NameOrder MESSAGE = new NameOrder("msg", "ingress_port", "time", "from_requester");
    private static final NameOrder DATA = new NameOrder("udp_src_port", "ingress_port", "packets", "dscp", "ect", "ce",
        "cnp");

    /**
     * Recent strings of every follower in this JVM, by hash: each switch on a session's path
     * reports it within milliseconds of the others, and this makes their flow-table entries (and
     * the paths built from them) share the session's id, addresses and ids instead of holding a
     * copy each, about a kilobyte per session in a three-switch path. A slot is overwritten by
     * the next string of its hash; a miss costs only the sharing. Strings are immutable, so racy
     * reads and writes of a slot are safe.
     */
    private static final String[] SHARED = new String[1 << 18];
    /** Recent queue pair numbers and session keys, shared the same way as the strings. */
    private static final Uint32[] SHARED_QPNS = new Uint32[1 << 16];
    private static final NodeIdentifierWithPredicates[] SHARED_KEYS = new NodeIdentifierWithPredicates[1 << 16];
    /** Uint16 values (ports, reject reasons), one object per value for the whole JVM. */
    private static final Uint16[] UINT16 = new Uint16[1 << 16];

    private final Map<String, String> ports;
    // port names (tp-ids) as shared strings; bounded, as what the agent sends is not ours to trust
    private final Map<String, String> names = new HashMap<>();

    SessionStream(final Map<String, String> ports) {
        this.ports = Map.copyOf(ports);
    }

    /**
     * Reads one session record, the parser at its {@code START_OBJECT}; leaves the parser at its
     * {@code END_OBJECT} whether the record is taken or refused, so that the stream goes on.
     *
     * @throws BadRecordException the record does not fit the model: nothing of it is taken
     * @throws IOException the stream is not JSON
     */
    Parsed read(final JsonParser parser) throws IOException, BadRecordException {
        if (parser.currentToken() != JsonToken.START_OBJECT) {
            parser.skipChildren();
            throw new BadRecordException("session record is not a JSON object");
        }
        final var fields = new Fields();
        String error = null;
        int field = NameOrder.END;
        while ((field = RECORD.next(parser, field)) != NameOrder.END) {
            final String name = RECORD.name(parser, field);
            final JsonToken value = parser.nextToken();
            // after an error, the id and the origin still (the refusal names the one, counts by the other)
            if (error != null && !"learned_from".equals(name) && !"session_id".equals(name)) {
                parser.skipChildren();
                continue;
            }
            try {
                field(fields, name, value, parser);
            } catch (IllegalArgumentException e) {
                error = error != null ? error : e.getMessage();
                parser.skipChildren();
            } catch (BadRecordException e) {
                // the value was read to its end (a message log to its last entry)
                error = error != null ? error : e.getMessage();
            }
        }
        if (fields.id == null || fields.id.isEmpty()) {
            throw new BadRecordException("session record without session_id");
        }
        if (fields.removed) {
            // the session's last appearance: it leaves, whatever else the record says
            return new Parsed(fields.id, null);
        }
        // an unknown origin first, whatever else is wrong: it is counted apart
        final boolean data = learnedFromData(fields.learnedFrom);
        checkCommId(data, fields.requesterCommId);
        if (error != null) {
            throw new BadRecordException("session " + fields.id + ": " + error);
        }
        fields.learnedData = data;
        return new Parsed(fields.id, fields.build(), data ? fields.facts() : null);
    }

    /** What a record's {@code learned_from} says: CM when absent (agents before data learning). */
    static boolean learnedFromData(final @Nullable String value) throws UnknownLearnedFromException {
        if (value == null || "cm".equals(value)) {
            return false;
        }
        if ("data".equals(value)) {
            return true;
        }
        throw new UnknownLearnedFromException(value);
    }

    /** A CM record must name its requester's comm ID; a data-learned one has none. */
    static void checkCommId(final boolean data, final @Nullable String requesterCommId) throws BadRecordException {
        if (!data && requesterCommId == null) {
            throw new BadRecordException("a CM session record without requester_comm_id");
        }
    }

    /** The record's fields as they come (JSON does not order them): null where absent. */
    private static final class Fields {
        @Nullable String id;
        boolean removed;
        @Nullable String learnedFrom;
        boolean learnedData;
        @Nullable String transport;
        boolean oneWay;
        int @Nullable [] requestPsns;
        int @Nullable [] responsePsns;
        @Nullable String requesterIp;
        @Nullable String responderIp;
        @Nullable String requesterCommId;
        @Nullable String responderCommId;
        @Nullable Uint32 requesterQpn;
        @Nullable Uint32 responderQpn;
        @Nullable String serviceId;
        @Nullable Boolean rolesKnown;
        @Nullable Uint16 rdmaCmSrcPort;
        @Nullable Uint16 rdmaCmDstPort;
        @Nullable Uint16 requesterUdpSrcPort;
        @Nullable Uint16 responderUdpSrcPort;
        @Nullable ContainerNode requesterData;
        @Nullable ContainerNode responderData;
        @Nullable String state;
        @Nullable Uint16 rejectReason;
        @Nullable Uint32 droppedMessages;
        @Nullable Long firstSeen;
        @Nullable Long lastSeen;
        @Nullable UserMapNode messages;

        MapEntryNode build() {
            final var layout = SessionNodes.SESSION_LAYOUT;
            final Object[] v = layout.slots();
            v[layout.slot(SessionNodes.SESSION_ID_LEAF)] = id;
            // learned-from always (a filter on it finds CM sessions too); one-way where true (false
            // is the model's default)
            v[layout.slot(SessionNodes.LEARNED_FROM)] = learnedData ? LEARNED_DATA : LEARNED_CM;
            v[layout.slot(SessionNodes.TRANSPORT)] = transport;
            v[layout.slot(SessionNodes.ONE_WAY)] = oneWay ? Boolean.TRUE : null;
            v[layout.slot(SessionNodes.REQUESTER_IP)] = requesterIp;
            v[layout.slot(SessionNodes.RESPONDER_IP)] = responderIp;
            v[layout.slot(SessionNodes.REQUESTER_COMM_ID)] = requesterCommId;
            v[layout.slot(SessionNodes.RESPONDER_COMM_ID)] = responderCommId;
            v[layout.slot(SessionNodes.REQUESTER_QPN)] = requesterQpn;
            v[layout.slot(SessionNodes.RESPONDER_QPN)] = responderQpn;
            v[layout.slot(SessionNodes.SERVICE_ID)] = serviceId;
            v[layout.slot(SessionNodes.ROLES_KNOWN)] = rolesKnown;
            v[layout.slot(SessionNodes.RDMA_CM_SRC_PORT)] = rdmaCmSrcPort;
            v[layout.slot(SessionNodes.RDMA_CM_DST_PORT)] = rdmaCmDstPort;
            v[layout.slot(SessionNodes.REQUESTER_UDP_SRC_PORT)] = requesterUdpSrcPort;
            v[layout.slot(SessionNodes.RESPONDER_UDP_SRC_PORT)] = responderUdpSrcPort;
            v[layout.slot(SessionNodes.REQUESTER_DATA)] = requesterData;
            v[layout.slot(SessionNodes.RESPONDER_DATA)] = responderData;
            v[layout.slot(SessionNodes.STATE)] = state;
            v[layout.slot(SessionNodes.REJECT_REASON)] = rejectReason;
            v[layout.slot(SessionNodes.DROPPED_MESSAGES)] = droppedMessages;
            v[layout.slot(SessionNodes.FIRST_SEEN)] = firstSeen;
            // often one time (a single message): one object for both
            v[layout.slot(SessionNodes.LAST_SEEN)] = lastSeen != null && lastSeen.equals(firstSeen) ? firstSeen
                : lastSeen;
            if (messages != null && messages.size() > 0) {
                // an empty log is no list, as the model's codec makes it
                v[layout.slot(SessionNodes.MESSAGES)] = messages;
            }
            return new CompactEntry(sessionKey(id), layout, v);
        }

        /** What the controller's pairing needs of a data-learned record. */
        DataPairing.Facts facts() {
            return new DataPairing.Facts(oneWay, transport == null || Transport.RC.getName().equals(transport),
                requesterIp, responderIp, requesterQpn == null ? -1 : requesterQpn.intValue(),
                responderQpn == null ? -1 : responderQpn.intValue(), requestPsns, responsePsns);
        }
    }

    private void field(final Fields fields, final String name, final JsonToken value, final JsonParser parser)
            throws IOException, BadRecordException {
        if (value == JsonToken.VALUE_NULL) {
            // absent, as the model has it
            return;
        }
        switch (name) {
            case "session_id" -> fields.id = shared(text(parser, value));
            case "removed" -> fields.removed = bool(parser, value);
            case "learned_from" -> fields.learnedFrom = text(parser, value);
            case "transport" -> {
                final var text = text(parser, value);
                final var parsed = Transport.forName(text);
                if (parsed == null) {
                    throw new BadRecordException("unknown transport " + text);
                }
                fields.transport = parsed.getName();
            }
            case "one_way" -> fields.oneWay = bool(parser, value);
            case "request_psns" -> fields.requestPsns = psns(parser, value);
            case "response_psns" -> fields.responsePsns = psns(parser, value);
            case "requester_ip" -> fields.requesterIp = shared(ipAddress(text(parser, value)));
            case "responder_ip" -> fields.responderIp = shared(ipAddress(text(parser, value)));
            case "requester_comm_id" -> fields.requesterCommId = shared(hex(text(parser, value), 8, "comm-id"));
            case "responder_comm_id" -> fields.responderCommId = shared(hex(text(parser, value), 8, "comm-id"));
            case "requester_qpn" -> fields.requesterQpn = qpn(parser, value);
            case "responder_qpn" -> fields.responderQpn = qpn(parser, value);
            case "service_id" -> fields.serviceId = shared(hex(text(parser, value), 16, "service-id"));
            case "roles_known" -> fields.rolesKnown = bool(parser, value);
            case "rdma_cm_src_port" -> fields.rdmaCmSrcPort = lenientPort(parser, value);
            case "rdma_cm_dst_port" -> fields.rdmaCmDstPort = lenientPort(parser, value);
            case "requester_udp_src_port" -> fields.requesterUdpSrcPort = port(parser, value);
            case "responder_udp_src_port" -> fields.responderUdpSrcPort = port(parser, value);
            case "requester_data" -> fields.requesterData = dataFlow(SessionNodes.REQUESTER_DATA, parser, value);
            case "responder_data" -> fields.responderData = dataFlow(SessionNodes.RESPONDER_DATA, parser, value);
            case "state" -> {
                final var text = text(parser, value);
                final var parsed = SessionState.forName(text);
                if (parsed == null) {
                    throw new BadRecordException("unknown session state " + text);
                }
                fields.state = parsed.getName();
            }
            case "reject_reason" -> fields.rejectReason = uint16(lenientInt(parser, value));
            case "dropped_messages" -> fields.droppedMessages = Uint32.valueOf(lenientLong(parser, value));
            case "first_seen" -> fields.firstSeen = time(parser, value);
            case "last_seen" -> fields.lastSeen = time(parser, value);
            case "message_log" -> {
                if (value == JsonToken.START_ARRAY) {
                    fields.messages = messages(parser);
                } else {
                    // a log that is not an array is ignored, as if absent
                    parser.skipChildren();
                }
            }
            default -> parser.skipChildren();
        }
    }

    private UserMapNode messages(final JsonParser parser) throws IOException, BadRecordException {
        // a log is a handful of messages, kept packed (PackedMessageLog): no entry objects
        int count = 0;
        byte[] types = new byte[4];
        String[] tps = null;
        long[] times = new long[4];
        byte[] from = new byte[4];
        BadRecordException bad = null;
        JsonToken token;
        while ((token = parser.nextToken()) != JsonToken.END_ARRAY) {
            if (token == null) {
                throw new IOException("stream ended inside a message log");
            }
            if (bad != null) {
                parser.skipChildren();
                continue;
            }
            try {
                message(parser, token);
                if (count == types.length) {
                    types = Arrays.copyOf(types, count * 2);
                    times = Arrays.copyOf(times, count * 2);
                    from = Arrays.copyOf(from, count * 2);
                    if (tps != null) {
                        tps = Arrays.copyOf(tps, count * 2);
                    }
                }
                types[count] = msgType;
                times[count] = msgTime;
                from[count] = msgFrom;
                if (msgTp != null) {
                    if (tps == null) {
                        tps = new String[types.length];
                    }
                    tps[count] = msgTp;
                }
                count++;
            } catch (BadRecordException e) {
                // the entry was read to its end; the rest of the log is skipped, then refused
                bad = e;
            }
        }
        if (bad != null) {
            throw bad;
        }
        return new PackedMessageLog(SessionNodes.MESSAGES, count == types.length ? types : Arrays.copyOf(types, count),
            tps == null || count == tps.length ? tps : Arrays.copyOf(tps, count), count == times.length ? times
                : Arrays.copyOf(times, count), count == from.length ? from : Arrays.copyOf(from, count));
    }

    // the message message() read last: this stream's reader thread's alone
    private byte msgType;
    private @Nullable String msgTp;
    private long msgTime;
    private byte msgFrom;

    private void message(final JsonParser parser, final JsonToken start) throws IOException, BadRecordException {
        String type = null;
        String tp = null;
        long time = Times.INVALID;
        Boolean fromRequester = null;
        if (start == JsonToken.START_OBJECT) {
            JsonToken value;
            int field = NameOrder.END;
            while ((field = MESSAGE.next(parser, field)) != NameOrder.END) {
                final String name = MESSAGE.name(parser, field);
                value = parser.nextToken();
                if (value == JsonToken.VALUE_NULL) {
                    continue;
                }
                switch (name) {
                    case "msg" -> type = text(parser, value);
                    case "time" -> time = micros(parser, value);
                    case "ingress_port" -> {
                        final var port = text(parser, value);
                        tp = port.isEmpty() ? null : portName(port);
                    }
                    case "from_requester" -> fromRequester = bool(parser, value);
                    default -> parser.skipChildren();
                }
            }
        } else {
            parser.skipChildren();
        }
        final var parsed = type == null ? null : CmMessageType.forName(type);
        if (parsed == null) {
            // the entry is read to its end: the log's rest is skipped by the caller
            throw new BadRecordException("unknown CM message type " + type);
        }
        msgType = (byte) parsed.ordinal();
        msgTp = tp;
        msgTime = time;
        msgFrom = fromRequester == null ? PackedMessageLog.UNKNOWN
            : fromRequester ? PackedMessageLog.REQUESTER : PackedMessageLog.RESPONDER;
    }

    /**
     * A one-way flow's sampled PSNs ({@code request_psns}, {@code response_psns}): agent-only
     * evidence for the controller's pairing, not a leaf of the model. An array of 24-bit numbers,
     * the first {@link #MAX_PSNS} kept; anything else is refused, the array read to its end
     * whatever it holds.
     */
    private static int[] psns(final JsonParser parser, final JsonToken start) throws IOException {
        if (start != JsonToken.START_ARRAY) {
            final var text = start.isScalarValue() ? parser.getText() : start.asString();
            parser.skipChildren();
            throw new IllegalArgumentException("PSNs are not an array: " + text);
        }
        int[] out = new int[MAX_PSNS];
        int count = 0;
        String bad = null;
        JsonToken token;
        while ((token = parser.nextToken()) != JsonToken.END_ARRAY) {
            if (token == null) {
                throw new IOException("stream ended inside PSNs");
            }
            if (token != JsonToken.VALUE_NUMBER_INT || !fitsInt(parser) || parser.getIntValue() < 0
                    || parser.getIntValue() > 0xFFFFFF) {
                if (bad == null) {
                    bad = "not a PSN: " + (token.isScalarValue() ? parser.getText() : token.asString());
                }
                parser.skipChildren();
            } else if (count < out.length) {
                out[count++] = parser.getIntValue();
            }
        }
        if (bad != null) {
            throw new IllegalArgumentException(bad);
        }
        return count == out.length ? out : Arrays.copyOf(out, count);
    }

    private ContainerNode dataFlow(final NodeIdentifier which, final JsonParser parser, final JsonToken start)
            throws IOException {
        if (start != JsonToken.START_OBJECT) {
            throw new IllegalArgumentException("a data flow is not a JSON object: " + parser.getText());
        }
        Uint16 udp = null;
        String ingress = null;
        Uint64 packets = null;
        Uint8 dscp = null;
        Uint64 ect = null;
        Uint64 ce = null;
        Uint64 cnp = null;
        String bad = null;
        int field = NameOrder.END;
        while ((field = DATA.next(parser, field)) != NameOrder.END) {
            final String name = DATA.name(parser, field);
            final JsonToken value = parser.nextToken();
            switch (name) {
                case "udp_src_port" -> {
                    if (value != JsonToken.VALUE_NUMBER_INT || !fitsInt(parser)) {
                        bad = "not a port number: " + parser.getText();
                        parser.skipChildren();
                    } else if (parser.getIntValue() < 0 || parser.getIntValue() > 0xFFFF) {
                        // refused once the object is read to its end, so that the stream goes on
                        bad = "Invalid range: " + parser.getIntValue() + ", expected: [[0..65535]].";
                    } else {
                        udp = uint16(parser.getIntValue());
                    }
                }
                case "ingress_port" -> {
                    if (value != JsonToken.VALUE_NULL) {
                        final var text = text(parser, value);
                        ingress = text.isEmpty() ? null : portName(text);
                    }
                }
                case "packets" -> {
                    if (value != JsonToken.VALUE_NUMBER_INT
                            || parser.getNumberType() == JsonParser.NumberType.BIG_INTEGER
                            || parser.getLongValue() < 0) {
                        bad = "not a packet count: " + parser.getText();
                        parser.skipChildren();
                    } else {
                        packets = Uint64.valueOf(parser.getLongValue());
                    }
                }
                // null: absent, as the model has it (an agent that does not report the figure)
                case "dscp" -> {
                    if (value == JsonToken.VALUE_NULL) {
                        dscp = null;
                    } else if (value != JsonToken.VALUE_NUMBER_INT || !fitsInt(parser)) {
                        bad = "not a DSCP: " + parser.getText();
                        parser.skipChildren();
                    } else if (parser.getIntValue() < 0 || parser.getIntValue() > MAX_DSCP) {
                        bad = "Invalid range: " + parser.getIntValue() + ", expected: [[0..63]].";
                    } else {
                        dscp = Uint8.valueOf(parser.getIntValue());
                    }
                }
                case "ect", "ce", "cnp" -> {
                    final Uint64 count = value == JsonToken.VALUE_NULL ? null : count(parser, value);
                    if (count == null && value != JsonToken.VALUE_NULL) {
                        bad = "not a " + name + " count: " + parser.getText();
                        parser.skipChildren();
                    } else if ("ect".equals(name)) {
                        ect = count;
                    } else if ("ce".equals(name)) {
                        ce = count;
                    } else {
                        cnp = count;
                    }
                }
                default -> parser.skipChildren();
            }
        }
        if (bad != null) {
            throw new IllegalArgumentException(bad);
        }
        if (udp == null) {
            throw new IllegalArgumentException("not a port number: missing");
        }
        if (packets == null) {
            throw new IllegalArgumentException("not a packet count: missing");
        }
        final var layout = SessionNodes.DATA_LAYOUT;
        final Object[] v = layout.slots();
        v[layout.slot(SessionNodes.UDP_SRC_PORT)] = udp;
        v[layout.slot(SessionNodes.INGRESS_PORT)] = ingress;
        v[layout.slot(SessionNodes.PACKETS)] = packets;
        v[layout.slot(SessionNodes.DSCP)] = dscp;
        v[layout.slot(SessionNodes.ECT_PACKETS)] = ect;
        v[layout.slot(SessionNodes.CE_PACKETS)] = ce;
        v[layout.slot(SessionNodes.CNP_PACKETS)] = cnp;
        return new CompactContainer(which, layout, v);
    }

    /** A count as the record has it: a whole number from 0 to a long's most, or null. */
    private static @Nullable Uint64 count(final JsonParser parser, final JsonToken value) throws IOException {
        if (value != JsonToken.VALUE_NUMBER_INT || parser.getNumberType() == JsonParser.NumberType.BIG_INTEGER
                || parser.getLongValue() < 0) {
            return null;
        }
        return Uint64.valueOf(parser.getLongValue());
    }

    /** The string equal to {@code text} that a recent record used, or {@code text} as the one now. */
    static String shared(final String text) {
        final int slot = text.hashCode() & SHARED.length - 1;
        final String known = SHARED[slot];
        if (text.equals(known)) {
            return known;
        }
        SHARED[slot] = text;
        return text;
    }

    /** {@code Uint16.valueOf(value)}, one object per value; a value out of range is refused. */
    static Uint16 uint16(final int value) {
        if (value < 0 || value >= UINT16.length) {
            return Uint16.valueOf(value);
        }
        Uint16 known = UINT16[value];
        if (known == null) {
            known = Uint16.valueOf(value);
            UINT16[value] = known;
        }
        return known;
    }

    /** A port name through the switch's port map, as a string shared by every session. */
    private String portName(final String name) {
        final String mapped = ports.getOrDefault(name, name);
        final String known = names.get(mapped);
        if (known != null) {
            return known;
        }
        if (names.size() < MAX_NAMES) {
            names.put(mapped, mapped);
        }
        return mapped;
    }

    /**
     * A value as text, as Jackson's {@code asText()} gives it: a scalar's text, and an empty text
     * for an object or an array (read to its end).
     */
    private static String text(final JsonParser parser, final JsonToken value) throws IOException {
        if (value.isScalarValue()) {
            return parser.getValueAsString(parser.getText());
        }
        parser.skipChildren();
        return "";
    }

    private static boolean fitsInt(final JsonParser parser) throws IOException {
        return parser.getNumberType() == JsonParser.NumberType.INT;
    }

    private static Boolean bool(final JsonParser parser, final JsonToken value) throws IOException {
        // Jackson's asBoolean(): true, or a number other than 0, or the text "true"
        return switch (value) {
            case VALUE_TRUE -> Boolean.TRUE;
            case VALUE_FALSE -> Boolean.FALSE;
            case VALUE_NUMBER_INT -> parser.getLongValue() != 0;
            case VALUE_STRING -> "true".equals(parser.getText().trim());
            default -> {
                parser.skipChildren();
                yield Boolean.FALSE;
            }
        };
    }

    private static Uint32 qpn(final JsonParser parser, final JsonToken value) throws IOException {
        final long qpn = lenientLong(parser, value);
        if (qpn < 0 || qpn > 0xFFFFFF) {
            throw new IllegalArgumentException("Invalid range: " + qpn + ", expected: [[0..16777215]].");
        }
        // the switches of a path report the same queue pairs: one object, as for the strings
        final int slot = (int) (qpn ^ qpn >>> 12) & SHARED_QPNS.length - 1;
        final Uint32 known = SHARED_QPNS[slot];
        if (known != null && known.longValue() == qpn) {
            return known;
        }
        final Uint32 made = Uint32.valueOf(qpn);
        SHARED_QPNS[slot] = made;
        return made;
    }

    /**
     * A session entry's key, shared by the switches of its path as its id is (the id given is the
     * shared one from {@link #shared}).
     */
    static NodeIdentifierWithPredicates sessionKey(final String id) {
        final int slot = id.hashCode() & SHARED_KEYS.length - 1;
        final NodeIdentifierWithPredicates known = SHARED_KEYS[slot];
        if (known != null && id.equals(known.getValue(SessionNodes.SESSION_ID))) {
            return known;
        }
        final var made = NodeIdentifierWithPredicates.of(SessionNodes.SESSION, SessionNodes.SESSION_ID, id);
        SHARED_KEYS[slot] = made;
        return made;
    }

    /** A port as the record has it: an integral number that fits an int (0 of "x" or of 1e12 would be a wrong port). */
    private static Uint16 port(final JsonParser parser, final JsonToken value) throws IOException {
        if (value != JsonToken.VALUE_NUMBER_INT || !fitsInt(parser)) {
            final var text = value.isScalarValue() ? parser.getText() : value.asString();
            parser.skipChildren();
            throw new IllegalArgumentException("not a port number: " + text);
        }
        return uint16(parser.getIntValue());
    }

    /** As Jackson's {@code asInt()} then {@code Uint16.valueOf}. */
    private static Uint16 lenientPort(final JsonParser parser, final JsonToken value) throws IOException {
        return uint16(lenientInt(parser, value));
    }

    /** Jackson's {@code asInt()}: a number truncated, a numeric text parsed, anything else 0. */
    private static int lenientInt(final JsonParser parser, final JsonToken value) throws IOException {
        return switch (value) {
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> parser.getValueAsInt();
            case VALUE_TRUE -> 1;
            case VALUE_STRING -> parser.getValueAsInt(0);
            default -> {
                parser.skipChildren();
                yield 0;
            }
        };
    }

    /** Jackson's {@code asLong()}: a number truncated, a numeric text parsed, anything else 0. */
    private static long lenientLong(final JsonParser parser, final JsonToken value) throws IOException {
        return switch (value) {
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> parser.getValueAsLong();
            case VALUE_TRUE -> 1;
            case VALUE_STRING -> parser.getValueAsLong(0);
            default -> {
                parser.skipChildren();
                yield 0;
            }
        };
    }

    /** A time as the flow table's entries keep it: microseconds (see NodeLayout), or null. */
    private static @Nullable Long time(final JsonParser parser, final JsonToken value) throws IOException {
        final long micros = micros(parser, value);
        return micros == Times.INVALID ? null : micros;
    }

    /**
     * A time's microseconds since the epoch (a JSON number of seconds, the agent API's time, read
     * from the number's digits and rounded half-even: pcapng times may carry nanoseconds),
     * {@link Times#INVALID} where it is not a number or outside what {@code yang:date-and-time}
     * can say.
     */
    private static long micros(final JsonParser parser, final JsonToken value) throws IOException {
        if (value != JsonToken.VALUE_NUMBER_INT && value != JsonToken.VALUE_NUMBER_FLOAT) {
            parser.skipChildren();
            return Times.INVALID;
        }
        long micros = micros(parser.getTextCharacters(), parser.getTextOffset(), parser.getTextLength());
        if (micros == Long.MIN_VALUE) {
            micros = micros(parser.getDecimalValue());
        }
        return micros < Times.MIN_MICROS || micros > Times.MAX_MICROS ? Times.INVALID : micros;
    }

    /**
     * Seconds as microseconds, half-even (pcapng times may carry nanoseconds); {@code Long.MIN_VALUE}
     * beyond a long.
     */
    static long micros(final BigDecimal seconds) {
        final var exact = seconds.setScale(6, RoundingMode.HALF_EVEN).unscaledValue();
        return exact.bitLength() > 63 ? Long.MIN_VALUE : exact.longValue();
    }

    /**
     * {@code [-]digits[.digits]} as microseconds, half-even; {@code Long.MIN_VALUE} for anything
     * else (an exponent, too many digits), which the caller takes the slow way.
     */
    static long micros(final char[] text, final int offset, final int length) {
        int pos = offset;
        final int end = offset + length;
        boolean negative = false;
        if (pos < end && text[pos] == '-') {
            negative = true;
            pos++;
        }
        long whole = 0;
        int digits = 0;
        while (pos < end && text[pos] >= '0' && text[pos] <= '9') {
            whole = whole * 10 + (text[pos++] - '0');
            if (++digits > 12) {
                return Long.MIN_VALUE;
            }
        }
        if (digits == 0) {
            return Long.MIN_VALUE;
        }
        long fraction = 0;
        int fractionDigits = 0;
        int roundDigit = -1;
        boolean beyond = false;
        if (pos < end && text[pos] == '.') {
            pos++;
            if (pos == end) {
                return Long.MIN_VALUE;
            }
            while (pos < end && text[pos] >= '0' && text[pos] <= '9') {
                final int d = text[pos++] - '0';
                if (fractionDigits < 6) {
                    fraction = fraction * 10 + d;
                    fractionDigits++;
                } else if (roundDigit < 0) {
                    roundDigit = d;
                } else if (d != 0) {
                    beyond = true;
                }
            }
        }
        if (pos != end) {
            return Long.MIN_VALUE;
        }
        while (fractionDigits < 6) {
            fraction *= 10;
            fractionDigits++;
        }
        long result = whole * 1_000_000 + fraction;
        if (roundDigit > 5 || roundDigit == 5 && (beyond || (result & 1) == 1)) {
            result++;
        }
        return negative ? -result : result;
    }

    /** {@code 0x} and {@code n} lowercase hex digits, as the model's pattern says. */
    private static String hex(final String text, final int digits, final String what) {
        if (text.length() != digits + 2 || text.charAt(0) != '0' || text.charAt(1) != 'x') {
            throw new IllegalArgumentException("not a " + what + ": " + text);
        }
        for (int i = 2; i < text.length(); i++) {
            final char c = text.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                throw new IllegalArgumentException("not a " + what + ": " + text);
            }
        }
        return text;
    }

    /** An address as the model takes it: a dotted quad checked here, anything else by the model. */
    private static String ipAddress(final String text) {
        if (isDottedQuad(text)) {
            return text;
        }
        final IpAddress ip = text.indexOf(':') >= 0 ? new IpAddress(new Ipv6Address(text))
            : new IpAddress(new Ipv4Address(text));
        return ip.stringValue();
    }

    private static boolean isDottedQuad(final String text) {
        int pos = 0;
        final int n = text.length();
        for (int part = 0; part < 4; part++) {
            if (part > 0) {
                if (pos >= n || text.charAt(pos) != '.') {
                    return false;
                }
                pos++;
            }
            final int start = pos;
            int value = 0;
            while (pos < n && pos - start < 3 && text.charAt(pos) >= '0' && text.charAt(pos) <= '9') {
                value = value * 10 + (text.charAt(pos++) - '0');
            }
            final int len = pos - start;
            if (len == 0 || value > 255 || len > 1 && text.charAt(start) == '0') {
                return false;
            }
        }
        return pos == n;
    }

}
