/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.session;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.eclipse.jdt.annotation.Nullable;

/**
 * A session's state as a compact binary record, for the agent's write-ahead log: about 130 bytes
 * where its JSON takes about 1,000, so that logging every event costs a tenth of the writes. It
 * holds what the session's JSON says (and nothing else): decoded, the session writes the same JSON
 * bytes as the one encoded. Ingress ports are named in the record (a port's number is this
 * process's own). Big endian:
 *
 * <pre>
 *   u8 format (1), u8 IP version (4 or 6), u16 flags (the persisted ones of {@link Session}),
 *   A's address, B's address (4 or 16 bytes each), u32 A's comm ID, u32 B's comm ID,
 *   u32 A's QPN, u32 B's QPN, u64 service ID, u16 IP CM source port, u16 A's UDP port,
 *   u16 B's UDP port, u8 state, u16 reject reason, i64 first seen, i64 last seen (microseconds),
 *   u16 dropped, 2 x (u32 data packets, u16 data UDP port, u8 data port, u8 DSCP + 1 (0: none),
 *   u32 ECN-capable, u32 CE, u32 CNPs) (format 1: without the last four), u8 port names
 *   (each u8 length + UTF-8), u16 messages (each u64: offset from first seen << 21 | port << 5
 *   | from requester << 4 | type, the port as its place in the record's names + 1, 0: unknown)
 * </pre>
 */
public final class SessionBinary {
    static final int FORMAT = 2;
    /** The format before the ECN figures and CNPs: still read (a write-ahead log an older agent left). */
    static final int FORMAT_WITHOUT_CONGESTION = 1;
    /** The flags a record keeps: what the JSON says, not the table's bookkeeping. */
    static final int PERSISTED_FLAGS = Session.F_ROLES_KNOWN | Session.F_B_CID | Session.F_A_QPN | Session.F_B_QPN
        | Session.F_SERVICE | Session.F_REJECT | Session.F_IPCM_PORT | Session.F_REMOVED | Session.F_A_UDP
        | Session.F_B_UDP;
    private static final int MAX_PORTS = 255;
    /** What a session without data encodes: every figure 0. */
    private static final Session.Data NO_DATA = new Session.Data();

    private byte[] buf = new byte[256];
    private int len;
    /** The record's ports: the table's numbers, in the order of their names in the record. */
    private final int[] portIds = new int[MAX_PORTS];
    private int portCount;
    /** Ports' names as UTF-8, by the table's number. */
    private byte[][] names = new byte[16][];

    /** The last record's bytes, valid until the next {@link #encode}. */
    public byte[] bytes() {
        return buf;
    }

    /** The last record's length. */
    public int length() {
        return len;
    }

    /** A copy of the last record. */
    public byte[] toByteArray() {
        return Arrays.copyOf(buf, len);
    }

    /** Encodes {@code session}, its ports named by {@code ports}. */
    void encode(final Session session, final PortNames ports) {
        len = 0;
        portCount = 0;
        ensure(160 + 8 * session.msgCount);
        u8(FORMAT);
        u8(session.ipVersion);
        u16(session.flags & PERSISTED_FLAGS);
        address(session.ipVersion, session.ipHiA, session.ipLoA);
        address(session.ipVersion, session.ipHiB, session.ipLoB);
        u32(session.cidA);
        u32(session.cidB);
        u32(session.qpnA);
        u32(session.qpnB);
        u64(session.serviceId);
        u16(session.ipCmSrcPort);
        u16(session.udpPortA);
        u16(session.udpPortB);
        u8(session.state);
        u16(session.rejectReason);
        u64(session.firstSeen);
        u64(session.lastSeen);
        u16(session.dropped);
        final Session.Data d = session.data == null ? NO_DATA : session.data;
        u32(d.packetsA);
        u16(d.udpA);
        u8(portRef(d.portA & 0xffff));
        u8(d.dscpA);
        u32(d.ectA);
        u32(d.ceA);
        u32(d.cnpA);
        u32(d.packetsB);
        u16(d.udpB);
        u8(portRef(d.portB & 0xffff));
        u8(d.dscpB);
        u32(d.ectB);
        u32(d.ceB);
        u32(d.cnpB);
        for (int i = 0; i < session.msgCount; i++) {
            portRef((int) (session.msgs[i] >>> 5 & 0xffff));
        }
        u8(portCount);
        for (int i = 0; i < portCount; i++) {
            final byte[] name = nameBytes(portIds[i], ports);
            final int n = Math.min(name.length, 255);
            ensure(n + 1);
            u8(n);
            System.arraycopy(name, 0, buf, len, n);
            len += n;
        }
        ensure(2 + 8 * session.msgCount);
        u16(session.msgCount);
        for (int i = 0; i < session.msgCount; i++) {
            final long w = session.msgs[i];
            final int port = portRef((int) (w >>> 5 & 0xffff));
            u64(w & ~(0xffffL << 5) | (long) port << 5);
        }
    }

    /** The UTF-8 bytes of port {@code id}'s name, kept: a port's name never changes. */
    private byte[] nameBytes(final int id, final PortNames ports) {
        if (id >= names.length) {
            names = Arrays.copyOf(names, Math.max(names.length * 2, id + 1));
        }
        byte[] bytes = names[id];
        if (bytes == null) {
            bytes = ports.name(id).getBytes(StandardCharsets.UTF_8);
            names[id] = bytes;
        }
        return bytes;
    }

    /** The record's reference to the table's port {@code id}: its place among the names + 1, 0 unknown. */
    private int portRef(final int id) {
        if (id == 0) {
            return 0;
        }
        for (int i = 0; i < portCount; i++) {
            if (portIds[i] == id) {
                return i + 1;
            }
        }
        if (portCount == MAX_PORTS) {
            return 0;
        }
        portIds[portCount++] = id;
        return portCount;
    }

    /**
     * A session outside any table, as a record describes it, its ports numbered by {@code ports};
     * null when the record is not one this class writes (too short, another format, bad values).
     */
    static @Nullable Session decode(final byte[] record, final int off, final int length, final PortNames ports) {
        final Reader r = new Reader(record, off, off + length);
        try {
            final int format = r.u8();
            if (format != FORMAT && format != FORMAT_WITHOUT_CONGESTION) {
                return null;
            }
            final Session s = new Session();
            s.ipVersion = (byte) r.u8();
            if (s.ipVersion != 4 && s.ipVersion != 6) {
                return null;
            }
            s.flags = (short) (r.u16() & PERSISTED_FLAGS);
            if (s.ipVersion == 4) {
                s.ipLoA = r.u32() & 0xffffffffL;
                s.ipLoB = r.u32() & 0xffffffffL;
            } else {
                s.ipHiA = r.u64();
                s.ipLoA = r.u64();
                s.ipHiB = r.u64();
                s.ipLoB = r.u64();
            }
            s.cidA = r.u32();
            s.cidB = r.u32();
            s.qpnA = r.u32();
            s.qpnB = r.u32();
            s.serviceId = r.u64();
            s.ipCmSrcPort = (char) r.u16();
            s.udpPortA = (char) r.u16();
            s.udpPortB = (char) r.u16();
            final int state = r.u8();
            if (state >= SessionState.values().length) {
                return null;
            }
            s.state = (byte) state;
            s.rejectReason = (short) r.u16();
            s.firstSeen = r.u64();
            s.lastSeen = r.u64();
            s.dropped = (short) r.u16();
            final Session.Data d = new Session.Data();
            final boolean congestion = format == FORMAT;
            d.packetsA = r.u32();
            d.udpA = (char) r.u16();
            final int aDataRef = r.u8();
            if (congestion) {
                d.dscpA = (byte) r.u8();
                d.ectA = r.u32();
                d.ceA = r.u32();
                d.cnpA = r.u32();
            }
            d.packetsB = r.u32();
            d.udpB = (char) r.u16();
            final int bDataRef = r.u8();
            if (congestion) {
                d.dscpB = (byte) r.u8();
                d.ectB = r.u32();
                d.ceB = r.u32();
                d.cnpB = r.u32();
            }
            if (d.packetsA < 0 || d.packetsB < 0 || d.ectA < 0 || d.ectB < 0 || d.ceA < 0 || d.ceB < 0 || d.cnpA < 0
                    || d.cnpB < 0 || (d.dscpA & 0xff) > 64 || (d.dscpB & 0xff) > 64) {
                return null;
            }
            if (d.packetsA > 0 || d.packetsB > 0 || d.cnpA > 0 || d.cnpB > 0) {
                s.data = d;
            }
            final int names = r.u8();
            final int[] ids = new int[names + 1];
            for (int i = 1; i <= names; i++) {
                final int n = r.u8();
                ids[i] = ports.id(new String(r.bytes(n), StandardCharsets.UTF_8));
            }
            d.portA = (short) ids[check(aDataRef, names)];
            d.portB = (short) ids[check(bDataRef, names)];
            final int count = r.u16();
            if (count > Short.MAX_VALUE) {
                return null;
            }
            s.msgs = new long[Math.max(1, count)];
            for (int i = 0; i < count; i++) {
                final long w = r.u64();
                final int ref = check((int) (w >>> 5 & 0xffff), names);
                if ((int) (w & 0xf) >= io.rst.rft.decode.CmMessageType.values().length) {
                    return null;
                }
                s.msgs[i] = w & ~(0xffffL << 5) | (long) (ids[ref] & 0xffff) << 5;
            }
            s.msgCount = (short) count;
            return r.atEnd() ? s : null;
        } catch (IndexOutOfBoundsException e) {
            return null;
        }
    }

    private static int check(final int ref, final int names) {
        if (ref > names) {
            throw new IndexOutOfBoundsException("port " + ref + " of " + names);
        }
        return ref;
    }

    private void address(final int version, final long hi, final long lo) {
        if (version == 4) {
            u32((int) lo);
        } else {
            u64(hi);
            u64(lo);
        }
    }

    private void ensure(final int more) {
        if (len + more > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + more));
        }
    }

    private void u8(final int value) {
        buf[len++] = (byte) value;
    }

    private void u16(final int value) {
        buf[len++] = (byte) (value >>> 8);
        buf[len++] = (byte) value;
    }

    private void u32(final int value) {
        buf[len++] = (byte) (value >>> 24);
        buf[len++] = (byte) (value >>> 16);
        buf[len++] = (byte) (value >>> 8);
        buf[len++] = (byte) value;
    }

    private void u64(final long value) {
        u32((int) (value >>> 32));
        u32((int) value);
    }

    private static final class Reader {
        private final byte[] data;
        private final int end;
        private int pos;

        Reader(final byte[] data, final int off, final int end) {
            this.data = data;
            this.pos = off;
            this.end = end;
        }

        private void need(final int count) {
            if (pos + count > end) {
                throw new IndexOutOfBoundsException("record cut short");
            }
        }

        int u8() {
            need(1);
            return data[pos++] & 0xff;
        }

        int u16() {
            need(2);
            final int v = (data[pos] & 0xff) << 8 | data[pos + 1] & 0xff;
            pos += 2;
            return v;
        }

        int u32() {
            need(4);
            final int v = (data[pos] & 0xff) << 24 | (data[pos + 1] & 0xff) << 16 | (data[pos + 2] & 0xff) << 8
                | data[pos + 3] & 0xff;
            pos += 4;
            return v;
        }

        long u64() {
            return (long) u32() << 32 | u32() & 0xffffffffL;
        }

        byte[] bytes(final int count) {
            need(count);
            final byte[] out = Arrays.copyOfRange(data, pos, pos + count);
            pos += count;
            return out;
        }

        boolean atEnd() {
            return pos == end;
        }
    }
}
