/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.pcap;

import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes pcap (either byte order, microsecond or nanosecond time stamps) or pcapng (either byte
 * order, several interfaces with a linktype, name and nanosecond or microsecond if_tsresol each).
 * For the traffic generator and for tests of the reader.
 */
public final class PcapWriter implements Closeable {
    private final OutputStream out;
    private final boolean big;
    private final boolean ng;
    private final boolean nanos;
    private final boolean[] ifNanos;
    private final byte[] hdr = new byte[32];

    private PcapWriter(final OutputStream out, final boolean big, final boolean ng, final boolean nanos,
            final boolean[] ifNanos) {
        this.out = out;
        this.big = big;
        this.ng = ng;
        this.nanos = nanos;
        this.ifNanos = ifNanos;
    }

    /** A pcap file with one linktype. */
    public static PcapWriter pcap(final Path file, final int linkType, final boolean bigEndian,
            final boolean nanoseconds) throws IOException {
        final PcapWriter w = new PcapWriter(new BufferedOutputStream(Files.newOutputStream(file), 1 << 20),
            bigEndian, false, nanoseconds, null);
        w.put32(0, nanoseconds ? 0xa1b23c4d : 0xa1b2c3d4);
        w.put16(4, 2);
        w.put16(6, 4);
        w.put32(8, 0);
        w.put32(12, 0);
        w.put32(16, 262144);
        w.put32(20, linkType);
        w.out.write(w.hdr, 0, 24);
        return w;
    }

    /**
     * A pcapng file with one section and the given interfaces (linktype, name, and whether the
     * interface stamps in nanoseconds rather than microseconds).
     */
    public static PcapWriter pcapng(final Path file, final boolean bigEndian, final int[] linkTypes,
            final String[] names, final boolean[] nanoseconds) throws IOException {
        final PcapWriter w = new PcapWriter(new BufferedOutputStream(Files.newOutputStream(file), 1 << 20),
            bigEndian, true, false, nanoseconds.clone());
        // SHB: type, length 28, BOM, version 1.0, section length -1, length
        w.put32(0, 0x0a0d0d0a);
        w.put32(4, 28);
        w.put32(8, 0x1a2b3c4d);
        w.put16(12, 1);
        w.put16(14, 0);
        w.put32(16, -1);
        w.put32(20, -1);
        w.put32(24, 28);
        w.out.write(w.hdr, 0, 28);
        for (int i = 0; i < linkTypes.length; i++) {
            final byte[] name = names[i] == null ? new byte[0] : names[i].getBytes(StandardCharsets.UTF_8);
            final int namePad = name.length + 3 & ~3;
            final int optLen = (name.length > 0 ? 4 + namePad : 0) + 8 + 4;
            final int total = 16 + optLen + 4;
            w.put32(0, 1);
            w.put32(4, total);
            w.put16(8, linkTypes[i]);
            w.put16(10, 0);
            w.put32(12, 262144);
            w.out.write(w.hdr, 0, 16);
            if (name.length > 0) {
                w.put16(0, 2);
                w.put16(2, name.length);
                w.out.write(w.hdr, 0, 4);
                w.out.write(name);
                w.out.write(new byte[namePad - name.length]);
            }
            w.put16(0, 9);
            w.put16(2, 1);
            w.put32(4, 0);
            w.hdr[4] = (byte) (nanoseconds[i] ? 9 : 6);
            w.put16(8, 0);
            w.put16(10, 0);
            w.put32(12, total);
            w.out.write(w.hdr, 0, 16);
        }
        return w;
    }

    /** Writes one packet on interface 0. */
    public void write(final long epochNanos, final byte[] buf, final int off, final int len) throws IOException {
        write(0, epochNanos, buf, off, len, len);
    }

    /** Writes one packet of which {@code capLen} bytes were captured from {@code origLen}. */
    public void write(final int interfaceId, final long epochNanos, final byte[] buf, final int off,
            final int capLen, final int origLen) throws IOException {
        if (!ng) {
            put32(0, (int) (epochNanos / 1_000_000_000L));
            final long frac = epochNanos % 1_000_000_000L;
            put32(4, (int) (nanos ? frac : frac / 1000L));
            put32(8, capLen);
            put32(12, origLen);
            out.write(hdr, 0, 16);
            out.write(buf, off, capLen);
            return;
        }
        final int pad = (capLen + 3 & ~3) - capLen;
        final int total = 28 + capLen + pad + 4;
        final long ts = ifNanos[interfaceId] ? epochNanos : epochNanos / 1000L;
        put32(0, 6);
        put32(4, total);
        put32(8, interfaceId);
        put32(12, (int) (ts >>> 32));
        put32(16, (int) ts);
        put32(20, capLen);
        put32(24, origLen);
        out.write(hdr, 0, 28);
        out.write(buf, off, capLen);
        put32(0, 0);
        out.write(hdr, 0, pad);
        put32(0, total);
        out.write(hdr, 0, 4);
    }

    private void put16(final int at, final int value) {
        if (big) {
            hdr[at] = (byte) (value >>> 8);
            hdr[at + 1] = (byte) value;
        } else {
            hdr[at] = (byte) value;
            hdr[at + 1] = (byte) (value >>> 8);
        }
    }

    private void put32(final int at, final int value) {
        if (big) {
            hdr[at] = (byte) (value >>> 24);
            hdr[at + 1] = (byte) (value >>> 16);
            hdr[at + 2] = (byte) (value >>> 8);
            hdr[at + 3] = (byte) value;
        } else {
            hdr[at] = (byte) value;
            hdr[at + 1] = (byte) (value >>> 8);
            hdr[at + 2] = (byte) (value >>> 16);
            hdr[at + 3] = (byte) (value >>> 24);
        }
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}
