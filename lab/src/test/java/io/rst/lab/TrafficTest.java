/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TrafficTest {
    @Test
    void noTwoQpsOrCommIdsOfAHostShareANumber(@TempDir final Path dir) throws Exception {
        final Fabric fabric = Fabric.defaults();
        final Path truthFile = dir.resolve("truth.jsonl");
        final AtomicLong packets = new AtomicLong();
        try (var truth = new Truth.Writer(truthFile);
                var traffic = new Traffic(fabric, truth, 1, (host, src, port, dst, payload, count) ->
                    packets.addAndGet(count))) {
            // 8 hosts, 300,000 connections: drawn at random from 2^24 (QPNs) or 2^32 (comm IDs), some would repeat
            traffic.run(new Traffic.Options(100_000, 300_000, 300_000, 0, 7, 0, false));
            traffic.quiesce();
        }
        final Map<String, Set<Integer>> byHost = new HashMap<>();
        // comm IDs too: drawn at random from 2^32, a few of a host's would be equal in most runs of
        // the lab benchmark, and its switches' agents could take one's REP for the other's
        final Map<String, Set<String>> cids = new HashMap<>();
        int connections = 0;
        for (var c : Truth.read(truthFile)) {
            connections++;
            assertTrue(byHost.computeIfAbsent(c.requester(), h -> new HashSet<>()).add(c.requesterQpn()),
                "QPN " + c.requesterQpn() + " twice at " + c.requester());
            assertTrue(byHost.computeIfAbsent(c.responder(), h -> new HashSet<>()).add(c.responderQpn()),
                "QPN " + c.responderQpn() + " twice at " + c.responder());
            assertTrue(c.requesterQpn() > 1 && c.requesterQpn() <= 0xffffff);
            assertTrue(cids.computeIfAbsent(c.requester(), h -> new HashSet<>()).add(c.requesterCid()),
                "comm ID " + c.requesterCid() + " twice at " + c.requester());
            if (c.responderCid() != null) {
                assertTrue(cids.computeIfAbsent(c.responder(), h -> new HashSet<>()).add(c.responderCid()),
                    "comm ID " + c.responderCid() + " twice at " + c.responder());
            }
            assertNotEquals("0x00000000", c.requesterCid());
        }
        assertEquals(300_000, connections);
        assertTrue(packets.get() >= 3L * connections, "REQ, REP and RTU of each went to the wire: " + packets.get());
    }
}
