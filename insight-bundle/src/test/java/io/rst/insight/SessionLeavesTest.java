/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.insight;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rst.yang.time.Times;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.opendaylight.mdsal.binding.dom.adapter.test.AbstractConcurrentDataBrokerTest;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.IpAddress;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.Ipv4Address;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.Ipv6Address;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.yang.types.rev130715.DateAndTime;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.CmMessageType;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.LearnedFrom;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.Rft;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.ServiceId;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.SessionState;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.Transport;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rdma.session.Message;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rdma.session.MessageBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft.Switch;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft.SwitchKey;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.Session;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.SessionBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.SessionKey;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.NodeId;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.TpId;
import org.opendaylight.yangtools.binding.DataObjectIdentifier;
import org.opendaylight.yangtools.yang.common.Uint16;
import org.opendaylight.yangtools.yang.common.Uint32;
import org.opendaylight.yangtools.yang.data.api.schema.MapEntryNode;

/**
 * A sighting read leaf by leaf from the datastore's node is the one read from the binding session,
 * for every field it takes: states, message types, absent leaves, IPv4 and IPv6.
 */
public class SessionLeavesTest extends AbstractConcurrentDataBrokerTest {
    /** Sets up the base class's broker, which it does with JUnit 4's @Before (Jupiter does not run it). */
    @BeforeEach
    public void setUpBroker() throws Exception {
        setup();
    }

    @Test
    public void theSightingOfTheNodeIsTheSightingOfTheSession() throws Exception {
        final var customizer = getDataBrokerTestCustomizer();
        customizer.updateSchema(getRuntimeContext());
        final var codec = customizer.getAdapterContext().currentSerializer();
        final List<Session> sessions = new ArrayList<>();
        sessions.add(new SessionBuilder().setSessionId("bare").build());
        int index = 0;
        for (var state : SessionState.values()) {
            final List<Message> log = new ArrayList<>();
            long seq = 0;
            for (var type : CmMessageType.values()) {
                final var m = new MessageBuilder().setSeq(Uint32.valueOf(seq++)).setType(type);
                if (seq % 2 == 0) {
                    m.setIngressTp(new TpId("swp" + seq)).setTime(seconds("1764547200." + seq));
                }
                log.add(m.build());
                // a second of the same type: the first counts
                log.add(new MessageBuilder().setSeq(Uint32.valueOf(100 + seq)).setType(type)
                    .setIngressTp(new TpId("late")).setTime(seconds("1764547300")).build());
            }
            final var b = new SessionBuilder().setSessionId("s" + index++).setState(state).setMessage(log)
                .setFirstSeen(seconds("1764547200.000001")).setLastSeen(seconds("1764547201.5"));
            if (index % 2 == 0) {
                b.setRequesterIp(new IpAddress(new Ipv4Address("10.0.0.1")))
                    .setResponderIp(new IpAddress(new Ipv4Address("10.0.0.2")))
                    .setServiceId(new ServiceId("0x0000000001064791")).setRolesKnown(false)
                    .setRejectReason(Uint16.valueOf(28));
            } else {
                b.setRequesterIp(new IpAddress(new Ipv6Address("fd00::1")))
                    .setResponderIp(new IpAddress(new Ipv6Address("fd00::2"))).setRolesKnown(true);
            }
            sessions.add(b.build());
        }
        // data-learned: a paired session, one-way flows of each transport, paired, ambiguous
        final var flow = new SessionBuilder().setSessionId("10.0.0.1/-/10.0.0.2/qp0x000022")
            .setLearnedFrom(LearnedFrom.Data).setOneWay(true).setTransport(Transport.RC).setRolesKnown(false)
            .setRequesterIp(new IpAddress(new Ipv4Address("10.0.0.1")))
            .setResponderIp(new IpAddress(new Ipv4Address("10.0.0.2"))).setState(SessionState.ACTIVE)
            .setFirstSeen(seconds("1764547200")).setLastSeen(seconds("1764547290"));
        sessions.add(flow.build());
        sessions.add(flow.setSessionId("paired").setPairedSession("10.0.0.1/qp0x000011/10.0.0.2/qp0x000022").build());
        sessions.add(flow.setSessionId("joined").setPairedSession("10.0.0.1/0x00000abc/10.0.0.2").build());
        sessions.add(flow.setSessionId("ambiguous").setPairedSession(null).setPairAmbiguous(true).build());
        sessions.add(flow.setSessionId("ud").setPairAmbiguous(null).setTransport(Transport.UD).build());
        sessions.add(flow.setSessionId("pair").setTransport(Transport.RC).setOneWay(false)
            .setState(SessionState.IDLE).build());
        // learnt from CM, said so
        sessions.add(new SessionBuilder().setSessionId("cm").setLearnedFrom(LearnedFrom.Cm).build());
        for (var session : sessions) {
            final var path = DataObjectIdentifier.builder(Rft.class)
                .child(Switch.class, new SwitchKey(new NodeId("sw")))
                .child(Session.class, new SessionKey(session.getSessionId())).build();
            final var node = (MapEntryNode) codec.toNormalizedDataObject(path, session).node();
            assertEquals(Sighting.of("sw", session), SessionLeaves.sighting("sw", node), session.getSessionId());
            assertEquals(session.getSessionId(), SessionLeaves.sessionId(node.name()));
        }
        final var one = Sighting.of("sw", sessions.get(sessions.size() - 7));
        assertEquals(Sighting.DATA | Sighting.ONE_WAY | Sighting.RC, one.origin());
        org.junit.jupiter.api.Assertions.assertTrue(one.unansweredOneWay());
        org.junit.jupiter.api.Assertions.assertTrue(one.learnedData());
        // joined into a CM session: part of it, neither unanswered nor a session of its own
        final var joined = Sighting.of("sw", sessions.get(sessions.size() - 5));
        assertEquals(Sighting.DATA | Sighting.ONE_WAY | Sighting.RC | Sighting.PAIRED | Sighting.JOINED,
            joined.origin());
        org.junit.jupiter.api.Assertions.assertTrue(joined.joined());
        org.junit.jupiter.api.Assertions.assertTrue(Sighting.dataId("fd00::1/qp0x000011/fd00::2/qp0xabcdef"));
        org.junit.jupiter.api.Assertions.assertFalse(Sighting.dataId("10.0.0.1/0x00000abc/10.0.0.2"));
        org.junit.jupiter.api.Assertions.assertFalse(Sighting.dataId("10.0.0.1/0x0000abcd/10.0.0.2/0x00000001"));
        org.junit.jupiter.api.Assertions.assertFalse(Sighting.dataId("10.0.0.1/-/10.0.0.2/qp0x000022"));
        org.junit.jupiter.api.Assertions.assertFalse(Sighting.of("sw", sessions.get(sessions.size() - 6)).joined());
        for (var other : sessions.subList(sessions.size() - 6, sessions.size())) {
            org.junit.jupiter.api.Assertions.assertFalse(Sighting.of("sw", other).unansweredOneWay(),
                other.getSessionId());
        }
        org.junit.jupiter.api.Assertions.assertFalse(Sighting.of("sw", sessions.get(0)).learnedData());
    }

    private static DateAndTime seconds(final String text) {
        return new DateAndTime(Times.format(new BigDecimal(text).movePointRight(6).longValueExact()));
    }
}
