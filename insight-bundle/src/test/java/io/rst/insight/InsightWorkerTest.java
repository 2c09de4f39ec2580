/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.insight;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rst.yang.time.Times;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.opendaylight.mdsal.binding.api.NotificationService;
import org.opendaylight.mdsal.binding.dom.adapter.test.AbstractConcurrentDataBrokerTest;
import org.opendaylight.mdsal.common.api.LogicalDatastoreType;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.IpAddress;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.Ipv4Address;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.yang.types.rev130715.DateAndTime;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.AgentState;
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
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.AgentStatus;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.AgentStatusBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.Session;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.SessionBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.SessionKey;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.Rpt;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.direction.Hop;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.direction.HopBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.path.ForwardBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.path.ReverseBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.rpt.Path;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.rpt.PathBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.rpt.PathKey;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.insight.rev261201.AgentDroppingPackets;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.insight.rev261201.AgentReachable;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.insight.rev261201.AgentUnreachable;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.insight.rev261201.PathChanged;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.insight.rev261201.ProblemKind;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.insight.rev261201.Problems;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.insight.rev261201.SessionFailed;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.insight.rev261201.Severity;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.insight.rev261201.problems.Problem;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.NodeId;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.TpId;
import org.opendaylight.yangtools.binding.DataObjectIdentifier;
import org.opendaylight.yangtools.binding.Notification;
import org.opendaylight.yangtools.concepts.Registration;
import org.opendaylight.yangtools.yang.common.Uint16;
import org.opendaylight.yangtools.yang.common.Uint32;
import org.opendaylight.yangtools.yang.common.Uint64;

/**
 * Each problem detector and each notification against a real in-memory broker and a real
 * notification router: flow tables, paths and agent states written as the RFT manager and the RPT
 * write them; problems read back from rst-insight:problems, notifications received by a
 * subscriber of the router.
 */
public class InsightWorkerTest extends AbstractConcurrentDataBrokerTest {
    private static final String REQUESTER = "10.1.0.2";
    private static final String RESPONDER = "10.2.0.2";

    private final List<Notification<?>> received = new CopyOnWriteArrayList<>();
    private final List<Registration> subscriptions = new ArrayList<>();
    private ScheduledExecutorService executor;
    private InsightWorker worker;
    private double now;

    @BeforeEach
    public void startWorker() throws Exception {
        // the broker: the base class sets it up with JUnit 4's @Before, which Jupiter does not run
        setup();
        final var customizer = getDataBrokerTestCustomizer();
        customizer.updateSchema(getRuntimeContext());
        final NotificationService subscriber = customizer.createNotificationService();
        subscriptions.add(subscriber.registerListener(SessionFailed.class, received::add, Runnable::run));
        subscriptions.add(subscriber.registerListener(PathChanged.class, received::add, Runnable::run));
        subscriptions.add(subscriber.registerListener(AgentUnreachable.class, received::add, Runnable::run));
        subscriptions.add(subscriber.registerListener(AgentReachable.class, received::add, Runnable::run));
        subscriptions.add(subscriber.registerListener(AgentDroppingPackets.class, received::add, Runnable::run));
        executor = Executors.newSingleThreadScheduledExecutor();
        now = System.currentTimeMillis() / 1000.0;
        worker = new InsightWorker(getDataBroker(), getDomBroker(), customizer.createNotificationPublishService(),
            ProblemDetector.Options.DEFAULTS, executor, () -> now, 1);
    }

    @AfterEach
    public void stopWorker() {
        worker.close();
        executor.shutdownNow();
        subscriptions.forEach(Registration::close);
    }

    @Test
    public void aRejectedSessionIsNamedWithItsReasonInWordsAndThePortWhereTheRejEnteredTheFabric() throws Exception {
        // leaf1 saw the REQ leave towards the responder and the REJ come back on swp3 first;
        // spine1 saw the REJ later, on its way to the requester
        putSession("leaf1", "s1", SessionState.REJECTED, 28, now - 2, msg(CmMessageType.REQ, "swp1", now - 2),
            msg(CmMessageType.REJ, "swp3", now - 1.9));
        putSession("spine1", "s1", SessionState.REJECTED, 28, now - 2, msg(CmMessageType.REQ, "swp1", now - 1.99),
            msg(CmMessageType.REJ, "swp2", now - 1.8));

        final var problem = awaitProblem(p -> p.getKind() == ProblemKind.Rejected);
        assertEquals("consumer reject (the application refused) (reason 28)", problem.getReason());
        assertEquals(Uint16.valueOf(28), problem.getRejectReason());
        assertEquals("leaf1", problem.getNodeId());
        assertEquals("swp3", problem.getTpId());
        assertEquals(Uint32.ONE, problem.getCount());
        assertEquals(Severity.Critical, problem.getSeverity());
        assertTrue(problem.getSessionId().contains("s1"));
        assertNotNull(problem.getLastSeen());
        // the summary: per kind, per switch, per port
        final var problems = read();
        assertEquals(Uint32.ONE, problems.nonnullKind().values().stream()
            .filter(k -> k.getKind() == ProblemKind.Rejected).findFirst().orElseThrow().getCount());
        assertTrue(problems.nonnullSwitch().values().stream().anyMatch(s -> s.getNodeId().equals("leaf1")));
        assertTrue(problems.nonnullPort().values().stream()
            .anyMatch(p -> p.getNodeId().equals("leaf1") && p.getTpId().equals("swp3")));

        // and once, a notification
        final var failed = awaitNotification(SessionFailed.class, n -> n.getSessionId().equals("s1"));
        assertEquals(ProblemKind.Rejected, failed.getFailure());
        assertEquals(Uint16.valueOf(28), failed.getRejectReason());
        assertEquals(REQUESTER, failed.getRequesterIp().stringValue());
        // a later session's failure, announced after anything the two reports of s1 called for
        putSession("leaf9", "later", SessionState.REJECTED, 28, now - 1, msg(CmMessageType.REJ, "swp3", now - 1));
        awaitNotification(SessionFailed.class, n -> n.getSessionId().equals("later"));
        assertEquals(1, received.stream().filter(n -> n instanceof SessionFailed f && f.getSessionId().equals("s1"))
            .count());
    }

    @Test
    public void aSwitchRemovedTakesWhatOnlyItSawOutOfTheProblems() throws Exception {
        putSession("leaf1", "r1", SessionState.REJECTED, 8, now - 2, msg(CmMessageType.REJ, "swp3", now - 1));
        putSession("leaf2", "r2", SessionState.REJECTED, 8, now - 2, msg(CmMessageType.REJ, "swp5", now - 1));
        awaitProblems(p -> p.nonnullProblem().values().stream().filter(x -> x.getKind() == ProblemKind.Rejected)
            .count() == 2);
        final var tx = getDataBroker().newWriteOnlyTransaction();
        tx.delete(LogicalDatastoreType.OPERATIONAL, DataObjectIdentifier.builder(Rft.class)
            .child(Switch.class, new SwitchKey(new NodeId("leaf1"))).build());
        tx.commit().get(5, TimeUnit.SECONDS);
        final var left = awaitProblems(p -> p.nonnullProblem().values().stream()
            .filter(x -> x.getKind() == ProblemKind.Rejected).count() == 1);
        assertEquals("leaf2", left.nonnullProblem().values().stream().filter(x -> x.getKind() == ProblemKind.Rejected)
            .findFirst().orElseThrow().getNodeId());
        assertFalse(left.nonnullSwitch().values().stream().anyMatch(x -> x.getNodeId().equals("leaf1")));
    }

    @Test
    public void aReqWithoutAnswerIsPlacedAtTheLastSwitchThatSawIt() throws Exception {
        putSession("leaf1", "s2", SessionState.TIMEDOUT, -1, now - 30, msg(CmMessageType.REQ, "swp1", now - 30));
        putSession("spine2", "s2", SessionState.TIMEDOUT, -1, now - 30, msg(CmMessageType.REQ, "swp4", now - 29.9));
        // a session that was answered is no problem
        putSession("leaf1", "ok", SessionState.ESTABLISHED, -1, now - 30, msg(CmMessageType.REQ, "swp1", now - 30),
            msg(CmMessageType.REP, "swp3", now - 29.9), msg(CmMessageType.RTU, "swp1", now - 29.8));

        // once both switches' views are in, the later one places it
        final var problem = awaitProblem(p -> p.getKind() == ProblemKind.ReqUnanswered
            && p.getNodeId().equals("spine2"));
        assertEquals("swp4", problem.getTpId());
        assertEquals(Uint32.ONE, problem.getCount());
        assertEquals(ProblemKind.ReqUnanswered,
            awaitNotification(SessionFailed.class, n -> n.getSessionId().equals("s2")).getFailure());
        assertTrue(read().nonnullProblem().values().stream().noneMatch(p -> p.getSessionId().contains("ok")));
    }

    @Test
    public void aDreqWithoutDrepIsAProblemWhenTimedOutAndWhenHalfClosedTooLong() throws Exception {
        // timed out after the DREQ: failed, announced
        putSession("leaf1", "d1", SessionState.TIMEDOUT, -1, now - 100, msg(CmMessageType.REQ, "swp1", now - 100),
            msg(CmMessageType.REP, "swp3", now - 99.9), msg(CmMessageType.RTU, "swp1", now - 99.8),
            msg(CmMessageType.DREQ, "swp1", now - 50));
        // DISCONNECTING for a minute: half-closed, a warning, not announced (it may yet be answered)
        putSession("leaf2", "d2", SessionState.DISCONNECTING, -1, now - 100, msg(CmMessageType.REQ, "swp1", now - 100),
            msg(CmMessageType.REP, "swp3", now - 99.9), msg(CmMessageType.RTU, "swp1", now - 99.8),
            msg(CmMessageType.DREQ, "swp2", now - 60));
        // DISCONNECTING a moment ago: still closing, no problem
        putSession("leaf2", "d3", SessionState.DISCONNECTING, -1, now - 100, msg(CmMessageType.REQ, "swp1", now - 100),
            msg(CmMessageType.DREQ, "swp2", now - 1));

        final var timedOut = awaitProblem(p -> p.getKind() == ProblemKind.DreqUnanswered
            && p.getSessionId().contains("d1"));
        assertEquals(Severity.Critical, timedOut.getSeverity());
        final var halfClosed = awaitProblem(p -> p.getKind() == ProblemKind.DreqUnanswered
            && p.getSessionId().contains("d2"));
        assertEquals(Severity.Warning, halfClosed.getSeverity());
        assertEquals("swp2", halfClosed.getTpId());
        assertTrue(read().nonnullProblem().values().stream().noneMatch(p -> p.getSessionId().contains("d3")));
        assertEquals(ProblemKind.DreqUnanswered,
            awaitNotification(SessionFailed.class, n -> n.getSessionId().equals("d1")).getFailure());
        assertTrue(received.stream().noneMatch(n -> n instanceof SessionFailed f && !f.getSessionId().equals("d1")));
    }

    @Test
    public void theSameEndpointsSetUpAgainAndAgainAreFlapping() throws Exception {
        // three set-ups within a minute, two of them ended: flapping
        putSession("leaf1", "f1", SessionState.CLOSED, -1, now - 60, msg(CmMessageType.REQ, "swp1", now - 60));
        putSession("leaf1", "f2", SessionState.REJECTED, 8, now - 40, msg(CmMessageType.REQ, "swp1", now - 40));
        putSession("leaf1", "f3", SessionState.ESTABLISHED, -1, now - 20, msg(CmMessageType.REQ, "swp1", now - 20));
        // the same endpoints to another service, set up twice, and a pair set up three times over an hour
        putSession("leaf1", "g1", SessionState.CLOSED, -1, now - 50, "0x0000000001060000",
            msg(CmMessageType.REQ, "swp1", now - 50));
        putSession("leaf1", "g2", SessionState.CLOSED, -1, now - 30, "0x0000000001060000",
            msg(CmMessageType.REQ, "swp1", now - 30));

        final var problem = awaitProblem(p -> p.getKind() == ProblemKind.Flapping);
        assertEquals(Uint32.valueOf(3), problem.getCount());
        assertEquals(REQUESTER, problem.getRequesterIp().stringValue());
        assertEquals(RESPONDER, problem.getResponderIp().stringValue());
        assertEquals(java.util.Set.of("f1", "f2", "f3"), problem.getSessionId());
        assertTrue(problem.getTitle().startsWith("Flapping: 3 set-ups in 40 s, 2 ended"), problem.getTitle());
        assertEquals(1, read().nonnullProblem().values().stream().filter(p -> p.getKind() == ProblemKind.Flapping)
            .count());
    }

    @Test
    public void setUpsSpreadOverAnHourAreNotFlapping() throws Exception {
        putSession("leaf1", "h1", SessionState.CLOSED, -1, now - 3600, msg(CmMessageType.REQ, "swp1", now - 3600));
        putSession("leaf1", "h2", SessionState.CLOSED, -1, now - 1800, msg(CmMessageType.REQ, "swp1", now - 1800));
        putSession("leaf1", "h3", SessionState.CLOSED, -1, now - 10, msg(CmMessageType.REQ, "swp1", now - 10));
        putAgent("leaf1", AgentState.UNREACHABLE, "connection refused");
        // the agent's problem shows, so the problems were computed with the three sessions in
        awaitProblem(p -> p.getKind() == ProblemKind.AgentUnreachable);
        assertTrue(read().nonnullProblem().values().stream().noneMatch(p -> p.getKind() == ProblemKind.Flapping));
    }

    @Test
    public void anAsymmetricPathIsAProblemAndARouteChangeIsNotified() throws Exception {
        putSession("leaf1", "p1", SessionState.ESTABLISHED, -1, now - 20, msg(CmMessageType.REQ, "swp1", now - 20),
            msg(CmMessageType.RTU, "swp1", now - 19));
        putPath("p1", List.of("leaf1", "spine1", "leaf2"), List.of("leaf2", "spine2", "leaf1"), true);
        final var problem = awaitProblem(p -> p.getKind() == ProblemKind.AsymmetricPath);
        assertEquals("spine1", problem.getNodeId());
        // when: the session's first and last CM message
        assertEquals(ProblemSummary.time(now - 20), problem.getFirstSeen());
        assertEquals(ProblemSummary.time(now - 19), problem.getLastSeen());
        assertEquals(Severity.Notice, problem.getSeverity());
        assertTrue(problem.getDetail().contains("leaf1 > spine1 > leaf2"), problem.getDetail());

        // a gap filled (a switch's table arrived) is not a change of route...
        putPath("p2", List.of("leaf1"), List.of(), false);
        putPath("p2", List.of("leaf1", "spine1", "leaf2"), List.of("leaf2", "spine1", "leaf1"), false);
        // ...a spine replaced is
        putPath("p2", List.of("leaf1", "spine2", "leaf2"), List.of("leaf2", "spine1", "leaf1"), true);
        final var changed = awaitNotification(PathChanged.class, n -> n.getSessionId().equals("p2"));
        assertEquals(List.of("leaf1", "spine1", "leaf2"), changed.getPreviousForward());
        assertEquals(List.of("leaf1", "spine2", "leaf2"), changed.getForward());
        // a later path's change of route, announced after anything p1's and p2's writes called for
        putPath("later", List.of("leaf1", "spine1", "leaf2"), List.of("leaf2", "spine1", "leaf1"), false);
        putPath("later", List.of("leaf1", "spine2", "leaf2"), List.of("leaf2", "spine1", "leaf1"), true);
        awaitNotification(PathChanged.class, n -> n.getSessionId().equals("later"));
        assertEquals(1, received.stream().filter(n -> n instanceof PathChanged c && !c.getSessionId().equals("later"))
            .count());
    }

    @Test
    public void dataApartFromItsCmIsAProblem() throws Exception {
        final var path = new PathBuilder().setSessionId("d1").setRequesterIp(ip(REQUESTER))
            .setResponderIp(ip(RESPONDER))
            .setForward(new ForwardBuilder().setHop(hops(List.of("leaf1", "spine1", "leaf2"))).setComplete(true)
                .build())
            .setReverse(new ReverseBuilder().setHop(hops(List.of("leaf2", "spine1", "leaf1"))).setComplete(true)
                .build())
            .setAsymmetric(false).setDataPathDiffers(true)
            .setAnomaly(java.util.Set.of("forward data enters leaf2 on swp4, its CM on swp3")).build();
        final var tx = getDataBroker().newWriteOnlyTransaction();
        tx.mergeParentStructurePut(LogicalDatastoreType.OPERATIONAL, DataObjectIdentifier.builder(Rpt.class)
            .child(Path.class, new PathKey("d1")).build(), path);
        tx.commit().get(5, TimeUnit.SECONDS);
        putSession("leaf2", "d1", SessionState.ESTABLISHED, -1, now - 8, msg(CmMessageType.REQ, "swp3", now - 8),
            msg(CmMessageType.RTU, "swp3", now - 7));
        final var problem = awaitProblem(p -> p.getKind() == ProblemKind.DataPathDiffers && p.getFirstSeen() != null);
        assertEquals("leaf2", problem.getNodeId());
        assertTrue(problem.getDetail().contains("enters leaf2 on swp4, its CM on swp3"), problem.getDetail());
        // where: the port the data entered, counted per port; when: the session's CM messages
        assertEquals("swp4", problem.getTpId());
        assertEquals(ProblemSummary.time(now - 8), problem.getFirstSeen());
        assertEquals(ProblemSummary.time(now - 7), problem.getLastSeen());
        assertTrue(read().nonnullPort().values().stream().anyMatch(p -> p.getNodeId().equals("leaf2")
            && p.getTpId().equals("swp4") && p.nonnullKind().values().stream()
                .anyMatch(k -> k.getKind() == ProblemKind.DataPathDiffers)));
    }

    @Test
    public void anAgentDroppingPacketsIsAProblemWithItsCountAndSinceWhenAndIsNotifiedOnce() throws Exception {
        putAgentDrops("spine1", 0, 0, Double.NaN, Double.NaN);
        putAgent("leaf1", AgentState.UNREACHABLE, "down");
        // the agent's problem shows, so the problems were computed with spine1's status in
        awaitProblem(p -> p.getKind() == ProblemKind.AgentUnreachable);
        assertTrue(read().nonnullProblem().values().stream()
            .noneMatch(p -> p.getKind() == ProblemKind.AgentDroppingPackets));

        putAgentDrops("spine1", 1000, 234, now - 30, now - 1);
        final var problem = awaitProblem(p -> p.getKind() == ProblemKind.AgentDroppingPackets);
        assertEquals("spine1", problem.getNodeId());
        assertEquals("1234 frames dropped (kernel 1000, queue 234)", problem.getReason());
        assertEquals(Severity.Warning, problem.getSeverity());
        assertEquals(ProblemSummary.time(now - 30), problem.getFirstSeen());
        assertEquals(ProblemSummary.time(now - 1), problem.getLastSeen());
        assertTrue(problem.getDetail().contains("since " + ProblemSummary.time(now - 30)
            .getValue()), problem.getDetail());
        final var problems = read();
        assertEquals(Uint32.ONE, problems.nonnullKind().values().stream()
            .filter(k -> k.getKind() == ProblemKind.AgentDroppingPackets).findFirst().orElseThrow().getCount());
        assertTrue(problems.nonnullSwitch().values().stream().anyMatch(s -> s.getNodeId().equals("spine1")
            && s.nonnullKind().values().stream().anyMatch(k -> k.getKind() == ProblemKind.AgentDroppingPackets)));
        final var dropping = awaitNotification(AgentDroppingPackets.class, n -> n.getNodeId().equals("spine1"));
        assertEquals(Uint64.valueOf(1234), dropping.getDroppedPackets());
        assertEquals(ProblemSummary.time(now - 30), dropping.getSince());
        final var text = MetricsText.render(worker.snapshot(), now);
        assertTrue(text.contains("rst_agent_dropped_packets_total{switch=\"spine1\",cause=\"kernel\"} 1000\n"), text);
        assertTrue(text.contains("rst_agent_dropped_packets_total{switch=\"spine1\",cause=\"queue\"} 234\n"), text);

        // still dropping: the count grows, no second notification
        putAgentDrops("spine1", 1100, 234, now - 30, now);
        awaitProblem(p -> p.getKind() == ProblemKind.AgentDroppingPackets && p.getReason().startsWith("1334 "));
        // leaf1 back: announced after anything spine1's statuses called for
        putAgent("leaf1", AgentState.CAPTURING, null);
        awaitNotification(AgentReachable.class, n -> n.getNodeId().equals("leaf1"));
        assertEquals(1, received.stream().filter(n -> n instanceof AgentDroppingPackets).count());

        // a quiet minute later the status no longer says dropping: the problem goes
        putAgentDrops("spine1", 1100, 234, Double.NaN, now);
        awaitProblems(p -> p.nonnullProblem().values().stream()
            .noneMatch(x -> x.getKind() == ProblemKind.AgentDroppingPackets));
    }

    @Test
    public void anAgentLostAndBackIsAProblemWhileLostAndNotifiedBothWays() throws Exception {
        putAgent("spine1", AgentState.CAPTURING, null);
        putAgent("spine1", AgentState.UNREACHABLE, "connect timed out");
        final var problem = awaitProblem(p -> p.getKind() == ProblemKind.AgentUnreachable);
        assertEquals("spine1", problem.getNodeId());
        assertTrue(problem.getDetail().contains("connect timed out"), problem.getDetail());
        final var lost = awaitNotification(AgentUnreachable.class, n -> n.getNodeId().equals("spine1"));
        assertEquals("UNREACHABLE", lost.getState());

        putAgent("spine1", AgentState.CAPTURING, null);
        awaitNotification(AgentReachable.class, n -> n.getNodeId().equals("spine1"));
        awaitProblems(p -> p.nonnullProblem().values().stream()
            .noneMatch(x -> x.getKind() == ProblemKind.AgentUnreachable));
        // and the metrics say the same
        final var text = MetricsText.render(worker.snapshot(), now);
        assertTrue(text.contains("rst_agents{state=\"CAPTURING\"} 1\n"), text);
        assertTrue(text.contains("rst_agent_up{switch=\"spine1\"} 1\n"), text);
        assertTrue(text.contains("rst_agent_last_event_seq{switch=\"spine1\"} 42\n"), text);
    }

    @Test
    public void theMetricsFollowTheAgentsBetweenRecomputationsOfTheProblems() throws Exception {
        // a worker whose problems are recomputed once, then not for an hour: as a loaded
        // controller's with 100,000 sessions may be for a minute
        worker.close();
        worker = new InsightWorker(getDataBroker(), getDomBroker(),
            getDataBrokerTestCustomizer().createNotificationPublishService(), ProblemDetector.Options.DEFAULTS,
            executor, () -> now, 3600, 3600);
        await("the first recomputation").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
            .until(() -> worker.snapshot().active());
        final double taken = worker.snapshot().takenAt();
        putAgent("spine1", AgentState.CAPTURING, null);
        final String text = metricsOnceThey("rst_agent_last_event_seq{switch=\"spine1\"} 42\n");
        assertTrue(text.contains("rst_agent_last_event_seq{switch=\"spine1\"} 42\n"), text);
        assertTrue(text.contains("rst_agent_up{switch=\"spine1\"} 1\n"), text);
        assertEquals(taken, worker.snapshot().takenAt(), 0, "no recomputation in between");
    }

    @Test
    public void metricsCountSessionsByStatePathsProblemsAndIngest() throws Exception {
        putSession("leaf1", "m1", SessionState.ESTABLISHED, -1, now - 5, msg(CmMessageType.REQ, "swp1", now - 5));
        putSession("leaf1", "m2", SessionState.REJECTED, 28, now - 5, msg(CmMessageType.REJ, "swp3", now - 4));
        putSession("spine1", "m1", SessionState.ESTABLISHED, -1, now - 5, msg(CmMessageType.REQ, "swp1", now - 5));
        putPath("m1", List.of("leaf1", "spine1"), List.of("spine1", "leaf1"), false);
        awaitProblem(p -> p.getKind() == ProblemKind.Rejected);
        final String text = metricsOnceThey("rst_paths 1\n");
        assertTrue(text.contains("rst_insight_active 1\n"), text);
        assertTrue(text.contains("rst_sessions{switch=\"leaf1\",state=\"ESTABLISHED\"} 1\n"), text);
        assertTrue(text.contains("rst_sessions{switch=\"leaf1\",state=\"REJECTED\"} 1\n"), text);
        assertTrue(text.contains("rst_sessions{switch=\"spine1\",state=\"REJECTED\"} 0\n"), text);
        assertTrue(text.contains("rst_fabric_sessions 2\n"), text);
        assertTrue(text.contains("rst_paths 1\n"), text);
        assertTrue(text.contains("rst_paths_incomplete 1\n"), text);
        assertTrue(text.contains("rst_problems{kind=\"rejected\"} 1\n"), text);
        assertTrue(text.contains("rst_problems{kind=\"flapping\"} 0\n"), text);
        assertTrue(text.contains("rst_ingest_session_updates_total{switch=\"leaf1\"} 2\n"), text);
        // the lag: from the session's last CM message (now - 5) to its arrival (now)
        assertTrue(text.contains("rst_ingest_lag_seconds{switch=\"spine1\"} 5.000000\n"), text);
        assertTrue(text.contains("rst_paths_failed_commits_total 0\n"), text);

        // the RPT's refused commits, as it counts them in rpt/failed-commits
        final var tx = getDataBroker().newWriteOnlyTransaction();
        tx.mergeParentStructureMerge(LogicalDatastoreType.OPERATIONAL,
            org.opendaylight.yangtools.binding.DataObjectIdentifier.builder(
                org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.Rpt.class).build(),
            new org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.RptBuilder()
                .setFailedCommits(org.opendaylight.yangtools.yang.common.Uint64.valueOf(3)).build());
        tx.commit().get(5, TimeUnit.SECONDS);
        final String counted = metricsOnceThey("rst_paths_failed_commits_total 3\n");
        assertTrue(counted.contains("rst_paths_failed_commits_total 3\n"), counted);
        // every line is a comment or "name{labels} value"
        for (var line : text.split("\n")) {
            assertTrue(line.startsWith("# ") || line.matches("rst_[a-z_]+(\\{[^}]*\\})? [-0-9.NaN]+"), line);
        }
    }

    /**
     * From the flow table to the problems and the metrics: a one-way RC flow nobody saw answered for
     * two minutes is half-seen, no session failure is announced for it, and the metrics count the
     * switches' sessions by origin and their one-way flows by the controller's pairing.
     */
    @Test
    public void dataLearnedFlowsCountAndAOneWayFlowNobodyAnswersIsHalfSeen() throws Exception {
        final var flow = new SessionBuilder().setSessionId(REQUESTER + "/-/" + RESPONDER + "/qp0x000022")
            .setLearnedFrom(LearnedFrom.Data).setTransport(Transport.RC).setOneWay(true).setRolesKnown(false)
            .setRequesterIp(ip(REQUESTER)).setResponderIp(ip(RESPONDER)).setState(SessionState.ACTIVE)
            .setFirstSeen(seconds(now - 130)).setLastSeen(seconds(now - 2));
        putData("spine1", flow.build());
        putData("spine2", flow.build());
        putData("spine2", flow.setSessionId(REQUESTER + "/-/" + RESPONDER + "/qp0x000033")
            .setPairedSession(REQUESTER + "/qp0x000011/" + RESPONDER + "/qp0x000033").build());
        putData("leaf1", new SessionBuilder().setSessionId(REQUESTER + "/qp0x000011/" + RESPONDER + "/qp0x000033")
            .setLearnedFrom(LearnedFrom.Data).setTransport(Transport.RC).setRolesKnown(false)
            .setRequesterIp(ip(REQUESTER)).setResponderIp(ip(RESPONDER)).setState(SessionState.IDLE)
            .setFirstSeen(seconds(now - 130)).setLastSeen(seconds(now - 60)).build());

        final var half = awaitProblem(p -> p.getKind() == ProblemKind.HalfSeen);
        assertEquals(Uint32.ONE, half.getCount());
        assertEquals("data", half.getLearnedFrom().getName());
        assertEquals("spine1", half.getNodeId());
        assertEquals(Set.of(REQUESTER + "/-/" + RESPONDER + "/qp0x000022"), half.getSessionId());
        metricsOnceThey("rst_problems{kind=\"half-seen\"} 1\n");
        // every switch's sessions are counted once the worker has taken in every put
        final String text = metricsOnceThey("rst_sessions{switch=\"leaf1\",state=\"IDLE\"} 1\n");
        for (var line : List.of("rst_sessions_by_origin{switch=\"leaf1\",learned_from=\"data\",state=\"IDLE\"} 1",
                "rst_sessions_by_origin{switch=\"spine2\",learned_from=\"data\",state=\"ACTIVE\"} 2",
                "rst_one_way_flows{switch=\"spine2\",pairing=\"paired\"} 1",
                "rst_one_way_flows{switch=\"spine2\",pairing=\"unpaired\"} 1",
                "rst_sessions{switch=\"spine1\",state=\"ACTIVE\"} 1")) {
            assertTrue(text.contains(line + "\n"), line + " in\n" + text);
        }
        assertTrue(received.stream().noneMatch(SessionFailed.class::isInstance), received.toString());
    }

    private void putData(final String node, final Session session) throws Exception {
        final var tx = getDataBroker().newWriteOnlyTransaction();
        tx.mergeParentStructurePut(LogicalDatastoreType.OPERATIONAL, DataObjectIdentifier.builder(Rft.class)
            .child(Switch.class, new SwitchKey(new NodeId(node))).child(Session.class, session.key()).build(),
            session);
        tx.commit().get(5, TimeUnit.SECONDS);
    }

    private static Message msg(final CmMessageType type, final String tp, final double time) {
        return new MessageBuilder().setSeq(Uint32.ZERO).setType(type).setIngressTp(new TpId(tp)).setTime(seconds(time))
            .setFromRequester(type == CmMessageType.REQ || type == CmMessageType.RTU).build();
    }

    private void putSession(final String node, final String id, final SessionState state, final int reason,
            final double first, final Message... messages) throws Exception {
        putSession(node, id, state, reason, first, "0x0000000001064000", messages);
    }

    private void putSession(final String node, final String id, final SessionState state, final int reason,
            final double first, final String service, final Message... messages) throws Exception {
        final var list = new ArrayList<Message>();
        double last = first;
        for (int i = 0; i < messages.length; i++) {
            list.add(new MessageBuilder(messages[i]).setSeq(Uint32.valueOf(i)).build());
            last = Math.max(last, Sighting.seconds(messages[i].getTime()));
        }
        final var builder = new SessionBuilder().setSessionId(id).setRequesterIp(ip(REQUESTER))
            .setResponderIp(ip(RESPONDER)).setServiceId(new ServiceId(service)).setRolesKnown(true).setState(state)
            .setFirstSeen(seconds(first)).setLastSeen(seconds(last)).setMessage(list);
        if (reason >= 0) {
            builder.setRejectReason(Uint16.valueOf(reason));
        }
        final var tx = getDataBroker().newWriteOnlyTransaction();
        tx.mergeParentStructurePut(LogicalDatastoreType.OPERATIONAL, DataObjectIdentifier.builder(Rft.class)
            .child(Switch.class, new SwitchKey(new NodeId(node))).child(Session.class, new SessionKey(id)).build(),
            builder.build());
        tx.commit().get(5, TimeUnit.SECONDS);
    }

    private void putAgent(final String node, final AgentState state, final String detail) throws Exception {
        final var tx = getDataBroker().newWriteOnlyTransaction();
        tx.mergeParentStructurePut(LogicalDatastoreType.OPERATIONAL, DataObjectIdentifier.builder(Rft.class)
            .child(Switch.class, new SwitchKey(new NodeId(node))).child(AgentStatus.class).build(),
            new AgentStatusBuilder().setState(state).setDetail(detail).setLastChange(seconds(now))
                .setLastContact(seconds(now)).setLastEventSeq(Uint64.valueOf(42)).build());
        tx.commit().get(5, TimeUnit.SECONDS);
    }

    private void putAgentDrops(final String node, final long kernel, final long queue, final double since,
            final double last) throws Exception {
        final var status = new AgentStatusBuilder().setState(AgentState.CAPTURING).setDetail("capturing over TLS")
            .setLastChange(seconds(now)).setLastContact(seconds(now)).setLastEventSeq(Uint64.valueOf(42))
            .setDroppedPackets(Uint64.valueOf(kernel + queue)).setKernelDrops(Uint64.valueOf(kernel))
            .setQueueDrops(Uint64.valueOf(queue));
        if (!Double.isNaN(since)) {
            status.setDroppingSince(seconds(since));
        }
        if (!Double.isNaN(last)) {
            status.setLastDrop(seconds(last));
        }
        final var tx = getDataBroker().newWriteOnlyTransaction();
        // a put, as the RFT manager writes a whole status: leaves it no longer says go
        tx.mergeParentStructurePut(LogicalDatastoreType.OPERATIONAL, DataObjectIdentifier.builder(Rft.class)
            .child(Switch.class, new SwitchKey(new NodeId(node))).child(AgentStatus.class).build(), status.build());
        tx.commit().get(5, TimeUnit.SECONDS);
    }

    private void putPath(final String id, final List<String> forward, final List<String> reverse,
            final boolean asymmetric) throws Exception {
        final var path = new PathBuilder().setSessionId(id).setRequesterIp(ip(REQUESTER)).setResponderIp(ip(RESPONDER))
            .setForward(new ForwardBuilder().setHop(hops(forward)).setComplete(forward.size() == 3).build())
            .setReverse(new ReverseBuilder().setHop(hops(reverse)).setComplete(reverse.size() == 3).build())
            .setAsymmetric(asymmetric).build();
        final var tx = getDataBroker().newWriteOnlyTransaction();
        tx.mergeParentStructurePut(LogicalDatastoreType.OPERATIONAL, DataObjectIdentifier.builder(Rpt.class)
            .child(Path.class, new PathKey(id)).build(), path);
        tx.commit().get(5, TimeUnit.SECONDS);
    }

    private static List<Hop> hops(final List<String> nodes) {
        final var out = new ArrayList<Hop>();
        for (int i = 0; i < nodes.size(); i++) {
            out.add(new HopBuilder().setIndex(Uint16.valueOf(i)).setNodeId(new NodeId(nodes.get(i))).setObserved(true)
                .build());
        }
        return out;
    }

    private Problems read() throws Exception {
        try (var rtx = getDataBroker().newReadOnlyTransaction()) {
            final Optional<Problems> problems = rtx.read(LogicalDatastoreType.OPERATIONAL, InsightWorker.PROBLEMS)
                .get(5, TimeUnit.SECONDS);
            assertTrue(problems.isPresent(), "no problems container");
            return problems.orElseThrow();
        }
    }

    private Problems awaitProblems(final Predicate<Problems> condition) {
        // generous: the first recomputation of the class pays the codec's and the JIT's warm-up,
        // on a machine that may be busy with other builds, and the next one waits twenty times as
        // long as it took (InsightWorker.SHARE)
        return await("the problems match").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(50))
            .until(() -> {
                try (var rtx = getDataBroker().newReadOnlyTransaction()) {
                    return rtx.read(LogicalDatastoreType.OPERATIONAL, InsightWorker.PROBLEMS).get(5, TimeUnit.SECONDS);
                }
            }, last -> last.isPresent() && condition.test(last.orElseThrow())).orElseThrow();
    }

    private Problem awaitProblem(final Predicate<Problem> condition) {
        final var problems = awaitProblems(p -> p.nonnullProblem().values().stream().anyMatch(condition));
        return problems.nonnullProblem().values().stream().filter(condition).findFirst().orElseThrow();
    }

    private <N extends Notification<?>> N awaitNotification(final Class<N> type, final Predicate<N> condition) {
        return await("a " + type.getSimpleName() + " notification").atMost(Duration.ofSeconds(10))
            .pollInterval(Duration.ofMillis(50)).until(() -> received.stream().filter(type::isInstance)
                .map(type::cast).filter(condition).findFirst(), Optional::isPresent).orElseThrow();
    }

    private static IpAddress ip(final String text) {
        return new IpAddress(new Ipv4Address(text));
    }

    private static DateAndTime seconds(final double value) {
        return new DateAndTime(Times.format(BigDecimal.valueOf(value).setScale(6, java.math.RoundingMode.HALF_EVEN)
            .unscaledValue().longValueExact()));
    }

    /** The metrics as rendered once they contain {@code line}. */
    private String metricsOnceThey(final String line) {
        return await("the metrics show " + line.strip()).atMost(Duration.ofSeconds(10))
            .pollInterval(Duration.ofMillis(50)).until(() -> MetricsText.render(worker.snapshot(), now),
                text -> text.contains(line));
    }
}
