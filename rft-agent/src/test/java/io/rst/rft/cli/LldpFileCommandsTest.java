/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rst.rft.decode.FrameDecoder;
import io.rst.rft.pcap.LldpFrameBuilder;
import io.rst.rft.pcap.PcapWriter;
import io.rst.rft.pcap.PfcFrameBuilder;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rst decode} lists LLDP frames as JSON lines and counts them and the malformed ones in
 * its summary; a frame the capture cut after its mandatory TLVs (its length on the wire longer)
 * is listed with {@code "cut":true}.
 */
class LldpFileCommandsTest {
    @TempDir
    Path tmp;

    @Test
    void decodeListsLldpFrames() throws Exception {
        final byte[] lldp = new LldpFrameBuilder().srcMac(0x020000000002L).chassisMac(0x020000000001L)
            .portName("swp1").ttl(120).systemName("spine1").managementAddress(new byte[] {10, 0, 0, 1}, 3)
            .capabilities(0x14, 0x10).build();
        final byte[] pfc = new PfcFrameBuilder().pause(3, 7).build();
        final Path f = tmp.resolve("l.pcap");
        try (PcapWriter w = PcapWriter.pcap(f, FrameDecoder.LINKTYPE_ETHERNET, false, false)) {
            long ns = 1_767_225_600_000_000_000L;
            for (byte[] frame : List.of(lldp, pfc, new LldpFrameBuilder().order(2, 1, 3).build(),
                    new LldpFrameBuilder().chassisId(0, new byte[] {1}).build())) {
                w.write(ns, frame, 0, frame.length);
                ns += 1000;
            }
            // the capture kept 40 of its bytes: its mandatory TLVs and part of the system name
            w.write(0, ns, lldp, 0, 40, lldp.length);
        }
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(0, Main.run(new String[] {"decode", f.toString()}, new PrintStream(out, true,
            StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8)));
        final List<String> lines = out.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals(3, lines.size(), lines.toString());
        assertEquals("{\"frame\":1,\"time\":1767225600.000000,\"src_mac\":\"02:00:00:00:00:02\",\"msg\":\"LLDP\","
            + "\"chassis_id\":\"02:00:00:00:00:01\",\"chassis_id_subtype\":\"mac_address\",\"port_id\":\"swp1\","
            + "\"port_id_subtype\":\"interface_name\",\"ttl\":120,\"system_name\":\"spine1\","
            + "\"management_addresses\":[\"10.0.0.1\"],\"capabilities\":[\"bridge\",\"router\"],"
            + "\"enabled_capabilities\":[\"router\"]}", lines.get(0));
        assertEquals("PFC", new com.fasterxml.jackson.databind.ObjectMapper().readTree(lines.get(1)).path("msg")
            .asText());
        assertEquals("{\"frame\":5,\"time\":1767225600.000004,\"src_mac\":\"02:00:00:00:00:02\",\"msg\":\"LLDP\","
            + "\"chassis_id\":\"02:00:00:00:00:01\",\"chassis_id_subtype\":\"mac_address\",\"port_id\":\"swp1\","
            + "\"port_id_subtype\":\"interface_name\",\"ttl\":120,\"management_addresses\":[],\"cut\":true}",
            lines.get(2));
        assertEquals(List.of("rst decode: " + f + ": 5 packets read, 0 CM MADs, 0 RoCE data, 1 PFC frames, "
            + "2 LLDP frames, 2 skipped (lldp_missing_tlv 1, lldp_unknown_subtype 1)"),
            err.toString(StandardCharsets.UTF_8).lines().toList());
    }
}
