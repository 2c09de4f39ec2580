/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.lab;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The lab's leaf-spine fabric on paper: nodes, ports, links, addresses and routes. Pure (no
 * process is started here), so the plan can be tested and printed without root.
 *
 * <pre>
 *   spine1 .. spineS          each spine: swpL faces leaf L, 10.254.S.(2L-2)/31
 *     |  \  /  |
 *   leaf1 .. leafL            each leaf: swp1..swpH face its hosts (10.L.i.1/24), then a port per
 *     |        |              dual-homed host of the previous leaf, then swpN+S faces spine S
 *   h1a h1b   hLa ..          each host: eth0 10.L.i.2/24 (its RDMA address), default route via
 *                             its leaf; a dual-homed host also has eth1 to the next leaf, its
 *                             RDMA address 10.200.L.(i+1)/32 on lo and an ECMP default route
 * </pre>
 * Layer 3 everywhere: each leaf routes the other leaves' 10.M.0.0/16 over all spines (ECMP,
 * L4 hash), each spine routes 10.L.0.0/16 to leaf L. Management: every switch has {@code mgmt0}
 * on 10.255.0.(10+n)/24, bridged to {@code rst-mgmt} (10.255.0.1) in the root namespace, where
 * the controller reaches its agent.
 *
 * @param spines number of spines (1..50)
 * @param leaves number of leaves (1..100)
 * @param hostsPerLeaf hosts under each leaf (1..26, named a..z)
 * @param dualHomed hosts that also attach to the next leaf (wrapping to leaf 1)
 */
public record Fabric(int spines, int leaves, int hostsPerLeaf, Set<String> dualHomed) {
    public static final String NS_PREFIX = "rst-";
    public static final String MGMT_BRIDGE = "rst-mgmt";
    public static final String MGMT_GATEWAY = "10.255.0.1";
    public static final int AGENT_PORT = 4791;

    /** What a node is. */
    public enum Kind { SPINE, LEAF, HOST }

    /**
     * A node: a network namespace named {@code rst-ID}.
     *
     * @param id the network-topology node id
     * @param kind spine, leaf or host
     * @param index 1-based spine or leaf number; for a host, its leaf
     */
    public record Node(String id, Kind kind, int index) {
        public Node {
            requireNonNull(id);
            requireNonNull(kind);
        }

        public String namespace() {
            return NS_PREFIX + id;
        }

        public boolean isSwitch() {
            return kind != Kind.HOST;
        }
    }

    /**
     * One end of a link: an interface (named as its termination point) with its address.
     *
     * @param node node id
     * @param name interface name, which is also the tp-id
     * @param cidr address with prefix length
     */
    public record Port(String node, String name, String cidr) {
        public Port {
            requireNonNull(node);
            requireNonNull(name);
            requireNonNull(cidr);
        }

        public String address() {
            return cidr.substring(0, cidr.indexOf('/'));
        }
    }

    /** A point-to-point link (one veth pair), {@code a} on the upper side (spine, or leaf for a host link). */
    public record Link(Port a, Port b) {
        public Link {
            requireNonNull(a);
            requireNonNull(b);
        }
    }

    public Fabric {
        if (spines < 1 || spines > 50) {
            throw new IllegalArgumentException("--spines must be 1..50, got " + spines);
        }
        if (leaves < 1 || leaves > 100) {
            throw new IllegalArgumentException("--leaves must be 1..100, got " + leaves);
        }
        if (hostsPerLeaf < 1 || hostsPerLeaf > 26) {
            throw new IllegalArgumentException("--hosts-per-leaf must be 1..26, got " + hostsPerLeaf);
        }
        dualHomed = Set.copyOf(new TreeSet<>(dualHomed));
        for (var h : dualHomed) {
            if (parseHost(h, leaves, hostsPerLeaf) == null) {
                throw new IllegalArgumentException("--dual-homed names no host of this fabric: " + h);
            }
            if (leaves < 2) {
                throw new IllegalArgumentException("a dual-homed host needs at least 2 leaves");
            }
        }
    }

    /** The default lab: 2 spines, 4 leaves, 2 hosts per leaf. */
    public static Fabric defaults() {
        return new Fabric(2, 4, 2, Set.of());
    }

    public static String hostId(final int leaf, final int index) {
        return "h" + leaf + (char) ('a' + index);
    }

    /** Where a host hangs: its leaf and its index under it. */
    record HostPos(int leaf, int index) {
    }

    /** The position of a host id of this shape, or null. */
    static HostPos parseHost(final String id, final int leaves, final int hostsPerLeaf) {
        if (id.length() < 3 || id.charAt(0) != 'h') {
            return null;
        }
        final char c = id.charAt(id.length() - 1);
        final int index = c - 'a';
        final int leaf;
        try {
            leaf = Integer.parseInt(id.substring(1, id.length() - 1));
        } catch (NumberFormatException e) {
            return null;
        }
        return leaf >= 1 && leaf <= leaves && index >= 0 && index < hostsPerLeaf ? new HostPos(leaf, index) : null;
    }

    public List<Node> nodes() {
        final List<Node> out = new ArrayList<>();
        out.addAll(switches());
        out.addAll(hosts());
        return out;
    }

    /** Spines first, then leaves: the order of their management addresses. */
    public List<Node> switches() {
        final List<Node> out = new ArrayList<>();
        for (int s = 1; s <= spines; s++) {
            out.add(new Node("spine" + s, Kind.SPINE, s));
        }
        for (int l = 1; l <= leaves; l++) {
            out.add(new Node("leaf" + l, Kind.LEAF, l));
        }
        return out;
    }

    public List<Node> hosts() {
        final List<Node> out = new ArrayList<>();
        for (int l = 1; l <= leaves; l++) {
            for (int i = 0; i < hostsPerLeaf; i++) {
                out.add(new Node(hostId(l, i), Kind.HOST, l));
            }
        }
        return out;
    }

    public Node node(final String id) {
        for (var n : nodes()) {
            if (n.id().equals(id)) {
                return n;
            }
        }
        throw new IllegalArgumentException("no node " + id + " in this fabric");
    }

    /** The leaf that a dual-homed host of leaf {@code l} also attaches to. */
    int secondLeaf(final int leaf) {
        return leaf % leaves + 1;
    }

    /** Dual-homed hosts whose second home is {@code leaf}, in order. */
    private List<String> guestsOf(final int leaf) {
        final List<String> out = new ArrayList<>();
        for (var h : dualHomed) {
            final HostPos li = parseHost(h, leaves, hostsPerLeaf);
            if (secondLeaf(li.leaf()) == leaf) {
                out.add(h);
            }
        }
        return out;
    }

    private int uplinkBase(final int leaf) {
        return hostsPerLeaf + guestsOf(leaf).size();
    }

    /** Every link of the fabric: host links first, then leaf-spine links. */
    public List<Link> links() {
        final List<Link> out = new ArrayList<>();
        for (int l = 1; l <= leaves; l++) {
            for (int i = 0; i < hostsPerLeaf; i++) {
                out.add(new Link(new Port("leaf" + l, "swp" + (i + 1), "10." + l + "." + i + ".1/24"),
                    new Port(hostId(l, i), "eth0", "10." + l + "." + i + ".2/24")));
            }
            final var guests = guestsOf(l);
            for (int g = 0; g < guests.size(); g++) {
                final HostPos li = parseHost(guests.get(g), leaves, hostsPerLeaf);
                final String net = "10." + l + "." + (100 + li.index()) + ".";
                out.add(new Link(new Port("leaf" + l, "swp" + (hostsPerLeaf + g + 1), net + "1/24"),
                    new Port(guests.get(g), "eth1", net + "2/24")));
            }
        }
        for (int s = 1; s <= spines; s++) {
            for (int l = 1; l <= leaves; l++) {
                out.add(new Link(new Port("spine" + s, "swp" + l, "10.254." + s + "." + (2 * l - 2) + "/31"),
                    new Port("leaf" + l, "swp" + (uplinkBase(l) + s), "10.254." + s + "." + (2 * l - 1) + "/31")));
            }
        }
        return out;
    }

    /** The ports of a node, in interface order. */
    public List<Port> ports(final String node) {
        final List<Port> out = new ArrayList<>();
        for (var link : links()) {
            if (link.a().node().equals(node)) {
                out.add(link.a());
            }
            if (link.b().node().equals(node)) {
                out.add(link.b());
            }
        }
        out.sort((x, y) -> x.name().length() != y.name().length() ? x.name().length() - y.name().length()
            : x.name().compareTo(y.name()));
        return out;
    }

    /** The port at the other end of {@code node}'s interface {@code name}. */
    public Port peer(final String node, final String name) {
        for (var link : links()) {
            if (link.a().node().equals(node) && link.a().name().equals(name)) {
                return link.b();
            }
            if (link.b().node().equals(node) && link.b().name().equals(name)) {
                return link.a();
            }
        }
        throw new IllegalArgumentException("no interface " + name + " on " + node);
    }

    /** A host's RDMA address: its eth0 address, or for a dual-homed host the address on its lo. */
    public String hostIp(final String host) {
        final HostPos li = parseHost(host, leaves, hostsPerLeaf);
        if (li == null) {
            throw new IllegalArgumentException("no host " + host);
        }
        return dualHomed.contains(host) ? "10.200." + li.leaf() + "." + (li.index() + 1)
            : "10." + li.leaf() + "." + li.index() + ".2";
    }

    /** Host id by RDMA address. */
    public Map<String, String> hostsByIp() {
        final Map<String, String> out = new LinkedHashMap<>();
        for (var h : hosts()) {
            out.put(hostIp(h.id()), h.id());
        }
        return out;
    }

    /** Management address of a switch (where its agent listens). */
    public String mgmtIp(final String switchId) {
        final var all = switches();
        for (int n = 0; n < all.size(); n++) {
            if (all.get(n).id().equals(switchId)) {
                return "10.255.0." + (10 + n);
            }
        }
        throw new IllegalArgumentException("no switch " + switchId);
    }

    /** The {@code ip route} commands that make a node forward with every link up. */
    public List<String> routes(final String nodeId) {
        return routes(nodeId, Set.of());
    }

    /**
     * The {@code ip route} commands (batch syntax, without {@code ip}) that make a node forward:
     * static routes, ECMP where several spines or leaves lead on, avoiding the leaf-spine links in
     * {@code down} (named by their leaf end, {@code leaf1:swp3}) the way a routing protocol would
     * withdraw them.
     */
    public List<String> routes(final String nodeId, final Set<String> down) {
        final var node = node(nodeId);
        final List<String> out = new ArrayList<>();
        switch (node.kind()) {
            case HOST -> {
                final var ports = ports(nodeId);
                if (ports.size() == 1) {
                    out.add("route add default via " + peer(nodeId, "eth0").address() + " dev eth0");
                } else {
                    final var b = new StringBuilder("route add default src " + hostIp(nodeId));
                    for (var p : ports) {
                        b.append(" nexthop via ").append(peer(nodeId, p.name()).address()).append(" dev ")
                            .append(p.name());
                    }
                    out.add(b.toString());
                }
            }
            case LEAF -> {
                final int l = node.index();
                for (int m = 1; m <= leaves; m++) {
                    if (m != l) {
                        final List<Port> via = new ArrayList<>();
                        for (int s = 1; s <= spines; s++) {
                            if (up(l, s, down) && up(m, s, down)) {
                                via.add(uplink(l, s));
                            }
                        }
                        if (!via.isEmpty()) {
                            out.add("route add 10." + m + ".0.0/16" + nexthops(nodeId, via));
                        }
                    }
                }
                if (!dualHomed.isEmpty()) {
                    final List<Port> via = new ArrayList<>();
                    for (int s = 1; s <= spines; s++) {
                        if (up(l, s, down)) {
                            via.add(uplink(l, s));
                        }
                    }
                    if (!via.isEmpty()) {
                        out.add("route add 10.200.0.0/16" + nexthops(nodeId, via));
                    }
                    for (var p : ports(nodeId)) {
                        final var far = peer(nodeId, p.name());
                        if (dualHomed.contains(far.node())) {
                            out.add("route add " + hostIp(far.node()) + "/32 via " + far.address() + " dev "
                                + p.name());
                        }
                    }
                }
            }
            case SPINE -> {
                final int s = node.index();
                for (int l = 1; l <= leaves; l++) {
                    if (up(l, s, down)) {
                        final var far = peer(nodeId, "swp" + l);
                        out.add("route add 10." + l + ".0.0/16 via " + far.address() + " dev swp" + l);
                    }
                }
                for (var h : dualHomed) {
                    final HostPos li = parseHost(h, leaves, hostsPerLeaf);
                    final List<Port> via = new ArrayList<>();
                    for (int l : new int[] {li.leaf(), secondLeaf(li.leaf())}) {
                        if (up(l, s, down)) {
                            via.add(new Port(nodeId, "swp" + l, "0.0.0.0/0"));
                        }
                    }
                    if (!via.isEmpty()) {
                        out.add("route add " + hostIp(h) + "/32" + nexthops(nodeId, via));
                    }
                }
            }
            default -> throw new IllegalStateException("no routes for a node of kind " + node.kind());
        }
        return out;
    }

    /** The port of leaf {@code leaf} that faces spine {@code spine}. */
    public Port uplink(final int leaf, final int spine) {
        return peer("spine" + spine, "swp" + leaf);
    }

    /** The leaf-spine link, named by its leaf end ({@code leaf1:swp3}), of a port at either end; null if none. */
    public String fabricLinkName(final String node, final String port) {
        final var n = node(node);
        if (n.kind() == Kind.SPINE) {
            final var far = peer(node, port);
            return far.node() + ":" + far.name();
        }
        if (n.kind() == Kind.LEAF && peer(node, port).node().startsWith("spine")) {
            return node + ":" + port;
        }
        return null;
    }

    private boolean up(final int leaf, final int spine, final Set<String> down) {
        return down.isEmpty() || !down.contains("leaf" + leaf + ":" + uplink(leaf, spine).name());
    }

    private String nexthops(final String node, final List<Port> via) {
        if (via.size() == 1) {
            return " via " + peer(node, via.get(0).name()).address() + " dev " + via.get(0).name();
        }
        final var b = new StringBuilder();
        for (var p : via) {
            b.append(" nexthop via ").append(peer(node, p.name()).address()).append(" dev ").append(p.name());
        }
        return b.toString();
    }
}
