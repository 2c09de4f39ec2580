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
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.rst.rft.agent.Agent;
import io.rst.rft.agent.AgentCommand;
import io.rst.rft.agent.AgentOptions;
import io.rst.rft.wire.TlsFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The controller's probe against a real agent in this JVM over real TLS connections: trusted by a
 * pinned fingerprint or by the CA; refused, with the reason in words, for a wrong fingerprint, an
 * expired certificate, a certificate for another name, plain HTTP where TLS is expected; mutual
 * TLS refusing a client without a certificate; and the plain-HTTP fallback of a switch whose
 * transport is not configured. Certificates come from {@code ./rst certs} (openssl).
 */
class AgentTlsTest {
    private static final String TOKEN = "tls-test-token";

    @TempDir
    static Path certs;
    @TempDir
    Path dir;
    private final List<Agent> agents = new ArrayList<>();
    private final ExecutorService executor = Executors.newFixedThreadPool(2);

    @BeforeAll
    static void makeCertificates() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/openssl")), "openssl is needed to make certificates");
        certs("ca", certs.toString());
        certs("switch", certs.toString(), "leaf1", "--ip", "127.0.0.1");
        certs("switch", certs.toString(), "other", "--ip", "10.9.9.9");
        certs("switch", certs.toString(), "old", "--ip", "127.0.0.1", "--days", "-1");
        certs("switch", certs.toString(), "controller", "--client");
    }

    private static String certs(final String... args) throws Exception {
        final List<String> cmd = new ArrayList<>(List.of("bash", Path.of("..", "scripts", "certs.sh").toString()));
        cmd.addAll(List.of(args));
        final Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).strip();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), "rst certs " + String.join(" ", args));
        return out;
    }

    @AfterEach
    void stop() throws InterruptedException {
        agents.forEach(Agent::close);
        executor.shutdownNow();
        executor.awaitTermination(5, TimeUnit.SECONDS);
    }

    private Agent agent(final String... tlsArgs) throws Exception {
        final Path token = dir.resolve("token");
        Files.writeString(token, TOKEN + "\n");
        Files.setPosixFilePermissions(token, PosixFilePermissions.fromString("rw-------"));
        final Path pcap = dir.resolve("empty.pcap");
        // a pcap with its header and no frame: the agent replays nothing and serves its API
        final java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(24).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        b.putInt(0xa1b2c3d4).putShort((short) 2).putShort((short) 4).putInt(0).putInt(0).putInt(65535).putInt(1);
        Files.write(pcap, b.array());
        final List<String> args = new ArrayList<>(List.of("--listen", "127.0.0.1:0", "--token-file",
            token.toString(), "--state-dir", dir.resolve("state-" + agents.size()).toString(), "--replay",
            pcap.toString(), "--agent-id", "leaf1"));
        args.addAll(List.of(tlsArgs));
        final AgentOptions o = AgentOptions.parse(args);
        final Agent a = new Agent(o, events -> AgentCommand.cmProcessor(o, events));
        agents.add(a);
        a.start();
        return a;
    }

    private Agent tlsAgent(final String name, final String... more) throws Exception {
        final List<String> args = new ArrayList<>(List.of("--tls-cert", certs.resolve(name + ".crt").toString(),
            "--tls-key", certs.resolve(name + ".key").toString()));
        args.addAll(List.of(more));
        return agent(args.toArray(new String[0]));
    }

    private AgentProbe.Result probe(final AgentLinks links, final Agent agent, final AgentLinks.Transport transport,
            final String fingerprint) throws Exception {
        links.configure(new SwitchConfig("leaf1", "127.0.0.1", agent.address().getPort(), true, transport,
            fingerprint == null ? null : TlsFiles.normalizeFingerprint(fingerprint)));
        return new HttpAgentProbe(links, n -> TOKEN, Duration.ofSeconds(5))
            .probe("leaf1", "127.0.0.1", agent.address().getPort()).toCompletableFuture().get(20, TimeUnit.SECONDS);
    }

    private AgentLinks links(final Path ca) {
        return new AgentLinks(ca, null, null, executor, Duration.ofSeconds(5));
    }

    private static String fingerprint(final String name) throws IOException {
        return TlsFiles.fingerprint(TlsFiles.certificates(certs.resolve(name + ".crt")).get(0));
    }

    private static void assertUntrusted(final AgentProbe.Result result, final String words) {
        final var u = assertInstanceOf(AgentProbe.Result.Untrusted.class, result, result.toString());
        assertTrue(u.detail().contains(words), u.detail());
    }

    @Test
    void pinnedFingerprintIsTrusted() throws Exception {
        final Agent a = tlsAgent("leaf1");
        final var links = links(null);
        final var r = probe(links, a, AgentLinks.Transport.TLS, fingerprint("leaf1"));
        assertTrue(assertInstanceOf(AgentProbe.Result.Answered.class, r, r.toString()).encrypted());
        assertEquals(AgentLinks.TrustKind.PINNED, links.trust("leaf1").kind());
    }

    @Test
    void certificateSignedByTheCaIsTrusted() throws Exception {
        final Agent a = tlsAgent("leaf1");
        final var r = probe(links(certs.resolve("ca.crt")), a, AgentLinks.Transport.TLS, null);
        assertTrue(assertInstanceOf(AgentProbe.Result.Answered.class, r, r.toString()).encrypted());
        // the unset transport takes TLS when the agent speaks it
        final var unset = probe(links(certs.resolve("ca.crt")), a, AgentLinks.Transport.UNSET, null);
        assertTrue(assertInstanceOf(AgentProbe.Result.Answered.class, unset, unset.toString()).encrypted());
    }

    @Test
    void withTrustOnFirstUseACaSignedCertificateIsStillTrustedByTheCaAndNothingIsPinned() throws Exception {
        final Agent a = tlsAgent("leaf1");
        final List<String> pins = new ArrayList<>();
        final var links = new AgentLinks(certs.resolve("ca.crt"), null, null, executor, Duration.ofSeconds(5), true,
            (node, fingerprint, pinned) -> pins.add(fingerprint));
        final var r = probe(links, a, AgentLinks.Transport.UNSET, null);
        assertTrue(assertInstanceOf(AgentProbe.Result.Answered.class, r, r.toString()).encrypted());
        final var trust = links.trust("leaf1");
        assertEquals(AgentLinks.TrustKind.CA, trust.kind());
        assertEquals(AgentLinks.display(fingerprint("leaf1")), trust.fingerprint());
        assertEquals(List.of(), pins, "a certificate the CA signed is not pinned");
        // nor is a certificate of the CA for another name: that is no first use, it is the wrong agent
        final Agent other = tlsAgent("other");
        final var links2 = new AgentLinks(certs.resolve("ca.crt"), null, null, executor, Duration.ofSeconds(5), true,
            (node, fingerprint, pinned) -> pins.add(fingerprint));
        assertUntrusted(probe(links2, other, AgentLinks.Transport.UNSET, null),
            "is for other, 10.9.9.9, not 127.0.0.1");
        assertEquals(List.of(), pins);
    }

    @Test
    void wrongFingerprintIsUntrusted() throws Exception {
        final Agent a = tlsAgent("leaf1");
        assertUntrusted(probe(links(certs.resolve("ca.crt")), a, AgentLinks.Transport.TLS, fingerprint("other")),
            "does not match the pinned agent-tls-fingerprint");
    }

    @Test
    void expiredCertificateIsUntrusted() throws Exception {
        final Agent a = tlsAgent("old");
        final var links = links(certs.resolve("ca.crt"));
        assertUntrusted(probe(links, a, AgentLinks.Transport.TLS, null), "expired");
        // the status shows the certificate the agent offered, and no trust
        assertEquals(AgentLinks.display(fingerprint("old")), links.trust("leaf1").fingerprint());
        assertEquals(null, links.trust("leaf1").kind());
    }

    @Test
    void certificateForAnotherNameIsUntrusted() throws Exception {
        final Agent a = tlsAgent("other");
        assertUntrusted(probe(links(certs.resolve("ca.crt")), a, AgentLinks.Transport.TLS, null),
            "is for DNS:other, 10.9.9.9, not 127.0.0.1".replace("DNS:", ""));
    }

    @Test
    void unknownCaIsUntrusted() throws Exception {
        final Agent a = tlsAgent("leaf1");
        assertUntrusted(probe(links(null), a, AgentLinks.Transport.TLS, null), "is not signed by a CA");
    }

    @Test
    void mutualTlsRefusesAClientWithoutCertificate() throws Exception {
        final Agent a = tlsAgent("leaf1", "--tls-client-ca", certs.resolve("ca.crt").toString());
        final var without = probe(links(certs.resolve("ca.crt")), a, AgentLinks.Transport.TLS, null);
        assertUntrusted(without, "requires a client certificate (mutual TLS): set agent-client-cert-file");
        final var with = new AgentLinks(certs.resolve("ca.crt"), certs.resolve("controller.crt"),
            certs.resolve("controller.key"), executor, Duration.ofSeconds(5));
        final var r = probe(with, a, AgentLinks.Transport.TLS, null);
        assertTrue(assertInstanceOf(AgentProbe.Result.Answered.class, r, r.toString()).encrypted());
    }

    @Test
    void plainHttpAgent() throws Exception {
        final Agent a = agent("--plain-http");
        // not configured: TLS first, then plain HTTP, and the answer says it was not encrypted
        final var unset = probe(links(certs.resolve("ca.crt")), a, AgentLinks.Transport.UNSET, null);
        assertFalse(assertInstanceOf(AgentProbe.Result.Answered.class, unset, unset.toString()).encrypted());
        final var plain = probe(links(null), a, AgentLinks.Transport.PLAIN_HTTP, null);
        assertFalse(assertInstanceOf(AgentProbe.Result.Answered.class, plain, plain.toString()).encrypted());
        assertUntrusted(probe(links(certs.resolve("ca.crt")), a, AgentLinks.Transport.TLS, null),
            "plain HTTP where TLS is expected");
    }

    @Test
    void agentRefusesKeyAndTokenFilesOthersMayRead() throws Exception {
        final Path key = dir.resolve("open.key");
        Files.copy(certs.resolve("leaf1.key"), key);
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-r--r--"));
        final var e = assertThrows(IOException.class, () -> agent("--tls-cert", certs.resolve("leaf1.crt").toString(),
            "--tls-key", key.toString()));
        assertTrue(e.getMessage().contains("accessible by group and others (mode 0644)"), e.getMessage());
        final Path token = dir.resolve("open-token");
        Files.writeString(token, TOKEN);
        Files.setPosixFilePermissions(token, PosixFilePermissions.fromString("rw-r-----"));
        final AgentOptions o = AgentOptions.parse(List.of("--listen", "127.0.0.1:0", "--token-file", token.toString(),
            "--state-dir", dir.resolve("s").toString(), "--plain-http"));
        final var t = assertThrows(IOException.class,
            () -> new Agent(o, events -> AgentCommand.cmProcessor(o, events)));
        assertTrue(t.getMessage().contains("token file " + token + " is accessible by its group"), t.getMessage());
    }
}
