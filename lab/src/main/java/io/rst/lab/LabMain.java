/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.lab;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code rst lab ...}: the lab fabric in pieces, for scripts, tests and {@code ./rst demo}.
 */
public final class LabMain {
    static final String USAGE = """
        usage: rst lab COMMAND [OPTIONS]
          up [--spines N] [--leaves N] [--hosts-per-leaf N] [--dual-homed HOST]... [--no-register]
             [--plain-http] [--data-sample N] [--containers IMAGE]
                        build the fabric (namespaces rst-NODE, veth links, ECMP routes), start lldpd
                        in every namespace (on its fabric interfaces, system name NODE, every 1 s,
                        TTL 3 s) and one RFT agent per switch, and register the switches with the
                        controller (defaults: 2 spines, 4 leaves, 2 hosts per leaf). No topology is
                        written: the controller learns the links from the agents' LLDP neighbours
                        (topology rst-lldp; check --links compares it with the wiring). The agents
                        sample the data packets whose PSN is a multiple of N (a power of two;
                        default 1: every one) and learn connections without CM from them. The
                        agents serve TLS with certificates of a CA the lab makes (DIR/certs/ca.crt,
                        the controller's agent-ca-file), and each switch is registered with its
                        certificate's fingerprint pinned; --plain-http: plain HTTP instead,
                        registered as such. --containers IMAGE: each agent runs as that podman
                        image (the agent's container image, loaded) in its switch's namespace,
                        container rst-lab-NODE, with the same token, certificate and state
                        directory; podman's settings from CONTAINERS_CONF
          up --replay [--connections N] [--plain-http] [sizes as above]
                        without namespaces (no root needed): the lab's traffic (N connections, default
                        300) recorded as each switch port would capture it, one agent per switch on
                        127.0.0.x replaying its ports' files; paths use a CRC of the 5-tuple in place
                        of the kernel's hash. With no links to hear LLDP on, register writes the
                        wiring as the configuration topology rst-lab
          down          stop the agents (and remove their containers) and every lldpd, remove every
                        namespace, link and file of the lab, and the lab's switches from the
                        controller if it answers; also cleans up after a lab that crashed
          status        the fabric, each agent (pid, address, capturing, sessions, CM MADs, sessions
                        learnt from data, one-way flows), each host's address
          register      register the switches with the controller again
          traffic [--rate N] [--concurrency N] [--connections N] [--seconds S] [--seed N]
                  [--data-packets N] [--live-only] [--nccl-share F] [--nccl-qps MIN-MAX]
                        RDMA connections between random hosts (CM exchange and data packets), real UDP
                        routed by the kernel; every scenario (live, closed, rejected, unanswered,
                        half-closed, MRA, flapping) unless --live-only; a share F (default 0.2; 0:
                        none) of NCCL-style connections instead: QPNs and PSNs exchanged over TCP,
                        then RC WRITE/SEND/READ data and ACKs on MIN-MAX QPs (default 2-4), no CM;
                        written to DIR/truth.jsonl. Defaults: 20 connections/s, 1000 live at most,
                        until Ctrl-C
          check [--wait S] [--settle S] [--congestion] | check --links [--wait S]
                        --links: the controller's topology rst-lldp (learnt from the agents' LLDP
                        neighbours) against the lab's wiring, link for link: both directions of
                        every link that is up, host links included (none that the lab took down),
                        each node's node-kind, each host's RDMA address; prints each difference,
                        exit status 1 if any; --wait S: up to S s until equal. Without --links:
                        the links first (waiting up to 30 s, or S if longer), then
                        every settled session of DIR/truth.jsonl: its paths in RESTCONF against the
                        kernel's forwarding hop by hop (ip route get in each namespace, ingress and
                        egress ports; a replayed lab has none to check against), its state against the
                        traffic; every NCCL-style QP pair once, learnt from data, with both QPNs and
                        both data paths equal to the kernel's; exit status 1 if any differs. Settled:
                        set up or closed at least --settle S (default 5) before the check; newer ones
                        are still in flight while traffic runs, and are left out (the output says how
                        many; --settle 0 checks them too). --wait S: check again for up to S s until
                        all are equal. After lab congest or pfc, the congestion too (--congestion:
                        only it): the data directions the kernel sends across the marked link, and
                        only those, show CE from the hop after it on (rdma-path-table ce-packets)
                        and marked-at naming it (required of each that began after the marking
                        when it marks every packet); while a pause goes on (or up to 15 s after),
                        rpt/paused-port lists the paused port and priority with exactly the
                        sessions whose data the kernel sends out of it in that priority, and no
                        other port
          congest [--link NODE:PORT] [--rate N] [--seed N] | congest --off
                        on one switch-to-switch link (at random, or NODE's egress PORT), nftables in
                        NODE's namespace marks CE on the ECN-capable RoCEv2 packets leaving PORT:
                        every one, or with --rate those beyond N a second (the hosts send their
                        data DSCP 26 ECT(0); their NICs answer CE with CNPs, DSCP 48, at most one
                        per QP every 50 us); one link marks at a time; written to DIR/truth.jsonl
                        with the sessions so far that cross it. --off: stop marking
          pfc --node N --port P --priority X [--quanta Q] [--frames K] [--interval-us U]
                        pause priority X of switch N's port P: the node at the other end of the link
                        sends K PFC frames (default 1000) of Q quanta (65535) into P, one every U us
                        (10000); returns when they are sent; written to DIR/truth.jsonl with the
                        sessions so far whose data leaves P in priority X
          bench [--live N,N] [--rate R] [--seconds S] [--sample-every K] [--check N] [--warmup W]
                [--nccl-rate C]
                        the lab benchmark (./rst bench lab runs it): W s (20) of traffic at R to warm
                        the controller up, 10 s at 2R, then on in 10 s windows until its JIT compiler threads
                        keep under a tenth of a core busy (at most 300 s more; needs
                        RST_BENCH_CONTROLLER_PID); ramp to each N live sessions (default 10000,100000);
                        after the warm-up and each ramp, wait until the controller has applied every
                        agent's events; then S s (30) at R new sessions/s (1000) with the oldest
                        closing; RTU -> complete path in RESTCONF p50/p99 on every K-th session
                        (R/5: five a second); N of them (1000) checked against the kernel; beside
                        them C NCCL-style connections/s (2; 0: none): first packet -> complete data
                        paths p50/p99, at the lab's --data-sample, and its p99 over the CM one's
          link down|up NODE PORT
                        take a leaf-spine link down (interface down, routes withdrawn as a routing
                        protocol would) or up again; the controller learns it from LLDP: the link
                        leaves topology rst-lldp once the agents forget the neighbour (TTL 3 s) and
                        the next status poll reports it, and comes back as soon as it is heard
        common options: --controller URL (default http://127.0.0.1:8181/rests), --user U, --password P
                        (default admin/admin), --dir D (default /run/rst-lab, or $RST_LAB_DIR)
        """;

    private LabMain() {
        // entry point
    }

    // the command line's entry point: it owns the console and ends the JVM whatever escapes
    @SuppressWarnings({ "checkstyle:IllegalCatch", "checkstyle:RegexpSinglelineJava" })
    public static void main(final String[] args) {
        int status;
        try {
            status = run(args, System.out, System.err);
        } catch (RuntimeException | Error e) {
            // an error (out of memory, say) escaping main would leave the JVM alive on its pools'
            // threads, a bench holding its heap and CPU under the next run
            e.printStackTrace();
            status = 70;
        }
        System.exit(status);
    }

    @SuppressWarnings("checkstyle:RegexpSinglelineJava") // usage and errors go to the streams it is given
    static int run(final String[] args, final PrintStream out, final PrintStream err) {
        if (args.length == 0 || args[0].equals("--help") || args[0].equals("-h") || args[0].equals("help")) {
            (args.length == 0 ? err : out).print(USAGE);
            return args.length == 0 ? 2 : 0;
        }
        final List<String> rest = new ArrayList<>(Arrays.asList(args).subList(1, args.length));
        if (rest.contains("--help") || rest.contains("-h")) {
            out.print(USAGE);
            return 0;
        }
        try {
            final var o = new Opts(rest);
            final Lab lab = new Lab(o.dir);
            switch (args[0]) {
                case "up" -> {
                    final var fabric = new Fabric(o.intOpt("--spines", 2), o.intOpt("--leaves", 4),
                        o.intOpt("--hosts-per-leaf", 2), new TreeSet<>(o.all("--dual-homed")));
                    final boolean register = !o.flag("--no-register");
                    final boolean replay = o.flag("--replay");
                    final int recorded = o.intOpt("--connections", 300);
                    final boolean plainHttp = o.flag("--plain-http");
                    final int dataSample = o.intOpt("--data-sample", 1);
                    final String image = o.value("--containers");
                    o.done();
                    if (replay) {
                        if (image != null) {
                            throw new IllegalArgumentException("--replay runs no containers: no --containers");
                        }
                        if (dataSample != 1) {
                            throw new IllegalArgumentException("--replay samples every data packet: no --data-sample");
                        }
                        lab.upReplay(fabric, agentCommand(), recorded, plainHttp, out::println);
                    } else {
                        lab.up(fabric, agentCommand(), plainHttp, dataSample, image, out::println);
                    }
                    if (register) {
                        final var rc = o.restconf();
                        if (rc.answers()) {
                            lab.register(rc);
                            out.println("lab: " + fabric.switches().size() + " switches registered at " + rc.base()
                                + (replay ? " with the wiring as topology '" + Lab.TOPOLOGY_ID + "'"
                                    : "; the controller learns the links from LLDP (topology '"
                                    + Lab.LLDP_TOPOLOGY_ID + "')"));
                        } else {
                            out.println("lab: no controller answers at " + rc.base()
                                + ": ./rst lab register once it does");
                        }
                    }
                }
                case "down" -> {
                    o.done();
                    final var rc = o.restconf();
                    if (lab.isUp() && rc.answers()) {
                        lab.unregister(rc);
                    }
                    lab.down(out::println);
                }
                case "status" -> {
                    o.done();
                    lab.status().forEach(out::println);
                }
                case "register" -> {
                    o.done();
                    lab.register(o.restconf());
                    out.println("lab: switches registered at " + o.restconf().base()
                        + (lab.replay() ? " with the wiring as topology '" + Lab.TOPOLOGY_ID + "'" : ""));
                }
                case "traffic" -> {
                    final var opt = new Traffic.Options(o.doubleOpt("--rate", 20), o.intOpt("--concurrency", 1000),
                        o.intOpt("--connections", 0), o.doubleOpt("--seconds", 0), o.longOpt("--seed",
                            System.nanoTime()), o.intOpt("--data-packets", 4), !o.flag("--live-only"),
                        o.doubleOpt("--nccl-share", 0.2));
                    final int[] qps = range(o.value("--nccl-qps"), 2, 4);
                    o.done();
                    return traffic(lab, opt, qps, out);
                }
                case "check" -> {
                    final double wait = o.doubleOpt("--wait", 0);
                    final double settle = o.doubleOpt("--settle", DEFAULT_SETTLE_SECONDS);
                    final boolean congestionOnly = o.flag("--congestion");
                    final boolean links = o.flag("--links");
                    o.done();
                    if (settle < 0) {
                        throw new IllegalArgumentException("--settle must not be negative");
                    }
                    if (lab.replay()) {
                        err.println("rst lab: a replayed lab has no kernel forwarding to check paths against");
                        return 2;
                    }
                    if (links) {
                        return checkLinks(lab, o.restconf(), wait, out) ? 0 : 1;
                    }
                    if (congestionOnly) {
                        return checkCongestion(lab, o.restconf(), wait, out, err, true) ? 0 : 1;
                    }
                    return check(lab, o.restconf(), wait, settle, out, err);
                }
                case "bench" -> {
                    final List<Integer> levels = new ArrayList<>();
                    for (var v : o.all("--live").isEmpty() ? List.of("10000,100000") : o.all("--live")) {
                        for (var part : v.split(",")) {
                            levels.add(Integer.parseInt(part.strip()));
                        }
                    }
                    final double rate = o.doubleOpt("--rate", 1000);
                    final double steady = o.doubleOpt("--seconds", 30);
                    // about five sampled sessions a second, whatever the rate
                    final int every = o.intOpt("--sample-every", (int) Math.max(1, Math.round(rate / 5)));
                    final int check = o.intOpt("--check", 1000);
                    final double warmup = o.doubleOpt("--warmup", 20);
                    final double ncclRate = o.doubleOpt("--nccl-rate", 2);
                    o.done();
                    return LabBench.run(lab, o.restconf(), levels, rate, steady, every, check, warmup, ncclRate, out);
                }
                case "congest" -> {
                    final boolean off = o.flag("--off");
                    final String spec = o.value("--link");
                    final long rate = o.longOpt("--rate", 0);
                    final long seed = o.longOpt("--seed", System.nanoTime());
                    o.done();
                    if (off) {
                        Congestion.unmark(lab, out::println);
                    } else {
                        final var fabric = lab.fabric();
                        final var link = spec != null ? Congestion.link(fabric, spec)
                            : Congestion.randomLink(fabric, lab.downLinks(), new java.util.SplittableRandom(seed));
                        Congestion.mark(lab, link, rate, out::println);
                    }
                }
                case "pfc" -> {
                    final String node = o.value("--node");
                    final String port = o.value("--port");
                    final String priority = o.value("--priority");
                    final int quanta = o.intOpt("--quanta", 65535);
                    final int frames = o.intOpt("--frames", 1000);
                    final long interval = o.longOpt("--interval-us", 10_000);
                    o.done();
                    if (node == null || port == null || priority == null) {
                        throw new IllegalArgumentException("pfc needs --node, --port and --priority");
                    }
                    final int prio;
                    try {
                        prio = Integer.parseInt(priority);
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException("--priority wants a number, got '" + priority + "'", e);
                    }
                    final var rc = o.restconf();
                    final int dataPriority = rc.answers()
                        ? Congestion.dataPriority(rc.get("data/rdma-path-table:rpt-settings"))
                        : Congestion.DATA_DSCP / 8;
                    Congestion.pfc(lab, Congestion.port(lab.fabric(), node, port), prio, quanta, frames, interval,
                        dataPriority, out::println);
                }
                case "link" -> {
                    if (rest.size() < 3 || !Set.of("up", "down").contains(rest.get(0))) {
                        throw new IllegalArgumentException("link down|up NODE PORT");
                    }
                    final boolean up = rest.get(0).equals("up");
                    final String node = rest.get(1);
                    final String port = rest.get(2);
                    final var o2 = new Opts(new ArrayList<>(rest.subList(3, rest.size())));
                    o2.done();
                    lab.setLink(node, port, up);
                    out.println("lab: " + node + ":" + port + (up ? " up" : " down") + ", routes updated; the link "
                        + (up ? "comes back into" : "leaves") + " topology " + Lab.LLDP_TOPOLOGY_ID
                        + (up ? " once LLDP hears it" : " once the agents forget the neighbour (TTL "
                            + Lab.LLDP_TTL_SECONDS + " s) and the controller polls them"));
                }
                default -> throw new IllegalArgumentException("unknown command '" + args[0] + "' (see rst lab --help)");
            }
            return 0;
        } catch (IllegalArgumentException | LabException e) {
            err.println("rst lab: " + e.getMessage());
            return 2;
        } catch (IOException e) {
            err.println("rst lab: " + e.getMessage());
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 130;
        }
    }

    /** How long plain {@code check} waits for the controller's topology to equal the wiring. */
    static final double LINKS_WAIT_SECONDS = 30;

    /**
     * {@code rst lab check --links} (and the first part of every check): topology rst-lldp against
     * the lab's wiring ({@link LinkCheck}), again for up to {@code wait} s until equal; true when
     * equal. Each difference and the summary go to {@code out}.
     */
    private static boolean checkLinks(final Lab lab, final Restconf rc, final double wait, final PrintStream out) {
        final var r = LinkCheck.checkUntil(lab.fabric(), lab.downLinks(), rc, wait);
        r.differences().stream().limit(100).forEach(out::println);
        if (r.differences().size() > 100) {
            out.println("... and " + (r.differences().size() - 100) + " more");
        }
        out.println(r.summary());
        return r.ok();
    }

    /** How long after the generator's last word of a session the check takes it as settled. */
    static final double DEFAULT_SETTLE_SECONDS = 5;

    /**
     * {@code rst lab check}: the settled sessions of the truth file against RESTCONF and the
     * kernel, and its NCCL-style QP pairs; when no CM session has settled yet (traffic just
     * began), after waiting the settle time once.
     */
    @SuppressWarnings("checkstyle:RegexpSinglelineJava") // errors go to the stream it is given
    private static int check(final Lab lab, final Restconf rc, final double wait, final double settle,
            final PrintStream out, final PrintStream err) throws IOException {
        final long settleMillis = Math.round(settle * 1000);
        var conns = Truth.read(lab.truthFile());
        final var qpPairs = Truth.readNccl(lab.truthFile());
        if (conns.isEmpty() && qpPairs.isEmpty()) {
            err.println("rst lab: no traffic recorded in " + lab.truthFile() + ": ./rst lab traffic first");
            return 1;
        }
        // the paths need the links: the controller learns them from LLDP a few seconds after up
        boolean ok = checkLinks(lab, rc, Math.max(wait, LINKS_WAIT_SECONDS), out);
        if (!conns.isEmpty()) {
            var selected = PathCheck.settled(conns, System.currentTimeMillis(), settleMillis);
            if (selected.connections().isEmpty()) {
                err.println("rst lab: every recorded session is still in flight: checking in " + fmt(settle) + " s");
                Lab.sleep(settleMillis);
                conns = Truth.read(lab.truthFile());
                selected = PathCheck.settled(conns, System.currentTimeMillis(), settleMillis);
            }
            final var r = PathCheck.checkUntil(lab.fabric(), selected.connections(), rc, Set.of(), wait, false,
                lab.dataSample());
            r.mismatches().stream().limit(50).forEach(out::println);
            out.println(r.summary());
            if (selected.inFlight() > 0) {
                out.println("left out " + selected.inFlight() + " sessions still in flight (set up or closed less than "
                    + fmt(settle) + " s before the check; --settle 0 checks them too)");
            }
            ok = r.ok();
        }
        if (!qpPairs.isEmpty()) {
            final var r = DataPathCheck.checkUntil(lab.fabric(), qpPairs, rc, Set.of(), wait, false,
                DataPathCheck.SETTLE_MS);
            r.mismatches().stream().limit(50).forEach(out::println);
            out.println(r.summary());
            ok &= r.ok();
        }
        ok &= checkCongestion(lab, rc, wait, out, err, false);
        return ok ? 0 : 1;
    }

    /**
     * {@code rst lab check --congestion} (and the last part of every check): RESTCONF's CE marks
     * and paused ports against the truth's marking and pauses ({@link Congestion#check}), again
     * for up to {@code wait} s until equal; true when equal, or ({@code required} false) when the
     * lab made no congestion.
     */
    @SuppressWarnings("checkstyle:RegexpSinglelineJava") // errors go to the stream it is given
    private static boolean checkCongestion(final Lab lab, final Restconf rc, final double wait, final PrintStream out,
            final PrintStream err, final boolean required) throws IOException {
        final long deadline = System.nanoTime() + (long) (wait * 1e9);
        while (true) {
            final var r = Congestion.check(lab, rc, System.currentTimeMillis());
            if (r == null) {
                if (required) {
                    err.println("rst lab: no congestion in " + lab.truthFile() + ": ./rst lab congest or pfc first");
                }
                return !required;
            }
            if (r.ok() || System.nanoTime() > deadline) {
                r.mismatches().stream().limit(50).forEach(out::println);
                r.notes().forEach(out::println);
                out.println(r.summary());
                return r.ok();
            }
            Lab.sleep(1000);
        }
    }

    private static String fmt(final double seconds) {
        final String s = Double.toString(seconds);
        return s.endsWith(".0") ? s.substring(0, s.length() - 2) : s;
    }

    /** {@code MIN-MAX} (or {@code N}: N-N) as two numbers; the defaults when absent. */
    static int[] range(final String spec, final int min, final int max) {
        if (spec == null) {
            return new int[] {min, max};
        }
        try {
            final String[] parts = spec.split("-", 2);
            final int lo = Integer.parseInt(parts[0].strip());
            return new int[] {lo, parts.length > 1 ? Integer.parseInt(parts[1].strip()) : lo};
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("wants MIN-MAX, got '" + spec + "'", e);
        }
    }

    private static int traffic(final Lab lab, final Traffic.Options opt, final int[] qps, final PrintStream out)
            throws IOException {
        final var fabric = lab.fabric();
        final long first = Truth.nextId(lab.truthFile());
        try (var truth = new Truth.Writer(lab.truthFile()); var traffic = new Traffic(fabric, truth, first)) {
            traffic.nccl().options(NcclTraffic.Options.defaults(lab.dataSample()).withQps(qps[0], qps[1]));
            final Thread progress = new Thread(() -> {
                try {
                    while (true) {
                        Thread.sleep(5000);
                        out.println("traffic: " + traffic.sent() + " packets sent, " + traffic.received()
                            + " received, " + traffic.sendErrors() + " send errors" + (traffic.lastError() == null ? ""
                                : " (last: " + traffic.lastError() + ")") + (opt.ncclShare() > 0 ? "; NCCL-style: "
                                + traffic.nccl().connections() + " connections, " + traffic.nccl().running()
                                + " QP pairs sending, " + traffic.nccl().bootstrapErrors() + " bootstrap errors" : ""));
                    }
                } catch (InterruptedException e) {
                    // done
                }
            }, "lab-progress");
            progress.setDaemon(true);
            progress.start();
            out.println("traffic: " + opt.rate() + " connections/s between " + fabric.hosts().size() + " hosts"
                + (opt.connections() > 0 ? ", " + opt.connections() + " in all" : "")
                + (opt.seconds() > 0 ? ", for " + opt.seconds() + " s" : "") + "; truth in " + lab.truthFile());
            final long n = traffic.run(opt);
            traffic.quiesce();
            progress.interrupt();
            out.println("traffic: " + n + " connections (" + traffic.nccl().connections() + " NCCL-style, "
                + traffic.nccl().qpPairs() + " QP pairs), " + traffic.sent() + " packets sent, " + traffic.sendErrors()
                + " send errors, " + traffic.nccl().bootstrapErrors() + " bootstrap errors"
                + (traffic.nccl().lastError() == null ? "" : " (last: " + traffic.nccl().lastError() + ")"));
            return traffic.sendErrors() == 0 && traffic.nccl().bootstrapErrors() == 0 ? 0 : 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 130;
        }
    }

    /**
     * How the lab starts an agent: this JVM's java, with this class path (which holds the agent),
     * and the JVM options of the system property rst.agent.heap (separated by commas; default
     * -Xmx128m). The heap is the cap from the start, its pages touched at start (-Xms, unless given,
     * and AlwaysPreTouch), as the controller's: an agent whose heap grows faults its new pages in
     * inside its collections (in the lab benchmark, a tenth of such agents' CPU samples are
     * clear_page under their GC threads), on the cores that the traffic and the controller share.
     */
    static List<String> agentCommand() {
        final List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(agentJvmOptions(System.getProperty("rst.agent.heap", "-Xmx128m")));
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), "io.rst.rft.cli.Main"));
        return cmd;
    }

    /** The agents' JVM options from {@code spec} (comma separated), with the heap fixed and touched. */
    static List<String> agentJvmOptions(final String spec) {
        final List<String> opts = new ArrayList<>();
        for (String o : spec.strip().split("[,\\s]+")) {
            if (!o.isEmpty()) {
                opts.add(o);
            }
        }
        final String xmx = opts.stream().filter(o -> o.startsWith("-Xmx")).reduce((a, b) -> b).orElse(null);
        if (xmx != null && opts.stream().noneMatch(o -> o.startsWith("-Xms"))) {
            opts.add("-Xms" + xmx.substring(4));
            if (!opts.contains("-XX:-AlwaysPreTouch")) {
                opts.add("-XX:+AlwaysPreTouch");
            }
        }
        return opts;
    }

    /**
     * Agent options the lab adds to every agent's own, from the system property rst.agent.args
     * (separated by commas, as a JVM option cannot hold spaces in RST_LAB_JAVA_OPTS; ./rst bench
     * lab gives the agents a longer event retention with it).
     */
    static List<String> agentExtraArgs() {
        final String extra = System.getProperty("rst.agent.args", "").strip();
        return extra.isEmpty() ? List.of() : List.of(extra.split("[,\\s]+"));
    }

    /** Options of the form {@code --name value} and {@code --flag}. */
    private static final class Opts {
        private final List<String> args;
        private final Set<Integer> used = new HashSet<>();
        final Path dir;

        Opts(final List<String> args) {
            this.args = args;
            final String d = value("--dir");
            dir = d != null ? Path.of(d) : System.getenv("RST_LAB_DIR") != null ? Path.of(System.getenv("RST_LAB_DIR"))
                : Lab.DEFAULT_DIR;
        }

        String value(final String name) {
            final var all = all(name);
            return all.isEmpty() ? null : all.get(all.size() - 1);
        }

        List<String> all(final String name) {
            final List<String> out = new ArrayList<>();
            for (int i = 0; i < args.size(); i++) {
                if (args.get(i).equals(name)) {
                    if (i + 1 >= args.size()) {
                        throw new IllegalArgumentException(name + " needs a value");
                    }
                    used.add(i);
                    used.add(i + 1);
                    out.add(args.get(++i));
                }
            }
            return out;
        }

        boolean flag(final String name) {
            final int i = args.indexOf(name);
            if (i >= 0) {
                used.add(i);
            }
            return i >= 0;
        }

        int intOpt(final String name, final int def) {
            final String v = value(name);
            try {
                return v == null ? def : Integer.parseInt(v);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(name + " wants a number, got '" + v + "'", e);
            }
        }

        long longOpt(final String name, final long def) {
            final String v = value(name);
            try {
                return v == null ? def : Long.parseLong(v);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(name + " wants a number, got '" + v + "'", e);
            }
        }

        double doubleOpt(final String name, final double def) {
            final String v = value(name);
            try {
                return v == null ? def : Double.parseDouble(v);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(name + " wants a number, got '" + v + "'", e);
            }
        }

        Restconf restconf() {
            final String url = value("--controller");
            final String user = value("--user");
            final String password = value("--password");
            return new Restconf(url != null ? url : "http://127.0.0.1:8181/rests", user != null ? user : "admin",
                password != null ? password : "admin");
        }

        /** Fails on anything not taken. */
        void done() {
            restconf();
            for (int i = 0; i < args.size(); i++) {
                if (!used.contains(i)) {
                    throw new IllegalArgumentException("unknown option '" + args.get(i) + "' (see rst lab --help)");
                }
            }
        }
    }
}
