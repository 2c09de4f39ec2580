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
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.eclipse.jdt.annotation.Nullable;

/**
 * The fabric as the agents' LLDP neighbours draw it: which node and port each neighbour heard on
 * a switch's port is, the links between them (both directions), and the links the neighbours
 * contradict. Pure: the same switches give the same graph.
 *
 * <p>A neighbour heard on switch A's port p is resolved to a node, in this order: the switch one
 * of whose interfaces has the neighbour's chassis ID or port ID as its MAC (subtype
 * {@code mac_address}); the switch whose node-id, else agent id, is the neighbour's system name;
 * the switch whose agent address is one of the neighbour's management addresses; else, no switch
 * of the controller's: a switch node without agent when the neighbour has bridge or router
 * enabled, otherwise a host node named by its system name (else {@code host:} and its chassis
 * ID) with its management addresses as IP addresses. Its port: with a Port ID of subtype
 * {@code mac_address}, the interface of that MAC on the resolved switch, else the port
 * description when it names an interface of the switch, else the Port ID's text; with another
 * subtype the Port ID's text, unless the resolved switch's agent reports interfaces and none of
 * that name while the port description names one.
 *
 * <p>Each claim A:p to B:q is one undirected link. A link is contested, and neither of its
 * directions written, when B's agent hears on q neighbours none of which is A:p (mismatch), or
 * when one of its ends belongs to another link too (claimed-twice: two ports say their neighbour
 * is the same far port, or a port hears several neighbours).
 */
final class LldpFabric {
    /** The topology's id (docs/INTERFACES). */
    static final String TOPOLOGY_ID = "rst-lldp";
    private static final String MAC_SUBTYPE = "mac_address";

    private LldpFabric() {
    }

    /**
     * One LLDP neighbour a switch's agent hears.
     *
     * @param capabilities the neighbour's enabled capabilities ({@code bridge}, {@code router}
     *        ...), empty when it sends none
     */
    record Neighbour(String iface, String chassisId, @Nullable String chassisIdSubtype, String portId,
            @Nullable String portIdSubtype, @Nullable String portDescription, @Nullable String systemName,
            List<String> managementAddresses, List<String> capabilities) {
        Neighbour {
            requireNonNull(iface);
            requireNonNull(chassisId);
            requireNonNull(portId);
            managementAddresses = List.copyOf(managementAddresses);
            capabilities = List.copyOf(capabilities);
        }

        boolean forwards() {
            return capabilities.contains("bridge") || capabilities.contains("router");
        }
    }

    /**
     * A switch of the controller's (rdma-flow-table's operational list) as its agent last
     * reported.
     *
     * @param interfaces its capture interfaces: name to MAC (lower-case colon hex), "" when unknown
     */
    record Switch(String nodeId, @Nullable String agentId, @Nullable String agentAddress,
            Map<String, String> interfaces, List<Neighbour> neighbours) {
        Switch {
            requireNonNull(nodeId);
            interfaces = Map.copyOf(interfaces);
            neighbours = List.copyOf(neighbours);
        }
    }

    /** A node and one of its ports. */
    record End(String node, String tp) implements Comparable<End> {
        @Override
        public int compareTo(final End other) {
            final int c = node.compareTo(other.node);
            return c != 0 ? c : tp.compareTo(other.tp);
        }

        @Override
        public String toString() {
            return node + ":" + tp;
        }
    }

    /** A node of the topology: its kind, ports and (for a host) IP addresses, sorted. */
    record Node(String id, boolean isSwitch, Set<String> tps, Set<String> ips) {
    }

    /** One direction of a link; its id is the source end's {@code NODE:TP}. */
    record Link(End source, End destination) {
        String id() {
            return source.toString();
        }
    }

    /** A contested link: who says what. */
    record Disagreement(String id, boolean mismatch, End claimer, End far, String peerSays, String detail) {
    }

    /** What the neighbours draw: nodes by id, links by id, disagreements by id, all sorted. */
    record Graph(Map<String, Node> nodes, Map<String, Link> links, Map<String, Disagreement> disagreements) {
        static final Graph EMPTY = new Graph(Map.of(), Map.of(), Map.of());
    }

    /** A neighbour resolved: its node, whether a switch, the switch of the controller's if one, its port. */
    private record Resolved(End end, boolean isSwitch, @Nullable Switch agent, List<String> ips) {
    }

    /** The graph the switches' neighbours draw. */
    static Graph build(final Collection<Switch> switches) {
        final Map<String, Switch> byId = new TreeMap<>();
        switches.forEach(s -> byId.put(s.nodeId(), s));
        final Map<String, Switch> byMac = new HashMap<>();
        final Map<String, Switch> byAgentId = new HashMap<>();
        final Map<String, Switch> byAddress = new HashMap<>();
        for (var s : byId.values()) {
            s.interfaces().values().stream().filter(m -> !m.isEmpty()).forEach(m -> byMac.putIfAbsent(m, s));
            if (s.agentId() != null) {
                byAgentId.putIfAbsent(s.agentId(), s);
            }
            if (s.agentAddress() != null) {
                byAddress.putIfAbsent(address(s.agentAddress()), s);
            }
        }
        final Map<String, Node> nodes = new TreeMap<>();
        // per port of an agent's switch, the far ends its agent hears there
        final Map<End, Set<End>> hears = new HashMap<>();
        // each claim: the end that heard, the far end
        final Map<End, Set<End>> edges = new HashMap<>();
        final Set<List<End>> claims = new LinkedHashSet<>();
        for (var s : byId.values()) {
            for (var n : s.neighbours()) {
                final var here = new End(s.nodeId(), n.iface());
                addNode(nodes, s.nodeId(), true, here.tp(), List.of());
                final var far = resolve(n, byId, byMac, byAgentId, byAddress);
                addNode(nodes, far.end().node(), far.isSwitch(), far.end().tp(), far.ips());
                hears.computeIfAbsent(here, e -> new TreeSet<>()).add(far.end());
                claims.add(List.of(here, far.end()));
                edges.computeIfAbsent(here, e -> new TreeSet<>()).add(far.end());
                edges.computeIfAbsent(far.end(), e -> new TreeSet<>()).add(here);
            }
        }
        final Map<String, Link> links = new TreeMap<>();
        final Map<String, Disagreement> disagreements = new TreeMap<>();
        for (var claim : claims) {
            final End here = claim.get(0);
            final End far = claim.get(1);
            final Set<End> farHears = hears.get(far);
            final boolean mismatch = byId.containsKey(far.node()) && farHears != null && !farHears.contains(here);
            final End shared = edges.get(far).size() > 1 ? far : edges.get(here).size() > 1 ? here : null;
            if (!mismatch && shared == null) {
                links.put(here.toString(), new Link(here, far));
                links.put(far.toString(), new Link(far, here));
                continue;
            }
            // a link claimed from both ends is one disagreement, named from the lesser end
            final boolean mutual = farHears != null && farHears.contains(here);
            if (mutual && far.compareTo(here) < 0) {
                continue;
            }
            final String id = here + "->" + far;
            if (mismatch) {
                final String instead = join(farHears);
                disagreements.put(id, new Disagreement(id, true, here, far, instead, here + " says its neighbour is "
                    + far + ", but " + far.node() + "'s agent hears " + instead + " on " + far.tp()
                    + ": the link is left out"));
            } else {
                final Set<End> others = new TreeSet<>(edges.get(shared));
                others.remove(shared == far ? here : far);
                final String detail = here + " says its neighbour is " + far + ", but " + shared
                    + " is linked to " + join(others) + " too by the neighbours heard: the links are left out";
                disagreements.put(id, new Disagreement(id, false, here, far, join(others), detail));
            }
        }
        return new Graph(sorted(nodes), sorted(links), sorted(disagreements));
    }

    private static <V> Map<String, V> sorted(final Map<String, V> map) {
        return java.util.Collections.unmodifiableMap(new TreeMap<>(map));
    }

    private static String join(final Collection<End> ends) {
        return ends.stream().map(End::toString).collect(Collectors.joining(", "));
    }

    private static void addNode(final Map<String, Node> nodes, final String id, final boolean isSwitch,
            final String tp, final List<String> ips) {
        final var old = nodes.get(id);
        final Set<String> tps = new TreeSet<>();
        final Set<String> addresses = new TreeSet<>();
        if (old != null) {
            tps.addAll(old.tps());
            addresses.addAll(old.ips());
        }
        tps.add(tp);
        if (!isSwitch) {
            addresses.addAll(ips);
        }
        // a node one agent's switch names is a switch, whatever another's neighbour says
        nodes.put(id, new Node(id, isSwitch || old != null && old.isSwitch(), Set.copyOf(tps), Set.copyOf(addresses)));
    }

    private static Resolved resolve(final Neighbour heard, final Map<String, Switch> byId,
            final Map<String, Switch> byMac, final Map<String, Switch> byAgentId, final Map<String, Switch> byAddress) {
        Switch agent = null;
        if (MAC_SUBTYPE.equals(heard.chassisIdSubtype())) {
            agent = byMac.get(heard.chassisId().toLowerCase(Locale.ROOT));
        }
        if (agent == null && MAC_SUBTYPE.equals(heard.portIdSubtype())) {
            agent = byMac.get(heard.portId().toLowerCase(Locale.ROOT));
        }
        final String name = heard.systemName();
        if (agent == null && name != null && !name.isEmpty()) {
            agent = byId.get(name);
            if (agent == null) {
                agent = byAgentId.get(name);
            }
        }
        if (agent == null) {
            for (var a : heard.managementAddresses()) {
                agent = byAddress.get(address(a));
                if (agent != null) {
                    break;
                }
            }
        }
        if (agent != null) {
            return new Resolved(new End(agent.nodeId(), port(heard, agent)), true, agent, List.of());
        }
        final boolean named = name != null && !name.isEmpty();
        if (heard.forwards()) {
            return new Resolved(new End(named ? name : heard.chassisId(), heard.portId()), true, null, List.of());
        }
        return new Resolved(new End(named ? name : "host:" + heard.chassisId(), heard.portId()), false, null,
            heard.managementAddresses());
    }

    /** The neighbour's port on {@code agent}'s switch. */
    private static String port(final Neighbour heard, final Switch agent) {
        final var interfaces = agent.interfaces();
        final String description = heard.portDescription();
        final boolean describes = description != null && interfaces.containsKey(description);
        if (MAC_SUBTYPE.equals(heard.portIdSubtype())) {
            final String mac = heard.portId().toLowerCase(Locale.ROOT);
            for (var e : new TreeMap<>(interfaces).entrySet()) {
                if (mac.equals(e.getValue())) {
                    return e.getKey();
                }
            }
            return describes ? description : heard.portId();
        }
        if (!interfaces.isEmpty() && !interfaces.containsKey(heard.portId()) && describes) {
            return description;
        }
        return heard.portId();
    }

    /** An address as compared: an IP literal in its canonical form, a name in lower case. */
    private static String address(final String text) {
        final String t = text.trim();
        return InetAddresses.isInetAddress(t) ? InetAddresses.toAddrString(InetAddresses.forString(t))
            : t.toLowerCase(Locale.ROOT);
    }
}
