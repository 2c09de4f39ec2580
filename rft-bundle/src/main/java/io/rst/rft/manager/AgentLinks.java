/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.manager;

import edu.umd.cs.findbugs.annotations.SuppressFBWarnings;
import io.rst.rft.wire.TlsFiles;
import java.io.IOException;
import java.net.Socket;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;
import org.eclipse.jdt.annotation.Nullable;

/**
 * How the controller reaches each switch's agent: TLS (verified against {@code agent-ca-file}, or
 * against the SHA-256 fingerprint pinned in the switch's configuration, or trusted on first use),
 * or plain HTTP when the switch's {@code agent-transport} says so. Trust on first use
 * ({@code agent-trust-on-first-use}): a switch with no pinned fingerprint whose agent shows a valid
 * certificate that does not chain to the CA (an agent's self-made one) has that certificate
 * accepted once, its fingerprint handed to the {@link Pinner} (which writes it into the switch's
 * configuration), and from then on only that certificate trusted. Only the member that follows a
 * switch speaks to its agent, so only it pins. A switch whose transport is not configured is tried
 * with TLS first and falls back to plain HTTP when its agent answers in clear (the status then
 * says "plain HTTP: not encrypted"). Each switch has its own HTTP client, so that its pinned
 * fingerprint and the words of its last certificate problem are its own.
 */
final class AgentLinks {
    /** The detail of a switch followed over plain HTTP. */
    static final String PLAIN_DETAIL = "plain HTTP: not encrypted";

    /** What the configuration asks for. */
    enum Transport { TLS, PLAIN_HTTP, UNSET }

    /** How the agent the controller last spoke to is trusted. */
    enum TrustKind { CA, PINNED, FIRST_USE, PLAIN_HTTP }

    /**
     * How a switch's agent is trusted, and which certificate it showed.
     *
     * @param kind how, or null before a handshake got that far
     * @param fingerprint the SHA-256 fingerprint of the certificate the agent last showed, as
     *        openssl prints it (upper-case hex pairs with colons), or null
     * @param pinnedOnFirstUse when the controller pinned it on first use (a yang:date-and-time),
     *        when {@code kind} is {@link TrustKind#FIRST_USE}
     */
    record Trust(@Nullable TrustKind kind, @Nullable String fingerprint, @Nullable String pinnedOnFirstUse) {
    }

    /** Writes a fingerprint trusted on first use into the switch's configuration; never blocks. */
    @FunctionalInterface
    interface Pinner {
        /**
         * Pins {@code fingerprint} for {@code nodeId}, trusted on first use at {@code pinned}.
         *
         * @param fingerprint in the form of {@link TlsFiles#fingerprint}
         * @param pinned a yang:date-and-time
         */
        void pin(String nodeId, String fingerprint, String pinned);
    }

    /**
     * One switch's way in.
     *
     * @param scheme {@code https} or {@code http}
     * @param client the HTTP client to use
     */
    record Link(String scheme, HttpClient client) {
        boolean encrypted() {
            return "https".equals(scheme);
        }
    }

    private final class Entry {
        final Transport transport;
        final @Nullable String fingerprint;
        final SwitchConfig.@Nullable FirstUse firstUse;
        final Checker checker;
        final HttpClient tlsClient;
        volatile boolean plainFallback;

        Entry(final String nodeId, final Transport transport, final @Nullable String fingerprint,
                final SwitchConfig.@Nullable FirstUse firstUse) {
            this.transport = transport;
            this.fingerprint = fingerprint;
            this.firstUse = firstUse;
            checker = new Checker(nodeId, fingerprint, fingerprint != null && firstUse != null
                && fingerprint.equals(firstUse.fingerprint()) ? firstUse.pinned() : null);
            tlsClient = client(checker);
        }
    }

    private final @Nullable Path caFile;
    private final @Nullable Path clientCert;
    private final @Nullable Path clientKey;
    private final Executor executor;
    private final Duration connectTimeout;
    private final HttpClient plainClient;
    private final boolean trustOnFirstUse;
    private final Pinner pinner;
    private final Map<String, Entry> entries = new ConcurrentHashMap<>();

    /** Links without trust on first use. */
    AgentLinks(final @Nullable Path caFile, final @Nullable Path clientCert, final @Nullable Path clientKey,
            final Executor executor, final Duration connectTimeout) {
        this(caFile, clientCert, clientKey, executor, connectTimeout, false, (node, fingerprint, pinned) -> { });
    }

    /**
     * Links.
     *
     * @param trustOnFirstUse whether a switch without a pinned fingerprint whose agent's certificate
     *        does not chain to the CA has that certificate trusted on first use
     * @param pinner where such a certificate's fingerprint is written
     */
    @SuppressWarnings("checkstyle:ParameterNumber")
    AgentLinks(final @Nullable Path caFile, final @Nullable Path clientCert, final @Nullable Path clientKey,
            final Executor executor, final Duration connectTimeout, final boolean trustOnFirstUse,
            final Pinner pinner) {
        this.trustOnFirstUse = trustOnFirstUse;
        this.pinner = pinner;
        this.caFile = caFile;
        this.clientCert = clientCert;
        this.clientKey = clientKey;
        this.executor = executor;
        this.connectTimeout = connectTimeout;
        plainClient = HttpClient.newBuilder().executor(executor).connectTimeout(connectTimeout)
            .version(HttpClient.Version.HTTP_1_1).build();
    }

    /** From the configuration's strings: blank means not set. */
    @SuppressWarnings("checkstyle:ParameterNumber")
    static AgentLinks of(final @Nullable String caFile, final @Nullable String clientCert,
            final @Nullable String clientKey, final Executor executor, final Duration connectTimeout,
            final boolean trustOnFirstUse, final Pinner pinner) {
        return new AgentLinks(path(caFile), path(clientCert), path(clientKey), executor, connectTimeout,
            trustOnFirstUse, pinner);
    }

    private static @Nullable Path path(final @Nullable String value) {
        return value == null || value.isBlank() ? null : Path.of(value.strip());
    }

    /** Takes a switch's configuration; a change of transport or fingerprint starts afresh. */
    void configure(final SwitchConfig config) {
        final var old = entries.get(config.nodeId());
        if (old == null || old.transport != config.transport()
            || !java.util.Objects.equals(old.fingerprint, config.tlsFingerprint())
            || !java.util.Objects.equals(old.firstUse, config.firstUse())) {
            entries.put(config.nodeId(), new Entry(config.nodeId(), config.transport(), config.tlsFingerprint(),
                config.firstUse()));
        }
    }

    void remove(final String nodeId) {
        entries.remove(nodeId);
    }

    private Entry entry(final String nodeId) {
        return entries.computeIfAbsent(nodeId, n -> new Entry(n, Transport.UNSET, null, null));
    }

    /** How to reach the switch's agent now. */
    Link link(final String nodeId) {
        final var e = entry(nodeId);
        return e.transport == Transport.PLAIN_HTTP || e.plainFallback ? new Link("http", plainClient)
            : new Link("https", e.tlsClient);
    }

    /** Whether a TLS failure of this switch may be retried in plain HTTP (its transport is not configured). */
    boolean mayFallBack(final String nodeId) {
        return entry(nodeId).transport == Transport.UNSET;
    }

    /** Remembers that the agent answers plain HTTP only, or forgets it (to try TLS again). */
    void plainFallback(final String nodeId, final boolean on) {
        entry(nodeId).plainFallback = on;
    }

    /** How the switch's agent is trusted now, and the certificate it last showed. */
    Trust trust(final String nodeId) {
        final var e = entry(nodeId);
        final var c = e.checker;
        final String offered = c.offered;
        final String shown = offered == null ? null : display(offered);
        if (e.transport == Transport.PLAIN_HTTP || e.plainFallback) {
            return new Trust(TrustKind.PLAIN_HTTP, null, null);
        }
        final TrustKind kind = c.trusted;
        return new Trust(kind, shown, kind == TrustKind.FIRST_USE ? c.firstUseTime() : null);
    }

    /** A fingerprint as openssl prints it: upper-case hex pairs joined by colons. */
    static String display(final String fingerprint) {
        return fingerprint.toUpperCase(java.util.Locale.ROOT);
    }

    /** The last certificate problem of the switch, in words, or null. */
    @Nullable String trustFailure(final String nodeId) {
        return entry(nodeId).checker.failure;
    }

    /** Whether a failure means the peer spoke plain HTTP to our TLS. */
    static boolean isPlainPeer(final Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SSLException && t.getMessage() != null
                && (t.getMessage().contains("Unsupported or unrecognized SSL message")
                    || t.getMessage().contains("plaintext"))) {
                return true;
            }
        }
        return false;
    }

    /** Whether the agent refused the controller's client certificate, or the lack of one (mutual TLS). */
    static boolean isClientCertificateRefused(final Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            final String m = t.getMessage();
            if (t instanceof SSLException && m != null && (m.contains("certificate_required")
                || m.contains("bad_certificate") || m.contains("unknown_ca") || m.contains("certificate_unknown"))) {
                return true;
            }
        }
        return false;
    }

    /** The words for a switch whose agent refused the controller's client certificate, or its lack. */
    String clientCertificateRefused(final String host, final int port) {
        return clientCert == null
            ? "the agent at " + host + ":" + port + " requires a client certificate (mutual TLS): set"
                + " agent-client-cert-file and agent-client-key-file in etc/io.rst.rft.cfg"
            : "the agent at " + host + ":" + port + " refused the controller's client certificate " + clientCert
                + " (is it signed by a CA of the agent's --tls-client-ca?)";
    }

    /** Whether a failure is a TLS one (handshake, certificate). */
    static boolean isTls(final Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SSLException) {
                return true;
            }
        }
        return false;
    }

    private HttpClient client(final Checker checker) {
        try {
            final SSLContext ctx = SSLContext.getInstance("TLS");
            KeyManager[] kms = null;
            if (clientCert != null && clientKey != null) {
                kms = TlsFiles.keyManagers(clientCert, clientKey).getKeyManagers();
            }
            ctx.init(kms, new TrustManager[] {checker}, null);
            final SSLParameters params = new SSLParameters();
            params.setProtocols(TlsFiles.protocols());
            return HttpClient.newBuilder().executor(executor).connectTimeout(connectTimeout)
                .version(HttpClient.Version.HTTP_1_1).sslContext(ctx).sslParameters(params).build();
        } catch (GeneralSecurityException | IOException e) {
            checker.failure = "TLS set-up failed: " + e.getMessage();
            return plainClient;
        }
    }

    /**
     * Verifies an agent's certificate by its pinned fingerprint, against the CA file, or on first
     * use; keeps what was wrong in words (the handshake's own exception says little), the
     * fingerprint of the certificate the agent showed, and how the one it accepted was trusted.
     */
    @SuppressFBWarnings(value = { "NP_NONNULL_FIELD_NOT_INITIALIZED_IN_CONSTRUCTOR", "NP_STORE_INTO_NONNULL_FIELD" },
        justification = "SpotBugs reads no TYPE_USE @Nullable on fields: these fields are @Nullable")
    private final class Checker extends X509ExtendedTrustManager {
        private final String nodeId;
        private final @Nullable String pinned;
        /** When the controller pinned {@link #pinned} on first use, or null when an operator pinned it. */
        private final @Nullable String pinnedOnFirstUse;
        /** The fingerprint this checker trusted on first use (before the configuration has it). */
        private final java.util.concurrent.atomic.AtomicReference<String> firstUse =
            new java.util.concurrent.atomic.AtomicReference<>();
        private volatile @Nullable String firstUseAt;
        volatile @Nullable String failure;
        /** The fingerprint of the certificate the agent last showed. */
        volatile @Nullable String offered;
        /** How the last certificate the checker accepted was trusted. */
        volatile @Nullable TrustKind trusted;

        Checker(final String nodeId, final @Nullable String pinned, final @Nullable String pinnedOnFirstUse) {
            this.nodeId = nodeId;
            this.pinned = pinned;
            this.pinnedOnFirstUse = pinnedOnFirstUse;
        }

        @Nullable String firstUseTime() {
            return pinnedOnFirstUse != null ? pinnedOnFirstUse : firstUseAt;
        }

        private void check(final X509Certificate[] chain, final String authType, final @Nullable SSLEngine engine)
                throws CertificateException {
            try {
                verify(chain, authType, engine);
                failure = null;
            } catch (CertificateException e) {
                failure = e.getMessage();
                // not trusted now, whatever an earlier handshake found
                trusted = null;
                throw e;
            }
        }

        private void verify(final X509Certificate @Nullable [] chain, final String authType,
                final @Nullable SSLEngine engine) throws CertificateException {
            if (chain == null || chain.length == 0) {
                throw new CertificateException("the agent sent no certificate");
            }
            final X509Certificate leaf = chain[0];
            final String actual = TlsFiles.fingerprint(leaf);
            offered = actual;
            try {
                leaf.checkValidity();
            } catch (CertificateExpiredException e) {
                throw new CertificateException(
                    "the agent's certificate expired on " + leaf.getNotAfter().toInstant(), e);
            } catch (CertificateNotYetValidException e) {
                throw new CertificateException("the agent's certificate is valid only from "
                    + leaf.getNotBefore().toInstant(), e);
            }
            if (pinned != null) {
                if (!actual.equals(pinned)) {
                    throw new CertificateException("the agent's certificate fingerprint " + display(actual)
                        + " does not match the pinned agent-tls-fingerprint " + display(pinned)
                        + (pinnedOnFirstUse == null ? "" : " (trusted on first use " + pinnedOnFirstUse
                            + "; if the agent's certificate was renewed, remove agent-tls-fingerprint to pin afresh)"));
                }
                trusted = pinnedOnFirstUse == null ? TrustKind.PINNED : TrustKind.FIRST_USE;
                return;
            }
            final String mine = firstUse.get();
            if (mine != null) {
                if (!actual.equals(mine)) {
                    throw new CertificateException("the agent's certificate fingerprint " + display(actual)
                        + " does not match the pinned agent-tls-fingerprint " + display(mine)
                        + " (trusted on first use " + firstUseAt + ")");
                }
                trusted = TrustKind.FIRST_USE;
                return;
            }
            final X509ExtendedTrustManager pkix = pkix();
            try {
                pkix.checkServerTrusted(chain, authType, engine);
                trusted = TrustKind.CA;
            } catch (CertificateException e) {
                final String m = String.valueOf(e.getMessage());
                if (m.contains("subject alternative") || m.contains("No name matching")) {
                    throw new CertificateException("the agent's certificate is for " + names(leaf) + ", not "
                        + (engine == null ? "this address" : engine.getPeerHost()), e);
                }
                if (!trustOnFirstUse) {
                    throw new CertificateException("the agent's certificate (issued by " + leaf.getIssuerX500Principal()
                        .getName() + ") is not signed by a CA of " + (caFile == null ? "the JDK" : "agent-ca-file "
                        + caFile) + ": pin it with agent-tls-fingerprint " + display(actual) + " (the fingerprint"
                        + " the agent prints at its start; check it there), set agent-ca-file, or set"
                        + " agent-trust-on-first-use = true in etc/io.rst.rft.cfg", e);
                }
                firstUsePin(actual);
            }
        }

        /** Trusts {@code actual} on first use, or refuses it when another handshake pinned another one first. */
        private void firstUsePin(final String actual) throws CertificateException {
            final String at = AgentStatusTracker.time(System.currentTimeMillis()).getValue();
            if (firstUse.compareAndSet(null, actual)) {
                firstUseAt = at;
                pinner.pin(nodeId, actual, at);
            } else if (!actual.equals(firstUse.get())) {
                throw new CertificateException("the agent's certificate fingerprint " + display(actual)
                    + " does not match the pinned agent-tls-fingerprint " + display(firstUse.get())
                    + " (trusted on first use " + firstUseAt + ")");
            }
            trusted = TrustKind.FIRST_USE;
        }

        private X509ExtendedTrustManager pkix() throws CertificateException {
            try {
                final TrustManagerFactory tmf;
                if (caFile != null) {
                    tmf = TlsFiles.trustManagers(caFile);
                } else {
                    tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
                    tmf.init((java.security.KeyStore) null);
                }
                for (TrustManager tm : tmf.getTrustManagers()) {
                    if (tm instanceof X509ExtendedTrustManager x) {
                        return x;
                    }
                }
                throw new CertificateException("no X.509 trust manager");
            } catch (IOException | GeneralSecurityException e) {
                throw new CertificateException("cannot read agent-ca-file: " + e.getMessage(), e);
            }
        }

        private static String names(final X509Certificate cert) {
            final List<String> out = new ArrayList<>();
            try {
                final var sans = cert.getSubjectAlternativeNames();
                if (sans != null) {
                    for (List<?> san : sans) {
                        out.add(String.valueOf(san.get(1)));
                    }
                }
            } catch (CertificateParsingException e) {
                out.add("?");
            }
            return out.isEmpty() ? cert.getSubjectX500Principal().getName() : String.join(", ", out);
        }

        @Override
        public void checkServerTrusted(final X509Certificate[] chain, final String authType, final SSLEngine engine)
                throws CertificateException {
            check(chain, authType, engine);
        }

        @Override
        public void checkServerTrusted(final X509Certificate[] chain, final String authType, final Socket socket)
                throws CertificateException {
            check(chain, authType, null);
        }

        @Override
        public void checkServerTrusted(final X509Certificate[] chain, final String authType)
                throws CertificateException {
            check(chain, authType, null);
        }

        @Override
        public void checkClientTrusted(final X509Certificate[] chain, final String authType, final SSLEngine engine)
                throws CertificateException {
            throw new CertificateException("not a server");
        }

        @Override
        public void checkClientTrusted(final X509Certificate[] chain, final String authType, final Socket socket)
                throws CertificateException {
            throw new CertificateException("not a server");
        }

        @Override
        public void checkClientTrusted(final X509Certificate[] chain, final String authType)
                throws CertificateException {
            throw new CertificateException("not a server");
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
