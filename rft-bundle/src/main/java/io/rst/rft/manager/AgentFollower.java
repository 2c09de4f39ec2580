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
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.eclipse.jdt.annotation.Nullable;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.Session;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows one switch agent's session table into the operational datastore: a snapshot
 * ({@code GET /v1/sessions}), then the event stream from the snapshot's sequence number
 * ({@code GET /v1/events?after=SEQ}). A broken connection resumes from the last sequence number
 * applied, so nothing the agent still retains is lost. A session the agent ages out or evicts
 * comes as an event marked {@code "removed":true} and leaves the flow table too. Every
 * {@code resyncInterval} the stream is ended and a fresh snapshot reconciles the table, a safety
 * net for anything missed.
 *
 * <p>The reader runs on its own virtual thread and blocks only on the network; writes are batched
 * and go out from the scheduler every {@link #FLUSH} (or at 1000 sessions), never waiting on a
 * commit.
 */
final class AgentFollower implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(AgentFollower.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    static final Duration FLUSH = Duration.ofMillis(200);
    private static final int FLUSH_AT = 1000;
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(30);

    private final String nodeId;
    private final String host;
    private final int port;
    private final Supplier<String> token;
    private final StatusWriter writer;
    private final HttpClient client;
    private final String scheme;
    private final Duration resyncInterval;
    private final ScheduledFuture<?> flusher;
    private final Thread reader;
    private final AtomicLong appliedSeq = new AtomicLong();
    private final AtomicLong badRecords = new AtomicLong();

    // guarded by this
    private Map<String, Session> pendingUpserts = new LinkedHashMap<>();
    private Set<String> pendingRemovals = new HashSet<>();
    // what the flow table holds (or will, once pending writes go out): session id -> hash of the
    // session written, so that a re-snapshot rewrites only what changed
    private final Map<String, Integer> written = new HashMap<>();

    private volatile boolean closed;
    private volatile @Nullable InputStream open;

    AgentFollower(final String nodeId, final String host, final int port, final Supplier<String> token,
            final StatusWriter writer, final HttpClient client, final ScheduledExecutorService scheduler,
            final Duration resyncInterval) {
        this(nodeId, host, port, token, writer, "http", client, scheduler, resyncInterval);
    }

    /** A follower speaking {@code scheme} ({@code https} or {@code http}) with {@code client}. */
    AgentFollower(final String nodeId, final String host, final int port, final Supplier<String> token,
            final StatusWriter writer, final String scheme, final HttpClient client,
            final ScheduledExecutorService scheduler, final Duration resyncInterval) {
        this.scheme = scheme;
        this.nodeId = nodeId;
        this.host = host;
        this.port = port;
        this.token = token;
        this.writer = writer;
        this.client = client;
        this.resyncInterval = resyncInterval;
        flusher = scheduler.scheduleWithFixedDelay(this::flush, FLUSH.toMillis(), FLUSH.toMillis(),
            TimeUnit.MILLISECONDS);
        reader = Thread.ofVirtual().name("rst-follow-" + nodeId).start(this::run);
    }

    /** The last agent event sequence number applied. */
    long appliedSeq() {
        return appliedSeq.get();
    }

    /** Session records the model refused. */
    long badRecords() {
        return badRecords.get();
    }

    private void run() {
        seedFromDatastore();
        long backoffMillis = 1000;
        while (!closed) {
            try {
                snapshot();
                stream();
                backoffMillis = 1000;
            } catch (IOException | AgentException e) {
                if (closed) {
                    break;
                }
                LOG.debug("RFT {}: following the agent failed, retrying in {} ms: {}", nodeId, backoffMillis,
                    e.getMessage());
                try {
                    Thread.sleep(backoffMillis);
                } catch (InterruptedException ie) {
                    break;
                }
                backoffMillis = Math.min(backoffMillis * 2, MAX_BACKOFF.toMillis());
            } catch (InterruptedException e) {
                break;
            }
        }
    }

    /**
     * Takes what the flow table already holds for this switch as written: after a takeover in a
     * cluster (or a new follower on the same member) the first snapshot then rewrites only the
     * sessions that changed since the previous owner's last commit, and removes those the agent
     * no longer has, instead of leaving them behind.
     */
    private void seedFromDatastore() {
        final Map<String, Session> stored;
        try {
            stored = writer.storedSessions(nodeId);
        } catch (IllegalStateException e) {
            LOG.warn("RFT {}: cannot read the sessions already stored, the first snapshot rewrites all", nodeId, e);
            return;
        }
        synchronized (this) {
            stored.forEach((id, session) -> written.putIfAbsent(id, session.hashCode()));
        }
        if (!stored.isEmpty()) {
            LOG.info("RFT {}: {} sessions already in the flow table, reconciled with the agent's snapshot", nodeId,
                stored.size());
        }
    }

    /** The agent answered something other than what the API promises. */
    private static final class AgentException extends Exception {
        private static final long serialVersionUID = 1L;

        AgentException(final String message) {
            super(message);
        }
    }

    private void snapshot() throws IOException, InterruptedException, AgentException {
        final var response = client.send(request("/v1/sessions", null), HttpResponse.BodyHandlers.ofInputStream());
        try (var body = response.body()) {
            if (response.statusCode() != 200) {
                throw new AgentException("GET /v1/sessions answered HTTP " + response.statusCode());
            }
            applySnapshot(JSON.readTree(body));
        }
    }

    private void applySnapshot(final @Nullable JsonNode snapshot) throws AgentException {
        if (snapshot == null || !snapshot.path("seq").isIntegralNumber() || !snapshot.path("sessions").isArray()) {
            throw new AgentException("session snapshot without seq or sessions");
        }
        final Map<String, Session> sessions = new HashMap<>();
        for (var record : snapshot.get("sessions")) {
            addRecord(record, sessions);
        }
        int rewritten = 0;
        synchronized (this) {
            for (var it = written.keySet().iterator(); it.hasNext();) {
                final var id = it.next();
                if (!sessions.containsKey(id)) {
                    it.remove();
                    pendingRemovals.add(id);
                    pendingUpserts.remove(id);
                }
            }
            for (var entry : sessions.entrySet()) {
                final Integer hash = entry.getValue().hashCode();
                if (!hash.equals(written.put(entry.getKey(), hash))) {
                    pendingUpserts.put(entry.getKey(), entry.getValue());
                    pendingRemovals.remove(entry.getKey());
                    rewritten++;
                }
            }
        }
        LOG.debug("RFT {}: snapshot rewrites {} of {} sessions", nodeId, rewritten, sessions.size());
        appliedSeq.set(snapshot.get("seq").asLong());
        LOG.debug("RFT {}: snapshot of {} sessions at seq {}", nodeId, sessions.size(), appliedSeq.get());
    }

    private void stream() throws IOException, InterruptedException, AgentException {
        final var path = "/v1/events?after=" + appliedSeq.get() + "&wait=" + resyncInterval.toSeconds();
        final var response = client.send(request(path, null), HttpResponse.BodyHandlers.ofInputStream());
        try (var body = response.body();
             var lines = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8))) {
            if (response.statusCode() != 200) {
                throw new AgentException("GET /v1/events answered HTTP " + response.statusCode());
            }
            open = body;
            String line;
            while (!closed && (line = lines.readLine()) != null) {
                if (!line.isBlank()) {
                    onEvent(JSON.readTree(line));
                }
            }
        } finally {
            open = null;
        }
    }

    private void onEvent(final JsonNode event) throws AgentException {
        switch (event.path("type").asText()) {
            case "session" -> {
                final long seq = event.path("seq").asLong(-1);
                if (seq <= appliedSeq.get()) {
                    // already applied (a resumed stream never repeats, but be safe)
                    return;
                }
                final var record = event.get("session");
                if (record != null && record.path("removed").asBoolean(false)
                        && record.path("session_id").isTextual()) {
                    // the agent aged the session out or evicted it: so does the flow table
                    final var id = record.get("session_id").asText();
                    synchronized (this) {
                        pendingUpserts.remove(id);
                        if (written.remove(id) != null) {
                            pendingRemovals.add(id);
                        }
                    }
                    appliedSeq.set(seq);
                    return;
                }
                final Map<String, Session> one = new HashMap<>(2);
                addRecord(record, one);
                synchronized (this) {
                    for (var entry : one.entrySet()) {
                        pendingUpserts.put(entry.getKey(), entry.getValue());
                        pendingRemovals.remove(entry.getKey());
                        written.put(entry.getKey(), entry.getValue().hashCode());
                    }
                    if (pendingUpserts.size() >= FLUSH_AT) {
                        flushLocked();
                    }
                }
                appliedSeq.set(seq);
            }
            case "reset" -> {
                LOG.info("RFT {}: agent reset the stream ({}), resynchronising from its snapshot", nodeId,
                    event.path("reason").asText());
                applySnapshot(event.get("snapshot"));
            }
            default -> {
                // heartbeat, or a type a newer agent sends: ignored by contract
            }
        }
    }

    private void addRecord(final @Nullable JsonNode record, final Map<String, Session> into) {
        try {
            final var session = SessionJson.toSession(record);
            into.put(session.getSessionId(), session);
        } catch (SessionJson.BadRecordException e) {
            badRecords.incrementAndGet();
            LOG.warn("RFT {}: agent sent a session the model cannot take, skipped: {}", nodeId, e.getMessage());
        }
    }

    private synchronized void flush() {
        flushLocked();
    }

    private void flushLocked() {
        if (pendingUpserts.isEmpty() && pendingRemovals.isEmpty()) {
            return;
        }
        final var upserts = pendingUpserts;
        final var removals = pendingRemovals;
        pendingUpserts = new LinkedHashMap<>();
        pendingRemovals = new HashSet<>();
        writer.writeSessions(nodeId, upserts.values(), removals);
    }

    private HttpRequest request(final String path, final @Nullable Duration timeout) throws AgentException {
        final URI uri;
        try {
            uri = new URI(scheme + "://" + (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port + path);
        } catch (URISyntaxException e) {
            throw new AgentException("bad agent address " + host);
        }
        final var builder = HttpRequest.newBuilder(uri).GET();
        if (timeout != null) {
            builder.timeout(timeout);
        }
        final var bearer = token.get();
        if (!bearer.isEmpty()) {
            builder.header("Authorization", "Bearer " + bearer);
        }
        return builder.build();
    }

    /**
     * Stops following. The sessions stay in the datastore; the caller removes them if the switch
     * is turned off or removed.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        flusher.cancel(false);
        final var stream = open;
        if (stream != null) {
            try {
                stream.close();
            } catch (IOException e) {
                LOG.debug("RFT {}: closing the event stream", nodeId, e);
            }
        }
        reader.interrupt();
    }

    /** The session ids this follower wrote, for removal when the switch is turned off. */
    synchronized Set<String> knownSessions() {
        return Set.copyOf(written.keySet());
    }
}
