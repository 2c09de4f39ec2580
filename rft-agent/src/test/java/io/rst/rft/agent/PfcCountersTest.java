/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.rst.rft.decode.CmMessage;
import io.rst.rft.decode.DecodeResult;
import io.rst.rft.decode.FrameDecoder;
import io.rst.rft.pcap.PfcFrameBuilder;
import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * PFC frames per interface and priority: frames, XONs, quanta, and the time paused as the union
 * of each frame's pause at the link's speed (a later frame restarting the timer, an XON ending
 * it), up to the clock; every priority bit; the quanta edges; the link speed from the interface
 * or the default; the bound on interfaces.
 */
class PfcCountersTest {
    /** 1 January 2026, nanoseconds. */
    private static final long T = 1_767_225_600_000_000_000L;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final FrameDecoder decoder = new FrameDecoder();
    private final CmMessage msg = new CmMessage();
    private final Map<String, Integer> speeds = new HashMap<>();
    /** 10 Gbit/s unless an interface says otherwise: a quantum is 51.2 ns. */
    private final PfcCounters pfc = new PfcCounters(port -> speeds.getOrDefault(port, -1), 10_000);

    private void frame(final String port, final long time, final PfcFrameBuilder frame) {
        final byte[] f = frame.build();
        assertEquals(DecodeResult.PFC, decoder.decodeEthernet(f, 0, f.length, msg));
        pfc.frame(port, time, msg);
    }

    private static PfcFrameBuilder pause(final int priority, final int quanta) {
        return new PfcFrameBuilder().pause(priority, quanta);
    }

    private JsonNode entry(final String port, final int priority) {
        final ArrayNode out = JSON.createArrayNode();
        pfc.write(out);
        for (JsonNode e : out) {
            if (e.path("interface").asText().equals(port) && e.path("priority").asInt() == priority) {
                return e;
            }
        }
        return null;
    }

    @Test
    void onePauseLastsItsQuantaAtTheLinksSpeed() {
        frame("swp1", T, pause(3, 1000));
        pfc.advance(T + 10_000);
        final JsonNode early = entry("swp1", 3);
        assertEquals(10, early.path("paused_us").asLong(), "paused so far, up to the clock");
        assertTrue(early.path("paused").asBoolean());
        pfc.advance(T + 1_000_000);
        final JsonNode e = entry("swp1", 3);
        // 1000 quanta x 512 bits at 10 Gbit/s = 51.2 us
        assertEquals(51, e.path("paused_us").asLong());
        assertFalse(e.path("paused").asBoolean());
        assertEquals(1, e.path("frames").asLong());
        assertEquals(0, e.path("xon").asLong());
        assertEquals(1000, e.path("quanta").asLong());
        assertEquals("2026-01-01T00:00:00Z", e.path("last").asText());
        assertEquals(10_000, e.path("link_speed_mbps").asInt());
        assertEquals(1, pfc.frames());
    }

    @Test
    void aLaterFrameRestartsThePauseAndAnXonEndsIt() {
        // 1000 quanta at T, again at T + 20 us: paused from T to T + 20 + 51.2 us
        frame("swp1", T, pause(3, 1000));
        frame("swp1", T + 20_000, pause(3, 1000));
        pfc.advance(T + 1_000_000);
        assertEquals(71, entry("swp1", 3).path("paused_us").asLong());
        // 0xffff quanta, then an XON 10 us later: paused 10 us
        frame("swp2", T + 2_000_000, pause(5, 0xffff));
        frame("swp2", T + 2_010_000, pause(5, 0));
        pfc.advance(T + 5_000_000);
        final JsonNode e = entry("swp2", 5);
        assertEquals(10, e.path("paused_us").asLong());
        assertEquals(2, e.path("frames").asLong());
        assertEquals(1, e.path("xon").asLong());
        assertEquals(0xffff, e.path("quanta").asLong());
        assertFalse(e.path("paused").asBoolean());
        // a storm: a frame every 10 us, each asking 0xffff: paused throughout, then the last pause runs out
        for (int i = 0; i < 100; i++) {
            frame("swp3", T + 10_000_000 + i * 10_000L, pause(0, 0xffff));
        }
        pfc.advance(T + 10_000_000 + 990_000 + 1_000);
        assertTrue(entry("swp3", 0).path("paused").asBoolean());
        assertEquals(991, entry("swp3", 0).path("paused_us").asLong());
        pfc.advance(T + 20_000_000);
        // 99 x 10 us, then the last frame's 0xffff quanta at 10 Gbit/s: 3355.392 us
        assertEquals(990 + 3355, entry("swp3", 0).path("paused_us").asLong());
    }

    @Test
    void everyPriorityBitCountsForItsOwnPriorityOnly() {
        for (int p = 0; p < 8; p++) {
            frame("swp1", T + p * 1_000_000L, pause(p, 0xffff));
        }
        // a time for a priority whose bit is clear is ignored
        frame("swp1", T + 9_000_000, new PfcFrameBuilder().quanta(2, 0xffff));
        frame("swp1", T + 10_000_000, new PfcFrameBuilder().pause(1, 100).pause(6, 0));
        pfc.advance(T + 100_000_000);
        final ArrayNode out = JSON.createArrayNode();
        pfc.write(out);
        assertEquals(8, out.size());
        for (int p = 0; p < 8; p++) {
            final JsonNode e = out.get(p);
            assertEquals(p, e.path("priority").asInt());
            assertEquals(p == 1 || p == 6 ? 2 : 1, e.path("frames").asLong(), "priority " + p);
            assertEquals(p == 6 ? 1 : 0, e.path("xon").asLong(), "priority " + p);
            assertEquals(0xffff + (p == 1 ? 100 : 0), e.path("quanta").asLong(), "priority " + p);
            // 0xffff quanta at 10 Gbit/s: 3355.392 us each (priority 1's second frame adds 5.12 us)
            assertEquals(p == 1 ? 3360 : 3355, e.path("paused_us").asLong(), "priority " + p);
        }
        assertEquals(10, pfc.frames());
        // a frame that enables no priority is counted and tabled nowhere
        frame("swp9", T + 200_000_000, new PfcFrameBuilder());
        assertEquals(11, pfc.frames());
        final ArrayNode again = JSON.createArrayNode();
        pfc.write(again);
        assertEquals(8, again.size());
    }

    @Test
    void theLinkSpeedComesFromTheInterfaceElseTheDefault() {
        speeds.put("swp1", 100_000);
        speeds.put("swp2", 0);
        frame("swp1", T, pause(3, 0xffff));
        frame("swp2", T, pause(3, 0xffff));
        pfc.advance(T + 1_000_000_000L);
        // 0xffff quanta: 335.539 us at 100 Gbit/s, 3355.392 us at the default 10 Gbit/s
        assertEquals(335, entry("swp1", 3).path("paused_us").asLong());
        assertEquals(100_000, entry("swp1", 3).path("link_speed_mbps").asInt());
        assertEquals(3355, entry("swp2", 3).path("paused_us").asLong());
        assertEquals(10_000, entry("swp2", 3).path("link_speed_mbps").asInt());
        // the link renegotiated: the next pause is timed at the new speed
        speeds.put("swp1", 25_000);
        pfc.refreshSpeeds();
        frame("swp1", T + 2_000_000_000L, pause(3, 0xffff));
        pfc.advance(T + 3_000_000_000L);
        assertEquals(335 + 1342, entry("swp1", 3).path("paused_us").asLong());
        assertEquals(25_000, entry("swp1", 3).path("link_speed_mbps").asInt());
        assertThrows(IllegalArgumentException.class, () -> new PfcCounters(port -> -1, 0));
        // Linux's sysfs names no such interface, and a name with a slash is none
        assertEquals(-1, PfcCounters.sysfsSpeed("no-such-interface-0"));
        assertEquals(-1, PfcCounters.sysfsSpeed("../lo"));
    }

    @Test
    void interfacesAreBounded() {
        for (int i = 0; i < PfcCounters.MAX_INTERFACES + 10; i++) {
            frame("if" + i, T + i, pause(i % 8, 1));
        }
        final ArrayNode out = JSON.createArrayNode();
        pfc.write(out);
        assertEquals(PfcCounters.MAX_INTERFACES, out.size());
        assertEquals(PfcCounters.MAX_INTERFACES + 10, pfc.frames());
        assertEquals(10, pfc.untabled());
    }

    @Test
    void countingAFrameOfAKnownInterfaceAllocatesNothing() {
        final byte[] f = new PfcFrameBuilder().pause(3, 0xffff).pause(4, 0).build();
        final String port = "swp1";
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        final long id = Thread.currentThread().threadId();
        for (int i = 0; i < 100_000; i++) {
            decoder.decodeEthernet(f, 0, f.length, msg);
            pfc.frame(port, T + i * 1000L, msg);
        }
        final long before = threads.getThreadAllocatedBytes(id);
        for (int i = 0; i < 100_000; i++) {
            decoder.decodeEthernet(f, 0, f.length, msg);
            pfc.frame(port, T + (100_000 + i) * 1000L, msg);
        }
        final long allocated = threads.getThreadAllocatedBytes(id) - before;
        assertTrue(allocated < 64 * 1024, "bytes allocated counting 100,000 frames: " + allocated);
        assertEquals(200_000, pfc.frames());
    }
}
