/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.it;

import static org.awaitility.Awaitility.await;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;
import static org.junit.Assume.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rst.lab.Congestion;
import io.rst.lab.DataPathCheck;
import io.rst.lab.Fabric;
import io.rst.lab.KernelPaths;
import io.rst.lab.Lab;
import io.rst.lab.LabException;
import io.rst.lab.LinkCheck;
import io.rst.lab.NcclTraffic;
import io.rst.lab.PathCheck;
import io.rst.lab.Restconf;
import io.rst.lab.Traffic;
import io.rst.lab.Truth;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.FixMethodOrder;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.Timeout;
import org.junit.runners.MethodSorters;

/**
 * End to end, the whole system as an operator runs it: the real RST distribution (Karaf, MD-SAL,
 * RESTCONF) as a process of its own, the lab fabric (2 spines, 4 leaves, 8 hosts in network
 * namespaces, kernel ECMP on the L4 hash), one real agent per switch capturing on its interfaces,
 * and CM plus data traffic from the hosts. No topology is written anywhere: lldpd runs in every
 * namespace, and the controller learns the links from the agents' LLDP neighbours (topology
 * rst-lldp), which must equal the lab's wiring before any path is checked. Every session's forward
 * and reverse CM path in RESTCONF must equal the kernel's own forwarding hop by hop, and every
 * state what the traffic did; a switch turned off over RESTCONF stops capturing and shows as a gap
 * exactly there; a link taken down leaves rst-lldp within the LLDP TTL plus the status poll and
 * moves new sessions to the other spine. Nothing of the lab is left afterwards. Needs root
 * (network namespaces): without it the class is skipped with its reason.
 */
@FixMethodOrder(MethodSorters.NAME_ASCENDING)
public class LabFabricIT {
    /** A test that hangs fails after this instead of holding the build (JUnit 4: Pax Exam's runner). */
    @Rule
    public final Timeout timeout = Timeout.builder().withTimeout(20, TimeUnit.MINUTES).withLookingForStuckThread(true)
        .build();

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Beyond the LLDP TTL (or transmit interval) and the status poll: ageing tick, write and reads. */
    private static final int LLDP_SLACK_SECONDS = 4;

    private static Path work;
    private static Process karaf;
    private static Path karafHome;
    private static Lab lab;
    private static Fabric fabric;
    private static Restconf rc;
    private static Truth.Writer truthWriter;
    private static Traffic traffic;
    private static long seed = 11;
    /** The lab's lldpd daemons, for the check that none is left. */
    private static java.util.Map<String, Long> lldpd = java.util.Map.of();

    @BeforeClass
    @SuppressWarnings("checkstyle:RegexpSinglelineJava") // the lab's progress goes to the test's output
    public static void fabricAndController() throws Exception {
        assumeTrue("the lab fabric needs root (network namespaces)", "root".equals(System.getProperty("user.name")));
        assumeTrue("the lab fabric needs iproute2", Stream.of("/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip")
            .anyMatch(p -> Files.isExecutable(Path.of(p))));
        if (!Lab.leftovers().isEmpty()) {
            fail("rst-* namespaces exist on this machine (a lab is up: ./rst lab down): " + Lab.leftovers());
        }
        work = Path.of(System.getProperty("rst.it.lab", "target/lab")).toAbsolutePath();
        lab = new Lab(work.resolve("run"));
        final Path home;
        try (Stream<Path> dirs = Files.list(Path.of(System.getProperty("rst.it.labKaraf")))) {
            home = dirs.filter(p -> p.getFileName().toString().startsWith("rst-karaf")).findFirst().orElseThrow();
        }
        // a fresh controller: no bundle cache or datastore left from an earlier run of this test
        deleteTree(home.resolve("data"));
        // the controller presents each agent its own token, from the lab's token directory, and
        // trusts the lab's CA as ./rst demo has it (the lab also pins each agent's fingerprint)
        final Path cfg = home.resolve("etc/io.rst.rft.cfg");
        Files.writeString(cfg, Files.readString(cfg).replaceAll("(?m)^agent-(token-dir|ca-file) *=.*$", "")
            + "\nagent-token-dir = " + lab.tokenDir() + "\nagent-ca-file = " + lab.caFile() + "\n");
        karafHome = home;
        Files.createDirectories(work);
        karaf = startKaraf("karaf.out");
        rc = new Restconf("http://127.0.0.1:8181/rests", "admin", "admin");
        waitFor("RESTCONF to answer", 240, rc::answers);

        fabric = Fabric.defaults();
        lab.up(fabric, List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx128m", "-cp",
            System.getProperty("java.class.path"), "io.rst.rft.cli.Main"), System.out::println);
        lldpd = lab.lldpdPids();
        assertEquals("an lldpd per namespace", fabric.nodes().size(), lldpd.size());
        lab.register(rc);
        waitFor("every switch to capture", 60, () -> fabric.switches().stream().allMatch(sw ->
            "CAPTURING".equals(agentState(sw.id()))));
        // the lab wrote no topology: the configuration datastore has none
        assertEquals("no topology in the configuration datastore", 0, rc.get(
            "data/network-topology:network-topology?content=config").path("network-topology:network-topology")
            .path("topology").size());
        // the links as the controller learnt them from LLDP, before any path needs them
        final var links = LinkCheck.checkUntil(fabric, lab.downLinks(), rc, 60);
        System.out.println(links.summary());
        assertTrue(links.summary() + "\n" + String.join("\n", links.differences()), links.ok());
        // TLS is the lab's default: every switch's status says its agent is followed encrypted
        assertTrue("the lab's agents serve TLS", lab.tls());
        for (var sw : fabric.switches()) {
            final String detail = agentDetail(sw.id());
            assertTrue(sw.id() + ": " + detail, detail.startsWith("capturing over TLS"));
        }
        truthWriter = new Truth.Writer(lab.truthFile());
        traffic = new Traffic(fabric, truthWriter, 1);
    }

    @AfterClass
    @SuppressWarnings("checkstyle:RegexpSinglelineJava") // the lab's progress goes to the test's output
    public static void nothingOfTheLabIsLeft() throws Exception {
        if (traffic != null) {
            traffic.close();
            truthWriter.close();
        }
        try {
            if (lab != null) {
                lab.down(System.out::println);
            }
        } finally {
            if (karaf != null) {
                karaf.descendants().forEach(ProcessHandle::destroy);
                karaf.destroy();
                karaf.waitFor();
            }
        }
        if (lab != null) {
            assertEquals("no rst-* namespace is left", List.of(), Lab.leftovers());
            assertFalse("the management bridge is gone", Files.exists(Path.of("/sys/class/net", Fabric.MGMT_BRIDGE)));
            assertFalse("the lab's directory is gone", Files.exists(lab.dir()));
            final var agents = ProcessHandle.allProcesses().filter(p -> p.info().commandLine().orElse("")
                .contains("io.rst.rft.cli.Main agent")).filter(p -> p.info().commandLine().orElse("")
                .contains(lab.dir().toString())).count();
            assertEquals("no lab agent runs", 0, agents);
            // lldpd names its processes "lldpd: ...": by the pids the lab started
            final var lldpdLeft = lldpd.entrySet().stream().filter(e -> ProcessHandle.of(e.getValue())
                .map(ProcessHandle::isAlive).orElse(false)).map(java.util.Map.Entry::getKey).toList();
            assertEquals("no lab lldpd runs", List.of(), lldpdLeft);
        }
    }

    @Test
    public void a_everyPathEqualsTheKernelsForwardingAndEveryStateTheTraffic() throws Exception {
        final var conns = run(new Traffic.Options(50, 1000, 160, 0, seed++, 4, true));
        final var result = PathCheck.checkUntil(fabric, conns, rc, Set.of(), 60);
        report(result);
        // the agents sample every data packet: each session that sent data has data paths, equal to
        // the kernel's forwarding of the data's own UDP ports, and ECMP parts some from their CM
        assertTrue("data paths were compared: " + result.summary(), result.dataPaths() > 100);
        assertTrue("some data took another way than its CM: " + result.summary(), result.dataApart() > 0);
        // what RESTCONF answers honours the models, as an independent validator reads them
        validateWithYanglint("data/rdma-flow-table:rft?content=nonconfig");
        validateWithYanglint("data/rdma-path-table:rpt?content=nonconfig");
        // the fabric really spread the sessions: both spines carry some
        final var kernel = KernelPaths.trace(fabric, conns.stream().map(c -> new KernelPaths.Flow(c.requester(),
            c.requesterIp(), c.responderIp(), c.requesterCmPort())).toList());
        final Set<String> spines = kernel.values().stream().flatMap(List::stream).map(KernelPaths.Hop::node)
            .filter(n -> n.startsWith("spine")).collect(Collectors.toSet());
        assertEquals("sessions over both spines", Set.of("spine1", "spine2"), spines);
        for (var scenario : Traffic.Scenario.values()) {
            assertTrue("the traffic had a " + scenario + " connection", conns.stream()
                .anyMatch(c -> c.scenario().equals(scenario.name())));
        }
    }

    @Test
    public void b_aSwitchTurnedOffStopsCapturingAndIsAGapExactlyThere() throws Exception {
        setEnabled("spine1", false);
        waitFor("spine1's agent to stop capturing", 30, () -> !lab.agentStatus("spine1").path("capturing").asBoolean());
        waitFor("spine1 to show DISABLED", 30, () -> "DISABLED".equals(agentState("spine1")));
        final var whileOff = run(new Traffic.Options(50, 1000, 60, 0, seed++, 2, false));
        assertTrue("some sessions cross spine1", crosses(whileOff, "spine1"));
        report(PathCheck.checkUntil(fabric, whileOff, rc, Set.of("spine1"), 45));

        setEnabled("spine1", true);
        waitFor("spine1's agent to capture again", 30, () -> lab.agentStatus("spine1").path("capturing").asBoolean());
        waitFor("spine1 to show CAPTURING", 30, () -> "CAPTURING".equals(agentState("spine1")));
        final var afterOn = run(new Traffic.Options(50, 1000, 60, 0, seed++, 2, false));
        assertTrue("some sessions cross spine1", crosses(afterOn, "spine1"));
        report(PathCheck.checkUntil(fabric, afterOn, rc, Set.of(), 45));
    }

    /**
     * Connections set up as NCCL does, without CM (QPNs and PSNs over a TCP connection between the
     * hosts, then RC data and ACKs, 2-4 QPs per host pair), one-way and two-way: the agents learn
     * each QP pair from its sampled data, and RESTCONF lists it once, learnt from data, with both
     * QPNs and both data paths equal to the kernel's forwarding of each side's UDP source port.
     */
    @Test
    @SuppressWarnings("checkstyle:RegexpSinglelineJava") // the check's summary goes to the test's output
    public void c2_ncclStyleConnectionsAreLearntFromTheirDataOnce() throws Exception {
        final long before = Truth.nextId(lab.truthFile()) - 1;
        final var base = NcclTraffic.Options.defaults(lab.dataSample()).withLife(180, 1000);
        // six one-way connections (only the opener writes), then six two-way, half of each long-lived
        // (still sending while the browser suite looks for them)
        traffic.nccl().options(base.withShares(0, 0.5));
        traffic.run(new Traffic.Options(20, 1000, 6, 0, seed++, 1, false, 1.0));
        traffic.nccl().options(base.withShares(1, 0.5));
        traffic.run(new Traffic.Options(20, 1000, 6, 0, seed++, 1, false, 1.0));
        traffic.quiesce();
        if (traffic.nccl().bootstrapErrors() > 0 || traffic.sendErrors() > 0) {
            fail("bootstrap errors " + traffic.nccl().bootstrapErrors() + " (" + traffic.nccl().lastError()
                + "), send errors " + traffic.sendErrors() + " (" + traffic.lastError() + ")");
        }
        final var qps = Truth.readNccl(lab.truthFile()).stream().filter(q -> q.id() > before).toList();
        if (qps.size() < 24 || qps.stream().noneMatch(Truth.NcclQp::twoWay)
                || qps.stream().allMatch(Truth.NcclQp::twoWay)) {
            fail("12 connections of 2-4 QPs, one-way and two-way: " + qps);
        }
        // the agents sample every data packet: every QP pair had an ACK that pairs it
        final var unpairable = qps.stream().filter(q -> q.pairableMs() < 0).map(Truth.NcclQp::sessionId).toList();
        if (!unpairable.isEmpty()) {
            fail("QP pairs without a response the agents could pair: " + unpairable);
        }
        // some pairs' two directions cross different spines: each spine sees one way only, and
        // the controller pairs the two one-way flows into one session
        final List<KernelPaths.Flow> flows = new ArrayList<>();
        for (var q : qps) {
            flows.add(new KernelPaths.Flow(q.hostA(), q.ipA(), q.ipB(), q.portA()));
            flows.add(new KernelPaths.Flow(q.hostB(), q.ipB(), q.ipA(), q.portB()));
        }
        final var kernel = KernelPaths.trace(fabric, flows);
        final long split = qps.stream().filter(q -> {
            final var ab = kernel.get(new KernelPaths.Flow(q.hostA(), q.ipA(), q.ipB(), q.portA()));
            final var ba = kernel.get(new KernelPaths.Flow(q.hostB(), q.ipB(), q.ipA(), q.portB()));
            return ab.stream().map(KernelPaths.Hop::node).filter(n -> n.startsWith("spine")).noneMatch(n ->
                ba.stream().anyMatch(h -> h.node().equals(n))) && ab.size() > 1;
        }).count();
        if (split == 0) {
            fail("no QP pair's directions took different spines: the cross-switch pairing is not tried");
        }
        final var result = DataPathCheck.checkUntil(fabric, qps, rc, Set.of(), 60, false);
        System.out.println(result.summary() + " (" + split + " QP pairs over two spines)");
        if (!result.ok() || result.paired() != qps.size()) {
            fail(result.summary() + "\n" + String.join("\n", result.mismatches().subList(0,
                Math.min(30, result.mismatches().size()))));
        }
        validateWithYanglint("data/rdma-flow-table:rft?content=nonconfig");
        validateWithYanglint("data/rdma-path-table:rpt?content=nonconfig");
    }

    /**
     * Congestion made by the kernel: spine1's port towards leaf2 marks CE on every ECN-capable
     * packet (nftables), the hosts answer CE with CNPs, and for 60 s both ends of leaf1's uplink to
     * spine1 are paused in priority 3 by PFC frames from the other end. The sessions whose kernel
     * path crosses the marked link, and only those, show CE from the hop after it on, with
     * marked-at naming the link; each paused port lists exactly the sessions whose data leaves it
     * in priority 3 (DSCP 26); insight raises congested, pfc-storm and pfc-deadlock-suspect, and a
     * RESTCONF subscriber receives each.
     */
    @Test
    @SuppressWarnings("checkstyle:RegexpSinglelineJava") // the lab's progress goes to the test's output
    public void c3_congestionShowsOnTheSessionsThatCrossTheMarkedLinkAndThePausedPort() throws Exception {
        // an outside subscriber to insight's congestion notifications (server-sent events, JSON)
        final String ns = "(urn:io:rst:rst-insight?revision=2026-12-01)";
        final var created = rc.post("operations/sal-remote:create-notification-stream", JSON.readTree(
            "{\"input\":{\"notifications\":[\"" + ns + "congested\",\"" + ns + "pfc-storm\",\"" + ns
                + "pfc-deadlock-suspect\"]}}"));
        final String stream = created.findPath("notification-stream-identifier").asText();
        assertFalse("a notification stream: " + created, stream.isEmpty());
        final var http = java.net.http.HttpClient.newHttpClient();
        final var events = new java.util.concurrent.CopyOnWriteArrayList<String>();
        final var sse = http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(rc.base() + "/streams/json/"
            + stream)).header("Authorization", "Basic " + java.util.Base64.getEncoder().encodeToString(
                "admin:admin".getBytes(java.nio.charset.StandardCharsets.UTF_8)))
            .header("Accept", "text/event-stream").build(), java.net.http.HttpResponse.BodyHandlers.ofLines());
        assertEquals("the stream answers", 200, sse.statusCode());
        final Thread reader = Thread.ofVirtual().start(() -> sse.body().forEach(events::add));

        final var link = Congestion.link(fabric, "spine1:swp2");
        Congestion.mark(lab, link, 0, System.out::println);
        final var conns = run(new Traffic.Options(50, 1000, 60, 0, seed++, 8, false));
        assertTrue("some sessions cross spine1", crosses(conns, "spine1"));
        final var paused = Congestion.port(fabric, "leaf1", fabric.uplink(1, 1).name());
        final int priority = Congestion.dataPriority(rc.get("data/rdma-path-table:rpt-settings"));
        assertEquals("DSCP 26 is priority 3 by default", 3, priority);
        // and spine1's end of the same link, paused by leaf1 at the same time: both ends of one link
        // paused in one priority, a deadlock suspect
        final var reverse = Congestion.port(fabric, paused.nextNode(), paused.nextPort());
        final var pfcError = new java.util.concurrent.atomic.AtomicReference<Exception>();
        // 30,000 frames of 65,535 quanta, one every 2 ms: each port stays paused for 60 s
        final Thread pfc = pfcSender(paused, priority, 30_000, pfcError);
        final Thread pfcBack = pfcSender(reverse, priority, 30_000, pfcError);
        pfc.start();
        pfcBack.start();
        try {
            final var result = new java.util.concurrent.atomic.AtomicReference<Congestion.Result>();
            // while the pause lasts: the marks and the paused port both equal the truth
            waitFor("the marks and the paused port to equal the lab's truth", 25, () -> {
                try {
                    final var r = Congestion.check(lab, rc, System.currentTimeMillis());
                    result.set(r);
                    return r != null && r.ok() && r.pauses() > 0 && r.marked() > 0;
                } catch (IOException e) {
                    return false;
                }
            });
            System.out.println(result.get().summary());
            assertTrue("the pause still lasts", pfc.isAlive());
            // insight: a congested problem at the marked link, a pfc-storm at the paused port, a
            // notification of each to the subscriber, and their figures in /metrics
            waitFor("a congested problem at spine1 swp2 and a pfc-storm at leaf1 " + paused.port(), 20, () -> {
                final var problems = rc.get("data/rst-insight:problems?content=nonconfig").path("rst-insight:problems")
                    .path("problem");
                return problem(problems, "congested", "spine1", "swp2") != null
                    && problem(problems, "pfc-storm", "leaf1", paused.port()) != null;
            });
            final var problems = rc.get("data/rst-insight:problems?content=nonconfig").path("rst-insight:problems")
                .path("problem");
            final var storm = problem(problems, "pfc-storm", "leaf1", paused.port());
            assertEquals("the storm's priority: " + storm, priority, storm.path("priority").asInt());
            final var listed = rc.get("data/rdma-path-table:rpt/paused-port=leaf1," + paused.port() + "," + priority
                + "?content=nonconfig");
            assertEquals("the storm holds up the sessions rpt/paused-port lists: " + storm + " " + listed,
                listed.findPath("session-count").asLong(), storm.path("held-up-sessions").asLong());
            final var suspects = new java.util.concurrent.atomic.AtomicReference<java.util.Set<String>>();
            waitFor("a pfc-deadlock-suspect of the link " + paused, 20, () -> {
                final var found = new java.util.TreeSet<String>();
                for (var p : rc.get("data/rst-insight:problems?content=nonconfig").path("rst-insight:problems")
                        .path("problem")) {
                    if ("pfc-deadlock-suspect".equals(p.path("kind").asText())) {
                        found.add(p.path("node-id").asText() + ":" + p.path("tp-id").asText() + " "
                            + p.path("peer-node-id").asText() + ":" + p.path("peer-tp-id").asText() + " priority "
                            + p.path("priority").asText());
                    }
                }
                suspects.set(found);
                return !found.isEmpty();
            });
            final String end1 = paused.node() + ":" + paused.port();
            final String end2 = reverse.node() + ":" + reverse.port();
            assertTrue("the suspect names both ends of the paused link: " + suspects.get(), suspects.get().equals(
                java.util.Set.of(end1 + " " + end2 + " priority " + priority))
                || suspects.get().equals(java.util.Set.of(end2 + " " + end1 + " priority " + priority)));
            waitFor("congested and pfc-storm notifications at the subscriber", 20, () ->
                events.stream().anyMatch(e -> e.startsWith("data:") && e.contains("rst-insight:congested")
                    && e.contains("spine1"))
                && events.stream().anyMatch(e -> e.startsWith("data:") && e.contains("rst-insight:pfc-storm")
                    && e.contains("leaf1"))
                && events.stream().anyMatch(e -> e.startsWith("data:")
                    && e.contains("rst-insight:pfc-deadlock-suspect") && e.contains("spine1") && e.contains("leaf1")));
            final var metrics = rc.metrics();
            assertTrue("rst_problems of kind congested: " + metrics.get("rst_problems{kind=\"congested\"}"),
                metrics.getOrDefault("rst_problems{kind=\"congested\"}", 0.0) >= 1);
            assertTrue("sessions congested in /metrics", metrics.getOrDefault("rst_sessions_congested", 0.0) >= 1);
        } catch (AssertionError | org.awaitility.core.ConditionTimeoutException e) {
            final var r = Congestion.check(lab, rc, System.currentTimeMillis());
            throw new AssertionError(e.getMessage() + "\n" + (r == null ? "no congestion in the truth"
                : r.summary() + "\n" + String.join("\n", r.mismatches().subList(0, Math.min(30,
                    r.mismatches().size())))), e);
        } finally {
            pfc.join();
            pfcBack.join();
            reader.interrupt();
        }
        if (pfcError.get() != null) {
            throw new AssertionError("the PFC frames were not sent", pfcError.get());
        }
        validateWithYanglint("data/rdma-path-table:rpt?content=nonconfig");
    }

    @Test
    public void c_aLinkTakenDownMovesNewSessionsToTheOtherSpine() throws Exception {
        final String uplink = fabric.uplink(1, 1).name();
        final int poll = pollIntervalSeconds();
        // the agents forget the silent neighbour after the TTL, the controller hears of it at its
        // next status poll of each agent; SLACK more for the agents' ageing tick (1 s), the
        // coalesced write and this test's RESTCONF reads on a busy machine
        final int bound = Lab.LLDP_TTL_SECONDS + poll + LLDP_SLACK_SECONDS;
        lab.setLink("leaf1", uplink, false);
        final long downAt = System.nanoTime();
        try {
            waitForLinks("leaf1:" + uplink + " to leave " + Lab.LLDP_TOPOLOGY_ID + " in both directions", bound + 30);
            assertWithin(downAt, bound, "the downed link left " + Lab.LLDP_TOPOLOGY_ID, "link down", "the LLDP TTL",
                Lab.LLDP_TTL_SECONDS, poll);

            final var conns = run(new Traffic.Options(50, 1000, 80, 0, seed++, 2, false));
            final var leaf1Hosts = conns.stream().filter(c -> c.requester().startsWith("h1")
                || c.responder().startsWith("h1")).toList();
            assertFalse("some sessions start or end under leaf1", leaf1Hosts.isEmpty());
            final var result = PathCheck.checkUntil(fabric, leaf1Hosts, rc, Set.of(), 45);
            report(result);
            // and the paths RST shows avoid the link: every leaf1 session crosses spine2 only
            final var rpt = rc.get("data/rdma-path-table:rpt?content=nonconfig").path("rdma-path-table:rpt")
                .path("path");
            for (var c : leaf1Hosts) {
                for (var p : rpt) {
                    if (p.path("session-id").asText().equals(c.sessionId())) {
                        for (var hop : p.path("forward").path("hop")) {
                            assertFalse(c.sessionId() + " still crosses spine1: " + p,
                                "spine1".equals(hop.path("node-id").asText()));
                        }
                    }
                }
            }
        } finally {
            lab.setLink("leaf1", uplink, true);
        }
        // back up: lldpd sends on it at once, the agents hear it within the transmit interval
        final long upAt = System.nanoTime();
        final int backBound = Lab.LLDP_TX_INTERVAL + poll + LLDP_SLACK_SECONDS;
        waitForLinks("leaf1:" + uplink + " to come back into " + Lab.LLDP_TOPOLOGY_ID, backBound + 30);
        assertWithin(upAt, backBound, "the link came back into " + Lab.LLDP_TOPOLOGY_ID, "link up",
            "the transmit interval", Lab.LLDP_TX_INTERVAL, poll);
    }

    /**
     * Prints how long after {@code since} (System.nanoTime) {@code what} happened, and asserts it within
     * {@code bound} seconds: {@code lldpLabel} ({@code lldpSeconds}) plus the status poll plus the slack.
     */
    @SuppressWarnings("checkstyle:RegexpSinglelineJava") // the measured time goes to the test's output
    private static void assertWithin(final long since, final int bound, final String what, final String after,
            final String lldpLabel, final int lldpSeconds, final int poll) {
        final double took = (System.nanoTime() - since) / 1e9;
        final String line = String.format("%s %.1f s after %s: %s (%d s) plus the status poll (%d s) and %d s allow"
            + " %d s", what, took, after, lldpLabel, lldpSeconds, poll, LLDP_SLACK_SECONDS, bound);
        System.out.println(line);
        assertTrue(line, took <= bound);
    }

    /**
     * Waits until topology rst-lldp equals the lab's wiring (without its links that are down);
     * fails naming the differences.
     */
    private static void waitForLinks(final String what, final int seconds) {
        final var last = new java.util.concurrent.atomic.AtomicReference<LinkCheck.Result>();
        try {
            waitFor(what, seconds, () -> {
                last.set(LinkCheck.check(fabric, lab.downLinks(), rc));
                return last.get().ok();
            });
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            final var r = last.get();
            throw new AssertionError(e.getMessage() + (r == null ? "" : "\n" + r.summary() + "\n"
                + String.join("\n", r.differences())), e);
        }
    }

    /** The controller's status poll period ({@code poll-interval-seconds} in etc/io.rst.rft.cfg; 5 unless set). */
    private static int pollIntervalSeconds() throws IOException {
        final var m = java.util.regex.Pattern.compile("(?m)^poll-interval-seconds *= *(\\d+)").matcher(
            Files.readString(karafHome.resolve("etc/io.rst.rft.cfg")));
        return m.find() ? Integer.parseInt(m.group(1)) : 5;
    }

    /**
     * The controller killed (SIGKILL) while connections are being set up, then started
     * again on its kept configuration: the flow tables and the paths come back equal to the agents'
     * tables and the kernel's forwarding.
     */
    @Test
    @SuppressWarnings("checkstyle:IllegalCatch") // the traffic thread hands whatever its run throws to the test
    public void d0_aControllerKilledWhileAgentsStreamComesBackWithTheirTables() throws Exception {
        final List<Truth.Connection> conns = new ArrayList<>();
        final var during = new Thread(() -> {
            try {
                conns.addAll(run(new Traffic.Options(40, 1000, 80, 0, seed + 1000, 2, true)));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        final long before = Truth.nextId(lab.truthFile()) - 1;
        during.start();
        // the kill comes once the run is under way: a quarter of its connections started (each is
        // in the truth file as it is started), or the run ended early, which the checks
        // below report. Not counted by the packets sent: c2's long-lived QP pairs still send.
        waitFor("a quarter of the run's connections to start", 60,
            () -> !during.isAlive() || startedSince(before) >= 20);
        // bin/karaf server runs Java as its child: SIGKILL the JVM, as the OOM killer would
        final var jvms = karaf.descendants().toList();
        assertFalse("the controller's JVM runs", jvms.isEmpty());
        jvms.forEach(ProcessHandle::destroyForcibly);
        for (var jvm : jvms) {
            jvm.onExit().get(30, java.util.concurrent.TimeUnit.SECONDS);
        }
        karaf.destroyForcibly();
        assertTrue("the controller died", karaf.waitFor(30, java.util.concurrent.TimeUnit.SECONDS));
        during.join();
        assertTrue("the traffic went on without the controller: " + conns.size(), conns.size() >= 80);
        karaf = startKaraf("karaf-restarted.out");
        waitFor("RESTCONF to answer after the restart", 240, rc::answers);
        waitFor("every switch to capture again", 90, () -> fabric.switches().stream().allMatch(sw ->
            "CAPTURING".equals(agentState(sw.id()))));
        report(PathCheck.checkUntil(fabric, conns, rc, Set.of(), 90));
        // every switch's flow table holds exactly what its agent holds
        waitFor("each flow table to equal its agent's table", 60, () -> fabric.switches().stream().allMatch(sw -> {
            // CM sessions and the records learnt from data (a paired session, a one-way flow)
            final var counters = lab.agentStatus(sw.id()).path("counters");
            final long agentHas = counters.path("sessions_live").asLong(-1) + counters.path("data_sessions").asLong()
                + counters.path("data_one_way").asLong();
            final long rftHas = rc.get("data/rdma-flow-table:rft/switch=" + sw.id() + "?content=nonconfig")
                .path("rdma-flow-table:switch").path(0).path("session").size();
            return agentHas == rftHas;
        }));
    }

    @Test
    @SuppressWarnings("checkstyle:RegexpSinglelineJava") // the browser suite's output goes to the test's
    public void d_theOperatorsWebUiInARealBrowser() throws Exception {
        // ui-bundle's browser suite (Debian's Chromium, headless) against this controller and lab:
        // sign in, switches, RFT off and on (agent and path gap), flow table, timeline, path,
        // a port's sessions, problems, wrong credentials, an unreachable controller
        final Path script = Path.of(System.getProperty("rst.it.uiSuite", "../ui-bundle/run-browser-tests.sh"))
            .toAbsolutePath();
        final var pb = new ProcessBuilder("bash", script.toString(), "http://127.0.0.1:8181").redirectErrorStream(true)
            .redirectOutput(work.resolve("browser.log").toFile());
        pb.environment().put("RST_AGENT_TOKEN_DIR", lab.tokenDir().toString());
        // the lab's agents serve TLS: the suite asks them trusting the lab's CA
        pb.environment().put("RST_AGENT_CA_FILE", lab.caFile().toString());
        pb.environment().put("RST_EXPECT_GAP", "1");
        // c2 left NCCL-style QP pairs, learnt from their data: the suite must find one
        pb.environment().put("RST_EXPECT_DATA", "1");
        // c3's marking stays on, and leaf1's uplink is paused again, 10 s at a time, until the suite
        // ends: the suite must find a marked hop, a paused port and congestion problems
        pb.environment().put("RST_EXPECT_CONGESTION", "1");
        final var suiteRuns = new java.util.concurrent.atomic.AtomicBoolean(true);
        final var pfcError = new java.util.concurrent.atomic.AtomicReference<Exception>();
        final var uplink = Congestion.port(fabric, "leaf1", fabric.uplink(1, 1).name());
        final int priority = Congestion.dataPriority(rc.get("data/rdma-path-table:rpt-settings"));
        final Thread pause = new Thread(() -> {
            while (suiteRuns.get() && pfcError.get() == null) {
                final Thread batch = pfcSender(uplink, priority, 5_000, pfcError);
                batch.run();
            }
        }, "it-pfc-suite");
        pause.start();
        waitFor("leaf1's uplink to show paused", 30, () -> rc.get("data/rdma-path-table:rpt?content=nonconfig")
            .path("rdma-path-table:rpt").path("paused-port").size() > 0);
        final boolean ended;
        final Process p;
        try {
            p = pb.start();
            ended = p.waitFor(300, java.util.concurrent.TimeUnit.SECONDS);
            if (!ended) {
                p.destroyForcibly();
            }
        } finally {
            suiteRuns.set(false);
            pause.join();
        }
        if (pfcError.get() != null) {
            throw new AssertionError("the PFC frames were not sent", pfcError.get());
        }
        final String out = Files.readString(work.resolve("browser.log"));
        System.out.println(out);
        assertTrue("the browser suite ended within 300 s:\n" + out, ended);
        assertEquals("the browser suite passed (see " + work.resolve("browser.log") + "):\n" + out, 0, p.exitValue());
        assertTrue("no browser step was skipped or failed:\n" + out,
            java.util.regex.Pattern.compile("browser: \\d+ passed, 0 failed, 0 skipped").matcher(out).find());
    }

    /**
     * Validates a RESTCONF answer with yanglint (libyang, Debian's libyang2-tools) against our
     * models and the ODL model files they import, taken from the jars on the classpath.
     */
    private static void validateWithYanglint(final String path) throws Exception {
        final Path dir = Files.createTempDirectory("rst-yanglint");
        try {
            final List<String> cmd = new java.util.ArrayList<>(List.of("yanglint", "-f", "json", "-t", "data", "-p",
                dir.toString()));
            for (String model : List.of("network-topology@2013-10-21.yang", "ietf-inet-types@2013-07-15.yang",
                    "yang-ext@2013-07-09.yang",
                    "rst-topology@2026-12-01.yang", "rdma-flow-table@2026-12-01.yang",
                    "rdma-path-table@2026-12-01.yang")) {
                try (var in = LabFabricIT.class.getClassLoader().getResourceAsStream("META-INF/yang/" + model)) {
                    assertTrue("model " + model + " on the classpath", in != null);
                    Files.copy(in, dir.resolve(model));
                }
                cmd.add(dir.resolve(model).toString());
            }
            final Path data = dir.resolve("data.json");
            Files.writeString(data, rc.get(path).toString());
            cmd.add(data.toString());
            final var p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            final String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertEquals("yanglint on GET " + path + ": " + out, 0, p.waitFor());
        } finally {
            final List<Path> all;
            try (var files = Files.walk(dir)) {
                all = files.sorted(java.util.Comparator.reverseOrder()).toList();
            }
            for (Path f : all) {
                Files.deleteIfExists(f);
            }
        }
    }

    private static Process startKaraf(final String log) throws IOException {
        final var pb = new ProcessBuilder(karafHome.resolve("bin/karaf").toString(), "server").redirectErrorStream(true)
            .redirectOutput(work.resolve(log).toFile());
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        return pb.start();
    }

    private static List<Truth.Connection> run(final Traffic.Options opt) throws Exception {
        final long before = Truth.read(lab.truthFile()).stream().mapToLong(Truth.Connection::id).max().orElse(0);
        traffic.run(opt);
        traffic.quiesce();
        assertEquals("send errors: " + traffic.lastError(), 0, traffic.sendErrors());
        final List<Truth.Connection> out = new ArrayList<>();
        for (var c : Truth.read(lab.truthFile())) {
            if (c.id() > before) {
                out.add(c);
            }
        }
        return out;
    }

    /** Connections of the truth file with an id above {@code id}. */
    private static long startedSince(final long id) {
        try {
            return Truth.read(lab.truthFile()).stream().filter(c -> c.id() > id).count();
        } catch (IOException e) {
            throw new LabException("cannot read the truth file: " + e, e);
        }
    }

    private static void deleteTree(final Path root) throws IOException {
        if (Files.exists(root)) {
            try (Stream<Path> walk = Files.walk(root)) {
                for (var p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }

    private static boolean crosses(final List<Truth.Connection> conns, final String node) {
        final List<KernelPaths.Flow> flows = new ArrayList<>();
        for (var c : conns) {
            flows.add(new KernelPaths.Flow(c.requester(), c.requesterIp(), c.responderIp(), c.requesterCmPort()));
        }
        return KernelPaths.trace(fabric, flows).values().stream().flatMap(List::stream)
            .anyMatch(h -> h.node().equals(node));
    }

    @SuppressWarnings("checkstyle:RegexpSinglelineJava") // the check's summary goes to the test's output
    private static void report(final PathCheck.Result result) {
        System.out.println(result.summary());
        if (!result.ok()) {
            fail(result.summary() + "\n" + String.join("\n", result.mismatches().subList(0,
                Math.min(30, result.mismatches().size()))));
        }
    }

    private static void setEnabled(final String node, final boolean on) throws IOException {
        rc.patch("data/rdma-flow-table:rft/switch=" + node, JSON.readTree("{\"rdma-flow-table:switch\":[{\"node-id\":\""
            + node + "\",\"enabled\":" + on + "}]}"));
    }

    private static String agentState(final String node) {
        final JsonNode sw = rc.get("data/rdma-flow-table:rft/switch=" + node + "/agent-status?content=nonconfig");
        return sw.path("rdma-flow-table:agent-status").path("state").asText();
    }

    private static String agentDetail(final String node) {
        final JsonNode sw = rc.get("data/rdma-flow-table:rft/switch=" + node + "/agent-status?content=nonconfig");
        return sw.path("rdma-flow-table:agent-status").path("detail").asText();
    }

    /**
     * A thread that pauses {@code port} in {@code priority}: {@code frames} frames of 65,535
     * quanta, one every 2 ms; what fails goes to {@code error}.
     */
    @SuppressWarnings("checkstyle:RegexpSinglelineJava") // the lab's progress goes to the test's output
    private static Thread pfcSender(final Congestion.Link port, final int priority, final int frames,
            final java.util.concurrent.atomic.AtomicReference<Exception> error) {
        return new Thread(() -> {
            try {
                Congestion.pfc(lab, port, priority, 65_535, frames, 2_000, priority, System.out::println);
            } catch (IOException | LabException | IllegalArgumentException e) {
                error.set(e);
            }
        }, "it-pfc-" + port.node());
    }

    /** The problem of that kind at that switch and port, or null. */
    private static com.fasterxml.jackson.databind.JsonNode problem(
            final com.fasterxml.jackson.databind.JsonNode problems, final String kind, final String node,
            final String tp) {
        for (var p : problems) {
            if (kind.equals(p.path("kind").asText()) && node.equals(p.path("node-id").asText())
                    && tp.equals(p.path("tp-id").asText())) {
                return p;
            }
        }
        return null;
    }

    /**
     * Waits at most {@code seconds} for {@code what}: looks at once, then every 250 ms; a look the lab
     * cannot answer yet ({@link LabException}) counts as not yet, and a timeout names the last one.
     */
    private static void waitFor(final String what, final int seconds, final BooleanSupplier condition) {
        await(what).atMost(Duration.ofSeconds(seconds)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(250))
            .ignoreException(LabException.class).until(condition::getAsBoolean);
    }
}
