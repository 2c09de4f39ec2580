/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@link LinkCheck}: a topology as the controller writes it from LLDP (written out here link by
 * link, the way its JSON comes over RESTCONF) against the lab's wiring, and each kind of
 * difference it must name.
 */
class LinkCheckTest {
    private static final Fabric FABRIC = Fabric.defaults();

    /** The default fabric as topology rst-lldp: 16 links, both directions, 14 nodes. */
    private static ObjectNode learnt() {
        final ObjectNode body = Restconf.JSON.createObjectNode();
        final ObjectNode topo = body.putArray("network-topology:topology").addObject();
        topo.put("topology-id", "rst-lldp");
        final ArrayNode nodes = topo.putArray("node");
        for (var sw : List.of("spine1", "spine2", "leaf1", "leaf2", "leaf3", "leaf4")) {
            nodes.addObject().put("node-id", sw).put("rst-topology:node-kind", "switch");
        }
        for (int leaf = 1; leaf <= 4; leaf++) {
            for (int i = 0; i < 2; i++) {
                nodes.addObject().put("node-id", "h" + leaf + (char) ('a' + i)).put("rst-topology:node-kind", "host")
                    .putArray("rst-topology:ip-address").add("10." + leaf + "." + i + ".2");
            }
        }
        final ArrayNode links = topo.putArray("link");
        for (int leaf = 1; leaf <= 4; leaf++) {
            for (int i = 0; i < 2; i++) {
                both(links, "leaf" + leaf, "swp" + (i + 1), "h" + leaf + (char) ('a' + i), "eth0");
            }
            for (int spine = 1; spine <= 2; spine++) {
                both(links, "spine" + spine, "swp" + leaf, "leaf" + leaf, "swp" + (2 + spine));
            }
        }
        return body;
    }

    private static void both(final ArrayNode links, final String upper, final String upperTp, final String lower,
            final String lowerTp) {
        link(links, upper, upperTp, lower, lowerTp);
        link(links, lower, lowerTp, upper, upperTp);
    }

    private static void link(final ArrayNode links, final String src, final String srcTp, final String dst,
            final String dstTp) {
        final ObjectNode l = links.addObject().put("link-id", src + ":" + srcTp);
        l.putObject("source").put("source-node", src).put("source-tp", srcTp);
        l.putObject("destination").put("dest-node", dst).put("dest-tp", dstTp);
    }

    private static ObjectNode topo(final JsonNode body) {
        return (ObjectNode) body.path("network-topology:topology").path(0);
    }

    private static void removeLink(final JsonNode body, final String linkId) {
        final Iterator<JsonNode> it = topo(body).path("link").iterator();
        while (it.hasNext()) {
            if (it.next().path("link-id").asText().equals(linkId)) {
                it.remove();
            }
        }
    }

    private static ObjectNode node(final JsonNode body, final String id) {
        for (var n : topo(body).path("node")) {
            if (n.path("node-id").asText().equals(id)) {
                return (ObjectNode) n;
            }
        }
        throw new AssertionError("no node " + id);
    }

    @Test
    void theWiringLearntLinkForLinkIsEqual() {
        final var r = LinkCheck.compare(FABRIC, Set.of(), learnt());
        assertTrue(r.ok(), r.differences().toString());
        assertEquals(32, r.links(), r.summary());
        assertEquals(14, r.nodes(), r.summary());
        assertTrue(r.summary().endsWith("equal"), r.summary());
    }

    @Test
    void aMissingDirectionAndAWrongEndAreNamed() {
        final var body = learnt();
        removeLink(body, "h2b:eth0");
        for (var l : topo(body).path("link")) {
            if (l.path("link-id").asText().equals("spine2:swp3")) {
                ((ObjectNode) l.path("destination")).put("dest-tp", "swp9");
            }
        }
        final var r = LinkCheck.compare(FABRIC, Set.of(), body);
        assertEquals(List.of("link h2b:eth0 (h2b:eth0 -> leaf2:swp2) is missing",
            "link spine2:swp3 is spine2:swp3 -> leaf3:swp9, the wiring has spine2:swp3 -> leaf3:swp4"),
            r.differences());
        assertFalse(r.ok());
        assertTrue(r.summary().endsWith("2 differences"), r.summary());
    }

    @Test
    void aLinkTheLabTookDownMustBeGoneInBothDirections() {
        final var down = Set.of("leaf1:swp3");
        final var stale = LinkCheck.compare(FABRIC, down, learnt());
        assertEquals(List.of("link leaf1:swp3 (leaf1:swp3 -> spine1:swp1) is not in the wiring: the lab took it down",
            "link spine1:swp1 (spine1:swp1 -> leaf1:swp3) is not in the wiring: the lab took it down"),
            stale.differences());
        assertEquals(30, stale.links());
        final var body = learnt();
        removeLink(body, "leaf1:swp3");
        removeLink(body, "spine1:swp1");
        assertTrue(LinkCheck.compare(FABRIC, down, body).ok());
        // and once it is up again, its absence is a difference
        assertEquals(2, LinkCheck.compare(FABRIC, Set.of(), body).differences().size());
    }

    @Test
    void nodeKindsHostAddressesAndStrangersAreChecked() {
        final var body = learnt();
        node(body, "leaf2").remove("rst-topology:node-kind");
        node(body, "h3a").put("rst-topology:node-kind", "switch");
        ((ArrayNode) node(body, "h4b").path("rst-topology:ip-address")).removeAll().add("10.4.1.99");
        ((ArrayNode) topo(body).path("node")).addObject().put("node-id", "printer").put("rst-topology:node-kind",
            "host");
        final var r = LinkCheck.compare(FABRIC, Set.of(), body);
        assertEquals(List.of("node h3a: node-kind switch, the wiring has host",
            "host h4b: ip-address [10.4.1.99] lacks its address 10.4.1.2",
            "node leaf2: node-kind none, the wiring has switch",
            "node printer (host) is not in the wiring"), r.differences());
    }

    @Test
    void aDualHomedHostIsFoundByTheAddressOnItsLoopback() {
        final var fabric = new Fabric(1, 2, 1, Set.of("h1a"));
        final var body = Lab.topology(fabric, Set.of(), "rst-lldp");
        ((ArrayNode) node(body, "h1a").path("rst-topology:ip-address")).removeAll().add("10.1.0.2");
        final var r = LinkCheck.compare(fabric, Set.of(), body);
        assertEquals(List.of("host h1a: ip-address [10.1.0.2] lacks its address 10.200.1.1"), r.differences());
        // its second link (leaf2:swp2 - h1a:eth1) each way among them: 5 links
        assertEquals(10, r.links());
    }

    @Test
    void noTopologyAtAllIsOneDifferenceThatSaysSo() {
        final var r = LinkCheck.compare(FABRIC, Set.of(), MissingNode.getInstance());
        assertEquals(1, r.differences().size());
        assertTrue(r.differences().get(0).startsWith("no operational topology rst-lldp"), r.differences().get(0));
        assertTrue(r.differences().get(0).contains("32 link directions and 14 nodes"), r.differences().get(0));
    }
}
