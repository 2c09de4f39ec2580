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
import java.util.function.Consumer;

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
    /**
     * The CM response timeout exponent assumed for a DREQ whose connection's REQ was not seen (and
     * for restored sessions): rdma_cm's default, 4.096 us * 2^20 = 4.3 s.
     */
    static final int DEFAULT_CM_TIMEOUT = 20;
    private static final byte[][] MSG_NAMES = new byte[CmMessageType.values().length][];
    /** Oldest first; creation order among sessions first seen in the same microsecond. */
    private static final Comparator<Session> SNAPSHOT_ORDER = Comparator.comparingLong((Session s) -> s.firstSeen)
        .thenComparing((a, b) -> Integer.compare(a.seq - b.seq, 0));
    private static final byte[][] STATE_NAMES = new byte[SessionState.values().length][];

    static {
        for (CmMessageType t : CmMessageType.values()) {
            MSG_NAMES[t.ordinal()] = JsonBytes.ascii("\"" + t.name() + "\"");
        }
        for (SessionState st : SessionState.values()) {
            STATE_NAMES[st.ordinal()] = JsonBytes.ascii(",\"state\":\"" + st.name() + "\"");
        }
    }

    /** Receives sessions as JSON objects, one at a time; the buffer is reused after the call. */
    @FunctionalInterface
    public interface JsonSink {
        void session(JsonBytes json);
    }

    private final SessionConfig config;
    private final SessionListener listener;
    private final Map<String, Integer> portIndex = new HashMap<>();
    private final List<String> ports = new ArrayList<>();
    /** Scratch for IP addresses written as text. */
    private final byte[] ipBytes = new byte[16];

    // change tracking: sessions changed since the last drainChanges(), each once, in order
    private boolean tracking;
    private Session[] changed = new Session[64];
    private int changedCount;

    // index: open addressing, linear probing; one entry per known endpoint of a session
    private int[] hashes = new int[MIN_INDEX];
    private Session[] slots = new Session[MIN_INDEX];
    private int indexUsed;

    // every session, least recently updated first
    private Session head;
    private Session tail;
    private int size;
    private int nextSeq;

    private long created;
    private long evictions;
    private long expired;
    private long timedOut;
    private long ignored;
    private long accepted;
    private long restored;

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

    /** Sessions put back by {@link #restore}. */
    public long restored() {
        return restored;
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
                // a REQ captured before what the session already saw arrived late (another port's
                // capture handed it over after the answer): it is this session's REQ, not a new one
                final boolean late = s != null && t < s.firstSeen;
                if (s != null && !late && s.state().isFinished() && s.state() != SessionState.TIMED_OUT) {
                    // the CID is reused by a new connection (or was seen as the other side): the old
                    // session stays listed until retention, but no longer answers to its endpoints
                    unindex(s);
                    s = null;
                }
                if (s == null) {
                    s = create(v, sHi, sLo, lc, dHi, dLo, 0, false, true, SessionState.REQ_SENT, t);
                    isNew = true;
                } else if (s.state() == SessionState.TIMED_OUT && !late) {
                    s.state(SessionState.REQ_SENT);
                }
                s.aQpn = m.localQpn();
                s.set(Session.F_A_QPN);
                s.serviceId = m.serviceId();
                s.set(Session.F_SERVICE);
                s.waitForB = (byte) (m.remoteCmResponseTimeout() + 1);
                s.waitForA = (byte) (m.localCmResponseTimeout() + 1);
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
                final boolean fromA = isFromA(s, sHi, sLo, lc);
                if (fromA) {
                    s.bQpn = m.remoteQpn();
                    s.set(Session.F_B_QPN);
                } else {
                    s.aQpn = m.remoteQpn();
                    s.set(Session.F_A_QPN);
                }
                if (s.state() == SessionState.DISCONNECTING) {
                    // the sender waits for its DREP as long as the receiver's CM response timeout
                    final int w = fromA ? s.waitForB : s.waitForA;
                    s.deadline = t + Math.max(config.minCmTimeoutMicros(),
                        CmMessage.cmTimeoutMicros(w > 0 ? w - 1 : DEFAULT_CM_TIMEOUT));
                }
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
        final SessionState now = s.state();
        if (now != SessionState.REQ_SENT && now != SessionState.DISCONNECTING) {
            // only those two wait for an answer
            s.deadline = Long.MAX_VALUE;
        }
        accepted++;
        if (t > s.lastSeen) {
            s.lastSeen = t;
        }
        if (t < s.firstSeen) {
            s.firstSeen = t;
        }
        touch(s);
        final boolean fromA = isFromA(s, sHi, sLo, lc);
        s.addMessage(type.ordinal(), fromA, portId(ingressPort), t, config.maxMessagesPerSession());
        s.udpSrcPort(fromA, m.udpSrcPort());
        changed(s, isNew ? SessionChange.CREATED : SessionChange.UPDATED);
        return true;
    }

    private void changed(final Session s, final SessionChange change) {
        if (listener != null) {
            listener.sessionChanged(change, record(s));
        }
        if (tracking && !s.has(Session.F_CHANGED)) {
            s.set(Session.F_CHANGED);
            if (changedCount == changed.length) {
                changed = java.util.Arrays.copyOf(changed, changedCount * 2);
            }
            changed[changedCount++] = s;
        }
    }

    // ---------------------------------------------------------------- change tracking

    /**
     * Turns on change tracking: from now on every session that changes (created, updated, timed
     * out, expired, evicted) is remembered once until {@link #drainChanges} hands it over. A
     * session changed several times between two drains is handed over once, in its final state:
     * the agent's way to emit one event per session per decode batch without building a
     * {@link SessionRecord} per message.
     */
    public void trackChanges() {
        tracking = true;
    }

    /** Sessions waiting for {@link #drainChanges}. */
    public int pendingChanges() {
        return changedCount;
    }

    /**
     * Writes every session changed since the last call as one JSON object (the fields and bytes of
     * {@link SessionRecord#appendJson}) into {@code scratch}, reset before each, and hands it to
     * {@code sink}; in the order of their first change. Removed sessions (expired, evicted) are
     * handed over too, in their last state, with {@code "removed":true}.
     *
     * @return the number of sessions handed over
     */
    public int drainChanges(final JsonBytes scratch, final JsonSink sink) {
        final int n = changedCount;
        for (int i = 0; i < n; i++) {
            final Session s = changed[i];
            changed[i] = null;
            s.clear(Session.F_CHANGED);
            scratch.reset();
            writeJson(s, scratch);
            sink.session(scratch);
        }
        changedCount = 0;
        if (changed.length > 4096) {
            // a mass expiry grew the list: give the memory back
            changed = new Session[64];
        }
        return n;
    }

    /**
     * Takes out of the table the session a record names, when replaying a saved log in which the
     * session's last appearance was {@code "removed":true}: a restart must not bring it back.
     *
     * @return whether a session was taken out
     */
    public boolean forget(final SessionRecord r) {
        final int version = r.requesterIp().indexOf(':') >= 0 ? 6 : 4;
        final long[] a = parseIp(r.requesterIp(), version);
        final Integer aCid = parseHex32(r.requesterCommId());
        if (a.length == 0 || aCid == null) {
            return false;
        }
        final Session s = find(a[0], a[1], aCid);
        if (s == null) {
            return false;
        }
        remove(s);
        return true;
    }

    /**
     * Puts back a session this table (or an earlier one, before a restart) described as
     * {@code r}, so that its next messages continue it instead of starting a new session. A
     * session with the same requester endpoint (or responder endpoint) is replaced. The REQ's CM
     * response timeouts are not in a record: a restored REQ_SENT or DISCONNECTING session waits
     * {@link #DEFAULT_CM_TIMEOUT} from its last message. Records this table cannot have written
     * (an IP address or comm ID that does not parse, an unknown message name) are refused.
     * Counted in {@link #restored()}, not as created, and no change is reported.
     *
     * @return whether the session was put back
     */
    public boolean restore(final SessionRecord r) {
        final int version = r.requesterIp().indexOf(':') >= 0 ? 6 : 4;
        final long[] a = parseIp(r.requesterIp(), version);
        final long[] b = parseIp(r.responderIp(), version);
        final Integer aCid = parseHex32(r.requesterCommId());
        final Integer bCid = r.responderCommId() == null ? Integer.valueOf(0) : parseHex32(r.responderCommId());
        if (a.length == 0 || b.length == 0 || aCid == null || bCid == null) {
            return false;
        }
        final long first = micros(r.firstSeen());
        final long last = micros(r.lastSeen());
        final int n = Math.min(r.messageLog().size(), config.maxMessagesPerSession());
        final long[] words = new long[Math.max(1, n)];
        for (int i = 0; i < n; i++) {
            final SessionMessage m = r.messageLog().get(i);
            final CmMessageType type;
            try {
                type = CmMessageType.valueOf(m.msg());
            } catch (IllegalArgumentException e) {
                return false;
            }
            final long off = Math.min(Session.MAX_OFFSET, Math.max(0L, micros(m.time()) - first));
            words[i] = off << 21 | (long) (portId(m.ingressPort()) & 0xffff) << 5 | (m.fromRequester() ? 16 : 0)
                | type.ordinal();
        }
        final Long service = r.serviceId() == null ? null : parseHex64(r.serviceId());
        if (r.serviceId() != null && service == null) {
            return false;
        }
        Session old = find(a[0], a[1], aCid);
        if (old != null) {
            remove(old);
        }
        old = r.responderCommId() == null ? null : find(b[0], b[1], bCid);
        if (old != null) {
            remove(old);
        }
        final boolean bKnown = r.responderCommId() != null;
        final Session s = create(version, a[0], a[1], aCid, b[0], b[1], bCid, bKnown, r.rolesKnown(), r.state(), first);
        created--;
        restored++;
        s.lastSeen = last;
        s.msgs = words;
        s.msgCount = (short) n;
        s.dropped = (short) Math.min(Short.MAX_VALUE, r.droppedMessages() + r.messageLog().size() - n);
        if (r.requesterQpn() != null) {
            s.aQpn = r.requesterQpn();
            s.set(Session.F_A_QPN);
        }
        if (r.responderQpn() != null) {
            s.bQpn = r.responderQpn();
            s.set(Session.F_B_QPN);
        }
        if (service != null) {
            s.serviceId = service;
            s.set(Session.F_SERVICE);
        }
        if (r.rdmaCmSrcPort() != null) {
            s.ipCmSrcPort = (char) (r.rdmaCmSrcPort() & 0xffff);
            s.set(Session.F_IPCM_PORT);
        }
        if (r.requesterUdpSrcPort() != null) {
            s.aUdpPort = (char) (r.requesterUdpSrcPort() & 0xffff);
            s.set(Session.F_A_UDP);
        }
        if (r.responderUdpSrcPort() != null) {
            s.bUdpPort = (char) (r.responderUdpSrcPort() & 0xffff);
            s.set(Session.F_B_UDP);
        }
        if (r.rejectReason() != null) {
            s.rejectReason = (short) (int) r.rejectReason();
            s.set(Session.F_REJECT);
        }
        if (r.state() == SessionState.REQ_SENT || r.state() == SessionState.DISCONNECTING) {
            s.deadline = last + Math.max(config.minCmTimeoutMicros(), CmMessage.cmTimeoutMicros(DEFAULT_CM_TIMEOUT));
        }
        return true;
    }

    private static long micros(final BigDecimal seconds) {
        return seconds.movePointRight(6).setScale(0, java.math.RoundingMode.HALF_UP).longValue();
    }

    private static Integer parseHex32(final String s) {
        if (s.length() != 10 || !s.startsWith("0x")) {
            return null;
        }
        try {
            return Integer.parseUnsignedInt(s, 2, 10, 16);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static Long parseHex64(final String s) {
        if (s.length() != 18 || !s.startsWith("0x")) {
            return null;
        }
        try {
            return Long.parseUnsignedLong(s, 2, 18, 16);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** An address as the index keys it ({hi, lo}), or null if it is not an IP literal. */
    private static final long[] NO_IP = new long[0];

    /** An address as the index keys it ({hi, lo}), or an empty array if it is not an IP literal. */
    private static long[] parseIp(final String ip, final int version) {
        for (int i = 0; i < ip.length(); i++) {
            final char c = ip.charAt(i);
            // literals only: InetAddress would otherwise ask DNS
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' || c == ':' || c == '.')) {
                return NO_IP;
            }
        }
        if (ip.isEmpty() || version == 4 && ip.indexOf(':') >= 0 || version == 6 && ip.indexOf(':') < 0) {
            return NO_IP;
        }
        final byte[] raw;
        try {
            raw = java.net.InetAddress.getByName(ip).getAddress();
        } catch (java.net.UnknownHostException e) {
            return NO_IP;
        }
        final byte[] b;
        if (version == 6 && raw.length == 4) {
            // Java turns ::ffff:a.b.c.d into an IPv4 address; the wire had the IPv6 form
            b = new byte[16];
            b[10] = (byte) 0xff;
            b[11] = (byte) 0xff;
            System.arraycopy(raw, 0, b, 12, 4);
        } else if (version == 4 && raw.length != 4) {
            return NO_IP;
        } else {
            b = raw;
        }
        if (version == 4) {
            return new long[] {(long) V4_MARK << 60, be(b, 0, 4)};
        }
        return new long[] {be(b, 0, 8), be(b, 8, 8)};
    }

    private static long be(final byte[] b, final int off, final int n) {
        long v = 0;
        for (int i = 0; i < n; i++) {
            v = v << 8 | b[off + i] & 0xff;
        }
        return v;
    }

    /**
     * Applies time: REQ_SENT sessions whose CM response timeout passed, and DISCONNECTING sessions
     * whose DREQ got no DREP within the receiver's CM response timeout, become TIMED_OUT, and
     * finished sessions whose last message is older than the retention leave the table.
     * Returns the number of sessions changed or removed.
     */
    public int expire(final long nowMicros) {
        int n = 0;
        for (Session s = head; s != null;) {
            final Session next = s.next;
            if (s.deadline <= nowMicros && (s.state == SessionState.REQ_SENT.ordinal()
                    || s.state == SessionState.DISCONNECTING.ordinal())) {
                s.state(SessionState.TIMED_OUT);
                s.deadline = Long.MAX_VALUE;
                timedOut++;
                n++;
                changed(s, SessionChange.TIMED_OUT);
            }
            if (s.state().isFinished() && nowMicros - s.lastSeen >= config.retentionMicros()) {
                remove(s);
                expired++;
                n++;
                changed(s, SessionChange.EXPIRED);
            }
            s = next;
        }
        return n;
    }

    // ---------------------------------------------------------------- reading

    /** Every session, oldest first (by first message), as immutable records. */
    public List<SessionRecord> snapshot() {
        final List<SessionRecord> out = new ArrayList<>(size);
        snapshot(out::add);
        return out;
    }

    /**
     * Hands every session, oldest first, to {@code sink} one record at a time (for large tables:
     * no list of all records is held).
     */
    public void snapshot(final Consumer<SessionRecord> sink) {
        final List<Session> all = new ArrayList<>(size);
        for (Session s = head; s != null; s = s.next) {
            all.add(s);
        }
        all.sort(SNAPSHOT_ORDER);
        for (Session s : all) {
            sink.accept(record(s));
        }
    }

    /**
     * Hands every session, in {@link #snapshot()} order, to {@code sink} as a JSON object (the
     * bytes of {@link SessionRecord#appendJson}) written into {@code scratch}: no record is built.
     */
    public void snapshotJson(final JsonBytes scratch, final JsonSink sink) {
        for (Session s : sortedSessions()) {
            scratch.reset();
            writeJson(s, scratch);
            sink.session(scratch);
        }
    }

    /**
     * The table's sessions in snapshot order, as opaque handles for {@link #snapshotJson(Object[],
     * int, int, JsonBytes, JsonSink)}: a large table is then written a page at a time, each page on
     * the table's thread, instead of all at once (at about 600 bytes of JSON per session a whole
     * table may not fit the heap that holds it).
     */
    public Object[] sessionHandles() {
        return sortedSessions().toArray();
    }

    /**
     * Writes the sessions of {@code handles[from, to)} that are still in the table, each as one
     * JSON object, in their current state; the handles written are cleared.
     *
     * @return the number of sessions written
     */
    public int snapshotJson(final Object[] handles, final int from, final int to, final JsonBytes scratch,
            final JsonSink sink) {
        int n = 0;
        for (int i = from; i < to; i++) {
            final Session s = (Session) handles[i];
            handles[i] = null;
            if (s == null || s.has(Session.F_REMOVED)) {
                continue;
            }
            scratch.reset();
            writeJson(s, scratch);
            sink.session(scratch);
            n++;
        }
        return n;
    }

    private List<Session> sortedSessions() {
        final List<Session> all = new ArrayList<>(size);
        for (Session s = head; s != null; s = s.next) {
            all.add(s);
        }
        all.sort(SNAPSHOT_ORDER);
        return all;
    }

    private static final byte[] K_SESSION_ID = JsonBytes.ascii("{\"session_id\":\"");
    private static final byte[] K_ROLES_KNOWN = JsonBytes.ascii("\",\"roles_known\":");
    private static final byte[] K_REQUESTER_IP = JsonBytes.ascii(",\"requester_ip\":\"");
    private static final byte[] K_RESPONDER_IP = JsonBytes.ascii("\",\"responder_ip\":\"");
    private static final byte[] K_REQUESTER_CID = JsonBytes.ascii("\",\"requester_comm_id\":\"");
    private static final byte[] K_RESPONDER_CID = JsonBytes.ascii(",\"responder_comm_id\":");
    private static final byte[] K_REQUESTER_QPN = JsonBytes.ascii(",\"requester_qpn\":");
    private static final byte[] K_RESPONDER_QPN = JsonBytes.ascii(",\"responder_qpn\":");
    private static final byte[] K_SERVICE_ID = JsonBytes.ascii(",\"service_id\":");
    private static final byte[] K_CM_SRC_PORT = JsonBytes.ascii(",\"rdma_cm_src_port\":");
    private static final byte[] K_CM_DST_PORT = JsonBytes.ascii(",\"rdma_cm_dst_port\":");
    private static final byte[] K_REQUESTER_UDP = JsonBytes.ascii(",\"requester_udp_src_port\":");
    private static final byte[] K_RESPONDER_UDP = JsonBytes.ascii(",\"responder_udp_src_port\":");
    private static final byte[] K_REJECT_REASON = JsonBytes.ascii(",\"reject_reason\":");
    private static final byte[] K_MESSAGES = JsonBytes.ascii(",\"messages\":[");
    private static final byte[] K_FIRST_SEEN = JsonBytes.ascii("],\"first_seen\":");
    private static final byte[] K_LAST_SEEN = JsonBytes.ascii(",\"last_seen\":");
    private static final byte[] K_MESSAGE_LOG = JsonBytes.ascii(",\"message_log\":[");
    private static final byte[] K_MSG = JsonBytes.ascii("{\"msg\":");
    private static final byte[] K_INGRESS_PORT = JsonBytes.ascii(",\"ingress_port\":");
    private static final byte[] K_TIME = JsonBytes.ascii(",\"time\":");
    private static final byte[] K_FROM_REQUESTER_TRUE = JsonBytes.ascii(",\"from_requester\":true}");
    private static final byte[] K_FROM_REQUESTER_FALSE = JsonBytes.ascii(",\"from_requester\":false}");
    private static final byte[] K_DROPPED = JsonBytes.ascii("],\"dropped_messages\":");
    private static final byte[] K_REMOVED = JsonBytes.ascii(",\"removed\":true");
    private static final byte[] TRUE = JsonBytes.ascii("true");
    private static final byte[] FALSE = JsonBytes.ascii("false");

    /** Writes what {@code record(s).appendJson(out)} writes, straight from the session. */
    private void writeJson(final Session s, final JsonBytes out) {
        out.raw(K_SESSION_ID);
        if (s.has(Session.F_ROLES_KNOWN)) {
            ipText(out, s.ipVersion, s.aHi, s.aLo).raw('/').hex(s.aCid & 0xffffffffL, 8).raw('/');
            ipText(out, s.ipVersion, s.bHi, s.bLo);
        } else if (compareEndpoints(s) <= 0) {
            ipText(out, s.ipVersion, s.aHi, s.aLo).raw('/').hex(s.aCid & 0xffffffffL, 8).raw('/');
            ipText(out, s.ipVersion, s.bHi, s.bLo).raw('/').hex(s.bCid & 0xffffffffL, 8);
        } else {
            ipText(out, s.ipVersion, s.bHi, s.bLo).raw('/').hex(s.bCid & 0xffffffffL, 8).raw('/');
            ipText(out, s.ipVersion, s.aHi, s.aLo).raw('/').hex(s.aCid & 0xffffffffL, 8);
        }
        out.raw(K_ROLES_KNOWN).raw(s.has(Session.F_ROLES_KNOWN) ? TRUE : FALSE);
        out.raw(K_REQUESTER_IP);
        ipText(out, s.ipVersion, s.aHi, s.aLo).raw(K_RESPONDER_IP);
        ipText(out, s.ipVersion, s.bHi, s.bLo).raw(K_REQUESTER_CID).hex(s.aCid & 0xffffffffL, 8).raw('"');
        if (s.has(Session.F_B_CID)) {
            out.raw(K_RESPONDER_CID).hexString(s.bCid & 0xffffffffL, 8);
        }
        if (s.has(Session.F_A_QPN)) {
            out.raw(K_REQUESTER_QPN).decimal(s.aQpn);
        }
        if (s.has(Session.F_B_QPN)) {
            out.raw(K_RESPONDER_QPN).decimal(s.bQpn);
        }
        if (s.has(Session.F_SERVICE)) {
            out.raw(K_SERVICE_ID).hexString(s.serviceId, 16);
        }
        if (s.has(Session.F_IPCM_PORT)) {
            out.raw(K_CM_SRC_PORT).decimal((int) s.ipCmSrcPort);
        }
        if (s.has(Session.F_SERVICE) && s.serviceId >>> 24 == 1L) {
            out.raw(K_CM_DST_PORT).decimal((int) s.serviceId & 0xffff);
        }
        if (s.has(Session.F_A_UDP)) {
            out.raw(K_REQUESTER_UDP).decimal((int) s.aUdpPort);
        }
        if (s.has(Session.F_B_UDP)) {
            out.raw(K_RESPONDER_UDP).decimal((int) s.bUdpPort);
        }
        out.raw(STATE_NAMES[s.state]);
        if (s.has(Session.F_REJECT)) {
            out.raw(K_REJECT_REASON).decimal(s.rejectReason & 0xffff);
        }
        out.raw(K_MESSAGES);
        for (int i = 0; i < s.msgCount; i++) {
            if (i > 0) {
                out.raw(',');
            }
            out.raw(MSG_NAMES[(int) (s.msgs[i] & 0xf)]);
        }
        out.raw(K_FIRST_SEEN).seconds(s.firstSeen * 1000L, 6);
        out.raw(K_LAST_SEEN).seconds(s.lastSeen * 1000L, 6);
        out.raw(K_MESSAGE_LOG);
        for (int i = 0; i < s.msgCount; i++) {
            final long w = s.msgs[i];
            if (i > 0) {
                out.raw(',');
            }
            out.raw(K_MSG).raw(MSG_NAMES[(int) (w & 0xf)]);
            final String port = ports.get((int) (w >>> 5 & 0xffff));
            if (port != null) {
                out.raw(K_INGRESS_PORT).string(port);
            }
            out.raw(K_TIME).seconds((s.firstSeen + (w >>> 21)) * 1000L, 6);
            out.raw((w & 16) != 0 ? K_FROM_REQUESTER_TRUE : K_FROM_REQUESTER_FALSE);
        }
        out.raw(K_DROPPED).decimal(s.dropped);
        if (s.has(Session.F_REMOVED)) {
            // the session left the table: followers drop it too
            out.raw(K_REMOVED);
        }
        out.raw('}');
    }

    private JsonBytes ipText(final JsonBytes out, final int version, final long hi, final long lo) {
        final byte[] b = ipBytes;
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
        return out.ipText(b, 0, version);
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
            s.has(Session.F_SERVICE) ? hex16(s.serviceId) : null,
            s.has(Session.F_IPCM_PORT) ? Integer.valueOf(s.ipCmSrcPort) : null,
            ipCmService ? Integer.valueOf((int) s.serviceId & 0xffff) : null,
            s.has(Session.F_A_UDP) ? Integer.valueOf(s.aUdpPort) : null,
            s.has(Session.F_B_UDP) ? Integer.valueOf(s.bUdpPort) : null,
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

    private static String hex16(final long v) {
        final String h = Long.toHexString(v);
        return "0x" + "0000000000000000".substring(h.length()) + h;
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
            changed(victim, SessionChange.EVICTED);
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
        s.set(Session.F_REMOVED);
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
