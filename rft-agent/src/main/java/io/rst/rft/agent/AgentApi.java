/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.agent;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rst.rft.agent.ApiServer.Request;
import io.rst.rft.agent.ApiServer.Response;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent's HTTP API (on {@link ApiServer}, which bounds connections and request time); see the
 * package documentation for the contract. Every answer is JSON (or NDJSON for the event stream); a bad request gets
 * a 4xx with {@code {"error":"..."}}, and no exception reaches the client or stops the server.
 */
final class AgentApi implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(AgentApi.class);
    private static final int MAX_STREAMS = 8;
    private static final int THREADS = MAX_STREAMS + 8;
    private static final long HEARTBEAT_MILLIS = 10_000;
    private static final long MAX_WAIT_SECONDS = 86_400;

    /** Failed authentications are logged at most once per this interval (with the count since). */
    private static final long AUTH_LOG_NANOS = 10_000_000_000L;

    private final Agent agent;
    private final ObjectMapper mapper;
    private final byte[] expectedAuth;
    private final ApiServer server;
    private final String transport;
    private final Semaphore streams = new Semaphore(MAX_STREAMS);
    private final AtomicLong authFailures = new AtomicLong();
    /** Guarded by this: the bounded-rate log of failed authentications. */
    private long authLoggedAt = System.nanoTime() - AUTH_LOG_NANOS;
    private long authLoggedCount;
    private volatile boolean closing;

    /**
     * Serves the API on {@code socket}, already bound (plain, or an {@code SSLServerSocket}).
     *
     * @param transport what the status reports ({@code tls}, {@code mtls}, {@code plain-http})
     */
    AgentApi(final Agent agent, final ServerSocket socket, final String transport, final String token,
            final ObjectMapper mapper) {
        this.agent = agent;
        this.mapper = mapper;
        this.transport = transport;
        expectedAuth = ("Bearer " + token).getBytes(StandardCharsets.UTF_8);
        server = new ApiServer(socket, this::handle, ApiServer.Limits.defaults(THREADS));
    }

    /** A plain server socket bound to {@code listen}. */
    static ServerSocket bindPlain(final InetSocketAddress listen) throws IOException {
        if (listen.isUnresolved()) {
            throw new IOException("cannot resolve listen address " + listen.getHostString());
        }
        final ServerSocket s = new ServerSocket();
        s.setReuseAddress(true);
        s.bind(listen, 256);
        return s;
    }

    InetSocketAddress address() {
        return server.address();
    }

    /** The API's own counters for the status: transport, connections, failed authentications. */
    void addStatus(final ObjectNode status) {
        status.put("transport", transport);
        final ObjectNode api = status.putObject("api");
        api.put("transport", transport);
        api.put("connections", server.connections());
        api.put("dropped_connections", server.droppedConnections());
        api.put("timed_out_connections", server.timedOutConnections());
        api.put("tls_failures", server.tlsFailures());
        api.put("auth_failures", authFailures.get());
    }

    @Override
    public void close() {
        closing = true;
        server.close();
    }

    /** Thrown to answer a request with an error; carries the HTTP status. */
    private static final class ApiError extends Exception {
        private static final long serialVersionUID = 1L;
        private final int status;

        ApiError(final int status, final String message) {
            this(status, message, null);
        }

        ApiError(final int status, final String message, final Throwable cause) {
            super(message, cause, false, false);
            this.status = status;
        }
    }

    @SuppressWarnings("checkstyle:IllegalCatch") // the last resort for a request: nothing reaches the server
    private void handle(final Request req, final Response ex) throws IOException {
        try {
            route(req, ex);
        } catch (ApiError e) {
            trySend(ex, e.status, error(e.getMessage()));
        } catch (IOException e) {
            // the client went away or the state directory failed; say so if we still can
            LOG.debug("request {} {} failed: {}", truncate(req.method()), truncate(req.rawPath()), e.getMessage());
            trySend(ex, 503, error("unavailable: " + e.getMessage()));
            throw e;
        } catch (RuntimeException e) {
            LOG.error("request {} {} failed", truncate(req.method()), truncate(req.rawPath()), e);
            trySend(ex, 500, error("internal error"));
        }
    }

    private void route(final Request req, final Response ex) throws ApiError, IOException {
        final String path = req.rawPath();
        final String method = req.method();
        if ("/v1/health".equals(path)) {
            requireMethod(req, ex, "GET");
            send(ex, 200, mapper.createObjectNode().put("status", "ok"));
            return;
        }
        authorize(req, ex);
        final Map<String, String> query = query(req.rawQuery());
        switch (path) {
            case "/v1/status" -> {
                requireMethod(req, ex, "GET");
                send(ex, 200, agent.status());
            }
            case "/v1/start", "/v1/stop" -> {
                requireMethod(req, ex, "POST");
                agent.setCapturing("/v1/start".equals(path));
                send(ex, 200, agent.status());
            }
            case "/v1/sessions" -> {
                requireMethod(req, ex, "GET");
                sessions(ex);
            }
            case "/v1/events" -> {
                requireMethod(req, ex, "GET");
                events(ex, query);
            }
            default -> throw new ApiError(404, "no such resource: " + truncate(path) + " (method " + truncate(method)
                + ")");
        }
    }

    private static void requireMethod(final Request req, final Response ex, final String allowed) throws ApiError {
        if (!allowed.equals(req.method())) {
            ex.header("Allow", allowed);
            throw new ApiError(405, "method " + truncate(req.method()) + " not allowed here; use " + allowed);
        }
    }

    private void authorize(final Request req, final Response ex) throws ApiError {
        final List<String> values = req.header("Authorization");
        if (values.size() != 1) {
            authFailed(req, "missing bearer token");
            ex.header("WWW-Authenticate", "Bearer");
            throw new ApiError(401, "missing bearer token");
        }
        if (!MessageDigest.isEqual(values.get(0).strip().getBytes(StandardCharsets.UTF_8), expectedAuth)) {
            authFailed(req, "invalid bearer token");
            ex.header("WWW-Authenticate", "Bearer error=\"invalid_token\"");
            throw new ApiError(401, "invalid bearer token");
        }
    }

    /** Counts a failed authentication and logs it at a bounded rate (a flood must not flood the log). */
    private void authFailed(final Request req, final String why) {
        final long total = authFailures.incrementAndGet();
        final long now = System.nanoTime();
        synchronized (this) {
            if (now - authLoggedAt < AUTH_LOG_NANOS) {
                return;
            }
            LOG.warn("API: {} from {} ({} failed authentications since the last such line, {} in all)", why,
                req.peer(), total - authLoggedCount, total);
            authLoggedAt = now;
            authLoggedCount = total;
        }
    }

    private static Map<String, String> query(final String raw) throws ApiError {
        final Map<String, String> out = new HashMap<>();
        if (raw == null || raw.isEmpty()) {
            return out;
        }
        if (raw.length() > 2048) {
            throw new ApiError(414, "query too long");
        }
        for (String part : raw.split("&")) {
            if (part.isEmpty()) {
                continue;
            }
            final int eq = part.indexOf('=');
            try {
                final String k = URLDecoder.decode(eq < 0 ? part : part.substring(0, eq), StandardCharsets.UTF_8);
                final String v = eq < 0 ? "" : URLDecoder.decode(part.substring(eq + 1), StandardCharsets.UTF_8);
                if (out.put(k, v) != null) {
                    throw new ApiError(400, "parameter '" + truncate(k) + "' given twice");
                }
            } catch (IllegalArgumentException e) {
                throw new ApiError(400, "malformed query", e);
            }
        }
        return out;
    }

    private static long number(final Map<String, String> params, final String name, final long dflt, final long max)
            throws ApiError {
        final String v = params.get(name);
        if (v == null) {
            return dflt;
        }
        try {
            final long n = Long.parseLong(v);
            if (n < 0 || n > max) {
                throw new ApiError(400, "'" + name + "' out of range: " + truncate(v));
            }
            return n;
        } catch (NumberFormatException e) {
            throw new ApiError(400, "'" + name + "' must be a non-negative integer, got '" + truncate(v) + "'", e);
        }
    }

    private void sessions(final Response ex) throws IOException {
        try (OutputStream out = new java.io.BufferedOutputStream(ex.stream(200, "application/json"), 64 * 1024)) {
            agent.writeSnapshot(out);
        }
    }

    private void events(final Response ex, final Map<String, String> params) throws ApiError, IOException {
        final long after = number(params, "after", 0, Long.MAX_VALUE - 1);
        final long waitSeconds = number(params, "wait", -1, MAX_WAIT_SECONDS);
        final String clientInstance = params.get("instance");
        if (!streams.tryAcquire()) {
            throw new ApiError(503, "too many event streams (limit " + MAX_STREAMS + ")");
        }
        try {
            stream(ex, after, waitSeconds, clientInstance);
        } finally {
            streams.release();
        }
    }

    private void stream(final Response ex, final long after, final long waitSeconds, final String clientInstance)
            throws IOException {
        final EventLog log = agent.log();
        final long deadline = waitSeconds < 0 ? Long.MAX_VALUE : System.nanoTime() + waitSeconds * 1_000_000_000L;
        ex.header("Cache-Control", "no-store");
        final OutputStream out = ex.stream(200, "application/x-ndjson");
        long cursor = after;
        String reason = null;
        if (clientInstance != null && !clientInstance.isEmpty() && !clientInstance.equals(agent.instance())) {
            reason = "instance " + truncate(clientInstance) + " is not this agent's event log (" + agent.instance()
                + ")";
        } else if (after > log.lastSeq()) {
            reason = "seq " + after + " is ahead of this agent's log (last " + log.lastSeq()
                + "): the log was lost or belongs to another agent";
        } else if (after + 1 < log.firstRetainedSeq()) {
            reason = "events " + (after + 1) + ".." + (log.firstRetainedSeq() - 1) + " are no longer retained";
        }
        if (reason != null) {
            cursor = reset(out, reason);
        }
        long lastWrite = System.nanoTime();
        while (!closing) {
            final List<EventLog.Event> batch = log.after(cursor, 1024);
            if (!batch.isEmpty()) {
                if (batch.get(0).seq() != cursor + 1) {
                    // this client fell behind the log's retention while streaming
                    cursor = reset(out, "events " + (cursor + 1) + ".." + (batch.get(0).seq() - 1)
                        + " were dropped from the log before this client read them");
                    continue;
                }
                for (EventLog.Event e : batch) {
                    out.write(e.line());
                }
                out.flush();
                cursor = batch.get(batch.size() - 1).seq();
                lastWrite = System.nanoTime();
                continue;
            }
            final long now = System.nanoTime();
            if (now - deadline >= 0) {
                break;
            }
            final long untilDeadline = (deadline - now) / 1_000_000L;
            final long untilHeartbeat = HEARTBEAT_MILLIS - (now - lastWrite) / 1_000_000L;
            if (untilHeartbeat <= 0) {
                // tells the client the agent is alive, and us whether the client still is
                out.write(("{\"type\":\"heartbeat\",\"seq\":" + cursor + "}\n").getBytes(StandardCharsets.US_ASCII));
                out.flush();
                lastWrite = now;
                continue;
            }
            try {
                log.awaitAfter(cursor, Math.max(1, Math.min(untilDeadline, untilHeartbeat)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        out.close();
    }

    private long reset(final OutputStream out, final String reason) throws IOException {
        final byte[] head = mapper.writeValueAsBytes(mapper.createObjectNode().put("type", "reset")
            .put("reason", reason).put("instance", agent.instance())
            .put("first_retained_seq", agent.log().firstRetainedSeq()));
        // the head object without its closing brace, then the snapshot streamed page by page
        out.write(head, 0, head.length - 1);
        out.write(",\"snapshot\":".getBytes(StandardCharsets.US_ASCII));
        final long seq = agent.writeSnapshot(out);
        out.write('}');
        out.write('\n');
        out.flush();
        return seq;
    }

    private ObjectNode error(final String message) {
        return mapper.createObjectNode().put("error", message);
    }

    private void send(final Response ex, final int status, final ObjectNode body) throws IOException {
        ex.send(status, "application/json", mapper.writeValueAsBytes(body));
    }

    private void trySend(final Response ex, final int status, final ObjectNode body) {
        if (ex.committed()) {
            return; // the answer started: the connection is closed instead
        }
        try {
            send(ex, status, body);
        } catch (IOException e) {
            // headers were already sent, or the client is gone: nothing more to say
            LOG.debug("could not send error {}: {}", status, e.getMessage());
        }
    }

    private static String truncate(final String text) {
        return text.length() > 80 ? text.substring(0, 80) + "..." : text;
    }
}
