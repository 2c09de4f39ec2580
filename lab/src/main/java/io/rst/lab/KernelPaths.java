/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.lab;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The truth every RST path is checked against: where the kernel forwards a packet, asked hop by
 * hop with {@code ip route get DST from SRC iif IN ipproto udp sport S dport 4791} in each
 * switch's namespace (without {@code iif} in the sending host's, where the packet is locally
 * made), following each answer's device to the next namespace until the destination host. The
 * questions of one round go to each namespace as one {@code ip -batch}.
 */
public final class KernelPaths {
    /**
     * A hop as the kernel forwards it.
     *
     * @param node the switch
     * @param ingress where the packet enters it
     * @param egress where the kernel sends it on
     */
    public record Hop(String node, String ingress, String egress) {
    }

    /**
     * One direction of one flow.
     *
     * @param srcHost the sending host
     * @param srcIp source address
     * @param dstIp destination address
     * @param sport UDP source port (the destination port is 4791)
     */
    public record Flow(String srcHost, String srcIp, String dstIp, int sport) {
    }

    private static final Pattern DEV = Pattern.compile("\\bdev (\\S+)");
    private static final int MAX_HOPS = 16;

    private KernelPaths() {
        // utility
    }

    /** The switches each flow crosses, in order, with their ports, as the kernel forwards it now. */
    public static Map<Flow, List<Hop>> trace(final Fabric fabric, final Collection<Flow> flows) {
        final var hostsByIp = fabric.hostsByIp();
        final Map<Flow, List<Hop>> out = new LinkedHashMap<>();
        // where each flow is: node and ingress port (null in the sending host)
        final Map<Flow, String[]> at = new LinkedHashMap<>();
        for (var f : flows) {
            out.put(f, new ArrayList<>());
            at.put(f, new String[] {f.srcHost(), null});
        }
        for (int round = 0; round <= MAX_HOPS && !at.isEmpty(); round++) {
            final Map<String, List<Flow>> byNode = new LinkedHashMap<>();
            for (var e : at.entrySet()) {
                byNode.computeIfAbsent(e.getValue()[0], k -> new ArrayList<>()).add(e.getKey());
            }
            for (var e : byNode.entrySet()) {
                final String node = e.getKey();
                final List<String> lines = new ArrayList<>();
                for (var f : e.getValue()) {
                    final String in = at.get(f)[1];
                    lines.add("route get " + f.dstIp() + " from " + f.srcIp() + (in == null ? "" : " iif " + in)
                        + " ipproto udp sport " + f.sport() + " dport 4791");
                }
                final var answers = Shell.ipBatch(Fabric.NS_PREFIX + node, lines, true).strip().split("\n");
                if (answers.length != lines.size()) {
                    throw new LabException("ip route get in " + node + ": " + lines.size() + " questions, "
                        + answers.length + " answers");
                }
                for (int i = 0; i < answers.length; i++) {
                    final var f = e.getValue().get(i);
                    final var m = DEV.matcher(answers[i]);
                    if (!m.find()) {
                        throw new LabException("ip route get in " + node + " gave no device: " + answers[i]);
                    }
                    final String dev = m.group(1);
                    final var next = fabric.peer(node, dev);
                    final String in = at.get(f)[1];
                    if (in != null) {
                        out.get(f).add(new Hop(node, in, dev));
                    }
                    if (next.node().equals(hostsByIp.get(f.dstIp()))) {
                        at.remove(f);
                    } else if (!fabric.node(next.node()).isSwitch()) {
                        throw new LabException("the kernel sends " + f + " to host " + next.node());
                    } else {
                        at.put(f, new String[] {next.node(), next.name()});
                    }
                }
            }
        }
        if (!at.isEmpty()) {
            throw new LabException("no destination after " + MAX_HOPS + " hops for " + at.keySet().iterator().next());
        }
        return out;
    }
}
