/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.yang.time;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link Times} against {@code java.time}, the reference: every time of years 0000-9999 the same
 * text both ways, and the RFC 3339 forms others write read as java.time reads them.
 */
class TimesTest {
    private static final DateTimeFormatter SIX =
        DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);
    private static final String[] PATTERN = {
        // yang:date-and-time's pattern (ietf-yang-types 2013-07-15)
        "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[\\+\\-]\\d{2}:\\d{2})",
    };

    @Test
    void formatsAsJavaTimeAndReadsBack() {
        final var random = new SplittableRandom(20261202);
        for (int i = 0; i < 200_000; i++) {
            final long micros = i < 100_000 ? random.nextLong(Times.MIN_MICROS, Times.MAX_MICROS + 1)
                // near today, where the sessions are
                : 1_796_000_000_000_000L + random.nextLong(0, 400L * 86_400_000_000L);
            final String text = Times.format(micros);
            final Instant instant = Instant.EPOCH.plus(micros, ChronoUnit.MICROS);
            assertEquals(SIX.format(instant), text, "format of " + micros);
            assertTrue(text.matches(PATTERN[0]), text);
            assertEquals(micros, Times.micros(text), text);
        }
    }

    @Test
    void edgesOfWhatFourYearDigitsHold() {
        assertEquals("0000-01-01T00:00:00.000000Z", Times.format(Times.MIN_MICROS));
        assertEquals("9999-12-31T23:59:59.999999Z", Times.format(Times.MAX_MICROS));
        assertEquals("1970-01-01T00:00:00.000000Z", Times.format(0));
        assertEquals("1969-12-31T23:59:59.999999Z", Times.format(-1));
        assertEquals("2024-02-29T12:00:00.000000Z", Times.format(1_709_208_000_000_000L));
        assertEquals("2026-12-02T03:07:13.123000Z", Times.formatMillis(1_796_180_833_123L));
        assertNull(Times.format(Times.MIN_MICROS - 1));
        assertNull(Times.format(Times.MAX_MICROS + 1));
        assertNull(Times.formatMillis(Long.MAX_VALUE));
        assertNull(Times.formatMillis(Long.MIN_VALUE));
    }

    @Test
    void readsWhatOthersWriteAsJavaTimeDoes() {
        for (String text : new String[] {
            "2026-12-01T09:30:00Z", "2026-12-01T09:30:00.5Z", "2026-12-01T09:30:00.123456789Z",
            "2026-12-01t09:30:00.1z", "2026-12-01T09:30:00.000123+02:00", "2026-12-01T09:30:00-05:30",
            "2024-02-29T23:59:59.999999-00:00", "1900-03-01T00:00:00+14:00",
        }) {
            final var parsed = OffsetDateTime.parse(text.toUpperCase(java.util.Locale.ROOT)).toInstant()
                .truncatedTo(ChronoUnit.MICROS);
            assertEquals(ChronoUnit.MICROS.between(Instant.EPOCH, parsed), Times.micros(text), text);
        }
        assertEquals(1.5, Times.seconds("1970-01-01T00:00:01.5Z"));
    }

    @Test
    void refusesWhatIsNotATime() {
        for (String text : new String[] {
            "", "1796103779.000056", "2026-12-01", "2026-12-01T09:30:00", "2026-12-01T09:30:00.Z",
            "2026-13-01T09:30:00Z", "2026-02-30T09:30:00Z", "2025-02-29T00:00:00Z", "2026-12-01T24:00:00Z",
            "2026-12-01T09:60:00Z", "2026-12-01T09:30:61Z", "2026-12-01 09:30:00Z", "2026-12-01T09:30:00+2:00",
            "2026-12-01T09:30:00+24:00", "2026-12-01T09:30:00Zjunk", "2026-1a-01T09:30:00Z", "garbage-garbage-garbage",
        }) {
            assertEquals(Times.INVALID, Times.micros(text), text);
            assertTrue(Double.isNaN(Times.seconds(text)), text);
        }
    }
}
