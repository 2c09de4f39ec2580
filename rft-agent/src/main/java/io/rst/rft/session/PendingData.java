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

    private final long[] dstHigh = new long[SLOTS];
    private final long[] dstLow = new long[SLOTS];
    private final int[] qpn = new int[SLOTS];
    private final long[] srcHigh = new long[SLOTS];
    private final long[] srcLow = new long[SLOTS];
    private final char[] udp = new char[SLOTS];
    private final short[] port = new short[SLOTS];
    private final int[] packets = new int[SLOTS];
    private final int[] ect = new int[SLOTS];
    private final int[] ce = new int[SLOTS];
    /** DSCP of the last packet + 1. */
    private final byte[] dscp = new byte[SLOTS];
    private final long[] time = new long[SLOTS];

    private static int slot(final long hi, final long lo, final int qp) {
        return SessionIndex.hash(hi, lo, qp) & SLOTS - 1;
    }

    /**
     * Remembers (or adds to) an unmatched data packet to (dstHi, dstLo, dstQpn) at {@code capturedAt},
     * with its IP header's ECN field and DSCP.
     */
    void put(final long dstHi, final long dstLo, final int dstQpn, final long srcHi, final long srcLo,
            final int udpPort, final int portId, final long capturedAt, final int ecnField, final int dscpField) {
        final int i = slot(dstHi, dstLo, dstQpn);
        if (packets[i] > 0 && dstHigh[i] == dstHi && dstLow[i] == dstLo && qpn[i] == dstQpn && srcHigh[i] == srcHi
                && srcLow[i] == srcLo) {
            packets[i] = Session.inc(packets[i]);
        } else {
            dstHigh[i] = dstHi;
            dstLow[i] = dstLo;
            qpn[i] = dstQpn;
            srcHigh[i] = srcHi;
            srcLow[i] = srcLo;
            packets[i] = 1;
            ect[i] = 0;
            ce[i] = 0;
        }
        if (ecnField != 0) {
            ect[i] = Session.inc(ect[i]);
        }
        if (ecnField == 3) {
            ce[i] = Session.inc(ce[i]);
        }
        dscp[i] = (byte) (dscpField + 1);
        udp[i] = (char) udpPort;
        port[i] = (short) portId;
        time[i] = capturedAt;
    }

    /**
     * Takes the sighting of data to (dstHi, dstLo, dstQpn) from (srcHi, srcLo) captured at or after
     * {@code announced}, if one is kept: into {@code session}'s direction toward that side ({@code toB}).
     *
     * @return the packets taken, 0 if none
     */
    int takeInto(final Session session, final boolean toB, final long dstHi, final long dstLo, final int dstQpn,
            final long srcHi, final long srcLo, final long announced) {
        final int i = slot(dstHi, dstLo, dstQpn);
        if (packets[i] == 0 || dstHigh[i] != dstHi || dstLow[i] != dstLo || qpn[i] != dstQpn || srcHigh[i] != srcHi
                || srcLow[i] != srcLo || time[i] < announced) {
            return 0;
        }
        final int n = packets[i];
        packets[i] = 0;
        final Session.Data d = session.data();
        if (toB) {
            d.packetsA = n;
            d.ectA = ect[i];
            d.ceA = ce[i];
            d.dscpA = dscp[i];
            d.udpA = udp[i];
            d.portA = port[i];
        } else {
            d.packetsB = n;
            d.ectB = ect[i];
            d.ceB = ce[i];
            d.dscpB = dscp[i];
            d.udpB = udp[i];
            d.portB = port[i];
        }
        return n;
    }
}
