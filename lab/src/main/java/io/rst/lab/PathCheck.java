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
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks what RST shows against what happened: every session's forward and reverse CM path in
 * {@code rdma-path-table:rpt} against the kernel's forwarding of that direction's packets (hop by
 * hop, ingress and egress ports, host to host), and each session's state against what the
 * generator did. A switch whose RFT is off must show as exactly that: its hop inferred, not
 * observed, and a gap that names it.
 */
public final class PathCheck {
    /**
     * What a check found.
     *
     * @param sessions connections checked
     * @param paths directions whose path was compared
     * @param states states compared
     * @param mismatches one line per difference
     * @param dataPaths data directions whose path was compared (agents sampling data)
     * @param dataApart sessions whose data took another way than their CM, as the kernel forwards
     *        them (and rpt said so)
     */
    public record Result(int sessions, int paths, int states, List<String> mismatches, int dataPaths, int dataApart) {
        public boolean ok() {
            return mismatches.isEmpty();
        }

        public String summary() {
            return "checked " + sessions + " sessions: " + paths + " paths against the kernel's forwarding, " + states
                + " states against the traffic, " + dataPaths + " data paths (" + dataApart
                + " sessions with data apart from their CM); " + (ok() ? "all equal" : mismatches.size() + " differ");
        }
    }

    /**
     * The connections a check compares, and how many it leaves out as still in flight.
     *
     * @param connections those the generator last wrote of at least the settle time before the check
     * @param inFlight those it wrote of more recently: their answers, time-outs and closes may still
     *        be on their way to the flow tables and paths
     */
    public record Settled(List<Truth.Connection> connections, int inFlight) {
    }

    /**
     * The connections of {@code conns} that have settled at {@code nowMillis}: those the generator
     * last wrote of (started, or closed) at least {@code settleMillis} before, in their order. A
     * connection whose time is unknown (0: a truth file without times) counts as settled.
     */
    public static Settled settled(final Collection<Truth.Connection> conns, final long nowMillis,
            final long settleMillis) {
        final List<Truth.Connection> done = new ArrayList<>(conns.size());
        final long cutoff = nowMillis - settleMillis;
        for (var c : conns) {
            if (c.changedMillis() <= cutoff) {
                done.add(c);
            }
        }
        return new Settled(done, conns.size() - done.size());
    }

    /** The scenarios that send data packets (they set the connection up). */
    static final Set<String> WITH_DATA = Set.of("LIVE", "CLOSED", "HALF_CLOSED", "MRA", "FLAPPING");

    private PathCheck() {
        // utility
    }

    /**
     * Checks {@code conns}: paths, and states.
     *
     * @param off switches whose RFT is off for these sessions: their hops must be inferred
     */
    public static Result check(final Fabric fabric, final Collection<Truth.Connection> conns, final Restconf rc,
            final Set<String> off) {
        return check(fabric, conns, rc, off, false);
    }

    /**
     * Checks {@code conns}: paths, and states.
     *
     * @param off switches whose RFT is off for these sessions: their hops must be inferred
     * @param bySession read each session's path and flow-table entry on its own (a sample of a
     *     large table: the whole of {@code rpt} and {@code rft} after a long run is gigabytes of JSON)
     */
    public static Result check(final Fabric fabric, final Collection<Truth.Connection> conns, final Restconf rc,
            final Set<String> off, final boolean bySession) {
        return check(fabric, conns, rc, off, bySession, 0);
    }

    /**
     * Checks {@code conns}, knowing that the agents sample every {@code dataSample}-th PSN (0: not
     * known; data paths are then checked if any path has one). A connection's data packets all
     * carry one PSN per direction, so where {@code dataSample} is more than 1 only the
     * connections whose PSNs both directions sample have data paths to check.
     */
    public static Result check(final Fabric fabric, final Collection<Truth.Connection> conns, final Restconf rc,
            final Set<String> off, final boolean bySession, final int dataSample) {
        final Map<String, JsonNode> paths = new HashMap<>();
        final Map<String, Map<String, JsonNode>> tables = new HashMap<>();
        if (bySession) {
            for (var c : conns) {
                final var p = rc.get("data/rdma-path-table:rpt/path=" + Restconf.key(c.sessionId())
                    + "?content=nonconfig").path("rdma-path-table:path").path(0);
                if (!p.isMissingNode()) {
                    paths.put(c.sessionId(), p);
                }
            }
        } else {
            rc.get("data/rdma-path-table:rpt?content=nonconfig").path("rdma-path-table:rpt").path("path")
                .forEach(p -> paths.put(p.path("session-id").asText(), p));
            rc.get("data/rdma-flow-table:rft?content=nonconfig").path("rdma-flow-table:rft").path("switch")
                .forEach(sw -> {
                    final Map<String, JsonNode> byId = new HashMap<>();
                    sw.path("session").forEach(s -> byId.put(s.path("session-id").asText(), s));
                    tables.put(sw.path("node-id").asText(), byId);
                });
        }

        // data paths are checked where agents sample data (any path has one)
        final boolean sampling = paths.values().stream().anyMatch(p -> p.has("data-forward"));
        final Map<Truth.Connection, KernelPaths.Flow[]> flows = new HashMap<>();
        final Set<KernelPaths.Flow> all = new LinkedHashSet<>();
        for (var c : conns) {
            final var fwd = new KernelPaths.Flow(c.requester(), c.requesterIp(), c.responderIp(), c.requesterCmPort());
            final var rev = c.responderCmPort() < 0 ? null
                : new KernelPaths.Flow(c.responder(), c.responderIp(), c.requesterIp(), c.responderCmPort());
            final boolean data = WITH_DATA.contains(c.scenario()) && (dataSample <= 0 ? sampling
                : (c.requesterQpn() * 7 & 0xffffff) % dataSample == 0
                    && (c.responderQpn() * 5 & 0xffffff) % dataSample == 0);
            final var dataFwd = data ? new KernelPaths.Flow(c.requester(), c.requesterIp(), c.responderIp(),
                c.requesterDataPort()) : null;
            final var dataRev = data ? new KernelPaths.Flow(c.responder(), c.responderIp(), c.requesterIp(),
                c.responderDataPort()) : null;
            flows.put(c, new KernelPaths.Flow[] {fwd, rev, dataFwd, dataRev});
            for (var flow : flows.get(c)) {
                if (flow != null) {
                    all.add(flow);
                }
            }
        }
        final var truth = KernelPaths.trace(fabric, all);
        int dataPaths = 0;
        int dataApart = 0;

        final List<String> bad = new ArrayList<>();
        int compared = 0;
        int states = 0;
        for (var c : conns) {
            final String id = c.sessionId();
            final var path = paths.get(id);
            if (path == null) {
                bad.add(id + " (" + c.scenario() + " " + c.requester() + "->" + c.responder() + "): no path in rpt");
                continue;
            }
            final var f = flows.get(c);
            compared += compare(id + " forward", path.path("forward"), truth.get(f[0]), off, c.responder(), bad);
            if (f[1] != null) {
                compared += compare(id + " reverse", path.path("reverse"), truth.get(f[1]), off, c.requester(), bad);
            } else if (path.path("reverse").path("hop").size() > 0) {
                bad.add(id + " reverse: the responder sent nothing, yet rpt has hops " + hops(path.path("reverse")));
            }
            if (f[2] != null) {
                // every switch on a data path that captures tells it: one that saw the CM message
                // announcing the QP claims the data for the session itself; one that did not learns
                // it from the data, and the controller joins that record into the CM session
                dataPaths += compareData(id + " data forward", path.path("data-forward"), truth.get(f[2]), off, bad);
                dataPaths += compareData(id + " data reverse", path.path("data-reverse"), truth.get(f[3]), off, bad);
                final boolean apart = !truth.get(f[2]).equals(truth.get(f[0]))
                    || f[1] != null && !truth.get(f[3]).equals(truth.get(f[1]));
                if (apart) {
                    dataApart++;
                }
                if (apart != path.path("data-path-differs").asBoolean(false)) {
                    bad.add(id + ": data-path-differs " + path.path("data-path-differs") + ", but the kernel sends its"
                        + " data " + (apart ? "apart from" : "the way of") + " its CM; anomaly "
                        + path.path("anomaly"));
                }
            }
            // the state the flow table reaches: in the path, and on the requester's first switch
            final String pathState = path.path("state").asText();
            states++;
            if (!c.expect().equals(pathState)) {
                bad.add(id + " (" + c.scenario() + "): path state " + pathState + ", the traffic made it "
                    + c.expect());
            }
            final String first = truth.get(f[0]).get(0).node();
            if (!off.contains(first)) {
                final var s = bySession ? entry(rc, first, id) : tables.getOrDefault(first, Map.of()).get(id);
                states++;
                if (s == null) {
                    bad.add(id + ": not in " + first + "'s flow table");
                } else {
                    if (!c.expect().equals(s.path("state").asText())) {
                        bad.add(id + " (" + c.scenario() + "): " + first + " says " + s.path("state").asText()
                            + ", the traffic made it " + c.expect());
                    }
                    if (c.rejectReason() >= 0 && s.path("reject-reason").asInt(-1) != c.rejectReason()) {
                        bad.add(id + ": reject reason " + s.path("reject-reason") + " in " + first + ", sent "
                            + c.rejectReason());
                    }
                    if (s.path("requester-udp-src-port").asInt(-1) != c.requesterCmPort()) {
                        bad.add(id + ": requester-udp-src-port " + s.path("requester-udp-src-port") + " in " + first
                            + ", sent from " + c.requesterCmPort());
                    }
                    if (c.responderCmPort() >= 0 && s.path("responder-udp-src-port").asInt(-1) != c.responderCmPort()) {
                        bad.add(id + ": responder-udp-src-port " + s.path("responder-udp-src-port") + " in " + first
                            + ", sent from " + c.responderCmPort());
                    }
                }
            }
        }
        return new Result(conns.size(), compared, states, bad, dataPaths, dataApart);
    }

    /**
     * Compares one data direction, hop by hop; a hop is expected inferred only where RFT is off.
     * Returns 1.
     */
    private static int compareData(final String what, final JsonNode dir, final List<KernelPaths.Hop> kernel,
            final Set<String> off, final List<String> bad) {
        final List<String> want = new ArrayList<>();
        for (var h : kernel) {
            final boolean inferred = off.contains(h.node());
            want.add(h.node() + ":" + h.ingress() + ">" + h.egress() + (inferred ? "(inferred)" : ""));
        }
        final List<String> got = hops(dir);
        if (!want.equals(got)) {
            bad.add(what + ": rpt " + got + ", kernel " + want + gaps(dir));
        }
        return 1;
    }

    /** Compares one direction; returns 1 (one path compared). */
    static int compare(final String what, final JsonNode dir, final List<KernelPaths.Hop> kernel,
            final Set<String> off, final String dstHost, final List<String> bad) {
        final List<String> want = new ArrayList<>();
        for (var h : kernel) {
            want.add(h.node() + ":" + h.ingress() + ">" + h.egress() + (off.contains(h.node()) ? "(inferred)" : ""));
        }
        final List<String> got = hops(dir);
        if (!want.equals(got)) {
            bad.add(what + ": rpt " + got + ", kernel " + want + gaps(dir));
            return 1;
        }
        final boolean crossesOff = kernel.stream().anyMatch(h -> off.contains(h.node()));
        final boolean complete = dir.path("complete").asBoolean();
        if (crossesOff) {
            for (var h : kernel) {
                if (off.contains(h.node()) && !gaps(dir).contains(h.node())) {
                    bad.add(what + ": RFT is off on " + h.node() + " but no gap names it" + gaps(dir));
                }
            }
            if (complete) {
                bad.add(what + ": complete, though RFT is off on a switch it crosses");
            }
        } else if (!complete) {
            bad.add(what + ": not complete" + gaps(dir));
        }
        if (dir.has("destination-node") && !dstHost.equals(dir.path("destination-node").asText())) {
            bad.add(what + ": destination-node " + dir.path("destination-node").asText() + ", sent to " + dstHost);
        }
        return 1;
    }

    static List<String> hops(final JsonNode dir) {
        final List<JsonNode> list = new ArrayList<>();
        dir.path("hop").forEach(list::add);
        list.sort((a, b) -> a.path("index").asInt() - b.path("index").asInt());
        final List<String> out = new ArrayList<>();
        for (var h : list) {
            out.add(h.path("node-id").asText() + ":" + h.path("ingress-tp").asText("?") + ">"
                + h.path("egress-tp").asText("?") + (h.path("observed").asBoolean(true) ? "" : "(inferred)"));
        }
        return out;
    }

    private static String gaps(final JsonNode dir) {
        return dir.path("gap").isEmpty() ? "" : " gaps " + dir.path("gap");
    }

    private static JsonNode entry(final Restconf rc, final String node, final String id) {
        final var s = rc.get("data/rdma-flow-table:rft/switch=" + Restconf.key(node) + "/session=" + Restconf.key(id)
            + "?content=nonconfig").path("rdma-flow-table:session").path(0);
        return s.isMissingNode() ? null : s;
    }

    /** Checks again until everything is equal or {@code seconds} pass; the last result. */
    public static Result checkUntil(final Fabric fabric, final Collection<Truth.Connection> conns, final Restconf rc,
            final Set<String> off, final double seconds) {
        return checkUntil(fabric, conns, rc, off, seconds, false);
    }

    /** {@link #checkUntil(Fabric, Collection, Restconf, Set, double)}, session by session if {@code bySession}. */
    public static Result checkUntil(final Fabric fabric, final Collection<Truth.Connection> conns, final Restconf rc,
            final Set<String> off, final double seconds, final boolean bySession) {
        return checkUntil(fabric, conns, rc, off, seconds, bySession, 0);
    }

    /** {@link #checkUntil(Fabric, Collection, Restconf, Set, double, boolean)} with the agents' data sampling. */
    public static Result checkUntil(final Fabric fabric, final Collection<Truth.Connection> conns, final Restconf rc,
            final Set<String> off, final double seconds, final boolean bySession, final int dataSample) {
        final long deadline = System.nanoTime() + (long) (seconds * 1e9);
        while (true) {
            final var r = check(fabric, conns, rc, off, bySession, dataSample);
            if (r.ok() || System.nanoTime() > deadline) {
                return r;
            }
            Lab.sleep(1000);
        }
    }
}
