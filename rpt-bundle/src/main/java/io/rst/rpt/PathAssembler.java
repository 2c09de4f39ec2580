/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rpt;

import static java.util.Objects.requireNonNull;

import io.rst.rpt.Congestion.Figures;
import io.rst.rpt.Congestion.Summary;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.eclipse.jdt.annotation.Nullable;

/**
 * Orders one direction's observations of a session into a path from the sending host to the
 * receiving host, hop by hop, with the topology's links. Pure: no datastore, no threads.
 *
 * <p>Each observation says that a switch saw the direction's CM messages enter on a port. The link
 * that ends on that port names the previous node; if that node is a switch that also saw the
 * traffic, the two hops chain (and the link's source port is the previous hop's egress). A hop whose
 * feeding node is not an RFT switch (a host, or no link known) starts a chain; a host there is the
 * path's source. The receiving host is the host node holding the receiver's IP; the link from the
 * last hop to it gives the last egress port.
 *
 * <p>A feeding node that IS an RFT switch but saw nothing is a gap, reported by name, never papered
 * over. Where the topology makes the missing hop unique, the hop is put in the path with
 * {@code observed false} (and the gap still says so):
 * <pre>
 *   observed P --link--&gt; silent S --link--&gt; observed H     P the only chain end with a link to S
 *   source host --link--&gt; silent S --link--&gt; observed H    no observed hop before S, and the host
 *                                                         sits on S (its link names S's ingress)
 *   observed L --link--&gt; silent S --link--&gt; destination host    S the only silent RFT switch
 *                                                              between L and the host
 * </pre>
 */
final class PathAssembler {
    /** Observations by the time they were first seen, then by node. */
    private static final Comparator<Observation> EARLIEST_FIRST =
        Comparator.comparingLong(Observation::firstSeenMicros).thenComparing(Observation::node);

    /** Why a switch on the way is silent, in a gap. */
    static final String SILENT = "RFT there saw nothing (off, agent down, or lost)";

    /**
     * A switch's sighting of one direction of a session.
     *
     * @param node the switch
     * @param ingressTp the port where the messages entered, or null if the switch did not say
     * @param firstSeenMicros when it first saw them
     * @param figures a data direction's congestion figures at the switch, or null (CM, or none reported)
     */
    record Observation(String node, @Nullable String ingressTp, long firstSeenMicros,
            @Nullable Figures figures) {
        Observation {
            requireNonNull(node);
        }

        /** A sighting without congestion figures. */
        Observation(final String node, final @Nullable String ingressTp, final long firstSeenMicros) {
            this(node, ingressTp, firstSeenMicros, null);
        }
    }

    /**
     * One hop of an assembled path.
     *
     * @param node the switch
     * @param ingressTp where the traffic entered
     * @param egressTp where it left, from the link to the next hop (or to the destination host), or
     *        null where unknown
     * @param observed whether the switch saw the traffic (else inferred from the topology)
     * @param figures a data path's congestion figures at the switch (its observation's), or null
     */
    record HopResult(String node, @Nullable String ingressTp, @Nullable String egressTp, boolean observed,
            @Nullable Figures figures) {
        HopResult {
            requireNonNull(node);
        }

        /** A hop without congestion figures. */
        HopResult(final String node, final @Nullable String ingressTp, final @Nullable String egressTp,
                final boolean observed) {
            this(node, ingressTp, egressTp, observed, null);
        }
    }

    /**
     * One end of a path: a host and, where the links say, its port.
     *
     * @param node the host's node id
     * @param tp the host's port, or null where unknown
     */
    record HostEnd(String node, @Nullable String tp) {
        HostEnd {
            requireNonNull(node);
        }
    }

    /**
     * An assembled direction.
     *
     * @param hops the hops from the sender's side
     * @param complete whether every hop was observed and they form one unbroken chain
     * @param gaps why not, one line per gap
     * @param source the sending host, or null where unknown
     * @param destination the receiving host, or null where unknown
     * @param congestion a data path's congestion ({@link Congestion#of}), or null where it has none
     */
    record DirectionResult(List<HopResult> hops, boolean complete, List<String> gaps, @Nullable HostEnd source,
            @Nullable HostEnd destination, @Nullable Summary congestion) {
        DirectionResult {
            hops = List.copyOf(hops);
            gaps = List.copyOf(gaps);
        }

        /** A direction without congestion figures. */
        DirectionResult(final List<HopResult> hops, final boolean complete, final List<String> gaps,
                final @Nullable HostEnd source, final @Nullable HostEnd destination) {
            this(hops, complete, gaps, source, destination, null);
        }

        /** This direction with {@code summary} as its congestion. */
        DirectionResult withCongestion(final @Nullable Summary summary) {
            return new DirectionResult(hops, complete, gaps, source, destination, summary);
        }
    }

    /**
     * The fabric as the links and the hosts describe it, the switches RFT knows, and the priority
     * each DSCP has in it.
     */
    record Fabric(LinkIndex links, HostIndex hosts, Set<String> rftSwitches, DscpMap dscp) {
        Fabric {
            requireNonNull(links);
            requireNonNull(hosts);
            requireNonNull(rftSwitches);
            requireNonNull(dscp);
        }

        /** A fabric with the default DSCP map. */
        Fabric(final LinkIndex links, final HostIndex hosts, final Set<String> rftSwitches) {
            this(links, hosts, rftSwitches, DscpMap.DEFAULT);
        }
    }

    /** A hop while the path is being put together. */
    private static final class Hop {
        final String node;
        final @Nullable String ingressTp;
        @Nullable String egressTp;
        final boolean observed;
        final @Nullable Figures figures;

        Hop(final String node, final @Nullable String ingressTp, final @Nullable String egressTp,
                final boolean observed) {
            this(node, ingressTp, egressTp, observed, null);
        }

        Hop(final String node, final @Nullable String ingressTp, final @Nullable String egressTp,
                final boolean observed, final @Nullable Figures figures) {
            this.node = node;
            this.ingressTp = ingressTp;
            this.egressTp = egressTp;
            this.observed = observed;
            this.figures = figures;
        }

        HopResult result() {
            return new HopResult(node, ingressTp, egressTp, observed, figures);
        }
    }

    private PathAssembler() {
        // utility
    }

    /**
     * Assembles one direction.
     *
     * @param observations what the switches saw of it
     * @param fabric links, hosts and RFT switches
     * @param senderIp the IP address the direction's messages come from, or null
     * @param receiverIp the IP address they go to, or null
     */
    static DirectionResult assemble(final List<Observation> observations, final Fabric fabric,
            final @Nullable String senderIp, final @Nullable String receiverIp) {
        final var links = fabric.links();
        final var hosts = fabric.hosts();
        final String srcHost = hosts.hostOf(senderIp);
        final String dstHost = hosts.hostOf(receiverIp);
        if (observations.isEmpty()) {
            return new DirectionResult(List.of(), false, List.of("no switch saw this direction"),
                srcHost == null ? null : new HostEnd(srcHost, null),
                dstHost == null ? null : new HostEnd(dstHost, null));
        }
        final Map<String, Observation> byNode = new HashMap<>();
        for (var obs : observations) {
            byNode.merge(obs.node(), obs, (a, b) -> a.firstSeenMicros() <= b.firstSeenMicros() ? a : b);
        }
        // predecessor of each observed hop, by the link that ends on its ingress port
        final Map<String, LinkIndex.End> feeding = new HashMap<>();
        final Map<String, String> nextOf = new HashMap<>();
        final List<String> gaps = new ArrayList<>();
        // earliest first (the same order each time: by time, then by node)
        final var ordered = sorted(byNode.values());
        for (var obs : ordered) {
            if (obs.ingressTp() == null) {
                gaps.add(obs.node() + " did not say on which port the session's messages entered");
                continue;
            }
            final var src = links.feeding(obs.node(), obs.ingressTp());
            if (src == null) {
                continue;
            }
            feeding.put(obs.node(), src);
            if (byNode.containsKey(src.node()) && !src.node().equals(obs.node())
                    && nextOf.putIfAbsent(src.node(), obs.node()) != null) {
                gaps.add(src.node() + " forwards the same direction to more than one switch");
            }
        }

        // chains of observed hops: each starts at a hop not fed by another observed hop; earliest first
        final List<List<Hop>> chains = new ArrayList<>();
        final Set<String> placed = new HashSet<>();
        for (var start : ordered) {
            final var src = feeding.get(start.node());
            if (src != null && byNode.containsKey(src.node()) && !src.node().equals(start.node())
                    && start.node().equals(nextOf.get(src.node()))) {
                continue;
            }
            final List<Hop> chain = new ArrayList<>();
            String node = start.node();
            while (node != null && placed.add(node)) {
                final var next = nextOf.get(node);
                final var seen = byNode.get(node);
                chain.add(new Hop(node, seen.ingressTp(), next == null ? null : feeding.get(next).tp(), true,
                    seen.figures()));
                node = next;
            }
            chains.add(chain);
        }
        for (var obs : ordered) {
            if (!placed.contains(obs.node())) {
                // a loop among the observations: report it, keep the hop
                gaps.add(obs.node() + " is on a forwarding loop");
                chains.add(new ArrayList<>(List.of(new Hop(obs.node(), obs.ingressTp(), null, true, obs.figures()))));
            }
        }

        joinAcrossSilentSwitches(chains, byNode, feeding, fabric, srcHost, gaps);
        endsInPlace(chains, fabric, srcHost, dstHost);
        final HostEnd source = source(chains.get(0).get(0), feeding, fabric, srcHost, gaps);
        for (int i = 1; i < chains.size(); i++) {
            final var start = chains.get(i).get(0);
            final var from = start.ingressTp == null ? null : links.feeding(start.node, start.ingressTp);
            gaps.add("path breaks before " + start.node + (from == null ? ""
                : " (it came from " + from.node() + " port " + from.tp()
                    + (fabric.rftSwitches().contains(from.node()) ? ")" : ", which RFT does not trace)")));
        }
        final HostEnd destination = destination(chains, byNode, fabric, dstHost, gaps);

        final List<HopResult> hops = new ArrayList<>();
        for (var chain : chains) {
            for (var hop : chain) {
                hops.add(hop.result());
            }
        }
        return new DirectionResult(hops, gaps.isEmpty(), gaps, source, destination);
    }

    /**
     * Each chain that starts at a hop fed by a silent RFT switch: joined to the one chain whose last
     * hop has the one link to that switch (the switch inferred in between), or started at the switch
     * when no observed hop links to it but the source host does; otherwise a gap.
     */
    private static void joinAcrossSilentSwitches(final List<List<Hop>> chains, final Map<String, Observation> byNode,
            final Map<String, LinkIndex.End> feeding, final Fabric fabric, final @Nullable String srcHost,
            final List<String> gaps) {
        final var links = fabric.links();
        // chain starts already reported: each gap is said once
        final Set<String> handled = new HashSet<>();
        boolean joined = true;
        while (joined) {
            joined = false;
            for (int i = 0; i < chains.size() && !joined; i++) {
                final var chain = chains.get(i);
                final var first = chain.get(0);
                final var silent = first.observed ? feeding.get(first.node) : null;
                if (silent == null || byNode.containsKey(silent.node()) || !isRftSwitchNode(silent.node(), fabric)
                        || !handled.add(first.node)) {
                    continue;
                }
                // the chains whose last hop links to the silent switch
                final List<LinkIndex.Link> candidates = new ArrayList<>();
                int from = -1;
                for (int j = 0; j < chains.size(); j++) {
                    final var last = chains.get(j).get(chains.get(j).size() - 1);
                    if (j != i && last.egressTp == null) {
                        final var between = links.between(last.node, silent.node());
                        if (!between.isEmpty()) {
                            candidates.addAll(between);
                            from = j;
                        }
                    }
                }
                final String saw = "switch " + silent.node() + " (port " + silent.tp() + ") feeds " + first.node + ":"
                    + first.ingressTp + " but " + SILENT;
                final boolean inPath = nodesOf(chains).contains(silent.node());
                if (candidates.size() == 1 && !inPath) {
                    final var link = candidates.get(0);
                    final var before = chains.get(from);
                    before.get(before.size() - 1).egressTp = link.source().tp();
                    before.add(new Hop(silent.node(), link.dest().tp(), silent.tp(), false));
                    before.addAll(chain);
                    chains.remove(i);
                    gaps.add(saw + "; hop " + silent.node() + " inferred from topology (the only switch between "
                        + link.source().node() + " and " + first.node + ")");
                    joined = true;
                } else if (candidates.isEmpty() && !inPath && srcHost != null
                        && links.between(srcHost, silent.node()).size() == 1) {
                    // the first switch: the source host is on it, and no observed hop leads to it
                    final var link = links.between(srcHost, silent.node()).get(0);
                    chain.add(0, new Hop(silent.node(), link.dest().tp(), silent.tp(), false));
                    gaps.add(saw + "; hop " + silent.node() + " inferred from topology (the source host " + srcHost
                        + " is on it and it feeds " + first.node + ")");
                    joined = true;
                } else {
                    gaps.add(saw + (candidates.size() > 1 ? "; no hop inferred: more than one link leads there" : ""));
                }
            }
        }
        // chains in the order their first hop saw the traffic
        chains.sort(Comparator.comparingLong((List<Hop> c) -> firstSeen(c, byNode)).thenComparing(c -> c.get(0).node));
    }

    /**
     * Where the path stays broken, the pieces are in time order; switches' clocks may disagree, so
     * the piece that starts at the source host goes first and the one that reaches the destination
     * host last, whatever their times.
     */
    private static void endsInPlace(final List<List<Hop>> chains, final Fabric fabric, final @Nullable String srcHost,
            final @Nullable String dstHost) {
        if (chains.size() < 2) {
            return;
        }
        final var links = fabric.links();
        for (int i = 0; i < chains.size(); i++) {
            final var first = chains.get(i).get(0);
            final var src = first.ingressTp == null ? null : links.feeding(first.node, first.ingressTp);
            if (src != null && (src.node().equals(srcHost) || fabric.hosts().isHost(src.node()))) {
                chains.add(0, chains.remove(i));
                break;
            }
        }
        if (dstHost != null) {
            for (int i = 0; i < chains.size(); i++) {
                final var chain = chains.get(i);
                if (i > 0 && !links.between(chain.get(chain.size() - 1).node, dstHost).isEmpty()) {
                    chains.add(chains.remove(i));
                    break;
                }
            }
        }
    }

    private static Set<String> nodesOf(final List<List<Hop>> chains) {
        final Set<String> nodes = new HashSet<>();
        for (var chain : chains) {
            for (var hop : chain) {
                nodes.add(hop.node);
            }
        }
        return nodes;
    }

    private static long firstSeen(final List<Hop> chain, final Map<String, Observation> byNode) {
        for (var hop : chain) {
            if (hop.observed) {
                return byNode.get(hop.node).firstSeenMicros();
            }
        }
        return Long.MAX_VALUE;
    }

    /** RFT knows the node, and the topology does not call it a host. */
    private static boolean isRftSwitchNode(final String node, final Fabric fabric) {
        return fabric.rftSwitches().contains(node) && !fabric.hosts().isHost(node);
    }

    /** Where the path starts: the node feeding the first hop, when it is no switch; else the sender's host. */
    private static @Nullable HostEnd source(final Hop first, final Map<String, LinkIndex.End> feeding,
            final Fabric fabric, final @Nullable String srcHost, final List<String> gaps) {
        if (first.ingressTp == null) {
            return srcHost == null ? null : new HostEnd(srcHost, null);
        }
        final var src = fabric.links().feeding(first.node, first.ingressTp);
        if (src == null) {
            return srcHost == null ? null : new HostEnd(srcHost, null);
        }
        if (fabric.hosts().isSwitch(src.node()) && !fabric.rftSwitches().contains(src.node())) {
            gaps.add("the traffic entered " + first.node + " from switch " + src.node() + ", which RFT does not trace");
            return srcHost == null ? null : new HostEnd(srcHost, null);
        }
        if (fabric.rftSwitches().contains(src.node()) && !fabric.hosts().isHost(src.node())) {
            // a silent switch feeds the first hop (its gap is reported): the host is further back
            return srcHost == null ? null : new HostEnd(srcHost, null);
        }
        return new HostEnd(src.node(), src.tp());
    }

    /**
     * Where the path ends: the host holding the receiver's IP; the last hop's egress is its link to
     * that host, or, when it has none, a silent RFT switch that is the only one between them is
     * inferred.
     */
    private static @Nullable HostEnd destination(final List<List<Hop>> chains, final Map<String, Observation> byNode,
            final Fabric fabric, final @Nullable String dstHost, final List<String> gaps) {
        if (dstHost == null) {
            return null;
        }
        final var lastChain = chains.get(chains.size() - 1);
        final var links = fabric.links();
        final var last = lastChain.get(lastChain.size() - 1);
        final var direct = links.between(last.node, dstHost);
        if (direct.size() == 1) {
            last.egressTp = direct.get(0).source().tp();
            return new HostEnd(dstHost, direct.get(0).dest().tp());
        }
        if (direct.size() > 1) {
            // parallel links to the host: the topology does not say which one
            return new HostEnd(dstHost, null);
        }
        final List<LinkIndex.Link> candidates = new ArrayList<>();
        final var inPath = nodesOf(chains);
        // nor the silent switch the path came from: routed traffic does not turn back
        final var first = chains.get(0).get(0);
        final var before = first.ingressTp == null ? null : links.feeding(first.node, first.ingressTp);
        if (before != null) {
            inPath.add(before.node());
        }
        for (var link : links.from(last.node)) {
            final var next = link.dest().node();
            if (!byNode.containsKey(next) && !inPath.contains(next) && isRftSwitchNode(next, fabric)
                    && !links.between(next, dstHost).isEmpty()) {
                candidates.add(link);
            }
        }
        if (candidates.size() == 1) {
            final var link = candidates.get(0);
            final var silent = link.dest().node();
            final var toHost = links.between(silent, dstHost);
            last.egressTp = link.source().tp();
            lastChain.add(new Hop(silent, link.dest().tp(), toHost.size() == 1 ? toHost.get(0).source().tp() : null,
                false));
            gaps.add("switch " + silent + " (port " + link.dest().tp() + ") is where " + last.node
                + " leads to the destination host " + dstHost + " but " + SILENT + ";"
                + " hop " + silent + " inferred from topology");
            return new HostEnd(dstHost, toHost.size() == 1 ? toHost.get(0).dest().tp() : null);
        }
        gaps.add("the path ends at " + last.node + ", which has no link to the destination host " + dstHost
            + (candidates.isEmpty() ? "" : "; more than one silent switch leads there: "
                + candidates.stream().map(l -> l.dest().node()).distinct().sorted().toList()));
        return new HostEnd(dstHost, null);
    }

    private static List<Observation> sorted(final java.util.Collection<Observation> observations) {
        final List<Observation> out = new ArrayList<>(observations);
        out.sort(EARLIEST_FIRST);
        return out;
    }

    /**
     * Whether the reverse path does not cross the forward path's switches in reverse order.
     */
    static boolean asymmetric(final DirectionResult forward, final DirectionResult reverse) {
        if (forward.hops().isEmpty() || reverse.hops().isEmpty()) {
            return false;
        }
        final var fwd = forward.hops();
        final var rev = reverse.hops();
        if (fwd.size() != rev.size()) {
            return true;
        }
        // the reverse's switches, last first, are the forward's
        for (int i = 0, last = rev.size() - 1; i <= last; i++) {
            if (!fwd.get(i).node().equals(rev.get(last - i).node())) {
                return true;
            }
        }
        return false;
    }
}
