/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.rst.rft.decode.CmMessage;
import io.rst.rft.decode.DecodeResult;
import io.rst.rft.decode.FrameDecoder;
import io.rst.rft.pcap.LldpFrameBuilder;
import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

/**
 * The neighbour table: one entry per (interface, Chassis ID, Port ID), updated in place, aged out
 * when its TTL passes, removed at once by a shutdown, bounded per interface with the rest counted;
 * repeated LLDPDUs allocate nothing.
 */
class LldpNeighboursTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long T0 = 1_767_225_600_000_000L;
    private static final byte[] V4 = {10, 0, 0, 7};

    private final FrameDecoder decoder = new FrameDecoder();
    private final CmMessage msg = new CmMessage();
    private final LldpNeighbours table = new LldpNeighbours();

    private void hear(final String port, final long micros, final LldpFrameBuilder builder) {
        final byte[] f = builder.build();
        assertEquals(DecodeResult.LLDP, decoder.decodeEthernet(f, 0, f.length, msg));
        table.frame(port, micros, msg.lldp());
    }

    private JsonNode list() {
        final ArrayNode a = JSON.createArrayNode();
        table.write(a);
        return a;
    }

    private static LldpFrameBuilder spine(final int ttl) {
        return new LldpFrameBuilder().chassisMac(0x0c42a1000001L).portName("swp1").ttl(ttl).systemName("spine1")
            .portDescription("to leaf1").managementAddress(V4, 1)
            .managementAddress(new byte[] {(byte) 0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7}, 1);
    }

    @Test
    void aNeighbourIsKeptUpdatedAndAgedOut() throws Exception {
        hear("swp7", T0, spine(120));
        // the same neighbour on another port of ours is another entry; another port of it too
        hear("swp8", T0, spine(120));
        hear("swp7", T0 + 1_000_000, spine(120).portName("swp2"));
        assertEquals(3, table.size());
        // heard again 30 s later with a new name: updated in place
        hear("swp7", T0 + 30_000_000, spine(120).systemName("spine1-renamed"));
        table.expire(T0 + 40_000_000);
        final JsonNode l = list();
        assertEquals(3, l.size(), l.toString());
        assertEquals(JSON.readTree("""
            {"interface":"swp7","chassis_id":"0c:42:a1:00:00:01","chassis_id_subtype":"mac_address",
             "port_id":"swp1","port_id_subtype":"interface_name","port_description":"to leaf1",
             "system_name":"spine1-renamed","system_description":null,
             "management_addresses":["10.0.0.7","fd00::7"],
             "capabilities":null,"enabled_capabilities":null,"ttl":120,"age_seconds":10,
             "first_seen":"2026-01-01T00:00:00Z","last_seen":"2026-01-01T00:00:30Z"}""").toString(),
            l.get(0).toString());
        assertEquals("swp2", l.get(1).path("port_id").asText());
        assertEquals("swp8", l.get(2).path("interface").asText());
        // 120 s after each was last heard: gone, the renamed one 29 s later than the others
        table.expire(T0 + 121_500_000);
        assertEquals(1, table.size(), list().toString());
        assertEquals("spine1-renamed", list().get(0).path("system_name").asText());
        table.expire(T0 + 150_000_001);
        assertEquals(0, table.size());
        assertEquals(3, table.agedOut());
        assertEquals(4, table.frames());
    }

    @Test
    void aShutdownRemovesTheNeighbourAtOnce() {
        hear("swp1", T0, spine(120));
        hear("swp1", T0, spine(120).chassisMac(0x0c42a1000002L));
        hear("swp1", T0 + 1, spine(0));
        assertEquals(1, table.size());
        assertEquals(1, table.shutdowns());
        assertEquals("0c:42:a1:00:00:02", list().get(0).path("chassis_id").asText());
        // a shutdown of a neighbour not known changes nothing
        hear("swp1", T0 + 2, spine(0).portName("swp9"));
        assertEquals(1, table.size());
        assertEquals(1, table.shutdowns());
    }

    @Test
    void atMostSixtyFourNeighboursPerInterfaceTheRestCounted() {
        for (int i = 0; i < LldpNeighbours.MAX_PER_INTERFACE + 5; i++) {
            hear("swp1", T0 + i, spine(120).portName("swp" + i));
        }
        assertEquals(LldpNeighbours.MAX_PER_INTERFACE, table.size());
        assertEquals(5, table.refused());
        // those known are still updated; another interface has its own room
        hear("swp1", T0 + 100, spine(120).portName("swp0").systemName("again"));
        hear("swp2", T0 + 100, spine(120));
        assertEquals(LldpNeighbours.MAX_PER_INTERFACE + 1, table.size());
        assertEquals(5, table.refused());
        assertEquals("again", list().get(0).path("system_name").asText());
        // one gone by shutdown makes room for one more
        hear("swp1", T0 + 200, spine(0).portName("swp3"));
        hear("swp1", T0 + 200, spine(120).portName("swp100"));
        assertEquals(5, table.refused());
        assertEquals(LldpNeighbours.MAX_PER_INTERFACE + 1, table.size());
    }

    @Test
    void hearingKnownNeighboursAgainAllocatesNothing() {
        final byte[][] frames = {spine(120).build(), spine(120).portName("swp2").systemDescription("d").build(),
            spine(120).chassisMac(0x0c42a1000009L).build()};
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        final long id = Thread.currentThread().threadId();
        long clock = T0;
        for (int round = 0; round < 2; round++) {
            final long before = threads.getThreadAllocatedBytes(id);
            for (int i = 0; i < 100_000; i++) {
                final byte[] f = frames[i % frames.length];
                decoder.decodeEthernet(f, 0, f.length, msg);
                table.frame("swp1", clock++, msg.lldp());
                if (i % 1000 == 0) {
                    table.expire(clock);
                }
            }
            final long allocated = threads.getThreadAllocatedBytes(id) - before;
            if (round == 1) {
                assertTrue(allocated < 64 * 1024, "bytes allocated on 100,000 LLDPDUs: " + allocated);
            }
        }
        assertEquals(3, table.size());
    }
}
