/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rpt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rst.rft.manager.RftManager;
import io.rst.yang.time.Times;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
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
 * {@code dev-crash-RANDOM-{snd,sw}} and always removed.
 */
@Timeout(value = 30, unit = TimeUnit.MINUTES)
class NetnsAgentCrashFollowTest {
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
    private String prefix;
    private String mgmtAgent;
    private final List<String> namespaces = new ArrayList<>();
    private Process agent;
    private Process replay;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
    private String token;
    private IngestBench.Broker broker;
    private ExecutorService rptExecutor;
    private RptWorker rpt;
    private AutoCloseable rft;

    @BeforeEach
    void fabric() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "needs root for network namespaces");
        assumeTrue(executable("ip"), "needs iproute2");
        assumeTrue(executable("tcpreplay"), "needs tcpreplay");
        final byte[] seed = new SecureRandom().generateSeed(3);
        final String hex = HexFormat.of().formatHex(seed);
        prefix = "dev-crash-" + hex;
        for (String n : List.of("snd", "sw")) {
            sh("ip", "netns", "add", prefix + "-" + n);
            namespaces.add(prefix + "-" + n);
        }
        // the storm's wire: tcpreplay in "snd" sends into the switch's port in0
        sh("ip", "link", "add", "snd0", "netns", prefix + "-snd", "type", "veth", "peer", "name", "in0", "netns",
            prefix + "-sw");
        ns("snd", "ip", "link", "set", "snd0", "up");
        ns("sw", "ip", "link", "set", "in0", "up");
        ns("sw", "ip", "link", "set", "lo", "up");
        // the management network, from this JVM (the controller) to the agent; a subnet of this
        // run's own, so that another run at the same time does not clash with it
        final int net = 1 + (seed[0] & 0x7f);
        final String rootVeth = "dk" + hex + "m";
        mgmtAgent = "10.79." + net + ".2";
        sh("ip", "link", "add", rootVeth, "type", "veth", "peer", "name", "mgmt", "netns", prefix + "-sw");
        sh("ip", "addr", "add", "10.79." + net + ".1/30", "dev", rootVeth);
        sh("ip", "link", "set", rootVeth, "up");
        ns("sw", "ip", "addr", "add", mgmtAgent + "/30", "dev", "mgmt");
        ns("sw", "ip", "link", "set", "mgmt", "up");
        token = "tok-" + prefix;
        Files.writeString(dir.resolve("token"), token);
        Files.setPosixFilePermissions(dir.resolve("token"), PosixFilePermissions.fromString("rw-------"));

        broker = new IngestBench.Broker();
        broker.setup();
        rptExecutor = Executors.newSingleThreadExecutor(Thread.ofPlatform().name("rst-rpt").daemon().factory());
        rpt = new RptWorker(broker.getDataBroker(), broker.getDomBroker(), broker.rpcs(), rptExecutor);
        rft = RftManager.standalone(broker.getDataBroker(), broker.getDomBroker(),
                broker.getDataBrokerTestCustomizer().getAdapterContext().currentSerializer(), token);
    }

    @AfterEach
    void teardown() throws Exception {
        for (Process p : new Process[] {replay, agent}) {
            if (p != null) {
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
        if (rft != null) {
            rft.close();
        }
        if (rpt != null) {
            rpt.close();
            rptExecutor.shutdownNow();
        }
        for (String n : namespaces) {
            // deleting a namespace deletes its veth ends, and so their peers
            new ProcessBuilder("ip", "netns", "del", n).inheritIO().start().waitFor();
        }
    }

    private static boolean executable(final String name) {
        return List.of("/usr/sbin/", "/sbin/", "/usr/bin/", "/bin/").stream()
            .anyMatch(d -> Files.isExecutable(Path.of(d + name)));
    }

    private void ns(final String n, final String... cmd) throws Exception {
        final List<String> c = new ArrayList<>(List.of("ip", "netns", "exec", prefix + "-" + n));
        c.addAll(List.of(cmd));
        sh(c.toArray(String[]::new));
    }

    private static void sh(final String... cmd) throws Exception {
        final Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        final String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), String.join(" ", cmd));
        assertEquals(0, p.exitValue(), String.join(" ", cmd) + ": " + out);
    }

    private static String javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** Starts the agent and waits until it answers with capture running; returns the milliseconds that took. */
    private long startAgent() throws Exception {
        final long t0 = System.nanoTime();
        // ip netns exec execs the JVM: the process is the agent, and destroyForcibly is its SIGKILL
        agent = new ProcessBuilder("ip", "netns", "exec", prefix + "-sw", javaBin(), "-Xmx256m", "-cp",
            System.getProperty("java.class.path"), "io.rst.rft.cli.Main", "agent", "--interface", "in0", "--listen",
            mgmtAgent + ":4791", "--token-file", dir.resolve("token").toString(), "--state-dir",
            dir.resolve("state").toString(), "--agent-id", SWITCH, "--plain-http", "--flush-ms",
            Integer.toString(FLUSH_MS))
            // the default retention (64 Ki events, 16 MiB): a restart reads back that much of the
            // log besides the checkpoint, and a controller that falls behind it resynchronises
            // from a snapshot, as it would on a switch
            .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("agent.log")
                .toFile())).start();
        // a JVM start and a restore take a second or two on an idle machine, over a minute on one
        // loaded to a load average of 50
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        while (true) {
            try {
                if (get("/v1/health").statusCode() == 200 && status().path("capture_running").asBoolean()) {
                    return (System.nanoTime() - t0) / 1_000_000L;
                }
            } catch (IOException e) {
                // not listening yet
            }
            assertTrue(agent.isAlive(), "agent died: " + Files.readString(dir.resolve("agent.log")));
            assertTrue(System.nanoTime() < deadline, "agent did not come up");
            Thread.sleep(50);
        }
    }

    private HttpResponse<String> get(final String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://" + mgmtAgent + ":4791" + path))
            .header("Authorization", "Bearer " + token).timeout(Duration.ofSeconds(30)).build(),
            HttpResponse.BodyHandlers.ofString());
    }

    private JsonNode status() throws Exception {
        final HttpResponse<String> r = get("/v1/status");
        assertEquals(200, r.statusCode(), r.body());
        return JSON.readTree(r.body());
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

    /** Holds once {@code check} returns null, else fails with its last answer after {@code seconds}. */
    private static void eventually(final long seconds, final Supplier<String> check) throws InterruptedException {
        final long t0 = System.nanoTime();
        final long deadline = t0 + TimeUnit.SECONDS.toNanos(seconds);
        String problem = check.get();
        final String first = problem;
        while (problem != null) {
            if (System.nanoTime() > deadline) {
                fail(problem);
            }
            Thread.sleep(200);
            problem = check.get();
        }
        if (first != null) {
            System.out.printf("crash follow test: settled after %d ms, first waiting on: %s%n",
                (System.nanoTime() - t0) / 1_000_000L, first.length() > 300 ? first.substring(0, 300) : first);
        }
    }

    /** The controller's probe has reached the agent: the switch's status names the agent's seq (at least {@code seq}). */
    private void awaitController(final long seq) throws Exception {
        eventually(SYNC_SECONDS, () -> {
            try {
                final long c = controllerSeq();
                return c >= seq ? null : "the controller applied up to " + c + ", not " + seq;
            } catch (Exception e) {
                return e.toString();
            }
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
        sh(javaBin(), "-cp", System.getProperty("java.class.path"), "io.rst.rft.cli.Main", "gen", "--out",
            storm.toString(), "--sessions", Integer.toString(BURST * KILLS), "--storm", "--seed", "11");
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
            // of it; the storm flows on while the agent is down and restarts
            replay = new ProcessBuilder("ip", "netns", "exec", prefix + "-snd", "tcpreplay", "-q", "-i", "snd0",
                "--pps=" + PPS, bursts.get(k).toString()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("replay.log").toFile())).start();
            Thread.sleep(300 + rnd.nextInt(BURST * 5 * 1000 / PPS / 2));
            assertTrue(replay.isAlive(), "the storm still flows: " + Files.readString(dir.resolve("replay.log")));
            final Map<String, Session> held = controllerTable();
            agent.destroyForcibly();
            final long killedAt = System.currentTimeMillis();
            final long killedNanos = System.nanoTime();
            assertTrue(agent.waitFor(10, TimeUnit.SECONDS));
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
            eventually(SYNC_SECONDS, () -> settled("kill " + kill, held, afterRestart));
            syncMs.add((System.nanoTime() - killedNanos) / 1_000_000L);
            System.out.printf("crash follow test: kill %d: answering after %d ms, the controller in sync %d ms after "
                + "the kill; %d sessions held%n", kill, answerMs.get(k), syncMs.get(k), held.size());
            lostByAgent += held.keySet().stream().filter(id -> !afterRestart.containsKey(id)).count();
        }

        final JsonNode last = status();
        final Map<String, String> table = agentTable();
        final Map<String, Session> end = controllerTable();
        final long unconfirmed = end.values().stream().filter(s -> s.getUnconfirmed() != null).count();
        assertTrue(table.size() > 2 * BURST, "a storm of some thousands of connections was followed: " + table.size());
        System.out.printf("crash follow test: %d kills in a storm of %d pps; the agent decoded %d frames since its "
            + "last start, holds %d sessions; the controller %d (%d unconfirmed, %d held sessions the agents' "
            + "restarts lost in all); restart to answering %s ms; kill to the controller in sync %s ms%n", KILLS,
            PPS, last.path("counters").path("frames").asLong(), table.size(), end.size(), unconfirmed, lostByAgent,
            answerMs, syncMs);
    }

    /** Waits until the agent has decoded all it captured. */
    private void awaitDrained() throws Exception {
        eventually(SYNC_SECONDS, () -> {
            try {
                final long backlog = status().path("counters").path("queue_backlog").asLong(-1);
                return backlog == 0 ? null : "the agent's capture backlog is " + backlog;
            } catch (Exception e) {
                return e.toString();
            }
        });
    }

    /**
     * Null when the controller is at rest with the quiet agent, else what is not yet: nothing it
     * {@code held} before the kill forgotten; its confirmed sessions exactly the agent's, state for
     * state; the rest marked unconfirmed, and counted so in the switch's status; nothing the agent
     * restored marked; and the paths exactly the sessions, state for state, at the switch.
     */
    private String settled(final String when, final Map<String, Session> held, final Map<String, String> restored) {
        try {
            final Map<String, Session> now = controllerTable();
            final Map<String, String> table = agentTable();
            final Set<String> forgotten = new HashSet<>(held.keySet());
            forgotten.removeAll(now.keySet());
            if (!forgotten.isEmpty()) {
                return when + ": the controller forgot sessions it held: " + sample(forgotten);
            }
            final Set<String> confirmed = new HashSet<>();
            final Set<String> unconfirmed = new HashSet<>();
            for (Session s : now.values()) {
                (s.getUnconfirmed() == null ? confirmed : unconfirmed).add(s.getSessionId());
                if (s.getUnconfirmed() != null && restored.containsKey(s.getSessionId())) {
                    return when + ": a session the agent restored is marked unconfirmed: " + s.getSessionId();
                }
                if (s.getUnconfirmed() == null && !s.getState().getName().equalsIgnoreCase(
                        table.getOrDefault(s.getSessionId(), ""))) {
                    return when + ": state of " + s.getSessionId() + ": controller " + s.getState() + ", agent "
                        + table.get(s.getSessionId());
                }
            }
            if (!confirmed.equals(table.keySet())) {
                final Set<String> missing = new HashSet<>(table.keySet());
                missing.removeAll(confirmed);
                final Set<String> extra = new HashSet<>(confirmed);
                extra.removeAll(table.keySet());
                return when + ": the controller's confirmed sessions are not the agent's: missing " + sample(missing)
                    + ", not marked unconfirmed " + sample(extra);
            }
            final Switch sw = controllerSwitch();
            final long counted = sw.getAgentStatus() == null || sw.getAgentStatus().getUnconfirmedSessions() == null
                ? 0 : sw.getAgentStatus().getUnconfirmedSessions().longValue();
            if (counted != unconfirmed.size()) {
                return when + ": the switch's status counts " + counted + " unconfirmed sessions, the table has "
                    + unconfirmed.size();
            }
            final var paths = paths();
            if (!paths.keySet().equals(now.keySet())) {
                final Set<String> missing = new HashSet<>(now.keySet());
                missing.removeAll(paths.keySet());
                final Set<String> extra = new HashSet<>(paths.keySet());
                extra.removeAll(now.keySet());
                return when + ": rpt's paths are not rft's sessions: missing " + sample(missing) + ", extra "
                    + sample(extra);
            }
            for (Session s : now.values()) {
                final var p = paths.get(s.getSessionId());
                // a session whose first messages crossed while the agent was down is seen one way only
                if (p.getState() != s.getState() || !atSwitch(p.getForward()) && !atSwitch(p.getReverse())) {
                    return when + ": the path of " + s.getSessionId() + " (" + p.getState()
                        + ") does not match its session (" + s.getState() + ") at " + SWITCH + ": " + p;
                }
            }
            return null;
        } catch (Exception e) {
            return when + ": " + e;
        }
    }
}
