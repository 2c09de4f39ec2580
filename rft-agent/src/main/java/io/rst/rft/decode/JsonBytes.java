/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.decode;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A growable byte buffer with the few JSON writers our output needs. It writes ASCII directly:
 * no String, no boxing, no allocation once the buffer has grown to the longest line. Used by the
 * {@code decode}/{@code sessions} commands (hot path) and by {@code toString()} (slow path).
 */
public final class JsonBytes {
    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    private static final long[] POW10 = {1L, 10L, 100L, 1000L, 10000L, 100000L, 1000000L, 10000000L,
        100000000L, 1000000000L};

    private byte[] buf;
    private int len;

    public JsonBytes(final int initialCapacity) {
        buf = new byte[Math.max(16, initialCapacity)];
    }

    /** Number of bytes written. */
    public int length() {
        return len;
    }

    public void reset() {
        len = 0;
    }

    /** Writes the content to {@code out} and empties the buffer. */
    public void drainTo(final OutputStream out) throws IOException {
        out.write(buf, 0, len);
        len = 0;
    }

    @Override
    public String toString() {
        return new String(buf, 0, len, StandardCharsets.US_ASCII);
    }

    private void ensure(final int more) {
        if (len + more > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + more));
        }
    }

    /** The ASCII bytes of a constant, for {@link #raw(byte[])}. */
    public static byte[] ascii(final String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    public JsonBytes raw(final char ch) {
        ensure(1);
        buf[len++] = (byte) ch;
        return this;
    }

    /** Appends pre-encoded ASCII bytes (keys, constants: the fast path). */
    public JsonBytes raw(final byte[] ascii) {
        ensure(ascii.length);
        System.arraycopy(ascii, 0, buf, len, ascii.length);
        len += ascii.length;
        return this;
    }

    /** Appends ASCII text as is (keys, constants). */
    public JsonBytes raw(final String ascii) {
        final int n = ascii.length();
        ensure(n);
        for (int i = 0; i < n; i++) {
            buf[len++] = (byte) ascii.charAt(i);
        }
        return this;
    }

    /** Appends {@code count} pre-encoded bytes of {@code bytes} from {@code off}. */
    public JsonBytes raw(final byte[] bytes, final int off, final int count) {
        ensure(count);
        System.arraycopy(bytes, off, buf, len, count);
        len += count;
        return this;
    }

    /** Appends a JSON string, escaping what JSON requires (for names from outside, e.g. ports). */
    public JsonBytes string(final String text) {
        ensure(text.length() * 6 + 2);
        buf[len++] = '"';
        for (int i = 0; i < text.length(); i++) {
            final char c = text.charAt(i);
            if (c == '"' || c == '\\') {
                buf[len++] = '\\';
                buf[len++] = (byte) c;
            } else if (c < 0x20 || c > 0x7e) {
                buf[len++] = '\\';
                buf[len++] = 'u';
                buf[len++] = HEX[c >>> 12 & 0xf];
                buf[len++] = HEX[c >>> 8 & 0xf];
                buf[len++] = HEX[c >>> 4 & 0xf];
                buf[len++] = HEX[c & 0xf];
            } else {
                buf[len++] = (byte) c;
            }
        }
        buf[len++] = '"';
        return this;
    }

    /** Appends a signed decimal. */
    public JsonBytes decimal(final long value) {
        if (value >= 0 && value <= Integer.MAX_VALUE) {
            return decimal((int) value);
        }
        return raw(Long.toString(value));
    }

    /** Appends a signed decimal (int arithmetic: the common case, and the fast one). */
    public JsonBytes decimal(final int value) {
        ensure(11);
        int num = value;
        if (num < 0) {
            if (num == Integer.MIN_VALUE) {
                return raw(Integer.toString(num));
            }
            buf[len++] = '-';
            num = -num;
        }
        final int digits = digits(num);
        int pos = len + digits;
        len = pos;
        while (num >= 100) {
            final int q = num / 100;
            final int r = num - q * 100;
            buf[--pos] = DIGIT_ONES[r];
            buf[--pos] = DIGIT_TENS[r];
            num = q;
        }
        buf[--pos] = DIGIT_ONES[num];
        if (num >= 10) {
            buf[--pos] = DIGIT_TENS[num];
        }
        return this;
    }

    private static int digits(final int value) {
        if (value < 10) {
            return 1;
        }
        if (value < 100) {
            return 2;
        }
        if (value < 1000) {
            return 3;
        }
        if (value < 10000) {
            return 4;
        }
        if (value < 100000) {
            return 5;
        }
        if (value < 1000000) {
            return 6;
        }
        if (value < 10000000) {
            return 7;
        }
        if (value < 100000000) {
            return 8;
        }
        return value < 1000000000 ? 9 : 10;
    }

    private static final byte[] DIGIT_TENS = new byte[100];
    private static final byte[] DIGIT_ONES = new byte[100];

    static {
        for (int i = 0; i < 100; i++) {
            DIGIT_TENS[i] = (byte) ('0' + i / 10);
            DIGIT_ONES[i] = (byte) ('0' + i % 10);
        }
    }

    /** Appends {@code length} bytes of another buffer from {@code off}. */
    public JsonBytes append(final JsonBytes other, final int off, final int length) {
        return raw(other.buf, off, length);
    }

    /** Appends the bytes another buffer holds. */
    public JsonBytes append(final JsonBytes other) {
        ensure(other.len);
        System.arraycopy(other.buf, 0, buf, len, other.len);
        len += other.len;
        return this;
    }

    /** A copy of the bytes written. */
    public byte[] toByteArray() {
        return Arrays.copyOf(buf, len);
    }

    /** Appends {@code "0x" + digits} lowercase hex digits of {@code value}, unquoted. */
    public JsonBytes hex(final long value, final int digits) {
        ensure(digits + 2);
        buf[len++] = '0';
        buf[len++] = 'x';
        for (int i = digits - 1; i >= 0; i--) {
            buf[len++] = HEX[(int) (value >>> (i * 4)) & 0xf];
        }
        return this;
    }

    /** Appends {@code "0x" + digits} lowercase hex digits of {@code value}, quoted. */
    public JsonBytes hexString(final long value, final int digits) {
        ensure(digits + 4);
        buf[len++] = '"';
        buf[len++] = '0';
        buf[len++] = 'x';
        for (int i = digits - 1; i >= 0; i--) {
            buf[len++] = HEX[(int) (value >>> (i * 4)) & 0xf];
        }
        buf[len++] = '"';
        return this;
    }

    /** Appends nanoseconds since the epoch as seconds with {@code fraction} digits (0..9). */
    public JsonBytes seconds(final long nanos, final int fraction) {
        final long sec = Math.floorDiv(nanos, 1_000_000_000L);
        int frac = (int) (Math.floorMod(nanos, 1_000_000_000L) / POW10[9 - fraction]);
        decimal(sec);
        if (fraction > 0) {
            ensure(fraction + 1);
            buf[len++] = '.';
            for (int i = fraction - 1; i >= 0; i--) {
                final int q = frac / 10;
                buf[len + i] = (byte) ('0' + frac - q * 10);
                frac = q;
            }
            len += fraction;
        }
        return this;
    }

    /**
     * Appends an IP address as a quoted string: IPv4 dotted, IPv6 as RFC 5952 (lowercase, no
     * leading zeros, the longest run of two or more zero groups as "::", the first on a tie,
     * IPv4-mapped addresses as ::ffff:a.b.c.d).
     */
    public JsonBytes ip(final byte[] addr, final int version) {
        return ip(addr, 0, version);
    }

    /** Appends the address at {@code addr[off..]} (4 or 16 bytes) as a quoted string. */
    public JsonBytes ip(final byte[] addr, final int off, final int version) {
        ensure(48);
        buf[len++] = '"';
        ipText(addr, off, version);
        buf[len++] = '"';
        return this;
    }

    /** Appends the address at {@code addr[off..]} (4 or 16 bytes) unquoted, as {@link #ip} would. */
    public JsonBytes ipText(final byte[] addr, final int off, final int version) {
        ensure(46);
        if (version == 4) {
            dotted(addr, off);
        } else {
            ipv6(addr, off);
        }
        return this;
    }

    private void dotted(final byte[] addr, final int off) {
        for (int i = 0; i < 4; i++) {
            if (i > 0) {
                buf[len++] = '.';
            }
            decimal(addr[off + i] & 0xff);
        }
    }

    private void ipv6(final byte[] addr, final int off) {
        boolean mapped = true;
        for (int i = 0; i < 10; i++) {
            mapped &= addr[off + i] == 0;
        }
        if (mapped && (addr[off + 10] & 0xff) == 0xff && (addr[off + 11] & 0xff) == 0xff) {
            raw("::ffff:");
            dotted(addr, off + 12);
            return;
        }
        int bestStart = -1;
        int bestLen = 1;
        for (int g = 0; g < 8;) {
            if (group(addr, off, g) == 0) {
                int runEnd = g;
                while (runEnd < 8 && group(addr, off, runEnd) == 0) {
                    runEnd++;
                }
                if (runEnd - g > bestLen) {
                    bestStart = g;
                    bestLen = runEnd - g;
                }
                g = runEnd;
            } else {
                g++;
            }
        }
        for (int g = 0; g < 8; g++) {
            if (g == bestStart) {
                buf[len++] = ':';
                buf[len++] = ':';
                g += bestLen - 1;
                continue;
            }
            if (g > 0 && g != bestStart + bestLen) {
                buf[len++] = ':';
            }
            final int v = group(addr, off, g);
            boolean started = false;
            for (int s = 12; s >= 0; s -= 4) {
                final int d = v >>> s & 0xf;
                if (d != 0 || started || s == 0) {
                    buf[len++] = HEX[d];
                    started = true;
                }
            }
        }
    }

    private static int group(final byte[] addr, final int off, final int index) {
        return (addr[off + 2 * index] & 0xff) << 8 | addr[off + 2 * index + 1] & 0xff;
    }

    /** The address as a String (slow path). */
    public static String ipString(final byte[] addr, final int version) {
        final JsonBytes j = new JsonBytes(48);
        j.ip(addr, version);
        return new String(j.buf, 1, j.len - 2, StandardCharsets.US_ASCII);
    }
}
