/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.insight;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.opendaylight.mdsal.binding.api.NotificationService;
import org.opendaylight.mdsal.binding.dom.adapter.test.AbstractConcurrentDataBrokerTest;
import org.opendaylight.mdsal.common.api.LogicalDatastoreType;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.AgentState;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.LearnedFrom;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.Rft;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.agent.status.Pfc;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.agent.status.PfcBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft.Switch;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft.SwitchKey;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.AgentStatus;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.AgentStatusBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.Rpt;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.direction.HopBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.direction.MarkedAtBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.path.DataForwardBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.rpt.Path;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.rpt.PathBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.rpt.PathKey;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.rpt.PausedPort;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.rpt.PausedPortBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.rpt.PausedPortKey;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.insight.rev261201.Congested;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.insight.rev261201.PfcDeadlockSuspect;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.insight.rev261201.PfcStorm;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.insight.rev261201.ProblemKind;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.insight.rev261201.Problems;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.insight.rev261201.problems.Problem;
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
import org.opendaylight.yangtools.binding.DataObjectIdentifier;
import org.opendaylight.yangtools.binding.Notification;
import org.opendaylight.yangtools.binding.util.BindingMap;
import org.opendaylight.yangtools.concepts.Registration;
import org.opendaylight.yangtools.yang.common.Decimal64;
import org.opendaylight.yangtools.yang.common.Uint16;
import org.opendaylight.yangtools.yang.common.Uint32;
import org.opendaylight.yangtools.yang.common.Uint64;
import org.opendaylight.yangtools.yang.common.Uint8;

/**
 * The congestion problems through the worker, against a real in-memory broker and notification
 * router: paths with ECN figures, agent statuses with PFC figures, rpt/paused-port and a topology
 * link written as the RPT, the RFT manager and an operator write them; the problems read back,
 * each notification received once, and the metrics of the worker's snapshot.
 */
public class CongestionWorkerTest extends AbstractConcurrentDataBrokerTest {
    private final List<Notification<?>> received = new CopyOnWriteArrayList<>();
    private final List<Registration> subscriptions = new ArrayList<>();
    private ScheduledExecutorService executor;
    private InsightWorker worker;
    private double now;

    @BeforeEach
    public void startWorker() throws Exception {
        // the broker: the base class sets it up with JUnit 4's @Before, which Jupiter does not run
        setup();
        final var customizer = getDataBrokerTestCustomizer();
        customizer.updateSchema(getRuntimeContext());
        final NotificationService subscriber = customizer.createNotificationService();
        subscriptions.add(subscriber.registerListener(Congested.class, received::add, Runnable::run));
        subscriptions.add(subscriber.registerListener(PfcStorm.class, received::add, Runnable::run));
        subscriptions.add(subscriber.registerListener(PfcDeadlockSuspect.class, received::add, Runnable::run));
        executor = Executors.newSingleThreadScheduledExecutor();
        now = System.currentTimeMillis() / 1000.0;
        worker = new InsightWorker(getDataBroker(), getDomBroker(), customizer.createNotificationPublishService(),
            ProblemDetector.Options.DEFAULTS, executor, () -> now, 1);
    }

    @AfterEach
    public void stopWorker() {
        worker.close();
        executor.shutdownNow();
        subscriptions.forEach(Registration::close);
    }

    @Test
    public void congestedDataIsAProblemAtWhereMarkingStartsNotifiedOnceAndCountedInTheMetrics() throws Exception {
        putPath("s1", 9, 100, 3);
        final var problem = awaitProblem(p -> p.getKind() == ProblemKind.Congested);
        assertEquals("leaf1", problem.getNodeId());
        assertEquals("swp7", problem.getTpId());
        assertEquals("data-forward", problem.getDirection().getName());
        assertEquals(Uint32.ONE, problem.getCount());
        final var notified = awaitNotification(Congested.class, n -> n.getProblemId().equals(problem.getId()));
        assertEquals("leaf1", notified.getNodeId());
        assertEquals(Decimal64.valueOf("0.0900"), notified.getCeShare());
        assertEquals(Uint64.valueOf(9), notified.getCePackets());
        assertEquals(Uint64.valueOf(100), notified.getEctPackets());
        assertEquals(Uint64.valueOf(3), notified.getCnpPackets());
        assertEquals(List.of("s1"), List.copyOf(notified.getSessionId()));

        // more marks, and a second session at the same place: the same problem, counted again, not announced again
        putPath("s1", 20, 100, 3);
        putPath("s2", 30, 100, 0);
        awaitProblem(p -> p.getKind() == ProblemKind.Congested && p.getCount().intValue() == 2);
        final var text = metricsOnceThey("rst_sessions_congested 2\n");
        assertTrue(text.contains("rst_data_ce_packets{switch=\"spine1\",port=\"swp2\"} 50\n"), text);
        assertTrue(text.contains("rst_data_ect_packets{switch=\"leaf1\",port=\"swp1\"} 200\n"), text);
        assertTrue(text.contains("rst_problems{kind=\"congested\"} 2\n"), text);
        assertEquals(1, received.stream().filter(Congested.class::isInstance).count(), received.toString());

        // gone under the threshold: the problem goes, and a new congestion there is announced again
        putPath("s1", 0, 100, 0);
        putPath("s2", 0, 100, 0);
        awaitProblems(p -> p.nonnullProblem().values().stream().noneMatch(x -> x.getKind() == ProblemKind.Congested));
        putPath("s2", 50, 100, 0);
        await("a second announcement").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
            .until(() -> received.stream().filter(Congested.class::isInstance).count() == 2);
    }

    @Test
    public void aPfcStormAndALinkPausedBothWaysAreProblemsNotifiedOnce() throws Exception {
        putLink("leaf1", "swp5", "spine1", "swp1");
        putHeldUp("leaf1", "swp5", 3, 7, "a", "b");
        // leaf1 swp5: paused 0.9 of the interval in priority 3; spine1's end not paused yet
        putPfc("leaf1", pfc("swp5", 3, "0.9000", true));
        putPfc("spine1", pfc("swp1", 4, "0.2000", true));
        final var storm = awaitProblem(p -> p.getKind() == ProblemKind.PfcStorm);
        assertEquals("leaf1", storm.getNodeId());
        assertEquals("swp5", storm.getTpId());
        assertEquals(Uint8.valueOf(3), storm.getPriority());
        assertEquals(Uint32.valueOf(7), storm.getHeldUpSessions());
        final var notified = awaitNotification(PfcStorm.class, n -> n.getProblemId().equals(storm.getId()));
        assertEquals(Decimal64.valueOf("0.9000"), notified.getPausedShare());
        assertEquals(Uint32.valueOf(7), notified.getHeldUpSessions());
        assertEquals(List.of("a", "b"), List.copyOf(notified.getSessionId()));
        assertTrue(read().nonnullProblem().values().stream()
            .noneMatch(p -> p.getKind() == ProblemKind.PfcDeadlockSuspect));

        // the other end paused in the same priority: a deadlock suspect, announced once
        putPfc("spine1", pfc("swp1", 4, "0.2000", true), pfc("swp1", 3, "0.1000", false));
        final var suspect = awaitProblem(p -> p.getKind() == ProblemKind.PfcDeadlockSuspect);
        assertEquals("spine1", suspect.getPeerNodeId());
        assertEquals("swp1", suspect.getPeerTpId());
        final var deadlock = awaitNotification(PfcDeadlockSuspect.class, n -> true);
        assertEquals("leaf1", deadlock.getNodeId());
        assertEquals("spine1", deadlock.getPeerNodeId());
        assertEquals(Uint8.valueOf(3), deadlock.getPriority());
        final var text = metricsOnceThey("rst_pfc_held_up_sessions{switch=\"leaf1\",port=\"swp5\",priority=\"3\"} 7\n");
        assertTrue(text.contains("rst_pfc_paused_share{switch=\"leaf1\",port=\"swp5\",priority=\"3\"} 0.900000\n"),
            text);
        assertTrue(text.contains("rst_pfc_paused{switch=\"spine1\",port=\"swp1\",priority=\"3\"} 0\n"), text);

        // the next probes: the same problems, announced no more
        putPfc("leaf1", pfc("swp5", 3, "0.8000", true));
        awaitProblem(p -> p.getKind() == ProblemKind.PfcStorm && p.getDetail().contains(" 0.8000 "));
        assertEquals(1, received.stream().filter(PfcStorm.class::isInstance).count(), received.toString());
        assertEquals(1, received.stream().filter(PfcDeadlockSuspect.class::isInstance).count(), received.toString());
    }

    private void putPath(final String id, final long ce, final long ect, final long cnp) throws Exception {
        final var direction = new DataForwardBuilder().setComplete(true).setHop(List.of(
                new HopBuilder().setIndex(Uint16.ZERO).setNodeId(new NodeId("leaf1")).setObserved(true)
                    .setIngressTp(new TpId("swp1")).setEctPackets(Uint64.valueOf(ect)).setCePackets(Uint64.ZERO)
                    .build(),
                new HopBuilder().setIndex(Uint16.ONE).setNodeId(new NodeId("spine1")).setObserved(true)
                    .setIngressTp(new TpId("swp2")).setEctPackets(Uint64.valueOf(ect))
                    .setCePackets(Uint64.valueOf(ce)).setCnpPackets(Uint64.valueOf(cnp)).build()))
            .setCePackets(Uint64.valueOf(ce)).setCnpPackets(Uint64.valueOf(cnp))
            .setCeShare(Decimal64.valueOf(java.math.BigDecimal.valueOf(ce).divide(java.math.BigDecimal.valueOf(ect))
                .setScale(4)));
        if (ce > 0) {
            direction.setMarkedAt(new MarkedAtBuilder().setNodeId(new NodeId("leaf1")).setEgressTp(new TpId("swp7"))
                .setNextNodeId(new NodeId("spine1")).setNextIngressTp(new TpId("swp2")).setHopIndex(Uint16.ONE)
                .setCertain(true).build());
        }
        final Path path = new PathBuilder().setSessionId(id).setLearnedFrom(LearnedFrom.Data)
            .setDataForward(direction.build()).build();
        final var tx = getDataBroker().newWriteOnlyTransaction();
        tx.put(LogicalDatastoreType.OPERATIONAL, DataObjectIdentifier.builder(Rpt.class)
            .child(Path.class, new PathKey(id)).build(), path);
        tx.commit().get(5, TimeUnit.SECONDS);
    }

    private static Pfc pfc(final String tp, final int priority, final String share, final boolean paused) {
        return new PfcBuilder().setInterface(tp).setPriority(Uint8.valueOf(priority)).setTpId(new TpId(tp))
            .setPaused(paused).setPausedShare(Decimal64.valueOf(share)).setFrames(Uint64.TEN)
            .setPausedUs(Uint64.valueOf(1000)).build();
    }

    private void putPfc(final String node, final Pfc... entries) throws Exception {
        final var tx = getDataBroker().newWriteOnlyTransaction();
        tx.mergeParentStructurePut(LogicalDatastoreType.OPERATIONAL, DataObjectIdentifier.builder(Rft.class)
            .child(Switch.class, new SwitchKey(new NodeId(node))).child(AgentStatus.class).build(),
            new AgentStatusBuilder().setState(AgentState.CAPTURING).setPfc(BindingMap.ordered(List.of(entries)))
                .build());
        tx.commit().get(5, TimeUnit.SECONDS);
    }

    private void putHeldUp(final String node, final String tp, final int priority, final long count,
            final String... sessions) throws Exception {
        final var key = new PausedPortKey(new NodeId(node), Uint8.valueOf(priority), new TpId(tp));
        final var tx = getDataBroker().newWriteOnlyTransaction();
        tx.mergeParentStructurePut(LogicalDatastoreType.OPERATIONAL, DataObjectIdentifier.builder(Rpt.class)
            .child(PausedPort.class, key).build(), new PausedPortBuilder().withKey(key).setPaused(true)
                .setSessionCount(Uint32.valueOf(count)).setSession(java.util.Set.of(sessions)).build());
        tx.commit().get(5, TimeUnit.SECONDS);
    }

    /** One link, listed one way, in a configured topology. */
    private void putLink(final String srcNode, final String srcTp, final String dstNode, final String dstTp)
            throws Exception {
        final Link link = new LinkBuilder().setLinkId(new LinkId(srcNode + ":" + srcTp))
            .setSource(new SourceBuilder().setSourceNode(new NodeId(srcNode)).setSourceTp(new TpId(srcTp)).build())
            .setDestination(new DestinationBuilder().setDestNode(new NodeId(dstNode)).setDestTp(new TpId(dstTp))
                .build())
            .build();
        final var tx = getDataBroker().newWriteOnlyTransaction();
        tx.mergeParentStructurePut(LogicalDatastoreType.CONFIGURATION, DataObjectIdentifier.builder(
            NetworkTopology.class).child(Topology.class, new TopologyKey(new TopologyId("fabric"))).build(),
            new TopologyBuilder().setTopologyId(new TopologyId("fabric"))
                .setLink(List.of(link).stream().collect(Collectors.toMap(Link::key, l -> l))).build());
        tx.commit().get(5, TimeUnit.SECONDS);
    }

    private Problems read() throws Exception {
        try (var rtx = getDataBroker().newReadOnlyTransaction()) {
            return rtx.read(LogicalDatastoreType.OPERATIONAL, InsightWorker.PROBLEMS).get(5, TimeUnit.SECONDS)
                .orElseThrow();
        }
    }

    private Problems awaitProblems(final Predicate<Problems> condition) {
        // generous: the first recomputation pays the codec's and the JIT's warm-up on a busy machine
        return await("the problems match").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(50))
            .until(() -> {
                try (var rtx = getDataBroker().newReadOnlyTransaction()) {
                    return rtx.read(LogicalDatastoreType.OPERATIONAL, InsightWorker.PROBLEMS).get(5, TimeUnit.SECONDS);
                }
            }, last -> last.isPresent() && condition.test(last.orElseThrow())).orElseThrow();
    }

    private Problem awaitProblem(final Predicate<Problem> condition) {
        final var problems = awaitProblems(p -> p.nonnullProblem().values().stream().anyMatch(condition));
        return problems.nonnullProblem().values().stream().filter(condition).findFirst().orElseThrow();
    }

    private <N extends Notification<?>> N awaitNotification(final Class<N> type, final Predicate<N> condition) {
        return await("a " + type.getSimpleName() + " notification").atMost(Duration.ofSeconds(30))
            .pollInterval(Duration.ofMillis(50)).until(() -> received.stream().filter(type::isInstance)
                .map(type::cast).filter(condition).findFirst(), Optional::isPresent).orElseThrow();
    }

    /** The metrics as rendered once they contain {@code line}. */
    private String metricsOnceThey(final String line) {
        return await("the metrics show " + line.strip()).atMost(Duration.ofSeconds(30))
            .pollInterval(Duration.ofMillis(50)).until(() -> MetricsText.render(worker.snapshot(), now),
                text -> text.contains(line));
    }
}
