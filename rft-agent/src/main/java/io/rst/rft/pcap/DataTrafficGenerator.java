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
 *
 * <p>Data leaves ECT(0) with RoCE's DSCP 26. With congestion ({@code rst gen --data-storm
 * --congestion}), the request of every {@value #CE_EVERY}th turn arrives marked CE and its
 * receiver answers it, before the exchange's answer, with a CNP (DSCP 48, not ECN-capable) to the
 * requester's QP; and a PFC frame pausing priority 3 (quanta 0xffff) comes after every
 * {@value #PFC_EVERY} frames: what the agent's congestion counting has to read.
 */
public final class DataTrafficGenerator {
    private static final long STEP_NANOS = 1_000;
    private static final int PSN_MASK = 0xffffff;
    /** With congestion: one turn in this many has its request CE-marked and answered by a CNP. */
    public static final int CE_EVERY = 8;
    /** With congestion: a PFC frame after every this many frames. */
    public static final int PFC_EVERY = 1000;
    /** With congestion: the priority the PFC frames pause (RoCE's usual lossless class). */
    public static final int PFC_PRIORITY = 3;
    private static final int ECT0 = 2;
    private static final int CE = 3;
    private static final int CNP_DSCP = 48;

    /** A QP pair's sides: A and B. */
    private static final int A = 0;
    private static final int B = 1;

    /** The exchanges a QP pair makes, one a turn, in this order. */
    private enum Exchange {
        A_WRITES(A, DataFrameBuilder.RC_WRITE_ONLY, DataFrameBuilder.RC_ACK),
        B_WRITES(B, DataFrameBuilder.RC_WRITE_ONLY, DataFrameBuilder.RC_ACK),
        A_READS(A, DataFrameBuilder.RC_READ_REQUEST, DataFrameBuilder.RC_READ_RESPONSE_ONLY);

        /** The side that sends the request; the other answers, naming the request's PSN. */
        final int requester;
        final int request;
        final int answer;

        Exchange(final int requester, final int request, final int answer) {
            this.requester = requester;
            this.request = request;
            this.answer = answer;
        }
    }

    private static final Exchange[] EXCHANGES = Exchange.values();

    private final int pairs;
    private final long frames;
    private final long seed;
    private final long startNanos;
    private final boolean congestion;

    /**
     * A generator without congestion.
     *
     * @param pairs QP pairs (at least 1, at most 2^21: each pair has two addresses of its own)
     * @param frames frames in all, rounded down to whole exchanges of two frames
     * @param seed random seed: the same seed and start make the same file
     * @param startNanos time of the first frame, nanoseconds since the epoch
     */
    public DataTrafficGenerator(final int pairs, final long frames, final long seed, final long startNanos) {
        this(pairs, frames, seed, startNanos, false);
    }

    /**
     * A generator.
     *
     * @param pairs QP pairs (at least 1, at most 2^21: each pair has two addresses of its own)
     * @param frames frames in all (the last exchange that does not fit whole is left out)
     * @param seed random seed: the same seed and start make the same file
     * @param startNanos time of the first frame, nanoseconds since the epoch
     * @param congestion CE marks answered by CNPs, and PFC frames (see the class's description)
     */
    public DataTrafficGenerator(final int pairs, final long frames, final long seed, final long startNanos,
            final boolean congestion) {
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
        this.congestion = congestion;
    }

    /** Writes the file; returns the number of frames. */
    public long write(final Path file) throws IOException {
        final SplittableRandom rnd = new SplittableRandom(seed);
        // by side (A, B), then by QP pair
        final int[][] qp = new int[2][pairs];
        final int[][] nextPsn = new int[2][pairs];
        for (int i = 0; i < pairs; i++) {
            // QPNs 2 and up: 0 and 1 are the special QPs
            qp[A][i] = rnd.nextInt(2, PSN_MASK + 1);
            qp[B][i] = rnd.nextInt(2, PSN_MASK + 1);
            nextPsn[A][i] = rnd.nextInt(PSN_MASK + 1);
            nextPsn[B][i] = rnd.nextInt(PSN_MASK + 1);
        }
        final DataFrameBuilder fb = new DataFrameBuilder().payload(64).dmaLength(64);
        final DataFrameBuilder cnp = new DataFrameBuilder().opcode(DataFrameBuilder.CNP).dscp(CNP_DSCP).ecn(0);
        final byte[] pfc = new PfcFrameBuilder().pause(PFC_PRIORITY, 0xffff).build();
        final byte[] frame = new byte[Math.max(fb.length() + 64, cnp.length())];
        final byte[][] ip = {new byte[4], new byte[4]};
        final int[] udp = new int[2];
        long now = startNanos;
        long written = 0;
        try (PcapWriter w = PcapWriter.pcap(file, FrameDecoder.LINKTYPE_ETHERNET, false, false)) {
            long pfcs = 0;
            for (long turn = 0; ; turn++) {
                final boolean marked = congestion && turn % CE_EVERY == 0;
                if (written + (marked ? 3 : 2) > frames) {
                    break;
                }
                final int i = (int) (turn % pairs);
                address(ip[A], i, A);
                address(ip[B], i, B);
                udp[A] = 49152 + (i & 0x3fff);
                udp[B] = 49152 + ((i + 7) & 0x3fff);
                final Exchange x = EXCHANGES[(int) (turn / pairs % EXCHANGES.length)];
                final int req = x.requester;
                final int rsp = 1 - req;
                final int psn = nextPsn[req][i];
                nextPsn[req][i] = psn + 1 & PSN_MASK;
                // the request goes to the responder's QP, the answer back to the requester's
                fb.ips(ip[req], ip[rsp]).udpPorts(udp[req], FrameDecoder.ROCEV2_PORT).opcode(x.request)
                    .destQp(qp[rsp][i]).psn(psn).ecn(marked ? CE : ECT0);
                w.write(now, frame, 0, fb.build(frame));
                now += STEP_NANOS;
                if (marked) {
                    // the receiver of the CE-marked request tells its sender's QP to slow down
                    cnp.ips(ip[rsp], ip[req]).udpPorts(udp[rsp], FrameDecoder.ROCEV2_PORT).destQp(qp[req][i]);
                    w.write(now, frame, 0, cnp.build(frame));
                    now += STEP_NANOS;
                    written++;
                }
                fb.ips(ip[rsp], ip[req]).udpPorts(udp[rsp], FrameDecoder.ROCEV2_PORT).opcode(x.answer)
                    .destQp(qp[req][i]).psn(psn).ecn(ECT0);
                w.write(now, frame, 0, fb.build(frame));
                now += STEP_NANOS;
                written += 2;
                if (congestion && written >= (pfcs + 1) * PFC_EVERY && written < frames) {
                    w.write(now, pfc, 0, pfc.length);
                    now += STEP_NANOS;
                    written++;
                    pfcs++;
                }
            }
        }
        return written;
    }

    /** Side {@code side} ({@link #A} or {@link #B}) of QP pair {@code pair}: 10.64.0.0/10, two addresses per pair. */
    private static void address(final byte[] out, final int pair, final int side) {
        final int host = pair << 1 | side;
        out[0] = 10;
        out[1] = (byte) (64 | host >>> 16 & 0x3f);
        out[2] = (byte) (host >>> 8);
        out[3] = (byte) host;
    }
}
