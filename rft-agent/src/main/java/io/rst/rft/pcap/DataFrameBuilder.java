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

/**
 * Builds RoCEv2 data frames (Ethernet, IPv4 or IPv6, UDP, BTH and the extension headers the
 * opcode calls for, a payload of zeros, ICRC placeholder): RC, UC and UD requests and answers as
 * NCCL or perftest send them without CM, and CNPs (opcode 0x81: BECN set, PSN as given, 16 reserved
 * bytes), for tests and generated captures. The IP header carries DSCP 26 and ECT(0) unless told
 * otherwise. Values are written as
 * given (no validation): tests use odd values on purpose.
 *
 * <pre>
 * RETH (16)      virtual address(8) R_Key(4) DMA length(4)   RC/UC WRITE First/Only, RC READ request
 * AETH (4)       syndrome(1) MSN(3)                          ACK, atomic ACK, READ response First/Last/Only
 * AtomicETH (28) virtual address(8) R_Key(4) swap/add(8) compare(8)   RC CmpSwap, FetchAdd
 * AtomicAckETH (8) original remote data                       atomic ACK
 * DETH (8)       Q_Key(4) rsvd(1) source QP(3)                UD
 * ImmDt (4)      immediate data                              "with immediate" opcodes
 * </pre>
 */
public final class DataFrameBuilder {
    /** RC opcodes (IBA 9.2). */
    public static final int RC_SEND_FIRST = 0x00;
    public static final int RC_SEND_MIDDLE = 0x01;
    public static final int RC_SEND_LAST = 0x02;
    public static final int RC_SEND_ONLY = 0x04;
    public static final int RC_WRITE_FIRST = 0x06;
    public static final int RC_WRITE_MIDDLE = 0x07;
    public static final int RC_WRITE_LAST = 0x08;
    public static final int RC_WRITE_ONLY = 0x0a;
    public static final int RC_WRITE_ONLY_IMM = 0x0b;
    public static final int RC_READ_REQUEST = 0x0c;
    public static final int RC_READ_RESPONSE_FIRST = 0x0d;
    public static final int RC_READ_RESPONSE_MIDDLE = 0x0e;
    public static final int RC_READ_RESPONSE_LAST = 0x0f;
    public static final int RC_READ_RESPONSE_ONLY = 0x10;
    public static final int RC_ACK = 0x11;
    public static final int RC_ATOMIC_ACK = 0x12;
    public static final int RC_CMP_SWAP = 0x13;
    public static final int RC_FETCH_ADD = 0x14;
    public static final int UC_SEND_ONLY = 0x24;
    public static final int UC_WRITE_ONLY = 0x2a;
    public static final int UD_SEND_ONLY = 0x64;
    public static final int UD_SEND_ONLY_IMM = 0x65;
    /** Congestion notification packet (RoCEv2 annex). */
    public static final int CNP = 0x81;

    private static final int[] NO_VLANS = {};

    private byte[] srcIp = {10, 0, 0, 1};
    private byte[] dstIp = {10, 0, 0, 2};
    private int udpSrcPort = 49152;
    private int udpDstPort = 4791;
    private int opcode = RC_WRITE_ONLY;
    private int destQp = 0x11;
    private int psn;
    private long dmaLength = 4096;
    private int payload = 64;
    private int srcQp = 0x22;
    /** RoCE's usual marking: DSCP 26, ECT(0). */
    private int dscp = 26;
    private int ecn = 2;

    /** Outer addresses: both 4 bytes (IPv4) or both 16 bytes (IPv6). */
    public DataFrameBuilder ips(final byte[] src, final byte[] dst) {
        if (src.length != dst.length || src.length != 4 && src.length != 16) {
            throw new IllegalArgumentException("addresses must both be 4 or 16 bytes");
        }
        srcIp = src.clone();
        dstIp = dst.clone();
        return this;
    }

    public DataFrameBuilder udpPorts(final int src, final int dst) {
        udpSrcPort = src;
        udpDstPort = dst;
        return this;
    }

    public DataFrameBuilder opcode(final int value) {
        opcode = value;
        return this;
    }

    /** BTH destination QP (24 bits). */
    public DataFrameBuilder destQp(final int value) {
        destQp = value;
        return this;
    }

    /** BTH PSN (24 bits). */
    public DataFrameBuilder psn(final int value) {
        psn = value;
        return this;
    }

    /** RETH DMA length (READ request, WRITE First/Only). */
    public DataFrameBuilder dmaLength(final long value) {
        dmaLength = value;
        return this;
    }

    /** Payload bytes after the headers (requests with data, READ responses). */
    public DataFrameBuilder payload(final int bytes) {
        payload = bytes;
        return this;
    }

    /** The IP header's DSCP (6 bits; default 26, RoCE's usual traffic class). */
    public DataFrameBuilder dscp(final int value) {
        dscp = value;
        return this;
    }

    /**
     * The IP header's ECN field (2 bits): 0 Not-ECT, 1 ECT(1), 2 ECT(0) (the default, as RoCE NICs
     * send), 3 CE.
     */
    public DataFrameBuilder ecn(final int value) {
        ecn = value;
        return this;
    }

    /** DETH source QP (UD). */
    public DataFrameBuilder srcQp(final int value) {
        srcQp = value;
        return this;
    }

    private boolean hasReth() {
        return opcode == RC_WRITE_FIRST || opcode == RC_WRITE_ONLY || opcode == RC_WRITE_ONLY_IMM
            || opcode == RC_READ_REQUEST || opcode == 0x26 || opcode == 0x2a || opcode == 0x2b;
    }

    private boolean hasAeth() {
        return opcode == RC_ACK || opcode == RC_ATOMIC_ACK || opcode == RC_READ_RESPONSE_FIRST
            || opcode == RC_READ_RESPONSE_LAST || opcode == RC_READ_RESPONSE_ONLY;
    }

    private boolean hasImm() {
        return opcode == 0x03 || opcode == 0x05 || opcode == 0x09 || opcode == RC_WRITE_ONLY_IMM || opcode == 0x23
            || opcode == 0x25 || opcode == 0x29 || opcode == 0x2b || opcode == UD_SEND_ONLY_IMM;
    }

    private boolean hasData() {
        return !(opcode == RC_READ_REQUEST || opcode == RC_ACK || opcode == RC_ATOMIC_ACK || opcode == RC_CMP_SWAP
            || opcode == RC_FETCH_ADD || opcode == CNP);
    }

    private int headersAfterBth() {
        int bytes = 0;
        if (opcode >>> 5 == 3) {
            bytes += 8;
        }
        if (hasReth()) {
            bytes += 16;
        }
        if (hasAeth()) {
            bytes += 4;
        }
        if (opcode == RC_ATOMIC_ACK) {
            bytes += 8;
        }
        if (opcode == RC_CMP_SWAP || opcode == RC_FETCH_ADD) {
            bytes += 28;
        }
        if (hasImm()) {
            bytes += 4;
        }
        if (opcode == CNP) {
            // a CNP carries 16 reserved bytes
            bytes += 16;
        }
        return bytes + (hasData() ? payload : 0);
    }

    /** The length {@link #build} will write. */
    public int length() {
        return 14 + (srcIp.length == 4 ? 20 : 40) + 8 + 12 + headersAfterBth() + 4;
    }

    /** A new array holding the frame. */
    public byte[] build() {
        final byte[] b = new byte[length()];
        build(b);
        return b;
    }

    /** Writes the frame at {@code buf[0..]} and returns its length. */
    public int build(final byte[] buf) {
        final int len = length();
        java.util.Arrays.fill(buf, 0, len, (byte) 0);
        final int udpLen = 8 + 12 + headersAfterBth() + 4;
        int pos = RoceHeaders.write(buf, srcIp, dstIp, NO_VLANS, (dscp & 0x3f) << 2 | ecn & 3, udpSrcPort,
            udpDstPort, udpLen);
        // BTH: opcode, P_Key ffff, dest QP, AckReq on requests, PSN; a CNP has BECN set and no AckReq
        buf[pos] = (byte) opcode;
        put16(buf, pos + 2, 0xffff);
        put32(buf, pos + 4, (opcode == CNP ? 0x40000000 : 0) | destQp & 0xffffff);
        put32(buf, pos + 8, (hasAeth() || opcode == CNP ? 0 : 0x80000000) | psn & 0xffffff);
        pos += 12;
        if (opcode >>> 5 == 3) {
            put32(buf, pos, 0x11111111);
            put32(buf, pos + 4, srcQp & 0xffffff);
            pos += 8;
        }
        if (hasReth()) {
            put32(buf, pos, 0x7f00);
            put32(buf, pos + 8, 0x1234);
            put32(buf, pos + 12, (int) dmaLength);
            pos += 16;
        }
        if (hasAeth()) {
            // syndrome: ACK with an invalid credit count; MSN
            put32(buf, pos, 0x1f << 24 | psn & 0xffffff);
            pos += 4;
        }
        return len;
    }


}
