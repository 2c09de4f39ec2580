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
 * The sessions' nodes the followers build by hand from the agents' records are exactly what the
 * binding codec makes of the same records read through the model, for every leaf the model has,
 * and the datastore takes them and gives the sessions back.
 */
public class SessionNodesTest extends AbstractConcurrentDataBrokerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String FULL = """
        {"session_id":"10.0.0.1/0x00000001/10.0.0.2","requester_ip":"10.0.0.1","responder_ip":"10.0.0.2",
         "requester_comm_id":"0x00000001","responder_comm_id":"0xdeadbeef","requester_qpn":16777215,
         "responder_qpn":0,"service_id":"0x0000000001064791","roles_known":true,"rdma_cm_src_port":40000,
         "rdma_cm_dst_port":18515,"requester_udp_src_port":49152,"responder_udp_src_port":65535,
         "requester_data":{"udp_src_port":50000,"ingress_port":"swp1","packets":9223372036854775807,"dscp":63,
                           "ect":9223372036854775807,"ce":2147483647,"cnp":0},
         "responder_data":{"udp_src_port":0,"packets":0,"ect":0,"ce":0,"cnp":12},
         "state":"REJECTED","reject_reason":28,"dropped_messages":4294967295,
         "first_seen":1764547200.000001,"last_seen":1764547201.5,
         "message_log":[{"msg":"REQ","time":1764547200.000001,"ingress_port":"swp1","from_requester":true},
                        {"msg":"REJ","time":1764547201.5}]}""";
    private static final String IPV6 = """
        {"session_id":"fd00::1/0x0000abcd/fd00::2","requester_ip":"fd00::1","responder_ip":"fd00::2",
         "requester_comm_id":"0x0000abcd","state":"ESTABLISHED","roles_known":false,"first_seen":1764547200,
         "last_seen":1764547200}""";
    private static final String ONE_WAY_ID = "10.0.0.3/-/10.0.0.4/qp0x0000ff";
    private static final String ONE_WAY = """
        {"session_id":"10.0.0.3/-/10.0.0.4/qp0x0000ff","learned_from":"data","roles_known":false,
         "one_way":true,"transport":"UD","requester_ip":"10.0.0.3","responder_ip":"10.0.0.4",
         "responder_qpn":255,"requester_data":{"udp_src_port":4791,"packets":3},
         "request_psns":[4096,8192],"response_psns":[],"state":"IDLE","first_seen":1764547200,
         "last_seen":1764547201}""";

    /** Sets up the base class's broker, which it does with JUnit 4's @Before (Jupiter does not run it). */
    @BeforeEach
    public void setUpBroker() throws Exception {
        setup();
    }

    public SessionNodesTest() {
        super(true);
    }

    /**
     * A session as the follower writes it ({@code node}), and the binding session the model makes
     * of the same record ({@code session}: what the codec's node is made from).
     */
    private record Sample(Session session, MapEntryNode node) {
        String id() {
            return session.getSessionId();
        }
    }

    private static Sample sample(final String record, final Map<String, String> ports) throws Exception {
        return new Sample(ReferenceRecord.toSession(JSON.readTree(record), ports), FollowerNodes.node(record, ports));
    }

    /** Every field the agent reports, IPv4 and IPv6, with and without the optional ones. */
    private static List<Sample> samples() throws Exception {
        final List<Sample> samples = new ArrayList<>();
        samples.add(sample(FULL, Map.of("swp1", "leaf1:1")));
        samples.add(sample(IPV6, Map.of()));
        // a data-learned session as the contract has it: no comm IDs, no messages
        samples.add(sample("""
            {"session_id":"10.0.0.1/qp0x000011/10.0.0.2/qp0x000022","learned_from":"data","roles_known":false,
             "requester_ip":"10.0.0.1","responder_ip":"10.0.0.2","requester_qpn":17,"responder_qpn":34,
             "transport":"RC","requester_data":{"udp_src_port":50001,"ingress_port":"swp1","packets":40},
             "responder_data":{"udp_src_port":50002,"ingress_port":"swp2","packets":38},"state":"ACTIVE",
             "messages":[],"first_seen":1764547200.5,"last_seen":1764547230.25,"message_log":[]}""",
            Map.of("swp1", "leaf1:1")));
        // a one-way flow, its PSNs (evidence, not leaves)
        samples.add(sample(ONE_WAY, Map.of()));
        // the controller's pairing of a one-way flow, as the follower marks it
        final var paired = sample(ONE_WAY.replace(ONE_WAY_ID, "10.0.0.3/-/10.0.0.4/qp0x000100"), Map.of());
        samples.add(new Sample(new SessionBuilder(paired.session())
            .setPairedSession("10.0.0.3/qp0x000007/10.0.0.4/qp0x000100").build(),
            SessionNodes.withPairing(paired.node(),
                new DataPairing.Outcome("10.0.0.3/qp0x000007/10.0.0.4/qp0x000100", false))));
        final var ambiguous = sample(ONE_WAY.replace(ONE_WAY_ID, "10.0.0.3/-/10.0.0.4/qp0x000101"), Map.of());
        samples.add(new Sample(new SessionBuilder(ambiguous.session()).setPairAmbiguous(true).build(),
            SessionNodes.withPairing(ambiguous.node(), DataPairing.Outcome.AMBIGUOUS)));
        // the least a CM record holds: its id and its requester's comm ID
        samples.add(sample("{\"session_id\":\"bare\",\"requester_comm_id\":\"0x00000001\"}", Map.of()));
        // every state, every message type
        final var types = CmMessageType.values();
        for (var state : SessionState.values()) {
            final var log = new StringBuilder();
            for (int i = 0; i < types.length; i++) {
                log.append(i == 0 ? "" : ",").append("{\"msg\":\"").append(types[i].getName())
                    .append("\",\"time\":1764547200.25,\"from_requester\":").append(i % 2 == 0).append('}');
            }
            samples.add(sample("{\"session_id\":\"s-" + state.getName()
                + "\",\"requester_comm_id\":\"0x00000001\",\"state\":\"" + state.getName()
                + "\",\"message_log\":[" + log + "]}", Map.of()));
        }
        // a session the follower marks unconfirmed
        final var unconfirmed = sample(IPV6.replace("fd00::1/0x0000abcd/fd00::2", "fd00::1/0x0000abce/fd00::2"),
            Map.of());
        samples.add(new Sample(new SessionBuilder(unconfirmed.session()).setUnconfirmed("agent restarted at 12:00")
            .build(), SessionNodes.withUnconfirmed(unconfirmed.node(), "agent restarted at 12:00")));
        return samples;
    }

    @Test
    public void nodesAreWhatTheCodecMakes() throws Exception {
        final var codec = TestStores.of(this).codec();
        for (var sample : samples()) {
            final var path = StatusWriter.sessionPath("leaf1", sample.id());
            final var expected = codec.toNormalizedDataObject(path, sample.session());
            assertEquals(expected.path(), SessionNodes.sessionPath("leaf1", sample.id()), sample.id());
            assertEquals(expected.node(), sample.node(), sample.id());
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
        final var oneWay = sample(ONE_WAY, Map.of());
        final var node = oneWay.node();
        final var paired = SessionNodes.withPairing(node,
            new DataPairing.Outcome("10.0.0.3/qp0x000001/10.0.0.4/qp0x0000ff", false));
        assertEquals(codec.toNormalizedDataObject(StatusWriter.sessionPath("leaf1", oneWay.id()),
            new SessionBuilder(oneWay.session()).setPairedSession("10.0.0.3/qp0x000001/10.0.0.4/qp0x0000ff")
                .build()).node(), paired);
        final var ambiguous = SessionNodes.withPairing(paired, DataPairing.Outcome.AMBIGUOUS);
        assertEquals(codec.toNormalizedDataObject(StatusWriter.sessionPath("leaf1", oneWay.id()),
            new SessionBuilder(oneWay.session()).setPairAmbiguous(true).build()).node(), ambiguous);
        // back to no pairing: the node as it was, and an unchanged pairing is the node itself
        assertEquals(node, SessionNodes.withPairing(ambiguous, DataPairing.Outcome.NONE));
        assertSame(node, SessionNodes.withPairing(node, DataPairing.Outcome.NONE));
    }

    @Test
    public void aMissedLeafWouldShow() throws Exception {
        // the comparison sees a single leaf's difference: what the tests above rely on
        final var full = sample(FULL, Map.of("swp1", "leaf1:1"));
        final var codec = TestStores.of(this).codec();
        final var withoutDropped = FULL.replace("\"dropped_messages\":4294967295,", "");
        assertNotEquals(FULL, withoutDropped);
        assertNotEquals(codec.toNormalizedDataObject(StatusWriter.sessionPath("leaf1", full.id()),
            full.session()).node(), FollowerNodes.node(withoutDropped, Map.of("swp1", "leaf1:1")));
    }

    @Test
    public void theDatastoreGivesTheSessionsBack() throws Exception {
        final var stores = TestStores.of(this);
        final var samples = samples();
        final var removed = samples.get(1).id();
        try (var writer = new StatusWriter(stores)) {
            final Map<String, MapEntryNode> nodes = new LinkedHashMap<>();
            samples.forEach(sample -> nodes.put(sample.id(), sample.node()));
            writer.writeSessions("leaf1", nodes, List.of()).get(10, TimeUnit.SECONDS);
            // what a new follower reads back to start from: the nodes written
            assertEquals(nodes, writer.storedSessions("leaf1"));
            writer.markUnconfirmed("leaf1", Map.of("bare", SessionNodes.withUnconfirmed(nodes.get("bare"),
                "gone from the agent"))).get(10, TimeUnit.SECONDS);
            writer.writeSessions("leaf1", Map.of(), List.of(removed)).get(10, TimeUnit.SECONDS);
        }
        try (var tx = getDataBroker().newReadOnlyTransaction()) {
            final var read = tx.read(LogicalDatastoreType.OPERATIONAL, StatusWriter.switchPath("leaf1"))
                .get(10, TimeUnit.SECONDS).orElseThrow().nonnullSession();
            assertEquals(samples.size() - 1, read.size(), read.keySet().toString());
            for (var sample : samples) {
                final var back = read.get(new SessionKey(sample.id()));
                if (sample.id().equals(removed)) {
                    assertEquals(null, back);
                } else if ("bare".equals(sample.id())) {
                    assertEquals(withDefaults(new SessionBuilder(sample.session()).setUnconfirmed("gone from the agent")
                        .build()), back);
                } else {
                    assertEquals(withDefaults(sample.session()), back);
                }
            }
        }
    }
}
