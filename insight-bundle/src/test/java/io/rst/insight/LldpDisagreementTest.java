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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.opendaylight.mdsal.binding.api.NotificationService;
import org.opendaylight.mdsal.binding.dom.adapter.test.AbstractConcurrentDataBrokerTest;
import org.opendaylight.mdsal.common.api.LogicalDatastoreType;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.insight.rev261201.LldpDisagreement;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.insight.rev261201.ProblemKind;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.insight.rev261201.Severity;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.insight.rev261201.problems.Problem;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.topology.rev261201.RstLldpTopologyAttributesBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.topology.rev261201.rst.lldp.topology.attributes.LldpDisagreementBuilder;
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
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.network.topology.topology.LinkBuilder;
import org.opendaylight.yangtools.binding.DataObjectIdentifier;
import org.opendaylight.yangtools.binding.Notification;
import org.opendaylight.yangtools.binding.util.BindingMap;
import org.opendaylight.yangtools.concepts.Registration;

/**
 * The LLDP disagreements the controller lists with the topology rst-lldp, as problems: placed at
 * both ends, said in words, announced once, counted with the topology's links in the metrics;
 * gone when the topology no longer lists them.
 */
public class LldpDisagreementTest extends AbstractConcurrentDataBrokerTest {
    private static final DataObjectIdentifier<Topology> LLDP = DataObjectIdentifier.builder(NetworkTopology.class)
        .child(Topology.class, new TopologyKey(new TopologyId("rst-lldp"))).build();

    private final List<Notification<?>> received = new CopyOnWriteArrayList<>();
    private final List<Registration> subscriptions = new ArrayList<>();
    private ScheduledExecutorService executor;
    private InsightWorker worker;
    private double now;

    @BeforeEach
    public void startWorker() throws Exception {
        setup();
        final var customizer = getDataBrokerTestCustomizer();
        customizer.updateSchema(getRuntimeContext());
        final NotificationService subscriber = customizer.createNotificationService();
        subscriptions.add(subscriber.registerListener(LldpDisagreement.class, received::add, Runnable::run));
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
    public void theDetectorPlacesADisagreementAtBothEnds() {
        final var index = new FabricIndex();
        index.lldp(List.of(new FabricIndex.LldpDisagreement("leaf1:swp1->spine1:swp1", "mismatch",
            new io.rst.insight.Problem.Place("leaf1", "swp1"), new io.rst.insight.Problem.Place("spine1", "swp1"),
            "leaf2:swp3", "leaf1:swp1 says its neighbour is spine1:swp1, but spine1's agent hears leaf2:swp3 on"
                + " swp1: the link is left out")), 4);
        final var problems = new ProblemDetector(ProblemDetector.Options.DEFAULTS).detect(index, 0);
        assertEquals(1, problems.size(), problems.toString());
        final var p = problems.get(0);
        assertEquals(ProblemKind.LldpDisagreement, p.kind());
        assertEquals(Severity.Warning, p.severity());
        assertEquals("lldp-disagreement|leaf1|swp1|spine1|swp1", p.id());
        assertEquals("LLDP disagreement: leaf1 port swp1 <-> spine1 port swp1", p.title());
        assertEquals("leaf1", p.node());
        assertEquals("swp1", p.tp());
        assertEquals(new io.rst.insight.Problem.Place("spine1", "swp1"), p.peer());
        assertEquals(List.of(new io.rst.insight.Problem.Place("leaf1", "swp1"),
            new io.rst.insight.Problem.Place("spine1", "swp1")), p.places());
        assertEquals("mismatch", p.reason());
        assertTrue(p.detail().startsWith("leaf1:swp1 says its neighbour is spine1:swp1"), p.detail());
        assertTrue(p.detail().endsWith("(the far end's agent hears leaf2:swp3 on swp1)"), p.detail());
        // per switch and per port counts take both ends
        final var summary = ProblemSummary.of(problems);
        assertEquals(1L, summary.byPort().get(new io.rst.insight.Problem.Place("spine1", "swp1"))
            .get(ProblemKind.LldpDisagreement));
        assertEquals(1L, summary.byPort().get(new io.rst.insight.Problem.Place("leaf1", "swp1"))
            .get(ProblemKind.LldpDisagreement));
        assertEquals(1L, summary.bySwitch().get("spine1").get(ProblemKind.LldpDisagreement));
    }

    @Test
    public void theTopologysDisagreementsAreProblemsNotifiedOnceAndCounted() throws Exception {
        putTopology(true);
        final var problem = awaitProblem(p -> p.getKind() == ProblemKind.LldpDisagreement);
        assertEquals("leaf1", problem.getNodeId());
        assertEquals("swp1", problem.getTpId());
        assertEquals("spine1", problem.getPeerNodeId());
        assertEquals("swp1", problem.getPeerTpId());
        assertEquals("claimed-twice", problem.getReason());
        assertTrue(problem.getDetail().contains("leaf2:swp1"), problem.getDetail());
        final var notified = awaitNotification(LldpDisagreement.class, n -> n.getProblemId().equals(problem.getId()));
        assertEquals("leaf1", notified.getNodeId());
        assertEquals("spine1", notified.getPeerNodeId());
        assertEquals("swp1", notified.getPeerTpId());
        assertEquals("claimed-twice", notified.getDisagreement());
        final var text = metricsOnceThey("rst_lldp_disagreements 1\n");
        assertTrue(text.contains("rst_lldp_links 2\n"), text);
        assertTrue(text.contains("rst_problems{kind=\"lldp-disagreement\"} 1\n"), text);

        // written again the same: not announced again; then resolved: the problem goes
        putTopology(true);
        putTopology(false);
        awaitProblems(p -> p.nonnullProblem().values().stream().noneMatch(x -> x.getKind()
            == ProblemKind.LldpDisagreement));
        metricsOnceThey("rst_lldp_disagreements 0\n");
        assertEquals(1, received.size(), received.toString());
    }

    private void putTopology(final boolean disagreeing) throws Exception {
        final var builder = new TopologyBuilder().setTopologyId(new TopologyId("rst-lldp"))
            .setLink(BindingMap.of(link("leaf3", "swp1", "spine1", "swp2"), link("spine1", "swp2", "leaf3", "swp1")));
        if (disagreeing) {
            builder.addAugmentation(new RstLldpTopologyAttributesBuilder().setLldpDisagreement(BindingMap.of(
                new LldpDisagreementBuilder().setId("leaf1:swp1->spine1:swp1")
                    .setKind(org.opendaylight.yang.gen.v1.urn.io.rst.rst.topology.rev261201.rst.lldp.topology
                        .attributes.LldpDisagreement.Kind.ClaimedTwice)
                    .setNodeId(new NodeId("leaf1")).setTpId(new TpId("swp1")).setSays("spine1:swp1")
                    .setPeerNodeId(new NodeId("spine1")).setPeerTpId(new TpId("swp1")).setPeerSays("leaf2:swp1")
                    .setDetail("leaf1:swp1 says its neighbour is spine1:swp1, but spine1:swp1 is linked to leaf2:swp1"
                        + " too by the neighbours heard: the links are left out").build())).build());
        }
        final var tx = getDataBroker().newWriteOnlyTransaction();
        tx.mergeParentStructurePut(LogicalDatastoreType.OPERATIONAL, LLDP, builder.build());
        tx.commit().get(10, TimeUnit.SECONDS);
    }

    private static org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.network.topology
            .topology.Link link(final String src, final String srcTp, final String dst, final String dstTp) {
        return new LinkBuilder().setLinkId(new LinkId(src + ":" + srcTp))
            .setSource(new SourceBuilder().setSourceNode(new NodeId(src)).setSourceTp(new TpId(srcTp)).build())
            .setDestination(new DestinationBuilder().setDestNode(new NodeId(dst)).setDestTp(new TpId(dstTp)).build())
            .build();
    }

    private org.opendaylight.yang.gen.v1.urn.io.rst.rst.insight.rev261201.Problems awaitProblems(
            final Predicate<org.opendaylight.yang.gen.v1.urn.io.rst.rst.insight.rev261201.Problems> condition) {
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

    private String metricsOnceThey(final String line) {
        return await("the metrics show " + line.strip()).atMost(Duration.ofSeconds(30))
            .pollInterval(Duration.ofMillis(50)).until(() -> MetricsText.render(worker.snapshot(), now),
                text -> text.contains(line));
    }
}
