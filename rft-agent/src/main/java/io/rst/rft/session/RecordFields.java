/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.session;

import java.math.BigDecimal;
import org.eclipse.jdt.annotation.Nullable;

/**
 * Fields of a saved {@link SessionRecord} read back into the table's form, for restore and
 * forget: each returns null (or an empty array) for what this table cannot have written, so that a
 * damaged record is refused instead of restored wrong.
 */
final class RecordFields {
    private RecordFields() {
    }

    static long micros(final BigDecimal seconds) {
        return seconds.movePointRight(6).setScale(0, java.math.RoundingMode.HALF_UP).longValue();
    }

    static @Nullable Integer parseHex32(final String text) {
        if (text.length() != 10 || !text.startsWith("0x")) {
            return null;
        }
        try {
            return Integer.parseUnsignedInt(text, 2, 10, 16);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    static @Nullable Long parseHex64(final String text) {
        if (text.length() != 18 || !text.startsWith("0x")) {
            return null;
        }
        try {
            return Long.parseUnsignedLong(text, 2, 18, 16);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static final long[] NO_IP = new long[0];

    /** An address as the index keys it ({hi, lo}), or an empty array if it is not an IP literal. */
    static long[] parseIp(final String ip, final int version) {
        for (int i = 0; i < ip.length(); i++) {
            final char c = ip.charAt(i);
            // literals only: InetAddress would otherwise ask DNS
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' || c == ':' || c == '.')) {
                return NO_IP;
            }
        }
        if (ip.isEmpty() || version == 4 && ip.indexOf(':') >= 0 || version == 6 && ip.indexOf(':') < 0) {
            return NO_IP;
        }
        final byte[] raw;
        try {
            raw = java.net.InetAddress.getByName(ip).getAddress();
        } catch (java.net.UnknownHostException e) {
            return NO_IP;
        }
        final byte[] b;
        if (version == 6 && raw.length == 4) {
            // Java turns ::ffff:a.b.c.d into an IPv4 address; the wire had the IPv6 form
            b = new byte[16];
            b[10] = (byte) 0xff;
            b[11] = (byte) 0xff;
            System.arraycopy(raw, 0, b, 12, 4);
        } else if (version == 4 && raw.length != 4) {
            return NO_IP;
        } else {
            b = raw;
        }
        if (version == 4) {
            return new long[] {(long) SessionTable.V4_MARK << 60, be(b, 0, 4)};
        }
        return new long[] {be(b, 0, 8), be(b, 8, 8)};
    }

    private static long be(final byte[] bytes, final int off, final int count) {
        long value = 0;
        for (int i = 0; i < count; i++) {
            value = value << 8 | bytes[off + i] & 0xff;
        }
        return value;
    }
}
