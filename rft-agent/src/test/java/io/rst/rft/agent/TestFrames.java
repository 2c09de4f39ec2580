/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.agent;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Builds Ethernet/IPv4/UDP frames and writes classic pcap files, for tests. */
final class TestFrames {
    private TestFrames() {
    }

    /** An Ethernet II / IPv4 / UDP frame to port 4791 whose payload is {@code payload}. */
    static byte[] udp(final int srcIp, final int dstIp, final int srcPort, final byte[] payload) {
        final ByteBuffer b = ByteBuffer.allocate(14 + 20 + 8 + payload.length);
        b.put(new byte[] {2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1}).putShort((short) 0x0800);
        b.put((byte) 0x45).put((byte) 0).putShort((short) (20 + 8 + payload.length)).putInt(0)
            .put((byte) 64).put((byte) 17).putShort((short) 0).putInt(srcIp).putInt(dstIp);
        b.putShort((short) srcPort).putShort((short) 4791).putShort((short) (8 + payload.length)).putShort((short) 0);
        b.put(payload);
        return b.array();
    }

    /** Writes frames as a microsecond pcap file, one frame a millisecond from {@code startMicros}. */
    static void writePcap(final Path file, final List<byte[]> frames, final long startMicros) throws IOException {
        try (OutputStream out = Files.newOutputStream(file)) {
            final ByteBuffer h = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
            h.putInt(0xa1b2c3d4).putShort((short) 2).putShort((short) 4).putInt(0).putInt(0).putInt(65535).putInt(1);
            out.write(h.array());
            long time = startMicros;
            for (byte[] f : frames) {
                final ByteBuffer r = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
                r.putInt((int) (time / 1_000_000L)).putInt((int) (time % 1_000_000L)).putInt(f.length).putInt(f.length);
                out.write(r.array());
                out.write(f);
                time += 1000;
            }
        }
    }
}
