/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetAddress;
import java.net.UnknownHostException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Number, time and address formatting of the hand-written JSON. */
class JsonBytesTest {
    @ParameterizedTest
    @CsvSource({
        "2001:db8::1, 2001:db8::1",
        "2001:0db8:0000:0000:0001:0000:0000:0001, 2001:db8::1:0:0:1",
        "2001:db8:0:1:1:1:1:1, 2001:db8:0:1:1:1:1:1",
        "::, ::",
        "::1, ::1",
        "fe80::, fe80::",
        "1:0:0:2:0:0:0:3, 1:0:0:2::3",
        "::ffff:192.0.2.1, ::ffff:192.0.2.1",
        "fd00:1::1200:0:0:4, fd00:1::1200:0:0:4",
    })
    void ipv6IsWrittenAsRfc5952Says(final String in, final String expected) throws UnknownHostException {
        final byte[] a = InetAddress.getByName(in).getAddress();
        final byte[] v6 = new byte[16];
        if (a.length == 4) {
            v6[10] = (byte) 0xff;
            v6[11] = (byte) 0xff;
            System.arraycopy(a, 0, v6, 12, 4);
        } else {
            System.arraycopy(a, 0, v6, 0, 16);
        }
        assertEquals(expected, JsonBytes.ipString(v6, 6));
    }

    @ParameterizedTest
    @CsvSource({"0, 0", "9, 9", "10, 10", "99, 99", "100, 100", "16777215, 16777215", "2147483647, 2147483647",
        "2147483648, 2147483648", "-5, -5", "-9223372036854775808, -9223372036854775808"})
    void decimals(final long value, final String expected) {
        assertEquals(expected, new JsonBytes(4).decimal(value).toString());
    }

    @ParameterizedTest
    @CsvSource({"1766338145513608000, 6, 1766338145.513608", "1766338145000000001, 9, 1766338145.000000001",
        "5, 0, 0", "-1, 3, -1.999"})
    void seconds(final long nanos, final int digits, final String expected) {
        assertEquals(expected, new JsonBytes(4).seconds(nanos, digits).toString());
    }

    @ParameterizedTest
    @CsvSource({"0, 8, '\"0x00000000\"'", "3735928559, 8, '\"0xdeadbeef\"'", "-1, 16, '\"0xffffffffffffffff\"'"})
    void hex(final long value, final int digits, final String expected) {
        assertEquals(expected, new JsonBytes(4).hexString(value, digits).toString());
    }
}
