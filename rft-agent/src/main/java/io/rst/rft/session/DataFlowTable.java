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
import org.eclipse.jdt.annotation.Nullable;

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

    private long[] srcHi = new long[0];
    private long[] srcLo = new long[0];
    private long[] dstHi = new long[0];
    private long[] dstLo = new long[0];
    private int[] qpn = new int[0];
    private long[] first = new long[0];
    private long[] last = new long[0];
    /** When the record was last reported (capture time, microseconds). */
    private long[] reported = new long[0];
    private int[] packets = new int[0];
    /** Of the sampled packets, the ECN-capable ones (ECT(0), ECT(1) or CE) and those marked CE. */
    private int[] ect = new int[0];
    private int[] ce = new int[0];
    /**
     * CNPs from the flow's source to its destination QP: about the data that QP sends back (the
     * other direction's), every one seen, not sampled.
     */
    private int[] cnp = new int[0];
    /** DSCP of the last sampled packet + 1. */
    private byte[] dscp = new byte[0];
    private char[] udp = new char[0];
    private short[] port = new short[0];
    private byte[] kind = new byte[0];
    private short[] flags = new short[0];
    /** RING entries per flow: PSN (24 bits) | READ span (8 bits, 0 for 1). */
    private int[] reqPsn = new int[0];
    private int[] respPsn = new int[0];
    /** Per ring: next position (low 3 bits) | full (bit 3). */
    private byte[] reqRing = new byte[0];
    private byte[] respRing = new byte[0];
    /** The paired flow; while unpaired, the flow the last vote was for (or NONE). */
    private int[] partner = new int[0];
    private byte[] votes = new byte[0];
    /** The list of records by last packet, through their representatives. */
    private int[] prev = new int[0];
    private int[] next = new int[0];
    /** The next flow (slot + 1, 0: none) with the same source and destination IP. */
    private int[] pairNext = new int[0];
    /** The record's identity on this slot: handles and queue entries of an older record do not match. */
    private int[] serial = new int[0];

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

    /** Valid packets of classes not learnt (RD, XRC; CNPs go to {@link #cnp}). */
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
     * Learns from one sampled data packet that no CM session claimed ({@code msg} decoded as RoCE
     * data). {@code portId} is its ingress port's {@link PortNames} number.
     *
     * @return whether it was tracked (false: rejected or of a class not learnt)
     */
    boolean accept(final CmMessage msg, final int portId) {
        final int op = msg.bthOpcode();
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
                // RD, XRC (and CNPs, which SessionTable hands to cnp()): classes the table does not learn
                untracked++;
                return false;
            }
        }
        final int q = msg.bthDestQp();
        if (q <= 1) {
            // QP 0 and 1 are the subnet and general management QPs: no data session ends there
            rejected++;
            return false;
        }
        final long t = msg.timeMicros();
        if (t > now) {
            now = t;
        }
        final boolean v6 = msg.ipVersion() == 6;
        final long srcIpHigh = msg.srcIpHigh() | (v6 ? 0L : (long) SessionTable.V4_MARK << 60);
        final long srcIpLow = msg.srcIpLow();
        final long dstIpHigh = msg.dstIpHigh() | (v6 ? 0L : (long) SessionTable.V4_MARK << 60);
        final long dstIpLow = msg.dstIpLow();
        int flow = find(srcIpHigh, srcIpLow, dstIpHigh, dstIpLow, q);
        if (flow != NONE) {
            if ((kind[flow] & K_TRANSPORT) != transport) {
                // a live QP does not change its transport: a forged or damaged packet
                rejected++;
                return false;
            }
            final int r = rep(flow);
            if ((flags[r] & F_IDLE) != 0 || t - sessionLast(r) >= config.idleMicros()) {
                // the QP numbers are used again after the record was idle: a new session
                removeRecord(r, SessionChange.REPLACED);
                flow = NONE;
            }
        }
        if (flow == NONE) {
            flow = create(srcIpHigh, srcIpLow, dstIpHigh, dstIpLow, q, transport, v6, t);
        }
        packets[flow] = Session.inc(packets[flow]);
        final int ecn = msg.ecn();
        if (ecn != 0) {
            ect[flow] = Session.inc(ect[flow]);
            if (ecn == 3) {
                ce[flow] = Session.inc(ce[flow]);
            }
        }
        dscp[flow] = (byte) (msg.dscp() + 1);
        udp[flow] = (char) Math.max(0, msg.udpSrcPort());
        port[flow] = (short) portId;
        if (t > last[flow]) {
            last[flow] = t;
        }
        if (t < first[flow]) {
            first[flow] = t;
        }
        final int r = rep(flow);
        touch(r);
        markDirty(r);
        if (transport == RC) {
            final int psn = msg.bthPsn() & PSN_MASK;
            if (rcKind(op) == RESPONSE) {
                push(respPsn, respRing, flow, psn);
                if ((flags[flow] & F_PAIRED) == 0) {
                    vote(flow, psn);
                }
            } else {
                int span = 0;
                if (op == 0x0c) {
                    // a READ request: its responses count on from its PSN, one per MTU of its length
                    final long len = msg.rethDmaLength();
                    span = len < 0 ? 1 : (int) Math.min(MAX_READ_SPAN, Math.max(1L, (len + 255) / 256));
                }
                push(reqPsn, reqRing, flow, psn | span << 24);
            }
        }
        return true;
    }

    /**
     * Counts one CNP ({@code msg}: BTH opcode 0x81) on the flow from its source to its destination
     * QP, when that flow is learnt: the CNP says that the data this QP sends back arrived marked CE
     * at the CNP's sender. A CNP makes no flow, pairs none, and changes no transport, packet count,
     * port or time: it only marks the record changed.
     *
     * @return whether a flow took it
     */
    boolean cnp(final CmMessage msg) {
        final boolean v6 = msg.ipVersion() == 6;
        final int f = find(msg.srcIpHigh() | (v6 ? 0L : (long) SessionTable.V4_MARK << 60), msg.srcIpLow(),
            msg.dstIpHigh() | (v6 ? 0L : (long) SessionTable.V4_MARK << 60), msg.dstIpLow(), msg.bthDestQp());
        if (f == NONE) {
            return false;
        }
        cnp[f] = Session.inc(cnp[f]);
        markDirty(rep(f));
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

    private static void push(final int[] ring, final byte[] pos, final int flow, final int entry) {
        final int p = pos[flow];
        final int at = p & 7;
        ring[flow * RING + at] = entry;
        pos[flow] = (byte) (at == 7 ? 8 : p & 8 | at + 1);
    }

    private static int ringSize(final byte[] pos, final int flow) {
        return (pos[flow] & 8) != 0 ? RING : pos[flow] & 7;
    }

    /**
     * An answer with PSN {@code psn} on the unpaired flow {@code answering} (B to A): the flows from A to B
     * whose recent requests it fits are found through the address pair index; exactly one that
     * fits is a vote for the pair, two or more are counted ambiguous.
     */
    private void vote(final int answering, final int psn) {
        int found = NONE;
        int fits = 0;
        int looked = 0;
        final int head = pairHead(dstHi[answering], dstLo[answering], srcHi[answering], srcLo[answering]);
        for (int x = head; x != NONE; x = pairNext[x] - 1) {
            if (++looked > MAX_CANDIDATES) {
                ambiguous++;
                return;
            }
            if (x == answering || (kind[x] & K_TRANSPORT) != RC || (flags[x] & F_IDLE) != 0
                    || now - last[x] >= config.idleMicros() || !fits(x, psn)) {
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
        final int n = partner[x] == answering && partner[answering] == x ? votes[x] + 1 : 1;
        partner[x] = answering;
        partner[answering] = x;
        votes[x] = (byte) Math.min(n, VOTES_TO_PAIR);
        votes[answering] = votes[x];
        if (n >= VOTES_TO_PAIR) {
            pair(x, answering);
        }
    }

    /** Whether PSN {@code psn} answers one of flow {@code flow}'s recent requests (modulo 2^24). */
    private boolean fits(final int flow, final int psn) {
        final int n = ringSize(reqRing, flow);
        final int base = flow * RING;
        for (int i = 0; i < n; i++) {
            final int e = reqPsn[base + i];
            final int span = Math.max(1, e >>> 24);
            if ((psn - (e & PSN_MASK) & PSN_MASK) < span) {
                return true;
            }
        }
        return false;
    }

    /** Makes the one-way flows flowA and flowB one session: their records leave, the session's appears. */
    private void pair(final int flowA, final int flowB) {
        removedRecordOut(flowA, SessionChange.REPLACED);
        removedRecordOut(flowB, SessionChange.REPLACED);
        // the session stands in the list where the more recently seen of the two stood
        final int keep = last[flowA] >= last[flowB] ? flowA : flowB;
        final int drop = keep == flowA ? flowB : flowA;
        unlink(drop);
        flags[drop] = (short) (flags[drop] & ~(F_REP | F_DIRTY | F_QUEUED | F_COOLING | F_REPORTED | F_IDLE)
            | F_PAIRED);
        flags[keep] = (short) (flags[keep] & ~(F_DIRTY | F_QUEUED | F_COOLING | F_REPORTED | F_IDLE) | F_PAIRED);
        partner[flowA] = flowB;
        partner[flowB] = flowA;
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
        int rec = idleFrom;
        while (rec != NONE && now - sessionLast(rec) >= idle) {
            if ((flags[rec] & F_IDLE) == 0) {
                flags[rec] |= F_IDLE;
                markDirty(rec);
            }
            rec = next[rec];
        }
        idleFrom = rec;
    }

    // ---------------------------------------------------------------- CM takes over

    /**
     * CM announced that the QP {@code dstQpn} at (dstIpHigh, dstIpLow) is a side of session
     * {@code session} whose other side is (srcIpHigh, srcIpLow): the data-learned record of the flow
     * toward that QP leaves (reported removed), and its packets join {@code session}'s direction
     * toward that side ({@code toB}). When that flow was paired, its partner joins the other
     * direction if it goes to the QP {@code otherQpn} (or that is not known, -1); else it stays, a
     * one-way flow.
     *
     * @return the packets that joined {@code session}
     */
    long claim(final Session session, final boolean toB, final long dstIpHigh, final long dstIpLow, final int dstQpn,
            final long srcIpHigh, final long srcIpLow, final int otherQpn) {
        final int f = find(srcIpHigh, srcIpLow, dstIpHigh, dstIpLow, dstQpn);
        if (f == NONE) {
            return 0;
        }
        final int r = rep(f);
        removedRecordOut(r, SessionChange.REPLACED);
        long joined = join(session, toB, f);
        if ((flags[f] & F_PAIRED) != 0) {
            final int g = partner[f];
            if (otherQpn < 0 || qpn[g] == otherQpn) {
                joined += join(session, !toB, g);
                free(g);
            } else {
                unpair(g);
            }
            sessions--;
        }
        free(f);
        return joined;
    }

    /**
     * The flow's figures join {@code session}: its packets (and their ECN figures) are the data of
     * the direction toward the side it goes to ({@code toB}: A's data), its CNPs are about the other
     * direction's data.
     */
    private long join(final Session session, final boolean toB, final int flow) {
        final int n = packets[flow];
        final Session.Data d = session.data();
        if (toB) {
            if (d.packetsA == 0) {
                d.udpA = udp[flow];
                d.portA = port[flow];
                d.dscpA = dscp[flow];
            }
            d.packetsA = Session.add(d.packetsA, n);
            d.ectA = Session.add(d.ectA, ect[flow]);
            d.ceA = Session.add(d.ceA, ce[flow]);
            d.cnpB = Session.add(d.cnpB, cnp[flow]);
        } else {
            if (d.packetsB == 0) {
                d.udpB = udp[flow];
                d.portB = port[flow];
                d.dscpB = dscp[flow];
            }
            d.packetsB = Session.add(d.packetsB, n);
            d.ectB = Session.add(d.ectB, ect[flow]);
            d.ceB = Session.add(d.ceB, ce[flow]);
            d.cnpA = Session.add(d.cnpA, cnp[flow]);
        }
        return n;
    }

    /** Makes {@code flow}, whose partner leaves, a one-way flow again: a new record. */
    private void unpair(final int flow) {
        flags[flow] = (short) (flags[flow] & ~(F_PAIRED | F_DIRTY | F_QUEUED | F_COOLING | F_REPORTED | F_IDLE));
        partner[flow] = NONE;
        votes[flow] = 0;
        serial[flow] = nextSerial++;
        if ((flags[flow] & F_REP) == 0) {
            flags[flow] |= F_REP;
            append(flow);
        }
        markDirty(flow);
    }

    // ---------------------------------------------------------------- records

    private int rep(final int flow) {
        return (flags[flow] & (F_PAIRED | F_REP)) == F_PAIRED ? partner[flow] : flow;
    }

    private long sessionLast(final int rec) {
        return (flags[rec] & F_PAIRED) != 0 ? Math.max(last[rec], last[partner[rec]]) : last[rec];
    }

    private long sessionFirst(final int rec) {
        return (flags[rec] & F_PAIRED) != 0 ? Math.min(first[rec], first[partner[rec]]) : first[rec];
    }

    private int create(final long srcIpHigh, final long srcIpLow, final long dstIpHigh, final long dstIpLow,
            final int dstQpn, final int transport, final boolean v6, final long time) {
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
        srcHi[f] = srcIpHigh;
        srcLo[f] = srcIpLow;
        dstHi[f] = dstIpHigh;
        dstLo[f] = dstIpLow;
        qpn[f] = dstQpn;
        first[f] = time;
        last[f] = time;
        reported[f] = Long.MIN_VALUE;
        packets[f] = 0;
        ect[f] = 0;
        ce[f] = 0;
        cnp[f] = 0;
        dscp[f] = 0;
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
    private void removeRecord(final int rec, final SessionChange why) {
        removedRecordOut(rec, why);
        if ((flags[rec] & F_PAIRED) != 0) {
            free(partner[rec]);
            sessions--;
        }
        free(rec);
    }

    /** Reports that record {@code rec} leaves (its last state, marked removed), if it was reported. */
    private void removedRecordOut(final int rec, final SessionChange why) {
        if ((flags[rec] & F_REPORTED) == 0) {
            return;
        }
        if (tracking) {
            writeJson(rec, removedJson, true);
            if (removedCount == removedEnds.length) {
                removedEnds = Arrays.copyOf(removedEnds, removedCount * 2);
            }
            removedEnds[removedCount++] = removedJson.length();
        }
        if (listener != null) {
            listener.sessionChanged(why, record(rec));
        }
    }

    private void free(final int flow) {
        indexRemove(flow);
        pairRemove(flow);
        if ((flags[flow] & F_REP) != 0) {
            unlink(flow);
        }
        flags[flow] = 0;
        partner[flow] = NONE;
        count--;
        next[flow] = freeHead;
        freeHead = flow;
    }

    // ---------------------------------------------------------------- the list by last packet

    private void touch(final int rec) {
        if (rec == lruTail) {
            if (idleFrom == NONE) {
                idleFrom = rec;
            }
            return;
        }
        unlink(rec);
        append(rec);
    }

    private void append(final int rec) {
        prev[rec] = lruTail;
        next[rec] = NONE;
        if (lruTail != NONE) {
            next[lruTail] = rec;
        } else {
            lruHead = rec;
        }
        lruTail = rec;
        if (idleFrom == NONE) {
            idleFrom = rec;
        }
    }

    private void unlink(final int rec) {
        if (idleFrom == rec) {
            idleFrom = next[rec];
        }
        if (prev[rec] != NONE) {
            next[prev[rec]] = next[rec];
        } else {
            lruHead = next[rec];
        }
        if (next[rec] != NONE) {
            prev[next[rec]] = prev[rec];
        } else {
            lruTail = prev[rec];
        }
        prev[rec] = NONE;
        next[rec] = NONE;
    }

    // ---------------------------------------------------------------- reports

    private void markDirty(final int rec) {
        if ((flags[rec] & F_DIRTY) != 0) {
            return;
        }
        flags[rec] |= F_DIRTY;
        if ((flags[rec] & (F_COOLING | F_QUEUED)) == 0 && (tracking || listener != null)) {
            flags[rec] |= F_QUEUED;
            if (queueCount == queue.length) {
                queue = Arrays.copyOf(queue, queueCount * 2);
            }
            queue[queueCount++] = (long) serial[rec] << 32 | rec;
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
        int changed = 0;
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
                changed++;
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
                changed++;
            }
        }
        queueCount = 0;
        if (queue.length > 4096) {
            // a burst of new flows grew the queue: give the memory back
            queue = new long[64];
        }
        return changed;
    }

    private void report(final int rec, final JsonBytes scratch, final SessionTable.JsonSink sink) {
        if (sink != null) {
            scratch.reset();
            writeJson(rec, scratch, false);
            sink.session(scratch);
        }
        if (listener != null) {
            listener.sessionChanged((flags[rec] & F_REPORTED) != 0 ? SessionChange.UPDATED : SessionChange.CREATED,
                record(rec));
        }
        reported[rec] = now;
        flags[rec] = (short) (flags[rec] & ~F_DIRTY | F_REPORTED | F_COOLING);
        if (coolSize == cool.length) {
            final long[] c = new long[cool.length * 2];
            for (int i = 0; i < coolSize; i++) {
                c[i] = cool[(coolHead + i) & cool.length - 1];
            }
            cool = c;
            coolHead = 0;
        }
        cool[(coolHead + coolSize) & cool.length - 1] = (long) serial[rec] << 32 | rec;
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
    boolean valid(final Handle handle) {
        return (flags[handle.slot] & (F_USED | F_REP)) == (F_USED | F_REP) && serial[handle.slot] == handle.serial;
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
    private static final byte[] K_REQUEST_PSNS = JsonBytes.ascii(",\"request_psns\":[");
    private static final byte[] K_RESPONSE_PSNS = JsonBytes.ascii("],\"response_psns\":[");
    private static final byte[] K_ACTIVE = JsonBytes.ascii(",\"state\":\"ACTIVE\",\"messages\":[],\"first_seen\":");
    private static final byte[] K_IDLE = JsonBytes.ascii(",\"state\":\"IDLE\",\"messages\":[],\"first_seen\":");
    private static final byte[] K_LAST_SEEN = JsonBytes.ascii(",\"last_seen\":");
    private static final byte[] K_TAIL = JsonBytes.ascii(",\"message_log\":[],\"dropped_messages\":0");
    private static final byte[] K_REMOVED = JsonBytes.ascii(",\"removed\":true");

    /** Writes the handle's record as JSON; false when it left the table. */
    boolean writeJson(final Handle handle, final JsonBytes out) {
        if (!valid(handle)) {
            return false;
        }
        writeJson(handle.slot, out, false);
        return true;
    }

    /** Writes record {@code rec} as {@link SessionRecord#appendJson} would, with the same bytes. */
    private void writeJson(final int rec, final JsonBytes out, final boolean removed) {
        final boolean v6 = (kind[rec] & K_V6) != 0;
        if ((flags[rec] & F_PAIRED) != 0) {
            final int toB = flowToB(rec);
            final int toA = partner[toB];
            out.raw(K_SESSION_ID);
            ip(out, v6, dstHi[toA], dstLo[toA]).raw('/').raw("qp").hex(qpn[toA], 6).raw('/');
            ip(out, v6, dstHi[toB], dstLo[toB]).raw('/').raw("qp").hex(qpn[toB], 6);
            out.raw(K_DATA_HEAD).raw(K_TRANSPORT_KEY).raw(TRANSPORTS[kind[rec] & K_TRANSPORT]);
            ip(out.raw(K_REQUESTER_IP), v6, dstHi[toA], dstLo[toA]);
            ip(out.raw(K_RESPONDER_IP), v6, dstHi[toB], dstLo[toB]);
            out.raw(K_REQUESTER_QPN).decimal(qpn[toA]).raw(K_RESPONDER_QPN).decimal(qpn[toB]);
            // the CNPs about a direction's data travel the other way: they are counted on the other flow
            dataJson(out.raw(K_REQUESTER_DATA), toB, cnp[toA]);
            dataJson(out.raw(K_RESPONDER_DATA), toA, cnp[toB]);
        } else {
            out.raw(K_SESSION_ID);
            ip(out, v6, srcHi[rec], srcLo[rec]).raw("/-/");
            ip(out, v6, dstHi[rec], dstLo[rec]).raw('/').raw("qp").hex(qpn[rec], 6);
            out.raw(K_DATA_HEAD).raw(K_ONE_WAY).raw(K_TRANSPORT_KEY).raw(TRANSPORTS[kind[rec] & K_TRANSPORT]);
            ip(out.raw(K_REQUESTER_IP), v6, srcHi[rec], srcLo[rec]);
            ip(out.raw(K_RESPONDER_IP), v6, dstHi[rec], dstLo[rec]);
            out.raw(K_RESPONDER_QPN_Q).decimal(qpn[rec]);
            dataJson(out.raw(K_REQUESTER_DATA), rec, 0);
            if (cnp[rec] > 0) {
                // CNPs to the destination QP: about its data back to the source, which this record
                // does not describe (a one-way flow's peer QP is not known)
                SessionWriter.dataJson(out.raw(K_RESPONDER_DATA), ports, 0, 0, 0, 0, 0, 0, cnp[rec]);
            }
            if ((kind[rec] & K_TRANSPORT) == RC) {
                out.raw(K_REQUEST_PSNS);
                psns(out, reqPsn, reqRing, rec);
                out.raw(K_RESPONSE_PSNS);
                psns(out, respPsn, respRing, rec);
                out.raw(']');
            }
        }
        out.raw((flags[rec] & F_IDLE) != 0 ? K_IDLE : K_ACTIVE).seconds(sessionFirst(rec) * 1000L, 6);
        out.raw(K_LAST_SEEN).seconds(sessionLast(rec) * 1000L, 6).raw(K_TAIL);
        if (removed) {
            out.raw(K_REMOVED);
        }
        out.raw('}');
    }

    private void dataJson(final JsonBytes out, final int flow, final int cnps) {
        SessionWriter.dataJson(out, ports, udp[flow], port[flow], Math.max(1, packets[flow]), dscp[flow], ect[flow],
            ce[flow], cnps);
    }

    private static void psns(final JsonBytes out, final int[] ring, final byte[] pos, final int flow) {
        final int n = ringSize(pos, flow);
        // oldest first: once full, the oldest is at the next write position
        final int start = n == RING ? pos[flow] & 7 : 0;
        for (int i = 0; i < n; i++) {
            if (i > 0) {
                out.raw(',');
            }
            out.decimal(ring[flow * RING + (start + i) % RING] & PSN_MASK);
        }
    }

    private static List<Integer> psnList(final int[] ring, final byte[] pos, final int flow) {
        final int n = ringSize(pos, flow);
        final int start = n == RING ? pos[flow] & 7 : 0;
        final List<Integer> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(ring[flow * RING + (start + i) % RING] & PSN_MASK);
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
    private int flowToB(final int rec) {
        final int o = partner[rec];
        int cmp = Long.compareUnsigned(dstHi[rec], dstHi[o]);
        if (cmp == 0) {
            cmp = Long.compareUnsigned(dstLo[rec], dstLo[o]);
        }
        if (cmp == 0) {
            cmp = Integer.compare(qpn[rec], qpn[o]);
        }
        // rec goes to the lower endpoint (A): its partner goes to B
        return cmp <= 0 ? o : rec;
    }

    /** The handle's record, or null when it left the table. */
    @Nullable SessionRecord record(final Handle handle) {
        return valid(handle) ? record(handle.slot) : null;
    }

    /** Record {@code rec} as an immutable {@link SessionRecord} (the same fields as its JSON). */
    private SessionRecord record(final int rec) {
        final int version = (kind[rec] & K_V6) != 0 ? 6 : 4;
        final String transport = TRANSPORTS[kind[rec] & K_TRANSPORT];
        final SessionState state = (flags[rec] & F_IDLE) != 0 ? SessionState.IDLE : SessionState.ACTIVE;
        final BigDecimal firstSeen = BigDecimal.valueOf(sessionFirst(rec), 6);
        final BigDecimal lastSeen = BigDecimal.valueOf(sessionLast(rec), 6);
        if ((flags[rec] & F_PAIRED) != 0) {
            final int toB = flowToB(rec);
            final int toA = partner[toB];
            final String a = SessionWriter.ip(version, dstHi[toA], dstLo[toA]);
            final String b = SessionWriter.ip(version, dstHi[toB], dstLo[toB]);
            return new SessionRecord(a + "/" + qpText(qpn[toA]) + "/" + b + "/" + qpText(qpn[toB]), false,
                SessionRecord.DATA, null, transport, a, b, null, null, qpn[toA], qpn[toB], null, null, null, null,
                null, data(toB, cnp[toA]), data(toA, cnp[toB]), null, null, state, null, List.of(), firstSeen, lastSeen,
                List.of(), 0);
        }
        final String src = SessionWriter.ip(version, srcHi[rec], srcLo[rec]);
        final String dst = SessionWriter.ip(version, dstHi[rec], dstLo[rec]);
        final boolean rc = (kind[rec] & K_TRANSPORT) == RC;
        return new SessionRecord(src + "/-/" + dst + "/" + qpText(qpn[rec]), false, SessionRecord.DATA, Boolean.TRUE,
            transport, src, dst, null, null, null, qpn[rec], null, null, null, null, null, data(rec, 0),
            cnp[rec] > 0 ? SessionWriter.data(ports, 0, 0, 0, 0, 0, 0, cnp[rec]) : null,
            rc ? psnList(reqPsn, reqRing, rec) : null, rc ? psnList(respPsn, respRing, rec) : null, state, null,
            List.of(), firstSeen, lastSeen, List.of(), 0);
    }

    private DataFlow data(final int flow, final int cnps) {
        return new DataFlow(udp[flow], ports.name(port[flow] & 0xffff), Math.max(1, packets[flow]),
            dscp[flow] > 0 ? dscp[flow] - 1 : null, ect[flow], ce[flow], cnps);
    }

    static String qpText(final int number) {
        final String h = Integer.toHexString(number & PSN_MASK);
        return "qp0x" + "000000".substring(h.length()) + h;
    }

    // ---------------------------------------------------------------- restore

    /**
     * Puts back a data-learned record this table (or an earlier one, before a restart) described
     * as {@code record}, replacing what it holds for the same flows; refuses a record it cannot have
     * written.
     *
     * @return whether it was put back
     */
    boolean restore(final SessionRecord record) {
        final int version = record.requesterIp().indexOf(':') >= 0 ? 6 : 4;
        final long[] a = RecordFields.parseIp(record.requesterIp(), version);
        final long[] b = RecordFields.parseIp(record.responderIp(), version);
        final int transport = Arrays.asList(TRANSPORTS).indexOf(record.transport());
        final DataFlow aData = record.requesterData();
        final DataFlow bData = record.responderData();
        if (a.length == 0 || b.length == 0 || transport < 0 || aData == null || aData.packets() < 1
                || record.state() != SessionState.ACTIVE && record.state() != SessionState.IDLE
                || !qpnOk(record.responderQpn())) {
            return false;
        }
        final long firstSeen = RecordFields.micros(record.firstSeen());
        final long lastSeen = RecordFields.micros(record.lastSeen());
        final boolean v6 = version == 6;
        final int f;
        if (record.oneWay() != null) {
            // a one-way flow's responder data holds CNPs alone, if any
            if (!psnsOk(record.requestPsns()) || !psnsOk(record.responsePsns())
                    || bData != null && (bData.packets() != 0 || aData.cnp() != 0)) {
                return false;
            }
            forgetFlow(a, b, record.responderQpn());
            f = restoreFlow(a, b, record.responderQpn(), transport, v6, firstSeen, lastSeen, aData);
            cnp[f] = bData == null ? 0 : Session.add(0, bData.cnp());
            if (record.requestPsns() != null) {
                record.requestPsns().forEach(p -> push(reqPsn, reqRing, f, p));
            }
            if (record.responsePsns() != null) {
                record.responsePsns().forEach(p -> push(respPsn, respRing, f, p));
            }
        } else {
            if (transport != RC || bData == null || bData.packets() < 1 || !qpnOk(record.requesterQpn())) {
                return false;
            }
            forgetFlow(a, b, record.responderQpn());
            forgetFlow(b, a, record.requesterQpn());
            // room for both first: making room for the second must not evict the first
            while (count + 2 > config.maxFlows()) {
                evicted += (flags[lruHead] & F_PAIRED) != 0 ? 2 : 1;
                removeRecord(lruHead, SessionChange.EVICTED);
            }
            final int x = restoreFlow(a, b, record.responderQpn(), transport, v6, firstSeen, lastSeen, aData);
            final int y = restoreFlow(b, a, record.requesterQpn(), transport, v6, firstSeen, lastSeen, bData);
            // the CNPs about the requester's data came from the responder: on the flow toward the requester
            cnp[y] = Session.add(0, aData.cnp());
            cnp[x] = Session.add(0, bData.cnp());
            pair(x, y);
            f = rep(x);
        }
        flags[f] = (short) (flags[f] & ~(F_DIRTY | F_QUEUED) | F_REPORTED
            | (record.state() == SessionState.IDLE ? F_IDLE : 0));
        reported[f] = lastSeen;
        restoredCount++;
        return true;
    }

    /**
     * Takes out the record {@code record} names (a replayed log's last word on it was that it left).
     *
     * @return whether one was taken out
     */
    boolean forget(final SessionRecord record) {
        final int version = record.requesterIp().indexOf(':') >= 0 ? 6 : 4;
        final long[] a = RecordFields.parseIp(record.requesterIp(), version);
        final long[] b = RecordFields.parseIp(record.responderIp(), version);
        if (a.length == 0 || b.length == 0 || !qpnOk(record.responderQpn())) {
            return false;
        }
        final int f = find(a[0], a[1], b[0], b[1], record.responderQpn());
        if (f == NONE) {
            return false;
        }
        final int rep = rep(f);
        if (record.oneWay() == null && (flags[f] & F_PAIRED) == 0
                || record.oneWay() != null && (flags[f] & F_PAIRED) != 0) {
            return false;
        }
        flags[rep] &= ~F_REPORTED;
        removeRecord(rep, SessionChange.EXPIRED);
        return true;
    }

    private void forgetFlow(final long[] src, final long[] dst, final int dstQpn) {
        final int f = find(src[0], src[1], dst[0], dst[1], dstQpn);
        if (f != NONE) {
            final int r = rep(f);
            flags[r] &= ~F_REPORTED;
            removeRecord(r, SessionChange.REPLACED);
        }
    }

    private int restoreFlow(final long[] src, final long[] dst, final int dstQpn, final int transport, final boolean v6,
            final long firstSeen, final long lastSeen, final DataFlow flowData) {
        final int f = create(src[0], src[1], dst[0], dst[1], dstQpn, transport, v6, firstSeen);
        last[f] = Math.max(firstSeen, lastSeen);
        packets[f] = Session.add(0, flowData.packets());
        ect[f] = Session.add(0, flowData.ect());
        ce[f] = Session.add(0, flowData.ce());
        dscp[f] = (byte) (flowData.dscp() == null ? 0 : flowData.dscp() + 1);
        udp[f] = (char) flowData.udpSrcPort();
        port[f] = (short) ports.id(flowData.ingressPort());
        if (last[f] > now) {
            now = last[f];
        }
        return f;
    }

    private static boolean qpnOk(final Integer qp) {
        return qp != null && qp > 1 && qp <= PSN_MASK;
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
        srcHi = Arrays.copyOf(srcHi, cap);
        srcLo = Arrays.copyOf(srcLo, cap);
        dstHi = Arrays.copyOf(dstHi, cap);
        dstLo = Arrays.copyOf(dstLo, cap);
        qpn = Arrays.copyOf(qpn, cap);
        first = Arrays.copyOf(first, cap);
        last = Arrays.copyOf(last, cap);
        reported = Arrays.copyOf(reported, cap);
        packets = Arrays.copyOf(packets, cap);
        ect = Arrays.copyOf(ect, cap);
        ce = Arrays.copyOf(ce, cap);
        cnp = Arrays.copyOf(cnp, cap);
        dscp = Arrays.copyOf(dscp, cap);
        udp = Arrays.copyOf(udp, cap);
        port = Arrays.copyOf(port, cap);
        kind = Arrays.copyOf(kind, cap);
        flags = Arrays.copyOf(flags, cap);
        reqPsn = Arrays.copyOf(reqPsn, cap * RING);
        respPsn = Arrays.copyOf(respPsn, cap * RING);
        reqRing = Arrays.copyOf(reqRing, cap);
        respRing = Arrays.copyOf(respRing, cap);
        partner = Arrays.copyOf(partner, cap);
        votes = Arrays.copyOf(votes, cap);
        prev = Arrays.copyOf(prev, cap);
        next = Arrays.copyOf(next, cap);
        pairNext = Arrays.copyOf(pairNext, cap);
        serial = Arrays.copyOf(serial, cap);
        capacity = cap;
    }

    private static int mix(long hash) {
        hash = (hash ^ (hash >>> 32)) * 0x94D049BB133111EBL;
        return (int) (hash ^ (hash >>> 31));
    }

    private static int pairHash(final long srcIpHigh, final long srcIpLow, final long dstIpHigh, final long dstIpLow) {
        long hash = srcIpHigh * 0x9E3779B97F4A7C15L ^ srcIpLow;
        hash = (hash ^ (hash >>> 29)) * 0xBF58476D1CE4E5B9L ^ dstIpHigh;
        hash = (hash ^ (hash >>> 31)) * 0x9E3779B97F4A7C15L ^ dstIpLow;
        return mix(hash);
    }

    private int pairHash(final int flow) {
        return pairHash(srcHi[flow], srcLo[flow], dstHi[flow], dstLo[flow]);
    }

    private static int flowHash(final long srcIpHigh, final long srcIpLow, final long dstIpHigh, final long dstIpLow,
            final int dstQpn) {
        long hash = srcIpHigh * 0x9E3779B97F4A7C15L ^ srcIpLow;
        hash = (hash ^ (hash >>> 29)) * 0xBF58476D1CE4E5B9L ^ dstIpHigh;
        hash = (hash ^ (hash >>> 31)) * 0x9E3779B97F4A7C15L ^ dstIpLow;
        hash = (hash ^ (hash >>> 29)) * 0xBF58476D1CE4E5B9L ^ dstQpn;
        return mix(hash);
    }

    private int flowHash(final int flow) {
        return flowHash(srcHi[flow], srcLo[flow], dstHi[flow], dstLo[flow], qpn[flow]);
    }

    /** The flow (srcIpHigh, srcIpLow) to (dstIpHigh, dstIpLow) QP dstQpn, or NONE. */
    int find(final long srcIpHigh, final long srcIpLow, final long dstIpHigh, final long dstIpLow, final int dstQpn) {
        final int mask = index.length - 1;
        for (int i = flowHash(srcIpHigh, srcIpLow, dstIpHigh, dstIpLow, dstQpn) & mask; index[i] != 0;
                i = i + 1 & mask) {
            final int f = index[i] - 1;
            if (qpn[f] == dstQpn && dstLo[f] == dstIpLow && srcLo[f] == srcIpLow && dstHi[f] == dstIpHigh
                    && srcHi[f] == srcIpHigh) {
                return f;
            }
        }
        return NONE;
    }

    private void indexAdd(final int flow) {
        if ((indexUsed + 1) * 2 > index.length) {
            index = rehash(index, index.length * 2, true);
        }
        final int mask = index.length - 1;
        int pos = flowHash(flow) & mask;
        while (index[pos] != 0) {
            pos = pos + 1 & mask;
        }
        index[pos] = flow + 1;
        indexUsed++;
    }

    private void indexRemove(final int flow) {
        final int mask = index.length - 1;
        int pos = flowHash(flow) & mask;
        while (index[pos] != 0 && index[pos] != flow + 1) {
            pos = pos + 1 & mask;
        }
        if (index[pos] == 0) {
            return;
        }
        deleteAt(index, pos, true);
        indexUsed--;
        if (index.length > MIN_INDEX && indexUsed * 8 < index.length) {
            index = rehash(index, index.length / 2, true);
        }
    }

    /** The first flow from (srcIpHigh, srcIpLow) to (dstIpHigh, dstIpLow), or NONE. */
    private int pairHead(final long srcIpHigh, final long srcIpLow, final long dstIpHigh, final long dstIpLow) {
        final int mask = pairIndex.length - 1;
        for (int i = pairHash(srcIpHigh, srcIpLow, dstIpHigh, dstIpLow) & mask; pairIndex[i] != 0; i = i + 1 & mask) {
            final int f = pairIndex[i] - 1;
            if (dstLo[f] == dstIpLow && srcLo[f] == srcIpLow && dstHi[f] == dstIpHigh && srcHi[f] == srcIpHigh) {
                return f;
            }
        }
        return NONE;
    }

    private void pairAdd(final int flow) {
        final int head = pairHead(srcHi[flow], srcLo[flow], dstHi[flow], dstLo[flow]);
        if (head != NONE) {
            pairNext[flow] = pairNext[head];
            pairNext[head] = flow + 1;
            return;
        }
        pairNext[flow] = 0;
        if ((pairIndexUsed + 1) * 2 > pairIndex.length) {
            pairIndex = rehash(pairIndex, pairIndex.length * 2, false);
        }
        final int mask = pairIndex.length - 1;
        int pos = pairHash(flow) & mask;
        while (pairIndex[pos] != 0) {
            pos = pos + 1 & mask;
        }
        pairIndex[pos] = flow + 1;
        pairIndexUsed++;
    }

    private void pairRemove(final int flow) {
        final int mask = pairIndex.length - 1;
        int pos = pairHash(flow) & mask;
        int head = NONE;
        for (; pairIndex[pos] != 0; pos = pos + 1 & mask) {
            final int h = pairIndex[pos] - 1;
            if (dstLo[h] == dstLo[flow] && srcLo[h] == srcLo[flow] && dstHi[h] == dstHi[flow]
                    && srcHi[h] == srcHi[flow]) {
                head = h;
                break;
            }
        }
        if (head == NONE) {
            return;
        }
        if (head == flow) {
            if (pairNext[flow] != 0) {
                // the next flow of the chain heads it: the same addresses, the same place
                pairIndex[pos] = pairNext[flow];
            } else {
                deleteAt(pairIndex, pos, false);
                pairIndexUsed--;
                if (pairIndex.length > MIN_INDEX && pairIndexUsed * 8 < pairIndex.length) {
                    pairIndex = rehash(pairIndex, pairIndex.length / 2, false);
                }
            }
        } else {
            int cur = head;
            while (pairNext[cur] != 0 && pairNext[cur] != flow + 1) {
                cur = pairNext[cur] - 1;
            }
            if (pairNext[cur] == flow + 1) {
                pairNext[cur] = pairNext[flow];
            }
        }
        pairNext[flow] = 0;
    }

    /** Backward-shift deletion at {@code pos}: no tombstones under churn. */
    private void deleteAt(final int[] table, final int pos, final boolean byFlow) {
        final int mask = table.length - 1;
        int hole = pos;
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
                int pos = (byFlow ? flowHash(e - 1) : pairHash(e - 1)) & mask;
                while (t[pos] != 0) {
                    pos = pos + 1 & mask;
                }
                t[pos] = e;
            }
        }
        return t;
    }
}
