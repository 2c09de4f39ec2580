/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.it;

import static org.awaitility.Awaitility.await;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;
import static org.ops4j.pax.exam.CoreOptions.maven;
import static org.ops4j.pax.exam.CoreOptions.mavenBundle;
import static org.ops4j.pax.exam.CoreOptions.systemProperty;
import static org.ops4j.pax.exam.CoreOptions.systemTimeout;
import static org.ops4j.pax.exam.karaf.options.KarafDistributionOption.editConfigurationFilePut;
import static org.ops4j.pax.exam.karaf.options.KarafDistributionOption.karafDistributionConfiguration;
import static org.ops4j.pax.exam.karaf.options.KarafDistributionOption.logLevel;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.awaitility.core.ConditionFactory;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.Timeout;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.Configuration;
import org.ops4j.pax.exam.Option;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.karaf.options.LogLevelOption.LogLevel;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;

/**
 * The controller as an operator's instrument, in the real distribution: the metrics at /metrics
 * behind AAA, scraped by a real Prometheus server (Debian's package) and queried back through its
 * HTTP API; the problems in RESTCONF. Runs in a network namespace of its own in CI (ports 8181 and
 * 9090).
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class InsightKarafIT {
    /** A test that hangs fails after this instead of holding the build (JUnit 4: Pax Exam's runner). */
    @Rule
    public final Timeout timeout = Timeout.builder().withTimeout(10, TimeUnit.MINUTES).withLookingForStuckThread(true)
        .build();

    private static final String BASE = "http://127.0.0.1:8181";
    private static final String AUTH = "Basic "
        + Base64.getEncoder().encodeToString("admin:admin".getBytes(StandardCharsets.UTF_8));
    private static final String PROMETHEUS = System.getProperty("rst.it.prometheus", "/usr/bin/prometheus");

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Configuration
    public Option[] config() throws Exception {
        // the controller's token for the agent the notification test starts
        final var token = Path.of(System.getProperty("rst.it.unpack", "target/exam")).toAbsolutePath().getParent()
            .resolve("insight-agent-token");
        Files.writeString(token, "insight-it-" + System.nanoTime() + "\n");
        // the controller refuses a token file others can read
        Files.setPosixFilePermissions(token, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        return new Option[] {
            karafDistributionConfiguration()
                .frameworkUrl(maven().groupId("io.rst").artifactId("rst-karaf").type("tar.gz").versionAsInProject())
                .unpackDirectory(Path.of(System.getProperty("rst.it.unpack", "target/exam")).toFile())
                .useDeployFolder(false),
            logLevel(LogLevel.INFO),
            systemTimeout(180_000),
            editConfigurationFilePut("etc/io.rst.rft.cfg", "agent-token-file", token.toString()),
            systemProperty("rst.it.agentToken").value(token.toString()),
            systemProperty("rst.it.agentJar").value(System.getProperty("rst.it.agentJar", "")),
            editConfigurationFilePut("etc/org.ops4j.pax.url.mvn.cfg", "org.ops4j.pax.url.mvn.repositories",
                "file:${karaf.home}/${karaf.default.repository}@id=system.repository, "
                    + "file:${karaf.data}/kar@id=kar.repository@multi, "
                    + "file:" + System.getProperty("maven.repo.local", System.getProperty("user.home")
                        + "/.m2/repository") + "@id=local.m2@snapshots"),
            // the tests wait with Awaitility, in the container
            mavenBundle("org.awaitility", "awaitility").versionAsInProject(),
            mavenBundle("org.hamcrest", "hamcrest").versionAsInProject(),
        };
    }

    @Test
    public void prometheusScrapesTheMetricsAndAnswersAFigureBack() throws Exception {
        awaitRestconf();
        // an enabled switch whose agent is not there: UNREACHABLE, an agent-unreachable problem
        final var put = send("PUT", "/rests/data/rdma-flow-table:rft/switch=it-ins1", """
            {"rdma-flow-table:switch":[{"node-id":"it-ins1","agent-address":"127.0.0.1","agent-port":9,
             "enabled":true}]}""", true);
        assertTrue("PUT it-ins1: " + put.statusCode() + " " + put.body(),
            put.statusCode() == 201 || put.statusCode() == 204);

        // the metrics need the RESTCONF credentials; /metrics itself redirects to /metrics/ (the web
        // context's root), which Prometheus follows with its credentials
        final var bare = send("GET", "/metrics", null, false);
        assertEquals(302, bare.statusCode());
        assertTrue(bare.headers().firstValue("Location").orElse(""),
            bare.headers().firstValue("Location").orElse("").endsWith("/metrics/"));
        assertEquals(401, send("GET", "/metrics/", null, false).statusCode());
        final var metrics = awaitAnswer("/metrics/", r -> r.statusCode() == 200
            && r.body().contains("rst_agent_up{switch=\"it-ins1\"} 0\n")
            && r.body().matches("(?s).*rst_agents\\{state=\"UNREACHABLE\"\\} [1-9].*")
            && r.body().matches("(?s).*rst_problems\\{kind=\"agent-unreachable\"\\} [1-9].*"));
        assertTrue(metrics.headers().firstValue("Content-Type").orElse(""),
            metrics.headers().firstValue("Content-Type").orElse("").startsWith("text/plain; version=0.0.4"));
        assertTrue(metrics.body(), metrics.body().contains("rst_insight_active 1\n"));
        assertTrue(metrics.body(), metrics.body().matches("(?s).*rst_agents\\{state=\"UNREACHABLE\"\\} [1-9].*"));
        assertTrue(metrics.body(),
            metrics.body().matches("(?s).*rst_problems\\{kind=\"agent-unreachable\"\\} [1-9].*"));

        // the same in RESTCONF, as rst-insight:problems
        final var problems = awaitAnswer("/rests/data/rst-insight:problems", r -> r.statusCode() == 200
            && r.body().contains("agent-unreachable|it-ins1"));
        assertTrue(problems.body(), problems.body().contains("\"node-id\":\"it-ins1\""));

        // a real Prometheus scrapes it with basic auth, and its HTTP API answers the figure back
        assertTrue("no Prometheus at " + PROMETHEUS + " (Debian: apt-get install prometheus)",
            Files.isExecutable(Path.of(PROMETHEUS)));
        final var dir = Files.createTempDirectory("rst-prometheus");
        Files.writeString(dir.resolve("prometheus.yml"), """
            global:
              scrape_interval: 1s
            scrape_configs:
              - job_name: rst
                metrics_path: /metrics
                basic_auth:
                  username: admin
                  password: admin
                static_configs:
                  - targets: ['127.0.0.1:8181']
            """);
        final var prometheus = new ProcessBuilder(PROMETHEUS, "--config.file=" + dir.resolve("prometheus.yml"),
            "--storage.tsdb.path=" + dir.resolve("data"), "--web.listen-address=127.0.0.1:9090")
            .redirectErrorStream(true).redirectOutput(dir.resolve("prometheus.log").toFile()).start();
        try {
            final var query = "http://127.0.0.1:9090/api/v1/query?query="
                + URLEncoder.encode("count(rst_agent_up{switch=\"it-ins1\"} == 0)", StandardCharsets.UTF_8);
            final var request = HttpRequest.newBuilder(URI.create(query)).timeout(Duration.ofSeconds(10)).build();
            waiting("Prometheus answers", Duration.ofSeconds(90), Duration.ofMillis(500)).untilAsserted(() -> {
                String last;
                try {
                    last = http.send(request, HttpResponse.BodyHandlers.ofString()).body();
                } catch (IOException e) {
                    last = e.toString();
                }
                // {"status":"success","data":{"resultType":"vector","result":[{"metric":{...},"value":[T,"1"]}]}}
                assertTrue("Prometheus never answered count(rst_agent_up{switch=it-ins1} == 0) = 1; last: " + last
                    + "\nlog: " + Files.readString(dir.resolve("prometheus.log")),
                    last.contains("\"status\":\"success\"")
                        && last.matches("(?s).*\"value\":\\[[0-9.]+,\"1\"\\].*"));
            });
            // and the scrape itself was healthy: the target is up
            final var up = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:9090/api/v1/query?query=up"))
                .build(), HttpResponse.BodyHandlers.ofString()).body();
            assertTrue(up, up.matches("(?s).*\"job\":\"rst\".*\"value\":\\[[0-9.]+,\"1\"\\].*"));
        } finally {
            prometheus.destroy();
            if (!prometheus.waitFor(10, TimeUnit.SECONDS)) {
                prometheus.destroyForcibly();
            }
        }
        assertEquals(204, send("DELETE", "/rests/data/rdma-flow-table:rft/switch=it-ins1", null, true).statusCode());
    }

    @Test
    public void badRpcInputIsTheCallersErrorAnswered400WithAnErrorTagAndPath() throws Exception {
        awaitRestconf();
        final String[][] cases = {
            {"{\"input\":{\"src-ip\":\"garbage\",\"dst-ip\":\"10.0.0.2\"}}", "invalid-value",
                "/rdma-path-table:trace-session/input/src-ip"},
            {"{\"input\":{\"src-ip\":\"10.0.0.1\",\"dst-ip\":\"10.0.0.2\",\"qpn\":99999999}}", "invalid-value",
                "/rdma-path-table:trace-session/input/qpn"},
            {"{\"input\":{\"dst-ip\":\"10.0.0.2\"}}", "missing-element",
                "/rdma-path-table:trace-session/input/src-ip"},
        };
        for (var c : cases) {
            final var answer = send("POST", "/rests/operations/rdma-path-table:trace-session", c[0], true);
            assertEquals(c[0] + " -> " + answer.body(), 400, answer.statusCode());
            assertTrue(answer.body(), answer.body().contains("\"error-tag\":\"" + c[1] + "\""));
            assertTrue(answer.body(), answer.body().contains("\"error-path\":\"" + c[2] + "\""));
            assertTrue(answer.body(), answer.headers().firstValue("Content-Type").orElse("").contains("json"));
        }
        // good input still reaches the RPC
        final var good = send("POST", "/rests/operations/rdma-path-table:trace-session",
            "{\"input\":{\"src-ip\":\"10.0.0.1\",\"dst-ip\":\"10.0.0.2\",\"qpn\":7}}", true);
        assertTrue(good.statusCode() + " " + good.body(), good.statusCode() == 200 || good.statusCode() == 204);
        // sessions-through without its node: missing-element too
        final var through = send("POST", "/rests/operations/rdma-path-table:sessions-through", "{\"input\":{}}", true);
        assertEquals(through.body(), 400, through.statusCode());
        assertTrue(through.body(), through.body().contains("missing-element"));
    }

    @Test
    public void aRestconfSubscriberReceivesTheNotifications() throws Exception {
        awaitRestconf();
        final var ns = "(urn:io:rst:rst-insight?revision=2026-12-01)";
        final var create = send("POST", "/rests/operations/sal-remote:create-notification-stream",
            "{\"input\":{\"notifications\":[\"" + ns + "session-failed\",\"" + ns + "path-changed\",\""
                + ns + "agent-unreachable\",\"" + ns + "agent-reachable\"]}}", true);
        assertEquals(create.body(), 200, create.statusCode());
        final var name = java.util.regex.Pattern.compile("\"notification-stream-identifier\"\\s*:\\s*\"([^\"]+)\"")
            .matcher(create.body());
        assertTrue(create.body(), name.find());

        // subscribe as an outside client: server-sent events, JSON
        final var events = new java.util.concurrent.CopyOnWriteArrayList<String>();
        final var stream = http.send(HttpRequest.newBuilder(URI.create(BASE + "/rests/streams/json/" + name.group(1)))
            .header("Authorization", AUTH).header("Accept", "text/event-stream").build(),
            HttpResponse.BodyHandlers.ofLines());
        assertEquals(200, stream.statusCode());
        final var reader = Thread.ofVirtual().start(() -> stream.body().forEach(events::add));
        try {
            // an enabled switch whose agent is not there yet: agent-unreachable
            final var agentDir = Files.createTempDirectory("rst-insight-agent");
            final var put = send("PUT", "/rests/data/rdma-flow-table:rft/switch=it-ins2", """
                {"rdma-flow-table:switch":[{"node-id":"it-ins2","agent-address":"127.0.0.1","agent-port":4791,
                 "agent-transport":"plain-http","enabled":true}]}""", true);
            assertTrue(put.statusCode() + " " + put.body(), put.statusCode() == 201 || put.statusCode() == 204);
            awaitEvent(events, "agent-unreachable", "it-ins2");

            // the agent starts, replaying every CM scenario (REJs among them): agent-reachable, session-failed
            final var java = javaCommand();
            final var jar = System.getProperty("rst.it.agentJar");
            assertTrue("no agent jar at " + jar, jar != null && Files.isRegularFile(Path.of(jar)));
            final var capture = agentDir.resolve("all.pcap");
            final var gen = new ProcessBuilder(command(java, "-jar", jar, "gen", "--all-types", "--sessions", "40",
                "--out", capture.toString())).redirectErrorStream(true)
                .redirectOutput(agentDir.resolve("gen.log").toFile()).start();
            final int genStatus = gen.waitFor();
            assertEquals("gen: " + Files.readString(agentDir.resolve("gen.log")), 0, genStatus);
            final var agent = new ProcessBuilder(command(java, "-Xmx128m", "-jar", jar, "agent", "--replay",
                capture.toString(), "--listen", "127.0.0.1:4791", "--token-file",
                System.getProperty("rst.it.agentToken"), "--state-dir", agentDir.resolve("state").toString(),
                "--plain-http")).redirectErrorStream(true)
                .redirectOutput(agentDir.resolve("agent.log").toFile()).start();
            try {
                awaitEvent(events, "agent-reachable", "it-ins2");
                final var failed = awaitEvent(events, "session-failed", "\"failure\":\"rejected\"");
                assertTrue(failed, failed.contains("reject-reason"));
                // and the problem is in RESTCONF
                awaitAnswer("/rests/data/rst-insight:problems", r -> r.statusCode() == 200
                    && r.body().contains("\"kind\":\"rejected\"") && r.body().contains("it-ins2"));
            } finally {
                agent.destroy();
                if (!agent.waitFor(10, TimeUnit.SECONDS)) {
                    agent.destroyForcibly();
                }
            }
        } finally {
            reader.interrupt();
            send("DELETE", "/rests/data/rdma-flow-table:rft/switch=it-ins2", null, true);
        }
    }

    /**
     * Three real agents replay captures of LLDP frames (written here, in a temp directory): it-l1
     * hears it-s1 on swp1 and a host on swp5, it-s1 hears it-l1 on swp1 and a bridge without
     * agent on swp3, and it-l2's capture says its swp1 faces it-s1's swp3, which it-s1's agent
     * contradicts. The controller's topology rst-lldp, read over RESTCONF, has the it-l1 - it-s1
     * link both ways, the host with its address, no link for the contested port, the disagreement
     * listed, and insight names it a problem.
     */
    @Test
    public void theAgentsLldpNeighboursDrawTheLldpTopology() throws Exception {
        awaitRestconf();
        final var dir = Files.createTempDirectory("rst-lldp-it");
        final long now = System.currentTimeMillis() * 1000L - 1_000_000L;
        // switches name themselves (system name = node-id) and their ports, as lldpd with portidsubtype ifname
        lldpCapture(dir.resolve("l1-swp1.pcap"), now, lldp(0x020000000a01L, "it-s1", "swp1", 0x14, 0x04, null));
        lldpCapture(dir.resolve("l1-swp5.pcap"), now, lldp(0x020000000b05L, "it-h1", "eth0", 0x80, 0x80,
            new byte[] {10, 9, 0, 5}));
        lldpCapture(dir.resolve("s1-swp1.pcap"), now, lldp(0x020000000101L, "it-l1", "swp1", 0x14, 0x04, null));
        lldpCapture(dir.resolve("s1-swp3.pcap"), now, lldp(0x020000000c09L, "it-x9", "eth9", 0x04, 0x04, null));
        lldpCapture(dir.resolve("l2-swp1.pcap"), now, lldp(0x020000000a03L, "it-s1", "swp3", 0x14, 0x04, null));
        final var agents = new java.util.ArrayList<Process>();
        final String[][] fabric = {{"it-l1", "4811", "swp1=l1-swp1.pcap", "swp5=l1-swp5.pcap"},
            {"it-s1", "4812", "swp1=s1-swp1.pcap", "swp3=s1-swp3.pcap"}, {"it-l2", "4813", "swp1=l2-swp1.pcap"}};
        try {
            final var launcher = javaCommand();
            final var jar = System.getProperty("rst.it.agentJar");
            assertTrue("no agent jar at " + jar, jar != null && Files.isRegularFile(Path.of(jar)));
            for (var sw : fabric) {
                final var args = new java.util.ArrayList<>(java.util.List.of("-Xmx96m", "-jar", jar, "agent",
                    "--listen", "127.0.0.1:" + sw[1], "--token-file", System.getProperty("rst.it.agentToken"),
                    "--state-dir", dir.resolve(sw[0] + "-state").toString(), "--plain-http", "--agent-id", sw[0]));
                for (int i = 2; i < sw.length; i++) {
                    final int eq = sw[i].indexOf('=');
                    args.addAll(java.util.List.of("--replay", sw[i].substring(0, eq) + "="
                        + dir.resolve(sw[i].substring(eq + 1))));
                }
                agents.add(new ProcessBuilder(command(launcher, args.toArray(String[]::new))).redirectErrorStream(true)
                    .redirectOutput(dir.resolve(sw[0] + ".log").toFile()).start());
                final var put = send("PUT", "/rests/data/rdma-flow-table:rft/switch=" + sw[0],
                    "{\"rdma-flow-table:switch\":[{\"node-id\":\"" + sw[0] + "\",\"agent-address\":\"127.0.0.1\","
                        + "\"agent-port\":" + sw[1] + ",\"agent-transport\":\"plain-http\",\"enabled\":true}]}", true);
                assertTrue(put.statusCode() + " " + put.body(), put.statusCode() == 201 || put.statusCode() == 204);
            }
            // each agent's neighbours in its status
            awaitAnswer("/rests/data/rdma-flow-table:rft/switch=it-l1/agent-status?content=nonconfig",
                r -> r.statusCode() == 200 && r.body().contains("\"lldp-neighbour\"") && r.body().contains("it-h1"));
            final String topology = "/rests/data/network-topology:network-topology/topology=rst-lldp";
            // the link both ways
            final var there = awaitAnswer(topology + "/link=" + enc("it-l1:swp1") + "?content=nonconfig",
                r -> r.statusCode() == 200);
            assertTrue(there.body(), there.body().contains("\"dest-node\":\"it-s1\"")
                && there.body().contains("\"dest-tp\":\"swp1\"") && there.body().contains("\"source-node\":\"it-l1\""));
            final var back = awaitAnswer(topology + "/link=" + enc("it-s1:swp1") + "?content=nonconfig",
                r -> r.statusCode() == 200);
            assertTrue(back.body(), back.body().contains("\"dest-node\":\"it-l1\"")
                && back.body().contains("\"dest-tp\":\"swp1\""));
            // the host with its address, and its link
            final var host = awaitAnswer(topology + "/node=it-h1?content=nonconfig", r -> r.statusCode() == 200);
            assertTrue(host.body(), host.body().contains("\"rst-topology:node-kind\":\"host\"")
                && host.body().contains("10.9.0.5"));
            final var toHost = awaitAnswer(topology + "/link=" + enc("it-l1:swp5") + "?content=nonconfig",
                r -> r.statusCode() == 200);
            assertTrue(toHost.body(), toHost.body().contains("\"dest-node\":\"it-h1\""));
            // the contested port: no link, the disagreement listed, and a problem
            final var whole = awaitAnswer(topology + "?content=nonconfig", r -> r.statusCode() == 200
                && r.body().contains("it-l2:swp1->it-s1:swp3"));
            assertTrue(whole.body(), whole.body().contains("\"kind\":\"mismatch\""));
            assertEquals(409, send("GET", topology + "/link=" + enc("it-l2:swp1") + "?content=nonconfig", null,
                true).statusCode());
            final var problems = awaitAnswer("/rests/data/rst-insight:problems", r -> r.statusCode() == 200
                && r.body().contains("\"kind\":\"lldp-disagreement\""));
            assertTrue(problems.body(), problems.body().contains("lldp-disagreement|it-l2|swp1|it-s1|swp3"));
            final var metrics = awaitAnswer("/metrics/", r -> r.statusCode() == 200
                && r.body().contains("rst_lldp_disagreements "));
            assertTrue(metrics.body(), !metrics.body().contains("rst_lldp_disagreements 0\n"));
        } finally {
            for (var agent : agents) {
                agent.destroy();
                if (!agent.waitFor(10, TimeUnit.SECONDS)) {
                    agent.destroyForcibly();
                }
            }
            for (var sw : fabric) {
                send("DELETE", "/rests/data/rdma-flow-table:rft/switch=" + sw[0], null, true);
            }
        }
    }

    private static String enc(final String key) {
        return URLEncoder.encode(key, StandardCharsets.UTF_8);
    }

    /**
     * An LLDP frame (IEEE 802.1AB): Chassis ID (a MAC), Port ID (an interface name), TTL 3600,
     * System Name, System Capabilities, an IPv4 Management Address if given, End.
     */
    private static byte[] lldp(final long chassisMac, final String systemName, final String port, final int system,
            final int enabled, final byte[] management) {
        final var out = new java.io.ByteArrayOutputStream();
        final byte[] mac = new byte[6];
        for (int i = 0; i < 6; i++) {
            mac[i] = (byte) (chassisMac >>> 8 * (5 - i));
        }
        out.writeBytes(new byte[] {1, (byte) 0x80, (byte) 0xc2, 0, 0, 0x0e});
        out.writeBytes(mac);
        out.writeBytes(new byte[] {(byte) 0x88, (byte) 0xcc});
        final byte[] chassis = new byte[7];
        chassis[0] = 4;
        System.arraycopy(mac, 0, chassis, 1, 6);
        tlv(out, 1, chassis);
        final byte[] name = port.getBytes(StandardCharsets.US_ASCII);
        final byte[] portId = new byte[name.length + 1];
        portId[0] = 5;
        System.arraycopy(name, 0, portId, 1, name.length);
        tlv(out, 2, portId);
        tlv(out, 3, new byte[] {0x0e, 0x10});
        tlv(out, 5, systemName.getBytes(StandardCharsets.US_ASCII));
        tlv(out, 7, new byte[] {(byte) (system >>> 8), (byte) system, (byte) (enabled >>> 8), (byte) enabled});
        if (management != null) {
            tlv(out, 8, new byte[] {5, 1, management[0], management[1], management[2], management[3], 2, 0, 0, 0, 1,
                0});
        }
        out.writeBytes(new byte[] {0, 0});
        final byte[] frame = out.toByteArray();
        return frame.length >= 60 ? frame : java.util.Arrays.copyOf(frame, 60);
    }

    private static void tlv(final java.io.ByteArrayOutputStream out, final int type, final byte[] value) {
        out.write(type << 1 | value.length >>> 8 & 1);
        out.write(value.length & 0xff);
        out.writeBytes(value);
    }

    /** A pcap file (microsecond times, Ethernet) of one frame at {@code micros}. */
    private static void lldpCapture(final Path file, final long micros, final byte[] frame) throws IOException {
        final var b = java.nio.ByteBuffer.allocate(24 + 16 + frame.length).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        b.putInt(0xa1b2c3d4).putShort((short) 2).putShort((short) 4).putInt(0).putInt(0).putInt(65_535).putInt(1);
        b.putInt((int) (micros / 1_000_000L)).putInt((int) (micros % 1_000_000L)).putInt(frame.length)
            .putInt(frame.length).put(frame);
        Files.write(file, b.array());
    }

    /**
     * How this JVM was started, up to its java binary: on Debian 12 the set-up runs Debian 13's JDK
     * under Debian 13's own loader ({@code ld-linux... --library-path ... .../bin/java}), so the
     * binary alone would not start.
     */
    private static java.util.List<String> javaCommand() throws java.io.IOException {
        final var raw = Files.readAllBytes(Path.of("/proc/self/cmdline"));
        final var args = new String(raw, StandardCharsets.UTF_8).split("\0");
        final var out = new java.util.ArrayList<String>();
        for (var arg : args) {
            out.add(arg);
            if (arg.endsWith("/bin/java") || arg.equals("java")) {
                return out;
            }
        }
        return java.util.List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    private static java.util.List<String> command(final java.util.List<String> launcher, final String... args) {
        final var out = new java.util.ArrayList<>(launcher);
        out.addAll(java.util.List.of(args));
        return out;
    }

    /** A wait for {@code what}: the first look at once, then one every {@code every}, for at most {@code atMost}. */
    private static ConditionFactory waiting(final String what, final Duration atMost, final Duration every) {
        return await(what).atMost(atMost).pollDelay(Duration.ZERO).pollInterval(every);
    }

    /** The first event (an SSE data line) naming the notification and containing the text. */
    private static String awaitEvent(final java.util.List<String> events, final String notification,
            final String text) {
        final var found = new AtomicReference<String>();
        waiting("a " + notification + " event with " + text, Duration.ofSeconds(90), Duration.ofMillis(200))
            .untilAsserted(() -> {
                found.set(events.stream().filter(line -> line.startsWith("data:")
                    && line.contains("rst-insight:" + notification) && line.contains(text)).findFirst().orElse(null));
                assertNotNull("no " + notification + " event with " + text + " in " + events, found.get());
            });
        return found.get();
    }

    private void awaitRestconf() {
        waiting("RESTCONF answers", Duration.ofSeconds(180), Duration.ofMillis(500)).untilAsserted(() -> {
            final HttpResponse<String> answer;
            try {
                answer = send("GET", "/rests/data/ietf-yang-library:yang-library?fields=module-set(name)", null, true);
            } catch (IOException e) {
                throw new AssertionError("RESTCONF is not listening: " + e, e);
            }
            assertEquals("RESTCONF never answered: " + answer.body(), 200, answer.statusCode());
        });
    }

    /** The answer to GET {@code path} once it meets {@code condition} (60 s at most). */
    private HttpResponse<String> awaitAnswer(final String path, final Predicate<HttpResponse<String>> condition) {
        final var last = new AtomicReference<HttpResponse<String>>();
        waiting(path + " matches", Duration.ofSeconds(60), Duration.ofMillis(250)).untilAsserted(() -> {
            last.set(send("GET", path, null, true));
            assertTrue(path + " never matched; last: " + last.get().statusCode() + " " + last.get().body(),
                condition.test(last.get()));
        });
        return last.get();
    }

    HttpResponse<String> send(final String method, final String path, final String body, final boolean auth)
            throws Exception {
        final var builder = HttpRequest.newBuilder(URI.create(BASE + path)).timeout(Duration.ofSeconds(30))
            .header("Accept", "application/json");
        if (auth) {
            builder.header("Authorization", AUTH);
        }
        if (body != null) {
            builder.header("Content-Type", "application/json");
        }
        builder.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body));
        return http.send(builder.build(), HttpResponse.BodyHandlers.ofString());
    }
}
