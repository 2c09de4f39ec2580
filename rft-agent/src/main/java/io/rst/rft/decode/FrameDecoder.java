/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.decode;

/**
 * Decodes one captured frame in place into a {@link CmMessage}: link layer (Ethernet with any
 * number of 802.1Q/802.1ad tags up to 4, Linux SLL/SLL2, raw IP), IPv4 or IPv6, UDP to the
 * RoCEv2 port, BTH, DETH and the CM MAD; RoCEv1 (ethertype 0x8915, GRH + BTH) too. Each layer
 * checks only itself and names the next; a frame that cannot be decoded yields the reason as a
 * {@link DecodeResult}, never an exception. No allocation, no copy beyond the fixed address
 * arrays of the output view. The field diagrams are in the package documentation.
 *
 * <p>One decoder per thread (it has no state but its configuration, so sharing is harmless, but
 * the {@link CmMessage} it fills is not thread-safe).
 */
public final class FrameDecoder {
    /** IANA port of RoCEv2. */
    public static final int ROCEV2_PORT = 4791;

    public static final int LINKTYPE_ETHERNET = 1;
    public static final int LINKTYPE_RAW = 101;
    public static final int LINKTYPE_LINUX_SLL = 113;
    public static final int LINKTYPE_LINUX_SLL2 = 276;
    public static final int LINKTYPE_IPV4 = 228;
    public static final int LINKTYPE_IPV6 = 229;
    /** DLT_RAW as some systems number it in files (12 on most BSDs, 14 on OpenBSD). */
    private static final int LINKTYPE_RAW_BSD = 12;
    private static final int LINKTYPE_RAW_OPENBSD = 14;

    private static final int ETHERTYPE_IPV4 = 0x0800;
    private static final int ETHERTYPE_IPV6 = 0x86dd;
    private static final int ETHERTYPE_ROCEV1 = 0x8915;
    private static final int MAX_VLAN_TAGS = 4;

    private static final int BTH_LEN = 12;
    private static final int DETH_LEN = 8;
    private static final int MAD_LEN = 256;
    private static final int MAD_HEADER_LEN = 24;
    private static final int OPCODE_UD_SEND_ONLY = 0x64;
    private static final int MGMT_CLASS_CM = 0x07;
    /** Where a REQ's primary local ACK timeout (5 high bits) is in its MAD data. */
    private static final int REQ_PRIMARY_LOCAL_ACK_TIMEOUT = 95;
    private static final int OPCODE_RC_READ_REQUEST = 0x0c;
    private static final int RETH_LEN = 16;
    /** Where the IP CM private data starts in a REQ's MAD data (after the alternate path). */
    private static final int REQ_PRIVATE_DATA = 140;

    private static final boolean[] KNOWN_OPCODE = new boolean[256];

    static {
        // RC (incl. SEND with invalidate, FLUSH, ATOMIC WRITE), UC, RD, UD, CNP, XRC (IBA 9.2 + annexes)
        mark(0x00, 0x17);
        mark(0x1c, 0x1d);
        mark(0x20, 0x2b);
        mark(0x40, 0x54);
        mark(0x64, 0x65);
        mark(0x81, 0x81);
        mark(0xa0, 0xb7);
        mark(0xbc, 0xbd);
    }

    private static void mark(final int from, final int to) {
        for (int i = from; i <= to; i++) {
            KNOWN_OPCODE[i] = true;
        }
    }

    private final int udpPort;

    /** A decoder for RoCEv2 on UDP port 4791. */
    public FrameDecoder() {
        this(ROCEV2_PORT);
    }

    /** A decoder for RoCEv2 on another UDP destination port. */
    public FrameDecoder(final int udpPort) {
        if (udpPort < 0 || udpPort > 0xffff) {
            throw new IllegalArgumentException("UDP port out of range: " + udpPort);
        }
        this.udpPort = udpPort;
    }

    public int udpPort() {
        return udpPort;
    }

    /** True for the linktypes {@link #decode} reads. */
    public static boolean supportsLinkType(final int linkType) {
        return switch (linkType) {
            case LINKTYPE_ETHERNET, LINKTYPE_RAW, LINKTYPE_LINUX_SLL, LINKTYPE_LINUX_SLL2, LINKTYPE_IPV4,
                 LINKTYPE_IPV6, LINKTYPE_RAW_BSD, LINKTYPE_RAW_OPENBSD -> true;
            default -> false;
        };
    }

    /** Decodes an Ethernet frame {@code buf[off, off + len)}. */
    public DecodeResult decodeEthernet(final byte[] buf, final int off, final int len, final CmMessage out) {
        return decode(LINKTYPE_ETHERNET, buf, off, len, out);
    }

    /**
     * Decodes the captured bytes {@code buf[off, off + len)} of a frame of the given pcap
     * linktype into {@code out} (whose capture fields the caller has set). For
     * {@link DecodeResult#CM_MAD} every field of the message type is set; for
     * {@link DecodeResult#ROCE_DATA} the addresses, UDP port and BTH fields are.
     */
    public DecodeResult decode(final int linkType, final byte[] buf, final int off, final int len,
            final CmMessage out) {
        if (off < 0 || len < 0 || off > buf.length - len) {
            return DecodeResult.TRUNCATED;
        }
        final int end = off + len;
        out.type = null;
        switch (linkType) {
            case LINKTYPE_ETHERNET:
                if (len < 14) {
                    return DecodeResult.TRUNCATED;
                }
                return etherType(buf, off + 14, end, u16(buf, off + 12), out);
            case LINKTYPE_LINUX_SLL:
                if (len < 16) {
                    return DecodeResult.TRUNCATED;
                }
                return etherType(buf, off + 16, end, u16(buf, off + 14), out);
            case LINKTYPE_LINUX_SLL2:
                if (len < 20) {
                    return DecodeResult.TRUNCATED;
                }
                return etherType(buf, off + 20, end, u16(buf, off), out);
            case LINKTYPE_RAW, LINKTYPE_RAW_BSD, LINKTYPE_RAW_OPENBSD, LINKTYPE_IPV4, LINKTYPE_IPV6:
                if (len < 1) {
                    return DecodeResult.TRUNCATED;
                }
                return switch (buf[off] >>> 4 & 0xf) {
                    case 4 -> ipv4(buf, off, end, out);
                    case 6 -> ipv6(buf, off, end, out);
                    default -> DecodeResult.BAD_IP_HEADER;
                };
            default:
                return DecodeResult.UNSUPPORTED_LINKTYPE;
        }
    }

    private DecodeResult etherType(final byte[] b, final int start, final int end, final int firstType,
            final CmMessage out) {
        int p = start;
        int type = firstType;
        // 802.1Q (0x8100), 802.1ad (0x88a8) and the old QinQ 0x9100: 2 bytes TCI, 2 bytes next type
        for (int tags = 0; type == 0x8100 || type == 0x88a8 || type == 0x9100; tags++) {
            if (tags == MAX_VLAN_TAGS) {
                return DecodeResult.NOT_IP;
            }
            if (p + 4 > end) {
                return DecodeResult.TRUNCATED;
            }
            type = u16(b, p + 2);
            p += 4;
        }
        return switch (type) {
            case ETHERTYPE_IPV4 -> ipv4(b, p, end, out);
            case ETHERTYPE_IPV6 -> ipv6(b, p, end, out);
            case ETHERTYPE_ROCEV1 -> roceV1(b, p, end, out);
            default -> DecodeResult.NOT_IP;
        };
    }

    private DecodeResult ipv4(final byte[] b, final int p, final int end, final CmMessage out) {
        if (p + 20 > end) {
            return DecodeResult.TRUNCATED;
        }
        final int ihl = (b[p] & 0x0f) * 4;
        final int total = u16(b, p + 2);
        if ((b[p] & 0xf0) != 0x40 || ihl < 20 || total < ihl) {
            return DecodeResult.BAD_IP_HEADER;
        }
        if ((u16(b, p + 6) & 0x3fff) != 0) {
            return DecodeResult.IP_FRAGMENT;
        }
        if (b[p + 9] != 17) {
            return DecodeResult.NOT_UDP;
        }
        final int u = p + ihl;
        final DecodeResult r = udp(b, u, end, p + total, out);
        if (r == DecodeResult.CM_MAD || r == DecodeResult.ROCE_DATA) {
            out.ipVersion = 4;
            out.dscp = (b[p + 1] & 0xff) >>> 2;
            System.arraycopy(b, p + 12, out.srcIp, 0, 4);
            System.arraycopy(b, p + 16, out.dstIp, 0, 4);
        }
        return r;
    }

    private DecodeResult ipv6(final byte[] b, final int p, final int end, final CmMessage out) {
        if (p + 40 > end) {
            return DecodeResult.TRUNCATED;
        }
        if ((b[p] & 0xf0) != 0x60) {
            return DecodeResult.BAD_IP_HEADER;
        }
        final int payloadEnd = p + 40 + u16(b, p + 4);
        int nh = b[p + 6] & 0xff;
        int q = p + 40;
        // hop-by-hop (0), routing (43), destination options (60): skip; fragment (44): not ours
        for (int hops = 0; nh == 0 || nh == 43 || nh == 60; hops++) {
            if (q + 8 > end || hops == 8) {
                return DecodeResult.TRUNCATED;
            }
            nh = b[q] & 0xff;
            q += ((b[q + 1] & 0xff) + 1) * 8;
        }
        if (nh == 44) {
            return DecodeResult.IP_FRAGMENT;
        }
        if (nh != 17) {
            return DecodeResult.NOT_UDP;
        }
        if (q > payloadEnd) {
            return DecodeResult.BAD_IP_HEADER;
        }
        final DecodeResult r = udp(b, q, end, payloadEnd, out);
        if (r == DecodeResult.CM_MAD || r == DecodeResult.ROCE_DATA) {
            out.ipVersion = 6;
            out.dscp = (u16(b, p) >>> 6) & 0x3f;
            System.arraycopy(b, p + 8, out.srcIp, 0, 16);
            System.arraycopy(b, p + 24, out.dstIp, 0, 16);
        }
        return r;
    }

    private DecodeResult udp(final byte[] b, final int u, final int end, final int ipEnd, final CmMessage out) {
        if (u + 8 > end) {
            return DecodeResult.TRUNCATED;
        }
        if (u16(b, u + 2) != udpPort) {
            return DecodeResult.NOT_ROCE_PORT;
        }
        final int udpLen = u16(b, u + 4);
        if (udpLen < 8 + BTH_LEN || u + udpLen > ipEnd) {
            return DecodeResult.BAD_UDP_LENGTH;
        }
        out.udpSrcPort = u16(b, u);
        out.roceV1 = false;
        return bth(b, u + 8, end, u + udpLen, out);
    }

    private DecodeResult roceV1(final byte[] b, final int p, final int end, final CmMessage out) {
        // GRH: the IPv6 header layout, next header 0x1B (IBA); the GIDs stand for the addresses
        if (p + 40 > end) {
            return DecodeResult.TRUNCATED;
        }
        final int payloadEnd = p + 40 + u16(b, p + 4);
        if ((b[p] & 0xf0) != 0x60 || payloadEnd < p + 40 + BTH_LEN) {
            return DecodeResult.BAD_IP_HEADER;
        }
        final DecodeResult r = bth(b, p + 40, end, payloadEnd, out);
        if (r == DecodeResult.CM_MAD || r == DecodeResult.ROCE_DATA) {
            out.ipVersion = 6;
            out.roceV1 = true;
            out.udpSrcPort = -1;
            out.dscp = (u16(b, p) >>> 6) & 0x3f;
            System.arraycopy(b, p + 8, out.srcIp, 0, 16);
            System.arraycopy(b, p + 24, out.dstIp, 0, 16);
        }
        return r;
    }

    private static DecodeResult bth(final byte[] b, final int q, final int end, final int payloadEnd,
            final CmMessage out) {
        if (q + BTH_LEN > end) {
            return DecodeResult.TRUNCATED;
        }
        final int opcode = b[q] & 0xff;
        if (!KNOWN_OPCODE[opcode]) {
            return DecodeResult.UNKNOWN_OPCODE;
        }
        out.bthOpcode = opcode;
        out.pkey = u16(b, q + 2);
        out.bthDestQp = u24(b, q + 5);
        out.bthPsn = u24(b, q + 9);
        out.dethSrcQp = 0;
        out.rethDmaLength = -1;
        if (opcode != OPCODE_UD_SEND_ONLY || out.bthDestQp != 1) {
            if (opcode == OPCODE_RC_READ_REQUEST && q + BTH_LEN + RETH_LEN <= end) {
                // RETH: virtual address(8) R_Key(4) DMA length(4)
                out.rethDmaLength = i32(b, q + BTH_LEN + 12) & 0xffffffffL;
            }
            return DecodeResult.ROCE_DATA;
        }
        // QP1 UD SEND: DETH, then a MAD of 256 bytes (then the 4-byte ICRC)
        final int m = q + BTH_LEN + DETH_LEN;
        if (m + MAD_LEN > payloadEnd) {
            return DecodeResult.BAD_MAD;
        }
        if (m + MAD_LEN > end) {
            return DecodeResult.TRUNCATED;
        }
        out.dethSrcQp = u24(b, q + BTH_LEN + 5);
        if (b[m] != 1) {
            return DecodeResult.BAD_MAD;
        }
        if (b[m + 1] != MGMT_CLASS_CM) {
            return DecodeResult.NOT_CM_CLASS;
        }
        final CmMessageType type = CmMessageType.ofAttribute(u16(b, m + 16));
        if (type == null) {
            return DecodeResult.UNKNOWN_CM_ATTRIBUTE;
        }
        out.clearCm();
        out.type = type;
        out.madClassVersion = b[m + 2] & 0xff;
        out.method = b[m + 3] & 0xff;
        out.status = u16(b, m + 4);
        out.transactionId = u64(b, m + 8);
        out.attributeId = type.attributeId();
        cm(b, m + MAD_HEADER_LEN, type, out);
        return DecodeResult.CM_MAD;
    }

    private static void cm(final byte[] b, final int d, final CmMessageType type, final CmMessage out) {
        switch (type) {
            case REQ -> {
                out.localCommId = i32(b, d);
                out.serviceId = u64(b, d + 8);
                out.localQpn = u24(b, d + 32);
                out.remoteCmResponseTimeout = (b[d + 43] & 0xff) >>> 3;
                out.startingPsn = u24(b, d + 44);
                out.localCmResponseTimeout = (b[d + 47] & 0xff) >>> 3;
                out.primaryLocalAckTimeout = (b[d + REQ_PRIMARY_LOCAL_ACK_TIMEOUT] & 0xff) >>> 3;
                out.maxCmRetries = (b[d + 51] & 0xff) >>> 4;
                if (out.serviceId >>> 24 == 1L) {
                    final int pd = d + REQ_PRIVATE_DATA;
                    out.hasIpCm = true;
                    out.ipCmVersion = (b[pd + 1] & 0xff) >>> 4;
                    out.ipCmSrcPort = u16(b, pd + 2);
                    System.arraycopy(b, pd + 4, out.ipCmSrcIp, 0, 16);
                    System.arraycopy(b, pd + 20, out.ipCmDstIp, 0, 16);
                }
            }
            case REP -> {
                out.localCommId = i32(b, d);
                out.remoteCommId = i32(b, d + 4);
                out.localQpn = u24(b, d + 12);
                out.startingPsn = u24(b, d + 20);
            }
            case RTU, DREP -> {
                out.localCommId = i32(b, d);
                out.remoteCommId = i32(b, d + 4);
            }
            case DREQ -> {
                out.localCommId = i32(b, d);
                out.remoteCommId = i32(b, d + 4);
                out.remoteQpn = u24(b, d + 8);
            }
            case REJ -> {
                out.localCommId = i32(b, d);
                out.remoteCommId = i32(b, d + 4);
                out.messageRejected = (b[d + 8] & 0xff) >>> 6;
                out.rejectReason = u16(b, d + 10);
            }
            case MRA -> {
                out.localCommId = i32(b, d);
                out.remoteCommId = i32(b, d + 4);
                out.messageMraed = (b[d + 8] & 0xff) >>> 6;
                out.serviceTimeout = (b[d + 9] & 0xff) >>> 3;
            }
            case LAP -> {
                out.localCommId = i32(b, d);
                out.remoteCommId = i32(b, d + 4);
                out.remoteQpn = u24(b, d + 12);
                out.remoteCmResponseTimeout = (b[d + 15] & 0xff) >>> 3;
            }
            case APR -> {
                out.localCommId = i32(b, d);
                out.remoteCommId = i32(b, d + 4);
                out.apStatus = b[d + 9] & 0xff;
            }
            case SIDR_REQ -> {
                out.requestId = i32(b, d);
                out.serviceId = u64(b, d + 8);
            }
            case SIDR_REP -> {
                out.requestId = i32(b, d);
                out.sidrStatus = b[d + 4] & 0xff;
                out.sidrQpn = u24(b, d + 8);
                out.serviceId = u64(b, d + 12);
            }
            case CLASS_PORT_INFO -> {
                // the MAD header is all we report
            }
        }
    }

    static int u16(final byte[] b, final int i) {
        return (b[i] & 0xff) << 8 | b[i + 1] & 0xff;
    }

    static int u24(final byte[] b, final int i) {
        return (b[i] & 0xff) << 16 | (b[i + 1] & 0xff) << 8 | b[i + 2] & 0xff;
    }

    static int i32(final byte[] b, final int i) {
        return (b[i] & 0xff) << 24 | (b[i + 1] & 0xff) << 16 | (b[i + 2] & 0xff) << 8 | b[i + 3] & 0xff;
    }

    static long u64(final byte[] b, final int i) {
        return (long) i32(b, i) << 32 | i32(b, i + 4) & 0xffffffffL;
    }
}
