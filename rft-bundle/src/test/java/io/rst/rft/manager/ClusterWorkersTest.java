/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.manager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.opendaylight.mdsal.binding.dom.adapter.test.AbstractConcurrentDataBrokerTest;
import org.opendaylight.mdsal.common.api.LogicalDatastoreType;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.Host;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.IpAddress;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.Ipv4Address;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.PortNumber;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.AgentState;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft.SwitchBuilder;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.NodeId;
import org.opendaylight.yangtools.yang.common.Uint16;

/**
 * Two members' RFT workers on one real in-memory MD-SAL broker (the datastore the only state they
 * share), their ownership decided by a stand-in of the cluster's ownership service: each switch's
 * agent is asked by exactly one member (each member presents its own token, so the agent tells
 * them apart), both members follow some; when one member stops, the other takes its switches.
 */
public class ClusterWorkersTest extends AbstractConcurrentDataBrokerTest {
    private static final List<String> SWITCHES = List.of("leaf1", "leaf2", "leaf3", "leaf4", "leaf5", "leaf6",
        "spine1", "spine2");

    private final OwnershipArbiter arbiter = new OwnershipArbiter();
    private final Set<String> up = ConcurrentHashMap.newKeySet();
    private final Map<String, RftManager.Worker> workers = new HashMap<>();
    /** Per switch: the tokens (members) that asked its agent since the last reset. */
    private final Map<String, Set<String>> askedBy = new ConcurrentHashMap<>();
    /** Per switch: how often its agent was asked since the last reset. */
    private final Map<String, AtomicInteger> asks = new ConcurrentHashMap<>();
    private final Map<String, HttpServer> agents = new HashMap<>();

    /** Sets up the base class's broker, which it does with JUnit 4's @Before (Jupiter does not run it). */
    @BeforeEach
    public void setUpBroker() throws Exception {
        setup();
    }

    @AfterEach
    public void stop() {
        workers.values().forEach(RftManager.Worker::close);
        agents.values().forEach(a -> a.stop(0));
    }

    private HttpServer agent(final String nodeId) throws Exception {
        final var server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/v1/status", exchange -> {
            final var auth = exchange.getRequestHeaders().getFirst("Authorization");
            askedBy.computeIfAbsent(nodeId, n -> ConcurrentHashMap.newKeySet()).add(auth.substring("Bearer ".length()));
            asks.computeIfAbsent(nodeId, n -> new AtomicInteger()).incrementAndGet();
            final byte[] body = "{\"capturing\":true,\"version\":\"test-1\",\"last_seq\":1}"
                .getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        // no sessions to follow here: the follower retries (ownership is what this test is about)
        server.createContext("/", exchange -> {
            exchange.sendResponseHeaders(404, -1);
            exchange.close();
        });
        server.start();
        return server;
    }

    private void member(final String name) {
        up.add(name);
        final var executor = Executors.newSingleThreadScheduledExecutor();
        final var ownership = new ClusterOwnership(arbiter.member(name), new ClusterMembers() {
            @Override
            public String self() {
                return name;
            }

            @Override
            public Set<String> reachable() {
                return Set.copyOf(up);
            }
        }, executor);
        workers.put(name, new RftManager.Worker(TestStores.of(this),
            new HttpAgentProbe(executor, node -> name, Duration.ofSeconds(2)), Duration.ofMillis(100), executor,
            node -> name, Duration.ofSeconds(60), Set.of(), ownership, false));
    }

    private static void await(final String what, final BooleanSupplier condition) {
        Awaitility.await(what).atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(50))
            .until(condition::getAsBoolean);
    }

    /** Waits until every agent was asked {@code times} times since the asks were last forgotten. */
    private void awaitAsked(final int times) {
        await("every agent asked " + times + " times", () -> SWITCHES.stream().allMatch(sw ->
            asks.getOrDefault(sw, new AtomicInteger()).get() >= times));
    }

    private void forgetAsks() {
        askedBy.clear();
        asks.clear();
    }

    /** Each agent asked by exactly one member over a few polls, the one the ownership service names. */
    private Map<String, String> askedOnce() {
        // what was asked before now may be the last probe of a member that just let go: two
        // polls of every agent (every 100 ms) go by before the asks are counted
        forgetAsks();
        awaitAsked(2);
        forgetAsks();
        // five polls of every agent: a second member asking would show
        awaitAsked(5);
        final Map<String, String> followers = new HashMap<>();
        for (var sw : SWITCHES) {
            final var asked = askedBy.getOrDefault(sw, Set.of());
            assertEquals(1, asked.size(), sw + " asked by " + asked);
            final var member = asked.iterator().next();
            assertEquals(arbiter.owner(ClusterOwnership.AGENT_ENTITY, sw), member, sw);
            followers.put(sw, member);
        }
        return followers;
    }

    @SuppressWarnings("checkstyle:IllegalCatch") // a condition to wait on: whatever fails, fails the test
    private boolean allCapturing() {
        try (var tx = getDataBroker().newReadOnlyTransaction()) {
            for (var sw : SWITCHES) {
                final var found = tx.read(LogicalDatastoreType.OPERATIONAL, StatusWriter.switchPath(sw))
                    .get(5, TimeUnit.SECONDS);
                if (found.isEmpty() || found.orElseThrow().getAgentStatus() == null
                        || found.orElseThrow().getAgentStatus().getState() != AgentState.CAPTURING) {
                    return false;
                }
            }
            return true;
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private boolean ownedBy(final Set<String> members) {
        return SWITCHES.stream().allMatch(sw -> {
            final var owner = arbiter.owner(ClusterOwnership.AGENT_ENTITY, sw);
            return owner != null && members.contains(owner);
        });
    }

    @Test
    public void eachAgentIsFollowedByOneMemberAndTakenOverWhenItStops() throws Exception {
        for (var sw : SWITCHES) {
            final var server = agent(sw);
            agents.put(sw, server);
            final var tx = getDataBroker().newWriteOnlyTransaction();
            tx.mergeParentStructurePut(LogicalDatastoreType.CONFIGURATION, StatusWriter.switchPath(sw),
                new SwitchBuilder().setNodeId(new NodeId(sw)).setEnabled(true)
                    .setAgentAddress(new Host(new IpAddress(new Ipv4Address("127.0.0.1"))))
                    .setAgentPort(new PortNumber(Uint16.valueOf(server.getAddress().getPort()))).build());
            tx.commit().get(5, TimeUnit.SECONDS);
        }
        member("member-1");
        member("member-2");
        final Set<String> both = Set.of("member-1", "member-2");
        await("every switch owned, as preferred", () -> SWITCHES.stream().allMatch(sw ->
            ClusterOwnership.preferred(sw, both).equals(arbiter.owner(ClusterOwnership.AGENT_ENTITY, sw))));
        await("every switch capturing", this::allCapturing);
        final var followers = askedOnce();
        assertEquals(both, Set.copyOf(followers.values()), "both members follow some");

        // member-1 stops: member-2 follows every switch, member-1 none
        up.remove("member-1");
        workers.remove("member-1").close();
        await("member-2 owns all", () -> ownedBy(Set.of("member-2")));
        final var after = askedOnce();
        assertTrue(after.values().stream().allMatch("member-2"::equals), after.toString());
        await("every switch capturing", this::allCapturing);

        // it starts again: its switches go back to it
        member("member-1");
        await("back as preferred", () -> SWITCHES.stream().allMatch(sw ->
            ClusterOwnership.preferred(sw, both).equals(arbiter.owner(ClusterOwnership.AGENT_ENTITY, sw))));
        assertEquals(followers, askedOnce());
    }
}
