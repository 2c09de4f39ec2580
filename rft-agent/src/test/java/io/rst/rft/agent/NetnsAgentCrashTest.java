/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.agent;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rst.rft.testutil.AgentProcess;
import io.rst.rft.testutil.Netns;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The real agent as its own process in a "switch" namespace (as in {@link NetnsAgentTest}), a host
 * sending a stream of new CM connections across it, a client following its events over the API,
 * and the agent killed with SIGKILL at random moments and restarted on the same state directory,
 * ten times: after each, every session the client had seen in an event the restarted agent says
 * it restored is in its table, nothing is duplicated, the events the client saw and the agent lost
 * are of the last flush interval only, and the numbering continues. Needs root and iproute2.
 * Namespaces are named rstt-RANDOM-{h1,sw,h2} and always removed.
 */
@Timeout(value = 20, unit = TimeUnit.MINUTES)
class NetnsAgentCrashTest {
    private static final Logger LOG = LoggerFactory.getLogger(NetnsAgentCrashTest.class);

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int FLUSH_MS = 200;
    /** Scheduling on a busy machine: how much later than the flush interval a flush may come. */
    private static final long SLACK_MS = 1000;
    private static final int KILLS = 10;

    @TempDir
    Path dir;
    private Netns net;
    private AgentProcess agent;
    private Process sender;

    @BeforeEach
    void fabric() throws Exception {
        Netns.assumeAvailable();
        net = Netns.twoHostsThroughASwitch();
        final String address = net.management("sw", "mgmt");
        agent = new AgentProcess(net, "sw", address, dir, "-Xmx256m", "--interface", "s1", "--interface", "s2",
            "--agent-id", "sw", "--flush-ms", Integer.toString(FLUSH_MS),
            // 4,000 events a second: keep about half a minute of them, so that a test slowed down by
            // a loaded machine still follows one instance (the default 16 MiB hold about 7 s)
            "--retain-events", "1000000", "--retain-mb", "64");
    }

    @AfterEach
    void teardown() throws Exception {
        if (sender != null) {
            sender.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        if (agent != null) {
            agent.close();
        }
        if (net != null) {
            net.close();
        }
    }

    /** Starts the agent and waits until it answers with capture running; returns the milliseconds that took. */
    private long startAgent() throws Exception {
        final long ms = agent.start(Duration.ofSeconds(60));
        assertTrue(agent.status().path("capture_running").asBoolean(), "capture running");
        return ms;
    }

    private HttpResponse<String> get(final String path) throws Exception {
        return agent.get(path);
    }

    private JsonNode status() throws Exception {
        return agent.status();
    }

    /** A session event the client saw: the session and the event's time. */
    private record Seen(String session, double time) {
    }

    /** Reads the events after {@code cursor}; each must follow the last. Returns the new cursor. */
    private long follow(final long cursor, final String instance, final Map<Long, Seen> seen) throws Exception {
        final HttpResponse<String> r = get("/v1/events?wait=0&after=" + cursor + "&instance=" + instance);
        assertEquals(200, r.statusCode(), r.body());
        long seq = cursor;
        for (String line : r.body().split("\n")) {
            if (line.isEmpty()) {
                continue;
            }
            final JsonNode e = JSON.readTree(line);
            final String type = e.path("type").asText();
            if ("heartbeat".equals(type)) {
                continue;
            }
            assertEquals("session", type, "no reset while following one instance: " + line);
            assertEquals(seq + 1, e.path("seq").asLong(), "events follow one another");
            seq = e.path("seq").asLong();
            seen.put(seq, new Seen(e.path("session").path("session_id").asText(), e.path("time").asDouble()));
        }
        return seq;
    }

    @Test
    void killedTenTimesWhileTrafficFlowsLosesAtMostTheLastFlush() throws Exception {
        startAgent();
        final String instance = status().path("instance").asText();
        // a new CM connection every half millisecond, for longer than the test runs
        sender = net.start("h1", ProcessBuilder.Redirect.DISCARD, Netns.java(UdpSender.class.getName(), "10.77.2.1",
            "1000000", "cm", "1", "2000"));
        final Random rnd = new Random();
        final TreeMap<Long, Seen> seen = new TreeMap<>();
        long cursor = 0;
        long worstLostMs = 0;
        final List<Long> restartMs = new ArrayList<>();
        for (int k = 0; k < KILLS; k++) {
            // killed at a random moment: once the client has followed a random number of events more
            // (at about 4,000 events a second, 0.3 to 1.8 s of traffic)
            final long target = cursor + 1200 + rnd.nextInt(6000);
            final long[] followed = {cursor};
            await("the client follows up to event " + target).atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(20))
                .until(() -> (followed[0] = follow(followed[0], instance, seen)) >= target);
            cursor = followed[0];
            assertTrue(sender.isAlive(), "the traffic still flows");
            final long killedAt = System.currentTimeMillis();
            agent.kill();
            restartMs.add(startAgent());

            final JsonNode st = status();
            assertEquals(instance, st.path("instance").asText(), "same instance: " + st);
            final JsonNode restored = st.path("restored");
            assertFalse(restored.path("clean").asBoolean(), st.toString());
            // a killed process leaves whole pages behind: a record cut short, never a damaged one
            for (JsonNode p : restored.path("wal_problems")) {
                assertTrue(p.asText().contains("torn"), restored.toString());
            }
            final long r = restored.path("last_seq").asLong();
            // what the client saw but the agent lost: only the last flush interval before the kill
            for (Map.Entry<Long, Seen> e : seen.tailMap(r, false).entrySet()) {
                final long ageMs = killedAt - Math.round(e.getValue().time() * 1000);
                worstLostMs = Math.max(worstLostMs, ageMs);
                assertTrue(ageMs <= FLUSH_MS + SLACK_MS, "event " + e.getKey() + " of " + ageMs
                    + " ms before the kill lost; restored up to " + r + ": " + restored);
            }
            // every session of the events restored is in the table, once
            final JsonNode snap = JSON.readTree(get("/v1/sessions").body());
            final Set<String> table = new HashSet<>();
            for (JsonNode s : snap.path("sessions")) {
                assertTrue(table.add(s.path("session_id").asText()), "duplicated: " + s);
            }
            for (Map.Entry<Long, Seen> e : seen.headMap(r, true).entrySet()) {
                assertTrue(table.contains(e.getValue().session()), "session of event " + e.getKey() + " lost: "
                    + e.getValue() + "; " + restored);
            }
            assertTrue(table.size() >= restored.path("restored_sessions").asLong(), restored.toString());
            // the numbering continues after what was restored: the lost numbers are given again
            seen.tailMap(r, false).clear();
            cursor = r;
            assertTrue(st.path("last_seq").asLong() >= r);
        }
        cursor = follow(cursor, instance, seen);
        assertTrue(seen.size() > 1000, "traffic was followed: " + seen.size());
        LOG.info("crash test: {} kills, {} events followed, restart to capture running {} ms, "
            + "worst lost event {} ms before the kill", KILLS, seen.size(), restartMs, worstLostMs);
    }
}
