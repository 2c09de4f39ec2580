/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.session;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import edu.umd.cs.findbugs.annotations.SuppressFBWarnings;
import io.rst.rft.decode.JsonBytes;
import java.math.BigDecimal;
import java.util.List;
import org.eclipse.jdt.annotation.Nullable;

/**
 * An immutable picture of one session, with the {@code sessions} fields of docs/cli.md under
 * their JSON names (Jackson serialises it to exactly what {@link #appendJson} writes; absent
 * values are omitted).
 *
 * @param sessionId the same on every switch for the same connection: when the roles are known,
 *        {@code REQUESTER_IP/0xREQUESTER_CID/RESPONDER_IP}; when only DREQ/DREP (or a REJ/MRA
 *        that does not say its direction) were seen, {@code IP_A/0xCID_A/IP_B/0xCID_B} with the
 *        two endpoints in byte order of (IP, CID), which a controller joins to the first form
 *        through either endpoint
 * @param rolesKnown false when no message said who was the requester: the requester fields
 *        then hold a guess (the first DREQ's sender, or the first DREP's receiver); always false
 *        for a data-learned record
 * @param learnedFrom {@code "cm"} for a session learnt from CM messages (the default when a record
 *        does not say), {@code "data"} for one learnt from sampled data packets: a paired RC
 *        session {@code IP_A/qp0xAAAAAA/IP_B/qp0xBBBBBB} (A the lower endpoint by IP address bytes,
 *        then QPN; requester fields A's, responder fields B's), or a one-way flow
 *        {@code SRC_IP/-/DST_IP/qp0xBBBBBB}
 * @param oneWay true for a data-learned one-way flow (UC, UD, or RC not paired at this switch),
 *        null otherwise
 * @param transport RC, UC or UD for a data-learned record, null for a CM session
 * @param requesterCommId {@code 0x} + 8 hex digits; required for a CM session, null for a
 *        data-learned record
 * @param responderCommId null until a message carried it
 * @param requesterQpn null when not seen (REQ, or DREQ from the responder, carry it)
 * @param responderQpn null when not seen (REP, or DREQ from the requester, carry it)
 * @param serviceId null when no REQ was seen
 * @param rejectReason the REJ reason when one was seen
 * @param rdmaCmSrcPort, rdmaCmDstPort from the REQ (IP CM private data; service ID) when present
 * @param requesterUdpSrcPort, responderUdpSrcPort the UDP source port of the first CM packet the
 *        requester (responder) was seen to send, null until one was (the side of a DREQ/DREP-only
 *        session follows the guess of {@code rolesKnown}); ECMP hashes it
 * @param requestPsns a one-way RC flow's up to 8 most recent sampled request PSNs, oldest first
 *        (null otherwise): with {@code responsePsns} the evidence that pairs two one-way flows
 * @param responsePsns a one-way RC flow's up to 8 most recent sampled response PSNs (ACK, atomic
 *        ACK, READ response), oldest first; null otherwise
 * @param messages message names in wire order
 * @param messageLog per message: name, ingress port, time, direction
 * @param droppedMessages messages seen beyond the per-session limit (not in the lists)
 */
@SuppressFBWarnings(value = "NP_STORE_INTO_NONNULL_FIELD",
    justification = "the absent values are @Nullable components: SpotBugs reads no TYPE_USE @Nullable on fields")
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SessionRecord(
        @JsonProperty("session_id") String sessionId,
        @JsonProperty("roles_known") boolean rolesKnown,
        @JsonProperty("learned_from") String learnedFrom,
        @JsonProperty("one_way") @Nullable Boolean oneWay,
        @JsonProperty("transport") @Nullable String transport,
        @JsonProperty("requester_ip") String requesterIp,
        @JsonProperty("responder_ip") String responderIp,
        @JsonProperty("requester_comm_id") @Nullable String requesterCommId,
        @JsonProperty("responder_comm_id") @Nullable String responderCommId,
        @JsonProperty("requester_qpn") @Nullable Integer requesterQpn,
        @JsonProperty("responder_qpn") @Nullable Integer responderQpn,
        @JsonProperty("service_id") @Nullable String serviceId,
        @JsonProperty("rdma_cm_src_port") @Nullable Integer rdmaCmSrcPort,
        @JsonProperty("rdma_cm_dst_port") @Nullable Integer rdmaCmDstPort,
        @JsonProperty("requester_udp_src_port") @Nullable Integer requesterUdpSrcPort,
        @JsonProperty("responder_udp_src_port") @Nullable Integer responderUdpSrcPort,
        @JsonProperty("requester_data") @Nullable DataFlow requesterData,
        @JsonProperty("responder_data") @Nullable DataFlow responderData,
        @JsonProperty("request_psns") @Nullable List<Integer> requestPsns,
        @JsonProperty("response_psns") @Nullable List<Integer> responsePsns,
        @JsonProperty("state") SessionState state,
        @JsonProperty("reject_reason") @Nullable Integer rejectReason,
        @JsonProperty("messages") List<String> messages,
        @JsonProperty("first_seen") BigDecimal firstSeen,
        @JsonProperty("last_seen") BigDecimal lastSeen,
        @JsonProperty("message_log") List<SessionMessage> messageLog,
        @JsonProperty("dropped_messages") int droppedMessages) {

    /** {@link #learnedFrom()} of a session learnt from CM messages. */
    public static final String CM = "cm";
    /** {@link #learnedFrom()} of a session or flow learnt from sampled data packets. */
    public static final String DATA = "data";

    public SessionRecord {
        requireNonNull(sessionId);
        requireNonNull(requesterIp);
        requireNonNull(responderIp);
        if (learnedFrom == null || CM.equals(learnedFrom)) {
            learnedFrom = CM;
            requireNonNull(requesterCommId, "a CM session has a requester comm ID");
        } else if (!DATA.equals(learnedFrom)) {
            throw new IllegalArgumentException("learned_from is cm or data: " + learnedFrom);
        }
        oneWay = Boolean.TRUE.equals(oneWay) ? Boolean.TRUE : null;
        requestPsns = requestPsns == null ? null : List.copyOf(requestPsns);
        responsePsns = responsePsns == null ? null : List.copyOf(responsePsns);
        requireNonNull(state);
        messages = List.copyOf(messages);
        messageLog = List.copyOf(messageLog);
        requireNonNull(firstSeen);
        requireNonNull(lastSeen);
    }

    /** Appends this record as one JSON object (the same fields Jackson writes). */
    public void appendJson(final JsonBytes out) {
        out.raw("{\"session_id\":").string(sessionId);
        out.raw(",\"roles_known\":").raw(rolesKnown ? "true" : "false");
        out.raw(",\"learned_from\":").string(learnedFrom);
        if (oneWay != null) {
            out.raw(",\"one_way\":").raw(oneWay ? "true" : "false");
        }
        if (transport != null) {
            out.raw(",\"transport\":").string(transport);
        }
        out.raw(",\"requester_ip\":").string(requesterIp);
        out.raw(",\"responder_ip\":").string(responderIp);
        if (requesterCommId != null) {
            out.raw(",\"requester_comm_id\":").string(requesterCommId);
        }
        if (responderCommId != null) {
            out.raw(",\"responder_comm_id\":").string(responderCommId);
        }
        if (requesterQpn != null) {
            out.raw(",\"requester_qpn\":").decimal(requesterQpn);
        }
        if (responderQpn != null) {
            out.raw(",\"responder_qpn\":").decimal(responderQpn);
        }
        if (serviceId != null) {
            out.raw(",\"service_id\":").string(serviceId);
        }
        if (rdmaCmSrcPort != null) {
            out.raw(",\"rdma_cm_src_port\":").decimal(rdmaCmSrcPort);
        }
        if (rdmaCmDstPort != null) {
            out.raw(",\"rdma_cm_dst_port\":").decimal(rdmaCmDstPort);
        }
        if (requesterUdpSrcPort != null) {
            out.raw(",\"requester_udp_src_port\":").decimal(requesterUdpSrcPort);
        }
        if (responderUdpSrcPort != null) {
            out.raw(",\"responder_udp_src_port\":").decimal(responderUdpSrcPort);
        }
        if (requesterData != null) {
            requesterData.appendJson(out.raw(",\"requester_data\":"));
        }
        if (responderData != null) {
            responderData.appendJson(out.raw(",\"responder_data\":"));
        }
        if (requestPsns != null) {
            psns(out.raw(",\"request_psns\":["), requestPsns);
        }
        if (responsePsns != null) {
            psns(out.raw(",\"response_psns\":["), responsePsns);
        }
        out.raw(",\"state\":\"").raw(state.name()).raw('"');
        if (rejectReason != null) {
            out.raw(",\"reject_reason\":").decimal(rejectReason);
        }
        out.raw(",\"messages\":[");
        for (int i = 0; i < messages.size(); i++) {
            if (i > 0) {
                out.raw(',');
            }
            out.raw('"').raw(messages.get(i)).raw('"');
        }
        out.raw("],\"first_seen\":").raw(firstSeen.toPlainString());
        out.raw(",\"last_seen\":").raw(lastSeen.toPlainString());
        out.raw(",\"message_log\":[");
        for (int i = 0; i < messageLog.size(); i++) {
            final SessionMessage m = messageLog.get(i);
            out.raw(i > 0 ? ",{\"msg\":\"" : "{\"msg\":\"").raw(m.msg()).raw('"');
            if (m.ingressPort() != null) {
                out.raw(",\"ingress_port\":").string(m.ingressPort());
            }
            out.raw(",\"time\":").raw(m.time().toPlainString());
            out.raw(",\"from_requester\":").raw(m.fromRequester() ? "true}" : "false}");
        }
        out.raw("],\"dropped_messages\":").decimal(droppedMessages).raw('}');
    }

    private static void psns(final JsonBytes out, final List<Integer> psns) {
        for (int i = 0; i < psns.size(); i++) {
            if (i > 0) {
                out.raw(',');
            }
            out.decimal((int) psns.get(i));
        }
        out.raw(']');
    }
}
