/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rst.rft.decode.CmMessageType;
import io.rst.rft.pcap.CmFrameBuilder;
import io.rst.rft.pcap.DataFrameBuilder;
import io.rst.rft.pcap.PfcFrameBuilder;
import org.junit.jupiter.api.Test;
import org.pcap4j.core.BpfProgram;
import org.pcap4j.core.Pcaps;
import org.pcap4j.packet.namednumber.DataLinkType;

/**
 * The filters compiled by the real libpcap and run on real frames: CM always passes, data passes
 * when its PSN is a multiple of the sampling, in IPv4, IPv6 and behind a VLAN tag; with congestion
 * counting every CNP and PFC frame passes too.
 */
class CaptureFiltersTest {
    private final byte[] frame = new byte[1024];

    private static BpfProgram compile(final String filter) throws Exception {
        return Pcaps.compileFilter(65535, DataLinkType.EN10MB, filter, BpfProgram.BpfCompileMode.OPTIMIZE,
            (java.net.Inet4Address) java.net.InetAddress.getByName("255.255.255.0"));
    }

    /** A CM frame, or with {@code qpn} != 1 a data frame to that QP, with PSN {@code psn}. */
    private byte[] frame(final boolean v6, final boolean vlan, final int qpn, final int psn) {
        return frame(v6, vlan, qpn, psn, 0x04);
    }

    /** As {@link #frame(boolean, boolean, int, int)}, a data frame with BTH opcode {@code opcode}. */
    private byte[] frame(final boolean v6, final boolean vlan, final int qpn, final int psn, final int opcode) {
        final byte[] a = v6 ? new byte[16] : new byte[] {10, 0, 0, 1};
        final byte[] b = v6 ? new byte[16] : new byte[] {10, 0, 0, 2};
        a[a.length - 1] = 1;
        b[b.length - 1] = 2;
        final var fb = new CmFrameBuilder().ips(a, b).type(CmMessageType.REQ).bthPsn(psn);
        if (vlan) {
            fb.vlans(7);
        }
        final int len = fb.build(frame);
        final int bth = 14 + (vlan ? 4 : 0) + (v6 ? 40 : 20) + 8;
        if (qpn != 1) {
            frame[bth] = (byte) opcode;
            frame[bth + 5] = (byte) (qpn >>> 16);
            frame[bth + 6] = (byte) (qpn >>> 8);
            frame[bth + 7] = (byte) qpn;
        }
        return java.util.Arrays.copyOf(frame, len);
    }

    private int passed(final BpfProgram program, final boolean v6, final boolean vlan, final int qpn) {
        return passed(program, v6, vlan, qpn, 0x04);
    }

    /** Of 64 frames with PSNs 0 to 63 (a CM frame, or a data frame of {@code opcode}), those the program keeps. */
    private int passed(final BpfProgram program, final boolean v6, final boolean vlan, final int qpn,
            final int opcode) {
        int count = 0;
        for (int psn = 0; psn < 64; psn++) {
            final byte[] f = frame(v6, vlan, qpn, psn, opcode);
            if (program.applyFilter(f)) {
                count++;
            }
        }
        return count;
    }

    @Test
    void cmAlwaysDataOneInN() throws Exception {
        final BpfProgram cm = compile(CaptureFilters.cmOnly(4791));
        final BpfProgram every8 = compile(CaptureFilters.cmAndSampledData(4791, 8));
        final BpfProgram all = compile(CaptureFilters.cmAndSampledData(4791, 1));
        for (boolean v6 : new boolean[] {false, true}) {
            for (boolean vlan : new boolean[] {false, true}) {
                final String where = (v6 ? "IPv6" : "IPv4") + (vlan ? " VLAN" : "");
                assertEquals(64, passed(cm, v6, vlan, 1), where);
                assertEquals(0, passed(cm, v6, vlan, 0x1234), where);
                assertEquals(64, passed(every8, v6, vlan, 1), "CM is never sampled: " + where);
                assertEquals(8, passed(every8, v6, vlan, 0x1234), "PSN 0, 8, ... 56: " + where);
                assertEquals(64, passed(all, v6, vlan, 0x1234), where);
            }
        }
        every8.free();
        all.free();
        cm.free();
        assertThrows(IllegalArgumentException.class, () -> CaptureFilters.cmAndSampledData(4791, 3));
        assertThrows(IllegalArgumentException.class, () -> CaptureFilters.cmAndSampledData(4791, 0));
    }

    /**
     * With congestion counting, at 1 in 64: every CNP passes whatever its PSN, data is still
     * sampled, CM still passes; every PFC frame passes (any priority, quanta 0 and 0xffff), an
     * 802.3x PAUSE does not; without, CNPs are sampled like data and PFC frames are not kept.
     */
    @Test
    void cnpsAndPfcFramesPassWhateverTheSampling() throws Exception {
        final BpfProgram every64 = compile(CaptureFilters.cmAndSampledData(4791, 64, true));
        final BpfProgram without = compile(CaptureFilters.cmAndSampledData(4791, 64, false));
        final BpfProgram cm = compile(CaptureFilters.cmOnly(4791, true));
        final BpfProgram all = compile(CaptureFilters.cmAndSampledData(4791, 1, true));
        for (boolean v6 : new boolean[] {false, true}) {
            for (boolean vlan : new boolean[] {false, true}) {
                final String where = (v6 ? "IPv6" : "IPv4") + (vlan ? " VLAN" : "");
                assertEquals(64, passed(every64, v6, vlan, 0x1234, DataFrameBuilder.CNP), "every CNP: " + where);
                assertEquals(1, passed(every64, v6, vlan, 0x1234), "data still 1 in 64: " + where);
                assertEquals(64, passed(every64, v6, vlan, 1), "CM: " + where);
                assertEquals(1, passed(without, v6, vlan, 0x1234, DataFrameBuilder.CNP), "sampled like data: " + where);
                assertEquals(0, passed(cm, v6, vlan, 0x1234, DataFrameBuilder.CNP), "no data, no CNP: " + where);
                assertEquals(64, passed(cm, v6, vlan, 1), "CM: " + where);
                assertEquals(64, passed(all, v6, vlan, 0x1234, DataFrameBuilder.CNP), where);
            }
        }
        // a CNP as the builder makes it (BECN, PSN 0) and with a PSN that 1/64 does not sample
        final DataFrameBuilder cnp = new DataFrameBuilder().opcode(DataFrameBuilder.CNP).destQp(0x345).psn(0x21);
        assertTrue(every64.applyFilter(cnp.build()));
        assertFalse(without.applyFilter(cnp.build()));
        for (int p = 0; p < 8; p++) {
            for (int quanta : new int[] {0, 1, 0xffff}) {
                final byte[] pfc = new PfcFrameBuilder().pause(p, quanta).build();
                final String what = "priority " + p + " quanta " + quanta;
                assertTrue(every64.applyFilter(pfc), what);
                assertTrue(cm.applyFilter(pfc), what);
                assertTrue(all.applyFilter(pfc), what);
                assertTrue(compile(CaptureFilters.allRoce(4791, true)).applyFilter(pfc), what);
                assertFalse(without.applyFilter(pfc), what);
                assertFalse(compile(CaptureFilters.cmOnly(4791)).applyFilter(pfc), what);
            }
        }
        assertTrue(every64.applyFilter(new PfcFrameBuilder().enable(0xff).build()), "all priorities");
        final byte[] pause = new PfcFrameBuilder().opcode(0x0001).quanta(0, 0xffff).build();
        assertFalse(every64.applyFilter(pause), "an 802.3x PAUSE is not PFC");
        assertFalse(cm.applyFilter(pause));
        every64.free();
        without.free();
        cm.free();
        all.free();
    }
}
