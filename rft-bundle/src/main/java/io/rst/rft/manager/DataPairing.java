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
 * <p>The PSNs are the agents' evidence, not leaves of the model: they are kept here, per flow and
 * per switch that reports it, for the flows the member's followers read (in a cluster, the
 * switches this member follows). The outcome goes into the flow table as the one-way flow's
 * {@code paired-session} or {@code pair-ambiguous} ({@link SessionNodes#withPairing}), which the RPT
 * and insight read. Followers report what they read ({@link #observe}, {@link #forget}); the
 * pairs of the addresses that changed are worked out again at each {@link #sweep} (a second
 * apart), and the switches whose flows' outcome changed are told to write them again
 * ({@link Rewrite}). Bounded: at most {@link #MAX_FLOWS} flows and as many sessions are tracked,
 * the rest counted ({@link #untracked}). Thread-safe; a follower calls in without holding its own
 * lock, and the rewrites are called without holding this one.
 */
final class DataPairing {
    private static final Logger LOG = LoggerFactory.getLogger(DataPairing.class);
    /** One-way RC flows (and, apart, paired sessions) tracked at most. */
    static final int MAX_FLOWS = 250_000;

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
     * A one-way flow's pairing.
     *
     * @param pairedId the session it was paired into, or null
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

    private final int maxFlows;
    private final Map<String, Flow> flows = new HashMap<>();
    private final Map<String, Ends> sessions = new HashMap<>();
    private final Map<String, Set<String>> sessionNodes = new HashMap<>();
    /** Endpoint ("ip/qpn") to the sessions that have it at one end. */
    private final Map<String, Set<String>> byEndpoint = new HashMap<>();
    /** Two addresses (lower first) to the flows between them, either way. */
    private final Map<String, Set<String>> flowsByAddresses = new HashMap<>();
    private final Set<String> dirty = new HashSet<>();
    private final Map<String, Rewrite> rewrites = new HashMap<>();
    private long untracked;

    DataPairing() {
        this(MAX_FLOWS);
    }

    /** A pairing that tracks at most {@code maxFlows} flows, and as many sessions (tests). */
    DataPairing(final int maxFlows) {
        this.maxFlows = maxFlows;
    }

    /** Tells {@code rewrite} which of {@code node}'s flows to write again, until closed. */
    synchronized Registration register(final String node, final Rewrite rewrite) {
        rewrites.put(node, rewrite);
        return () -> {
            synchronized (this) {
                rewrites.remove(node, rewrite);
            }
            forgetNode(node);
        };
    }

    /** What {@code node} reported of the data-learned session or flow {@code id}. */
    synchronized void observe(final String node, final String id, final Facts facts) {
        final String requester = facts.requesterIp();
        final String responder = facts.responderIp();
        if (requester == null || responder == null || facts.responderQpn() < 0) {
            return;
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
            if (ends != null) {
                unindex(endpoint(ends.ipA(), ends.qpA()), id);
                unindex(endpoint(ends.ipB(), ends.qpB()), id);
                dirty.add(addresses(ends.ipA(), ends.ipB()));
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
            for (var id : ids) {
                forget(node, id);
            }
        }
    }

    /** The pairing of the one-way flow {@code id} as the last sweep found it. */
    synchronized Outcome outcome(final String id) {
        final var flow = flows.get(id);
        return flow == null ? Outcome.NONE : flow.outcome;
    }

    /**
     * Works out again the pairs between the addresses whose flows or sessions changed, and tells
     * each switch which of its flows' outcomes changed. Returns how many flows' outcomes did.
     */
    int sweep() {
        final Map<String, Set<String>> again = new HashMap<>();
        final Map<String, Rewrite> targets;
        int changed = 0;
        synchronized (this) {
            for (var key : dirty) {
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
        // by QPN first: a session another switch paired has the flow's receiving QP at one end and
        // the flow's sender's address at the other
        final List<String> open = new ArrayList<>();
        for (var id : ids) {
            final var flow = flows.get(id);
            String found = null;
            int n = 0;
            for (var sessionId : byEndpoint.getOrDefault(endpoint(flow.dst, flow.dstQpn), Set.of())) {
                final var ends = sessions.get(sessionId);
                final boolean atB = ends.ipB().equals(flow.dst) && ends.qpB() == flow.dstQpn;
                if ((atB ? ends.ipA() : ends.ipB()).equals(flow.src)) {
                    found = sessionId;
                    n++;
                }
            }
            if (n == 1) {
                out.put(id, new Outcome(found, false));
            } else if (n > 1) {
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

    /** Flows or sessions not tracked since the start: the bound was reached. */
    synchronized long untracked() {
        return untracked;
    }

    /** One-way flows the last sweep paired. */
    synchronized long paired() {
        return flows.values().stream().filter(f -> f.outcome.pairedId() != null).count();
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
    private static boolean common(final int[] a, final int[] b) {
        int i = 0;
        int j = 0;
        while (i < a.length && j < b.length) {
            final int c = Integer.compare(a[i] & 0xFFFFFF, b[j] & 0xFFFFFF);
            if (c == 0) {
                return true;
            }
            if (c < 0) {
                i++;
            } else {
                j++;
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
        int c = Integer.compare(one.length, other.length);
        if (c == 0) {
            c = Arrays.compareUnsigned(one, other);
        }
        return c != 0 ? c : Integer.compare(qpOne, qpOther);
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
