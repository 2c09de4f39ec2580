/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.yang.time;

import java.nio.charset.StandardCharsets;
import org.eclipse.jdt.annotation.Nullable;

/**
 * The models' times ({@code yang:date-and-time}, RFC 3339) to and from microseconds since the
 * Unix epoch, without {@code java.time} objects on the way: the flow table writes one or more
 * per CM message it ingests.
 *
 * <p>What RST writes is always UTC with six fraction digits ({@code 2026-12-01T09:30:00.000123Z},
 * 27 characters), so that equal times are equal strings and times sort as text. What it reads may
 * be any RFC 3339 time the model's pattern admits: any number of fraction digits (beyond six
 * truncated toward the past) and any offset.
 */
public final class Times {
    /** What {@link #micros(CharSequence)} answers for anything it cannot read. */
    public static final long INVALID = Long.MIN_VALUE;

    /** 0000-01-01T00:00:00Z in microseconds since the epoch: the first time four year digits hold. */
    public static final long MIN_MICROS = -62_167_219_200_000_000L;
    /** 9999-12-31T23:59:59.999999Z in microseconds since the epoch: the last one. */
    public static final long MAX_MICROS = 253_402_300_799_999_999L;

    private static final long MICROS_PER_DAY = 86_400_000_000L;
    private static final int LENGTH = 27;

    private Times() {
        // static only
    }

    /**
     * The time as RST writes it; {@code null} outside years 0000-9999, which
     * {@code yang:date-and-time} cannot say.
     */
    public static @Nullable String format(final long epochMicros) {
        if (epochMicros < MIN_MICROS || epochMicros > MAX_MICROS) {
            return null;
        }
        final long days = Math.floorDiv(epochMicros, MICROS_PER_DAY);
        final byte[] out = new byte[LENGTH];
        // civil date from days since 1970-01-01 (proleptic Gregorian, H. Hinnant's algorithm)
        final long z = days + 719_468;
        final long era = Math.floorDiv(z, 146_097);
        final long doe = z - era * 146_097;
        final long yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        final long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        final long mp = (5 * doy + 2) / 153;
        final int day = (int) (doy - (153 * mp + 2) / 5 + 1);
        final int month = (int) (mp < 10 ? mp + 3 : mp - 9);
        final int year = (int) (yoe + era * 400 + (month <= 2 ? 1 : 0));
        digits(out, 0, year, 4);
        out[4] = '-';
        digits(out, 5, month, 2);
        out[7] = '-';
        digits(out, 8, day, 2);
        out[10] = 'T';
        long ofDay = Math.floorMod(epochMicros, MICROS_PER_DAY);
        final int micros = (int) (ofDay % 1_000_000);
        ofDay /= 1_000_000;
        digits(out, 11, (int) (ofDay / 3600), 2);
        out[13] = ':';
        digits(out, 14, (int) (ofDay / 60 % 60), 2);
        out[16] = ':';
        digits(out, 17, (int) (ofDay % 60), 2);
        out[19] = '.';
        digits(out, 20, micros, 6);
        out[26] = 'Z';
        return new String(out, StandardCharsets.ISO_8859_1);
    }

    /** Milliseconds since the epoch as RST writes them (see {@link #format(long)}). */
    public static @Nullable String formatMillis(final long epochMillis) {
        return epochMillis > MAX_MICROS / 1_000 || epochMillis < MIN_MICROS / 1_000 ? null
            : format(epochMillis * 1_000);
    }

    /**
     * An RFC 3339 date-time ({@code YYYY-MM-DDThh:mm:ss[.fraction](Z|+hh:mm|-hh:mm)}, {@code T} and
     * {@code Z} in either case) as microseconds since the epoch, or {@link #INVALID}.
     */
    public static long micros(final CharSequence text) {
        final int n = text.length();
        if (n < 20 || text.charAt(4) != '-' || text.charAt(7) != '-' || (text.charAt(10) | 0x20) != 't'
            || text.charAt(13) != ':' || text.charAt(16) != ':') {
            return INVALID;
        }
        final int year = number(text, 0, 4);
        final int month = number(text, 5, 2);
        final int day = number(text, 8, 2);
        final int hour = number(text, 11, 2);
        final int minute = number(text, 14, 2);
        final int second = number(text, 17, 2);
        if (year < 0 || month < 1 || month > 12 || day < 1 || day > daysIn(year, month) || hour < 0 || hour > 23
            || minute < 0 || minute > 59 || second < 0 || second > 60) {
            return INVALID;
        }
        int pos = 19;
        long fraction = 0;
        if (text.charAt(pos) == '.') {
            pos++;
            final int start = pos;
            while (pos < n && text.charAt(pos) >= '0' && text.charAt(pos) <= '9') {
                if (pos - start < 6) {
                    fraction = fraction * 10 + text.charAt(pos) - '0';
                }
                pos++;
            }
            if (pos == start) {
                return INVALID;
            }
            for (int k = pos - start; k < 6; k++) {
                fraction *= 10;
            }
        }
        if (pos >= n) {
            return INVALID;
        }
        final long offsetSeconds;
        final char zone = text.charAt(pos);
        if ((zone | 0x20) == 'z' && pos + 1 == n) {
            offsetSeconds = 0;
        } else if ((zone == '+' || zone == '-') && pos + 6 == n && text.charAt(pos + 3) == ':') {
            final int oh = number(text, pos + 1, 2);
            final int om = number(text, pos + 4, 2);
            if (oh < 0 || oh > 23 || om < 0 || om > 59) {
                return INVALID;
            }
            offsetSeconds = (zone == '+' ? 1 : -1) * (oh * 3600L + om * 60L);
        } else {
            return INVALID;
        }
        // days since 1970-01-01 from the civil date (H. Hinnant's algorithm)
        final long y = month <= 2 ? year - 1 : year;
        final long era = Math.floorDiv(y, 400);
        final long yoe = y - era * 400;
        final long doy = (153L * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
        final long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        final long days = era * 146_097 + doe - 719_468;
        final long seconds = days * 86_400 + hour * 3600L + minute * 60L + second - offsetSeconds;
        return seconds * 1_000_000 + fraction;
    }

    /** {@link #micros(CharSequence)} as seconds; {@code NaN} for {@link #INVALID}. */
    public static double seconds(final CharSequence text) {
        final long micros = micros(text);
        return micros == INVALID ? Double.NaN : micros / 1e6;
    }

    private static int daysIn(final int year, final int month) {
        return switch (month) {
            case 2 -> year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28;
            case 4, 6, 9, 11 -> 30;
            default -> 31;
        };
    }

    private static int number(final CharSequence text, final int at, final int count) {
        int value = 0;
        for (int i = at; i < at + count; i++) {
            final char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + c - '0';
        }
        return value;
    }

    private static void digits(final byte[] out, final int at, final int value, final int count) {
        int rest = value;
        for (int i = at + count - 1; i >= at; i--) {
            out[i] = (byte) ('0' + rest % 10);
            rest /= 10;
        }
    }
}
