/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rst.rft.pcap.DataFrameBuilder;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** What a data-learned flow costs: the table's heap at 1,000,000 flows, as an agent holds them. */
class DataFlowHeapTest {
    private static final Logger LOG = LoggerFactory.getLogger(DataFlowHeapTest.class);

    @Test
    void heapPerTrackedFlowIsWithinBudget() {
        final int sessions = 500_000;
        final DataTraffic d = new DataTraffic(new SessionConfig(16, 600_000_000L, 0L, 32),
            new DataConfig(1_000_000, 30_000_000L, 5_000_000L));
        final byte[] a = new byte[4];
        final byte[] b = new byte[4];
        final long before = usedHeap();
        for (int i = 0; i < sessions; i++) {
            // each session between two hosts of its own: an address pair index entry per flow
            a[0] = 10;
            a[1] = (byte) (i >>> 16);
            a[2] = (byte) (i >>> 8);
            a[3] = (byte) i;
            b[0] = 11;
            System.arraycopy(a, 1, b, 1, 3);
            final int psn = i * 7 & 0xffffff;
            d.send(a, b, 0x1000 + (i & 0xff), DataFrameBuilder.RC_WRITE_ONLY, psn);
            d.send(b, a, 0x2000 + (i & 0xff), DataFrameBuilder.RC_ACK, psn);
            d.send(a, b, 0x1000 + (i & 0xff), DataFrameBuilder.RC_WRITE_ONLY, psn + 1);
            d.send(b, a, 0x2000 + (i & 0xff), DataFrameBuilder.RC_ACK, psn + 1);
            if ((i & 1023) == 0) {
                // the agent drains every batch: what stays is the queue of reported records
                d.drainQuietly();
            }
        }
        d.drainQuietly();
        final long after = usedHeap();
        assertEquals(2 * sessions, d.table.dataFlows());
        assertEquals(sessions, d.table.dataSessions());
        assertEquals(0, d.table.dataFlowsEvicted());
        final double perFlow = (after - before) / (double) d.table.dataFlows();
        LOG.info("heap per data flow: {} bytes ({} flows, {} paired sessions)", String.format("%.1f", perFlow),
            d.table.dataFlows(), d.table.dataSessions());
        assertTrue(perFlow <= 256, "heap per data flow " + perFlow);
        // and the table is full at --max-flows: one more session evicts the least recently seen
        a[0] = 12;
        b[0] = 13;
        d.send(a, b, 0x77, DataFrameBuilder.RC_WRITE_ONLY, 1);
        assertEquals(1_000_000, d.table.dataFlows() + 1, "a paired session (two flows) made room for one");
        assertEquals(2, d.table.dataFlowsEvicted());
    }

    private static long usedHeap() {
        final Runtime rt = Runtime.getRuntime();
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            System.gc();
            used = Math.min(used, rt.totalMemory() - rt.freeMemory());
        }
        return used;
    }
}
