/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.capture;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The ring's zero-copy producer side (claim, commit) as the pcap_next_ex capture loop uses it. */
class FrameRingTest {
    @Test
    void claimedSlotsAreHandedOverInOrderAndAFullRingSaysSo() {
        final FrameRing ring = new FrameRing(4, 64);
        for (int i = 0; i < 4; i++) {
            final byte[] slot = ring.claim();
            assertNotSame(FrameRing.FULL, slot);
            assertEquals(64, slot.length);
            Arrays.fill(slot, 0, 10 + i, (byte) i);
            ring.commit(10 + i, i == 3 ? 100 : 10 + i, 1000L + i);
        }
        assertSame(FrameRing.FULL, ring.claim());
        ring.countDrop();
        assertEquals(1, ring.drops());
        assertEquals(1, ring.truncated(), "the frame longer on the wire than its slot");
        final List<String> seen = new ArrayList<>();
        assertEquals(3, ring.drain((buf, off, len, ts, ifIndex) -> {
            final byte[] expected = new byte[len];
            Arrays.fill(expected, (byte) (len - 10));
            assertArrayEquals(expected, Arrays.copyOfRange(buf, off, off + len));
            seen.add(len + "@" + ts + "/" + ifIndex);
        }, 7, 3));
        assertEquals(List.of("10@1000/7", "11@1001/7", "12@1002/7"), seen);
        assertEquals(1, ring.size());
        assertNotSame(FrameRing.FULL, ring.claim(), "room again after the drain");
    }
}
