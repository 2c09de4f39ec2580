/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.pcap;

import static io.rst.rft.pcap.RoceHeaders.put16;
import static io.rst.rft.pcap.RoceHeaders.put32;

import io.rst.rft.decode.CmMessageType;

/**
 * Builds RoCEv2 frames carrying one CM MAD (Ethernet, optional 802.1Q / QinQ tags, IPv4 or IPv6,
 * UDP, BTH, DETH, MAD, ICRC placeholder), with every field settable, for the traffic generator and
 * for tests. Values are written as given (no validation): tests use odd values on purpose.
 * Layouts: see the package documentation of {@code io.rst.rft.decode}.
 */
public final class CmFrameBuilder {
    private byte[] srcIp = {10, 0, 0, 1};
    private byte[] dstIp = {10, 0, 0, 2};
    private int[] vlans = {};
    private int udpSrcPort = 55410;
    private int udpDstPort = 4791;
    private int dscp;
    private int psn;
    private CmMessageType type = CmMessageType.REQ;
    private int method = 0x03;
    private long transactionId;
    private int localCid;
    private int remoteCid;
    private int localQpn;
    private int remoteQpn;
    private long serviceId;
    private int startingPsn;
    private int rejectReason;
    private int messageRejected;
    private int messageMraed;
    private int serviceTimeout;
    private int remoteCmTimeout = 20;
    private int localCmTimeout = 20;
    private int maxCmRetries = 15;
    private int localAckTimeout;
    private boolean ipCm;
    private int ipCmVersion = 4;
    private int ipCmSrcPort;
    private byte[] ipCmSrc = new byte[16];
    private byte[] ipCmDst = new byte[16];
    private int requestId;
    private int sidrStatus;
    private int sidrQpn;
    private int apStatus;

    /** Outer addresses: both 4 bytes (IPv4) or both 16 bytes (IPv6). */
    public CmFrameBuilder ips(final byte[] src, final byte[] dst) {
        if (src.length != dst.length || src.length != 4 && src.length != 16) {
            throw new IllegalArgumentException("addresses must both be 4 or 16 bytes");
        }
        srcIp = src.clone();
        dstIp = dst.clone();
        return this;
    }

    /** VLAN IDs, outermost first (0, 1 or 2 tags; the outer of two is 802.1ad). */
    public CmFrameBuilder vlans(final int... ids) {
        vlans = ids.clone();
        return this;
    }

    public CmFrameBuilder udpPorts(final int src, final int dst) {
        udpSrcPort = src;
        udpDstPort = dst;
        return this;
    }

    public CmFrameBuilder dscp(final int value) {
        dscp = value;
        return this;
    }

    public CmFrameBuilder bthPsn(final int value) {
        psn = value;
        return this;
    }

    public CmFrameBuilder type(final CmMessageType value) {
        type = value;
        return this;
    }

    public CmFrameBuilder method(final int value) {
        method = value;
        return this;
    }

    public CmFrameBuilder transactionId(final long value) {
        transactionId = value;
        return this;
    }

    /** Local and remote comm IDs (for SIDR the local one is the request ID). */
    public CmFrameBuilder commIds(final int local, final int remote) {
        localCid = local;
        remoteCid = remote;
        requestId = local;
        return this;
    }

    public CmFrameBuilder localQpn(final int value) {
        localQpn = value;
        sidrQpn = value;
        return this;
    }

    public CmFrameBuilder remoteQpn(final int value) {
        remoteQpn = value;
        return this;
    }

    public CmFrameBuilder serviceId(final long value) {
        serviceId = value;
        return this;
    }

    public CmFrameBuilder startingPsn(final int value) {
        startingPsn = value;
        return this;
    }

    /** REJ: reason and which message is rejected (0 REQ, 1 REP, 2 other). */
    public CmFrameBuilder reject(final int reason, final int message) {
        rejectReason = reason;
        messageRejected = message;
        return this;
    }

    /** MRA: which message (0 REQ, 1 REP, 2 LAP) and the service timeout exponent. */
    public CmFrameBuilder mra(final int message, final int timeout) {
        messageMraed = message;
        serviceTimeout = timeout;
        return this;
    }

    /** REQ: remote and local CM response timeout exponents and max CM retries. */
    public CmFrameBuilder timeouts(final int remote, final int local, final int retries) {
        remoteCmTimeout = remote;
        localCmTimeout = local;
        maxCmRetries = retries;
        return this;
    }

    /** REQ: the primary path's local ACK timeout exponent (5 bits; 0, the default, says nothing). */
    public CmFrameBuilder localAckTimeout(final int value) {
        localAckTimeout = value;
        return this;
    }

    /** REQ: IP CM private data (version 4 or 6; addresses of 4 or 16 bytes). */
    public CmFrameBuilder ipCm(final int version, final int srcPort, final byte[] src, final byte[] dst) {
        ipCm = true;
        ipCmVersion = version;
        ipCmSrcPort = srcPort;
        ipCmSrc = new byte[16];
        ipCmDst = new byte[16];
        System.arraycopy(src, 0, ipCmSrc, 16 - src.length, src.length);
        System.arraycopy(dst, 0, ipCmDst, 16 - dst.length, dst.length);
        return this;
    }

    public CmFrameBuilder noIpCm() {
        ipCm = false;
        return this;
    }

    public CmFrameBuilder sidrStatus(final int value) {
        sidrStatus = value;
        return this;
    }

    public CmFrameBuilder apStatus(final int value) {
        apStatus = value;
        return this;
    }

    /** The length {@link #build} will write. */
    public int length() {
        return 14 + 4 * vlans.length + (srcIp.length == 4 ? 20 : 40) + 8 + 12 + 8 + 256 + 4;
    }

    /** Writes the frame at {@code buf[0..]} and returns its length. */
    public int build(final byte[] buf) {
        final int len = length();
        java.util.Arrays.fill(buf, 0, len, (byte) 0);
        final int udpLen = 8 + 12 + 8 + 256 + 4;
        int pos = RoceHeaders.write(buf, srcIp, dstIp, vlans, dscp << 2, udpSrcPort, udpDstPort, udpLen);
        // BTH: UD SEND only, P_Key ffff, dest QP 1, AckReq, PSN
        buf[pos] = 0x64;
        put16(buf, pos + 2, 0xffff);
        put32(buf, pos + 4, 1);
        put32(buf, pos + 8, 0x80000000 | psn & 0xffffff);
        pos += 12;
        put32(buf, pos, 0x80010000);
        put32(buf, pos + 4, 1);
        pos += 8;
        final int m = pos;
        buf[m] = 1;
        buf[m + 1] = 0x07;
        buf[m + 2] = 2;
        buf[m + 3] = (byte) method;
        put32(buf, m + 8, (int) (transactionId >>> 32));
        put32(buf, m + 12, (int) transactionId);
        put16(buf, m + 16, type.attributeId());
        mad(buf, m + 24);
        return len;
    }

    private void mad(final byte[] buf, final int off) {
        switch (type) {
            case REQ -> {
                put32(buf, off, localCid);
                put32(buf, off + 8, (int) (serviceId >>> 32));
                put32(buf, off + 12, (int) serviceId);
                put32(buf, off + 16, 0x02000000);
                put32(buf, off + 32, localQpn << 8 | 1);
                put32(buf, off + 36, 1);
                put32(buf, off + 40, remoteCmTimeout << 3 & 0xf8);
                put32(buf, off + 44, startingPsn << 8 | (localCmTimeout & 0x1f) << 3 | 7);
                put16(buf, off + 48, 0xffff);
                buf[off + 50] = 0x37;
                buf[off + 51] = (byte) (maxCmRetries << 4);
                put16(buf, off + 52, 0xffff);
                put16(buf, off + 54, 0xffff);
                System.arraycopy(srcIp, 0, buf, off + 56 + 16 - srcIp.length, srcIp.length);
                System.arraycopy(dstIp, 0, buf, off + 72 + 16 - dstIp.length, dstIp.length);
                if (srcIp.length == 4) {
                    put16(buf, off + 56 + 10, 0xffff);
                    put16(buf, off + 72 + 10, 0xffff);
                }
                buf[off + 93] = 64;
                buf[off + 95] = (byte) ((localAckTimeout & 0x1f) << 3);
                if (ipCm) {
                    final int pd = off + 140;
                    buf[pd + 1] = (byte) (ipCmVersion << 4);
                    put16(buf, pd + 2, ipCmSrcPort);
                    System.arraycopy(ipCmSrc, 0, buf, pd + 4, 16);
                    System.arraycopy(ipCmDst, 0, buf, pd + 20, 16);
                }
            }
            case REP -> {
                put32(buf, off, localCid);
                put32(buf, off + 4, remoteCid);
                put32(buf, off + 12, localQpn << 8);
                put32(buf, off + 20, startingPsn << 8);
                buf[off + 24] = 1;
                buf[off + 25] = 1;
            }
            case RTU, DREP -> {
                put32(buf, off, localCid);
                put32(buf, off + 4, remoteCid);
            }
            case DREQ -> {
                put32(buf, off, localCid);
                put32(buf, off + 4, remoteCid);
                put32(buf, off + 8, remoteQpn << 8);
            }
            case REJ -> {
                put32(buf, off, localCid);
                put32(buf, off + 4, remoteCid);
                buf[off + 8] = (byte) (messageRejected << 6);
                put16(buf, off + 10, rejectReason);
            }
            case MRA -> {
                put32(buf, off, localCid);
                put32(buf, off + 4, remoteCid);
                buf[off + 8] = (byte) (messageMraed << 6);
                buf[off + 9] = (byte) (serviceTimeout << 3);
            }
            case LAP -> {
                put32(buf, off, localCid);
                put32(buf, off + 4, remoteCid);
                put32(buf, off + 12, remoteQpn << 8 | (remoteCmTimeout & 0x1f) << 3);
            }
            case APR -> {
                put32(buf, off, localCid);
                put32(buf, off + 4, remoteCid);
                buf[off + 9] = (byte) apStatus;
            }
            case SIDR_REQ -> {
                put32(buf, off, requestId);
                put16(buf, off + 4, 0xffff);
                put32(buf, off + 8, (int) (serviceId >>> 32));
                put32(buf, off + 12, (int) serviceId);
            }
            case SIDR_REP -> {
                put32(buf, off, requestId);
                buf[off + 4] = (byte) sidrStatus;
                put32(buf, off + 8, sidrQpn << 8);
                put32(buf, off + 12, (int) (serviceId >>> 32));
                put32(buf, off + 16, (int) serviceId);
                put32(buf, off + 20, 0x80010000);
            }
            case CLASS_PORT_INFO -> {
                buf[off] = 1;
                buf[off + 1] = 2;
            }
            default -> {
                // every type is listed above
            }
        }
    }


}
