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
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The lab benchmark ({@code ./rst bench lab}): how many live sessions and new sessions per second
 * the whole system (agents, controller, path table) sustains with every path still right, and the
 * delay from a session's RTU leaving its host to its complete path (both directions) in RESTCONF,
 * p50 and p99, measured on a sample of sessions while new ones keep coming at the set rate and the
 * oldest close. Each level: ramp to N live sessions, then a steady period at the rate with N live;
 * then a random sample of the steady period's sessions is checked against the kernel.
 */
final class LabBench {
    private LabBench() {
        // utility
    }

    static int run(final Lab lab, final Restconf rc, final List<Integer> levels, final double rate,
            final double steadySeconds, final int sampleEvery, final int checkSample, final PrintStream out)
            throws IOException, InterruptedException {
        final var fabric = lab.fabric();
        final long first = Truth.read(lab.truthFile()).stream().mapToLong(Truth.Connection::id).max().orElse(0) + 1;
        boolean ok = true;
        try (var truthWriter = new Truth.Writer(lab.truthFile()); var traffic = new Traffic(fabric, truthWriter, first)) {
            final Map<String, Long> pending = new ConcurrentHashMap<>();
            final List<Long> delays = Collections.synchronizedList(new ArrayList<>());
            final AtomicLong counter = new AtomicLong();
            final ExecutorService pollers = Executors.newFixedThreadPool(4);
            final Thread poller = new Thread(() -> poll(rc, pending, delays, pollers), "bench-poller");
            poller.setDaemon(true);
            poller.start();
            int liveNow = 0;
            long seed = 1000;
            for (int level : levels) {
                // ramp: new live sessions until there are `level`
                traffic.onRtu(null);
                long t0 = System.nanoTime();
                final int ramp = Math.max(0, level - liveNow);
                traffic.run(new Traffic.Options(rate, level, ramp, 0, seed++, 1, false));
                final double rampRate = ramp / ((System.nanoTime() - t0) / 1e9);
                liveNow = level;
                // steady: `rate` new sessions per second, the oldest closing, RTU->path sampled
                delays.clear();
                pending.clear();
                traffic.onRtu((id, when) -> {
                    if (counter.incrementAndGet() % sampleEvery == 0) {
                        pending.put(id, when);
                    }
                });
                final long beforeSteady = Truth.read(lab.truthFile()).stream().mapToLong(Truth.Connection::id).max()
                    .orElse(0);
                t0 = System.nanoTime();
                final long made = traffic.run(new Traffic.Options(rate, level, 0, steadySeconds, seed++, 1, false));
                final double steadyRate = made / ((System.nanoTime() - t0) / 1e9);
                traffic.onRtu(null);
                traffic.quiesce();
                final long waitUntil = System.nanoTime() + 15_000_000_000L;
                while (!pending.isEmpty() && System.nanoTime() < waitUntil) {
                    Thread.sleep(100);
                }
                final int missing = pending.size();
                pending.clear();
                final List<Long> sorted = new ArrayList<>(delays);
                Collections.sort(sorted);
                // a random sample of the steady period's sessions against the kernel
                final List<Truth.Connection> steady = new ArrayList<>();
                for (var c : Truth.read(lab.truthFile())) {
                    if (c.id() > beforeSteady) {
                        steady.add(c);
                    }
                }
                Collections.shuffle(steady, new java.util.Random(seed));
                final var sample = steady.subList(0, Math.min(checkSample, steady.size()));
                final var check = PathCheck.checkUntil(fabric, sample, rc, Set.of(), 30);
                out.printf("bench lab: %d live sessions: ramp at %.0f/s (asked %.0f/s); steady %.0f s at %.0f new "
                    + "sessions/s (asked %.0f/s); RTU -> complete path in RESTCONF: p50 %s, p99 %s, max %s "
                    + "(%d sampled, %d never complete within 15 s); %s%n", level, rampRate, rate, steadySeconds,
                    steadyRate, rate, ms(sorted, 0.50), ms(sorted, 0.99), ms(sorted, 1.0), sorted.size(), missing,
                    check.summary());
                check.mismatches().stream().limit(10).forEach(m -> out.println("  " + m));
                ok &= check.ok() && missing == 0;
            }
            poller.interrupt();
            pollers.shutdownNow();
        }
        return ok ? 0 : 1;
    }

    private static String ms(final List<Long> sorted, final double q) {
        if (sorted.isEmpty()) {
            return "-";
        }
        final int i = Math.min(sorted.size() - 1, (int) Math.ceil(q * sorted.size()) - 1);
        return String.format("%.0f ms", sorted.get(Math.max(0, i)) / 1e6);
    }

    /** Asks RESTCONF for each pending session's path until both directions are complete. */
    private static void poll(final Restconf rc, final Map<String, Long> pending, final List<Long> delays,
            final ExecutorService pool) {
        final Set<String> inFlight = ConcurrentHashMap.newKeySet();
        while (!Thread.currentThread().isInterrupted()) {
            for (var e : pending.entrySet()) {
                final String id = e.getKey();
                if (!inFlight.add(id)) {
                    continue;
                }
                pool.execute(() -> {
                    try {
                        final var p = rc.get("data/rdma-path-table:rpt/path=" + URLEncoder.encode(id,
                            StandardCharsets.UTF_8) + "?content=nonconfig").path("rdma-path-table:path").path(0);
                        if (p.path("forward").path("complete").asBoolean()
                                && p.path("reverse").path("complete").asBoolean()) {
                            final Long sent = pending.remove(id);
                            if (sent != null) {
                                delays.add(System.nanoTime() - sent);
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
