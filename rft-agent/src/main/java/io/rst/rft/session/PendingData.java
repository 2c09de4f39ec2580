/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.session;

/**
 * Data packets that found no session, kept a while in case the CM message that announces their
 * destination QP is handed over after them: capture rings of different ports deliver out of order
 * when a machine is busy, and a data packet that entered one port after a REP entered another may
 * reach the table first. A direct-mapped cache by (destination IP, QPN), one sighting per slot, a
 * newer one replacing an older: bounded memory and no allocation, at the price of forgetting a
 * sighting whose slot another flow took.
 */
final class PendingData {
    private static final int SLOTS = 4096;

    private final long[] dHi = new long[SLOTS];
    private final long[] dLo = new long[SLOTS];
    private final int[] qpn = new int[SLOTS];
    private final long[] sHi = new long[SLOTS];
    private final long[] sLo = new long[SLOTS];
    private final char[] udp = new char[SLOTS];
    private final short[] port = new short[SLOTS];
    private final int[] packets = new int[SLOTS];
    private final long[] time = new long[SLOTS];

    private static int slot(final long hi, final long lo, final int q) {
        return SessionIndex.hash(hi, lo, q) & SLOTS - 1;
    }

    /** Remembers (or adds to) an unmatched data packet to (dstHi, dstLo, q) at {@code t}. */
    void put(final long dstHi, final long dstLo, final int q, final long srcHi, final long srcLo, final int udpPort,
            final int portId, final long t) {
        final int i = slot(dstHi, dstLo, q);
        if (packets[i] > 0 && dHi[i] == dstHi && dLo[i] == dstLo && qpn[i] == q && sHi[i] == srcHi
                && sLo[i] == srcLo) {
            packets[i] = packets[i] == Integer.MAX_VALUE ? Integer.MAX_VALUE : packets[i] + 1;
        } else {
            dHi[i] = dstHi;
            dLo[i] = dstLo;
            qpn[i] = q;
            sHi[i] = srcHi;
            sLo[i] = srcLo;
            packets[i] = 1;
        }
        udp[i] = (char) udpPort;
        port[i] = (short) portId;
        time[i] = t;
    }

    /**
     * Takes the sighting of data to (dstHi, dstLo, q) from (srcHi, srcLo) captured at or after
     * {@code announced}, if one is kept: into {@code s}'s direction toward that side ({@code toB}).
     *
     * @return the packets taken, 0 if none
     */
    int takeInto(final Session s, final boolean toB, final long dstHi, final long dstLo, final int q, final long srcHi,
            final long srcLo, final long announced) {
        final int i = slot(dstHi, dstLo, q);
        if (packets[i] == 0 || dHi[i] != dstHi || dLo[i] != dstLo || qpn[i] != q || sHi[i] != srcHi
                || sLo[i] != srcLo || time[i] < announced) {
            return 0;
        }
        final int n = packets[i];
        packets[i] = 0;
        if (toB) {
            s.aDataPackets = n;
            s.aDataUdp = udp[i];
            s.aDataPort = port[i];
        } else {
            s.bDataPackets = n;
            s.bDataUdp = udp[i];
            s.bDataPort = port[i];
        }
        return n;
    }
}
