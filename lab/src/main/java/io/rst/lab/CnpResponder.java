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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The lab hosts' RoCE NICs as notification points (DCQCN's NP): a host that receives RoCEv2
 * packets marked Congestion Experienced on a connected QP sends a CNP back to the sender's QP
 * ({@link RcFrames#cnp}: DSCP 48, not ECN-capable, from the QP's own UDP source port), at most one
 * per QP every {@link #MIN_GAP_NANOS} (50 us, the DCQCN paper's and RoCE NICs' usual setting).
 *
 * <p>Each host has a raw IPv4 socket for UDP in its namespace, which sees a copy of every UDP
 * datagram the host receives with its IP header (the TOS byte with the ECN bits); a classic BPF
 * filter attached to it keeps only those marked CE to port 4791, so that unmarked traffic (all of
 * it unless a link marks: {@code lab congest}) costs the host no copy. One thread polls every
 * host's socket; the CNPs go out on the host's own thread, as its other packets do.
 */
final class CnpResponder implements AutoCloseable {
    /** The least time between two CNPs to one QP. */
    static final long MIN_GAP_NANOS = 50_000;
    private static final int AF_INET = 2;
    private static final int SOCK_RAW = 3;
    private static final int IPPROTO_UDP = 17;
    private static final int SOL_SOCKET = 1;
    private static final int SO_ATTACH_FILTER = 26;
    private static final int MSG_DONTWAIT = 0x40;
    private static final short POLLIN = 1;
    private static final int EAGAIN = 11;
    private static final int MAX_PACKET = 2048;
    private static final int POLL_MS = 200;
    /** Rate-limit entries kept before the stale ones (older than a second) are dropped. */
    private static final int MAX_LIMITS = 65_536;

    /**
     * The socket filter (classic BPF, offsets from the IP header): ECN bits CE and UDP destination
     * port 4791, else drop. Each instruction: code, jt, jf, k.
     */
    static final int[][] CE_FILTER = {
        {0x30, 0, 0, 1},        // ldb [1]            the TOS byte
        {0x54, 0, 0, 3},        // and #3             its ECN bits
        {0x15, 0, 4, 3},        // jeq #3 (CE)        else drop
        {0xb1, 0, 0, 0},        // ldxb 4*([0]&0xf)   the IP header's length
        {0x48, 0, 0, 2},        // ldh [x+2]          the UDP destination port
        {0x15, 0, 1, 4791},     // jeq #4791          else drop
        {0x06, 0, 0, 0xffff},   // ret #65535         keep
        {0x06, 0, 0, 0},        // ret #0             drop
    };

    static {
        Native.register(Platform.C_LIBRARY_NAME);
    }

    private static native int socket(int domain, int type, int protocol) throws LastErrorException;

    private static native int setsockopt(int fd, int level, int name, Pointer value, int len)
        throws LastErrorException;

    private static native long recv(int fd, Pointer buf, long len, int flags) throws LastErrorException;

    private static native int poll(Pointer fds, long nfds, int timeout) throws LastErrorException;

    private final Traffic traffic;
    private final List<String> hosts = new ArrayList<>();
    private final int[] fds;
    private final Memory pollFds;
    private final Thread thread;
    private final AtomicLong ceReceived = new AtomicLong();
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong unknownQp = new AtomicLong();
    /** The last CNP's time per host and QP ({@link #limitKey}); the poll thread's only. */
    private final Map<Long, Long> lastCnp = new HashMap<>();
    private volatile boolean closed;

    /** Opens a socket in every host's namespace (on the host's thread) and starts polling them. */
    CnpResponder(final Traffic traffic) throws IOException {
        this.traffic = traffic;
        for (var h : traffic.fabric().hosts()) {
            hosts.add(h.id());
        }
        fds = new int[hosts.size()];
        for (int i = 0; i < fds.length; i++) {
            try {
                fds[i] = traffic.onHost(hosts.get(i), CnpResponder::open);
            } catch (IOException e) {
                for (int j = 0; j < i; j++) {
                    close(fds[j]);
                }
                throw e;
            }
        }
        pollFds = new Memory(8L * Math.max(1, fds.length));
        thread = new Thread(this::run, "lab-cnp");
        thread.setDaemon(true);
        thread.start();
    }

    /** A raw UDP socket in the calling thread's namespace, with the CE filter attached. */
    private static int open() throws IOException {
        final int fd;
        try {
            fd = socket(AF_INET, SOCK_RAW, IPPROTO_UDP);
        } catch (LastErrorException e) {
            throw new IOException("cannot open a raw socket (errno " + e.getErrorCode() + "): the lab needs root", e);
        }
        final Memory insns = new Memory(8L * CE_FILTER.length);
        for (int i = 0; i < CE_FILTER.length; i++) {
            insns.setShort(8L * i, (short) CE_FILTER[i][0]);
            insns.setByte(8L * i + 2, (byte) CE_FILTER[i][1]);
            insns.setByte(8L * i + 3, (byte) CE_FILTER[i][2]);
            insns.setInt(8L * i + 4, CE_FILTER[i][3]);
        }
        // struct sock_fprog: unsigned short len, then (aligned) the pointer to the instructions
        final Memory prog = new Memory(16);
        prog.clear();
        prog.setShort(0, (short) CE_FILTER.length);
        prog.setPointer(Native.POINTER_SIZE == 8 ? 8 : 4, insns);
        try {
            setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, prog, Native.POINTER_SIZE == 8 ? 16 : 8);
        } catch (LastErrorException e) {
            close(fd);
            throw new IOException("cannot attach the CE filter (errno " + e.getErrorCode() + ")", e);
        }
        return fd;
    }

    private void run() {
        final Memory buf = new Memory(MAX_PACKET);
        final byte[] packet = new byte[MAX_PACKET];
        for (int i = 0; i < fds.length; i++) {
            pollFds.setInt(8L * i, fds[i]);
            pollFds.setShort(8L * i + 4, POLLIN);
        }
        while (!closed) {
            try {
                for (int i = 0; i < fds.length; i++) {
                    pollFds.setShort(8L * i + 6, (short) 0);
                }
                if (poll(pollFds, fds.length, POLL_MS) <= 0) {
                    continue;
                }
                for (int i = 0; i < fds.length && !closed; i++) {
                    if ((pollFds.getShort(8L * i + 6) & POLLIN) == 0) {
                        continue;
                    }
                    while (!closed) {
                        final long n;
                        try {
                            n = recv(fds[i], buf, MAX_PACKET, MSG_DONTWAIT);
                        } catch (LastErrorException e) {
                            if (e.getErrorCode() != EAGAIN) {
                                traffic.noteError("CNP socket of " + hosts.get(i) + ": errno " + e.getErrorCode());
                            }
                            break;
                        }
                        buf.read(0, packet, 0, (int) n);
                        received(i, packet, (int) n);
                    }
                }
            } catch (LastErrorException e) {
                // poll interrupted (EINTR), or the sockets closed under it: look at closed again
                if (closed) {
                    return;
                }
            }
        }
    }

    /** One CE-marked datagram that host {@code h} received (its IP header first). */
    private void received(final int hostIndex, final byte[] packet, final int len) {
        final int h = hostIndex;
        final byte[] p = packet;
        final int destQp = cnpFor(p, len);
        if (destQp < 0) {
            return;
        }
        ceReceived.incrementAndGet();
        final String host = hosts.get(h);
        final long qp = traffic.connectedQp(host, destQp);
        if (qp < 0) {
            unknownQp.incrementAndGet();
            return;
        }
        final long now = System.nanoTime();
        final long key = limitKey(h, destQp);
        final Long last = lastCnp.get(key);
        if (last != null && now - last < MIN_GAP_NANOS) {
            return;
        }
        if (lastCnp.size() >= MAX_LIMITS) {
            lastCnp.values().removeIf(t -> now - t > 1_000_000_000L);
        }
        lastCnp.put(key, now);
        final int remoteQpn = (int) (qp >>> 32);
        final int srcPort = (int) (qp & 0xffff);
        final byte[] self = traffic.hostIp(host);
        final byte[] sender = {p[12], p[13], p[14], p[15]};
        traffic.scheduleBackground(host, () -> {
            final byte[] cnp = new byte[RcFrames.CNP_LEN];
            final int n = RcFrames.cnp(cnp, remoteQpn, new RcFrames.Udp(self, sender, srcPort));
            traffic.transmit(host, self, srcPort, sender, Traffic.CNP_TOS, ByteBuffer.wrap(cnp, 0, n), 1);
            sent.incrementAndGet();
        }, 0);
    }

    /**
     * What a received IPv4 datagram {@code packet[0, len)} asks a NIC to notify: the destination
     * QP of an RC packet to the RoCEv2 port marked CE, or -1 for anything else (not CE, a CM MAD, a
     * CNP, a fragment, too short).
     */
    static int cnpFor(final byte[] packet, final int len) {
        final byte[] p = packet;
        if (len < 20 || (p[0] & 0xf0) != 0x40 || (p[1] & 3) != 3 || p[9] != IPPROTO_UDP) {
            return -1;
        }
        final int ihl = (p[0] & 0x0f) * 4;
        if ((((p[6] & 0xff) << 8 | p[7] & 0xff) & 0x3fff) != 0 || len < ihl + 8 + RcFrames.BTH_LEN) {
            return -1;
        }
        if (((p[ihl + 2] & 0xff) << 8 | p[ihl + 3] & 0xff) != 4791) {
            return -1;
        }
        final int bth = ihl + 8;
        final int opcode = p[bth] & 0xff;
        // RC opcodes (0x00 to 0x1f) only: not UD (CM MADs on QP1), not CNPs
        if (opcode > 0x1f) {
            return -1;
        }
        return (p[bth + 5] & 0xff) << 16 | (p[bth + 6] & 0xff) << 8 | p[bth + 7] & 0xff;
    }

    private static long limitKey(final int host, final int qpn) {
        return (long) host << 24 | qpn & 0xffffff;
    }

    /** CE-marked RC packets received, on any host. */
    long ceReceived() {
        return ceReceived.get();
    }

    /** CNPs sent. */
    long sent() {
        return sent.get();
    }

    /** CE-marked packets to a QP no connection of the host holds (closed, or not the lab's). */
    long unknownQp() {
        return unknownQp.get();
    }

    private static native int close(int fd);

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            thread.join(2 * POLL_MS + 1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (int fd : fds) {
            close(fd);
        }
    }
}
