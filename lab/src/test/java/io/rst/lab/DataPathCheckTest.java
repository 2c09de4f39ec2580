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
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The check of NCCL-style QP pairs on RESTCONF answers written here by hand: one QP pair between
 * h1a (10.1.0.2, QP 0x100) and h2a (10.2.0.2, QP 0x200), whose two directions the kernel sends over
 * different spines, so that the leaves see both and each spine one.
 */
class DataPathCheckTest {
    private static final String ID = "10.1.0.2/qp0x000100/10.2.0.2/qp0x000200";
    private static final String AB = "10.1.0.2/-/10.2.0.2/qp0x000200";
    private static final String BA = "10.2.0.2/-/10.1.0.2/qp0x000100";
    private static final long NOW = 1_000_000_000L;

    private static Truth.NcclQp qp(final long pairable, final long ended) {
        return new Truth.NcclQp(7, 7, "h1a", "10.1.0.2", 0x100, 5, 50001, "h2a", "10.2.0.2", 0x200, 9, 50002, true,
            false, NOW - 10_000, pairable, ended);
    }

    private static final Truth.NcclQp PAIRED = qp(NOW - 9_000, -1);

    /** The kernel: A to B over spine1, B to A over spine2. */
    private static Map<KernelPaths.Flow, List<KernelPaths.Hop>> kernel(final Truth.NcclQp qp) {
        final var f = DataPathCheck.flows(qp);
        return Map.of(
            f[0], List.of(new KernelPaths.Hop("leaf1", "swp1", "swp3"), new KernelPaths.Hop("spine1", "swp1", "swp2"),
                new KernelPaths.Hop("leaf2", "swp3", "swp1")),
            f[1], List.of(new KernelPaths.Hop("leaf2", "swp1", "swp4"), new KernelPaths.Hop("spine2", "swp2", "swp1"),
                new KernelPaths.Hop("leaf1", "swp4", "swp1")));
    }

    private static ObjectNode obj(final String json) {
        try {
            return (ObjectNode) Restconf.JSON.readTree(json.replace('\'', '"'));
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException(json, e);
        }
    }

    private static ObjectNode hop(final int index, final String node, final String in, final String out) {
        return obj("{'index':" + index + ",'node-id':'" + node + "','ingress-tp':'" + in + "','egress-tp':'" + out
            + "','observed':true,'traffic':'data'}");
    }

    /** rpt's path of the pair, as RST should show it. */
    private static ObjectNode path() {
        final ObjectNode p = obj("{'session-id':'" + ID + "','requester-ip':'10.1.0.2','responder-ip':'10.2.0.2',"
            + "'requester-qpn':256,'responder-qpn':512,'state':'ACTIVE','learned-from':'data','transport':'RC',"
            + "'data-forward':{'source-node':'h1a','destination-node':'h2a','complete':true},"
            + "'data-reverse':{'source-node':'h2a','destination-node':'h1a','complete':true}}");
        ((ObjectNode) p.get("data-forward")).putArray("hop").add(hop(0, "leaf1", "swp1", "swp3"))
            .add(hop(1, "spine1", "swp1", "swp2")).add(hop(2, "leaf2", "swp3", "swp1"));
        ((ObjectNode) p.get("data-reverse")).putArray("hop").add(hop(0, "leaf2", "swp1", "swp4"))
            .add(hop(1, "spine2", "swp2", "swp1")).add(hop(2, "leaf1", "swp4", "swp1"));
        return p;
    }

    private static ObjectNode session(final String reqIngress, final String respIngress) {
        return obj("{'session-id':'" + ID + "','requester-ip':'10.1.0.2','responder-ip':'10.2.0.2',"
            + "'requester-qpn':256,'responder-qpn':512,'state':'ACTIVE','learned-from':'data','transport':'RC',"
            + "'roles-known':false,'requester-data':{'udp-src-port':50001,'ingress-port':'" + reqIngress
            + "','packets':40},'responder-data':{'udp-src-port':50002,'ingress-port':'" + respIngress
            + "','packets':38}}");
    }

    private static ObjectNode oneWay(final String id, final String src, final String dst, final int qpn, final int port,
            final String ingress) {
        return obj("{'session-id':'" + id + "','requester-ip':'" + src + "','responder-ip':'" + dst
            + "','responder-qpn':" + qpn + ",'state':'ACTIVE','learned-from':'data','transport':'RC','one-way':true,"
            + "'paired-session':'" + ID + "','requester-data':{'udp-src-port':" + port + ",'ingress-port':'" + ingress
            + "','packets':40}}");
    }

    /** rft's switches, as RST should show them: the leaves the paired session, each spine its one-way flow. */
    private static ArrayNode switches() {
        final ArrayNode sw = Restconf.JSON.createArrayNode();
        sw.addObject().put("node-id", "leaf1").putArray("session").add(session("swp1", "swp4"));
        sw.addObject().put("node-id", "leaf2").putArray("session").add(session("swp3", "swp1"));
        sw.addObject().put("node-id", "spine1").putArray("session").add(oneWay(AB, "10.1.0.2", "10.2.0.2", 512, 50001,
            "swp1"));
        sw.addObject().put("node-id", "spine2").putArray("session").add(oneWay(BA, "10.2.0.2", "10.1.0.2", 256, 50002,
            "swp2"));
        return sw;
    }

    private static DataPathCheck.Result check(final Truth.NcclQp qp, final JsonNode rpt, final JsonNode rft) {
        return DataPathCheck.compare(List.of(qp), rpt, rft, kernel(qp), Set.of(), NOW);
    }

    private static ArrayNode paths(final JsonNode... entries) {
        final ArrayNode a = Restconf.JSON.createArrayNode();
        for (var n : entries) {
            a.add(n);
        }
        return a;
    }

    private static void differs(final DataPathCheck.Result result, final String words) {
        assertFalse(result.ok(), "the check found nothing; wanted: " + words);
        assertTrue(result.mismatches().stream().anyMatch(m -> m.contains(words)),
            words + " not in " + result.mismatches());
    }

    @Test
    void aPairLearntFromItsDataOnceWithTheKernelsPathsIsRight() {
        final var r = check(PAIRED, paths(path()), switches());
        assertTrue(r.ok(), r.mismatches().toString());
        assertEquals(1, r.qpPairs());
        assertEquals(1, r.paired());
        assertEquals(2, r.paths());
        assertEquals(4, r.records());
        assertTrue(r.summary().endsWith("all equal"), r.summary());
    }

    @Test
    void aPairWithoutPathFails() {
        differs(check(PAIRED, paths(), switches()), "no path in rpt");
    }

    @Test
    void aPairAlsoListedAsACmSessionFails() {
        final var rft = switches();
        // a CM session of the same QPs (B connected to A): learned-from absent is cm
        ((ArrayNode) rft.get(0).get("session")).add(obj("{'session-id':'10.2.0.2/0x0000abcd/10.1.0.2',"
            + "'requester-ip':'10.2.0.2','responder-ip':'10.1.0.2','requester-qpn':512,'responder-qpn':256,"
            + "'state':'ESTABLISHED'}"));
        differs(check(PAIRED, paths(path()), rft), "listed as a CM session");
    }

    @Test
    void aPairListedTwiceFails() {
        differs(check(PAIRED, paths(path(), obj("{'session-id':'" + AB + "','requester-ip':'10.1.0.2',"
            + "'responder-ip':'10.2.0.2','responder-qpn':512,'one-way':true,'learned-from':'data'}")), switches()),
            "also in rpt as the one-way flow " + AB);
        final var other = path();
        other.put("session-id", "10.1.0.2/0x00001234/10.2.0.2");
        differs(check(PAIRED, paths(path(), other), switches()), "under other ids too");
        differs(check(PAIRED, paths(path(), path()), switches()), "2 paths in rpt");
    }

    @Test
    void aDataPathOtherThanTheKernelsFails() {
        final var p = path();
        final var hops = (ArrayNode) p.get("data-forward").get("hop");
        hops.set(1, hop(1, "spine2", "swp1", "swp2"));
        differs(check(PAIRED, paths(p), switches()), "data-forward: rpt");
        final var q = path();
        ((ObjectNode) q.get("data-reverse")).put("complete", false);
        differs(check(PAIRED, paths(q), switches()), "data-reverse: not complete");
    }

    @Test
    void whatThePathSaysOfTheSessionIsChecked() {
        final var p = path();
        p.remove("learned-from");
        differs(check(PAIRED, paths(p), switches()), "learned-from cm (the default)");
        final var q = path();
        q.put("requester-qpn", 512).put("responder-qpn", 256);
        differs(check(PAIRED, paths(q), switches()), "requester-qpn 512");
        final var w = path();
        w.put("one-way", true);
        differs(check(PAIRED, paths(w), switches()), "one-way, though both directions");
        final var cm = path();
        cm.putObject("forward").putArray("hop").add(hop(0, "leaf1", "swp1", "swp3"));
        differs(check(PAIRED, paths(cm), switches()), "a CM path (forward)");
        final var t = path();
        t.put("transport", "UC");
        differs(check(PAIRED, paths(t), switches()), "transport \"UC\"");
    }

    @Test
    void eachSwitchsRecordIsChecked() {
        // a spine that saw one direction: its one-way flow must be paired into the session
        final var unpaired = switches();
        ((ObjectNode) unpaired.get(2).get("session").get(0)).remove("paired-session");
        differs(check(PAIRED, paths(path()), unpaired), "spine1: " + AB + " paired-session");
        // a leaf that saw both must have paired them itself
        final var leafOneWay = switches();
        ((ObjectNode) leafOneWay.get(0)).putArray("session")
            .add(oneWay(AB, "10.1.0.2", "10.2.0.2", 512, 50001, "swp1"));
        differs(check(PAIRED, paths(path()), leafOneWay),
            "at leaf1: both directions cross it, but its flow table has no");
        // the data's UDP source port and ingress port
        final var port = switches();
        ((ObjectNode) port.get(1).get("session").get(0).get("responder-data")).put("udp-src-port", 4791);
        differs(check(PAIRED, paths(path()), port), "leaf2 responder-data: udp-src-port 4791, sent from 50002");
        final var ingress = switches();
        ((ObjectNode) ingress.get(3).get("session").get(0).get("requester-data")).put("ingress-port", "swp1");
        differs(check(PAIRED, paths(path()), ingress), "ingress-port swp1, the kernel sends it in at swp2");
        final var none = switches();
        none.remove(3);
        differs(check(PAIRED, paths(path()), none), "spine2: only one direction crosses it, but its flow table has no");
    }

    @Test
    void aPairNoAgentCouldPairYetNeedNotShow() {
        final var r = check(qp(-1, -1), paths(), Restconf.JSON.createArrayNode());
        assertTrue(r.ok(), r.mismatches().toString());
        assertEquals(0, r.paired());
        // but it must never show as a CM session
        final var rft = switches();
        ((ArrayNode) rft.get(0).get("session")).add(obj("{'session-id':'10.1.0.2/0x00000001/10.2.0.2',"
            + "'requester-ip':'10.1.0.2','responder-ip':'10.2.0.2','requester-qpn':256,'responder-qpn':512,"
            + "'learned-from':'cm','state':'ESTABLISHED'}"));
        differs(check(qp(-1, -1), paths(), rft), "listed as a CM session");
    }

    @Test
    void aPairPairedTooRecentlyIsNotRequiredYet() {
        final var r = DataPathCheck.compare(List.of(PAIRED), paths(), Restconf.JSON.createArrayNode(), kernel(PAIRED),
            Set.of(), NOW, 10_000);
        assertTrue(r.ok(), r.mismatches().toString());
        assertEquals(1, r.recent());
        assertEquals(0, r.paired());
        // settled: required
        differs(DataPathCheck.compare(List.of(PAIRED), paths(), Restconf.JSON.createArrayNode(), kernel(PAIRED),
            Set.of(), NOW, 8_000), "no path in rpt");
    }

    @Test
    void aPairThatEndedLongAgoIsIdle() {
        final var ended = qp(NOW - 9_000, NOW - DataPathCheck.IDLE_EXPECTED_AFTER_MS - 1000);
        differs(check(ended, paths(path()), switches()), "IDLE");
        final var p = path();
        p.put("state", "IDLE");
        final var rft = switches();
        rft.forEach(sw -> sw.get("session").forEach(s -> ((ObjectNode) s).put("state", "IDLE")));
        assertTrue(check(ended, paths(p), rft).ok());
        // a pair that is still sending may be ACTIVE or IDLE, nothing else
        final var q = path();
        q.put("state", "ESTABLISHED");
        differs(check(PAIRED, paths(q), switches()), "state ESTABLISHED");
    }

    @Test
    void aSwitchWhoseRftIsOffIsAnInferredHopAndAGap() {
        final var p = path();
        final var fwd = (ObjectNode) p.get("data-forward");
        final var inferred = hop(1, "spine1", "swp1", "swp2");
        inferred.put("observed", false);
        ((ArrayNode) fwd.get("hop")).set(1, inferred);
        fwd.put("complete", false);
        fwd.putArray("gap").add("spine1 saw nothing: RFT is off");
        final var rft = switches();
        rft.remove(2);
        final var r = DataPathCheck.compare(List.of(PAIRED), paths(p), rft, kernel(PAIRED), Set.of("spine1"), NOW);
        assertTrue(r.ok(), r.mismatches().toString());
        assertEquals(3, r.records());
    }

    @Test
    void theTruthsPairKeyIsTheSameWhicheverEndComesFirst() {
        assertEquals(ID, DataPathCheck.pairKey("10.2.0.2", 0x200, "10.1.0.2", 0x100));
        assertEquals(ID, DataPathCheck.pairKey("10.1.0.2", 0x100, "10.2.0.2", 0x200));
        assertEquals(ID, PAIRED.sessionId());
    }
}
