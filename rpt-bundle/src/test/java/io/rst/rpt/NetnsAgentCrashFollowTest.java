/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rpt;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rst.rft.manager.RftManager;
import io.rst.rft.testutil.AgentProcess;
import io.rst.rft.testutil.Netns;
import io.rst.yang.time.Times;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.opendaylight.mdsal.binding.api.DataBroker;
import org.opendaylight.mdsal.common.api.LogicalDatastoreType;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.Host;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.IpAddress;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.Ipv4Address;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.PortNumber;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.AgentTransport;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.Rft;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft.Switch;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft.SwitchBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft.SwitchKey;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.Session;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.Direction;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.Rpt;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.NodeId;
import org.opendaylight.yangtools.binding.DataObjectIdentifier;
import org.opendaylight.yangtools.yang.common.Uint16;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An agent killed during a connection storm: a real agent (its own process) capturing on a namespace "switch", a
 * connection storm made by {@code rst gen --storm} replayed into it by {@code tcpreplay} at
 * {@value #PPS} packets per second, and the real RFT manager worker and RPT worker on the real
 * in-memory MD-SAL broker following it over a management veth, as a controller does. The agent is
 * killed with SIGKILL at random moments {@value #KILLS} times and restarted on the same state
 * directory each time. The storm is replayed a part ({@value #BURST} connections) around each
 * kill, flowing before it, across it and while the agent restarts: so that each check below sees
 * a settled table, and the run's tables (and so its time) stay bounded however slow the
 * machine. After each restart: the agent continues the same event log and says it was not a clean
 * stop; every session the controller held whose last message the switch saw more than the flush
 * interval (and scheduling slack) before the kill is in the restarted agent's table. Once the part
 * has crossed and the agent is quiet, the controller must come to rest with: every session it held
 * before the kill still in its {@code rft}; its confirmed sessions exactly the agent's table, state
 * for state (the agent's table has each session once); the others marked {@code unconfirmed} and
 * counted in the switch's status, none of them one the agent restored; and {@code rpt} exactly a
 * path per session, in the session's state, at the switch.
 *
 * <p>Needs root, iproute2 and tcpreplay (the CI has them); skipped without. Namespaces are named
 * {@code rstt-RANDOM-{snd,sw}} and always removed.
 */
@Timeout(value = 30, unit = TimeUnit.MINUTES)
class NetnsAgentCrashFollowTest {
    private static final Logger LOG = LoggerFactory.getLogger(NetnsAgentCrashFollowTest.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SWITCH = "sw";
    private static final int FLUSH_MS = 200;
    /** Scheduling on a busy machine: how much later than the flush interval a flush may come. */
    private static final long SLACK_MS = 1000;
    private static final int KILLS = 10;
    /** The storm's rate: several thousand CM packets a second, five per connection. */
    private static final int PPS = 5000;
    /**
     * Connections of the storm around each kill (five packets each: 5 s at {@value #PPS} pps): the
     * kill comes in its first half, the restart takes about two seconds on an idle machine.
     */
    private static final int BURST = 5000;
    /** How long the controller may take to catch up after a restart (a loaded CI machine). */
    private static final long SYNC_SECONDS = 90;

    @TempDir
    Path dir;
    private Netns net;
    private String mgmtAgent;
    private AgentProcess agent;
    private Process replay;
    private IngestBench.Broker broker;
    private ExecutorService rptExecutor;
    private RptWorker rpt;
    private AutoCloseable rft;

    @BeforeEach
    void fabric() throws Exception {
        Netns.assumeAvailable("tcpreplay");
        net = Netns.create("snd", "sw");
        // the storm's wire: tcpreplay in "snd" sends into the switch's port in0
        net.link("snd", "snd0", null, "sw", "in0", null);
        net.exec("sw", "ip", "link", "set", "lo", "up");
        // the management network, from this JVM (the controller) to the agent
        mgmtAgent = net.management("sw", "mgmt");
        // the default retention (64 Ki events, 16 MiB): a restart reads back that much of the log
        // besides the checkpoint, and a controller that falls behind it resynchronises from a
        // snapshot, as it would on a switch
        agent = new AgentProcess(net, "sw", mgmtAgent, dir, "-Xmx256m", "--interface", "in0", "--agent-id", SWITCH,
            "--plain-http", "--flush-ms", Integer.toString(FLUSH_MS));

        broker = new IngestBench.Broker();
        broker.setup();
        rptExecutor = Executors.newSingleThreadExecutor(Thread.ofPlatform().name("rst-rpt").daemon().factory());
        rpt = new RptWorker(broker.getDataBroker(), broker.getDomBroker(), broker.rpcs(), rptExecutor);
        rft = RftManager.standalone(broker.getDataBroker(), broker.getDomBroker(),
                broker.getDataBrokerTestCustomizer().getAdapterContext().currentSerializer(), agent.token());
    }

    @AfterEach
    void teardown() throws Exception {
        if (replay != null) {
            replay.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        if (agent != null) {
            agent.close();
        }
        if (rft != null) {
            rft.close();
        }
        if (rpt != null) {
            rpt.close();
            rptExecutor.shutdownNow();
        }
        if (net != null) {
            net.close();
        }
    }

    /** Starts the agent and waits until it answers with capture running; returns the milliseconds that took. */
    private long startAgent() throws Exception {
        // a JVM start and a restore take a second or two on an idle machine, over a minute on one
        // loaded to a load average of 50
        final long ms = agent.start(Duration.ofSeconds(180));
        assertTrue(status().path("capture_running").asBoolean(), "capture running");
        return ms;
    }

    private HttpResponse<String> get(final String path) throws Exception {
        return agent.get(path);
    }

    private JsonNode status() throws Exception {
        return agent.status();
    }

    /** Packets the agent captured on its port in0 since it started. */
    private long captured() throws Exception {
        for (JsonNode i : status().path("interfaces")) {
            if ("in0".equals(i.path("name").asText())) {
                return i.path("packets").asLong();
            }
        }
        return -1;
    }

    /** The agent's table: session id to state; each session once. */
    private Map<String, String> agentTable() throws Exception {
        final HttpResponse<String> r = get("/v1/sessions");
        assertEquals(200, r.statusCode(), r.body());
        final Map<String, String> table = new HashMap<>();
        for (JsonNode s : JSON.readTree(r.body()).path("sessions")) {
            final String id = s.path("session_id").asText();
            assertNull(table.put(id, s.path("state").asText()), "the agent's table has a session twice: " + id);
        }
        return table;
    }

    private DataBroker db() {
        return broker.getDataBroker();
    }

    private Switch controllerSwitch() throws Exception {
        try (var tx = db().newReadOnlyTransaction()) {
            return tx.read(LogicalDatastoreType.OPERATIONAL, DataObjectIdentifier.builder(Rft.class)
                .child(Switch.class, new SwitchKey(new NodeId(SWITCH))).build()).get(30, TimeUnit.SECONDS)
                .orElse(null);
        }
    }

    /** The controller's flow table for the switch, by session id. */
    private Map<String, Session> controllerTable() throws Exception {
        final Switch sw = controllerSwitch();
        final Map<String, Session> out = new HashMap<>();
        if (sw != null) {
            for (Session s : sw.nonnullSession().values()) {
                out.put(s.getSessionId(), s);
            }
        }
        return out;
    }

    private long controllerSeq() throws Exception {
        final Switch sw = controllerSwitch();
        if (sw == null || sw.getAgentStatus() == null || sw.getAgentStatus().getLastEventSeq() == null) {
            return -1;
        }
        return sw.getAgentStatus().getLastEventSeq().longValue();
    }

    private Map<String, org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.rpt.Path> paths()
            throws Exception {
        final Map<String, org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.rpt.Path> out =
            new HashMap<>();
        try (var tx = db().newReadOnlyTransaction()) {
            final var rptTable = tx.read(LogicalDatastoreType.OPERATIONAL, DataObjectIdentifier.builder(Rpt.class)
                .build()).get(30, TimeUnit.SECONDS);
            if (rptTable.isPresent()) {
                for (var p : rptTable.orElseThrow().nonnullPath().values()) {
                    out.put(p.getSessionId(), p);
                }
            }
        }
        return out;
    }

    /** Whether the direction has an observed hop at the switch. */
    private static boolean atSwitch(final Direction direction) {
        return direction != null && direction.getHop() != null && direction.getHop().stream()
            .anyMatch(h -> SWITCH.equals(h.getNodeId().getValue()) && Boolean.TRUE.equals(h.getObserved()));
    }

    /**
     * Holds once {@code check} returns null; it returns what is not yet so, or throws (not yet
     * either). Fails after {@code seconds} with its last answer.
     */
    private static void eventually(final String what, final long seconds, final Callable<String> check) {
        final long t0 = System.nanoTime();
        await(what).atMost(Duration.ofSeconds(seconds)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(200))
            .ignoreExceptions().untilAsserted(() -> assertNull(check.call()));
        LOG.info("crash follow test: {} after {} ms", what, (System.nanoTime() - t0) / 1_000_000L);
    }

    /**
     * The controller's probe has reached the agent: the switch's status names the agent's seq (at
     * least {@code seq}).
     */
    private void awaitController(final long seq) {
        eventually("the controller follows the agent", SYNC_SECONDS, () -> {
            final long c = controllerSeq();
            return c >= seq ? null : "the controller applied up to " + c + ", not " + seq;
        });
    }

    private static String sample(final Set<String> ids) {
        return ids.size() + " " + ids.stream().limit(5).toList();
    }

    /**
     * Cuts a pcap file into {@code parts} files of as many frames each (the same file header):
     * one storm, replayed a part around each kill.
     */
    private static List<Path> split(final Path pcap, final int parts) throws IOException {
        final byte[] all = Files.readAllBytes(pcap);
        final var buf = ByteBuffer.wrap(all).order(ByteOrder.LITTLE_ENDIAN);
        if (buf.getInt(0) != 0xa1b2c3d4) {
            buf.order(ByteOrder.BIG_ENDIAN);
        }
        final List<Integer> starts = new ArrayList<>();
        int at = 24;
        while (at + 16 <= all.length) {
            starts.add(at);
            at += 16 + buf.getInt(at + 8);
        }
        starts.add(at);
        final int perPart = (starts.size() - 1) / parts;
        final List<Path> out = new ArrayList<>();
        for (int i = 0; i < parts; i++) {
            final Path part = pcap.resolveSibling("storm-" + i + ".pcap");
            final int from = starts.get(i * perPart);
            final int to = starts.get((i + 1) * perPart);
            final byte[] bytes = new byte[24 + to - from];
            System.arraycopy(all, 0, bytes, 0, 24);
            System.arraycopy(all, from, bytes, 24, to - from);
            Files.write(part, bytes);
            out.add(part);
        }
        return out;
    }

    @Test
    void agentKilledTenTimesInAStormLosesNothingTheControllerHeld() throws Exception {
        final Path storm = dir.resolve("storm.pcap");
        Netns.run(Netns.java("io.rst.rft.cli.Main", "gen", "--out", storm.toString(), "--sessions",
            Integer.toString(BURST * KILLS), "--storm", "--seed", "11"));
        final List<Path> bursts = split(storm, KILLS);
        startAgent();
        final String instance = status().path("instance").asText();
        final var tx = db().newWriteOnlyTransaction();
        tx.mergeParentStructurePut(LogicalDatastoreType.CONFIGURATION, DataObjectIdentifier.builder(Rft.class)
            .child(Switch.class, new SwitchKey(new NodeId(SWITCH))).build(), new SwitchBuilder()
            .setNodeId(new NodeId(SWITCH)).setEnabled(true)
            .setAgentAddress(new Host(new IpAddress(new Ipv4Address(mgmtAgent))))
            .setAgentPort(new PortNumber(Uint16.valueOf(4791))).setAgentTransport(AgentTransport.PlainHttp).build());
        tx.commit().get(10, TimeUnit.SECONDS);
        awaitController(0);

        final Random rnd = new Random();
        final List<Long> answerMs = new ArrayList<>();
        final List<Long> syncMs = new ArrayList<>();
        long lostByAgent = 0;
        for (int k = 0; k < KILLS; k++) {
            // the storm's next part, the controller following it, and a kill at a random moment
            // of it: once the agent has captured a random number of the part's packets, in its
            // first half (0.3 to 2.5 s of it); the storm flows on while the agent is down and restarts
            final long before = captured();
            final long due = before + PPS * 3 / 10 + rnd.nextInt(BURST * 5 / 2 - PPS * 3 / 10);
            replay = net.start("snd", ProcessBuilder.Redirect.appendTo(dir.resolve("replay.log").toFile()),
                "tcpreplay", "-q", "-i", "snd0", "--pps=" + PPS, bursts.get(k).toString());
            await("the agent captures " + (due - before) + " packets of the storm's part " + (k + 1))
                .atMost(Duration.ofSeconds(SYNC_SECONDS)).pollInterval(Duration.ofMillis(50))
                .until(() -> captured() >= due);
            assertTrue(replay.isAlive(), "the storm still flows: " + Files.readString(dir.resolve("replay.log")));
            final Map<String, Session> held = controllerTable();
            final long killedAt = System.currentTimeMillis();
            final long killedNanos = System.nanoTime();
            agent.kill();
            answerMs.add(startAgent());

            final JsonNode st = status();
            assertEquals(instance, st.path("instance").asText(), "the same event log continues: " + st);
            final JsonNode restored = st.path("restored");
            assertFalse(restored.path("clean").asBoolean(), "a kill is no clean stop: " + restored);
            // a killed process leaves whole pages behind: a record cut short, never a damaged one
            for (JsonNode p : restored.path("wal_problems")) {
                assertTrue(p.asText().contains("torn"), restored.toString());
            }
            final Map<String, String> afterRestart = agentTable();
            // what the agent had written before the kill is back: all the controller held but what
            // the switch saw in the last flush interval before it
            final double writtenBefore = (killedAt - FLUSH_MS - SLACK_MS) / 1000.0;
            for (Session s : held.values()) {
                if (s.getUnconfirmed() == null && s.getLastSeen() != null
                        && Times.seconds(s.getLastSeen().getValue()) < writtenBefore) {
                    assertTrue(afterRestart.containsKey(s.getSessionId()), "kill " + (k + 1) + ": session "
                        + s.getSessionId() + " last seen " + s.getLastSeen().getValue() + ", more than " + FLUSH_MS
                        + " ms + " + SLACK_MS + " ms before the kill at " + killedAt + ", not restored: " + restored);
                }
            }

            assertTrue(replay.waitFor(60, TimeUnit.SECONDS), "the storm's part ends");
            // the part is over and the agent has decoded it: the controller must come to rest equal
            awaitDrained();
            final int kill = k + 1;
            eventually("kill " + kill + ": the controller comes to rest", SYNC_SECONDS,
                () -> settled(held, afterRestart));
            syncMs.add((System.nanoTime() - killedNanos) / 1_000_000L);
            LOG.info("crash follow test: kill {}: answering after {} ms, the controller in sync {} ms after the kill; "
                + "{} sessions held", kill, answerMs.get(k), syncMs.get(k), held.size());
            lostByAgent += held.keySet().stream().filter(id -> !afterRestart.containsKey(id)).count();
        }

        final JsonNode last = status();
        final Map<String, String> table = agentTable();
        final Map<String, Session> end = controllerTable();
        final long unconfirmed = end.values().stream().filter(s -> s.getUnconfirmed() != null).count();
        assertTrue(table.size() > 2 * BURST, "a storm of some thousands of connections was followed: " + table.size());
        LOG.info("crash follow test: {} kills in a storm of {} pps; the agent decoded {} frames since its last start, "
            + "holds {} sessions; the controller {} ({} unconfirmed, {} held sessions the agents' restarts lost in "
            + "all); restart to answering {} ms; kill to the controller in sync {} ms", KILLS, PPS,
            last.path("counters").path("frames").asLong(), table.size(), end.size(), unconfirmed, lostByAgent,
            answerMs, syncMs);
    }

    /** Waits until the agent has decoded all it captured. */
    private void awaitDrained() {
        eventually("the agent decodes all it captured", SYNC_SECONDS, () -> {
            final long backlog = status().path("counters").path("queue_backlog").asLong(-1);
            return backlog == 0 ? null : "the agent's capture backlog is " + backlog;
        });
    }

    /**
     * Null when the controller is at rest with the quiet agent, else what is not yet: nothing it
     * {@code held} before the kill forgotten; its confirmed sessions exactly the agent's, state for
     * state; the rest marked unconfirmed, and counted so in the switch's status; nothing the agent
     * restored marked; and the paths exactly the sessions, state for state, at the switch.
     */
    private String settled(final Map<String, Session> held, final Map<String, String> restored) throws Exception {
        final Map<String, Session> now = controllerTable();
        final Map<String, String> table = agentTable();
        final Set<String> forgotten = new HashSet<>(held.keySet());
        forgotten.removeAll(now.keySet());
        if (!forgotten.isEmpty()) {
            return "the controller forgot sessions it held: " + sample(forgotten);
        }
        final Set<String> confirmed = new HashSet<>();
        final Set<String> unconfirmed = new HashSet<>();
        for (Session s : now.values()) {
            (s.getUnconfirmed() == null ? confirmed : unconfirmed).add(s.getSessionId());
            if (s.getUnconfirmed() != null && restored.containsKey(s.getSessionId())) {
                return "a session the agent restored is marked unconfirmed: " + s.getSessionId();
            }
            if (s.getUnconfirmed() == null && !s.getState().getName().equalsIgnoreCase(
                    table.getOrDefault(s.getSessionId(), ""))) {
                return "state of " + s.getSessionId() + ": controller " + s.getState() + ", agent "
                    + table.get(s.getSessionId());
            }
        }
        if (!confirmed.equals(table.keySet())) {
            final Set<String> missing = new HashSet<>(table.keySet());
            missing.removeAll(confirmed);
            final Set<String> extra = new HashSet<>(confirmed);
            extra.removeAll(table.keySet());
            return "the controller's confirmed sessions are not the agent's: missing " + sample(missing)
                + ", not marked unconfirmed " + sample(extra);
        }
        final Switch sw = controllerSwitch();
        final long counted = sw.getAgentStatus() == null || sw.getAgentStatus().getUnconfirmedSessions() == null
            ? 0 : sw.getAgentStatus().getUnconfirmedSessions().longValue();
        if (counted != unconfirmed.size()) {
            return "the switch's status counts " + counted + " unconfirmed sessions, the table has "
                + unconfirmed.size();
        }
        final var paths = paths();
        if (!paths.keySet().equals(now.keySet())) {
            final Set<String> missing = new HashSet<>(now.keySet());
            missing.removeAll(paths.keySet());
            final Set<String> extra = new HashSet<>(paths.keySet());
            extra.removeAll(now.keySet());
            return "rpt's paths are not rft's sessions: missing " + sample(missing) + ", extra "
                + sample(extra);
        }
        for (Session s : now.values()) {
            final var p = paths.get(s.getSessionId());
            // a session whose first messages crossed while the agent was down is seen one way only
            if (p.getState() != s.getState() || !atSwitch(p.getForward()) && !atSwitch(p.getReverse())) {
                return "the path of " + s.getSessionId() + " (" + p.getState()
                    + ") does not match its session (" + s.getState() + ") at " + SWITCH + ": " + p;
            }
        }
        return null;
    }
}
