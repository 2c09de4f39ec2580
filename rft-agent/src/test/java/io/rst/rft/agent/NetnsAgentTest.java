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
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real agent as its own process in a "switch" network namespace between two host namespaces,
 * with real UDP traffic sent across it, checked through its API from the root namespace over a
 * management veth (the agent binds only there). Needs root and iproute2; skipped otherwise.
 * Namespaces are named rstt-RANDOM-{h1,sw,h2} and always removed.
 */
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class NetnsAgentTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;
    private Netns net;
    private AgentProcess agent;

    @BeforeEach
    void fabric() throws Exception {
        Netns.assumeAvailable();
        net = Netns.twoHostsThroughASwitch();
        // management link from the root namespace to the switch, for the API only
        final String address = net.management("sw", "mgmt");
        agent = new AgentProcess(net, "sw", address, dir, "-Xmx128m", "--interface", "s1", "--interface", "s2",
            "--agent-id", "sw");
    }

    @AfterEach
    void teardown() throws Exception {
        if (agent != null) {
            agent.close();
        }
        if (net != null) {
            net.close();
        }
    }

    private void send(final String from, final String dst, final int count, final String mode) throws Exception {
        net.exec(from, Netns.java(UdpSender.class.getName(), dst, Integer.toString(count), mode));
    }

    private JsonNode status() throws Exception {
        return agent.status();
    }

    private static long packets(final JsonNode status, final String ifName) {
        for (JsonNode i : status.path("interfaces")) {
            if (ifName.equals(i.path("name").asText())) {
                return i.path("packets").asLong();
            }
        }
        return -1;
    }

    private JsonNode awaitStatus(final Predicate<JsonNode> ok) {
        final AtomicReference<JsonNode> last = new AtomicReference<>();
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100)).untilAsserted(() -> {
            last.set(status());
            assertTrue(ok.test(last.get()), "status never matched: " + last.get());
        });
        return last.get();
    }

    @Test
    void capturesPerIngressPortStartsStopsAuthenticatesSurvivesJunkAndRestarts() throws Exception {
        agent.start(Duration.ofSeconds(30));
        JsonNode stat = status();
        assertEquals("sw", stat.path("agent_id").asText());
        assertTrue(stat.path("capturing").asBoolean());

        // refused without the right token
        assertEquals(401, agent.get("/v1/status", null).statusCode());
        assertEquals(401, agent.get("/v1/status", "wrong").statusCode());
        assertEquals(401, agent.get("/v1/sessions", agent.token() + "0").statusCode());

        // CM from h1 enters the switch on s1, from h2 on s2; data to other QPs is filtered out. The
        // data goes first, so that it would be counted before the CM behind it; a last CM from
        // each host marks the end: once an interface counted its marker, it has seen whatever
        // crossed it before (h2's packets leaving by s1, h1's leaving by s2), counted or not
        send("h1", "10.77.2.1", 7, "data");
        send("h1", "10.77.2.1", 5, "cm");
        send("h2", "10.77.1.1", 3, "cm");
        send("h1", "10.77.2.1", 1, "cm");
        send("h2", "10.77.1.1", 1, "cm");
        stat = awaitStatus(x -> packets(x, "s1") >= 6 && packets(x, "s2") >= 4);
        assertEquals(6, packets(stat, "s1"), "inbound on s1 only, CM only: " + stat);
        assertEquals(4, packets(stat, "s2"), "inbound on s2 only: " + stat);
        stat = awaitStatus(x -> x.path("counters").path("frames").asLong() >= 10);
        assertEquals(10, stat.path("counters").path("frames").asLong());
        assertEquals(10, stat.path("counters").path("cm_mads").asLong(), "the decoder took every CM MAD: " + stat);
        for (JsonNode i : stat.path("interfaces")) {
            assertEquals("pcap_next_ex", i.path("reader").asText(), "frames read into ring slots: " + stat);
        }
        // the sessions carry the port each message came in on
        final String sessions = agent.get("/v1/sessions").body();
        assertTrue(sessions.contains("\"s1\"") && sessions.contains("\"s2\""), sessions);
        assertFalse(sessions.contains("\"mgmt\""), sessions);

        // stop: nothing captured; start: captured again. The two sent after the start are counted,
        // and so s1 shows that the four sent while stopped were not
        final HttpResponse<String> stopped = agent.post("/v1/stop");
        assertEquals(200, stopped.statusCode());
        assertFalse(JSON.readTree(stopped.body()).path("capturing").asBoolean());
        send("h1", "10.77.2.1", 4, "cm");
        assertEquals(200, agent.post("/v1/start").statusCode());
        awaitStatus(x -> x.path("capture_running").asBoolean());
        send("h1", "10.77.2.1", 2, "cm");
        stat = awaitStatus(x -> packets(x, "s1") >= 8);
        assertEquals(8, packets(stat, "s1"), "the packets sent while stopped were not captured: " + stat);

        // a flood of junk to 4791 leaves the agent alive and counting
        send("h1", "10.77.2.1", 20000, "junk");
        stat = awaitStatus(x -> packets(x, "s1") + x.path("counters").path("kernel_drops").asLong() >= 8 + 19000);
        assertEquals(200, agent.get("/v1/health", null).statusCode());
        send("h2", "10.77.1.1", 1, "cm");
        awaitStatus(x -> packets(x, "s2") == 5);
        assertEquals(0, status().path("counters").path("decode_failures").asLong());

        // off switch and event numbering survive a restart; SIGTERM stops the agent cleanly
        assertEquals(200, agent.post("/v1/stop").statusCode());
        final String instance = status().path("instance").asText();
        final long seenSeq = status().path("last_seq").asLong();
        agent.process().destroy();
        assertTrue(agent.process().waitFor(15, TimeUnit.SECONDS), "agent did not stop on SIGTERM");
        assertEquals(0, agent.process().exitValue(), "exit status after SIGTERM (0: a clean stop)");
        final String log = Files.readString(agent.log());
        final java.util.regex.Matcher m = java.util.regex.Pattern.compile("agent stopped at event (\\d+)").matcher(log);
        assertTrue(m.find(), log);
        final long lastSeq = Long.parseLong(m.group(1));
        assertTrue(lastSeq >= seenSeq && seenSeq > 0, log);
        assertFalse(log.contains("Exception"), log);
        agent.start(Duration.ofSeconds(30));
        stat = status();
        assertFalse(stat.path("capturing").asBoolean());
        assertEquals(instance, stat.path("instance").asText());
        // numbering continues where it stopped (a restored REQ whose wait ended meanwhile may add an
        // event of its own on a slow machine, so the restarted agent may already be past it)
        assertTrue(stat.path("last_seq").asLong() >= lastSeq && stat.path("last_seq").asLong() <= lastSeq + 8,
            "numbering continues from " + lastSeq + ": " + stat);
        assertTrue(stat.path("first_retained_seq").asLong() <= lastSeq, "the events before the stop are kept: " + stat);
        assertTrue(stat.path("counters").path("restored_sessions").asLong() >= 8, "the table is back: " + stat);
        assertTrue(stat.path("counters").path("sessions_live").asLong() >= 8, "in the live table: " + stat);
    }
}
