/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.session;

import io.rst.rft.decode.CmMessage;
import io.rst.rft.decode.JsonBytes;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The sessions of a switch learnt from sampled data packets that no CM session claims: one-way
 * flows keyed by (source IP, destination IP, destination QPN), and RC sessions paired from two
 * such flows by the PSNs of their answers (the rule is in the package documentation). Owned by a
 * {@link SessionTable}, single-threaded like it.
 *
 * <p>Every flow lives in primitive arrays at a slot number: no object per flow, nothing allocated
 * per packet once the arrays have grown. Two open-addressing indexes of slot numbers find a flow by
 * its key and the flows between an ordered address pair (a chain through {@link #pairNext}), so
 * that the flows an answer may belong to are found without a scan. A paired session is its two
 * flows, linked to each other; one of them (the representative, {@link #F_REP}) stands for the
 * session in the list of records by last packet (least recently seen first), which evicts the
 * least recently seen record when {@link DataConfig#maxFlows()} would be passed, marks records IDLE
 * after {@link DataConfig#idleMicros()} and removes them after the retention.
 *
 * <p>Reports are rate-limited: a changed record is reported at once if it was not reported within
 * {@link DataConfig#reportMicros()}, else when that time has passed (a queue of records by when
 * they were last reported), so that a busy flow is one event per interval, not one per packet.
 * Time is the capture's: packet times and the times {@link #expire} is given, never going back.
 */
final class DataFlowTable {
    /**
     * Votes that pair two one-way flows. A vote is an answer (ACK, atomic ACK, READ response) whose
     * PSN fits the recent sampled requests of exactly one flow in the opposite direction. PSNs are
     * 24 bits and start at random, so an unrelated flow holds a given PSN among its 8 recent ones
     * with a chance of about 8 in 2^24 per answer; two votes in a row for the same pair, with no
     * vote for another pair of either flow in between (that resets the count), make a chance pairing
     * negligible, and cost a second answer only.
     */
    static final int VOTES_TO_PAIR = 2;
    /** Recent sampled request (and response) PSNs kept per flow. */
    static final int RING = 8;
    /**
     * Flows of one address pair an answer is matched against at most: beyond (thousands of QPs
     * between two hosts, or a flood of forged ones), the answer is counted ambiguous, so that no
     * packet costs more than this many looks.
     */
    static final int MAX_CANDIDATES = 4096;
    /** READ responses of one READ request at most assumed: its DMA length / 256, the smallest MTU. */
    private static final int MAX_READ_SPAN = 255;
    private static final int PSN_MASK = 0xffffff;

    static final int RC = 0;
    static final int UC = 1;
    static final int UD = 2;
    private static final String[] TRANSPORTS = {"RC", "UC", "UD"};

    /** {@link #kind}: the transport (low 2 bits), IPv6. */
    private static final int K_TRANSPORT = 3;
    private static final int K_V6 = 4;

    /** {@link #flags}: the slot holds a flow. */
    private static final int F_USED = 1;
    /** Paired with {@link #partner}. */
    private static final int F_PAIRED = 2;
    /** Stands for its record in the list by last packet (a one-way flow, or one flow of a pair). */
    private static final int F_REP = 4;
    private static final int F_IDLE = 8;
    /** The record changed since it was last reported. */
    private static final int F_DIRTY = 16;
    /** In the queue of records to report at the next drain. */
    private static final int F_QUEUED = 32;
    /** Reported within the report interval: in the queue by report time. */
    private static final int F_COOLING = 64;
    /** Reported at least once: its removal is reported too. */
    private static final int F_REPORTED = 128;

    private static final int NONE = -1;
    private static final int INITIAL = 1024;
    private static final int MIN_INDEX = 2048;

    private final DataConfig config;
    private final long retentionMicros;
    private final PortNames ports;
    private final SessionListener listener;
    private boolean tracking;

    private int capacity;
    /** Slots handed out so far (the high-water mark); freed ones are reused first. */
    private int used;
    private int count;
    private int sessions;
    private int freeHead = NONE;
    private int nextSerial;

    private long[] srcHi;
    private long[] srcLo;
    private long[] dstHi;
    private long[] dstLo;
    private int[] qpn;
    private long[] first;
    private long[] last;
    /** When the record was last reported (capture time, microseconds). */
    private long[] reported;
    private int[] packets;
    private char[] udp;
    private short[] port;
    private byte[] kind;
    private short[] flags;
    /** RING entries per flow: PSN (24 bits) | READ span (8 bits, 0 for 1). */
    private int[] reqPsn;
    private int[] respPsn;
    /** Per ring: next position (low 3 bits) | full (bit 3). */
    private byte[] reqRing;
    private byte[] respRing;
    /** The paired flow; while unpaired, the flow the last vote was for (or NONE). */
    private int[] partner;
    private byte[] votes;
    /** The list of records by last packet, through their representatives. */
    private int[] prev;
    private int[] next;
    /** The next flow (slot + 1, 0: none) with the same source and destination IP. */
    private int[] pairNext;
    /** The record's identity on this slot: handles and queue entries of an older record do not match. */
    private int[] serial;

    /** Flows by key: slot + 1, 0 empty. */
    private int[] index = new int[MIN_INDEX];
    private int indexUsed;
    /** The first flow of each (source IP, destination IP): slot + 1, 0 empty. */
    private int[] pairIndex = new int[MIN_INDEX];
    private int pairIndexUsed;

    private int lruHead = NONE;
    private int lruTail = NONE;
    /** The first record in the list that is not IDLE (all before it are), NONE when none is. */
    private int idleFrom = NONE;
    private long now = Long.MIN_VALUE;

    /** Records to report at the next drain: serial << 32 | slot. */
    private long[] queue = new long[64];
    private int queueCount;
    /** Records reported within the interval, oldest report first (a ring): serial << 32 | slot. */
    private long[] cool = new long[64];
    private int coolHead;
    private int coolSize;
    /** Removed records' last JSON (with "removed":true), until the next drain. */
    private final JsonBytes removedJson = new JsonBytes(256);
    private int[] removedEnds = new int[16];
    private int removedCount;
    private final byte[] ipScratch = new byte[16];

    private long evicted;
    private long ambiguous;
    private long rejected;
    private long untracked;
    private long expired;
    private long restoredCount;

    DataFlowTable(final DataConfig config, final long retentionMicros, final PortNames ports,
            final SessionListener listener) {
        this.config = config;
        this.retentionMicros = retentionMicros;
        this.ports = ports;
        this.listener = listener;
        grow(Math.min(INITIAL, config.maxFlows()));
    }

    /** Keeps changes for {@link #drainRemoved} and {@link #drainChanged} (the agent's event stream). */
    void track() {
        tracking = true;
    }

    // ---------------------------------------------------------------- counters

    /** Flows held (a paired session counts two). */
    int flows() {
        return count;
    }

    /** Paired sessions. */
    int sessions() {
        return sessions;
    }

    /** One-way flows (not paired). */
    int oneWay() {
        return count - 2 * sessions;
    }

    /** Records: paired sessions and one-way flows. */
    int records() {
        return count - sessions;
    }

    /** Flows dropped because the table was full. */
    long evicted() {
        return evicted;
    }

    /** Answers that fitted the requests of two or more flows: no vote. */
    long ambiguous() {
        return ambiguous;
    }

    /** Packets whose BTH cannot be a real RC, UC or UD packet (reserved opcode, QP 0 or 1, ...). */
    long rejected() {
        return rejected;
    }

    /** Valid packets of classes not learnt (RD, XRC, CNP). */
    long untracked() {
        return untracked;
    }

    /** Records removed after their retention. */
    long expired() {
        return expired;
    }

    /** Records put back by {@link #restore}. */
    long restored() {
        return restoredCount;
    }

    // ---------------------------------------------------------------- packets

    /**
     * Learns from one sampled data packet that no CM session claimed ({@code m} decoded as RoCE
     * data). {@code portId} is its ingress port's {@link PortNames} number.
     *
     * @return whether it was tracked (false: rejected or of a class not learnt)
     */
    boolean accept(final CmMessage m, final int portId) {
        final int op = m.bthOpcode();
        final int transport;
        switch (op >>> 5) {
            case 0 -> {
                if (rcKind(op) == 0) {
                    rejected++;
                    return false;
                }
                transport = RC;
            }
            case 1 -> {
                if (op > 0x2b) {
                    rejected++;
                    return false;
                }
                transport = UC;
            }
            case 3 -> {
                if (op != 0x64 && op != 0x65) {
                    rejected++;
                    return false;
                }
                transport = UD;
            }
            default -> {
                // RD, CNP, XRC: real packets of classes the table does not learn
                untracked++;
                return false;
            }
        }
        final int q = m.bthDestQp();
        if (q <= 1) {
            // QP 0 and 1 are the subnet and general management QPs: no data session ends there
            rejected++;
            return false;
        }
        final long t = m.timeMicros();
        if (t > now) {
            now = t;
        }
        final boolean v6 = m.ipVersion() == 6;
        final long sHi = m.srcIpHigh() | (v6 ? 0L : (long) SessionTable.V4_MARK << 60);
        final long sLo = m.srcIpLow();
        final long dHi = m.dstIpHigh() | (v6 ? 0L : (long) SessionTable.V4_MARK << 60);
        final long dLo = m.dstIpLow();
        int f = find(sHi, sLo, dHi, dLo, q);
        if (f != NONE) {
            if ((kind[f] & K_TRANSPORT) != transport) {
                // a live QP does not change its transport: a forged or damaged packet
                rejected++;
                return false;
            }
            final int r = rep(f);
            if ((flags[r] & F_IDLE) != 0 || t - sessionLast(r) >= config.idleMicros()) {
                // the QP numbers are used again after the record was idle: a new session
                removeRecord(r, SessionChange.REPLACED);
                f = NONE;
            }
        }
        if (f == NONE) {
            f = create(sHi, sLo, dHi, dLo, q, transport, v6, t);
        }
        packets[f] = packets[f] == Integer.MAX_VALUE ? Integer.MAX_VALUE : packets[f] + 1;
        udp[f] = (char) Math.max(0, m.udpSrcPort());
        port[f] = (short) portId;
        if (t > last[f]) {
            last[f] = t;
        }
        if (t < first[f]) {
            first[f] = t;
        }
        final int r = rep(f);
        touch(r);
        markDirty(r);
        if (transport == RC) {
            final int psn = m.bthPsn() & PSN_MASK;
            if (rcKind(op) == RESPONSE) {
                push(respPsn, respRing, f, psn);
                if ((flags[f] & F_PAIRED) == 0) {
                    vote(f, psn);
                }
            } else {
                int span = 0;
                if (op == 0x0c) {
                    // a READ request: its responses count on from its PSN, one per MTU of its length
                    final long len = m.rethDmaLength();
                    span = len < 0 ? 1 : (int) Math.min(MAX_READ_SPAN, Math.max(1L, (len + 255) / 256));
                }
                push(reqPsn, reqRing, f, psn | span << 24);
            }
        }
        return true;
    }

    private static final int REQUEST = 1;
    private static final int RESPONSE = 2;

    /** What an RC opcode is: a request, a response (READ response, ACK, atomic ACK), or 0 if reserved. */
    private static int rcKind(final int op) {
        if (op >= 0x0d && op <= 0x12) {
            return RESPONSE;
        }
        if (op <= 0x0c || op == 0x13 || op == 0x14 || op == 0x16 || op == 0x17 || op == 0x1c || op == 0x1d) {
            return REQUEST;
        }
        return 0;
    }

    private static void push(final int[] ring, final byte[] pos, final int f, final int entry) {
        final int p = pos[f];
        final int at = p & 7;
        ring[f * RING + at] = entry;
        pos[f] = (byte) (at == 7 ? 8 : p & 8 | at + 1);
    }

    private static int ringSize(final byte[] pos, final int f) {
        return (pos[f] & 8) != 0 ? RING : pos[f] & 7;
    }

    /**
     * An answer with PSN {@code p} on the unpaired flow {@code y} (B to A): the flows from A to B
     * whose recent requests it fits are found through the address pair index; exactly one that
     * fits is a vote for the pair, two or more are counted ambiguous.
     */
    private void vote(final int y, final int p) {
        int found = NONE;
        int fits = 0;
        int looked = 0;
        final int head = pairHead(dstHi[y], dstLo[y], srcHi[y], srcLo[y]);
        for (int x = head; x != NONE; x = pairNext[x] - 1) {
            if (++looked > MAX_CANDIDATES) {
                ambiguous++;
                return;
            }
            if (x == y || (kind[x] & K_TRANSPORT) != RC || (flags[x] & F_IDLE) != 0
                    || now - last[x] >= config.idleMicros() || !fits(x, p)) {
                continue;
            }
            fits++;
            found = x;
        }
        if (fits == 0) {
            return;
        }
        if (fits > 1) {
            ambiguous++;
            return;
        }
        final int x = found;
        if ((flags[x] & F_PAIRED) != 0) {
            // its requester is answered already: this is no evidence for another pair
            return;
        }
        final int n = partner[x] == y && partner[y] == x ? votes[x] + 1 : 1;
        partner[x] = y;
        partner[y] = x;
        votes[x] = (byte) Math.min(n, VOTES_TO_PAIR);
        votes[y] = votes[x];
        if (n >= VOTES_TO_PAIR) {
            pair(x, y);
        }
    }

    /** Whether PSN {@code p} answers one of flow {@code x}'s recent requests (modulo 2^24). */
    private boolean fits(final int x, final int p) {
        final int n = ringSize(reqRing, x);
        final int base = x * RING;
        for (int i = 0; i < n; i++) {
            final int e = reqPsn[base + i];
            final int span = Math.max(1, e >>> 24);
            if ((p - (e & PSN_MASK) & PSN_MASK) < span) {
                return true;
            }
        }
        return false;
    }

    /** Makes the one-way flows x and y one session: their records leave, the session's appears. */
    private void pair(final int x, final int y) {
        removedRecordOut(x, SessionChange.REPLACED);
        removedRecordOut(y, SessionChange.REPLACED);
        // the session stands in the list where the more recently seen of the two stood
        final int keep = last[x] >= last[y] ? x : y;
        final int drop = keep == x ? y : x;
        unlink(drop);
        flags[drop] = (short) (flags[drop] & ~(F_REP | F_DIRTY | F_QUEUED | F_COOLING | F_REPORTED | F_IDLE)
            | F_PAIRED);
        flags[keep] = (short) (flags[keep] & ~(F_DIRTY | F_QUEUED | F_COOLING | F_REPORTED | F_IDLE) | F_PAIRED);
        partner[x] = y;
        partner[y] = x;
        serial[keep] = nextSerial++;
        serial[drop] = nextSerial++;
        sessions++;
        markDirty(keep);
    }

    // ---------------------------------------------------------------- time

    /**
     * Applies time (capture clock, microseconds): records without a sampled packet for the idle
     * time become IDLE, and leave once the retention has passed after that.
     */
    void expire(final long nowMicros) {
        if (nowMicros > now) {
            now = nowMicros;
        }
        final long idle = config.idleMicros();
        while (lruHead != NONE) {
            final long quiet = now - sessionLast(lruHead) - idle;
            if (quiet < 0 || quiet < retentionMicros) {
                break;
            }
            final int r = lruHead;
            removeRecord(r, SessionChange.EXPIRED);
            expired++;
        }
        int r = idleFrom;
        while (r != NONE && now - sessionLast(r) >= idle) {
            if ((flags[r] & F_IDLE) == 0) {
                flags[r] |= F_IDLE;
                markDirty(r);
            }
            r = next[r];
        }
        idleFrom = r;
    }

    // ---------------------------------------------------------------- CM takes over

    /**
     * CM announced that the QP {@code q} at (dHi, dLo) is a side of session {@code s} whose other
     * side is (sHi, sLo): the data-learned record of the flow toward that QP leaves (reported
     * removed), and its packets join {@code s}'s direction toward that side ({@code toB}). When
     * that flow was paired, its partner joins the other direction if it goes to the QP
     * {@code otherQpn} (or that is not known, -1); else it stays, a one-way flow.
     *
     * @return the packets that joined {@code s}
     */
    long claim(final Session s, final boolean toB, final long dHi, final long dLo, final int q, final long sHi,
            final long sLo, final int otherQpn) {
        final int f = find(sHi, sLo, dHi, dLo, q);
        if (f == NONE) {
            return 0;
        }
        final int r = rep(f);
        removedRecordOut(r, SessionChange.REPLACED);
        long n = join(s, toB, f);
        if ((flags[f] & F_PAIRED) != 0) {
            final int g = partner[f];
            if (otherQpn < 0 || qpn[g] == otherQpn) {
                n += join(s, !toB, g);
                free(g);
            } else {
                unpair(g);
            }
            sessions--;
        }
        free(f);
        return n;
    }

    private long join(final Session s, final boolean toB, final int f) {
        final int n = packets[f];
        if (toB) {
            if (s.aDataPackets == 0) {
                s.aDataUdp = udp[f];
                s.aDataPort = port[f];
            }
            s.aDataPackets = (int) Math.min(Integer.MAX_VALUE, (long) s.aDataPackets + n);
        } else {
            if (s.bDataPackets == 0) {
                s.bDataUdp = udp[f];
                s.bDataPort = port[f];
            }
            s.bDataPackets = (int) Math.min(Integer.MAX_VALUE, (long) s.bDataPackets + n);
        }
        return n;
    }

    /** Makes {@code g}, whose partner leaves, a one-way flow again: a new record. */
    private void unpair(final int g) {
        flags[g] = (short) (flags[g] & ~(F_PAIRED | F_DIRTY | F_QUEUED | F_COOLING | F_REPORTED | F_IDLE));
        partner[g] = NONE;
        votes[g] = 0;
        serial[g] = nextSerial++;
        if ((flags[g] & F_REP) == 0) {
            flags[g] |= F_REP;
            append(g);
        }
        markDirty(g);
    }

    // ---------------------------------------------------------------- records

    private int rep(final int f) {
        return (flags[f] & (F_PAIRED | F_REP)) == F_PAIRED ? partner[f] : f;
    }

    private long sessionLast(final int r) {
        return (flags[r] & F_PAIRED) != 0 ? Math.max(last[r], last[partner[r]]) : last[r];
    }

    private long sessionFirst(final int r) {
        return (flags[r] & F_PAIRED) != 0 ? Math.min(first[r], first[partner[r]]) : first[r];
    }

    private int create(final long sHi, final long sLo, final long dHi, final long dLo, final int q,
            final int transport, final boolean v6, final long t) {
        if (count >= config.maxFlows()) {
            final int victim = lruHead;
            evicted += (flags[victim] & F_PAIRED) != 0 ? 2 : 1;
            removeRecord(victim, SessionChange.EVICTED);
        }
        final int f;
        if (freeHead != NONE) {
            f = freeHead;
            freeHead = next[f];
        } else {
            if (used == capacity) {
                grow((int) Math.min(config.maxFlows(), (long) capacity * 2));
            }
            f = used++;
        }
        srcHi[f] = sHi;
        srcLo[f] = sLo;
        dstHi[f] = dHi;
        dstLo[f] = dLo;
        qpn[f] = q;
        first[f] = t;
        last[f] = t;
        reported[f] = Long.MIN_VALUE;
        packets[f] = 0;
        udp[f] = 0;
        port[f] = 0;
        kind[f] = (byte) (transport | (v6 ? K_V6 : 0));
        flags[f] = F_USED | F_REP;
        reqRing[f] = 0;
        respRing[f] = 0;
        partner[f] = NONE;
        votes[f] = 0;
        serial[f] = nextSerial++;
        count++;
        indexAdd(f);
        pairAdd(f);
        append(f);
        return f;
    }

    /** Removes a record (one flow, or both of a pair), reporting its removal if it was reported. */
    private void removeRecord(final int r, final SessionChange why) {
        removedRecordOut(r, why);
        if ((flags[r] & F_PAIRED) != 0) {
            free(partner[r]);
            sessions--;
        }
        free(r);
    }

    /** Reports that record {@code r} leaves (its last state, marked removed), if it was reported. */
    private void removedRecordOut(final int r, final SessionChange why) {
        if ((flags[r] & F_REPORTED) == 0) {
            return;
        }
        if (tracking) {
            writeJson(r, removedJson, true);
            if (removedCount == removedEnds.length) {
                removedEnds = Arrays.copyOf(removedEnds, removedCount * 2);
            }
            removedEnds[removedCount++] = removedJson.length();
        }
        if (listener != null) {
            listener.sessionChanged(why, record(r));
        }
    }

    private void free(final int f) {
        indexRemove(f);
        pairRemove(f);
        if ((flags[f] & F_REP) != 0) {
            unlink(f);
        }
        flags[f] = 0;
        partner[f] = NONE;
        count--;
        next[f] = freeHead;
        freeHead = f;
    }

    // ---------------------------------------------------------------- the list by last packet

    private void touch(final int r) {
        if (r == lruTail) {
            if (idleFrom == NONE) {
                idleFrom = r;
            }
            return;
        }
        unlink(r);
        append(r);
    }

    private void append(final int r) {
        prev[r] = lruTail;
        next[r] = NONE;
        if (lruTail != NONE) {
            next[lruTail] = r;
        } else {
            lruHead = r;
        }
        lruTail = r;
        if (idleFrom == NONE) {
            idleFrom = r;
        }
    }

    private void unlink(final int r) {
        if (idleFrom == r) {
            idleFrom = next[r];
        }
        if (prev[r] != NONE) {
            next[prev[r]] = next[r];
        } else {
            lruHead = next[r];
        }
        if (next[r] != NONE) {
            prev[next[r]] = prev[r];
        } else {
            lruTail = prev[r];
        }
        prev[r] = NONE;
        next[r] = NONE;
    }

    // ---------------------------------------------------------------- reports

    private void markDirty(final int r) {
        if ((flags[r] & F_DIRTY) != 0) {
            return;
        }
        flags[r] |= F_DIRTY;
        if ((flags[r] & (F_COOLING | F_QUEUED)) == 0 && (tracking || listener != null)) {
            flags[r] |= F_QUEUED;
            if (queueCount == queue.length) {
                queue = Arrays.copyOf(queue, queueCount * 2);
            }
            queue[queueCount++] = (long) serial[r] << 32 | r;
        }
    }

    /**
     * Hands over the records removed since the last call, each in its last state with
     * {@code "removed":true}.
     *
     * @return how many
     */
    int drainRemoved(final JsonBytes scratch, final SessionTable.JsonSink sink) {
        final int n = removedCount;
        int start = 0;
        for (int i = 0; i < n; i++) {
            scratch.reset();
            scratch.append(removedJson, start, removedEnds[i] - start);
            start = removedEnds[i];
            sink.session(scratch);
        }
        removedCount = 0;
        removedJson.reset();
        return n;
    }

    /**
     * Reports the records that changed and were not reported within the report interval: to
     * {@code sink} (may be null) and the listener.
     *
     * @return how many
     */
    int drainChanged(final JsonBytes scratch, final SessionTable.JsonSink sink) {
        int n = 0;
        final long interval = config.reportMicros();
        while (coolSize > 0) {
            final long e = cool[coolHead];
            final int r = (int) e;
            if (serial[r] != (int) (e >>> 32) || (flags[r] & (F_USED | F_COOLING)) != (F_USED | F_COOLING)) {
                popCool();
                continue;
            }
            if (now - reported[r] < interval) {
                break;
            }
            popCool();
            flags[r] &= ~F_COOLING;
            if ((flags[r] & F_DIRTY) != 0) {
                report(r, scratch, sink);
                n++;
            }
        }
        final int q = queueCount;
        for (int i = 0; i < q; i++) {
            final long e = queue[i];
            final int r = (int) e;
            if (serial[r] != (int) (e >>> 32) || (flags[r] & (F_USED | F_QUEUED)) != (F_USED | F_QUEUED)) {
                continue;
            }
            flags[r] &= ~F_QUEUED;
            if ((flags[r] & (F_DIRTY | F_COOLING)) == F_DIRTY) {
                report(r, scratch, sink);
                n++;
            }
        }
        queueCount = 0;
        if (queue.length > 4096) {
            // a burst of new flows grew the queue: give the memory back
            queue = new long[64];
        }
        return n;
    }

    private void report(final int r, final JsonBytes scratch, final SessionTable.JsonSink sink) {
        if (sink != null) {
            scratch.reset();
            writeJson(r, scratch, false);
            sink.session(scratch);
        }
        if (listener != null) {
            listener.sessionChanged((flags[r] & F_REPORTED) != 0 ? SessionChange.UPDATED : SessionChange.CREATED,
                record(r));
        }
        reported[r] = now;
        flags[r] = (short) (flags[r] & ~F_DIRTY | F_REPORTED | F_COOLING);
        if (coolSize == cool.length) {
            final long[] c = new long[cool.length * 2];
            for (int i = 0; i < coolSize; i++) {
                c[i] = cool[(coolHead + i) & cool.length - 1];
            }
            cool = c;
            coolHead = 0;
        }
        cool[(coolHead + coolSize) & cool.length - 1] = (long) serial[r] << 32 | r;
        coolSize++;
    }

    private void popCool() {
        coolHead = coolHead + 1 & cool.length - 1;
        coolSize--;
    }

    // ---------------------------------------------------------------- reading

    /** A record for snapshots: valid while its slot holds the same record. */
    static final class Handle {
        final int slot;
        final int serial;
        final long firstSeen;

        Handle(final int slot, final int serial, final long firstSeen) {
            this.slot = slot;
            this.serial = serial;
            this.firstSeen = firstSeen;
        }
    }

    /** Handles of every record, least recently seen first. */
    void handles(final List<Object> out) {
        for (int r = lruHead; r != NONE; r = next[r]) {
            out.add(new Handle(r, serial[r], sessionFirst(r)));
        }
    }

    /** Whether the handle's record is still in the table. */
    boolean valid(final Handle h) {
        return (flags[h.slot] & (F_USED | F_REP)) == (F_USED | F_REP) && serial[h.slot] == h.serial;
    }

    /** Writes the handle's record as JSON; false when it left the table. */
    boolean writeJson(final Handle h, final JsonBytes out) {
        if (!valid(h)) {
            return false;
        }
        writeJson(h.slot, out, false);
        return true;
    }

    /** The handle's record, or null when it left the table. */
    SessionRecord record(final Handle h) {
        return valid(h) ? record(h.slot) : null;
    }

    private static final byte[] K_SESSION_ID = JsonBytes.ascii("{\"session_id\":\"");
    private static final byte[] K_DATA_HEAD = JsonBytes.ascii("\",\"roles_known\":false,\"learned_from\":\"data\"");
    private static final byte[] K_ONE_WAY = JsonBytes.ascii(",\"one_way\":true");
    private static final byte[] K_TRANSPORT_KEY = JsonBytes.ascii(",\"transport\":\"");
    private static final byte[] K_REQUESTER_IP = JsonBytes.ascii("\",\"requester_ip\":\"");
    private static final byte[] K_RESPONDER_IP = JsonBytes.ascii("\",\"responder_ip\":\"");
    private static final byte[] K_REQUESTER_QPN = JsonBytes.ascii("\",\"requester_qpn\":");
    private static final byte[] K_RESPONDER_QPN = JsonBytes.ascii(",\"responder_qpn\":");
    private static final byte[] K_RESPONDER_QPN_Q = JsonBytes.ascii("\",\"responder_qpn\":");
    private static final byte[] K_REQUESTER_DATA = JsonBytes.ascii(",\"requester_data\":{\"udp_src_port\":");
    private static final byte[] K_RESPONDER_DATA = JsonBytes.ascii(",\"responder_data\":{\"udp_src_port\":");
    private static final byte[] K_INGRESS = JsonBytes.ascii(",\"ingress_port\":");
    private static final byte[] K_PACKETS = JsonBytes.ascii(",\"packets\":");
    private static final byte[] K_REQUEST_PSNS = JsonBytes.ascii(",\"request_psns\":[");
    private static final byte[] K_RESPONSE_PSNS = JsonBytes.ascii("],\"response_psns\":[");
    private static final byte[] K_ACTIVE = JsonBytes.ascii(",\"state\":\"ACTIVE\",\"messages\":[],\"first_seen\":");
    private static final byte[] K_IDLE = JsonBytes.ascii(",\"state\":\"IDLE\",\"messages\":[],\"first_seen\":");
    private static final byte[] K_LAST_SEEN = JsonBytes.ascii(",\"last_seen\":");
    private static final byte[] K_TAIL = JsonBytes.ascii(",\"message_log\":[],\"dropped_messages\":0");
    private static final byte[] K_REMOVED = JsonBytes.ascii(",\"removed\":true");

    /** Writes record {@code r} as {@link SessionRecord#appendJson} would, with the same bytes. */
    private void writeJson(final int r, final JsonBytes out, final boolean removed) {
        final boolean v6 = (kind[r] & K_V6) != 0;
        if ((flags[r] & F_PAIRED) != 0) {
            final int toB = flowToB(r);
            final int toA = partner[toB];
            out.raw(K_SESSION_ID);
            ip(out, v6, dstHi[toA], dstLo[toA]).raw('/').raw("qp").hex(qpn[toA], 6).raw('/');
            ip(out, v6, dstHi[toB], dstLo[toB]).raw('/').raw("qp").hex(qpn[toB], 6);
            out.raw(K_DATA_HEAD).raw(K_TRANSPORT_KEY).raw(TRANSPORTS[kind[r] & K_TRANSPORT]);
            ip(out.raw(K_REQUESTER_IP), v6, dstHi[toA], dstLo[toA]);
            ip(out.raw(K_RESPONDER_IP), v6, dstHi[toB], dstLo[toB]);
            out.raw(K_REQUESTER_QPN).decimal(qpn[toA]).raw(K_RESPONDER_QPN).decimal(qpn[toB]);
            dataJson(out.raw(K_REQUESTER_DATA), toB);
            dataJson(out.raw(K_RESPONDER_DATA), toA);
        } else {
            out.raw(K_SESSION_ID);
            ip(out, v6, srcHi[r], srcLo[r]).raw("/-/");
            ip(out, v6, dstHi[r], dstLo[r]).raw('/').raw("qp").hex(qpn[r], 6);
            out.raw(K_DATA_HEAD).raw(K_ONE_WAY).raw(K_TRANSPORT_KEY).raw(TRANSPORTS[kind[r] & K_TRANSPORT]);
            ip(out.raw(K_REQUESTER_IP), v6, srcHi[r], srcLo[r]);
            ip(out.raw(K_RESPONDER_IP), v6, dstHi[r], dstLo[r]);
            out.raw(K_RESPONDER_QPN_Q).decimal(qpn[r]);
            dataJson(out.raw(K_REQUESTER_DATA), r);
            if ((kind[r] & K_TRANSPORT) == RC) {
                out.raw(K_REQUEST_PSNS);
                psns(out, reqPsn, reqRing, r);
                out.raw(K_RESPONSE_PSNS);
                psns(out, respPsn, respRing, r);
                out.raw(']');
            }
        }
        out.raw((flags[r] & F_IDLE) != 0 ? K_IDLE : K_ACTIVE).seconds(sessionFirst(r) * 1000L, 6);
        out.raw(K_LAST_SEEN).seconds(sessionLast(r) * 1000L, 6).raw(K_TAIL);
        if (removed) {
            out.raw(K_REMOVED);
        }
        out.raw('}');
    }

    private void dataJson(final JsonBytes out, final int f) {
        out.decimal((int) udp[f]);
        final String name = ports.name(port[f] & 0xffff);
        if (name != null) {
            out.raw(K_INGRESS).string(name);
        }
        out.raw(K_PACKETS).decimal(packets[f]).raw('}');
    }

    private static void psns(final JsonBytes out, final int[] ring, final byte[] pos, final int f) {
        final int n = ringSize(pos, f);
        // oldest first: once full, the oldest is at the next write position
        final int start = n == RING ? pos[f] & 7 : 0;
        for (int i = 0; i < n; i++) {
            if (i > 0) {
                out.raw(',');
            }
            out.decimal(ring[f * RING + (start + i) % RING] & PSN_MASK);
        }
    }

    private static List<Integer> psnList(final int[] ring, final byte[] pos, final int f) {
        final int n = ringSize(pos, f);
        final int start = n == RING ? pos[f] & 7 : 0;
        final List<Integer> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(ring[f * RING + (start + i) % RING] & PSN_MASK);
        }
        return out;
    }

    private JsonBytes ip(final JsonBytes out, final boolean v6, final long hi, final long lo) {
        final byte[] b = ipScratch;
        if (v6) {
            for (int i = 0; i < 8; i++) {
                b[i] = (byte) (hi >>> (56 - 8 * i));
                b[8 + i] = (byte) (lo >>> (56 - 8 * i));
            }
        } else {
            for (int i = 0; i < 4; i++) {
                b[i] = (byte) (lo >>> (24 - 8 * i));
            }
        }
        return out.ipText(b, 0, v6 ? 6 : 4);
    }

    /**
     * Of a paired record, the flow toward endpoint B: the endpoints are the QPs the two flows go
     * to, (IP, QPN), A the lower by IP address bytes, then QPN.
     */
    private int flowToB(final int r) {
        final int o = partner[r];
        int c = Long.compareUnsigned(dstHi[r], dstHi[o]);
        if (c == 0) {
            c = Long.compareUnsigned(dstLo[r], dstLo[o]);
        }
        if (c == 0) {
            c = Integer.compare(qpn[r], qpn[o]);
        }
        // r goes to the lower endpoint (A): its partner goes to B
        return c <= 0 ? o : r;
    }

    /** Record {@code r} as an immutable {@link SessionRecord} (the same fields as its JSON). */
    private SessionRecord record(final int r) {
        final int version = (kind[r] & K_V6) != 0 ? 6 : 4;
        final String transport = TRANSPORTS[kind[r] & K_TRANSPORT];
        final SessionState state = (flags[r] & F_IDLE) != 0 ? SessionState.IDLE : SessionState.ACTIVE;
        final BigDecimal firstSeen = BigDecimal.valueOf(sessionFirst(r), 6);
        final BigDecimal lastSeen = BigDecimal.valueOf(sessionLast(r), 6);
        if ((flags[r] & F_PAIRED) != 0) {
            final int toB = flowToB(r);
            final int toA = partner[toB];
            final String a = SessionWriter.ip(version, dstHi[toA], dstLo[toA]);
            final String b = SessionWriter.ip(version, dstHi[toB], dstLo[toB]);
            return new SessionRecord(a + "/" + qpText(qpn[toA]) + "/" + b + "/" + qpText(qpn[toB]), false,
                SessionRecord.DATA, null, transport, a, b, null, null, qpn[toA], qpn[toB], null, null, null, null,
                null, data(toB), data(toA), null, null, state, null, List.of(), firstSeen, lastSeen, List.of(), 0);
        }
        final String src = SessionWriter.ip(version, srcHi[r], srcLo[r]);
        final String dst = SessionWriter.ip(version, dstHi[r], dstLo[r]);
        final boolean rc = (kind[r] & K_TRANSPORT) == RC;
        return new SessionRecord(src + "/-/" + dst + "/" + qpText(qpn[r]), false, SessionRecord.DATA, Boolean.TRUE,
            transport, src, dst, null, null, null, qpn[r], null, null, null, null, null, data(r), null,
            rc ? psnList(reqPsn, reqRing, r) : null, rc ? psnList(respPsn, respRing, r) : null, state, null,
            List.of(), firstSeen, lastSeen, List.of(), 0);
    }

    private DataFlow data(final int f) {
        return new DataFlow(udp[f], ports.name(port[f] & 0xffff), Math.max(1, packets[f]));
    }

    static String qpText(final int q) {
        final String h = Integer.toHexString(q & PSN_MASK);
        return "qp0x" + "000000".substring(h.length()) + h;
    }

    // ---------------------------------------------------------------- restore

    /**
     * Puts back a data-learned record this table (or an earlier one, before a restart) described
     * as {@code r}, replacing what it holds for the same flows; refuses a record it cannot have
     * written.
     *
     * @return whether it was put back
     */
    boolean restore(final SessionRecord r) {
        final int version = r.requesterIp().indexOf(':') >= 0 ? 6 : 4;
        final long[] a = RecordFields.parseIp(r.requesterIp(), version);
        final long[] b = RecordFields.parseIp(r.responderIp(), version);
        final int transport = Arrays.asList(TRANSPORTS).indexOf(r.transport());
        if (a.length == 0 || b.length == 0 || transport < 0 || r.requesterData() == null
                || r.state() != SessionState.ACTIVE && r.state() != SessionState.IDLE
                || !qpnOk(r.responderQpn())) {
            return false;
        }
        final long firstSeen = RecordFields.micros(r.firstSeen());
        final long lastSeen = RecordFields.micros(r.lastSeen());
        final boolean v6 = version == 6;
        final int f;
        if (r.oneWay() != null) {
            if (!psnsOk(r.requestPsns()) || !psnsOk(r.responsePsns())) {
                return false;
            }
            forgetFlow(a, b, r.responderQpn());
            f = restoreFlow(a, b, r.responderQpn(), transport, v6, firstSeen, lastSeen, r.requesterData());
            if (r.requestPsns() != null) {
                r.requestPsns().forEach(p -> push(reqPsn, reqRing, f, p));
            }
            if (r.responsePsns() != null) {
                r.responsePsns().forEach(p -> push(respPsn, respRing, f, p));
            }
        } else {
            if (transport != RC || r.responderData() == null || !qpnOk(r.requesterQpn())) {
                return false;
            }
            forgetFlow(a, b, r.responderQpn());
            forgetFlow(b, a, r.requesterQpn());
            // room for both first: making room for the second must not evict the first
            while (count + 2 > config.maxFlows()) {
                evicted += (flags[lruHead] & F_PAIRED) != 0 ? 2 : 1;
                removeRecord(lruHead, SessionChange.EVICTED);
            }
            final int x = restoreFlow(a, b, r.responderQpn(), transport, v6, firstSeen, lastSeen, r.requesterData());
            final int y = restoreFlow(b, a, r.requesterQpn(), transport, v6, firstSeen, lastSeen, r.responderData());
            pair(x, y);
            f = rep(x);
        }
        flags[f] = (short) (flags[f] & ~(F_DIRTY | F_QUEUED) | F_REPORTED | (r.state() == SessionState.IDLE ? F_IDLE : 0));
        reported[f] = lastSeen;
        restoredCount++;
        return true;
    }

    /**
     * Takes out the record {@code r} names (a replayed log's last word on it was that it left).
     *
     * @return whether one was taken out
     */
    boolean forget(final SessionRecord r) {
        final int version = r.requesterIp().indexOf(':') >= 0 ? 6 : 4;
        final long[] a = RecordFields.parseIp(r.requesterIp(), version);
        final long[] b = RecordFields.parseIp(r.responderIp(), version);
        if (a.length == 0 || b.length == 0 || !qpnOk(r.responderQpn())) {
            return false;
        }
        final int f = find(a[0], a[1], b[0], b[1], r.responderQpn());
        if (f == NONE) {
            return false;
        }
        final int rep = rep(f);
        if (r.oneWay() == null && (flags[f] & F_PAIRED) == 0 || r.oneWay() != null && (flags[f] & F_PAIRED) != 0) {
            return false;
        }
        flags[rep] &= ~F_REPORTED;
        removeRecord(rep, SessionChange.EXPIRED);
        return true;
    }

    private void forgetFlow(final long[] src, final long[] dst, final int q) {
        final int f = find(src[0], src[1], dst[0], dst[1], q);
        if (f != NONE) {
            final int r = rep(f);
            flags[r] &= ~F_REPORTED;
            removeRecord(r, SessionChange.REPLACED);
        }
    }

    private int restoreFlow(final long[] src, final long[] dst, final int q, final int transport, final boolean v6,
            final long firstSeen, final long lastSeen, final DataFlow d) {
        final int f = create(src[0], src[1], dst[0], dst[1], q, transport, v6, firstSeen);
        last[f] = Math.max(firstSeen, lastSeen);
        packets[f] = (int) Math.min(Integer.MAX_VALUE, d.packets());
        udp[f] = (char) d.udpSrcPort();
        port[f] = (short) ports.id(d.ingressPort());
        if (last[f] > now) {
            now = last[f];
        }
        return f;
    }

    private static boolean qpnOk(final Integer q) {
        return q != null && q > 1 && q <= PSN_MASK;
    }

    private static boolean psnsOk(final List<Integer> psns) {
        if (psns == null) {
            return true;
        }
        if (psns.size() > RING) {
            return false;
        }
        for (Integer p : psns) {
            if (p == null || p < 0 || p > PSN_MASK) {
                return false;
            }
        }
        return true;
    }

    // ---------------------------------------------------------------- arrays and indexes

    private void grow(final int cap) {
        if (cap <= capacity) {
            return;
        }
        srcHi = Arrays.copyOf(srcHi == null ? new long[0] : srcHi, cap);
        srcLo = Arrays.copyOf(srcLo == null ? new long[0] : srcLo, cap);
        dstHi = Arrays.copyOf(dstHi == null ? new long[0] : dstHi, cap);
        dstLo = Arrays.copyOf(dstLo == null ? new long[0] : dstLo, cap);
        qpn = Arrays.copyOf(qpn == null ? new int[0] : qpn, cap);
        first = Arrays.copyOf(first == null ? new long[0] : first, cap);
        last = Arrays.copyOf(last == null ? new long[0] : last, cap);
        reported = Arrays.copyOf(reported == null ? new long[0] : reported, cap);
        packets = Arrays.copyOf(packets == null ? new int[0] : packets, cap);
        udp = Arrays.copyOf(udp == null ? new char[0] : udp, cap);
        port = Arrays.copyOf(port == null ? new short[0] : port, cap);
        kind = Arrays.copyOf(kind == null ? new byte[0] : kind, cap);
        flags = Arrays.copyOf(flags == null ? new short[0] : flags, cap);
        reqPsn = Arrays.copyOf(reqPsn == null ? new int[0] : reqPsn, cap * RING);
        respPsn = Arrays.copyOf(respPsn == null ? new int[0] : respPsn, cap * RING);
        reqRing = Arrays.copyOf(reqRing == null ? new byte[0] : reqRing, cap);
        respRing = Arrays.copyOf(respRing == null ? new byte[0] : respRing, cap);
        partner = Arrays.copyOf(partner == null ? new int[0] : partner, cap);
        votes = Arrays.copyOf(votes == null ? new byte[0] : votes, cap);
        prev = Arrays.copyOf(prev == null ? new int[0] : prev, cap);
        next = Arrays.copyOf(next == null ? new int[0] : next, cap);
        pairNext = Arrays.copyOf(pairNext == null ? new int[0] : pairNext, cap);
        serial = Arrays.copyOf(serial == null ? new int[0] : serial, cap);
        capacity = cap;
    }

    private static int mix(long x) {
        x = (x ^ (x >>> 32)) * 0x94D049BB133111EBL;
        return (int) (x ^ (x >>> 31));
    }

    private static int pairHash(final long sHi, final long sLo, final long dHi, final long dLo) {
        long x = sHi * 0x9E3779B97F4A7C15L ^ sLo;
        x = (x ^ (x >>> 29)) * 0xBF58476D1CE4E5B9L ^ dHi;
        x = (x ^ (x >>> 31)) * 0x9E3779B97F4A7C15L ^ dLo;
        return mix(x);
    }

    private static int flowHash(final long sHi, final long sLo, final long dHi, final long dLo, final int q) {
        long x = sHi * 0x9E3779B97F4A7C15L ^ sLo;
        x = (x ^ (x >>> 29)) * 0xBF58476D1CE4E5B9L ^ dHi;
        x = (x ^ (x >>> 31)) * 0x9E3779B97F4A7C15L ^ dLo;
        x = (x ^ (x >>> 29)) * 0xBF58476D1CE4E5B9L ^ q;
        return mix(x);
    }

    private int flowHash(final int f) {
        return flowHash(srcHi[f], srcLo[f], dstHi[f], dstLo[f], qpn[f]);
    }

    private int pairHash(final int f) {
        return pairHash(srcHi[f], srcLo[f], dstHi[f], dstLo[f]);
    }

    /** The flow (sHi, sLo) to (dHi, dLo) QP q, or NONE. */
    int find(final long sHi, final long sLo, final long dHi, final long dLo, final int q) {
        final int mask = index.length - 1;
        for (int i = flowHash(sHi, sLo, dHi, dLo, q) & mask; index[i] != 0; i = i + 1 & mask) {
            final int f = index[i] - 1;
            if (qpn[f] == q && dstLo[f] == dLo && srcLo[f] == sLo && dstHi[f] == dHi && srcHi[f] == sHi) {
                return f;
            }
        }
        return NONE;
    }

    private void indexAdd(final int f) {
        if ((indexUsed + 1) * 2 > index.length) {
            index = rehash(index, index.length * 2, true);
        }
        final int mask = index.length - 1;
        int i = flowHash(f) & mask;
        while (index[i] != 0) {
            i = i + 1 & mask;
        }
        index[i] = f + 1;
        indexUsed++;
    }

    private void indexRemove(final int f) {
        final int mask = index.length - 1;
        int i = flowHash(f) & mask;
        while (index[i] != 0 && index[i] != f + 1) {
            i = i + 1 & mask;
        }
        if (index[i] == 0) {
            return;
        }
        deleteAt(index, i, true);
        indexUsed--;
        if (index.length > MIN_INDEX && indexUsed * 8 < index.length) {
            index = rehash(index, index.length / 2, true);
        }
    }

    /** The first flow from (sHi, sLo) to (dHi, dLo), or NONE. */
    private int pairHead(final long sHi, final long sLo, final long dHi, final long dLo) {
        final int mask = pairIndex.length - 1;
        for (int i = pairHash(sHi, sLo, dHi, dLo) & mask; pairIndex[i] != 0; i = i + 1 & mask) {
            final int f = pairIndex[i] - 1;
            if (dstLo[f] == dLo && srcLo[f] == sLo && dstHi[f] == dHi && srcHi[f] == sHi) {
                return f;
            }
        }
        return NONE;
    }

    private void pairAdd(final int f) {
        final int head = pairHead(srcHi[f], srcLo[f], dstHi[f], dstLo[f]);
        if (head != NONE) {
            pairNext[f] = pairNext[head];
            pairNext[head] = f + 1;
            return;
        }
        pairNext[f] = 0;
        if ((pairIndexUsed + 1) * 2 > pairIndex.length) {
            pairIndex = rehash(pairIndex, pairIndex.length * 2, false);
        }
        final int mask = pairIndex.length - 1;
        int i = pairHash(f) & mask;
        while (pairIndex[i] != 0) {
            i = i + 1 & mask;
        }
        pairIndex[i] = f + 1;
        pairIndexUsed++;
    }

    private void pairRemove(final int f) {
        final int mask = pairIndex.length - 1;
        int i = pairHash(f) & mask;
        int head = NONE;
        for (; pairIndex[i] != 0; i = i + 1 & mask) {
            final int h = pairIndex[i] - 1;
            if (dstLo[h] == dstLo[f] && srcLo[h] == srcLo[f] && dstHi[h] == dstHi[f] && srcHi[h] == srcHi[f]) {
                head = h;
                break;
            }
        }
        if (head == NONE) {
            return;
        }
        if (head == f) {
            if (pairNext[f] != 0) {
                // the next flow of the chain heads it: the same addresses, the same place
                pairIndex[i] = pairNext[f];
            } else {
                deleteAt(pairIndex, i, false);
                pairIndexUsed--;
                if (pairIndex.length > MIN_INDEX && pairIndexUsed * 8 < pairIndex.length) {
                    pairIndex = rehash(pairIndex, pairIndex.length / 2, false);
                }
            }
        } else {
            int p = head;
            while (pairNext[p] != 0 && pairNext[p] != f + 1) {
                p = pairNext[p] - 1;
            }
            if (pairNext[p] == f + 1) {
                pairNext[p] = pairNext[f];
            }
        }
        pairNext[f] = 0;
    }

    /** Backward-shift deletion at {@code i}: no tombstones under churn. */
    private void deleteAt(final int[] table, final int i, final boolean byFlow) {
        final int mask = table.length - 1;
        int hole = i;
        for (int j = hole + 1 & mask; table[j] != 0; j = j + 1 & mask) {
            final int f = table[j] - 1;
            final int ideal = (byFlow ? flowHash(f) : pairHash(f)) & mask;
            if ((j - ideal & mask) >= (j - hole & mask)) {
                table[hole] = table[j];
                hole = j;
            }
        }
        table[hole] = 0;
    }

    private int[] rehash(final int[] old, final int cap, final boolean byFlow) {
        final int[] t = new int[cap];
        final int mask = cap - 1;
        for (int e : old) {
            if (e != 0) {
                int i = (byFlow ? flowHash(e - 1) : pairHash(e - 1)) & mask;
                while (t[i] != 0) {
                    i = i + 1 & mask;
                }
                t[i] = e;
            }
        }
        return t;
    }
}
