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
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rst.rft.agent.Agent;
import io.rst.rft.agent.AgentCommand;
import io.rst.rft.agent.AgentOptions;
import io.rst.rft.pcap.CmTrafficGenerator;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
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
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.AgentTransport;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201._switch.config.PortMapBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft.Switch;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft.SwitchBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.netconf.node.topology.rev251103.NetconfNodeAugmentBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.netconf.node.topology.rev251103.netconf.node.augment.NetconfNodeBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.netconf.node.topology.rev251103.network.topology.topology.topology.types.TopologyNetconfBuilder;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.NetworkTopology;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.NodeId;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.TopologyId;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.TpId;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.network.topology.Topology;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.network.topology.TopologyBuilder;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.network.topology.TopologyKey;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.network.topology.topology.NodeBuilder;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.network.topology.topology.TopologyTypesBuilder;
import org.opendaylight.yangtools.binding.DataObjectIdentifier;
import org.opendaylight.yangtools.yang.common.Uint16;

/**
 * Switches configured without an agent address take the host of the NETCONF-mounted device of the
 * same node-id (written with NETCONF's own netconf-node-topology model, as its southbound does),
 * and say so in their status; a switch's port-map names the ports its agent reports by their
 * tp-ids. A real agent on loopback, the RFT manager's worker, a real in-memory broker.
 */
public class InventoryAddressTest extends AbstractConcurrentDataBrokerTest {
    private static final String TOKEN = "inventory-token";
    private static final DataObjectIdentifier<Topology> NETCONF = DataObjectIdentifier.builder(NetworkTopology.class)
        .child(Topology.class, new TopologyKey(new TopologyId("topology-netconf"))).build();

    private Path dir;
    private int port;
    private Agent agent;
    private RftManager.Worker worker;

    @BeforeEach
    public void setUp() throws Exception {
        // the broker: the base class sets it up with JUnit 4's @Before, which Jupiter does not run
        setup();
        dir = Files.createTempDirectory("rst-inventory");
        Files.writeString(dir.resolve("token"), TOKEN + "\n");
        Files.setPosixFilePermissions(dir.resolve("token"), PosixFilePermissions.fromString("rw-------"));
        try (var socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        final Path pcap = dir.resolve("leaf1.pcap");
        new CmTrafficGenerator(CmTrafficGenerator.Options.bench(20)).write(pcap);
        final var options = AgentOptions.parse(List.of("--listen", "127.0.0.1:" + port, "--token-file",
            dir.resolve("token").toString(), "--state-dir", dir.resolve("state").toString(), "--plain-http",
            "--replay", "Ethernet1/7=" + pcap, "--retention", "1000000000", "--agent-id", "leaf1"));
        agent = new Agent(options, events -> AgentCommand.cmProcessor(options, events));
        agent.start();
        final var executor = Executors.newSingleThreadScheduledExecutor();
        worker = new RftManager.Worker(TestStores.of(this), true,
            new HttpAgentProbe(executor, node -> TOKEN, Duration.ofSeconds(2)), Duration.ofMillis(200), executor,
            node -> TOKEN, Duration.ofSeconds(60), Set.of());
    }

    @AfterEach
    public void tearDown() throws Exception {
        worker.close();
        agent.close();
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @Test
    public void aNetconfDevicesHostIsTheDefaultAgentAddressAndThePortMapNamesItsPorts() throws Exception {
        mountNetconfDevice("leaf1", "127.0.0.1");

        // listed before it is configured, with the address it would take
        final var listed = awaitOper(sw -> state(sw) == AgentState.NOTCONFIGURED
            && sw.orElseThrow().getAgentStatus().getAgentAddress() != null).orElseThrow().getAgentStatus();
        assertEquals("127.0.0.1", listed.getAgentAddress().stringValue());
        assertEquals(AgentAddressSource.NetconfTopology, listed.getAgentAddressSource());
        assertEquals("ready to enable: agent at 127.0.0.1 (NETCONF inventory: the host of NETCONF device leaf1 in"
            + " network-topology topology-netconf); set enabled true in rdma-flow-table:rft (configuration) to trace"
            + " it, no agent-address needed", listed.getDetail());

        // turned on without an agent-address: followed at the NETCONF host, its port named by the map
        configure(null, Map.of("Ethernet1/7", "swp7"));
        final var on = awaitOper(sw -> state(sw) == AgentState.CAPTURING
            && sw.orElseThrow().nonnullSession().size() == 20).orElseThrow();
        assertEquals("127.0.0.1", on.getAgentStatus().getAgentAddress().stringValue());
        assertEquals(AgentAddressSource.NetconfTopology, on.getAgentStatus().getAgentAddressSource());
        for (var session : on.nonnullSession().values()) {
            for (var message : session.nonnullMessage()) {
                assertEquals("swp7", message.getIngressTp().getValue());
            }
        }

        // the device moves: so does the agent address (nothing answers there)
        mountNetconfDevice("leaf1", "127.0.0.9");
        final var moved = awaitOper(sw -> state(sw) == AgentState.UNREACHABLE).orElseThrow().getAgentStatus();
        assertEquals("127.0.0.9", moved.getAgentAddress().stringValue());
        assertTrue(moved.getDetail().contains("127.0.0.9:" + port), moved.getDetail());

        // the operator's address wins, and the status says where it came from
        configure("127.0.0.1", Map.of());
        final var configured = awaitOper(sw -> state(sw) == AgentState.CAPTURING
            && sw.orElseThrow().getAgentStatus().getAgentAddressSource() == AgentAddressSource.Configured)
            .orElseThrow();
        assertEquals("127.0.0.1", configured.getAgentStatus().getAgentAddress().stringValue());
        // without the map, the interface's own name again (the table was reread from the agent)
        awaitOper(sw -> sw.orElseThrow().nonnullSession().size() == 20 && sw.orElseThrow().nonnullSession().values()
            .stream().allMatch(s -> "Ethernet1/7".equals(s.nonnullMessage().get(0)
                .getIngressTp().getValue())));
    }

    @Test
    public void withoutAnInventoryAddressAnEnabledSwitchHasNoAddress() throws Exception {
        // leaf9, a switch of the fabric's topology, is also a NETCONF device: no default for leaf1
        final var fabric = new NodeBuilder().setNodeId(new NodeId("leaf9")).build();
        final var tx = getDataBroker().newWriteOnlyTransaction();
        tx.mergeParentStructurePut(LogicalDatastoreType.OPERATIONAL, DataObjectIdentifier.builder(NetworkTopology.class)
            .child(Topology.class, new TopologyKey(new TopologyId("fabric"))).build(), new TopologyBuilder()
            .setTopologyId(new TopologyId("fabric")).setNode(Map.of(fabric.key(), fabric)).build());
        tx.commit().get(5, TimeUnit.SECONDS);
        mountNetconfDevice("leaf9", "127.0.0.1");
        awaitOper("leaf9", sw -> state(sw) == AgentState.NOTCONFIGURED
            && sw.orElseThrow().getAgentStatus().getAgentAddress() != null);
        // the device unmounted: leaf9 stays listed, and its status no longer names an address
        final var unmount = getDataBroker().newWriteOnlyTransaction();
        unmount.delete(LogicalDatastoreType.CONFIGURATION, NETCONF);
        unmount.commit().get(5, TimeUnit.SECONDS);
        // the inventory's address and the topologies' listing are followed apart: for a moment the
        // status may still name the NETCONF topology the switch is leaving; it settles on fabric
        final var listed = awaitOper("leaf9", sw -> state(sw) == AgentState.NOTCONFIGURED
            && sw.orElseThrow().getAgentStatus().getAgentAddress() == null
            && String.valueOf(sw.orElseThrow().getAgentStatus().getDetail()).contains("switch of topology fabric"))
            .orElseThrow().getAgentStatus();
        assertNull(listed.getAgentAddressSource());
        assertTrue(listed.getDetail().contains("switch of topology fabric"), listed.getDetail());
        assertTrue(!listed.getDetail().contains("ready to enable"), listed.getDetail());
        configure(null, Map.of());
        final var status = awaitOper(sw -> state(sw) == AgentState.NOADDRESS).orElseThrow().getAgentStatus();
        assertNull(status.getAgentAddress());
        assertNull(status.getAgentAddressSource());
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

    private void configure(final String address, final Map<String, String> portMap) throws Exception {
        final var builder = new SwitchBuilder().setNodeId(new NodeId("leaf1")).setEnabled(true)
            .setAgentPort(new PortNumber(Uint16.valueOf(port))).setAgentTransport(AgentTransport.PlainHttp);
        if (address != null) {
            builder.setAgentAddress(new Host(new IpAddress(new Ipv4Address(address))));
        }
        if (!portMap.isEmpty()) {
            builder.setPortMap(portMap.entrySet().stream().map(e -> new PortMapBuilder().setInterface(e.getKey())
                .setTpId(new TpId(e.getValue())).build()).collect(java.util.stream.Collectors.toMap(m -> m.key(),
                    m -> m)));
        }
        final var tx = getDataBroker().newWriteOnlyTransaction();
        tx.put(LogicalDatastoreType.CONFIGURATION, StatusWriter.switchPath("leaf1"), builder.build());
        tx.commit().get(5, TimeUnit.SECONDS);
    }

    private static AgentState state(final Optional<Switch> sw) {
        return sw.isPresent() && sw.orElseThrow().getAgentStatus() != null
            ? sw.orElseThrow().getAgentStatus().getState() : null;
    }

    private Optional<Switch> awaitOper(final Predicate<Optional<Switch>> condition) throws Exception {
        return awaitOper("leaf1", condition);
    }

    private Optional<Switch> awaitOper(final String nodeId, final Predicate<Optional<Switch>> condition)
            throws Exception {
        return await("switch " + nodeId + " reaches the expected state").atMost(Duration.ofSeconds(30))
            .pollInterval(Duration.ofMillis(50)).until(() -> {
                try (var tx = getDataBroker().newReadOnlyTransaction()) {
                    return tx.read(LogicalDatastoreType.OPERATIONAL, StatusWriter.switchPath(nodeId))
                        .get(5, TimeUnit.SECONDS);
                }
            }, condition);
    }
}
