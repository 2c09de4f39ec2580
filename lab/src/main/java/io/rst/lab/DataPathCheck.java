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
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks what RST shows of the NCCL-style QP pairs ({@link NcclTraffic}) against what happened:
 * each QP pair that an agent could pair (two sampled answers named sampled requests: the truth's
 * pairable time) must be in {@code rdma-path-table:rpt} once, as a session learnt from data
 * ({@code learned-from data}, transport RC, not one-way) under its id (endpoints ordered by address,
 * then QPN) with both QPNs, its two data paths ({@code data-forward} from the lower endpoint,
 * {@code data-reverse} back) equal to the kernel's forwarding of each side's UDP source port hop by
 * hop and complete, and no CM path; never also as a one-way flow's path or under another id. In
 * {@code rdma-flow-table:rft}, every switch that both directions cross lists the session (both
 * QPNs, each direction's UDP source port and ingress port), every switch that one direction
 * crosses lists that direction's one-way flow, paired into the session ({@code paired-session});
 * no switch lists a CM session of the same QPs. A QP pair that ended long enough ago to be idle
 * at every agent must be IDLE; otherwise ACTIVE or IDLE.
 */
public final class DataPathCheck {
    /**
     * After its last packet, an agent calls a data-learned session IDLE after 30 s (its
     * {@code --data-idle} default) and reports it within its report interval (5 s): with the
     * controller's lag, every switch's record is IDLE this long after.
     */
    static final long IDLE_EXPECTED_AFTER_MS = 50_000;
    /**
     * How long after a QP pair became pairable {@code ./rst lab check} requires it: an agent
     * reports a data-learned record at most every 5 s (its {@code --data-report-ms}), and the
     * controller pairs one-way flows of different switches after both reported.
     */
    public static final long SETTLE_MS = 15_000;

    /**
     * What a check found.
     *
     * @param qpPairs QP pairs checked
     * @param paired of them, pairable ones (a sampled response named a sampled request), which
     *     must be in RESTCONF
     * @param paths data paths compared with the kernel's forwarding
     * @param records flow-table records compared (switch by switch)
     * @param recent pairable ones too recent to require yet (see {@link #SETTLE_MS})
     * @param mismatches one line per difference
     */
    public record Result(int qpPairs, int paired, int paths, int records, int recent, List<String> mismatches) {
        public boolean ok() {
            return mismatches.isEmpty();
        }

        public String summary() {
            return "checked " + qpPairs + " NCCL-style QP pairs: " + paired + " pairable ones learnt from data once, "
                + paths + " data paths against the kernel's forwarding, " + records + " flow-table records; "
                + (qpPairs - paired - recent) + " without two sampled answers yet and " + recent
                + " paired too recently (neither required); "
                + (ok() ? "all equal" : mismatches.size() + " differ");
        }
    }

    private DataPathCheck() {
        // utility
    }

    /** The two directions of a QP pair as the kernel forwards them: A to B, B to A. */
    static KernelPaths.Flow[] flows(final Truth.NcclQp qp) {
        return new KernelPaths.Flow[] {new KernelPaths.Flow(qp.hostA(), qp.ipA(), qp.ipB(), qp.portA()),
            new KernelPaths.Flow(qp.hostB(), qp.ipB(), qp.ipA(), qp.portB())};
    }

    /**
     * Checks {@code qps} against RESTCONF and the kernel.
     *
     * @param off switches whose RFT is off: their hops must be inferred, and they list nothing
     * @param bySession read each QP pair's path and flow-table records on their own (a sample of a
     *     large table) rather than the whole tables; a CM session of the same QPs is then not looked for
     */
    public static Result check(final Fabric fabric, final Collection<Truth.NcclQp> qps, final Restconf rc,
            final Set<String> off, final boolean bySession) {
        return check(fabric, qps, rc, off, bySession, 0);
    }

    /**
     * Checks {@code qps}, requiring only those pairable for {@code settleMs} (the others are not
     * required to show yet, but must not show wrong).
     */
    public static Result check(final Fabric fabric, final Collection<Truth.NcclQp> qps, final Restconf rc,
            final Set<String> off, final boolean bySession, final long settleMs) {
        final Set<KernelPaths.Flow> all = new LinkedHashSet<>();
        for (var q : qps) {
            all.addAll(List.of(flows(q)));
        }
        final var kernel = KernelPaths.trace(fabric, all);
        final JsonNode rpt;
        final JsonNode rft;
        if (bySession) {
            final ArrayNode paths = Restconf.JSON.createArrayNode();
            final Map<String, ArrayNode> bySwitch = new LinkedHashMap<>();
            for (var q : qps) {
                for (var id : List.of(q.sessionId(), q.oneWayIdAtoB(), q.oneWayIdBtoA())) {
                    final var p = rc.get("data/rdma-path-table:rpt/path=" + Restconf.key(id) + "?content=nonconfig")
                        .path("rdma-path-table:path").path(0);
                    if (!p.isMissingNode()) {
                        paths.add(p);
                    }
                }
                final var f = flows(q);
                final Set<String> nodes = new LinkedHashSet<>();
                kernel.get(f[0]).forEach(h -> nodes.add(h.node()));
                kernel.get(f[1]).forEach(h -> nodes.add(h.node()));
                for (var node : nodes) {
                    for (var id : List.of(q.sessionId(), q.oneWayIdAtoB(), q.oneWayIdBtoA())) {
                        final var s = rc.get("data/rdma-flow-table:rft/switch=" + Restconf.key(node) + "/session="
                            + Restconf.key(id) + "?content=nonconfig").path("rdma-flow-table:session").path(0);
                        if (!s.isMissingNode()) {
                            bySwitch.computeIfAbsent(node, k -> Restconf.JSON.createArrayNode()).add(s);
                        }
                    }
                }
            }
            rpt = paths;
            final ArrayNode switches = Restconf.JSON.createArrayNode();
            bySwitch.forEach((node, sessions) -> {
                final ObjectNode sw = switches.addObject();
                sw.put("node-id", node);
                sw.set("session", sessions);
            });
            rft = switches;
        } else {
            rpt = rc.get("data/rdma-path-table:rpt?content=nonconfig").path("rdma-path-table:rpt").path("path");
            rft = rc.get("data/rdma-flow-table:rft?content=nonconfig").path("rdma-flow-table:rft").path("switch");
        }
        return compare(qps, rpt, rft, kernel, off, System.currentTimeMillis(), settleMs);
    }

    /** Checks again until everything is equal or {@code seconds} pass; the last result. */
    public static Result checkUntil(final Fabric fabric, final Collection<Truth.NcclQp> qps, final Restconf rc,
            final Set<String> off, final double seconds, final boolean bySession) {
        return checkUntil(fabric, qps, rc, off, seconds, bySession, 0);
    }

    /** {@link #checkUntil(Fabric, Collection, Restconf, Set, double, boolean)}, settled ones only required. */
    public static Result checkUntil(final Fabric fabric, final Collection<Truth.NcclQp> qps, final Restconf rc,
            final Set<String> off, final double seconds, final boolean bySession, final long settleMs) {
        final long deadline = System.nanoTime() + (long) (seconds * 1e9);
        while (true) {
            final var r = check(fabric, qps, rc, off, bySession, settleMs);
            if (r.ok() || System.nanoTime() > deadline) {
                return r;
            }
            Lab.sleep(1000);
        }
    }

    /** A QP pair's key whatever the order of its endpoints: its data-learned session id. */
    static String pairKey(final String ip1, final int qpn1, final String ip2, final int qpn2) {
        final int c = Truth.compareIps(ip1, ip2);
        return c < 0 || c == 0 && qpn1 < qpn2 ? Truth.dataSessionId(ip1, qpn1, ip2, qpn2)
            : Truth.dataSessionId(ip2, qpn2, ip1, qpn1);
    }

    /** The pair key of a path or flow-table record that names both QPNs; null if it does not. */
    private static String pairKeyOf(final JsonNode entry) {
        if (!entry.has("requester-qpn") || !entry.has("responder-qpn") || !entry.has("requester-ip")
                || !entry.has("responder-ip")) {
            return null;
        }
        try {
            return pairKey(entry.path("requester-ip").asText(), entry.path("requester-qpn").asInt(),
                entry.path("responder-ip").asText(), entry.path("responder-qpn").asInt());
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /**
     * The check itself, on RESTCONF's answers ({@code rpt}: the paths; {@code rft}: the switches,
     * each with its sessions) and the kernel's forwarding of each QP pair's two directions.
     */
    static Result compare(final Collection<Truth.NcclQp> qps, final JsonNode rpt, final JsonNode rft,
            final Map<KernelPaths.Flow, List<KernelPaths.Hop>> kernel, final Set<String> off, final long nowMs) {
        return compare(qps, rpt, rft, kernel, off, nowMs, 0);
    }

    /**
     * {@link #compare(Collection, JsonNode, JsonNode, Map, Set, long)}, requiring pairs pairable for
     * {@code settleMs}.
     */
    static Result compare(final Collection<Truth.NcclQp> qps, final JsonNode rpt, final JsonNode rft,
            final Map<KernelPaths.Flow, List<KernelPaths.Hop>> kernel, final Set<String> off, final long nowMs,
            final long settleMs) {
        // paths by id, and by the QP pair they name (any id, any learned-from)
        final Map<String, List<JsonNode>> pathsById = new HashMap<>();
        final Map<String, List<JsonNode>> pathsByPair = new HashMap<>();
        rpt.forEach(p -> {
            pathsById.computeIfAbsent(p.path("session-id").asText(), k -> new ArrayList<>()).add(p);
            final String key = pairKeyOf(p);
            if (key != null) {
                pathsByPair.computeIfAbsent(key, k -> new ArrayList<>()).add(p);
            }
        });
        final Map<String, Map<String, JsonNode>> records = new HashMap<>();
        final Map<String, List<String>> cmByPair = new HashMap<>();
        rft.forEach(sw -> {
            final String node = sw.path("node-id").asText();
            final Map<String, JsonNode> byId = records.computeIfAbsent(node, k -> new HashMap<>());
            sw.path("session").forEach(s -> {
                byId.put(s.path("session-id").asText(), s);
                final String key = pairKeyOf(s);
                if (key != null && !"data".equals(s.path("learned-from").asText("cm"))) {
                    cmByPair.computeIfAbsent(key, k -> new ArrayList<>())
                        .add(node + " " + s.path("session-id").asText());
                }
            });
        });

        final List<String> bad = new ArrayList<>();
        int paired = 0;
        int recent = 0;
        int compared = 0;
        int recordsCompared = 0;
        for (var q : qps) {
            final String id = q.sessionId();
            final String what = id + " (" + (q.twoWay() ? "two-way" : "one-way") + " " + q.hostA() + "<->" + q.hostB()
                + ")";
            final boolean lowerIsA = q.aIsLower();
            final var f = flows(q);
            final List<KernelPaths.Hop> ab = kernel.get(f[0]);
            final List<KernelPaths.Hop> ba = kernel.get(f[1]);
            if (ab == null || ba == null) {
                bad.add(what + ": the kernel's forwarding of its two directions is not known");
                continue;
            }
            // never a CM session of these QPs, pairable or not
            final var cm = cmByPair.get(id);
            if (cm != null) {
                bad.add(what + ": set up without CM, yet listed as a CM session: " + cm);
            }
            final var others = pathsByPair.getOrDefault(id, List.of()).stream()
                .filter(p -> !id.equals(p.path("session-id").asText())).map(p -> p.path("session-id").asText())
                .toList();
            if (!others.isEmpty()) {
                bad.add(what + ": listed in rpt under other ids too: " + others);
            }
            final var mine = pathsById.getOrDefault(id, List.of());
            if (mine.size() > 1) {
                bad.add(what + ": " + mine.size() + " paths in rpt");
            }
            if (q.pairableMs() < 0) {
                continue;
            }
            if (q.pairableMs() > nowMs - settleMs) {
                recent++;
                continue;
            }
            paired++;
            for (var oneWay : List.of(q.oneWayIdAtoB(), q.oneWayIdBtoA())) {
                if (pathsById.containsKey(oneWay)) {
                    bad.add(what + ": also in rpt as the one-way flow " + oneWay);
                }
            }
            if (mine.isEmpty()) {
                bad.add(what + ": no path in rpt");
            } else {
                final JsonNode p = mine.get(0);
                compared += comparePath(what, p, q, lowerIsA ? ab : ba, lowerIsA ? ba : ab, off, nowMs, bad);
            }
            recordsCompared += compareRecords(what, q, ab, ba, records, off, nowMs, bad);
        }
        return new Result(qps.size(), paired, compared, recordsCompared, recent, bad);
    }

    /** One QP pair's path: what it says of the session, its two data paths; returns the paths compared. */
    private static int comparePath(final String what, final JsonNode path, final Truth.NcclQp qp,
            final List<KernelPaths.Hop> fromLower, final List<KernelPaths.Hop> fromHigher, final Set<String> off,
            final long nowMs, final List<String> bad) {
        final boolean lowerIsA = qp.aIsLower();
        final String lowerIp = lowerIsA ? qp.ipA() : qp.ipB();
        final String higherIp = lowerIsA ? qp.ipB() : qp.ipA();
        final int lowerQpn = lowerIsA ? qp.qpnA() : qp.qpnB();
        final int higherQpn = lowerIsA ? qp.qpnB() : qp.qpnA();
        final String lowerHost = lowerIsA ? qp.hostA() : qp.hostB();
        final String higherHost = lowerIsA ? qp.hostB() : qp.hostA();
        sessionFields(what + " in rpt", path, lowerIp, lowerQpn, higherIp, higherQpn, bad);
        state(what + " in rpt", path, qp, nowMs, bad);
        for (var cmDir : List.of("forward", "reverse")) {
            if (path.path(cmDir).path("hop").size() > 0) {
                bad.add(what + ": a CM path (" + cmDir + ") " + PathCheck.hops(path.path(cmDir))
                    + ", but it had no CM");
            }
        }
        PathCheck.compare(what + " data-forward", path.path("data-forward"), fromLower, off, higherHost, bad);
        PathCheck.compare(what + " data-reverse", path.path("data-reverse"), fromHigher, off, lowerHost, bad);
        return 2;
    }

    /** What a path or a flow-table record says of a data-learned session. */
    private static void sessionFields(final String what, final JsonNode entry, final String lowerIp, final int lowerQpn,
            final String higherIp, final int higherQpn, final List<String> bad) {
        if (!"data".equals(entry.path("learned-from").asText("cm"))) {
            bad.add(what + ": learned-from " + entry.path("learned-from").asText("cm (the default)")
                + ", but it had no CM: data");
        }
        if (!"RC".equals(entry.path("transport").asText())) {
            bad.add(what + ": transport " + entry.path("transport") + ", sent RC");
        }
        if (entry.path("one-way").asBoolean(false)) {
            bad.add(what + ": one-way, though both directions were sent and paired");
        }
        if (!lowerIp.equals(entry.path("requester-ip").asText())
                || !higherIp.equals(entry.path("responder-ip").asText())) {
            bad.add(what + ": requester-ip " + entry.path("requester-ip") + ", responder-ip "
                + entry.path("responder-ip") + "; the lower endpoint is " + lowerIp + ", the higher " + higherIp);
        }
        if (entry.path("requester-qpn").asInt(-1) != lowerQpn || entry.path("responder-qpn").asInt(-1) != higherQpn) {
            bad.add(what + ": requester-qpn " + entry.path("requester-qpn") + ", responder-qpn "
                + entry.path("responder-qpn") + "; the QPs are " + lowerQpn + " (" + lowerIp + ") and " + higherQpn
                + " (" + higherIp + ")");
        }
    }

    /** ACTIVE or IDLE; IDLE once the pair ended long enough ago. */
    private static void state(final String what, final JsonNode entry, final Truth.NcclQp qp, final long nowMs,
            final List<String> bad) {
        final String state = entry.path("state").asText();
        final boolean idleByNow = qp.endedMs() >= 0 && nowMs - qp.endedMs() > IDLE_EXPECTED_AFTER_MS;
        if (idleByNow ? !"IDLE".equals(state) : !"ACTIVE".equals(state) && !"IDLE".equals(state)) {
            bad.add(what + ": state " + state + ", " + (idleByNow ? "its last packet left "
                + (nowMs - qp.endedMs()) / 1000 + " s ago: IDLE" : "it is sending or just stopped: ACTIVE or IDLE"));
        }
    }

    /**
     * Each switch a direction crosses: the paired session where both do, the direction's one-way
     * flow (paired into the session) where one does; returns the records compared.
     */
    private static int compareRecords(final String what, final Truth.NcclQp qp, final List<KernelPaths.Hop> ab,
            final List<KernelPaths.Hop> ba, final Map<String, Map<String, JsonNode>> records, final Set<String> off,
            final long nowMs, final List<String> bad) {
        final String id = qp.sessionId();
        final boolean lowerIsA = qp.aIsLower();
        final Map<String, KernelPaths.Hop> abAt = new LinkedHashMap<>();
        ab.forEach(h -> abAt.put(h.node(), h));
        final Map<String, KernelPaths.Hop> baAt = new LinkedHashMap<>();
        ba.forEach(h -> baAt.put(h.node(), h));
        final Set<String> nodes = new LinkedHashSet<>(abAt.keySet());
        nodes.addAll(baAt.keySet());
        int compared = 0;
        for (var node : nodes) {
            final var table = records.getOrDefault(node, Map.of());
            final var session = table.get(id);
            final var oneAb = table.get(qp.oneWayIdAtoB());
            final var oneBa = table.get(qp.oneWayIdBtoA());
            if (off.contains(node)) {
                if (session != null || oneAb != null || oneBa != null) {
                    bad.add(what + ": " + node + "'s RFT is off, yet it lists the QP pair");
                }
                continue;
            }
            compared++;
            final String at = what + " at " + node;
            final var hAb = abAt.get(node);
            final var hBa = baAt.get(node);
            if (hAb != null && hBa != null) {
                if (session == null) {
                    bad.add(at + ": both directions cross it, but its flow table has no " + id
                        + (oneAb != null || oneBa != null ? " (only one-way flows)" : ""));
                    continue;
                }
                for (var one : new JsonNode[] {oneAb, oneBa}) {
                    if (one != null) {
                        bad.add(at + ": a one-way flow " + one.path("session-id").asText()
                            + " beside the paired session");
                    }
                }
                sessionFields(at, session, lowerIsA ? qp.ipA() : qp.ipB(), lowerIsA ? qp.qpnA() : qp.qpnB(),
                    lowerIsA ? qp.ipB() : qp.ipA(), lowerIsA ? qp.qpnB() : qp.qpnA(), bad);
                state(at, session, qp, nowMs, bad);
                // requester-data: the lower endpoint's packets; responder-data: the higher's
                dataFlow(at + " requester-data", session.path("requester-data"), lowerIsA ? hAb : hBa,
                    lowerIsA ? qp.portA() : qp.portB(), bad);
                dataFlow(at + " responder-data", session.path("responder-data"), lowerIsA ? hBa : hAb,
                    lowerIsA ? qp.portB() : qp.portA(), bad);
            } else {
                // one direction only: the agent cannot know the sender's QP; the controller pairs it
                final boolean aToB = hAb != null;
                final var one = aToB ? oneAb : oneBa;
                final String oneId = aToB ? qp.oneWayIdAtoB() : qp.oneWayIdBtoA();
                if (session != null) {
                    bad.add(at + ": only " + (aToB ? qp.hostA() + "->" + qp.hostB() : qp.hostB() + "->" + qp.hostA())
                        + " crosses it, yet it lists the paired session " + id);
                }
                if (one == null) {
                    bad.add(at + ": only one direction crosses it, but its flow table has no one-way flow " + oneId);
                    continue;
                }
                if (!one.path("one-way").asBoolean(false)) {
                    bad.add(at + ": " + oneId + " is not one-way");
                }
                if (!"data".equals(one.path("learned-from").asText("cm"))
                        || !"RC".equals(one.path("transport").asText())) {
                    bad.add(at + ": " + oneId + " learned-from " + one.path("learned-from") + " transport "
                        + one.path("transport") + ", sent as RC data");
                }
                if (!id.equals(one.path("paired-session").asText())) {
                    bad.add(at + ": " + oneId + " paired-session " + one.path("paired-session")
                        + ", its pair is " + id);
                }
                if (one.path("responder-qpn").asInt(-1) != (aToB ? qp.qpnB() : qp.qpnA())) {
                    bad.add(at + ": " + oneId + " responder-qpn " + one.path("responder-qpn"));
                }
                state(at, one, qp, nowMs, bad);
                dataFlow(at + " " + oneId + " requester-data", one.path("requester-data"), aToB ? hAb : hBa,
                    aToB ? qp.portA() : qp.portB(), bad);
                if (one.has("responder-data")) {
                    bad.add(at + ": the one-way flow " + oneId + " has responder-data");
                }
            }
        }
        return compared;
    }

    /** One direction's data at a switch: present, from the side's UDP port, in at the kernel's ingress. */
    private static void dataFlow(final String what, final JsonNode data, final KernelPaths.Hop hop, final int port,
            final List<String> bad) {
        if (data.isMissingNode()) {
            bad.add(what + ": absent, yet the kernel sends that direction in at " + hop.ingress());
            return;
        }
        if (data.path("udp-src-port").asInt(-1) != port) {
            bad.add(what + ": udp-src-port " + data.path("udp-src-port") + ", sent from " + port);
        }
        if (data.has("ingress-port") && !hop.ingress().equals(data.path("ingress-port").asText())) {
            bad.add(what + ": ingress-port " + data.path("ingress-port").asText() + ", the kernel sends it in at "
                + hop.ingress());
        }
        if (data.path("packets").asLong(1) < 1) {
            bad.add(what + ": no packets");
        }
    }
}
