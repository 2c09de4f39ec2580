/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.lab;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The lab's pieces around data-learned sessions that need no traffic: options, the truth file, the bench's figures. */
class DataLearnedLabTest {
    @Test
    void theTruthFileKeepsCmConnectionsAndQpPairsApart(@TempDir final Path dir) throws Exception {
        final Path file = dir.resolve("truth.jsonl");
        try (var w = new Truth.Writer(file)) {
            w.started(1, "LIVE", "h1a", "10.1.0.2", "h2a", "10.2.0.2", "0x00000001", "0x00000002", 0x10, 0x20, 50000,
                50001, 50002, 50003, "ESTABLISHED", -1);
            // a fact of QP pair 2 before its own line (the two sides write from their own threads)
            w.ncclFact(2, "nccl-pairable", 1500);
            w.nccl(new Truth.NcclQp(2, 2, "h1b", "10.1.1.2", 0x30, 7, 50010, "h3a", "10.3.0.2", 0x40, 9, 50011, false,
                true, 1000, -1, -1));
            w.ncclFact(2, "nccl-pairable", 1600);
            w.ncclFact(2, "nccl-ended", 9000);
            // an id the CM side's expect line names: never taken for the QP pair's
            w.expect(1, "CLOSED");
        }
        final var cm = Truth.read(file);
        assertEquals(1, cm.size());
        assertEquals("CLOSED", cm.get(0).expect());
        final var qps = Truth.readNccl(file);
        assertEquals(1, qps.size());
        assertEquals(1500, qps.get(0).pairableMs());
        assertEquals(9000, qps.get(0).endedMs());
        assertEquals("10.1.1.2/qp0x000030/10.3.0.2/qp0x000040", qps.get(0).sessionId());
        assertTrue(Files.readString(file, StandardCharsets.UTF_8).contains(
            "\"sessionId\":\"10.1.1.2/qp0x000030/10.3.0.2/qp0x000040\""), "the id is written for an operator to read");
        assertEquals(3, Truth.nextId(file));
    }

    @Test
    void ncclOptionsAreChecked() {
        final var d = NcclTraffic.Options.defaults(1);
        assertEquals(16, d.burstMessages());
        assertEquals(512, NcclTraffic.Options.defaults(64).burstMessages(), "8 N messages at 1/N sampling");
        assertEquals(0, NcclTraffic.Options.defaults(64).burstGapMs(), "back to back at 1/64");
        assertThrows(IllegalArgumentException.class, () -> NcclTraffic.Options.defaults(3));
        assertThrows(IllegalArgumentException.class, () -> d.withQps(3, 2));
        assertThrows(IllegalArgumentException.class, () -> d.withShares(1.5, 0));
        assertThrows(IllegalArgumentException.class, () -> d.withBurst(0, 1));
        assertThrows(IllegalArgumentException.class, () -> new Traffic.Options(10, 10, 0, 0, 1, 1, true, -0.1));
        assertEquals(0, new Traffic.Options(10, 10, 0, 0, 1, 1, true).ncclShare());
    }

    @Test
    void qpRangesAreRead() {
        assertArrayEquals(new int[] {2, 4}, LabMain.range(null, 2, 4));
        assertArrayEquals(new int[] {1, 8}, LabMain.range("1-8", 2, 4));
        assertArrayEquals(new int[] {3, 3}, LabMain.range("3", 2, 4));
        assertThrows(IllegalArgumentException.class, () -> LabMain.range("two", 2, 4));
    }

    @Test
    void theBenchComparesTheTwoP99s() {
        final List<Long> cm = List.of(100L, 200L, 300L, 400L);
        final List<Long> data = List.of(150L, 250L, 500L, 600L);
        assertEquals(1.5, LabBench.ratio(data, cm), 1e-9);
        assertTrue(Double.isNaN(LabBench.ratio(List.of(), cm)));
        assertTrue(LabBench.ratio(data, cm) <= LabBench.DATA_P99_RATIO_FLOOR);
        assertFalse(LabBench.ratio(List.of(601L), cm) <= LabBench.DATA_P99_RATIO_FLOOR);
    }

    @Test
    void aDataLearnedPathIsCompleteWhenBothDataPathsAre() throws Exception {
        assertTrue(LabBench.dataComplete(Restconf.JSON.readTree(
            "{\"data-forward\":{\"complete\":true},\"data-reverse\":{\"complete\":true}}")));
        assertFalse(LabBench.dataComplete(Restconf.JSON.readTree(
            "{\"data-forward\":{\"complete\":true},\"data-reverse\":{\"complete\":false}}")));
        assertFalse(LabBench.dataComplete(Restconf.JSON.readTree("{\"data-forward\":{\"complete\":true}}")));
    }
}
