/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.manager;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.opendaylight.mdsal.binding.dom.adapter.test.AbstractConcurrentDataBrokerTest;
import org.opendaylight.mdsal.common.api.LogicalDatastoreType;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.Host;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.IpAddress;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.Ipv4Address;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.PortNumber;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.LearnedFrom;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.SessionState;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.Transport;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft.Switch;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft.SwitchBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.Session;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.SessionKey;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.NodeId;
import org.opendaylight.yangtools.yang.common.Uint16;

/**
 * The RFT manager following two switches' agents (HTTP stand-ins on loopback speaking the agent
 * API's records for data-learned sessions) into a real in-memory MD-SAL broker: the records are
 * sessions of the flow table, the two one-way flows ECMP sent through different switches are
 * paired (each flow says into which session), refused records are counted in the agent status with
 * the agents' data counters, and a flow whose other direction goes is one-way again.
 */
public class DataSessionsFollowTest extends AbstractConcurrentDataBrokerTest {
    private static final String TOKEN = "data-token";
    private static final String PAIRED = "10.0.0.1/qp0x000011/10.0.0.2/qp0x000022";
    private static final String X = "10.0.0.1/-/10.0.0.2/qp0x000022";
    private static final String Y = "10.0.0.2/-/10.0.0.1/qp0x000011";

    /**
     * An agent stand-in: its snapshot, and events served after their seq. As the agent's long poll,
     * {@code /v1/events} answers at once when there are events after the client's seq, and
     * otherwise waits for one to be added, for at most the {@code wait} seconds the client asked.
     */
    private static final class FakeAgent {
        final HttpServer server;
        // what the agent's table holds now: a stream that ends is followed by a snapshot
        volatile String snapshot;
        private final ExecutorService handlers = Executors.newVirtualThreadPerTaskExecutor();
        private final Lock lock = new ReentrantLock();
        private final Condition added = lock.newCondition();
        // guarded by lock: the events (the first has seq 2), and whether the stand-in is stopped
        private final List<String> events = new ArrayList<>();
        private boolean stopped;

        FakeAgent(final String snapshot, final String counters) throws IOException {
            this.snapshot = snapshot;
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            // a waiting long poll holds its own thread, not the one that serves the status
            server.setExecutor(handlers);
            server.createContext("/v1/status", exchange -> send(exchange, "{\"capturing\":true,\"version\":\"t\","
                + "\"last_seq\":1,\"counters\":{\"kernel_drops\":0,\"queue_drops\":0," + counters + "}}"));
            server.createContext("/v1/sessions", exchange -> send(exchange, this.snapshot));
            server.createContext("/v1/events", exchange -> {
                final var query = exchange.getRequestURI().getQuery();
                final long after = Long.parseLong(query.replaceAll(".*after=(\\d+).*", "$1"));
                final long wait = query.matches(".*wait=\\d+.*")
                    ? Long.parseLong(query.replaceAll(".*wait=(\\d+).*", "$1")) : 0;
                // the answer's head at once, as the agent's stream: a client that stops following
                // closes the body it is reading
                exchange.sendResponseHeaders(200, 0);
                try (var body = exchange.getResponseBody()) {
                    body.write(eventsAfter(after, wait).getBytes(StandardCharsets.UTF_8));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    exchange.close();
                }
            });
            server.start();
        }

        /** Adds an event (seq: the last one's + 1) and wakes the long polls waiting for one. */
        void addEvent(final String session) {
            lock.lock();
            try {
                events.add(session);
                added.signalAll();
            } finally {
                lock.unlock();
            }
        }

        /** The events after seq {@code after}, as NDJSON; waits up to {@code waitSeconds} for one if none. */
        private String eventsAfter(final long after, final long waitSeconds) throws InterruptedException {
            lock.lock();
            try {
                long nanos = TimeUnit.SECONDS.toNanos(waitSeconds);
                // the last event's seq is events.size() + 1
                while (events.size() + 1 <= after && !stopped && nanos > 0) {
                    nanos = added.awaitNanos(nanos);
                }
                final var out = new StringBuilder();
                for (int i = 0; i < events.size(); i++) {
                    if (i + 2 > after) {
                        out.append("{\"seq\":").append(i + 2).append(",\"type\":\"session\",\"session\":")
                            .append(events.get(i)).append("}\n");
                    }
                }
                return out.toString();
            } finally {
                lock.unlock();
            }
        }

        int port() {
            return server.getAddress().getPort();
        }

        void stop() {
            lock.lock();
            try {
                stopped = true;
                added.signalAll();
            } finally {
                lock.unlock();
            }
            server.stop(0);
            handlers.shutdownNow();
        }

        private static void send(final HttpExchange exchange, final String body) throws IOException {
            final byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, bytes.length == 0 ? -1 : bytes.length);
            if (bytes.length > 0) {
                exchange.getResponseBody().write(bytes);
            }
            exchange.close();
        }
    }

    private final List<FakeAgent> agents = new ArrayList<>();
    private RftManager.Worker worker;

    @BeforeEach
    public void setUp() throws Exception {
        // the base class sets its broker up with JUnit 4's @Before, which Jupiter does not run
        setup();
        final var executor = Executors.newSingleThreadScheduledExecutor();
        worker = new RftManager.Worker(TestStores.of(this),
            new HttpAgentProbe(executor, node -> TOKEN, Duration.ofSeconds(2)), Duration.ofMillis(200), executor,
            node -> TOKEN, Duration.ofSeconds(60));
    }

    @AfterEach
    public void tearDown() {
        worker.close();
        agents.forEach(FakeAgent::stop);
    }

    private static String oneWay(final String id, final String src, final String dst, final int qpn,
            final String port, final String requests, final String responses) {
        return "{\"session_id\":\"" + id + "\",\"learned_from\":\"data\",\"roles_known\":false,\"requester_ip\":\""
            + src + "\",\"responder_ip\":\"" + dst + "\",\"responder_qpn\":" + qpn + ",\"transport\":\"RC\","
            + "\"one_way\":true,\"requester_data\":{\"udp_src_port\":49999,\"ingress_port\":\"" + port
            + "\",\"packets\":12},\"request_psns\":" + requests + ",\"response_psns\":" + responses
            + ",\"state\":\"ACTIVE\",\"messages\":[],\"first_seen\":1764547200.5,\"last_seen\":1764547260.5,"
            + "\"message_log\":[]}";
    }

    @Test
    public void oneWayFlowsAtTwoSwitchesArePairedAndRefusalsCounted() throws Exception {
        final var spine1 = new FakeAgent("{\"seq\":1,\"instance\":\"s1\",\"sessions\":["
            + oneWay(X, "10.0.0.1", "10.0.0.2", 0x22, "swp1", "[4096,8192]", "[]") + ","
            // a data-learned session paired at this switch, and a UD flow (never paired)
            + "{\"session_id\":\"10.0.0.5/qp0x000001/10.0.0.6/qp0x000002\",\"learned_from\":\"data\","
            + "\"roles_known\":false,\"requester_ip\":\"10.0.0.5\",\"responder_ip\":\"10.0.0.6\",\"requester_qpn\":1,"
            + "\"responder_qpn\":2,\"transport\":\"RC\",\"requester_data\":{\"udp_src_port\":1,\"packets\":1},"
            + "\"responder_data\":{\"udp_src_port\":2,\"packets\":1},\"state\":\"IDLE\",\"first_seen\":1764547200,"
            + "\"last_seen\":1764547201},"
            + "{\"session_id\":\"10.0.0.7/-/10.0.0.8/qp0x000001\",\"learned_from\":\"data\",\"one_way\":true,"
            + "\"transport\":\"UD\",\"requester_ip\":\"10.0.0.7\",\"responder_ip\":\"10.0.0.8\",\"responder_qpn\":1,"
            + "\"requester_data\":{\"udp_src_port\":3,\"packets\":4},\"state\":\"ACTIVE\",\"first_seen\":1764547200,"
            + "\"last_seen\":1764547201},"
            // refused: a CM record without its comm ID, an origin this controller does not know
            + "{\"session_id\":\"10.0.0.1/0x00000001/10.0.0.2\",\"learned_from\":\"cm\",\"state\":\"REQ_SENT\"},"
            + "{\"session_id\":\"z\",\"learned_from\":\"sflow\",\"state\":\"ACTIVE\"}"
            + "]}", "\"data_flows\":3,\"data_sessions\":1,\"data_one_way\":2,\"data_flows_evicted\":0,"
                + "\"data_pair_ambiguous\":5,\"data_bth_rejected\":7");
        final var spine2 = new FakeAgent("{\"seq\":1,\"instance\":\"s2\",\"sessions\":["
            + oneWay(Y, "10.0.0.2", "10.0.0.1", 0x11, "swp2", "[]", "[8192]") + "]}", "\"data_flows\":1");
        agents.add(spine1);
        agents.add(spine2);
        putSwitch("spine1", spine1.port());
        putSwitch("spine2", spine2.port());

        // the two directions name the session they were paired into (within a sweep or two)
        final var x = awaitSession("spine1", X, s -> PAIRED.equals(s.getPairedSession()));
        assertEquals(LearnedFrom.Data, x.getLearnedFrom());
        assertEquals(Transport.RC, x.getTransport());
        assertEquals(Boolean.TRUE, x.getOneWay());
        assertEquals(Boolean.FALSE, x.getRolesKnown());
        assertEquals(SessionState.ACTIVE, x.getState());
        assertNull(x.getRequesterQpn());
        assertEquals(0x22, x.getResponderQpn().getValue().intValue());
        assertEquals("swp1", x.getRequesterData().getIngressPort());
        assertNull(x.getRequesterCommId());
        awaitSession("spine2", Y, s -> PAIRED.equals(s.getPairedSession()));

        final var sw1 = awaitSwitch("spine1", sw -> sw.getAgentStatus() != null
            && sw.getAgentStatus().getRefusedRecords() != null && sw.getAgentStatus().getDataFlows() != null);
        // every snapshot the follower reads refuses the two (again, if it reads more than one)
        final long refused = sw1.getAgentStatus().getRefusedRecords().longValue();
        final long unknown = sw1.getAgentStatus().getRefusedUnknownLearnedFrom().longValue();
        assertTrue(refused >= 2, refused + " refused");
        assertTrue(unknown >= 1 && unknown <= refused / 2 + 1, unknown + " of " + refused);
        assertEquals(3, sw1.getAgentStatus().getDataFlows().longValue());
        assertEquals(1, sw1.getAgentStatus().getDataSessions().longValue());
        assertEquals(2, sw1.getAgentStatus().getDataOneWay().longValue());
        assertEquals(0, sw1.getAgentStatus().getDataFlowsEvicted().longValue());
        assertEquals(5, sw1.getAgentStatus().getDataPairAmbiguous().longValue());
        assertEquals(7, sw1.getAgentStatus().getDataBthRejected().longValue());
        // a counter the agent did not report is absent, not 0
        final var sw2 = awaitSwitch("spine2", sw -> sw.getAgentStatus() != null
            && sw.getAgentStatus().getDataFlows() != null);
        assertNull(sw2.getAgentStatus().getDataSessions());
        assertNull(sw2.getAgentStatus().getRefusedRecords());

        final var sessions = sw1.nonnullSession();
        assertEquals(3, sessions.size(), sessions.keySet().toString());
        final var ud = sessions.get(new SessionKey("10.0.0.7/-/10.0.0.8/qp0x000001"));
        assertEquals(Transport.UD, ud.getTransport());
        assertNull(ud.getPairedSession());
        assertNull(ud.getPairAmbiguous());
        final var paired = sessions.get(new SessionKey("10.0.0.5/qp0x000001/10.0.0.6/qp0x000002"));
        assertEquals(SessionState.IDLE, paired.getState());
        assertEquals(Boolean.FALSE, paired.getOneWay());

        // spine2's agent removes its flow (retention): spine1's is one-way again
        spine2.snapshot = "{\"seq\":2,\"instance\":\"s2\",\"sessions\":[]}";
        spine2.addEvent("{\"session_id\":\"" + Y + "\",\"removed\":true}");
        awaitSwitch("spine2", sw -> sw.nonnullSession().isEmpty());
        final var alone = awaitSession("spine1", X, s -> s.getPairedSession() == null);
        assertNull(alone.getPairAmbiguous());
        assertTrue(worker.pairing().flows() >= 1);
    }

    private static final String CM = "10.0.0.1/0x00000abc/10.0.0.2";

    /** The CM session between 10.0.0.1's QP 0x11 (requester) and 10.0.0.2's QP 0x22. */
    private static String cmSession() {
        return "{\"session_id\":\"" + CM + "\",\"learned_from\":\"cm\",\"roles_known\":true,"
            + "\"requester_ip\":\"10.0.0.1\",\"responder_ip\":\"10.0.0.2\",\"requester_comm_id\":\"0x00000abc\","
            + "\"responder_comm_id\":\"0x00000def\",\"requester_qpn\":17,\"responder_qpn\":34,"
            + "\"state\":\"ESTABLISHED\",\"first_seen\":1764547200,\"last_seen\":1764547200.2,\"message_log\":["
            + "{\"msg\":\"REQ\",\"time\":1764547200,\"ingress_port\":\"swp1\",\"from_requester\":true},"
            + "{\"msg\":\"REP\",\"time\":1764547200.1,\"ingress_port\":\"swp2\",\"from_requester\":false},"
            + "{\"msg\":\"RTU\",\"time\":1764547200.2,\"ingress_port\":\"swp1\",\"from_requester\":true}]}";
    }

    /** The same QP pair as a data-learned session a switch paired. */
    private static String dataSession() {
        return "{\"session_id\":\"" + PAIRED + "\",\"learned_from\":\"data\",\"roles_known\":false,"
            + "\"requester_ip\":\"10.0.0.1\",\"responder_ip\":\"10.0.0.2\",\"requester_qpn\":17,"
            + "\"responder_qpn\":34,\"transport\":\"RC\",\"requester_data\":{\"udp_src_port\":1,"
            + "\"ingress_port\":\"swp3\",\"packets\":1},\"responder_data\":{\"udp_src_port\":2,"
            + "\"ingress_port\":\"swp4\",\"packets\":1},\"state\":\"ACTIVE\",\"first_seen\":1764547201,"
            + "\"last_seen\":1764547202}";
    }

    @Test
    public void dataOfACmSessionSeenAtOtherSwitchesJoinsIt() throws Exception {
        // leaf1 saw the CM messages before any data-learned record was read
        final var leaf1 = new FakeAgent("{\"seq\":1,\"instance\":\"l1\",\"sessions\":[" + cmSession() + "]}",
            "\"data_flows\":0");
        agents.add(leaf1);
        putSwitch("leaf1", leaf1.port());
        awaitSession("leaf1", CM, s -> s.getRequesterQpn() != null);
        // spine1 saw A -> B to the responder's QP only; spine2 both directions (a data-learned
        // session of the same QPs): both join the CM session, the flow not the data-learned one
        final var spine1 = new FakeAgent("{\"seq\":1,\"instance\":\"s1\",\"sessions\":["
            + oneWay(X, "10.0.0.1", "10.0.0.2", 0x22, "swp1", "[4096]", "[]") + "]}", "\"data_flows\":1");
        final var spine2 = new FakeAgent("{\"seq\":1,\"instance\":\"s2\",\"sessions\":[" + dataSession() + "]}",
            "\"data_flows\":2");
        agents.add(spine1);
        agents.add(spine2);
        putSwitch("spine1", spine1.port());
        putSwitch("spine2", spine2.port());
        final var x = awaitSession("spine1", X, s -> CM.equals(s.getPairedSession()));
        assertEquals(Boolean.TRUE, x.getOneWay());
        assertNull(x.getPairAmbiguous());
        final var data = awaitSession("spine2", PAIRED, s -> CM.equals(s.getPairedSession()));
        assertEquals(Boolean.FALSE, data.getOneWay());
        assertEquals(LearnedFrom.Data, data.getLearnedFrom());
        // the CM session itself is left as it was
        assertNull(awaitSession("leaf1", CM, s -> true).getPairedSession());
        assertEquals(1, worker.pairing().joined());

        // the CM session gone (retention): the data records are on their own again, the flow in
        // the data-learned session another switch paired
        leaf1.snapshot = "{\"seq\":2,\"instance\":\"l1\",\"sessions\":[]}";
        leaf1.addEvent("{\"session_id\":\"" + CM + "\",\"removed\":true}");
        awaitSession("spine2", PAIRED, s -> s.getPairedSession() == null);
        awaitSession("spine1", X, s -> PAIRED.equals(s.getPairedSession()));
    }

    @Test
    public void aCmSessionThatComesAfterTheDataStillTakesIt() throws Exception {
        final var leaf1 = new FakeAgent("{\"seq\":1,\"instance\":\"l1\",\"sessions\":[]}",
            "\"data_flows\":0");
        final var spine1 = new FakeAgent("{\"seq\":1,\"instance\":\"s1\",\"sessions\":["
            // the responder's data to the requester's QP
            + oneWay(Y, "10.0.0.2", "10.0.0.1", 0x11, "swp2", "[]", "[8192]") + "]}", "\"data_flows\":1");
        agents.add(leaf1);
        agents.add(spine1);
        putSwitch("spine1", spine1.port());
        putSwitch("leaf1", leaf1.port());
        awaitSession("spine1", Y, s -> s.getPairedSession() == null);
        // a switch that saw only the REQ (no responder QP): the requester's QP is enough for Y
        leaf1.addEvent(cmSession().replace(",\"responder_qpn\":34", ""));
        awaitSession("leaf1", CM, s -> s.getResponderQpn() == null);
        final var y = awaitSession("spine1", Y, s -> CM.equals(s.getPairedSession()));
        assertEquals(SessionState.ACTIVE, y.getState());
    }

    private void putSwitch(final String nodeId, final int port) throws Exception {
        final var tx = getDataBroker().newWriteOnlyTransaction();
        tx.mergeParentStructurePut(LogicalDatastoreType.CONFIGURATION, StatusWriter.switchPath(nodeId),
            new SwitchBuilder().setNodeId(new NodeId(nodeId)).setEnabled(true)
                .setAgentAddress(new Host(new IpAddress(new Ipv4Address("127.0.0.1"))))
                .setAgentPort(new PortNumber(Uint16.valueOf(port))).build());
        tx.commit().get(5, TimeUnit.SECONDS);
    }

    private Session awaitSession(final String nodeId, final String id, final Predicate<Session> condition) {
        return awaitSwitch(nodeId, sw -> {
            final var session = sw.nonnullSession().get(new SessionKey(id));
            return session != null && condition.test(session);
        }).nonnullSession().get(new SessionKey(id));
    }

    private Switch awaitSwitch(final String nodeId, final Predicate<Switch> condition) {
        final AtomicReference<Optional<Switch>> last = new AtomicReference<>(Optional.empty());
        await("switch " + nodeId + " reaches the expected state").atMost(Duration.ofSeconds(20))
            .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(50)).untilAsserted(() -> {
                try (var tx = getDataBroker().newReadOnlyTransaction()) {
                    last.set(tx.read(LogicalDatastoreType.OPERATIONAL, StatusWriter.switchPath(nodeId))
                        .get(5, TimeUnit.SECONDS));
                }
                assertTrue(last.get().isPresent() && condition.test(last.get().orElseThrow()),
                    "switch " + nodeId + " never reached the expected state; last: " + last.get());
            });
        return last.get().orElseThrow();
    }
}
