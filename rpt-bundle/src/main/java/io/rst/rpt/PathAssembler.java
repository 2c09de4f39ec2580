/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rpt;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.eclipse.jdt.annotation.Nullable;

/**
 * Orders one direction's observations of a session into a path, hop by hop, with the topology's
 * links. Pure: no datastore, no threads.
 *
 * <p>Each observation says that a switch saw the direction's CM messages enter on a port. The link
 * that ends on that port names the previous node; if that node is a switch that also saw the
 * traffic, the two hops chain (and the link's source port is the previous hop's egress). A hop whose
 * feeding node is not an RFT switch (a host, or no link known) starts a chain. A feeding node that
 * IS an RFT switch but saw nothing is a gap: reported, never papered over.
 */
final class PathAssembler {
    /**
     * A switch's sighting of one direction of a session.
     *
     * @param node the switch
     * @param ingressTp the port where the messages entered, or null if the switch did not say
     * @param firstSeenMicros when it first saw them
     */
    record Observation(String node, @Nullable String ingressTp, long firstSeenMicros) {
    }

    /**
     * One hop of an assembled path.
     *
     * @param node the switch
     * @param ingressTp where the traffic entered
     * @param egressTp where it left, from the link to the next hop, or null where unknown
     * @param observed whether the switch saw the traffic (else inferred)
     */
    record HopResult(String node, @Nullable String ingressTp, @Nullable String egressTp, boolean observed) {
    }

    /**
     * An assembled direction.
     *
     * @param hops the hops from the sender's side
     * @param complete whether the hops form one unbroken chain
     * @param gaps why not, one line per gap
     */
    record DirectionResult(List<HopResult> hops, boolean complete, List<String> gaps) {
        static final DirectionResult EMPTY = new DirectionResult(List.of(), false, List.of("no switch saw this direction"));
    }

    private PathAssembler() {
        // utility
    }

    static DirectionResult assemble(final List<Observation> observations, final LinkIndex links,
            final Set<String> rftSwitches) {
        if (observations.isEmpty()) {
            return DirectionResult.EMPTY;
        }
        final Map<String, Observation> byNode = new HashMap<>();
        for (var obs : observations) {
            byNode.merge(obs.node(), obs, (a, b) -> a.firstSeenMicros() <= b.firstSeenMicros() ? a : b);
        }
        // predecessor of each observed hop, by the link that ends on its ingress port
        final Map<String, LinkIndex.End> feeding = new HashMap<>();
        final Map<String, String> nextOf = new HashMap<>();
        final List<String> gaps = new ArrayList<>();
        for (var obs : byNode.values()) {
            if (obs.ingressTp() == null) {
                gaps.add(obs.node() + " did not say on which port the session's messages entered");
                continue;
            }
            final var src = links.feeding(obs.node(), obs.ingressTp());
            if (src == null) {
                continue;
            }
            feeding.put(obs.node(), src);
            if (byNode.containsKey(src.node()) && !src.node().equals(obs.node())) {
                if (nextOf.putIfAbsent(src.node(), obs.node()) != null) {
                    gaps.add(src.node() + " forwards the same direction to more than one switch");
                }
            } else if (rftSwitches.contains(src.node())) {
                gaps.add("switch " + src.node() + " (port " + src.tp() + ") feeds " + obs.node() + ":"
                    + obs.ingressTp() + " but RFT there saw nothing (off, late, or lost)");
            }
        }
        // chain starts: observed hops not fed by another observed hop; earliest first
        final var starts = byNode.values().stream()
            .filter(obs -> {
                final var src = feeding.get(obs.node());
                return src == null || !byNode.containsKey(src.node()) || src.node().equals(obs.node());
            })
            .sorted(Comparator.comparingLong(Observation::firstSeenMicros).thenComparing(Observation::node))
            .toList();
        final List<HopResult> hops = new ArrayList<>();
        final var placed = new java.util.HashSet<String>();
        for (var start : starts) {
            if (!hops.isEmpty()) {
                gaps.add("path breaks before " + start.node());
            }
            String node = start.node();
            while (node != null && placed.add(node)) {
                final var obs = byNode.get(node);
                final var next = nextOf.get(node);
                final String egress = next == null ? null : feeding.get(next).tp();
                hops.add(new HopResult(node, obs.ingressTp(), egress, true));
                node = next;
            }
        }
        for (var obs : byNode.values()) {
            if (!placed.contains(obs.node())) {
                // a loop among the observations: report it, keep the hop
                gaps.add(obs.node() + " is on a forwarding loop");
                hops.add(new HopResult(obs.node(), obs.ingressTp(), null, true));
            }
        }
        return new DirectionResult(List.copyOf(hops), gaps.isEmpty(), List.copyOf(gaps));
    }

    /**
     * Whether the reverse path does not cross the forward path's switches in reverse order.
     */
    static boolean asymmetric(final DirectionResult forward, final DirectionResult reverse) {
        if (forward.hops().isEmpty() || reverse.hops().isEmpty()) {
            return false;
        }
        final var fwd = forward.hops().stream().map(HopResult::node).toList();
        final var rev = new ArrayList<>(reverse.hops().stream().map(HopResult::node).toList());
        java.util.Collections.reverse(rev);
        return !fwd.equals(rev);
    }
}
