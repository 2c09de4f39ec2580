/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.manager;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.common.util.concurrent.FluentFuture;
import com.google.common.util.concurrent.SettableFuture;
import io.rst.rft.agent.Agent;
import io.rst.rft.agent.AgentCommand;
import io.rst.rft.agent.AgentOptions;
import io.rst.rft.pcap.CmTrafficGenerator;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.opendaylight.mdsal.binding.dom.adapter.test.AbstractConcurrentDataBrokerTest;
import org.opendaylight.mdsal.common.api.CommitInfo;
import org.opendaylight.mdsal.common.api.LogicalDatastoreType;
import org.opendaylight.mdsal.dom.api.DOMDataBroker;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.SessionState;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft.Switch;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.Session;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.SessionKey;

/**
 * A datastore slower than the agent holds the follower back instead of queueing in the controller:
 * at most {@link AgentFollower#MAX_IN_FLIGHT} batches commit at once, the writes waiting for a
 * batch stay within the bound, and the rest of the agent's stream stays unread (in the agent's log)
 * until commits complete; then every session arrives. The broker is the real in-memory one; what
 * is slow is the outcome of each commit that writes sessions, which a pass-through hands to the
 * follower only when the test releases it (the data itself is committed at once, so that the
 * transaction chain goes on).
 */
public class SlowCommitTest extends AbstractConcurrentDataBrokerTest {
    private static final String TOKEN = "slow-commits-token";
    private static final int SESSIONS = 3000;
    private static final int LIMIT = 200;
    private static final ObjectMapper JSON = new ObjectMapper();

    private Path dir;
    private Agent agent;
    private ScheduledExecutorService scheduler;
    private StatusWriter writer;
    private AgentFollower follower;
    private final HttpClient http = HttpClient.newHttpClient();
    // guarded by itself: the outcomes not yet handed over, and whether outcomes are held at all
    private final List<Runnable> held = new ArrayList<>();
    private boolean holding = true;

    @Before
    public void setUp() throws Exception {
        dir = Files.createTempDirectory("rst-slow-commit");
        Files.writeString(dir.resolve("token"), TOKEN + "\n");
        Files.setPosixFilePermissions(dir.resolve("token"), PosixFilePermissions.fromString("rw-------"));
        final Path pcap = dir.resolve("live.pcap");
        // REQ REP RTU: every session stays ESTABLISHED
        final var base = CmTrafficGenerator.Options.bench(SESSIONS);
        new CmTrafficGenerator(new CmTrafficGenerator.Options(SESSIONS, 1, false, 4, 0, false, base.udpPort(),
            System.currentTimeMillis() * 1_000_000L)).stopAfter(3).write(pcap);
        // the agent starts with its capture off (as an operator left it), so that every session
        // comes through the event stream once the test turns it on, none in the first snapshot
        Files.createDirectories(dir.resolve("state"));
        Files.writeString(dir.resolve("state").resolve("agent.json"), "{\"capturing\":false}");
        final var options = AgentOptions.parse(List.of("--listen", "127.0.0.1:0", "--token-file",
            dir.resolve("token").toString(), "--state-dir", dir.resolve("state").toString(), "--replay",
            pcap.toString(), "--agent-id", "leaf1", "--plain-http"));
        agent = new Agent(options, events -> AgentCommand.cmProcessor(options, events));
        agent.start();
        scheduler = Executors.newSingleThreadScheduledExecutor();
        final var stores = TestStores.of(this);
        writer = new StatusWriter(new Stores(stores.binding(), slowSessionCommits(stores.dom()), stores.codec()));
    }

    @After
    public void tearDown() throws Exception {
        release();
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
    public void aSlowDatastoreHoldsTheStreamBackAndLosesNothing() throws Exception {
        follower = new AgentFollower("leaf1", "127.0.0.1", agent.address().getPort(), () -> TOKEN, writer,
            HttpClient.newHttpClient(), scheduler, Duration.ofSeconds(60));
        follower.pendingLimit(LIMIT);
        await(follower::streaming, "the follower never opened the agent's stream");
        assertTrue("the agent captures", agentPost("/v1/start").path("capturing").asBoolean());
        await(() -> lastSeq() >= SESSIONS, "the agent never reported every session");
        final long agentSeq = awaitStableSeq();

        // the commits' outcomes are held: the follower stops where its bound says
        await(() -> follower.pending() >= LIMIT, "the follower never filled its pending writes");
        Thread.sleep(500);
        assertTrue("batches in flight: " + follower.batchesInFlight(),
            follower.batchesInFlight() <= AgentFollower.MAX_IN_FLIGHT);
        synchronized (held) {
            assertTrue("commits outstanding: " + held.size(), held.size() <= AgentFollower.MAX_IN_FLIGHT);
        }
        assertTrue("pending " + follower.pending() + " over the bound " + LIMIT, follower.pending() <= LIMIT);
        final long applied = follower.appliedSeq();
        assertTrue("the follower read " + applied + " of " + agentSeq + " events while nothing committed",
            applied < agentSeq);

        // the datastore catches up: every session arrives, and the stream is read to its end
        release();
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        Map<SessionKey, Session> sessions = Map.of();
        while (System.nanoTime() < deadline) {
            try (var tx = getDataBroker().newReadOnlyTransaction()) {
                sessions = tx.read(LogicalDatastoreType.OPERATIONAL, StatusWriter.switchPath("leaf1"))
                    .get(5, TimeUnit.SECONDS).map(Switch::nonnullSession).orElse(Map.of());
            }
            if (sessions.size() == SESSIONS && follower.appliedSeq() == agentSeq && sessions.values().stream()
                    .allMatch(s -> s.getState() == SessionState.ESTABLISHED)) {
                break;
            }
            Thread.sleep(100);
        }
        assertEquals("every session, once the datastore caught up", SESSIONS, sessions.size());
        assertTrue(sessions.values().stream().allMatch(s -> s.getState() == SessionState.ESTABLISHED));
        assertEquals(agentSeq, follower.appliedSeq());
        assertEquals(0, follower.failedCommits());
        assertTrue("the reader waited at least while the outcomes were held: " + follower.heldBack(),
            follower.heldBack().toMillis() >= 500);
        await(() -> follower.batchesInFlight() == 0 && follower.pending() == 0, "writes left over");
    }

    /** Hands over every held outcome and stops holding. */
    private void release() {
        final List<Runnable> outcomes;
        synchronized (held) {
            holding = false;
            outcomes = new ArrayList<>(held);
            held.clear();
        }
        outcomes.forEach(Runnable::run);
    }

    private long lastSeq() {
        try {
            final var response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + agent.address().getPort() + "/v1/status")).header("Authorization", "Bearer " + TOKEN).build(),
                HttpResponse.BodyHandlers.ofString());
            return JSON.readTree(response.body()).path("last_seq").asLong();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** The agent's last seq once it stops moving (the replay decoded and every hold over). */
    private long awaitStableSeq() throws InterruptedException {
        long seq = lastSeq();
        while (true) {
            Thread.sleep(500);
            final long now = lastSeq();
            if (now == seq) {
                return seq;
            }
            seq = now;
        }
    }

    private com.fasterxml.jackson.databind.JsonNode agentPost(final String path) throws Exception {
        final var response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
            + agent.address().getPort() + path)).header("Authorization", "Bearer " + TOKEN)
            .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode());
        return JSON.readTree(response.body());
    }

    private static void await(final BooleanSupplier condition, final String failure) throws InterruptedException {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(failure);
            }
            Thread.sleep(20);
        }
    }

    /** The broker, except that the outcome of each commit writing sessions waits for the test. */
    private DOMDataBroker slowSessionCommits(final DOMDataBroker real) {
        return WriteInterceptor.of(real, (tx, commit) -> {
            final FluentFuture<? extends CommitInfo> done = commit.get();
            final SettableFuture<CommitInfo> outcome = SettableFuture.create();
            final Runnable handOver = () -> outcome.setFuture(done);
            synchronized (held) {
                if (holding) {
                    held.add(handOver);
                    return FluentFuture.from(outcome);
                }
            }
            handOver.run();
            return FluentFuture.from(outcome);
        });
    }
}
