/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.decode;

import edu.umd.cs.findbugs.annotations.SuppressFBWarnings;

/**
 * Decodes one captured frame in place into a {@link CmMessage}: link layer (Ethernet with any
 * number of 802.1Q/802.1ad tags up to 4, Linux SLL/SLL2, raw IP), IPv4 or IPv6, UDP to the
 * RoCEv2 port, BTH, DETH and the CM MAD; RoCEv1 (ethertype 0x8915, GRH + BTH) too. Each layer
 * checks only itself and names the next; a frame that cannot be decoded yields the reason as a
 * {@link DecodeResult}, never an exception. PFC frames (MAC control, IEEE 802.1Qbb) are decoded too
 * ({@link DecodeResult#PFC}), and so are LLDPDUs (IEEE 802.1AB, {@link DecodeResult#LLDP}). No
 * allocation, no copy beyond the fixed arrays of the output view. The field diagrams are in the package documentation.
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
    /** IEEE 802.3 MAC control; opcode 0x0101 is PFC (IEEE 802.1Qbb). */
    private static final int ETHERTYPE_MAC_CONTROL = 0x8808;
    private static final int MAC_CONTROL_PFC = 0x0101;
    /** A PFC frame after its ethertype: opcode(2) priority-enable vector(2) 8 x pause time(2). */
    private static final int PFC_LEN = 20;
    private static final int MAX_VLAN_TAGS = 4;
    /** IEEE 802.1AB Link Layer Discovery Protocol. */
    private static final int ETHERTYPE_LLDP = 0x88cc;
    private static final int LLDP_CHASSIS_ID = 1;
    private static final int LLDP_PORT_ID = 2;
    private static final int LLDP_TTL = 3;
    private static final int LLDP_PORT_DESCRIPTION = 4;
    private static final int LLDP_SYSTEM_NAME = 5;
    private static final int LLDP_SYSTEM_DESCRIPTION = 6;
    private static final int LLDP_SYSTEM_CAPABILITIES = 7;
    private static final int LLDP_MANAGEMENT_ADDRESS = 8;

    private static final int BTH_LEN = 12;
    private static final int DETH_LEN = 8;
    private static final int MAD_LEN = 256;
    private static final int MAD_HEADER_LEN = 24;
    private static final int OPCODE_UD_SEND_ONLY = 0x64;
    private static final int MGMT_CLASS_CM = 0x07;
    /** Where a REQ's primary local ACK timeout (5 high bits) is in its MAD data. */
    private static final int REQ_PRIMARY_LOCAL_ACK_TIMEOUT = 95;
    private static final int OPCODE_RC_READ_REQUEST = 0x0c;
    /** The BTH opcode of a RoCEv2 Congestion Notification Packet (IBA annex A17). */
    public static final int OPCODE_CNP = 0x81;
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

    /**
     * Decodes an Ethernet frame of {@code wireLen} bytes of which {@code buf[off, off + len)} were
     * captured (see {@link #decode(int, byte[], int, int, int, CmMessage)}).
     */
    public DecodeResult decodeEthernet(final byte[] buf, final int off, final int len, final int wireLen,
            final CmMessage out) {
        return decode(LINKTYPE_ETHERNET, buf, off, len, wireLen, out);
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
        return decode(linkType, buf, off, len, len, out);
    }

    /**
     * As {@link #decode(int, byte[], int, int, CmMessage)}, for a frame of {@code wireLen} bytes on
     * the wire of which the capture kept {@code len}: an LLDPDU the capture cut after its Chassis
     * ID, Port ID and TTL is decoded up to the cut ({@link LldpPdu#isCut()}) rather than skipped as
     * {@link DecodeResult#LLDP_TRUNCATED}. Pass {@link Integer#MAX_VALUE} when the frame may have
     * been cut but its length is not known.
     */
    @SuppressFBWarnings(value = "NP_STORE_INTO_NONNULL_FIELD",
        justification = "CmMessage.type is @Nullable (no CM MAD): SpotBugs reads no TYPE_USE @Nullable on fields")
    public DecodeResult decode(final int linkType, final byte[] buf, final int off, final int len,
            final int wireLen, final CmMessage out) {
        if (off < 0 || len < 0 || off > buf.length - len) {
            return DecodeResult.TRUNCATED;
        }
        final int end = off + len;
        final boolean cut = wireLen > len;
        out.type = null;
        switch (linkType) {
            case LINKTYPE_ETHERNET:
                if (len < 14) {
                    return DecodeResult.TRUNCATED;
                }
                return etherType(buf, off + 14, end, u16(buf, off + 12), off + 6, cut, out);
            case LINKTYPE_LINUX_SLL:
                if (len < 16) {
                    return DecodeResult.TRUNCATED;
                }
                // SLL: packet type(2) ARPHRD(2) address length(2) address(8) protocol(2)
                return etherType(buf, off + 16, end, u16(buf, off + 14), u16(buf, off + 4) == 6 ? off + 6 : -1, cut,
                    out);
            case LINKTYPE_LINUX_SLL2:
                if (len < 20) {
                    return DecodeResult.TRUNCATED;
                }
                // SLL2: protocol(2) rsvd(2) ifindex(4) ARPHRD(2) packet type(1) address length(1) address(8)
                return etherType(buf, off + 20, end, u16(buf, off), (buf[off + 11] & 0xff) == 6 ? off + 12 : -1, cut,
                    out);
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

    /**
     * The frame after its link header: {@code firstType} the ethertype, {@code macAt} where the
     * source MAC address is (-1: the link header has none), {@code cut} whether the capture cut
     * the frame.
     */
    private DecodeResult etherType(final byte[] buf, final int start, final int end, final int firstType,
            final int macAt, final boolean cut, final CmMessage out) {
        int pos = start;
        int type = firstType;
        // 802.1Q (0x8100), 802.1ad (0x88a8) and the old QinQ 0x9100: 2 bytes TCI, 2 bytes next type
        for (int tags = 0; type == 0x8100 || type == 0x88a8 || type == 0x9100; tags++) {
            if (tags == MAX_VLAN_TAGS) {
                return DecodeResult.NOT_IP;
            }
            if (pos + 4 > end) {
                return DecodeResult.TRUNCATED;
            }
            type = u16(buf, pos + 2);
            pos += 4;
        }
        return switch (type) {
            case ETHERTYPE_IPV4 -> ipv4(buf, pos, end, out);
            case ETHERTYPE_IPV6 -> ipv6(buf, pos, end, out);
            case ETHERTYPE_ROCEV1 -> roceV1(buf, pos, end, out);
            case ETHERTYPE_MAC_CONTROL -> pfc(buf, pos, end, macAt, out);
            case ETHERTYPE_LLDP -> lldp(buf, pos, end, macAt, cut, out);
            default -> DecodeResult.NOT_IP;
        };
    }

    private static long mac(final byte[] buf, final int macAt) {
        return macAt < 0 ? 0L : (long) u16(buf, macAt) << 32 | i32(buf, macAt + 2) & 0xffffffffL;
    }

    /**
     * An LLDPDU: TLVs of a 7-bit type and a 9-bit length, the Chassis ID, Port ID and TTL first and
     * in that order, up to the End TLV (type 0) or the frame's end. The System Capabilities TLV
     * must be 4 bytes (2 of system, 2 of enabled capabilities). Optional TLVs of other types
     * (organisationally specific ...) are stepped over.
     */
    private static DecodeResult lldp(final byte[] buf, final int pos, final int end, final int macAt,
            final boolean cut, final CmMessage out) {
        final LldpPdu p = out.lldp;
        p.clear();
        out.srcMac = mac(buf, macAt);
        int seen = 0;
        int at = pos;
        while (at < end) {
            if (at + 2 > end) {
                return lldpCut(seen, cut, p);
            }
            final int type = (buf[at] & 0xff) >>> 1;
            final int len = (buf[at] & 1) << 8 | buf[at + 1] & 0xff;
            final int v = at + 2;
            if (type == 0) {
                break;
            }
            if (seen < LLDP_TTL && type != seen + 1) {
                return DecodeResult.LLDP_MISSING_TLV;
            }
            if (v + len > end) {
                return lldpCut(seen, cut, p);
            }
            // LLDP: this TLV is good
            final DecodeResult bad = switch (type) {
                case LLDP_CHASSIS_ID, LLDP_PORT_ID -> seen >= LLDP_TTL ? DecodeResult.LLDP_BAD_TLV
                    : lldpId(buf, v, len, type == LLDP_CHASSIS_ID, p);
                case LLDP_TTL -> {
                    if (seen >= LLDP_TTL || len < 2) {
                        yield DecodeResult.LLDP_BAD_TLV;
                    }
                    p.ttl = u16(buf, v);
                    yield DecodeResult.LLDP;
                }
                case LLDP_PORT_DESCRIPTION -> {
                    if (len > LldpPdu.MAX_STRING) {
                        yield DecodeResult.LLDP_BAD_TLV;
                    }
                    if (p.portDescriptionLength < 0) {
                        System.arraycopy(buf, v, p.portDescription, 0, len);
                        p.portDescriptionLength = len;
                    }
                    yield DecodeResult.LLDP;
                }
                case LLDP_SYSTEM_NAME -> {
                    if (len > LldpPdu.MAX_STRING) {
                        yield DecodeResult.LLDP_BAD_TLV;
                    }
                    if (p.systemNameLength < 0) {
                        System.arraycopy(buf, v, p.systemName, 0, len);
                        p.systemNameLength = len;
                    }
                    yield DecodeResult.LLDP;
                }
                case LLDP_SYSTEM_DESCRIPTION -> {
                    if (len > LldpPdu.MAX_STRING) {
                        yield DecodeResult.LLDP_BAD_TLV;
                    }
                    if (p.systemDescriptionLength < 0) {
                        System.arraycopy(buf, v, p.systemDescription, 0, len);
                        p.systemDescriptionLength = len;
                    }
                    yield DecodeResult.LLDP;
                }
                case LLDP_SYSTEM_CAPABILITIES -> {
                    if (len != 4) {
                        yield DecodeResult.LLDP_BAD_TLV;
                    }
                    if (p.systemCapabilities < 0) {
                        p.systemCapabilities = u16(buf, v);
                        p.enabledCapabilities = u16(buf, v + 2);
                    }
                    yield DecodeResult.LLDP;
                }
                case LLDP_MANAGEMENT_ADDRESS -> lldpManagement(buf, v, len, p);
                default -> DecodeResult.LLDP;
            };
            if (bad != DecodeResult.LLDP) {
                return bad;
            }
            if (type <= LLDP_TTL) {
                seen = type;
            }
            at = v + len;
        }
        if (seen < LLDP_TTL) {
            return cut && at >= end ? DecodeResult.LLDP_TRUNCATED : DecodeResult.LLDP_MISSING_TLV;
        }
        return DecodeResult.LLDP;
    }

    /** The frame ends inside a TLV: the capture's cut after the mandatory TLVs, or a damaged LLDPDU. */
    private static DecodeResult lldpCut(final int seen, final boolean cut, final LldpPdu pdu) {
        if (cut && seen == LLDP_TTL) {
            pdu.cut = true;
            return DecodeResult.LLDP;
        }
        return DecodeResult.LLDP_TRUNCATED;
    }

    /** A Chassis ID or Port ID TLV's value: subtype, then 1 to 255 bytes as the subtype says. */
    private static DecodeResult lldpId(final byte[] buf, final int val, final int len, final boolean chassis,
            final LldpPdu pdu) {
        if (len < 2 || len > LldpPdu.MAX_STRING + 1) {
            return DecodeResult.LLDP_BAD_TLV;
        }
        final int subtype = buf[val] & 0xff;
        if (subtype < 1 || subtype > 7) {
            return DecodeResult.LLDP_UNKNOWN_SUBTYPE;
        }
        final int idLen = len - 1;
        final LldpPdu.IdKind kind = chassis ? LldpPdu.chassisKind(subtype) : LldpPdu.portKind(subtype);
        if (kind == LldpPdu.IdKind.MAC && idLen != 6 && idLen != 8
                || kind == LldpPdu.IdKind.NETWORK_ADDRESS && !addressFits(buf[val + 1] & 0xff, idLen - 1)) {
            return DecodeResult.LLDP_BAD_TLV;
        }
        if (chassis) {
            pdu.chassisIdSubtype = subtype;
            pdu.chassisIdLength = idLen;
            System.arraycopy(buf, val + 1, pdu.chassisId, 0, idLen);
        } else {
            pdu.portIdSubtype = subtype;
            pdu.portIdLength = idLen;
            System.arraycopy(buf, val + 1, pdu.portId, 0, idLen);
        }
        return DecodeResult.LLDP;
    }

    /** Whether an address of this many bytes fits IANA address family {@code family} (1 IPv4, 2 IPv6). */
    private static boolean addressFits(final int family, final int addressLen) {
        return switch (family) {
            case 1 -> addressLen == 4;
            case 2 -> addressLen == 16;
            default -> addressLen >= 1;
        };
    }

    /**
     * A Management Address TLV's value: address string length (1 + the address's), the address
     * subtype (IANA family), the address, the interface numbering subtype (1) and number (4), the
     * OID string length (1) and the OID. IPv4 and IPv6 addresses are kept, up to
     * {@link LldpPdu#MAX_MANAGEMENT}.
     */
    private static DecodeResult lldpManagement(final byte[] buf, final int val, final int len, final LldpPdu pdu) {
        if (len < 9) {
            return DecodeResult.LLDP_BAD_TLV;
        }
        final int strLen = buf[val] & 0xff;
        if (strLen < 2 || strLen > 32 || 1 + strLen + 6 > len) {
            return DecodeResult.LLDP_BAD_TLV;
        }
        final int oidLen = buf[val + 1 + strLen + 5] & 0xff;
        final int family = buf[val + 1] & 0xff;
        if (1 + strLen + 6 + oidLen != len || !addressFits(family, strLen - 1)) {
            return DecodeResult.LLDP_BAD_TLV;
        }
        if ((family == 1 || family == 2) && pdu.managementCount < LldpPdu.MAX_MANAGEMENT) {
            final int i = pdu.managementCount++;
            pdu.managementVersion[i] = family == 1 ? 4 : 6;
            System.arraycopy(buf, val + 2, pdu.managementAddress, 16 * i, strLen - 1);
        }
        return DecodeResult.LLDP;
    }

    /**
     * A MAC control frame: PFC (opcode 0x0101) is decoded, other opcodes (802.3x PAUSE ...) are
     * not ours. The priority-enable vector's high byte is reserved and ignored, as a receiver does.
     */
    private static DecodeResult pfc(final byte[] buf, final int pos, final int end, final int macAt,
            final CmMessage out) {
        if (pos + 2 > end) {
            return DecodeResult.TRUNCATED;
        }
        if (u16(buf, pos) != MAC_CONTROL_PFC) {
            return DecodeResult.NOT_IP;
        }
        if (pos + PFC_LEN > end) {
            return DecodeResult.BAD_PFC;
        }
        out.pfcEnable = buf[pos + 3] & 0xff;
        for (int p = 0; p < 8; p++) {
            out.pfcQuanta[p] = u16(buf, pos + 4 + 2 * p);
        }
        out.srcMac = mac(buf, macAt);
        return DecodeResult.PFC;
    }

    private DecodeResult ipv4(final byte[] buf, final int ipOff, final int end, final CmMessage out) {
        if (ipOff + 20 > end) {
            return DecodeResult.TRUNCATED;
        }
        final int ihl = (buf[ipOff] & 0x0f) * 4;
        final int total = u16(buf, ipOff + 2);
        if ((buf[ipOff] & 0xf0) != 0x40 || ihl < 20 || total < ihl) {
            return DecodeResult.BAD_IP_HEADER;
        }
        if ((u16(buf, ipOff + 6) & 0x3fff) != 0) {
            return DecodeResult.IP_FRAGMENT;
        }
        if (buf[ipOff + 9] != 17) {
            return DecodeResult.NOT_UDP;
        }
        final int u = ipOff + ihl;
        final DecodeResult r = udp(buf, u, end, ipOff + total, out);
        if (r == DecodeResult.CM_MAD || r == DecodeResult.ROCE_DATA) {
            out.ipVersion = 4;
            out.dscp = (buf[ipOff + 1] & 0xff) >>> 2;
            out.ecn = buf[ipOff + 1] & 3;
            System.arraycopy(buf, ipOff + 12, out.srcIp, 0, 4);
            System.arraycopy(buf, ipOff + 16, out.dstIp, 0, 4);
        }
        return r;
    }

    private DecodeResult ipv6(final byte[] buf, final int ipOff, final int end, final CmMessage out) {
        if (ipOff + 40 > end) {
            return DecodeResult.TRUNCATED;
        }
        if ((buf[ipOff] & 0xf0) != 0x60) {
            return DecodeResult.BAD_IP_HEADER;
        }
        final int payloadEnd = ipOff + 40 + u16(buf, ipOff + 4);
        int nh = buf[ipOff + 6] & 0xff;
        int hdrOff = ipOff + 40;
        // hop-by-hop (0), routing (43), destination options (60): skip; fragment (44): not ours
        for (int hops = 0; nh == 0 || nh == 43 || nh == 60; hops++) {
            if (hdrOff + 8 > end || hops == 8) {
                return DecodeResult.TRUNCATED;
            }
            nh = buf[hdrOff] & 0xff;
            hdrOff += ((buf[hdrOff + 1] & 0xff) + 1) * 8;
        }
        if (nh == 44) {
            return DecodeResult.IP_FRAGMENT;
        }
        if (nh != 17) {
            return DecodeResult.NOT_UDP;
        }
        if (hdrOff > payloadEnd) {
            return DecodeResult.BAD_IP_HEADER;
        }
        final DecodeResult r = udp(buf, hdrOff, end, payloadEnd, out);
        if (r == DecodeResult.CM_MAD || r == DecodeResult.ROCE_DATA) {
            out.ipVersion = 6;
            out.dscp = (u16(buf, ipOff) >>> 6) & 0x3f;
            out.ecn = u16(buf, ipOff) >>> 4 & 3;
            System.arraycopy(buf, ipOff + 8, out.srcIp, 0, 16);
            System.arraycopy(buf, ipOff + 24, out.dstIp, 0, 16);
        }
        return r;
    }

    private DecodeResult udp(final byte[] buf, final int udpOff, final int end, final int ipEnd, final CmMessage out) {
        if (udpOff + 8 > end) {
            return DecodeResult.TRUNCATED;
        }
        if (u16(buf, udpOff + 2) != udpPort) {
            return DecodeResult.NOT_ROCE_PORT;
        }
        final int udpLen = u16(buf, udpOff + 4);
        if (udpLen < 8 + BTH_LEN || udpOff + udpLen > ipEnd) {
            return DecodeResult.BAD_UDP_LENGTH;
        }
        out.udpSrcPort = u16(buf, udpOff);
        out.roceV1 = false;
        return bth(buf, udpOff + 8, end, udpOff + udpLen, out);
    }

    private DecodeResult roceV1(final byte[] buf, final int ipOff, final int end, final CmMessage out) {
        // GRH: the IPv6 header layout, next header 0x1B (IBA); the GIDs stand for the addresses
        if (ipOff + 40 > end) {
            return DecodeResult.TRUNCATED;
        }
        final int payloadEnd = ipOff + 40 + u16(buf, ipOff + 4);
        if ((buf[ipOff] & 0xf0) != 0x60 || payloadEnd < ipOff + 40 + BTH_LEN) {
            return DecodeResult.BAD_IP_HEADER;
        }
        final DecodeResult r = bth(buf, ipOff + 40, end, payloadEnd, out);
        if (r == DecodeResult.CM_MAD || r == DecodeResult.ROCE_DATA) {
            out.ipVersion = 6;
            out.roceV1 = true;
            out.udpSrcPort = -1;
            out.dscp = (u16(buf, ipOff) >>> 6) & 0x3f;
            out.ecn = u16(buf, ipOff) >>> 4 & 3;
            System.arraycopy(buf, ipOff + 8, out.srcIp, 0, 16);
            System.arraycopy(buf, ipOff + 24, out.dstIp, 0, 16);
        }
        return r;
    }

    private static DecodeResult bth(final byte[] buf, final int bthOff, final int end, final int payloadEnd,
            final CmMessage out) {
        if (bthOff + BTH_LEN > end) {
            return DecodeResult.TRUNCATED;
        }
        final int opcode = buf[bthOff] & 0xff;
        if (!KNOWN_OPCODE[opcode]) {
            return DecodeResult.UNKNOWN_OPCODE;
        }
        out.bthOpcode = opcode;
        out.pkey = u16(buf, bthOff + 2);
        out.bthDestQp = u24(buf, bthOff + 5);
        out.bthPsn = u24(buf, bthOff + 9);
        out.dethSrcQp = 0;
        out.rethDmaLength = -1;
        if (opcode != OPCODE_UD_SEND_ONLY || out.bthDestQp != 1) {
            if (opcode == OPCODE_RC_READ_REQUEST && bthOff + BTH_LEN + RETH_LEN <= end) {
                // RETH: virtual address(8) R_Key(4) DMA length(4)
                out.rethDmaLength = i32(buf, bthOff + BTH_LEN + 12) & 0xffffffffL;
            }
            return DecodeResult.ROCE_DATA;
        }
        // QP1 UD SEND: DETH, then a MAD of 256 bytes (then the 4-byte ICRC)
        final int m = bthOff + BTH_LEN + DETH_LEN;
        if (m + MAD_LEN > payloadEnd) {
            return DecodeResult.BAD_MAD;
        }
        if (m + MAD_LEN > end) {
            return DecodeResult.TRUNCATED;
        }
        out.dethSrcQp = u24(buf, bthOff + BTH_LEN + 5);
        if (buf[m] != 1) {
            return DecodeResult.BAD_MAD;
        }
        if (buf[m + 1] != MGMT_CLASS_CM) {
            return DecodeResult.NOT_CM_CLASS;
        }
        final CmMessageType type = CmMessageType.ofAttribute(u16(buf, m + 16));
        if (type == null) {
            return DecodeResult.UNKNOWN_CM_ATTRIBUTE;
        }
        out.clearCm();
        out.type = type;
        out.madClassVersion = buf[m + 2] & 0xff;
        out.method = buf[m + 3] & 0xff;
        out.status = u16(buf, m + 4);
        out.transactionId = u64(buf, m + 8);
        out.attributeId = type.attributeId();
        cm(buf, m + MAD_HEADER_LEN, type, out);
        return DecodeResult.CM_MAD;
    }

    private static void cm(final byte[] buf, final int dataOff, final CmMessageType type, final CmMessage out) {
        switch (type) {
            case REQ -> {
                out.localCommId = i32(buf, dataOff);
                out.serviceId = u64(buf, dataOff + 8);
                out.localQpn = u24(buf, dataOff + 32);
                out.remoteCmResponseTimeout = (buf[dataOff + 43] & 0xff) >>> 3;
                out.startingPsn = u24(buf, dataOff + 44);
                out.localCmResponseTimeout = (buf[dataOff + 47] & 0xff) >>> 3;
                out.primaryLocalAckTimeout = (buf[dataOff + REQ_PRIMARY_LOCAL_ACK_TIMEOUT] & 0xff) >>> 3;
                out.maxCmRetries = (buf[dataOff + 51] & 0xff) >>> 4;
                if (out.serviceId >>> 24 == 1L) {
                    final int pd = dataOff + REQ_PRIVATE_DATA;
                    out.hasIpCm = true;
                    out.ipCmVersion = (buf[pd + 1] & 0xff) >>> 4;
                    out.ipCmSrcPort = u16(buf, pd + 2);
                    System.arraycopy(buf, pd + 4, out.ipCmSrcIp, 0, 16);
                    System.arraycopy(buf, pd + 20, out.ipCmDstIp, 0, 16);
                }
            }
            case REP -> {
                out.localCommId = i32(buf, dataOff);
                out.remoteCommId = i32(buf, dataOff + 4);
                out.localQpn = u24(buf, dataOff + 12);
                out.startingPsn = u24(buf, dataOff + 20);
            }
            case RTU, DREP -> {
                out.localCommId = i32(buf, dataOff);
                out.remoteCommId = i32(buf, dataOff + 4);
            }
            case DREQ -> {
                out.localCommId = i32(buf, dataOff);
                out.remoteCommId = i32(buf, dataOff + 4);
                out.remoteQpn = u24(buf, dataOff + 8);
            }
            case REJ -> {
                out.localCommId = i32(buf, dataOff);
                out.remoteCommId = i32(buf, dataOff + 4);
                out.messageRejected = (buf[dataOff + 8] & 0xff) >>> 6;
                out.rejectReason = u16(buf, dataOff + 10);
            }
            case MRA -> {
                out.localCommId = i32(buf, dataOff);
                out.remoteCommId = i32(buf, dataOff + 4);
                out.messageMraed = (buf[dataOff + 8] & 0xff) >>> 6;
                out.serviceTimeout = (buf[dataOff + 9] & 0xff) >>> 3;
            }
            case LAP -> {
                out.localCommId = i32(buf, dataOff);
                out.remoteCommId = i32(buf, dataOff + 4);
                out.remoteQpn = u24(buf, dataOff + 12);
                out.remoteCmResponseTimeout = (buf[dataOff + 15] & 0xff) >>> 3;
            }
            case APR -> {
                out.localCommId = i32(buf, dataOff);
                out.remoteCommId = i32(buf, dataOff + 4);
                out.apStatus = buf[dataOff + 9] & 0xff;
            }
            case SIDR_REQ -> {
                out.requestId = i32(buf, dataOff);
                out.serviceId = u64(buf, dataOff + 8);
            }
            case SIDR_REP -> {
                out.requestId = i32(buf, dataOff);
                out.sidrStatus = buf[dataOff + 4] & 0xff;
                out.sidrQpn = u24(buf, dataOff + 8);
                out.serviceId = u64(buf, dataOff + 12);
            }
            default -> {
                // CLASS_PORT_INFO: the MAD header is all we report
            }
        }
    }

    static int u16(final byte[] buf, final int off) {
        return (buf[off] & 0xff) << 8 | buf[off + 1] & 0xff;
    }

    static int u24(final byte[] buf, final int off) {
        return (buf[off] & 0xff) << 16 | (buf[off + 1] & 0xff) << 8 | buf[off + 2] & 0xff;
    }

    static int i32(final byte[] buf, final int off) {
        return (buf[off] & 0xff) << 24 | (buf[off + 1] & 0xff) << 16 | (buf[off + 2] & 0xff) << 8 | buf[off + 3] & 0xff;
    }

    static long u64(final byte[] buf, final int off) {
        return (long) i32(buf, off) << 32 | i32(buf, off + 4) & 0xffffffffL;
    }
}
