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
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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
    /** An interface MAC as the agent writes it, lower case. */
    private static final java.util.regex.Pattern MAC = java.util.regex.Pattern.compile("[0-9a-f]{2}(:[0-9a-f]{2}){5}");

    private final AgentLinks links;
    private final Function<String, String> tokens;
    private final Duration timeout;

    /**
     * A probe with no CA file and no client certificate (TLS verified by pinned fingerprints only).
     *
     * @param tokens a switch's node-id to its token ("" for none)
     */
    HttpAgentProbe(final Executor executor, final Function<String, String> tokens, final Duration timeout) {
        this(new AgentLinks(null, null, null, executor, timeout), tokens, timeout);
    }

    /**
     * A probe.
     *
     * @param links how each switch's agent is reached
     * @param tokens a switch's node-id to its token ("" for none)
     */
    HttpAgentProbe(final AgentLinks links, final Function<String, String> tokens, final Duration timeout) {
        this.links = links;
        this.tokens = tokens;
        this.timeout = timeout;
    }

    /** How each switch's agent is reached (shared with the followers). */
    AgentLinks links() {
        return links;
    }

    @Override
    public AgentLinks.Trust trust(final String nodeId) {
        return links.trust(nodeId);
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
        final var link = links.link(nodeId);
        return send(nodeId, link, host, port, path, post).thenCompose(result -> {
            if (isPlainPeer(result)) {
                // a TLS attempt met plain HTTP: an unconfigured transport may use it, with the status saying so
                if (!links.mayFallBack(nodeId)) {
                    return CompletableFuture.completedFuture(new Result.Untrusted(
                        "the agent speaks plain HTTP where TLS is expected (agent-transport tls)"));
                }
                links.plainFallback(nodeId, true);
                return send(nodeId, links.link(nodeId), host, port, path, post).thenApply(plain -> {
                    if (!(plain instanceof Result.Answered)) {
                        links.plainFallback(nodeId, false);
                    }
                    return plain;
                });
            }
            if (!link.encrypted() && links.mayFallBack(nodeId) && !(result instanceof Result.Answered)) {
                // a fallen-back agent that stops answering may have been restarted with TLS: try it again
                links.plainFallback(nodeId, false);
            }
            return CompletableFuture.completedFuture(result);
        });
    }

    private CompletionStage<Result> send(final String nodeId, final AgentLinks.Link link, final String host,
            final int port, final String path, final boolean post) {
        final URI uri;
        try {
            uri = new URI(link.scheme(), null, host, port, path, null, null);
        } catch (URISyntaxException e) {
            return CompletableFuture.completedFuture(new Result.Unreachable("bad agent address: " + host));
        }
        final var builder = HttpRequest.newBuilder(uri).timeout(timeout);
        if (post) {
            builder.POST(HttpRequest.BodyPublishers.noBody());
        } else {
            builder.GET();
        }
        final String bearer;
        try {
            bearer = tokens.apply(nodeId);
        } catch (AgentTokens.ExposedTokenException e) {
            return CompletableFuture.completedFuture(new Result.Refused(e.getMessage()));
        }
        if (!bearer.isEmpty()) {
            builder.header("Authorization", "Bearer " + bearer);
        }
        return link.client().sendAsync(builder.build(), HttpResponse.BodyHandlers.ofString())
            .handle((response, failure) -> failure != null ? failed(nodeId, link, host, port, failure)
                : interpret(response, bearer, link.encrypted()));
    }

    private static final String PLAIN_PEER = " speaks plain HTTP where TLS is expected";

    /** Whether the TLS attempt met a plain HTTP peer. */
    private static boolean isPlainPeer(final Result result) {
        return result instanceof Result.Untrusted u && u.detail().endsWith(PLAIN_PEER);
    }

    private Result failed(final String nodeId, final AgentLinks.Link link, final String host, final int port,
            final Throwable failure) {
        if (link.encrypted()) {
            if (AgentLinks.isPlainPeer(failure)) {
                return new Result.Untrusted("the agent at " + host + ":" + port + PLAIN_PEER);
            }
            final var why = links.trustFailure(nodeId);
            if (why != null && AgentLinks.isTls(failure)) {
                return new Result.Untrusted(why);
            }
            if (AgentLinks.isClientCertificateRefused(failure)) {
                return new Result.Untrusted(links.clientCertificateRefused(host, port));
            }
            if (AgentLinks.isTls(failure)) {
                return new Result.Untrusted("TLS with the agent at " + host + ":" + port + " failed: "
                    + rootMessage(failure));
            }
        }
        return unreachable(host, port, failure);
    }

    private static String rootMessage(final Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        return String.valueOf(root.getMessage());
    }

    private static Result interpret(final HttpResponse<String> response, final String bearer,
            final boolean encrypted) {
        return switch (response.statusCode()) {
            case 200 -> parse(response.body(), encrypted);
            case 401, 403 -> new Result.Refused(bearer.isEmpty()
                ? "no agent token configured (agent-token-file or agent-token-dir in etc/io.rst.rft.cfg)"
                : "agent refused the token (HTTP " + response.statusCode() + ")");
            default -> new Result.Unreachable("agent answered HTTP " + response.statusCode());
        };
    }

    private static Result parse(final String body, final boolean encrypted) {
        try {
            final JsonNode status = JSON.readTree(body);
            if (status == null || !status.isObject()) {
                return new Result.Unreachable("agent status is not a JSON object");
            }
            // counters.kernel_drops and counters.queue_drops: sums over the capture's interfaces
            final var counters = status.path("counters");
            return new Result.Answered(status.path("capturing").asBoolean(false),
                status.path("version").asText(""), status.path("last_seq").asLong(0), encrypted,
                Math.max(0, counters.path("kernel_drops").asLong(0)),
                Math.max(0, counters.path("queue_drops").asLong(0)), dataCounters(counters), congestion(status),
                lldp(status));
        } catch (IOException e) {
            return new Result.Unreachable("agent status is not JSON: " + e.getMessage());
        }
    }

    /**
     * The data-sampling counters of an agent's status, or null when it reports none of them (an
     * agent that does not learn from data). A counter that is absent, negative or not a whole
     * number is -1: unknown.
     */
    static AgentProbe.@org.eclipse.jdt.annotation.Nullable DataCounters dataCounters(final JsonNode counters) {
        final String[] names = {"data_flows", "data_sessions", "data_one_way", "data_flows_evicted",
            "data_pair_ambiguous", "data_bth_rejected"};
        final long[] values = new long[names.length];
        boolean any = false;
        for (int i = 0; i < names.length; i++) {
            final var value = counters.path(names[i]);
            values[i] = value.isIntegralNumber() && value.canConvertToLong() && value.asLong() >= 0 ? value.asLong()
                : -1;
            any |= values[i] >= 0;
        }
        return any ? new AgentProbe.DataCounters(values[0], values[1], values[2], values[3], values[4], values[5])
            : null;
    }

    /**
     * The CNP and PFC figures of an agent's status, or null when it reports none of them (an agent
     * that does not count them, or one started with {@code --no-congestion}). A counter that is
     * absent, negative or not a whole number is -1: unknown. A {@code pfc} entry without an
     * interface name or a priority from 0 to 7, or whose interface and priority came before, is
     * skipped and counted, and so is any beyond {@link AgentProbe#MAX_PFC}; a figure of an entry
     * that is not one is -1 (null for {@code paused} and {@code last}).
     */
    static AgentProbe.@org.eclipse.jdt.annotation.Nullable Congestion congestion(final JsonNode status) {
        final var counters = status.path("counters");
        final long cnps = count(counters.path("cnps"));
        final long unmatched = count(counters.path("cnp_unmatched"));
        final long frames = count(counters.path("pfc_frames"));
        final long untabled = count(counters.path("pfc_untabled"));
        final var list = status.path("pfc");
        if (cnps < 0 && unmatched < 0 && frames < 0 && untabled < 0 && !list.isArray()) {
            return null;
        }
        final List<AgentProbe.Pfc> pfc = new ArrayList<>();
        final Set<String> seen = new HashSet<>();
        int skipped = 0;
        for (var entry : list.isArray() ? list : List.<JsonNode>of()) {
            final var iface = entry.path("interface");
            final var priority = entry.path("priority");
            if (pfc.size() == AgentProbe.MAX_PFC || !iface.isTextual() || iface.asText().isEmpty()
                    || !priority.isIntegralNumber() || !priority.canConvertToInt() || priority.asInt() < 0
                    || priority.asInt() > 7 || !seen.add(priority.asInt() + " " + iface.asText())) {
                skipped++;
                continue;
            }
            final var paused = entry.path("paused");
            final var last = entry.path("last");
            pfc.add(new AgentProbe.Pfc(iface.asText(), priority.asInt(), count(entry.path("frames")),
                count(entry.path("xon")), count(entry.path("quanta")), count(entry.path("paused_us")),
                paused.isBoolean() ? paused.asBoolean() : null, last.isTextual() ? last.asText() : null,
                count(entry.path("link_speed_mbps"))));
        }
        if (!list.isMissingNode() && !list.isNull() && !list.isArray()) {
            // a list that is not one: nothing of it taken, and said so
            skipped++;
        }
        return new AgentProbe.Congestion(cnps, unmatched, frames, untabled, pfc, skipped);
    }

    /**
     * The agent's name, capture interfaces (with their MACs) and LLDP neighbours of its status, or
     * null when it reports no {@code lldp} list (an older agent, or one started with
     * {@code --no-lldp}) and no interface MAC. A neighbour without an interface, a chassis ID or a
     * port ID (text, not empty), or whose (interface, chassis ID, port ID) came before, is skipped
     * and counted, and so is any beyond {@link AgentProbe#MAX_LLDP}; of a neighbour's other
     * fields, what is not what it should be is left out (a management address that is no IP
     * literal, a capability that is no text, a TTL that is no whole number).
     */
    static AgentProbe.@org.eclipse.jdt.annotation.Nullable Lldp lldp(final JsonNode status) {
        final var list = status.path("lldp");
        final Map<String, Optional<String>> interfaces = new LinkedHashMap<>();
        boolean anyMac = false;
        for (var entry : status.path("interfaces").isArray() ? status.path("interfaces") : List.<JsonNode>of()) {
            final var name = entry.path("name");
            if (!name.isTextual() || name.asText().isEmpty() || interfaces.size() == AgentProbe.MAX_INTERFACES) {
                continue;
            }
            final var mac = entry.path("mac");
            final String text = mac.isTextual() ? mac.asText().toLowerCase(Locale.ROOT) : null;
            final boolean valid = text != null && MAC.matcher(text).matches();
            anyMac |= valid;
            interfaces.putIfAbsent(name.asText(), Optional.ofNullable(valid ? text : null));
        }
        if ((list.isMissingNode() || list.isNull()) && !anyMac) {
            return null;
        }
        final List<AgentProbe.Neighbour> neighbours = new ArrayList<>();
        final Set<List<String>> seen = new HashSet<>();
        int skipped = 0;
        for (var entry : list.isArray() ? list : List.<JsonNode>of()) {
            final String iface = text(entry.path("interface"));
            final String chassis = text(entry.path("chassis_id"));
            final String port = text(entry.path("port_id"));
            if (neighbours.size() == AgentProbe.MAX_LLDP || iface == null || chassis == null || port == null
                    || !seen.add(List.of(iface, chassis, port))) {
                skipped++;
                continue;
            }
            final List<String> addresses = new ArrayList<>();
            for (var a : entry.path("management_addresses")) {
                if (a.isTextual() && com.google.common.net.InetAddresses.isInetAddress(a.asText())) {
                    addresses.add(a.asText());
                }
            }
            final var ttl = entry.path("ttl");
            final var lastSeen = entry.path("last_seen");
            neighbours.add(new AgentProbe.Neighbour(iface, chassis, text(entry.path("chassis_id_subtype")), port,
                text(entry.path("port_id_subtype")), optionalText(entry.path("port_description")),
                optionalText(entry.path("system_name")), addresses, names(entry.path("capabilities")),
                names(entry.path("enabled_capabilities")),
                ttl.isIntegralNumber() && ttl.asLong() >= 0 && ttl.asLong() <= 0xffff ? ttl.asInt() : -1,
                count(entry.path("age_seconds")), lastSeen.isTextual() && isInstant(lastSeen.asText())
                    ? lastSeen.asText() : null));
        }
        if (!list.isMissingNode() && !list.isNull() && !list.isArray()) {
            skipped++;
        }
        final String agentId = text(status.path("agent_id"));
        return new AgentProbe.Lldp(agentId, interfaces, neighbours, skipped);
    }

    /** A text value that is not empty, or null. */
    private static @org.eclipse.jdt.annotation.Nullable String text(final JsonNode value) {
        return value.isTextual() && !value.asText().isEmpty() ? value.asText() : null;
    }

    /** A text value (empty allowed), or null. */
    private static @org.eclipse.jdt.annotation.Nullable String optionalText(final JsonNode value) {
        return value.isTextual() ? value.asText() : null;
    }

    /** The texts of a list of names (others left out), empty for what is no list. */
    private static List<String> names(final JsonNode list) {
        final List<String> out = new ArrayList<>();
        for (var n : list.isArray() ? list : List.<JsonNode>of()) {
            if (n.isTextual() && !n.asText().isEmpty() && out.size() < 16) {
                out.add(n.asText());
            }
        }
        return out;
    }

    private static boolean isInstant(final String text) {
        try {
            java.time.Instant.parse(text);
            return true;
        } catch (java.time.format.DateTimeParseException e) {
            return false;
        }
    }

    /** A counter of the agent's: a whole number from 0, or -1 for anything else. */
    private static long count(final JsonNode value) {
        return value.isIntegralNumber() && value.canConvertToLong() && value.asLong() >= 0 ? value.asLong() : -1;
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
        return new Result.Unreachable(what + " at " + host + ":" + port
            + (message == null ? "" : " (" + message + ")"));
    }
}
