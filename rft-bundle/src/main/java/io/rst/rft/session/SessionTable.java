/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.session;

import static java.util.Objects.requireNonNull;

import io.rst.rft.decode.CmMessage;
import io.rst.rft.decode.CmMessageType;
import io.rst.rft.decode.JsonBytes;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The RDMA flow table of one switch: CM sessions learnt from CM MADs. Single-threaded by design:
 * the agent calls {@link #accept} and {@link #expire} from its one decode thread, and so must
 * every caller (no locks inside); {@link #snapshot()} too.
 *
 * <p>Sessions are found through their two endpoints, (IP, comm ID) of the requester and of the
 * responder, in an open-addressing index with no per-lookup allocation. The state machine and the
 * identity rules are in the package documentation. Memory is bounded: at most
 * {@link SessionConfig#maxSessions()} sessions (the least recently updated is evicted beyond, and
 * counted), finished sessions leave after the retention time, messages per session are capped.
 */
public final class SessionTable {
    private static final int V4_MARK = 4;
    private static final int MIN_INDEX = 1 << 10;

    private final SessionConfig config;
    private final SessionListener listener;
    private final Map<String, Integer> portIndex = new HashMap<>();
    private final List<String> ports = new ArrayList<>();

    // index: open addressing, linear probing; one entry per known endpoint of a session
    private int[] hashes = new int[MIN_INDEX];
    private Session[] slots = new Session[MIN_INDEX];
    private int indexUsed;

    // every session, least recently updated first
    private Session head;
    private Session tail;
    private int size;
    private long nextSeq;

    private long created;
    private long evictions;
    private long expired;
    private long timedOut;
    private long ignored;
    private long accepted;

    /**
     * A table.
     *
     * @param config limits and timeouts
     * @param listener told of every change, or null for none (then no record is built per message)
     */
    public SessionTable(final SessionConfig config, final SessionListener listener) {
        this.config = requireNonNull(config);
        this.listener = listener;
        ports.add(null);
    }

    // ---------------------------------------------------------------- counters

    /** Sessions in the table now. */
    public int size() {
        return size;
    }

    public long created() {
        return created;
    }

    /** Sessions dropped because the table was full. */
    public long evictions() {
        return evictions;
    }

    /** Finished sessions removed after the retention time. */
    public long expired() {
        return expired;
    }

    /** Sessions that went to TIMED_OUT. */
    public long timedOut() {
        return timedOut;
    }

    /** CM MADs that belong to no connection (SIDR, ClassPortInfo) and were not tabled. */
    public long ignored() {
        return ignored;
    }

    /** CM MADs applied to a session. */
    public long accepted() {
        return accepted;
    }

    public SessionConfig config() {
        return config;
    }

    // ---------------------------------------------------------------- updates

    /**
     * Applies one CM MAD. {@code ingressPort} is the interface it was seen on (null in files).
     * Returns false if the message belongs to no connection (SIDR_REQ, SIDR_REP, ClassPortInfo)
     * or {@code m} holds no CM MAD.
     */
    public boolean accept(final CmMessage m, final String ingressPort) {
        final CmMessageType type = m.type();
        if (type == null) {
            return false;
        }
        final long t = m.timeMicros();
        final int v = m.ipVersion();
        final long sHi = m.srcIpHigh() | (v == 4 ? (long) V4_MARK << 60 : 0L);
        final long sLo = m.srcIpLow();
        final long dHi = m.dstIpHigh() | (v == 4 ? (long) V4_MARK << 60 : 0L);
        final long dLo = m.dstIpLow();
        final int lc = m.localCommId();
        final int rc = m.remoteCommId();
        Session s;
        boolean isNew = false;
        switch (type) {
            case REQ -> {
                s = find(sHi, sLo, lc);
                if (s != null && !s.isA(sHi, sLo, lc)) {
                    s = null;
                }
                if (s != null && s.state().isFinished() && s.state() != SessionState.TIMED_OUT) {
                    // the CID is reused by a new connection (or was seen as the other side): the old
                    // session stays listed until retention, but no longer answers to its endpoints
                    unindex(s);
                    s = null;
                }
                if (s == null) {
                    s = create(v, sHi, sLo, lc, dHi, dLo, 0, false, true, SessionState.REQ_SENT, t);
                    isNew = true;
                } else if (s.state() == SessionState.TIMED_OUT) {
                    s.state(SessionState.REQ_SENT);
                }
                s.aQpn = m.localQpn();
                s.set(Session.F_A_QPN);
                s.serviceId = m.serviceId();
                s.set(Session.F_SERVICE);
                if (m.hasIpCm()) {
                    s.ipCmSrcPort = (char) m.ipCmSrcPort();
                    s.set(Session.F_IPCM_PORT);
                }
                if (s.state() == SessionState.REQ_SENT) {
                    s.deadline = t + Math.max(config.minCmTimeoutMicros(), m.cmResponseTimeoutMicros());
                }
            }
            case REP -> {
                s = find(dHi, dLo, rc);
                if (s == null) {
                    s = find(sHi, sLo, lc);
                }
                if (s == null) {
                    s = create(v, dHi, dLo, rc, sHi, sLo, lc, true, true, SessionState.REP_SENT, t);
                    isNew = true;
                } else {
                    setB(s, lc);
                    if (s.state() == SessionState.REQ_SENT || s.state() == SessionState.TIMED_OUT) {
                        s.state(SessionState.REP_SENT);
                    }
                }
                if (isFromA(s, sHi, sLo, lc)) {
                    s.aQpn = m.localQpn();
                    s.set(Session.F_A_QPN);
                } else {
                    s.bQpn = m.localQpn();
                    s.set(Session.F_B_QPN);
                }
                s.deadline = Long.MAX_VALUE;
            }
            case RTU -> {
                s = findEither(sHi, sLo, lc, dHi, dLo, rc);
                if (s == null) {
                    s = create(v, sHi, sLo, lc, dHi, dLo, rc, true, true, SessionState.ESTABLISHED, t);
                    isNew = true;
                } else {
                    setB(s, rc);
                    final SessionState st = s.state();
                    if (st == SessionState.REQ_SENT || st == SessionState.REP_SENT || st == SessionState.TIMED_OUT) {
                        s.state(SessionState.ESTABLISHED);
                    }
                }
                s.deadline = Long.MAX_VALUE;
            }
            case REJ -> {
                final int which = m.messageRejected();
                s = which == 0 ? find(dHi, dLo, rc) : findEither(sHi, sLo, lc, dHi, dLo, rc);
                if (s == null) {
                    if (which == 0) {
                        s = create(v, dHi, dLo, rc, sHi, sLo, lc, lc != 0, true, SessionState.REJECTED, t);
                    } else {
                        s = create(v, sHi, sLo, lc, dHi, dLo, rc, rc != 0, which == 1, SessionState.REJECTED, t);
                    }
                    isNew = true;
                }
                s.state(SessionState.REJECTED);
                s.rejectReason = (short) m.rejectReason();
                s.set(Session.F_REJECT);
                s.deadline = Long.MAX_VALUE;
            }
            case MRA -> {
                final int which = m.messageMraed();
                s = which == 0 ? find(dHi, dLo, rc) : findEither(sHi, sLo, lc, dHi, dLo, rc);
                if (s == null) {
                    if (which == 0) {
                        s = create(v, dHi, dLo, rc, sHi, sLo, lc, true, true, SessionState.REQ_SENT, t);
                    } else {
                        s = create(v, sHi, sLo, lc, dHi, dLo, rc, true, which == 1,
                            which == 1 ? SessionState.REP_SENT : SessionState.ESTABLISHED, t);
                    }
                    isNew = true;
                } else if (which == 0) {
                    setB(s, lc);
                }
                if (s.state() == SessionState.REQ_SENT || s.state() == SessionState.TIMED_OUT && which == 0) {
                    // the responder asks for more time: the requester waits the service timeout
                    s.state(SessionState.REQ_SENT);
                    s.deadline = t + Math.max(config.minCmTimeoutMicros(),
                        CmMessage.cmTimeoutMicros(m.serviceTimeout()));
                }
            }
            case DREQ -> {
                s = findEither(sHi, sLo, lc, dHi, dLo, rc);
                if (s == null) {
                    s = create(v, sHi, sLo, lc, dHi, dLo, rc, true, false, SessionState.DISCONNECTING, t);
                    isNew = true;
                } else if (!s.state().isFinished() || s.state() == SessionState.TIMED_OUT) {
                    s.state(SessionState.DISCONNECTING);
                }
                // a DREQ names the QP of its receiver
                if (isFromA(s, sHi, sLo, lc)) {
                    s.bQpn = m.remoteQpn();
                    s.set(Session.F_B_QPN);
                } else {
                    s.aQpn = m.remoteQpn();
                    s.set(Session.F_A_QPN);
                }
                s.deadline = Long.MAX_VALUE;
            }
            case DREP -> {
                s = findEither(sHi, sLo, lc, dHi, dLo, rc);
                if (s == null) {
                    s = create(v, dHi, dLo, rc, sHi, sLo, lc, true, false, SessionState.CLOSED, t);
                    isNew = true;
                }
                if (s.state() != SessionState.REJECTED) {
                    s.state(SessionState.CLOSED);
                }
                s.deadline = Long.MAX_VALUE;
            }
            case LAP -> {
                s = findEither(sHi, sLo, lc, dHi, dLo, rc);
                if (s == null) {
                    // LAP is sent by the active side
                    s = create(v, sHi, sLo, lc, dHi, dLo, rc, true, true, SessionState.ESTABLISHED, t);
                    isNew = true;
                }
            }
            case APR -> {
                s = findEither(sHi, sLo, lc, dHi, dLo, rc);
                if (s == null) {
                    s = create(v, dHi, dLo, rc, sHi, sLo, lc, true, true, SessionState.ESTABLISHED, t);
                    isNew = true;
                }
            }
            default -> {
                ignored++;
                return false;
            }
        }
        accepted++;
        if (t > s.lastSeen) {
            s.lastSeen = t;
        }
        touch(s);
        s.addMessage(type.ordinal(), isFromA(s, sHi, sLo, lc), portId(ingressPort), t,
            config.maxMessagesPerSession());
        if (listener != null) {
            listener.sessionChanged(isNew ? SessionChange.CREATED : SessionChange.UPDATED, record(s));
        }
        return true;
    }

    /**
     * Applies time: REQ_SENT sessions whose CM response timeout passed become TIMED_OUT, and
     * finished sessions whose last message is older than the retention leave the table.
     * Returns the number of sessions changed or removed.
     */
    public int expire(final long nowMicros) {
        int n = 0;
        for (Session s = head; s != null;) {
            final Session next = s.next;
            if (s.state == SessionState.REQ_SENT.ordinal() && s.deadline <= nowMicros) {
                s.state(SessionState.TIMED_OUT);
                s.deadline = Long.MAX_VALUE;
                timedOut++;
                n++;
                if (listener != null) {
                    listener.sessionChanged(SessionChange.TIMED_OUT, record(s));
                }
            }
            if (s.state().isFinished() && nowMicros - s.lastSeen >= config.retentionMicros()) {
                remove(s);
                expired++;
                n++;
                if (listener != null) {
                    listener.sessionChanged(SessionChange.EXPIRED, record(s));
                }
            }
            s = next;
        }
        return n;
    }

    // ---------------------------------------------------------------- reading

    /** Every session, oldest first (by first message), as immutable records. */
    public List<SessionRecord> snapshot() {
        final List<Session> all = new ArrayList<>(size);
        for (Session s = head; s != null; s = s.next) {
            all.add(s);
        }
        all.sort(Comparator.comparingLong((Session s) -> s.firstSeen).thenComparingLong(s -> s.seq));
        final List<SessionRecord> out = new ArrayList<>(all.size());
        for (Session s : all) {
            out.add(record(s));
        }
        return out;
    }

    private SessionRecord record(final Session s) {
        final String aIp = ip(s.ipVersion, s.aHi, s.aLo);
        final String bIp = ip(s.ipVersion, s.bHi, s.bLo);
        final String aCid = hex8(s.aCid);
        final String id;
        if (s.has(Session.F_ROLES_KNOWN)) {
            id = aIp + "/" + aCid + "/" + bIp;
        } else {
            final String bCid = hex8(s.bCid);
            final int c = compareEndpoints(s);
            id = c <= 0 ? aIp + "/" + aCid + "/" + bIp + "/" + bCid : bIp + "/" + bCid + "/" + aIp + "/" + aCid;
        }
        final List<String> names = new ArrayList<>(s.msgCount);
        final List<SessionMessage> log = new ArrayList<>(s.msgCount);
        for (int i = 0; i < s.msgCount; i++) {
            final long w = s.msgs[i];
            final String name = CmMessageType.ofOrdinal((int) (w & 0xf)).name();
            names.add(name);
            log.add(new SessionMessage(name, ports.get((int) (w >>> 5 & 0xffff)),
                BigDecimal.valueOf(s.firstSeen + (w >>> 21), 6), (w & 16) != 0));
        }
        final boolean ipCmService = s.has(Session.F_SERVICE) && s.serviceId >>> 24 == 1L;
        return new SessionRecord(id, s.has(Session.F_ROLES_KNOWN), aIp, bIp, aCid,
            s.has(Session.F_B_CID) ? hex8(s.bCid) : null,
            s.has(Session.F_A_QPN) ? s.aQpn : null,
            s.has(Session.F_B_QPN) ? s.bQpn : null,
            s.has(Session.F_SERVICE) ? String.format("0x%016x", s.serviceId) : null,
            s.has(Session.F_IPCM_PORT) ? Integer.valueOf(s.ipCmSrcPort) : null,
            ipCmService ? Integer.valueOf((int) s.serviceId & 0xffff) : null,
            s.state(),
            s.has(Session.F_REJECT) ? Integer.valueOf(s.rejectReason & 0xffff) : null,
            names, BigDecimal.valueOf(s.firstSeen, 6), BigDecimal.valueOf(s.lastSeen, 6), log, s.dropped);
    }

    private static int compareEndpoints(final Session s) {
        int c = Long.compareUnsigned(s.aHi, s.bHi);
        if (c == 0) {
            c = Long.compareUnsigned(s.aLo, s.bLo);
        }
        return c != 0 ? c : Integer.compareUnsigned(s.aCid, s.bCid);
    }

    private static String hex8(final int v) {
        final String h = Integer.toHexString(v);
        return "0x" + "00000000".substring(h.length()) + h;
    }

    private static String ip(final int version, final long hi, final long lo) {
        final byte[] b = new byte[16];
        if (version == 4) {
            for (int i = 0; i < 4; i++) {
                b[i] = (byte) (lo >>> (24 - 8 * i));
            }
        } else {
            for (int i = 0; i < 8; i++) {
                b[i] = (byte) (hi >>> (56 - 8 * i));
                b[8 + i] = (byte) (lo >>> (56 - 8 * i));
            }
        }
        return JsonBytes.ipString(b, version);
    }

    // ---------------------------------------------------------------- internals

    private static boolean isFromA(final Session s, final long hi, final long lo, final int cid) {
        if (s.aHi != hi || s.aLo != lo) {
            return false;
        }
        // same IP at both ends (loopback): the comm ID decides
        return s.aHi != s.bHi || s.aLo != s.bLo || cid == s.aCid;
    }

    private Session create(final int version, final long aHi, final long aLo, final int aCid, final long bHi,
            final long bLo, final int bCid, final boolean bCidKnown, final boolean rolesKnown,
            final SessionState state, final long t) {
        if (size >= config.maxSessions()) {
            final Session victim = head;
            remove(victim);
            evictions++;
            if (listener != null) {
                listener.sessionChanged(SessionChange.EVICTED, record(victim));
            }
        }
        final Session s = new Session();
        s.ipVersion = (byte) version;
        s.aHi = aHi;
        s.aLo = aLo;
        s.aCid = aCid;
        s.bHi = bHi;
        s.bLo = bLo;
        s.bCid = bCid;
        s.firstSeen = t;
        s.lastSeen = t;
        s.seq = nextSeq++;
        s.state(state);
        if (rolesKnown) {
            s.set(Session.F_ROLES_KNOWN);
        }
        // append to the list; touch() below keeps it at the tail
        s.prev = tail;
        if (tail != null) {
            tail.next = s;
        } else {
            head = s;
        }
        tail = s;
        size++;
        created++;
        index(s, hash(aHi, aLo, aCid));
        s.set(Session.F_INDEXED_A);
        if (bCidKnown) {
            setB(s, bCid);
        }
        return s;
    }

    private void setB(final Session s, final int bCid) {
        if (s.has(Session.F_B_CID)) {
            return;
        }
        s.bCid = bCid;
        s.set(Session.F_B_CID);
        index(s, hash(s.bHi, s.bLo, bCid));
        s.set(Session.F_INDEXED_B);
    }

    private void touch(final Session s) {
        if (s == tail) {
            return;
        }
        unlink(s);
        s.prev = tail;
        s.next = null;
        tail.next = s;
        tail = s;
    }

    private void unlink(final Session s) {
        if (s.prev != null) {
            s.prev.next = s.next;
        } else {
            head = s.next;
        }
        if (s.next != null) {
            s.next.prev = s.prev;
        } else {
            tail = s.prev;
        }
    }

    private void remove(final Session s) {
        unlink(s);
        s.prev = null;
        s.next = null;
        unindex(s);
        size--;
    }

    private void unindex(final Session s) {
        if (s.has(Session.F_INDEXED_A)) {
            deindex(s, hash(s.aHi, s.aLo, s.aCid));
            s.clear(Session.F_INDEXED_A);
        }
        if (s.has(Session.F_INDEXED_B)) {
            deindex(s, hash(s.bHi, s.bLo, s.bCid));
            s.clear(Session.F_INDEXED_B);
        }
    }

    private Session findEither(final long sHi, final long sLo, final int lc, final long dHi, final long dLo,
            final int rc) {
        final Session s = find(sHi, sLo, lc);
        return s != null ? s : find(dHi, dLo, rc);
    }

    private Session find(final long hi, final long lo, final int cid) {
        final int h = hash(hi, lo, cid);
        final int mask = hashes.length - 1;
        for (int i = h & mask; slots[i] != null; i = i + 1 & mask) {
            if (hashes[i] == h) {
                final Session s = slots[i];
                if (s.has(Session.F_INDEXED_A) && s.isA(hi, lo, cid)
                        || s.has(Session.F_INDEXED_B) && s.isB(hi, lo, cid)) {
                    return s;
                }
            }
        }
        return null;
    }

    private void index(final Session s, final int h) {
        if ((indexUsed + 1) * 4 > hashes.length * 3) {
            rehash(hashes.length * 2);
        }
        final int mask = hashes.length - 1;
        int i = h & mask;
        while (slots[i] != null) {
            i = i + 1 & mask;
        }
        slots[i] = s;
        hashes[i] = h;
        indexUsed++;
    }

    private void deindex(final Session s, final int h) {
        final int mask = hashes.length - 1;
        int i = h & mask;
        while (slots[i] != null && (slots[i] != s || hashes[i] != h)) {
            i = i + 1 & mask;
        }
        if (slots[i] == null) {
            return;
        }
        // backward-shift deletion keeps every probe chain unbroken without tombstones
        int hole = i;
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
        if (hashes.length > MIN_INDEX && indexUsed * 8 < hashes.length) {
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
                int i = oh[k] & mask;
                while (slots[i] != null) {
                    i = i + 1 & mask;
                }
                slots[i] = os[k];
                hashes[i] = oh[k];
            }
        }
    }

    private static int hash(final long hi, final long lo, final int cid) {
        long x = hi * 0x9E3779B97F4A7C15L ^ lo;
        x = (x ^ (x >>> 29)) * 0xBF58476D1CE4E5B9L ^ cid;
        x = (x ^ (x >>> 32)) * 0x94D049BB133111EBL;
        return (int) (x ^ (x >>> 31));
    }

    private int portId(final String port) {
        if (port == null) {
            return 0;
        }
        final Integer id = portIndex.get(port);
        if (id != null) {
            return id;
        }
        if (ports.size() > 0xffff) {
            // beyond 65535 distinct names (never on a switch) new ports are recorded as unknown
            return 0;
        }
        ports.add(port);
        portIndex.put(port, ports.size() - 1);
        return ports.size() - 1;
    }
}
