/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.manager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * When an agent counts as dropping: its counters grew between two probes; not for what it had
 * dropped before the controller first saw it; no longer after a quiet minute; a restart's lower
 * count is a new start, not a negative growth.
 */
public class CaptureDropsTest {
    @Test
    public void growthBetweenProbesIsDroppingUntilAQuietMinutePasses() {
        final var drops = new CaptureDrops(Duration.ofMinutes(1));
        assertFalse(drops.known());
        // what the agent dropped before the controller saw it says nothing of now
        drops.update(500, 20, 1_000);
        assertTrue(drops.known());
        assertEquals(520, drops.total());
        assertEquals(0, drops.sinceMillis());

        drops.update(500, 20, 6_000);
        assertEquals(0, drops.sinceMillis());
        drops.update(510, 25, 11_000);
        assertEquals(11_000, drops.sinceMillis());
        assertEquals(11_000, drops.lastMillis());
        assertEquals(510, drops.kernel());
        assertEquals(25, drops.queue());
        // still growing: since stays, last moves
        drops.update(600, 25, 16_000);
        assertEquals(11_000, drops.sinceMillis());
        assertEquals(16_000, drops.lastMillis());
        // quiet, but not for a minute yet
        drops.update(600, 25, 75_000);
        assertEquals(11_000, drops.sinceMillis());
        // a minute without growth: no longer dropping
        drops.update(600, 25, 76_000);
        assertEquals(0, drops.sinceMillis());
        assertEquals(16_000, drops.lastMillis());
        // dropping again: a new since
        drops.update(601, 25, 81_000);
        assertEquals(81_000, drops.sinceMillis());
    }

    @Test
    public void anAgentRestartedCountsFromZeroAgain() {
        final var drops = new CaptureDrops(Duration.ofMinutes(1));
        drops.update(600, 25, 1_000);
        // restarted: its counters start again; 0 is no drop, 3 are new drops
        drops.update(0, 0, 6_000);
        assertEquals(0, drops.sinceMillis());
        assertEquals(0, drops.total());
        drops.update(3, 0, 11_000);
        assertEquals(11_000, drops.sinceMillis());
        final var restarted = new CaptureDrops(Duration.ofMinutes(1));
        restarted.update(600, 25, 1_000);
        restarted.update(2, 1, 6_000);
        assertEquals(6_000, restarted.sinceMillis());
    }
}
