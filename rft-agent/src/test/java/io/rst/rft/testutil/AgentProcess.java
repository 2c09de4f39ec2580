/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.testutil;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The real agent ({@code rst agent}, from this JVM's class path) as a process of its own in a
 * network namespace, and a plain-HTTP client of its API over the management link, as a
 * controller is. It keeps its token, state directory and log in one folder of the test's, so a
 * restarted agent continues on the same state.
 */
public final class AgentProcess implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int PORT = 4791;

    private final Netns netns;
    private final String namespace;
    private final String base;
    private final Path dir;
    private final String token;
    private final List<String> command;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
    private Process process;

    /**
     * An agent of namespace {@code namespace} listening on {@code address}, with {@code heap} (a
     * JVM option such as {@code -Xmx128m}) and {@code options} (its interfaces, agent id and any
     * other); its token is written to {@code dir}.
     */
    public AgentProcess(final Netns netns, final String namespace, final String address, final Path dir,
            final String heap, final String... options) throws IOException {
        this.netns = netns;
        this.namespace = namespace;
        this.dir = dir;
        base = "http://" + address + ":" + PORT;
        token = "tok-" + netns.prefix();
        final Path tokenFile = dir.resolve("token");
        Files.writeString(tokenFile, token);
        Files.setPosixFilePermissions(tokenFile, PosixFilePermissions.fromString("rw-------"));
        command = new ArrayList<>(List.of(Netns.java(heap, "io.rst.rft.cli.Main", "agent", "--listen",
            address + ":" + PORT, "--token-file", tokenFile.toString(), "--state-dir", dir.resolve("state")
            .toString(), "--plain-http")));
        command.addAll(List.of(options));
    }

    /**
     * Starts the agent and waits (at most {@code atMost}) until it answers with its capture as its
     * off switch says: running, unless stopped through the API before; returns the milliseconds
     * that took.
     */
    public long start(final Duration atMost) throws IOException {
        final long t0 = System.nanoTime();
        process = netns.start(namespace, ProcessBuilder.Redirect.appendTo(log().toFile()),
            command.toArray(String[]::new));
        await("the agent comes up").atMost(atMost).pollInterval(Duration.ofMillis(50)).until(() -> {
            assertTrue(process.isAlive(), "agent died: " + Files.readString(log()));
            try {
                if (get("/v1/health", null).statusCode() != 200) {
                    return false;
                }
                final JsonNode st = status();
                return st.path("capture_running").asBoolean() == st.path("capturing").asBoolean();
            } catch (IOException e) {
                // not listening yet
                return false;
            }
        });
        return (System.nanoTime() - t0) / 1_000_000L;
    }

    /** The agent's process (null before the first start). */
    public Process process() {
        return process;
    }

    /** Where the agent's output goes, across restarts. */
    public Path log() {
        return dir.resolve("agent.log");
    }

    public String token() {
        return token;
    }

    /** SIGKILL, and waits for the process to end. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        assertTrue(process.waitFor(10, TimeUnit.SECONDS), "the killed agent ends");
    }

    /** A GET with the agent's token. */
    public HttpResponse<String> get(final String path) throws IOException, InterruptedException {
        return get(path, token);
    }

    /** A GET with this bearer token (none if null). */
    public HttpResponse<String> get(final String path, final String bearer) throws IOException, InterruptedException {
        final HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30));
        if (bearer != null) {
            b.header("Authorization", "Bearer " + bearer);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A POST without a body, with the agent's token. */
    public HttpResponse<String> post(final String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(base + path)).header("Authorization", "Bearer " + token)
            .timeout(Duration.ofSeconds(30)).POST(HttpRequest.BodyPublishers.noBody()).build(),
            HttpResponse.BodyHandlers.ofString());
    }

    /** The agent's status, which must be answered with a 200. */
    public JsonNode status() throws IOException, InterruptedException {
        final HttpResponse<String> r = get("/v1/status");
        assertEquals(200, r.statusCode(), r.body());
        return JSON.readTree(r.body());
    }

    /** Kills the agent if it runs. */
    @Override
    public void close() throws InterruptedException {
        if (process != null) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
