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
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
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
    private static final String MGMT_AGENT = "10.77.9.2";

    @TempDir
    Path dir;
    private String prefix;
    private final List<String> namespaces = new ArrayList<>();
    private Process agent;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
    private String token;

    @BeforeEach
    void fabric() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "needs root for network namespaces");
        assumeTrue(Files.isExecutable(Path.of("/usr/sbin/ip")) || Files.isExecutable(Path.of("/sbin/ip"))
            || Files.isExecutable(Path.of("/usr/bin/ip")), "needs iproute2");
        prefix = "rstt-" + HexFormat.of().formatHex(new SecureRandom().generateSeed(3));
        for (String n : List.of("h1", "sw", "h2")) {
            sh("ip", "netns", "add", prefix + "-" + n);
            namespaces.add(prefix + "-" + n);
        }
        final String sw = prefix + "-sw";
        link("h1", "h1e", "s1", "10.77.1.1/24", "10.77.1.254/24");
        link("h2", "h2e", "s2", "10.77.2.1/24", "10.77.2.254/24");
        ns("h1", "ip", "route", "add", "default", "via", "10.77.1.254");
        ns("h2", "ip", "route", "add", "default", "via", "10.77.2.254");
        ns("sw", "sysctl", "-qw", "net.ipv4.ip_forward=1");
        ns("sw", "ip", "link", "set", "lo", "up");
        // management link from the root namespace to the switch, for the API only
        final String root = prefix.substring(5) + "m";
        sh("ip", "link", "add", root, "type", "veth", "peer", "name", "mgmt");
        sh("ip", "link", "set", "mgmt", "netns", sw);
        sh("ip", "addr", "add", "10.77.9.1/30", "dev", root);
        sh("ip", "link", "set", root, "up");
        ns("sw", "ip", "addr", "add", MGMT_AGENT + "/30", "dev", "mgmt");
        ns("sw", "ip", "link", "set", "mgmt", "up");
        token = "tok-" + prefix;
        Files.writeString(dir.resolve("token"), token);
        Files.setPosixFilePermissions(dir.resolve("token"), PosixFilePermissions.fromString("rw-------"));
    }

    private void link(final String host, final String hostIf, final String swIf, final String hostIp,
            final String swIp) throws Exception {
        sh("ip", "link", "add", hostIf, "type", "veth", "peer", "name", swIf);
        sh("ip", "link", "set", hostIf, "netns", prefix + "-" + host);
        sh("ip", "link", "set", swIf, "netns", prefix + "-sw");
        ns(host, "ip", "addr", "add", hostIp, "dev", hostIf);
        ns(host, "ip", "link", "set", hostIf, "up");
        ns("sw", "ip", "addr", "add", swIp, "dev", swIf);
        ns("sw", "ip", "link", "set", swIf, "up");
    }

    @AfterEach
    void teardown() throws Exception {
        if (agent != null) {
            agent.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        for (String n : namespaces) {
            // deleting a namespace deletes its veth ends, and so their peers
            new ProcessBuilder("ip", "netns", "del", n).inheritIO().start().waitFor();
        }
    }

    private void ns(final String name, final String... cmd) throws Exception {
        final List<String> c = new ArrayList<>(List.of("ip", "netns", "exec", prefix + "-" + name));
        c.addAll(List.of(cmd));
        sh(c.toArray(String[]::new));
    }

    private static void sh(final String... cmd) throws Exception {
        final Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        final String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), String.join(" ", cmd));
        assertEquals(0, p.exitValue(), String.join(" ", cmd) + ": " + out);
    }

    private void send(final String from, final String dst, final int count, final String mode) throws Exception {
        ns(from, javaBin(), "-cp", System.getProperty("java.class.path"), UdpSender.class.getName(), dst,
            Integer.toString(count), mode);
    }

    private static String javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private void startAgent() throws Exception {
        final List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", prefix + "-sw", javaBin(), "-Xmx128m",
            "-cp", System.getProperty("java.class.path"), "io.rst.rft.cli.Main", "agent", "--interface", "s1",
            "--interface", "s2", "--listen", MGMT_AGENT + ":4791", "--token-file", dir.resolve("token").toString(),
            "--state-dir", dir.resolve("state").toString(), "--agent-id", "sw"));
        agent = new ProcessBuilder(cmd).redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("agent.log").toFile())).start();
        await("the agent comes up").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).until(() -> {
            assertTrue(agent.isAlive(), "agent died: " + Files.readString(dir.resolve("agent.log")));
            try {
                return get("/v1/health", null).statusCode() == 200
                    && status().path("capture_running").asBoolean() == status().path("capturing").asBoolean();
            } catch (IOException e) {
                // not listening yet
                return false;
            }
        });
    }

    private HttpResponse<String> get(final String path, final String auth) throws Exception {
        final HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://" + MGMT_AGENT + ":4791" + path))
            .timeout(Duration.ofSeconds(10));
        if (auth != null) {
            b.header("Authorization", "Bearer " + auth);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(final String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://" + MGMT_AGENT + ":4791" + path))
            .header("Authorization", "Bearer " + token).POST(HttpRequest.BodyPublishers.noBody()).build(),
            HttpResponse.BodyHandlers.ofString());
    }

    private JsonNode status() throws Exception {
        final HttpResponse<String> r = get("/v1/status", token);
        assertEquals(200, r.statusCode(), r.body());
        return JSON.readTree(r.body());
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
        startAgent();
        JsonNode stat = status();
        assertEquals("sw", stat.path("agent_id").asText());
        assertTrue(stat.path("capturing").asBoolean());

        // refused without the right token
        assertEquals(401, get("/v1/status", null).statusCode());
        assertEquals(401, get("/v1/status", "wrong").statusCode());
        assertEquals(401, get("/v1/sessions", token + "0").statusCode());

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
        final String sessions = get("/v1/sessions", token).body();
        assertTrue(sessions.contains("\"s1\"") && sessions.contains("\"s2\""), sessions);
        assertFalse(sessions.contains("\"mgmt\""), sessions);

        // stop: nothing captured; start: captured again. The two sent after the start are counted,
        // and so s1 shows that the four sent while stopped were not
        final HttpResponse<String> stopped = post("/v1/stop");
        assertEquals(200, stopped.statusCode());
        assertFalse(JSON.readTree(stopped.body()).path("capturing").asBoolean());
        send("h1", "10.77.2.1", 4, "cm");
        assertEquals(200, post("/v1/start").statusCode());
        awaitStatus(x -> x.path("capture_running").asBoolean());
        send("h1", "10.77.2.1", 2, "cm");
        stat = awaitStatus(x -> packets(x, "s1") >= 8);
        assertEquals(8, packets(stat, "s1"), "the packets sent while stopped were not captured: " + stat);

        // a flood of junk to 4791 leaves the agent alive and counting
        send("h1", "10.77.2.1", 20000, "junk");
        stat = awaitStatus(x -> packets(x, "s1") + x.path("counters").path("kernel_drops").asLong() >= 8 + 19000);
        assertEquals(200, get("/v1/health", null).statusCode());
        send("h2", "10.77.1.1", 1, "cm");
        awaitStatus(x -> packets(x, "s2") == 5);
        assertEquals(0, status().path("counters").path("decode_failures").asLong());

        // off switch and event numbering survive a restart; SIGTERM stops the agent cleanly
        assertEquals(200, post("/v1/stop").statusCode());
        final String instance = status().path("instance").asText();
        final long seenSeq = status().path("last_seq").asLong();
        agent.destroy();
        assertTrue(agent.waitFor(15, TimeUnit.SECONDS), "agent did not stop on SIGTERM");
        final String log = Files.readString(dir.resolve("agent.log"));
        final java.util.regex.Matcher m = java.util.regex.Pattern.compile("agent stopped at event (\\d+)").matcher(log);
        assertTrue(m.find(), log);
        final long lastSeq = Long.parseLong(m.group(1));
        assertTrue(lastSeq >= seenSeq && seenSeq > 0, log);
        assertFalse(log.contains("Exception"), log);
        startAgent();
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
