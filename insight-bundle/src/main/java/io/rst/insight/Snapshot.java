/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.insight;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.insight.rev261201.ProblemKind;

/**
 * The figures the metrics endpoint shows, taken by the insight worker with each recomputation of
 * the problems (at most once a second, less often when a recomputation takes long), the agents'
 * facts and the ingest figures also with each change of them ({@link #withLive}): immutable, so
 * that a scrape reads it without locking the worker out.
 *
 * @param sessionsBySwitch switch to session state (rdma-flow-table's name) to count
 * @param fabricSessions sessions the fabric holds, each counted once however many switches saw it
 * @param sessionUpdates per switch, session writes seen in rft since the controller started
 * @param ingestLag per switch, seconds from the latest updated session's last CM message to its
 *     arrival in the datastore
 * @param takenAt seconds since the epoch
 * @param pathFailedCommits commits of paths the datastore refused (rdma-path-table:rpt/failed-commits)
 * @param originsBySwitch switch to origin and state ({@code cm|ESTABLISHED}, {@code data|ACTIVE}) to count
 * @param oneWayBySwitch switch to the controller's pairing of its one-way flows ({@code unpaired},
 *     {@code paired}, {@code ambiguous}) to count
 * @param ecnByPort per switch and data ingress port, the paths' ECT, CE and CNP packets summed, in order
 * @param congestedSessions sessions with a congested data direction
 * @param heldUp per paused port and priority (rpt/paused-port), the sessions it holds up, in order
 * @param lldpLinks links (each direction one) of the LLDP topology rst-lldp
 * @param lldpDisagreements links the LLDP neighbours contradict (rst-lldp's lldp-disagreement)
 */
record Snapshot(boolean active, Map<String, Map<String, Long>> sessionsBySwitch, long fabricSessions, long paths,
        long incompletePaths, long asymmetricPaths, Map<ProblemKind, Long> problems, List<AgentFacts> agents,
        Map<String, Long> sessionUpdates, Map<String, Double> ingestLag, double takenAt, double recomputeSeconds,
        long pathFailedCommits, Map<String, Map<String, Long>> originsBySwitch,
        Map<String, Map<String, Long>> oneWayBySwitch, List<PortEcn> ecnByPort, long congestedSessions,
        List<HeldPort> heldUp, long lldpLinks, long lldpDisagreements) {

    /** A switch's data ingress port's sums over the paths' data hops there. */
    record PortEcn(String node, String port, long ect, long ce, long cnp) {
    }

    /** A paused port and priority, and how many sessions it holds up. */
    record HeldPort(String node, String port, int priority, long sessions) {
    }

    static final Snapshot INACTIVE = new Snapshot(false, Map.of(), 0, 0, 0, 0, Map.of(), List.of(), Map.of(), Map.of(),
        Double.NaN, 0, 0);

    Snapshot {
        sessionsBySwitch = Map.copyOf(sessionsBySwitch);
        problems = Map.copyOf(problems);
        agents = List.copyOf(agents);
        sessionUpdates = Map.copyOf(sessionUpdates);
        ingestLag = Map.copyOf(ingestLag);
        originsBySwitch = copy(originsBySwitch);
        oneWayBySwitch = copy(oneWayBySwitch);
        ecnByPort = List.copyOf(ecnByPort);
        heldUp = List.copyOf(heldUp);
    }

    /** A snapshot without LLDP figures. */
    @SuppressWarnings("checkstyle:ParameterNumber")
    Snapshot(final boolean active, final Map<String, Map<String, Long>> sessionsBySwitch, final long fabricSessions,
            final long paths, final long incompletePaths, final long asymmetricPaths,
            final Map<ProblemKind, Long> problems, final List<AgentFacts> agents,
            final Map<String, Long> sessionUpdates, final Map<String, Double> ingestLag, final double takenAt,
            final double recomputeSeconds, final long pathFailedCommits,
            final Map<String, Map<String, Long>> originsBySwitch, final Map<String, Map<String, Long>> oneWayBySwitch,
            final List<PortEcn> ecnByPort, final long congestedSessions, final List<HeldPort> heldUp) {
        this(active, sessionsBySwitch, fabricSessions, paths, incompletePaths, asymmetricPaths, problems, agents,
            sessionUpdates, ingestLag, takenAt, recomputeSeconds, pathFailedCommits, originsBySwitch, oneWayBySwitch,
            ecnByPort, congestedSessions, heldUp, 0, 0);
    }

    /** A snapshot without congestion figures. */
    @SuppressWarnings("checkstyle:ParameterNumber")
    Snapshot(final boolean active, final Map<String, Map<String, Long>> sessionsBySwitch, final long fabricSessions,
            final long paths, final long incompletePaths, final long asymmetricPaths,
            final Map<ProblemKind, Long> problems, final List<AgentFacts> agents,
            final Map<String, Long> sessionUpdates, final Map<String, Double> ingestLag, final double takenAt,
            final double recomputeSeconds, final long pathFailedCommits,
            final Map<String, Map<String, Long>> originsBySwitch, final Map<String, Map<String, Long>> oneWayBySwitch) {
        this(active, sessionsBySwitch, fabricSessions, paths, incompletePaths, asymmetricPaths, problems, agents,
            sessionUpdates, ingestLag, takenAt, recomputeSeconds, pathFailedCommits, originsBySwitch, oneWayBySwitch,
            List.of(), 0, List.of());
    }

    /** A snapshot without the sessions' origins (all learnt from CM, or not counted). */
    @SuppressWarnings("checkstyle:ParameterNumber")
    Snapshot(final boolean active, final Map<String, Map<String, Long>> sessionsBySwitch, final long fabricSessions,
            final long paths, final long incompletePaths, final long asymmetricPaths,
            final Map<ProblemKind, Long> problems, final List<AgentFacts> agents,
            final Map<String, Long> sessionUpdates, final Map<String, Double> ingestLag, final double takenAt,
            final double recomputeSeconds, final long pathFailedCommits) {
        this(active, sessionsBySwitch, fabricSessions, paths, incompletePaths, asymmetricPaths, problems, agents,
            sessionUpdates, ingestLag, takenAt, recomputeSeconds, pathFailedCommits, Map.of(), Map.of());
    }

    private static Map<String, Map<String, Long>> copy(final Map<String, Map<String, Long>> bySwitch) {
        final Map<String, Map<String, Long>> out = new java.util.HashMap<>();
        bySwitch.forEach((sw, counts) -> out.put(sw, Map.copyOf(counts)));
        return Map.copyOf(out);
    }

    /** This snapshot with the agents' facts and the ingest figures as they are now. */
    Snapshot withLive(final Collection<AgentFacts> nowAgents, final Map<String, Long> nowUpdates,
            final Map<String, Double> nowLag, final long nowPathFailedCommits) {
        return new Snapshot(active, sessionsBySwitch, fabricSessions, paths, incompletePaths, asymmetricPaths,
            problems, List.copyOf(nowAgents), nowUpdates, nowLag, takenAt, recomputeSeconds, nowPathFailedCommits,
            originsBySwitch, oneWayBySwitch, ecnByPort, congestedSessions, heldUp, lldpLinks, lldpDisagreements);
    }
}
