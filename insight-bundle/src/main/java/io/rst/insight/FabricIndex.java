/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.insight;

import edu.umd.cs.findbugs.annotations.SuppressFBWarnings;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.eclipse.jdt.annotation.Nullable;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.CmMessageType;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.SessionState;

/**
 * The fabric as the detectors and metrics see it: every session's sightings (one per switch that
 * saw it), every path, every agent's status, and per switch how many session updates arrived.
 * Fed by the datastore listeners; owned by the insight worker's one thread, never shared.
 *
 * <p>Beside them it keeps, as each sighting and path comes and goes, what the detectors and the
 * metrics would otherwise find by walking every session at each recomputation (300,000 sessions
 * in the lab bench, a core's second each time): the sessions that may have failed, each switch's
 * sessions by state, the set-ups of each pair of endpoints in time order (with which of them
 * changed since the flapping detector last looked), and the paths that are asymmetric or whose
 * data went apart, grouped as their problems group them.
 */
final class FabricIndex {
    /** A session's endpoints as the flapping detector groups set-ups: requester, responder, service. */
    record Ends(String requester, String responder, @Nullable String service) {
    }

    /** A session's set-up: when it was first seen, and whether it ended. */
    record SetUp(Ends ends, double time, String sessionId, boolean ended) {
        static final Comparator<SetUp> ORDER = Comparator.comparingDouble(SetUp::time)
            .thenComparing(SetUp::sessionId);

        /**
         * The set-up the sightings tell, from those that know the roles: null when none does or
         * an end or the time is missing.
         */
        static @Nullable SetUp of(final String sessionId, final Collection<Sighting> sightings) {
            String requester = null;
            String responder = null;
            String service = null;
            double first = Double.NaN;
            boolean ended = false;
            boolean known = false;
            for (var s : sightings) {
                if (!s.rolesKnown()) {
                    continue;
                }
                known = true;
                requester = requester == null ? s.requesterIp() : requester;
                responder = responder == null ? s.responderIp() : responder;
                service = service == null ? s.serviceId() : service;
                first = Double.isNaN(first) || s.firstSeen() < first ? s.firstSeen() : first;
                final var state = s.state();
                ended |= state == SessionState.REJECTED || state == SessionState.TIMEDOUT
                    || state == SessionState.CLOSED;
            }
            if (!known || requester == null || responder == null || Double.isNaN(first)) {
                return null;
            }
            return new SetUp(new Ends(requester, responder, service), first, sessionId, ended);
        }
    }

    /**
     * The set-ups of one pair of endpoints, in time order, and the flapping detector's finding
     * for them, valid until a set-up of theirs changes ({@code dirty}).
     */
    @SuppressFBWarnings(value = "NP_NONNULL_FIELD_NOT_INITIALIZED_IN_CONSTRUCTOR",
        justification = "SpotBugs reads no TYPE_USE @Nullable on fields: these fields are @Nullable")
    static final class SetUps {
        final TreeSet<SetUp> inOrder = new TreeSet<>(SetUp.ORDER);
        boolean dirty = true;
        @Nullable Problem problem;
    }

    /**
     * Session ID to its switches' views, one each, in no order; most sessions are seen by 1 to 5
     * switches. An array, not a map by switch: a map per session, and an index of each switch's
     * sessions beside it, would be 10-12 objects per session (three million at 275,000 sessions),
     * all walked by G1's marking; which sessions a switch saw is asked only when a switch entry
     * is written whole or removed, and a scan of the index answers that in milliseconds.
     */
    private final Map<String, Sighting[]> sessions = new HashMap<>();
    private final Map<String, PathFacts> paths = new HashMap<>();
    private final Map<String, AgentFacts> agents = new HashMap<>();
    private final Map<String, Long> sessionUpdates = new HashMap<>();
    /** Per switch, seconds from the latest updated session's last CM message to its arrival here. */
    private final Map<String, Double> ingestLag = new HashMap<>();
    /** Sessions a switch saw rejected, timed out or disconnecting: the only ones that can have failed. */
    private final Set<String> troubled = new HashSet<>();
    /** Per switch, how many of its sessions are in each state (by the state's YANG name). */
    private final Map<String, Map<String, Long>> statesBySwitch = new HashMap<>();
    /** Per switch, its sessions by origin and state ({@link #originKey}). */
    private final Map<String, Map<String, Long>> originsBySwitch = new HashMap<>();
    /** Per switch, its one-way flows by the controller's pairing ({@link #pairingKey}). */
    private final Map<String, Map<String, Long>> oneWayBySwitch = new HashMap<>();
    /**
     * One-way RC flows that no switch saw answered and the controller did not pair (nor found
     * ambiguous): every switch that reports the flow says so. The half-seen detector's candidates.
     */
    private final Set<String> unanswered = new HashSet<>();
    /** Records every switch has joined into a CM session: part of it, not sessions of their own. */
    private final Set<String> joined = new HashSet<>();
    private final Map<Ends, SetUps> setUps = new HashMap<>();
    /** Asymmetric paths by their two routes ("forward|reverse"), each group's session IDs in order. */
    private final Map<String, TreeSet<String>> asymmetricByRoutes = new HashMap<>();
    /** Paths whose data went apart from their CM, by where (their anomalies), session IDs in order. */
    private final Map<String, TreeSet<String>> dataApartByWhere = new HashMap<>();
    private long incompletePaths;
    private long asymmetricPaths;
    /**
     * Data directions with a sign of congestion (CE at a hop, a CNP), by {@link #congestionKey}:
     * the congested detector's candidates, each group's session IDs in order.
     */
    private final Map<String, TreeSet<String>> congestionByPlace = new HashMap<>();
    /** Per switch and data ingress port, the paths' hop figures summed: ECT, CE, CNP packets. */
    private final Map<String, Map<String, long[]>> ecnByPort = new HashMap<>();
    /** rpt/paused-port: the sessions each paused port and priority holds up. */
    private final Map<PausedPort, HeldUp> pausedPorts = new HashMap<>();
    /** The topology's links, each end to the other (both ways). */
    private Map<Problem.Place, Problem.Place> peers = Map.of();
    /** The LLDP topology's disagreements, and its links. */
    private List<LldpDisagreement> lldpDisagreements = List.of();
    private long lldpLinks;

    /** The operational topology the controller builds from the agents' LLDP neighbours. */
    static final String LLDP_TOPOLOGY = "rst-lldp";

    /**
     * A link the LLDP neighbours contradict, as rst-lldp's lldp-disagreement lists it.
     *
     * @param kind {@code mismatch} or {@code claimed-twice}
     * @param claimer the switch port whose agent heard the neighbour
     * @param far the node and port the neighbour resolved to
     * @param peerSays what the far end says instead
     * @param detail the disagreement in words
     */
    record LldpDisagreement(String id, String kind, Problem.Place claimer, Problem.Place far, String peerSays,
            String detail) {
        LldpDisagreement {
            Objects.requireNonNull(id);
            Objects.requireNonNull(claimer);
            Objects.requireNonNull(far);
        }
    }

    /** A switch port and priority. */
    record PausedPort(String node, String tp, int priority) {
        PausedPort {
            Objects.requireNonNull(node);
            Objects.requireNonNull(tp);
        }
    }

    /**
     * The sessions a pause holds up, as rpt/paused-port says.
     *
     * @param count how many
     * @param sessions some of them (up to 20), in order
     */
    record HeldUp(long count, List<String> sessions) {
        HeldUp {
            sessions = List.copyOf(sessions);
        }
    }

    /** Records a switch's (new or changed) view of a session; returns the view it replaced. */
    @Nullable Sighting putSighting(final Sighting sighting, final String sessionId, final double now) {
        final var seen = sessions.get(sessionId);
        final int at = seen == null ? -1 : indexOf(seen, sighting.switchId());
        final var before = at < 0 ? null : seen[at];
        // a switch written whole again repeats sessions that did not change: those are no update,
        // and cost no more than this comparison
        if (!sighting.equals(before)) {
            final var setUpBefore = seen == null ? null : SetUp.of(sessionId, Arrays.asList(seen));
            final Sighting[] after;
            if (at >= 0) {
                after = seen;
                after[at] = sighting;
            } else {
                after = seen == null ? new Sighting[1] : Arrays.copyOf(seen, seen.length + 1);
                after[after.length - 1] = sighting;
                sessions.put(sessionId, after);
            }
            sessionUpdates.merge(sighting.switchId(), 1L, Long::sum);
            if (!Double.isNaN(sighting.lastSeen())) {
                ingestLag.put(sighting.switchId(), Math.max(0, now - sighting.lastSeen()));
            }
            countState(before, -1);
            countState(sighting, 1);
            changed(sessionId, Arrays.asList(after), setUpBefore);
        }
        return before;
    }

    void removeSighting(final String switchId, final String sessionId) {
        final var seen = sessions.get(sessionId);
        final int at = seen == null ? -1 : indexOf(seen, switchId);
        if (at < 0) {
            return;
        }
        final var setUpBefore = SetUp.of(sessionId, Arrays.asList(seen));
        final var removed = seen[at];
        final var after = new Sighting[seen.length - 1];
        System.arraycopy(seen, 0, after, 0, at);
        System.arraycopy(seen, at + 1, after, at, after.length - at);
        if (after.length == 0) {
            sessions.remove(sessionId);
        } else {
            sessions.put(sessionId, after);
        }
        countState(removed, -1);
        changed(sessionId, Arrays.asList(after), setUpBefore);
    }

    private static int indexOf(final Sighting[] seen, final String switchId) {
        for (int i = 0; i < seen.length; i++) {
            if (seen[i].switchId().equals(switchId)) {
                return i;
            }
        }
        return -1;
    }

    private void countState(final @Nullable Sighting sighting, final long delta) {
        if (sighting == null) {
            return;
        }
        count(originsBySwitch, sighting.switchId(), originKey(sighting), delta);
        if ((sighting.origin() & Sighting.ONE_WAY) != 0) {
            count(oneWayBySwitch, sighting.switchId(), pairingKey(sighting), delta);
        }
        if (sighting.state() == null) {
            return;
        }
        final var byState = statesBySwitch.computeIfAbsent(sighting.switchId(), k -> new HashMap<>());
        if (byState.merge(sighting.state().getName(), delta, Long::sum) == 0) {
            byState.remove(sighting.state().getName());
            if (byState.isEmpty()) {
                statesBySwitch.remove(sighting.switchId());
            }
        }
    }

    private static void count(final Map<String, Map<String, Long>> bySwitch, final String switchId, final String key,
            final long delta) {
        final var counts = bySwitch.computeIfAbsent(switchId, k -> new HashMap<>());
        if (counts.merge(key, delta, Long::sum) == 0) {
            counts.remove(key);
            if (counts.isEmpty()) {
                bySwitch.remove(switchId);
            }
        }
    }

    /** {@link #originKey}'s keys, made once: [learnt from data][state's ordinal + 1, 0 for none]. */
    private static final String[][] ORIGIN_KEYS = new String[2][SessionState.values().length + 1];

    static {
        for (int data = 0; data < 2; data++) {
            final String origin = data == 1 ? Problem.DATA : Problem.CM;
            ORIGIN_KEYS[data][0] = origin + "|";
            for (var state : SessionState.values()) {
                ORIGIN_KEYS[data][state.ordinal() + 1] = origin + "|" + state.getName();
            }
        }
    }

    /** A sighting's origin and state, as the metrics count them: {@code cm|ESTABLISHED}, {@code data|IDLE}. */
    static String originKey(final Sighting sighting) {
        final var state = sighting.state();
        return ORIGIN_KEYS[sighting.learnedData() ? 1 : 0][state == null ? 0 : state.ordinal() + 1];
    }

    /** A one-way flow's pairing by the controller: paired, ambiguous or unpaired. */
    static String pairingKey(final Sighting sighting) {
        return (sighting.origin() & Sighting.PAIRED) != 0 ? "paired"
            : (sighting.origin() & Sighting.AMBIGUOUS) != 0 ? "ambiguous" : "unpaired";
    }

    /** A session's sightings changed: where it counts among the troubled and the set-ups follows. */
    private void changed(final String sessionId, final List<Sighting> sightings,
            final @Nullable SetUp setUpBefore) {
        if (troubled(sightings)) {
            troubled.add(sessionId);
        } else {
            troubled.remove(sessionId);
        }
        if (!sightings.isEmpty() && sightings.stream().allMatch(Sighting::unansweredOneWay)) {
            unanswered.add(sessionId);
        } else {
            unanswered.remove(sessionId);
        }
        if (!sightings.isEmpty() && sightings.stream().allMatch(Sighting::joined)) {
            joined.add(sessionId);
        } else {
            joined.remove(sessionId);
        }
        final var setUpAfter = SetUp.of(sessionId, sightings);
        if (!Objects.equals(setUpBefore, setUpAfter)) {
            if (setUpBefore != null) {
                final var group = setUps.get(setUpBefore.ends());
                if (group != null) {
                    group.inOrder.remove(setUpBefore);
                    group.dirty = true;
                    if (group.inOrder.isEmpty()) {
                        setUps.remove(setUpBefore.ends());
                    }
                }
            }
            if (setUpAfter != null) {
                setUps.computeIfAbsent(setUpAfter.ends(), k -> new SetUps()).inOrder.add(setUpAfter);
            }
        }
        if (setUpAfter != null) {
            // the switches that saw it are part of the finding too
            setUps.get(setUpAfter.ends()).dirty = true;
        }
    }

    /**
     * The sessions a switch saw (a copy: the caller may change the index while it walks them); a
     * scan of the index, asked only when a switch entry is written whole or removed.
     */
    Set<String> sessionsOf(final String switchId) {
        final Set<String> ids = new HashSet<>();
        sessions.forEach((id, seen) -> {
            if (indexOf(seen, switchId) >= 0) {
                ids.add(id);
            }
        });
        return ids;
    }

    /** Forgets everything a switch saw (the switch was removed, or its RFT turned off). */
    void removeSwitch(final String switchId) {
        for (var id : sessionsOf(switchId)) {
            removeSighting(switchId, id);
        }
        agents.remove(switchId);
        ingestLag.remove(switchId);
    }

    /** A session's sightings: a read-only view, valid until the index changes. */
    Collection<Sighting> sightings(final String sessionId) {
        final var seen = sessions.get(sessionId);
        return seen == null ? List.of() : Collections.unmodifiableList(Arrays.asList(seen));
    }

    /** The switches that saw a session (a copy). */
    Set<String> seenBy(final String sessionId) {
        final var seen = sessions.get(sessionId);
        if (seen == null) {
            return Set.of();
        }
        final Set<String> switches = new HashSet<>(seen.length * 2);
        for (var s : seen) {
            switches.add(s.switchId());
        }
        return switches;
    }

    /**
     * How many sessions the index holds, each once: a data-learned record joined into a CM session
     * (every switch that has it says so) is part of that session, which is counted itself.
     */
    int sessionCount() {
        return sessions.size() - joined.size();
    }

    /**
     * The sessions that a switch saw rejected, timed out or disconnecting: a superset of those
     * {@link ProblemDetector#verdict} finds failed (it finds none among the others).
     */
    Set<String> troubled() {
        return troubled;
    }

    /** Whether a switch saw the session rejected, timed out or disconnecting. */
    private static boolean troubled(final Collection<Sighting> sightings) {
        for (var s : sightings) {
            final var state = s.state();
            if (state == SessionState.REJECTED || state == SessionState.TIMEDOUT
                    || state == SessionState.DISCONNECTING || s.saw(CmMessageType.REJ)) {
                return true;
            }
        }
        return false;
    }

    /** Per switch, its sessions by state: only states it has sessions in. */
    Map<String, Map<String, Long>> statesBySwitch() {
        return statesBySwitch;
    }

    /** Per switch, its sessions by origin and state ({@link #originKey}): only those it has. */
    Map<String, Map<String, Long>> originsBySwitch() {
        return originsBySwitch;
    }

    /** Per switch, its one-way flows by the controller's pairing ({@link #pairingKey}): only those it has. */
    Map<String, Map<String, Long>> oneWayBySwitch() {
        return oneWayBySwitch;
    }

    /** One-way RC flows nobody saw answered nor paired: the half-seen detector's candidates. */
    Set<String> unanswered() {
        return unanswered;
    }

    /** Set-ups by endpoints, each group in time order. */
    Map<Ends, SetUps> setUps() {
        return setUps;
    }

    @Nullable PathFacts putPath(final PathFacts path) {
        final var before = paths.put(path.sessionId(), path);
        unindex(before);
        index(path);
        return before;
    }

    void removePath(final String sessionId) {
        unindex(paths.remove(sessionId));
    }

    private void index(final PathFacts path) {
        ecn(path, Problem.FORWARD, 1);
        ecn(path, Problem.REVERSE, 1);
        incompletePaths += path.complete() ? 0 : 1;
        if (path.asymmetric()) {
            asymmetricPaths++;
            asymmetricByRoutes.computeIfAbsent(routes(path), k -> new TreeSet<>()).add(path.sessionId());
        }
        if (!path.dataApart().isEmpty()) {
            dataApartByWhere.computeIfAbsent(where(path), k -> new TreeSet<>()).add(path.sessionId());
        }
    }

    private void unindex(final @Nullable PathFacts path) {
        if (path == null) {
            return;
        }
        ecn(path, Problem.FORWARD, -1);
        ecn(path, Problem.REVERSE, -1);
        incompletePaths -= path.complete() ? 0 : 1;
        if (path.asymmetric()) {
            asymmetricPaths--;
            remove(asymmetricByRoutes, routes(path), path.sessionId());
        }
        if (!path.dataApart().isEmpty()) {
            remove(dataApartByWhere, where(path), path.sessionId());
        }
    }

    /** A data direction's figures counted in ({@code sign} 1) or out (-1). */
    private void ecn(final PathFacts path, final String direction, final int sign) {
        final var ecn = path.ecn(direction);
        if (ecn == null) {
            return;
        }
        for (var hop : ecn.hops()) {
            final var byPort = ecnByPort.computeIfAbsent(hop.node(), k -> new HashMap<>());
            final String port = hop.tp() == null ? "" : hop.tp();
            final var sums = byPort.computeIfAbsent(port, k -> new long[4]);
            sums[0] += sign * Math.max(0, hop.ect());
            sums[1] += sign * Math.max(0, hop.ce());
            sums[2] += sign * Math.max(0, hop.cnp());
            // how many hops count here: the entry goes with the last
            sums[3] += sign;
            if (sums[3] == 0) {
                byPort.remove(port);
                if (byPort.isEmpty()) {
                    ecnByPort.remove(hop.node());
                }
            }
        }
        if (ecn.anySign()) {
            final var key = congestionKey(path, direction, ecn);
            if (sign > 0) {
                congestionByPlace.computeIfAbsent(key, k -> new TreeSet<>()).add(path.sessionId());
            } else {
                remove(congestionByPlace, key, path.sessionId());
            }
        }
    }

    /**
     * A congested direction's group: where the sessions learnt as its path was learnt mark its
     * direction's data (marked-at's node and egress port; none where no hop saw CE).
     */
    static String congestionKey(final PathFacts path, final String direction, final PathFacts.Ecn ecn) {
        return path.learnedFrom() + "|" + direction + "|" + (ecn.markedNode() == null ? "" : ecn.markedNode()) + "|"
            + (ecn.markedTp() == null ? "" : ecn.markedTp());
    }

    /** Data directions with a sign of congestion by {@link #congestionKey}, each group's session IDs in order. */
    Map<String, TreeSet<String>> congestionByPlace() {
        return congestionByPlace;
    }

    /**
     * Per switch and the port the data entered by ("" where the path does not say), the paths'
     * ECT, CE and CNP packets summed over their data hops there.
     */
    Map<String, Map<String, long[]>> ecnByPort() {
        return ecnByPort;
    }

    /** rpt/paused-port's entry, as it is now ({@code heldUp} null: gone). */
    void putPausedPort(final PausedPort port, final @Nullable HeldUp heldUp) {
        if (heldUp == null) {
            pausedPorts.remove(port);
        } else {
            pausedPorts.put(port, heldUp);
        }
    }

    /** The sessions a paused port and priority holds up, as rpt/paused-port says; null where it says none. */
    @Nullable HeldUp heldUp(final String node, final String tp, final int priority) {
        return pausedPorts.get(new PausedPort(node, tp, priority));
    }

    Map<PausedPort, HeldUp> pausedPorts() {
        return pausedPorts;
    }

    /** The topology's links, as pairs of ends (each link listed once or both ways). */
    void links(final Map<Problem.Place, Problem.Place> byEnd) {
        peers = Map.copyOf(byEnd);
    }

    /** The LLDP topology's disagreements and its number of links (each direction one). */
    void lldp(final List<LldpDisagreement> disagreements, final long links) {
        lldpDisagreements = List.copyOf(disagreements);
        lldpLinks = links;
    }

    List<LldpDisagreement> lldpDisagreements() {
        return lldpDisagreements;
    }

    long lldpLinks() {
        return lldpLinks;
    }

    /** The other end of the link at {@code node}'s port {@code tp}, or null where the topology has none. */
    Problem.@Nullable Place peer(final String node, final String tp) {
        return peers.get(new Problem.Place(node, tp));
    }

    private static void remove(final Map<String, TreeSet<String>> groups, final String key, final String id) {
        final var ids = groups.get(key);
        if (ids != null && ids.remove(id) && ids.isEmpty()) {
            groups.remove(key);
        }
    }

    /**
     * An asymmetric path's group: its forward and its reverse route (a data-learned session's
     * apart from the CM sessions', its routes being its data's).
     */
    static String routes(final PathFacts path) {
        return (path.learnedData() ? "data|" : "") + String.join(" > ", path.forward()) + "|"
            + String.join(" > ", path.reverse());
    }

    /** A path's group among those whose data went apart: where, in words. */
    static String where(final PathFacts path) {
        return String.join("; ", path.dataApart());
    }

    @Nullable PathFacts path(final String sessionId) {
        return paths.get(sessionId);
    }

    Collection<PathFacts> paths() {
        return paths.values();
    }

    int pathCount() {
        return paths.size();
    }

    long incompletePaths() {
        return incompletePaths;
    }

    long asymmetricPaths() {
        return asymmetricPaths;
    }

    /** Asymmetric paths by routes ({@link #routes}), each group's session IDs in order. */
    Map<String, TreeSet<String>> asymmetricByRoutes() {
        return asymmetricByRoutes;
    }

    /** Paths whose data went apart, by {@link #where}, each group's session IDs in order. */
    Map<String, TreeSet<String>> dataApartByWhere() {
        return dataApartByWhere;
    }

    @Nullable AgentFacts putAgent(final AgentFacts agent) {
        return agents.put(agent.switchId(), agent);
    }

    Collection<AgentFacts> agents() {
        return agents.values();
    }

    Map<String, Long> sessionUpdates() {
        return sessionUpdates;
    }

    Map<String, Double> ingestLag() {
        return ingestLag;
    }
}
