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
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rst.rft.agent.Agent;
import io.rst.rft.agent.AgentCommand;
import io.rst.rft.agent.AgentOptions;
import io.rst.rft.pcap.CmTrafficGenerator;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
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
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.AgentState;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.CmMessageType;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.SessionState;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft.Switch;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft.SwitchBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.Session;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.SessionBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.SessionKey;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.NodeId;
import org.opendaylight.yangtools.yang.common.Uint16;

/**
 * The RFT manager following a real switch agent (in this JVM, replaying generated CM traffic) into
 * a real in-memory MD-SAL broker: the agent's sessions appear in the operational flow table, an
 * agent restart loses nothing, and turning RFT off removes what the switch reported.
 */
public class AgentFollowerTest extends AbstractConcurrentDataBrokerTest {
    private static final String TOKEN = "follow-me-token";

    private Path dir;
    private int port;
    private Agent agent;
    private RftManager.Worker worker;

    @BeforeEach
    public void setUp() throws Exception {
        // the broker: the base class sets it up with JUnit 4's @Before, which Jupiter does not run
        setup();
        dir = Files.createTempDirectory("rst-follow");
        Files.writeString(dir.resolve("token"), TOKEN + "\n");
        Files.setPosixFilePermissions(dir.resolve("token"), PosixFilePermissions.fromString("rw-------"));
        try (var socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        final var executor = Executors.newSingleThreadScheduledExecutor();
        worker = new RftManager.Worker(TestStores.of(this),
            new HttpAgentProbe(executor, node -> TOKEN, Duration.ofSeconds(2)), Duration.ofMillis(200), executor,
            node -> TOKEN, Duration.ofSeconds(60));
    }

    @AfterEach
    public void tearDown() throws Exception {
        worker.close();
        if (agent != null) {
            agent.close();
        }
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    private Agent startAgent(final String pcapName, final int sessions, final long seed) throws Exception {
        return startAgent(pcapName, sessions, seed, CmTrafficGenerator.Options.bench(sessions).startNanos(),
            1_000_000_000L);
    }

    private Agent startAgent(final String pcapName, final int sessions, final long seed, final long startNanos,
            final long retentionSeconds) throws Exception {
        final Path pcap = dir.resolve(pcapName);
        final var base = CmTrafficGenerator.Options.bench(sessions);
        new CmTrafficGenerator(new CmTrafficGenerator.Options(sessions, seed, false, 4, 0, false, base.udpPort(),
            startNanos)).write(pcap);
        final var options = AgentOptions.parse(List.of("--listen", "127.0.0.1:" + port, "--token-file",
            dir.resolve("token").toString(), "--state-dir", dir.resolve("state").toString(), "--replay",
            pcap.toString(), "--retention", Long.toString(retentionSeconds), "--agent-id", "leaf1",
            "--plain-http"));
        final var started = new Agent(options, events -> AgentCommand.cmProcessor(options, events));
        started.start();
        return started;
    }

    @Test
    public void sessionsFollowTheAgentAcrossItsRestartAndLeaveWithRft() throws Exception {
        agent = startAgent("first.pcap", 200, 1);
        putSwitch(true);

        final var first = awaitSessions(sessions -> sessions.size() == 200);
        for (var session : first.values()) {
            assertEquals(SessionState.CLOSED, session.getState());
            assertEquals(List.of(CmMessageType.REQ, CmMessageType.REP, CmMessageType.RTU, CmMessageType.DREQ,
                CmMessageType.DREP), session.getMessage().stream().map(m -> m.getType()).toList());
            assertEquals("replay", session.getMessage().get(0).getIngressTp().getValue());
            // the generator sends both sides' CM packets from UDP port 55410
            assertEquals(55410, session.getRequesterUdpSrcPort().getValue().intValue());
            assertEquals(55410, session.getResponderUdpSrcPort().getValue().intValue());
            assertTrue(session.getSessionId().startsWith(session.getRequesterIp().stringValue() + "/"));
        }
        awaitState(AgentState.CAPTURING);

        // the agent restarts with more traffic: the follower resumes, nothing seen before is lost
        agent.close();
        agent = startAgent("second.pcap", 150, 2);
        final var both = awaitSessions(sessions -> sessions.size() >= 200 + 100
            && sessions.keySet().containsAll(first.keySet()));
        assertTrue(both.size() <= 350);

        // RFT off for the switch: what it reported goes, the status says why
        putSwitch(false);
        awaitState(AgentState.DISABLED);
        awaitSessions(Map::isEmpty);
    }

    @Test
    public void anAgentThatLostItsStateDoesNotMakeTheControllerForgetItsSessions() throws Exception {
        agent = startAgent("first.pcap", 200, 1);
        putSwitch(true);
        final var first = awaitSessions(sessions -> sessions.size() == 200);
        awaitState(AgentState.CAPTURING);

        // the agent comes back without its saved table (a new disk, say), with other traffic
        agent.close();
        try (var files = Files.walk(dir.resolve("state"))) {
            for (var f : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(f);
            }
        }
        agent = startAgent("second.pcap", 150, 2);
        final var both = awaitSessions(sessions -> sessions.size() >= 350
            && sessions.keySet().containsAll(first.keySet())
            && first.keySet().stream().allMatch(k -> sessions.get(k).getUnconfirmed() != null));
        // every session the controller held is still there, as the switch reported it, marked
        for (var key : first.keySet()) {
            final var kept = both.get(key);
            assertEquals(first.get(key).getState(), kept.getState());
            assertEquals(first.get(key).getMessage(), kept.getMessage());
            assertTrue(kept.getUnconfirmed().contains("the agent lost its state"), kept.getUnconfirmed());
        }
        // the new ones are confirmed
        assertEquals(150, both.values().stream().filter(x -> x.getUnconfirmed() == null).count());
        // and the switch's status says so
        final var status = await("the status counts 200 unconfirmed sessions").atMost(Duration.ofSeconds(30))
            .until(() -> operSwitch().orElseThrow().getAgentStatus(), st -> st.getUnconfirmedSessions() != null
                && st.getUnconfirmedSessions().intValue() == 200);
        assertTrue(status.getLostState().contains("200 sessions it no longer reports"), status.getLostState());
    }

    @Test
    public void sessionsTheAgentAgesOutLeaveTheFlowTableWithoutWaitingForAResync() throws Exception {
        // a follower whose resync comes only after an hour: what it removes before, it removes
        // because the agent's events said so
        worker.close();
        final var executor = Executors.newSingleThreadScheduledExecutor();
        worker = new RftManager.Worker(TestStores.of(this),
            new HttpAgentProbe(executor, node -> TOKEN, Duration.ofSeconds(2)), Duration.ofMillis(200), executor,
            node -> TOKEN, Duration.ofHours(1));
        putSwitch(true);
        // fresh traffic, closed sessions kept 4 s: the follower sees them, then their removal
        agent = startAgent("fresh.pcap", 40, 3, System.currentTimeMillis() * 1_000_000L, 4);
        awaitSessions(sessions -> sessions.size() == 40);
        awaitSessions(Map::isEmpty);
    }

    @Test
    public void aNewOwnerRemovesWhatThePreviousOneLeftBehind() throws Exception {
        agent = startAgent("owned.pcap", 100, 4);
        putSwitch(true);
        final var first = awaitSessions(sessions -> sessions.size() == 100);

        // the owner goes (a takeover in a cluster); the flow table keeps a session the agent no
        // longer has, as when its removal came after the previous owner's last commit
        worker.close();
        final var held = first.values().iterator().next();
        final var stale = new SessionBuilder(held).setSessionId("10.9.9.9/0x00000001/10.9.9.8")
            .withKey(new SessionKey("10.9.9.9/0x00000001/10.9.9.8")).build();
        final var tx = getDataBroker().newWriteOnlyTransaction();
        tx.mergeParentStructurePut(LogicalDatastoreType.OPERATIONAL,
            StatusWriter.sessionPath("leaf1", stale.getSessionId()), stale);
        tx.commit().get(5, TimeUnit.SECONDS);
        assertEquals(101, awaitSessions(sessions -> sessions.size() == 101).size());

        // the new owner reconciles the table with the agent's snapshot: the stale session goes
        final var executor = Executors.newSingleThreadScheduledExecutor();
        worker = new RftManager.Worker(TestStores.of(this),
            new HttpAgentProbe(executor, node -> TOKEN, Duration.ofSeconds(2)), Duration.ofMillis(200), executor,
            node -> TOKEN, Duration.ofSeconds(60));
        final var after = awaitSessions(sessions -> sessions.size() == 100);
        assertEquals(first.keySet(), after.keySet());
    }

    private void putSwitch(final boolean enabled) throws Exception {
        final var sw = new SwitchBuilder().setNodeId(new NodeId("leaf1")).setEnabled(enabled)
            .setAgentAddress(new Host(new IpAddress(new Ipv4Address("127.0.0.1"))))
            .setAgentPort(new PortNumber(Uint16.valueOf(port))).build();
        final var tx = getDataBroker().newWriteOnlyTransaction();
        tx.mergeParentStructurePut(LogicalDatastoreType.CONFIGURATION, StatusWriter.switchPath("leaf1"), sw);
        tx.commit().get(5, TimeUnit.SECONDS);
    }

    private Map<SessionKey, Session> awaitSessions(final Predicate<Map<SessionKey, Session>> condition) {
        return await("the flow table's sessions match").atMost(Duration.ofSeconds(30))
            .until(() -> operSwitch().map(Switch::nonnullSession).orElse(Map.of()), condition);
    }

    private void awaitState(final AgentState state) {
        await("agent " + state).atMost(Duration.ofSeconds(30)).until(this::operSwitch,
            last -> last.isPresent() && last.orElseThrow().getAgentStatus() != null
                && last.orElseThrow().getAgentStatus().getState() == state);
    }

    private Optional<Switch> operSwitch() throws Exception {
        try (var tx = getDataBroker().newReadOnlyTransaction()) {
            return tx.read(LogicalDatastoreType.OPERATIONAL, StatusWriter.switchPath("leaf1")).get(5, TimeUnit.SECONDS);
        }
    }
}
