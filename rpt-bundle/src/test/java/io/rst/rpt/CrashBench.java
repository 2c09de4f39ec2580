/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rpt;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rst.rft.manager.RftManager;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.opendaylight.mdsal.binding.api.DataBroker;
import org.opendaylight.mdsal.binding.api.DataObjectModification;
import org.opendaylight.mdsal.binding.api.DataTreeChangeListener;
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
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.Rpt;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.NodeId;
import org.opendaylight.yangtools.binding.DataObjectIdentifier;
import org.opendaylight.yangtools.binding.DataObjectReference;
import org.opendaylight.yangtools.yang.common.Uint16;

/**
 * The crash benchmark ({@code ./rst bench crash}, scripts/bench-crash.sh; root): a real agent
 * process in a namespace "switch" and, in this JVM, the real RFT manager worker and RPT worker on
 * an in-memory MD-SAL broker following it over a management veth.
 *
 * <ul>
 *   <li>restart: the agent holding N live sessions (replayed from {@code rst gen --storm
 *       --established}), the controller in sync with it, then {@code kill -9} and a restart on the
 *       same state directory: the time until the agent answers, and until the controller has
 *       taken its new snapshot and the events after it (the restarted agent replays a few new
 *       sessions).</li>
 *   <li>wal: the agent's capture of one {@code rst gen --storm} replayed by tcpreplay at its top
 *       speed into a veth, with the write-ahead log ({@code --flush-ms 200}) and without
 *       ({@code --flush-ms 0}), alternating, fresh agents: frames decoded per second and the
 *       agent's CPU per frame, as ratios.</li>
 *   <li>lag: tcpreplay of a storm at 20,000 CM packets per second: for each session state the
 *       flow table took, how much later the path took it.</li>
 *   <li>rebuild: the controller's operational data lost and its workers started anew (a
 *       controller restart) with the agent holding 100,000 sessions: the time to the flow table
 *       re-read and to every path rebuilt; and the RPT alone restarted over a full flow table.</li>
 * </ul>
 */
@SuppressWarnings("checkstyle:RegexpSinglelineJava") // a command-line benchmark: its report is the console
public final class CrashBench {
    static final String USAGE = """
        usage: ./rst bench crash [--sessions N,N] [--rebuild N] [--wal-sessions N] [--wal-rounds R] [--wal-warm N]
                                 [--lag-pps P] [--lag-seconds S] [--only restart|wal|lag|rebuild]...
          --sessions N,N     live sessions in the agent's table for the restart times (default
                             100000,1000000)
          --rebuild N        sessions for the controller's rebuild (default 100000)
          --wal-sessions N   connections of the storm the durable log's cost is measured on (default
                             200000: 1,000,000 packets)
          --wal-rounds R     rounds, each with and without the log (default 3)
          --wal-warm N       connections of the warm-up storm before each measured one (default 150000)
          --lag-pps P        the storm's rate for the path lag (default 20000)
          --lag-seconds S    its length (default 20)
          --only PART        run only this part (repeatable)
          env: RST_BENCH_NETNS (namespace prefix, default rstk-RANDOM). Root.""";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SWITCH = "sw";
    private static final String TOKEN = "bench-crash-token-0123456789";

    private final String prefix;
    private final Path dir;
    private final String mgmtAgent;
    private final String mgmtRoot;
    private final String rootVeth;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
    private Process agent;

    private CrashBench(final String prefix, final Path dir, final int net) {
        this.prefix = prefix;
        this.dir = dir;
        this.mgmtAgent = "10.79." + net + ".2";
        this.mgmtRoot = "10.79." + net + ".1";
        this.rootVeth = "dk" + prefix.substring(prefix.length() - 6) + "b";
    }

    public static void main(final String[] args) throws Exception {
        final List<String> a = List.of(args);
        if (a.contains("--help") || a.contains("-h")) {
            System.out.println(USAGE);
            return;
        }
        List<Integer> sessions = List.of(100_000, 1_000_000);
        int rebuild = 100_000;
        int walSessions = 200_000;
        int walRounds = 3;
        int walWarm = 150_000;
        int lagPps = 20_000;
        int lagSeconds = 20;
        final List<String> only = new ArrayList<>();
        try {
            for (int i = 0; i < a.size(); i++) {
                switch (a.get(i)) {
                    case "--sessions" -> sessions = Arrays.stream(a.get(++i).split(",")).map(Integer::parseInt)
                        .toList();
                    case "--rebuild" -> rebuild = Integer.parseInt(a.get(++i));
                    case "--wal-sessions" -> walSessions = Integer.parseInt(a.get(++i));
                    case "--wal-rounds" -> walRounds = Integer.parseInt(a.get(++i));
                    case "--wal-warm" -> walWarm = Integer.parseInt(a.get(++i));
                    case "--lag-pps" -> lagPps = Integer.parseInt(a.get(++i));
                    case "--lag-seconds" -> lagSeconds = Integer.parseInt(a.get(++i));
                    case "--only" -> only.add(a.get(++i));
                    default -> throw new IllegalArgumentException("unknown argument " + a.get(i));
                }
            }
        } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
            System.err.println("bench crash: " + e.getMessage() + "\n" + USAGE);
            System.exit(2);
            return;
        }
        if (!"root".equals(System.getProperty("user.name"))) {
            System.err.println("bench crash: needs root (network namespaces)");
            System.exit(1);
            return;
        }
        final byte[] seed = new SecureRandom().generateSeed(3);
        final String prefix = System.getenv().getOrDefault("RST_BENCH_NETNS", "rstk-") + HexFormat.of().formatHex(seed);
        final Path dir = Files.createTempDirectory("rst-bench-crash");
        final var bench = new CrashBench(prefix, dir, 1 + (seed[0] & 0x7f));
        boolean ok = true;
        try {
            bench.fabric();
            System.out.printf("bench crash: load average at the start %s (%d cores)%n", loadAverage(),
                Runtime.getRuntime().availableProcessors());
            if (only.isEmpty() || only.contains("wal")) {
                ok &= bench.walCost(walSessions, walRounds, walWarm);
            }
            if (only.isEmpty() || only.contains("lag")) {
                ok &= bench.lag(lagPps, lagSeconds);
            }
            if (only.isEmpty() || only.contains("restart") || only.contains("rebuild")) {
                final List<Integer> sizes = new ArrayList<>();
                if (only.isEmpty() || only.contains("restart")) {
                    sizes.addAll(sessions);
                }
                if ((only.isEmpty() || only.contains("rebuild")) && !sizes.contains(rebuild)) {
                    sizes.add(rebuild);
                }
                Collections.sort(sizes);
                for (int n : sizes) {
                    ok &= bench.restart(n, (only.isEmpty() || only.contains("restart")) && sessions.contains(n),
                        (only.isEmpty() || only.contains("rebuild")) && n == rebuild);
                }
            }
            System.out.printf("bench crash: load average at the end %s%n", loadAverage());
        } finally {
            bench.cleanup();
        }
        System.exit(ok ? 0 : 1);
    }

    private static String loadAverage() {
        try {
            final String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException e) {
            return "?";
        }
    }

    // ---- the namespaces and the agent --------------------------------------------------------

    private void fabric() throws Exception {
        sh("ip", "netns", "add", prefix + "-snd");
        sh("ip", "netns", "add", prefix + "-sw");
        sh("ip", "link", "add", "snd0", "netns", prefix + "-snd", "type", "veth", "peer", "name", "in0", "netns",
            prefix + "-sw");
        ns("snd", "ip", "link", "set", "snd0", "up");
        ns("sw", "ip", "link", "set", "in0", "up");
        ns("sw", "ip", "link", "set", "lo", "up");
        sh("ip", "link", "add", rootVeth, "type", "veth", "peer", "name", "mgmt", "netns", prefix + "-sw");
        sh("ip", "addr", "add", mgmtRoot + "/30", "dev", rootVeth);
        sh("ip", "link", "set", rootVeth, "up");
        ns("sw", "ip", "addr", "add", mgmtAgent + "/30", "dev", "mgmt");
        ns("sw", "ip", "link", "set", "mgmt", "up");
        Files.writeString(dir.resolve("token"), TOKEN);
        Files.setPosixFilePermissions(dir.resolve("token"), PosixFilePermissions.fromString("rw-------"));
    }

    private void cleanup() throws Exception {
        if (agent != null) {
            agent.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        for (String n : List.of("snd", "sw")) {
            new ProcessBuilder("ip", "netns", "del", prefix + "-" + n).inheritIO().start().waitFor();
        }
        try (var walk = Files.walk(dir)) {
            for (var p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    private void ns(final String namespace, final String... cmd) throws Exception {
        final List<String> c = new ArrayList<>(List.of("ip", "netns", "exec", prefix + "-" + namespace));
        c.addAll(List.of(cmd));
        sh(c.toArray(String[]::new));
    }

    private static String sh(final String... cmd) throws Exception {
        final Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        final String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(600, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException(String.join(" ", cmd) + ": " + out);
        }
        return out;
    }

    private static String javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static void gen(final Path out, final int sessions, final int seed, final String... more)
            throws Exception {
        final List<String> cmd = new ArrayList<>(List.of(javaBin(), "-cp", System.getProperty("java.class.path"),
            "io.rst.rft.cli.Main", "gen", "--out", out.toString(), "--sessions", Integer.toString(sessions),
            "--storm", "--seed", Integer.toString(seed)));
        cmd.addAll(List.of(more));
        sh(cmd.toArray(String[]::new));
    }

    /** Starts the agent; returns the milliseconds until it answers {@code /v1/status}. */
    private long startAgent(final String xmx, final Path stateDir, final String... more) throws Exception {
        final long t0 = System.nanoTime();
        final List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", prefix + "-sw", javaBin(),
            "-Xmx" + xmx, "-cp", System.getProperty("java.class.path"), "io.rst.rft.cli.Main", "agent", "--listen",
            mgmtAgent + ":4791", "--token-file", dir.resolve("token").toString(), "--state-dir", stateDir.toString(),
            "--agent-id", SWITCH, "--plain-http"));
        cmd.addAll(List.of(more));
        // ip netns exec execs the JVM: the process is the agent, and destroyForcibly its SIGKILL
        agent = new ProcessBuilder(cmd).redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("agent.log").toFile())).start();
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(600);
        while (System.nanoTime() < deadline) {
            try {
                if (get("/v1/status").statusCode() == 200) {
                    return (System.nanoTime() - t0) / 1_000_000L;
                }
            } catch (IOException e) {
                // not listening yet
            }
            if (!agent.isAlive()) {
                throw new IOException("agent died: " + tail(dir.resolve("agent.log")));
            }
            Thread.sleep(20);
        }
        throw new IOException("agent did not answer within 10 minutes");
    }

    private static String tail(final Path log) throws IOException {
        final List<String> lines = Files.readAllLines(log);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 10), lines.size()));
    }

    private void stopAgent() throws Exception {
        agent.destroy();
        agent.waitFor(60, TimeUnit.SECONDS);
        agent.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        agent = null;
    }

    private HttpResponse<String> get(final String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://" + mgmtAgent + ":4791" + path))
            .header("Authorization", "Bearer " + TOKEN).timeout(Duration.ofSeconds(60)).build(),
            HttpResponse.BodyHandlers.ofString());
    }

    private JsonNode status() throws Exception {
        return JSON.readTree(get("/v1/status").body());
    }

    /** The agent's CPU time so far (user and system), in nanoseconds, from /proc. */
    private long agentCpuNanos() throws IOException {
        final String stat = Files.readString(Path.of("/proc/" + agent.pid() + "/stat"));
        final String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        // fields 14 and 15 of stat (utime, stime), in clock ticks of 10 ms
        return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10_000_000L;
    }

    /**
     * The agent's CPU by thread group (JVM thread names as the kernel keeps them, numbers folded:
     * "GC Thread#0" and "GC Thread#1" are one), user and system time apart, in ms.
     */
    private Map<String, long[]> agentThreadCpu() throws IOException {
        final Map<String, long[]> out = new TreeMap<>();
        try (var tasks = Files.list(Path.of("/proc/" + agent.pid() + "/task"))) {
            for (Path t : tasks.toList()) {
                final String stat;
                try {
                    stat = Files.readString(t.resolve("stat"));
                } catch (IOException e) {
                    continue; // the thread ended
                }
                final String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
                    .replaceAll("[#-]?[0-9]+$", "#").strip();
                final String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                final long[] v = out.computeIfAbsent(name, k -> new long[2]);
                v[0] += Long.parseLong(f[11]) * 10;
                v[1] += Long.parseLong(f[12]) * 10;
            }
        }
        return out;
    }

    private static long compilerMillis(final Map<String, long[]> threads) {
        long ms = 0;
        for (var e : threads.entrySet()) {
            if (e.getKey().startsWith("C1 Compiler") || e.getKey().startsWith("C2 Compiler")) {
                ms += e.getValue()[0] + e.getValue()[1];
            }
        }
        return ms;
    }

    private static String threadCpuDelta(final Map<String, long[]> before, final Map<String, long[]> after) {
        final List<Map.Entry<String, long[]>> delta = new ArrayList<>();
        after.forEach((k, v) -> {
            final long[] b = before.getOrDefault(k, new long[2]);
            if (v[0] - b[0] + v[1] - b[1] > 0) {
                delta.add(Map.entry(k, new long[] {v[0] - b[0], v[1] - b[1]}));
            }
        });
        delta.sort((x, y) -> Long.compare(y.getValue()[0] + y.getValue()[1], x.getValue()[0] + x.getValue()[1]));
        final StringBuilder sb = new StringBuilder();
        for (var e : delta.subList(0, Math.min(8, delta.size()))) {
            sb.append(String.format(" %s %d+%d;", e.getKey(), e.getValue()[0], e.getValue()[1]));
        }
        return sb.toString();
    }

    /** Waits until the agent has decoded all it captured or replayed. */
    private JsonNode awaitDrained() throws Exception {
        while (true) {
            final JsonNode s = status();
            boolean finished = true;
            for (JsonNode i : s.path("interfaces")) {
                finished &= !i.has("finished") || i.path("finished").asBoolean();
            }
            if (finished && s.path("counters").path("queue_backlog").asLong() == 0) {
                return s;
            }
            Thread.sleep(100);
        }
    }

    // ---- the controller ----------------------------------------------------------------------

    /** The controller: the RFT manager's worker and the RPT worker on one in-memory broker. */
    private final class Controller implements AutoCloseable {
        final IngestBench.Broker broker = new IngestBench.Broker();
        final DataBroker db;
        ExecutorService rptExecutor = newRptExecutor();
        RptWorker rpt;
        AutoCloseable rft;

        Controller(final boolean withRpt) throws Exception {
            broker.setup();
            db = broker.getDataBroker();
            if (withRpt) {
                rpt = new RptWorker(db, broker.getDomBroker(), broker.rpcs(), rptExecutor);
            }
            rft = RftManager.standalone(broker.getDataBroker(), broker.getDomBroker(),
                broker.getDataBrokerTestCustomizer().getAdapterContext().currentSerializer(), TOKEN);
            final var tx = db.newWriteOnlyTransaction();
            tx.mergeParentStructurePut(LogicalDatastoreType.CONFIGURATION, switchId(), new SwitchBuilder()
                .setNodeId(new NodeId(SWITCH)).setEnabled(true)
                .setAgentAddress(new Host(new IpAddress(new Ipv4Address(mgmtAgent))))
                .setAgentPort(new PortNumber(Uint16.valueOf(4791))).setAgentTransport(AgentTransport.PlainHttp)
                .build());
            tx.commit().get(10, TimeUnit.SECONDS);
        }

        Switch sw() throws Exception {
            try (var tx = db.newReadOnlyTransaction()) {
                return tx.read(LogicalDatastoreType.OPERATIONAL, switchId()).get(60, TimeUnit.SECONDS).orElse(null);
            }
        }

        long seq() throws Exception {
            final Switch s = sw();
            return s == null || s.getAgentStatus() == null || s.getAgentStatus().getLastEventSeq() == null ? -1
                : s.getAgentStatus().getLastEventSeq().longValue();
        }

        int sessions() throws Exception {
            final Switch s = sw();
            return s == null ? 0 : s.nonnullSession().size();
        }

        int paths() throws Exception {
            try (var tx = db.newReadOnlyTransaction()) {
                return tx.read(LogicalDatastoreType.OPERATIONAL, DataObjectIdentifier.builder(Rpt.class).build())
                    .get(60, TimeUnit.SECONDS).map(r -> r.nonnullPath().size()).orElse(0);
            }
        }

        /**
         * Waits until the controller's probe reached the agent at {@code seq} (when 0) or its flow
         * table holds {@code seq} sessions at least, printing progress.
         */
        void await(final long sessions, final String what) throws Exception {
            long last = System.nanoTime();
            while (sessions == 0 ? seq() < 0 : sessions() < sessions) {
                if (System.nanoTime() - last > TimeUnit.SECONDS.toNanos(20)) {
                    last = System.nanoTime();
                    System.out.printf("bench crash:   (%s: %d sessions of %d in rft; load %s)%n", what,
                        sessions(), sessions, loadAverage());
                }
                Thread.sleep(20);
            }
        }

        @Override
        public void close() throws Exception {
            rft.close();
            if (rpt != null) {
                rpt.close();
            }
            rptExecutor.shutdownNow();
        }
    }

    /** The RPT's thread; a closed RPT worker shuts its executor down, so each worker gets its own. */
    private static ExecutorService newRptExecutor() {
        return Executors.newSingleThreadExecutor(Thread.ofPlatform().name("rst-rpt").daemon().factory());
    }

    private static DataObjectIdentifier<Switch> switchId() {
        return DataObjectIdentifier.builder(Rft.class).child(Switch.class, new SwitchKey(new NodeId(SWITCH))).build();
    }

    // ---- (a) and (d): restart times, rebuild -------------------------------------------------

    private boolean restart(final int sessions, final boolean restartTimes, final boolean rebuild) throws Exception {
        System.out.printf("bench crash: restart with %,d live sessions: generating, replaying into the agent, the "
            + "controller following (load %s)%n", sessions, loadAverage());
        final Path live = dir.resolve("live-" + sessions + ".pcap");
        gen(live, sessions, 5, "--established");
        final Path after = dir.resolve("after-" + sessions + ".pcap");
        // a few new sessions after the restart: the controller is in sync once it has them too
        gen(after, 100, 6, "--established", "--start", Long.toString(System.currentTimeMillis() / 1000));
        final Path state = dir.resolve("state-" + sessions);
        final String xmx = sessions > 300_000 ? "1200m" : "512m";
        final String max = Integer.toString(sessions + sessions / 10 + 1000);
        // the RPT only where paths are measured: a million paths are beyond this machine's heap
        boolean ok = true;
        long t0 = System.nanoTime();
        startAgent(xmx, state, "--replay", "in0=" + live, "--max-sessions", max);
        final JsonNode loaded = awaitDrained();
        final long replayMs = (System.nanoTime() - t0) / 1_000_000L;
        // the controller starts once the agent holds its table: it reads it as one snapshot
        t0 = System.nanoTime();
        try (var controller = new Controller(rebuild || sessions <= 100_000)) {
            controller.await(loaded.path("counters").path("sessions_live").asLong(), "initial following");
            final long syncedMs = (System.nanoTime() - t0) / 1_000_000L;
            System.out.printf("bench crash:   agent holds %d sessions (%d events) after %.1f s; a new controller in "
                + "sync after %.1f s, %d sessions in rft; load %s%n",
                loaded.path("counters").path("sessions_live").asLong(), loaded.path("last_seq").asLong(),
                replayMs / 1e3, syncedMs / 1e3, controller.sessions(), loadAverage());
            // a flush interval and more: all of the table is on disk
            Thread.sleep(1000);
            if (restartTimes) {
                agent.destroyForcibly();
                final long killed = System.nanoTime();
                agent.waitFor(30, TimeUnit.SECONDS);
                startAgent(xmx, state, "--replay", "in0=" + after, "--max-sessions", max);
                final long answerMs = (System.nanoTime() - killed) / 1_000_000L;
                final JsonNode st = awaitDrained();
                // in sync: the flow table holds the agent's table, the sessions after the restart
                // too (the follower reconnected, took the new snapshot and the events after it)
                final long liveNow = st.path("counters").path("sessions_live").asLong();
                long lastPrint = System.nanoTime();
                while (controller.sessions() < liveNow) {
                    if (System.nanoTime() - lastPrint > TimeUnit.SECONDS.toNanos(20)) {
                        lastPrint = System.nanoTime();
                        System.out.printf("bench crash:   (after the restart: %d of %d sessions in rft; load %s)%n",
                            controller.sessions(), liveNow, loadAverage());
                    }
                    Thread.sleep(50);
                }
                final long syncMs = (System.nanoTime() - killed) / 1_000_000L;
                final JsonNode r = st.path("restored");
                System.out.printf("bench crash: RESTART %,d sessions: kill -9 -> agent answering %.2f s (restored %d "
                    + "sessions: checkpoint %d + %d WAL events); -> controller in sync %.2f s (%d sessions in rft); "
                    + "load %s%n", sessions, answerMs / 1e3, r.path("restored_sessions").asLong(),
                    r.path("checkpoint_sessions").asLong(), r.path("wal_events").asLong(), syncMs / 1e3,
                    controller.sessions(), loadAverage());
                if (r.path("restored_sessions").asLong() < sessions) {
                    System.out.printf("bench crash:   the agent restored fewer sessions than it held: %s%n", r);
                    ok = false;
                }
            }
            if (rebuild) {
                ok &= rebuild(controller);
            }
        }
        stopAgent();
        Files.delete(live);
        return ok;
    }

    private boolean rebuild(final Controller controller) throws Exception {
        long t0 = System.nanoTime();
        while (controller.paths() < controller.sessions()) {
            if (System.nanoTime() - t0 > TimeUnit.SECONDS.toNanos(600)) {
                System.out.printf("bench crash:   the paths never caught up: %d paths, %d sessions%n",
                    controller.paths(), controller.sessions());
                return false;
            }
            Thread.sleep(200);
        }
        final int sessions = controller.sessions();
        // the RPT alone restarted: it rebuilds every path from the flow table in the datastore
        controller.rpt.close();
        deleteOperational(controller.db, DataObjectIdentifier.builder(Rpt.class).build());
        t0 = System.nanoTime();
        controller.rptExecutor = newRptExecutor();
        controller.rpt = new RptWorker(controller.db, controller.broker.getDomBroker(), controller.broker.rpcs(),
            controller.rptExecutor);
        final long rptMs = awaitPaths(controller, sessions, t0);
        System.out.printf("bench crash: REBUILD the RPT restarted over %,d sessions in rft: all %,d paths in %.2f s "
            + "(floor 10 s); load %s%n", sessions, controller.paths(), rptMs / 1e3, loadAverage());
        // the controller restarted: its operational data gone (it is not persisted), the flow
        // table re-read from the agent, every path rebuilt
        controller.rft.close();
        controller.rpt.close();
        deleteOperational(controller.db, DataObjectIdentifier.builder(Rpt.class).build());
        deleteOperational(controller.db, DataObjectIdentifier.builder(Rft.class).build());
        final Map<String, Long> cpu0 = threadCpu();
        t0 = System.nanoTime();
        controller.rptExecutor = newRptExecutor();
        controller.rpt = new RptWorker(controller.db, controller.broker.getDomBroker(), controller.broker.rpcs(),
            controller.rptExecutor);
        controller.rft = RftManager.standalone(controller.broker.getDataBroker(), controller.broker.getDomBroker(),
                controller.broker.getDataBrokerTestCustomizer().getAdapterContext().currentSerializer(), TOKEN);
        long rftMs = -1;
        long lastPrint = System.nanoTime();
        while (controller.paths() < sessions) {
            if (rftMs < 0 && controller.sessions() >= sessions) {
                rftMs = (System.nanoTime() - t0) / 1_000_000L;
            }
            if (System.nanoTime() - lastPrint > TimeUnit.SECONDS.toNanos(10)) {
                lastPrint = System.nanoTime();
                System.out.printf("bench crash:   (rebuild: %d sessions, %d paths after %.0f s)%n",
                    controller.sessions(), controller.paths(), (lastPrint - t0) / 1e9);
            }
            if (System.nanoTime() - t0 > TimeUnit.SECONDS.toNanos(900)) {
                break;
            }
            Thread.sleep(50);
        }
        final long allMs = (System.nanoTime() - t0) / 1_000_000L;
        if (rftMs < 0) {
            rftMs = allMs;
        }
        final boolean ok = controller.paths() >= sessions && allMs <= 10_000;
        System.out.printf("bench crash: REBUILD the controller restarted (operational data lost), %,d sessions: the "
            + "flow table re-read in %.2f s, all %,d paths in %.2f s (floor 10 s: %s); load %s%n", sessions,
            rftMs / 1e3, controller.paths(), allMs / 1e3, ok ? "met" : "NOT met", loadAverage());
        printThreadCpu(cpu0, allMs);
        return ok;
    }

    private static long awaitPaths(final Controller controller, final int sessions, final long t0) throws Exception {
        while (controller.paths() < sessions && System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(900)) {
            Thread.sleep(50);
        }
        return (System.nanoTime() - t0) / 1_000_000L;
    }

    private static void deleteOperational(final DataBroker db, final DataObjectIdentifier<?> id) throws Exception {
        final var tx = db.newWriteOnlyTransaction();
        tx.delete(LogicalDatastoreType.OPERATIONAL, id);
        tx.commit().get(60, TimeUnit.SECONDS);
    }

    /** CPU time of this JVM's threads by name (numbers folded: pools add up). */
    private static Map<String, Long> threadCpu() {
        final var threads = ManagementFactory.getThreadMXBean();
        final Map<String, Long> out = new HashMap<>();
        for (var info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info != null) {
                out.merge(info.getThreadName().replaceAll("[0-9]+", "N"),
                    Math.max(0, threads.getThreadCpuTime(info.getThreadId())), Long::sum);
            }
        }
        return out;
    }

    /** Where the controller's CPU went since {@code before}: the busiest threads. */
    private static void printThreadCpu(final Map<String, Long> before, final long wallMs) {
        final Map<String, Long> now = threadCpu();
        final List<Map.Entry<String, Long>> delta = new ArrayList<>();
        now.forEach((k, v) -> delta.add(Map.entry(k, v - before.getOrDefault(k, 0L))));
        delta.sort(Map.Entry.<String, Long>comparingByValue().reversed());
        final StringBuilder sb = new StringBuilder();
        for (var e : delta.subList(0, Math.min(8, delta.size()))) {
            sb.append(String.format(" %s %.1f s;", e.getKey(), e.getValue() / 1e9));
        }
        System.out.printf("bench crash:   CPU by thread over %.1f s:%s%n", wallMs / 1e3, sb);
    }

    // ---- (b): the durable log's cost ---------------------------------------------------------

    private boolean walCost(final int sessions, final int rounds, final int warmConnections) throws Exception {
        final Path storm = dir.resolve("storm-wal.pcap");
        gen(storm, sessions, 7);
        // the warm-up: a storm at top speed too, big enough that the log's loops (a few calls a
        // second, thousands of events each) reach the optimising compiler: the measured storm then
        // finds the log's code compiled, as in an agent that has run a while. Before, a fresh JVM
        // compiling the WAL's and the checkpoint's code during the storm (C2 0.3-0.5 s of the 2.5 s)
        // was counted as the log's cost. Neither storm makes a checkpoint (the WAL stays under
        // --wal-mb): what a checkpoint costs is told apart (the README).
        final int warmSessions = Math.max(20_000, warmConnections);
        final Path warm = dir.resolve("warm.pcap");
        gen(warm, warmSessions, 8);
        final long frames = sessions * 5L;
        System.out.printf("bench crash: WAL the agent's capture of a %,d-packet storm (tcpreplay --topspeed), with "
            + "the write-ahead log (--flush-ms 200) and without (--flush-ms 0), %d rounds each%n", frames, rounds);
        final List<double[]> with = new ArrayList<>();
        final List<double[]> without = new ArrayList<>();
        for (int r = 0; r < rounds; r++) {
            for (boolean wal : new boolean[] {r % 2 == 0, r % 2 != 0}) {
                final Path state = dir.resolve("state-wal-" + r + "-" + wal);
                startAgent(System.getProperty("rst.bench.walHeap", "256m"), state, "--interface", "in0",
                    "--flush-ms", wal ? "200" : "0", "--max-sessions",
                    Integer.toString(warmSessions + sessions + 50_000));
                while (!status().path("capture_running").asBoolean()) {
                    Thread.sleep(50);
                }
                // JIT warm-up, not counted
                sh("ip", "netns", "exec", prefix + "-snd", "tcpreplay", "-q", "-i", "snd0", "--topspeed",
                    warm.toString());
                awaitDrained();
                // the compiler finishes in the background what the warm-up queued (one method of the
                // JSON writer alone takes C2 0.3-0.5 s): not counted either
                Thread.sleep(3000);
                final JsonNode s0 = awaitDrained();
                final long warmCheckpoints = s0.path("durability").path("checkpoints").asLong();
                final long cpu0 = agentCpuNanos();
                final Map<String, long[]> threads0 = agentThreadCpu();
                final long t0 = System.nanoTime();
                final String out = sh("ip", "netns", "exec", prefix + "-snd", "tcpreplay", "-q", "-i", "snd0",
                    "--topspeed", storm.toString());
                final JsonNode s1 = awaitDrained();
                final double seconds = (System.nanoTime() - t0) / 1e9;
                final long cpu = agentCpuNanos() - cpu0;
                final Map<String, long[]> threads1 = agentThreadCpu();
                final String threads = threadCpuDelta(threads0, threads1);
                // the JIT's compiler threads: what a fresh JVM still compiles (once in its life)
                final long jitNanos = (compilerMillis(threads1) - compilerMillis(threads0)) * 1_000_000L;
                final var c0 = s0.path("counters");
                final var c1 = s1.path("counters");
                final long decoded = c1.path("frames").asLong() - c0.path("frames").asLong();
                final long drops = c1.path("kernel_drops").asLong() - c0.path("kernel_drops").asLong()
                    + c1.path("queue_drops").asLong() - c0.path("queue_drops").asLong();
                final String sent = out.replaceAll("(?s).*Rated: [0-9.]+ Bps, [0-9.]+ Mbps, ([0-9.]+) pps.*", "$1");
                final double pps = decoded / seconds;
                final double cpuPerFrame = cpu / 1e3 / Math.max(1, decoded);
                final double cpuPerFrameNoJit = (cpu - jitNanos) / 1e3 / Math.max(1, decoded);
                (wal ? with : without).add(new double[] {pps, cpuPerFrame, drops, (double) decoded / frames,
                    cpuPerFrameNoJit});
                System.out.printf("bench crash:   round %d %-11s decoded %,d of %,d frames (%d dropped) in %.2f s: "
                    + "%,.0f pps (tcpreplay sent %s pps); agent CPU %.2f us per frame; checkpoints in it %d; load %s%n",
                    r + 1, wal ? "with WAL" : "without WAL", decoded, frames, drops, seconds, pps, sent, cpuPerFrame,
                    s1.path("durability").path("checkpoints").asLong() - warmCheckpoints, loadAverage());
                System.out.printf("bench crash:     agent CPU by thread, ms user+system:%s; without the compiler's "
                    + "threads %.2f us per frame%n", threads, cpuPerFrameNoJit);
                stopAgent();
            }
        }
        final double ppsWith = median(with, 0);
        final double ppsWithout = median(without, 0);
        final double cpuWith = median(with, 1);
        final double cpuWithout = median(without, 1);
        final double capturedWith = median(with, 3);
        final double capturedWithout = median(without, 3);
        // tcpreplay's top speed varies from round to round (418,000-611,000 pps in one run, in
        // either mode): while the agent drops nothing, its frames per second are the sender's, so
        // a ratio of rates measures tcpreplay. What the log costs is told by the share of the
        // frames sent that the agent decoded, and by its CPU per frame: the packets per second it
        // takes when it is the limit.
        final double captureRatio = capturedWith / capturedWithout;
        // the compiler's threads left out: they compile what a fresh JVM meets first (0.2-0.3 s of
        // a round with the log even after the warm-up), once in an agent's life
        final double steadyWith = median(with, 4);
        final double steadyWithout = median(without, 4);
        final double capacityRatio = steadyWithout / steadyWith;
        final boolean ok = captureRatio >= 0.9 && capacityRatio >= 0.9;
        System.out.printf("bench crash: WAL frames decoded of those sent with/without the durable log (medians): "
            + "%.4f / %.4f = %.3f; CPU per frame without the compiler's threads %.2f / %.2f us, so the packets per "
            + "second a core takes: %.3f (floor 0.9 for both: %s); with them %.2f / %.2f us (%.3f); frames per "
            + "second %,.0f / %,.0f (tcpreplay's speed while nothing is dropped)%n", capturedWith, capturedWithout,
            captureRatio, steadyWith, steadyWithout, capacityRatio, ok ? "met" : "NOT met", cpuWith, cpuWithout,
            cpuWithout / cpuWith, ppsWith, ppsWithout);
        Files.delete(storm);
        Files.delete(warm);
        return ok;
    }

    private static double median(final List<double[]> rows, final int col) {
        final double[] v = rows.stream().mapToDouble(r -> r[col]).sorted().toArray();
        return v.length == 0 ? Double.NaN : v[v.length / 2];
    }

    // ---- (c): path lag -----------------------------------------------------------------------

    private boolean lag(final int pps, final int seconds) throws Exception {
        final int connections = pps * seconds / 5;
        final Path storm = dir.resolve("storm-lag.pcap");
        gen(storm, connections, 9);
        // a controller that has run a while has its hot code compiled: a storm of 5 s at the same rate
        // first (other sessions), its lag told apart, so that a fresh JVM's compiling is not taken for
        // the lag a storm meets
        final int warmConnections = pps * 5 / 5;
        final Path warm = dir.resolve("storm-warm.pcap");
        gen(warm, warmConnections, 7);
        System.out.printf("bench crash: LAG a storm of %,d connections (%,d CM packets) at %,d pps into the agent, "
            + "the controller (RFT and RPT) following; load %s%n", connections, connections * 5, pps, loadAverage());
        boolean ok;
        try (var c = new Controller(true)) {
            startAgent("512m", dir.resolve("state-lag"), "--interface", "in0", "--max-sessions",
                Integer.toString(connections + warmConnections + 50_000), "--retain-events", "1000000",
                "--retain-mb", "512");
            while (!status().path("capture_running").asBoolean()) {
                Thread.sleep(50);
            }
            c.await(0, "first contact");
            // for each session state: when the flow table took it, when its path did
            final Map<String, Long> inRft = new ConcurrentHashMap<>();
            final Map<String, Long> inRpt = new ConcurrentHashMap<>();
            final var rftListener = c.db.registerTreeChangeListener(LogicalDatastoreType.OPERATIONAL,
                DataObjectReference.builder(Rft.class).child(Switch.class).child(Session.class).build(),
                (DataTreeChangeListener<Session>) changes -> {
                    final long now = System.nanoTime();
                    for (var ch : changes) {
                        if (ch.getRootNode() instanceof DataObjectModification.WithDataAfter<Session> w) {
                            inRft.putIfAbsent(w.dataAfter().getSessionId() + " " + w.dataAfter().getState(), now);
                        }
                    }
                });
            final var rptListener = c.db.registerTreeChangeListener(LogicalDatastoreType.OPERATIONAL,
                DataObjectReference.builder(Rpt.class).child(
                    org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.rpt.Path.class).build(),
                (DataTreeChangeListener<org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.rpt.Path>)
                    changes -> {
                        final long now = System.nanoTime();
                        for (var ch : changes) {
                            if (ch.getRootNode() instanceof DataObjectModification.WithDataAfter<
                                    org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.rpt.Path> w) {
                                inRpt.putIfAbsent(w.dataAfter().getSessionId() + " " + w.dataAfter().getState(), now);
                            }
                        }
                    });
            sh("ip", "netns", "exec", prefix + "-snd", "tcpreplay", "-q", "-i", "snd0", "--pps=" + pps,
                warm.toString());
            c.await(awaitDrained().path("counters").path("sessions_live").asLong(), "following the warm-up");
            settle(inRft, inRpt);
            final Map<String, Long> cpu0 = threadCpu();
            final long t0 = System.nanoTime();
            final String out = sh("ip", "netns", "exec", prefix + "-snd", "tcpreplay", "-q", "-i", "snd0",
                "--pps=" + pps, storm.toString());
            final long replayMs = (System.nanoTime() - t0) / 1_000_000L;
            final JsonNode s = awaitDrained();
            final long agentMs = (System.nanoTime() - t0) / 1_000_000L;
            c.await(s.path("counters").path("sessions_live").asLong(), "following the storm");
            final long rftMs = (System.nanoTime() - t0) / 1_000_000L;
            settle(inRft, inRpt);
            final long allMs = (System.nanoTime() - t0) / 1_000_000L;
            rftListener.close();
            rptListener.close();
            final List<Long> warmLags = new ArrayList<>();
            for (var e : inRft.entrySet()) {
                final Long p = inRpt.get(e.getKey());
                if (e.getValue() < t0 && p != null) {
                    warmLags.add(Math.max(0, p - e.getValue()));
                }
            }
            Collections.sort(warmLags);
            System.out.printf("bench crash:   the warm-up storm (%,d connections at %,d pps, a fresh controller): "
                + "path lag p50 %.0f ms, p99 %.0f ms, max %.0f ms (not the figure: the storm below is)%n",
                warmConnections, pps, quantile(warmLags, 0.5), quantile(warmLags, 0.99), quantile(warmLags, 1.0));
            final List<Long> lags = new ArrayList<>();
            long never = 0;
            long inStorm = 0;
            for (var e : inRft.entrySet()) {
                if (e.getValue() < t0) {
                    continue;
                }
                inStorm++;
                final Long p = inRpt.get(e.getKey());
                if (p == null) {
                    never++;
                } else {
                    lags.add(Math.max(0, p - e.getValue()));
                }
            }
            // where in the storm the lag was: p99 and max for each second the flow table took a state
            final Map<Long, List<Long>> bySecond = new java.util.TreeMap<>();
            for (var e : inRft.entrySet()) {
                final Long p = inRpt.get(e.getKey());
                if (p != null && e.getValue() >= t0) {
                    bySecond.computeIfAbsent((e.getValue() - t0) / 1_000_000_000L, k -> new ArrayList<>())
                        .add(Math.max(0, p - e.getValue()));
                }
            }
            final StringBuilder perSecond = new StringBuilder();
            for (var e : bySecond.entrySet()) {
                Collections.sort(e.getValue());
                perSecond.append(String.format(" %ds:%d/%.0f/%.0f", e.getKey(), e.getValue().size(),
                    quantile(e.getValue(), 0.99), quantile(e.getValue(), 1.0)));
            }
            System.out.printf("bench crash:   lag by second of the storm (states/p99 ms/max ms):%s%n", perSecond);
            Collections.sort(lags);
            final double p50 = quantile(lags, 0.5);
            final double p99 = quantile(lags, 0.99);
            ok = p99 < 1000;
            final String sent = out.replaceAll("(?s).*Rated: [0-9.]+ Bps, [0-9.]+ Mbps, ([0-9.]+) pps.*", "$1");
            System.out.printf("bench crash: LAG tcpreplay sent at %s pps for %.1f s; the agent decoded %d frames "
                + "(%d dropped) by %.1f s; the controller's rft caught up with the agent at %.1f s, rpt settled at "
                + "%.1f s; %,d session states in rft, %,d of them reached rpt (%d never: a state overtaken); path "
                + "lag behind the flow table p50 %.0f ms, p99 %.0f ms, max %.0f ms (floor p99 < 1 s: %s); load %s%n",
                sent, replayMs / 1e3, s.path("counters").path("frames").asLong(),
                s.path("counters").path("kernel_drops").asLong() + s.path("counters").path("queue_drops").asLong(),
                agentMs / 1e3, rftMs / 1e3, allMs / 1e3, inStorm, lags.size(), never, p50, p99,
                quantile(lags, 1.0), ok ? "met" : "NOT met", loadAverage());
            printThreadCpu(cpu0, allMs);
        }
        stopAgent();
        Files.delete(storm);
        Files.delete(warm);
        return ok;
    }

    /** Until neither table took a new session state for three seconds. */
    private static void settle(final Map<String, Long> inRft, final Map<String, Long> inRpt)
            throws InterruptedException {
        long seen = -1;
        long quiet = System.nanoTime();
        while (System.nanoTime() - quiet < TimeUnit.SECONDS.toNanos(3)) {
            Thread.sleep(200);
            if (inRpt.size() + ((long) inRft.size() << 32) != seen) {
                seen = inRpt.size() + ((long) inRft.size() << 32);
                quiet = System.nanoTime();
            }
        }
    }

    private static double quantile(final List<Long> sorted, final double fraction) {
        if (sorted.isEmpty()) {
            return Double.NaN;
        }
        final int i = Math.min(sorted.size() - 1, Math.max(0, (int) Math.ceil(fraction * sorted.size()) - 1));
        return sorted.get(i) / 1e6;
    }
}
