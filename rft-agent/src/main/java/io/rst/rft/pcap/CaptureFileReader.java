/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.pcap;

import edu.umd.cs.findbugs.annotations.SuppressFBWarnings;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.eclipse.jdt.annotation.Nullable;

/**
 * Reads pcap (both byte orders, microsecond and nanosecond magic) and pcapng (sections of either
 * byte order; SHB, IDB, EPB, SPB, the obsolete PB; other blocks skipped; several interfaces, each
 * with its own linktype, {@code if_tsresol}, {@code if_tsoffset} and {@code if_name}) through a
 * FileChannel into one large buffer. Packets are handed out as views into that buffer: nothing is
 * allocated per packet.
 *
 * <pre>
 * pcap:   global header (24)  | record: ts_sec(4) ts_frac(4) incl_len(4) orig_len(4) data ...
 *         magic a1b2c3d4 (us) / a1b23c4d (ns), in the writer's byte order
 * pcapng: block = type(4) total_len(4) body ... total_len(4), 32-bit aligned
 *         SHB 0a0d0d0a: bom 1a2b3c4d(4) major(2) minor(2) section_len(8) options
 *         IDB 1: linktype(2) reserved(2) snaplen(4) options (2 if_name, 9 if_tsresol, 14 if_tsoffset)
 *         EPB 6: if_id(4) ts_high(4) ts_low(4) cap_len(4) orig_len(4) data pad options
 *         SPB 3: orig_len(4) data (interface 0, no time stamp)
 *         PB  2: if_id(2) drops(2) ts_high(4) ts_low(4) cap_len(4) orig_len(4) data
 * </pre>
 *
 * <p>A damaged or cut record ends the reading; {@link #damage()} says what was found.
 */
@SuppressFBWarnings(value = "NP_NONNULL_FIELD_NOT_INITIALIZED_IN_CONSTRUCTOR",
    justification = "SpotBugs reads no TYPE_USE @Nullable on fields: these fields are @Nullable")
public final class CaptureFileReader implements Closeable {
    /** The formats we read. */
    public enum Format { PCAP, PCAPNG }

    private static final int BUFFER = 1 << 22;
    private static final int MAX_RECORD = 1 << 26;

    private final FileChannel ch;
    private final Format format;
    private byte[] buf = new byte[BUFFER];
    private ByteBuffer bb = ByteBuffer.wrap(buf);
    private int pos;
    private int lim;
    private boolean eof;
    private boolean big;
    // pcap
    private boolean nanoPcap;
    private int pcapLinkType;
    // pcapng interfaces of the current section
    private final List<Iface> ifaces = new ArrayList<>();
    private final List<String> names = new ArrayList<>();
    private @Nullable String damage;
    private long frames;

    private static final class Iface {
        int linkType;
        /** Time stamp units: 10^-n when pow10, else 2^-n. */
        int resolution = 6;
        boolean pow10 = true;
        long offsetSeconds;
        int nameIndex = -1;
    }

    private CaptureFileReader(final FileChannel ch) throws IOException {
        this.ch = ch;
        if (!fill(4)) {
            throw new NotACaptureException("not a pcap or pcapng file (shorter than a header)");
        }
        final int magicBe = FrameView.i32(buf, pos, true);
        switch (magicBe) {
            case 0xa1b2c3d4, 0xa1b23c4d, 0xd4c3b2a1, 0x4d3cb2a1 -> {
                format = Format.PCAP;
                big = magicBe == 0xa1b2c3d4 || magicBe == 0xa1b23c4d;
                nanoPcap = magicBe == 0xa1b23c4d || magicBe == 0x4d3cb2a1;
                if (!fill(24)) {
                    throw new NotACaptureException("not a pcap file (global header cut short)");
                }
                pcapLinkType = FrameView.i32(buf, pos + 20, big) & 0xffff;
                pos += 24;
            }
            case 0x0a0d0d0a -> format = Format.PCAPNG;
            default -> throw new NotACaptureException("not a pcap or pcapng file (unknown magic 0x"
                + Integer.toHexString(magicBe) + ")");
        }
        if (format == Format.PCAPNG) {
            if (!fill(12)) {
                throw new NotACaptureException("not a pcapng file (section header cut short)");
            }
            final int bom = FrameView.i32(buf, pos + 8, true);
            if (bom != 0x1a2b3c4d && bom != 0x4d3c2b1a) {
                throw new NotACaptureException("not a pcapng file (bad byte-order magic)");
            }
        }
    }

    /** Opens a capture file, checking its magic; throws {@link NotACaptureException} if it has none. */
    @SuppressWarnings("checkstyle:IllegalCatch") // closes the channel whatever fails, and rethrows
    public static CaptureFileReader open(final Path file) throws IOException {
        final FileChannel ch = FileChannel.open(file, StandardOpenOption.READ);
        try {
            return new CaptureFileReader(ch);
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    public Format format() {
        return format;
    }

    /** Time stamp precision in fraction digits of the first interface (6 or 9; pcapng: its tsresol). */
    public int timeDigits() {
        if (format == Format.PCAP) {
            return nanoPcap ? 9 : 6;
        }
        if (ifaces.isEmpty()) {
            return 9;
        }
        final Iface i = ifaces.get(0);
        return i.pow10 ? Math.min(9, i.resolution) : 9;
    }

    /** The pcapng {@code if_name} of an interface of the current section, or null. */
    public @Nullable String interfaceName(final int interfaceId) {
        if (interfaceId < 0 || interfaceId >= ifaces.size()) {
            return null;
        }
        final int n = ifaces.get(interfaceId).nameIndex;
        return n < 0 ? null : names.get(n);
    }

    /** What ended the reading early (a cut or damaged record), or null if the file was whole. */
    public String damage() {
        return damage;
    }

    /** Packets handed out so far. */
    public long frames() {
        return frames;
    }

    /** Reads every packet, in file order, into {@code handler}. Returns the number of packets. */
    public long readAll(final PacketHandler handler) throws IOException {
        if (format == Format.PCAP) {
            readPcap(handler);
        } else {
            readPcapng(handler);
        }
        return frames;
    }

    private void readPcap(final PacketHandler handler) throws IOException {
        while (fill(16)) {
            final long sec = FrameView.i32(buf, pos, big) & 0xffffffffL;
            final long frac = FrameView.i32(buf, pos + 4, big) & 0xffffffffL;
            final int incl = FrameView.i32(buf, pos + 8, big);
            final int orig = FrameView.i32(buf, pos + 12, big);
            if (incl < 0 || incl > MAX_RECORD) {
                damage = "record " + (frames + 1) + ": bad captured length " + Integer.toUnsignedString(incl);
                return;
            }
            if (!fill(16 + incl)) {
                damage = "record " + (frames + 1) + ": cut short by the end of the file";
                return;
            }
            final long ns = sec * 1_000_000_000L + (nanoPcap ? frac : frac * 1000L);
            frames++;
            handler.packet(frames, ns, pcapLinkType, 0, buf, pos + 16, incl, orig);
            pos += 16 + incl;
        }
        if (lim > pos) {
            damage = "record " + (frames + 1) + ": header cut short by the end of the file";
        }
    }

    private void readPcapng(final PacketHandler handler) throws IOException {
        while (fill(12)) {
            final int type = FrameView.i32(buf, pos, big);
            if (type == 0x0a0d0d0a) {
                big = FrameView.i32(buf, pos + 8, true) == 0x1a2b3c4d;
                if (FrameView.i32(buf, pos + 8, big) != 0x1a2b3c4d) {
                    damage = "section header with a bad byte-order magic";
                    return;
                }
                ifaces.clear();
            }
            final int total = FrameView.i32(buf, pos + 4, big);
            if (total < 12 || (total & 3) != 0 || total > MAX_RECORD) {
                damage = "block after packet " + frames + ": bad block length " + Integer.toUnsignedString(total);
                return;
            }
            if (!fill(total)) {
                damage = "block after packet " + frames + ": cut short by the end of the file";
                return;
            }
            final int body = pos + 8;
            final int bodyEnd = pos + total - 4;
            switch (type) {
                case 1 -> idb(body, bodyEnd);
                case 6 -> {
                    if (!packetBlock(handler, FrameView.i32(buf, body, big), body + 4, body + 20, bodyEnd)) {
                        return;
                    }
                }
                case 2 -> {
                    if (!packetBlock(handler, FrameView.u16(buf, body, big), body + 4, body + 20, bodyEnd)) {
                        return;
                    }
                }
                case 3 -> {
                    final int orig = FrameView.i32(buf, body, big);
                    final int cap = Math.min(orig < 0 ? Integer.MAX_VALUE : orig, bodyEnd - body - 4);
                    if (ifaces.isEmpty() || cap < 0) {
                        damage = "simple packet block without an interface";
                        return;
                    }
                    frames++;
                    handler.packet(frames, 0L, ifaces.get(0).linkType, 0, buf, body + 4, cap, orig);
                }
                default -> {
                    // SHB handled above; NRB, ISB, DSB, custom blocks: nothing for us
                }
            }
            pos += total;
        }
        if (lim > pos) {
            damage = "block header cut short by the end of the file";
        }
    }

    private boolean packetBlock(final PacketHandler handler, final int ifId, final int tsAt, final int dataAt,
            final int bodyEnd) {
        if (ifId < 0 || ifId >= ifaces.size()) {
            damage = "packet block " + (frames + 1) + " names interface " + ifId + " that was not described";
            return false;
        }
        final int cap = FrameView.i32(buf, tsAt + 8, big);
        final int orig = FrameView.i32(buf, tsAt + 12, big);
        if (cap < 0 || dataAt + cap > bodyEnd) {
            damage = "packet block " + (frames + 1) + ": captured length beyond its block";
            return false;
        }
        final Iface i = ifaces.get(ifId);
        final long ts = (FrameView.i32(buf, tsAt, big) & 0xffffffffL) << 32
            | FrameView.i32(buf, tsAt + 4, big) & 0xffffffffL;
        frames++;
        handler.packet(frames, toNanos(i, ts), i.linkType, ifId, buf, dataAt, cap, orig);
        return true;
    }

    private static final long[] POW10 = {1L, 10L, 100L, 1000L, 10000L, 100000L, 1000000L, 10000000L,
        100000000L, 1000000000L, 10000000000L, 100000000000L, 1000000000000L, 10000000000000L,
        100000000000000L, 1000000000000000L, 10000000000000000L, 100000000000000000L,
        1000000000000000000L};

    private static long toNanos(final Iface iface, final long ts) {
        final long base = iface.offsetSeconds * 1_000_000_000L;
        if (iface.pow10) {
            final int r = iface.resolution;
            if (r <= 9) {
                return base + ts * POW10[9 - r];
            }
            return base + (r - 9 < POW10.length ? Long.divideUnsigned(ts, POW10[r - 9]) : 0);
        }
        final int r = iface.resolution;
        final long whole = ts >>> r;
        final long frac = ts & ((1L << r) - 1);
        // frac < 2^r; scale in double when r is large to stay in range (sub-ns error only)
        final long fracNs = r <= 30 ? (frac * 1_000_000_000L) >>> r : (long) (frac / Math.pow(2, r) * 1e9);
        return base + whole * 1_000_000_000L + fracNs;
    }

    private void idb(final int body, final int bodyEnd) {
        final Iface i = new Iface();
        i.linkType = FrameView.u16(buf, body, big);
        int opt = body + 8;
        while (opt + 4 <= bodyEnd) {
            final int code = FrameView.u16(buf, opt, big);
            final int olen = FrameView.u16(buf, opt + 2, big);
            if (code == 0 || opt + 4 + olen > bodyEnd) {
                break;
            }
            final int v = opt + 4;
            if (code == 9 && olen >= 1) {
                i.pow10 = (buf[v] & 0x80) == 0;
                i.resolution = buf[v] & 0x7f;
                if (!i.pow10 && i.resolution > 62) {
                    i.resolution = 62;
                }
            } else if (code == 14 && olen >= 8) {
                i.offsetSeconds = (FrameView.i32(buf, v, big) & 0xffffffffL) << 32
                    | FrameView.i32(buf, v + 4, big) & 0xffffffffL;
                if (!big) {
                    i.offsetSeconds = (FrameView.i32(buf, v + 4, big) & 0xffffffffL) << 32
                        | FrameView.i32(buf, v, big) & 0xffffffffL;
                }
            } else if (code == 2 && olen > 0) {
                int nameLen = olen;
                while (nameLen > 0 && buf[v + nameLen - 1] == 0) {
                    nameLen--;
                }
                names.add(new String(buf, v, nameLen, java.nio.charset.StandardCharsets.UTF_8));
                i.nameIndex = names.size() - 1;
            }
            opt += 4 + (olen + 3 & ~3);
        }
        ifaces.add(i);
    }

    /** Makes at least {@code n} bytes available from {@code pos}; false at the end of the file. */
    private boolean fill(final int needed) throws IOException {
        if (lim - pos >= needed) {
            return true;
        }
        if (needed > buf.length) {
            final byte[] nb = new byte[Math.max(needed, buf.length * 2)];
            System.arraycopy(buf, pos, nb, 0, lim - pos);
            buf = nb;
            bb = ByteBuffer.wrap(buf);
        } else if (pos > 0) {
            System.arraycopy(buf, pos, buf, 0, lim - pos);
        }
        lim -= pos;
        pos = 0;
        while (lim < needed && !eof) {
            bb.limit(buf.length).position(lim);
            final int r = ch.read(bb);
            if (r < 0) {
                eof = true;
            } else {
                lim += r;
            }
        }
        return lim - pos >= needed;
    }

    @Override
    public void close() throws IOException {
        ch.close();
    }

    /** Integers of the file read in either byte order. */
    static final class FrameView {
        private FrameView() {
        }

        static int i32(final byte[] bytes, final int at, final boolean bigEndian) {
            if (bigEndian) {
                return (bytes[at] & 0xff) << 24 | (bytes[at + 1] & 0xff) << 16 | (bytes[at + 2] & 0xff) << 8
                    | bytes[at + 3] & 0xff;
            }
            return (bytes[at + 3] & 0xff) << 24 | (bytes[at + 2] & 0xff) << 16 | (bytes[at + 1] & 0xff) << 8
                | bytes[at] & 0xff;
        }

        static int u16(final byte[] bytes, final int at, final boolean bigEndian) {
            return bigEndian ? (bytes[at] & 0xff) << 8 | bytes[at + 1] & 0xff
                : (bytes[at + 1] & 0xff) << 8 | bytes[at] & 0xff;
        }
    }

    @Override
    public String toString() {
        return "CaptureFileReader[" + format + ", frames=" + frames + ", interfaces=" + ifaces.size()
            + (damage == null ? "" : ", damage=" + damage) + "]"
            + (names.isEmpty() ? "" : Arrays.toString(names.toArray()));
    }
}
