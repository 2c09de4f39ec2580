/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rpt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rst.yang.time.Times;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.opendaylight.mdsal.binding.dom.adapter.test.AbstractConcurrentDataBrokerTest;
import org.opendaylight.mdsal.common.api.LogicalDatastoreType;
import org.opendaylight.mdsal.dom.api.DOMDataTreeWriteTransaction;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.IpAddress;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.Ipv4Address;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.PortNumber;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.yang.types.rev130715.DateAndTime;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.CmMessageType;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.Qpn;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.Rft;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.SessionState;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rdma.session.MessageBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rdma.session.RequesterDataBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rdma.session.ResponderDataBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft.Switch;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft.SwitchKey;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.Session;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.SessionBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.SessionKey;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.Rpt;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.rpt.Path;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.rpt.PathKey;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.NodeId;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.TpId;
import org.opendaylight.yangtools.binding.DataObjectIdentifier;
import org.opendaylight.yangtools.binding.data.codec.api.BindingNormalizedNodeSerializer;
import org.opendaylight.yangtools.yang.common.QName;
import org.opendaylight.yangtools.yang.common.Uint16;
import org.opendaylight.yangtools.yang.common.Uint32;
import org.opendaylight.yangtools.yang.common.Uint64;
import org.opendaylight.yangtools.yang.common.Uint8;
import org.opendaylight.yangtools.yang.data.api.YangInstanceIdentifier;
import org.opendaylight.yangtools.yang.data.api.YangInstanceIdentifier.NodeIdentifier;
import org.opendaylight.yangtools.yang.data.api.YangInstanceIdentifier.NodeIdentifierWithPredicates;
import org.opendaylight.yangtools.yang.data.api.schema.MapEntryNode;
import org.opendaylight.yangtools.yang.data.api.schema.NormalizedNode;
import org.opendaylight.yangtools.yang.data.spi.node.ImmutableNodes;

/**
 * The compact forms against the binding ones they stand in for: a {@link PathValue} written by
 * {@link PathNodes} is what the codec makes of its binding {@link Path} (and so what the RPT wrote
 * before it kept paths compact), and a {@link SwitchSession} says of a session's entry what the
 * binding {@link Session} says.
 */
public class PathValueTest extends AbstractConcurrentDataBrokerTest {
    private static final String ID = "10.1.0.2/0x00000001/10.2.0.2";

    /** Sets up the base class's broker, which it does with JUnit 4's @Before (Jupiter does not run it). */
    @BeforeEach
    public void setUpBroker() throws Exception {
        setup();
    }

    @Test
    public void aPathValueIsWrittenAsTheCodecWritesItsBindingPath() {
        final var cache = new PathNodes.Cache();
        for (var value : values()) {
            final var binding = value.toBinding();
            final var codec = serializer().toNormalizedDataObject(identifier(value.sessionId()), binding).node();
            assertEquals(codec, PathNodes.node(value, cache), value.toString());
            // again, from the cache's parts
            assertEquals(codec, PathNodes.node(value, cache), value.toString());
            assertEquals(PathNodes.node(binding), PathNodes.node(value, new PathNodes.Cache()));
        }
    }

    @Test
    public void pathsThatTookTheSameWayShareTheirDirections() {
        final var one = values().get(0);
        final var other = new PathValue("another", one.requesterIp(), one.responderIp(), 7, 8, one.state(),
            copy(one.forward()), copy(one.reverse()), one.asymmetric(), null);
        assertSame(one.forward(), other.forward());
        assertSame(one.reverse(), other.reverse());
        final var cache = new PathNodes.Cache();
        final var a = PathNodes.node(one, cache);
        final var b = PathNodes.node(other, cache);
        assertSame(a.childByArg(new NodeIdentifier(QName.create(Path.QNAME, "forward"))),
            b.childByArg(new NodeIdentifier(QName.create(Path.QNAME, "forward"))));
    }

    @Test
    public void theRpcsMatchAsTheBindingPathsDid() {
        final var value = values().get(0);
        assertTrue(value.between("10.1.0.2", "10.2.0.2", null));
        assertTrue(value.between("10.2.0.2", "10.1.0.2", new Qpn(Uint32.valueOf(0x000101))));
        assertFalse(value.between("10.2.0.2", "10.1.0.2", new Qpn(Uint32.valueOf(5))));
        assertFalse(value.between("10.1.0.2", "10.1.0.2", null));
        assertTrue(value.crosses("spine1", null));
        assertTrue(value.crosses("spine1", "spine1-eth2"));
        assertFalse(value.crosses("spine1", "spine1-eth9"));
        assertFalse(value.crosses("spine2", null));
        assertTrue(value.touches(Set.of("h1a")));
        assertFalse(value.touches(Set.of("spine2")));
    }

    @Test
    public void aSessionEntryReadsAsItsBindingSession() {
        final var session = new SessionBuilder().setSessionId(ID)
            .setRequesterIp(new IpAddress(new Ipv4Address("10.1.0.2")))
            .setResponderIp(new IpAddress(new Ipv4Address("10.2.0.2")))
            .setRequesterQpn(new Qpn(Uint32.valueOf(0x101))).setResponderQpn(new Qpn(Uint32.valueOf(0xabcd)))
            .setState(SessionState.ESTABLISHED)
            .setFirstSeen(seconds("100.000001")).setLastSeen(seconds("100.5"))
            .setMessage(List.of(
                // a DREQ whose sender is unknown says nothing; types say where from-requester is absent
                new MessageBuilder().setSeq(Uint32.ZERO).setType(CmMessageType.DREQ).setIngressTp(new TpId("x"))
                    .build(),
                new MessageBuilder().setSeq(Uint32.ONE).setType(CmMessageType.REP).setIngressTp(new TpId("leaf1-eth3"))
                    .setTime(seconds("100.000002")).build(),
                new MessageBuilder().setSeq(Uint32.TWO).setType(CmMessageType.REQ).setIngressTp(new TpId("leaf1-eth1"))
                    .setTime(seconds("100.000001")).setFromRequester(true).build(),
                new MessageBuilder().setSeq(Uint32.valueOf(3)).setType(CmMessageType.RTU)
                    .setIngressTp(new TpId("leaf1-eth9")).setTime(seconds("100.000003")).build()))
            .setRequesterData(new RequesterDataBuilder().setIngressPort("leaf1-eth1")
                .setUdpSrcPort(new PortNumber(Uint16.valueOf(50001))).setPackets(Uint64.TEN).build())
            .build();
        final var entry = (MapEntryNode) serializer().toNormalizedDataObject(DataObjectIdentifier.builder(Rft.class)
            .child(Switch.class, new SwitchKey(new NodeId("leaf1"))).child(Session.class, new SessionKey(ID)).build(),
            session).node();
        assertEquals(new SwitchSession("leaf1", "10.1.0.2", "10.2.0.2", 0x101, 0xabcd, SessionState.ESTABLISHED,
            100_000_001, 100_500_000, true, "leaf1-eth1", 100_000_001, true, "leaf1-eth3", 100_000_002, true,
            "leaf1-eth1", false, null, false, false, null, null, null, null, null), SwitchSession.of("leaf1", entry));
    }

    @Test
    public void aSessionEntrysCongestionFiguresReadAsItsBindingSessionHasThem() {
        final var session = new SessionBuilder().setSessionId(ID)
            .setRequesterIp(new IpAddress(new Ipv4Address("10.1.0.2")))
            .setResponderIp(new IpAddress(new Ipv4Address("10.2.0.2")))
            .setRequesterData(new RequesterDataBuilder().setIngressPort("leaf1-eth1")
                .setUdpSrcPort(new PortNumber(Uint16.valueOf(50001))).setPackets(Uint64.TEN)
                .setDscp(Uint8.valueOf(26)).setEctPackets(Uint64.TEN).setCePackets(Uint64.valueOf(4))
                .setCnpPackets(Uint64.valueOf(2)).build())
            // the CNPs alone: no data of the responder's sampled here, so no sighting of it
            .setResponderData(new ResponderDataBuilder().setUdpSrcPort(new PortNumber(Uint16.ZERO))
                .setPackets(Uint64.ZERO).setEctPackets(Uint64.ZERO).setCePackets(Uint64.ZERO)
                .setCnpPackets(Uint64.valueOf(9)).build())
            .build();
        final var entry = (MapEntryNode) serializer().toNormalizedDataObject(DataObjectIdentifier.builder(Rft.class)
            .child(Switch.class, new SwitchKey(new NodeId("leaf1"))).child(Session.class, new SessionKey(ID)).build(),
            session).node();
        final var seen = SwitchSession.of("leaf1", entry);
        assertTrue(seen.requesterData());
        assertFalse(seen.responderData());
        assertEquals(new Congestion.Figures(26, -1, 10, 4, 2), seen.requesterFigures());
        assertEquals(new Congestion.Figures(-1, -1, 0, 0, 9), seen.responderFigures());
        // an agent without congestion figures: none
        final var old = (MapEntryNode) serializer().toNormalizedDataObject(DataObjectIdentifier.builder(Rft.class)
            .child(Switch.class, new SwitchKey(new NodeId("leaf1"))).child(Session.class, new SessionKey(ID)).build(),
            new SessionBuilder(session).setRequesterData(new RequesterDataBuilder().setIngressPort("leaf1-eth1")
                .setUdpSrcPort(new PortNumber(Uint16.valueOf(50001))).setPackets(Uint64.TEN).build())
                .setResponderData(null).build()).node();
        assertEquals(null, SwitchSession.of("leaf1", old).requesterFigures());
        assertTrue(SwitchSession.of("leaf1", old).requesterData());
        // only the figures changed: another session to the RPT, so that its path is written again
        assertNotEquals(SwitchSession.of("leaf1", old), seen);
    }

    @Test
    public void aDirectionWithCnpsOnlyIsNotDataSeenThere() {
        // an agent that saw CNPs about the responder's data but sampled none of that data reports
        // a responder-data of 0 packets: the switch is not on that data's path for it
        final var session = new SessionBuilder().setSessionId(ID)
            .setRequesterIp(new IpAddress(new Ipv4Address("10.1.0.2")))
            .setResponderIp(new IpAddress(new Ipv4Address("10.2.0.2")))
            .setRequesterData(new RequesterDataBuilder().setIngressPort("leaf1-eth1")
                .setUdpSrcPort(new PortNumber(Uint16.valueOf(50001))).setPackets(Uint64.TEN).build())
            .setResponderData(new org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rdma.session
                .ResponderDataBuilder().setUdpSrcPort(new PortNumber(Uint16.ZERO)).setPackets(Uint64.ZERO).build())
            .build();
        final var entry = (MapEntryNode) serializer().toNormalizedDataObject(DataObjectIdentifier.builder(Rft.class)
            .child(Switch.class, new SwitchKey(new NodeId("leaf1"))).child(Session.class, new SessionKey(ID)).build(),
            session).node();
        final var seen = SwitchSession.of("leaf1", entry);
        assertTrue(seen.requesterData());
        assertEquals("leaf1-eth1", seen.requesterDataPort());
        assertFalse(seen.responderData());
    }

    @Test
    public void oddLeavesReadAsAbsent() {
        final var entry = ImmutableNodes.newMapEntryBuilder()
            .withNodeIdentifier(NodeIdentifierWithPredicates.of(Session.QNAME, SwitchSession.SESSION_ID, ID))
            .withChild(ImmutableNodes.leafNode(SwitchSession.SESSION_ID, ID))
            .withChild(ImmutableNodes.leafNode(leaf("requester-qpn"), "not a number"))
            .withChild(ImmutableNodes.leafNode(leaf("state"), "NO_SUCH_STATE"))
            .withChild(ImmutableNodes.leafNode(leaf("first-seen"), 12))
            .withChild(ImmutableNodes.leafNode(leaf("requester-ip"), Uint32.ONE))
            .withChild(ImmutableNodes.newUserMapBuilder().withNodeIdentifier(NodeIdentifier.create(
                    org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rdma.session.Message.QNAME))
                .withChild(ImmutableNodes.newMapEntryBuilder()
                    .withNodeIdentifier(NodeIdentifierWithPredicates.of(
                        org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rdma.session.Message.QNAME,
                        QName.create(Session.QNAME, "seq"), Uint32.ZERO))
                    .withChild(ImmutableNodes.leafNode(leaf("from-requester"), "yes"))
                    .withChild(ImmutableNodes.leafNode(leaf("type"), "REQ"))
                    .withChild(ImmutableNodes.leafNode(leaf("ingress-tp"), 3))
                    .withChild(ImmutableNodes.leafNode(leaf("time"), "soon"))
                    .build())
                .build())
            .build();
        assertEquals(new SwitchSession("leaf1", null, null, -1, -1, null, 0, 0, true, null, 0, false, null, 0, false,
            null, false, null, false, false, null, null, null, null, null), SwitchSession.of("leaf1", entry));
    }

    private static NodeIdentifier leaf(final String name) {
        return NodeIdentifier.create(QName.create(Session.QNAME, name));
    }

    private static DateAndTime seconds(final String value) {
        return new DateAndTime(Times.format(new BigDecimal(value).movePointRight(6).longValueExact()));
    }

    private static PathAssembler.DirectionResult copy(final PathAssembler.DirectionResult direction) {
        return new PathAssembler.DirectionResult(List.copyOf(direction.hops()), direction.complete(),
            List.copyOf(direction.gaps()), direction.source(), direction.destination());
    }

    private static List<PathValue> values() {
        final var forward = new PathAssembler.DirectionResult(List.of(
                new PathAssembler.HopResult("leaf1", "leaf1-eth1", "leaf1-eth3", true),
                new PathAssembler.HopResult("spine1", "spine1-eth1", "spine1-eth2", true),
                new PathAssembler.HopResult("leaf2", "leaf2-eth3", "leaf2-eth1", true)),
            true, List.of(), new PathAssembler.HostEnd("h1a", "h1a-eth0"),
            new PathAssembler.HostEnd("h2a", "h2a-eth0"));
        final var reverse = new PathAssembler.DirectionResult(List.of(
                new PathAssembler.HopResult("leaf2", "leaf2-eth1", "leaf2-eth3", true),
                new PathAssembler.HopResult("spine1", null, "spine1-eth1", false),
                new PathAssembler.HopResult("leaf1", "leaf1-eth3", null, true)),
            false, List.of("switch spine1 saw nothing", "a gap twice", "a gap twice"),
            new PathAssembler.HostEnd("h2a", null), null);
        final var nobody = new PathAssembler.DirectionResult(List.of(), false, List.of("no switch saw this direction"),
            null, new PathAssembler.HostEnd("h2a", null));
        final var data = new DataPaths.Result(forward, nobody, true,
            List.of("forward data enters leaf2 on leaf2-eth4, its CM on leaf2-eth3", "reverse: another"));
        // data paths with congestion figures: marked between leaf1 and spine1; CNPs alone the other way
        final var marked = new PathAssembler.DirectionResult(List.of(
                new PathAssembler.HopResult("leaf1", "leaf1-eth1", "leaf1-eth3", true,
                    new Congestion.Figures(26, 3, 40, 0, 1)),
                new PathAssembler.HopResult("spine1", "spine1-eth1", "spine1-eth2", true,
                    new Congestion.Figures(26, 3, 40, 10, 1)),
                new PathAssembler.HopResult("leaf2", "leaf2-eth3", "leaf2-eth1", true,
                    new Congestion.Figures(-1, -1, 40, 40, -1))),
            true, List.of(), new PathAssembler.HostEnd("h1a", "h1a-eth0"), new PathAssembler.HostEnd("h2a", "h2a-eth0"),
            new Congestion.Summary(40, 40, 12, new Congestion.MarkedAt("leaf1", "leaf1-eth3", "spine1", "spine1-eth1",
                1, true)));
        final var cnpsOnly = new PathAssembler.DirectionResult(List.of(
                new PathAssembler.HopResult("leaf2", "leaf2-eth1", "leaf2-eth3", true,
                    new Congestion.Figures(-1, -1, -1, -1, 5)),
                new PathAssembler.HopResult("spine1", null, null, false)),
            false, List.of("a gap"), null, null, new Congestion.Summary(-1, -1, 5, new Congestion.MarkedAt(null, null,
                "leaf2", null, 0, false)));
        return List.of(
            new PathValue(ID, "10.1.0.2", "10.2.0.2", 0x000101, 0x00abcd, SessionState.ESTABLISHED, forward, reverse,
                true, null),
            new PathValue(ID, "10.1.0.2", "fd00:0:0:2::2", 0, 0xFFFFFF, SessionState.REQSENT, forward, nobody, false,
                data),
            new PathValue(ID, null, null, -1, -1, null, nobody, nobody, false,
                new DataPaths.Result(nobody, reverse, false, null)),
            new PathValue("bare", null, null, -1, -1, null, nobody, nobody, false, null),
            // a data-learned session: its data paths, no CM; a one-way flow: one data path
            new PathValue("10.1.0.2/qp0x000101/10.2.0.2/qp0x00abcd", "10.1.0.2", "10.2.0.2", 0x101, 0xabcd,
                SessionState.ACTIVE, null, null, true, new DataPaths.Result(forward, reverse, false, null), true, false,
                "RC"),
            new PathValue("10.1.0.2/-/10.2.0.2/qp0x00abcd", "10.1.0.2", "10.2.0.2", -1, 0xabcd, SessionState.IDLE,
                null, null, false, new DataPaths.Result(forward, null, false, null), true, true, "UD"),
            // congestion on the data paths of a CM session and of a data-learned one
            new PathValue(ID, "10.1.0.2", "10.2.0.2", 0x000101, 0x00abcd, SessionState.ESTABLISHED, forward, reverse,
                true, new DataPaths.Result(marked, cnpsOnly, false, null)),
            new PathValue("10.1.0.2/qp0x000101/10.2.0.2/qp0x00abcd", "10.1.0.2", "10.2.0.2", 0x101, 0xabcd,
                SessionState.ACTIVE, null, null, true, new DataPaths.Result(cnpsOnly, marked, false, null), true, false,
                "RC"));
    }

    @Test
    public void aDataLearnedPathIsItsDataPaths() {
        final var session = values().get(4);
        final var binding = session.toBinding();
        assertEquals(org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.LearnedFrom.Data,
            binding.getLearnedFrom());
        assertEquals(null, binding.getForward());
        assertEquals(null, binding.getReverse());
        assertEquals(null, binding.getDataPathDiffers());
        assertEquals(null, binding.getOneWay());
        assertEquals(3, binding.getDataReverse().getHop().size());
        // the RPCs see its data paths
        assertTrue(session.crosses("spine1", "spine1-eth2"));
        assertTrue(session.touches(Set.of("h2a")));
        assertFalse(session.complete());
        final var flow = values().get(5).toBinding();
        assertEquals(Boolean.TRUE, flow.getOneWay());
        assertEquals(null, flow.getDataReverse());
        assertEquals(null, flow.getRequesterQpn());
        assertTrue(values().get(5).complete());
        // a CM session's path says so too
        assertEquals(org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.LearnedFrom.Cm,
            values().get(0).toBinding().getLearnedFrom());
    }

    private BindingNormalizedNodeSerializer serializer() {
        return getDataBrokerTestCustomizer().getAdapterContext().currentSerializer();
    }

    private static DataObjectIdentifier.WithKey<Path, PathKey> identifier(final String id) {
        return DataObjectIdentifier.builder(Rpt.class).child(Path.class, new PathKey(id)).build();
    }

    /**
     * A path written again as its changed children (as the RPT writes it) reads back from the
     * datastore exactly as the whole new entry would: for every pair of values, each direction.
     */
    @Test
    public void aPathWrittenInPartReadsAsWrittenWhole() throws Exception {
        final var base = values();
        final List<PathValue> all = new ArrayList<>();
        for (var value : base) {
            // one session id, so that each can follow each; and a state of each kind, and none
            all.add(new PathValue(ID, value.requesterIp(), value.responderIp(), value.requesterQpn(),
                value.responderQpn(), value.state(), value.forward(), value.reverse(), value.asymmetric(),
                value.data(), value.learnedData(), value.oneWay(), value.transport()));
            all.add(new PathValue(ID, value.requesterIp(), value.responderIp(), value.requesterQpn(),
                value.responderQpn(), SessionState.CLOSED, value.forward(), value.reverse(), !value.asymmetric(),
                value.data(), value.learnedData(), value.oneWay(), value.transport()));
        }
        final var data = base.get(1).data();
        all.add(new PathValue(ID, "10.1.0.2", "10.2.0.2", 5, 6, SessionState.ESTABLISHED, base.get(0).forward(),
            base.get(0).reverse(), true, new DataPaths.Result(data.forward(), data.reverse(), false, null)));
        final var cache = new PathNodes.Cache();
        final var path = PathNodes.identifier(ID);
        int partial = 0;
        for (var before : all) {
            for (var after : all) {
                write(tx -> tx.put(LogicalDatastoreType.OPERATIONAL, path, PathNodes.node(after, cache)));
                final var whole = read(path);
                write(tx -> tx.put(LogicalDatastoreType.OPERATIONAL, path, PathNodes.node(before, cache)));
                final var changes = PathNodes.changes(before, after, cache);
                assertEquals(before.equals(after), changes.isEmpty());
                write(tx -> changes.forEach((child, node) -> {
                    if (node == null) {
                        tx.delete(LogicalDatastoreType.OPERATIONAL, path.node(child));
                    } else {
                        tx.put(LogicalDatastoreType.OPERATIONAL, path.node(child), node);
                    }
                }));
                assertEquals(whole, read(path), before + " -> " + after);
                partial += changes.size() < 4 ? 1 : 0;
            }
        }
        // the point of it: most changes are a few children, not the entry
        assertTrue(partial > all.size());
    }

    private void write(final java.util.function.Consumer<DOMDataTreeWriteTransaction> body) throws Exception {
        final var tx = getDomBroker().newWriteOnlyTransaction();
        body.accept(tx);
        tx.commit().get(10, TimeUnit.SECONDS);
    }

    private NormalizedNode read(final YangInstanceIdentifier path) throws Exception {
        try (var tx = getDomBroker().newReadOnlyTransaction()) {
            return tx.read(LogicalDatastoreType.OPERATIONAL, path).get(10, TimeUnit.SECONDS).orElseThrow();
        }
    }

    @Test
    public void theComparisonIsNotBlind() {
        final var value = values().get(0);
        final var other = new PathValue(ID, value.requesterIp(), value.responderIp(), value.requesterQpn(),
            value.responderQpn(), SessionState.CLOSED, value.forward(), value.reverse(), value.asymmetric(), null);
        assertNotEquals(value, other);
        assertNotEquals(PathNodes.node(value, new PathNodes.Cache()), PathNodes.node(other, new PathNodes.Cache()));
    }
}
