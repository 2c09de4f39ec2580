/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which sessions {@code rst lab check} compares while traffic runs: those the generator last wrote
 * of at least the settle time before the check; the newer ones are counted as in flight.
 */
class PathCheckSettledTest {
    private static Truth.Connection conn(final long id, final long changedMillis) {
        return new Truth.Connection(id, "LIVE", "h1", "10.1.0.2", "h2", "10.2.0.2", "0x00000001", "0x00000002",
            100, 200, 50000, 50001, 50002, 50003, "ESTABLISHED", -1, changedMillis);
    }

    @Test
    void leavesOutWhatChangedWithinTheSettleTime() {
        final var conns = List.of(conn(1, 1_000), conn(2, 5_000), conn(3, 5_001), conn(4, 9_999), conn(5, 3_000));
        final var s = PathCheck.settled(conns, 10_000, 5_000);
        assertEquals(List.of(1L, 2L, 5L), s.connections().stream().map(Truth.Connection::id).toList());
        assertEquals(2, s.inFlight());
    }

    @Test
    void settleZeroTakesEverythingAndUnknownTimesCountAsSettled() {
        final var conns = List.of(conn(1, 0), conn(2, 10_000));
        assertEquals(2, PathCheck.settled(conns, 10_000, 0).connections().size());
        final var s = PathCheck.settled(conns, 10_000, 5_000);
        assertEquals(List.of(1L), s.connections().stream().map(Truth.Connection::id).toList());
        assertEquals(1, s.inFlight());
    }

    @Test
    void aLiveSessionClosedLaterIsInFlightAgain(@TempDir final Path dir) throws Exception {
        final Path file = dir.resolve("truth.jsonl");
        final AtomicLong now = new AtomicLong(1_000);
        try (var w = new Truth.Writer(file, now::get)) {
            w.started(1, "LIVE", "h1", "10.1.0.2", "h2", "10.2.0.2", "0x00000001", "0x00000002", 100, 200, 50000,
                50001, 50002, 50003, "ESTABLISHED", -1);
            now.set(2_000);
            w.started(2, "LIVE", "h2", "10.2.0.2", "h1", "10.1.0.2", "0x00000003", "0x00000004", 101, 201, 50004,
                50005, 50006, 50007, "ESTABLISHED", -1);
            now.set(9_000);
            w.expect(1, "CLOSED");
        }
        final var conns = Truth.read(file);
        assertEquals(List.of(9_000L, 2_000L), conns.stream().map(Truth.Connection::changedMillis).toList());
        assertEquals("CLOSED", conns.get(0).expect());
        final var s = PathCheck.settled(conns, 12_000, 5_000);
        assertEquals(List.of(2L), s.connections().stream().map(Truth.Connection::id).toList());
        assertEquals(1, s.inFlight());
    }

    @Test
    void aLineBeingWrittenIsLeftForTheNextRead(@TempDir final Path dir) throws Exception {
        final Path file = dir.resolve("truth.jsonl");
        try (var w = new Truth.Writer(file, () -> 1_000)) {
            w.started(1, "LIVE", "h1", "10.1.0.2", "h2", "10.2.0.2", "0x00000001", "0x00000002", 100, 200, 50000,
                50001, 50002, 50003, "ESTABLISHED", -1);
        }
        Files.writeString(file, "{\"id\":2,\"scenario\":\"LI", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        assertEquals(List.of(1L), Truth.read(file).stream().map(Truth.Connection::id).toList());
    }
}
