/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rpt;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.opendaylight.mdsal.binding.api.RpcService;
import org.opendaylight.mdsal.binding.dom.adapter.BindingDOMRpcProviderServiceAdapter;
import org.opendaylight.mdsal.binding.dom.adapter.BindingDOMRpcServiceAdapter;
import org.opendaylight.mdsal.binding.dom.adapter.test.AbstractConcurrentDataBrokerTest;
import org.opendaylight.mdsal.common.api.LogicalDatastoreType;
import org.opendaylight.mdsal.dom.broker.DOMRpcRouter;
import org.opendaylight.mdsal.dom.broker.RouterDOMRpcProviderService;
import org.opendaylight.mdsal.dom.broker.RouterDOMRpcService;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.IpAddress;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.Ipv4Address;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261130.CmMessageType;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261130.EpochSeconds;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261130.SessionState;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261130.Rft;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261130.rdma.session.MessageBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261130.rft.Switch;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261130.rft.SwitchKey;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261130.rft._switch.Session;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261130.rft._switch.SessionBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261130.rft._switch.SessionKey;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261130.Direction;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261130.SessionsThrough;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261130.SessionsThroughInputBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261130.TraceSession;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261130.TraceSessionInputBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261130.Rpt;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261130.rpt.Path;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261130.rpt.PathKey;
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
import org.opendaylight.yangtools.yang.common.Decimal64;
import org.opendaylight.yangtools.yang.common.Uint32;

/**
 * The RPT against a real in-memory broker and a real RPC router: flow tables and topology links
 * in, paths and RPC answers out.
 */
public class RptWorkerTest extends AbstractConcurrentDataBrokerTest {
    private static final String ID = "10.0.0.1/0x00000001/10.0.0.2";

    private RptWorker worker;
    private RpcService rpcs;

    @Before
    public void startWorker() throws Exception {
        final var customizer = getDataBrokerTestCustomizer();
        final var router = new DOMRpcRouter(customizer.getSchemaService());
        // the router learns the model from schema updates: give it the current one
        customizer.updateSchema(getRuntimeContext());
        worker = new RptWorker(getDataBroker(), new BindingDOMRpcProviderServiceAdapter(customizer.getAdapterContext(),
            new RouterDOMRpcProviderService(router)), Executors.newSingleThreadExecutor());
        rpcs = new BindingDOMRpcServiceAdapter(customizer.getAdapterContext(), new RouterDOMRpcService(router));
    }

    @After
    public void stopWorker() {
        worker.close();
    }

    @Test
    public void pathsFromFlowTablesAndLinksAndTheRpcsAnswerFromThem() throws Exception {
        // leaf1 -- spine1 -- leaf2, links both ways as LLDP-learnt topologies have them
        final var links = new ArrayList<Link>();
        links.add(link("leaf1", "leaf1-eth3", "spine1", "spine1-eth1"));
        links.add(link("spine1", "spine1-eth1", "leaf1", "leaf1-eth3"));
        links.add(link("spine1", "spine1-eth2", "leaf2", "leaf2-eth3"));
        links.add(link("leaf2", "leaf2-eth3", "spine1", "spine1-eth2"));
        final var tx = getDataBroker().newWriteOnlyTransaction();
        tx.mergeParentStructurePut(LogicalDatastoreType.OPERATIONAL,
            DataObjectIdentifier.builder(NetworkTopology.class)
                .child(Topology.class, new TopologyKey(new TopologyId("rst"))).build(),
            new TopologyBuilder().setTopologyId(new TopologyId("rst")).setLink(links.stream()
                .collect(java.util.stream.Collectors.toMap(Link::key, l -> l))).build());
        tx.commit().get(5, TimeUnit.SECONDS);

        // each switch saw the REQ enter towards the responder and the REP towards the requester
        putSession("leaf1", "leaf1-eth1", "leaf1-eth3");
        putSession("spine1", "spine1-eth1", "spine1-eth2");
        putSession("leaf2", "leaf2-eth3", "leaf2-eth1");

        final var path = awaitPath(p -> p.isPresent() && p.orElseThrow().getForward().getHop() != null
            && p.orElseThrow().getForward().getHop().size() == 3 && p.orElseThrow().getForward().getComplete()).orElseThrow();
        assertEquals(List.of("leaf1", "spine1", "leaf2"), nodes(path.getForward()));
        assertEquals(List.of("leaf1-eth3", "spine1-eth2"), path.getForward().getHop().stream().limit(2)
            .map(h -> h.getEgressTp().getValue()).toList());
        assertEquals(List.of("leaf2", "spine1", "leaf1"), nodes(path.getReverse()));
        assertTrue(path.getReverse().getComplete());
        assertFalse(path.getAsymmetric());
        assertEquals(SessionState.ESTABLISHED, path.getState());

        // the RPCs answer from the paths, whichever end is named first
        final var traced = rpcs.getRpc(TraceSession.class).invoke(new TraceSessionInputBuilder()
            .setSrcIp(ip("10.0.0.2")).setDstIp(ip("10.0.0.1")).build()).get(5, TimeUnit.SECONDS);
        assertTrue(traced.isSuccessful());
        assertEquals(1, traced.getResult().nonnullPath().size());
        final var through = rpcs.getRpc(SessionsThrough.class).invoke(new SessionsThroughInputBuilder()
            .setNodeId(new NodeId("spine1")).setTpId(new TpId("spine1-eth2")).build()).get(5, TimeUnit.SECONDS);
        assertEquals(1, through.getResult().nonnullPath().size());
        final var elsewhere = rpcs.getRpc(SessionsThrough.class).invoke(new SessionsThroughInputBuilder()
            .setNodeId(new NodeId("leaf1")).setTpId(new TpId("leaf1-eth9")).build()).get(5, TimeUnit.SECONDS);
        assertEquals(0, elsewhere.getResult().nonnullPath().size());

        // spine1 loses the session (say its agent restarted without state): a gap, not a guess
        final var del = getDataBroker().newWriteOnlyTransaction();
        del.delete(LogicalDatastoreType.OPERATIONAL, sessionPath("spine1"));
        del.commit().get(5, TimeUnit.SECONDS);
        final var broken = awaitPath(p -> p.isPresent() && !p.orElseThrow().getForward().getComplete()).orElseThrow();
        assertEquals(List.of("leaf1", "leaf2"), nodes(broken.getForward()).stream().sorted().toList());
        assertTrue(broken.getForward().getGap().toString(),
            broken.getForward().getGap().stream().anyMatch(gap -> gap.contains("spine1")));
    }

    private static List<String> nodes(final Direction direction) {
        return direction.getHop().stream().map(h -> h.getNodeId().getValue()).toList();
    }

    private static IpAddress ip(final String text) {
        return new IpAddress(new Ipv4Address(text));
    }

    private static Link link(final String srcNode, final String srcTp, final String dstNode, final String dstTp) {
        return new LinkBuilder().setLinkId(new LinkId(srcNode + ":" + srcTp))
            .setSource(new SourceBuilder().setSourceNode(new NodeId(srcNode)).setSourceTp(new TpId(srcTp)).build())
            .setDestination(new DestinationBuilder().setDestNode(new NodeId(dstNode)).setDestTp(new TpId(dstTp))
                .build())
            .build();
    }

    private static DataObjectIdentifier<Session> sessionPath(final String node) {
        return DataObjectIdentifier.builder(Rft.class).child(Switch.class, new SwitchKey(new NodeId(node)))
            .child(Session.class, new SessionKey(ID)).build();
    }

    private void putSession(final String node, final String reqIngress, final String repIngress) throws Exception {
        final var session = new SessionBuilder().setSessionId(ID).setRequesterIp(ip("10.0.0.1"))
            .setResponderIp(ip("10.0.0.2")).setState(SessionState.ESTABLISHED)
            .setFirstSeen(seconds("100.000001")).setLastSeen(seconds("100.000003"))
            .setMessage(List.of(
                new MessageBuilder().setSeq(Uint32.ZERO).setType(CmMessageType.REQ).setIngressTp(new TpId(reqIngress))
                    .setTime(seconds("100.000001")).setFromRequester(true).build(),
                new MessageBuilder().setSeq(Uint32.ONE).setType(CmMessageType.REP).setIngressTp(new TpId(repIngress))
                    .setTime(seconds("100.000002")).setFromRequester(false).build()))
            .build();
        final var tx = getDataBroker().newWriteOnlyTransaction();
        tx.mergeParentStructurePut(LogicalDatastoreType.OPERATIONAL, sessionPath(node), session);
        tx.commit().get(5, TimeUnit.SECONDS);
    }

    private static EpochSeconds seconds(final String value) {
        return new EpochSeconds(Decimal64.valueOf(new BigDecimal(value)));
    }

    private Optional<Path> awaitPath(final Predicate<Optional<Path>> condition) throws Exception {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        Optional<Path> last = Optional.empty();
        while (System.nanoTime() < deadline) {
            try (var rtx = getDataBroker().newReadOnlyTransaction()) {
                last = rtx.read(LogicalDatastoreType.OPERATIONAL, DataObjectIdentifier.builder(Rpt.class)
                    .child(Path.class, new PathKey(ID)).build()).get(5, TimeUnit.SECONDS);
            }
            if (condition.test(last)) {
                return last;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("path never matched; last: " + last);
    }
}
