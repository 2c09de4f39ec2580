/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rpt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.opendaylight.mdsal.binding.dom.adapter.test.AbstractConcurrentDataBrokerTest;
import org.opendaylight.mdsal.common.api.LogicalDatastoreType;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.IpAddress;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.Ipv4Address;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.Ipv6Address;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.LearnedFrom;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.Qpn;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.SessionState;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.Transport;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.Rpt;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.RptBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.TrafficKind;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.direction.Hop;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.direction.HopBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.direction.MarkedAtBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.path.DataForwardBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.path.DataReverseBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.path.ForwardBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.path.ReverseBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.rpt.Path;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.rpt.PathBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.rpt.PathKey;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.rpt.PausedPort;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.rpt.PausedPortBuilder;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.NodeId;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.TpId;
import org.opendaylight.yangtools.binding.DataObjectIdentifier;
import org.opendaylight.yangtools.binding.data.codec.api.BindingNormalizedNodeSerializer;
import org.opendaylight.yangtools.yang.common.Decimal64;
import org.opendaylight.yangtools.yang.common.Uint16;
import org.opendaylight.yangtools.yang.common.Uint32;
import org.opendaylight.yangtools.yang.common.Uint64;
import org.opendaylight.yangtools.yang.common.Uint8;
import org.opendaylight.yangtools.yang.data.api.schema.NormalizedNode;

/**
 * {@link PathNodes} against the binding codec it stands in for: for paths with every field set and
 * with the optional ones absent, the hand-built node must be exactly what the codec gives, or a
 * reader through the binding API (the UI, RESTCONF, the benches' listeners) would see another path
 * than the RPT holds.
 */
public class PathNodesTest extends AbstractConcurrentDataBrokerTest {
    private static final String ID = "10.1.0.2/0x00000001/10.2.0.2";

    /** Sets up the base class's broker, which it does with JUnit 4's @Before (Jupiter does not run it). */
    @BeforeEach
    public void setUpBroker() throws Exception {
        setup();
    }

    @Test
    public void aPathWithEveryFieldSetIsWhatTheCodecGives() {
        assertSameAsCodec(full(ID));
    }

    @Test
    public void aPathWithOnlyItsIdIsWhatTheCodecGives() {
        assertSameAsCodec(new PathBuilder().setSessionId(ID).build());
    }

    /**
     * What the RPT writes for a session a switch saw alone: no addresses known, hops without ports,
     * hosts unknown (no source or destination), gaps, a direction nobody saw (no hops, no gaps).
     */
    @Test
    public void anIncompletePathIsWhatTheCodecGives() {
        final var path = new PathBuilder().setSessionId(ID)
            .setState(SessionState.REQSENT)
            .setForward(new ForwardBuilder().setComplete(false)
                .setHop(List.of(
                    new HopBuilder().setIndex(Uint16.ZERO).setNodeId(new NodeId("leaf1")).setObserved(true)
                        .setTraffic(TrafficKind.Cm).build(),
                    new HopBuilder().setIndex(Uint16.ONE).setNodeId(new NodeId("spine1")).setObserved(false)
                        .setTraffic(TrafficKind.Cm).build()))
                .setGap(Set.of("spine1 saw nothing", "no host holds 10.2.0.2"))
                .build())
            .setReverse(new ReverseBuilder().setComplete(false).setHop(List.of()).setGap(Set.of()).build())
            .setAsymmetric(false)
            .build();
        assertSameAsCodec(path);
    }

    /** A hop with one port and not the other, a source known and its destination not. */
    @Test
    public void halfKnownHopsAndEndsAreWhatTheCodecGives() {
        final var path = new PathBuilder().setSessionId(ID)
            .setRequesterIp(new IpAddress(new Ipv4Address("10.1.0.2")))
            .setRequesterQpn(new Qpn(Uint32.valueOf(0xFFFFFF)))
            .setForward(new ForwardBuilder().setComplete(false).setSourceNode(new NodeId("host1"))
                .setSourceTp(new TpId("host1:eth0"))
                .setHop(List.of(
                    new HopBuilder().setIndex(Uint16.ZERO).setNodeId(new NodeId("leaf1"))
                        .setIngressTp(new TpId("leaf1:1")).setObserved(true).build(),
                    new HopBuilder().setIndex(Uint16.ONE).setNodeId(new NodeId("spine1"))
                        .setEgressTp(new TpId("spine1:3")).build()))
                .setGap(Set.of("the chain breaks after spine1")).build())
            .setDataForward(new DataForwardBuilder().setDestinationNode(new NodeId("host2")).build())
            .setDataPathDiffers(false)
            .build();
        assertSameAsCodec(path);
    }

    @Test
    public void everySessionStateIsWhatTheCodecGives() {
        for (var state : SessionState.values()) {
            assertSameAsCodec(new PathBuilder(full(ID)).setState(state).build());
        }
    }

    @Test
    public void everyOriginAndTransportIsWhatTheCodecGives() {
        for (var learned : LearnedFrom.values()) {
            for (var transport : Transport.values()) {
                assertSameAsCodec(new PathBuilder(full(ID)).setLearnedFrom(learned).setTransport(transport)
                    .setOneWay(false).build());
            }
        }
    }

    @Test
    public void everyTrafficKindIsWhatTheCodecGives() {
        for (var traffic : TrafficKind.values()) {
            final var hop = new HopBuilder().setIndex(Uint16.valueOf(7)).setNodeId(new NodeId("leaf2"))
                .setTraffic(traffic).build();
            assertSameAsCodec(new PathBuilder().setSessionId(ID)
                .setDataReverse(new DataReverseBuilder().setHop(List.of(hop)).build()).build());
        }
    }

    /** Twelve hops: their order on the path (ordered-by user) is kept, not their indexes' order. */
    @Test
    public void manyHopsKeepTheirOrder() {
        final List<Hop> hops = new ArrayList<>();
        for (int i = 11; i >= 0; i--) {
            hops.add(new HopBuilder().setIndex(Uint16.valueOf(i)).setNodeId(new NodeId("sw" + i))
                .setIngressTp(new TpId("sw" + i + ":1")).setEgressTp(new TpId("sw" + i + ":2")).setObserved(i % 2 == 0)
                .setTraffic(TrafficKind.Data).build());
        }
        final var path = new PathBuilder().setSessionId(ID)
            .setDataForward(new DataForwardBuilder().setComplete(true).setHop(hops).build()).build();
        assertSameAsCodec(path);
        final var reordered = new ArrayList<>(hops);
        java.util.Collections.reverse(reordered);
        assertNotEquals(codec(path), PathNodes.node(new PathBuilder(path)
            .setDataForward(new DataForwardBuilder().setComplete(true).setHop(reordered).build()).build()),
            "the comparison looks at the hops' order");
    }

    /** The comparison is not blind: one leaf of one hop changed, and the nodes differ. */
    @Test
    public void oneLeafChangedDeepDownMakesAnotherNode() {
        final var path = full(ID);
        final var hops = new ArrayList<>(path.getReverse().getHop());
        hops.set(1, new HopBuilder(hops.get(1)).setEgressTp(new TpId("spine1:9")).build());
        final var changed = new PathBuilder(path).setReverse(new ReverseBuilder(path.getReverse()).setHop(hops).build())
            .build();
        assertNotEquals(codec(path), PathNodes.node(changed));
        final var otherAnomaly = new PathBuilder(path).setAnomaly(Set.of("forward data crosses spine2")).build();
        assertNotEquals(codec(path), PathNodes.node(otherAnomaly));
    }

    /** A paused port, with sessions and a share and without, is what the codec gives. */
    @Test
    public void aPausedPortIsWhatTheCodecGives() {
        for (var entry : List.of(
                new PausedPorts.Entry("leaf1", new PausedPorts.Pause("leaf1-eth3", 3, true, 5_000), 25,
                    List.of("10.1.0.2/0x00000001/10.2.0.2", "s2")),
                new PausedPorts.Entry("spine1", new PausedPorts.Pause("spine1:7", 0, false, -1), 0, List.of()))) {
            final var pause = entry.pause();
            final var binding = new PausedPortBuilder().setNodeId(new NodeId(entry.node()))
                .setTpId(new TpId(pause.tp())).setPriority(Uint8.valueOf(pause.priority())).setPaused(pause.paused())
                .setPausedShare(pause.share() < 0 ? null : Decimal64.of(4, pause.share()))
                .setSessionCount(Uint32.valueOf(entry.count()))
                .setSession(entry.sessions().isEmpty() ? null : Set.copyOf(entry.sessions())).build();
            final var result = serializer().toNormalizedDataObject(DataObjectIdentifier.builder(Rpt.class)
                .child(PausedPort.class, binding.key()).build(), binding);
            assertEquals(result.path(), PathNodes.pausedPortIdentifier(entry.node(), pause.tp(), pause.priority()));
            assertEquals(result.node(), PathNodes.pausedPort(entry));
            assertEquals(result.node(), PathNodes.pausedPort(binding));
        }
    }

    @Test
    public void theIdentifiersAreTheCodecs() {
        final var serializer = serializer();
        assertEquals(serializer.toYangInstanceIdentifier(identifier(ID)), PathNodes.identifier(ID));
        assertEquals(serializer.toYangInstanceIdentifier(DataObjectIdentifier.builder(Rpt.class).build()),
            PathNodes.rptIdentifier());
        final var rpt = DataObjectIdentifier.builder(Rpt.class).build();
        final var empty = serializer.toNormalizedDataObject(rpt, new RptBuilder().build());
        assertEquals(empty.path(), PathNodes.rptIdentifier());
        assertEquals(empty.node(), PathNodes.emptyRpt());
    }

    /** Written through the DOM broker, read back through the binding one: the same path. */
    @Test
    public void aPathWrittenAsANodeReadsBackAsTheSamePath() throws Exception {
        final var paths = List.of(full(ID), full("10.3.0.2/0x00000002/10.4.0.2"),
            new PathBuilder().setSessionId("bare").build());
        final var tx = getDomBroker().newWriteOnlyTransaction();
        tx.put(LogicalDatastoreType.OPERATIONAL, PathNodes.rptIdentifier(), PathNodes.emptyRpt());
        for (var path : paths) {
            tx.put(LogicalDatastoreType.OPERATIONAL, PathNodes.identifier(path.getSessionId()), PathNodes.node(path));
        }
        tx.commit().get(10, TimeUnit.SECONDS);
        try (var read = getDataBroker().newReadOnlyTransaction()) {
            for (var path : paths) {
                assertEquals(path, read.read(LogicalDatastoreType.OPERATIONAL, identifier(path.getSessionId()))
                    .get(10, TimeUnit.SECONDS).orElseThrow());
            }
        }
    }

    private void assertSameAsCodec(final Path path) {
        final var result = serializer().toNormalizedDataObject(identifier(path.getSessionId()), path);
        assertEquals(result.path(), PathNodes.identifier(path.getSessionId()));
        assertEquals(result.node(), PathNodes.node(path));
    }

    private NormalizedNode codec(final Path path) {
        return serializer().toNormalizedDataObject(identifier(path.getSessionId()), path).node();
    }

    private BindingNormalizedNodeSerializer serializer() {
        return getDataBrokerTestCustomizer().getAdapterContext().currentSerializer();
    }

    private static DataObjectIdentifier.WithKey<Path, PathKey> identifier(final String id) {
        return DataObjectIdentifier.builder(Rpt.class).child(Path.class, new PathKey(id)).build();
    }

    /** A path with every leaf, container, list and leaf-list of the model set. */
    private static Path full(final String id) {
        final Set<String> anomalies = new LinkedHashSet<>();
        anomalies.add("reverse data enters leaf2 on leaf2:3, its CM on leaf2:2");
        anomalies.add("forward data crosses spine2 (in on spine2:1), its CM does not: CM via leaf1, spine1, leaf2");
        return new PathBuilder().setSessionId(id)
            .setRequesterIp(new IpAddress(new Ipv4Address("10.1.0.2")))
            .setResponderIp(new IpAddress(new Ipv6Address("fd00:0:0:2::2")))
            .setRequesterQpn(new Qpn(Uint32.valueOf(0x000101)))
            .setResponderQpn(new Qpn(Uint32.valueOf(0x00abcd)))
            .setState(SessionState.ESTABLISHED)
            .setLearnedFrom(LearnedFrom.Data)
            .setTransport(Transport.UC)
            .setOneWay(true)
            .setForward(new ForwardBuilder().setSourceNode(new NodeId("host1")).setSourceTp(new TpId("host1:eth0"))
                .setDestinationNode(new NodeId("host2")).setDestinationTp(new TpId("host2:eth0"))
                .setComplete(true).setHop(hops("leaf1", "spine1", "leaf2", TrafficKind.Cm)).setGap(Set.of()).build())
            .setReverse(new ReverseBuilder().setSourceNode(new NodeId("host2")).setSourceTp(new TpId("host2:eth0"))
                .setDestinationNode(new NodeId("host1")).setDestinationTp(new TpId("host1:eth0"))
                .setComplete(false).setHop(hops("leaf2", "spine1", "leaf1", TrafficKind.Cm))
                .setGap(Set.of("spine1 saw nothing: inferred from the links")).build())
            .setDataForward(new DataForwardBuilder().setSourceNode(new NodeId("host1"))
                .setSourceTp(new TpId("host1:eth0")).setDestinationNode(new NodeId("host2"))
                .setDestinationTp(new TpId("host2:eth0")).setComplete(true)
                .setHop(hops("leaf1", "spine2", "leaf2", TrafficKind.Data)).setGap(Set.of())
                .setCeShare(Decimal64.of(4, 2_500)).setCePackets(Uint64.valueOf(10)).setCnpPackets(Uint64.valueOf(99))
                .setMarkedAt(new MarkedAtBuilder().setNodeId(new NodeId("spine2")).setEgressTp(new TpId("spine2:2"))
                    .setNextNodeId(new NodeId("leaf2")).setNextIngressTp(new TpId("leaf2:3"))
                    .setHopIndex(Uint16.valueOf(2)).setCertain(false).build()).build())
            .setDataReverse(new DataReverseBuilder().setSourceNode(new NodeId("host2"))
                .setSourceTp(new TpId("host2:eth1")).setDestinationNode(new NodeId("host1"))
                .setDestinationTp(new TpId("host1:eth0")).setComplete(false)
                .setHop(hops("leaf2", "spine1", "leaf1", TrafficKind.Data))
                .setGap(Set.of("spine1: RFT there could not tell this data's session", "a second gap"))
                .setCePackets(Uint64.ZERO).setMarkedAt(new MarkedAtBuilder().setNextNodeId(new NodeId("leaf2"))
                    .setHopIndex(Uint16.ZERO).setCertain(true).build()).build())
            .setDataPathDiffers(true)
            .setAsymmetric(true)
            .setAnomaly(anomalies)
            .build();
    }

    private static List<Hop> hops(final String first, final String middle, final String last,
            final TrafficKind traffic) {
        return List.of(
            new HopBuilder().setIndex(Uint16.valueOf(0)).setNodeId(new NodeId(first))
                .setIngressTp(new TpId(first + ":1")).setEgressTp(new TpId(first + ":2")).setObserved(true)
                .setTraffic(traffic).setDscp(traffic == TrafficKind.Data ? Uint8.valueOf(63) : null)
                .setEctPackets(traffic == TrafficKind.Data ? Uint64.ZERO : null).build(),
            new HopBuilder().setIndex(Uint16.valueOf(1)).setNodeId(new NodeId(middle))
                .setIngressTp(new TpId(middle + ":1")).setEgressTp(new TpId(middle + ":2")).setObserved(false)
                .setTraffic(traffic).build(),
            figures(new HopBuilder().setIndex(Uint16.valueOf(2)).setNodeId(new NodeId(last))
                .setIngressTp(new TpId(last + ":3")).setEgressTp(new TpId(last + ":4")).setObserved(true)
                .setTraffic(traffic), traffic).build());
    }

    /** A data hop's congestion figures, every one (the first with some absent). */
    private static HopBuilder figures(final HopBuilder hop, final TrafficKind traffic) {
        if (traffic != TrafficKind.Data) {
            return hop;
        }
        return hop.setDscp(Uint8.valueOf(26)).setPriority(Uint8.valueOf(3)).setEctPackets(Uint64.valueOf(40))
            .setCePackets(Uint64.valueOf(10)).setCeShare(Decimal64.of(4, 2_500)).setCnpPackets(Uint64.valueOf(7));
    }
}
