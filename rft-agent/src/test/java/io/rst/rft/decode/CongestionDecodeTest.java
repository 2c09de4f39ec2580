/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rst.rft.pcap.DataFrameBuilder;
import io.rst.rft.pcap.PcapWriter;
import io.rst.rft.pcap.PfcFrameBuilder;
import io.rst.rft.testutil.Tshark;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The congestion signals the decoder reads: the IP ECN field and DSCP of RoCE packets (IPv4 and
 * IPv6, every codepoint), CNPs, and PFC frames (every priority bit, the quanta edges 0 and
 * 0xffff, frames cut short), checked against the bytes the builders wrote and against tshark.
 */
class CongestionDecodeTest {
    private static final byte[] A4 = {10, 0, 0, 1};
    private static final byte[] B4 = {10, 0, 0, 2};
    private static final byte[] A6 = v6(1);
    private static final byte[] B6 = v6(2);

    private final FrameDecoder decoder = new FrameDecoder();
    private final CmMessage msg = new CmMessage();

    @TempDir
    Path tmp;

    private static byte[] v6(final int last) {
        final byte[] a = new byte[16];
        a[0] = (byte) 0xfd;
        a[15] = (byte) last;
        return a;
    }

    @Test
    void everyEcnCodepointAndDscpOfIpv4AndIpv6() {
        for (boolean six : new boolean[] {false, true}) {
            for (int ecn = 0; ecn < 4; ecn++) {
                for (int dscp : new int[] {0, 1, 26, 46, 48, 63}) {
                    final byte[] f = new DataFrameBuilder().ips(six ? A6 : A4, six ? B6 : B4).dscp(dscp).ecn(ecn)
                        .build();
                    final String what = (six ? "IPv6" : "IPv4") + " ECN " + ecn + " DSCP " + dscp;
                    assertEquals(DecodeResult.ROCE_DATA, decoder.decodeEthernet(f, 0, f.length, msg), what);
                    assertEquals(ecn, msg.ecn(), what);
                    assertEquals(dscp, msg.dscp(), what);
                    assertEquals(ecn != 0, msg.isEcnCapable(), what);
                    assertEquals(ecn == 3, msg.isCongestionExperienced(), what);
                    assertFalse(msg.isCnp(), what);
                }
            }
        }
    }

    @Test
    void aCnpIsRoceDataToTheSendersQp() {
        final byte[] f = new DataFrameBuilder().ips(B4, A4).opcode(DataFrameBuilder.CNP).destQp(0xabcdef).dscp(48)
            .ecn(0).build();
        assertEquals(DecodeResult.ROCE_DATA, decoder.decodeEthernet(f, 0, f.length, msg));
        assertTrue(msg.isCnp());
        assertEquals(0x81, msg.bthOpcode());
        assertEquals(0xabcdef, msg.bthDestQp());
        assertEquals(0, msg.bthPsn());
        assertEquals(48, msg.dscp());
        // BTH byte 4: BECN set; byte 8: no AckReq; then 16 reserved bytes and the ICRC
        final int bth = 14 + 20 + 8;
        assertEquals(0x40, f[bth + 4] & 0xff);
        assertEquals(0, f[bth + 8] & 0xff);
        assertEquals(bth + 12 + 16 + 4, f.length);
    }

    @Test
    void pfcFramesOfEveryPriorityAndTheQuantaEdges() {
        for (int p = 0; p < 8; p++) {
            for (int quanta : new int[] {0, 1, 0x7fff, 0xffff}) {
                final byte[] f = new PfcFrameBuilder().srcMac(0x0a0b0c0d0e0fL).pause(p, quanta).build();
                final String what = "priority " + p + " quanta " + quanta;
                assertEquals(DecodeResult.PFC, decoder.decodeEthernet(f, 0, f.length, msg), what);
                assertEquals(1 << p, msg.pfcEnable(), what);
                for (int q = 0; q < 8; q++) {
                    assertEquals(q == p ? quanta : 0, msg.pfcQuanta(q), what + ", time of " + q);
                }
                assertEquals(0x0a0b0c0d0e0fL, msg.srcMac(), what);
            }
        }
        // every priority at once, each its own time; the reserved high byte of the vector is ignored
        final PfcFrameBuilder all = new PfcFrameBuilder();
        for (int p = 0; p < 8; p++) {
            all.pause(p, p * 1000 + 7);
        }
        final byte[] f = all.enable(0xabff).build();
        assertEquals(DecodeResult.PFC, decoder.decodeEthernet(f, 0, f.length, msg));
        assertEquals(0xff, msg.pfcEnable());
        for (int p = 0; p < 8; p++) {
            assertEquals(p * 1000 + 7, msg.pfcQuanta(p));
        }
        // a time given to a priority not enabled is on the wire, and reads as such
        final byte[] g = new PfcFrameBuilder().quanta(5, 0xffff).build();
        assertEquals(DecodeResult.PFC, decoder.decodeEthernet(g, 0, g.length, msg));
        assertEquals(0, msg.pfcEnable());
        assertEquals(0xffff, msg.pfcQuanta(5));
    }

    @Test
    void pfcFramesCutShortAreCountedSkipsAndOtherMacControlIsNotOurs() {
        final byte[] f = new PfcFrameBuilder().pause(3, 0xffff).build();
        for (int len = 0; len < PfcFrameBuilder.PFC_BYTES; len++) {
            final DecodeResult r = decoder.decodeEthernet(f, 0, len, msg);
            assertTrue(r.isSkipped(), "cut at " + len);
            assertEquals(len < 16 ? DecodeResult.TRUNCATED : DecodeResult.BAD_PFC, r, "cut at " + len);
        }
        assertEquals(DecodeResult.PFC, decoder.decodeEthernet(f, 0, PfcFrameBuilder.PFC_BYTES, msg));
        assertEquals("bad_pfc", DecodeResult.BAD_PFC.reason());
        assertFalse(DecodeResult.PFC.isSkipped());
        final byte[] pause = new PfcFrameBuilder().opcode(0x0001).quanta(0, 0xffff).build();
        assertEquals(DecodeResult.NOT_IP, decoder.decodeEthernet(pause, 0, pause.length, msg), "802.3x PAUSE");
    }

    @Test
    void aPfcFrameAsJson() {
        final byte[] f = new PfcFrameBuilder().srcMac(0x02000000abcdL).pause(3, 0xffff).pause(0, 0).build();
        msg.setCapture(9, 1_767_225_600_000_300_000L);
        msg.setTimeDigits(6);
        assertEquals(DecodeResult.PFC, decoder.decodeEthernet(f, 0, f.length, msg));
        final JsonBytes j = new JsonBytes(16);
        msg.appendPfcJson(j);
        assertEquals("{\"frame\":9,\"time\":1767225600.000300,\"src_mac\":\"02:00:00:00:ab:cd\",\"msg\":\"PFC\","
            + "\"class_enable\":9,\"quanta\":[0,0,0,65535,0,0,0,0]}", j.toString());
    }

    /** Decoding ECN-marked data, CNPs and PFC frames allocates nothing, once warm. */
    @Test
    void decodingCongestionSignalsAllocatesNothing() {
        final byte[][] frames = {
            new DataFrameBuilder().ecn(3).build(), new DataFrameBuilder().ips(A6, B6).ecn(1).build(),
            new DataFrameBuilder().opcode(DataFrameBuilder.CNP).build(), new PfcFrameBuilder().pause(3, 0xffff).build(),
            Arrays.copyOf(new PfcFrameBuilder().pause(1, 1).build(), 20),
        };
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        final long id = Thread.currentThread().threadId();
        long sum = 0;
        for (int i = 0; i < 200_000; i++) {
            final byte[] f = frames[i % frames.length];
            sum += decoder.decodeEthernet(f, 0, f.length, msg).ordinal() + msg.ecn() + msg.pfcQuanta(3);
        }
        final long before = threads.getThreadAllocatedBytes(id);
        for (int i = 0; i < 200_000; i++) {
            final byte[] f = frames[i % frames.length];
            sum += decoder.decodeEthernet(f, 0, f.length, msg).ordinal() + msg.ecn() + msg.pfcQuanta(3);
        }
        final long allocated = threads.getThreadAllocatedBytes(id) - before;
        assertTrue(sum > 0);
        // one object per frame would be 3.2 MB at least
        assertTrue(allocated < 64 * 1024, "bytes allocated decoding 200,000 frames: " + allocated);
    }

    /**
     * tshark reads the generated frames as we do: the ECN field and DSCP, the CNP's opcode and
     * destination QP, and each PFC frame's vector and 8 pause times.
     */
    @Test
    void tsharkReadsTheGeneratedFramesAsWeDo() throws Exception {
        Tshark.assumeInstalled();
        final List<byte[]> frames = new ArrayList<>();
        for (int ecn = 0; ecn < 4; ecn++) {
            frames.add(new DataFrameBuilder().dscp(ecn * 10 + 3).ecn(ecn).psn(ecn).build());
            frames.add(new DataFrameBuilder().ips(A6, B6).dscp(ecn * 10 + 5).ecn(ecn).psn(ecn).build());
        }
        frames.add(new DataFrameBuilder().ips(B4, A4).opcode(DataFrameBuilder.CNP).destQp(0x12345).dscp(48).ecn(0)
            .build());
        frames.add(new DataFrameBuilder().ips(B6, A6).opcode(DataFrameBuilder.CNP).destQp(0xfedcba).ecn(2).build());
        for (int p = 0; p < 8; p++) {
            frames.add(new PfcFrameBuilder().pause(p, p % 2 == 0 ? 0xffff : 0).build());
        }
        final PfcFrameBuilder all = new PfcFrameBuilder();
        for (int p = 0; p < 8; p++) {
            all.pause(p, 0x1111 * p);
        }
        frames.add(all.build());
        final Path pcap = tmp.resolve("congestion.pcap");
        try (PcapWriter w = PcapWriter.pcap(pcap, FrameDecoder.LINKTYPE_ETHERNET, false, false)) {
            long time = 1_767_225_600_000_000_000L;
            for (byte[] f : frames) {
                w.write(time, f, 0, f.length);
                time += 1_000;
            }
        }
        final List<String> fields = new ArrayList<>(List.of("ip.dsfield.ecn", "ipv6.tclass.ecn", "ip.dsfield.dscp",
            "ipv6.tclass.dscp", "infiniband.bth.opcode", "infiniband.bth.destqp", "macc.cbfc.enbv"));
        for (int p = 0; p < 8; p++) {
            fields.add("macc.cbfc.pause_time.c" + p);
        }
        final List<String[]> rows = Tshark.fields(pcap, List.of(), fields);
        assertEquals(frames.size(), rows.size());
        int pfcFrames = 0;
        int cnps = 0;
        for (int i = 0; i < rows.size(); i++) {
            final String[] c = rows.get(i);
            final byte[] f = frames.get(i);
            final DecodeResult r = decoder.decodeEthernet(f, 0, f.length, msg);
            final String what = "frame " + (i + 1) + ": " + String.join(" ", c);
            if (r == DecodeResult.PFC) {
                pfcFrames++;
                assertEquals(msg.pfcEnable(), Tshark.number(c[6]), what);
                for (int p = 0; p < 8; p++) {
                    assertEquals(msg.pfcQuanta(p), Tshark.number(c[7 + p]), what + ", priority " + p);
                }
                continue;
            }
            assertEquals(DecodeResult.ROCE_DATA, r, what);
            assertEquals(msg.ecn(), Tshark.number(c[0].isEmpty() ? c[1] : c[0]), what);
            assertEquals(msg.dscp(), Tshark.number(c[2].isEmpty() ? c[3] : c[2]), what);
            assertEquals(msg.bthOpcode(), Tshark.number(c[4]), what);
            if (msg.isCnp()) {
                cnps++;
                assertEquals(msg.bthDestQp(), Tshark.number(c[5]), what);
            }
        }
        assertEquals(9, pfcFrames);
        assertEquals(2, cnps);
    }
}
