/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.manager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rst.rft.agent.Agent;
import io.rst.rft.agent.AgentCommand;
import io.rst.rft.agent.AgentOptions;
import io.rst.rft.wire.TlsFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Trust on first use against real agents in this JVM that serve TLS with their self-made
 * certificates: the first contact accepts the certificate and hands its fingerprint to the pinner
 * once; a different certificate afterwards is UNTRUSTED, the detail naming both fingerprints; with
 * the option off the agent is UNTRUSTED and the detail says how to pin it; a fingerprint the
 * configuration pins on first use is trusted as such, and one an operator pins as pinned.
 */
class TrustOnFirstUseTest {
    private static final String TOKEN = "tofu-token";

    @TempDir
    Path dir;
    private final List<Agent> agents = new ArrayList<>();
    private final ExecutorService executor = Executors.newFixedThreadPool(2);
    /** What the pinner was asked: node, fingerprint, when. */
    private final List<List<String>> pins = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() throws InterruptedException {
        agents.forEach(Agent::close);
        executor.shutdownNow();
        executor.awaitTermination(5, TimeUnit.SECONDS);
    }

    /** An agent serving TLS with the certificate it makes in its own state directory. */
    private Agent selfMade(final String state) throws Exception {
        final Path token = dir.resolve("token");
        Files.writeString(token, TOKEN + "\n");
        Files.setPosixFilePermissions(token, PosixFilePermissions.fromString("rw-------"));
        final Path pcap = dir.resolve("empty.pcap");
        final java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(24).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        b.putInt(0xa1b2c3d4).putShort((short) 2).putShort((short) 4).putInt(0).putInt(0).putInt(65535).putInt(1);
        Files.write(pcap, b.array());
        final AgentOptions o = AgentOptions.parse(List.of("--listen", "127.0.0.1:0", "--token-file", token.toString(),
            "--state-dir", dir.resolve(state).toString(), "--replay", pcap.toString(), "--agent-id", "leaf1"));
        final Agent a = new Agent(o, events -> AgentCommand.cmProcessor(o, events));
        agents.add(a);
        a.start();
        return a;
    }

    private AgentLinks links(final boolean trustOnFirstUse) {
        return new AgentLinks(null, null, null, executor, Duration.ofSeconds(5), trustOnFirstUse,
            (node, fingerprint, pinned) -> pins.add(List.of(node, fingerprint, pinned)));
    }

    private static AgentProbe.Result probe(final AgentLinks links, final Agent agent) throws Exception {
        return new HttpAgentProbe(links, n -> TOKEN, Duration.ofSeconds(5))
            .probe("leaf1", "127.0.0.1", agent.address().getPort()).toCompletableFuture().get(20, TimeUnit.SECONDS);
    }

    @Test
    void firstContactPinsTheCertificateOnceAndADifferentOneAfterwardsIsUntrusted() throws Exception {
        final Agent first = selfMade("a");
        final AgentLinks links = links(true);
        links.configure(new SwitchConfig("leaf1", "127.0.0.1", first.address().getPort(), true));

        final var answered = probe(links, first);
        assertTrue(assertInstanceOf(AgentProbe.Result.Answered.class, answered, answered.toString()).encrypted());
        assertEquals(1, pins.size(), "pinned once: " + pins);
        assertEquals("leaf1", pins.get(0).get(0));
        assertEquals(first.tlsFingerprint().toLowerCase(Locale.ROOT), pins.get(0).get(1));
        assertTrue(pins.get(0).get(2).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{6}Z"), pins.toString());
        final var trust = links.trust("leaf1");
        assertEquals(AgentLinks.TrustKind.FIRST_USE, trust.kind());
        assertEquals(first.tlsFingerprint(), trust.fingerprint());
        assertEquals(pins.get(0).get(2), trust.pinnedOnFirstUse());

        // the same certificate again: trusted, not pinned again
        assertInstanceOf(AgentProbe.Result.Answered.class, probe(links, first));
        assertEquals(1, pins.size(), pins.toString());

        // another certificate at the switch's address (another agent, or a new key): untrusted
        final Agent second = selfMade("b");
        assertNotEquals(first.tlsFingerprint(), second.tlsFingerprint());
        final var refused = assertInstanceOf(AgentProbe.Result.Untrusted.class, probe(links, second));
        assertTrue(refused.detail().contains(second.tlsFingerprint())
            && refused.detail().contains(first.tlsFingerprint()), refused.detail());
        assertTrue(refused.detail().contains("does not match the pinned agent-tls-fingerprint"), refused.detail());
        assertEquals(1, pins.size(), "nothing pinned afresh: " + pins);
        assertEquals(second.tlsFingerprint(), links.trust("leaf1").fingerprint(), "the certificate it showed");
    }

    @Test
    void withTheOptionOffTheAgentIsUntrustedWithHowToPinIt() throws Exception {
        final Agent agent = selfMade("a");
        final AgentLinks links = links(false);
        final var refused = assertInstanceOf(AgentProbe.Result.Untrusted.class, probe(links, agent));
        assertTrue(refused.detail().contains("pin it with agent-tls-fingerprint " + agent.tlsFingerprint()),
            refused.detail());
        assertTrue(refused.detail().contains("agent-trust-on-first-use"), refused.detail());
        assertEquals(List.of(), pins);
        final var trust = links.trust("leaf1");
        assertNull(trust.kind());
        assertEquals(agent.tlsFingerprint(), trust.fingerprint());
    }

    @Test
    void aPinTheConfigurationHoldsIsTrustedOnFirstUseUntilAnOperatorPinsAnother() throws Exception {
        final Agent agent = selfMade("a");
        final String fingerprint = TlsFiles.normalizeFingerprint(agent.tlsFingerprint());
        final AgentLinks links = links(true);
        // the configuration as the pinner wrote it
        links.configure(new SwitchConfig("leaf1", "127.0.0.1", agent.address().getPort(), true,
            AgentLinks.Transport.UNSET, fingerprint, java.util.Map.of(),
            new SwitchConfig.FirstUse(fingerprint, "2026-12-01T10:00:00.000000Z")));
        assertInstanceOf(AgentProbe.Result.Answered.class, probe(links, agent));
        var trust = links.trust("leaf1");
        assertEquals(AgentLinks.TrustKind.FIRST_USE, trust.kind());
        assertEquals("2026-12-01T10:00:00.000000Z", trust.pinnedOnFirstUse());
        // the operator pins the same certificate themselves (agent-tls-first-use removed): pinned
        links.configure(new SwitchConfig("leaf1", "127.0.0.1", agent.address().getPort(), true,
            AgentLinks.Transport.UNSET, fingerprint));
        assertInstanceOf(AgentProbe.Result.Answered.class, probe(links, agent));
        trust = links.trust("leaf1");
        assertEquals(AgentLinks.TrustKind.PINNED, trust.kind());
        assertNull(trust.pinnedOnFirstUse());
        assertEquals(List.of(), pins, "nothing pinned where the configuration pins");
        // the switch over plain HTTP: nothing to trust
        links.configure(new SwitchConfig("leaf1", "127.0.0.1", agent.address().getPort(), true,
            AgentLinks.Transport.PLAIN_HTTP, null));
        assertEquals(AgentLinks.TrustKind.PLAIN_HTTP, links.trust("leaf1").kind());
        assertNotNull(links.trust("leaf1"));
    }
}
