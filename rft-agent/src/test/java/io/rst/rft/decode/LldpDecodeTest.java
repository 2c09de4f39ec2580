/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.decode;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rst.rft.pcap.LldpFrameBuilder;
import io.rst.rft.pcap.PcapWriter;
import io.rst.rft.testutil.Tshark;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * LLDPDUs as the decoder reads them: every Chassis ID and Port ID subtype, the optional TLVs,
 * IPv4 and IPv6 management addresses, system capabilities, a shutdown (TTL 0), VLAN-tagged frames; malformed ones
 * (cut TLVs, lengths past the end, missing or misplaced mandatory TLVs, unknown subtypes, bad
 * lengths) as counted skips; no allocation once warm; and tshark's reading of the same frames.
 */
public class LldpDecodeTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final byte[] V4 = {10, 1, 2, 3};
    private static final byte[] V6 = HexFormat.of().parseHex("fd000000000000000000000000000042");

    private final FrameDecoder decoder = new FrameDecoder();
    private final CmMessage msg = new CmMessage();

    @TempDir
    Path tmp;

    private static byte[] ascii(final String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    private DecodeResult decode(final byte[] frame) {
        return decoder.decodeEthernet(frame, 0, frame.length, msg);
    }

    /** Network address IDs: IANA family, then the address. */
    private static byte[] network(final int family, final byte[] address) {
        final byte[] b = new byte[address.length + 1];
        b[0] = (byte) family;
        System.arraycopy(address, 0, b, 1, address.length);
        return b;
    }

    @Test
    void everyChassisIdSubtype() {
        final Object[][] cases = {
            {1, ascii("chassis-1"), "chassis-1", "chassis_component"},
            {2, ascii("alias"), "alias", "interface_alias"},
            {3, ascii("port-component"), "port-component", "port_component"},
            {4, new byte[] {0x0c, 0x42, (byte) 0xa1, 0, 0x10, (byte) 0xff}, "0c:42:a1:00:10:ff", "mac_address"},
            {5, network(1, V4), "10.1.2.3", "network_address"},
            {5, network(2, V6), "fd00::42", "network_address"},
            {5, network(6, new byte[] {1, 2, 3}), "6:01:02:03", "network_address"},
            {6, ascii("swp1"), "swp1", "interface_name"},
            {7, ascii("local-id"), "local-id", "local"},
        };
        for (Object[] c : cases) {
            final int subtype = (Integer) c[0];
            final byte[] id = (byte[]) c[1];
            final byte[] f = new LldpFrameBuilder().chassisId(subtype, id).build();
            final String what = "chassis subtype " + subtype + " " + c[2];
            assertEquals(DecodeResult.LLDP, decode(f), what);
            final LldpPdu p = msg.lldp();
            assertEquals(subtype, p.chassisIdSubtype(), what);
            assertArrayEquals(id, p.chassisIdBytes(), what);
            assertEquals(c[2], p.chassisIdText(), what);
            assertEquals(c[3], LldpPdu.chassisSubtypeName(subtype), what);
            assertTrue(p.chassisIdEquals(subtype, id, id.length), what);
            assertFalse(p.chassisIdEquals(subtype == 7 ? 1 : subtype + 1, id, id.length), what);
        }
    }

    @Test
    void everyPortIdSubtype() {
        final Object[][] cases = {
            {1, ascii("uplink"), "uplink", "interface_alias"},
            {2, ascii("slot1/port2"), "slot1/port2", "port_component"},
            {3, new byte[] {2, 0, 0, 0, 0, 9}, "02:00:00:00:00:09", "mac_address"},
            {4, network(1, V4), "10.1.2.3", "network_address"},
            {4, network(2, V6), "fd00::42", "network_address"},
            {5, ascii("Ethernet0"), "Ethernet0", "interface_name"},
            {6, new byte[] {0, 4, 0, 1}, "00:04:00:01", "agent_circuit_id"},
            {7, ascii("7"), "7", "local"},
        };
        for (Object[] c : cases) {
            final int subtype = (Integer) c[0];
            final byte[] id = (byte[]) c[1];
            final byte[] f = new LldpFrameBuilder().portId(subtype, id).build();
            final String what = "port subtype " + subtype + " " + c[2];
            assertEquals(DecodeResult.LLDP, decode(f), what);
            final LldpPdu p = msg.lldp();
            assertEquals(subtype, p.portIdSubtype(), what);
            assertArrayEquals(id, p.portIdBytes(), what);
            assertEquals(c[2], p.portIdText(), what);
            assertEquals(c[3], LldpPdu.portSubtypeName(subtype), what);
            assertTrue(p.portIdEquals(subtype, id, id.length), what);
        }
    }

    @Test
    void optionalTlvsManagementAddressesAndTheSender() {
        final byte[] f = new LldpFrameBuilder().srcMac(0x0c42a1001122L).chassisMac(0x0c42a1001100L).portName("swp3")
            .ttl(121).portDescription("to spine1").systemName("leaf1").systemDescription("Debian GNU/Linux 12")
            .managementAddress(V4, 2).managementAddress(V6, 2)
            // a MAC management address (family 6): valid, not an IP, not kept
            .managementAddress(6, new byte[] {2, 0, 0, 0, 0, 1}, 2)
            // an organisationally specific TLV is stepped over
            .tlv(LldpFrameBuilder.ORGANIZATION_SPECIFIC, new byte[] {0, 0x12, 0x0f, 1, 3, 0x6c, 0, 0, 0x10})
            .build();
        assertEquals(DecodeResult.LLDP, decode(f));
        final LldpPdu p = msg.lldp();
        assertEquals(0x0c42a1001122L, msg.srcMac());
        assertEquals("0c:42:a1:00:11:00", p.chassisIdText());
        assertEquals("swp3", p.portIdText());
        assertEquals(121, p.ttl());
        assertEquals("to spine1", p.portDescriptionText());
        assertEquals("leaf1", p.systemNameText());
        assertEquals("Debian GNU/Linux 12", p.systemDescriptionText());
        assertEquals(2, p.managementCount());
        assertEquals(4, p.managementVersion(0));
        assertEquals("10.1.2.3", p.managementAddressText(0));
        assertEquals(6, p.managementVersion(1));
        assertEquals("fd00::42", p.managementAddressText(1));
        assertFalse(p.isCut());

        // the next frame without them: nothing of the last one is left
        final byte[] bare = new LldpFrameBuilder().build();
        assertEquals(DecodeResult.LLDP, decode(bare));
        assertNull(p.portDescriptionText());
        assertNull(p.systemNameText());
        assertFalse(p.hasSystemDescription());
        assertEquals(0, p.managementCount());

        // more management addresses than kept: the first ones
        final LldpFrameBuilder many = new LldpFrameBuilder();
        for (int i = 0; i < LldpPdu.MAX_MANAGEMENT + 2; i++) {
            many.managementAddress(new byte[] {10, 0, 0, (byte) i}, i);
        }
        assertEquals(DecodeResult.LLDP, decode(many.build()));
        assertEquals(LldpPdu.MAX_MANAGEMENT, p.managementCount());
        assertEquals("10.0.0.3", p.managementAddressText(3));
    }

    @Test
    void systemCapabilitiesAsBitsAndNames() throws Exception {
        final byte[] f = new LldpFrameBuilder().systemName("leaf1").capabilities(0x14, 0x10).build();
        assertEquals(DecodeResult.LLDP, decode(f));
        final LldpPdu p = msg.lldp();
        assertTrue(p.hasCapabilities());
        assertEquals(0x14, p.systemCapabilities());
        assertEquals(0x10, p.enabledCapabilities());
        assertEquals(List.of("bridge", "router"), LldpPdu.capabilityNames(p.systemCapabilities()));
        assertEquals(List.of("router"), LldpPdu.capabilityNames(p.enabledCapabilities()));
        assertEquals(List.of("other", "repeater", "bridge", "wlan_access_point", "router", "telephone", "docsis",
            "station", "bit8", "bit15"), LldpPdu.capabilityNames(0x81ff));
        assertEquals(List.of(), LldpPdu.capabilityNames(0));
        assertEquals(List.of(), LldpPdu.capabilityNames(-1));

        // the next frame without the TLV: none
        assertEquals(DecodeResult.LLDP, decode(new LldpFrameBuilder().build()));
        assertFalse(p.hasCapabilities());
        assertEquals(-1, p.systemCapabilities());
        assertEquals(-1, p.enabledCapabilities());

        // a System Capabilities TLV of another length than 4 is malformed
        for (int len : new int[] {0, 2, 3, 5, 6}) {
            final byte[] bad = new LldpFrameBuilder().tlv(LldpFrameBuilder.SYSTEM_CAPABILITIES, new byte[len]).build();
            final DecodeResult r = decode(bad);
            assertEquals(DecodeResult.LLDP_BAD_TLV, r, "capabilities of " + len + " bytes");
            assertTrue(r.isMalformedLldp(), "capabilities of " + len + " bytes");
        }

        // as JSON: both lists, by name
        final JsonBytes j = new JsonBytes(16);
        assertEquals(DecodeResult.LLDP, decode(new LldpFrameBuilder().capabilities(0x94, 0x80).build()));
        msg.appendLldpJson(j);
        final JsonNode n = JSON.readTree(j.toString());
        assertEquals("[\"bridge\",\"router\",\"station\"]", n.path("capabilities").toString());
        assertEquals("[\"station\"]", n.path("enabled_capabilities").toString());
        j.reset();
        assertEquals(DecodeResult.LLDP, decode(new LldpFrameBuilder().build()));
        msg.appendLldpJson(j);
        assertFalse(JSON.readTree(j.toString()).has("capabilities"), j.toString());
    }

    @Test
    void aShutdownIsTtlZeroAndTaggedOrEndlessFramesStillDecode() {
        assertEquals(DecodeResult.LLDP, decode(new LldpFrameBuilder().ttl(0).build()));
        assertEquals(0, msg.lldp().ttl());
        assertEquals(DecodeResult.LLDP, decode(new LldpFrameBuilder().ttl(0xffff).build()));
        assertEquals(0xffff, msg.lldp().ttl());
        // LLDP is sent untagged, but a tagged one reads the same
        final byte[] tagged = new LldpFrameBuilder().vlan(100).systemName("tagged").build();
        assertEquals(DecodeResult.LLDP, decode(tagged));
        assertEquals("tagged", msg.lldp().systemNameText());
        // no End TLV: the frame's end ends the LLDPDU
        final byte[] endless = new LldpFrameBuilder().systemName("n").omitEnd().build();
        final int len = 14 + 2 + 7 + 2 + 5 + 2 + 2 + 2 + 1;
        assertEquals(DecodeResult.LLDP, decoder.decodeEthernet(endless, 0, len, msg));
        assertEquals("n", msg.lldp().systemNameText());
    }

    @Test
    void malformedLldpdusAreCountedSkipsWithTheirReason() {
        final byte[] good = new LldpFrameBuilder().systemName("leaf1").managementAddress(V4, 1).build();
        // cut anywhere before the End TLV: truncated (the mandatory TLVs end at 14 + 9 + 7 + 4)
        for (int len = 16; len < good.length; len++) {
            final DecodeResult r = decoder.decodeEthernet(good, 0, len, msg);
            final int endTlv = 14 + 9 + 7 + 4 + 7 + 14;
            if (len == 14 + 9 + 7 + 4 || len == 14 + 9 + 7 + 4 + 7 || len == endTlv || len >= endTlv + 2) {
                // the cut falls between two TLVs: an LLDPDU without its End TLV (or with it, and padding)
                assertEquals(DecodeResult.LLDP, r, "cut at " + len);
            } else if (len == 14 + 9 || len == 14 + 9 + 7) {
                assertEquals(DecodeResult.LLDP_MISSING_TLV, r, "cut at " + len);
            } else {
                assertEquals(DecodeResult.LLDP_TRUNCATED, r, "cut at " + len);
            }
            assertEquals(r != DecodeResult.LLDP, r.isSkipped(), "cut at " + len);
            assertEquals(r != DecodeResult.LLDP, r.isMalformedLldp(), "cut at " + len);
        }
        assertEquals(DecodeResult.LLDP_MISSING_TLV, decoder.decodeEthernet(good, 0, 14, msg), "no TLV at all");
        assertEquals(DecodeResult.TRUNCATED, decoder.decodeEthernet(good, 0, 13, msg));

        // a length past the frame's end
        final byte[] past = new LldpFrameBuilder().tlv(LldpFrameBuilder.SYSTEM_NAME, 300, ascii("x")).omitEnd().build();
        assertEquals(DecodeResult.LLDP_TRUNCATED, decode(past));
        // mandatory TLVs missing or out of order
        assertEquals(DecodeResult.LLDP_MISSING_TLV, decode(new LldpFrameBuilder().order(2, 1, 3).build()));
        assertEquals(DecodeResult.LLDP_MISSING_TLV, decode(new LldpFrameBuilder().order(1, 2).build()));
        assertEquals(DecodeResult.LLDP_MISSING_TLV, decode(new LldpFrameBuilder().order(1, 3).build()));
        assertEquals(DecodeResult.LLDP_MISSING_TLV, decode(new LldpFrameBuilder().order().build()));
        // a second Chassis ID, Port ID or TTL
        assertEquals(DecodeResult.LLDP_BAD_TLV, decode(new LldpFrameBuilder().order(1, 2, 3, 3).build()));
        assertEquals(DecodeResult.LLDP_BAD_TLV, decode(new LldpFrameBuilder().order(1, 2, 3, 1).build()));
        // unknown subtypes
        for (int subtype : new int[] {0, 8, 255}) {
            assertEquals(DecodeResult.LLDP_UNKNOWN_SUBTYPE, decode(new LldpFrameBuilder().chassisId(subtype,
                ascii("x")).build()), "chassis " + subtype);
            assertEquals(DecodeResult.LLDP_UNKNOWN_SUBTYPE, decode(new LldpFrameBuilder().portId(subtype,
                ascii("x")).build()), "port " + subtype);
        }
        // lengths that do not fit the type
        assertEquals(DecodeResult.LLDP_BAD_TLV, decode(new LldpFrameBuilder().chassisId(7, new byte[0]).build()),
            "empty chassis ID");
        assertEquals(DecodeResult.LLDP_BAD_TLV, decode(new LldpFrameBuilder().portId(7, new byte[256]).build()),
            "a 256-byte port ID");
        assertEquals(DecodeResult.LLDP, decode(new LldpFrameBuilder().portId(7, new byte[255]).build()),
            "a 255-byte port ID");
        assertEquals(DecodeResult.LLDP_BAD_TLV, decode(new LldpFrameBuilder().chassisId(4, new byte[5]).build()),
            "a 5-byte MAC");
        assertEquals(DecodeResult.LLDP_BAD_TLV, decode(new LldpFrameBuilder().chassisId(5, network(1, V6)).build()),
            "IPv4 of 16 bytes");
        assertEquals(DecodeResult.LLDP_BAD_TLV, decode(new LldpFrameBuilder().portId(4, network(2, V4)).build()),
            "IPv6 of 4 bytes");
        assertEquals(DecodeResult.LLDP_BAD_TLV, decode(new LldpFrameBuilder().order(1, 2).tlv(3, new byte[] {1})
            .build()), "a 1-byte TTL");
        assertEquals(DecodeResult.LLDP_BAD_TLV, decode(new LldpFrameBuilder().tlv(LldpFrameBuilder.SYSTEM_NAME,
            new byte[256]).build()), "a 256-byte system name");
        // management addresses whose lengths disagree
        final byte[] mgmt = {5, 1, 10, 0, 0, 1, 2, 0, 0, 0, 1, 0};
        assertEquals(DecodeResult.LLDP, decode(new LldpFrameBuilder().tlv(8, mgmt).build()));
        assertEquals(DecodeResult.LLDP_BAD_TLV, decode(new LldpFrameBuilder().tlv(8, Arrays.copyOf(mgmt, 8)).build()));
        final byte[] longer = mgmt.clone();
        longer[0] = 6;
        assertEquals(DecodeResult.LLDP_BAD_TLV, decode(new LldpFrameBuilder().tlv(8, longer).build()));
        final byte[] oid = mgmt.clone();
        oid[11] = 3;
        assertEquals(DecodeResult.LLDP_BAD_TLV, decode(new LldpFrameBuilder().tlv(8, oid).build()), "OID past the TLV");
        final byte[] v6short = mgmt.clone();
        v6short[1] = 2;
        assertEquals(DecodeResult.LLDP_BAD_TLV, decode(new LldpFrameBuilder().tlv(8, v6short).build()));
        final byte[] tiny = {1, 1, 2, 0, 0, 0, 1, 0, 0};
        assertEquals(DecodeResult.LLDP_BAD_TLV, decode(new LldpFrameBuilder().tlv(8, tiny).build()),
            "an empty address");
        assertEquals("lldp_bad_tlv", DecodeResult.LLDP_BAD_TLV.reason());
        assertFalse(DecodeResult.LLDP.isSkipped());
    }

    @Test
    void aFrameTheCaptureCutAfterItsMandatoryTlvsDecodesUpToTheCut() {
        final byte[] f = new LldpFrameBuilder().portDescription("d").systemName("a-long-system-name").build();
        final int cut = 14 + 9 + 7 + 4 + 3 + 5;
        assertEquals(DecodeResult.LLDP, decoder.decodeEthernet(f, 0, cut, f.length, msg));
        assertTrue(msg.lldp().isCut());
        assertEquals("d", msg.lldp().portDescriptionText());
        assertFalse(msg.lldp().hasSystemName());
        assertEquals(DecodeResult.LLDP_TRUNCATED, decoder.decodeEthernet(f, 0, cut, cut, msg), "not known to be cut");
        // cut before the TTL's end: nothing to go by
        assertEquals(DecodeResult.LLDP_TRUNCATED, decoder.decodeEthernet(f, 0, 14 + 9 + 7 + 3, Integer.MAX_VALUE,
            msg));
        assertEquals(DecodeResult.LLDP, decoder.decodeEthernet(f, 0, f.length, Integer.MAX_VALUE, msg));
        assertFalse(msg.lldp().isCut());
    }

    @Test
    void anLldpFrameAsJson() throws Exception {
        final byte[] f = new LldpFrameBuilder().srcMac(0x020000000007L).chassisMac(0x020000000001L).portName("eth0")
            .ttl(20).systemName("h" + (char) 0xe9 + "\"1" + (char) 1 + Character.toString(0x1f600))
            .managementAddress(V4, 2).managementAddress(V6, 2)
            .build();
        msg.setCapture(3, 1_767_225_600_000_300_000L);
        msg.setTimeDigits(6);
        assertEquals(DecodeResult.LLDP, decode(f));
        final JsonBytes j = new JsonBytes(16);
        msg.appendLldpJson(j);
        assertEquals("{\"frame\":3,\"time\":1767225600.000300,\"src_mac\":\"02:00:00:00:00:07\",\"msg\":\"LLDP\","
            + "\"chassis_id\":\"02:00:00:00:00:01\",\"chassis_id_subtype\":\"mac_address\",\"port_id\":\"eth0\","
            + "\"port_id_subtype\":\"interface_name\",\"ttl\":20,"
            + "\"system_name\":\"h\\u00e9\\\"1\\u0001\\ud83d\\ude00\","
            + "\"management_addresses\":[\"10.1.2.3\",\"fd00::42\"]}", j.toString());
        final JsonNode n = JSON.readTree(j.toString());
        assertEquals(msg.lldp().systemNameText(), n.path("system_name").asText());
        // each byte that starts no UTF-8 sequence reads as U+FFFD
        final byte[] bad = new LldpFrameBuilder().tlv(LldpFrameBuilder.PORT_DESCRIPTION,
            new byte[] {'a', (byte) 0xff, (byte) 0xc3, 'b', (byte) 0xe2, (byte) 0x82}).build();
        assertEquals(DecodeResult.LLDP, decode(bad));
        j.reset();
        msg.appendLldpJson(j);
        final String r = Character.toString(0xfffd);
        assertEquals("a" + r + r + "b" + r + r, JSON.readTree(j.toString()).path("port_description").asText());
    }

    /** Decoding LLDPDUs, good and malformed, and writing them as JSON allocates nothing once warm. */
    @Test
    void decodingLldpAllocatesNothing() {
        final byte[][] frames = {
            new LldpFrameBuilder().systemName("leaf1").portDescription("p").managementAddress(V4, 1)
                .managementAddress(V6, 1).capabilities(0x94, 0x14).build(),
            new LldpFrameBuilder().tlv(LldpFrameBuilder.SYSTEM_CAPABILITIES, new byte[3]).build(),
            new LldpFrameBuilder().chassisId(5, network(2, V6)).portId(3, new byte[6]).ttl(0).build(),
            new LldpFrameBuilder().order(2, 1, 3).build(),
            new LldpFrameBuilder().chassisId(9, ascii("x")).build(),
            Arrays.copyOf(new LldpFrameBuilder().systemName("cut").build(), 40),
        };
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        final long id = Thread.currentThread().threadId();
        final JsonBytes j = new JsonBytes(4096);
        long sum = 0;
        for (int round = 0; round < 2; round++) {
            final long before = threads.getThreadAllocatedBytes(id);
            for (int i = 0; i < 200_000; i++) {
                final byte[] f = frames[i % frames.length];
                final DecodeResult r = decoder.decodeEthernet(f, 0, f.length, msg);
                sum += r.ordinal() + msg.lldp().ttl();
                if (r == DecodeResult.LLDP) {
                    msg.appendLldpJson(j);
                    j.reset();
                }
            }
            final long allocated = threads.getThreadAllocatedBytes(id) - before;
            if (round == 1) {
                // one object per frame would be 3.2 MB at least
                assertTrue(allocated < 64 * 1024, "bytes allocated decoding 200,000 frames: " + allocated);
            }
        }
        assertTrue(sum > 0);
    }

    /**
     * tshark reads the generated LLDPDUs as we do: the Chassis ID and Port ID with their
     * subtypes, the TTL, the system name and the management addresses.
     */
    @Test
    void tsharkReadsTheGeneratedFramesAsWeDo() throws Exception {
        Tshark.assumeInstalled();
        final List<byte[]> frames = new ArrayList<>();
        final byte[][] chassis = {ascii("chassis-1"), ascii("alias"), ascii("pc"), {0x0c, 0x42, 0, 0, 0, 1},
            network(1, V4), ascii("swp1"), ascii("local")};
        final byte[][] ports = {ascii("uplink"), ascii("pc"), {2, 0, 0, 0, 0, 9}, network(2, V6), ascii("Ethernet0"),
            {0, 1}, ascii("7")};
        for (int s = 1; s <= 7; s++) {
            frames.add(new LldpFrameBuilder().chassisId(s, chassis[s - 1]).portId(s, ports[s - 1]).ttl(s * 10)
                .systemName("sys-" + s).managementAddress(V4, s).managementAddress(V6, s)
                .capabilities(CAPABILITY_CASES[s - 1][0], CAPABILITY_CASES[s - 1][1]).build());
        }
        frames.add(new LldpFrameBuilder().chassisId(5, network(2, V6)).portId(4, network(1, V4)).ttl(0).build());
        final Path pcap = tmp.resolve("lldp.pcap");
        try (PcapWriter w = PcapWriter.pcap(pcap, FrameDecoder.LINKTYPE_ETHERNET, false, false)) {
            long time = 1_767_225_600_000_000_000L;
            for (byte[] f : frames) {
                w.write(time, f, 0, f.length);
                time += 1_000;
            }
        }
        final List<String[]> rows = Tshark.fields(pcap, List.of(), TSHARK_FIELDS);
        assertEquals(frames.size(), rows.size());
        for (int i = 0; i < rows.size(); i++) {
            final byte[] f = frames.get(i);
            assertEquals(DecodeResult.LLDP, decode(f));
            assertSameAsTshark(msg.lldp(), rows.get(i), "frame " + (i + 1));
        }
    }

    /** System and enabled capabilities of the frames tshark reads. */
    private static final int[][] CAPABILITY_CASES = {{0x14, 0x10}, {0x04, 0x04}, {0x80, 0x80}, {0x14, 0},
        {0xff, 0x01}, {0x20, 0x20}, {0x48, 0x08}};

    /** The tshark fields {@link #assertSameAsTshark} compares, in its order. */
    public static final List<String> TSHARK_FIELDS = List.of("lldp.chassis.subtype", "lldp.chassis.id",
        "lldp.chassis.id.mac", "lldp.chassis.id.ip4", "lldp.chassis.id.ip6", "lldp.port.subtype", "lldp.port.id",
        "lldp.port.id.mac", "lldp.port.id.ip4", "lldp.port.id.ip6", "lldp.time_to_live", "lldp.tlv.system.name",
        "lldp.mgn.addr.ip4", "lldp.mgn.addr.ip6", "lldp.tlv.system_cap", "lldp.tlv.enable_system_cap");

    /** Asserts that tshark's {@link #TSHARK_FIELDS} of a frame say what {@code pdu} says. */
    public static void assertSameAsTshark(final LldpPdu pdu, final String[] fields, final String what) {
        final String[] c = fields;
        final String row = what + ": " + String.join(" | ", c);
        assertEquals(pdu.chassisIdSubtype(), Tshark.number(c[0]), row);
        assertEquals(pdu.chassisIdText(), tsharkId(pdu.chassisIdSubtype() == 4 || pdu.chassisIdSubtype() == 5,
            c[1], c[2], c[3], c[4]), row);
        assertEquals(pdu.portIdSubtype(), Tshark.number(c[5]), row);
        if (pdu.portIdSubtype() != 6) {
            // tshark 4.0 shows an agent circuit ID in no field
            assertEquals(pdu.portIdText(), tsharkId(pdu.portIdSubtype() == 3 || pdu.portIdSubtype() == 4, c[6], c[7],
                c[8], c[9]), row);
        }
        assertEquals(pdu.ttl(), Tshark.number(c[10]), row);
        assertEquals(pdu.hasSystemName() ? pdu.systemNameText() : "", c[11], row);
        final List<String> v4 = new ArrayList<>();
        final List<String> v6 = new ArrayList<>();
        for (int m = 0; m < pdu.managementCount(); m++) {
            (pdu.managementVersion(m) == 4 ? v4 : v6).add(pdu.managementAddressText(m));
        }
        assertEquals(String.join(",", v4), c[12], row);
        assertEquals(String.join(",", v6), c[13], row);
        assertEquals(pdu.hasCapabilities() ? pdu.systemCapabilities() : -1, c[14].isEmpty() ? -1 : Tshark.number(c[14]),
            row);
        assertEquals(pdu.hasCapabilities() ? pdu.enabledCapabilities() : -1,
            c[15].isEmpty() ? -1 : Tshark.number(c[15]), row);
    }

    /** tshark's ID: the MAC, IPv4 or IPv6 field where it has one, else its text or bytes field. */
    private static String tsharkId(final boolean binary, final String raw, final String mac, final String ip4,
            final String ip6) {
        if (!mac.isEmpty()) {
            return mac;
        }
        if (!ip4.isEmpty()) {
            return ip4;
        }
        if (!ip6.isEmpty()) {
            return ip6;
        }
        return binary ? hexPairs(raw) : text(raw);
    }

    private static String hexPairs(final String raw) {
        final String hex = raw.replace(":", "");
        final StringBuilder sb = new StringBuilder();
        for (int i = 0; i < hex.length(); i += 2) {
            sb.append(i > 0 ? ":" : "").append(hex, i, i + 2);
        }
        return sb.toString();
    }

    /** A text ID as tshark shows it: a string field as is, a bytes field as hex that spells the text. */
    private static String text(final String raw) {
        if (raw.matches("([0-9a-f]{2}:?)+")) {
            return new String(HexFormat.of().parseHex(raw.replace(":", "")), StandardCharsets.UTF_8);
        }
        return raw;
    }
}
