/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.manager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.opendaylight.mdsal.binding.dom.adapter.test.AbstractConcurrentDataBrokerTest;
import org.opendaylight.mdsal.common.api.LogicalDatastoreType;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.CmMessageType;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.SessionState;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.Session;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.SessionBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.SessionKey;
import org.opendaylight.yangtools.yang.data.api.schema.MapEntryNode;

/**
 * The sessions' nodes built by hand are exactly what the binding codec makes of the same sessions,
 * for every leaf the model has, and the datastore takes them and gives the sessions back.
 */
public class SessionNodesTest extends AbstractConcurrentDataBrokerTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Sets up the base class's broker, which it does with JUnit 4's @Before (Jupiter does not run it). */
    @BeforeEach
    public void setUpBroker() throws Exception {
        setup();
    }

    public SessionNodesTest() {
        super(true);
    }

    /** Every field the agent reports, IPv4 and IPv6, with and without the optional ones. */
    private static List<Session> sessions() throws Exception {
        final List<Session> sessions = new ArrayList<>();
        sessions.add(ReferenceRecord.toSession(JSON.readTree("""
            {"session_id":"10.0.0.1/0x00000001/10.0.0.2","requester_ip":"10.0.0.1","responder_ip":"10.0.0.2",
             "requester_comm_id":"0x00000001","responder_comm_id":"0xdeadbeef","requester_qpn":16777215,
             "responder_qpn":0,"service_id":"0x0000000001064791","roles_known":true,"rdma_cm_src_port":40000,
             "rdma_cm_dst_port":18515,"requester_udp_src_port":49152,"responder_udp_src_port":65535,
             "requester_data":{"udp_src_port":50000,"ingress_port":"swp1","packets":9223372036854775807},
             "responder_data":{"udp_src_port":0,"packets":0},
             "state":"REJECTED","reject_reason":28,"dropped_messages":4294967295,
             "first_seen":1764547200.000001,"last_seen":1764547201.5,
             "message_log":[{"msg":"REQ","time":1764547200.000001,"ingress_port":"swp1","from_requester":true},
                            {"msg":"REJ","time":1764547201.5}]}"""), Map.of("swp1", "leaf1:1")));
        sessions.add(ReferenceRecord.toSession(JSON.readTree("""
            {"session_id":"fd00::1/0x0000abcd/fd00::2","requester_ip":"fd00::1","responder_ip":"fd00::2",
             "requester_comm_id":"0x0000abcd","state":"ESTABLISHED","roles_known":false,"first_seen":1764547200,
             "last_seen":1764547200}""")));
        // a data-learned session as the contract has it: no comm IDs, no messages
        sessions.add(ReferenceRecord.toSession(JSON.readTree("""
            {"session_id":"10.0.0.1/qp0x000011/10.0.0.2/qp0x000022","learned_from":"data","roles_known":false,
             "requester_ip":"10.0.0.1","responder_ip":"10.0.0.2","requester_qpn":17,"responder_qpn":34,
             "transport":"RC","requester_data":{"udp_src_port":50001,"ingress_port":"swp1","packets":40},
             "responder_data":{"udp_src_port":50002,"ingress_port":"swp2","packets":38},"state":"ACTIVE",
             "messages":[],"first_seen":1764547200.5,"last_seen":1764547230.25,"message_log":[]}"""),
            Map.of("swp1", "leaf1:1")));
        // a one-way flow, its PSNs (evidence, not leaves)
        final var oneWay = ReferenceRecord.toSession(JSON.readTree("""
            {"session_id":"10.0.0.3/-/10.0.0.4/qp0x0000ff","learned_from":"data","roles_known":false,
             "one_way":true,"transport":"UD","requester_ip":"10.0.0.3","responder_ip":"10.0.0.4",
             "responder_qpn":255,"requester_data":{"udp_src_port":4791,"packets":3},
             "request_psns":[4096,8192],"response_psns":[],"state":"IDLE","first_seen":1764547200,
             "last_seen":1764547201}"""));
        sessions.add(oneWay);
        // the controller's pairing of a one-way flow
        sessions.add(new SessionBuilder(oneWay).withKey(new SessionKey("10.0.0.3/-/10.0.0.4/qp0x000100"))
            .setSessionId("10.0.0.3/-/10.0.0.4/qp0x000100")
            .setPairedSession("10.0.0.3/qp0x000007/10.0.0.4/qp0x000100").build());
        sessions.add(new SessionBuilder(oneWay).withKey(new SessionKey("10.0.0.3/-/10.0.0.4/qp0x000101"))
            .setSessionId("10.0.0.3/-/10.0.0.4/qp0x000101").setPairAmbiguous(true).build());
        // the key alone
        sessions.add(new SessionBuilder().setSessionId("bare").build());
        // every state, every message type
        final var types = CmMessageType.values();
        for (var state : SessionState.values()) {
            final var log = new StringBuilder();
            for (int i = 0; i < types.length; i++) {
                log.append(i == 0 ? "" : ",").append("{\"msg\":\"").append(types[i].getName())
                    .append("\",\"time\":1764547200.25,\"from_requester\":").append(i % 2 == 0).append('}');
            }
            sessions.add(ReferenceRecord.toSession(JSON.readTree("{\"session_id\":\"s-" + state.getName()
                + "\",\"requester_comm_id\":\"0x00000001\",\"state\":\"" + state.getName()
                + "\",\"message_log\":[" + log + "]}")));
        }
        final var unconfirmed = new SessionBuilder(sessions.get(1))
            .withKey(new SessionKey("fd00::1/0x0000abce/fd00::2")).setSessionId("fd00::1/0x0000abce/fd00::2")
            .setUnconfirmed("agent restarted at 12:00").build();
        sessions.add(unconfirmed);
        return sessions;
    }

    @Test
    public void nodesAreWhatTheCodecMakes() throws Exception {
        final var codec = TestStores.of(this).codec();
        for (var session : sessions()) {
            final var path = StatusWriter.sessionPath("leaf1", session.getSessionId());
            final var expected = codec.toNormalizedDataObject(path, session);
            assertEquals(expected.path(),
                SessionNodes.sessionPath("leaf1", session.getSessionId()), session.getSessionId());
            assertEquals(expected.node(), SessionNodes.session(session), session.getSessionId());
        }
        assertEquals(codec.toYangInstanceIdentifier(StatusWriter.switchPath("leaf1")),
            SessionNodes.switchPath("leaf1"));
    }

    /** The session as a binding reader has it: the model's defaults where the session has no value. */
    private static Session withDefaults(final Session session) {
        final var b = new SessionBuilder(session);
        if (session.getLearnedFrom() == null) {
            b.setLearnedFrom(org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.LearnedFrom.Cm);
        }
        if (session.getOneWay() == null) {
            b.setOneWay(false);
        }
        return b.build();
    }

    @Test
    public void aPairingIsWrittenAsTheCodecWritesIt() throws Exception {
        final var codec = TestStores.of(this).codec();
        final var oneWay = sessions().stream().filter(x -> Boolean.TRUE.equals(x.getOneWay())
            && x.getPairedSession() == null && x.getPairAmbiguous() == null).findFirst().orElseThrow();
        final var node = SessionNodes.session(oneWay);
        final var paired = SessionNodes.withPairing(node, new DataPairing.Outcome("10.0.0.3/qp0x000001/10.0.0.4/qp0x0000ff",
            false));
        assertEquals(codec.toNormalizedDataObject(StatusWriter.sessionPath("leaf1", oneWay.getSessionId()),
            new SessionBuilder(oneWay).setPairedSession("10.0.0.3/qp0x000001/10.0.0.4/qp0x0000ff").build()).node(),
            paired);
        final var ambiguous = SessionNodes.withPairing(paired, DataPairing.Outcome.AMBIGUOUS);
        assertEquals(codec.toNormalizedDataObject(StatusWriter.sessionPath("leaf1", oneWay.getSessionId()),
            new SessionBuilder(oneWay).setPairAmbiguous(true).build()).node(), ambiguous);
        // back to no pairing: the node as it was, and an unchanged pairing is the node itself
        assertEquals(node, SessionNodes.withPairing(ambiguous, DataPairing.Outcome.NONE));
        assertSame(node, SessionNodes.withPairing(node, DataPairing.Outcome.NONE));
    }

    @Test
    public void aMissedLeafWouldShow() throws Exception {
        // the comparison sees a single leaf's difference: what the test above relies on
        final var session = sessions().get(0);
        final var codec = TestStores.of(this).codec();
        final var other = new SessionBuilder(session).setDroppedMessages(null).build();
        assertNotEquals(codec.toNormalizedDataObject(StatusWriter.sessionPath("leaf1", session.getSessionId()),
            session).node(), SessionNodes.session(other));
    }

    @Test
    public void theDatastoreGivesTheSessionsBack() throws Exception {
        final var stores = TestStores.of(this);
        final var sessions = sessions();
        try (var writer = new StatusWriter(stores)) {
            final Map<String, MapEntryNode> nodes = new LinkedHashMap<>();
            sessions.forEach(session -> nodes.put(session.getSessionId(), SessionNodes.session(session)));
            writer.writeSessions("leaf1", nodes, List.of()).get(10, TimeUnit.SECONDS);
            // what a new follower reads back to start from: the nodes written
            assertEquals(nodes, writer.storedSessions("leaf1"));
            writer.markUnconfirmed("leaf1", Map.of("bare", SessionNodes.withUnconfirmed(nodes.get("bare"),
                "gone from the agent"))).get(10, TimeUnit.SECONDS);
            writer.writeSessions("leaf1", Map.of(), List.of(sessions.get(1).getSessionId()))
                .get(10, TimeUnit.SECONDS);
        }
        try (var tx = getDataBroker().newReadOnlyTransaction()) {
            final var read = tx.read(LogicalDatastoreType.OPERATIONAL, StatusWriter.switchPath("leaf1"))
                .get(10, TimeUnit.SECONDS).orElseThrow().nonnullSession();
            assertEquals(sessions.size() - 1, read.size(), read.keySet().toString());
            for (var session : sessions) {
                final var back = read.get(new SessionKey(session.getSessionId()));
                if (session.getSessionId().equals(sessions.get(1).getSessionId())) {
                    assertEquals(null, back);
                } else if ("bare".equals(session.getSessionId())) {
                    assertEquals(withDefaults(new SessionBuilder(session).setUnconfirmed("gone from the agent")
                        .build()), back);
                } else {
                    assertEquals(withDefaults(session), back);
                }
            }
        }
    }
}
