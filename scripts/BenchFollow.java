/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rst.rft.wire.TlsFiles;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import javax.net.ssl.SSLContext;

/**
 * The client side of {@code ./rst bench tls}: reads an agent's whole event stream the way the
 * controller's follower (io.rst.rft.manager.AgentFollower) does, with the JDK's HttpClient over
 * HTTP/1.1 (TLS verified against the CA file), a BufferedReader line by line and Jackson's
 * readTree per event, alternately from a plain-HTTP and a TLS agent, in one JVM so that both see
 * the same JIT. Run with the agent jar on the class path (it holds Jackson and TlsFiles):
 * {@code java -cp AGENT_JAR scripts/BenchFollow.java PLAIN_URL TLS_URL TOKEN CA_FILE ROUNDS}.
 * Prints a line per round: {@code round N plain EVENTS SECONDS tls EVENTS SECONDS}.
 */
public final class BenchFollow {
    private static final ObjectMapper JSON = new ObjectMapper();

    private BenchFollow() {
    }

    public static void main(final String[] args) throws Exception {
        final String plain = args[0];
        final String tls = args[1];
        final String token = args[2];
        final SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(null, TlsFiles.trustManagers(Path.of(args[3])).getTrustManagers(), null);
        final int rounds = Integer.parseInt(args[4]);
        final HttpClient plainClient = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        final HttpClient tlsClient = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).sslContext(ctx)
            .build();
        // one warm-up round each, not printed: the JIT compiles the same code for both
        read(plainClient, plain, token);
        read(tlsClient, tls, token);
        for (int r = 1; r <= rounds; r++) {
            final long t0 = System.nanoTime();
            final long p = read(plainClient, plain, token);
            final long t1 = System.nanoTime();
            final long t = read(tlsClient, tls, token);
            final long t2 = System.nanoTime();
            System.out.printf("round %d plain %d %.4f tls %d %.4f%n", r, p, (t1 - t0) / 1e9, t, (t2 - t1) / 1e9);
        }
    }

    /** Reads the stream from seq 0 to its end; the number of session events. */
    private static long read(final HttpClient client, final String base, final String token) throws Exception {
        final var request = HttpRequest.newBuilder(URI.create(base + "/v1/events?after=0&wait=0"))
            .header("Authorization", "Bearer " + token).GET().build();
        final var response = client.send(request, HttpResponse.BodyHandlers.ofInputStream());
        long sessions = 0;
        try (var lines = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
            if (response.statusCode() != 200) {
                throw new IllegalStateException(base + " answered HTTP " + response.statusCode());
            }
            String line;
            while ((line = lines.readLine()) != null) {
                if (!line.isBlank()) {
                    final JsonNode event = JSON.readTree(line);
                    if ("session".equals(event.path("type").asText())) {
                        sessions++;
                    }
                }
            }
        }
        return sessions;
    }
}
