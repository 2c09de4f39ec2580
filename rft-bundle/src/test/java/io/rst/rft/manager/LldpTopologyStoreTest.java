/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.manager;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.opendaylight.mdsal.binding.dom.adapter.test.AbstractConcurrentDataBrokerTest;
import org.opendaylight.mdsal.common.api.LogicalDatastoreType;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.Host;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.IpAddress;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.Ipv4Address;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.PortNumber;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft.SwitchBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.topology.rev261201.RstNodeAttributes;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.NodeId;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.network.topology.Topology;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.network.topology.topology.NodeKey;
import org.opendaylight.yangtools.yang.common.Uint16;

/**
 * The LLDP topology through the datastore: the RFT manager's worker probes two agents (a probe
 * that answers with LLDP neighbours), writes their agent status with the neighbours and interface
 * MACs, and the LLDP topology service, owning its singleton, writes rst-lldp from them; when one
 * agent stops hearing its neighbour, the links go.
 */
public class LldpTopologyStoreTest extends AbstractConcurrentDataBrokerTest {
    /** What each switch's agent answers now. */
    private final Map<String, AgentProbe.Lldp> answers = new ConcurrentHashMap<>();

    @BeforeEach
    public void setUpBroker() throws Exception {
        setup();
    }

    private final AgentProbe probe = new AgentProbe() {
        @Override
        public CompletionStage<Result> probe(final String nodeId, final String host, final int port) {
            return CompletableFuture.completedFuture(new Result.Answered(true, "test", 0, false, 0, 0, null, null,
                answers.get(nodeId)));
        }

        @Override
        public CompletionStage<Result> capture(final String nodeId, final String host, final int port,
                final boolean on) {
            return probe(nodeId, host, port);
        }
    };

    private static AgentProbe.Lldp lldp(final String agent, final String mac, final AgentProbe.Neighbour... heard) {
        return new AgentProbe.Lldp(agent, Map.of("swp1", Optional.of(mac)), List.of(heard), 0);
    }

    /** A neighbour that sends lldpd's defaults: its chassis MAC, its port's MAC, the port's name as description. */
    private static AgentProbe.Neighbour heard(final String mac, final String description) {
        return new AgentProbe.Neighbour("swp1", mac, "mac_address", mac, "mac_address", description, "some-name",
            List.of(), List.of("bridge"), List.of("bridge"), 120, 1, "2026-12-01T09:00:00Z");
    }

    @Test
    public void theAgentsNeighboursBecomeTheTopologyAndGoWithThem() throws Exception {
        answers.put("leaf1", lldp("leaf1", "02:00:00:00:01:01", heard("02:00:00:00:0a:01", "swp1")));
        answers.put("spine1", lldp("spine1", "02:00:00:00:0a:01", heard("02:00:00:00:01:01", "swp1")));
        final var executor = Executors.newSingleThreadScheduledExecutor();
        final ClusterSingletonServiceProviderStub singletons = new ClusterSingletonServiceProviderStub();
        try (var worker = new RftManager.Worker(TestStores.of(this), probe, Duration.ofMillis(300), executor,
                node -> "", Duration.ofMinutes(10), Set.of());
             var service = new LldpTopologyService(getDataBroker(), singletons, true)) {
            putSwitch("leaf1");
            putSwitch("spine1");
            final Topology topology = awaitTopology(t -> t.nonnullLink().size() == 2);
            final var link = topology.nonnullLink().values().stream().filter(l -> l.getLinkId().getValue()
                .equals("leaf1:swp1")).findFirst().orElseThrow();
            assertEquals("spine1", link.getDestination().getDestNode().getValue());
            assertEquals("swp1", link.getDestination().getDestTp().getValue());
            final var node = topology.nonnullNode().get(new NodeKey(new NodeId("spine1")));
            assertEquals(RstNodeAttributes.NodeKind.Switch, node.augmentation(RstNodeAttributes.class).getNodeKind());
            // the status the topology was drawn from
            try (var tx = getDataBroker().newReadOnlyTransaction()) {
                final var status = tx.read(LogicalDatastoreType.OPERATIONAL, StatusWriter.switchPath("leaf1"))
                    .get(5, TimeUnit.SECONDS).orElseThrow().getAgentStatus();
                assertEquals("leaf1", status.getAgentId());
                assertEquals("02:00:00:00:01:01", status.nonnullInterface().values().iterator().next().getMac()
                    .getValue());
                final var neighbour = status.nonnullLldpNeighbour().values().iterator().next();
                assertEquals("02:00:00:00:0a:01", neighbour.getChassisId());
                assertEquals(Uint16.valueOf(120), neighbour.getTtl());
                assertEquals(Set.of("bridge"), neighbour.getEnabledCapabilities());
            }
            // leaf1's agent forgets spine1 (its TTL passed): the link goes both ways
            answers.put("leaf1", lldp("leaf1", "02:00:00:00:01:01"));
            answers.put("spine1", lldp("spine1", "02:00:00:00:0a:01"));
            final Topology after = awaitTopology(t -> t.nonnullLink().isEmpty());
            assertTrue(after.nonnullNode().isEmpty(), after.toString());
        } finally {
            executor.shutdownNow();
        }
    }

    /** A singleton provider of a controller alone: the service is instantiated at once. */
    private static final class ClusterSingletonServiceProviderStub
            implements org.opendaylight.mdsal.singleton.api.ClusterSingletonServiceProvider {
        @Override
        public org.opendaylight.yangtools.concepts.Registration registerClusterSingletonService(
                final org.opendaylight.mdsal.singleton.api.ClusterSingletonService service) {
            service.instantiateServiceInstance();
            return () -> service.closeServiceInstance();
        }
    }

    private Topology awaitTopology(final java.util.function.Predicate<Topology> condition) {
        return await("rst-lldp matches").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
            .until(() -> {
                try (var tx = getDataBroker().newReadOnlyTransaction()) {
                    return tx.read(LogicalDatastoreType.OPERATIONAL, LldpTopologyService.TOPOLOGY).get(5,
                        TimeUnit.SECONDS);
                }
            }, t -> t.isPresent() && condition.test(t.orElseThrow())).orElseThrow();
    }

    private void putSwitch(final String nodeId) throws Exception {
        final var sw = new SwitchBuilder().setNodeId(new NodeId(nodeId)).setEnabled(true)
            .setAgentPort(new PortNumber(Uint16.valueOf(9)))
            .setAgentAddress(new Host(new IpAddress(new Ipv4Address("127.0.0.1")))).build();
        final var tx = getDataBroker().newWriteOnlyTransaction();
        tx.mergeParentStructurePut(LogicalDatastoreType.CONFIGURATION, StatusWriter.switchPath(nodeId), sw);
        tx.commit().get(5, TimeUnit.SECONDS);
    }
}
