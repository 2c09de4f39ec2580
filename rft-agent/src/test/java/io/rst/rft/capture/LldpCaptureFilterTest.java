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
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rst.rft.decode.CmMessageType;
import io.rst.rft.pcap.CmFrameBuilder;
import io.rst.rft.pcap.DataFrameBuilder;
import io.rst.rft.pcap.LldpFrameBuilder;
import io.rst.rft.pcap.PfcFrameBuilder;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.pcap4j.core.BpfProgram;
import org.pcap4j.core.Pcaps;
import org.pcap4j.packet.namednumber.DataLinkType;

/**
 * The agent's filters with LLDP, compiled by the real libpcap and run on real frames: every LLDP
 * frame passes, and what the filter kept before (CM, tagged CM, sampled data, PFC) still does and
 * only that; without LLDP no LLDP frame passes.
 */
class LldpCaptureFilterTest {
    private static BpfProgram compile(final String filter) throws Exception {
        return Pcaps.compileFilter(65535, DataLinkType.EN10MB, filter, BpfProgram.BpfCompileMode.OPTIMIZE,
            (java.net.Inet4Address) java.net.InetAddress.getByName("255.255.255.0"));
    }

    private static byte[] cm(final boolean vlan) {
        final byte[] buf = new byte[1024];
        final CmFrameBuilder b = new CmFrameBuilder().type(CmMessageType.REQ);
        if (vlan) {
            b.vlans(7);
        }
        return Arrays.copyOf(buf, b.build(buf));
    }

    @Test
    void lldpFramesPassAndTheRestAsBefore() throws Exception {
        final List<byte[]> lldp = List.of(new LldpFrameBuilder().build(), new LldpFrameBuilder().ttl(0).build(),
            new LldpFrameBuilder().systemName("leaf1").managementAddress(new byte[] {10, 0, 0, 1}, 1).build());
        final byte[] sampled = new DataFrameBuilder().psn(64).build();
        final byte[] notSampled = new DataFrameBuilder().psn(65).build();
        final byte[] pfc = new PfcFrameBuilder().pause(3, 0xffff).build();
        for (String roce : List.of(CaptureFilters.cmOnly(4791, true), CaptureFilters.cmAndSampledData(4791, 64, true),
                CaptureFilters.allRoce(4791, true), CaptureFilters.cmOnly(4791, false))) {
            final BpfProgram with = compile(CaptureFilters.withLldp(roce));
            final BpfProgram without = compile(roce);
            for (byte[] f : lldp) {
                assertTrue(with.applyFilter(f), roce);
                assertFalse(without.applyFilter(f), roce);
            }
            for (byte[] f : List.of(cm(false), cm(true), sampled, notSampled, pfc)) {
                assertEquals(without.applyFilter(f), with.applyFilter(f), roce);
            }
            assertTrue(with.applyFilter(cm(true)), "tagged CM after the LLDP test: " + roce);
            with.free();
            without.free();
        }
    }
}
