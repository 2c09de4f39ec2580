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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
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
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.AgentState;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.AgentTransport;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201._switch.config.PortMapBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.agent.status.PfcKey;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft.Switch;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft.SwitchBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.AgentStatus;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.topology.rev261201.RstNodeAttributes;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.topology.rev261201.RstNodeAttributesBuilder;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.NetworkTopology;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.NodeId;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.TopologyId;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.TpId;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.network.topology.Topology;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.network.topology.TopologyBuilder;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.network.topology.TopologyKey;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.network.topology.topology.Node;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.network.topology.topology.NodeBuilder;
import org.opendaylight.yangtools.binding.DataObjectIdentifier;
import org.opendaylight.yangtools.binding.util.BindingMap;
import org.opendaylight.yangtools.yang.common.Decimal64;
import org.opendaylight.yangtools.yang.common.Uint16;
import org.opendaylight.yangtools.yang.common.Uint32;
import org.opendaylight.yangtools.yang.common.Uint64;
import org.opendaylight.yangtools.yang.common.Uint8;

/**
 * The RFT manager's worker against a real in-memory MD-SAL broker and a real HTTP agent stand-in
 * on loopback: configuration in, agent status out.
 */
public class RftManagerWorkerTest extends AbstractConcurrentDataBrokerTest {
    private static final String TOKEN = "s3cret-token";

    private HttpServer agent;
    private RftManager.Worker worker;
    private volatile boolean capturing = true;
    private final AtomicLong statusCalls = new AtomicLong();

    /**
     * The agent's CNP and PFC figures at its {@code call}th status: swp1 priority 3 paused 1,000 s
     * more each time (longer than any probe interval), swp2 priority 0 paused 5 us once.
     */
    private static String congestion(final long call) {
        return ",\"counters\":{\"cnps\":" + 7 * call + ",\"cnp_unmatched\":1,\"pfc_frames\":" + (call + 1)
            + ",\"pfc_untabled\":0},\"pfc\":[{\"interface\":\"swp1\",\"priority\":3,\"frames\":" + call
            + ",\"xon\":0,\"quanta\":" + 65535 * call + ",\"paused_us\":" + call * 1_000_000_000L
            + ",\"paused\":true,\"last\":\"2026-12-01T09:30:00.004100Z\",\"link_speed_mbps\":100000},"
            + "{\"interface\":\"swp2\",\"priority\":0,\"frames\":1,\"xon\":1,\"quanta\":0,\"paused_us\":5,"
            + "\"paused\":false,\"last\":\"2026-12-01T09:29:00.000000Z\",\"link_speed_mbps\":25000}]";
    }

    @BeforeEach
    public void startAgentAndWorker() throws Exception {
        // the broker: the base class sets it up with JUnit 4's @Before, which Jupiter does not run
        setup();
        agent = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        agent.createContext("/v1/status", exchange -> {
            final boolean ok = ("Bearer " + TOKEN).equals(exchange.getRequestHeaders().getFirst("Authorization"));
            final byte[] body = (ok ? "{\"capturing\":" + capturing + ",\"version\":\"test-1\",\"last_seq\":42"
                + congestion(statusCalls.incrementAndGet()) + "}" : "{\"error\":\"bad token\"}")
                .getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(ok ? 200 : 401, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        // the follower's snapshot: last-event-seq is the last event the controller applied
        agent.createContext("/v1/sessions", exchange -> {
            final boolean ok = ("Bearer " + TOKEN).equals(exchange.getRequestHeaders().getFirst("Authorization"));
            final byte[] body = (ok ? "{\"seq\":42,\"instance\":\"test\",\"sessions\":[]}"
                : "{\"error\":\"bad token\"}").getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(ok ? 200 : 401, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        agent.start();
        final var executor = Executors.newSingleThreadScheduledExecutor();
        worker = new RftManager.Worker(TestStores.of(this),
            new HttpAgentProbe(executor, node -> TOKEN, Duration.ofSeconds(2)), Duration.ofMillis(200), executor,
            node -> TOKEN, Duration.ofSeconds(60));
    }

    @AfterEach
    public void stop() {
        worker.close();
        agent.stop(0);
    }

    @Test
    public void statusFollowsConfigurationAndAgent() throws Exception {
        putSwitch("leaf-off", null, 4791, false);
        putSwitch("leaf-noaddr", null, 4791, true);
        putSwitch("leaf-up", "127.0.0.1", agent.getAddress().getPort(), true);
        putSwitch("leaf-down", "127.0.0.1", closedPort(), true);

        awaitState("leaf-off", AgentState.DISABLED);
        awaitState("leaf-noaddr", AgentState.NOADDRESS);
        final var up = awaitState("leaf-up", AgentState.CAPTURING);
        assertEquals("test-1", up.getAgentStatus().getAgentVersion());
        // written at the next poll after the follower applied the snapshot at seq 42
        assertEquals(42L, awaitStatus("leaf-up", s -> s.getLastEventSeq() != null
            && s.getLastEventSeq().longValue() == 42).getLastEventSeq().longValue());
        assertNotNull(up.getAgentStatus().getLastContact());
        final var down = awaitState("leaf-down", AgentState.UNREACHABLE);
        assertFalse(down.getAgentStatus().getDetail().isEmpty());

        capturing = false;
        awaitState("leaf-up", AgentState.STOPPED);

        // turning RFT off stops the probing and says so
        putSwitch("leaf-up", "127.0.0.1", agent.getAddress().getPort(), false);
        awaitState("leaf-up", AgentState.DISABLED);

        // removing the switch removes its state
        final var tx = getDataBroker().newWriteOnlyTransaction();
        tx.delete(LogicalDatastoreType.CONFIGURATION, StatusWriter.switchPath("leaf-down"));
        tx.commit().get(5, TimeUnit.SECONDS);
        awaitOper("leaf-down", Optional::isEmpty);
    }

    @Test
    public void theTopologysSwitchesAreListedNotConfiguredUntilConfigured() throws Exception {
        final var tx = getDataBroker().newWriteOnlyTransaction();
        final var nodes = new java.util.ArrayList<Node>();
        nodes.add(new NodeBuilder().setNodeId(new NodeId("spine9")).addAugmentation(new RstNodeAttributesBuilder()
            .setNodeKind(RstNodeAttributes.NodeKind.Switch).build()).build());
        // no node-kind: a switch unless it looks like a host
        nodes.add(new NodeBuilder().setNodeId(new NodeId("openflow:7")).build());
        nodes.add(new NodeBuilder().setNodeId(new NodeId("host:02:00:00:00:00:01")).build());
        nodes.add(new NodeBuilder().setNodeId(new NodeId("h9")).addAugmentation(new RstNodeAttributesBuilder()
            .setNodeKind(RstNodeAttributes.NodeKind.Host).build()).build());
        final var topology = DataObjectIdentifier.builder(NetworkTopology.class)
            .child(Topology.class, new TopologyKey(new TopologyId("fabric"))).build();
        tx.mergeParentStructurePut(LogicalDatastoreType.OPERATIONAL, topology, new TopologyBuilder()
            .setTopologyId(new TopologyId("fabric"))
            .setNode(nodes.stream().collect(java.util.stream.Collectors.toMap(Node::key, n -> n))).build());
        tx.commit().get(5, TimeUnit.SECONDS);

        final var spine = awaitState("spine9", AgentState.NOTCONFIGURED);
        assertTrue(spine.getAgentStatus().getDetail().contains("fabric"), spine.getAgentStatus().getDetail());
        awaitState("openflow:7", AgentState.NOTCONFIGURED);
        awaitOper("h9", Optional::isEmpty);
        awaitOper("host:02:00:00:00:00:01", Optional::isEmpty);

        // configured: its real state; its configuration removed: listed again
        putSwitch("spine9", "127.0.0.1", agent.getAddress().getPort(), true);
        awaitState("spine9", AgentState.CAPTURING);
        final var del = getDataBroker().newWriteOnlyTransaction();
        del.delete(LogicalDatastoreType.CONFIGURATION, StatusWriter.switchPath("spine9"));
        del.commit().get(5, TimeUnit.SECONDS);
        awaitState("spine9", AgentState.NOTCONFIGURED);

        // gone from the topology: gone from the list
        final var gone = getDataBroker().newWriteOnlyTransaction();
        gone.delete(LogicalDatastoreType.OPERATIONAL, topology);
        gone.commit().get(5, TimeUnit.SECONDS);
        awaitOper("spine9", Optional::isEmpty);
        awaitOper("openflow:7", Optional::isEmpty);
    }

    @Test
    public void theStatusCarriesTheAgentsPfcFiguresAndTheShareOfEachProbeIntervalPaused() throws Exception {
        final var tx = getDataBroker().newWriteOnlyTransaction();
        tx.mergeParentStructurePut(LogicalDatastoreType.CONFIGURATION, StatusWriter.switchPath("leaf-pfc"),
            new SwitchBuilder().setNodeId(new NodeId("leaf-pfc")).setEnabled(true)
                .setAgentAddress(new Host(new IpAddress(new Ipv4Address("127.0.0.1"))))
                .setAgentPort(new PortNumber(Uint16.valueOf(agent.getAddress().getPort())))
                .setPortMap(BindingMap.of(new PortMapBuilder().setInterface("swp1").setTpId(new TpId("leaf-pfc:1"))
                    .build())).build());
        tx.commit().get(5, TimeUnit.SECONDS);
        // from the second probe on, each priority has its share of the interval between the last two
        final var status = awaitStatus("leaf-pfc", s -> s.getPfc() != null && s.getPfc().size() == 2
            && s.getPfc().values().stream().allMatch(p -> p.getPausedShare() != null));
        final var paused = status.getPfc().get(new PfcKey("swp1", Uint8.valueOf(3)));
        assertEquals("leaf-pfc:1", paused.getTpId().getValue());
        assertEquals(Decimal64.of(4, 10_000), paused.getPausedShare());
        assertEquals(Boolean.TRUE, paused.getPaused());
        assertEquals(Uint32.valueOf(100_000), paused.getLinkSpeedMbps());
        assertEquals(paused.getFrames().longValue() * 1_000_000_000L, paused.getPausedUs().longValue());
        final var quiet = status.getPfc().get(new PfcKey("swp2", Uint8.valueOf(0)));
        assertEquals("swp2", quiet.getTpId().getValue());
        assertEquals(Decimal64.of(4, 0), quiet.getPausedShare());
        assertEquals(Uint64.valueOf(5), quiet.getPausedUs());
        assertEquals("2026-12-01T09:29:00.000000Z", quiet.getLast().getValue());
        assertEquals(Uint64.valueOf(1), status.getCnpUnmatched());
        assertEquals(0, status.getCnps().longValue() % 7);
        assertEquals(paused.getFrames().longValue() + 1, status.getPfcFrames().longValue());
        assertEquals(Uint64.ZERO, status.getPfcUntabled());
        assertEquals(null, status.getPfcSkipped());
    }

    @Test
    public void wrongTokenIsUnauthorized() throws Exception {
        worker.close();
        final var executor = Executors.newSingleThreadScheduledExecutor();
        worker = new RftManager.Worker(TestStores.of(this),
            new HttpAgentProbe(executor, node -> "wrong", Duration.ofSeconds(2)), Duration.ofMillis(200), executor,
            node -> "wrong", Duration.ofSeconds(60));
        putSwitch("leaf-x", "127.0.0.1", agent.getAddress().getPort(), true);
        final var sw = awaitState("leaf-x", AgentState.UNAUTHORIZED);
        assertTrue(sw.getAgentStatus().getDetail().contains("401"));
    }

    @Test
    public void plainHttpAgentIsFollowedWithTheStatusSayingSoUnlessTlsIsRequired() throws Exception {
        // the transport not configured: TLS first, then plain HTTP, and the status says it is not encrypted
        putSwitch("leaf-plain", "127.0.0.1", agent.getAddress().getPort(), true);
        final var plain = awaitState("leaf-plain", AgentState.CAPTURING);
        assertEquals("plain HTTP: not encrypted", plain.getAgentStatus().getDetail());

        // TLS required: an agent answering plain HTTP is not trusted
        final var tx = getDataBroker().newWriteOnlyTransaction();
        tx.mergeParentStructurePut(LogicalDatastoreType.CONFIGURATION, StatusWriter.switchPath("leaf-tls"),
            new SwitchBuilder().setNodeId(new NodeId("leaf-tls")).setEnabled(true)
                .setAgentAddress(new Host(new IpAddress(new Ipv4Address("127.0.0.1"))))
                .setAgentPort(new PortNumber(Uint16.valueOf(agent.getAddress().getPort())))
                .setAgentTransport(AgentTransport.Tls).build());
        tx.commit().get(5, TimeUnit.SECONDS);
        final var untrusted = awaitState("leaf-tls", AgentState.UNTRUSTED);
        assertTrue(untrusted.getAgentStatus().getDetail().contains("plain HTTP where TLS is expected"),
            untrusted.getAgentStatus().getDetail());
    }

    private void putSwitch(final String nodeId, final String address, final int port, final boolean enabled)
            throws Exception {
        final var builder = new SwitchBuilder().setNodeId(new NodeId(nodeId)).setEnabled(enabled)
            .setAgentPort(new PortNumber(Uint16.valueOf(port)));
        if (address != null) {
            builder.setAgentAddress(new Host(new IpAddress(new Ipv4Address(address))));
        }
        final var tx = getDataBroker().newWriteOnlyTransaction();
        tx.mergeParentStructurePut(LogicalDatastoreType.CONFIGURATION, StatusWriter.switchPath(nodeId),
            builder.build());
        tx.commit().get(5, TimeUnit.SECONDS);
    }

    private Switch awaitState(final String nodeId, final AgentState state) throws Exception {
        return awaitOper(nodeId, sw -> sw.isPresent() && sw.orElseThrow().getAgentStatus() != null
            && sw.orElseThrow().getAgentStatus().getState() == state).orElseThrow();
    }

    private AgentStatus awaitStatus(final String nodeId, final Predicate<AgentStatus> condition) throws Exception {
        return awaitOper(nodeId, sw -> sw.isPresent() && sw.orElseThrow().getAgentStatus() != null
            && condition.test(sw.orElseThrow().getAgentStatus())).orElseThrow().getAgentStatus();
    }

    private Optional<Switch> awaitOper(final String nodeId, final Predicate<Optional<Switch>> condition)
            throws Exception {
        return await("switch " + nodeId + " reaches the expected state").atMost(Duration.ofSeconds(10))
            .pollInterval(Duration.ofMillis(50)).until(() -> {
                try (var tx = getDataBroker().newReadOnlyTransaction()) {
                    return tx.read(LogicalDatastoreType.OPERATIONAL, StatusWriter.switchPath(nodeId))
                        .get(5, TimeUnit.SECONDS);
                }
            }, condition);
    }

    private static int closedPort() throws Exception {
        try (var socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
