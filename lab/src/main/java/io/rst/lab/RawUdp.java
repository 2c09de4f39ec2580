/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.lab;

import com.sun.jna.LastErrorException;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A raw IPv4 socket of one host (opened on, and used by, that host's one thread, in its namespace)
 * that sends UDP datagrams from any source port with one system call each. The kernel still routes
 * them (by destination and source address) and fills in the IP checksum and identification. A
 * socket per datagram, bound to its source port, takes six system calls (socket, setsockopt, bind,
 * getsockname, sendto, close): in the lab benchmark the hosts' threads would spend more time in
 * those than in sending. Only for a host with one route out: the kernel hashes a raw packet's route
 * without its ports, so a dual-homed host's multipath choice would not be the one its UDP sockets
 * (and {@code ip route get ... sport}) make.
 */
final class RawUdp implements AutoCloseable {
    private static final int AF_INET = 2;
    private static final int SOCK_RAW = 3;
    /** IPPROTO_RAW: the caller writes the IP header (IP_HDRINCL implied). */
    private static final int IPPROTO_RAW = 255;
    private static final int HEADERS = 20 + 8;
    private static final int MAX_PAYLOAD = 2048;

    static {
        Native.register(Platform.C_LIBRARY_NAME);
    }

    private static native int socket(int domain, int type, int protocol) throws LastErrorException;

    private static native long sendto(int fd, Pointer buf, long len, int flags, Pointer addr, int addrLen)
        throws LastErrorException;

    private final int fd;
    private final byte[] packet = new byte[HEADERS + MAX_PAYLOAD];
    private final Memory buf = new Memory(HEADERS + MAX_PAYLOAD);
    private final Memory addr = new Memory(16);
    private boolean closed;

    /** Opens the socket in the calling thread's network namespace (needs CAP_NET_RAW). */
    RawUdp() throws IOException {
        try {
            fd = socket(AF_INET, SOCK_RAW, IPPROTO_RAW);
        } catch (LastErrorException e) {
            throw new IOException("cannot open a raw socket (errno " + e.getErrorCode() + "): the lab needs root", e);
        }
        addr.clear();
        // sockaddr_in: the family in host order, port 0 (unused for raw), the address set per send
        addr.setShort(0, (short) AF_INET);
    }

    /**
     * Sends {@code count} copies of a UDP datagram carrying {@code payload}'s remaining bytes, with
     * {@code tos} (DSCP and ECN) in its IP header.
     */
    void send(final byte[] src, final int srcPort, final byte[] dst, final int dstPort, final int tos,
            final ByteBuffer payload, final int count) throws IOException {
        if (closed) {
            throw new IOException("raw socket closed");
        }
        final int n = payload.remaining();
        if (n > MAX_PAYLOAD) {
            throw new IOException("payload of " + n + " bytes: at most " + MAX_PAYLOAD);
        }
        final int len = HEADERS + n;
        final byte[] p = packet;
        // IPv4: version 4, 20 bytes, TOS, total length, ID 0 (the kernel's), don't fragment,
        // TTL 64, UDP, checksum 0 (the kernel's), source, destination
        p[0] = 0x45;
        p[1] = (byte) tos;
        p[2] = (byte) (len >>> 8);
        p[3] = (byte) len;
        p[4] = 0;
        p[5] = 0;
        p[6] = 0x40;
        p[7] = 0;
        p[8] = 64;
        p[9] = 17;
        p[10] = 0;
        p[11] = 0;
        System.arraycopy(src, 0, p, 12, 4);
        System.arraycopy(dst, 0, p, 16, 4);
        // UDP: ports, length, no checksum (as RoCEv2 NICs send it)
        p[20] = (byte) (srcPort >>> 8);
        p[21] = (byte) srcPort;
        p[22] = (byte) (dstPort >>> 8);
        p[23] = (byte) dstPort;
        p[24] = (byte) ((8 + n) >>> 8);
        p[25] = (byte) (8 + n);
        p[26] = 0;
        p[27] = 0;
        payload.duplicate().get(p, HEADERS, n);
        buf.write(0, p, 0, len);
        addr.write(4, dst, 0, 4);
        for (int i = 0; i < count; i++) {
            try {
                sendto(fd, buf, len, 0, addr, 16);
            } catch (LastErrorException e) {
                throw new IOException("sendto failed (errno " + e.getErrorCode() + ")", e);
            }
        }
    }

    private static native int close(int fd);

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            close(fd);
        }
    }
}
