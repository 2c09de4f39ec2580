/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.agent;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.Random;

/**
 * Sends RoCEv2 UDP datagrams to port 4791, run by tests inside a network namespace
 * ({@code ip netns exec NS java -cp ... UdpSender DST COUNT MODE [SEED [PPS]]}), at most PPS a
 * second if given. Modes: {@code cm}
 * a CM MAD to QP1 (BTH, DETH, MAD header of a REQ with comm ID SEED+i, zero attribute data, ICRC);
 * {@code data} a BTH to QP 0x000123 (not CM); {@code junk} random bytes whose BTH dest QP is 1,
 * of random length 0..400 (malformed CM for the decoder).
 */
public final class UdpSender {
    private UdpSender() {
    }

    public static void main(final String[] args) throws Exception {
        final InetSocketAddress dst = new InetSocketAddress(args[0], 4791);
        final int count = Integer.parseInt(args[1]);
        final String mode = args[2];
        final int seed = args.length > 3 ? Integer.parseInt(args[3]) : 1;
        final Random random = new Random(seed);
        final long gapNanos = args.length > 4 ? 1_000_000_000L / Integer.parseInt(args[4]) : 0;
        final long t0 = System.nanoTime();
        try (DatagramChannel ch = DatagramChannel.open()) {
            ch.bind(new InetSocketAddress(0));
            for (int i = 0; i < count; i++) {
                final ByteBuffer b = switch (mode) {
                    case "cm" -> cm(seed + i);
                    case "data" -> ByteBuffer.wrap(new byte[] {0x04, 0, (byte) 0xff, (byte) 0xff, 0, 0, 1, 0x23,
                        0, 0, 0, 1, 9, 9, 9, 9});
                    case "junk" -> {
                        final byte[] p = new byte[random.nextInt(401)];
                        random.nextBytes(p);
                        if (p.length >= 8) {
                            p[4] = 0;
                            p[5] = 0;
                            p[6] = 0;
                            p[7] = 1;
                        }
                        yield ByteBuffer.wrap(p);
                    }
                    default -> throw new IllegalArgumentException(mode);
                };
                if (gapNanos > 0) {
                    final long wait = t0 + i * gapNanos - System.nanoTime();
                    if (wait > 0) {
                        java.util.concurrent.locks.LockSupport.parkNanos(wait);
                    }
                }
                ch.send(b, dst);
            }
        }
    }

    /** BTH (12) + DETH (8) + MAD (256) + ICRC (4) of a CM REQ. */
    static ByteBuffer cm(final int commId) {
        final ByteBuffer b = ByteBuffer.allocate(12 + 8 + 256 + 4);
        // BTH: UD SEND only, pkey 0xffff, dest QP 1, PSN
        b.put((byte) 0x64).put((byte) 0).putShort((short) 0xffff).putInt(1).putInt(commId & 0xffffff);
        // DETH: the GSI Q_Key, source QP 1
        b.putInt(0x80010000).putInt(1);
        // MAD header: base version 1, class CM (7), class version 2, method Send (3), TID, REQ (0x10)
        b.put((byte) 1).put((byte) 7).put((byte) 2).put((byte) 3).putInt(0);
        b.putLong(0x0000000100000000L | Integer.reverseBytes(commId) & 0xffffffffL);
        b.putShort((short) 0x0010).putShort((short) 0).putInt(0);
        // REQ: local comm ID, then zeros
        b.putInt(commId);
        b.position(b.capacity());
        b.flip();
        return b;
    }
}
