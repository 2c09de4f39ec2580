/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.agent;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent's HTTP API (JDK {@code com.sun.net.httpserver}); see the package documentation for
 * the contract. Every answer is JSON (or NDJSON for the event stream); a bad request gets a 4xx
 * with {@code {"error":"..."}}, and no exception reaches the client or stops the server.
 */
final class AgentApi implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(AgentApi.class);
    /** Requests never need a body; anything above this is refused. */
    private static final int MAX_BODY = 4096;
    private static final int MAX_STREAMS = 8;
    private static final int THREADS = MAX_STREAMS + 8;
    private static final long HEARTBEAT_MILLIS = 10_000;
    private static final long MAX_WAIT_SECONDS = 86_400;

    private final Agent agent;
    private final ObjectMapper mapper;
    private final byte[] expectedAuth;
    private final HttpServer server;
    private final ExecutorService executor;
    private final Semaphore streams = new Semaphore(MAX_STREAMS);
    private volatile boolean closing;

    AgentApi(final Agent agent, final InetSocketAddress listen, final String token, final ObjectMapper mapper)
            throws IOException {
        this.agent = agent;
        this.mapper = mapper;
        expectedAuth = ("Bearer " + token).getBytes(StandardCharsets.UTF_8);
        if (listen.isUnresolved()) {
            throw new IOException("cannot resolve listen address " + listen.getHostString());
        }
        server = HttpServer.create(listen, 64);
        final AtomicInteger n = new AtomicInteger();
        executor = Executors.newFixedThreadPool(THREADS, r -> {
            final Thread t = new Thread(r, "api-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        server.start();
    }

    InetSocketAddress address() {
        return server.getAddress();
    }

    @Override
    public void close() {
        closing = true;
        server.stop(0);
        executor.shutdownNow();
        try {
            executor.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Thrown to answer a request with an error; carries the HTTP status. */
    private static final class ApiError extends Exception {
        private static final long serialVersionUID = 1L;
        private final int status;

        ApiError(final int status, final String message) {
            super(message, null, false, false);
            this.status = status;
        }
    }

    private void handle(final HttpExchange ex) {
        try {
            route(ex);
        } catch (ApiError e) {
            trySend(ex, e.status, error(e.getMessage()));
        } catch (IOException e) {
            // the client went away or the state directory failed; say so if we still can
            LOG.debug("request {} {} failed: {}", ex.getRequestMethod(), ex.getRequestURI(), e.getMessage());
            trySend(ex, 503, error("unavailable: " + e.getMessage()));
        } catch (RuntimeException e) {
            LOG.error("request {} {} failed", ex.getRequestMethod(), ex.getRequestURI(), e);
            trySend(ex, 500, error("internal error"));
        } finally {
            ex.close();
        }
    }

    private void route(final HttpExchange ex) throws ApiError, IOException {
        readBody(ex);
        final String path = ex.getRequestURI().getRawPath();
        final String method = ex.getRequestMethod();
        if ("/v1/health".equals(path)) {
            requireMethod(ex, "GET");
            send(ex, 200, mapper.createObjectNode().put("status", "ok"));
            return;
        }
        authorize(ex);
        final Map<String, String> query = query(ex.getRequestURI().getRawQuery());
        switch (path) {
            case "/v1/status" -> {
                requireMethod(ex, "GET");
                send(ex, 200, agent.status());
            }
            case "/v1/start", "/v1/stop" -> {
                requireMethod(ex, "POST");
                agent.setCapturing("/v1/start".equals(path));
                send(ex, 200, agent.status());
            }
            case "/v1/sessions" -> {
                requireMethod(ex, "GET");
                sessions(ex);
            }
            case "/v1/events" -> {
                requireMethod(ex, "GET");
                events(ex, query);
            }
            default -> throw new ApiError(404, "no such resource: " + truncate(path) + " (method " + truncate(method)
                + ")");
        }
    }

    private static void requireMethod(final HttpExchange ex, final String allowed) throws ApiError {
        if (!allowed.equals(ex.getRequestMethod())) {
            ex.getResponseHeaders().set("Allow", allowed);
            throw new ApiError(405, "method " + truncate(ex.getRequestMethod()) + " not allowed here; use " + allowed);
        }
    }

    private void authorize(final HttpExchange ex) throws ApiError {
        final List<String> values = ex.getRequestHeaders().get("Authorization");
        if (values == null || values.size() != 1) {
            ex.getResponseHeaders().set("WWW-Authenticate", "Bearer");
            throw new ApiError(401, "missing bearer token");
        }
        if (!MessageDigest.isEqual(values.get(0).strip().getBytes(StandardCharsets.UTF_8), expectedAuth)) {
            ex.getResponseHeaders().set("WWW-Authenticate", "Bearer error=\"invalid_token\"");
            throw new ApiError(401, "invalid bearer token");
        }
    }

    private static void readBody(final HttpExchange ex) throws ApiError, IOException {
        final String cl = ex.getRequestHeaders().getFirst("Content-Length");
        if (cl != null) {
            final long n;
            try {
                n = Long.parseLong(cl.strip());
            } catch (NumberFormatException e) {
                throw new ApiError(400, "bad Content-Length");
            }
            if (n > MAX_BODY) {
                // read a moderate excess away so the client sees the answer rather than a reset
                if (n <= 1 << 20) {
                    ex.getRequestBody().transferTo(OutputStream.nullOutputStream());
                }
                throw new ApiError(413, "request body too large (limit " + MAX_BODY + " bytes)");
            }
        }
        // bodies are not used; read (a bounded amount of) what came so the connection stays sane
        final InputStream in = ex.getRequestBody();
        final byte[] buf = new byte[1024];
        int total = 0;
        for (int r = in.read(buf); r >= 0; r = in.read(buf)) {
            total += r;
            if (total > MAX_BODY) {
                throw new ApiError(413, "request body too large (limit " + MAX_BODY + " bytes)");
            }
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
                throw new ApiError(400, "malformed query");
            }
        }
        return out;
    }

    private static long number(final Map<String, String> q, final String name, final long dflt, final long max)
            throws ApiError {
        final String v = q.get(name);
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
            throw new ApiError(400, "'" + name + "' must be a non-negative integer, got '" + truncate(v) + "'");
        }
    }

    private void sessions(final HttpExchange ex) throws IOException {
        ex.getResponseHeaders().set("Content-Type", "application/json");
        ex.sendResponseHeaders(200, 0);
        try (OutputStream out = new java.io.BufferedOutputStream(ex.getResponseBody(), 64 * 1024)) {
            agent.writeSnapshot(out);
        }
    }

    private void events(final HttpExchange ex, final Map<String, String> q) throws ApiError, IOException {
        final long after = number(q, "after", 0, Long.MAX_VALUE - 1);
        final long waitSeconds = number(q, "wait", -1, MAX_WAIT_SECONDS);
        final String clientInstance = q.get("instance");
        if (!streams.tryAcquire()) {
            throw new ApiError(503, "too many event streams (limit " + MAX_STREAMS + ")");
        }
        try {
            stream(ex, after, waitSeconds, clientInstance);
        } finally {
            streams.release();
        }
    }

    private void stream(final HttpExchange ex, final long after, final long waitSeconds, final String clientInstance)
            throws IOException {
        final EventLog log = agent.log();
        final long deadline = waitSeconds < 0 ? Long.MAX_VALUE : System.nanoTime() + waitSeconds * 1_000_000_000L;
        ex.getResponseHeaders().set("Content-Type", "application/x-ndjson");
        ex.getResponseHeaders().set("Cache-Control", "no-store");
        ex.sendResponseHeaders(200, 0);
        final OutputStream out = ex.getResponseBody();
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

    private void send(final HttpExchange ex, final int status, final ObjectNode body) throws IOException {
        final byte[] bytes = mapper.writeValueAsBytes(body);
        ex.getResponseHeaders().set("Content-Type", "application/json");
        ex.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }

    private void trySend(final HttpExchange ex, final int status, final ObjectNode body) {
        try {
            send(ex, status, body);
        } catch (IOException | RuntimeException e) {
            // headers were already sent, or the client is gone: nothing more to say
            LOG.debug("could not send error {}: {}", status, e.getMessage());
        }
    }

    private static String truncate(final String s) {
        return s.length() > 80 ? s.substring(0, 80) + "..." : s;
    }
}
