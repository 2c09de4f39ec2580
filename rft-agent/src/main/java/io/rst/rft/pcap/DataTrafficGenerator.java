/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.pcap;

import io.rst.rft.decode.FrameDecoder;
import java.io.IOException;
import java.nio.file.Path;
import java.util.SplittableRandom;

/**
 * Writes RoCEv2 RC data traffic without CM to a pcap file, as NCCL or perftest without {@code -R}
 * make it: {@code pairs} QP pairs, each between two IPv4 addresses of its own, with random QPNs and
 * random initial PSNs (24 bits), taking turns round-robin. Each turn of a QP pair is one exchange:
 * <ul>
 * <li>A writes to B (RDMA WRITE Only) and B acknowledges it (ACK naming the WRITE's PSN), or</li>
 * <li>B writes to A and A acknowledges it, or</li>
 * <li>A reads from B (READ request) and B answers (READ response Only with the request's PSN).</li>
 * </ul>
 * Every frame is a data packet whose answer names its request's PSN, so an agent sampling every
 * data packet ({@code --data-sample 1}) pairs every QP pair into one data-learned session. The
 * file is what {@code rst gen --data-storm} writes for the agent's capture benchmark.
 */
public final class DataTrafficGenerator {
    private static final long STEP_NANOS = 1_000;
    private static final int PSN_MASK = 0xffffff;

    private final int pairs;
    private final long frames;
    private final long seed;
    private final long startNanos;

    /**
     * A generator.
     *
     * @param pairs QP pairs (at least 1, at most 2^21: each pair has two addresses of its own)
     * @param frames frames in all, rounded down to whole exchanges of two frames
     * @param seed random seed: the same seed and start make the same file
     * @param startNanos time of the first frame, nanoseconds since the epoch
     */
    public DataTrafficGenerator(final int pairs, final long frames, final long seed, final long startNanos) {
        if (pairs < 1 || pairs > 1 << 21) {
            throw new IllegalArgumentException("QP pairs must be 1 to " + (1 << 21) + ", got " + pairs);
        }
        if (frames < 2) {
            throw new IllegalArgumentException("at least 2 frames, got " + frames);
        }
        this.pairs = pairs;
        this.frames = frames;
        this.seed = seed;
        this.startNanos = startNanos;
    }

    /** Writes the file; returns the number of frames. */
    public long write(final Path file) throws IOException {
        final SplittableRandom rnd = new SplittableRandom(seed);
        final int[] qpA = new int[pairs];
        final int[] qpB = new int[pairs];
        final int[] psnA = new int[pairs];
        final int[] psnB = new int[pairs];
        for (int i = 0; i < pairs; i++) {
            // QPNs 2 and up: 0 and 1 are the special QPs
            qpA[i] = rnd.nextInt(2, PSN_MASK + 1);
            qpB[i] = rnd.nextInt(2, PSN_MASK + 1);
            psnA[i] = rnd.nextInt(PSN_MASK + 1);
            psnB[i] = rnd.nextInt(PSN_MASK + 1);
        }
        final DataFrameBuilder fb = new DataFrameBuilder().payload(64).dmaLength(64);
        final byte[] frame = new byte[fb.length() + 64];
        final byte[] a = new byte[4];
        final byte[] b = new byte[4];
        long now = startNanos;
        long written = 0;
        try (PcapWriter w = PcapWriter.pcap(file, FrameDecoder.LINKTYPE_ETHERNET, false, false)) {
            for (long turn = 0; written + 2 <= frames; turn++) {
                final int i = (int) (turn % pairs);
                address(a, i, 0);
                address(b, i, 1);
                final int udpA = 49152 + (i & 0x3fff);
                final int udpB = 49152 + ((i + 7) & 0x3fff);
                switch ((int) (turn / pairs % 3)) {
                    case 0 -> {
                        final int psn = psnA[i];
                        psnA[i] = psn + 1 & PSN_MASK;
                        fb.ips(a, b).udpPorts(udpA, FrameDecoder.ROCEV2_PORT)
                            .opcode(DataFrameBuilder.RC_WRITE_ONLY).destQp(qpB[i]).psn(psn);
                        w.write(now, frame, 0, fb.build(frame));
                        fb.ips(b, a).udpPorts(udpB, FrameDecoder.ROCEV2_PORT)
                            .opcode(DataFrameBuilder.RC_ACK).destQp(qpA[i]).psn(psn);
                    }
                    case 1 -> {
                        final int psn = psnB[i];
                        psnB[i] = psn + 1 & PSN_MASK;
                        fb.ips(b, a).udpPorts(udpB, FrameDecoder.ROCEV2_PORT)
                            .opcode(DataFrameBuilder.RC_WRITE_ONLY).destQp(qpA[i]).psn(psn);
                        w.write(now, frame, 0, fb.build(frame));
                        fb.ips(a, b).udpPorts(udpA, FrameDecoder.ROCEV2_PORT)
                            .opcode(DataFrameBuilder.RC_ACK).destQp(qpB[i]).psn(psn);
                    }
                    default -> {
                        final int psn = psnA[i];
                        psnA[i] = psn + 1 & PSN_MASK;
                        fb.ips(a, b).udpPorts(udpA, FrameDecoder.ROCEV2_PORT)
                            .opcode(DataFrameBuilder.RC_READ_REQUEST).destQp(qpB[i]).psn(psn);
                        w.write(now, frame, 0, fb.build(frame));
                        fb.ips(b, a).udpPorts(udpB, FrameDecoder.ROCEV2_PORT)
                            .opcode(DataFrameBuilder.RC_READ_RESPONSE_ONLY).destQp(qpA[i]).psn(psn);
                    }
                }
                now += STEP_NANOS;
                w.write(now, frame, 0, fb.build(frame));
                now += STEP_NANOS;
                written += 2;
            }
        }
        return written;
    }

    /** Side {@code side} (0 or 1) of QP pair {@code pair}: 10.64.0.0/10, two addresses per pair. */
    private static void address(final byte[] out, final int pair, final int side) {
        final int host = pair << 1 | side;
        out[0] = 10;
        out[1] = (byte) (64 | host >>> 16 & 0x3f);
        out[2] = (byte) (host >>> 8);
        out[3] = (byte) host;
    }
}
