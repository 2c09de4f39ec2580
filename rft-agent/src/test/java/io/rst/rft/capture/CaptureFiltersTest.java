/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.rst.rft.decode.CmMessageType;
import io.rst.rft.pcap.CmFrameBuilder;
import org.junit.jupiter.api.Test;
import org.pcap4j.core.BpfProgram;
import org.pcap4j.core.Pcaps;
import org.pcap4j.packet.namednumber.DataLinkType;

/**
 * The filters compiled by the real libpcap and run on real frames: CM always passes, data passes
 * when its PSN is a multiple of the sampling, in IPv4, IPv6 and behind a VLAN tag.
 */
class CaptureFiltersTest {
    private final byte[] frame = new byte[1024];

    private static BpfProgram compile(final String filter) throws Exception {
        return Pcaps.compileFilter(65535, DataLinkType.EN10MB, filter, BpfProgram.BpfCompileMode.OPTIMIZE,
            (java.net.Inet4Address) java.net.InetAddress.getByName("255.255.255.0"));
    }

    /** A CM frame, or with {@code qpn} != 1 a data frame to that QP, with PSN {@code psn}. */
    private byte[] frame(final boolean v6, final boolean vlan, final int qpn, final int psn) {
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
            frame[bth] = 0x04;
            frame[bth + 5] = (byte) (qpn >>> 16);
            frame[bth + 6] = (byte) (qpn >>> 8);
            frame[bth + 7] = (byte) qpn;
        }
        return java.util.Arrays.copyOf(frame, len);
    }

    private int passed(final BpfProgram program, final boolean v6, final boolean vlan, final int qpn) {
        int count = 0;
        for (int psn = 0; psn < 64; psn++) {
            final byte[] f = frame(v6, vlan, qpn, psn);
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
}
