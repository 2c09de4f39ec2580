/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.manager;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.function.Function;

/**
 * Talks to an agent over its HTTP API with the switch's bearer token: {@code GET /v1/status} to
 * probe it, {@code POST /v1/start|stop} to turn its capture on or off.
 */
final class HttpAgentProbe implements AgentProbe {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient client;
    private final Function<String, String> tokens;
    private final Duration timeout;

    /**
     * A probe.
     *
     * @param tokens a switch's node-id to its token ("" for none)
     */
    HttpAgentProbe(final Executor executor, final Function<String, String> tokens, final Duration timeout) {
        this.client = HttpClient.newBuilder().executor(executor).connectTimeout(timeout)
            .version(HttpClient.Version.HTTP_1_1).build();
        this.tokens = tokens;
        this.timeout = timeout;
    }

    @Override
    public CompletionStage<Result> probe(final String nodeId, final String host, final int port) {
        return send(nodeId, host, port, "/v1/status", false);
    }

    @Override
    public CompletionStage<Result> capture(final String nodeId, final String host, final int port, final boolean on) {
        return send(nodeId, host, port, on ? "/v1/start" : "/v1/stop", true);
    }

    private CompletionStage<Result> send(final String nodeId, final String host, final int port, final String path,
            final boolean post) {
        final URI uri;
        try {
            uri = new URI("http", null, host, port, path, null, null);
        } catch (URISyntaxException e) {
            return CompletableFuture.completedFuture(new Result.Unreachable("bad agent address: " + host));
        }
        final var builder = HttpRequest.newBuilder(uri).timeout(timeout);
        if (post) {
            builder.POST(HttpRequest.BodyPublishers.noBody());
        } else {
            builder.GET();
        }
        final var bearer = tokens.apply(nodeId);
        if (!bearer.isEmpty()) {
            builder.header("Authorization", "Bearer " + bearer);
        }
        return client.sendAsync(builder.build(), HttpResponse.BodyHandlers.ofString())
            .handle((response, failure) -> failure != null ? unreachable(host, port, failure)
                : interpret(response, bearer));
    }

    private static Result interpret(final HttpResponse<String> response, final String bearer) {
        return switch (response.statusCode()) {
            case 200 -> parse(response.body());
            case 401, 403 -> new Result.Refused(bearer.isEmpty()
                ? "no agent token configured (agent-token-file or agent-token-dir in etc/io.rst.rft.cfg)"
                : "agent refused the token (HTTP " + response.statusCode() + ")");
            default -> new Result.Unreachable("agent answered HTTP " + response.statusCode());
        };
    }

    private static Result parse(final String body) {
        try {
            final JsonNode status = JSON.readTree(body);
            if (status == null || !status.isObject()) {
                return new Result.Unreachable("agent status is not a JSON object");
            }
            return new Result.Answered(status.path("capturing").asBoolean(false),
                status.path("version").asText(""), status.path("last_seq").asLong(0));
        } catch (IOException e) {
            return new Result.Unreachable("agent status is not JSON: " + e.getMessage());
        }
    }

    private static Result unreachable(final String host, final int port, final Throwable failure) {
        var cause = failure;
        while (cause instanceof CompletionException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        final var message = cause.getMessage();
        final var what = cause instanceof java.net.ConnectException ? "nothing answers"
            : cause instanceof java.net.http.HttpTimeoutException ? "no answer in time"
            : cause.getClass().getSimpleName();
        return new Result.Unreachable(what + " at " + host + ":" + port + (message == null ? "" : " (" + message + ")"));
    }
}
