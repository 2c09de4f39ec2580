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
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rst.rft.decode.CmMessage;
import io.rst.rft.decode.DecodeResult;
import io.rst.rft.decode.FrameDecoder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CongestionTest {
    private static final byte[] SENDER = {10, 1, 0, 2};
    private static final byte[] RECEIVER = {10, 2, 0, 2};

    /** Ethernet, IPv4 (with {@code tos}, identification 0, DF, TTL 64) and UDP to 4791 around a RoCEv2 payload. */
    private static byte[] frame(final byte[] src, final byte[] dst, final int sport, final int tos,
            final byte[] payload, final int len) {
        final byte[] f = new byte[14 + 28 + len];
        f[12] = 0x08;
        f[14] = 0x45;
        f[15] = (byte) tos;
        f[16] = (byte) (28 + len >>> 8);
        f[17] = (byte) (28 + len);
        f[20] = 0x40;
        f[22] = 64;
        f[23] = 17;
        System.arraycopy(src, 0, f, 26, 4);
        System.arraycopy(dst, 0, f, 30, 4);
        f[34] = (byte) (sport >>> 8);
        f[35] = (byte) sport;
        f[36] = (byte) (4791 >>> 8);
        f[37] = (byte) 4791;
        f[38] = (byte) (8 + len >>> 8);
        f[39] = (byte) (8 + len);
        System.arraycopy(payload, 0, f, 42, len);
        return f;
    }

    @Test
    void aCnpIsWhatTheAgentDecodesAsOne() {
        final byte[] cnp = new byte[RcFrames.CNP_LEN];
        final int len = RcFrames.cnp(cnp, 0xabcdef, new RcFrames.Udp(RECEIVER, SENDER, 50123));
        assertEquals(32, len, "BTH 12, reserved 16, ICRC 4");
        final byte[] f = frame(RECEIVER, SENDER, 50123, Traffic.CNP_TOS, cnp, len);
        final CmMessage m = new CmMessage();
        assertEquals(DecodeResult.ROCE_DATA, new FrameDecoder().decodeEthernet(f, 0, f.length, m));
        assertTrue(m.isCnp(), "opcode " + m.bthOpcode());
        assertEquals(0x81, m.bthOpcode());
        assertEquals(0xabcdef, m.bthDestQp(), "to the QP whose packets came marked");
        assertEquals(48, m.dscp());
        assertEquals(0, m.ecn(), "a CNP is not ECN-capable");
        assertEquals(0x40, f[42 + 4], "BECN set, FECN clear");
        assertEquals(0, m.bthPsn(), "PSN 0");
        final int icrc = f[f.length - 4] & 0xff | (f[f.length - 3] & 0xff) << 8 | (f[f.length - 2] & 0xff) << 16
            | (f[f.length - 1] & 0xff) << 24;
        assertEquals(RcFrames.icrcOfPacket(f, 14, f.length - 14), icrc, "the ICRC fits the packet");
    }

    @Test
    void aPfcFrameIsWhatTheAgentDecodesAsOne() {
        final long mac = PfcSender.mac("0a:42:14:40:6e:8b");
        assertEquals(0x0a4214406e8bL, mac);
        final byte[] f = PfcSender.frame(mac, 3, 4096);
        final CmMessage m = new CmMessage();
        assertEquals(DecodeResult.PFC, new FrameDecoder().decodeEthernet(f, 0, f.length, m));
        assertEquals(1 << 3, m.pfcEnable(), "only priority 3 enabled");
        assertEquals(4096, m.pfcQuanta(3));
        for (int p = 0; p < 8; p++) {
            if (p != 3) {
                assertEquals(0, m.pfcQuanta(p), "priority " + p);
            }
        }
        assertEquals(mac, m.srcMac());
        assertEquals(0x01, f[0]);
        assertEquals((byte) 0x80, f[1]);
        assertEquals((byte) 0xc2, f[2]);
        assertEquals(0x01, f[5]);
        assertThrows(IllegalArgumentException.class, () -> PfcSender.frame(mac, 8, 1));
        assertThrows(IllegalArgumentException.class, () -> PfcSender.frame(mac, 0, 65536));
        assertThrows(IllegalArgumentException.class, () -> PfcSender.mac("0a:42:14"));
    }

    @Test
    void onlyCeMarkedRcPacketsAskForACnp() {
        final byte[] rc = new byte[RcFrames.MAX_LEN];
        final int len = RcFrames.write(rc, RcFrames.WRITE_ONLY, 0x123456, 7, true, false, 0, 1, 64, 0, 0, 0, 64,
            new RcFrames.Udp(SENDER, RECEIVER, 50000));
        final byte[] ce = frame(SENDER, RECEIVER, 50000, Traffic.DATA_TOS | 3, rc, len);
        assertEquals(0x123456, CnpResponder.cnpFor(java.util.Arrays.copyOfRange(ce, 14, ce.length), ce.length - 14));
        final byte[] ect = frame(SENDER, RECEIVER, 50000, Traffic.DATA_TOS, rc, len);
        assertEquals(-1, CnpResponder.cnpFor(java.util.Arrays.copyOfRange(ect, 14, ect.length), ect.length - 14),
            "ECT(0), not marked");
        final byte[] cnp = new byte[RcFrames.CNP_LEN];
        RcFrames.cnp(cnp, 0x123456, new RcFrames.Udp(SENDER, RECEIVER, 50000));
        final byte[] markedCnp = frame(SENDER, RECEIVER, 50000, 0xc3, cnp, cnp.length);
        assertEquals(-1, CnpResponder.cnpFor(java.util.Arrays.copyOfRange(markedCnp, 14, markedCnp.length),
            markedCnp.length - 14), "a CNP is never answered");
        final byte[] short1 = java.util.Arrays.copyOfRange(ce, 14, 14 + 30);
        assertEquals(-1, CnpResponder.cnpFor(short1, short1.length), "too short for a BTH");
    }

    @Test
    void theMarkingScriptMarksOnlyEcnCapableRoceOnThePort() {
        final String all = Congestion.nftScript("swp3", 0);
        assertTrue(all.contains("oifname \"swp3\" udp dport 4791 ip ecn != not-ect ip ecn set ce"), all);
        assertFalse(all.contains("limit"), all);
        final String over = Congestion.nftScript("swp3", 500);
        assertTrue(over.contains("ip ecn != not-ect limit rate over 500/second ip ecn set ce"), over);
        assertThrows(IllegalArgumentException.class, () -> Congestion.nftScript("swp3", -1));
    }

    @Test
    void linksAreSwitchToSwitch() {
        final Fabric fabric = Fabric.defaults();
        final var l = Congestion.link(fabric, "spine1:swp2");
        assertEquals(new Congestion.Link("spine1", "swp2", "leaf2", fabric.peer("spine1", "swp2").name()), l);
        assertThrows(IllegalArgumentException.class, () -> Congestion.link(fabric, "leaf1:swp1"), "to a host");
        assertThrows(IllegalArgumentException.class, () -> Congestion.link(fabric, "h1a:eth0"), "a host");
        assertThrows(IllegalArgumentException.class, () -> Congestion.link(fabric, "spine1"), "no port");
        for (int seed = 0; seed < 50; seed++) {
            final var r = Congestion.randomLink(fabric, Set.of(), new java.util.SplittableRandom(seed));
            assertTrue(fabric.node(r.node()).isSwitch() && fabric.node(r.nextNode()).isSwitch(), r.toString());
            assertEquals(fabric.peer(r.node(), r.port()).node(), r.nextNode());
        }
    }

    // h1a -> leaf1 swp3 -> spine1 swp2 -> leaf2 -> h2a; h1b -> leaf1 swp4 -> spine2 -> leaf2 -> h2b
    private static final KernelPaths.Flow VIA_SPINE1 = new KernelPaths.Flow("h1a", "10.1.0.2", "10.2.0.2", 50001);
    private static final KernelPaths.Flow VIA_SPINE2 = new KernelPaths.Flow("h1b", "10.1.1.2", "10.2.1.2", 50002);
    private static final Congestion.Link MARKED = new Congestion.Link("spine1", "swp2", "leaf2", "swp3");

    private static Map<KernelPaths.Flow, List<KernelPaths.Hop>> kernel() {
        final Map<KernelPaths.Flow, List<KernelPaths.Hop>> k = new LinkedHashMap<>();
        k.put(VIA_SPINE1, List.of(new KernelPaths.Hop("leaf1", "swp1", "swp3"),
            new KernelPaths.Hop("spine1", "swp1", "swp2"), new KernelPaths.Hop("leaf2", "swp3", "swp1")));
        k.put(VIA_SPINE2, List.of(new KernelPaths.Hop("leaf1", "swp2", "swp4"),
            new KernelPaths.Hop("spine2", "swp1", "swp2"), new KernelPaths.Hop("leaf2", "swp4", "swp2")));
        return k;
    }

    private static List<Congestion.Direction> dirs(final long start) {
        return List.of(new Congestion.Direction("a", "data-forward", VIA_SPINE1, start, 0),
            new Congestion.Direction("b", "data-forward", VIA_SPINE2, start, 0));
    }

    @Test
    void theSessionsLeavingAPortAreThoseTheKernelSendsOutOfIt() {
        final var d = dirs(100);
        assertEquals(List.of(d.get(0)), Congestion.leaving(kernel(), d, "spine1", "swp2"));
        assertEquals(List.of(d.get(1)), Congestion.leaving(kernel(), d, "leaf1", "swp4"));
        assertEquals(List.of(d.get(0)), Congestion.leaving(kernel(), d, "leaf1", "swp3"));
        assertTrue(Congestion.leaving(kernel(), d, "leaf2", "swp3").isEmpty(), "ingress is not egress");
    }

    /** A path whose data-forward hops have the given nodes and CE counts (ECT 10 each). */
    private static ObjectNode path(final String id, final String[] nodes, final long[] ce, final String[] markedAt) {
        final ObjectNode p = Restconf.JSON.createObjectNode().put("session-id", id);
        final ObjectNode dir = p.putObject("data-forward");
        final ArrayNode hops = dir.putArray("hop");
        for (int i = 0; i < nodes.length; i++) {
            hops.addObject().put("index", i).put("node-id", nodes[i]).put("dscp", 26).put("ect-packets", 10)
                .put("ce-packets", ce[i]);
        }
        if (markedAt != null) {
            dir.putObject("marked-at").put("node-id", markedAt[0]).put("egress-tp", markedAt[1])
                .put("next-node-id", markedAt[2]).put("next-ingress-tp", markedAt[3]).put("certain", true);
        }
        return p;
    }

    private static final String[] VIA1 = {"leaf1", "spine1", "leaf2"};
    private static final String[] VIA2 = {"leaf1", "spine2", "leaf2"};
    private static final String[] RIGHT = {"spine1", "swp2", "leaf2", "swp3"};

    private static List<String> marks(final long rate, final JsonNode... paths) {
        final ArrayNode arr = Restconf.JSON.createArrayNode();
        for (var p : paths) {
            arr.add(p);
        }
        final List<String> bad = new ArrayList<>();
        Congestion.compareMarks(MARKED, rate, 50, dirs(100), kernel(), arr, 1000, bad);
        return bad;
    }

    @Test
    void ceFromTheMarkedLinkOnAndOnlyOnSessionsCrossingItIsRight() {
        assertEquals(List.of(), marks(0, path("a", VIA1, new long[] {0, 0, 10}, RIGHT),
            path("b", VIA2, new long[] {0, 0, 0}, null)));
        final List<String> bad = new ArrayList<>();
        final int[] counts = Congestion.compareMarks(MARKED, 0, 50, dirs(100), kernel(), Restconf.JSON.createArrayNode()
            .add(path("a", VIA1, new long[] {0, 0, 10}, RIGHT)).add(path("b", VIA2, new long[] {0, 0, 0}, null)),
            1000, bad);
        assertEquals(2, counts[0], "directions checked");
        assertEquals(1, counts[1], "crossing ones with CE");
    }

    @Test
    void ceOnASessionThatDoesNotCrossTheLinkIsAMismatch() {
        final var bad = marks(0, path("a", VIA1, new long[] {0, 0, 10}, RIGHT),
            path("b", VIA2, new long[] {0, 0, 3}, new String[] {"spine2", "swp2", "leaf2", "swp4"}));
        assertEquals(2, bad.size(), bad.toString());
        assertTrue(bad.get(0).startsWith("b data-forward: ce-packets 3 at leaf2"), bad.get(0));
        assertTrue(bad.get(1).startsWith("b data-forward: marked-at spine2:swp2"), bad.get(1));
    }

    @Test
    void ceBeforeTheLinkOrMarkedAtElsewhereIsAMismatch() {
        final var before = marks(0, path("a", VIA1, new long[] {0, 4, 10}, RIGHT));
        assertEquals(1, before.size(), before.toString());
        assertTrue(before.get(0).contains("ce-packets 4 at spine1, before the marked link"), before.get(0));
        final var elsewhere = marks(0, path("a", VIA1, new long[] {0, 0, 10},
            new String[] {"leaf1", "swp3", "spine1", "swp1"}));
        assertEquals(1, elsewhere.size(), elsewhere.toString());
        assertTrue(elsewhere.get(0).contains("marked-at leaf1:swp3 -> spine1:swp1, the lab marks on spine1:swp2"),
            elsewhere.get(0));
        final var noMarkedAt = marks(0, path("a", VIA1, new long[] {0, 0, 10}, null));
        assertEquals(1, noMarkedAt.size(), noMarkedAt.toString());
        assertTrue(noMarkedAt.get(0).contains("no marked-at"), noMarkedAt.get(0));
    }

    @Test
    void noCeOnACrossingSessionIsAMismatchOnlyWhereEveryPacketIsMarked() {
        final var all = marks(0, path("a", VIA1, new long[] {0, 0, 0}, null));
        assertEquals(1, all.size(), all.toString());
        assertTrue(all.get(0).contains("marks every ECN-capable packet"), all.get(0));
        assertEquals(List.of(), marks(100, path("a", VIA1, new long[] {0, 0, 0}, null)),
            "beyond a rate, a session's few packets may all pass");
        assertEquals(List.of(), marks(-1, path("a", VIA1, new long[] {0, 0, 0}, null)), "the marking was removed");
        final List<String> bad = new ArrayList<>();
        // the session's data began before the marking: it may have passed unmarked
        Congestion.compareMarks(MARKED, 0, 500, dirs(100), kernel(), Restconf.JSON.createArrayNode()
            .add(path("a", VIA1, new long[] {0, 0, 0}, null)), 1000, bad);
        assertEquals(List.of(), bad);
    }

    private static ObjectNode pausedPort(final String node, final String tp, final int priority, final int count,
            final String... sessions) {
        final ObjectNode e = Restconf.JSON.createObjectNode().put("node-id", node).put("tp-id", tp)
            .put("priority", priority).put("paused", true).put("session-count", count);
        final ArrayNode arr = e.putArray("session");
        for (var s : sessions) {
            arr.add(s);
        }
        return e;
    }

    private static List<String> pauses(final int priority, final long nowMs, final ObjectNode... entries) {
        return pausesWith(priority, nowMs, path("a", VIA1, new long[] {0, 0, 0}, null), entries);
    }

    private static List<String> pausesWith(final int priority, final long nowMs, final ObjectNode pathA,
            final ObjectNode... entries) {
        final ObjectNode pfc = Restconf.JSON.createObjectNode().put("kind", "pfc").put("node", "leaf1")
            .put("port", "swp3").put("priority", priority).put("atMs", 900).put("endMs", 2000);
        final ObjectNode rpt = Restconf.JSON.createObjectNode();
        final ArrayNode paths = rpt.putArray("path");
        paths.add(pathA);
        paths.add(path("b", VIA2, new long[] {0, 0, 0}, null));
        final ArrayNode pp = rpt.putArray("paused-port");
        for (var e : entries) {
            pp.add(e);
        }
        final List<String> bad = new ArrayList<>();
        final List<String> notes = new ArrayList<>();
        Congestion.comparePauses(List.of(pfc), dirs(100), kernel(), 3, rpt, nowMs, notes, bad);
        bad.addAll(notes.stream().map(n -> "note: " + n).toList());
        return bad;
    }

    @Test
    void aPausedPortListsExactlyTheSessionsLeavingItInItsPriority() {
        assertEquals(List.of(), pauses(3, 1500, pausedPort("leaf1", "swp3", 3, 1, "a")));
        final var extra = pauses(3, 1500, pausedPort("leaf1", "swp3", 3, 2, "a", "b"));
        assertEquals(2, extra.size(), extra.toString());
        assertTrue(extra.get(0).contains("lists 1 sessions whose data the kernel does not send out of it"),
            extra.get(0));
        assertTrue(extra.get(1).contains("session-count 2, but 1"), extra.get(1));
        final var missing = pauses(3, 1500, pausedPort("leaf1", "swp3", 3, 0));
        assertEquals(1, missing.size(), missing.toString());
        assertTrue(missing.get(0).contains("session-count 0, but 1") && missing.get(0).contains("not listed: [a]"),
            missing.get(0));
        assertEquals(List.of(), pauses(5, 1500, pausedPort("leaf1", "swp3", 5, 0)),
            "the lab's data is in priority 3: a pause of 5 holds none of it up");
    }

    @Test
    void aSwitchThatDidNotSeeTheDataIsNotExpectedToListIt() {
        // leaf1 did not capture session a's data (no figures at its hop): its pause cannot name it
        final ObjectNode unseen = path("a", VIA1, new long[] {0, 0, 0}, null);
        ((ObjectNode) unseen.path("data-forward").path("hop").get(0)).remove("dscp");
        assertEquals(List.of(), pausesWith(3, 1500, unseen, pausedPort("leaf1", "swp3", 3, 0)));
        final var listed = pausesWith(3, 1500, unseen, pausedPort("leaf1", "swp3", 3, 1, "a"));
        assertEquals(2, listed.size(), listed.toString());
        assertTrue(listed.get(0).contains("lists 1 sessions whose data the kernel does not send out of it"),
            listed.get(0));
    }

    @Test
    void aPauseGoingOnMustBeListedAndNoOtherPort() {
        final var absent = pauses(3, 1500);
        assertEquals(1, absent.size(), absent.toString());
        assertTrue(absent.get(0).contains("not listed, yet the lab pauses it now"), absent.get(0));
        final var ended = pauses(3, 5000);
        assertEquals(1, ended.size(), ended.toString());
        assertTrue(ended.get(0).startsWith("note: "), "an ended pause's entry may be gone: " + ended.get(0));
        final var other = pauses(3, 1500, pausedPort("leaf1", "swp3", 3, 1, "a"), pausedPort("spine2", "swp2", 3, 1,
            "b"));
        assertEquals(1, other.size(), other.toString());
        assertTrue(other.get(0).startsWith("paused-port spine2:swp2/3: listed, but the lab paused no such port"),
            other.get(0));
    }

    @Test
    void theDataPriorityIsRptSettingsOrTheClassSelector() {
        assertEquals(3, Congestion.dataPriority(Restconf.JSON.missingNode()));
        final ObjectNode s = Restconf.JSON.createObjectNode();
        s.putObject("rdma-path-table:rpt-settings").putArray("dscp-priority").addObject().put("dscp", 26)
            .put("priority", 5);
        assertEquals(5, Congestion.dataPriority(s));
    }
}
