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

import com.google.common.util.concurrent.FluentFuture;
import com.google.common.util.concurrent.Futures;
import io.rst.rft.agent.Agent;
import io.rst.rft.agent.AgentCommand;
import io.rst.rft.agent.AgentOptions;
import io.rst.rft.pcap.CmTrafficGenerator;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.opendaylight.mdsal.binding.dom.adapter.test.AbstractConcurrentDataBrokerTest;
import org.opendaylight.mdsal.common.api.LogicalDatastoreType;
import org.opendaylight.mdsal.common.api.TransactionCommitFailedException;
import org.opendaylight.mdsal.dom.api.DOMDataBroker;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.Host;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.IpAddress;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.Ipv4Address;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.PortNumber;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.AgentTransport;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.SessionState;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft.Switch;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft.SwitchBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.Session;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.SessionKey;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.NodeId;
import org.opendaylight.yangtools.yang.common.Uint16;

/**
 * A commit of the follower's sessions that fails is not taken as written: the sessions go out
 * again and the failure is counted. The broker is the real in-memory one; only its first session
 * commits are made to fail (a datastore that refuses a commit cannot be had otherwise on demand),
 * by a pass-through that answers them with the failure a datastore gives and writes nothing.
 */
public class FailedCommitTest extends AbstractConcurrentDataBrokerTest {
    private static final String TOKEN = "failing-commits-token";
    private static final int SESSIONS = 300;

    private Path dir;
    private Agent agent;
    private ScheduledExecutorService scheduler;
    private StatusWriter writer;
    private AgentFollower follower;
    private final AtomicInteger toFail = new AtomicInteger(2);
    private final AtomicInteger failed = new AtomicInteger();

    @BeforeEach
    public void setUp() throws Exception {
        // the broker: the base class sets it up with JUnit 4's @Before, which Jupiter does not run
        setup();
        dir = Files.createTempDirectory("rst-failed-commit");
        Files.writeString(dir.resolve("token"), TOKEN + "\n");
        Files.setPosixFilePermissions(dir.resolve("token"), PosixFilePermissions.fromString("rw-------"));
        final Path pcap = dir.resolve("live.pcap");
        // REQ REP RTU: every session stays ESTABLISHED
        final var base = CmTrafficGenerator.Options.bench(SESSIONS);
        new CmTrafficGenerator(new CmTrafficGenerator.Options(SESSIONS, 1, false, 4, 0, false, base.udpPort(),
            System.currentTimeMillis() * 1_000_000L)).stopAfter(3).write(pcap);
        final var options = AgentOptions.parse(List.of("--listen", "127.0.0.1:0", "--token-file",
            dir.resolve("token").toString(), "--state-dir", dir.resolve("state").toString(), "--replay",
            pcap.toString(), "--agent-id", "leaf1", "--plain-http"));
        agent = new Agent(options, events -> AgentCommand.cmProcessor(options, events));
        agent.start();
        scheduler = Executors.newSingleThreadScheduledExecutor();
        final var stores = TestStores.of(this);
        writer = new StatusWriter(new Stores(stores.binding(), failingFirstSessionCommits(stores.dom()),
            stores.codec()));
    }

    @AfterEach
    public void tearDown() throws Exception {
        if (follower != null) {
            follower.close();
        }
        writer.close();
        scheduler.shutdownNow();
        agent.close();
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @Test
    public void sessionsOfAFailedCommitAreWrittenAgainAndTheFailureCounted() throws Exception {
        follower = new AgentFollower("leaf1", "127.0.0.1", agent.address().getPort(), () -> TOKEN, writer,
            HttpClient.newHttpClient(), scheduler, Duration.ofSeconds(60));
        final Map<SessionKey, Session> sessions = await("every session established").atMost(Duration.ofSeconds(30))
            .until(this::operSessions, found -> found.size() == SESSIONS && found.values().stream()
                .allMatch(s -> s.getState() == SessionState.ESTABLISHED));
        assertEquals(2, failed.get());
        assertEquals(SESSIONS, sessions.size(), "every session, although the first commits failed");
        assertTrue(sessions.values().stream().allMatch(s -> s.getState() == SessionState.ESTABLISHED));
        // the outcome reaches the follower on its scheduler, after the commit
        await("the follower counts the failures").atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20))
            .until(() -> follower.failedCommits() >= 2);
        assertEquals(2, follower.failedCommits());
        assertTrue(follower.rewrittenAfterFailure() > 0);
    }

    /**
     * The refused commits show where an operator looks: the switch's agent-status counts them
     * ({@code failed-commits}, which insight's /metrics serves as rst_ingest_failed_commits_total).
     */
    @Test
    public void theRefusedCommitsAreCountedInTheSwitchsAgentStatus() throws Exception {
        final var executor = Executors.newSingleThreadScheduledExecutor();
        final var stores = TestStores.of(this);
        try (var worker = new RftManager.Worker(new Stores(stores.binding(), failingFirstSessionCommits(stores.dom()),
                stores.codec()), new HttpAgentProbe(executor, node -> TOKEN, Duration.ofSeconds(2)),
                Duration.ofMillis(200), executor, node -> TOKEN, Duration.ofSeconds(60))) {
            final var sw = new SwitchBuilder().setNodeId(new NodeId("leaf1")).setEnabled(true)
                .setAgentTransport(AgentTransport.PlainHttp)
                .setAgentAddress(new Host(new IpAddress(new Ipv4Address("127.0.0.1"))))
                .setAgentPort(new PortNumber(Uint16.valueOf(agent.address().getPort()))).build();
            final var tx = getDataBroker().newWriteOnlyTransaction();
            tx.mergeParentStructurePut(LogicalDatastoreType.CONFIGURATION, StatusWriter.switchPath("leaf1"), sw);
            tx.commit().get(5, TimeUnit.SECONDS);

            final Switch last = await("every session, and the status counting failed commits")
                .atMost(Duration.ofSeconds(30)).until(() -> {
                    try (var rtx = getDataBroker().newReadOnlyTransaction()) {
                        return rtx.read(LogicalDatastoreType.OPERATIONAL, StatusWriter.switchPath("leaf1"))
                            .get(5, TimeUnit.SECONDS).orElse(null);
                    }
                }, found -> found != null && found.nonnullSession().size() == SESSIONS && found.getAgentStatus() != null
                    && found.getAgentStatus().getFailedCommits() != null
                    && found.getAgentStatus().getFailedCommits().longValue() == 2);
            assertEquals(2, failed.get());
            assertEquals(SESSIONS,
                last == null ? 0 : last.nonnullSession().size(), "every session, although the first commits failed");
            final var status = last == null ? null : last.getAgentStatus();
            assertEquals(Long.valueOf(2),
                status == null || status.getFailedCommits() == null ? null
                    : Long.valueOf(status.getFailedCommits().longValue()),
                "the refused commits in the agent's status: " + status);
        } finally {
            executor.shutdownNow();
        }
    }

    private Map<SessionKey, Session> operSessions() throws Exception {
        try (var tx = getDataBroker().newReadOnlyTransaction()) {
            return tx.read(LogicalDatastoreType.OPERATIONAL, StatusWriter.switchPath("leaf1"))
                .get(5, TimeUnit.SECONDS).map(Switch::nonnullSession).orElse(Map.of());
        }
    }

    /** The broker, except that the first {@link #toFail} commits that write sessions fail. */
    private DOMDataBroker failingFirstSessionCommits(final DOMDataBroker real) {
        return WriteInterceptor.of(real, (tx, commit) -> {
            if (toFail.getAndDecrement() > 0) {
                tx.cancel();
                failed.incrementAndGet();
                return FluentFuture.from(Futures.immediateFailedFuture(
                    new TransactionCommitFailedException("refused by the test")));
            }
            return commit.get();
        });
    }
}
