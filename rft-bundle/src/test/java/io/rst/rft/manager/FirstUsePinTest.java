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
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rst.rft.agent.Agent;
import io.rst.rft.agent.AgentCommand;
import io.rst.rft.agent.AgentOptions;
import io.rst.rft.agent.SelfMadeTls;
import io.rst.rft.pcap.CmTrafficGenerator;
import io.rst.rft.wire.TlsFiles;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.opendaylight.mdsal.binding.dom.adapter.test.AbstractConcurrentDataBrokerTest;
import org.opendaylight.mdsal.common.api.LogicalDatastoreType;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.Host;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.IpAddress;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.Ipv4Address;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.PortNumber;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.AgentAddressSource;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.AgentState;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.AgentStatus.TlsTrust;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft.Switch;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft.SwitchBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.netconf.node.topology.rev251103.NetconfNodeAugmentBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.netconf.node.topology.rev251103.netconf.node.augment.NetconfNodeBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.netconf.node.topology.rev251103.network.topology.topology.topology.types.TopologyNetconfBuilder;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.NetworkTopology;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.NodeId;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.TopologyId;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.network.topology.Topology;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.network.topology.TopologyBuilder;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.network.topology.TopologyKey;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.network.topology.topology.NodeBuilder;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.network.topology.topology.TopologyTypesBuilder;
import org.opendaylight.yangtools.binding.DataObjectIdentifier;
import org.opendaylight.yangtools.yang.common.Uint16;

/**
 * A switch of OpenDaylight's NETCONF inventory whose agent serves its self-made certificate: listed
 * ready to enable, followed once enabled alone (no agent-address, no transport, no fingerprint),
 * its certificate trusted on first use and its fingerprint pinned into the configuration datastore;
 * an agent with another certificate afterwards is UNTRUSTED, naming both. A real agent on
 * loopback, the RFT manager's worker with trust on first use, a real in-memory broker.
 */
public class FirstUsePinTest extends AbstractConcurrentDataBrokerTest {
    private static final String TOKEN = "first-use-token";
    private static final DataObjectIdentifier<Topology> NETCONF = DataObjectIdentifier.builder(NetworkTopology.class)
        .child(Topology.class, new TopologyKey(new TopologyId("topology-netconf"))).build();

    private Path dir;
    private int port;
    private Agent agent;
    private RftManager.Worker worker;
    private java.util.concurrent.ScheduledExecutorService executor;
    /** Whether the pinner writes at once rather than after the sessions are in. */
    private volatile boolean pinsAtOnce;

    @BeforeEach
    public void setUp() throws Exception {
        // the broker: the base class sets it up with JUnit 4's @Before, which Jupiter does not run
        setup();
        dir = Files.createTempDirectory("rst-first-use");
        Files.writeString(dir.resolve("token"), TOKEN + "\n");
        Files.setPosixFilePermissions(dir.resolve("token"), PosixFilePermissions.fromString("rw-------"));
        try (var socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        new CmTrafficGenerator(CmTrafficGenerator.Options.bench(20)).write(dir.resolve("leaf1.pcap"));
        agent = startAgent("state");
        executor = Executors.newSingleThreadScheduledExecutor();
        // the pin written once the follower has put the agent's sessions into the flow table (it may
        // come sooner, or later, in a controller): so that a restart of the follower would show
        final var pins = new FirstUsePins(getDataBroker());
        final AgentLinks.Pinner pinner = (node, fingerprint, at) -> java.util.concurrent.CompletableFuture.runAsync(
            () -> {
                await("the sessions before the pin").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20))
                    .until(() -> read(LogicalDatastoreType.OPERATIONAL).map(sw -> sw.nonnullSession().size())
                        .orElse(0) == 20 || pinsAtOnce);
                pins.pin(node, fingerprint, at);
            });
        final var links = new AgentLinks(null, null, null, executor, Duration.ofSeconds(2), true, pinner);
        worker = new RftManager.Worker(TestStores.of(this), true, new HttpAgentProbe(links, node -> TOKEN,
            Duration.ofSeconds(2)), Duration.ofMillis(200), executor, node -> TOKEN, Duration.ofSeconds(60), Set.of());
    }

    /** An agent with neither --tls-cert nor --plain-http: TLS with the certificate it makes in its state dir. */
    private Agent startAgent(final String state) throws Exception {
        final var options = AgentOptions.parse(List.of("--listen", "127.0.0.1:" + port, "--token-file",
            dir.resolve("token").toString(), "--state-dir", dir.resolve(state).toString(), "--replay",
            dir.resolve("leaf1.pcap").toString(), "--retention", "1000000000", "--agent-id", "leaf1"));
        final var started = new Agent(options, events -> AgentCommand.cmProcessor(options, events));
        started.start();
        return started;
    }

    @AfterEach
    public void tearDown() throws Exception {
        worker.close();
        agent.close();
        executor.shutdownNow();
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @Test
    public void enabledAloneItIsFollowedAndItsSelfMadeCertificatePinnedOnFirstUse() throws Exception {
        mountNetconfDevice("leaf1", "127.0.0.1");
        final var listed = awaitOper(sw -> state(sw) == AgentState.NOTCONFIGURED
            && sw.orElseThrow().getAgentStatus().getAgentAddress() != null).orElseThrow().getAgentStatus();
        assertTrue(listed.getDetail().startsWith("ready to enable: agent at 127.0.0.1 (NETCONF inventory: "),
            listed.getDetail());
        assertTrue(listed.getDetail().contains("set enabled true"), listed.getDetail());

        // the flow table of the switch as it changes: the controller's own pin restarts nothing, so
        // no session it wrote goes away for a moment
        final java.util.concurrent.atomic.AtomicInteger most = new java.util.concurrent.atomic.AtomicInteger();
        final java.util.concurrent.atomic.AtomicInteger fell = new java.util.concurrent.atomic.AtomicInteger();
        final var sessions = getDataBroker().registerTreeChangeListener(LogicalDatastoreType.OPERATIONAL,
            org.opendaylight.yangtools.binding.DataObjectReference.builder(
                org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.Rft.class).child(Switch.class)
                .build(), changes -> {
                    for (var change : changes) {
                        final var after = change.getRootNode().dataAfter();
                        final int now = after == null ? 0 : after.nonnullSession().size();
                        if (now < most.getAndAccumulate(now, Math::max)) {
                            fell.incrementAndGet();
                        }
                    }
                });

        // enabled, and nothing else (the port only because this test's agent listens on a free one)
        final var tx = getDataBroker().newWriteOnlyTransaction();
        tx.put(LogicalDatastoreType.CONFIGURATION, StatusWriter.switchPath("leaf1"), new SwitchBuilder()
            .setNodeId(new NodeId("leaf1")).setEnabled(true).setAgentPort(new PortNumber(Uint16.valueOf(port)))
            .build());
        tx.commit().get(5, TimeUnit.SECONDS);

        final var on = awaitOper(sw -> state(sw) == AgentState.CAPTURING
            && sw.orElseThrow().getAgentStatus().getTlsTrust() == TlsTrust.TrustOnFirstUse
            && sw.orElseThrow().nonnullSession().size() == 20).orElseThrow().getAgentStatus();
        assertTrue(on.getDetail().startsWith(AgentStatusTracker.CAPTURING_TLS), on.getDetail());
        assertEquals(agent.tlsFingerprint(), on.getTlsFingerprint());
        assertNotNull(on.getPinnedOnFirstUse(), "when it was pinned");
        assertEquals(AgentAddressSource.NetconfTopology, on.getAgentAddressSource());

        // the pin is in the configuration: persisted, for the operator to see (and remove to pin afresh)
        final Switch config = awaitConfig(sw -> sw.isPresent() && sw.orElseThrow().getAgentTlsFingerprint() != null)
            .orElseThrow();
        assertEquals(agent.tlsFingerprint(), config.getAgentTlsFingerprint());
        assertEquals(TlsFiles.normalizeFingerprint(agent.tlsFingerprint()),
            TlsFiles.normalizeFingerprint(config.getAgentTlsFirstUse().getFingerprint()));
        assertEquals(on.getPinnedOnFirstUse(), config.getAgentTlsFirstUse().getPinned());
        assertEquals(Boolean.TRUE, config.getEnabled(), "the rest of the configuration kept");
        assertNull(config.getAgentAddress());
        awaitOper(sw -> sw.orElseThrow().getAgentStatus().getPinnedOnFirstUse() != null
            && sw.orElseThrow().nonnullSession().size() == 20);
        sessions.close();
        assertEquals(20, most.get());
        assertEquals(0, fell.get(), "sessions went away while the certificate was pinned");

        // the agent comes back with another certificate: untrusted, the detail naming both
        final String pinned = agent.tlsFingerprint();
        agent.close();
        Files.delete(dir.resolve("state").resolve(SelfMadeTls.KEY_FILE));
        Files.delete(dir.resolve("state").resolve(SelfMadeTls.CERT_FILE));
        agent = startAgent("state");
        final String offered = agent.tlsFingerprint();
        final var untrusted = awaitOper(sw -> state(sw) == AgentState.UNTRUSTED).orElseThrow().getAgentStatus();
        assertTrue(untrusted.getDetail().contains(offered) && untrusted.getDetail().contains(pinned),
            untrusted.getDetail());
        assertEquals(offered, untrusted.getTlsFingerprint());
        final Switch still = awaitConfig(sw -> sw.isPresent()).orElseThrow();
        assertEquals(pinned, still.getAgentTlsFingerprint(), "the pin is not replaced");

        // the operator removes the pin: the new certificate is trusted on first use and pinned
        pinsAtOnce = true;
        final var unpin = getDataBroker().newWriteOnlyTransaction();
        unpin.put(LogicalDatastoreType.CONFIGURATION, StatusWriter.switchPath("leaf1"), new SwitchBuilder()
            .setNodeId(new NodeId("leaf1")).setEnabled(true).setAgentPort(new PortNumber(Uint16.valueOf(port)))
            .build());
        unpin.commit().get(5, TimeUnit.SECONDS);
        awaitOper(sw -> state(sw) == AgentState.CAPTURING
            && offered.equals(sw.orElseThrow().getAgentStatus().getTlsFingerprint())
            && sw.orElseThrow().getAgentStatus().getTlsTrust() == TlsTrust.TrustOnFirstUse);
        assertEquals(offered.toLowerCase(Locale.ROOT), awaitConfig(sw -> sw.isPresent()
            && sw.orElseThrow().getAgentTlsFingerprint() != null).orElseThrow().getAgentTlsFingerprint()
            .toLowerCase(Locale.ROOT));
    }

    private void mountNetconfDevice(final String nodeId, final String host) throws Exception {
        final var node = new NodeBuilder().setNodeId(new NodeId(nodeId)).addAugmentation(new NetconfNodeAugmentBuilder()
            .setNetconfNode(new NetconfNodeBuilder().setHost(new Host(new IpAddress(new Ipv4Address(host))))
                .setPort(new PortNumber(Uint16.valueOf(830))).setTcpOnly(false).build()).build()).build();
        final var tx = getDataBroker().newWriteOnlyTransaction();
        tx.mergeParentStructurePut(LogicalDatastoreType.CONFIGURATION, NETCONF, new TopologyBuilder()
            .setTopologyId(new TopologyId("topology-netconf"))
            .setTopologyTypes(new TopologyTypesBuilder().addAugmentation(new org.opendaylight.yang.gen.v1.urn
                .opendaylight.netconf.node.topology.rev251103.TopologyTypes1Builder()
                .setTopologyNetconf(new TopologyNetconfBuilder().build()).build()).build())
            .setNode(Map.of(node.key(), node)).build());
        tx.commit().get(5, TimeUnit.SECONDS);
    }

    private static AgentState state(final Optional<Switch> sw) {
        return sw.isPresent() && sw.orElseThrow().getAgentStatus() != null
            ? sw.orElseThrow().getAgentStatus().getState() : null;
    }

    private Optional<Switch> awaitOper(final Predicate<Optional<Switch>> condition) throws Exception {
        return await("switch leaf1 reaches the expected state").atMost(Duration.ofSeconds(30))
            .pollInterval(Duration.ofMillis(50)).until(() -> read(LogicalDatastoreType.OPERATIONAL), condition);
    }

    private Optional<Switch> awaitConfig(final Predicate<Optional<Switch>> condition) throws Exception {
        return await("switch leaf1's configuration").atMost(Duration.ofSeconds(30))
            .pollInterval(Duration.ofMillis(50)).until(() -> read(LogicalDatastoreType.CONFIGURATION), condition);
    }

    private Optional<Switch> read(final LogicalDatastoreType store) throws Exception {
        try (var tx = getDataBroker().newReadOnlyTransaction()) {
            return tx.read(store, StatusWriter.switchPath("leaf1")).get(5, TimeUnit.SECONDS);
        }
    }
}
