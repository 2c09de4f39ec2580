/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.lab;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * Congestion that the kernel makes, and its truth. {@code lab congest}: in the namespace of a
 * switch, nftables marks CE on the ECN-capable RoCEv2 packets leaving one switch-to-switch port
 * (all of them, or those beyond a rate), as a switch's egress queue does when it fills; the hosts'
 * NICs answer with CNPs ({@link CnpResponder}). {@code lab pfc}: a port's neighbour sends PFC
 * frames into it ({@link PfcSender}), pausing what the switch sends out of that port in one
 * priority. Each is written to the truth file with the sessions whose data the kernel sends that
 * way ({@link #leaving}), and {@link #check} compares the controller's data paths
 * ({@code marked-at}, each hop's {@code ce-packets}) and {@code rpt/paused-port} with it.
 */
public final class Congestion {
    /** The nftables table the lab's marking lives in (in the switch's namespace). */
    static final String NFT_TABLE = "rstcong";
    /** The DSCP the lab's hosts send their data with ({@link Traffic#DATA_TOS}). */
    static final int DATA_DSCP = Traffic.DATA_TOS >>> 2;
    /** How long after a pause's last frame its paused-port entry may still show (two agent probes and more). */
    static final long PAUSE_LINGER_MS = 15_000;

    private Congestion() {
        // utility
    }

    /**
     * A switch's egress port onto a switch-to-switch link, with the link's other end.
     *
     * @param node the switch whose egress marks (or is paused)
     * @param port its port
     * @param nextNode the node at the other end
     * @param nextPort its port
     */
    public record Link(String node, String port, String nextNode, String nextPort) {
        @Override
        public String toString() {
            return node + ":" + port + " -> " + nextNode + ":" + nextPort;
        }
    }

    /** {@code NODE:PORT} of the fabric as a link; it must join two switches. */
    public static Link link(final Fabric fabric, final String spec) {
        final int colon = spec.indexOf(':');
        if (colon <= 0 || colon == spec.length() - 1) {
            throw new IllegalArgumentException("--link wants NODE:PORT, got '" + spec + "'");
        }
        final String node = spec.substring(0, colon);
        final String port = spec.substring(colon + 1);
        if (!fabric.node(node).isSwitch()) {
            throw new IllegalArgumentException(node + " is not a switch");
        }
        final var peer = fabric.peer(node, port);
        if (!fabric.node(peer.node()).isSwitch()) {
            throw new IllegalArgumentException(spec + " leads to host " + peer.node() + ": a switch-to-switch link");
        }
        return new Link(node, port, peer.node(), peer.name());
    }

    /** A switch port of the fabric, with its peer (a switch or a host). */
    public static Link port(final Fabric fabric, final String node, final String port) {
        if (!fabric.node(node).isSwitch()) {
            throw new IllegalArgumentException(node + " is not a switch");
        }
        final var peer = fabric.peer(node, port);
        return new Link(node, port, peer.node(), peer.name());
    }

    /** A switch-to-switch link at random, either way, of those not down ({@code down}: leaf ends). */
    static Link randomLink(final Fabric fabric, final Set<String> down, final SplittableRandom rnd) {
        final List<Link> all = new ArrayList<>();
        for (var l : fabric.links()) {
            if (fabric.node(l.a().node()).isSwitch() && fabric.node(l.b().node()).isSwitch()
                    && !down.contains(fabric.fabricLinkName(l.a().node(), l.a().name()))) {
                all.add(new Link(l.a().node(), l.a().name(), l.b().node(), l.b().name()));
                all.add(new Link(l.b().node(), l.b().name(), l.a().node(), l.a().name()));
            }
        }
        if (all.isEmpty()) {
            throw new LabException("no switch-to-switch link is up");
        }
        return all.get(rnd.nextInt(all.size()));
    }

    /**
     * The nftables script that marks: CE on every ECN-capable packet to UDP 4791 leaving
     * {@code port}, or ({@code rate} above 0) on those beyond {@code rate} packets a second (the
     * first ones of a burst, up to nftables' default burst, pass unmarked). Packets that are not
     * ECN-capable (CM MADs, CNPs) are never marked, as a switch marks only ECT.
     */
    static String nftScript(final String port, final long rate) {
        if (rate < 0) {
            throw new IllegalArgumentException("--rate must not be negative");
        }
        return "add table ip " + NFT_TABLE + "\n"
            + "delete table ip " + NFT_TABLE + "\n"
            + "add table ip " + NFT_TABLE + "\n"
            + "add chain ip " + NFT_TABLE + " post { type filter hook postrouting priority 0; }\n"
            + "add rule ip " + NFT_TABLE + " post oifname \"" + port + "\" udp dport 4791 ip ecn != not-ect"
            + (rate > 0 ? " limit rate over " + rate + "/second" : "") + " ip ecn set ce counter\n";
    }

    /**
     * Marks on {@code link} (replacing any marking of the lab: one link marks at a time) and
     * writes the fact, with the sessions of the truth so far whose data the kernel sends across it.
     */
    public static void mark(final Lab lab, final Link link, final long rate, final Consumer<String> log)
            throws IOException {
        unmark(lab, null);
        Shell.run(List.of("ip", "netns", "exec", Fabric.NS_PREFIX + link.node(), "nft", "-f", "-"),
            nftScript(link.port(), rate), true);
        final long at = System.currentTimeMillis();
        final var dirs = directions(lab);
        final var leaving = leaving(KernelPaths.trace(lab.fabric(), flows(dirs)), dirs, link.node(), link.port());
        final ObjectNode fact = Restconf.JSON.createObjectNode();
        fact.put("kind", "congest").put("node", link.node()).put("port", link.port())
            .put("nextNode", link.nextNode()).put("nextPort", link.nextPort()).put("rate", rate).put("atMs", at);
        sessions(fact, leaving);
        try (var w = new Truth.Writer(lab.truthFile())) {
            w.fact(fact);
        }
        log.accept("congest: " + link.node() + " marks CE on what leaves " + link.port() + " (to " + link.nextNode()
            + ":" + link.nextPort() + ")" + (rate > 0 ? " beyond " + rate + " packets/s" : "") + "; "
            + sessionIds(leaving).size() + " sessions so far cross it; truth in " + lab.truthFile());
    }

    /** Removes the lab's marking from every switch; with {@code log}, writes the fact. */
    public static void unmark(final Lab lab, final Consumer<String> log) throws IOException {
        int removed = 0;
        for (var sw : lab.fabric().switches()) {
            final String out = Shell.run(List.of("ip", "netns", "exec", sw.namespace(), "nft", "delete", "table",
                "ip", NFT_TABLE), null, false);
            if (!out.contains("No such file")) {
                removed++;
            }
        }
        if (log != null) {
            final ObjectNode fact = Restconf.JSON.createObjectNode();
            fact.put("kind", "congest-off");
            try (var w = new Truth.Writer(lab.truthFile())) {
                w.fact(fact);
            }
            log.accept("congest: marking removed (" + removed + " switches had it)");
        }
    }

    /**
     * Pauses {@code priority} on switch {@code node}'s port {@code port}: its neighbour sends
     * {@code frames} PFC frames of {@code quanta} into it, one every {@code intervalUs}, from the
     * neighbour's namespace; written to the truth with the sessions whose data leaves that port in
     * that priority (the lab's data is DSCP 26, priority {@code dataPriority}).
     */
    @SuppressWarnings("checkstyle:ParameterNumber")
    public static void pfc(final Lab lab, final Link port, final int priority, final int quanta, final int frames,
            final long intervalUs, final int dataPriority, final Consumer<String> log) throws IOException {
        if (frames < 1 || intervalUs < 1) {
            throw new IllegalArgumentException("--frames and --interval-us must be positive");
        }
        final String ns = Fabric.NS_PREFIX + port.nextNode();
        final var linkJson = Restconf.JSON.readTree(Shell.run("ip", "-n", ns, "-j", "link", "show", "dev",
            port.nextPort()));
        final long mac = PfcSender.mac(linkJson.path(0).path("address").asText());
        PfcSender.frame(mac, priority, quanta);
        final var dirs = directions(lab);
        final List<Direction> leaving = priority != dataPriority ? List.of()
            : leaving(KernelPaths.trace(lab.fabric(), flows(dirs)), dirs, port.node(), port.port());
        // the truth says what is paused from the first frame on, so that a check while the pause
        // lasts compares it: its end is when the last frame is due
        final long at = System.currentTimeMillis();
        final ObjectNode fact = Restconf.JSON.createObjectNode();
        fact.put("kind", "pfc").put("node", port.node()).put("port", port.port())
            .put("sender", port.nextNode()).put("senderPort", port.nextPort()).put("priority", priority)
            .put("quanta", quanta).put("frames", frames).put("intervalUs", intervalUs)
            .put("atMs", at).put("endMs", at + frames * intervalUs / 1000);
        sessions(fact, leaving);
        try (var w = new Truth.Writer(lab.truthFile())) {
            w.fact(fact);
        }
        final long[] ended = new long[1];
        final IOException[] failed = new IOException[1];
        final Thread sender = new Thread(() -> {
            try {
                NetnsThreads.enter(ns);
                try (var s = new PfcSender(port.nextPort(), mac, priority, quanta)) {
                    s.send(frames, intervalUs * 1000);
                    ended[0] = System.currentTimeMillis();
                }
            } catch (IOException e) {
                failed[0] = e;
            }
        }, "lab-pfc");
        log.accept("pfc: " + port.nextNode() + ":" + port.nextPort() + " pauses priority " + priority + " of "
            + port.node() + ":" + port.port() + ": " + frames + " frames of " + quanta + " quanta, one every "
            + intervalUs + " us; " + sessionIds(leaving).size() + " sessions so far leave there in priority "
            + priority + "; truth in " + lab.truthFile());
        sender.start();
        try {
            sender.join();
        } catch (InterruptedException e) {
            sender.interrupt();
            Thread.currentThread().interrupt();
        }
        if (failed[0] != null) {
            throw failed[0];
        }
        log.accept("pfc: sent from " + at + " to " + ended[0] + " (epoch ms)");
    }

    private static void sessions(final ObjectNode fact, final List<Direction> dirs) {
        final ArrayNode arr = fact.putArray("sessions");
        sessionIds(dirs).forEach(arr::add);
    }

    private static Set<String> sessionIds(final List<Direction> dirs) {
        final Set<String> out = new TreeSet<>();
        dirs.forEach(d -> out.add(d.sessionId()));
        return out;
    }

    /**
     * One direction of a session's data, as the lab sent it.
     *
     * @param sessionId the session's id in RST
     * @param path {@code data-forward} or {@code data-reverse}: where rdma-path-table shows it
     * @param flow its addresses and UDP source port
     * @param startMs when the session's data could first leave (its connection started, or its
     *     first packet), epoch milliseconds
     * @param settledMs from when RST must show it (its connection settled, or its QP pair was
     *     pairable long enough); Long.MAX_VALUE: never required
     */
    public record Direction(String sessionId, String path, KernelPaths.Flow flow, long startMs, long settledMs) {
    }

    /** The data directions of the truth file's sessions. */
    static List<Direction> directions(final Lab lab) throws IOException {
        return directions(Truth.read(lab.truthFile()), Truth.startTimes(lab.truthFile()),
            Truth.readNccl(lab.truthFile()), LabMain.DEFAULT_SETTLE_SECONDS * 1000);
    }

    /** The data directions of CM sessions that sent data and of NCCL-style QP pairs. */
    static List<Direction> directions(final Collection<Truth.Connection> conns, final Map<Long, Long> starts,
            final Collection<Truth.NcclQp> qps, final double settleMs) {
        final List<Direction> out = new ArrayList<>();
        for (var c : conns) {
            if (!PathCheck.WITH_DATA.contains(c.scenario())) {
                continue;
            }
            final long start = starts.getOrDefault(c.id(), c.changedMillis());
            final long settled = c.changedMillis() + (long) settleMs;
            out.add(new Direction(c.sessionId(), "data-forward", new KernelPaths.Flow(c.requester(), c.requesterIp(),
                c.responderIp(), c.requesterDataPort()), start, settled));
            out.add(new Direction(c.sessionId(), "data-reverse", new KernelPaths.Flow(c.responder(), c.responderIp(),
                c.requesterIp(), c.responderDataPort()), start, settled));
        }
        for (var q : qps) {
            final var f = DataPathCheck.flows(q);
            final long settled = q.pairableMs() < 0 ? Long.MAX_VALUE : q.pairableMs() + DataPathCheck.SETTLE_MS;
            final boolean lowerIsA = q.aIsLower();
            out.add(new Direction(q.sessionId(), "data-forward", lowerIsA ? f[0] : f[1], q.firstPacketMs(), settled));
            out.add(new Direction(q.sessionId(), "data-reverse", lowerIsA ? f[1] : f[0], q.firstPacketMs(), settled));
        }
        return out;
    }

    static Set<KernelPaths.Flow> flows(final Collection<Direction> dirs) {
        final Set<KernelPaths.Flow> out = new LinkedHashSet<>();
        dirs.forEach(d -> out.add(d.flow()));
        return out;
    }

    /** The directions whose kernel path leaves switch {@code node} through {@code port}. */
    public static List<Direction> leaving(final Map<KernelPaths.Flow, List<KernelPaths.Hop>> kernel,
            final Collection<Direction> dirs, final String node, final String port) {
        final List<Direction> out = new ArrayList<>();
        for (var d : dirs) {
            final var hops = kernel.get(d.flow());
            if (hops != null && hops.stream().anyMatch(h -> h.node().equals(node) && h.egress().equals(port))) {
                out.add(d);
            }
        }
        return out;
    }

    /**
     * What a congestion check found.
     *
     * @param directions data directions compared with a marking
     * @param marked of them, those crossing the marked link that showed CE
     * @param pauses paused ports compared
     * @param notes what was not checked, and why
     * @param mismatches one line per difference
     */
    public record Result(int directions, int marked, int pauses, List<String> notes, List<String> mismatches) {
        public boolean ok() {
            return mismatches.isEmpty();
        }

        public String summary() {
            return "congestion: " + directions + " data directions checked against the marked link (" + marked
                + " crossing it show CE), " + pauses + " paused ports against the PFC the lab sent; "
                + (ok() ? "all equal" : mismatches.size() + " differ");
        }
    }

    /** Checks RESTCONF against the truth file's last marking and pause; null when it has neither. */
    public static Result check(final Lab lab, final Restconf rc, final long nowMs) throws IOException {
        final var congest = Truth.facts(lab.truthFile(), "congest");
        final var off = Truth.facts(lab.truthFile(), "congest-off");
        final var pfcs = Truth.facts(lab.truthFile(), "pfc");
        if (congest.isEmpty() && pfcs.isEmpty()) {
            return null;
        }
        final var dirs = directions(lab);
        final var kernel = KernelPaths.trace(lab.fabric(), flows(dirs));
        final JsonNode rpt = rc.get("data/rdma-path-table:rpt?content=nonconfig").path("rdma-path-table:rpt");
        final List<String> bad = new ArrayList<>();
        final List<String> notes = new ArrayList<>();
        int checked = 0;
        int marked = 0;
        if (!congest.isEmpty()) {
            final JsonNode last = congest.get(congest.size() - 1);
            final long at = last.path("atMs").asLong();
            final long offAt = off.isEmpty() ? -1 : off.get(off.size() - 1).path("atMs").asLong();
            final Link link = new Link(last.path("node").asText(), last.path("port").asText(),
                last.path("nextNode").asText(), last.path("nextPort").asText());
            final long rate = offAt > at ? -1 : last.path("rate").asLong();
            if (offAt > at) {
                notes.add("congestion: the marking of " + link + " was removed: CE may show, none is required");
            }
            final var r = compareMarks(link, rate, at, dirs, kernel, rpt.path("path"), nowMs, bad);
            checked = r[0];
            marked = r[1];
        }
        int pauses = 0;
        if (!pfcs.isEmpty()) {
            final JsonNode settings = rc.get("data/rdma-path-table:rpt-settings");
            pauses = comparePauses(pfcs, dirs, kernel, dataPriority(settings), rpt, nowMs, notes, bad);
        }
        return new Result(checked, marked, pauses, notes, bad);
    }

    /** The priority of the lab's data (DSCP 26) by rpt-settings dscp-priority: listed, or its class selector. */
    public static int dataPriority(final JsonNode settings) {
        for (var e : settings.path("rdma-path-table:rpt-settings").path("dscp-priority")) {
            if (e.path("dscp").asInt(-1) == DATA_DSCP) {
                return e.path("priority").asInt();
            }
        }
        return DATA_DSCP / 8;
    }

    /**
     * Each data direction in {@code paths} (rdma-path-table's) against the marking of
     * {@code link} from {@code atMs}: one that the kernel sends across the link shows CE (if any)
     * from the hop after the link on, none before, and {@code marked-at} names the link; where the
     * link marks every ECN-capable packet ({@code rate} 0) and all of the direction's data left
     * after the marking began, it must show CE. A direction that does not cross it shows no CE
     * and no {@code marked-at}. {@code rate} -1: the marking was removed (crossing directions may
     * or may not show CE). Returns {directions checked, crossing ones that showed CE}.
     */
    static int[] compareMarks(final Link link, final long rate, final long atMs, final List<Direction> dirs,
            final Map<KernelPaths.Flow, List<KernelPaths.Hop>> kernel, final JsonNode paths, final long nowMs,
            final List<String> bad) {
        final Map<String, JsonNode> byId = new LinkedHashMap<>();
        paths.forEach(p -> byId.put(p.path("session-id").asText(), p));
        final Set<Direction> crossing = new HashSet<>(leaving(kernel, dirs, link.node(), link.port()));
        int checked = 0;
        int shown = 0;
        for (var d : dirs) {
            if (d.settledMs() > nowMs) {
                continue;
            }
            final JsonNode path = byId.get(d.sessionId());
            if (path == null || path.path(d.path()).path("hop").isEmpty()) {
                // not in rpt, or no data seen: the path checks say whether it should be
                continue;
            }
            checked++;
            final JsonNode dir = path.path(d.path());
            final String what = d.sessionId() + " " + d.path();
            final var hops = dir.path("hop");
            final JsonNode markedAt = dir.path("marked-at");
            if (!crossing.contains(d)) {
                for (var h : hops) {
                    if (h.path("ce-packets").asLong(0) > 0) {
                        bad.add(what + ": ce-packets " + h.path("ce-packets").asLong() + " at " + h.path("node-id")
                            .asText() + ", but the kernel sends it nowhere near the marked link " + link);
                    }
                }
                if (!markedAt.isMissingNode()) {
                    bad.add(what + ": marked-at " + describe(markedAt) + ", but the kernel sends it nowhere near the"
                        + " marked link " + link);
                }
                continue;
            }
            int markIndex = -1;
            for (int i = 0; i < hops.size(); i++) {
                if (hops.get(i).path("node-id").asText().equals(link.node())) {
                    markIndex = i;
                }
            }
            if (markIndex < 0) {
                bad.add(what + ": the kernel sends it across " + link + ", but its hops " + PathCheck.hops(dir)
                    + " do not name " + link.node());
                continue;
            }
            boolean anyCe = false;
            for (int i = 0; i < hops.size(); i++) {
                final JsonNode h = hops.get(i);
                final long ce = h.path("ce-packets").asLong(0);
                if (i <= markIndex && ce > 0) {
                    bad.add(what + ": ce-packets " + ce + " at " + h.path("node-id").asText() + ", before the marked"
                        + " link " + link);
                }
                anyCe |= i > markIndex && ce > 0;
            }
            if (anyCe) {
                shown++;
                if (markedAt.isMissingNode()) {
                    bad.add(what + ": CE after " + link.node() + " but no marked-at; it should name " + link);
                } else if (!link.node().equals(markedAt.path("node-id").asText())
                        || !link.port().equals(markedAt.path("egress-tp").asText())
                        || !link.nextNode().equals(markedAt.path("next-node-id").asText())
                        || !link.nextPort().equals(markedAt.path("next-ingress-tp").asText())) {
                    bad.add(what + ": marked-at " + describe(markedAt) + ", the lab marks on " + link);
                } else if (hops.get(markIndex).path("ect-packets").asLong(0) > 0
                        && !markedAt.path("certain").asBoolean(false)) {
                    bad.add(what + ": marked-at names " + link + " but certain is not true, though "
                        + link.node() + " reported ECN-capable data without CE");
                }
                for (int i = markIndex + 1; i < hops.size(); i++) {
                    final JsonNode h = hops.get(i);
                    if (h.path("ect-packets").asLong(0) > 0 && h.path("ce-packets").asLong(0) == 0) {
                        bad.add(what + ": no CE at " + h.path("node-id").asText() + ", after the marked link " + link
                            + " (a mark stays set)");
                    }
                }
            } else if (!markedAt.isMissingNode()) {
                bad.add(what + ": marked-at " + describe(markedAt) + " but no hop after " + link.node()
                    + " shows CE");
            } else if (rate == 0 && d.startMs() > atMs) {
                bad.add(what + ": crosses " + link + ", which marks every ECN-capable packet since its data began,"
                    + " yet no hop after " + link.node() + " shows CE (hops " + PathCheck.hops(dir) + ")");
            }
        }
        return new int[] {checked, shown};
    }

    private static String describe(final JsonNode markedAt) {
        return markedAt.path("node-id").asText("?") + ":" + markedAt.path("egress-tp").asText("?") + " -> "
            + markedAt.path("next-node-id").asText("?") + ":" + markedAt.path("next-ingress-tp").asText("?");
    }

    /**
     * {@code rpt/paused-port} against the pauses the lab sent: while a pause goes on (or just
     * ended), its port and priority are listed with exactly the sessions whose data the kernel
     * sends out of the port in that priority (of those whose data rdma-path-table shows seen at
     * that switch, with its figures); no other port is listed. Returns the pauses compared.
     */
    static int comparePauses(final List<JsonNode> pfcs, final List<Direction> dirs,
            final Map<KernelPaths.Flow, List<KernelPaths.Hop>> kernel, final int dataPriority, final JsonNode rpt,
            final long nowMs, final List<String> notes, final List<String> bad) {
        final Map<String, JsonNode> listed = new LinkedHashMap<>();
        rpt.path("paused-port").forEach(e -> listed.put(e.path("node-id").asText() + ":" + e.path("tp-id").asText()
            + "/" + e.path("priority").asInt(), e));
        // session|direction|switch of each data direction's hop whose switch saw the data (its figures:
        // the DSCP that gives the priority); a switch that did not capture (turned off, say) cannot
        // say what its pause holds up
        final Set<String> seenAt = new HashSet<>();
        rpt.path("path").forEach(p -> {
            for (var dir : List.of("data-forward", "data-reverse")) {
                p.path(dir).path("hop").forEach(h -> {
                    if (h.has("dscp")) {
                        seenAt.add(p.path("session-id").asText() + "|" + dir + "|" + h.path("node-id").asText());
                    }
                });
            }
        });
        final Set<String> recent = new HashSet<>();
        int compared = 0;
        for (var f : pfcs) {
            final String key = f.path("node").asText() + ":" + f.path("port").asText() + "/" + f.path("priority")
                .asInt();
            final long end = f.path("endMs").asLong();
            if (nowMs - end > PAUSE_LINGER_MS) {
                continue;
            }
            if (!recent.add(key)) {
                continue;
            }
            final JsonNode entry = listed.get(key);
            final String what = "paused-port " + key;
            if (entry == null) {
                if (nowMs - end > 0) {
                    notes.add("congestion: " + what + " is not listed; the pause ended " + (nowMs - end) / 1000
                        + " s ago, and the list follows the agents' probes");
                } else {
                    bad.add(what + ": not listed, yet the lab pauses it now");
                }
                continue;
            }
            compared++;
            final int priority = f.path("priority").asInt();
            final Set<String> expected = new TreeSet<>();
            if (priority == dataPriority) {
                final String node = f.path("node").asText();
                for (var d : leaving(kernel, dirs, node, f.path("port").asText())) {
                    if (seenAt.contains(d.sessionId() + "|" + d.path() + "|" + node)) {
                        expected.add(d.sessionId());
                    }
                }
            }
            final List<String> ids = new ArrayList<>();
            entry.path("session").forEach(s -> ids.add(s.asText()));
            final List<String> strangers = ids.stream().filter(s -> !expected.contains(s)).toList();
            if (!strangers.isEmpty()) {
                bad.add(what + ": lists " + strangers.size() + " sessions whose data the kernel does not send out of"
                    + " it in priority " + priority + " (the lab's data is priority " + dataPriority + "): "
                    + strangers.stream().limit(5).toList());
            }
            final long count = entry.path("session-count").asLong(-1);
            if (count != expected.size()) {
                final List<String> missing = expected.stream().filter(s -> !ids.contains(s)).limit(5).toList();
                bad.add(what + ": session-count " + count + ", but " + expected.size() + " sessions in rpt send their"
                    + " data out of it in priority " + priority + (missing.isEmpty() ? "" : "; not listed: "
                        + missing));
            } else if (strangers.isEmpty()) {
                // the first 20 by id, in whatever order the datastore lists a system-ordered leaf-list
                final List<String> first = expected.stream().limit(20).toList();
                if (!new TreeSet<>(ids).equals(new TreeSet<>(first)) || ids.size() != first.size()) {
                    bad.add(what + ": lists " + ids + ", the first of the sessions sent out of it are " + first);
                }
            }
        }
        for (var key : listed.keySet()) {
            if (!recent.contains(key)) {
                bad.add("paused-port " + key + ": listed, but the lab paused no such port and priority lately");
            }
        }
        return compared;
    }
}
