/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.manager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.rst.rft.agent.Agent;
import io.rst.rft.agent.AgentCommand;
import io.rst.rft.agent.AgentOptions;
import io.rst.rft.pcap.CmTrafficGenerator;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
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
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft.Switch;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft.SwitchBuilder;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.NodeId;
import org.opendaylight.yangtools.yang.common.Uint16;

/**
 * The RFT on/off switch reaches a real agent (in this JVM, replaying generated traffic): RFT off
 * stops its capture ({@code POST /v1/stop}), RFT on starts it again, whoever stopped it; and each
 * switch's agent gets the token of its own file in {@code agent-token-dir}.
 */
public class CaptureToggleTest extends AbstractConcurrentDataBrokerTest {
    private static final String TOKEN = "leaf1-own-token";
    private static final ObjectMapper JSON = new ObjectMapper();

    private Path dir;
    private int port;
    private Agent agent;
    private RftManager.Worker worker;
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeEach
    public void setUp() throws Exception {
        // the broker: the base class sets it up with JUnit 4's @Before, which Jupiter does not run
        setup();
        dir = Files.createTempDirectory("rst-toggle");
        Files.writeString(dir.resolve("agent-token"), TOKEN + "\n");
        Files.setPosixFilePermissions(dir.resolve("agent-token"), PosixFilePermissions.fromString("rw-------"));
        // leaf1 has its own token; every other switch gets the shared one, which this agent refuses
        Files.createDirectory(dir.resolve("tokens"));
        Files.writeString(dir.resolve("tokens").resolve("leaf1"), TOKEN + "\n");
        Files.setPosixFilePermissions(dir.resolve("tokens").resolve("leaf1"),
            PosixFilePermissions.fromString("rw-------"));
        Files.writeString(dir.resolve("shared-token"), "shared-token\n");
        Files.setPosixFilePermissions(dir.resolve("shared-token"), PosixFilePermissions.fromString("rw-------"));
        final var tokens = AgentTokens.of(dir.resolve("shared-token").toString(), dir.resolve("tokens").toString());
        try (var socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        final var executor = Executors.newSingleThreadScheduledExecutor();
        worker = new RftManager.Worker(TestStores.of(this),
            new HttpAgentProbe(executor, tokens::tokenFor, Duration.ofSeconds(2)), Duration.ofMillis(200), executor,
            tokens::tokenFor, Duration.ofSeconds(60));
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

    private Agent startAgent() throws Exception {
        final Path pcap = dir.resolve("traffic.pcap");
        if (!Files.exists(pcap)) {
            new CmTrafficGenerator(CmTrafficGenerator.Options.bench(20)).write(pcap);
        }
        final var options = AgentOptions.parse(List.of("--listen", "127.0.0.1:" + port, "--token-file",
            dir.resolve("agent-token").toString(), "--state-dir", dir.resolve("state").toString(), "--replay",
            pcap.toString(), "--retention", "1000000000", "--agent-id", "leaf1",
            "--plain-http"));
        final var started = new Agent(options, events -> AgentCommand.cmProcessor(options, events));
        started.start();
        return started;
    }

    @Test
    public void rftOffStopsTheAgentsCaptureAndRftOnStartsItWhoeverStoppedIt() throws Exception {
        agent = startAgent();
        putSwitch("leaf1", true);
        awaitState("leaf1", AgentState.CAPTURING, null);
        assertTrue(agentCapturing());

        putSwitch("leaf1", false);
        final var off = awaitState("leaf1", AgentState.DISABLED, "RFT is off: capture stopped on the agent");
        assertFalse(agentCapturing(), "the agent's capture is off");
        assertEquals(Agent.VERSION, off.getAgentStatus().getAgentVersion(), "the agent's status came with the answer");

        putSwitch("leaf1", true);
        final var on = awaitState("leaf1", AgentState.CAPTURING, null);
        assertTrue(on.getAgentStatus().getDetail().contains("started by the controller"),
            on.getAgentStatus().getDetail());
        assertTrue(agentCapturing());

        // someone stops the capture at the agent: RFT is still on for the switch, so it runs again
        assertFalse(agentPost("/v1/stop"), "the agent stopped");
        await(this::agentCapturingQuietly, "the controller never started the agent's capture again");
        awaitState("leaf1", AgentState.CAPTURING, null);
    }

    @Test
    public void rftOffWhileTheAgentIsDownReachesItOnceItAnswers() throws Exception {
        putSwitch("leaf1", false);
        final var waiting = awaitState("leaf1", AgentState.DISABLED, null);
        await(() -> detailOf("leaf1").contains("could not be told"), "the status never said the agent was not told");
        assertTrue(waiting.getAgentStatus().getDetail().startsWith("RFT is off"));

        // a new agent starts with capture on; the controller's next try turns it off
        agent = startAgent();
        awaitState("leaf1", AgentState.DISABLED, "RFT is off: capture stopped on the agent");
        assertFalse(agentCapturing());
    }

    @Test
    public void eachSwitchPresentsTheTokenOfItsOwnFile() throws Exception {
        agent = startAgent();
        putSwitch("leaf1", true);
        putSwitch("leaf9", true);
        awaitState("leaf1", AgentState.CAPTURING, null);
        final var refused = awaitState("leaf9", AgentState.UNAUTHORIZED, null);
        assertTrue(refused.getAgentStatus().getDetail().contains("401"));
        // the follower uses the switch's token too: leaf1's sessions arrive
        Awaitility.await("leaf1's sessions arrive").atMost(Duration.ofSeconds(30))
            .until(() -> operSwitch("leaf1").map(sw -> sw.nonnullSession().size()).orElse(0) >= 20);
        // and the shared file serves a switch without its own once it holds the right token
        Files.writeString(dir.resolve("shared-token"), TOKEN);
        Files.setPosixFilePermissions(dir.resolve("shared-token"), PosixFilePermissions.fromString("rw-------"));
        awaitState("leaf9", AgentState.CAPTURING, null);
    }

    private boolean agentCapturing() throws Exception {
        final var response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/status"))
            .header("Authorization", "Bearer " + TOKEN).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode());
        return JSON.readTree(response.body()).path("capturing").asBoolean();
    }

    @SuppressWarnings("checkstyle:IllegalCatch") // a condition to wait on: whatever fails, fails the test
    private boolean agentCapturingQuietly() {
        try {
            return agentCapturing();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** POSTs to the agent as an operator at the switch would; returns whether it now captures. */
    private boolean agentPost(final String path) throws Exception {
        final var response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .header("Authorization", "Bearer " + TOKEN).POST(HttpRequest.BodyPublishers.noBody()).build(),
            HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode());
        return JSON.readTree(response.body()).path("capturing").asBoolean();
    }

    private void putSwitch(final String nodeId, final boolean enabled) throws Exception {
        final var sw = new SwitchBuilder().setNodeId(new NodeId(nodeId)).setEnabled(enabled)
            .setAgentAddress(new Host(new IpAddress(new Ipv4Address("127.0.0.1"))))
            .setAgentPort(new PortNumber(Uint16.valueOf(port))).build();
        final var tx = getDataBroker().newWriteOnlyTransaction();
        tx.mergeParentStructurePut(LogicalDatastoreType.CONFIGURATION, StatusWriter.switchPath(nodeId), sw);
        tx.commit().get(5, TimeUnit.SECONDS);
    }

    @SuppressWarnings("checkstyle:IllegalCatch") // a condition to wait on: whatever fails, fails the test
    private String detailOf(final String nodeId) {
        try {
            return operSwitch(nodeId).map(Switch::getAgentStatus).map(s -> s.getDetail()).orElse("");
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private Switch awaitState(final String nodeId, final AgentState state, final String detail) throws Exception {
        final Predicate<Optional<Switch>> matches = sw -> sw.isPresent() && sw.orElseThrow().getAgentStatus() != null
            && sw.orElseThrow().getAgentStatus().getState() == state
            && (detail == null || detail.equals(sw.orElseThrow().getAgentStatus().getDetail()));
        return Awaitility.await("switch " + nodeId + " " + state + (detail == null ? "" : " (" + detail + ")"))
            .atMost(Duration.ofSeconds(30)).until(() -> operSwitch(nodeId), matches).orElseThrow();
    }

    private static void await(final BooleanSupplier condition, final String message) {
        Awaitility.await(message).atMost(Duration.ofSeconds(30)).until(condition::getAsBoolean);
    }

    private Optional<Switch> operSwitch(final String nodeId) throws Exception {
        try (var tx = getDataBroker().newReadOnlyTransaction()) {
            return tx.read(LogicalDatastoreType.OPERATIONAL, StatusWriter.switchPath(nodeId)).get(5, TimeUnit.SECONDS);
        }
    }
}
