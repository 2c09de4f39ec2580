/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rpt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rst.rft.agent.Agent;
import io.rst.rft.agent.AgentCommand;
import io.rst.rft.agent.AgentOptions;
import io.rst.rft.decode.CmMessage;
import io.rst.rft.decode.CmMessageType;
import io.rst.rft.decode.DecodeResult;
import io.rst.rft.decode.FrameDecoder;
import io.rst.rft.manager.RftManager;
import io.rst.rft.pcap.CmTrafficGenerator;
import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
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
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201._switch.config.PortMap;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201._switch.config.PortMapBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft.Switch;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft.SwitchBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft.SwitchKey;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.Direction;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.Rpt;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.topology.rev261201.RstNodeAttributes;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.topology.rev261201.RstNodeAttributesBuilder;
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
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.network.topology.topology.Node;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.network.topology.topology.NodeBuilder;
import org.opendaylight.yangtools.binding.DataObjectIdentifier;
import org.opendaylight.yangtools.yang.common.Uint16;

/**
 * Switches whose interfaces are not named as their termination points (Ethernet1/3 on the switch,
 * swp3 in the topology): with each switch's port-map in rdma-flow-table, real agents that report
 * their interface names give flow tables in tp-ids, and the RPT joins their hops over the
 * topology's links into whole host-to-host paths. RFT worker, real agents and RPT on one
 * in-memory broker.
 */
public class PortMapPathTest extends AbstractConcurrentDataBrokerTest {
    private static final String TOKEN = "port-map-token";
    /** Per switch: the interface the requester's messages enter on, the responder's, and their tp-ids. */
    private static final Map<String, List<String>> PORTS = Map.of(
        "leaf1", List.of("Ethernet1/3", "Ethernet1/51", "swp3", "swp51"),
        "spine1", List.of("Ethernet1/1", "Ethernet1/2", "swp1", "swp2"),
        "leaf2", List.of("Ethernet1/51", "Ethernet1/3", "swp51", "swp3"));

    private Path dir;
    private final List<Agent> agents = new ArrayList<>();
    private AutoCloseable rft;
    private RptWorker rpt;

    @BeforeEach
    public void setUp() throws Exception {
        // the broker: the base class sets it up with JUnit 4's @Before, which Jupiter does not run
        setup();
        dir = Files.createTempDirectory("rst-portmap");
        Files.writeString(dir.resolve("token"), TOKEN + "\n");
        Files.setPosixFilePermissions(dir.resolve("token"), PosixFilePermissions.fromString("rw-------"));
        final var customizer = getDataBrokerTestCustomizer();
        final var router = new DOMRpcRouter(customizer.getSchemaService());
        customizer.updateSchema(getRuntimeContext());
        rpt = new RptWorker(getDataBroker(), getDomBroker(),
            new BindingDOMRpcProviderServiceAdapter(customizer.getAdapterContext(),
                new RouterDOMRpcProviderService(router)), Executors.newSingleThreadExecutor());
        rft = RftManager.standalone(getDataBroker(), getDomBroker(),
                getDataBrokerTestCustomizer().getAdapterContext().currentSerializer(), TOKEN);
    }

    @AfterEach
    public void tearDown() throws Exception {
        rft.close();
        rpt.close();
        for (var agent : agents) {
            agent.close();
        }
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @Test
    public void pathsJoinOverLinksNamedByTpIdsThatDifferFromInterfaceNames() throws Exception {
        // one session, its requester's CM messages in one file and its responder's in another, so
        // that each switch sees them enter on the ports that face each side
        final Path all = dir.resolve("all.pcap");
        new CmTrafficGenerator(CmTrafficGenerator.Options.bench(1)).write(all);
        final String[] ends = split(all, dir.resolve("from-requester.pcap"), dir.resolve("from-responder.pcap"));
        final String requester = ends[0];
        final String responder = ends[1];
        writeTopology(requester, responder);
        for (var sw : List.of("leaf1", "spine1", "leaf2")) {
            final var ports = PORTS.get(sw);
            final int port = startAgent(sw, ports.get(0), ports.get(1));
            configure(sw, port, Map.of(ports.get(0), ports.get(2), ports.get(1), ports.get(3)));
        }

        final var path = awaitPath();
        final var fwd = path.getForward();
        assertEquals(List.of("leaf1", "spine1", "leaf2"), hops(fwd, h -> h.getNodeId().getValue()));
        assertEquals(List.of("swp3", "swp1", "swp51"), hops(fwd, h -> h.getIngressTp()));
        assertEquals(List.of("swp51", "swp2", "swp3"), hops(fwd, h -> h.getEgressTp()));
        assertEquals(List.of(true, true, true), hops(fwd, h -> h.getObserved()));
        assertEquals("h1", fwd.getSourceNode().getValue());
        assertEquals("h2", fwd.getDestinationNode().getValue());
        assertTrue(fwd.getComplete());
        final var rev = path.getReverse();
        assertEquals(List.of("leaf2", "spine1", "leaf1"), hops(rev, h -> h.getNodeId().getValue()));
        assertEquals(List.of("swp3", "swp2", "swp51"), hops(rev, h -> h.getIngressTp()));
        assertEquals(List.of("swp51", "swp1", "swp3"), hops(rev, h -> h.getEgressTp()));
        assertTrue(rev.getComplete());
    }

    private static <T> List<T> hops(final Direction direction,
            final java.util.function.Function<org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201
                .direction.Hop, T> field) {
        return direction.nonnullHop().stream().map(h -> {
            final Object value = field.apply(h);
            @SuppressWarnings("unchecked")
            final T out = (T) (value instanceof TpId tp ? tp.getValue() : value);
            return out;
        }).toList();
    }

    private org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.rpt.Path awaitPath() throws Exception {
        return Awaitility.await("one complete path").atMost(Duration.ofSeconds(60)).until(() -> {
            try (var tx = getDataBroker().newReadOnlyTransaction()) {
                final var rptNow = tx.read(LogicalDatastoreType.OPERATIONAL,
                    DataObjectIdentifier.builder(Rpt.class).build()).get(5, TimeUnit.SECONDS);
                return rptNow.isPresent() && rptNow.orElseThrow().nonnullPath().size() == 1
                    ? rptNow.orElseThrow().nonnullPath().values().iterator().next() : null;
            }
        }, path -> path != null && Boolean.TRUE.equals(path.getForward().getComplete())
            && Boolean.TRUE.equals(path.getReverse().getComplete()));
    }

    /** Starts a real agent replaying the two files as captured on its two interfaces; returns its port. */
    private int startAgent(final String name, final String requesterSide, final String responderSide)
            throws Exception {
        final int port;
        try (var socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        final var options = AgentOptions.parse(List.of("--listen", "127.0.0.1:" + port, "--token-file",
            dir.resolve("token").toString(), "--state-dir", dir.resolve(name).toString(), "--plain-http",
            "--replay", requesterSide + "=" + dir.resolve("from-requester.pcap"),
            "--replay", responderSide + "=" + dir.resolve("from-responder.pcap"), "--agent-id", name,
            // the generated session is from 2026-01-01: kept, not aged out at once
            "--retention", "1000000000"));
        final var agent = new Agent(options, events -> AgentCommand.cmProcessor(options, events));
        agent.start();
        agents.add(agent);
        return port;
    }

    private void configure(final String name, final int port, final Map<String, String> portMap) throws Exception {
        final var tx = getDataBroker().newWriteOnlyTransaction();
        tx.mergeParentStructurePut(LogicalDatastoreType.CONFIGURATION,
            DataObjectIdentifier.builder(Rft.class).child(Switch.class, new SwitchKey(new NodeId(name))).build(),
            new SwitchBuilder().setNodeId(new NodeId(name)).setEnabled(true)
                .setAgentAddress(new Host(new IpAddress(new Ipv4Address("127.0.0.1"))))
                .setAgentPort(new PortNumber(Uint16.valueOf(port))).setAgentTransport(AgentTransport.PlainHttp)
                .setPortMap(portMap.entrySet().stream().map(e -> new PortMapBuilder().setInterface(e.getKey())
                    .setTpId(new TpId(e.getValue())).build()).collect(Collectors.toMap(PortMap::key, m -> m)))
                .build());
        tx.commit().get(10, TimeUnit.SECONDS);
    }

    /** h1 (the requester) on leaf1 swp3, h2 (the responder) on leaf2 swp3, leaf1 swp51 - spine1 swp1 - leaf2. */
    private void writeTopology(final String requester, final String responder) throws Exception {
        final var links = new ArrayList<Link>();
        for (var l : List.of(List.of("h1", "eth0", "leaf1", "swp3"), List.of("h2", "eth0", "leaf2", "swp3"),
                List.of("leaf1", "swp51", "spine1", "swp1"), List.of("leaf2", "swp51", "spine1", "swp2"))) {
            links.add(link(l.get(0), l.get(1), l.get(2), l.get(3)));
            links.add(link(l.get(2), l.get(3), l.get(0), l.get(1)));
        }
        final var nodes = new ArrayList<Node>();
        for (var sw : List.of("leaf1", "leaf2", "spine1")) {
            nodes.add(new NodeBuilder().setNodeId(new NodeId(sw)).addAugmentation(new RstNodeAttributesBuilder()
                .setNodeKind(RstNodeAttributes.NodeKind.Switch).build()).build());
        }
        for (var host : List.of(List.of("h1", requester), List.of("h2", responder))) {
            nodes.add(new NodeBuilder().setNodeId(new NodeId(host.get(0)))
                .addAugmentation(new RstNodeAttributesBuilder().setNodeKind(RstNodeAttributes.NodeKind.Host)
                    .setIpAddress(Set.of(new IpAddress(new Ipv4Address(host.get(1))))).build()).build());
        }
        final var tx = getDataBroker().newWriteOnlyTransaction();
        tx.mergeParentStructurePut(LogicalDatastoreType.CONFIGURATION,
            DataObjectIdentifier.builder(NetworkTopology.class)
                .child(Topology.class, new TopologyKey(new TopologyId("portmap"))).build(),
            new TopologyBuilder().setTopologyId(new TopologyId("portmap"))
                .setLink(links.stream().collect(Collectors.toMap(Link::key, l -> l)))
                .setNode(nodes.stream().collect(Collectors.toMap(Node::key, n -> n))).build());
        tx.commit().get(10, TimeUnit.SECONDS);
    }

    private static Link link(final String srcNode, final String srcTp, final String dstNode, final String dstTp) {
        return new LinkBuilder().setLinkId(new LinkId(srcNode + ":" + srcTp))
            .setSource(new SourceBuilder().setSourceNode(new NodeId(srcNode)).setSourceTp(new TpId(srcTp)).build())
            .setDestination(new DestinationBuilder().setDestNode(new NodeId(dstNode)).setDestTp(new TpId(dstTp))
                .build())
            .build();
    }

    /**
     * Splits a one-session capture by sender: the requester's frames (the REQ's source address)
     * into one file, the responder's into the other. Returns the requester's and responder's addresses.
     */
    private static String[] split(final Path pcap, final Path fromRequester, final Path fromResponder)
            throws Exception {
        final byte[] bytes = Files.readAllBytes(pcap);
        final var buf = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        if (buf.getInt(0) != 0xa1b2c3d4) {
            buf.order(ByteOrder.BIG_ENDIAN);
        }
        final var requesterOut = new ByteArrayOutputStream();
        final var responderOut = new ByteArrayOutputStream();
        requesterOut.write(bytes, 0, 24);
        responderOut.write(bytes, 0, 24);
        final var decoder = new FrameDecoder();
        final var msg = new CmMessage();
        String requester = null;
        String responder = null;
        for (int at = 24; at + 16 <= bytes.length;) {
            final int len = buf.getInt(at + 8);
            final byte[] rec = Arrays.copyOfRange(bytes, at, at + 16 + len);
            if (decoder.decodeEthernet(rec, 16, len, msg) != DecodeResult.CM_MAD) {
                throw new AssertionError("the generator wrote a frame that is not CM at offset " + at);
            }
            if (requester == null && msg.type() == CmMessageType.REQ) {
                requester = msg.srcIpString();
                responder = msg.dstIpString();
            }
            (msg.srcIpString().equals(requester) ? requesterOut : responderOut).write(rec);
            at += 16 + len;
        }
        Files.write(fromRequester, requesterOut.toByteArray());
        Files.write(fromResponder, responderOut.toByteArray());
        return new String[] {requester, responder};
    }
}
