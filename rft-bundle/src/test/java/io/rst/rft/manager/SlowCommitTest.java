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
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
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

    @BeforeEach
    public void setUp() throws Exception {
        // the broker: the base class sets it up with JUnit 4's @Before, which Jupiter does not run
        setup();
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
            pcap.toString(), "--agent-id", "leaf1", "--plain-http", "--event-hold-ms", "0"));
        agent = new Agent(options, events -> AgentCommand.cmProcessor(options, events));
        agent.start();
        scheduler = Executors.newSingleThreadScheduledExecutor();
        final var stores = TestStores.of(this);
        writer = new StatusWriter(new Stores(stores.binding(), slowSessionCommits(stores.dom()), stores.codec()));
    }

    @AfterEach
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
        assertTrue(agentPost("/v1/start").path("capturing").asBoolean(), "the agent captures");
        final long agentSeq = awaitReplayed();

        // the commits' outcomes are held: the follower stops where its bound says, and stays there
        // while its reader waits (the bounds checked at every poll of that wait)
        await(() -> follower.pending() >= LIMIT, "the follower never filled its pending writes");
        Awaitility.await("the follower stays within its bounds").during(Duration.ofMillis(500))
            .atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20)).until(this::withinBounds);
        final long applied = follower.appliedSeq();
        assertTrue(applied < agentSeq,
            "the follower read " + applied + " of " + agentSeq + " events while nothing committed");

        // the datastore catches up: every session arrives, and the stream is read to its end
        release();
        final Map<SessionKey, Session> sessions = Awaitility.await("every session arrives")
            .atMost(Duration.ofSeconds(60)).until(() -> {
                try (var tx = getDataBroker().newReadOnlyTransaction()) {
                    return tx.read(LogicalDatastoreType.OPERATIONAL, StatusWriter.switchPath("leaf1"))
                        .get(5, TimeUnit.SECONDS).map(Switch::nonnullSession).orElse(Map.of());
                }
            }, found -> found.size() == SESSIONS && follower.appliedSeq() == agentSeq && found.values().stream()
                .allMatch(s -> s.getState() == SessionState.ESTABLISHED));
        assertEquals(SESSIONS, sessions.size(), "every session, once the datastore caught up");
        assertTrue(sessions.values().stream().allMatch(s -> s.getState() == SessionState.ESTABLISHED));
        assertEquals(agentSeq, follower.appliedSeq());
        assertEquals(0, follower.failedCommits());
        assertTrue(follower.heldBack().compareTo(Duration.ZERO) > 0,
            "the reader waited while the outcomes were held: " + follower.heldBack());
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

    private com.fasterxml.jackson.databind.JsonNode agentStatus() throws Exception {
        final var response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
            + agent.address().getPort() + "/v1/status")).header("Authorization", "Bearer " + TOKEN).build(),
            HttpResponse.BodyHandlers.ofString());
        return JSON.readTree(response.body());
    }

    /** Whether the follower's batches in flight and pending writes are within their bounds. */
    private boolean withinBounds() {
        final int inFlight = follower.batchesInFlight();
        assertTrue(inFlight <= AgentFollower.MAX_IN_FLIGHT, "batches in flight: " + inFlight);
        synchronized (held) {
            assertTrue(held.size() <= AgentFollower.MAX_IN_FLIGHT, "commits outstanding: " + held.size());
        }
        final int pending = follower.pending();
        assertTrue(pending <= LIMIT, "pending " + pending + " over the bound " + LIMIT);
        return true;
    }

    /**
     * The agent's last seq once its replay is decoded: every CM MAD of the file taken by the
     * session table (a counter read on the decode thread between batches), and so reported, for
     * each batch's changes are events by its end here (--event-hold-ms 0).
     */
    private long awaitReplayed() {
        return Awaitility.await("the agent decodes its replay").atMost(Duration.ofSeconds(30))
            .pollInterval(Duration.ofMillis(20)).until(this::agentStatus,
                st -> st.path("counters").path("cm_mads").asLong() >= 3L * SESSIONS).path("last_seq").asLong();
    }

    private com.fasterxml.jackson.databind.JsonNode agentPost(final String path) throws Exception {
        final var response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
            + agent.address().getPort() + path)).header("Authorization", "Bearer " + TOKEN)
            .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode());
        return JSON.readTree(response.body());
    }

    private static void await(final BooleanSupplier condition, final String failure) {
        Awaitility.await(failure).atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20))
            .until(condition::getAsBoolean);
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
