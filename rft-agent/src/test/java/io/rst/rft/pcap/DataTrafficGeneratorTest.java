/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.pcap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The data storm read back frame by frame, from the bytes on the wire (Ethernet, IPv4 at 14, UDP at
 * 34, BTH at 42): QP pairs taking turns round-robin, each turn one exchange, the exchanges of a pair
 * in the order A writes, B writes, A reads; each answer naming its request's PSN and going to the
 * requester's QP; each side's requests numbered on from a PSN of its own.
 */
class DataTrafficGeneratorTest {
    private static final long START_NANOS = 1_767_225_600_000_000_000L;

    @TempDir
    Path tmp;

    /** What a test reads of one frame. */
    private record Frame(long nanos, int src, int dst, int udpSrc, int udpDst, int opcode, int destQp, int psn) {
    }

    /** One side of a QP pair, as its frames show it. */
    private static final class Side {
        int address;
        int udpSrc;
        int qp = -1;
        int nextPsn = -1;
    }

    private static int u16(final byte[] bytes, final int at) {
        return (bytes[at] & 0xff) << 8 | bytes[at + 1] & 0xff;
    }

    private static int u24(final byte[] bytes, final int at) {
        return (bytes[at] & 0xff) << 16 | u16(bytes, at + 1);
    }

    private static int u32(final byte[] bytes, final int at) {
        return u16(bytes, at) << 16 | u16(bytes, at + 2);
    }

    private static List<Frame> read(final Path file) throws IOException {
        final List<Frame> frames = new ArrayList<>();
        try (CaptureFileReader r = CaptureFileReader.open(file)) {
            r.readAll((frame, nanos, linkType, ifId, buf, off, cap, orig) -> {
                final byte[] f = Arrays.copyOfRange(buf, off, off + cap);
                assertEquals(0x0800, u16(f, 12), "IPv4 frame " + frame);
                assertEquals(17, f[23], "UDP frame " + frame);
                frames.add(new Frame(nanos, u32(f, 26), u32(f, 30), u16(f, 34), u16(f, 36), f[42] & 0xff,
                    u24(f, 47), u24(f, 51)));
            });
            assertEquals("", r.damage() == null ? "" : r.damage());
        }
        return frames;
    }

    @ParameterizedTest
    @CsvSource({"1, 2, 1", "1, 7, 5", "3, 1000, 11", "7, 4201, 42", "300, 6001, 1"})
    void pairsTakeTurnsWithAWriteEachWayAndARead(final int pairs, final long asked, final long seed)
            throws IOException {
        final Path file = tmp.resolve("storm.pcap");
        final long written = new DataTrafficGenerator(pairs, asked, seed, START_NANOS).write(file);
        assertEquals(asked / 2 * 2, written, "whole exchanges of two frames");
        final List<Frame> frames = read(file);
        assertEquals(written, frames.size());
        final Side[][] sides = new Side[pairs][];
        final Set<Integer> addresses = new HashSet<>();
        for (int k = 0; k < frames.size() / 2; k++) {
            final Frame request = frames.get(2 * k);
            final Frame answer = frames.get(2 * k + 1);
            final String at = "turn " + k;
            assertEquals(START_NANOS + 2_000L * k, request.nanos(), at + ": a frame every microsecond");
            assertEquals(request.nanos() + 1_000L, answer.nanos(), at);
            assertEquals(4791, request.udpDst(), at);
            assertEquals(4791, answer.udpDst(), at);
            final int pair = k % pairs;
            final int exchange = k / pairs % 3;
            if (sides[pair] == null) {
                // a pair's first turn: A writes to B
                assertEquals(0, exchange, at);
                sides[pair] = new Side[] {new Side(), new Side()};
                sides[pair][0].address = request.src();
                sides[pair][0].udpSrc = request.udpSrc();
                sides[pair][1].address = request.dst();
                sides[pair][1].udpSrc = answer.udpSrc();
                assertTrue(addresses.add(request.src()) && addresses.add(request.dst()),
                    at + ": each pair has two addresses of its own");
                for (int ip : new int[] {request.src(), request.dst()}) {
                    assertEquals(10 << 24 | 64 << 16, ip & 0xffc00000, at + ": in 10.64.0.0/10");
                }
            }
            final Side requester = sides[pair][exchange == 1 ? 1 : 0];
            final Side responder = sides[pair][exchange == 1 ? 0 : 1];
            assertEquals(exchange == 2 ? DataFrameBuilder.RC_READ_REQUEST : DataFrameBuilder.RC_WRITE_ONLY,
                request.opcode(), at);
            assertEquals(exchange == 2 ? DataFrameBuilder.RC_READ_RESPONSE_ONLY : DataFrameBuilder.RC_ACK,
                answer.opcode(), at);
            assertEquals(List.of(requester.address, responder.address, requester.udpSrc),
                List.of(request.src(), request.dst(), request.udpSrc()), at + ": the request");
            assertEquals(List.of(responder.address, requester.address, responder.udpSrc),
                List.of(answer.src(), answer.dst(), answer.udpSrc()), at + ": the answer");
            assertEquals(request.psn(), answer.psn(), at + ": the answer names its request's PSN");
            // a side's requests go to the other side's QP, its answers to the requester's
            expect(responder, request.destQp(), at);
            expect(requester, answer.destQp(), at);
            if (requester.nextPsn >= 0) {
                assertEquals(requester.nextPsn, request.psn(), at + ": the requester's PSNs run on");
            }
            requester.nextPsn = request.psn() + 1 & 0xffffff;
        }
        for (Side[] pair : sides) {
            if (pair != null) {
                assertTrue(pair[0].qp >= 2 && pair[1].qp >= 2, "QPNs of 2 and up: 0 and 1 are the special QPs");
            }
        }
    }

    /** The QP a side is addressed at: the same every time. */
    private static void expect(final Side side, final int qp, final String at) {
        if (side.qp < 0) {
            side.qp = qp;
        }
        assertEquals(side.qp, qp, at + ": the QP of " + side.address);
    }

    @Test
    void theSameSeedAndStartMakeTheSameFileAndAnotherSeedAnother() throws IOException {
        final Path a = tmp.resolve("a.pcap");
        final Path b = tmp.resolve("b.pcap");
        final Path c = tmp.resolve("c.pcap");
        new DataTrafficGenerator(5, 600, 1, START_NANOS).write(a);
        new DataTrafficGenerator(5, 600, 1, START_NANOS).write(b);
        new DataTrafficGenerator(5, 600, 2, START_NANOS).write(c);
        assertEquals(-1L, Files.mismatch(a, b));
        assertNotEquals(-1L, Files.mismatch(a, c));
    }
}
