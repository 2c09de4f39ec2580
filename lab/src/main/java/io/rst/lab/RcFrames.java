/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.lab;

import java.util.zip.CRC32;

/**
 * RoCEv2 reliable-connection (RC) packets as an RDMA NIC puts them into a UDP datagram to port
 * 4791: the base transport header (BTH, 12 bytes: opcode, flags, P_Key, destination QP, AckReq,
 * PSN), the extension headers the opcode calls for (RETH 16 bytes: virtual address, R_Key, DMA
 * length; AETH 4 bytes: syndrome and MSN; ImmDt 4 bytes), the payload, and the invariant CRC
 * (ICRC, 4 bytes) over the IPv4 and UDP headers the lab's hosts send them with (see
 * {@link #icrc}). Opcodes and layouts are those of the InfiniBand Architecture Specification
 * volume 1, chapter 9, and its RoCEv2 annex A17.
 */
public final class RcFrames {
    public static final int SEND_FIRST = 0x00;
    public static final int SEND_MIDDLE = 0x01;
    public static final int SEND_LAST = 0x02;
    public static final int SEND_LAST_IMM = 0x03;
    public static final int SEND_ONLY = 0x04;
    public static final int SEND_ONLY_IMM = 0x05;
    public static final int WRITE_FIRST = 0x06;
    public static final int WRITE_MIDDLE = 0x07;
    public static final int WRITE_LAST = 0x08;
    public static final int WRITE_LAST_IMM = 0x09;
    public static final int WRITE_ONLY = 0x0A;
    public static final int WRITE_ONLY_IMM = 0x0B;
    public static final int READ_REQUEST = 0x0C;
    public static final int READ_RESPONSE_FIRST = 0x0D;
    public static final int READ_RESPONSE_MIDDLE = 0x0E;
    public static final int READ_RESPONSE_LAST = 0x0F;
    public static final int READ_RESPONSE_ONLY = 0x10;
    public static final int ACKNOWLEDGE = 0x11;
    /** A Congestion Notification Packet (RoCEv2 annex A17.9). */
    public static final int CNP = 0x81;

    /** The lab's path MTU: 256 bytes of payload per packet, the smallest IB MTU (small lab packets). */
    public static final int PMTU = 256;
    /** AETH syndrome of a plain ACK with the credit count "invalid" (0x1F), as RC responders send it. */
    public static final int ACK_SYNDROME = 0x1F;
    /** The PSN space: 24 bits, wrapping to 0. */
    public static final int PSN_MASK = 0xffffff;

    public static final int BTH_LEN = 12;
    public static final int RETH_LEN = 16;
    public static final int AETH_LEN = 4;
    public static final int IMM_LEN = 4;
    public static final int ICRC_LEN = 4;
    /** IPv4 (20 bytes, no options) and UDP (8) in front of the BTH. */
    static final int IP_UDP_LEN = 28;
    /** A CNP's 16 reserved bytes after its BTH. */
    public static final int CNP_RESERVED_LEN = 16;
    /** A CNP's datagram payload: BTH, the reserved bytes, ICRC. */
    public static final int CNP_LEN = BTH_LEN + CNP_RESERVED_LEN + ICRC_LEN;
    /** The largest datagram payload {@link #write} makes. */
    public static final int MAX_LEN = BTH_LEN + RETH_LEN + IMM_LEN + AETH_LEN + PMTU + ICRC_LEN;
    private static final byte[] MASKED_LRH = {-1, -1, -1, -1, -1, -1, -1, -1};

    private RcFrames() {
        // utility
    }

    /** Whether an opcode carries a RETH (RDMA WRITE First and Only, with or without immediate; READ request). */
    public static boolean hasReth(final int opcode) {
        return opcode == WRITE_FIRST || opcode == WRITE_ONLY || opcode == WRITE_ONLY_IMM || opcode == READ_REQUEST;
    }

    /** Whether an opcode carries an AETH (ACK; READ response First, Last and Only). */
    public static boolean hasAeth(final int opcode) {
        return opcode == ACKNOWLEDGE || opcode == READ_RESPONSE_FIRST || opcode == READ_RESPONSE_LAST
            || opcode == READ_RESPONSE_ONLY;
    }

    /** Whether an opcode carries immediate data (SEND and WRITE, Last and Only, with immediate). */
    public static boolean hasImm(final int opcode) {
        return opcode == SEND_LAST_IMM || opcode == SEND_ONLY_IMM || opcode == WRITE_LAST_IMM
            || opcode == WRITE_ONLY_IMM;
    }

    /** Whether an opcode carries payload (everything but READ requests and ACKs). */
    public static boolean hasPayload(final int opcode) {
        return opcode != READ_REQUEST && opcode != ACKNOWLEDGE;
    }

    /** Whether an opcode is a response (ACK or READ response): its PSN is of the peer's request sequence. */
    public static boolean isResponse(final int opcode) {
        return opcode >= READ_RESPONSE_FIRST && opcode <= ACKNOWLEDGE;
    }

    /** {@code psn + count} in the 24-bit PSN space. */
    public static int psnPlus(final int psn, final int count) {
        return psn + count & PSN_MASK;
    }

    /**
     * Writes one RC packet, from the BTH to the ICRC, into {@code out} from index 0 and returns its
     * length.
     *
     * @param opcode one of this class's opcodes
     * @param destQp the receiving QP (24 bits)
     * @param psn the packet sequence number (24 bits)
     * @param ackReq the AckReq bit: the requester asks for an acknowledgement
     * @param solicited the Solicited Event bit
     * @param va RETH virtual address (opcodes with a RETH)
     * @param rkey RETH R_Key
     * @param dmaLength RETH DMA length: the whole message's bytes
     * @param imm the immediate data (opcodes with immediate)
     * @param syndrome AETH syndrome (opcodes with an AETH)
     * @param msn AETH message sequence number (24 bits)
     * @param payload payload bytes, a multiple of 4 (no pad) and at most {@link #PMTU}
     * @param ip the datagram's IPv4 source, destination and UDP source port, for the ICRC
     */
    @SuppressWarnings("checkstyle:ParameterNumber")
    public static int write(final byte[] out, final int opcode, final int destQp, final int psn, final boolean ackReq,
            final boolean solicited, final long va, final int rkey, final int dmaLength, final int imm,
            final int syndrome, final int msn, final int payload, final Udp ip) {
        if (opcode < 0 || opcode > ACKNOWLEDGE) {
            throw new IllegalArgumentException("not an RC opcode the lab sends: " + opcode);
        }
        if (payload < 0 || payload > PMTU || payload % 4 != 0 || payload > 0 && !hasPayload(opcode)) {
            throw new IllegalArgumentException("payload of " + payload + " bytes with opcode " + opcode);
        }
        int at = 0;
        out[at++] = (byte) opcode;
        // SE, MigReq (1: the QP's path is migrated, as RoCE NICs send it), pad count 0, TVer 0
        out[at++] = (byte) ((solicited ? 0x80 : 0) | 0x40);
        out[at++] = (byte) 0xff;
        out[at++] = (byte) 0xff;
        out[at++] = 0;
        at = put24(out, at, destQp);
        out[at++] = (byte) (ackReq ? 0x80 : 0);
        at = put24(out, at, psn);
        if (hasReth(opcode)) {
            at = put32(out, at, (int) (va >>> 32));
            at = put32(out, at, (int) va);
            at = put32(out, at, rkey);
            at = put32(out, at, dmaLength);
        }
        if (hasAeth(opcode)) {
            out[at++] = (byte) syndrome;
            at = put24(out, at, msn);
        }
        if (hasImm(opcode)) {
            at = put32(out, at, imm);
        }
        // the payload: zeros (a pattern of its own is taken for RPC-over-RDMA by tshark's heuristics)
        java.util.Arrays.fill(out, at, at + payload, (byte) 0);
        at += payload;
        final int crc = icrc(ip, out, at);
        out[at++] = (byte) crc;
        out[at++] = (byte) (crc >>> 8);
        out[at++] = (byte) (crc >>> 16);
        out[at++] = (byte) (crc >>> 24);
        return at;
    }

    /**
     * Writes a CNP into {@code out} from index 0 and returns its length ({@link #CNP_LEN}): what a
     * RoCE NIC that received CE-marked packets sends back to their sender's QP (RoCEv2 annex
     * A17.9.3). BTH: opcode 0x81, SE, MigReq, pad count and TVer 0, P_Key 0xffff, FECN 0, BECN 1,
     * the destination QP (the sender's), AckReq 0, PSN 0; then 16 reserved bytes of zeros and the
     * ICRC.
     *
     * @param destQp the QP whose packets arrived marked (24 bits)
     * @param ip the CNP's own IPv4 source (the receiver of the marked packets), destination and
     *     UDP source port, for the ICRC
     */
    public static int cnp(final byte[] out, final int destQp, final Udp ip) {
        java.util.Arrays.fill(out, 0, CNP_LEN, (byte) 0);
        out[0] = (byte) CNP;
        out[2] = (byte) 0xff;
        out[3] = (byte) 0xff;
        // FECN 0, BECN 1, 6 reserved bits
        out[4] = 0x40;
        put24(out, 5, destQp);
        final int at = BTH_LEN + CNP_RESERVED_LEN;
        final int crc = icrc(ip, out, at);
        out[at] = (byte) crc;
        out[at + 1] = (byte) (crc >>> 8);
        out[at + 2] = (byte) (crc >>> 16);
        out[at + 3] = (byte) (crc >>> 24);
        return CNP_LEN;
    }

    /**
     * A datagram's addresses as the ICRC covers them.
     *
     * @param src IPv4 source address (4 bytes)
     * @param dst IPv4 destination address
     * @param srcPort UDP source port (the destination port is 4791)
     */
    public record Udp(byte[] src, byte[] dst, int srcPort) {
    }

    /**
     * The invariant CRC of a RoCEv2 packet: CRC-32 over 8 bytes of ones (the masked LRH), the IPv4
     * header with TOS, TTL and checksum set to ones, the UDP header with its checksum set to ones,
     * the BTH with its reserved byte set to ones, and everything after the BTH. The IPv4 header is
     * the one the lab's hosts send (20 bytes, identification 0, don't fragment, UDP), as the kernel
     * writes it for a raw socket's datagram. Stored in the packet least significant byte first.
     */
    static int icrc(final Udp ip, final byte[] roce, final int len) {
        final byte[] h = new byte[IP_UDP_LEN + BTH_LEN];
        final int total = IP_UDP_LEN + len + ICRC_LEN;
        h[0] = 0x45;
        h[1] = (byte) 0xff;
        h[2] = (byte) (total >>> 8);
        h[3] = (byte) total;
        h[6] = 0x40;
        h[8] = (byte) 0xff;
        h[9] = 17;
        h[10] = (byte) 0xff;
        h[11] = (byte) 0xff;
        System.arraycopy(ip.src(), 0, h, 12, 4);
        System.arraycopy(ip.dst(), 0, h, 16, 4);
        h[20] = (byte) (ip.srcPort() >>> 8);
        h[21] = (byte) ip.srcPort();
        h[22] = (byte) (4791 >>> 8);
        h[23] = (byte) 4791;
        final int udpLen = total - 20;
        h[24] = (byte) (udpLen >>> 8);
        h[25] = (byte) udpLen;
        h[26] = (byte) 0xff;
        h[27] = (byte) 0xff;
        System.arraycopy(roce, 0, h, IP_UDP_LEN, BTH_LEN);
        h[IP_UDP_LEN + 4] = (byte) 0xff;
        final CRC32 crc = new CRC32();
        crc.update(MASKED_LRH);
        crc.update(h);
        crc.update(roce, BTH_LEN, len - BTH_LEN);
        return (int) crc.getValue();
    }

    /**
     * The ICRC of a whole captured IPv4 RoCEv2 packet (from its IPv4 header to the end of its UDP
     * payload, ICRC included) as it should be, whatever its IP header holds: for checking frames
     * against their ICRC.
     */
    public static int icrcOfPacket(final byte[] ipPacket, final int off, final int len) {
        final int ihl = (ipPacket[off] & 0x0f) * 4;
        final byte[] m = new byte[ihl + 8 + BTH_LEN];
        System.arraycopy(ipPacket, off, m, 0, m.length);
        m[1] = (byte) 0xff;
        m[8] = (byte) 0xff;
        m[10] = (byte) 0xff;
        m[11] = (byte) 0xff;
        m[ihl + 6] = (byte) 0xff;
        m[ihl + 7] = (byte) 0xff;
        m[ihl + 8 + 4] = (byte) 0xff;
        final CRC32 crc = new CRC32();
        crc.update(MASKED_LRH);
        crc.update(m);
        final int rest = off + m.length;
        crc.update(ipPacket, rest, len - m.length - ICRC_LEN);
        return (int) crc.getValue();
    }

    private static int put24(final byte[] out, final int at, final int value) {
        out[at] = (byte) (value >>> 16);
        out[at + 1] = (byte) (value >>> 8);
        out[at + 2] = (byte) value;
        return at + 3;
    }

    private static int put32(final byte[] out, final int at, final int value) {
        out[at] = (byte) (value >>> 24);
        out[at + 1] = (byte) (value >>> 16);
        out[at + 2] = (byte) (value >>> 8);
        out[at + 3] = (byte) value;
        return at + 4;
    }
}
