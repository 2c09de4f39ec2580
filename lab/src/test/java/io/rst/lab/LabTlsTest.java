/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.rst.rft.wire.TlsFiles;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lab's TLS, on a small replayed lab (no root needed: agents on 127.0.0.x): {@code up} makes
 * a CA and a certificate per switch (keys 0600), starts every agent on TLS, talks to it over TLS
 * only, and registers each switch with transport {@code tls} and the fingerprint of the very
 * certificate its agent serves; {@code --plain-http} is the opt-out, registered as such; {@code
 * down} leaves nothing.
 */
class LabTlsTest {
    @TempDir
    Path tmp;
    private Lab lab;
    private final List<String> log = new ArrayList<>();

    @BeforeAll
    static void needsOpenssl() {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/openssl")), "the lab's certificates are made with openssl");
    }

    @AfterEach
    void down() {
        if (lab != null && lab.isUp()) {
            lab.down(log::add);
        }
    }

    private Fabric up(final boolean plainHttp) throws Exception {
        final Fabric fabric = new Fabric(1, 2, 1, Set.of());
        lab = new Lab(tmp.resolve("run"));
        lab.upReplay(fabric, LabMain.agentCommand(), 10, plainHttp, log::add);
        return fabric;
    }

    @Test
    void agentsServeTlsAndSwitchesPinTheirCertificates() throws Exception {
        final Fabric fabric = up(false);
        assertTrue(lab.tls());
        assertTrue(Files.isRegularFile(lab.caFile()));
        for (var sw : fabric.switches()) {
            final String id = sw.id();
            assertEquals(PosixFilePermissions.fromString("rw-------"),
                Files.getPosixFilePermissions(lab.certs().key(id)), "the agent refuses a key others may read");
            // over TLS, trusting the lab's CA and checking the agent's address against its certificate
            assertTrue(lab.agentStatus(id).path("capturing").isBoolean(), id);
            final var entry = lab.switchConfig(id).path("rdma-flow-table:switch").get(0);
            assertEquals("tls", entry.path("agent-transport").asText());
            assertEquals(lab.agentAddress(id), entry.path("agent-address").asText());
            assertEquals(served(lab.agentAddress(id)), entry.path("agent-tls-fingerprint").asText(),
                "the pinned fingerprint is the certificate " + id + "'s agent serves");
            // and nothing in clear: the agent does not speak plain HTTP
            final var plain = HttpRequest.newBuilder(URI.create("http://" + lab.agentAddress(id) + ":"
                + Fabric.AGENT_PORT + "/v1/health")).timeout(Duration.ofSeconds(3)).build();
            final HttpClient client = HttpClient.newHttpClient();
            assertThrows(IOException.class, () -> client.send(plain, HttpResponse.BodyHandlers.discarding()), id);
        }
        assertTrue(String.join("\n", log).contains("TLS, certificates of the lab's CA"), String.join("\n", log));
        final Path dir = lab.dir();
        lab.down(log::add);
        assertFalse(Files.exists(dir), "the lab's certificates and keys go with it");
    }

    @Test
    void plainHttpIsAskedForAndRegisteredAsSuch() throws Exception {
        final Fabric fabric = up(true);
        assertFalse(lab.tls());
        assertFalse(Files.exists(lab.caFile()), "no CA for a plain-HTTP lab");
        for (var sw : fabric.switches()) {
            assertTrue(lab.agentStatus(sw.id()).path("capturing").isBoolean(), sw.id());
            final var entry = lab.switchConfig(sw.id()).path("rdma-flow-table:switch").get(0);
            assertEquals("plain-http", entry.path("agent-transport").asText());
            assertTrue(entry.path("agent-tls-fingerprint").isMissingNode());
        }
    }

    /** The SHA-256 fingerprint of the certificate served at {@code host}, whoever signed it. */
    private static String served(final String host) throws Exception {
        final X509Certificate[][] seen = new X509Certificate[1][];
        final SSLContext ctx = SSLContext.getInstance("TLS");
        final X509TrustManager recorder = new X509TrustManager() {
            @Override
            public void checkClientTrusted(final X509Certificate[] chain, final String authType) {
                throw new UnsupportedOperationException();
            }

            @Override
            public void checkServerTrusted(final X509Certificate[] chain, final String authType) {
                // record only: this test compares it with the pin
                seen[0] = chain;
            }

            @Override
            public X509Certificate[] getAcceptedIssuers() {
                return new X509Certificate[0];
            }
        };
        ctx.init(null, new TrustManager[] {recorder}, null);
        try (var socket = (SSLSocket) ctx.getSocketFactory().createSocket(host, Fabric.AGENT_PORT)) {
            socket.startHandshake();
        }
        return TlsFiles.fingerprint(seen[0][0]);
    }
}
