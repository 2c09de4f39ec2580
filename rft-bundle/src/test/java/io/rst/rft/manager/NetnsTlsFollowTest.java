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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rst.rft.pcap.CmTrafficGenerator;
import io.rst.rft.testutil.Netns;
import io.rst.rft.wire.TlsFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.opendaylight.mdsal.binding.dom.adapter.test.AbstractConcurrentDataBrokerTest;
import org.opendaylight.mdsal.common.api.LogicalDatastoreType;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.Host;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.IpAddress;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.Ipv4Address;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.PortNumber;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.AgentState;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.AgentTransport;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft.Switch;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft.SwitchBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.Session;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.NodeId;
import org.opendaylight.yangtools.yang.common.Uint16;

/**
 * The controller's side (the RFT manager's worker: probe, follower, status writer, against the real
 * in-memory MD-SAL broker) following real agent processes in a "switch" network namespace over a
 * management veth from this (root) namespace, as on a switch management network: trusted by a
 * pinned fingerprint and by the CA, with every session in the flow table; a wrong fingerprint, an
 * expired certificate and a certificate for another name each an UNTRUSTED switch with its reason;
 * mutual TLS refusing a controller without a client certificate and following one with it. A
 * packet capture on the management veth during the follow holds no session data and no token in
 * clear, where the same capture of a plain-HTTP agent (the control) holds both. Needs root,
 * iproute2, openssl and tcpdump; skipped otherwise. The namespace's name and the management
 * link's addresses are this run's own ({@link Netns}), and the namespace is always removed.
 */
@Timeout(value = 15, unit = TimeUnit.MINUTES)
public class NetnsTlsFollowTest extends AbstractConcurrentDataBrokerTest {
    private static final int SESSIONS = 50;
    private static final int PIN = 4801;
    private static final int OLD = 4802;
    private static final int OTHER_NAME = 4803;
    private static final int MUTUAL = 4804;
    private static final int PLAIN = 4805;

    private Path dir;
    private Path certs;
    private Netns net;
    private String mgmtAgent;
    private String token;
    private final List<Process> processes = new ArrayList<>();
    private ScheduledExecutorService executor;
    private RftManager.Worker worker;

    @BeforeEach
    public void namespaceAndAgents() throws Exception {
        // the broker: the base class sets it up with JUnit 4's @Before, which Jupiter does not run
        setup();
        Netns.assumeAvailable("openssl", "tcpdump");
        dir = Files.createTempDirectory("rst-netns-tls");
        // the switch's namespace, and a management link to it on a /30 of this run's own
        net = Netns.create("sw");
        net.exec("sw", "ip", "link", "set", "lo", "up");
        mgmtAgent = net.management("sw", "mgmt");

        certs = dir.resolve("pki");
        certs("ca", certs.toString());
        certs("switch", certs.toString(), "leaf1", "--ip", mgmtAgent);
        certs("switch", certs.toString(), "other", "--ip", "10.9.9.9");
        certs("switch", certs.toString(), "old", "--ip", mgmtAgent, "--days", "-1");
        certs("switch", certs.toString(), "controller", "--client");

        token = "tok-" + HexFormat.of().formatHex(new SecureRandom().generateSeed(12));
        Files.writeString(dir.resolve("token"), token + "\n");
        Files.setPosixFilePermissions(dir.resolve("token"), PosixFilePermissions.fromString("rw-------"));
        new CmTrafficGenerator(CmTrafficGenerator.Options.bench(SESSIONS)).write(dir.resolve("traffic.pcap"));
        executor = Executors.newScheduledThreadPool(2);
    }

    @AfterEach
    public void teardown() throws Exception {
        if (worker != null) {
            worker.close();
        }
        if (executor != null) {
            executor.shutdownNow();
        }
        for (Process p : processes) {
            p.destroy();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
        if (net != null) {
            // deleting the namespace deletes its veth end, and so the root one
            net.close();
        }
        if (dir != null) {
            try (var files = Files.walk(dir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private String pem(final String name) {
        return certs.resolve(name).toString();
    }

    private void agent(final String name, final int port, final String... tls) throws IOException {
        final Path pcap = dir.resolve("traffic.pcap");
        final List<String> cmd = new ArrayList<>(List.of("-Xmx96m", "-XX:TieredStopAtLevel=1", "io.rst.rft.cli.Main",
            "agent", "--replay", pcap.toString(), "--retention", "1000000000", "--listen", mgmtAgent + ":" + port,
            "--token-file", dir.resolve("token").toString(), "--state-dir", dir.resolve("state-" + name).toString(),
            "--agent-id", name));
        cmd.addAll(List.of(tls));
        processes.add(net.start("sw", ProcessBuilder.Redirect.appendTo(dir.resolve(name + ".log").toFile()),
            Netns.java(cmd.toArray(String[]::new))));
    }

    /** tcpdump on the management veth, the switch's end, writing every packet of {@code filter} as it comes. */
    private Process capture(final Path file, final String filter) throws Exception {
        // --immediate-mode: each packet handed to tcpdump as it comes, not held in the kernel's
        // buffer (from where the last ones would be lost when the capture stops)
        final Path log = dir.resolve(file.getFileName() + ".log");
        final Process p = net.start("sw", ProcessBuilder.Redirect.to(log.toFile()), "tcpdump", "--immediate-mode",
            "-i", "mgmt", "-U", "-s", "0", "-w", file.toString(), filter);
        processes.add(p);
        await("tcpdump starts").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50)).until(() -> {
            assertTrue(p.isAlive(), "tcpdump did not start: " + Files.readString(log));
            return Files.readString(log).contains("listening on");
        });
        return p;
    }

    private static String read(final Path capture) throws IOException {
        return new String(Files.readAllBytes(capture), StandardCharsets.ISO_8859_1);
    }

    /** TLS application data records (type 23, TLS 1.2/1.3 record version) in a capture's bytes. */
    private static int appDataRecords(final String bytes) {
        int records = 0;
        for (int i = bytes.indexOf("\u0017\u0003\u0003"); i >= 0; i = bytes.indexOf("\u0017\u0003\u0003", i + 3)) {
            records++;
        }
        return records;
    }

    private static void stop(final Process tcpdump) throws InterruptedException {
        tcpdump.destroy();
        assertTrue(tcpdump.waitFor(10, TimeUnit.SECONDS));
    }

    private void startWorker(final boolean clientCertificate) {
        final var links = new AgentLinks(certs.resolve("ca.crt"), clientCertificate ? certs.resolve("controller.crt")
            : null, clientCertificate ? certs.resolve("controller.key") : null, executor, Duration.ofSeconds(3));
        worker = new RftManager.Worker(TestStores.of(this),
            new HttpAgentProbe(links, n -> token, Duration.ofSeconds(3)), Duration.ofMillis(300), executor,
            n -> token, Duration.ofSeconds(60));
    }

    @Test
    public void followedOverTlsAcrossTheManagementLinkWithNothingInClear() throws Exception {
        agent("leaf1", PIN, "--tls-cert", pem("leaf1.crt"), "--tls-key", pem("leaf1.key"));
        agent("old", OLD, "--tls-cert", pem("old.crt"), "--tls-key", pem("old.key"));
        agent("other", OTHER_NAME, "--tls-cert", pem("other.crt"), "--tls-key", pem("other.key"));
        agent("mutual", MUTUAL, "--tls-cert", pem("leaf1.crt"), "--tls-key", pem("leaf1.key"), "--tls-client-ca",
            pem("ca.crt"));
        agent("plain", PLAIN, "--plain-http");
        final Path tlsCapture = dir.resolve("tls.pcap");
        final Path plainCapture = dir.resolve("plain.pcap");
        final Process tlsDump = capture(tlsCapture, "tcp port " + PIN);
        final Process plainDump = capture(plainCapture, "tcp port " + PLAIN);
        startWorker(false);
        putSwitch("pinned", PIN, AgentTransport.Tls, fingerprint("leaf1"));
        putSwitch("by-ca", PIN, AgentTransport.Tls, null);
        putSwitch("wrong-pin", PIN, AgentTransport.Tls, fingerprint("other"));
        putSwitch("expired", OLD, null, null);
        putSwitch("other-name", OTHER_NAME, AgentTransport.Tls, null);
        putSwitch("mutual-without", MUTUAL, AgentTransport.Tls, null);
        putSwitch("plain", PLAIN, null, null);

        // pinned and CA-trusted: followed, encrypted, every session in the flow table
        for (String sw : List.of("pinned", "by-ca")) {
            final var s = awaitOper(sw, o -> o.isPresent() && o.orElseThrow().getAgentStatus() != null
                && o.orElseThrow().getAgentStatus().getState() == AgentState.CAPTURING
                && o.orElseThrow().nonnullSession().size() == SESSIONS).orElseThrow();
            assertTrue(s.getAgentStatus().getDetail().startsWith(AgentStatusTracker.CAPTURING_TLS),
                sw + ": " + s.getAgentStatus().getDetail());
        }
        assertUntrusted("wrong-pin", "does not match the pinned agent-tls-fingerprint");
        assertUntrusted("expired", "expired");
        assertUntrusted("other-name", "is for other, 10.9.9.9, not " + mgmtAgent);
        // mutual TLS: a controller without a client certificate is refused, and told what it lacks
        assertUntrusted("mutual-without", "requires a client certificate (mutual TLS)");
        // the control: the plain-HTTP agent, followed and said to be in clear
        final var plain = awaitOper("plain", o -> o.isPresent() && o.orElseThrow().getAgentStatus() != null
            && o.orElseThrow().nonnullSession().size() == SESSIONS).orElseThrow();

        final Map<?, Session> sessions = operSwitch("pinned").orElseThrow().getSession();
        final Session one = sessions.values().iterator().next();
        final List<String> secrets = List.of(token, "session_id", "requester_qpn", "\"requester_ip\":\""
            + one.getRequesterIp().stringValue() + "\"", one.getSessionId());
        // what the followers read reaches the captures (tcpdump writes each packet as it comes):
        // the plain control shows every secret, the TLS capture application data records
        await("the captures hold the follow").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
            .until(() -> secrets.stream().allMatch(read(plainCapture)::contains)
                && appDataRecords(read(tlsCapture)) >= 10);
        stop(tlsDump);
        stop(plainDump);
        final String tlsBytes = read(tlsCapture);
        final String plainBytes = read(plainCapture);
        // the capture did see the follow, not only handshakes: TLS application data records
        // carrying what the followers read (their size varies with how the snapshot and the events
        // split the sessions, so the bytes alone are no measure)
        final int appData = appDataRecords(tlsBytes);
        assertTrue(appData >= 10 && tlsBytes.length() > SESSIONS * 100, "the TLS capture holds " + tlsBytes.length()
            + " bytes (" + appData + " application data records), plain " + plainBytes.length());
        for (String secret : secrets) {
            assertTrue(plainBytes.contains(secret), "the plain-HTTP control shows " + secret + " in clear");
            assertFalse(tlsBytes.contains(secret), "the TLS capture shows " + secret + " in clear");
        }
    }

    @Test
    public void mutualTlsFollowsAControllerWithItsCertificate() throws Exception {
        agent("mutual", MUTUAL, "--tls-cert", pem("leaf1.crt"), "--tls-key", pem("leaf1.key"), "--tls-client-ca",
            pem("ca.crt"));
        startWorker(true);
        putSwitch("mutual", MUTUAL, AgentTransport.Tls, null);
        final var s = awaitOper("mutual", o -> o.isPresent() && o.orElseThrow().getAgentStatus() != null
            && o.orElseThrow().getAgentStatus().getState() == AgentState.CAPTURING
            && o.orElseThrow().nonnullSession().size() == SESSIONS).orElseThrow();
        assertTrue(s.getAgentStatus().getDetail().startsWith(
            AgentStatusTracker.CAPTURING_TLS), s.getAgentStatus().getDetail());
    }

    private void assertUntrusted(final String sw, final String words) throws Exception {
        final var s = awaitOper(sw, o -> o.isPresent() && o.orElseThrow().getAgentStatus() != null
            && o.orElseThrow().getAgentStatus().getState() == AgentState.UNTRUSTED).orElseThrow();
        assertTrue(s.getAgentStatus().getDetail().contains(words), sw + ": " + s.getAgentStatus().getDetail());
    }

    private String fingerprint(final String name) throws IOException {
        return TlsFiles.fingerprint(TlsFiles.certificates(certs.resolve(name + ".crt")).get(0));
    }

    private void putSwitch(final String nodeId, final int port, final AgentTransport transport,
            final String fingerprint) throws Exception {
        final var builder = new SwitchBuilder().setNodeId(new NodeId(nodeId)).setEnabled(true)
            .setAgentAddress(new Host(new IpAddress(new Ipv4Address(mgmtAgent))))
            .setAgentPort(new PortNumber(Uint16.valueOf(port))).setAgentTransport(transport)
            .setAgentTlsFingerprint(fingerprint);
        final var tx = getDataBroker().newWriteOnlyTransaction();
        tx.mergeParentStructurePut(LogicalDatastoreType.CONFIGURATION, StatusWriter.switchPath(nodeId),
            builder.build());
        tx.commit().get(5, TimeUnit.SECONDS);
    }

    private Optional<Switch> operSwitch(final String nodeId) throws Exception {
        try (var tx = getDataBroker().newReadOnlyTransaction()) {
            return tx.read(LogicalDatastoreType.OPERATIONAL, StatusWriter.switchPath(nodeId)).get(5, TimeUnit.SECONDS);
        }
    }

    /** Waits up to 60 s (agent JVMs start in the namespace meanwhile) for the switch's operational state. */
    private Optional<Switch> awaitOper(final String nodeId, final Predicate<Optional<Switch>> condition) {
        return await("switch " + nodeId + " reaches the expected state").atMost(Duration.ofSeconds(60))
            .until(() -> operSwitch(nodeId), condition);
    }

    private static void certs(final String... args) throws Exception {
        final List<String> cmd = new ArrayList<>(List.of("bash", Path.of("..", "scripts", "certs.sh").toString()));
        cmd.addAll(List.of(args));
        sh(cmd.toArray(String[]::new));
    }

    private static void sh(final String... cmd) throws Exception {
        final Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), String.join(" ", cmd));
        assertEquals(0, p.exitValue(), String.join(" ", cmd) + ": " + out);
    }
}
