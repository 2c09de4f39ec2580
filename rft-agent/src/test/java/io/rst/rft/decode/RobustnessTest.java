/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rst.rft.pcap.CaptureFileReader;
import io.rst.rft.pcap.CmTrafficGenerator;
import io.rst.rft.session.SessionConfig;
import io.rst.rft.session.SessionTable;
import io.rst.rft.testutil.Captures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad input never escapes as an exception: every frame is decoded or skipped with a reason, the
 * session table stays within its limit, and damaged files end with a note, not a crash.
 */
class RobustnessTest {
    @TempDir
    Path tmp;

    private final FrameDecoder decoder = new FrameDecoder();
    private final CmMessage msg = new CmMessage();
    private final JsonBytes json = new JsonBytes(1024);
    private final long[] counts = new long[DecodeResult.values().length];
    private final SessionTable table = new SessionTable(new SessionConfig(1000, 1_000_000L, 0L, 8), null);
    private long frames;

    private void decodeOne(final int linkType, final byte[] buf, final int off, final int len) {
        frames++;
        final DecodeResult r = decoder.decode(linkType, buf, off, len, msg);
        assertNotNull(r);
        counts[r.ordinal()]++;
        if (r == DecodeResult.CM_MAD) {
            json.reset();
            msg.appendJson(json);
            assertTrue(json.length() > 0);
            table.accept(msg, "p" + (frames % 3));
        }
        assertTrue(table.size() <= 1000, "table bounded");
    }

    private List<byte[]> framesOf(final Path file) throws IOException {
        final List<byte[]> out = new ArrayList<>();
        try (CaptureFileReader r = CaptureFileReader.open(file)) {
            r.readAll((f, ns, lt, ifId, buf, off, cap, orig) -> out.add(Arrays.copyOfRange(buf, off, off + cap)));
        }
        return out;
    }

    @Test
    void mutatedTruncatedAndRandomFramesAreDecodedOrSkippedWithAReason() throws IOException {
        final Path gen = tmp.resolve("g.pcap");
        new CmTrafficGenerator(CmTrafficGenerator.Options.allTypes(44, 3)).write(gen);
        final List<byte[]> seeds = new ArrayList<>(framesOf(gen));
        try {
            for (Path p : Captures.all()) {
                seeds.addAll(framesOf(p));
            }
        } catch (org.opentest4j.TestAbortedException e) {
            // no real captures here: generated frames still cover every layer
        }
        final SplittableRandom rnd = new SplittableRandom(99);
        final int[] linkTypes = {1, 1, 1, 113, 276, 101, 228, 229, 12, 147};
        for (byte[] s : seeds) {
            // every truncation of the frame
            for (int len = 0; len <= s.length; len++) {
                decodeOne(1, s, 0, len);
            }
            // bit flips and byte changes in the headers and MAD
            for (int k = 0; k < 60; k++) {
                final byte[] c = s.clone();
                final int flips = 1 + rnd.nextInt(4);
                for (int f = 0; f < flips && c.length > 0; f++) {
                    final int at = rnd.nextInt(Math.min(c.length, 120));
                    c[at] = rnd.nextBoolean() ? (byte) (c[at] ^ 1 << rnd.nextInt(8)) : (byte) rnd.nextInt(256);
                }
                decodeOne(linkTypes[rnd.nextInt(linkTypes.length)], c, 0, c.length);
            }
        }
        // random garbage of every size
        final byte[] g = new byte[400];
        for (int k = 0; k < 50_000; k++) {
            rnd.nextBytes(g);
            if (k % 2 == 0) {
                g[12] = 0x08; // IPv4 ethertype more often, to reach deeper layers
                g[13] = 0;
                g[14] = 0x45;
                g[23] = 17;
            }
            decodeOne(linkTypes[k % linkTypes.length], g, 0, rnd.nextInt(g.length + 1));
        }
        // offsets outside the buffer are a skip, not an exception
        decodeOne(1, g, 390, 20);
        decodeOne(1, g, -1, 5);
        long sum = 0;
        for (long c : counts) {
            sum += c;
        }
        assertEquals(frames, sum, "every frame decoded or skipped with a reason");
        assertTrue(counts[DecodeResult.CM_MAD.ordinal()] > 0 && counts[DecodeResult.TRUNCATED.ordinal()] > 0);
        table.expire(Long.MAX_VALUE / 2);
        assertTrue(table.size() <= 1000);
    }

    @Test
    void cutAndDamagedFilesEndWithANoteNotAnException() throws IOException {
        final Path gen = tmp.resolve("g.pcap");
        new CmTrafficGenerator(CmTrafficGenerator.Options.allTypes(22, 5)).write(gen);
        final byte[] whole = Files.readAllBytes(gen);
        final SplittableRandom rnd = new SplittableRandom(1);
        for (int k = 0; k < 300; k++) {
            final byte[] cut = Arrays.copyOf(whole, 24 + rnd.nextInt(whole.length - 24));
            if (k % 3 == 0) {
                cut[24 + rnd.nextInt(cut.length - 24)] = (byte) 0xff;
            }
            final Path p = tmp.resolve("cut.pcap");
            Files.write(p, cut);
            try (CaptureFileReader r = CaptureFileReader.open(p)) {
                final long[] n = {0};
                r.readAll((f, ns, lt, ifId, buf, off, cap, orig) -> {
                    n[0]++;
                    decoder.decode(lt, buf, off, cap, msg);
                });
                assertEquals(r.frames(), n[0]);
                assertTrue(r.damage() != null || cut.length == whole.length || n[0] > 0);
            }
        }
    }

    @Test
    void theSilentlyTruncatedCaptureIsReadToTheEnd() throws IOException {
        final Path p = Captures.dir().resolve("linux-riscv-dev__rdma-nccl2.pcap");
        try (CaptureFileReader r = CaptureFileReader.open(p)) {
            r.readAll((f, ns, lt, ifId, buf, off, cap, orig) -> decodeOne(lt, buf, off, cap));
            assertEquals(520, r.frames());
            assertEquals(null, r.damage());
        }
        assertEquals(520, frames);
        assertEquals(0, counts[DecodeResult.CM_MAD.ordinal()]);
    }
}
