/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.session;

import edu.umd.cs.findbugs.annotations.SuppressFBWarnings;
import org.eclipse.jdt.annotation.Nullable;

/**
 * One session's mutable state inside a {@link SessionTable}, kept small (the table's budget is
 * 256 bytes of heap per live session, index included): addresses as two longs, times as longs,
 * the messages packed one per long. Endpoint A is the requester (or the guess when roles are
 * unknown), endpoint B the responder.
 *
 * <pre>
 * message word: | time offset from first_seen, us (43) | port index (16) | from A (1) | type (4) |
 *                 63                                 21   20           5    4            3      0
 * </pre>
 */
@SuppressFBWarnings(value = "NP_NONNULL_FIELD_NOT_INITIALIZED_IN_CONSTRUCTOR",
    justification = "SpotBugs reads no TYPE_USE @Nullable on fields: these fields are @Nullable")
final class Session {
    static final int F_ROLES_KNOWN = 1;
    static final int F_B_CID = 2;
    static final int F_A_QPN = 4;
    static final int F_B_QPN = 8;
    static final int F_SERVICE = 16;
    static final int F_REJECT = 32;
    static final int F_IPCM_PORT = 64;
    static final int F_INDEXED_A = 128;
    static final int F_INDEXED_B = 256;
    /** In the table's list of sessions changed since its last drain (change tracking). */
    static final int F_CHANGED = 512;
    /** Left the table (aged out or evicted); reported once more, marked removed. */
    static final int F_REMOVED = 1024;
    /** {@link #udpPortA} holds the UDP source port of A's first CM packet (RoCEv1 has none). */
    static final int F_A_UDP = 2048;
    /** {@link #udpPortB} holds the UDP source port of B's first CM packet. */
    static final int F_B_UDP = 4096;
    /** In the table's (IP, QPN) index by A's QPN (data packets to A are found through it). */
    static final int F_QPN_INDEXED_A = 8192;
    /** In the table's (IP, QPN) index by B's QPN. */
    static final int F_QPN_INDEXED_B = 16384;

    static final long MAX_OFFSET = (1L << 43) - 1;

    long ipHiA;
    long ipLoA;
    long ipHiB;
    long ipLoB;
    int cidA;
    int cidB;
    int qpnA;
    int qpnB;
    long serviceId;
    long firstSeen;
    long lastSeen;
    /**
     * When a REQ_SENT or DISCONNECTING session times out (microseconds); for a finished session,
     * when it finished (its retention counts from then); Long.MAX_VALUE otherwise.
     */
    long deadline = Long.MAX_VALUE;
    /**
     * Creation order, to order sessions first seen in the same microsecond. An int (it wraps after
     * 2^32 creations): only sessions created close together tie on first_seen, and they compare by
     * difference; the 4 bytes saved pay for the two UDP source ports below.
     */
    int seq;
    long @Nullable [] msgs;
    @Nullable Session prev;
    @Nullable Session next;
    /**
     * Links in the table's timer list the session is in ({@link #timer}): the sessions waiting for
     * an answer, or the finished ones in the order they finished, so that expiry looks at
     * those alone rather than at every session each second.
     */
    @Nullable Session tprev;
    @Nullable Session tnext;
    /**
     * Which timer list holds the session (low 2 bits: 0 none, 1 waiting for an answer, 2
     * finished) and the REQ's primary local ACK timeout plus one (high 6 bits; 0: no REQ seen, or
     * it said 0), which bounds twice the path's packet life time: one byte, within the object's
     * padding budget.
     */
    private byte timerBits;
    short flags;
    short msgCount;
    short dropped;
    byte state;
    byte ipVersion;
    short rejectReason;
    char ipCmSrcPort;
    /**
     * The UDP source port of the first CM packet each side sent: ECMP hashes it, so it says which
     * member of a multipath route the side's CM packets take (the data packets may use another).
     */
    char udpPortA;
    char udpPortB;
    /**
     * The REQ's CM response timeouts plus one (0: no REQ seen): how long A (the requester) waits
     * for B's answers (REQ remote CM response timeout), and B for A's (REQ local CM response
     * timeout); they time a DREQ's wait for its DREP. Two bytes that fit in the object's padding.
     */
    byte waitForB;
    byte waitForA;
    /**
     * What the session's sampled data packets and CNPs showed, per direction; null until the first
     * of them (a session learnt from CM alone pays one reference for it).
     */
    @Nullable Data data;
    /**
     * The REQ's max CM retries (high nibble; rdma_cm's 15 until a REQ is seen) and how many copies
     * of the REQ or DREQ now waiting for an answer came after the first (low nibble): the sender
     * retries that many times, each after its CM response timeout, before it gives up.
     */
    byte retries = (byte) (SessionTable.DEFAULT_MAX_CM_RETRIES << 4);

    /**
     * A session's data per direction (A: A's data to B, B: B's data to A), as this switch saw it:
     * of the sampled data packets, how many, how many were sent ECN-capable (ECT(0), ECT(1) or CE)
     * and how many arrived marked CE, and of the last one its DSCP, UDP source port and ingress port
     * (a {@link PortNames} number): where the direction's data enters the switch, which under ECMP
     * may differ from where its CM entered; and the CNPs about the direction's data (sent by its
     * receiver to its sender's QP, every one the capture saw, not sampled). Counts saturate at
     * {@link Integer#MAX_VALUE}. No packets: no data of that direction sampled here.
     */
    static final class Data {
        int packetsA;
        int packetsB;
        int ectA;
        int ectB;
        int ceA;
        int ceB;
        int cnpA;
        int cnpB;
        char udpA;
        char udpB;
        short portA;
        short portB;
        /** DSCP of the last sampled packet + 1; 0: none sampled. */
        byte dscpA;
        byte dscpB;
    }

    /** The session's {@link Data}, made at its first data packet or CNP. */
    Data data() {
        Data made = data;
        if (made == null) {
            made = new Data();
            data = made;
        }
        return made;
    }

    /** {@code count + 1}, saturating at {@link Integer#MAX_VALUE}. */
    static int inc(final int count) {
        return count == Integer.MAX_VALUE ? count : count + 1;
    }

    /** {@code count + more} (both not negative), saturating at {@link Integer#MAX_VALUE}. */
    static int add(final int count, final long more) {
        return (int) Math.min(Integer.MAX_VALUE, count + more);
    }

    /** Which timer list holds the session: 0 none, 1 waiting for an answer, 2 finished. */
    int timer() {
        return timerBits & 3;
    }

    void timer(final int list) {
        timerBits = (byte) (timerBits & ~3 | list & 3);
    }

    /** The REQ's primary local ACK timeout exponent plus one, 0 when not known. */
    int ackTimeoutPlusOne() {
        return (timerBits & 0xff) >>> 2;
    }

    void ackTimeoutPlusOne(final int value) {
        timerBits = (byte) ((value & 0x3f) << 2 | timerBits & 3);
    }

    int maxRetries() {
        return retries >>> 4 & 0xf;
    }

    void maxRetries(final int max) {
        retries = (byte) ((max & 0xf) << 4 | retries & 0xf);
    }

    int retriesSeen() {
        return retries & 0xf;
    }

    void retriesSeen(final int seen) {
        retries = (byte) (retries & 0xf0 | Math.min(15, seen));
    }

    boolean has(final int flag) {
        return (flags & flag) != 0;
    }

    void set(final int flag) {
        flags |= flag;
    }

    void clear(final int flag) {
        flags &= ~flag;
    }

    SessionState state() {
        return SessionState.ofOrdinal(state);
    }

    void state(final SessionState newState) {
        state = (byte) newState.ordinal();
    }

    boolean isA(final long hi, final long lo, final int cid) {
        return ipLoA == lo && ipHiA == hi && cidA == cid;
    }

    boolean isB(final long hi, final long lo, final int cid) {
        return ipLoB == lo && ipHiB == hi && cidB == cid && has(F_B_CID);
    }

    /** Keeps the UDP source port of a side's first CM packet; later ones do not move it. */
    void udpSrcPort(final boolean fromA, final int port) {
        if (port < 0) {
            return;
        }
        if (fromA) {
            if (!has(F_A_UDP)) {
                udpPortA = (char) port;
                set(F_A_UDP);
            }
        } else if (!has(F_B_UDP)) {
            udpPortB = (char) port;
            set(F_B_UDP);
        }
    }

    void addMessage(final int type, final boolean fromA, final int port, final long time, final int max) {
        if (msgCount >= max) {
            if (dropped < Short.MAX_VALUE) {
                dropped++;
            }
            return;
        }
        if (msgs == null) {
            msgs = new long[Math.min(4, max)];
        } else if (msgCount == msgs.length) {
            final long[] n = new long[Math.min(msgs.length * 2, max)];
            System.arraycopy(msgs, 0, n, 0, msgCount);
            msgs = n;
        }
        final long off = Math.min(MAX_OFFSET, Math.max(0L, time - firstSeen));
        msgs[msgCount++] = off << 21 | (long) (port & 0xffff) << 5 | (fromA ? 16 : 0) | type;
    }
}
