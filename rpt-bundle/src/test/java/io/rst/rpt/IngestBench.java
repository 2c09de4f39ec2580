/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rpt;

import io.rst.rft.agent.Agent;
import io.rst.rft.agent.AgentCommand;
import io.rst.rft.agent.AgentOptions;
import io.rst.rft.decode.CmMessage;
import io.rst.rft.decode.CmMessageType;
import io.rst.rft.decode.DecodeResult;
import io.rst.rft.decode.FrameDecoder;
import io.rst.rft.manager.RftManager;
import io.rst.rft.pcap.CmTrafficGenerator;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.stream.Collectors;
import org.opendaylight.mdsal.binding.api.DataBroker;
import org.opendaylight.mdsal.binding.api.DataObjectModification;
import org.opendaylight.mdsal.binding.api.DataTreeChangeListener;
import org.opendaylight.mdsal.binding.dom.adapter.BindingDOMRpcProviderServiceAdapter;
import org.opendaylight.mdsal.binding.dom.adapter.test.AbstractConcurrentDataBrokerTest;
import org.opendaylight.mdsal.common.api.LogicalDatastoreType;
import org.opendaylight.mdsal.dom.broker.DOMRpcRouter;
import org.opendaylight.mdsal.dom.broker.RouterDOMRpcProviderService;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.Host;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.IpAddress;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.Ipv4Address;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.PortNumber;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.AgentTransport;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.Rft;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.SessionState;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft.Switch;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft.SwitchBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft.SwitchKey;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.Session;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.SessionKey;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.Direction;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.Rpt;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.rpt.Path;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.LinkId;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.NetworkTopology;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.NodeId;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.TopologyId;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.TpId;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.link.attributes.DestinationBuilder;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.link.attributes.SourceBuilder;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.network.topology.Topology;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.network.topology.TopologyBuilder;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.network.topology.TopologyKey;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.network.topology.topology.Link;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.network.topology.topology.LinkBuilder;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.network.topology.topology.LinkKey;
import org.opendaylight.yangtools.binding.DataObjectIdentifier;
import org.opendaylight.yangtools.binding.DataObjectReference;
import org.opendaylight.yangtools.yang.common.Uint16;

/**
 * The controller's ingest benchmark, no lab needed: the real RFT manager worker (probe, one
 * follower per agent, the status writer) and the real RPT worker on one in-memory MD-SAL broker,
 * fed by real agents in this JVM that replay generated live sessions (REQ REP RTU, each staying
 * ESTABLISHED) from a FIFO the benchmark paces. Each pod is three switches (leaf1, spine, leaf2)
 * that all see every session of the pod, as a leaf-spine fabric's switches do, with the links
 * between them in the topology.
 *
 * <p>Measured: per sampled session, the delay from its RTU written into the agents' capture to
 * its path written in {@code rpt} with all three switches' observations and state ESTABLISHED;
 * the sustained rate (sessions and session updates per second); the same session writes done raw
 * (same list shape, batch size, transaction chain) in the same process, as the reference the rate
 * is a fraction of; the time a link change takes to settle in {@code rpt}, and how many paths it
 * rewrote; and the heap per session (flow table in three switches, path) after a full GC.
 *
 * <p>{@code ./rst bench ingest --help} (scripts/bench-ingest.sh) runs it.
 */
public final class IngestBench {
    static final String USAGE = """
        usage: ./rst bench ingest [--pods P] [--sessions N] [--rate R] [--retain-events N] [--no-raw]
                                  [--no-link] [--no-heap] [--quiet]
          --pods P           pods of three switches, an agent each (default 2)
          --sessions N       live sessions in all (default 20000); each seen by its pod's 3 switches
          --rate R           new sessions per second in all (default 1000; 0: as fast as it goes)
          --retain-events N  each agent's retained events (default the agent's, 65536; and N/1000 MiB)
          --no-raw           skip the reference (raw writes of the same shape)
          --no-link          skip the link change
          --no-heap          skip the heap measurement""";

    /** What to run. */
    record Options(int pods, int sessions, double rate, int retainEvents, boolean raw, boolean link, boolean heap,
            boolean quiet) {
        Options {
            if (pods < 1 || sessions < pods || rate < 0) {
                throw new IllegalArgumentException("pods >= 1, sessions >= pods and rate >= 0 please");
            }
        }

        static Options parse(final List<String> args) {
            int pods = 2;
            int sessions = 20_000;
            double rate = 1000;
            int retain = 0;
            boolean raw = true;
            boolean link = true;
            boolean heap = true;
            boolean quiet = false;
            for (int i = 0; i < args.size(); i++) {
                switch (args.get(i)) {
                    case "--pods" -> pods = Integer.parseInt(args.get(++i));
                    case "--sessions" -> sessions = Integer.parseInt(args.get(++i));
                    case "--rate" -> rate = Double.parseDouble(args.get(++i));
                    case "--retain-events" -> retain = Integer.parseInt(args.get(++i));
                    case "--no-raw" -> raw = false;
                    case "--no-link" -> link = false;
                    case "--no-heap" -> heap = false;
                    case "--quiet" -> quiet = true;
                    default -> throw new IllegalArgumentException("unknown argument " + args.get(i));
                }
            }
            return new Options(pods, sessions, rate, retain, raw, link, heap, quiet);
        }
    }

    /**
     * What was measured.
     *
     * @param sessions sessions sent
     * @param done sessions whose path came complete
     * @param sessionsPerSecond sustained: done over the time from the first RTU to the last path
     * @param updatesPerSecond session updates the agents streamed over the same time
     * @param p50Millis delay RTU to path, median
     * @param p99Millis delay RTU to path, 99th percentile
     * @param maxMillis the longest delay
     * @param rawUpdatesPerSecond the reference, or 0 if not run
     * @param linkChangeMillis time a link change took to settle in rpt, or -1 if not run
     * @param linkChangePaths paths the link change rewrote
     * @param heapBytesPerSession heap per session after a full GC, or -1 if not run
     */
    record Result(long sessions, long done, double sessionsPerSecond, double updatesPerSecond, double p50Millis,
            double p99Millis, double maxMillis, double rawUpdatesPerSecond, long linkChangeMillis,
            long linkChangePaths, long heapBytesPerSession) {
    }

    private static final String TOKEN = "bench-token-0123456789abcdef";
    private static final String[] ROLES = {"leaf1", "spine", "leaf2"};

    private IngestBench() {
        // main
    }

    @SuppressWarnings("checkstyle:RegexpSinglelineJava") // the command line's entry point: it owns the console
    public static void main(final String[] args) throws Exception {
        if (List.of(args).contains("--help") || List.of(args).contains("-h")) {
            System.out.println(USAGE);
            return;
        }
        final Options options;
        try {
            options = Options.parse(List.of(args));
        } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
            System.err.println("bench ingest: " + e.getMessage() + "\n" + USAGE);
            System.exit(2);
            return;
        }
        final var result = run(options, System.out);
        System.exit(result.done() == result.sessions() ? 0 : 1);
    }

    /** The broker of the MD-SAL tests, with an RPC router for the RPT's RPCs. */
    static final class Broker extends AbstractConcurrentDataBrokerTest {
        Broker() {
            super(true);
        }

        BindingDOMRpcProviderServiceAdapter rpcs() throws Exception {
            final var customizer = getDataBrokerTestCustomizer();
            final var router = new DOMRpcRouter(customizer.getSchemaService());
            customizer.updateSchema(getRuntimeContext());
            return new BindingDOMRpcProviderServiceAdapter(customizer.getAdapterContext(),
                new RouterDOMRpcProviderService(router));
        }
    }

    /** One pod's traffic: pcap records (16-byte header and frame), and the session each RTU sets up. */
    private record Traffic(byte[] header, List<byte[]> records, String[] rtuSession, ByteOrder order) {
    }

    static Result run(final Options options, final PrintStream out) throws Exception {
        final var dir = Files.createTempDirectory("rst-bench-ingest");
        final var token = dir.resolve("token");
        Files.writeString(token, TOKEN + "\n");
        Files.setPosixFilePermissions(token, PosixFilePermissions.fromString("rw-------"));
        final var broker = new Broker();
        broker.setup();
        final DataBroker db = broker.getDataBroker();
        final var rptExecutor = Executors.newSingleThreadExecutor(Thread.ofPlatform().name("rst-rpt").daemon()
            .factory());
        final var rpt = new RptWorker(db, broker.getDomBroker(), broker.rpcs(), rptExecutor);
        final var rft = RftManager.standalone(broker.getDataBroker(), broker.getDomBroker(),
                broker.getDataBrokerTestCustomizer().getAdapterContext().currentSerializer(), TOKEN);

        final Map<String, Long> sentAt = new ConcurrentHashMap<>();
        final Map<String, Long> doneAt = new ConcurrentHashMap<>();
        final List<long[]> delays = Collections.synchronizedList(new ArrayList<>());
        final AtomicLong pathWrites = new AtomicLong();
        final AtomicLong lastPathWrite = new AtomicLong();
        // the bench's own listener runs on the datastore's notification thread: its CPU is the
        // bench's, not the controller's, and is taken out of the controller's figure
        final AtomicLong benchOwnCpu = new AtomicLong();
        final var threadBean = ManagementFactory.getThreadMXBean();
        final var pathListener = db.registerTreeChangeListener(LogicalDatastoreType.OPERATIONAL,
            DataObjectReference.builder(Rpt.class).child(Path.class).build(),
            (DataTreeChangeListener<Path>) changes -> {
                final long now = System.nanoTime();
                final long cpuAtStart = threadBean.getCurrentThreadCpuTime();
                pathWrites.addAndGet(changes.size());
                lastPathWrite.set(now);
                for (var change : changes) {
                    if (change.getRootNode() instanceof DataObjectModification.WithDataAfter<Path> written
                            && complete(written.dataAfter())) {
                        final String id = written.dataAfter().getSessionId();
                        if (doneAt.putIfAbsent(id, now) == null) {
                            final Long sent = sentAt.get(id);
                            if (sent != null) {
                                delays.add(new long[] {now, now - sent});
                            }
                        }
                    }
                }
                benchOwnCpu.addAndGet(threadBean.getCurrentThreadCpuTime() - cpuAtStart);
            });

        // the controller's own heap: before any agent, traffic or session
        System.gc();
        final long baseline = usedHeap();
        writeTopology(db, options.pods());
        // the agents, each replaying its FIFO, and the switches configured for them
        final List<Agent> agents = new ArrayList<>();
        final List<Traffic> traffic = new ArrayList<>();
        final List<List<java.nio.file.Path>> fifos = new ArrayList<>();
        final int perPod = options.sessions() / options.pods();
        for (int pod = 0; pod < options.pods(); pod++) {
            final var pcap = dir.resolve("pod" + pod + ".pcap");
            new CmTrafficGenerator(new CmTrafficGenerator.Options(perPod, 1 + pod, false, 4, 0, false,
                FrameDecoder.ROCEV2_PORT, System.currentTimeMillis() * 1_000_000L)).stopAfter(3).write(pcap);
            traffic.add(read(pcap));
            Files.delete(pcap);
            final List<java.nio.file.Path> podFifos = new ArrayList<>();
            for (var role : ROLES) {
                final String name = "p" + pod + "-" + role;
                final var fifo = dir.resolve(name + ".fifo");
                final var mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
                if (mkfifo.waitFor() != 0) {
                    throw new IOException("mkfifo " + fifo + " failed");
                }
                podFifos.add(fifo);
                final List<String> args = new ArrayList<>(List.of("--listen", "127.0.0.1:0", "--token-file",
                    token.toString(), "--state-dir", dir.resolve(name).toString(), "--replay",
                    name + "-in=" + fifo, "--agent-id", name, "--plain-http", "--max-sessions",
                    Integer.toString(Math.max(250_000, 2 * perPod))));
                if (options.retainEvents() > 0) {
                    // and the bytes to hold them (about 600 bytes of JSON an event)
                    args.addAll(List.of("--retain-events", Integer.toString(options.retainEvents()), "--retain-mb",
                        Integer.toString(Math.max(16, options.retainEvents() / 1000))));
                }
                final AgentOptions agentOptions = AgentOptions.parse(args);
                final Agent agent = new Agent(agentOptions, events -> AgentCommand.cmProcessor(agentOptions, events));
                agent.start();
                agents.add(agent);
                configure(db, name, agent.address().getPort());
            }
            fifos.add(podFifos);
        }
        awaitFollowing(db, agents.size());

        // the traffic: each pod's frames into its three agents, paced
        final long cpu0 = processCpuNanos();
        final long t0 = System.nanoTime();
        final List<Thread> pacers = new ArrayList<>();
        final AtomicLongArray sentCount = new AtomicLongArray(options.pods());
        for (int pod = 0; pod < options.pods(); pod++) {
            final int p = pod;
            pacers.add(Thread.ofPlatform().name("bench-pacer-" + pod).start(() -> {
                try {
                    pace(traffic.get(p), fifos.get(p), options.rate() / options.pods(), t0, sentAt, sentCount, p);
                } finally {
                    // a finished thread's CPU can no longer be asked for
                    benchOwnCpu.addAndGet(threadBean.getCurrentThreadCpuTime());
                }
            }));
        }
        final long total = (long) perPod * options.pods();
        long lastDone = 0;
        long lastProgress = System.nanoTime();
        int second = 0;
        int delaysSeen = 0;
        // the first fifth warms the JIT up: rates, CPU and delays count from its end
        final long warm = total / 5;
        long warmAt = 0;
        long warmCpu = 0;
        long warmAgentCpu = 0;
        long warmBenchCpu = 0;
        long warmDone = 0;
        while (doneAt.size() < total && System.nanoTime() - lastProgress < TimeUnit.SECONDS.toNanos(30)) {
            Thread.sleep(1000);
            second++;
            final int done = doneAt.size();
            if (warmAt == 0 && done >= warm) {
                warmAt = System.nanoTime();
                warmCpu = processCpuNanos();
                warmAgentCpu = threadCpuNanos(IngestBench::isAgentThread);
                warmBenchCpu = threadCpuNanos(name -> name.startsWith("bench-")) + benchOwnCpu.get();
                warmDone = done;
            }
            if (done != lastDone) {
                lastDone = done;
                lastProgress = System.nanoTime();
            }
            final List<Long> window = new ArrayList<>();
            synchronized (delays) {
                for (int i = delaysSeen; i < delays.size(); i++) {
                    window.add(delays.get(i)[1]);
                }
                delaysSeen = delays.size();
            }
            Collections.sort(window);
            long sent = 0;
            for (int i = 0; i < options.pods(); i++) {
                sent += sentCount.get(i);
            }
            if (!options.quiet()) {
                out.printf("bench ingest: %3d s: %d sessions sent, %d paths complete; this second RTU -> path "
                    + "p50 %s, p99 %s (%d)%n", second, sent, done, ms(window, 0.5), ms(window, 0.99), window.size());
            }
        }
        for (var pacer : pacers) {
            pacer.join(1000);
        }
        final long done = doneAt.size();
        final long lastAt = doneAt.values().stream().mapToLong(Long::longValue).max().orElse(System.nanoTime());
        if (warmAt == 0) {
            warmAt = t0;
            warmCpu = cpu0;
        }
        final long from = warmAt;
        final double seconds = Math.max(1e-9, (lastAt - from) / 1e9);
        final long measuredDone = done - warmDone;
        // the agents run ahead of a lagging controller: the window's updates are those of the
        // sessions completed in it, at the run's updates per session
        final long allUpdates = agentEvents(agents);
        final long updates = Math.round((double) allUpdates / Math.max(1, done) * measuredDone);
        final long cpu = processCpuNanos() - warmCpu;
        final long agentCpu = threadCpuNanos(IngestBench::isAgentThread) - warmAgentCpu;
        // the bench's pacers (writing the captures into the agents' FIFOs) and its path listener
        final long benchCpu = threadCpuNanos(name -> name.startsWith("bench-")) + benchOwnCpu.get() - warmBenchCpu;
        final long javaCpu = threadCpuNanos(name -> !isAgentThread(name) && !name.startsWith("bench-")
            && !name.equals("main"));
        // the machine is shared: CPU time per update says what wall time under others' load cannot
        final double controllerMicros = (cpu - agentCpu - benchCpu) / 1e3 / Math.max(1, updates);
        final List<Long> all;
        synchronized (delays) {
            all = delays.stream().filter(d -> d[0] >= from).map(d -> d[1]).sorted().collect(Collectors.toList());
        }
        out.printf("bench ingest: %d pods x 3 switches, %d sessions asked at %s/s: %d paths complete; after the "
            + "first %d (JIT warm-up): %d in %.1f s: %.0f sessions/s, %.0f session updates/s into rft (%d updates); "
            + "RTU -> path p50 %s, p99 %s, max %s (%d)%n",
            options.pods(), total, options.rate() == 0 ? "max" : String.format("%.0f", options.rate()), done, warmDone,
            measuredDone, seconds, measuredDone / seconds, updates / seconds, updates, ms(all, 0.5), ms(all, 0.99),
            ms(all, 1.0), all.size());
        final int cores = Runtime.getRuntime().availableProcessors();
        out.printf("bench ingest: %d path writes, %.1f per session%n", pathWrites.get(),
            (double) pathWrites.get() / Math.max(1, done));
        out.printf("bench ingest: CPU: %.1f s in all (JIT and GC too), agents %.1f s, the bench's pacers and path "
            + "listener %.1f s, the controller's threads %.1f s; "
            + "the controller (with JIT and GC) %.1f us per session update, so %.0f session updates/s (%.0f "
            + "sessions/s) would fill this machine's %d cores%n", cpu / 1e9, agentCpu / 1e9, benchCpu / 1e9,
            javaCpu / 1e9,
            controllerMicros, cores * 1e6 / controllerMicros,
            cores * 1e6 / controllerMicros / Math.max(1.0, (double) updates / Math.max(1, measuredDone)), cores);

        long linkMillis = -1;
        long linkPaths = 0;
        if (options.link()) {
            final long before = pathWrites.get();
            final long start = System.nanoTime();
            final var tx = db.newWriteOnlyTransaction();
            tx.delete(LogicalDatastoreType.CONFIGURATION, topology().toBuilder().child(Link.class,
                link("p0-spine", "p0-spine-down", "p0-leaf2", "p0-leaf2-in").key()).build());
            tx.commit().get(10, TimeUnit.SECONDS);
            // settled: the first rewritten path seen (or 30 s without one), then the RPT's queue
            // drained and no path written for a second
            final long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (pathWrites.get() == before && System.nanoTime() < giveUp) {
                Thread.sleep(10);
            }
            long quietSince = System.nanoTime();
            long seen = pathWrites.get();
            while (System.nanoTime() - quietSince < TimeUnit.SECONDS.toNanos(1)) {
                rptExecutor.submit(() -> { }).get(60, TimeUnit.SECONDS);
                Thread.sleep(50);
                if (pathWrites.get() != seen) {
                    seen = pathWrites.get();
                    quietSince = System.nanoTime();
                }
            }
            linkPaths = pathWrites.get() - before;
            linkMillis = linkPaths == 0 ? 0 : (lastPathWrite.get() - start) / 1_000_000L;
            out.printf("bench ingest: a link change (p0-spine -> p0-leaf2 removed; %d sessions cross it, %d in the "
                + "fabric): %d paths rewritten in %d ms%n", perPod, total, linkPaths, linkMillis);
        }
        for (var agent : agents) {
            agent.close();
        }
        // what stays is the controller's: not the agents, the traffic or the benchmark's own books
        agents.clear();
        traffic.clear();
        sentAt.clear();
        doneAt.clear();
        delays.clear();
        long perSession = -1;
        if (options.heap()) {
            System.gc();
            System.gc();
            perSession = (usedHeap() - baseline) / Math.max(1, done);
            out.printf("bench ingest: heap after a full GC: %d bytes per session (3 flow-table entries and a path; "
                + "agents closed)%n", perSession);
            if (System.getenv("RST_BENCH_HISTOGRAM") != null) {
                // where the heap goes, by class (the top 40), for whoever is cutting it down
                final var histogram = (String) ManagementFactory.getPlatformMBeanServer().invoke(
                    new javax.management.ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
                    new Object[] {new String[0]}, new String[] {String[].class.getName()});
                histogram.lines().limit(43).forEach(out::println);
            }
        }
        pathListener.close();
        rft.close();
        // the RPT does not follow the reference's writes: they measure the datastore alone
        rpt.close();
        double raw = 0;
        if (options.raw()) {
            final double rawMicros = rawWrites(db, options.pods(), out);
            raw = cores * 1e6 / rawMicros;
            out.printf("bench ingest: ratio to raw writes of the same shape, CPU per session update: %.2f "
                + "(raw %.1f us, ours %.1f us with the paths)%n", rawMicros / controllerMicros, rawMicros,
                controllerMicros);
        }
        deleteTree(dir);
        return new Result(total, done, measuredDone / seconds, updates / seconds, millis(all, 0.5), millis(all, 0.99),
            millis(all, 1.0), raw, linkMillis, linkPaths, perSession);
    }

    /** Complete: all three switches observed it both ways, and it is established. */
    private static boolean complete(final Path path) {
        return path.getState() == SessionState.ESTABLISHED && observed(path.getForward()) == 3
            && observed(path.getReverse()) == 3;
    }

    private static int observed(final Direction direction) {
        if (direction == null || direction.getHop() == null) {
            return 0;
        }
        int observed = 0;
        for (var hop : direction.getHop()) {
            if (Boolean.TRUE.equals(hop.getObserved())) {
                observed++;
            }
        }
        return observed;
    }

    private static void pace(final Traffic traffic, final List<java.nio.file.Path> fifos, final double rate,
            final long t0, final Map<String, Long> sentAt, final AtomicLongArray sentCount, final int pod) {
        final List<OutputStream> outs = new ArrayList<>();
        try {
            for (var fifo : fifos) {
                outs.add(new BufferedOutputStream(Files.newOutputStream(fifo), 1 << 16));
            }
            for (var os : outs) {
                os.write(traffic.header());
            }
            // three frames a session (REQ REP RTU)
            final double nanosPerFrame = rate > 0 ? 1e9 / (rate * 3) : 0;
            final var records = traffic.records();
            final List<String> pending = new ArrayList<>();
            for (int k = 0; k < records.size(); k++) {
                if (nanosPerFrame > 0) {
                    final long due = t0 + (long) (k * nanosPerFrame);
                    if (due - System.nanoTime() > 200_000L) {
                        flush(outs, pending, sentAt, sentCount, pod);
                        final long wait = due - System.nanoTime();
                        if (wait > 0) {
                            TimeUnit.NANOSECONDS.sleep(wait);
                        }
                    }
                }
                final byte[] rec = records.get(k);
                // the frame's capture time is now, to the microsecond, and each switch stamps its
                // own (a microsecond apart, as the frame crosses them): the sessions' times are
                // as many and as distinct as a real fabric's, which the heap per session counts
                final var now = java.time.Instant.now();
                final long micros = now.getEpochSecond() * 1_000_000L + now.getNano() / 1000;
                final var header = ByteBuffer.wrap(rec, 0, 8).order(traffic.order());
                for (int sw = 0; sw < outs.size(); sw++) {
                    header.putInt(0, (int) ((micros + sw) / 1_000_000L));
                    header.putInt(4, (int) ((micros + sw) % 1_000_000L));
                    outs.get(sw).write(rec);
                }
                if (traffic.rtuSession()[k] != null) {
                    pending.add(traffic.rtuSession()[k]);
                }
                if (pending.size() >= 256) {
                    flush(outs, pending, sentAt, sentCount, pod);
                }
            }
            flush(outs, pending, sentAt, sentCount, pod);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            for (var os : outs) {
                try {
                    os.close();
                } catch (IOException e) {
                    // the agent went away
                }
            }
        }
    }

    private static void flush(final List<OutputStream> outs, final List<String> pending,
            final Map<String, Long> sentAt, final AtomicLongArray sentCount, final int pod) throws IOException {
        for (var os : outs) {
            os.flush();
        }
        final long now = System.nanoTime();
        for (var id : pending) {
            sentAt.put(id, now);
        }
        sentCount.addAndGet(pod, pending.size());
        pending.clear();
    }

    /** Reads a generated pcap into records, and names the session of each RTU as the agent does. */
    private static Traffic read(final java.nio.file.Path pcap) throws IOException {
        final byte[] all = Files.readAllBytes(pcap);
        final var buf = ByteBuffer.wrap(all).order(ByteOrder.LITTLE_ENDIAN);
        final ByteOrder order = buf.getInt(0) == 0xa1b2c3d4 ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN;
        buf.order(order);
        final byte[] header = java.util.Arrays.copyOf(all, 24);
        final List<byte[]> records = new ArrayList<>();
        final List<String> rtus = new ArrayList<>();
        final var decoder = new FrameDecoder();
        final var msg = new CmMessage();
        int at = 24;
        while (at + 16 <= all.length) {
            final int len = buf.getInt(at + 8);
            final byte[] rec = java.util.Arrays.copyOfRange(all, at, at + 16 + len);
            records.add(rec);
            String id = null;
            if (decoder.decodeEthernet(rec, 16, len, msg) == DecodeResult.CM_MAD && msg.type() == CmMessageType.RTU) {
                id = msg.srcIpString() + "/0x" + String.format("%08x", msg.localCommId()) + "/" + msg.dstIpString();
            }
            rtus.add(id);
            at += 16 + len;
        }
        return new Traffic(header, records, rtus.toArray(new String[0]), order);
    }

    private static DataObjectIdentifier<Topology> topology() {
        return DataObjectIdentifier.builder(NetworkTopology.class)
            .child(Topology.class, new TopologyKey(new TopologyId("bench"))).build();
    }

    private static void writeTopology(final DataBroker db, final int pods) throws Exception {
        final Map<LinkKey, Link> links = new HashMap<>();
        for (int pod = 0; pod < pods; pod++) {
            final String p = "p" + pod + "-";
            for (var l : List.of(link(p + "leaf1", p + "leaf1-up", p + "spine", p + "spine-in"),
                    link(p + "spine", p + "spine-down", p + "leaf2", p + "leaf2-in"))) {
                links.put(l.key(), l);
            }
        }
        final var tx = db.newWriteOnlyTransaction();
        tx.mergeParentStructurePut(LogicalDatastoreType.CONFIGURATION, topology(),
            new TopologyBuilder().setTopologyId(new TopologyId("bench")).setLink(links).build());
        tx.commit().get(10, TimeUnit.SECONDS);
    }

    private static Link link(final String srcNode, final String srcTp, final String dstNode, final String dstTp) {
        return new LinkBuilder().setLinkId(new LinkId(srcNode + ":" + srcTp))
            .setSource(new SourceBuilder().setSourceNode(new NodeId(srcNode)).setSourceTp(new TpId(srcTp)).build())
            .setDestination(new DestinationBuilder().setDestNode(new NodeId(dstNode)).setDestTp(new TpId(dstTp))
                .build())
            .build();
    }

    private static void configure(final DataBroker db, final String name, final int port) throws Exception {
        final var tx = db.newWriteOnlyTransaction();
        tx.mergeParentStructurePut(LogicalDatastoreType.CONFIGURATION, switchPath(name),
            new SwitchBuilder().setNodeId(new NodeId(name)).setEnabled(true)
                .setAgentAddress(new Host(new IpAddress(new Ipv4Address("127.0.0.1"))))
                .setAgentPort(new PortNumber(Uint16.valueOf(port))).setAgentTransport(AgentTransport.PlainHttp)
                .build());
        tx.commit().get(10, TimeUnit.SECONDS);
    }

    private static DataObjectIdentifier<Switch> switchPath(final String name) {
        return DataObjectIdentifier.builder(Rft.class).child(Switch.class, new SwitchKey(new NodeId(name))).build();
    }

    /** Waits until every switch's agent is probed and followed. */
    private static void awaitFollowing(final DataBroker db, final int switches) throws Exception {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            try (var tx = db.newReadOnlyTransaction()) {
                final var rft = tx.read(LogicalDatastoreType.OPERATIONAL, DataObjectIdentifier.builder(Rft.class)
                    .build()).get(10, TimeUnit.SECONDS);
                if (rft.isPresent() && rft.orElseThrow().nonnullSwitch().values().stream()
                        .filter(s -> s.getAgentStatus() != null && s.getAgentStatus().getState() != null
                            && "CAPTURING".equalsIgnoreCase(s.getAgentStatus().getState().getName()))
                        .count() >= switches) {
                    // the followers start with the probe that found the agent capturing
                    Thread.sleep(500);
                    return;
                }
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("the agents were not followed within 30 s");
    }

    /** Session events the agents logged (each a session update the controller must write). */
    private static long agentEvents(final List<Agent> agents) throws Exception {
        final var client = java.net.http.HttpClient.newHttpClient();
        final var json = new com.fasterxml.jackson.databind.ObjectMapper();
        long sum = 0;
        for (var agent : agents) {
            final var response = client.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(
                "http://127.0.0.1:" + agent.address().getPort() + "/v1/status"))
                .header("Authorization", "Bearer " + TOKEN).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
            sum += json.readTree(response.body()).path("last_seq").asLong();
        }
        return sum;
    }

    /**
     * The reference: the sessions the followers wrote, written again raw under other switches, in
     * the followers' shape (one merge-put per session, 1000 a transaction, one transaction chain,
     * commits not waited for) and count (three updates per session and switch).
     */
    private static double rawWrites(final DataBroker db, final int pods, final PrintStream out) throws Exception {
        final Map<String, List<Session>> bySwitch = new HashMap<>();
        try (var tx = db.newReadOnlyTransaction()) {
            final var rft = tx.read(LogicalDatastoreType.OPERATIONAL, DataObjectIdentifier.builder(Rft.class).build())
                .get(30, TimeUnit.SECONDS).orElseThrow();
            for (var sw : rft.nonnullSwitch().values()) {
                bySwitch.put("raw-" + sw.getNodeId().getValue(), List.copyOf(sw.nonnullSession().values()));
            }
        }
        final var chain = db.createMergingTransactionChain();
        long writes = 0;
        final long cpu0 = processCpuNanos();
        final long t0 = System.nanoTime();
        com.google.common.util.concurrent.FluentFuture<?> last = null;
        for (int pass = 0; pass < 3; pass++) {
            for (var entry : bySwitch.entrySet()) {
                final var sessions = entry.getValue();
                for (int from = 0; from < sessions.size(); from += 1000) {
                    final var tx = chain.newWriteOnlyTransaction();
                    for (var session : sessions.subList(from, Math.min(sessions.size(), from + 1000))) {
                        tx.mergeParentStructurePut(LogicalDatastoreType.OPERATIONAL, DataObjectIdentifier
                            .builder(Rft.class).child(Switch.class, new SwitchKey(new NodeId(entry.getKey())))
                            .child(Session.class, new SessionKey(session.getSessionId())).build(), session);
                        writes++;
                    }
                    last = tx.commit();
                }
            }
        }
        if (last != null) {
            last.get(120, TimeUnit.SECONDS);
        }
        final double rate = writes / ((System.nanoTime() - t0) / 1e9);
        final double micros = (processCpuNanos() - cpu0) / 1e3 / writes;
        chain.close();
        final var tx = db.newWriteOnlyTransaction();
        for (var name : bySwitch.keySet()) {
            tx.delete(LogicalDatastoreType.OPERATIONAL, switchPath(name));
        }
        tx.commit().get(60, TimeUnit.SECONDS);
        out.printf("bench ingest: reference, raw writes of the same shape in this process: %d session updates in "
            + "1000-session transactions: %.0f session updates/s, %.1f us CPU each%n", writes, rate, micros);
        return micros;
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
            .getProcessCpuTime();
    }

    /** The agents' own threads: capture, decode, their API and persister. */
    private static boolean isAgentThread(final String name) {
        return name.startsWith("capture-") || name.equals("decode") || name.startsWith("api-")
            || name.equals("persister") || name.startsWith("JNA");
    }

    private static long threadCpuNanos(final java.util.function.Predicate<String> which) {
        final var threads = ManagementFactory.getThreadMXBean();
        long sum = 0;
        for (var info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info != null && which.test(info.getThreadName())) {
                sum += Math.max(0, threads.getThreadCpuTime(info.getThreadId()));
            }
        }
        return sum;
    }

    private static long usedHeap() {
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static String ms(final List<Long> sorted, final double fraction) {
        return sorted.isEmpty() ? "-" : String.format("%.0f ms", millis(sorted, fraction));
    }

    private static double millis(final List<Long> sorted, final double fraction) {
        if (sorted.isEmpty()) {
            return Double.NaN;
        }
        final int i = Math.min(sorted.size() - 1, Math.max(0, (int) Math.ceil(fraction * sorted.size()) - 1));
        return sorted.get(i) / 1e6;
    }

    private static void deleteTree(final java.nio.file.Path dir) throws IOException {
        try (var walk = Files.walk(dir)) {
            for (var p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
