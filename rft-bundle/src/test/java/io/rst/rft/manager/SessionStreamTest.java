/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.manager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.opendaylight.mdsal.binding.dom.adapter.test.AbstractConcurrentDataBrokerTest;
import org.opendaylight.yangtools.binding.data.codec.api.BindingNormalizedNodeSerializer;
import org.opendaylight.yangtools.yang.common.Uint64;
import org.opendaylight.yangtools.yang.common.Uint8;
import org.opendaylight.yangtools.yang.data.api.schema.ContainerNode;
import org.opendaylight.yangtools.yang.data.api.schema.MapEntryNode;

/**
 * The one-pass reader takes exactly what the JSON tree and the binding model take
 * ({@link ReferenceRecord}), into the nodes the binding codec makes of them, and refuses exactly
 * what they refuse: thousands of records made of valid, odd and wrong values in any order, read
 * both ways. Read one after another from one stream, a refused record leaves the next one intact.
 */
public class SessionStreamTest extends AbstractConcurrentDataBrokerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonFactory FACTORY = new JsonFactory();
    private static final Map<String, String> PORTS = Map.of("swp1", "leaf1:1", "swp2", "leaf1:2");

    private BindingNormalizedNodeSerializer codec;

    /**
     * Sets up the base class's broker, which it does with JUnit 4's @Before (Jupiter does not run
     * it), for its binding codec.
     */
    @BeforeEach
    public void setUpCodec() throws Exception {
        setup();
        codec = TestStores.of(this).codec();
    }

    /** The reference: the tree, the binding session, the codec's node of it; or why it was refused. */
    private Object reference(final String record) throws Exception {
        try {
            final var session = ReferenceRecord.toSession(JSON.readTree(record), PORTS);
            return codec.toNormalizedDataObject(StatusWriter.sessionPath("leaf1", session.getSessionId()), session)
                .node();
        } catch (SessionStream.BadRecordException e) {
            return "refused";
        }
    }

    private static Object streamed(final SessionStream stream, final JsonParser parser) throws Exception {
        try {
            final var parsed = stream.read(parser);
            assertEquals(parsed.id(), parsed.node().name().getValue(SessionNodes.SESSION_ID));
            return parsed.node();
        } catch (SessionStream.BadRecordException e) {
            return "refused";
        }
    }

    @Test
    public void takesAndRefusesWhatTheModelDoes() throws Exception {
        final var random = new Random(42);
        final var stream = new SessionStream(PORTS);
        final List<String> records = new ArrayList<>();
        int taken = 0;
        int refused = 0;
        for (int i = 0; i < 5000; i++) {
            final String record = randomRecord(random, i);
            records.add(record);
            final Object expected = reference(record);
            try (JsonParser parser = FACTORY.createParser(record)) {
                assertSame(JsonToken.START_OBJECT, parser.nextToken());
                final Object actual = streamed(stream, parser);
                assertEquals(expected, actual, record);
                if (expected instanceof MapEntryNode) {
                    // the followers' compact nodes and yangtools' own are equal both ways, with
                    // one hash code (the datastore and the followers compare them)
                    assertEquals(actual, expected, record);
                    assertEquals(expected.hashCode(), actual.hashCode(), record);
                }
                // the record was read to its end, nothing more
                assertSame(JsonToken.END_OBJECT, parser.currentToken(), record);
                assertNull(parser.nextToken(), record);
            }
            if (expected instanceof MapEntryNode) {
                taken++;
            } else {
                refused++;
            }
        }
        // the corpus has both, in numbers
        assertTrue(taken > 1000, "taken " + taken);
        assertTrue(refused > 1000, "refused " + refused);

        // one stream of all of them, as the agent's events come: each read as alone
        try (JsonParser parser = FACTORY.createParser("[" + String.join(",", records) + "]")) {
            assertSame(JsonToken.START_ARRAY, parser.nextToken());
            for (var record : records) {
                assertSame(JsonToken.START_OBJECT, parser.nextToken());
                assertEquals(reference(record), streamed(stream, parser), record);
            }
            assertSame(JsonToken.END_ARRAY, parser.nextToken());
        }
    }

    private static SessionStream.Parsed read(final String record) throws Exception {
        try (JsonParser parser = FACTORY.createParser(record)) {
            parser.nextToken();
            return new SessionStream(PORTS).read(parser);
        }
    }

    @Test
    public void dataLearnedRecordsAsTheContractHasThem() throws Exception {
        // a paired data-learned session: no comm ID, roles unknown
        final String session = """
            {"session_id":"10.0.0.1/qp0x000011/10.0.0.2/qp0x000022","learned_from":"data","roles_known":false,
             "requester_ip":"10.0.0.1","responder_ip":"10.0.0.2","requester_qpn":17,"responder_qpn":34,
             "transport":"RC","requester_data":{"udp_src_port":50001,"ingress_port":"swp1","packets":40},
             "responder_data":{"udp_src_port":50002,"ingress_port":"swp2","packets":38},"state":"ACTIVE",
             "messages":[],"first_seen":1764547200.5,"last_seen":1764547230.25,"message_log":[]}""";
        final var parsed = read(session);
        assertEquals(reference(session), parsed.node());
        assertEquals("data", parsed.node().childByArg(SessionNodes.LEARNED_FROM).body());
        assertEquals("RC", parsed.node().childByArg(SessionNodes.TRANSPORT).body());
        assertEquals("ACTIVE", parsed.node().childByArg(SessionNodes.STATE).body());
        assertNull(parsed.node().childByArg(SessionNodes.ONE_WAY));
        assertNull(parsed.node().childByArg(SessionNodes.REQUESTER_COMM_ID));
        assertNull(parsed.node().childByArg(SessionNodes.MESSAGES));
        assertEquals(new DataPairing.Facts(false, true, "10.0.0.1", "10.0.0.2", 17, 34, null, null).toString(),
            parsed.data().toString());

        // a one-way flow: its PSNs go to the pairing, not into the node
        final String flow = """
            {"session_id":"10.0.0.3/-/10.0.0.4/qp0x0000ff","learned_from":"data","roles_known":false,
             "one_way":true,"transport":"RC","requester_ip":"10.0.0.3","responder_ip":"10.0.0.4",
             "responder_qpn":255,"requester_data":{"udp_src_port":4791,"ingress_port":"swp2","packets":3},
             "request_psns":[4096,8192,12288,16384,20480,24576,28672,32768,36864],"response_psns":[],
             "state":"IDLE","first_seen":1764547200,"last_seen":1764547201}""";
        final var one = read(flow);
        assertEquals(reference(flow), one.node());
        assertEquals(Boolean.TRUE, one.node().childByArg(SessionNodes.ONE_WAY).body());
        assertTrue(one.data().oneWay());
        assertTrue(one.data().rc());
        assertEquals(-1, one.data().requesterQpn());
        assertEquals(255, one.data().responderQpn());
        // the first eight the agent lists
        assertEquals(java.util.Arrays.toString(new int[] {4096, 8192, 12288, 16384, 20480, 24576, 28672, 32768}),
            java.util.Arrays.toString(one.data().requestPsns()));
        assertEquals(0, one.data().responsePsns().length);
        assertEquals(-1, one.node().body().toString().indexOf("4096"));

        // a CM record says cm, or nothing (an agent before data learning): no data facts
        final var cm = read("{\"session_id\":\"10.0.0.1/0x00000001/10.0.0.2\",\"learned_from\":\"cm\","
            + "\"requester_comm_id\":\"0x00000001\",\"state\":\"REQ_SENT\"}");
        assertNull(cm.data());
        assertEquals("cm", cm.node().childByArg(SessionNodes.LEARNED_FROM).body());
        assertNull(cm.node().childByArg(SessionNodes.ONE_WAY));
    }

    @Test
    public void refusesWhatTheContractRefuses() throws Exception {
        // a CM record must name its requester's comm ID, whether it says cm or nothing
        for (var record : List.of("{\"session_id\":\"a\",\"learned_from\":\"cm\",\"state\":\"REQ_SENT\"}",
                "{\"session_id\":\"a\",\"state\":\"REQ_SENT\"}")) {
            try {
                read(record);
                fail(record);
            } catch (SessionStream.UnknownLearnedFromException e) {
                fail(record + ": " + e);
            } catch (SessionStream.BadRecordException e) {
                assertTrue(e.getMessage().contains("requester_comm_id"), e.getMessage());
            }
            assertEquals("refused", reference(record), record);
        }
        // an origin the controller does not know: refused as such, whatever else is wrong with it
        for (var record : List.of(
                "{\"session_id\":\"a\",\"learned_from\":\"pcap\",\"requester_comm_id\":\"0x00000001\"}",
                "{\"session_id\":\"a\",\"requester_qpn\":\"x\",\"learned_from\":\"CM\"}",
                "{\"state\":\"NOPE\",\"learned_from\":\"\",\"session_id\":\"a\"}")) {
            try {
                read(record);
                fail(record);
            } catch (SessionStream.UnknownLearnedFromException e) {
                assertTrue(e.getMessage().contains("learned_from"), e.getMessage());
            }
            try {
                ReferenceRecord.toSession(JSON.readTree(record));
                fail(record);
            } catch (SessionStream.UnknownLearnedFromException e) {
                assertTrue(e.getMessage().contains("learned_from"), e.getMessage());
            }
        }
        // PSNs and transports outside the contract
        for (var record : List.of("{\"session_id\":\"a\",\"learned_from\":\"data\",\"request_psns\":[16777216]}",
                "{\"session_id\":\"a\",\"learned_from\":\"data\",\"response_psns\":7}",
                "{\"session_id\":\"a\",\"learned_from\":\"data\",\"transport\":\"XRC\"}")) {
            try {
                read(record);
                fail(record);
            } catch (SessionStream.BadRecordException e) {
                assertEquals("refused", reference(record), record);
            }
        }
    }

    @Test
    public void congestionFiguresPresentAbsentOrRefused() throws Exception {
        final String head = "{\"session_id\":\"10.0.0.1/0x00000001/10.0.0.2\",\"requester_comm_id\":\"0x00000001\","
            + "\"state\":\"ESTABLISHED\",\"requester_data\":";
        // present: each figure its leaf
        final String present = head + "{\"udp_src_port\":50001,\"ingress_port\":\"swp1\",\"packets\":40,\"dscp\":26,"
            + "\"ect\":40,\"ce\":9,\"cnp\":5},\"responder_data\":{\"udp_src_port\":0,\"packets\":0,\"ect\":0,"
            + "\"ce\":0,\"cnp\":3}}";
        final var parsed = read(present);
        assertEquals(reference(present), parsed.node());
        final var req = (ContainerNode) parsed.node()
            .childByArg(SessionNodes.REQUESTER_DATA);
        assertEquals(Uint8.valueOf(26), req.childByArg(SessionNodes.DSCP).body());
        assertEquals(Uint64.valueOf(40),
            req.childByArg(SessionNodes.ECT_PACKETS).body());
        assertEquals(Uint64.valueOf(9),
            req.childByArg(SessionNodes.CE_PACKETS).body());
        assertEquals(Uint64.valueOf(5),
            req.childByArg(SessionNodes.CNP_PACKETS).body());
        assertEquals("leaf1:1", req.childByArg(SessionNodes.INGRESS_PORT).body());
        // CNPs alone: packets 0, no DSCP (none sampled), no ingress port
        final var resp = (ContainerNode) parsed.node()
            .childByArg(SessionNodes.RESPONDER_DATA);
        assertEquals(Uint64.valueOf(0), resp.childByArg(SessionNodes.PACKETS)
            .body());
        assertNull(resp.childByArg(SessionNodes.DSCP));
        assertNull(resp.childByArg(SessionNodes.INGRESS_PORT));
        assertEquals(Uint64.valueOf(3),
            resp.childByArg(SessionNodes.CNP_PACKETS).body());

        // absent (an agent without congestion figures) or null: no leaves, the record taken
        for (var flow : List.of("{\"udp_src_port\":50001,\"ingress_port\":\"swp1\",\"packets\":40}",
                "{\"udp_src_port\":50001,\"packets\":40,\"dscp\":null,\"ect\":null,\"ce\":null,\"cnp\":null}")) {
            final String record = head + flow + "}";
            final var old = read(record);
            assertEquals(reference(record), old.node(), record);
            final var data = (ContainerNode) old.node()
                .childByArg(SessionNodes.REQUESTER_DATA);
            for (var leaf : List.of(SessionNodes.DSCP, SessionNodes.ECT_PACKETS, SessionNodes.CE_PACKETS,
                    SessionNodes.CNP_PACKETS)) {
                assertNull(data.childByArg(leaf), record + " " + leaf);
            }
        }

        // bad: the record refused with the reason (and counted by its follower), the stream goes on
        for (var flow : List.of("\"dscp\":64", "\"dscp\":-1", "\"dscp\":\"26\"", "\"dscp\":26.0",
                "\"dscp\":99999999999", "\"ect\":-1", "\"ce\":1.5", "\"cnp\":\"3\"", "\"cnp\":[3]",
                "\"ce\":18446744073709551616", "\"ect\":{\"n\":1}")) {
            final String record = head + "{\"udp_src_port\":50001,\"packets\":40," + flow + "},\"state\":\"REJECTED\"}";
            try {
                read(record);
                fail(record);
            } catch (SessionStream.BadRecordException e) {
                assertTrue(e.getMessage().contains("10.0.0.1/0x00000001/10.0.0.2"), e.getMessage());
                assertTrue(e.getMessage().contains("DSCP") || e.getMessage().contains("count")
                    || e.getMessage().contains("range"), e.getMessage());
            }
            assertEquals("refused", reference(record), record);
            try (JsonParser parser = FACTORY.createParser("[" + record + "," + present + "]")) {
                final var stream = new SessionStream(PORTS);
                parser.nextToken();
                parser.nextToken();
                try {
                    stream.read(parser);
                    fail(record);
                } catch (SessionStream.BadRecordException e) {
                    assertSame(JsonToken.END_OBJECT, parser.currentToken(), record);
                }
                parser.nextToken();
                assertEquals(reference(present), stream.read(parser).node(), record);
            }
        }
    }

    @Test
    public void aRemovedSessionIsItsIdAlone() throws Exception {
        try (JsonParser parser = FACTORY.createParser(
                "{\"session_id\":\"10.0.0.1/0x00000001/10.0.0.2\",\"removed\":true,\"state\":\"NOPE\"}")) {
            parser.nextToken();
            final var parsed = new SessionStream(Map.of()).read(parser);
            assertTrue(parsed.removed());
            assertEquals("10.0.0.1/0x00000001/10.0.0.2", parsed.id());
        }
    }

    @Test
    public void portNamesAreShared() throws Exception {
        final var stream = new SessionStream(PORTS);
        final List<MapEntryNode> nodes = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            try (JsonParser parser = FACTORY.createParser("{\"session_id\":\"s" + i
                    + "\",\"requester_comm_id\":\"0x00000001\",\"message_log\":["
                    + "{\"msg\":\"REQ\",\"ingress_port\":\"" + "eth" + 7 + "\"}]}")) {
                parser.nextToken();
                nodes.add(stream.read(parser).node());
            }
        }
        assertSame(tp(nodes.get(0)), tp(nodes.get(1)));
    }

    @Test
    public void theSwitchesOfAPathShareTheSessionsStringsAndNumbers() throws Exception {
        // two followers (two switches) read the same session within moments of each other
        final String record = "{\"session_id\":\"10.0.0.1/0x0000abcd/10.0.0.2\",\"requester_ip\":\"10.0.0.1\","
            + "\"responder_ip\":\"10.0.0.2\",\"requester_comm_id\":\"0x0000abcd\",\"requester_qpn\":4660,"
            + "\"requester_udp_src_port\":"
            + "51234,\"first_seen\":1764547200.25,\"last_seen\":1764547200.5,\"message_log\":[{\"msg\":\"REQ\","
            + "\"time\":1764547200.25},{\"msg\":\"REP\",\"time\":1764547200.5}]}";
        final List<MapEntryNode> nodes = new ArrayList<>();
        for (var follower : List.of(new SessionStream(Map.of()), new SessionStream(Map.of()))) {
            try (JsonParser parser = FACTORY.createParser(record)) {
                parser.nextToken();
                nodes.add(follower.read(parser).node());
            }
        }
        assertSame(nodes.get(0).name(), nodes.get(1).name());
        for (var leaf : List.of(SessionNodes.SESSION_ID_LEAF, SessionNodes.REQUESTER_IP, SessionNodes.RESPONDER_IP,
                SessionNodes.REQUESTER_COMM_ID, SessionNodes.REQUESTER_UDP_SRC_PORT, SessionNodes.REQUESTER_QPN)) {
            assertSame(nodes.get(0).childByArg(leaf).body(), nodes.get(1).childByArg(leaf).body(), leaf.toString());
        }
        // first-seen is the first message's time (the log keeps its times as numbers)
        final var log = (org.opendaylight.yangtools.yang.data.api.schema.MapNode) nodes.get(0).childByArg(
            SessionNodes.MESSAGES);
        assertEquals(nodes.get(0).childByArg(SessionNodes.FIRST_SEEN).body(),
            log.body().iterator().next().childByArg(SessionNodes.TIME).body());
        // the agent's epoch seconds as the model's date-and-time, to the microsecond
        assertEquals("2025-12-01T00:00:00.250000Z", nodes.get(0).childByArg(SessionNodes.FIRST_SEEN).body());
        assertEquals("2025-12-01T00:00:00.500000Z", nodes.get(0).childByArg(SessionNodes.LAST_SEEN).body());
    }

    private static Object tp(final MapEntryNode session) {
        final var log = (org.opendaylight.yangtools.yang.data.api.schema.MapNode) session.childByArg(
            SessionNodes.MESSAGES);
        return log.body().iterator().next().childByArg(SessionNodes.INGRESS_TP).body();
    }

    @Test
    public void microsecondsRoundHalfEvenAsBigDecimalDoes() {
        final var random = new Random(7);
        final List<String> numbers = new ArrayList<>(List.of("0", "1", "-1", "1764547200", "1764547200.5",
            "1764547200.0000005", "1764547200.0000015", "1764547200.00000050001", "1764547200.0000025",
            "1796103779.307350123", "-2.0000005", "999999999999.999999"));
        for (int i = 0; i < 10000; i++) {
            final var sb = new StringBuilder().append(random.nextInt(2) == 0 ? "" : "-")
                .append(Math.abs(random.nextLong()) % 10_000_000_000L);
            if (random.nextBoolean()) {
                sb.append('.');
                final int digits = 1 + random.nextInt(11);
                for (int d = 0; d < digits; d++) {
                    sb.append(random.nextInt(10) < 3 ? '5' : (char) ('0' + random.nextInt(10)));
                }
            }
            numbers.add(sb.toString());
        }
        for (var n : numbers) {
            final var exact = new BigDecimal(n).setScale(6, RoundingMode.HALF_EVEN);
            final long micros = SessionStream.micros(n.toCharArray(), 0, n.length());
            assertEquals(exact.unscaledValue().longValueExact(), micros, n);
        }
        // what it leaves to BigDecimal
        for (var n : List.of("1e9", "1.5E3", "1234567890123.5", ".5", "1.", "")) {
            assertEquals(Long.MIN_VALUE, SessionStream.micros(n.toCharArray(), 0, n.length()), n);
        }
    }

    /** A record whose every field is valid, odd, wrong or absent, in a random order. */
    private static String randomRecord(final Random random, final int index) {
        final List<String> fields = new ArrayList<>();
        if (random.nextInt(40) != 0) {
            fields.add("\"session_id\":" + pick(random,
                "\"10.0.0.1/0x0000000" + (index % 10) + "/10.0.0.2-" + index + "\"", "\"s" + index + "\"", "\"\"",
                "null", String.valueOf(index), "{\"a\":1}", "[1,2]"));
        }
        maybe(random, fields, "learned_from", "\"cm\"", "\"data\"", "\"CM\"", "\"pcap\"", "\"\"", "null", "1",
            "{\"a\":1}");
        maybe(random, fields, "transport", "\"RC\"", "\"UD\"", "\"UC\"", "\"rc\"", "\"XRC\"", "null", "3");
        maybe(random, fields, "one_way", "true", "false", "1", "\"true\"", "null", "[]");
        maybe(random, fields, "request_psns", "[4096,8192]", "[]", "[0,16777215]", "[16777216]", "[-1]", "[1.5]",
            "[\"7\"]", "[1,2,3,4,5,6,7,8,9,10]", "null", "5", "{\"a\":[1]}", "[[1]]");
        maybe(random, fields, "response_psns", "[4096]", "[]", "[99999999999]", "null", "[null]");
        maybe(random, fields, "requester_ip", "\"10.0.0.1\"", "\"192.168.255.254\"", "\"fd00::1\"",
            "\"::ffff:10.0.0.1\"", "\"10.0.0.256\"", "\"010.0.0.1\"", "\"10.0.0\"", "\"10.0.0.1%eth0\"", "\"x\"",
            "\"\"", "null", "5", "{\"x\":[1,{\"y\":2}]}");
        maybe(random, fields, "responder_ip", "\"10.0.0.2\"", "\"0.0.0.0\"", "\"fe80::1%eth0\"", "\"1.2.3.4.5\"",
            "\"fd00::g\"", "null");
        maybe(random, fields, "requester_comm_id", "\"0x00000001\"", "\"0xdeadbeef\"", "\"0xDEADBEEF\"", "\"0x1\"",
            "\"00000000001\"", "\"0x0000000g\"", "null", "12");
        maybe(random, fields, "responder_comm_id", "\"0xffffffff\"", "\"0x00000000\"", "\"0x123456789\"", "null");
        maybe(random, fields, "requester_qpn", "0", "16777215", "16777216", "-1", "\"77\"", "\"x\"", "1.9", "true",
            "null", "[3]", "4294967296");
        maybe(random, fields, "responder_qpn", "12345", "0", "99999999", "null");
        maybe(random, fields, "service_id", "\"0x0000000001064791\"", "\"0xffffffffffffffff\"",
            "\"0x000000000106479\"", "\"0x000000000106479G\"", "null");
        maybe(random, fields, "roles_known", "true", "false", "1", "0", "\"true\"", "\"yes\"", "2.5", "null", "{}");
        maybe(random, fields, "rdma_cm_src_port", "40000", "65535", "65536", "-5", "\"80\"", "8.7", "null");
        maybe(random, fields, "rdma_cm_dst_port", "18515", "0", "true", "null");
        maybe(random, fields, "requester_udp_src_port", "49152", "0", "65535", "65536", "-1", "\"1\"", "1.5",
            "99999999999", "null", "[]");
        maybe(random, fields, "responder_udp_src_port", "60000", "1", "70000", "null");
        maybe(random, fields, "requester_data", "{\"udp_src_port\":50000,\"ingress_port\":\"swp1\",\"packets\":12}",
            "{\"udp_src_port\":50000,\"ingress_port\":\"swp1\",\"packets\":12,\"dscp\":26,\"ect\":12,\"ce\":5,"
                + "\"cnp\":7}",
            "{\"udp_src_port\":0,\"packets\":0,\"ect\":0,\"ce\":0,\"cnp\":3}",
            "{\"udp_src_port\":1,\"packets\":2,\"dscp\":0,\"ect\":0,\"ce\":0,\"cnp\":0}",
            "{\"udp_src_port\":1,\"packets\":2,\"dscp\":63,\"ect\":null,\"ce\":null,\"cnp\":null,\"dscp\":null}",
            "{\"udp_src_port\":1,\"packets\":2,\"dscp\":64}", "{\"udp_src_port\":1,\"packets\":2,\"dscp\":-1}",
            "{\"udp_src_port\":1,\"packets\":2,\"dscp\":300}", "{\"udp_src_port\":1,\"packets\":2,\"dscp\":\"26\"}",
            "{\"udp_src_port\":1,\"packets\":2,\"dscp\":26.5}", "{\"udp_src_port\":1,\"packets\":2,\"ect\":-3}",
            "{\"udp_src_port\":1,\"packets\":2,\"ce\":\"1\"}", "{\"udp_src_port\":1,\"packets\":2,\"cnp\":1.0}",
            "{\"udp_src_port\":1,\"packets\":2,\"cnp\":92233720368547758070}",
            "{\"udp_src_port\":1,\"packets\":2,\"ect\":[1],\"ce\":{\"a\":1}}",
            "{\"udp_src_port\":1,\"packets\":2,\"dscp\":4294967296}",
            "{\"udp_src_port\":50000,\"packets\":0}", "{\"udp_src_port\":1,\"ingress_port\":\"\",\"packets\":3}",
            "{\"udp_src_port\":2,\"ingress_port\":\"eth9\",\"packets\":9223372036854775807,\"extra\":[1,2]}",
            "{\"udp_src_port\":\"2\",\"packets\":3}", "{\"packets\":3}", "{\"udp_src_port\":2}",
            "{\"udp_src_port\":2,\"packets\":-1}", "{\"udp_src_port\":2,\"packets\":1.5}",
            "{\"udp_src_port\":2,\"packets\":92233720368547758070}", "{\"udp_src_port\":2,\"packets\":3,"
                + "\"ingress_port\":{\"a\":\"b\"}}", "[1]", "7", "null");
        maybe(random, fields, "responder_data", "{\"udp_src_port\":0,\"packets\":0}",
            "{\"udp_src_port\":9,\"ingress_port\":\"swp2\",\"packets\":4,\"dscp\":26,\"ect\":4,\"ce\":0,\"cnp\":0}",
            "{\"udp_src_port\":9,\"packets\":4,\"dscp\":99}",
            "{\"udp_src_port\":9,\"ingress_port\":\"swp2\",\"packets\":1}",
            "{\"udp_src_port\":65536,\"packets\":0}", "null");
        maybe(random, fields, "state", "\"ESTABLISHED\"", "\"ACTIVE\"", "\"TIMED_OUT\"", "\"IDLE\"", "\"REQ_SENT\"",
            "\"established\"", "\"\"", "null", "3");
        maybe(random, fields, "reject_reason", "28", "65535", "65536", "-1", "\"4\"", "null");
        maybe(random, fields, "dropped_messages", "0", "4294967295", "4294967296", "null");
        maybe(random, fields, "first_seen", "1764547200.000001", "1764547200", "1764547200.0000005", "1.5e9",
            "\"1764547200\"", "null", "-3.25", "1764547200.1234567891");
        maybe(random, fields, "last_seen", "1764547201.5", "1796103779.307350123", "true", "null");
        maybe(random, fields, "message_log", messageLog(random), messageLog(random), messageLog(random), "[]",
            "null", "{\"a\":1}", "\"REQ\"");
        maybe(random, fields, "unknown_field", "{\"nested\":[1,{\"deeper\":[]}]}", "[[],[{}]]", "\"x\"", "null");
        maybe(random, fields, "removed", "false");
        Collections.shuffle(fields, random);
        return "{" + String.join(",", fields) + "}";
    }

    private static String messageLog(final Random random) {
        final List<String> entries = new ArrayList<>();
        final int n = random.nextInt(5);
        for (int k = 0; k < n; k++) {
            final List<String> fields = new ArrayList<>();
            if (random.nextInt(60) != 0) {
                fields.add("\"msg\":" + pick(random, "\"REQ\"", "\"REP\"", "\"RTU\"", "\"DREQ\"", "\"DREP\"", "\"REJ\"",
                    "\"MRA\"", "\"SIDR_REQ\"", "\"LAP\"", "\"FOO\"", "null", "1", "{\"x\":1}"));
            }
            maybe(random, fields, "time", "1764547200.000001", "1764547200.0000035", "\"t\"", "null", "2e9");
            maybe(random, fields, "ingress_port", "\"swp1\"", "\"swp2\"", "\"eth3\"", "\"\"", "null", "4", "[\"a\"]");
            maybe(random, fields, "from_requester", "true", "false", "0", "\"true\"", "null");
            maybe(random, fields, "note", "{\"a\":[{}]}");
            Collections.shuffle(fields, random);
            entries.add(random.nextInt(40) == 0 ? pick(random, "7", "\"x\"", "[]")
                : "{" + String.join(",", fields) + "}");
        }
        return "[" + String.join(",", entries) + "]";
    }

    private static void maybe(final Random random, final List<String> fields, final String name,
            final String... values) {
        if (random.nextInt(3) != 0) {
            // mostly the first values (the valid ones), now and then an odd one
            final String value = random.nextInt(12) != 0 ? values[random.nextInt(Math.min(2, values.length))]
                : values[random.nextInt(values.length)];
            fields.add("\"" + name + "\":" + value);
        }
    }

    private static String pick(final Random random, final String... values) {
        return random.nextInt(8) != 0 ? values[0] : values[random.nextInt(values.length)];
    }
}
