/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.wire;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.PrivateKey;
import java.security.cert.CertificateEncodingException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.TrustManagerFactory;

/**
 * PEM certificates and PKCS#8 keys with the JDK alone (no BouncyCastle in the agent's plain jar),
 * the agent's TLS server socket, and the check that secret files are not readable by others.
 * Shared by the agent and the controller.
 */
public final class TlsFiles {
    private static final String[] PROTOCOLS = {"TLSv1.3", "TLSv1.2"};

    private TlsFiles() {
    }

    /**
     * The agent's cipher suites, best first, and the agent's order wins: AES-128-GCM before
     * AES-256-GCM (the JDK's default favourite), since the event stream is bulk data and AES-128
     * does 10 rounds per block where AES-256 does 14, both with the CPU's AES instructions;
     * ChaCha20 for peers without them. Only AEAD suites with forward secrecy.
     */
    private static final String[] CIPHER_SUITES = {
        "TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384", "TLS_CHACHA20_POLY1305_SHA256",
        "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
        "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384", "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
        "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256", "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256",
    };

    /** What the agent and the controller speak: TLS 1.3, and 1.2 for older peers. */
    public static String[] protocols() {
        return PROTOCOLS.clone();
    }

    /**
     * Refuses a secret file (token, private key) that group or others may read: anyone else on the
     * host could then act as the agent or the controller.
     *
     * @throws IOException saying which file, its mode, and how to fix it
     */
    public static void requirePrivate(final Path file, final String what) throws IOException {
        final PosixFileAttributeView view = Files.getFileAttributeView(file, PosixFileAttributeView.class);
        if (view == null) {
            return; // no POSIX permissions on this file system: nothing to check
        }
        final Set<PosixFilePermission> perms = view.readAttributes().permissions();
        final boolean group = perms.contains(PosixFilePermission.GROUP_READ)
            || perms.contains(PosixFilePermission.GROUP_WRITE);
        final boolean others = perms.contains(PosixFilePermission.OTHERS_READ)
            || perms.contains(PosixFilePermission.OTHERS_WRITE);
        if (group || others) {
            throw new IOException(what + " " + file + " is accessible by " + (group && others ? "group and others"
                : group ? "its group" : "others") + " (mode " + mode(perms) + "): chmod 600 " + file);
        }
    }

    private static String mode(final Set<PosixFilePermission> perms) {
        int bits = 0;
        for (PosixFilePermission p : perms) {
            bits |= 1 << (8 - p.ordinal());
        }
        return String.format("%04o", bits);
    }

    /** The certificates of a PEM file, in order (a chain: the leaf first). */
    public static List<X509Certificate> certificates(final Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            final List<X509Certificate> out = new ArrayList<>();
            for (var c : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                out.add((X509Certificate) c);
            }
            if (out.isEmpty()) {
                throw new IOException("no certificate in " + file);
            }
            return out;
        } catch (CertificateException e) {
            throw new IOException("not a PEM certificate file: " + file + " (" + e.getMessage() + ")", e);
        }
    }

    /** A PEM PKCS#8 private key ({@code BEGIN PRIVATE KEY}): RSA, EC or Ed25519. */
    public static PrivateKey privateKey(final Path file) throws IOException {
        final String pem = Files.readString(file, StandardCharsets.US_ASCII);
        final String begin = "-----BEGIN PRIVATE KEY-----";
        final int from = pem.indexOf(begin);
        final int to = pem.indexOf("-----END PRIVATE KEY-----");
        if (from < 0 || to < from) {
            if (pem.contains("BEGIN RSA PRIVATE KEY") || pem.contains("BEGIN EC PRIVATE KEY")) {
                throw new IOException(file + " is not PKCS#8: convert it with openssl pkcs8 -topk8 -nocrypt -in "
                    + file);
            }
            if (pem.contains("BEGIN ENCRYPTED PRIVATE KEY")) {
                throw new IOException(file + " is encrypted: the agent needs an unencrypted PKCS#8 key (mode 0600)");
            }
            throw new IOException("no PEM private key (BEGIN PRIVATE KEY) in " + file);
        }
        final byte[] der;
        try {
            der = Base64.getMimeDecoder().decode(pem.substring(from + begin.length(), to));
        } catch (IllegalArgumentException e) {
            throw new IOException("bad base64 in the private key " + file, e);
        }
        for (String alg : new String[] {"RSA", "EC", "Ed25519", "EdDSA"}) {
            try {
                return KeyFactory.getInstance(alg).generatePrivate(new PKCS8EncodedKeySpec(der));
            } catch (InvalidKeySpecException | NoSuchAlgorithmException e) {
                // try the next algorithm
            }
        }
        throw new IOException("unsupported private key in " + file + " (RSA, EC or Ed25519 expected)");
    }

    /** A key store holding {@code key} with its certificate chain, for a KeyManagerFactory. */
    public static KeyManagerFactory keyManagers(final Path certFile, final Path keyFile) throws IOException {
        requirePrivate(keyFile, "private key file");
        final List<X509Certificate> chain = certificates(certFile);
        final PrivateKey key = privateKey(keyFile);
        try {
            final KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(null, null);
            ks.setKeyEntry("key", key, new char[0], chain.toArray(new X509Certificate[0]));
            final KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(ks, new char[0]);
            return kmf;
        } catch (GeneralSecurityException e) {
            throw new IOException("certificate " + certFile + " and key " + keyFile + " do not go together: "
                + e.getMessage(), e);
        }
    }

    /** Trust managers that accept chains to the CAs of a PEM file. */
    public static TrustManagerFactory trustManagers(final Path caFile) throws IOException {
        try {
            final KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(null, null);
            int index = 0;
            for (X509Certificate c : certificates(caFile)) {
                ks.setCertificateEntry("ca" + index++, c);
            }
            final TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(ks);
            return tmf;
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot use the CA file " + caFile + ": " + e.getMessage(), e);
        }
    }

    /**
     * The agent's TLS server socket on {@code listen}: TLS 1.3 and 1.2, with the PEM certificate
     * chain and key given, and a client certificate from {@code clientCa}'s CAs required if it is
     * not null (mutual TLS).
     */
    public static ServerSocket bindTls(final InetSocketAddress listen, final Path certChain, final Path key,
            final Path clientCa) throws IOException {
        if (listen.isUnresolved()) {
            throw new IOException("cannot resolve listen address " + listen.getHostString());
        }
        final SSLContext ctx;
        try {
            ctx = SSLContext.getInstance("TLS");
            ctx.init(keyManagers(certChain, key).getKeyManagers(),
                clientCa == null ? null : trustManagers(clientCa).getTrustManagers(), null);
        } catch (GeneralSecurityException e) {
            throw new IOException("TLS set-up failed: " + e.getMessage(), e);
        }
        if (!(ctx.getServerSocketFactory().createServerSocket() instanceof SSLServerSocket s)) {
            throw new IOException("the JDK made no TLS server socket");
        }
        final SSLParameters params = s.getSSLParameters();
        params.setProtocols(protocols());
        final List<String> supported = List.of(s.getSupportedCipherSuites());
        params.setCipherSuites(java.util.Arrays.stream(CIPHER_SUITES).filter(supported::contains)
            .toArray(String[]::new));
        params.setUseCipherSuitesOrder(true);
        params.setNeedClientAuth(clientCa != null);
        s.setSSLParameters(params);
        s.setReuseAddress(true);
        s.bind(listen, 256);
        return s;
    }

    /** A certificate's SHA-256 fingerprint as lower-case hex pairs joined by colons. */
    public static String fingerprint(final X509Certificate cert) {
        try {
            return HexFormat.ofDelimiter(":").formatHex(MessageDigest.getInstance("SHA-256").digest(cert.getEncoded()));
        } catch (NoSuchAlgorithmException | CertificateEncodingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A fingerprint as written by an operator (colons or not, any case) in the form of {@link #fingerprint}. */
    public static String normalizeFingerprint(final String written) {
        final String hex = written.strip().replace(":", "").toLowerCase(java.util.Locale.ROOT);
        if (!hex.matches("[0-9a-f]{64}")) {
            throw new IllegalArgumentException("not a SHA-256 fingerprint: " + written);
        }
        return HexFormat.ofDelimiter(":").formatHex(HexFormat.of().parseHex(hex));
    }
}
