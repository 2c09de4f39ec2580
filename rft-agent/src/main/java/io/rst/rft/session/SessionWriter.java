/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.session;

import io.rst.rft.decode.CmMessageType;
import io.rst.rft.decode.JsonBytes;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jdt.annotation.Nullable;

/**
 * A session as the world reads it: JSON written straight from the session's fields into a reused
 * buffer (the agent's event stream and snapshots, no record built per message) and immutable
 * {@link SessionRecord}s (listeners, tests). Both write the same fields and bytes. Table thread
 * only (the IP scratch buffer is shared).
 */
final class SessionWriter {
    private static final byte[][] MSG_NAMES = new byte[CmMessageType.values().length][];
    private static final byte[][] STATE_NAMES = new byte[SessionState.values().length][];

    static {
        for (CmMessageType t : CmMessageType.values()) {
            MSG_NAMES[t.ordinal()] = JsonBytes.ascii("\"" + t.name() + "\"");
        }
        for (SessionState st : SessionState.values()) {
            STATE_NAMES[st.ordinal()] = JsonBytes.ascii(",\"state\":\"" + st.name() + "\"");
        }
    }

    private static final byte[] K_SESSION_ID = JsonBytes.ascii("{\"session_id\":\"");
    private static final byte[] K_ROLES_KNOWN = JsonBytes.ascii("\",\"roles_known\":");
    private static final byte[] K_LEARNED_FROM_CM = JsonBytes.ascii(",\"learned_from\":\"cm\"");
    private static final byte[] K_REQUESTER_IP = JsonBytes.ascii(",\"requester_ip\":\"");
    private static final byte[] K_RESPONDER_IP = JsonBytes.ascii("\",\"responder_ip\":\"");
    private static final byte[] K_REQUESTER_CID = JsonBytes.ascii("\",\"requester_comm_id\":\"");
    private static final byte[] K_RESPONDER_CID = JsonBytes.ascii(",\"responder_comm_id\":");
    private static final byte[] K_REQUESTER_QPN = JsonBytes.ascii(",\"requester_qpn\":");
    private static final byte[] K_RESPONDER_QPN = JsonBytes.ascii(",\"responder_qpn\":");
    private static final byte[] K_SERVICE_ID = JsonBytes.ascii(",\"service_id\":");
    private static final byte[] K_CM_SRC_PORT = JsonBytes.ascii(",\"rdma_cm_src_port\":");
    private static final byte[] K_CM_DST_PORT = JsonBytes.ascii(",\"rdma_cm_dst_port\":");
    private static final byte[] K_REQUESTER_UDP = JsonBytes.ascii(",\"requester_udp_src_port\":");
    private static final byte[] K_RESPONDER_UDP = JsonBytes.ascii(",\"responder_udp_src_port\":");
    private static final byte[] K_REQUESTER_DATA = JsonBytes.ascii(",\"requester_data\":{\"udp_src_port\":");
    private static final byte[] K_RESPONDER_DATA = JsonBytes.ascii(",\"responder_data\":{\"udp_src_port\":");
    private static final byte[] K_DATA_INGRESS = JsonBytes.ascii(",\"ingress_port\":");
    private static final byte[] K_DATA_PACKETS = JsonBytes.ascii(",\"packets\":");
    private static final byte[] K_DATA_DSCP = JsonBytes.ascii(",\"dscp\":");
    private static final byte[] K_DATA_ECT = JsonBytes.ascii(",\"ect\":");
    private static final byte[] K_DATA_CE = JsonBytes.ascii(",\"ce\":");
    private static final byte[] K_DATA_CNP = JsonBytes.ascii(",\"cnp\":");
    private static final byte[] K_REJECT_REASON = JsonBytes.ascii(",\"reject_reason\":");
    private static final byte[] K_MESSAGES = JsonBytes.ascii(",\"messages\":[");
    private static final byte[] K_FIRST_SEEN = JsonBytes.ascii("],\"first_seen\":");
    private static final byte[] K_LAST_SEEN = JsonBytes.ascii(",\"last_seen\":");
    private static final byte[] K_MESSAGE_LOG = JsonBytes.ascii(",\"message_log\":[");
    private static final byte[] K_MSG = JsonBytes.ascii("{\"msg\":");
    private static final byte[] K_INGRESS_PORT = JsonBytes.ascii(",\"ingress_port\":");
    private static final byte[] K_TIME = JsonBytes.ascii(",\"time\":");
    private static final byte[] K_FROM_REQUESTER_TRUE = JsonBytes.ascii(",\"from_requester\":true}");
    private static final byte[] K_FROM_REQUESTER_FALSE = JsonBytes.ascii(",\"from_requester\":false}");
    private static final byte[] K_DROPPED = JsonBytes.ascii("],\"dropped_messages\":");
    private static final byte[] K_REMOVED = JsonBytes.ascii(",\"removed\":true");
    private static final byte[] TRUE = JsonBytes.ascii("true");
    private static final byte[] FALSE = JsonBytes.ascii("false");

    private final PortNames ports;
    /** Scratch for IP addresses written as text. */
    private final byte[] ipBytes = new byte[16];

    SessionWriter(final PortNames ports) {
        this.ports = ports;
    }

    /** Writes what {@code record(session).appendJson(out)} writes, straight from the session. */
    void writeJson(final Session session, final JsonBytes out) {
        out.raw(K_SESSION_ID);
        if (session.has(Session.F_ROLES_KNOWN)) {
            ipText(out, session.ipVersion, session.ipHiA, session.ipLoA).raw('/')
                .hex(session.cidA & 0xffffffffL, 8).raw('/');
            ipText(out, session.ipVersion, session.ipHiB, session.ipLoB);
        } else if (compareEndpoints(session) <= 0) {
            ipText(out, session.ipVersion, session.ipHiA, session.ipLoA).raw('/')
                .hex(session.cidA & 0xffffffffL, 8).raw('/');
            ipText(out, session.ipVersion, session.ipHiB, session.ipLoB).raw('/')
                .hex(session.cidB & 0xffffffffL, 8);
        } else {
            ipText(out, session.ipVersion, session.ipHiB, session.ipLoB).raw('/')
                .hex(session.cidB & 0xffffffffL, 8).raw('/');
            ipText(out, session.ipVersion, session.ipHiA, session.ipLoA).raw('/')
                .hex(session.cidA & 0xffffffffL, 8);
        }
        out.raw(K_ROLES_KNOWN).raw(session.has(Session.F_ROLES_KNOWN) ? TRUE : FALSE).raw(K_LEARNED_FROM_CM);
        out.raw(K_REQUESTER_IP);
        ipText(out, session.ipVersion, session.ipHiA, session.ipLoA).raw(K_RESPONDER_IP);
        ipText(out, session.ipVersion, session.ipHiB, session.ipLoB).raw(K_REQUESTER_CID)
            .hex(session.cidA & 0xffffffffL, 8).raw('"');
        if (session.has(Session.F_B_CID)) {
            out.raw(K_RESPONDER_CID).hexString(session.cidB & 0xffffffffL, 8);
        }
        if (session.has(Session.F_A_QPN)) {
            out.raw(K_REQUESTER_QPN).decimal(session.qpnA);
        }
        if (session.has(Session.F_B_QPN)) {
            out.raw(K_RESPONDER_QPN).decimal(session.qpnB);
        }
        if (session.has(Session.F_SERVICE)) {
            out.raw(K_SERVICE_ID).hexString(session.serviceId, 16);
        }
        if (session.has(Session.F_IPCM_PORT)) {
            out.raw(K_CM_SRC_PORT).decimal((int) session.ipCmSrcPort);
        }
        if (session.has(Session.F_SERVICE) && session.serviceId >>> 24 == 1L) {
            out.raw(K_CM_DST_PORT).decimal((int) session.serviceId & 0xffff);
        }
        if (session.has(Session.F_A_UDP)) {
            out.raw(K_REQUESTER_UDP).decimal((int) session.udpPortA);
        }
        if (session.has(Session.F_B_UDP)) {
            out.raw(K_RESPONDER_UDP).decimal((int) session.udpPortB);
        }
        final Session.Data d = session.data;
        if (d != null) {
            if (d.packetsA > 0 || d.cnpA > 0) {
                dataJson(out.raw(K_REQUESTER_DATA), d.udpA, d.portA, d.packetsA, d.dscpA, d.ectA, d.ceA, d.cnpA);
            }
            if (d.packetsB > 0 || d.cnpB > 0) {
                dataJson(out.raw(K_RESPONDER_DATA), d.udpB, d.portB, d.packetsB, d.dscpB, d.ectB, d.ceB, d.cnpB);
            }
        }
        out.raw(STATE_NAMES[session.state]);
        if (session.has(Session.F_REJECT)) {
            out.raw(K_REJECT_REASON).decimal(session.rejectReason & 0xffff);
        }
        out.raw(K_MESSAGES);
        for (int i = 0; i < session.msgCount; i++) {
            if (i > 0) {
                out.raw(',');
            }
            out.raw(MSG_NAMES[(int) (session.msgs[i] & 0xf)]);
        }
        out.raw(K_FIRST_SEEN).seconds(session.firstSeen * 1000L, 6);
        out.raw(K_LAST_SEEN).seconds(session.lastSeen * 1000L, 6);
        out.raw(K_MESSAGE_LOG);
        for (int i = 0; i < session.msgCount; i++) {
            final long w = session.msgs[i];
            if (i > 0) {
                out.raw(',');
            }
            out.raw(K_MSG).raw(MSG_NAMES[(int) (w & 0xf)]);
            final String port = ports.name((int) (w >>> 5 & 0xffff));
            if (port != null) {
                out.raw(K_INGRESS_PORT).string(port);
            }
            out.raw(K_TIME).seconds((session.firstSeen + (w >>> 21)) * 1000L, 6);
            out.raw((w & 16) != 0 ? K_FROM_REQUESTER_TRUE : K_FROM_REQUESTER_FALSE);
        }
        out.raw(K_DROPPED).decimal(session.dropped);
        if (session.has(Session.F_REMOVED)) {
            // the session left the table: followers drop it too
            out.raw(K_REMOVED);
        }
        out.raw('}');
    }

    /**
     * Writes one direction's data object after its {@code udp_src_port} key, as
     * {@link DataFlow#appendJson} does: {@code dscpPlusOne} 0 leaves the DSCP out.
     */
    static void dataJson(final JsonBytes out, final PortNames ports, final int udp, final int port,
            final int packets, final int dscpPlusOne, final int ect, final int ce, final int cnp) {
        out.decimal(udp);
        final String name = ports.name(port & 0xffff);
        if (name != null) {
            out.raw(K_DATA_INGRESS).string(name);
        }
        out.raw(K_DATA_PACKETS).decimal(packets);
        if (dscpPlusOne > 0) {
            out.raw(K_DATA_DSCP).decimal(dscpPlusOne - 1);
        }
        out.raw(K_DATA_ECT).decimal(ect).raw(K_DATA_CE).decimal(ce).raw(K_DATA_CNP).decimal(cnp).raw('}');
    }

    private void dataJson(final JsonBytes out, final char udp, final short port, final int packets,
            final byte dscpPlusOne, final int ect, final int ce, final int cnp) {
        dataJson(out, ports, udp, port, packets, dscpPlusOne, ect, ce, cnp);
    }

    /** One direction as a {@link DataFlow}, null when it has neither a sampled packet nor a CNP. */
    static @Nullable DataFlow data(final PortNames ports, final int udp, final int port, final int packets,
            final int dscpPlusOne, final int ect, final int ce, final int cnp) {
        if (packets == 0 && cnp == 0) {
            return null;
        }
        return new DataFlow(udp, ports.name(port & 0xffff), packets, dscpPlusOne > 0 ? dscpPlusOne - 1 : null, ect,
            ce, cnp);
    }

    private JsonBytes ipText(final JsonBytes out, final int version, final long hi, final long lo) {
        final byte[] b = ipBytes;
        if (version == 4) {
            for (int i = 0; i < 4; i++) {
                b[i] = (byte) (lo >>> (24 - 8 * i));
            }
        } else {
            for (int i = 0; i < 8; i++) {
                b[i] = (byte) (hi >>> (56 - 8 * i));
                b[8 + i] = (byte) (lo >>> (56 - 8 * i));
            }
        }
        return out.ipText(b, 0, version);
    }

    SessionRecord record(final Session session) {
        final Session.Data d = session.data;
        final String aIp = ip(session.ipVersion, session.ipHiA, session.ipLoA);
        final String bIp = ip(session.ipVersion, session.ipHiB, session.ipLoB);
        final String cidA = hex8(session.cidA);
        final String id;
        if (session.has(Session.F_ROLES_KNOWN)) {
            id = aIp + "/" + cidA + "/" + bIp;
        } else {
            final String cidB = hex8(session.cidB);
            final int c = compareEndpoints(session);
            id = c <= 0 ? aIp + "/" + cidA + "/" + bIp + "/" + cidB : bIp + "/" + cidB + "/" + aIp + "/" + cidA;
        }
        final List<String> names = new ArrayList<>(session.msgCount);
        final List<SessionMessage> log = new ArrayList<>(session.msgCount);
        for (int i = 0; i < session.msgCount; i++) {
            final long w = session.msgs[i];
            final String name = CmMessageType.ofOrdinal((int) (w & 0xf)).name();
            names.add(name);
            log.add(new SessionMessage(name, ports.name((int) (w >>> 5 & 0xffff)),
                BigDecimal.valueOf(session.firstSeen + (w >>> 21), 6), (w & 16) != 0));
        }
        final boolean ipCmService = session.has(Session.F_SERVICE) && session.serviceId >>> 24 == 1L;
        return new SessionRecord(id, session.has(Session.F_ROLES_KNOWN), SessionRecord.CM, null, null, aIp, bIp, cidA,
            session.has(Session.F_B_CID) ? hex8(session.cidB) : null,
            session.has(Session.F_A_QPN) ? session.qpnA : null,
            session.has(Session.F_B_QPN) ? session.qpnB : null,
            session.has(Session.F_SERVICE) ? hex16(session.serviceId) : null,
            session.has(Session.F_IPCM_PORT) ? Integer.valueOf(session.ipCmSrcPort) : null,
            ipCmService ? Integer.valueOf((int) session.serviceId & 0xffff) : null,
            session.has(Session.F_A_UDP) ? Integer.valueOf(session.udpPortA) : null,
            session.has(Session.F_B_UDP) ? Integer.valueOf(session.udpPortB) : null,
            d == null ? null : data(ports, d.udpA, d.portA, d.packetsA, d.dscpA, d.ectA, d.ceA, d.cnpA),
            d == null ? null : data(ports, d.udpB, d.portB, d.packetsB, d.dscpB, d.ectB, d.ceB, d.cnpB),
            null, null,
            session.state(),
            session.has(Session.F_REJECT) ? Integer.valueOf(session.rejectReason & 0xffff) : null,
            names, BigDecimal.valueOf(session.firstSeen, 6), BigDecimal.valueOf(session.lastSeen, 6), log,
            session.dropped);
    }

    private static int compareEndpoints(final Session session) {
        int cmp = Long.compareUnsigned(session.ipHiA, session.ipHiB);
        if (cmp == 0) {
            cmp = Long.compareUnsigned(session.ipLoA, session.ipLoB);
        }
        return cmp != 0 ? cmp : Integer.compareUnsigned(session.cidA, session.cidB);
    }

    private static String hex16(final long value) {
        final String h = Long.toHexString(value);
        return "0x" + "0000000000000000".substring(h.length()) + h;
    }

    private static String hex8(final int value) {
        final String h = Integer.toHexString(value);
        return "0x" + "00000000".substring(h.length()) + h;
    }

    static String ip(final int version, final long hi, final long lo) {
        final byte[] b = new byte[16];
        if (version == 4) {
            for (int i = 0; i < 4; i++) {
                b[i] = (byte) (lo >>> (24 - 8 * i));
            }
        } else {
            for (int i = 0; i < 8; i++) {
                b[i] = (byte) (hi >>> (56 - 8 * i));
                b[8 + i] = (byte) (lo >>> (56 - 8 * i));
            }
        }
        return JsonBytes.ipString(b, version);
    }
}
