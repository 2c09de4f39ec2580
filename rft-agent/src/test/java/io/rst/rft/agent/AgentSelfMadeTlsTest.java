/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.agent;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rst.rft.wire.TlsFiles;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent without {@code --tls-cert} and {@code --plain-http}: it makes its own EC P-256 key
 * (mode 0600) and self-signed certificate in its state directory at the first start, serves TLS
 * with them, reports their fingerprint in {@code /v1/status}, uses the same ones at the next start,
 * and refuses to start on a key or certificate it cannot read, naming the file; {@code --plain-http}
 * serves plain HTTP and makes nothing.
 */
class AgentSelfMadeTlsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TOKEN = "self-made-token";

    @TempDir
    Path dir;
    private final List<Agent> agents = new ArrayList<>();

    @AfterEach
    void stop() {
        agents.forEach(Agent::close);
    }

    private AgentOptions options(final Path state, final String... extra) throws IOException {
        final Path token = dir.resolve("token");
        Files.writeString(token, TOKEN + "\n");
        Files.setPosixFilePermissions(token, PosixFilePermissions.fromString("rw-------"));
        final Path pcap = dir.resolve("empty.pcap");
        TestFrames.writePcap(pcap, List.of(), 1_700_000_000_000_000L);
        final List<String> args = new ArrayList<>(List.of("--listen", "127.0.0.1:0", "--token-file",
            token.toString(), "--state-dir", state.toString(), "--replay", pcap.toString(), "--agent-id", "leaf1"));
        args.addAll(List.of(extra));
        return AgentOptions.parse(args);
    }

    private Agent start(final Path state, final String... extra) throws IOException {
        final AgentOptions o = options(state, extra);
        final Agent a = new Agent(o, EventPerFrameProcessor::new);
        agents.add(a);
        a.start();
        return a;
    }

    /** A client that trusts the one certificate of this fingerprint, whatever its names. */
    private static HttpClient pinningClient(final String fingerprint) throws Exception {
        final String pinned = TlsFiles.normalizeFingerprint(fingerprint);
        final X509ExtendedTrustManager tm = new X509ExtendedTrustManager() {
            private void check(final X509Certificate[] chain) throws CertificateException {
                if (!TlsFiles.fingerprint(chain[0]).equals(pinned)) {
                    throw new CertificateException("not the pinned certificate");
                }
            }

            @Override
            public void checkServerTrusted(final X509Certificate[] chain, final String type, final Socket socket)
                    throws CertificateException {
                check(chain);
            }

            @Override
            public void checkServerTrusted(final X509Certificate[] chain, final String type, final SSLEngine engine)
                    throws CertificateException {
                check(chain);
            }

            @Override
            public void checkServerTrusted(final X509Certificate[] chain, final String type)
                    throws CertificateException {
                check(chain);
            }

            @Override
            public void checkClientTrusted(final X509Certificate[] chain, final String type, final Socket socket)
                    throws CertificateException {
                throw new CertificateException("not a server");
            }

            @Override
            public void checkClientTrusted(final X509Certificate[] chain, final String type, final SSLEngine engine)
                    throws CertificateException {
                throw new CertificateException("not a server");
            }

            @Override
            public void checkClientTrusted(final X509Certificate[] chain, final String type)
                    throws CertificateException {
                throw new CertificateException("not a server");
            }

            @Override
            public X509Certificate[] getAcceptedIssuers() {
                return new X509Certificate[0];
            }
        };
        final SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(null, new TrustManager[] {tm}, null);
        return HttpClient.newBuilder().sslContext(ctx).connectTimeout(Duration.ofSeconds(5)).build();
    }

    private static HttpResponse<String> get(final HttpClient client, final String scheme, final Agent agent,
            final String path) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create(scheme + "://127.0.0.1:" + agent.address().getPort()
            + path)).header("Authorization", "Bearer " + TOKEN).timeout(Duration.ofSeconds(10)).build(),
            HttpResponse.BodyHandlers.ofString());
    }

    private static String openssl(final String... args) throws Exception {
        final List<String> cmd = new ArrayList<>(List.of("openssl"));
        cmd.addAll(List.of(args));
        final Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).strip();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "openssl " + args[0] + " ends");
        assertEquals(0, p.exitValue(), "openssl " + String.join(" ", args) + ": " + out);
        return out;
    }

    @Test
    void firstStartMakesKeyAndCertificateAndServesTlsWithThem() throws Exception {
        final Path state = dir.resolve("state");
        final Agent agent = start(state);
        final Path key = state.resolve(SelfMadeTls.KEY_FILE);
        final Path cert = state.resolve(SelfMadeTls.CERT_FILE);
        assertTrue(Files.isRegularFile(key) && Files.isRegularFile(cert), "key and certificate in the state dir");
        assertEquals(Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE),
            Files.getPosixFilePermissions(key), "the key's mode is 0600");
        try (var files = Files.list(state)) {
            assertFalse(files.anyMatch(f -> f.getFileName().toString().endsWith(".tmp")), "no temporary file left");
        }

        final X509Certificate x509 = TlsFiles.certificates(cert).get(0);
        assertEquals("EC", x509.getPublicKey().getAlgorithm());
        assertEquals("SHA256withECDSA", x509.getSigAlgName());
        x509.verify(x509.getPublicKey());
        assertEquals(-1, x509.getBasicConstraints(), "not a CA");
        assertTrue(x509.getNotAfter().toInstant().isAfter(Instant.now().plus(Duration.ofDays(3640))),
            "valid for ten years: " + x509.getNotAfter());
        final List<Object> ips = new ArrayList<>();
        for (List<?> san : x509.getSubjectAlternativeNames()) {
            if ((Integer) san.get(0) == 7) {
                ips.add(san.get(1));
            }
        }
        assertEquals(List.of("127.0.0.1"), ips, "the listen address among the names");

        final String fingerprint = agent.tlsFingerprint();
        assertEquals(TlsFiles.fingerprint(x509).toUpperCase(Locale.ROOT), fingerprint);
        assertTrue(fingerprint.matches("([0-9A-F]{2}:){31}[0-9A-F]{2}"), fingerprint);

        // a client that pins the printed fingerprint gets in; the status says what it serves
        final HttpResponse<String> status = get(pinningClient(fingerprint), "https", agent, "/v1/status");
        assertEquals(200, status.statusCode(), status.body());
        final JsonNode s = JSON.readTree(status.body());
        assertEquals(fingerprint, s.path("tls_fingerprint").asText());
        assertEquals("self-made", s.path("tls_certificate").asText());
        assertEquals("tls", s.path("transport").asText());

        // a client that pins another certificate, and a plain HTTP client, do not
        final String other = fingerprint.startsWith("00") ? "11" + fingerprint.substring(2)
            : "00" + fingerprint.substring(2);
        assertThrows(IOException.class, () -> get(pinningClient(other), "https", agent, "/v1/status"));
        final HttpClient plain = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        final var refused = assertThrows(Exception.class, () -> {
            final var r = get(plain, "http", agent, "/v1/status");
            // the agent may answer plain HTTP to its TLS port only with a failure, never the status
            assertNotEquals(200, r.statusCode(), r.body());
            throw new IOException("answered " + r.statusCode());
        });
        assertTrue(refused instanceof IOException, String.valueOf(refused));
    }

    @Test
    void opensslReadsTheCertificateWithTheSameFingerprintAndTrustsItAsItself() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/openssl")), "openssl is needed");
        final Path state = dir.resolve("state");
        final Agent agent = start(state);
        final Path cert = state.resolve(SelfMadeTls.CERT_FILE);
        assertEquals("sha256 Fingerprint=" + agent.tlsFingerprint(),
            openssl("x509", "-noout", "-fingerprint", "-sha256", "-in", cert.toString()).replace("SHA256", "sha256"));
        final String verified = openssl("verify", "-CAfile", cert.toString(), cert.toString());
        assertTrue(verified.endsWith(": OK"), verified);
        final String key = openssl("pkey", "-in", state.resolve(SelfMadeTls.KEY_FILE).toString(), "-noout",
            "-text");
        assertTrue(key.contains("prime256v1") || key.contains("P-256"), key);
    }

    @Test
    void laterStartsUseTheSameCertificate() throws Exception {
        final Path state = dir.resolve("state");
        final Agent first = start(state);
        final String fingerprint = first.tlsFingerprint();
        final byte[] key = Files.readAllBytes(state.resolve(SelfMadeTls.KEY_FILE));
        first.close();
        final Agent second = start(state);
        assertEquals(fingerprint, second.tlsFingerprint(), "the same certificate after a restart");
        assertArrayEquals(key, Files.readAllBytes(state.resolve(SelfMadeTls.KEY_FILE)), "the key untouched");
        assertEquals(200, get(pinningClient(fingerprint), "https", second, "/v1/status").statusCode());
    }

    @Test
    void aKeyWithoutItsCertificateGetsOneForTheSameKey() throws Exception {
        final Path state = dir.resolve("state");
        final Agent first = start(state);
        final var publicKey = TlsFiles.certificates(state.resolve(SelfMadeTls.CERT_FILE)).get(0).getPublicKey();
        first.close();
        Files.delete(state.resolve(SelfMadeTls.CERT_FILE));
        final Agent second = start(state);
        final var again = TlsFiles.certificates(state.resolve(SelfMadeTls.CERT_FILE)).get(0);
        assertArrayEquals(publicKey.getEncoded(), again.getPublicKey().getEncoded(), "the same key certified");
        assertEquals(200, get(pinningClient(second.tlsFingerprint()), "https", second, "/v1/status").statusCode());
    }

    @Test
    void aCorruptKeyOrCertificateIsAnErrorNamingTheFileAndNeverReplaced() throws Exception {
        final Path state = dir.resolve("state");
        start(state).close();
        final Path key = state.resolve(SelfMadeTls.KEY_FILE);
        final Path cert = state.resolve(SelfMadeTls.CERT_FILE);
        final byte[] goodCert = Files.readAllBytes(cert);

        Files.writeString(key, "-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5\n-----END PRIVATE KEY-----\n");
        final Agent withBadKey = new Agent(options(state), EventPerFrameProcessor::new);
        agents.add(withBadKey);
        final IOException badKey = assertThrows(IOException.class, withBadKey::start);
        assertTrue(badKey.getMessage().contains(key.toString()) && badKey.getMessage().contains("remove"),
            badKey.getMessage());
        assertTrue(Files.readString(key).contains("bm90IGEga2V5"), "the bad key is left as it was");
        assertNull(withBadKey.tlsFingerprint());

        // a key others may read is refused too, by its mode
        start(dir.resolve("state2")).close();
        final Path key2 = dir.resolve("state2").resolve(SelfMadeTls.KEY_FILE);
        Files.setPosixFilePermissions(key2, PosixFilePermissions.fromString("rw-r--r--"));
        final Agent withOpenKey = new Agent(options(dir.resolve("state2")), EventPerFrameProcessor::new);
        agents.add(withOpenKey);
        final IOException openKey = assertThrows(IOException.class, withOpenKey::start);
        assertTrue(openKey.getMessage().contains(key2.toString()) && openKey.getMessage().contains("chmod 600"),
            openKey.getMessage());

        final Path state3 = dir.resolve("state3");
        start(state3).close();
        final Path cert3 = state3.resolve(SelfMadeTls.CERT_FILE);
        Files.writeString(cert3, "garbage\n");
        final Agent withBadCert = new Agent(options(state3), EventPerFrameProcessor::new);
        agents.add(withBadCert);
        final IOException badCert = assertThrows(IOException.class, withBadCert::start);
        assertTrue(badCert.getMessage().contains(cert3.toString()) && badCert.getMessage().contains("remove"),
            badCert.getMessage());
        assertEquals("garbage\n", Files.readString(cert3), "the bad certificate is left as it was");

        // a certificate of another key: they do not go together
        Files.write(cert3, goodCert);
        final Agent mismatched = new Agent(options(state3), EventPerFrameProcessor::new);
        agents.add(mismatched);
        final IOException notAPair = assertThrows(IOException.class, mismatched::start);
        assertTrue(notAPair.getMessage().contains("do not go together"), notAPair.getMessage());

        // a certificate without its key
        Files.delete(state3.resolve(SelfMadeTls.KEY_FILE));
        final Agent keyless = new Agent(options(state3), EventPerFrameProcessor::new);
        agents.add(keyless);
        final IOException noKey = assertThrows(IOException.class, keyless::start);
        assertTrue(noKey.getMessage().contains("remove " + cert3), noKey.getMessage());
        assertArrayEquals(goodCert, Files.readAllBytes(cert3));
    }

    @Test
    void plainHttpServesPlainAndMakesNoCertificate() throws Exception {
        final Path state = dir.resolve("state");
        final Agent agent = start(state, "--plain-http");
        assertNull(agent.tlsFingerprint());
        assertFalse(Files.exists(state.resolve(SelfMadeTls.KEY_FILE)), "no key made");
        assertFalse(Files.exists(state.resolve(SelfMadeTls.CERT_FILE)), "no certificate made");
        final HttpResponse<String> status = get(HttpClient.newHttpClient(), "http", agent, "/v1/status");
        assertEquals(200, status.statusCode(), status.body());
        final JsonNode s = JSON.readTree(status.body());
        assertEquals("plain-http", s.path("transport").asText());
        assertFalse(s.has("tls_fingerprint") || s.has("tls_certificate"), status.body());
    }

    @Test
    void namesAreTheHostAndANonWildcardListenAddress() throws Exception {
        assertEquals(List.of("sw1"), SelfMadeTls.names("sw1", new java.net.InetSocketAddress(4791)));
        assertEquals(List.of("sw1", InetAddress.getByName("10.0.0.11")),
            SelfMadeTls.names("sw1", new java.net.InetSocketAddress("10.0.0.11", 4791)));
        final byte[] der = SelfMadeTls.certificate(SelfMadeTls.newKeyPair(),
            List.of("sw1.example", InetAddress.getByName("2001:db8::1")), Instant.parse("2045-01-01T00:00:00Z"));
        final X509Certificate c = SelfMadeTls.parse(der);
        assertEquals("CN=sw1.example,O=RST agent", c.getSubjectX500Principal().getName());
        // the end of its validity past 2049: a GeneralizedTime
        assertEquals(Instant.parse("2045-01-01T00:00:00Z").plus(SelfMadeTls.VALIDITY), c.getNotAfter().toInstant());
        final List<String> sans = new ArrayList<>();
        for (List<?> san : c.getSubjectAlternativeNames()) {
            sans.add(san.get(0) + "=" + san.get(1));
        }
        assertEquals(List.of("2=sw1.example", "7=2001:db8:0:0:0:0:0:1"), sans);
    }
}
