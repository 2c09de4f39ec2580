/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.session;

import static java.util.Objects.requireNonNull;

import edu.umd.cs.findbugs.annotations.SuppressFBWarnings;
import io.rst.rft.decode.CmMessage;
import io.rst.rft.decode.CmMessageType;
import io.rst.rft.decode.JsonBytes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;
import org.eclipse.jdt.annotation.Nullable;

/**
 * The RDMA flow table of one switch: CM sessions learnt from CM MADs, and with
 * {@link #trackData(DataConfig)} the sessions and one-way flows learnt from sampled data packets
 * that no CM session claims (listed, reported, saved and restored alongside, with
 * {@code learned_from} "data"). Single-threaded by design:
 * the agent calls {@link #accept} and {@link #expire} from its one decode thread, and so must
 * every caller (no locks inside); {@link #snapshot()} too.
 *
 * <p>Sessions are found through their two endpoints, (IP, comm ID) of the requester and of the
 * responder, in an open-addressing index with no per-lookup allocation. The state machine and the
 * identity rules are in the package documentation. Memory is bounded: at most
 * {@link SessionConfig#maxSessions()} sessions (beyond, the session that finished first is evicted,
 * or with none finished the least recently updated; counted), finished sessions leave after the
 * retention time, messages per session are capped.
 */
@SuppressFBWarnings(value = { "NP_NONNULL_FIELD_NOT_INITIALIZED_IN_CONSTRUCTOR", "NP_STORE_INTO_NONNULL_FIELD" },
    justification = "SpotBugs reads no TYPE_USE @Nullable on fields: these fields are @Nullable")
public final class SessionTable {
    static final int V4_MARK = 4;
    /** The ECN field's Congestion Experienced codepoint. */
    private static final int CE = 3;
    /**
     * The CM response timeout exponent assumed for a DREQ whose connection's REQ was not seen (and
     * for restored sessions): rdma_cm's default, 4.096 us * 2^20 = 4.3 s.
     */
    static final int DEFAULT_CM_TIMEOUT = 20;
    /** {@link Session#timer}: in the list of sessions waiting for an answer. */
    private static final byte WAITING = 1;
    /** {@link Session#timer}: in the list of finished sessions, by last message. */
    private static final byte FINISHED = 2;
    /**
     * How far back from the newest a finished session is placed by when it finished: further (a
     * restore out of order) it leaves as late as those placed before it.
     */
    private static final int MAX_DONE_STEPS = 256;
    /**
     * The packet life time exponent assumed where no REQ was seen: rdma_cm's for RoCE
     * (CMA_IBOE_PACKET_LIFETIME, 18; newer kernels 16: the longer wait is assumed).
     */
    static final int DEFAULT_PACKET_LIFE_TIME = 18;
    /** The max CM retries assumed where no REQ was seen: rdma_cm's (CMA_MAX_CM_RETRIES). */
    static final int DEFAULT_MAX_CM_RETRIES = 15;
    /**
     * Oldest first; creation order among sessions first seen in the same microsecond (CM sessions
     * before data-learned records).
     */
    private static final Comparator<Object> SNAPSHOT_ORDER = (x, y) -> {
        final long fx = x instanceof Session s ? s.firstSeen : ((DataFlowTable.Handle) x).firstSeen;
        final long fy = y instanceof Session s ? s.firstSeen : ((DataFlowTable.Handle) y).firstSeen;
        if (fx != fy) {
            return Long.compare(fx, fy);
        }
        if (x instanceof Session a && y instanceof Session b) {
            return Integer.compare(a.seq - b.seq, 0);
        }
        if (x instanceof Session) {
            return -1;
        }
        if (y instanceof Session) {
            return 1;
        }
        return Integer.compare(((DataFlowTable.Handle) x).serial - ((DataFlowTable.Handle) y).serial, 0);
    };

    /** Receives sessions as JSON objects, one at a time; the buffer is reused after the call. */
    @FunctionalInterface
    public interface JsonSink {
        void session(JsonBytes json);
    }

    private final SessionConfig config;
    private final SessionListener listener;
    private final PortNames ports = new PortNames();
    private final SessionWriter writer = new SessionWriter(ports);

    // change tracking: sessions changed since the last drainChanges(), each once, in order
    private boolean tracking;
    private Session[] changed = new Session[64];
    private int changedCount;
    /** The write-ahead log's record of each session handed over; null when not asked for. */
    private @Nullable SessionBinary walRecords;

    private final SessionIndex index = new SessionIndex();
    /** Sessions by (IP, QPN) of either side, for data packets; null until {@link #trackData}. */
    private @Nullable SessionIndex qpnIndex;
    /** Data that came before the message announcing its QP; null until {@link #trackData}. */
    private @Nullable PendingData pendingData;
    /** Sessions learnt from data no CM session claims; null unless {@link #trackData(DataConfig)}. */
    private @Nullable DataFlowTable dataFlows;
    /** The binary record of what the sink is handed now (null while data-learned records are). */
    private @Nullable SessionBinary walCurrent;

    // every session, least recently updated first
    private @Nullable Session head;
    private @Nullable Session tail;
    // the sessions waiting for an answer (REQ_SENT, DISCONNECTING), in no order
    private @Nullable Session waitHead;
    // the finished sessions, by when they finished (Session.deadline), oldest first
    private @Nullable Session doneHead;
    private @Nullable Session doneTail;
    private int size;
    private int nextSeq;

    private long created;
    private long evictions;
    private long expired;
    private long timedOut;
    private long ignored;
    private long accepted;
    private long restored;
    private long dataMatched;
    private long dataUnmatched;
    private long cnps;
    private long cnpUnmatched;

    /**
     * A table.
     *
     * @param config limits and timeouts
     * @param listener told of every change, or null for none (then no record is built per message)
     */
    public SessionTable(final SessionConfig config, final SessionListener listener) {
        this.config = requireNonNull(config);
        this.listener = listener;
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

    /** Data packets matched to a session by {@link #acceptData}. */
    public long dataMatched() {
        return dataMatched;
    }

    /** Data packets {@link #acceptData} found no session for (its CM not seen, or another QP). */
    public long dataUnmatched() {
        return dataUnmatched;
    }

    /** CNPs given to {@link #acceptCnp}. */
    public long cnps() {
        return cnps;
    }

    /** CNPs that no session or data-learned flow of this switch owns. */
    public long cnpUnmatched() {
        return cnpUnmatched;
    }

    public SessionConfig config() {
        return config;
    }

    /** Flows the data-learned table holds (a paired session counts two); 0 without data learning. */
    public int dataFlows() {
        return dataFlows == null ? 0 : dataFlows.flows();
    }

    /** Data-learned RC sessions (two flows paired). */
    public int dataSessions() {
        return dataFlows == null ? 0 : dataFlows.sessions();
    }

    /** Data-learned one-way flows (UC, UD, RC not paired at this switch). */
    public int dataOneWay() {
        return dataFlows == null ? 0 : dataFlows.oneWay();
    }

    /** Data-learned flows dropped because the data table was full. */
    public long dataFlowsEvicted() {
        return dataFlows == null ? 0 : dataFlows.evicted();
    }

    /** Answers that fitted the requests of two or more flows, so gave no vote. */
    public long dataPairAmbiguous() {
        return dataFlows == null ? 0 : dataFlows.ambiguous();
    }

    /** Data packets whose BTH cannot be a real RC, UC or UD packet: counted, not learnt. */
    public long dataBthRejected() {
        return dataFlows == null ? 0 : dataFlows.rejected();
    }

    /** Data packets of classes not learnt (RD, XRC). */
    public long dataUntracked() {
        return dataFlows == null ? 0 : dataFlows.untracked();
    }

    /** Data-learned records removed after the retention. */
    public long dataExpired() {
        return dataFlows == null ? 0 : dataFlows.expired();
    }

    // ---------------------------------------------------------------- updates

    /**
     * Applies one CM MAD. {@code ingressPort} is the interface it was seen on (null in files).
     * Returns false if the message belongs to no connection (SIDR_REQ, SIDR_REP, ClassPortInfo)
     * or {@code msg} holds no CM MAD.
     */
    public boolean accept(final CmMessage msg, final String ingressPort) {
        final CmMessageType type = msg.type();
        if (type == null) {
            return false;
        }
        final long t = msg.timeMicros();
        final int v = msg.ipVersion();
        final long sHi = msg.srcIpHigh() | (v == 4 ? (long) V4_MARK << 60 : 0L);
        final long sLo = msg.srcIpLow();
        final long dHi = msg.dstIpHigh() | (v == 4 ? (long) V4_MARK << 60 : 0L);
        final long dLo = msg.dstIpLow();
        final int lc = msg.localCommId();
        final int rc = msg.remoteCommId();
        Session session;
        boolean isNew = false;
        switch (type) {
            case REQ -> {
                session = index.find(sHi, sLo, lc, dHi, dLo);
                if (session != null && !session.isA(sHi, sLo, lc)) {
                    session = null;
                }
                // a REQ captured before what the session already saw arrived late (another port's
                // capture handed it over after the answer): it is this session's REQ, not a new one
                final boolean late = session != null && t < session.firstSeen;
                if (session != null && !late && session.state().isFinished()
                        && session.state() != SessionState.TIMED_OUT) {
                    // the CID is reused by a new connection (or was seen as the other side): the old
                    // session stays listed until retention, but no longer answers to its endpoints
                    unindex(session);
                    session = null;
                }
                // a REQ of a session already waiting for its answer is a retry
                boolean retry = false;
                if (session == null) {
                    session = create(v, sHi, sLo, lc, dHi, dLo, 0, false, true, SessionState.REQ_SENT, t);
                    isNew = true;
                } else if (!late
                        && (session.state() == SessionState.TIMED_OUT || session.state() == SessionState.REQ_SENT)) {
                    retry = true;
                    session.state(SessionState.REQ_SENT);
                }
                qpnA(session, msg.localQpn(), t);
                session.serviceId = msg.serviceId();
                session.set(Session.F_SERVICE);
                session.waitForB = (byte) (msg.remoteCmResponseTimeout() + 1);
                session.waitForA = (byte) (msg.localCmResponseTimeout() + 1);
                session.maxRetries(msg.maxCmRetries());
                session.ackTimeoutPlusOne(msg.primaryLocalAckTimeout() > 0 ? msg.primaryLocalAckTimeout() + 1 : 0);
                if (msg.hasIpCm()) {
                    session.ipCmSrcPort = (char) msg.ipCmSrcPort();
                    session.set(Session.F_IPCM_PORT);
                }
                if (session.state() == SessionState.REQ_SENT && !late) {
                    session.retriesSeen(retry ? session.retriesSeen() + 1 : 0);
                    session.deadline = t + answerWait(session, msg.cmResponseTimeoutMicros(), twiceLifeMicros(session));
                }
            }
            case REP -> {
                session = index.find(dHi, dLo, rc, sHi, sLo);
                if (session == null) {
                    session = index.find(sHi, sLo, lc, dHi, dLo);
                }
                if (session == null) {
                    session = create(v, dHi, dLo, rc, sHi, sLo, lc, true, true, SessionState.REP_SENT, t);
                    isNew = true;
                } else {
                    setB(session, lc);
                    if (session.state() == SessionState.REQ_SENT || session.state() == SessionState.TIMED_OUT) {
                        session.state(SessionState.REP_SENT);
                    }
                }
                if (isFromA(session, sHi, sLo, lc)) {
                    qpnA(session, msg.localQpn(), t);
                } else {
                    qpnB(session, msg.localQpn(), t);
                }
            }
            case RTU -> {
                session = findEither(sHi, sLo, lc, dHi, dLo, rc);
                if (session == null) {
                    session = create(v, sHi, sLo, lc, dHi, dLo, rc, true, true, SessionState.ESTABLISHED, t);
                    isNew = true;
                } else {
                    setB(session, rc);
                    final SessionState st = session.state();
                    if (st == SessionState.REQ_SENT || st == SessionState.REP_SENT || st == SessionState.TIMED_OUT) {
                        session.state(SessionState.ESTABLISHED);
                    }
                }
            }
            case REJ -> {
                final int which = msg.messageRejected();
                session = which == 0 ? index.find(dHi, dLo, rc, sHi, sLo) : findEither(sHi, sLo, lc, dHi, dLo, rc);
                if (session == null) {
                    if (which == 0) {
                        session = create(v, dHi, dLo, rc, sHi, sLo, lc, lc != 0, true, SessionState.REJECTED, t);
                    } else {
                        session = create(v, sHi, sLo, lc, dHi, dLo, rc, rc != 0, which == 1, SessionState.REJECTED, t);
                    }
                    isNew = true;
                } else if (which == 0 && lc != 0) {
                    // a REJ of a REQ names the responder's comm ID: the session's other endpoint
                    setB(session, lc);
                }
                session.state(SessionState.REJECTED);
                session.rejectReason = (short) msg.rejectReason();
                session.set(Session.F_REJECT);
                session.deadline = Long.MAX_VALUE;
            }
            case MRA -> {
                final int which = msg.messageMraed();
                session = which == 0 ? index.find(dHi, dLo, rc, sHi, sLo) : findEither(sHi, sLo, lc, dHi, dLo, rc);
                if (session == null) {
                    if (which == 0) {
                        session = create(v, dHi, dLo, rc, sHi, sLo, lc, true, true, SessionState.REQ_SENT, t);
                    } else {
                        session = create(v, sHi, sLo, lc, dHi, dLo, rc, true, which == 1,
                            which == 1 ? SessionState.REP_SENT : SessionState.ESTABLISHED, t);
                    }
                    isNew = true;
                } else if (which == 0) {
                    setB(session, lc);
                }
                if (session.state() == SessionState.REQ_SENT
                        || session.state() == SessionState.TIMED_OUT && which == 0) {
                    // the responder asks for more time: the requester waits the service timeout
                    session.state(SessionState.REQ_SENT);
                    // then its REQ's retries, each after the REQ's own CM response timeout
                    session.deadline = t + stepMicros(CmMessage.cmTimeoutMicros(msg.serviceTimeout()))
                        + twiceLifeMicros(session)
                        + (stepMicros(reqTimeoutMicros(session.waitForB)) + twiceLifeMicros(session))
                            * retriesLeft(session);
                }
            }
            case DREQ -> {
                session = findEither(sHi, sLo, lc, dHi, dLo, rc);
                if (session == null) {
                    session = create(v, sHi, sLo, lc, dHi, dLo, rc, true, false, SessionState.DISCONNECTING, t);
                    isNew = true;
                } else if (session.state() == SessionState.DISCONNECTING) {
                    // a DREQ of a session already waiting for its DREP is a retry
                    session.retriesSeen(session.retriesSeen() + 1);
                } else if (!session.state().isFinished() || session.state() == SessionState.TIMED_OUT) {
                    session.state(SessionState.DISCONNECTING);
                    session.retriesSeen(0);
                }
                // a DREQ names the QP of its receiver
                final boolean fromA = isFromA(session, sHi, sLo, lc);
                if (fromA) {
                    qpnB(session, msg.remoteQpn(), t);
                } else {
                    qpnA(session, msg.remoteQpn(), t);
                }
                if (session.state() == SessionState.DISCONNECTING) {
                    // the sender waits for its DREP as long as the receiver's CM response timeout,
                    // for each of its retries
                    // the requester's CM (the active side) adds twice the packet life time to each
                    // wait, the responder's does not; when the roles are a guess, it is added
                    session.deadline = t + answerWait(session,
                        reqTimeoutMicros(fromA ? session.waitForB : session.waitForA),
                        fromA || !session.has(Session.F_ROLES_KNOWN) ? twiceLifeMicros(session) : 0L);
                }
            }
            case DREP -> {
                session = findEither(sHi, sLo, lc, dHi, dLo, rc);
                if (session == null) {
                    session = create(v, dHi, dLo, rc, sHi, sLo, lc, true, false, SessionState.CLOSED, t);
                    isNew = true;
                }
                if (session.state() != SessionState.REJECTED) {
                    session.state(SessionState.CLOSED);
                }
                session.deadline = Long.MAX_VALUE;
            }
            case LAP -> {
                session = findEither(sHi, sLo, lc, dHi, dLo, rc);
                if (session == null) {
                    // LAP is sent by the active side
                    session = create(v, sHi, sLo, lc, dHi, dLo, rc, true, true, SessionState.ESTABLISHED, t);
                    isNew = true;
                }
            }
            case APR -> {
                session = findEither(sHi, sLo, lc, dHi, dLo, rc);
                if (session == null) {
                    session = create(v, dHi, dLo, rc, sHi, sLo, lc, true, true, SessionState.ESTABLISHED, t);
                    isNew = true;
                }
            }
            default -> {
                ignored++;
                return false;
            }
        }
        final SessionState now = session.state();
        if (now != SessionState.REQ_SENT && now != SessionState.DISCONNECTING && !now.isFinished()) {
            // only those two wait for an answer (a finished session's deadline is when it finished)
            session.deadline = Long.MAX_VALUE;
        }
        accepted++;
        if (t > session.lastSeen) {
            session.lastSeen = t;
        }
        if (t < session.firstSeen) {
            session.firstSeen = t;
        }
        touch(session);
        retime(session);
        final boolean fromA = isFromA(session, sHi, sLo, lc);
        session.addMessage(type.ordinal(), fromA, ports.id(ingressPort), t, config.maxMessagesPerSession());
        session.udpSrcPort(fromA, msg.udpSrcPort());
        changed(session, isNew ? SessionChange.CREATED : SessionChange.UPDATED);
        return true;
    }

    /**
     * Turns on data tracking, before the first message: sessions are then also indexed by each
     * side's (IP, QPN), so that {@link #acceptData} finds the session a data packet belongs to.
     * Costs an index entry per known QPN.
     */
    public void trackData() {
        if (qpnIndex == null) {
            qpnIndex = new SessionIndex();
            pendingData = new PendingData();
            for (Session s = head; s != null; s = s.next) {
                if (s.has(Session.F_A_QPN)) {
                    qpnA(s, s.qpnA);
                }
                if (s.has(Session.F_B_QPN)) {
                    qpnB(s, s.qpnB);
                }
            }
        }
    }

    /**
     * Turns on data tracking ({@link #trackData()}) and learning: data that no CM session claims
     * makes one-way flows and, paired by the PSNs of their answers, RC sessions (package
     * documentation), listed and reported with the CM sessions.
     */
    public void trackData(final DataConfig dataConfig) {
        trackData();
        if (dataFlows == null) {
            dataFlows = new DataFlowTable(dataConfig, config.retentionMicros(), ports, listener);
            if (tracking) {
                dataFlows.track();
            }
        }
    }

    /**
     * Applies one data BTH packet ({@code msg} decoded as RoCE data: addresses, UDP source port,
     * destination QP): the unfinished session whose side has the destination IP and QPN, and whose
     * other side has the source IP, learns that its data in that direction enters on
     * {@code ingressPort} from that UDP source port. A change of port or source port is reported
     * as an update; the packet count alone is not (it shows with the session's next change or
     * snapshot). The packet's ECN field and DSCP count for the direction (a first CE mark and a
     * new DSCP are reported as updates). Nothing is allocated but a session's data figures at its
     * first packet. A CNP is handed to {@link #acceptCnp}.
     *
     * @return whether the packet belonged to a session
     */
    public boolean acceptData(final CmMessage msg, final String ingressPort) {
        if (msg.isCnp()) {
            // not data: a CNP counts for the data it is about, never as a packet of its own
            return acceptCnp(msg);
        }
        if (qpnIndex == null) {
            return false;
        }
        final int v = msg.ipVersion();
        final long sHi = msg.srcIpHigh() | (v == 4 ? (long) V4_MARK << 60 : 0L);
        final long sLo = msg.srcIpLow();
        final long dHi = msg.dstIpHigh() | (v == 4 ? (long) V4_MARK << 60 : 0L);
        final long dLo = msg.dstIpLow();
        final int qpn = msg.bthDestQp();
        final Session s = qpnIndex.find(dHi, dLo, qpn);
        final boolean toB = s != null && s.has(Session.F_QPN_INDEXED_B) && s.qpnB == qpn && s.ipHiB == dHi
            && s.ipLoB == dLo;
        final int port = ports.id(ingressPort);
        final int udp = msg.udpSrcPort() < 0 ? 0 : msg.udpSrcPort();
        // a finished session (closed, rejected, timed out) sends no more data: data to its QP
        // number is a newer session's that used it again, whose CM this switch may not have seen
        // (it crossed another ECMP member), even between the same two hosts
        if (s == null || s.state().isFinished()
                || (toB ? s.ipHiA != sHi || s.ipLoA != sLo : s.ipHiB != sHi || s.ipLoB != sLo)) {
            dataUnmatched++;
            if (dataFlows != null) {
                // a flow of a session set up without CM (or whose CM this switch did not see): learnt
                // from its packets; a CM message announcing its QP later takes it over
                dataFlows.accept(msg, port);
            } else {
                // kept a while: the message announcing this QP may still come, handed over late
                pendingData.put(dHi, dLo, qpn, sHi, sLo, udp, port, msg.timeMicros(), msg.ecn(), msg.dscp());
            }
            return false;
        }
        dataMatched++;
        final Session.Data d = s.data();
        final int ecn = msg.ecn();
        final byte dscp = (byte) (msg.dscp() + 1);
        boolean moved;
        if (toB) {
            moved = d.packetsA == 0 || d.udpA != udp || d.portA != (short) port || d.dscpA != dscp;
            d.packetsA = Session.inc(d.packetsA);
            d.udpA = (char) udp;
            d.portA = (short) port;
            d.dscpA = dscp;
            if (ecn != 0) {
                d.ectA = Session.inc(d.ectA);
            }
            if (ecn == CE) {
                // the first mark is news; the count itself shows with the next change or snapshot
                moved |= d.ceA == 0;
                d.ceA = Session.inc(d.ceA);
            }
        } else {
            moved = d.packetsB == 0 || d.udpB != udp || d.portB != (short) port || d.dscpB != dscp;
            d.packetsB = Session.inc(d.packetsB);
            d.udpB = (char) udp;
            d.portB = (short) port;
            d.dscpB = dscp;
            if (ecn != 0) {
                d.ectB = Session.inc(d.ectB);
            }
            if (ecn == CE) {
                moved |= d.ceB == 0;
                d.ceB = Session.inc(d.ceB);
            }
        }
        if (moved) {
            touch(s);
            changed(s, SessionChange.UPDATED);
        }
        return true;
    }

    /**
     * Applies one CNP ({@code msg} decoded as RoCE data with the CNP opcode, 0x81), whatever the
     * sampling: a CNP from B to A's QP says that A's data to B arrived marked CE, so it counts for
     * the direction of that data (A to B), in the unfinished session whose side has the CNP's
     * destination IP and QPN and whose other side has its source IP; else in the data-learned
     * flow from the CNP's source to its destination QP, if one is learnt. A CNP never makes,
     * pairs or moves a session or flow, and is not a data packet: no packet count, port or UDP
     * source port changes. The first CNP of a session's direction is reported as an update; the
     * count itself shows with its next change or snapshot. Nothing is allocated but a session's
     * data figures at its first.
     *
     * @return whether a session or flow of this switch took it (else counted in
     *     {@link #cnpUnmatched()})
     */
    public boolean acceptCnp(final CmMessage msg) {
        cnps++;
        if (qpnIndex == null) {
            cnpUnmatched++;
            return false;
        }
        final int v = msg.ipVersion();
        final long sHi = msg.srcIpHigh() | (v == 4 ? (long) V4_MARK << 60 : 0L);
        final long sLo = msg.srcIpLow();
        final long dHi = msg.dstIpHigh() | (v == 4 ? (long) V4_MARK << 60 : 0L);
        final long dLo = msg.dstIpLow();
        final int qpn = msg.bthDestQp();
        final Session s = qpnIndex.find(dHi, dLo, qpn);
        final boolean toB = s != null && s.has(Session.F_QPN_INDEXED_B) && s.qpnB == qpn && s.ipHiB == dHi
            && s.ipLoB == dLo;
        if (s == null || s.state().isFinished()
                || (toB ? s.ipHiA != sHi || s.ipLoA != sLo : s.ipHiB != sHi || s.ipLoB != sLo)) {
            if (dataFlows != null && dataFlows.cnp(msg)) {
                return true;
            }
            cnpUnmatched++;
            return false;
        }
        final Session.Data d = s.data();
        final boolean first;
        if (toB) {
            // to B's QP: about B's data to A
            first = d.cnpB == 0;
            d.cnpB = Session.inc(d.cnpB);
        } else {
            first = d.cnpA == 0;
            d.cnpA = Session.inc(d.cnpA);
        }
        if (first) {
            touch(s);
            changed(s, SessionChange.UPDATED);
        }
        return true;
    }

    private void qpnA(final Session session, final int qpn) {
        qpnA(session, qpn, Long.MAX_VALUE);
    }

    /** A's QPN, announced at {@code announced} (data to it captured since, but handed over before, joins). */
    private void qpnA(final Session session, final int qpn, final long announced) {
        if (qpnIndex != null && session.has(Session.F_QPN_INDEXED_A)) {
            if (session.qpnA == qpn) {
                return;
            }
            qpnIndex.remove(session, SessionIndex.hash(session.ipHiA, session.ipLoA, session.qpnA));
            session.clear(Session.F_QPN_INDEXED_A);
        }
        session.qpnA = qpn;
        session.set(Session.F_A_QPN);
        if (qpnIndex != null && !session.has(Session.F_REMOVED)) {
            indexQpn(session, session.ipHiA, session.ipLoA, qpn);
            session.set(Session.F_QPN_INDEXED_A);
            if (dataFlows != null) {
                claimData(session, false, session.ipHiA, session.ipLoA, qpn, session.ipHiB, session.ipLoB,
                    session.has(Session.F_B_QPN) ? session.qpnB : -1);
            } else if ((session.data == null || session.data.packetsB == 0)
                    && pendingData.takeInto(session, false, session.ipHiA, session.ipLoA, qpn, session.ipHiB,
                        session.ipLoB, announced) > 0) {
                dataUnmatched--;
                dataMatched++;
            }
        }
    }

    private void qpnB(final Session session, final int qpn) {
        qpnB(session, qpn, Long.MAX_VALUE);
    }

    /** B's QPN, announced at {@code announced}. */
    private void qpnB(final Session session, final int qpn, final long announced) {
        if (qpnIndex != null && session.has(Session.F_QPN_INDEXED_B)) {
            if (session.qpnB == qpn) {
                return;
            }
            qpnIndex.remove(session, SessionIndex.hash(session.ipHiB, session.ipLoB, session.qpnB));
            session.clear(Session.F_QPN_INDEXED_B);
        }
        session.qpnB = qpn;
        session.set(Session.F_B_QPN);
        if (qpnIndex != null && !session.has(Session.F_REMOVED)) {
            indexQpn(session, session.ipHiB, session.ipLoB, qpn);
            session.set(Session.F_QPN_INDEXED_B);
            if (dataFlows != null) {
                claimData(session, true, session.ipHiB, session.ipLoB, qpn, session.ipHiA, session.ipLoA,
                    session.has(Session.F_A_QPN) ? session.qpnA : -1);
            } else if ((session.data == null || session.data.packetsA == 0)
                    && pendingData.takeInto(session, true, session.ipHiB, session.ipLoB, qpn, session.ipHiA,
                        session.ipLoA, announced) > 0) {
                dataUnmatched--;
                dataMatched++;
            }
        }
    }

    /**
     * CM announced a QP of {@code session}: a data-learned record of the flow toward it leaves, and its
     * packets join the session (never two sessions for one QP pair).
     */
    private void claimData(final Session session, final boolean toB, final long dstIpHigh, final long dstIpLow,
            final int qpn, final long srcIpHigh, final long srcIpLow, final int otherQpn) {
        final long n = dataFlows.claim(session, toB, dstIpHigh, dstIpLow, qpn, srcIpHigh, srcIpLow, otherQpn);
        if (n > 0) {
            dataUnmatched -= n;
            dataMatched += n;
        }
    }

    /** Indexes (IP, QPN) for {@code session}: a QPN in use belongs to its newest session, so an older holder leaves. */
    private void indexQpn(final Session session, final long hi, final long lo, final int qpn) {
        final int h = SessionIndex.hash(hi, lo, qpn);
        final Session old = qpnIndex.find(hi, lo, qpn);
        if (old != null && old != session) {
            qpnIndex.remove(old, h);
            if (old.has(Session.F_QPN_INDEXED_A) && old.qpnA == qpn && old.ipHiA == hi && old.ipLoA == lo) {
                old.clear(Session.F_QPN_INDEXED_A);
            } else {
                old.clear(Session.F_QPN_INDEXED_B);
            }
        }
        qpnIndex.add(session, h);
    }

    private void changed(final Session session, final SessionChange change) {
        if (listener != null) {
            listener.sessionChanged(change, writer.record(session));
        }
        if (tracking && !session.has(Session.F_CHANGED)) {
            session.set(Session.F_CHANGED);
            if (changedCount == changed.length) {
                changed = java.util.Arrays.copyOf(changed, changedCount * 2);
            }
            changed[changedCount++] = session;
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
        if (dataFlows != null) {
            dataFlows.track();
        }
    }

    /**
     * Has {@link #drainChanges} also encode each session it hands over as a binary record
     * ({@link SessionBinary}: the write-ahead log's), read in the sink with {@link #lastBinary()}.
     */
    public void recordBinary() {
        walRecords = new SessionBinary();
    }

    /** The binary record of the session being handed to the sink; null unless {@link #recordBinary()}. */
    public SessionBinary lastBinary() {
        return walCurrent;
    }

    /**
     * Reads a binary record ({@link SessionBinary}): writes the session's JSON (the same bytes as
     * when it was encoded) into {@code json}, and when {@code apply} puts the session back as
     * {@link #restore(SessionRecord)} does, or takes it out when the record says it was removed.
     *
     * @return false when the record is not one {@link SessionBinary} writes
     */
    public boolean restoreBinary(final byte[] buf, final int off, final int len, final boolean apply,
            final JsonBytes json) {
        final Session d = SessionBinary.decode(buf, off, len, ports);
        if (d == null) {
            return false;
        }
        json.reset();
        writer.writeJson(d, json);
        if (!apply) {
            return true;
        }
        final SessionRecord r = writer.record(d);
        if (d.has(Session.F_REMOVED)) {
            forget(r);
        } else {
            // a record this table wrote always parses back
            restore(r);
        }
        return true;
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
        int total = 0;
        if (dataFlows != null) {
            // data-learned records that left (paired, taken over by CM, aged out) go first: a
            // record that replaces one under the same id comes after its removal
            walCurrent = null;
            total += dataFlows.drainRemoved(scratch, sink);
        }
        final int n = changedCount;
        walCurrent = walRecords;
        for (int i = 0; i < n; i++) {
            final Session s = changed[i];
            changed[i] = null;
            s.clear(Session.F_CHANGED);
            scratch.reset();
            writer.writeJson(s, scratch);
            if (walRecords != null) {
                walRecords.encode(s, ports);
            }
            sink.session(scratch);
        }
        changedCount = 0;
        if (changed.length > 4096) {
            // a mass expiry grew the list: give the memory back
            changed = new Session[64];
        }
        total += n;
        if (dataFlows != null) {
            // at most one report per record per report interval; no binary record (the WAL keeps
            // the line of an event without one)
            walCurrent = null;
            total += dataFlows.drainChanged(scratch, sink);
            walCurrent = walRecords;
        }
        return total;
    }

    /**
     * Takes out of the table the session a record names, when replaying a saved log in which the
     * session's last appearance was {@code "removed":true}: a restart must not bring it back.
     *
     * @return whether a session was taken out
     */
    public boolean forget(final SessionRecord record) {
        if (SessionRecord.DATA.equals(record.learnedFrom())) {
            return dataFlows != null && dataFlows.forget(record);
        }
        final int version = record.requesterIp().indexOf(':') >= 0 ? 6 : 4;
        final long[] a = RecordFields.parseIp(record.requesterIp(), version);
        final long[] b = RecordFields.parseIp(record.responderIp(), version);
        final Integer cidA = RecordFields.parseHex32(record.requesterCommId());
        if (a.length == 0 || b.length == 0 || cidA == null) {
            return false;
        }
        final Session s = index.find(a[0], a[1], cidA, b[0], b[1]);
        if (s == null) {
            return false;
        }
        remove(s);
        return true;
    }

    /**
     * Puts back a session this table (or an earlier one, before a restart) described as
     * {@code record}, so that its next messages continue it instead of starting a new session. A
     * session with the same requester endpoint (or responder endpoint) and the same peer is replaced. The REQ's CM
     * response timeouts are not in a record: a restored REQ_SENT or DISCONNECTING session waits
     * {@link #DEFAULT_CM_TIMEOUT} from its last message. Records this table cannot have written
     * (an IP address or comm ID that does not parse, an unknown message name) are refused.
     * Counted in {@link #restored()}, not as created, and no change is reported.
     *
     * @return whether the session was put back
     */
    public boolean restore(final SessionRecord record) {
        if (SessionRecord.DATA.equals(record.learnedFrom())) {
            // a data-learned record: put back when this table learns from data, else refused
            return dataFlows != null && dataFlows.restore(record);
        }
        final int version = record.requesterIp().indexOf(':') >= 0 ? 6 : 4;
        final long[] a = RecordFields.parseIp(record.requesterIp(), version);
        final long[] b = RecordFields.parseIp(record.responderIp(), version);
        final Integer cidA = RecordFields.parseHex32(record.requesterCommId());
        final Integer cidB = record.responderCommId() == null ? Integer.valueOf(0)
            : RecordFields.parseHex32(record.responderCommId());
        if (a.length == 0 || b.length == 0 || cidA == null || cidB == null) {
            return false;
        }
        final long first = RecordFields.micros(record.firstSeen());
        final long last = RecordFields.micros(record.lastSeen());
        final int n = Math.min(record.messageLog().size(), config.maxMessagesPerSession());
        final long[] words = new long[Math.max(1, n)];
        for (int i = 0; i < n; i++) {
            final SessionMessage m = record.messageLog().get(i);
            final CmMessageType type;
            try {
                type = CmMessageType.valueOf(m.msg());
            } catch (IllegalArgumentException e) {
                return false;
            }
            final long off = Math.min(Session.MAX_OFFSET, Math.max(0L, RecordFields.micros(m.time()) - first));
            words[i] = off << 21 | (long) (ports.id(m.ingressPort()) & 0xffff) << 5 | (m.fromRequester() ? 16 : 0)
                | type.ordinal();
        }
        final Long service = record.serviceId() == null ? null : RecordFields.parseHex64(record.serviceId());
        if (record.serviceId() != null && service == null) {
            return false;
        }
        Session old = index.find(a[0], a[1], cidA, b[0], b[1]);
        if (old != null) {
            remove(old);
        }
        old = record.responderCommId() == null ? null : index.find(b[0], b[1], cidB, a[0], a[1]);
        if (old != null) {
            remove(old);
        }
        final boolean bKnown = record.responderCommId() != null;
        final Session s = create(version, a[0], a[1], cidA, b[0], b[1], cidB, bKnown, record.rolesKnown(),
            record.state(), first);
        created--;
        restored++;
        s.lastSeen = last;
        s.msgs = words;
        s.msgCount = (short) n;
        s.dropped = (short) Math.min(Short.MAX_VALUE, record.droppedMessages() + record.messageLog().size() - n);
        if (record.requesterQpn() != null) {
            qpnA(s, record.requesterQpn());
        }
        if (record.responderQpn() != null) {
            qpnB(s, record.responderQpn());
        }
        if (service != null) {
            s.serviceId = service;
            s.set(Session.F_SERVICE);
        }
        if (record.rdmaCmSrcPort() != null) {
            s.ipCmSrcPort = (char) (record.rdmaCmSrcPort() & 0xffff);
            s.set(Session.F_IPCM_PORT);
        }
        if (record.requesterUdpSrcPort() != null) {
            s.udpPortA = (char) (record.requesterUdpSrcPort() & 0xffff);
            s.set(Session.F_A_UDP);
        }
        if (record.responderUdpSrcPort() != null) {
            s.udpPortB = (char) (record.responderUdpSrcPort() & 0xffff);
            s.set(Session.F_B_UDP);
        }
        if (record.rejectReason() != null) {
            s.rejectReason = (short) (int) record.rejectReason();
            s.set(Session.F_REJECT);
        }
        final DataFlow aData = record.requesterData();
        if (aData != null) {
            final Session.Data d = s.data();
            d.udpA = (char) aData.udpSrcPort();
            d.portA = (short) ports.id(aData.ingressPort());
            d.packetsA = Session.add(0, aData.packets());
            d.dscpA = (byte) (aData.dscp() == null ? 0 : aData.dscp() + 1);
            d.ectA = Session.add(0, aData.ect());
            d.ceA = Session.add(0, aData.ce());
            d.cnpA = Session.add(0, aData.cnp());
        }
        final DataFlow bData = record.responderData();
        if (bData != null) {
            final Session.Data d = s.data();
            d.udpB = (char) bData.udpSrcPort();
            d.portB = (short) ports.id(bData.ingressPort());
            d.packetsB = Session.add(0, bData.packets());
            d.dscpB = (byte) (bData.dscp() == null ? 0 : bData.dscp() + 1);
            d.ectB = Session.add(0, bData.ect());
            d.ceB = Session.add(0, bData.ce());
            d.cnpB = Session.add(0, bData.cnp());
        }
        if (record.state() == SessionState.REQ_SENT || record.state() == SessionState.DISCONNECTING) {
            s.deadline = last + answerWait(s, CmMessage.cmTimeoutMicros(DEFAULT_CM_TIMEOUT), twiceLifeMicros(s));
        }
        retime(s);
        return true;
    }

    /**
     * Applies time: REQ_SENT sessions whose CM response timeout passed, and DISCONNECTING sessions
     * whose DREQ got no DREP within the receiver's CM response timeout, become TIMED_OUT, and
     * finished sessions whose last message is older than the retention leave the table.
     * Returns the number of sessions changed or removed.
     */
    public int expire(final long nowMicros) {
        int affected = 0;
        // only the waiting and the finished sessions can change with time: a table of 100,000
        // established sessions is not walked each second
        for (Session s = waitHead; s != null;) {
            final Session next = s.tnext;
            if (s.deadline <= nowMicros) {
                s.state(SessionState.TIMED_OUT);
                timedOut++;
                affected++;
                changed(s, SessionChange.TIMED_OUT);
                // retained from now, when it was found timed out and reported
                retime(s, nowMicros);
            }
            s = next;
        }
        // the longest finished first: the first one still inside its retention ends the walk
        for (Session s = doneHead; s != null && nowMicros - s.deadline >= config.retentionMicros();) {
            final Session next = s.tnext;
            remove(s);
            expired++;
            affected++;
            changed(s, SessionChange.EXPIRED);
            s = next;
        }
        if (dataFlows != null) {
            final long before = dataFlows.expired();
            dataFlows.expire(nowMicros);
            affected += (int) (dataFlows.expired() - before);
            if (!tracking && listener != null) {
                // without change tracking, the listener hears of data-learned records here
                dataFlows.drainChanged(null, null);
            }
        }
        return affected;
    }

    /**
     * Puts a session into the timer list its state and deadline call for (after it changed):
     * waiting for an answer, finished (at its place by when it finished, from its last message),
     * or neither.
     */
    private void retime(final Session session) {
        retime(session, session.lastSeen);
    }

    /**
     * As {@link #retime(Session)}; a finished session's retention counts from {@code finishedAt}
     * (kept in its {@link Session#deadline}, which a finished session does not otherwise use).
     */
    private void retime(final Session session, final long finishedAt) {
        final SessionState st = session.state();
        long from = finishedAt;
        if (session.timer() == FINISHED && st.isFinished() && session.deadline != Long.MAX_VALUE
                && session.deadline > from) {
            // already finished: a late message does not move its retention back
            from = session.deadline;
        }
        final byte want;
        if (session.deadline != Long.MAX_VALUE && (st == SessionState.REQ_SENT || st == SessionState.DISCONNECTING)) {
            want = WAITING;
        } else if (st.isFinished()) {
            want = FINISHED;
        } else {
            want = 0;
        }
        if (want == WAITING && session.timer() == WAITING) {
            return;
        }
        timerUnlink(session);
        if (want == WAITING) {
            session.tnext = waitHead;
            if (waitHead != null) {
                waitHead.tprev = session;
            }
            waitHead = session;
            session.timer(WAITING);
        } else if (want == FINISHED) {
            session.deadline = from;
            // messages come in time order, so this is the tail but for a late message or a restore
            // out of order; past MAX_DONE_STEPS it stays where it is, and leaves at most as late as
            // those before it
            Session after = doneTail;
            for (int i = 0; i < MAX_DONE_STEPS && after != null && after.deadline > from; i++) {
                after = after.tprev;
            }
            session.tprev = after;
            if (after == null) {
                session.tnext = doneHead;
                doneHead = session;
            } else {
                session.tnext = after.tnext;
                after.tnext = session;
            }
            if (session.tnext != null) {
                session.tnext.tprev = session;
            } else {
                doneTail = session;
            }
            session.timer(FINISHED);
        }
    }

    private void timerUnlink(final Session session) {
        if (session.timer() == 0) {
            return;
        }
        if (session.tprev != null) {
            session.tprev.tnext = session.tnext;
        } else if (session.timer() == WAITING) {
            waitHead = session.tnext;
        } else {
            doneHead = session.tnext;
        }
        if (session.tnext != null) {
            session.tnext.tprev = session.tprev;
        } else if (session.timer() == FINISHED) {
            doneTail = session.tprev;
        }
        session.tprev = null;
        session.tnext = null;
        session.timer(0);
    }

    // ---------------------------------------------------------------- reading

    /**
     * Every session, oldest first (by first message), as immutable records: CM sessions and
     * data-learned records.
     */
    public List<SessionRecord> snapshot() {
        final List<SessionRecord> out = new ArrayList<>(size + dataRecords());
        snapshot(out::add);
        return out;
    }

    /**
     * Hands every session, oldest first, to {@code sink} one record at a time (for large tables:
     * no list of all records is held).
     */
    public void snapshot(final Consumer<SessionRecord> sink) {
        for (Object h : sortedSessions()) {
            if (h instanceof Session s) {
                sink.accept(writer.record(s));
            } else {
                final SessionRecord r = dataFlows.record((DataFlowTable.Handle) h);
                if (r != null) {
                    sink.accept(r);
                }
            }
        }
    }

    /**
     * Hands every session, in {@link #snapshot()} order, to {@code sink} as a JSON object (the
     * bytes of {@link SessionRecord#appendJson}) written into {@code scratch}: no record is built.
     */
    public void snapshotJson(final JsonBytes scratch, final JsonSink sink) {
        final Object[] all = sortedSessions().toArray();
        snapshotJson(all, 0, all.length, scratch, sink);
    }

    /**
     * Writes the sessions of {@code handles[from, to)} that are still in the table, each as one
     * JSON object, in their current state; the handles written are cleared.
     *
     * @return the number of sessions written
     */
    public int snapshotJson(final Object[] handles, final int from, final int to, final JsonBytes scratch,
            final JsonSink sink) {
        int written = 0;
        for (int i = from; i < to; i++) {
            final Object h = handles[i];
            handles[i] = null;
            if (h instanceof Session s) {
                if (s.has(Session.F_REMOVED)) {
                    continue;
                }
                scratch.reset();
                writer.writeJson(s, scratch);
            } else if (h instanceof DataFlowTable.Handle d) {
                scratch.reset();
                if (!dataFlows.writeJson(d, scratch)) {
                    continue;
                }
            } else {
                continue;
            }
            sink.session(scratch);
            written++;
        }
        return written;
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
     * The table's sessions least recently active first (the order a full table evicts live
     * sessions in, once no finished one is left), as handles for
     * {@link #snapshotJson(Object[], int, int, JsonBytes, JsonSink)}, unsorted: for a checkpoint,
     * which needs no order, and whose restore (each session appended in turn) then gives back the
     * same eviction order. Sorting 300,000 sessions on the decode thread would add to a
     * checkpoint's cost. The data-learned records follow, least recently seen first.
     */
    public Object[] sessionHandlesInEvictionOrder() {
        final List<Object> all = new ArrayList<>(size + dataRecords());
        for (Session s = head; s != null; s = s.next) {
            all.add(s);
        }
        if (dataFlows != null) {
            dataFlows.handles(all);
        }
        return all.toArray();
    }

    /** Data-learned records (paired sessions and one-way flows); 0 without data learning. */
    public int dataRecords() {
        return dataFlows == null ? 0 : dataFlows.records();
    }

    /** CM sessions and data-learned records, oldest first (by first packet), as handles. */
    private List<Object> sortedSessions() {
        final List<Object> all = new ArrayList<>(size + dataRecords());
        for (Session s = head; s != null; s = s.next) {
            all.add(s);
        }
        if (dataFlows != null) {
            dataFlows.handles(all);
        }
        all.sort(SNAPSHOT_ORDER);
        return all;
    }

    // ---------------------------------------------------------------- internals

    /**
     * How long the sender of a REQ or DREQ that just left waits before it gives up: its CM
     * response timeout (at least the configured floor) once for each retry still to come and once
     * for the last.
     */
    private long answerWait(final Session session, final long timeoutMicros, final long lifeMicros) {
        return (stepMicros(timeoutMicros) + lifeMicros) * (retriesLeft(session) + 1);
    }

    /**
     * Twice the path's packet life time, which the requester's CM adds to each wait for an answer
     * (Linux: timeout = 2 * packet life time + remote CM response timeout): bounded by the REQ's
     * primary local ACK timeout (4.096 us * 2^value, set from packet life time + 1); nothing when
     * the REQ said 0; rdma_cm's RoCE packet life time ({@link #DEFAULT_PACKET_LIFE_TIME}) when no
     * REQ was seen.
     */
    private static long twiceLifeMicros(final Session session) {
        if (session.waitForB == 0) {
            return CmMessage.cmTimeoutMicros(DEFAULT_PACKET_LIFE_TIME + 1);
        }
        final int ack = session.ackTimeoutPlusOne();
        return ack > 0 ? CmMessage.cmTimeoutMicros(ack - 1) : 0L;
    }

    private static int retriesLeft(final Session session) {
        return Math.max(0, session.maxRetries() - session.retriesSeen());
    }

    private long stepMicros(final long timeoutMicros) {
        return Math.max(config.minCmTimeoutMicros(), timeoutMicros);
    }

    /** A CM response timeout kept as exponent + 1 (0: no REQ seen, rdma_cm's default). */
    private static long reqTimeoutMicros(final byte waitPlusOne) {
        return CmMessage.cmTimeoutMicros(waitPlusOne > 0 ? waitPlusOne - 1 : DEFAULT_CM_TIMEOUT);
    }

    private static boolean isFromA(final Session session, final long hi, final long lo, final int cid) {
        if (session.ipHiA != hi || session.ipLoA != lo) {
            return false;
        }
        // same IP at both ends (loopback): the comm ID decides
        return session.ipHiA != session.ipHiB || session.ipLoA != session.ipLoB || cid == session.cidA;
    }

    private Session create(final int version, final long ipHiA, final long ipLoA, final int cidA, final long ipHiB,
            final long ipLoB, final int cidB, final boolean cidBKnown, final boolean rolesKnown,
            final SessionState state, final long time) {
        if (size >= config.maxSessions()) {
            // what finished first goes first; a live session only when nothing finished is left:
            // an established connection sends no CM message for as long as it lasts, and would
            // otherwise be the first to go under churn
            final Session victim = doneHead != null ? doneHead : head;
            remove(victim);
            evictions++;
            changed(victim, SessionChange.EVICTED);
        }
        final Session s = new Session();
        s.ipVersion = (byte) version;
        s.ipHiA = ipHiA;
        s.ipLoA = ipLoA;
        s.cidA = cidA;
        s.ipHiB = ipHiB;
        s.ipLoB = ipLoB;
        s.cidB = cidB;
        s.firstSeen = time;
        s.lastSeen = time;
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
        index.add(s, SessionIndex.hash(ipHiA, ipLoA, cidA));
        s.set(Session.F_INDEXED_A);
        if (cidBKnown) {
            setB(s, cidB);
        }
        return s;
    }

    private void setB(final Session session, final int cidB) {
        if (session.has(Session.F_B_CID)) {
            return;
        }
        session.cidB = cidB;
        session.set(Session.F_B_CID);
        index.add(session, SessionIndex.hash(session.ipHiB, session.ipLoB, cidB));
        session.set(Session.F_INDEXED_B);
    }

    private void touch(final Session session) {
        if (session == tail) {
            return;
        }
        unlink(session);
        session.prev = tail;
        session.next = null;
        tail.next = session;
        tail = session;
    }

    private void unlink(final Session session) {
        if (session.prev != null) {
            session.prev.next = session.next;
        } else {
            head = session.next;
        }
        if (session.next != null) {
            session.next.prev = session.prev;
        } else {
            tail = session.prev;
        }
    }

    private void remove(final Session session) {
        session.set(Session.F_REMOVED);
        unlink(session);
        timerUnlink(session);
        session.prev = null;
        session.next = null;
        unindex(session);
        size--;
    }

    private void unindex(final Session session) {
        if (session.has(Session.F_QPN_INDEXED_A)) {
            qpnIndex.remove(session, SessionIndex.hash(session.ipHiA, session.ipLoA, session.qpnA));
            session.clear(Session.F_QPN_INDEXED_A);
        }
        if (session.has(Session.F_QPN_INDEXED_B)) {
            qpnIndex.remove(session, SessionIndex.hash(session.ipHiB, session.ipLoB, session.qpnB));
            session.clear(Session.F_QPN_INDEXED_B);
        }
        if (session.has(Session.F_INDEXED_A)) {
            index.remove(session, SessionIndex.hash(session.ipHiA, session.ipLoA, session.cidA));
            session.clear(Session.F_INDEXED_A);
        }
        if (session.has(Session.F_INDEXED_B)) {
            index.remove(session, SessionIndex.hash(session.ipHiB, session.ipLoB, session.cidB));
            session.clear(Session.F_INDEXED_B);
        }
    }

    private Session findEither(final long srcIpHigh, final long srcIpLow, final int lc, final long dstIpHigh,
            final long dstIpLow, final int rc) {
        final Session s = index.find(srcIpHigh, srcIpLow, lc, dstIpHigh, dstIpLow);
        return s != null ? s : index.find(dstIpHigh, dstIpLow, rc, srcIpHigh, srcIpLow);
    }

}
