/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.agent;

import io.rst.rft.wire.TlsFiles;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent's own TLS certificate, for an agent started without {@code --tls-cert} and without
 * {@code --plain-http}: an EC P-256 key ({@code agent-tls.key}, PKCS#8 PEM, mode 0600) and a
 * self-signed certificate for it ({@code agent-tls.crt}, valid {@link #VALIDITY}, naming the host
 * and the listen address unless it is the wildcard), made in the state directory at the first
 * start and used as they are at every later one, so that the fingerprint a controller pinned stays
 * valid across restarts and upgrades. Each file is written to a temporary file, fsynced and
 * renamed: a crash leaves the old file or the whole new one. A file that cannot be read is an
 * error that names it and says what to do; it is never replaced behind the operator's back.
 * Made with the JDK alone: {@link Signature} signs, and a small DER writer builds the certificate.
 */
public final class SelfMadeTls {
    private static final Logger LOG = LoggerFactory.getLogger(SelfMadeTls.class);
    /** The key's file name in the state directory. */
    public static final String KEY_FILE = "agent-tls.key";
    /** The certificate's file name in the state directory. */
    public static final String CERT_FILE = "agent-tls.crt";
    /** How long a self-made certificate is valid. */
    static final Duration VALIDITY = Duration.ofDays(3653);
    private static final SecureRandom RANDOM = new SecureRandom();

    // DER object identifiers
    private static final String OID_ECDSA_SHA256 = "1.2.840.10045.4.3.2";
    private static final String OID_COMMON_NAME = "2.5.4.3";
    private static final String OID_ORGANIZATION = "2.5.4.10";
    private static final String OID_BASIC_CONSTRAINTS = "2.5.29.19";
    private static final String OID_EXT_KEY_USAGE = "2.5.29.37";
    private static final String OID_SUBJECT_ALT_NAME = "2.5.29.17";
    private static final String OID_SERVER_AUTH = "1.3.6.1.5.5.7.3.1";

    /**
     * The certificate and key files the agent serves TLS with.
     *
     * @param cert the certificate (PEM)
     * @param key its private key (PEM PKCS#8)
     * @param certificate the certificate, read
     * @param made whether they were made at this start
     */
    public record Material(Path cert, Path key, X509Certificate certificate, boolean made) {
    }

    private SelfMadeTls() {
    }

    /**
     * The state directory's certificate and key: read if they are there, made (and written) if
     * not. A key without its certificate gets a new certificate (a start that ended between the
     * two writes).
     *
     * @param hostName the host name the certificate names
     * @param listen the API's address: named too unless it is the wildcard
     * @throws IOException naming the file that cannot be used and what to do about it
     */
    public static Material loadOrMake(final Path stateDir, final String hostName, final InetSocketAddress listen)
            throws IOException {
        final Path keyFile = stateDir.resolve(KEY_FILE);
        final Path certFile = stateDir.resolve(CERT_FILE);
        final boolean haveKey = Files.exists(keyFile);
        final boolean haveCert = Files.exists(certFile);
        if (haveKey && haveCert) {
            final PrivateKey key = readKey(keyFile, certFile);
            final X509Certificate cert = readCert(certFile);
            requirePair(key, cert, keyFile, certFile);
            if (Instant.now().isAfter(cert.getNotAfter().toInstant())) {
                LOG.warn("the self-made TLS certificate {} expired on {}: remove {} and {} to make a new one (its "
                    + "fingerprint then changes: a controller that pinned the old one must pin the new)",
                    certFile, cert.getNotAfter().toInstant(), certFile, keyFile);
            }
            return new Material(certFile, keyFile, cert, false);
        }
        if (haveCert) {
            throw new IOException("the self-made TLS certificate " + certFile + " is there but its key " + keyFile
                + " is not: remove " + certFile + " to make a new key and certificate (the fingerprint changes: a"
                + " controller that pinned the old one must pin the new), or restore the key");
        }
        final KeyPair pair;
        if (haveKey) {
            final PrivateKey key = readKey(keyFile, certFile);
            pair = new KeyPair(publicKeyOf(key, keyFile, certFile), key);
            LOG.info("the TLS key {} has no certificate: making one", keyFile);
        } else {
            pair = newKeyPair();
            // the public key too: a start cut short before the certificate was written makes it for the same key
            writeAtomically(keyFile, concat(pem("PRIVATE KEY", pair.getPrivate().getEncoded()),
                pem("PUBLIC KEY", pair.getPublic().getEncoded())), true);
        }
        final byte[] der;
        try {
            der = certificate(pair, names(hostName, listen), Instant.now());
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot sign the agent's TLS certificate: " + e.getMessage(), e);
        }
        writeAtomically(certFile, pem("CERTIFICATE", der), false);
        return new Material(certFile, keyFile, readCert(certFile), true);
    }

    /**
     * The certificate's SHA-256 fingerprint as {@code openssl x509 -noout -fingerprint -sha256}
     * prints it: upper-case hex pairs joined by colons.
     */
    public static String opensslFingerprint(final X509Certificate cert) {
        return TlsFiles.fingerprint(cert).toUpperCase(Locale.ROOT);
    }

    /** The names a new certificate carries: the host name, and the listen address unless it is the wildcard. */
    static List<Object> names(final String hostName, final InetSocketAddress listen) {
        final List<Object> out = new ArrayList<>();
        if (hostName != null && !hostName.isBlank() && isDnsName(hostName)) {
            out.add(hostName);
        }
        final InetAddress address = listen.getAddress();
        if (address != null && !address.isAnyLocalAddress()) {
            out.add(address);
            final String written = listen.getHostString();
            if (isDnsName(written) && !out.contains(written) && !written.equals(address.getHostAddress())) {
                out.add(written);
            }
        }
        if (out.isEmpty()) {
            out.add("localhost");
        }
        return out;
    }

    private static boolean isDnsName(final String name) {
        return name.matches("[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*")
            && !name.matches("[0-9.]+");
    }

    static KeyPair newKeyPair() throws IOException {
        try {
            final KeyPairGenerator gen = KeyPairGenerator.getInstance("EC");
            gen.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
            return gen.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot make an EC P-256 key: " + e.getMessage(), e);
        }
    }

    /**
     * A self-signed X.509 v3 certificate (DER) for {@code pair}: subject and issuer
     * {@code O=RST agent, CN=<first name>}, valid from an hour before {@code now} for
     * {@link #VALIDITY}, the names as subject alternative names ({@link String}: DNS,
     * {@link InetAddress}: IP), not a CA, for TLS servers (no key usage extension: a certificate
     * that is its own issuer, trusted as itself by a client that has it, e.g. {@code curl --cacert}).
     */
    static byte[] certificate(final KeyPair pair, final List<Object> names, final Instant now)
            throws GeneralSecurityException {
        final byte[] serial = new byte[16];
        RANDOM.nextBytes(serial);
        serial[0] &= 0x7f;
        serial[0] |= 0x40;
        final byte[] algorithm = seq(oid(OID_ECDSA_SHA256));
        final byte[] name = seq(set(seq(oid(OID_ORGANIZATION), utf8("RST agent"))),
            set(seq(oid(OID_COMMON_NAME), utf8(String.valueOf(names.get(0) instanceof InetAddress a
                ? a.getHostAddress() : names.get(0))))));
        final ByteArrayOutputStream sans = new ByteArrayOutputStream();
        for (Object n : names) {
            if (n instanceof InetAddress a) {
                sans.writeBytes(tlv(0x87, a.getAddress()));
            } else {
                sans.writeBytes(tlv(0x82, String.valueOf(n).getBytes(StandardCharsets.US_ASCII)));
            }
        }
        final byte[] extensions = seq(
            extension(OID_BASIC_CONSTRAINTS, true, seq()),
            extension(OID_EXT_KEY_USAGE, false, seq(oid(OID_SERVER_AUTH))),
            extension(OID_SUBJECT_ALT_NAME, false, tlv(0x30, sans.toByteArray())));
        final byte[] tbs = seq(
            tlv(0xa0, integer(BigInteger.TWO)),
            integer(new BigInteger(serial)),
            algorithm,
            name,
            seq(time(now.minus(Duration.ofHours(1))), time(now.plus(VALIDITY))),
            name,
            pair.getPublic().getEncoded(),
            tlv(0xa3, extensions));
        final Signature signer = Signature.getInstance("SHA256withECDSA");
        signer.initSign(pair.getPrivate(), RANDOM);
        signer.update(tbs);
        final byte[] signature = signer.sign();
        final byte[] bits = new byte[signature.length + 1];
        System.arraycopy(signature, 0, bits, 1, signature.length);
        return seq(tbs, algorithm, tlv(0x03, bits));
    }

    private static byte[] extension(final String oid, final boolean critical, final byte[] value) {
        return critical ? seq(oid(oid), new byte[] {0x01, 0x01, (byte) 0xff}, tlv(0x04, value))
            : seq(oid(oid), tlv(0x04, value));
    }

    /** UTCTime up to 2049, GeneralizedTime from 2050 (RFC 5280, 4.1.2.5). */
    private static byte[] time(final Instant when) {
        final var utc = when.atZone(ZoneOffset.UTC);
        return utc.getYear() < 2050
            ? tlv(0x17, DateTimeFormatter.ofPattern("yyMMddHHmmss'Z'").format(utc).getBytes(StandardCharsets.US_ASCII))
            : tlv(0x18, DateTimeFormatter.ofPattern("yyyyMMddHHmmss'Z'").format(utc)
                .getBytes(StandardCharsets.US_ASCII));
    }

    private static byte[] utf8(final String text) {
        return tlv(0x0c, text.getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] integer(final BigInteger value) {
        return tlv(0x02, value.toByteArray());
    }

    private static byte[] oid(final String dotted) {
        final String[] parts = dotted.split("\\.");
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(Integer.parseInt(parts[0]) * 40 + Integer.parseInt(parts[1]));
        for (int i = 2; i < parts.length; i++) {
            long value = Long.parseLong(parts[i]);
            final byte[] groups = new byte[10];
            int count = 0;
            do {
                groups[count++] = (byte) (value & 0x7f);
                value >>>= 7;
            } while (value != 0);
            for (int j = count - 1; j >= 0; j--) {
                out.write(groups[j] | (j > 0 ? 0x80 : 0));
            }
        }
        return tlv(0x06, out.toByteArray());
    }

    private static byte[] seq(final byte[]... parts) {
        return tlv(0x30, concat(parts));
    }

    private static byte[] set(final byte[]... parts) {
        return tlv(0x31, concat(parts));
    }

    private static byte[] concat(final byte[]... parts) {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    /** A DER tag-length-value, in the definite form. */
    static byte[] tlv(final int tag, final byte[] value) {
        final ByteArrayOutputStream out = new ByteArrayOutputStream(value.length + 6);
        out.write(tag);
        final int len = value.length;
        if (len < 0x80) {
            out.write(len);
        } else {
            final int bytes = len < 0x100 ? 1 : len < 0x10000 ? 2 : len < 0x1000000 ? 3 : 4;
            out.write(0x80 | bytes);
            for (int i = bytes - 1; i >= 0; i--) {
                out.write(len >>> (8 * i));
            }
        }
        out.writeBytes(value);
        return out.toByteArray();
    }

    private static byte[] pem(final String type, final byte[] der) {
        return ("-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
            + "\n-----END " + type + "-----\n").getBytes(StandardCharsets.US_ASCII);
    }

    private static String removeToRemake(final Path keyFile, final Path certFile) {
        return ": remove " + keyFile + " and " + certFile + " to make a new key and certificate (the fingerprint"
            + " changes: a controller that pinned the old one must pin the new)";
    }

    private static PrivateKey readKey(final Path keyFile, final Path certFile) throws IOException {
        TlsFiles.requirePrivate(keyFile, "the self-made TLS key");
        try {
            return TlsFiles.privateKey(keyFile);
        } catch (IOException e) {
            throw new IOException("cannot use the agent's self-made TLS key " + keyFile + " (" + e.getMessage() + ")"
                + removeToRemake(keyFile, certFile), e);
        }
    }

    private static X509Certificate readCert(final Path certFile) throws IOException {
        final Path keyFile = certFile.resolveSibling(KEY_FILE);
        try {
            return TlsFiles.certificates(certFile).get(0);
        } catch (IOException e) {
            throw new IOException("cannot use the agent's self-made TLS certificate " + certFile + " ("
                + e.getMessage() + ")" + removeToRemake(keyFile, certFile), e);
        }
    }

    /** Whether the key signs what the certificate's public key verifies. */
    private static void requirePair(final PrivateKey key, final X509Certificate cert, final Path keyFile,
            final Path certFile) throws IOException {
        try {
            final byte[] probe = "rst".getBytes(StandardCharsets.US_ASCII);
            final String alg = "EC".equals(key.getAlgorithm()) ? "SHA256withECDSA"
                : "RSA".equals(key.getAlgorithm()) ? "SHA256withRSA" : key.getAlgorithm();
            final Signature s = Signature.getInstance(alg);
            s.initSign(key);
            s.update(probe);
            final byte[] sig = s.sign();
            final Signature v = Signature.getInstance(alg);
            v.initVerify(cert.getPublicKey());
            v.update(probe);
            if (v.verify(sig)) {
                return;
            }
        } catch (GeneralSecurityException e) {
            // below: they do not go together
        }
        throw new IOException("the self-made TLS key " + keyFile + " and certificate " + certFile
            + " do not go together" + removeToRemake(keyFile, certFile));
    }

    /**
     * The public key written after the private key in a key file this class made (a
     * {@code PUBLIC KEY} block, which readers of the private key pass over).
     */
    private static java.security.PublicKey publicKeyOf(final PrivateKey key, final Path keyFile, final Path certFile)
            throws IOException {
        final String pem = Files.readString(keyFile, StandardCharsets.US_ASCII);
        final String begin = "-----BEGIN PUBLIC KEY-----";
        final int from = pem.indexOf(begin);
        final int to = pem.indexOf("-----END PUBLIC KEY-----");
        if (from >= 0 && to > from) {
            try {
                final byte[] der = Base64.getMimeDecoder().decode(pem.substring(from + begin.length(), to));
                return java.security.KeyFactory.getInstance(key.getAlgorithm())
                    .generatePublic(new java.security.spec.X509EncodedKeySpec(der));
            } catch (IllegalArgumentException | GeneralSecurityException e) {
                // below
            }
        }
        throw new IOException("the TLS key " + keyFile + " has no certificate " + certFile
            + " and none can be made for it" + removeToRemake(keyFile, certFile));
    }

    /**
     * Writes {@code bytes} to {@code target} through a temporary file in the same directory
     * (created with mode 0600 for a key), fsynced, then renamed over it.
     */
    static void writeAtomically(final Path target, final byte[] bytes, final boolean secret) throws IOException {
        final Path dir = target.toAbsolutePath().getParent();
        final Path tmp = secret
            ? Files.createTempFile(dir, target.getFileName() + ".", ".tmp",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))
            : Files.createTempFile(dir, target.getFileName() + ".", ".tmp");
        try {
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                ch.write(java.nio.ByteBuffer.wrap(bytes));
                ch.force(true);
            }
            if (!secret) {
                Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-r--r--"));
            }
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        } catch (IOException e) {
            LOG.debug("cannot fsync {}: {}", dir, e.getMessage());
        }
    }

    /** The certificate of DER bytes (tests). */
    static X509Certificate parse(final byte[] der) throws GeneralSecurityException {
        return (X509Certificate) CertificateFactory.getInstance("X.509")
            .generateCertificate(new ByteArrayInputStream(der));
    }
}
