/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.pcap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.rst.rft.decode.CmMessage;
import io.rst.rft.decode.CmMessageType;
import io.rst.rft.decode.DecodeResult;
import io.rst.rft.decode.FrameDecoder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The same CM frames written as pcap (both byte orders, micro and nano) and pcapng (both byte
 * orders, several interfaces with names and resolutions, Ethernet, SLL, SLL2 and raw IP) decode
 * to the same messages, times and interface names.
 */
class CaptureFileReaderTest {
    private static final long T0 = 1_767_225_600_123_456_789L;

    @TempDir
    Path tmp;

    private static byte[] frame(final CmMessageType type, final int cid) {
        final byte[] b = new byte[1024];
        final int len = new CmFrameBuilder().type(type).commIds(cid, cid + 1).localQpn(cid & 0xffffff).build(b);
        return java.util.Arrays.copyOf(b, len);
    }

    /** The frame re-framed for a linktype: Ethernet as is, SLL/SLL2 headers, or the bare IP packet. */
    private static byte[] reframe(final byte[] eth, final int linkType) {
        final byte[] ip = java.util.Arrays.copyOfRange(eth, 14, eth.length);
        return switch (linkType) {
            case 1 -> eth;
            case 113 -> {
                final byte[] b = new byte[16 + ip.length];
                b[14] = 0x08;
                System.arraycopy(ip, 0, b, 16, ip.length);
                yield b;
            }
            case 276 -> {
                final byte[] b = new byte[20 + ip.length];
                b[0] = 0x08;
                System.arraycopy(ip, 0, b, 20, ip.length);
                yield b;
            }
            default -> ip;
        };
    }

    private record Seen(long frame, long ns, int ifId, String ifName, CmMessageType type, int cid) {
    }

    private static List<Seen> read(final Path path) throws IOException {
        final List<Seen> out = new ArrayList<>();
        final FrameDecoder d = new FrameDecoder();
        final CmMessage m = new CmMessage();
        try (CaptureFileReader r = CaptureFileReader.open(path)) {
            r.readAll((f, ns, lt, ifId, buf, off, cap, orig) -> {
                assertEquals(DecodeResult.CM_MAD, d.decode(lt, buf, off, cap, m));
                out.add(new Seen(f, ns, ifId, r.interfaceName(ifId), m.type(), m.localCommId()));
            });
            assertNull(r.damage());
        }
        return out;
    }

    @ParameterizedTest
    @CsvSource({"false,false", "true,false", "false,true", "true,true"})
    void pcapInBothByteOrdersAndResolutions(final boolean big, final boolean nanos) throws IOException {
        final Path p = tmp.resolve("f.pcap");
        try (PcapWriter w = PcapWriter.pcap(p, 1, big, nanos)) {
            w.write(T0, frame(CmMessageType.REQ, 7), 0, frame(CmMessageType.REQ, 7).length);
            w.write(T0 + 5_000, frame(CmMessageType.REP, 9), 0, frame(CmMessageType.REP, 9).length);
        }
        final List<Seen> s = read(p);
        final long t0 = nanos ? T0 : T0 / 1000 * 1000;
        assertEquals(List.of(new Seen(1, t0, 0, null, CmMessageType.REQ, 7),
            new Seen(2, t0 + 5_000, 0, null, CmMessageType.REP, 9)), s);
    }

    @ParameterizedTest
    @CsvSource({"false", "true"})
    void pcapngWithSeveralInterfacesLinktypesAndResolutions(final boolean big) throws IOException {
        final Path p = tmp.resolve("f.pcapng");
        final int[] lts = {1, 113, 276, 101};
        final String[] names = {"swp1", "swp2", null, "raw0"};
        final boolean[] ns = {true, false, true, false};
        try (PcapWriter w = PcapWriter.pcapng(p, big, lts, names, ns)) {
            for (int i = 0; i < 8; i++) {
                final byte[] f = reframe(frame(CmMessageType.DREQ, 100 + i), lts[i % 4]);
                w.write(i % 4, T0 + i, f, 0, f.length, f.length);
            }
        }
        final List<Seen> s = read(p);
        assertEquals(8, s.size());
        for (int i = 0; i < 8; i++) {
            final long t = ns[i % 4] ? T0 + i : (T0 + i) / 1000 * 1000;
            assertEquals(new Seen(i + 1, t, i % 4, names[i % 4], CmMessageType.DREQ, 100 + i), s.get(i));
        }
    }

    @Test
    void notACaptureIsRefusedAtOpen() throws IOException {
        final Path p = tmp.resolve("x.txt");
        Files.writeString(p, "hello, not a capture", StandardCharsets.UTF_8);
        assertThrows(NotACaptureException.class, () -> CaptureFileReader.open(p));
        final Path empty = tmp.resolve("empty.pcap");
        Files.write(empty, new byte[0]);
        assertThrows(NotACaptureException.class, () -> CaptureFileReader.open(empty));
    }
}
