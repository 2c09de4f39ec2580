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
import io.rst.rft.pcap.PfcFrameBuilder;
import java.io.IOException;
import java.util.concurrent.locks.LockSupport;

/**
 * Sends PFC frames (IEEE 802.1Qbb) out of one interface of a lab node, as that node's port would
 * ask its neighbour to pause: an AF_PACKET socket opened in the node's namespace (by the calling
 * thread, which must be in it: {@link NetnsThreads#enter}), the frames built by the agent's own
 * {@link PfcFrameBuilder}: to 01:80:c2:00:00:01, ethertype 0x8808, opcode 0x0101, the class-enable
 * vector with the paused priority's bit, its pause time in quanta, from the port's MAC address.
 */
final class PfcSender implements AutoCloseable {
    private static final int AF_PACKET = 17;
    private static final int SOCK_RAW = 3;
    private static final int ETH_P_MAC_CONTROL = 0x8808;
    private static final int SOCKADDR_LL_LEN = 20;

    static {
        Native.register(Platform.C_LIBRARY_NAME);
    }

    private static native int socket(int domain, int type, int protocol) throws LastErrorException;

    @SuppressWarnings("checkstyle:MethodName") // libc's name
    private static native int if_nametoindex(String name);

    private static native long sendto(int fd, Pointer buf, long len, int flags, Pointer addr, int addrLen)
        throws LastErrorException;

    private final int fd;
    private final Memory addr = new Memory(SOCKADDR_LL_LEN);
    private final Memory frame = new Memory(PfcFrameBuilder.LENGTH);
    private boolean closed;

    /**
     * A socket that sends {@code priority} paused for {@code quanta} out of {@code port} (in the
     * calling thread's namespace) from {@code srcMac}.
     */
    PfcSender(final String port, final long srcMac, final int priority, final int quanta) throws IOException {
        final int ifindex = if_nametoindex(port);
        if (ifindex == 0) {
            throw new IOException("no interface " + port + " here");
        }
        try {
            // protocol 0: the socket sends only, it takes in nothing
            fd = socket(AF_PACKET, SOCK_RAW, 0);
        } catch (LastErrorException e) {
            throw new IOException("cannot open a packet socket (errno " + e.getErrorCode() + "): the lab needs root",
                e);
        }
        // struct sockaddr_ll: family, protocol (network order), ifindex, hatype, pkttype, halen, addr[8]
        addr.clear();
        addr.setShort(0, (short) AF_PACKET);
        addr.setByte(2, (byte) (ETH_P_MAC_CONTROL >>> 8));
        addr.setByte(3, (byte) ETH_P_MAC_CONTROL);
        addr.setInt(4, ifindex);
        addr.setByte(11, (byte) 6);
        final byte[] bytes = frame(srcMac, priority, quanta);
        addr.write(12, bytes, 0, 6);
        frame.write(0, bytes, 0, bytes.length);
    }

    /** The frame: the agent's builder, {@code priority}'s enable bit and pause time set. */
    static byte[] frame(final long srcMac, final int priority, final int quanta) {
        if (priority < 0 || priority > 7) {
            throw new IllegalArgumentException("a PFC priority is 0 to 7, got " + priority);
        }
        if (quanta < 0 || quanta > 0xffff) {
            throw new IllegalArgumentException("PFC quanta are 0 to 65535, got " + quanta);
        }
        return new PfcFrameBuilder().srcMac(srcMac).pause(priority, quanta).build();
    }

    /** Sends the frame once. */
    void send() throws IOException {
        if (closed) {
            throw new IOException("packet socket closed");
        }
        try {
            sendto(fd, frame, PfcFrameBuilder.LENGTH, 0, addr, SOCKADDR_LL_LEN);
        } catch (LastErrorException e) {
            throw new IOException("sendto failed (errno " + e.getErrorCode() + ")", e);
        }
    }

    /** Sends the frame {@code frames} times, one every {@code intervalNanos}. */
    void send(final int frames, final long intervalNanos) throws IOException {
        final long start = System.nanoTime();
        for (int i = 0; i < frames; i++) {
            final long due = start + i * intervalNanos;
            for (long wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
                LockSupport.parkNanos(wait);
            }
            if (Thread.currentThread().isInterrupted()) {
                return;
            }
            send();
        }
    }

    /** A MAC address {@code aa:bb:cc:dd:ee:ff} as 48 bits. */
    static long mac(final String text) {
        final String[] parts = text.strip().split(":");
        if (parts.length != 6) {
            throw new IllegalArgumentException("not a MAC address: " + text);
        }
        long mac = 0;
        for (var p : parts) {
            mac = mac << 8 | Integer.parseInt(p, 16);
        }
        return mac;
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
