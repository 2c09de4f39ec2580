/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.lab;

import io.rst.rft.wire.TlsFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLContext;

/**
 * The lab's TLS material, made with openssl the way {@code ./rst certs} makes it (scripts/certs.sh):
 * a CA of its own in {@code DIR/certs/ca.crt}, and for each switch a certificate for its node-id
 * and its agent's address with a PKCS#8 key of mode 0600. Made fresh on every {@code lab up}, so a
 * lab never trusts an earlier lab's agents; removed with the lab's directory.
 */
public final class LabCerts {
    private final Path dir;

    LabCerts(final Path dir) {
        this.dir = dir;
    }

    /** Where the CA, the certificates and the keys are. */
    public Path dir() {
        return dir;
    }

    public Path caFile() {
        return dir.resolve("ca.crt");
    }

    public Path cert(final String switchId) {
        return dir.resolve(switchId + ".crt");
    }

    public Path key(final String switchId) {
        return dir.resolve(switchId + ".key");
    }

    /** Makes the CA (the directory must not hold one yet). */
    void makeCa() {
        try {
            Files.createDirectories(dir);
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        } catch (IOException e) {
            throw new LabException("cannot make " + dir + ": " + e.getMessage(), e);
        }
        newKey(dir.resolve("ca.key"));
        openssl("req", "-x509", "-new", "-key", dir.resolve("ca.key").toString(), "-out", caFile().toString(),
            "-days", "30", "-subj", "/CN=RST lab agents CA", "-addext", "basicConstraints=critical,CA:TRUE",
            "-addext", "keyUsage=critical,keyCertSign,cRLSign");
    }

    /**
     * Makes a switch's certificate and key, for {@code DNS:switchId} and {@code IP:address}.
     *
     * @return its SHA-256 fingerprint, as {@code agent-tls-fingerprint} takes it
     */
    String makeSwitch(final String switchId, final String address) {
        final Path key = key(switchId);
        final Path csr = dir.resolve(switchId + ".csr");
        final Path ext = dir.resolve(switchId + ".ext");
        newKey(key);
        try {
            Files.writeString(ext, "subjectAltName=DNS:" + switchId + ",IP:" + address
                + "\nextendedKeyUsage=serverAuth\nkeyUsage=critical,digitalSignature\nbasicConstraints=CA:FALSE\n");
            openssl("req", "-new", "-key", key.toString(), "-out", csr.toString(), "-subj", "/CN=" + switchId);
            openssl("x509", "-req", "-in", csr.toString(), "-CA", caFile().toString(), "-CAkey",
                dir.resolve("ca.key").toString(), "-CAcreateserial", "-out", cert(switchId).toString(), "-days", "30",
                "-extfile", ext.toString());
            Files.delete(csr);
            Files.delete(ext);
            return fingerprint(switchId);
        } catch (IOException e) {
            throw new LabException("cannot make the certificate of " + switchId + ": " + e.getMessage(), e);
        }
    }

    /** The SHA-256 fingerprint of a switch's certificate. */
    public String fingerprint(final String switchId) {
        try {
            return TlsFiles.fingerprint(TlsFiles.certificates(cert(switchId)).get(0));
        } catch (IOException e) {
            throw new LabException("cannot read the certificate of " + switchId + ": " + e.getMessage(), e);
        }
    }

    /** An HTTP client that trusts the lab's CA (and checks the agent's address against its certificate). */
    HttpClient client(final Duration connectTimeout) {
        try {
            final SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(null, TlsFiles.trustManagers(caFile()).getTrustManagers(), null);
            return HttpClient.newBuilder().sslContext(ctx).connectTimeout(connectTimeout).build();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new LabException("TLS set-up failed: " + e.getMessage(), e);
        }
    }

    private static void newKey(final Path key) {
        try {
            // made 0600 before openssl writes into it (it keeps an existing file's mode): the key is
            // never readable by others, not even for a moment, and the agent refuses one that is
            Files.createFile(key, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        openssl("genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", key.toString());
    }

    private static void openssl(final String... args) {
        final List<String> cmd = new ArrayList<>(List.of("openssl"));
        cmd.addAll(List.of(args));
        try {
            final Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            final String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            if (p.waitFor() != 0) {
                throw new LabException("openssl " + args[0] + " failed: " + out.strip());
            }
        } catch (IOException e) {
            throw new LabException("the lab's TLS certificates need openssl (apt-get install openssl): "
                + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LabException("interrupted", e);
        }
    }
}
