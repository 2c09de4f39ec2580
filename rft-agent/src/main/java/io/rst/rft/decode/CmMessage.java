/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.decode;

import static java.util.Objects.requireNonNull;

import edu.umd.cs.findbugs.annotations.SuppressFBWarnings;
import org.eclipse.jdt.annotation.Nullable;

/**
 * A reusable, mutable view of one decoded RoCE frame, filled by {@link FrameDecoder}: the outer
 * addresses and UDP port, the BTH (every RoCE packet), and for a {@link DecodeResult#CM_MAD} the
 * MAD header and the CM fields of its message type. Nothing is allocated per packet: addresses
 * are copied into fixed 16-byte arrays (IPv4 in the first 4 bytes, see {@link #ipVersion()}).
 *
 * <p>Fields that a message type does not carry read as 0; {@link #hasLocalCommId()} and its
 * siblings say which are meaningful (the same rules as the {@code decode} JSON output).
 * Not thread-safe; copy what you keep ({@link #copyFrom(CmMessage)}) since the decoder reuses it.
 */
@SuppressFBWarnings(value = { "NP_NONNULL_FIELD_NOT_INITIALIZED_IN_CONSTRUCTOR", "NP_STORE_INTO_NONNULL_FIELD" },
    justification = "SpotBugs reads no TYPE_USE @Nullable on fields: these fields are @Nullable")
public final class CmMessage {
    // capture
    long frame;
    long timeNanos;
    int timeDigits = 9;
    // outer network
    int ipVersion;
    final byte[] srcIp = new byte[16];
    final byte[] dstIp = new byte[16];
    int udpSrcPort;
    boolean roceV1;
    int dscp;
    /** The IP ECN field: 0 Not-ECT, 1 ECT(1), 2 ECT(0), 3 CE (RFC 3168). */
    int ecn;
    // BTH / DETH
    int bthOpcode;
    int bthDestQp;
    int bthPsn;
    int pkey;
    int dethSrcQp;
    /** RETH DMA length of an RC RDMA READ request (opcode 0x0C), -1 when not one or not captured. */
    long rethDmaLength = -1;
    // MAD common header
    int madClassVersion;
    int method;
    int status;
    long transactionId;
    int attributeId;
    @Nullable CmMessageType type;
    // CM fields (see package-info for where each sits)
    int localCommId;
    int remoteCommId;
    int localQpn;
    int remoteQpn;
    long serviceId;
    int startingPsn;
    int rejectReason;
    int messageRejected;
    int messageMraed;
    int serviceTimeout;
    int remoteCmResponseTimeout;
    int localCmResponseTimeout;
    int primaryLocalAckTimeout;
    int maxCmRetries;
    int requestId;
    int sidrStatus;
    int sidrQpn;
    int apStatus;
    // RDMA IP CM service annex (REQ private data)
    boolean hasIpCm;
    int ipCmVersion;
    int ipCmSrcPort;
    final byte[] ipCmSrcIp = new byte[16];
    final byte[] ipCmDstIp = new byte[16];
    // PFC (IEEE 802.1Qbb MAC control frame, DecodeResult.PFC)
    long srcMac;
    int pfcEnable;
    final int[] pfcQuanta = new int[8];
    // LLDP (IEEE 802.1AB, DecodeResult.LLDP); srcMac is the sender's too
    final LldpPdu lldp = new LldpPdu();

    /** Resets the CM part (the decoder calls this before each MAD). */
    void clearCm() {
        localCommId = 0;
        remoteCommId = 0;
        localQpn = 0;
        remoteQpn = 0;
        serviceId = 0;
        startingPsn = 0;
        rejectReason = 0;
        messageRejected = 0;
        messageMraed = 0;
        serviceTimeout = 0;
        remoteCmResponseTimeout = 0;
        localCmResponseTimeout = 0;
        primaryLocalAckTimeout = 0;
        maxCmRetries = 0;
        requestId = 0;
        sidrStatus = 0;
        sidrQpn = 0;
        apStatus = 0;
        hasIpCm = false;
        ipCmVersion = 0;
        ipCmSrcPort = 0;
        type = null;
    }

    /** Copies every field of {@code other} into this view. */
    public void copyFrom(final CmMessage other) {
        frame = other.frame;
        timeNanos = other.timeNanos;
        timeDigits = other.timeDigits;
        ipVersion = other.ipVersion;
        System.arraycopy(other.srcIp, 0, srcIp, 0, 16);
        System.arraycopy(other.dstIp, 0, dstIp, 0, 16);
        udpSrcPort = other.udpSrcPort;
        roceV1 = other.roceV1;
        dscp = other.dscp;
        ecn = other.ecn;
        bthOpcode = other.bthOpcode;
        bthDestQp = other.bthDestQp;
        bthPsn = other.bthPsn;
        pkey = other.pkey;
        dethSrcQp = other.dethSrcQp;
        rethDmaLength = other.rethDmaLength;
        madClassVersion = other.madClassVersion;
        method = other.method;
        status = other.status;
        transactionId = other.transactionId;
        attributeId = other.attributeId;
        type = other.type;
        localCommId = other.localCommId;
        remoteCommId = other.remoteCommId;
        localQpn = other.localQpn;
        remoteQpn = other.remoteQpn;
        serviceId = other.serviceId;
        startingPsn = other.startingPsn;
        rejectReason = other.rejectReason;
        messageRejected = other.messageRejected;
        messageMraed = other.messageMraed;
        serviceTimeout = other.serviceTimeout;
        remoteCmResponseTimeout = other.remoteCmResponseTimeout;
        localCmResponseTimeout = other.localCmResponseTimeout;
        primaryLocalAckTimeout = other.primaryLocalAckTimeout;
        maxCmRetries = other.maxCmRetries;
        requestId = other.requestId;
        sidrStatus = other.sidrStatus;
        sidrQpn = other.sidrQpn;
        apStatus = other.apStatus;
        hasIpCm = other.hasIpCm;
        ipCmVersion = other.ipCmVersion;
        ipCmSrcPort = other.ipCmSrcPort;
        System.arraycopy(other.ipCmSrcIp, 0, ipCmSrcIp, 0, 16);
        System.arraycopy(other.ipCmDstIp, 0, ipCmDstIp, 0, 16);
        srcMac = other.srcMac;
        pfcEnable = other.pfcEnable;
        System.arraycopy(other.pfcQuanta, 0, pfcQuanta, 0, 8);
        lldp.copyFrom(other.lldp);
    }

    /** Sets the capture metadata (frame number, time); readers call this before decoding. */
    public void setCapture(final long frameNumber, final long epochNanos) {
        frame = frameNumber;
        timeNanos = epochNanos;
    }

    /** Number of fraction digits worth printing for {@link #timeNanos()} (6 for microsecond files). */
    public void setTimeDigits(final int digits) {
        if (digits < 0 || digits > 9) {
            throw new IllegalArgumentException("digits " + digits);
        }
        timeDigits = digits;
    }

    // ---- capture and network ----

    /** 1-based index of the frame in its file (0 on live capture unless the caller sets it). */
    public long frame() {
        return frame;
    }

    /** Capture time, nanoseconds since the epoch. */
    public long timeNanos() {
        return timeNanos;
    }

    /** Capture time, microseconds since the epoch. */
    public long timeMicros() {
        return Math.floorDiv(timeNanos, 1000L);
    }

    /** 4 or 6: which bytes of {@link #copySrcIp(byte[])} / {@link #copyDstIp(byte[])} are meant. */
    public int ipVersion() {
        return ipVersion;
    }

    /** Copies the outer source address (4 or 16 bytes, see {@link #ipVersion()}) into {@code dst}. */
    public void copySrcIp(final byte[] dst) {
        System.arraycopy(srcIp, 0, dst, 0, ipVersion == 4 ? 4 : 16);
    }

    /** Copies the outer destination address into {@code dst}. */
    public void copyDstIp(final byte[] dst) {
        System.arraycopy(dstIp, 0, dst, 0, ipVersion == 4 ? 4 : 16);
    }

    /** Byte {@code index} of the outer source address, without copying. */
    public byte srcIpByte(final int index) {
        return srcIp[index];
    }

    /** Byte {@code index} of the outer destination address, without copying. */
    public byte dstIpByte(final int index) {
        return dstIp[index];
    }

    /** The outer source address's first 8 bytes as a long (IPv6), or 0 for IPv4. */
    public long srcIpHigh() {
        return ipVersion == 4 ? 0L : be64(srcIp, 0);
    }

    /** The outer source address's last 8 bytes as a long (IPv6), or the 32-bit address (IPv4). */
    public long srcIpLow() {
        return ipVersion == 4 ? be64(srcIp, 0) >>> 32 : be64(srcIp, 8);
    }

    public long dstIpHigh() {
        return ipVersion == 4 ? 0L : be64(dstIp, 0);
    }

    public long dstIpLow() {
        return ipVersion == 4 ? be64(dstIp, 0) >>> 32 : be64(dstIp, 8);
    }

    private static long be64(final byte[] bytes, final int off) {
        return FrameDecoder.u64(bytes, off);
    }

    /** The outer source address as text (allocates: slow path). */
    public String srcIpString() {
        return JsonBytes.ipString(srcIp, ipVersion);
    }

    /** The outer destination address as text (allocates: slow path). */
    public String dstIpString() {
        return JsonBytes.ipString(dstIp, ipVersion);
    }

    /** UDP source port, or -1 for RoCEv1 (no UDP). */
    public int udpSrcPort() {
        return udpSrcPort;
    }

    /** True if the frame was RoCEv1 (ethertype 0x8915, GRH instead of IP/UDP). */
    public boolean isRoceV1() {
        return roceV1;
    }

    /** DSCP of the outer IP header (traffic class >> 2 for IPv6 and RoCEv1). */
    public int dscp() {
        return dscp;
    }

    /**
     * The ECN field of the outer IP header (the traffic class's low 2 bits for IPv6 and RoCEv1):
     * 0 Not-ECT, 1 ECT(1), 2 ECT(0), 3 CE (Congestion Experienced), as the packet entered the
     * capture.
     */
    public int ecn() {
        return ecn;
    }

    /** Whether the packet was sent ECN-capable: ECT(0), ECT(1) or CE. */
    public boolean isEcnCapable() {
        return ecn != 0;
    }

    /** Whether the packet was marked Congestion Experienced. */
    public boolean isCongestionExperienced() {
        return ecn == 3;
    }

    // ---- BTH ----

    public int bthOpcode() {
        return bthOpcode;
    }

    /** BTH destination QP (24 bits). */
    public int bthDestQp() {
        return bthDestQp;
    }

    /** BTH packet sequence number (24 bits). */
    public int bthPsn() {
        return bthPsn;
    }

    public int pkey() {
        return pkey;
    }

    /** Whether the BTH opcode is a RoCEv2 Congestion Notification Packet's (0x81). */
    public boolean isCnp() {
        return bthOpcode == FrameDecoder.OPCODE_CNP;
    }

    /** DETH source QP (UD packets only; 1 for CM). */
    public int dethSrcQp() {
        return dethSrcQp;
    }

    /**
     * The DMA length of an RC RDMA READ request's RETH (unsigned 32 bits), or -1 when the packet is
     * not a READ request or its RETH was not captured.
     */
    public long rethDmaLength() {
        return rethDmaLength;
    }

    // ---- PFC ----

    /**
     * A PFC or LLDP frame's source MAC address (48 bits): the neighbour that asks for the pause,
     * or that sent the LLDPDU (0 when the link header has none).
     */
    public long srcMac() {
        return srcMac;
    }

    /**
     * A PFC frame's priority-enable vector: bit {@code p} set asks priority {@code p} to pause for
     * {@link #pfcQuanta(int)} (0 quanta: resume at once).
     */
    public int pfcEnable() {
        return pfcEnable;
    }

    /** A PFC frame's pause time for priority {@code priority} (0 to 7), in quanta of 512 bit times. */
    public int pfcQuanta(final int priority) {
        return pfcQuanta[priority];
    }

    // ---- LLDP ----

    /** The LLDPDU of a {@link DecodeResult#LLDP} frame (the same view, reused, for every frame). */
    public LldpPdu lldp() {
        return lldp;
    }

    // ---- MAD ----

    /** The CM message type, or null when the view holds a data packet. */
    public CmMessageType type() {
        return type;
    }

    public int method() {
        return method;
    }

    public int madStatus() {
        return status;
    }

    public int madClassVersion() {
        return madClassVersion;
    }

    public long transactionId() {
        return transactionId;
    }

    public int attributeId() {
        return attributeId;
    }

    // ---- CM ----

    /** Local comm ID (unsigned 32 bits in an int); for SIDR see {@link #requestId()}. */
    public int localCommId() {
        return localCommId;
    }

    public int remoteCommId() {
        return remoteCommId;
    }

    /** Local QPN of a REQ or REP (24 bits). */
    public int localQpn() {
        return localQpn;
    }

    /** Remote QPN/EECN of a DREQ or LAP (24 bits). */
    public int remoteQpn() {
        return remoteQpn;
    }

    /** Service ID of a REQ, SIDR_REQ or SIDR_REP. */
    public long serviceId() {
        return serviceId;
    }

    /** Starting PSN of a REQ or REP (24 bits). */
    public int startingPsn() {
        return startingPsn;
    }

    /** REJ reason code. */
    public int rejectReason() {
        return rejectReason;
    }

    /** REJ "message rejected": 0 REQ, 1 REP, 2 other. */
    public int messageRejected() {
        return messageRejected;
    }

    /** MRA "message MRAed": 0 REQ, 1 REP, 2 LAP. */
    public int messageMraed() {
        return messageMraed;
    }

    /** MRA service timeout (5 bits; 4.096 us * 2^value). */
    public int serviceTimeout() {
        return serviceTimeout;
    }

    /** REQ remote CM response timeout (5 bits): how long the requester waits for an answer. */
    public int remoteCmResponseTimeout() {
        return remoteCmResponseTimeout;
    }

    /** REQ local CM response timeout (5 bits). */
    public int localCmResponseTimeout() {
        return localCmResponseTimeout;
    }

    /**
     * REQ primary local ACK timeout (5 bits): 4.096 us * 2^value, the QP's transport timer, which
     * the requester's CM sets from the path's packet life time (Linux: packet life time + 1 when the
     * CA's ACK delay is smaller), so 4.096 us * 2^value bounds twice the packet life time.
     */
    public int primaryLocalAckTimeout() {
        return primaryLocalAckTimeout;
    }

    /** REQ max CM retries (4 bits). */
    public int maxCmRetries() {
        return maxCmRetries;
    }

    /**
     * The REQ's CM response timeout in microseconds: 4.096 us * 2^(remote CM response timeout),
     * the time the requester waits for REP/REJ/MRA before it retries or gives up.
     */
    public long cmResponseTimeoutMicros() {
        return cmTimeoutMicros(remoteCmResponseTimeout);
    }

    /** 4.096 us * 2^exponent, in microseconds (IBA's encoding of every CM timeout). */
    public static long cmTimeoutMicros(final int exponent) {
        return (4096L << (exponent & 0x1f)) / 1000L;
    }

    /** SIDR request ID. */
    public int requestId() {
        return requestId;
    }

    /** SIDR_REP status. */
    public int sidrStatus() {
        return sidrStatus;
    }

    /** SIDR_REP QPN. */
    public int sidrQpn() {
        return sidrQpn;
    }

    /** APR AP status. */
    public int apStatus() {
        return apStatus;
    }

    // ---- RDMA IP CM service annex ----

    /** True when the service ID has the IP CM prefix 0x0000000001 (rdma_cm). */
    public boolean isIpCmService() {
        return serviceId >>> 24 == 1L;
    }

    /** rdma_cm port space (the service ID byte after the prefix: 0x06 TCP, 0x11 UDP, 0x02 IPoIB, 0x01 IB). */
    public int ipCmPortSpace() {
        return (int) (serviceId >>> 16) & 0xff;
    }

    /** rdma_cm destination port (the low 16 bits of the service ID). */
    public int ipCmDstPort() {
        return (int) serviceId & 0xffff;
    }

    /** True when a REQ with an IP CM service ID carried the IP CM private data. */
    public boolean hasIpCm() {
        return hasIpCm;
    }

    /** IP version nibble of the IP CM private data (4 or 6; other values are kept as sent). */
    public int ipCmVersion() {
        return ipCmVersion;
    }

    public int ipCmSrcPort() {
        return ipCmSrcPort;
    }

    /** The IP CM source address, 16 bytes as on the wire (IPv4 in the last 4 bytes). */
    public void copyIpCmSrcIp(final byte[] dst) {
        System.arraycopy(ipCmSrcIp, 0, dst, 0, 16);
    }

    public void copyIpCmDstIp(final byte[] dst) {
        System.arraycopy(ipCmDstIp, 0, dst, 0, 16);
    }

    /** The IP CM source address as text (allocates). */
    public String ipCmSrcIpString() {
        return ipCmString(ipCmSrcIp);
    }

    public String ipCmDstIpString() {
        return ipCmString(ipCmDstIp);
    }

    private String ipCmString(final byte[] addr) {
        if (ipCmVersion == 4) {
            final byte[] v4 = {addr[12], addr[13], addr[14], addr[15]};
            return JsonBytes.ipString(v4, 4);
        }
        return JsonBytes.ipString(addr, 6);
    }

    // ---- which fields a type carries (the decode JSON rules) ----

    public boolean hasLocalCommId() {
        return type != null && switch (type) {
            case REQ, MRA, REJ, REP, RTU, DREQ, DREP, LAP, APR -> true;
            default -> false;
        };
    }

    public boolean hasRemoteCommId() {
        return type != null && switch (type) {
            case MRA, REJ, REP, RTU, DREQ, DREP, LAP, APR -> true;
            default -> false;
        };
    }

    public boolean hasLocalQpn() {
        return type == CmMessageType.REQ || type == CmMessageType.REP;
    }

    public boolean hasRemoteQpn() {
        return type == CmMessageType.DREQ || type == CmMessageType.LAP;
    }

    public boolean hasServiceId() {
        return type == CmMessageType.REQ || type == CmMessageType.SIDR_REQ || type == CmMessageType.SIDR_REP;
    }

    // ---- JSON ----

    // pre-encoded JSON keys: appendJson is on the decode command's hot path
    private static final byte[][] TYPE_NAMES = new byte[CmMessageType.values().length][];

    static {
        for (CmMessageType v : CmMessageType.values()) {
            TYPE_NAMES[v.ordinal()] = JsonBytes.ascii(v.name() + '"');
        }
    }

    private static final byte[] K_FRAME = JsonBytes.ascii("{\"frame\":");
    private static final byte[] K_TIME = JsonBytes.ascii(",\"time\":");
    private static final byte[] K_SRC_IP = JsonBytes.ascii(",\"src_ip\":");
    private static final byte[] K_DST_IP = JsonBytes.ascii(",\"dst_ip\":");
    private static final byte[] K_UDP_SRC_PORT = JsonBytes.ascii(",\"udp_src_port\":");
    private static final byte[] K_MSG = JsonBytes.ascii(",\"msg\":\"");
    private static final byte[] K_METHOD = JsonBytes.ascii(",\"method\":");
    private static final byte[] K_TRANSACTION_ID = JsonBytes.ascii(",\"transaction_id\":");
    private static final byte[] K_LOCAL_COMM_ID = JsonBytes.ascii(",\"local_comm_id\":");
    private static final byte[] K_REMOTE_COMM_ID = JsonBytes.ascii(",\"remote_comm_id\":");
    private static final byte[] K_LOCAL_QPN = JsonBytes.ascii(",\"local_qpn\":");
    private static final byte[] K_REMOTE_QPN = JsonBytes.ascii(",\"remote_qpn\":");
    private static final byte[] K_SERVICE_ID = JsonBytes.ascii(",\"service_id\":");
    private static final byte[] K_STARTING_PSN = JsonBytes.ascii(",\"starting_psn\":");
    private static final byte[] K_REMOTE_CM_RESPONSE_TIMEOUT = JsonBytes.ascii(",\"remote_cm_response_timeout\":");
    private static final byte[] K_LOCAL_CM_RESPONSE_TIMEOUT = JsonBytes.ascii(",\"local_cm_response_timeout\":");
    private static final byte[] K_MAX_CM_RETRIES = JsonBytes.ascii(",\"max_cm_retries\":");
    private static final byte[] K_RDMA_CM_PORT_SPACE = JsonBytes.ascii(",\"rdma_cm_port_space\":");
    private static final byte[] K_RDMA_CM_DST_PORT = JsonBytes.ascii(",\"rdma_cm_dst_port\":");
    private static final byte[] K_RDMA_CM_IP_VERSION = JsonBytes.ascii(",\"rdma_cm_ip_version\":");
    private static final byte[] K_RDMA_CM_SRC_PORT = JsonBytes.ascii(",\"rdma_cm_src_port\":");
    private static final byte[] K_RDMA_CM_SRC_IP = JsonBytes.ascii(",\"rdma_cm_src_ip\":");
    private static final byte[] K_RDMA_CM_DST_IP = JsonBytes.ascii(",\"rdma_cm_dst_ip\":");
    private static final byte[] K_REJECT_REASON = JsonBytes.ascii(",\"reject_reason\":");
    private static final byte[] K_MESSAGE_REJECTED = JsonBytes.ascii(",\"message_rejected\":");
    private static final byte[] K_MESSAGE_MRAED = JsonBytes.ascii(",\"message_mraed\":");
    private static final byte[] K_SERVICE_TIMEOUT = JsonBytes.ascii(",\"service_timeout\":");
    private static final byte[] K_REQUEST_ID = JsonBytes.ascii(",\"request_id\":");
    private static final byte[] K_STATUS = JsonBytes.ascii(",\"status\":");
    private static final byte[] K_QPN = JsonBytes.ascii(",\"qpn\":");
    private static final byte[] K_AP_STATUS = JsonBytes.ascii(",\"ap_status\":");
    private static final String HEX_DIGITS = "0123456789abcdef";
    private static final byte[] K_SRC_MAC = JsonBytes.ascii(",\"src_mac\":\"");
    private static final byte[] K_PFC = JsonBytes.ascii("\",\"msg\":\"PFC\",\"class_enable\":");
    private static final byte[] K_QUANTA = JsonBytes.ascii(",\"quanta\":[");

    /**
     * Appends this PFC frame ({@link DecodeResult#PFC}) as one JSON object (no newline): frame,
     * time, source MAC, {@code "msg":"PFC"}, the priority-enable vector and the 8 quanta as on the
     * wire (those of priorities not enabled included). Allocation-free once {@code out} has grown.
     */
    public void appendPfcJson(final JsonBytes out) {
        appendMacHead(out);
        out.raw(K_PFC).decimal(pfcEnable).raw(K_QUANTA);
        for (int p = 0; p < 8; p++) {
            if (p > 0) {
                out.raw(',');
            }
            out.decimal(pfcQuanta[p]);
        }
        out.raw(']').raw('}');
    }

    /**
     * Appends this LLDP frame ({@link DecodeResult#LLDP}) as one JSON object (no newline): frame,
     * time, source MAC, {@code "msg":"LLDP"}, the IDs and their subtypes, the TTL, the optional TLVs
     * present and the management addresses. Allocation-free once {@code out} has grown.
     */
    public void appendLldpJson(final JsonBytes out) {
        appendMacHead(out);
        lldp.appendJson(out);
        out.raw('}');
    }

    private void appendMacHead(final JsonBytes out) {
        out.raw(K_FRAME).decimal(frame);
        out.raw(K_TIME).seconds(timeNanos, timeDigits);
        out.raw(K_SRC_MAC);
        for (int i = 5; i >= 0; i--) {
            final int b = (int) (srcMac >>> 8 * i) & 0xff;
            out.raw(HEX_DIGITS.charAt(b >>> 4)).raw(HEX_DIGITS.charAt(b & 0xf));
            if (i > 0) {
                out.raw(':');
            }
        }
    }

    /**
     * Appends this CM MAD as one JSON object (no newline) with the {@code decode} field names of
     * docs/cli.md, plus extra fields the type carries. Allocation-free once {@code out} has grown.
     */
    public void appendJson(final JsonBytes out) {
        final CmMessageType t = requireNonNull(type, "not a CM MAD");
        out.raw(K_FRAME).decimal(frame);
        out.raw(K_TIME).seconds(timeNanos, timeDigits);
        out.raw(K_SRC_IP).ip(srcIp, ipVersion);
        out.raw(K_DST_IP).ip(dstIp, ipVersion);
        if (!roceV1) {
            out.raw(K_UDP_SRC_PORT).decimal(udpSrcPort);
        }
        out.raw(K_MSG).raw(TYPE_NAMES[t.ordinal()]);
        out.raw(K_METHOD).decimal(method);
        out.raw(K_TRANSACTION_ID).hexString(transactionId, 16);
        if (hasLocalCommId()) {
            out.raw(K_LOCAL_COMM_ID).hexString(localCommId & 0xffffffffL, 8);
        }
        if (hasRemoteCommId()) {
            out.raw(K_REMOTE_COMM_ID).hexString(remoteCommId & 0xffffffffL, 8);
        }
        if (hasLocalQpn()) {
            out.raw(K_LOCAL_QPN).decimal(localQpn);
        }
        if (hasRemoteQpn()) {
            out.raw(K_REMOTE_QPN).decimal(remoteQpn);
        }
        if (hasServiceId()) {
            out.raw(K_SERVICE_ID).hexString(serviceId, 16);
        }
        switch (t) {
            case REQ -> {
                out.raw(K_STARTING_PSN).decimal(startingPsn);
                out.raw(K_REMOTE_CM_RESPONSE_TIMEOUT).decimal(remoteCmResponseTimeout);
                out.raw(K_LOCAL_CM_RESPONSE_TIMEOUT).decimal(localCmResponseTimeout);
                out.raw(K_MAX_CM_RETRIES).decimal(maxCmRetries);
                if (isIpCmService()) {
                    out.raw(K_RDMA_CM_PORT_SPACE).decimal(ipCmPortSpace());
                    out.raw(K_RDMA_CM_DST_PORT).decimal(ipCmDstPort());
                }
                if (hasIpCm) {
                    out.raw(K_RDMA_CM_IP_VERSION).decimal(ipCmVersion);
                    out.raw(K_RDMA_CM_SRC_PORT).decimal(ipCmSrcPort);
                    if (ipCmVersion == 4 || ipCmVersion == 6) {
                        out.raw(K_RDMA_CM_SRC_IP).ip(ipCmSrcIp, ipCmVersion == 4 ? 12 : 0, ipCmVersion);
                        out.raw(K_RDMA_CM_DST_IP).ip(ipCmDstIp, ipCmVersion == 4 ? 12 : 0, ipCmVersion);
                    }
                }
            }
            case REP -> out.raw(K_STARTING_PSN).decimal(startingPsn);
            case REJ -> {
                out.raw(K_REJECT_REASON).decimal(rejectReason);
                out.raw(K_MESSAGE_REJECTED).decimal(messageRejected);
            }
            case MRA -> {
                out.raw(K_MESSAGE_MRAED).decimal(messageMraed);
                out.raw(K_SERVICE_TIMEOUT).decimal(serviceTimeout);
            }
            case SIDR_REQ -> out.raw(K_REQUEST_ID).hexString(requestId & 0xffffffffL, 8);
            case SIDR_REP -> {
                out.raw(K_REQUEST_ID).hexString(requestId & 0xffffffffL, 8);
                out.raw(K_STATUS).decimal(sidrStatus);
                out.raw(K_QPN).decimal(sidrQpn);
            }
            case APR -> out.raw(K_AP_STATUS).decimal(apStatus);
            default -> {
                // RTU, DREQ, DREP, LAP, CLASS_PORT_INFO: nothing beyond the common fields
            }
        }
        out.raw('}');
    }

    /** The JSON object of {@link #appendJson(JsonBytes)}, or a short description of a data packet. */
    @Override
    public String toString() {
        final JsonBytes j = new JsonBytes(512);
        if (type != null) {
            appendJson(j);
        } else {
            j.raw("{\"frame\":").decimal(frame).raw(",\"src_ip\":").ip(srcIp, ipVersion)
                .raw(",\"dst_ip\":").ip(dstIp, ipVersion).raw(",\"bth_opcode\":").decimal(bthOpcode)
                .raw(",\"dest_qp\":").decimal(bthDestQp).raw(",\"psn\":").decimal(bthPsn).raw('}');
        }
        return j.toString();
    }
}
