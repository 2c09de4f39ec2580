/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.lab;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.jdt.annotation.Nullable;

/**
 * The lab benchmark ({@code ./rst bench lab}): how many live sessions and new sessions per second
 * the whole system (agents, controller, path table) sustains with every path still right, and the
 * delay from a session's RTU leaving its host to its complete path (both directions) in RESTCONF,
 * p50 and p99, measured on a sample of sessions while new ones keep coming at the set rate and the
 * oldest close. Each level: ramp to N live sessions, then a steady period at the rate with N live;
 * then a random sample of the steady period's sessions is checked against the kernel.
 */
final class LabBench {
    /**
     * After the first ask, a sampled session is asked again this often (or a tenth of its wait so
     * far, once that is longer): a delay reads at most this much late. At 100 ms, a path complete
     * 101 ms after its RTU would read as 200 ms.
     */
    private static final long POLL_EVERY_NANOS = 50_000_000L;
    private static final long MAX_ASKS_PER_SECOND = 50;
    /**
     * A path is seldom complete sooner than this after its RTU (each agent holds a session's
     * changes up to 50 ms, the followers gather them 20 ms, the RPT 20 ms more): an earlier ask is
     * an error answer that costs the controller 2-4 ms of CPU and measures nothing. A delay under
     * it reads as it (an upper bound).
     */
    private static final long FIRST_ASK_NANOS = 100_000_000L;
    /** The warm-up goes on in windows of this length until the JIT has settled... */
    private static final double JIT_WINDOW_SECONDS = 10;
    /** ...that is, until the controller's compiler threads kept less than this share of a core busy... */
    private static final double JIT_SETTLED_SHARE = 0.10;
    /** ...for at most this long after the set warm-up. */
    private static final double MAX_JIT_WARMUP_SECONDS = 300;
    /**
     * After the set warm-up, this long at twice the rate: the controller falls a little behind
     * and sees sessions that some switches reported and others not yet, as it will whenever it
     * is behind. Without it those paths (a path joined across a switch that has not reported,
     * insight's verdicts on half-reported sessions) are first taken in the measurement, in
     * interpreted code after a deoptimisation, ten seconds into a steady minute at 100,000 live
     * sessions (docs/benchmarks.md, "The whole system: ./rst bench lab").
     */
    private static final double BURST_SECONDS = 10;
    /** How long the bench waits for the controller to catch up with the agents before measuring. */
    private static final long SETTLE_NANOS = 180_000_000_000L;

    private LabBench() {
        // utility
    }

    /**
     * The largest p99(data-learned) / p99(CM) the bench accepts: a session learnt from its data
     * shows its path about as soon as one learnt from its CM.
     */
    static final double DATA_P99_RATIO_FLOOR = 1.5;
    /**
     * Asks per second for the data-learned sessions' paths, at most: the CM sessions' budget (their
     * poller has its own), so that both delays are read with the same resolution.
     */
    private static final long MAX_DATA_ASKS_PER_SECOND = MAX_ASKS_PER_SECOND;

    static int run(final Lab lab, final Restconf rc, final List<Integer> levels, final double rate,
            final double steadySeconds, final int sampleEvery, final int checkSample, final double warmupSeconds,
            final PrintStream out) throws IOException, InterruptedException {
        return run(lab, rc, levels, rate, steadySeconds, sampleEvery, checkSample, warmupSeconds, 0, out);
    }

    /**
     * The bench; {@code ncclRate} NCCL-style connections a second (replacing as many CM ones) in
     * the warm-up and the steady periods, each QP pair's first packet to its complete data paths
     * measured beside the CM sessions' RTU to complete path.
     */
    static int run(final Lab lab, final Restconf rc, final List<Integer> levels, final double rate,
            final double steadySeconds, final int sampleEvery, final int checkSample, final double warmupSeconds,
            final double ncclRate, final PrintStream out) throws IOException, InterruptedException {
        final var fabric = lab.fabric();
        final long first = Truth.nextId(lab.truthFile());
        final int dataSample = lab.dataSample();
        // the share of new connections that are NCCL-style, for ncclRate of them a second
        final double ncclShare = Math.min(1, Math.max(0, ncclRate) / rate);
        boolean ok = true;
        try (var truthWriter = new Truth.Writer(lab.truthFile());
             var traffic = new Traffic(fabric, truthWriter, first)) {
            // long-lived ones for 20 s at most, a message a second after their opening burst
            traffic.nccl().options(NcclTraffic.Options.defaults(dataSample).withLife(20, 1000));
            final Map<String, Long> pending = new ConcurrentHashMap<>();
            // each sampled session's RTU time and its delay, nanoseconds
            final List<long[]> delays = Collections.synchronizedList(new ArrayList<>());
            final AtomicLong counter = new AtomicLong();
            final ExecutorService pollers = Executors.newFixedThreadPool(2);
            final Thread poller = new Thread(() -> poll(rc, pending, delays, null, pollers, CM_PATH_ASK,
                LabBench::cmComplete, MAX_ASKS_PER_SECOND), "bench-poller");
            poller.setDaemon(true);
            poller.start();
            // the NCCL-style QP pairs: first packet -> both data paths complete
            final Map<String, Long> dataPending = new ConcurrentHashMap<>();
            final List<long[]> dataDelays = Collections.synchronizedList(new ArrayList<>());
            // each QP pair's delay by its id, for the share that follows its pairable time
            final Map<String, Long> dataDelayById = new ConcurrentHashMap<>();
            final Thread dataPoller = new Thread(() -> poll(rc, dataPending, dataDelays, dataDelayById, pollers,
                DATA_PATH_ASK,
                LabBench::dataComplete, MAX_DATA_ASKS_PER_SECOND), "bench-data-poller");
            dataPoller.setDaemon(true);
            dataPoller.start();
            int liveNow = 0;
            long seed = 1000;
            if (warmupSeconds > 0) {
                // a controller just started compiles its ingest for a minute and attaches its
                // followers after its first poll: the measurement is of the system running
                final int warm = Math.min(1000, Math.max(1, levels.get(0)));
                final long w0 = System.nanoTime();
                // the warm-up's sessions are asked for as the steady period's are (their delays
                // thrown away): RESTCONF's request path is the controller's to compile too, and
                // with it cold the JIT compiles Jersey, Jetty and RESTCONF code in the steady
                // minute (7.8 s of the controller's 59.8 s of CPU in a measured minute)
                traffic.onRtu((id, when) -> {
                    if (counter.incrementAndGet() % sampleEvery == 0) {
                        pending.put(id, when);
                    }
                });
                // the data-learned sessions' paths are the controller's to compile too
                traffic.nccl().onFirstPacket((id, when) -> dataPending.put(id, when));
                long warmed = traffic.run(new Traffic.Options(rate, warm, 0, warmupSeconds, seed++, 1, false,
                    ncclShare));
                warmed += traffic.run(new Traffic.Options(2 * rate, warm, 0, BURST_SECONDS, seed++, 1, false,
                    ncclShare / 2));
                // then on until the JIT has compiled the ingest: a fresh controller's compile time
                // still rises 13-16 s in each 11-14 s a minute and a half after start, and without
                // this wait a Flight Recording at 100,000 live five minutes after start finds 47% of
                // its samples in interpreted code and the agents' AES-GCM decrypted by
                // unintrinsified Java code
                final StringBuilder jit = new StringBuilder();
                boolean settled = false;
                var c0 = threadCpuSeconds();
                long windowStart = System.nanoTime();
                while (!c0.isEmpty() && (System.nanoTime() - w0) / 1e9 < warmupSeconds + MAX_JIT_WARMUP_SECONDS) {
                    warmed += traffic.run(new Traffic.Options(rate, warm, 0, JIT_WINDOW_SECONDS, seed++, 1, false,
                        ncclShare));
                    // the compiler threads' time in the window, thread by thread (they come and go)
                    final var c1 = threadCpuSeconds();
                    final long windowEnd = System.nanoTime();
                    final double share = cpuByGroup(c0, c1).getOrDefault(JIT, 0.0) / ((windowEnd - windowStart) / 1e9);
                    jit.append(jit.isEmpty() ? "" : " ").append(String.format("%.2f", share));
                    c0 = c1;
                    windowStart = windowEnd;
                    if (share < JIT_SETTLED_SHARE) {
                        settled = true;
                        break;
                    }
                }
                liveNow = (int) Math.min(warm, warmed);
                out.printf("bench lab: warm-up: %d sessions in %.0f s (%.0f s of them at twice the rate); the "
                    + "controller's JIT compiler threads, cores busy in each %.0f s after those: %s (%s); the "
                    + "controller had applied every agent's events %s%n", warmed, (System.nanoTime() - w0) / 1e9,
                    BURST_SECONDS, JIT_WINDOW_SECONDS,
                    c0.isEmpty() ? "not known" : jit, c0.isEmpty() ? "no JIT wait" : settled
                        ? "settled below " + JIT_SETTLED_SHARE : "NOT settled within " + MAX_JIT_WARMUP_SECONDS + " s",
                    settle(lab, rc));
            }
            for (int level : levels) {
                // ramp: new live sessions until there are `level`
                traffic.onRtu(null);
                traffic.nccl().onFirstPacket(null);
                pending.clear();
                dataPending.clear();
                long t0 = System.nanoTime();
                final int ramp = Math.max(0, level - liveNow);
                if (ramp > 0) {
                    // (0 connections and 0 seconds would be traffic without end: a level at or
                    // below the one before, e.g. --live 10000,10000 to measure warmed up, has none)
                    traffic.run(new Traffic.Options(rate, level, ramp, 0, seed++, 1, false));
                }
                final double rampRate = ramp / ((System.nanoTime() - t0) / 1e9);
                liveNow = level;
                if (ramp > 0) {
                    // the steady period starts from a controller that is not behind
                    out.printf("bench lab: %d live sessions: ramped; the controller had applied every agent's events "
                        + "%s%n", level, settle(lab, rc));
                }
                // steady: `rate` new sessions per second, the oldest closing, RTU->path sampled
                delays.clear();
                pending.clear();
                dataDelays.clear();
                dataPending.clear();
                traffic.onRtu((id, when) -> {
                    if (counter.incrementAndGet() % sampleEvery == 0) {
                        pending.put(id, when);
                    }
                });
                // every NCCL-style QP pair (a few a second)
                final Map<String, Long> dataStarted = new ConcurrentHashMap<>();
                traffic.nccl().onFirstPacket((id, when) -> {
                    dataPending.put(id, when);
                    dataStarted.put(id, when);
                });
                final long beforeSteady = Truth.read(lab.truthFile()).stream().mapToLong(Truth.Connection::id).max()
                    .orElse(0);
                t0 = System.nanoTime();
                final double cpu0 = controllerCpuSeconds();
                final var threads0 = threadCpuSeconds();
                final var metrics0 = rc.metrics();
                final long made = traffic.run(new Traffic.Options(rate, level, 0, steadySeconds, seed++, 1, false,
                    ncclShare));
                final double steadyRate = made / ((System.nanoTime() - t0) / 1e9);
                final double cpu = controllerCpuSeconds() - cpu0;
                final var threads1 = threadCpuSeconds();
                final var metrics1 = rc.metrics();
                final long behind = eventsBehind(lab, rc);
                traffic.onRtu(null);
                traffic.nccl().onFirstPacket(null);
                traffic.quiesce();
                final long waitUntil = System.nanoTime() + 15_000_000_000L;
                while ((!pending.isEmpty() || !dataPending.isEmpty()) && System.nanoTime() < waitUntil) {
                    Thread.sleep(100);
                }
                final int missing = pending.size();
                pending.clear();
                final Set<String> dataMissing = new java.util.HashSet<>(dataPending.keySet());
                dataPending.clear();
                final List<long[]> timed = new ArrayList<>(delays);
                final List<Long> sorted = timed.stream().map(d -> d[1]).sorted().toList();
                // a random sample of the steady period's sessions against the kernel
                final List<Truth.Connection> steady = new ArrayList<>();
                for (var c : Truth.read(lab.truthFile())) {
                    if (c.id() > beforeSteady) {
                        steady.add(c);
                    }
                }
                Collections.shuffle(steady, new java.util.Random(seed));
                final var sample = steady.subList(0, Math.min(checkSample, steady.size()));
                final var check = PathCheck.checkUntil(fabric, sample, rc, Set.of(), 30, true, dataSample);
                out.printf("bench lab: %d live sessions: ramp at %.0f/s (asked %.0f/s); steady %.0f s at %.0f new "
                    + "sessions/s (asked %.0f/s); RTU -> complete path in RESTCONF: p50 %s, p99 %s, max %s "
                    + "(%d sampled, %d never complete within 15 s); %s%n", level, rampRate, rate, steadySeconds,
                    steadyRate, rate, ms(sorted, 0.50), ms(sorted, 0.99), ms(sorted, 1.0), sorted.size(), missing,
                    check.summary());
                if (!timed.isEmpty()) {
                    // when the slow ones were: a tail from one stall differs from one spread over
                    // the period (the sessions whose RTU fell in each 10 s of it)
                    out.printf("bench lab: %d live sessions: by 10 s of the steady period, p50/max: %s%n", level,
                        windows(timed, t0));
                }
                if (cpu >= 0 && made > 0) {
                    // CPU per session holds on a shared machine where wall-clock figures do not
                    out.printf("bench lab: %d live sessions: the controller used %.1f s of CPU in the steady period: "
                        + "%.0f us per new session (each also closes an old one)%n", level, cpu, cpu * 1e6 / made);
                }
                if (!threads0.isEmpty() && !threads1.isEmpty()) {
                    // a G1 concurrent cycle in the steady period takes up to half a core of the
                    // controller's (its remembered sets' rebuild): a run with one and a run
                    // without differ more than any change measured with them
                    out.printf("bench lab: %d live sessions: the controller's CPU in the steady period by threads: "
                        + "%s%n", level, cpuSplit(threads0, threads1));
                }
                if (made > 0 && !metrics1.isEmpty()) {
                    // where the work goes: agents' events and flow-table writes per new session
                    final double events = sum(metrics1, "rst_agent_last_event_seq") - sum(metrics0,
                        "rst_agent_last_event_seq");
                    final double updates = sum(metrics1, "rst_ingest_session_updates_total") - sum(metrics0,
                        "rst_ingest_session_updates_total");
                    out.printf("bench lab: %d live sessions: per new session %.1f agent events, %.1f flow-table "
                        + "writes applied; ingest lag at the end (max over switches) %.2f s (both from /metrics, "
                        + "which lag with the controller)%n", level, events / made, updates / made,
                        max(metrics1, "rst_ingest_lag_seconds"));
                    // what the controller holds is more than the live sessions: the agents keep a
                    // finished session (and so the flow tables and the paths) for an hour, so the
                    // warm-up's and the ramp's sessions are all still there
                    final double held = metrics1.getOrDefault("rst_fabric_sessions", Double.NaN);
                    final double open = sumWhere(metrics1, "rst_sessions", "state=\"ESTABLISHED\"");
                    out.printf("bench lab: %d live sessions: the flow tables held %.0f sessions at the end of the "
                        + "steady period, each counted once, finished ones included (/metrics; its switches' "
                        + "entries in state ESTABLISHED: %.0f)%n", level, held, open);
                }
                if (behind >= 0) {
                    // straight from the agents and the flow tables' agent-status, not from /metrics
                    out.printf("bench lab: %d live sessions: at the end of the steady period the flow tables were "
                        + "%d events behind the agents (max over switches)%n", level, behind);
                }
                final var drops = captureDrops(lab);
                if (drops != null) {
                    // a switch whose capture lost a REP sees a live session time out: say whether any did
                    out.printf("bench lab: %d live sessions: the agents' capture drops since they started "
                        + "(kernel/queue): %s%n", level, drops);
                }
                check.mismatches().stream().limit(10).forEach(m -> out.println("  " + m));
                ok &= check.ok() && missing == 0;
                if (ncclShare > 0) {
                    ok &= reportData(lab, rc, fabric, level, dataSample, dataStarted, dataDelays, dataDelayById,
                        dataMissing, sorted, checkSample, seed, out);
                }
            }
            poller.interrupt();
            dataPoller.interrupt();
            pollers.shutdownNow();
        }
        return ok ? 0 : 1;
    }

    /** Each agent's capture drops (see {@link #dropsLine}); null if an agent does not answer. */
    @SuppressWarnings("checkstyle:IllegalCatch") // an agent that does not answer in any way leaves the line out
    private static @Nullable String captureDrops(final Lab lab) {
        final Map<String, JsonNode> statuses = new HashMap<>(); // dropsLine sorts them
        for (var sw : lab.fabric().switches()) {
            try {
                statuses.put(sw.id(), lab.agentStatus(sw.id()));
            } catch (RuntimeException e) {
                // LabException too: an agent that does not answer
                return null;
            }
        }
        return dropsLine(statuses);
    }

    /**
     * The frames each switch's capture lost, from its agent's {@code GET /v1/status}: "leaf1 0/0,
     * spine1 12/0" (libpcap's kernel drops / the agent's full queue, since the agent started), by
     * switch name; "?" for a count an agent did not give.
     */
    static String dropsLine(final Map<String, JsonNode> statusBySwitch) {
        final var line = new StringBuilder();
        new TreeMap<>(statusBySwitch).forEach((sw, status) -> {
            final var counters = status.path("counters");
            if (!line.isEmpty()) {
                line.append(", ");
            }
            line.append(sw).append(' ').append(count(counters.path("kernel_drops"))).append('/')
                .append(count(counters.path("queue_drops")));
        });
        return line.toString();
    }

    private static String count(final JsonNode value) {
        return value.canConvertToLong() && value.asLong() >= 0 ? Long.toString(value.asLong()) : "?";
    }

    /**
     * How many events the controller had yet to apply, at most over the switches: each agent's last
     * event against the last one its switch's agent-status says was applied; -1 if either is not
     * known for a switch.
     */
    @SuppressWarnings("checkstyle:IllegalCatch") // an agent or RESTCONF that does not answer in any way: not known
    private static long eventsBehind(final Lab lab, final Restconf rc) {
        long worst = 0;
        for (var sw : lab.fabric().switches()) {
            try {
                final long sent = lab.agentStatus(sw.id()).path("last_seq").asLong(-1);
                final long applied = appliedSeq(rc, sw.id());
                if (sent < 0 || applied < 0) {
                    return -1;
                }
                worst = Math.max(worst, sent - applied);
            } catch (RuntimeException e) {
                // LabException too: an agent or RESTCONF that does not answer
                return -1;
            }
        }
        return worst;
    }

    /**
     * Waits (at most {@link #SETTLE_NANOS}) until the controller says, in each switch's
     * agent-status, that it applied the events its agent had when the wait began; says how long
     * that took, or that it did not happen.
     */
    private static String settle(final Lab lab, final Restconf rc) throws InterruptedException {
        final long t0 = System.nanoTime();
        final Map<String, Long> target = new HashMap<>();
        for (var sw : lab.fabric().switches()) {
            target.put(sw.id(), lastSeq(lab, sw.id()));
        }
        while (System.nanoTime() - t0 < SETTLE_NANOS) {
            boolean all = true;
            for (var e : target.entrySet()) {
                long applied = -1;
                try {
                    applied = appliedSeq(rc, e.getKey());
                } catch (LabException ex) {
                    // not there yet
                }
                all &= applied >= e.getValue();
            }
            if (all) {
                return String.format("%.1f s later", (System.nanoTime() - t0) / 1e9);
            }
            Thread.sleep(500);
        }
        return "NOT within " + SETTLE_NANOS / 1_000_000_000L + " s";
    }

    /**
     * An agent's last event, asked up to five times 2 s apart: on two cores shared with a
     * controller that compiles its ingest, an agent's TLS handshake can miss the client's 2 s
     * connect limit once (on a fresh machine's first bench), which must not end the bench.
     */
    private static long lastSeq(final Lab lab, final String switchId) throws InterruptedException {
        for (int attempt = 1;; attempt++) {
            try {
                return lab.agentStatus(switchId).path("last_seq").asLong();
            } catch (LabException e) {
                if (attempt == 5) {
                    throw e;
                }
                Thread.sleep(2000);
            }
        }
    }

    /** The last event of a switch's agent the controller applied (its agent-status), -1 if not said. */
    private static long appliedSeq(final Restconf rc, final String switchId) {
        return rc.get("data/rdma-flow-table:rft/switch=" + Restconf.key(switchId) + "/agent-status?content=nonconfig")
            .path("rdma-flow-table:agent-status").path("last-event-seq").asLong(-1);
    }

    /**
     * The controller's CPU time so far (user and system), from /proc, when ./rst bench lab says its
     * process id in RST_BENCH_CONTROLLER_PID; negative when not known.
     */
    @SuppressWarnings("checkstyle:IllegalCatch") // a stat file that cannot be read or parsed: not known
    private static double controllerCpuSeconds() {
        final String pid = System.getenv("RST_BENCH_CONTROLLER_PID");
        if (pid == null || pid.isBlank()) {
            return -1;
        }
        try {
            return cpuSeconds(java.nio.file.Path.of("/proc", pid.strip(), "stat"));
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** User and system CPU seconds from a process's or thread's /proc stat file. */
    private static double cpuSeconds(final java.nio.file.Path statFile) throws IOException {
        final String stat = java.nio.file.Files.readString(statFile);
        // fields after the command name (which may hold spaces) in parentheses
        final String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        // utime and stime are fields 14 and 15 of stat; here 12 and 13, counted from 0 after ")"
        return (Long.parseLong(f[11]) + Long.parseLong(f[12])) / 100.0;
    }

    static final String GC_CONCURRENT = "GC concurrent";
    static final String GC_PAUSES = "GC pauses";
    static final String JIT = "JIT";
    static final String DATASTORE = "datastore";
    static final String RFT = "RFT (agent streams, followers)";
    static final String RPT = "RPT";
    static final String INSIGHT = "insight";
    static final String RESTCONF = "RESTCONF (the bench's asks)";
    static final String REST = "the rest";
    /** The groups in the order {@link #cpuSplit} prints them. */
    static final List<String> GROUPS = List.of(GC_CONCURRENT, GC_PAUSES, JIT, DATASTORE, RFT, RPT, INSIGHT, RESTCONF,
        REST);

    /**
     * What a controller thread's CPU goes to, by its name (/proc's comm: at most 15 characters):
     * the garbage collector's concurrent threads (G1's marking, its remembered-set refinement and
     * service thread; ZGC's), its stop-the-world workers, the JIT compilers, the datastore's
     * dispatchers (its shards' actors: serialising, applying and publishing commits), RST's RFT
     * manager (the agents' HTTP streams and TLS, and the followers' virtual threads, which run on
     * the ForkJoinPool's carriers), the RPT, insight, Jetty (RESTCONF; in the bench, its own
     * asks for paths), and the rest.
     */
    static String threadGroup(final String comm) {
        if (comm.startsWith("G1 Conc") || comm.startsWith("G1 Refine") || comm.startsWith("G1 Service")
                || comm.startsWith("ZWorker") || comm.startsWith("ZDriver") || comm.startsWith("ZDirector")) {
            return GC_CONCURRENT;
        }
        if (comm.startsWith("GC Thread")) {
            return GC_PAUSES;
        }
        if (comm.startsWith("C1 CompilerThre") || comm.startsWith("C2 CompilerThre")) {
            return JIT;
        }
        if (comm.startsWith("opendaylight-cl")) {
            return DATASTORE;
        }
        if (comm.startsWith("rst-rft") || comm.startsWith("rst-follow") || comm.startsWith("ForkJoinPool-")) {
            return RFT;
        }
        if (comm.startsWith("rst-rpt")) {
            return RPT;
        }
        if (comm.startsWith("rst-insight")) {
            return INSIGHT;
        }
        if (comm.startsWith("qtp")) {
            return RESTCONF;
        }
        return REST;
    }

    /**
     * The controller's CPU seconds so far by {@link #threadGroup}, from /proc; empty when its
     * process is not known (RST_BENCH_CONTROLLER_PID).
     */
    @SuppressWarnings("checkstyle:IllegalCatch") // a thread's stat file that cannot be read or parsed: it ended
    private static Map<String, ThreadCpu> threadCpuSeconds() {
        final String pid = System.getenv("RST_BENCH_CONTROLLER_PID");
        final Map<String, ThreadCpu> by = new TreeMap<>();
        if (pid == null || pid.isBlank()) {
            return by;
        }
        try (var tasks = java.nio.file.Files.list(java.nio.file.Path.of("/proc", pid.strip(), "task"))) {
            for (var task : (Iterable<java.nio.file.Path>) tasks::iterator) {
                try {
                    final String group = threadGroup(java.nio.file.Files.readString(task.resolve("comm")).strip());
                    by.put(task.getFileName().toString(), new ThreadCpu(group, cpuSeconds(task.resolve("stat"))));
                } catch (IOException | RuntimeException e) {
                    // the thread ended meanwhile
                }
            }
        } catch (IOException e) {
            by.clear();
        }
        return by;
    }

    /** Each group's CPU seconds between two {@link #threadCpuSeconds} readings, as {@link #cpuSplit} says. */
    static Map<String, Double> cpuByGroup(final Map<String, ThreadCpu> before, final Map<String, ThreadCpu> after) {
        final Map<String, Double> by = new java.util.HashMap<>();
        after.forEach((tid, now) -> {
            final var was = before.get(tid);
            by.merge(now.group(), Math.max(0, now.seconds() - (was == null ? 0 : was.seconds())), Double::sum);
        });
        return by;
    }

    /** A controller thread's group ({@link #threadGroup}) and CPU seconds so far. */
    record ThreadCpu(String group, double seconds) {
    }

    /**
     * "GC concurrent 1.0 s, ..." : what each group took between two {@link #threadCpuSeconds}
     * readings, thread by thread (by its ID): a thread born in between counts whole, one that
     * ended in between is left out (a pool's threads come and go: summed by group, an ended
     * thread's earlier time would be taken off the others').
     */
    static String cpuSplit(final Map<String, ThreadCpu> before, final Map<String, ThreadCpu> after) {
        final var by = cpuByGroup(before, after);
        final var sb = new StringBuilder();
        for (var group : GROUPS) {
            sb.append(sb.isEmpty() ? "" : ", ").append(group).append(String.format(" %.1f s",
                by.getOrDefault(group, 0.0)));
        }
        return sb.toString();
    }

    private static double sum(final Map<String, Double> metrics, final String name) {
        return metrics.entrySet().stream().filter(e -> e.getKey().startsWith(name + "{"))
            .mapToDouble(Map.Entry::getValue).sum();
    }

    /** The sum of a metric's samples whose labels contain {@code label}. */
    private static double sumWhere(final Map<String, Double> metrics, final String name, final String label) {
        return metrics.entrySet().stream().filter(e -> e.getKey().startsWith(name + "{")
            && e.getKey().contains(label)).mapToDouble(Map.Entry::getValue).sum();
    }

    private static double max(final Map<String, Double> metrics, final String name) {
        return metrics.entrySet().stream().filter(e -> e.getKey().startsWith(name + "{"))
            .mapToDouble(Map.Entry::getValue).max().orElse(Double.NaN);
    }

    private static String ms(final List<Long> sorted, final double fraction) {
        if (sorted.isEmpty()) {
            return "-";
        }
        final int i = Math.min(sorted.size() - 1, (int) Math.ceil(fraction * sorted.size()) - 1);
        return String.format("%.0f ms", sorted.get(Math.max(0, i)) / 1e6);
    }

    /** p50/max of the delays of the sessions whose RTU fell in each 10 s after {@code start}. */
    static String windows(final List<long[]> timed, final long start) {
        final Map<Long, List<Long>> by = new TreeMap<>();
        for (var d : timed) {
            by.computeIfAbsent(Math.max(0, d[0] - start) / 10_000_000_000L, k -> new ArrayList<>()).add(d[1]);
        }
        final var sb = new StringBuilder();
        for (var e : by.entrySet()) {
            final var list = e.getValue();
            Collections.sort(list);
            sb.append(sb.isEmpty() ? "" : ", ").append(e.getKey() * 10).append("s ").append(ms(list, 0.5))
                .append('/').append(ms(list, 1.0));
        }
        return sb.toString();
    }

    /** A CM session's path, only the two leaves that say whether it is complete. */
    private static final String CM_PATH_ASK = "forward(complete);reverse(complete)";
    /** A data-learned session's path: only its data paths' completeness. */
    private static final String DATA_PATH_ASK = "data-forward(complete);data-reverse(complete)";

    private static boolean cmComplete(final JsonNode path) {
        return path.path("forward").path("complete").asBoolean() && path.path("reverse").path("complete").asBoolean();
    }

    /**
     * Both data paths complete. Where it was learnt from is not asked of the timing: the id is a
     * data-learned session's, and the check that follows says whether the path says so.
     */
    static boolean dataComplete(final JsonNode path) {
        return path.path("data-forward").path("complete").asBoolean()
            && path.path("data-reverse").path("complete").asBoolean();
    }

    /**
     * The data-learned sessions' lines of a level: first packet -> complete data paths in
     * RESTCONF (p50, p99, max), the sampling's share (first packet -> the second response an agent
     * keeps with its request, on which it pairs, from the truth), p99 over the CM sessions' p99 against
     * {@link #DATA_P99_RATIO_FLOOR}, and a sample checked against the kernel. Whether all held.
     */
    @SuppressWarnings("checkstyle:ParameterNumber")
    private static boolean reportData(final Lab lab, final Restconf rc, final Fabric fabric, final int level,
            final int dataSample, final Map<String, Long> started, final List<long[]> dataDelays,
            final Map<String, Long> delayById, final Set<String> missing, final List<Long> cmSorted,
            final int checkSample, final long seed,
            final PrintStream out) throws IOException {
        final List<Long> sorted = new ArrayList<>(dataDelays).stream().map(d -> d[1]).sorted().toList();
        final List<Truth.NcclQp> mine = new ArrayList<>();
        for (var q : Truth.readNccl(lab.truthFile())) {
            if (started.containsKey(q.sessionId())) {
                mine.add(q);
            }
        }
        final List<Long> toPairable = mine.stream().filter(q -> q.pairableMs() >= 0)
            .map(q -> (q.pairableMs() - q.firstPacketMs()) * 1_000_000L).sorted().toList();
        final long unpairable = mine.stream().filter(q -> q.pairableMs() < 0).count();
        // RST's own share: from the moment a switch could pair the QPs to the complete paths
        final List<Long> afterPairable = mine.stream().filter(q -> q.pairableMs() >= 0
                && delayById.containsKey(q.sessionId()))
            .map(q -> Math.max(0, delayById.get(q.sessionId()) - (q.pairableMs() - q.firstPacketMs()) * 1_000_000L))
            .sorted().toList();
        final long missingPairable = mine.stream().filter(q -> q.pairableMs() >= 0 && missing.contains(q.sessionId()))
            .count();
        final double ratio = ratio(sorted, cmSorted);
        final boolean floor = ratio <= DATA_P99_RATIO_FLOOR;
        out.printf("bench lab: %d live sessions: NCCL-style QP pairs (agents sample PSNs that are multiples of %d): "
            + "first packet -> both data paths complete in RESTCONF: p50 %s, p99 %s, max %s (%d QP pairs, %d never "
            + "complete within 15 s, %d of those with a response the agents kept with its request; %d without one); "
            + "first packet -> the second such response, on which agents pair (the sampling's share): p50 %s, "
            + "p99 %s; that response -> both data paths complete (RST's share): p50 %s, p99 %s%n", level, dataSample,
            ms(sorted, 0.50), ms(sorted, 0.99), ms(sorted, 1.0), started.size(), missing.size(), missingPairable,
            unpairable, ms(toPairable, 0.50), ms(toPairable, 0.99), ms(afterPairable, 0.50), ms(afterPairable, 0.99));
        out.printf("bench lab: %d live sessions: p99 data-learned / p99 CM = %s (floor %.1f: %s)%n", level,
            Double.isNaN(ratio) ? "-" : String.format("%.2f", ratio), DATA_P99_RATIO_FLOOR, floor ? "met" : "NOT met");
        final List<Truth.NcclQp> sample = new ArrayList<>(mine);
        Collections.shuffle(sample, new java.util.Random(seed));
        final var check = DataPathCheck.checkUntil(fabric, sample.subList(0, Math.min(checkSample, sample.size())), rc,
            Set.of(), 30, true);
        out.printf("bench lab: %d live sessions: %s%n", level, check.summary());
        check.mismatches().stream().limit(10).forEach(m -> out.println("  " + m));
        return floor && check.ok() && missingPairable == 0 && !sorted.isEmpty();
    }

    /** p99(data) / p99(CM); NaN when either has no delay. */
    static double ratio(final List<Long> dataSorted, final List<Long> cmSorted) {
        if (dataSorted.isEmpty() || cmSorted.isEmpty()) {
            return Double.NaN;
        }
        return (double) quantile(dataSorted, 0.99) / quantile(cmSorted, 0.99);
    }

    private static long quantile(final List<Long> sorted, final double fraction) {
        final int i = Math.min(sorted.size() - 1, (int) Math.ceil(fraction * sorted.size()) - 1);
        return sorted.get(Math.max(0, i));
    }

    /**
     * Asks RESTCONF for each pending session's path until both directions are complete, each from
     * {@link #FIRST_ASK_NANOS} after its RTU, then at most every {@link #POLL_EVERY_NANOS} or a
     * tenth of its wait so far: asking as fast as the controller answers would take the CPU the
     * measured pipeline needs.
     */
    private static void poll(final Restconf rc, final Map<String, Long> pending, final List<long[]> delays,
            final @Nullable Map<String, Long> delayById, final ExecutorService pool, final String fields,
            final java.util.function.Predicate<JsonNode> complete,
            final long maxAsksPerSecond) {
        final Set<String> inFlight = ConcurrentHashMap.newKeySet();
        final Map<String, Long> asked = new ConcurrentHashMap<>();
        while (!Thread.currentThread().isInterrupted()) {
            final long now = System.nanoTime();
            asked.keySet().retainAll(pending.keySet());
            for (var e : pending.entrySet()) {
                final String id = e.getKey();
                final Long last = asked.get(id);
                if (last == null && now - e.getValue() < FIRST_ASK_NANOS) {
                    // too soon after its RTU (see FIRST_ASK_NANOS)
                    continue;
                }
                // each at most every 50 ms, or a tenth of its wait so far once that is longer (a
                // delay is then read at most 50 ms or 10% late), and all together at most
                // MAX_ASKS_PER_SECOND: a backlog of thousands must not turn the measurement into
                // the load (each ask that finds no path yet costs the controller an error answer)
                final long every = Math.max(Math.max(POLL_EVERY_NANOS, (now - e.getValue()) / 10),
                    pending.size() * 1_000_000_000L / maxAsksPerSecond);
                if (last != null && now - last < every || !inFlight.add(id)) {
                    continue;
                }
                asked.put(id, now);
                pool.execute(() -> {
                    try {
                        // only the two leaves it needs: the whole path is ~100 leaves of JSON for
                        // the controller to write, 50 times a second, on the CPU it measures
                        final var p = rc.get("data/rdma-path-table:rpt/path=" + Restconf.key(id)
                            + "?content=nonconfig&fields=" + fields).path("rdma-path-table:path").path(0);
                        if (complete.test(p)) {
                            final Long sent = pending.remove(id);
                            if (sent != null) {
                                final long delay = System.nanoTime() - sent;
                                delays.add(new long[] {sent, delay});
                                if (delayById != null) {
                                    delayById.put(id, delay);
                                }
                            }
                        }
                    } catch (LabException ex) {
                        // try again
                    } finally {
                        inFlight.remove(id);
                    }
                });
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException ex) {
                return;
            }
        }
    }
}
