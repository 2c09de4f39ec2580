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
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rst.yang.time.Times;
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
 * The flow table's packed message log ({@link PackedMessageLog}) is, to everyone who sees it
 * through {@link UserMapNode}, the list yangtools would have made: equal both ways, the same hash
 * code, its entries in order and by key, each leaf as the agent gave it; and the datastore takes
 * sessions holding it, merges a mark into them, replaces and deletes them, and gives back exactly
 * the sessions the binding codec knows.
 */
public class PackedMessageLogTest extends AbstractConcurrentDataBrokerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonFactory FACTORY = new JsonFactory();
    private static final long T0 = 1_764_547_200_000_001L;

    public PackedMessageLogTest() {
        super(true);
    }

    /** Sets up the base class's broker, which it does with JUnit 4's @Before (Jupiter does not run it). */
    @BeforeEach
    public void setUpBroker() throws Exception {
        setup();
    }

    private static byte type(final String name) {
        return (byte) CmMessageType.forName(name).ordinal();
    }

    /** yangtools' entry of message {@code seq}; null leaves left out, as the agent leaves them out. */
    private static MapEntryNode message(final long seq, final String type, final String tp, final long micros,
            final Boolean fromRequester) {
        final var b = ImmutableNodes.newMapEntryBuilder()
            .withNodeIdentifier(NodeIdentifierWithPredicates.of(Message.QNAME, SessionNodes.SEQ, Uint32.valueOf(seq)))
            .withChild(ImmutableNodes.leafNode(SessionNodes.SEQ_LEAF, Uint32.valueOf(seq)))
            .withChild(ImmutableNodes.leafNode(SessionNodes.TYPE, type));
        if (tp != null) {
            b.withChild(ImmutableNodes.leafNode(SessionNodes.INGRESS_TP, tp));
        }
        if (micros != Times.INVALID) {
            b.withChild(ImmutableNodes.leafNode(SessionNodes.TIME, Times.format(micros)));
        }
        if (fromRequester != null) {
            b.withChild(ImmutableNodes.leafNode(SessionNodes.FROM_REQUESTER, fromRequester));
        }
        return b.build();
    }

    private static UserMapNode yangtools(final MapEntryNode... entries) {
        final var b = ImmutableNodes.newUserMapBuilder().withNodeIdentifier(SessionNodes.MESSAGES);
        for (var e : entries) {
            b.withChild(e);
        }
        return b.build();
    }

    private static PackedMessageLog packed(final String[] types, final String[] tps, final long[] times,
            final byte[] from) {
        final byte[] t = new byte[types.length];
        for (int i = 0; i < t.length; i++) {
            t[i] = type(types[i]);
        }
        return new PackedMessageLog(SessionNodes.MESSAGES, t, tps, times, from);
    }

    @Test
    public void equalToYangtoolsOwnListBothWays() {
        final var ours = packed(new String[] {"REQ", "REP", "RTU"}, new String[] {"leaf1:1", null, "leaf1:1"},
            new long[] {T0, Times.INVALID, T0 + 250_000}, new byte[] {PackedMessageLog.REQUESTER,
                PackedMessageLog.RESPONDER, PackedMessageLog.UNKNOWN});
        final var theirs = yangtools(message(0, "REQ", "leaf1:1", T0, true),
            message(1, "REP", null, Times.INVALID, false), message(2, "RTU", "leaf1:1", T0 + 250_000, null));
        assertEquals(theirs, ours);
        assertEquals(ours, theirs);
        assertEquals(theirs.hashCode(), ours.hashCode());
        assertEquals(List.copyOf(theirs.body()), List.copyOf(ours.body()));
        assertEquals(List.copyOf(theirs.asMap().keySet()), List.copyOf(ours.asMap().keySet()));
        assertEquals("2025-12-01T00:00:00.250001Z", ours.childAt(2).childByArg(SessionNodes.TIME).body());
        // the order is part of the value, and so is every leaf of every entry
        final var swapped = packed(new String[] {"REP", "REQ", "RTU"}, null,
            new long[] {T0, Times.INVALID, T0 + 250_000}, new byte[3]);
        assertNotEquals(theirs, swapped);
        assertNotEquals(swapped, theirs);
        final var shorter = packed(new String[] {"REQ", "REP"}, new String[] {"leaf1:1", null},
            new long[] {T0, Times.INVALID}, new byte[] {PackedMessageLog.REQUESTER, PackedMessageLog.RESPONDER});
        assertNotEquals(theirs, shorter);
        assertNotEquals(shorter, theirs);
        final var laterTime = packed(new String[] {"REQ", "REP", "RTU"}, new String[] {"leaf1:1", null, "leaf1:1"},
            new long[] {T0 + 1, Times.INVALID, T0 + 250_000}, new byte[] {PackedMessageLog.REQUESTER,
                PackedMessageLog.RESPONDER, PackedMessageLog.UNKNOWN});
        assertNotEquals(theirs, laterTime);
        assertNotEquals(laterTime, ours);
        assertNotEquals(ours, laterTime);
        final var otherPort = packed(new String[] {"REQ", "REP", "RTU"}, new String[] {"leaf1:2", null, "leaf1:1"},
            new long[] {T0, Times.INVALID, T0 + 250_000}, new byte[] {PackedMessageLog.REQUESTER,
                PackedMessageLog.RESPONDER, PackedMessageLog.UNKNOWN});
        assertNotEquals(ours, otherPort);
        assertNotEquals(theirs, otherPort);
        // two packed logs of the same messages, one with its ports' array, one without any port
        final var same = packed(new String[] {"REQ", "REP", "RTU"}, new String[] {"leaf1:1", null, "leaf1:1"},
            new long[] {T0, Times.INVALID, T0 + 250_000}, new byte[] {PackedMessageLog.REQUESTER,
                PackedMessageLog.RESPONDER, PackedMessageLog.UNKNOWN});
        assertEquals(ours, same);
        assertEquals(ours.hashCode(), same.hashCode());
        assertEquals(packed(new String[] {"REQ"}, null, new long[] {T0}, new byte[1]),
            packed(new String[] {"REQ"}, new String[1], new long[] {T0}, new byte[1]));
        assertEquals(yangtools(), packed(new String[0], null, new long[0], new byte[0]));
    }

    @Test
    public void entriesByKeyAndPosition() {
        final String[] types = new String[71];
        java.util.Arrays.fill(types, "MRA");
        types[0] = "REQ";
        types[70] = "REP";
        final var ours = packed(types, null, new long[71], new byte[71]);
        assertEquals(71, ours.size());
        assertEquals(message(70, "REP", null, 0, null), ours.childAt(70));
        // a key equal to the entry's, not the same object (beyond the shared keys)
        assertEquals(message(70, "REP", null, 0, null), ours.childByArg(
            NodeIdentifierWithPredicates.of(Message.QNAME, SessionNodes.SEQ, Uint32.valueOf(70))));
        assertEquals(message(0, "REQ", null, 0, null), ours.childByArg(PackedMessageLog.key(0)));
        assertNull(ours.childByArg(NodeIdentifierWithPredicates.of(Message.QNAME, SessionNodes.SEQ,
            Uint32.valueOf(71))));
        assertThrows(IndexOutOfBoundsException.class, () -> ours.childAt(71));
        assertThrows(UnsupportedOperationException.class, () -> ours.body().clear());
        assertThrows(UnsupportedOperationException.class, () -> ours.asMap().clear());
        assertTrue(packed(new String[0], null, new long[0], new byte[0]).isEmpty());
        assertThrows(IllegalArgumentException.class, () -> new PackedMessageLog(SessionNodes.MESSAGES,
            new byte[] {type("REQ")}, null, new long[0], new byte[1]));
        assertThrows(IllegalArgumentException.class, () -> new PackedMessageLog(SessionNodes.MESSAGES,
            new byte[] {type("REQ")}, null, new long[1], new byte[] {3}));
    }

    @Test
    public void theDatastoreTakesAndGivesBackSessionsWithIt() throws Exception {
        final String[] records = {
            """
            {"session_id":"s1","requester_comm_id":"0x00000001","requester_ip":"10.0.0.1","responder_ip":"10.0.0.2",
             "state":"ESTABLISHED","first_seen":1764547200.000001,"last_seen":1764547200.25,
             "message_log":[{"msg":"REQ","time":1764547200.000001,"ingress_port":"swp1","from_requester":true},
                            {"msg":"REP","time":1764547200.1,"ingress_port":"swp2","from_requester":false},
                            {"msg":"RTU","time":1764547200.25,"ingress_port":"swp1","from_requester":true}]}""",
            """
            {"session_id":"s2","requester_comm_id":"0x00000002","state":"CLOSED",
             "message_log":[{"msg":"REQ"},{"msg":"REP"},{"msg":"RTU"},{"msg":"DREQ"},{"msg":"DREP"}]}""",
            """
            {"session_id":"s3","requester_comm_id":"0x00000003","state":"REQ_SENT",
             "message_log":[{"msg":"REQ","time":1764547200}]}""",
        };
        final var stream = new SessionStream(Map.of("swp1", "leaf1:1"));
        final Map<String, MapEntryNode> nodes = new LinkedHashMap<>();
        final List<Session> expected = new ArrayList<>();
        for (var record : records) {
            try (JsonParser parser = FACTORY.createParser(record)) {
                parser.nextToken();
                final var parsed = stream.read(parser);
                assertTrue(parsed.node().childByArg(SessionNodes.MESSAGES) instanceof PackedMessageLog);
                nodes.put(parsed.id(), parsed.node());
            }
            expected.add(ReferenceRecord.toSession(JSON.readTree(record), Map.of("swp1", "leaf1:1")));
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
            expected.set(2, ReferenceRecord.toSession(JSON.readTree(again), Map.of()));
        }
        try (var tx = getDataBroker().newReadOnlyTransaction()) {
            final var read = tx.read(LogicalDatastoreType.OPERATIONAL, StatusWriter.switchPath("leaf1"))
                .get(10, TimeUnit.SECONDS).orElseThrow().nonnullSession();
            assertEquals(2, read.size(), read.keySet().toString());
            // a binding reader has one-way's default (false) where the session has none
            assertEquals(new SessionBuilder(expected.get(0)).setUnconfirmed("gone from the agent").setOneWay(false)
                .build(), read.get(new SessionKey("s1")));
            assertEquals(null, read.get(new SessionKey("s2")));
            final var s3 = read.get(new SessionKey("s3"));
            assertEquals(new SessionBuilder(expected.get(2)).setOneWay(false).build(), s3);
            assertEquals(2, s3.getMessage().size());
        }
    }
}
