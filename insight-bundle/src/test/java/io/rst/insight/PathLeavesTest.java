/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.insight;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.opendaylight.mdsal.binding.dom.adapter.test.AbstractConcurrentDataBrokerTest;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.IpAddress;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.Ipv4Address;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.Ipv6Address;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.LearnedFrom;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.Rpt;
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
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.NodeId;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.TpId;
import org.opendaylight.yangtools.binding.DataObjectIdentifier;
import org.opendaylight.yangtools.yang.common.Decimal64;
import org.opendaylight.yangtools.yang.common.Uint16;
import org.opendaylight.yangtools.yang.common.Uint64;
import org.opendaylight.yangtools.yang.data.api.schema.MapEntryNode;

/**
 * A path's facts read leaf by leaf from the datastore's node are the ones read from the binding
 * path: hops in order, completeness, asymmetry, the anomalies that tell data apart from CM, and
 * absent leaves.
 */
public class PathLeavesTest extends AbstractConcurrentDataBrokerTest {
    /** Sets up the base class's broker, which it does with JUnit 4's @Before (Jupiter does not run it). */
    @BeforeEach
    public void setUpBroker() throws Exception {
        setup();
    }

    @Test
    public void theFactsOfTheNodeAreTheFactsOfThePath() throws Exception {
        final var customizer = getDataBrokerTestCustomizer();
        customizer.updateSchema(getRuntimeContext());
        final var codec = customizer.getAdapterContext().currentSerializer();
        final List<Path> paths = new ArrayList<>();
        paths.add(new PathBuilder().setSessionId("bare").build());
        paths.add(new PathBuilder().setSessionId("v4").setRequesterIp(new IpAddress(new Ipv4Address("10.0.0.1")))
            .setResponderIp(new IpAddress(new Ipv4Address("10.0.0.2")))
            .setForward(new ForwardBuilder().setHop(hops("leaf1", "spine2", "leaf3")).setComplete(true).build())
            .setReverse(new ReverseBuilder().setHop(hops("leaf3", "spine1", "leaf1")).setComplete(false).build())
            .setAsymmetric(true).setDataPathDiffers(true)
            .setAnomaly(Set.of("requester data leaves spine2 for spine1", "zz: the data took another spine",
                "forward: gap at spine2"))
            .build());
        paths.add(new PathBuilder().setSessionId("v6").setRequesterIp(new IpAddress(new Ipv6Address("fd00::1")))
            .setForward(new ForwardBuilder().setHop(hops("leaf1")).build())
            .setDataPathDiffers(false).setAnomaly(Set.of("the data went elsewhere")).build());
        // data-learned: its directions are its data paths; a one-way flow has one
        paths.add(new PathBuilder().setSessionId("data").setLearnedFrom(LearnedFrom.Data)
            .setDataForward(new DataForwardBuilder().setHop(hops("leaf1", "spine2", "leaf2")).setComplete(true).build())
            .setDataReverse(new DataReverseBuilder().setHop(hops("leaf2", "spine1", "leaf1")).setComplete(true)
                .build())
            .setAsymmetric(true).build());
        paths.add(new PathBuilder().setSessionId("one-way").setLearnedFrom(LearnedFrom.Data).setOneWay(true)
            .setDataForward(new DataForwardBuilder().setHop(hops("spine2")).setComplete(false).build()).build());
        paths.add(new PathBuilder().setSessionId("cm").setLearnedFrom(LearnedFrom.Cm)
            .setForward(new ForwardBuilder().setHop(hops("leaf1")).setComplete(true).build())
            .setDataForward(new DataForwardBuilder().setHop(hops("leaf9")).build()).build());
        // congestion figures: per hop and per direction, marked-at, on a CM session's data paths
        paths.add(1, new PathBuilder().setSessionId("marked").setLearnedFrom(LearnedFrom.Cm)
            .setForward(new ForwardBuilder().setHop(hops("leaf1", "spine1")).setComplete(true).build())
            .setDataForward(new DataForwardBuilder().setHop(List.of(
                    new HopBuilder().setIndex(Uint16.ZERO).setNodeId(new NodeId("leaf1")).setIngressTp(new TpId("swp1"))
                        .setEctPackets(Uint64.valueOf(100)).setCePackets(Uint64.ZERO).setCnpPackets(Uint64.valueOf(4))
                        .build(),
                    new HopBuilder().setIndex(Uint16.ONE).setNodeId(new NodeId("spine1")).setIngressTp(new TpId("swp2"))
                        .setEctPackets(Uint64.valueOf(90)).setCePackets(Uint64.valueOf(9)).build(),
                    new HopBuilder().setIndex(Uint16.valueOf(2)).setNodeId(new NodeId("leaf2")).build()))
                .setCeShare(Decimal64.valueOf("0.1000")).setCePackets(Uint64.valueOf(9))
                .setCnpPackets(Uint64.valueOf(4))
                .setMarkedAt(new MarkedAtBuilder().setNodeId(new NodeId("leaf1")).setEgressTp(new TpId("swp7"))
                    .setNextNodeId(new NodeId("spine1")).setNextIngressTp(new TpId("swp2"))
                    .setHopIndex(Uint16.ONE).setCertain(true).build())
                .build())
            .setDataReverse(new DataReverseBuilder().setHop(hops("spine1")).setCnpPackets(Uint64.valueOf(2)).build())
            .build());
        for (var path : paths) {
            final var id = DataObjectIdentifier.builder(Rpt.class).child(Path.class, new PathKey(path.getSessionId()))
                .build();
            final var node = (MapEntryNode) codec.toNormalizedDataObject(id, path).node();
            assertEquals(PathFacts.of(path), PathLeaves.facts(path.getSessionId(), node), path.getSessionId());
            assertEquals(path.getSessionId(), PathLeaves.sessionId(node.name()));
        }
        final var data = PathFacts.of(paths.get(paths.size() - 3));
        assertEquals(List.of("leaf1", "spine2", "leaf2"), data.forward());
        assertEquals(List.of("leaf2", "spine1", "leaf1"), data.reverse());
        org.junit.jupiter.api.Assertions.assertTrue(data.learnedData() && data.complete() && !data.oneWay());
        final var flow = PathFacts.of(paths.get(paths.size() - 2));
        org.junit.jupiter.api.Assertions.assertTrue(flow.oneWay() && flow.reverseComplete() && !flow.complete());
        assertEquals(List.of("leaf1"), PathFacts.of(paths.get(paths.size() - 1)).forward());
        assertEquals("cm", PathFacts.of(paths.get(paths.size() - 1)).learnedFrom());
    }

    @Test
    public void aDirectionsCongestionFiguresAreReadWithItsHopsAndWhereMarkingStarts() {
        final var path = new PathBuilder().setSessionId("m").setLearnedFrom(LearnedFrom.Data)
            .setDataForward(new DataForwardBuilder().setHop(List.of(
                    new HopBuilder().setIndex(Uint16.ZERO).setNodeId(new NodeId("leaf1")).setIngressTp(new TpId("swp1"))
                        .setEctPackets(Uint64.valueOf(100)).setCePackets(Uint64.ZERO).build(),
                    new HopBuilder().setIndex(Uint16.ONE).setNodeId(new NodeId("spine1"))
                        .setEctPackets(Uint64.valueOf(80)).setCePackets(Uint64.valueOf(8)).build()))
                .setCeShare(Decimal64.valueOf("0.1000")).setCePackets(Uint64.valueOf(8))
                .setMarkedAt(new MarkedAtBuilder().setNodeId(new NodeId("leaf1")).setEgressTp(new TpId("swp7"))
                    .setCertain(false).build())
                .build())
            .build();
        final var facts = PathFacts.of(path);
        final var ecn = facts.dataForwardEcn();
        assertEquals(0.1, ecn.ceShare(), 0);
        assertEquals(8, ecn.cePackets());
        assertEquals(-1, ecn.cnpPackets());
        // the most ECN-capable packets any hop sampled
        assertEquals(100, ecn.ectPackets());
        assertEquals("leaf1", ecn.markedNode());
        assertEquals("swp7", ecn.markedTp());
        org.junit.jupiter.api.Assertions.assertTrue(ecn.marked() && !ecn.certain());
        assertEquals(List.of(new PathFacts.HopFigures("leaf1", "swp1", 100, 0, -1),
            new PathFacts.HopFigures("spine1", null, 80, 8, -1)), ecn.hops());
        org.junit.jupiter.api.Assertions.assertNull(facts.dataReverseEcn());
        org.junit.jupiter.api.Assertions.assertTrue(Double.isNaN(ecn.cnpPerPacket()));
    }

    private static List<Hop> hops(final String... nodes) {
        final List<Hop> out = new ArrayList<>();
        for (int i = 0; i < nodes.length; i++) {
            out.add(new HopBuilder().setIndex(Uint16.valueOf(i)).setNodeId(new NodeId(nodes[i])).setObserved(true)
                .build());
        }
        return out;
    }
}
