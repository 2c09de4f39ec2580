/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.session;

import org.eclipse.jdt.annotation.Nullable;

/**
 * The session table's index: open addressing with linear probing, one entry per known endpoint
 * ((IP, comm ID) of the requester and of the responder) of a session, no allocation per lookup,
 * and backward-shift deletion so that no tombstones build up under churn. The same structure keyed
 * by (IP, QPN) finds the session a data packet belongs to: an index is used one way or the other,
 * {@link #find(long, long, int)} by QPN, {@link #find(long, long, int, long, long)} by comm ID.
 */
final class SessionIndex {
    static final int MIN_CAPACITY = 1 << 10;

    private int[] hashes = new int[MIN_CAPACITY];
    private Session[] slots = new Session[MIN_CAPACITY];
    private int indexUsed;

    /** Entries in use. */
    int size() {
        return indexUsed;
    }

    /** The session with QP {@code qpn} at (hi, lo); an index by QPN. */
    @Nullable Session find(final long hi, final long lo, final int qpn) {
        final int h = hash(hi, lo, qpn);
        final int mask = hashes.length - 1;
        for (int i = h & mask; slots[i] != null; i = i + 1 & mask) {
            if (hashes[i] == h) {
                final Session s = slots[i];
                if (s.has(Session.F_QPN_INDEXED_A) && s.qpnA == qpn && s.ipLoA == lo && s.ipHiA == hi
                        || s.has(Session.F_QPN_INDEXED_B) && s.qpnB == qpn && s.ipLoB == lo && s.ipHiB == hi) {
                    return s;
                }
            }
        }
        return null;
    }

    /**
     * The session in which (hi, lo) with comm ID {@code cid} is one side and (peerHi, peerLo) the
     * other (an index by comm ID). A host's comm ID names one of its connections, not one in the
     * whole fabric: the same ID can be its side of sessions with other peers (one finished, its
     * ID used again; or another host's ID that happens to be equal), and a message of one must
     * not be taken for the other's.
     */
    @Nullable Session find(final long hi, final long lo, final int cid, final long peerHi, final long peerLo) {
        final int h = hash(hi, lo, cid);
        final int mask = hashes.length - 1;
        for (int i = h & mask; slots[i] != null; i = i + 1 & mask) {
            if (hashes[i] == h) {
                final Session s = slots[i];
                if (s.has(Session.F_INDEXED_A) && s.isA(hi, lo, cid) && s.ipLoB == peerLo && s.ipHiB == peerHi
                        || s.has(Session.F_INDEXED_B) && s.isB(hi, lo, cid) && s.ipLoA == peerLo && s.ipHiA == peerHi) {
                    return s;
                }
            }
        }
        return null;
    }

    void add(final Session session, final int hash) {
        if ((indexUsed + 1) * 4 > hashes.length * 3) {
            rehash(hashes.length * 2);
        }
        final int mask = hashes.length - 1;
        int slot = hash & mask;
        while (slots[slot] != null) {
            slot = slot + 1 & mask;
        }
        slots[slot] = session;
        hashes[slot] = hash;
        indexUsed++;
    }

    void remove(final Session session, final int hash) {
        final int mask = hashes.length - 1;
        int slot = hash & mask;
        while (slots[slot] != null && (slots[slot] != session || hashes[slot] != hash)) {
            slot = slot + 1 & mask;
        }
        if (slots[slot] == null) {
            return;
        }
        // backward-shift deletion keeps every probe chain unbroken without tombstones
        int hole = slot;
        for (int j = hole + 1 & mask; slots[j] != null; j = j + 1 & mask) {
            final int ideal = hashes[j] & mask;
            if ((j - ideal & mask) >= (j - hole & mask)) {
                slots[hole] = slots[j];
                hashes[hole] = hashes[j];
                hole = j;
            }
        }
        slots[hole] = null;
        hashes[hole] = 0;
        indexUsed--;
        if (hashes.length > MIN_CAPACITY && indexUsed * 8 < hashes.length) {
            rehash(hashes.length / 2);
        }
    }

    private void rehash(final int capacity) {
        final int[] oh = hashes;
        final Session[] os = slots;
        hashes = new int[capacity];
        slots = new Session[capacity];
        final int mask = capacity - 1;
        for (int k = 0; k < os.length; k++) {
            if (os[k] != null) {
                int slot = oh[k] & mask;
                while (slots[slot] != null) {
                    slot = slot + 1 & mask;
                }
                slots[slot] = os[k];
                hashes[slot] = oh[k];
            }
        }
    }

    static int hash(final long hi, final long lo, final int cid) {
        long mix = hi * 0x9E3779B97F4A7C15L ^ lo;
        mix = (mix ^ (mix >>> 29)) * 0xBF58476D1CE4E5B9L ^ cid;
        mix = (mix ^ (mix >>> 32)) * 0x94D049BB133111EBL;
        return (int) (mix ^ (mix >>> 31));
    }
}
