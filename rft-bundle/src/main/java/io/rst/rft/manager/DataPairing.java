/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.manager;

import static java.util.Objects.requireNonNull;

import com.google.common.net.InetAddresses;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.eclipse.jdt.annotation.Nullable;
import org.opendaylight.yangtools.concepts.Registration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pairs the one-way RC flows that switches report (a data-learned QP whose other direction the
 * switch did not see) across switches: under ECMP the two directions of a QP pair may cross
 * different switches, and then no agent pairs them. A one-way flow {@code A->B} to QP b is paired
 * <ul>
 * <li>with the data-learned session that another switch paired and that has B's QP b and A's
 *   address at its ends (a QP talks to one QP: certain), else</li>
 * <li>with the one flow {@code B->A} to a QP a whose sampled PSNs answer it: a response PSN of
 *   one (ACK, atomic ACK, READ response) is a request PSN of the other, equal on 24 bits.
 *   Agents sample by PSN (a multiple of N), so an ACK and the request it names are sampled
 *   together. Where another flow between the same two addresses fits too, either way, nothing is
 *   paired: the flows are ambiguous, and counted so.</li>
 * </ul>
 * The paired session's id is what an agent that saw both directions would name it:
 * {@code IP_A/qp0xAAAAAA/IP_B/qp0xBBBBBB}, A the lower endpoint (IPv4 before IPv6, then the
 * address's bytes, then the QPN).
 *
 * <p>Before either, a data record of a QP pair that CM announced <b>joins that CM session</b>:
 * under ECMP a switch may see the data of a CM session but not the CM messages that announce its
 * QPs (they took another UDP source port), and its agent then learns a one-way flow, or even a
 * data-learned session, of its own. A one-way flow {@code A->B} to QP b joins the CM session
 * that has QP b at B at one end and A's address at the other; a data-learned session joins the CM
 * session that has one of its ends (address and QP) at one end and the other end's address (and
 * QP, where known) at the other. CM wins: such a flow joins the CM session even where a switch
 * also paired the QPs into a data-learned session. Where several CM sessions fit (a QP number
 * reused by a new connection while the old one's record is retained), the one learnt last. The
 * CM sessions' ends ({@link #observeCm}) are tracked once the member has read any data-learned
 * record (the followers then tell the CM sessions they hold, {@link #register}): nothing is kept
 * for them where no agent samples data.
 *
 * <p>The PSNs are the agents' evidence, not leaves of the model: they are kept here, per flow and
 * per switch that reports it, for the flows the member's followers read (in a cluster, the
 * switches this member follows). The outcome goes into the flow table as the one-way flow's
 * {@code paired-session} or {@code pair-ambiguous} ({@link SessionNodes#withPairing}), which the RPT
 * and insight read. Followers report what they read ({@link #observe}, {@link #forget}); the
 * pairs of the addresses that changed are worked out again at each {@link #sweep} (the RFT
 * manager's PAIRING_SWEEP apart), and the switches whose flows' outcome changed are told to write them again
 * ({@link Rewrite}). Bounded: at most {@link #MAX_FLOWS} flows and as many sessions are tracked,
 * the rest counted ({@link #untracked}). Thread-safe; a follower calls in without holding its own
 * lock, and the rewrites are called without holding this one.
 */
final class DataPairing {
    private static final Logger LOG = LoggerFactory.getLogger(DataPairing.class);
    /** One-way RC flows (and, apart, paired sessions) tracked at most. */
    static final int MAX_FLOWS = 250_000;
    /** CM sessions whose ends are tracked at most (about 200 bytes each). */
    static final int MAX_CM_SESSIONS = 1_000_000;

    /**
     * What pairing needs of a data-learned record.
     *
     * @param oneWay whether it is a one-way flow (else a session the switch paired)
     * @param rc whether its transport is RC (only RC has responses to pair by)
     * @param requesterIp the flow's sender, or the session's lower endpoint
     * @param responderIp the flow's receiver, or the session's higher endpoint
     * @param requesterQpn the session's lower endpoint's QPN, -1 for a flow
     * @param responderQpn the receiving QP (the session's higher endpoint's), -1 if absent
     * @param requestPsns the flow's sampled request PSNs, or null
     * @param responsePsns the flow's sampled response PSNs, or null
     */
    record Facts(boolean oneWay, boolean rc, @Nullable String requesterIp, @Nullable String responderIp,
            int requesterQpn, int responderQpn, int @Nullable [] requestPsns, int @Nullable [] responsePsns) {
    }

    /**
     * What joining needs of a CM session as a switch reports it (its roles known).
     *
     * @param requesterIp the requester's address
     * @param requesterQpn the requester's QP, -1 where the REQ did not reach the switch
     * @param responderIp the responder's address
     * @param responderQpn the responder's QP, -1 where the REP did not reach the switch
     */
    record CmEnds(String requesterIp, int requesterQpn, String responderIp, int responderQpn) {
        CmEnds {
            requireNonNull(requesterIp);
            requireNonNull(responderIp);
        }
    }

    /**
     * A data-learned record's pairing: a one-way flow's, or a data-learned session's join into a
     * CM session.
     *
     * @param pairedId the session it was paired into (or joined), or null
     * @param ambiguous whether more than one flow fits (nothing paired)
     */
    record Outcome(@Nullable String pairedId, boolean ambiguous) {
        static final Outcome NONE = new Outcome(null, false);
        static final Outcome AMBIGUOUS = new Outcome(null, true);
    }

    /** A switch's follower, told which of its flows to write again with their outcome. */
    @FunctionalInterface
    interface Rewrite {
        void again(Set<String> sessionIds);
    }

    /** A one-way RC flow, as every switch that reports it has it. */
    private static final class Flow {
        final String src;
        final String dst;
        final int dstQpn;
        /** Switch to its {request PSNs, response PSNs}. */
        final Map<String, int[][]> evidence = new HashMap<>(4);
        Outcome outcome = Outcome.NONE;

        Flow(final String src, final String dst, final int dstQpn) {
            this.src = src;
            this.dst = dst;
            this.dstQpn = dstQpn;
        }

        boolean fits(final Flow other) {
            // this flow's responses answer the other's requests, or the other way round
            for (var mine : evidence.values()) {
                for (var theirs : other.evidence.values()) {
                    if (common(mine[1], theirs[0]) || common(mine[0], theirs[1])) {
                        return true;
                    }
                }
            }
            return false;
        }
    }

    /** A data-learned session a switch paired: its two endpoints, and which switches report it. */
    private record Ends(String ipA, int qpA, String ipB, int qpB) {
    }

    /** A CM session's ends as the switches that report it know them, merged. */
    private static final class Cm {
        final String requesterIp;
        final String responderIp;
        int requesterQpn;
        int responderQpn;
        /** The switches that report it (a few). */
        String[] nodes;
        /** When it was first tracked, in the order of all: the last learnt wins a tie. */
        final long order;

        Cm(final CmEnds ends, final String node, final long order) {
            requesterIp = ends.requesterIp();
            responderIp = ends.responderIp();
            requesterQpn = ends.requesterQpn();
            responderQpn = ends.responderQpn();
            nodes = new String[] {node};
            this.order = order;
        }

        /** Whether QP {@code qpn} at {@code ip} is one end, {@code peerIp} (QP {@code peerQpn}, -1 any) the other. */
        boolean fits(final String ip, final int qpn, final String peerIp, final int peerQpn) {
            return requesterQpn == qpn && requesterIp.equals(ip) && responderIp.equals(peerIp)
                    && (peerQpn < 0 || responderQpn < 0 || responderQpn == peerQpn)
                || responderQpn == qpn && responderIp.equals(ip) && requesterIp.equals(peerIp)
                    && (peerQpn < 0 || requesterQpn < 0 || requesterQpn == peerQpn);
        }
    }

    private final int maxFlows;
    private final Map<String, Flow> flows = new HashMap<>();
    private final Map<String, Ends> sessions = new HashMap<>();
    private final Map<String, Set<String>> sessionNodes = new HashMap<>();
    /** Endpoint ("ip/qpn") to the sessions that have it at one end. */
    private final Map<String, Set<String>> byEndpoint = new HashMap<>();
    /** Two addresses (lower first) to the flows between them, either way. */
    private final Map<String, Set<String>> flowsByAddresses = new HashMap<>();
    /** Two addresses (lower first) to the data-learned sessions between them. */
    private final Map<String, Set<String>> sessionsByAddresses = new HashMap<>();
    /** Data-learned sessions joined into a CM session: id to the outcome (absent: none). */
    private final Map<String, Outcome> sessionOutcomes = new HashMap<>();
    private final int maxCm;
    private final Map<String, Cm> cms = new HashMap<>();
    /** An end ({@link #endKey}: address and QP) to the CM session, or the sessions (String[]), with it. */
    private final Map<Long, Object> cmByEnd = new HashMap<>();
    private long cmOrder;
    /** Whether CM sessions' ends are tracked: once any data-learned record was read. */
    private volatile boolean trackCm;
    /** Whether the followers are still to tell the CM sessions they held before tracking began. */
    private boolean replayDue;
    private final Set<String> dirty = new HashSet<>();
    private final Map<String, Rewrite> rewrites = new HashMap<>();
    private final Map<String, Runnable> replays = new HashMap<>();
    private long untracked;
    private long untrackedCm;

    DataPairing() {
        this(MAX_FLOWS, MAX_CM_SESSIONS);
    }

    /** A pairing that tracks at most {@code maxFlows} flows, and as many sessions and CM sessions (tests). */
    DataPairing(final int maxFlows) {
        this(maxFlows, maxFlows);
    }

    private DataPairing(final int maxFlows, final int maxCm) {
        this.maxFlows = maxFlows;
        this.maxCm = maxCm;
    }

    /** Tells {@code rewrite} which of {@code node}'s flows to write again, until closed. */
    Registration register(final String node, final Rewrite rewrite) {
        return register(node, rewrite, () -> { });
    }

    /**
     * Tells {@code rewrite} which of {@code node}'s records to write again, until closed;
     * {@code replayCm} is run (without this pairing's lock held) when CM sessions' ends begin to be
     * tracked, to tell {@link #observeCm} the CM sessions {@code node} holds.
     */
    synchronized Registration register(final String node, final Rewrite rewrite, final Runnable replayCm) {
        rewrites.put(node, rewrite);
        replays.put(node, replayCm);
        return () -> {
            synchronized (this) {
                rewrites.remove(node, rewrite);
                replays.remove(node, replayCm);
            }
            forgetNode(node);
        };
    }

    /** Whether {@link #observeCm} keeps what it is told (else a follower need not work its ends out). */
    boolean tracksCm() {
        return trackCm;
    }

    /**
     * What {@code node} reported of the CM session {@code id} whose roles it knows: its ends, the
     * QPs the switch saw announced. Kept only while {@link #tracksCm()}.
     */
    synchronized void observeCm(final String node, final String id, final CmEnds ends) {
        if (!trackCm || ends.requesterQpn() < 0 && ends.responderQpn() < 0) {
            return;
        }
        var cm = cms.get(id);
        if (cm == null) {
            if (cms.size() >= maxCm) {
                if (untrackedCm++ == 0) {
                    LOG.warn("RFT: more than {} CM sessions: the data of those beyond is not joined into them"
                        + " across switches", maxCm);
                }
                return;
            }
            cm = new Cm(ends, node, cmOrder++);
            cms.put(id, cm);
            indexCm(cm.requesterIp, cm.requesterQpn, id);
            indexCm(cm.responderIp, cm.responderQpn, id);
            dirty.add(addresses(cm.requesterIp, cm.responderIp));
            return;
        }
        if (!Arrays.asList(cm.nodes).contains(node)) {
            cm.nodes = Arrays.copyOf(cm.nodes, cm.nodes.length + 1);
            cm.nodes[cm.nodes.length - 1] = node;
        }
        // a QP another switch did not see announced (the REP crossed this one only)
        if (cm.requesterQpn < 0 && ends.requesterQpn() >= 0 && cm.requesterIp.equals(ends.requesterIp())) {
            cm.requesterQpn = ends.requesterQpn();
            indexCm(cm.requesterIp, cm.requesterQpn, id);
            dirty.add(addresses(cm.requesterIp, cm.responderIp));
        }
        if (cm.responderQpn < 0 && ends.responderQpn() >= 0 && cm.responderIp.equals(ends.responderIp())) {
            cm.responderQpn = ends.responderQpn();
            indexCm(cm.responderIp, cm.responderQpn, id);
            dirty.add(addresses(cm.requesterIp, cm.responderIp));
        }
    }

    private void indexCm(final String ip, final int qpn, final String id) {
        if (qpn < 0) {
            return;
        }
        cmByEnd.merge(endKey(ip, qpn), id, (had, add) -> {
            if (had instanceof String one) {
                return one.equals(add) ? one : new String[] {one, (String) add};
            }
            final String[] many = (String[]) had;
            if (Arrays.asList(many).contains(add)) {
                return many;
            }
            final String[] more = Arrays.copyOf(many, many.length + 1);
            more[many.length] = (String) add;
            return more;
        });
    }

    private void unindexCm(final String ip, final int qpn, final String id) {
        if (qpn < 0) {
            return;
        }
        cmByEnd.computeIfPresent(endKey(ip, qpn), (key, had) -> {
            if (had instanceof String one) {
                return one.equals(id) ? null : one;
            }
            final List<String> rest = new ArrayList<>(Arrays.asList((String[]) had));
            rest.remove(id);
            return rest.isEmpty() ? null : rest.size() == 1 ? rest.get(0) : rest.toArray(String[]::new);
        });
    }

    /** A CM session's end as a key: the address's hash and the QP (a match is checked against the ends). */
    private static Long endKey(final String ip, final int qpn) {
        return (long) ip.hashCode() << 24 ^ qpn & 0xFFFFFF;
    }

    /**
     * The CM session that has QP {@code qpn} at {@code ip} at one end and {@code peerIp} (with QP
     * {@code peerQpn}, -1 for any) at the other, the last learnt where several do; null where none.
     */
    private @Nullable String cmFor(final String ip, final int qpn, final String peerIp, final int peerQpn) {
        final Object found = cmByEnd.get(endKey(ip, qpn));
        if (found == null) {
            return null;
        }
        String best = null;
        long bestOrder = -1;
        for (var id : found instanceof String one ? new String[] {one} : (String[]) found) {
            final var cm = cms.get(id);
            if (cm != null && cm.order > bestOrder && cm.fits(ip, qpn, peerIp, peerQpn)) {
                best = id;
                bestOrder = cm.order;
            }
        }
        return best;
    }

    /** The CM session the data-learned session {@code ends} is part of, or null. */
    private @Nullable String cmFor(final Ends ends) {
        final String fromA = cmFor(ends.ipA(), ends.qpA(), ends.ipB(), ends.qpB());
        return fromA != null ? fromA : cmFor(ends.ipB(), ends.qpB(), ends.ipA(), ends.qpA());
    }

    /** What {@code node} reported of the data-learned session or flow {@code id}. */
    synchronized void observe(final String node, final String id, final Facts facts) {
        final String requester = facts.requesterIp();
        final String responder = facts.responderIp();
        if (requester == null || responder == null || facts.responderQpn() < 0) {
            return;
        }
        if (!trackCm) {
            trackCm = true;
            replayDue = true;
        }
        if (!facts.oneWay()) {
            if (facts.requesterQpn() < 0) {
                return;
            }
            final var ends = new Ends(requester, facts.requesterQpn(), responder, facts.responderQpn());
            final var before = sessions.get(id);
            if (before == null) {
                if (sessions.size() >= maxFlows) {
                    tooMany();
                    return;
                }
                sessions.put(id, ends);
                byEndpoint.computeIfAbsent(endpoint(ends.ipA(), ends.qpA()), k -> new HashSet<>()).add(id);
                byEndpoint.computeIfAbsent(endpoint(ends.ipB(), ends.qpB()), k -> new HashSet<>()).add(id);
                sessionsByAddresses.computeIfAbsent(addresses(ends.ipA(), ends.ipB()), k -> new HashSet<>()).add(id);
                dirty.add(addresses(ends.ipA(), ends.ipB()));
            }
            sessionNodes.computeIfAbsent(id, k -> new HashSet<>(4)).add(node);
            return;
        }
        if (!facts.rc()) {
            // UC and UD have no responses: nothing to pair them by
            return;
        }
        var flow = flows.get(id);
        if (flow == null) {
            if (flows.size() >= maxFlows) {
                tooMany();
                return;
            }
            flow = new Flow(requester, responder, facts.responderQpn());
            flows.put(id, flow);
            flowsByAddresses.computeIfAbsent(addresses(requester, responder), k -> new HashSet<>()).add(id);
        }
        final int[][] evidence = {psns(facts.requestPsns()), psns(facts.responsePsns())};
        final int[][] before = flow.evidence.put(node, evidence);
        if (before == null || !Arrays.equals(before[0], evidence[0]) || !Arrays.equals(before[1], evidence[1])) {
            dirty.add(addresses(requester, responder));
        }
    }

    private void tooMany() {
        if (untracked++ == 0) {
            LOG.warn("RFT: more than {} data-learned flows or sessions: those beyond are not paired across switches",
                maxFlows);
        }
    }

    /** {@code node} no longer reports {@code id} (the agent removed it, or the switch was turned off). */
    synchronized void forget(final String node, final String id) {
        final var flow = flows.get(id);
        if (flow != null && flow.evidence.remove(node) != null) {
            dirty.add(addresses(flow.src, flow.dst));
            if (flow.evidence.isEmpty()) {
                flows.remove(id);
                final var key = addresses(flow.src, flow.dst);
                final var ids = flowsByAddresses.get(key);
                if (ids != null && ids.remove(id) && ids.isEmpty()) {
                    flowsByAddresses.remove(key);
                }
            }
            return;
        }
        final var nodes = sessionNodes.get(id);
        if (nodes != null && nodes.remove(node) && nodes.isEmpty()) {
            sessionNodes.remove(id);
            final var ends = sessions.remove(id);
            sessionOutcomes.remove(id);
            if (ends != null) {
                unindex(endpoint(ends.ipA(), ends.qpA()), id);
                unindex(endpoint(ends.ipB(), ends.qpB()), id);
                final var key = addresses(ends.ipA(), ends.ipB());
                final var ids = sessionsByAddresses.get(key);
                if (ids != null && ids.remove(id) && ids.isEmpty()) {
                    sessionsByAddresses.remove(key);
                }
                dirty.add(key);
            }
            return;
        }
        final var cm = cms.get(id);
        if (cm != null) {
            final var rest = new ArrayList<>(Arrays.asList(cm.nodes));
            if (rest.remove(node)) {
                if (rest.isEmpty()) {
                    cms.remove(id);
                    unindexCm(cm.requesterIp, cm.requesterQpn, id);
                    unindexCm(cm.responderIp, cm.responderQpn, id);
                    dirty.add(addresses(cm.requesterIp, cm.responderIp));
                } else {
                    cm.nodes = rest.toArray(String[]::new);
                }
            }
        }
    }

    private void unindex(final String endpoint, final String id) {
        final var ids = byEndpoint.get(endpoint);
        if (ids != null && ids.remove(id) && ids.isEmpty()) {
            byEndpoint.remove(endpoint);
        }
    }

    /** Everything {@code node} reported. */
    void forgetNode(final String node) {
        final List<String> ids = new ArrayList<>();
        synchronized (this) {
            flows.forEach((id, flow) -> {
                if (flow.evidence.containsKey(node)) {
                    ids.add(id);
                }
            });
            sessionNodes.forEach((id, nodes) -> {
                if (nodes.contains(node)) {
                    ids.add(id);
                }
            });
            cms.forEach((id, cm) -> {
                if (Arrays.asList(cm.nodes).contains(node)) {
                    ids.add(id);
                }
            });
            for (var id : ids) {
                forget(node, id);
            }
        }
    }

    /**
     * The pairing of the one-way flow {@code id} as the last sweep found it, or the CM session the
     * data-learned session {@code id} joined.
     */
    synchronized Outcome outcome(final String id) {
        final var flow = flows.get(id);
        return flow != null ? flow.outcome : sessionOutcomes.getOrDefault(id, Outcome.NONE);
    }

    /**
     * Works out again the pairs between the addresses whose flows or sessions changed, and tells
     * each switch which of its flows' outcomes changed. Returns how many flows' outcomes did.
     */
    int sweep() {
        final List<Runnable> replaying;
        synchronized (this) {
            replaying = replayDue ? new ArrayList<>(replays.values()) : List.of();
            replayDue = false;
        }
        // the CM sessions the followers held before tracking began (each takes its own lock)
        replaying.forEach(Runnable::run);
        final Map<String, Set<String>> again = new HashMap<>();
        final Map<String, Rewrite> targets;
        int changed = 0;
        synchronized (this) {
            for (var key : dirty) {
                final var joining = sessionsByAddresses.get(key);
                if (joining != null) {
                    for (var id : joining) {
                        final var cm = cmFor(sessions.get(id));
                        final var now = cm == null ? Outcome.NONE : new Outcome(cm, false);
                        if (!now.equals(sessionOutcomes.getOrDefault(id, Outcome.NONE))) {
                            if (cm == null) {
                                sessionOutcomes.remove(id);
                            } else {
                                sessionOutcomes.put(id, now);
                            }
                            changed++;
                            for (var node : sessionNodes.getOrDefault(id, Set.of())) {
                                again.computeIfAbsent(node, k -> new LinkedHashSet<>()).add(id);
                            }
                        }
                    }
                }
                final var ids = flowsByAddresses.get(key);
                if (ids == null) {
                    continue;
                }
                for (var entry : pair(ids).entrySet()) {
                    final var flow = flows.get(entry.getKey());
                    if (!flow.outcome.equals(entry.getValue())) {
                        flow.outcome = entry.getValue();
                        changed++;
                        for (var node : flow.evidence.keySet()) {
                            again.computeIfAbsent(node, k -> new LinkedHashSet<>()).add(entry.getKey());
                        }
                    }
                }
            }
            dirty.clear();
            targets = new HashMap<>(rewrites);
        }
        again.forEach((node, ids) -> {
            final var rewrite = targets.get(node);
            if (rewrite != null) {
                rewrite.again(ids);
            }
        });
        return changed;
    }

    /** The outcome of each of the flows {@code ids} (between the same two addresses). */
    private Map<String, Outcome> pair(final Set<String> ids) {
        final Map<String, Outcome> out = new HashMap<>();
        // by QPN first: a CM session, else a session another switch paired, has the flow's
        // receiving QP at one end and the flow's sender's address at the other
        final List<String> open = new ArrayList<>();
        for (var id : ids) {
            final var flow = flows.get(id);
            final String cm = cmFor(flow.dst, flow.dstQpn, flow.src, -1);
            if (cm != null) {
                out.put(id, new Outcome(cm, false));
                continue;
            }
            String found = null;
            int matches = 0;
            for (var sessionId : byEndpoint.getOrDefault(endpoint(flow.dst, flow.dstQpn), Set.of())) {
                final var ends = sessions.get(sessionId);
                final boolean atB = ends.ipB().equals(flow.dst) && ends.qpB() == flow.dstQpn;
                if ((atB ? ends.ipA() : ends.ipB()).equals(flow.src)) {
                    found = sessionId;
                    matches++;
                }
            }
            if (matches == 1) {
                // a session that is part of a CM session: that one
                final String joined = cmFor(sessions.get(found));
                out.put(id, new Outcome(joined != null ? joined : found, false));
            } else if (matches > 1) {
                out.put(id, Outcome.AMBIGUOUS);
            } else if (!flow.src.equals(flow.dst)) {
                open.add(id);
            } else {
                // both ends on one address: the directions cannot be told apart by address
                out.put(id, Outcome.NONE);
            }
        }
        // then by PSNs: the flows' request PSNs indexed by direction and PSN, each flow's responses
        // looked up among the other direction's requests (a flow fits another when either one's
        // responses answer the other's requests: found from one side or the other)
        final Map<Long, List<String>> requests = new HashMap<>();
        for (var id : open) {
            final var flow = flows.get(id);
            final long direction = flow.src.compareTo(flow.dst) < 0 ? 1L << 24 : 0;
            for (var evidence : flow.evidence.values()) {
                for (int psn : evidence[0]) {
                    final var list = requests.computeIfAbsent(direction | psn & 0xFFFFFF, k -> new ArrayList<>(1));
                    if (!list.contains(id)) {
                        list.add(id);
                    }
                }
            }
        }
        final Map<String, Set<String>> fits = new HashMap<>();
        for (var id : open) {
            final var flow = flows.get(id);
            // the other direction's
            final long direction = flow.src.compareTo(flow.dst) < 0 ? 0 : 1L << 24;
            for (var evidence : flow.evidence.values()) {
                for (int psn : evidence[1]) {
                    for (var other : requests.getOrDefault(direction | psn & 0xFFFFFF, List.of())) {
                        fits.computeIfAbsent(id, k -> new HashSet<>(2)).add(other);
                        fits.computeIfAbsent(other, k -> new HashSet<>(2)).add(id);
                    }
                }
            }
        }
        for (var id : open) {
            final var mine = fits.get(id);
            if (mine == null) {
                out.put(id, Outcome.NONE);
                continue;
            }
            final String only = mine.size() == 1 ? mine.iterator().next() : null;
            final var theirs = only == null ? null : fits.get(only);
            if (theirs != null && theirs.size() == 1) {
                final var x = flows.get(id);
                final var y = flows.get(only);
                // x goes to QP x.dstQpn at x.dst, y to QP y.dstQpn at y.dst (x's sender)
                out.put(id, new Outcome(sessionId(y.dst, y.dstQpn, x.dst, x.dstQpn), false));
            } else {
                out.put(id, Outcome.AMBIGUOUS);
            }
        }
        return out;
    }

    /** One-way flows tracked now. */
    synchronized int flows() {
        return flows.size();
    }

    /** Flows, sessions or CM sessions not tracked since the start: a bound was reached. */
    synchronized long untracked() {
        return untracked + untrackedCm;
    }

    /** One-way flows the last sweep paired. */
    synchronized long paired() {
        return flows.values().stream().filter(f -> f.outcome.pairedId() != null).count();
    }

    /** Data-learned sessions the last sweep joined into a CM session. */
    synchronized long joined() {
        return sessionOutcomes.size();
    }

    /** CM sessions whose ends are tracked now. */
    synchronized int cmSessions() {
        return cms.size();
    }

    /** One-way flows the last sweep found ambiguous. */
    synchronized long ambiguous() {
        return flows.values().stream().filter(f -> f.outcome.ambiguous()).count();
    }

    private static int[] psns(final int @Nullable [] psns) {
        if (psns == null || psns.length == 0) {
            return new int[0];
        }
        final int[] sorted = psns.clone();
        Arrays.sort(sorted);
        return sorted;
    }

    /** Whether two sorted arrays of PSNs (24-bit numbers) have one in common. */
    private static boolean common(final int[] sortedOne, final int[] sortedOther) {
        int one = 0;
        int other = 0;
        while (one < sortedOne.length && other < sortedOther.length) {
            final int order = Integer.compare(sortedOne[one] & 0xFFFFFF, sortedOther[other] & 0xFFFFFF);
            if (order == 0) {
                return true;
            }
            if (order < 0) {
                one++;
            } else {
                other++;
            }
        }
        return false;
    }

    private static String endpoint(final String ip, final int qpn) {
        return ip + '/' + qpn;
    }

    private static String addresses(final String one, final String other) {
        return one.compareTo(other) <= 0 ? one + '|' + other : other + '|' + one;
    }

    /**
     * The id of the data-learned session between QP {@code qpOne} at {@code ipOne} and QP
     * {@code qpOther} at {@code ipOther}, as the agents name it: the lower endpoint first.
     */
    static String sessionId(final String ipOne, final int qpOne, final String ipOther, final int qpOther) {
        final int c = compareEndpoints(ipOne, qpOne, ipOther, qpOther);
        return c <= 0 ? ipOne + "/qp0x" + hex6(qpOne) + '/' + ipOther + "/qp0x" + hex6(qpOther)
            : ipOther + "/qp0x" + hex6(qpOther) + '/' + ipOne + "/qp0x" + hex6(qpOne);
    }

    private static String hex6(final int qpn) {
        return String.format(Locale.ROOT, "%06x", qpn & 0xFFFFFF);
    }

    /** Endpoints in the agents' order: IPv4 before IPv6, then by the address's bytes, then by QPN. */
    static int compareEndpoints(final String ipOne, final int qpOne, final String ipOther, final int qpOther) {
        final byte[] one = bytes(ipOne);
        final byte[] other = bytes(ipOther);
        int order = Integer.compare(one.length, other.length);
        if (order == 0) {
            order = Arrays.compareUnsigned(one, other);
        }
        return order != 0 ? order : Integer.compare(qpOne, qpOther);
    }

    /** An address literal's bytes (4 or 16); an IPv4-mapped IPv6 address stays 16. */
    static byte[] bytes(final String ip) {
        requireNonNull(ip);
        final int zone = ip.indexOf('%');
        final String literal = zone < 0 ? ip : ip.substring(0, zone);
        // a literal only: a name is refused, never looked up
        final byte[] address = InetAddresses.forString(literal).getAddress();
        if (address.length == 4 && literal.indexOf(':') >= 0) {
            final byte[] mapped = new byte[16];
            mapped[10] = (byte) 0xff;
            mapped[11] = (byte) 0xff;
            System.arraycopy(address, 0, mapped, 12, 4);
            return mapped;
        }
        return address;
    }
}
