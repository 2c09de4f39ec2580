/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.manager;

import com.fasterxml.jackson.databind.JsonNode;
import io.rst.rft.manager.SessionStream.BadRecordException;
import io.rst.yang.time.Times;
import java.util.ArrayList;
import java.util.Map;
import java.util.function.Consumer;
import org.eclipse.jdt.annotation.Nullable;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.IpAddress;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.Ipv4Address;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.Ipv6Address;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.PortNumber;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.yang.types.rev130715.DateAndTime;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.CmMessageType;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.CommId;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.LearnedFrom;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.Qpn;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.ServiceId;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.SessionState;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.Transport;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rdma.session.Message;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rdma.session.MessageBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rdma.session.RequesterDataBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rdma.session.ResponderDataBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.Session;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.SessionBuilder;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.TpId;
import org.opendaylight.yangtools.yang.common.Uint16;
import org.opendaylight.yangtools.yang.common.Uint32;
import org.opendaylight.yangtools.yang.common.Uint64;
import org.opendaylight.yangtools.yang.common.Uint8;

/**
 * An agent's session record read the slow, independent way: Jackson's tree, then the binding
 * model's generated classes, which check each value against the model's types and patterns. The
 * reference {@link SessionStream} (the controller's one reader) is held to: the same nodes, the
 * same refusals ({@code SessionStreamTest}), and the binding sessions other tests compare the
 * datastore's content with. A record that does not fit the model is refused with the reason.
 */
final class ReferenceRecord {
    private ReferenceRecord() {
        // utility
    }

    static Session toSession(final JsonNode record) throws BadRecordException {
        return toSession(record, Map.of());
    }

    /**
     * The record as a session, each interface name the agent reports (a message's ingress port, a
     * data flow's) replaced by the tp-id {@code ports} maps it to, if any.
     */
    @SuppressWarnings("checkstyle:AvoidHidingCauseException") // a refusal says why in words, as the follower's does
    static Session toSession(final JsonNode record, final Map<String, String> ports) throws BadRecordException {
        if (record == null || !record.isObject()) {
            throw new BadRecordException("session record is not a JSON object");
        }
        final var id = text(record, "session_id");
        if (id == null || id.isEmpty()) {
            throw new BadRecordException("session record without session_id");
        }
        final boolean data = SessionStream.learnedFromData(text(record, "learned_from"));
        SessionStream.checkCommId(data, text(record, "requester_comm_id"));
        try {
            final var builder = new SessionBuilder().setSessionId(id);
            // always, a filter on it finds CM sessions too
            builder.setLearnedFrom(data ? LearnedFrom.Data : LearnedFrom.Cm);
            final var transport = text(record, "transport");
            if (transport != null) {
                final var parsed = Transport.forName(transport);
                if (parsed == null) {
                    throw new BadRecordException("session " + id + ": unknown transport " + transport);
                }
                builder.setTransport(parsed);
            }
            if (record.hasNonNull("one_way") && record.get("one_way").asBoolean()) {
                // false is the model's default: only true is written
                builder.setOneWay(true);
            }
            psns(record.get("request_psns"));
            psns(record.get("response_psns"));
            final var requesterIp = text(record, "requester_ip");
            if (requesterIp != null) {
                builder.setRequesterIp(ipAddress(requesterIp));
            }
            final var responderIp = text(record, "responder_ip");
            if (responderIp != null) {
                builder.setResponderIp(ipAddress(responderIp));
            }
            final var requesterCid = text(record, "requester_comm_id");
            if (requesterCid != null) {
                builder.setRequesterCommId(new CommId(requesterCid));
            }
            final var responderCid = text(record, "responder_comm_id");
            if (responderCid != null) {
                builder.setResponderCommId(new CommId(responderCid));
            }
            if (record.hasNonNull("requester_qpn")) {
                builder.setRequesterQpn(new Qpn(Uint32.valueOf(record.get("requester_qpn").asLong())));
            }
            if (record.hasNonNull("responder_qpn")) {
                builder.setResponderQpn(new Qpn(Uint32.valueOf(record.get("responder_qpn").asLong())));
            }
            final var serviceId = text(record, "service_id");
            if (serviceId != null) {
                builder.setServiceId(new ServiceId(serviceId));
            }
            if (record.hasNonNull("roles_known")) {
                builder.setRolesKnown(record.get("roles_known").asBoolean());
            }
            if (record.hasNonNull("rdma_cm_src_port")) {
                builder.setRdmaCmSrcPort(new PortNumber(Uint16.valueOf(record.get("rdma_cm_src_port").asInt())));
            }
            if (record.hasNonNull("rdma_cm_dst_port")) {
                builder.setRdmaCmDstPort(new PortNumber(Uint16.valueOf(record.get("rdma_cm_dst_port").asInt())));
            }
            if (record.hasNonNull("requester_udp_src_port")) {
                builder.setRequesterUdpSrcPort(port(record.get("requester_udp_src_port")));
            }
            if (record.hasNonNull("responder_udp_src_port")) {
                builder.setResponderUdpSrcPort(port(record.get("responder_udp_src_port")));
            }
            final var requesterData = record.get("requester_data");
            if (requesterData != null && !requesterData.isNull()) {
                final var d = new RequesterDataBuilder();
                dataFlow(requesterData, ports, d::setUdpSrcPort, d::setIngressPort, d::setPackets, d::setDscp,
                    d::setEctPackets, d::setCePackets, d::setCnpPackets);
                builder.setRequesterData(d.build());
            }
            final var responderData = record.get("responder_data");
            if (responderData != null && !responderData.isNull()) {
                final var d = new ResponderDataBuilder();
                dataFlow(responderData, ports, d::setUdpSrcPort, d::setIngressPort, d::setPackets, d::setDscp,
                    d::setEctPackets, d::setCePackets, d::setCnpPackets);
                builder.setResponderData(d.build());
            }
            final var state = text(record, "state");
            if (state != null) {
                final var parsed = SessionState.forName(state);
                if (parsed == null) {
                    throw new BadRecordException("unknown session state " + state);
                }
                builder.setState(parsed);
            }
            if (record.hasNonNull("reject_reason")) {
                builder.setRejectReason(Uint16.valueOf(record.get("reject_reason").asInt()));
            }
            if (record.hasNonNull("dropped_messages")) {
                builder.setDroppedMessages(Uint32.valueOf(record.get("dropped_messages").asLong()));
            }
            builder.setFirstSeen(seconds(record.get("first_seen")));
            builder.setLastSeen(seconds(record.get("last_seen")));
            final var log = record.get("message_log");
            if (log != null && log.isArray()) {
                final var messages = new ArrayList<Message>(log.size());
                long seq = 0;
                for (var entry : log) {
                    messages.add(message(entry, seq++, ports));
                }
                builder.setMessage(messages);
            }
            return builder.build();
        } catch (IllegalArgumentException e) {
            throw new BadRecordException("session " + id + ": " + e.getMessage());
        }
    }

    /**
     * A one-way flow's sampled PSNs ({@code request_psns}, {@code response_psns}): at most
     * {@link SessionStream#MAX_PSNS}, the first the agent lists; none where absent. Agent-only
     * evidence for the controller's pairing, not a leaf of the model; anything but an array of
     * 24-bit numbers is refused.
     */
    private static int[] psns(final @Nullable JsonNode value) {
        if (value == null || value.isNull()) {
            return new int[0];
        }
        if (!value.isArray()) {
            throw new IllegalArgumentException("PSNs are not an array: " + value);
        }
        final int n = Math.min(SessionStream.MAX_PSNS, value.size());
        final int[] out = new int[n];
        int index = 0;
        for (var psn : value) {
            if (!psn.isIntegralNumber() || !psn.canConvertToInt() || psn.asInt() < 0 || psn.asInt() > 0xFFFFFF) {
                throw new IllegalArgumentException("not a PSN: " + psn);
            }
            if (index < n) {
                out[index] = psn.asInt();
            }
            index++;
        }
        return out;
    }

    /**
     * One direction's data flow ({@code udp_src_port}, {@code ingress_port}, {@code packets}, and
     * where the agent reports them {@code dscp}, {@code ect}, {@code ce}, {@code cnp}: null or
     * missing is absent).
     */
    @SuppressWarnings("checkstyle:ParameterNumber")
    private static void dataFlow(final JsonNode flow, final Map<String, String> ports,
            final Consumer<PortNumber> udp, final Consumer<String> port,
            final Consumer<Uint64> packets, final Consumer<Uint8> dscp, final Consumer<Uint64> ect,
            final Consumer<Uint64> ce, final Consumer<Uint64> cnp) {
        if (!flow.isObject()) {
            throw new IllegalArgumentException("a data flow is not a JSON object: " + flow);
        }
        udp.accept(port(flow.path("udp_src_port")));
        final var ingress = text(flow, "ingress_port");
        if (ingress != null && !ingress.isEmpty()) {
            port.accept(ports.getOrDefault(ingress, ingress));
        }
        final var count = flow.path("packets");
        if (!count.isIntegralNumber() || !count.canConvertToLong() || count.asLong() < 0) {
            throw new IllegalArgumentException("not a packet count: " + count);
        }
        packets.accept(Uint64.valueOf(count.asLong()));
        final var code = flow.path("dscp");
        if (!code.isMissingNode() && !code.isNull()) {
            if (!code.isIntegralNumber() || !code.canConvertToInt()) {
                throw new IllegalArgumentException("not a DSCP: " + code);
            }
            if (code.asInt() < 0 || code.asInt() > 255) {
                // beyond a uint8: the model's range check would not be reached
                throw new IllegalArgumentException("not a DSCP: " + code);
            }
            dscp.accept(Uint8.valueOf(code.asInt()));
        }
        figure(flow, "ect", ect);
        figure(flow, "ce", ce);
        figure(flow, "cnp", cnp);
    }

    private static void figure(final JsonNode flow, final String name, final Consumer<Uint64> to) {
        final var value = flow.path(name);
        if (value.isMissingNode() || value.isNull()) {
            return;
        }
        if (!value.isIntegralNumber() || !value.canConvertToLong() || value.asLong() < 0) {
            throw new IllegalArgumentException("not a " + name + " count: " + value);
        }
        to.accept(Uint64.valueOf(value.asLong()));
    }

    private static Message message(final JsonNode entry, final long seq, final Map<String, String> ports)
            throws BadRecordException {
        final var name = text(entry, "msg");
        final var type = name == null ? null : CmMessageType.forName(name);
        if (type == null) {
            throw new BadRecordException("unknown CM message type " + name);
        }
        final var builder = new MessageBuilder().setSeq(Uint32.valueOf(seq)).setType(type)
            .setTime(seconds(entry.get("time")));
        final var port = text(entry, "ingress_port");
        if (port != null && !port.isEmpty()) {
            builder.setIngressTp(new TpId(ports.getOrDefault(port, port)));
        }
        if (entry.hasNonNull("from_requester")) {
            builder.setFromRequester(entry.get("from_requester").asBoolean());
        }
        return builder.build();
    }

    private static @Nullable DateAndTime seconds(final @Nullable JsonNode value) {
        if (value == null || !value.isNumber()) {
            return null;
        }
        final long micros = SessionStream.micros(value.decimalValue());
        final String text = micros == Long.MIN_VALUE ? null : Times.format(micros);
        return text == null ? null : new DateAndTime(text);
    }

    private static PortNumber port(final JsonNode value) {
        if (!value.isIntegralNumber() || !value.canConvertToInt()) {
            // asInt() would make 0 of "x" or of 1e12: refuse rather than record a wrong port
            throw new IllegalArgumentException("not a port number: " + value);
        }
        return new PortNumber(Uint16.valueOf(value.asInt()));
    }

    private static IpAddress ipAddress(final String text) {
        return text.indexOf(':') >= 0 ? new IpAddress(new Ipv6Address(text)) : new IpAddress(new Ipv4Address(text));
    }

    private static @Nullable String text(final JsonNode node, final String field) {
        final var value = node.get(field);
        return value == null || value.isNull() ? null : value.asText();
    }
}
