/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.manager;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.Test;
import org.opendaylight.mdsal.binding.dom.adapter.test.AbstractConcurrentDataBrokerTest;
import org.opendaylight.mdsal.common.api.LogicalDatastoreType;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rdma.session.Message;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.Session;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.SessionBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.SessionKey;
import org.opendaylight.yangtools.yang.common.Uint32;
import org.opendaylight.yangtools.yang.data.api.YangInstanceIdentifier.NodeIdentifierWithPredicates;
import org.opendaylight.yangtools.yang.data.api.schema.MapEntryNode;
import org.opendaylight.yangtools.yang.data.api.schema.UserMapNode;
import org.opendaylight.yangtools.yang.data.spi.node.ImmutableNodes;

/**
 * The flow table's compact message log ({@link MessageLog}) is, to everyone who sees it through
 * {@link UserMapNode}, the list yangtools would have made: equal both ways, the same hash code,
 * its entries in order and by key; and the datastore takes sessions holding it, merges a mark into
 * them, replaces and deletes them, and gives back exactly the sessions the binding codec knows.
 */
public class MessageLogTest extends AbstractConcurrentDataBrokerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonFactory FACTORY = new JsonFactory();

    public MessageLogTest() {
        super(true);
    }

    private static MapEntryNode message(final long seq, final String type) {
        return ImmutableNodes.newMapEntryBuilder()
            .withNodeIdentifier(NodeIdentifierWithPredicates.of(Message.QNAME, SessionNodes.SEQ, Uint32.valueOf(seq)))
            .withChild(ImmutableNodes.leafNode(SessionNodes.SEQ_LEAF, Uint32.valueOf(seq)))
            .withChild(ImmutableNodes.leafNode(SessionNodes.TYPE, type))
            .build();
    }

    private static UserMapNode yangtools(final MapEntryNode... entries) {
        final var b = ImmutableNodes.newUserMapBuilder().withNodeIdentifier(SessionNodes.MESSAGES);
        for (var e : entries) {
            b.withChild(e);
        }
        return b.build();
    }

    @Test
    public void equalToYangtoolsOwnListBothWays() {
        final var req = message(0, "REQ");
        final var rep = message(1, "REP");
        final var rtu = message(2, "RTU");
        final var ours = new MessageLog(SessionNodes.MESSAGES, new MapEntryNode[] {req, rep, rtu});
        final var theirs = yangtools(req, rep, rtu);
        assertEquals(theirs, ours);
        assertEquals(ours, theirs);
        assertEquals(theirs.hashCode(), ours.hashCode());
        assertEquals(List.copyOf(theirs.body()), List.copyOf(ours.body()));
        assertEquals(List.copyOf(theirs.asMap().keySet()), List.copyOf(ours.asMap().keySet()));
        // the order is part of the value, and so is every entry
        final var swapped = new MessageLog(SessionNodes.MESSAGES, new MapEntryNode[] {rep, req, rtu});
        assertNotEquals(theirs, swapped);
        assertNotEquals(swapped, theirs);
        assertNotEquals(theirs, new MessageLog(SessionNodes.MESSAGES, new MapEntryNode[] {req, rep}));
        assertNotEquals(new MessageLog(SessionNodes.MESSAGES, new MapEntryNode[] {req, rep}), theirs);
        assertEquals(yangtools(), new MessageLog(SessionNodes.MESSAGES, new MapEntryNode[0]));
    }

    @Test
    public void entriesByKeyAndPosition() {
        final var req = message(0, "REQ");
        final var rep = message(70, "REP");
        final var ours = new MessageLog(SessionNodes.MESSAGES, new MapEntryNode[] {req, rep});
        assertEquals(2, ours.size());
        assertSame(rep, ours.childAt(1));
        // a key equal to the entry's, not the same object
        assertSame(rep, ours.childByArg(
            NodeIdentifierWithPredicates.of(Message.QNAME, SessionNodes.SEQ, Uint32.valueOf(70))));
        assertSame(req, ours.childByArg(req.name()));
        assertNull(ours.childByArg(NodeIdentifierWithPredicates.of(Message.QNAME, SessionNodes.SEQ, Uint32.ONE)));
        assertThrows(UnsupportedOperationException.class, () -> ours.body().clear());
        assertThrows(UnsupportedOperationException.class, () -> ours.asMap().clear());
        assertTrue(new MessageLog(SessionNodes.MESSAGES, new MapEntryNode[0]).isEmpty());
    }

    @Test
    public void theDatastoreTakesAndGivesBackSessionsWithIt() throws Exception {
        final String[] records = {
            """
            {"session_id":"s1","requester_ip":"10.0.0.1","responder_ip":"10.0.0.2","state":"ESTABLISHED",
             "first_seen":1764547200.000001,"last_seen":1764547200.25,
             "message_log":[{"msg":"REQ","time":1764547200.000001,"ingress_port":"swp1","from_requester":true},
                            {"msg":"REP","time":1764547200.1,"ingress_port":"swp2","from_requester":false},
                            {"msg":"RTU","time":1764547200.25,"ingress_port":"swp1","from_requester":true}]}""",
            """
            {"session_id":"s2","state":"CLOSED","message_log":[{"msg":"REQ"},{"msg":"REP"},{"msg":"RTU"},
             {"msg":"DREQ"},{"msg":"DREP"}]}""",
            """
            {"session_id":"s3","state":"REQ_SENT","message_log":[{"msg":"REQ","time":1764547200}]}""",
        };
        final var stream = new SessionStream(Map.of("swp1", "leaf1:1"));
        final Map<String, MapEntryNode> nodes = new LinkedHashMap<>();
        final List<Session> expected = new ArrayList<>();
        for (var record : records) {
            try (JsonParser parser = FACTORY.createParser(record)) {
                parser.nextToken();
                final var parsed = stream.read(parser);
                assertTrue(parsed.node().childByArg(SessionNodes.MESSAGES) instanceof MessageLog);
                nodes.put(parsed.id(), parsed.node());
            }
            expected.add(SessionJson.toSession(JSON.readTree(record), Map.of("swp1", "leaf1:1")));
        }
        final var stores = TestStores.of(this);
        try (var writer = new StatusWriter(stores)) {
            writer.writeSessions("leaf1", nodes, List.of()).get(10, TimeUnit.SECONDS);
            assertEquals(nodes, writer.storedSessions("leaf1"));
            // a session marked unconfirmed (written whole, as the follower built it) keeps its log
            writer.markUnconfirmed("leaf1", Map.of("s1", SessionNodes.withUnconfirmed(nodes.get("s1"),
                "gone from the agent"))).get(10, TimeUnit.SECONDS);
            // a session written again, its log replaced by a longer one
            final String again = records[2].replace("\"REQ_SENT\"", "\"REJECTED\"")
                .replace("}]}", "},{\"msg\":\"REJ\",\"time\":1764547201}]}");
            try (JsonParser parser = FACTORY.createParser(again)) {
                parser.nextToken();
                final var parsed = stream.read(parser);
                writer.writeSessions("leaf1", Map.of(parsed.id(), parsed.node()), List.of("s2"))
                    .get(10, TimeUnit.SECONDS);
            }
            expected.set(2, SessionJson.toSession(JSON.readTree(again), Map.of()));
        }
        try (var tx = getDataBroker().newReadOnlyTransaction()) {
            final var read = tx.read(LogicalDatastoreType.OPERATIONAL, StatusWriter.switchPath("leaf1"))
                .get(10, TimeUnit.SECONDS).orElseThrow().nonnullSession();
            assertEquals(read.keySet().toString(), 2, read.size());
            assertEquals(new SessionBuilder(expected.get(0)).setUnconfirmed("gone from the agent").build(),
                read.get(new SessionKey("s1")));
            assertEquals(null, read.get(new SessionKey("s2")));
            final var s3 = read.get(new SessionKey("s3"));
            assertEquals(expected.get(2), s3);
            assertEquals(2, s3.getMessage().size());
        }
    }
}
