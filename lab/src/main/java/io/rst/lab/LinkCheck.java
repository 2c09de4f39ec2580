/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.lab;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * {@code rst lab check --links}: the topology the controller learnt from the agents' LLDP
 * neighbours (operational topology {@code rst-lldp}) against the lab's wiring, link for link:
 * every link that is up in both directions ({@code link-id} {@code NODE:TP} of its source, its
 * source and destination node and termination point), host links included, no link the wiring
 * lacks (a link taken down must be gone), every node with its node-kind, every host with its
 * RDMA address among its {@code ip-address}es, and no node the wiring lacks.
 */
public final class LinkCheck {
    private LinkCheck() {
        // static checks
    }

    /**
     * What one comparison found.
     *
     * @param differences one line per difference, empty when the topology equals the wiring
     * @param links the links (one direction each) the wiring expects
     * @param nodes the nodes the wiring expects
     */
    public record Result(List<String> differences, int links, int nodes) {
        public Result {
            differences = List.copyOf(differences);
        }

        public boolean ok() {
            return differences.isEmpty();
        }

        public String summary() {
            return "links: topology " + Lab.LLDP_TOPOLOGY_ID + " against the lab's wiring (" + links
                + " link directions, " + nodes + " nodes): " + (ok() ? "equal" : differences.size() + " differences");
        }
    }

    /** Reads topology {@code rst-lldp} from the controller (operational) and compares it with the wiring. */
    public static Result check(final Fabric fabric, final Set<String> down, final Restconf rc) {
        return compare(fabric, down, rc.get("data/network-topology:network-topology/topology="
            + Lab.LLDP_TOPOLOGY_ID + "?content=nonconfig"));
    }

    /**
     * Checks again, every second, for up to {@code waitSeconds}, until the topology equals the
     * wiring; the last result. A controller that does not answer yet counts as a difference.
     */
    public static Result checkUntil(final Fabric fabric, final Set<String> down, final Restconf rc,
            final double waitSeconds) {
        final long deadline = System.nanoTime() + (long) (waitSeconds * 1e9);
        while (true) {
            Result result;
            try {
                result = check(fabric, down, rc);
            } catch (LabException e) {
                result = new Result(List.of(e.getMessage()), 0, 0);
            }
            if (result.ok() || System.nanoTime() > deadline) {
                return result;
            }
            Lab.sleep(1000);
        }
    }

    /**
     * Compares a GET of a network-topology topology (the answer's JSON: a
     * {@code network-topology:topology} list of one) with the fabric's wiring without the
     * leaf-spine links in {@code down}.
     */
    public static Result compare(final Fabric fabric, final Set<String> down, final JsonNode answer) {
        final JsonNode want = Lab.topology(fabric, down, Lab.LLDP_TOPOLOGY_ID).path("network-topology:topology")
            .path(0);
        final Map<String, String> wantLinks = links(want);
        final Map<String, JsonNode> wantNodes = nodes(want);
        final List<String> out = new ArrayList<>();
        final JsonNode topo = answer.path("network-topology:topology").path(0);
        if (topo.isMissingNode()) {
            out.add("no operational topology " + Lab.LLDP_TOPOLOGY_ID + " in the controller: every one of the "
                + wantLinks.size() + " link directions and " + wantNodes.size() + " nodes is missing");
            return new Result(out, wantLinks.size(), wantNodes.size());
        }
        final Map<String, String> haveLinks = links(topo);
        final Map<String, JsonNode> haveNodes = nodes(topo);
        final Set<String> ids = new TreeSet<>(wantLinks.keySet());
        ids.addAll(haveLinks.keySet());
        for (var id : ids) {
            final String w = wantLinks.get(id);
            final String h = haveLinks.get(id);
            if (h == null) {
                out.add("link " + id + " (" + w + ") is missing");
            } else if (w == null) {
                out.add("link " + id + " (" + h + ") is not in the wiring" + (isDown(fabric, down, id)
                    ? ": the lab took it down" : ""));
            } else if (!w.equals(h)) {
                out.add("link " + id + " is " + h + ", the wiring has " + w);
            }
        }
        final Set<String> nodeIds = new TreeSet<>(wantNodes.keySet());
        nodeIds.addAll(haveNodes.keySet());
        for (var id : nodeIds) {
            final JsonNode w = wantNodes.get(id);
            final JsonNode h = haveNodes.get(id);
            if (h == null) {
                out.add("node " + id + " is missing");
                continue;
            }
            final String kind = h.path("rst-topology:node-kind").asText("");
            if (w == null) {
                out.add("node " + id + (kind.isEmpty() ? "" : " (" + kind + ")") + " is not in the wiring");
                continue;
            }
            final String wantKind = w.path("rst-topology:node-kind").asText();
            if (!wantKind.equals(kind)) {
                out.add("node " + id + ": node-kind " + (kind.isEmpty() ? "none" : kind) + ", the wiring has "
                    + wantKind);
            }
            for (var ip : w.path("rst-topology:ip-address")) {
                final List<String> has = new ArrayList<>();
                h.path("rst-topology:ip-address").forEach(a -> has.add(a.asText()));
                if (!has.contains(ip.asText())) {
                    out.add("host " + id + ": ip-address " + has + " lacks its address " + ip.asText());
                }
            }
        }
        return new Result(out, wantLinks.size(), wantNodes.size());
    }

    /** Whether a link-id names either end of a leaf-spine link the lab took down. */
    private static boolean isDown(final Fabric fabric, final Set<String> down, final String linkId) {
        final int colon = linkId.indexOf(':');
        if (colon < 0) {
            return false;
        }
        try {
            final String name = fabric.fabricLinkName(linkId.substring(0, colon), linkId.substring(colon + 1));
            return name != null && down.contains(name);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** Link-id to {@code SRC:TP -> DST:TP}. */
    private static Map<String, String> links(final JsonNode topo) {
        final Map<String, String> out = new TreeMap<>();
        for (var l : topo.path("link")) {
            out.put(l.path("link-id").asText(), l.path("source").path("source-node").asText() + ":"
                + l.path("source").path("source-tp").asText() + " -> " + l.path("destination").path("dest-node")
                .asText() + ":" + l.path("destination").path("dest-tp").asText());
        }
        return out;
    }

    private static Map<String, JsonNode> nodes(final JsonNode topo) {
        final Map<String, JsonNode> out = new TreeMap<>();
        for (var n : topo.path("node")) {
            out.put(n.path("node-id").asText(), n);
        }
        return out;
    }
}
