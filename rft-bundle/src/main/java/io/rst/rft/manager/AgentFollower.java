/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.manager;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.google.common.util.concurrent.FutureCallback;
import com.google.common.util.concurrent.Futures;
import edu.umd.cs.findbugs.annotations.SuppressFBWarnings;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.eclipse.jdt.annotation.Nullable;
import org.opendaylight.mdsal.common.api.CommitInfo;
import org.opendaylight.yangtools.concepts.Registration;
import org.opendaylight.yangtools.yang.data.api.schema.MapEntryNode;
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
 * <p>The reader runs on its own virtual thread; writes are batched and go out at each of the
 * writer's ticks ({@link StatusWriter#TICK}, in one transaction with the other switches' batches of
 * the tick) or at 1000 sessions, with at most {@link #MAX_IN_FLIGHT} batches
 * committing at once: while they do, the next batch grows, and once {@link #MAX_PENDING} writes
 * wait the reader stops reading the agent's stream until a commit completes (the backlog then
 * waits in the agent's event log, not in the controller's heap). A commit that fails wrote
 * nothing: its sessions (and removals) go back into the next batch unless a newer state of the
 * same session is already on its way, and the failure is counted ({@link #failedCommits()}), so
 * that nothing is taken as written that was not.
 */
@SuppressFBWarnings(value = { "NP_NONNULL_FIELD_NOT_INITIALIZED_IN_CONSTRUCTOR", "NP_STORE_INTO_NONNULL_FIELD" },
    justification = "SpotBugs reads no TYPE_USE @Nullable on fields: these fields are @Nullable")
final class AgentFollower implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(AgentFollower.class);
    private static final JsonFactory JSON = new JsonFactory();
    /** An event's fields in the order the agent writes them (EventLog). */
    private static final NameOrder EVENT = new NameOrder("seq", "time", "type", "session");
    private static final int FLUSH_AT = 1000;
    /**
     * Batches of one follower committing at once at most: one commits while the next gathers.
     * A datastore slower than the agents then makes the batches larger (each commit has a cost of
     * its own) rather than its queue longer: queued commits hold their sessions twice (the nodes
     * and the serialised payload) for as long as they wait, which the collector then has to copy.
     */
    static final int MAX_IN_FLIGHT = 2;
    /**
     * Session writes and removals waiting for a batch at most, before the reader stops reading the
     * agent's stream until a commit makes room: what the controller has not taken yet stays in the
     * agent's event log (and on its disk), not in the controller's heap.
     */
    static final int MAX_PENDING = 4 * FLUSH_AT;
    // short: a restarted agent (a crash, an upgrade) is back within seconds, and every second of
    // back-off is a second the flow table lags behind it; a connection attempt costs little
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(4);
    /**
     * How long a session the agent stopped reporting (it lost state) stays unconfirmed before it
     * leaves: the agents' default retention of finished sessions.
     */
    static final Duration UNCONFIRMED_FOR = Duration.ofHours(1);

    private final String nodeId;
    private final String host;
    private final int port;
    private final Supplier<String> token;
    private final StatusWriter writer;
    private final HttpClient client;
    private final String scheme;
    private final Duration resyncInterval;
    /** The switch's port map: interface name to tp-id. */
    private final Map<String, String> ports;
    /** This switch's records into nodes (its port names shared); the reader thread's alone. */
    private final SessionStream records;
    private final Registration flusher;
    private final ScheduledExecutorService scheduler;
    private final Thread reader;
    private final AtomicLong appliedSeq = new AtomicLong();
    private final AtomicLong badRecords = new AtomicLong();
    private final AtomicLong unknownLearnedFrom = new AtomicLong();
    /** Pairs this switch's one-way flows with the other switches' (see {@link DataPairing}). */
    private final DataPairing pairing;
    private final Registration pairingRegistration;
    private final AtomicLong failedCommits = new AtomicLong();
    private final AtomicLong rewrittenAfterFailure = new AtomicLong();

    // guarded by this
    private Map<String, MapEntryNode> pendingUpserts = new LinkedHashMap<>();
    private Set<String> pendingRemovals = new HashSet<>();
    // what the flow table holds (or will, once pending writes go out): session id -> the session
    // written (the datastore's own object: the reference costs no more than a hash would), so that
    // a re-snapshot rewrites only what changed and a mark is put on the whole session
    private final Map<String, MapEntryNode> written = new HashMap<>();
    // sessions (and removals) in a batch whose commit has not completed: id -> that batch, so that
    // a failed batch is written again only where no newer batch carries the same session
    private final Map<String, Long> inFlight = new HashMap<>();
    private long batches;
    private int batchesInFlight;
    private volatile int pendingLimit = MAX_PENDING;
    private final AtomicLong heldBackNanos = new AtomicLong();
    // sessions the agent no longer reports though nothing ended them (it lost state): id -> since
    // (millis); they stay in the flow table, marked, until reported again or UNCONFIRMED_FOR passes
    private final Map<String, Long> unconfirmed = new HashMap<>();
    private Map<String, String> pendingMarks = new HashMap<>();
    private volatile String lostState = "";
    // the agent as its last snapshot named it: its event log (instance) and its process (boot)
    private String agentInstance = "";
    private String agentBoot = "";
    private long nextSweepMillis;

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
        this(nodeId, host, port, token, writer, scheme, client, scheduler, resyncInterval, Map.of());
    }

    /**
     * A follower whose sessions name ports by {@code ports} (interface name to tp-id) where the
     * switch's interfaces are not named as its termination points; its one-way flows paired by a
     * pairing of its own (this switch's flows alone).
     */
    AgentFollower(final String nodeId, final String host, final int port, final Supplier<String> token,
            final StatusWriter writer, final String scheme, final HttpClient client,
            final ScheduledExecutorService scheduler, final Duration resyncInterval, final Map<String, String> ports) {
        this(nodeId, host, port, token, writer, scheme, client, scheduler, resyncInterval, ports, new DataPairing());
    }

    /**
     * A follower whose one-way flows {@code pairing} pairs with the other switches' (the member's
     * followers share one).
     */
    @SuppressWarnings("checkstyle:ParameterNumber")
    AgentFollower(final String nodeId, final String host, final int port, final Supplier<String> token,
            final StatusWriter writer, final String scheme, final HttpClient client,
            final ScheduledExecutorService scheduler, final Duration resyncInterval, final Map<String, String> ports,
            final DataPairing pairing) {
        this.pairing = pairing;
        this.pairingRegistration = pairing.register(nodeId, this::repair, this::replayCm);
        this.ports = Map.copyOf(ports);
        this.records = new SessionStream(this.ports);
        this.scheme = scheme;
        this.nodeId = nodeId;
        this.host = host;
        this.port = port;
        this.token = token;
        this.writer = writer;
        this.client = client;
        this.resyncInterval = resyncInterval;
        this.scheduler = scheduler;
        flusher = writer.onTick(this::flush);
        reader = Thread.ofVirtual().name("rst-follow-" + nodeId).start(this::run);
    }

    /** The last agent event sequence number applied. */
    long appliedSeq() {
        return appliedSeq.get();
    }

    /** Session records refused: the model could not take them, or their learned_from is unknown. */
    long badRecords() {
        return badRecords.get();
    }

    /** Of {@link #badRecords()}, those whose learned_from this controller does not know. */
    long unknownLearnedFrom() {
        return unknownLearnedFrom.get();
    }

    /**
     * Writes {@code ids} again where their pairing ({@code paired-session}, {@code pair-ambiguous})
     * changed: the pairing found the other direction of one of this switch's one-way flows, or
     * lost it.
     */
    private synchronized void repair(final Set<String> ids) {
        for (var id : ids) {
            final var node = written.get(id);
            if (node == null || unconfirmed.containsKey(id)) {
                continue;
            }
            final var now = SessionNodes.withPairing(node, pairing.outcome(id));
            if (now != node) {
                written.put(id, now);
                pendingUpserts.put(id, now);
                pendingRemovals.remove(id);
            }
        }
    }

    /**
     * {@code node} with the pairing its data-learned record has now (a one-way flow's pair, or the
     * CM session it joined); itself for a CM session.
     */
    private MapEntryNode paired(final String id, final MapEntryNode node, final boolean learnedData) {
        return learnedData ? SessionNodes.withPairing(node, pairing.outcome(id)) : node;
    }

    /** Tells the pairing what a record said. */
    private void observe(final SessionStream.Parsed parsed) {
        if (parsed.removed()) {
            pairing.forget(nodeId, parsed.id());
        } else if (parsed.data() != null) {
            pairing.observe(nodeId, parsed.id(), parsed.data());
        } else if (pairing.tracksCm()) {
            final var ends = SessionNodes.cmEnds(parsed.node());
            if (ends != null) {
                pairing.observeCm(nodeId, parsed.id(), ends);
            }
        }
    }

    /** Tells the pairing the ends of the CM sessions this switch's table holds (tracking began). */
    private synchronized void replayCm() {
        written.forEach((id, node) -> {
            final var ends = SessionNodes.cmEnds(node);
            if (ends != null) {
                pairing.observeCm(nodeId, id, ends);
            }
        });
    }

    /** Commits of this follower's batches that failed (their sessions were written again). */
    long failedCommits() {
        return failedCommits.get();
    }

    /** Sessions kept unconfirmed: the agent lost state and no longer reports them. */
    synchronized int unconfirmed() {
        return unconfirmed.size();
    }

    /** When the agent last lost state and what that touched, in words; empty if it never did. */
    String lostState() {
        return lostState;
    }

    /** Session writes and removals waiting for a batch (not yet committing). */
    synchronized int pending() {
        return pendingUpserts.size() + pendingRemovals.size();
    }

    /** Batches of this follower committing now. */
    synchronized int batchesInFlight() {
        return batchesInFlight;
    }

    /**
     * How long the reader has waited, in total, for the datastore to take its pending writes
     * before reading on: the time the agent's stream was held back by the controller.
     */
    Duration heldBack() {
        return Duration.ofNanos(heldBackNanos.get());
    }

    /** Whether the agent's event stream is open (the snapshot was taken). */
    boolean streaming() {
        return open != null;
    }

    /** Sets the pending bound ({@link #MAX_PENDING} by default): for tests. */
    void pendingLimit(final int limit) {
        pendingLimit = limit;
    }

    /** Session writes and removals put back into a batch after their commit failed. */
    long rewrittenAfterFailure() {
        return rewrittenAfterFailure.get();
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
        final Map<String, MapEntryNode> stored;
        try {
            stored = writer.storedSessions(nodeId);
        } catch (IllegalStateException e) {
            LOG.warn("RFT {}: cannot read the sessions already stored, the first snapshot rewrites all", nodeId, e);
            return;
        }
        synchronized (this) {
            stored.forEach(written::putIfAbsent);
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

        AgentException(final String message, final Throwable cause) {
            super(message, cause);
        }
    }

    private void snapshot() throws IOException, InterruptedException, AgentException {
        final var response = client.send(request("/v1/sessions", null), HttpResponse.BodyHandlers.ofInputStream());
        try (var body = response.body()) {
            if (response.statusCode() != 200) {
                throw new AgentException("GET /v1/sessions answered HTTP " + response.statusCode());
            }
            try (JsonParser parser = JSON.createParser(body)) {
                applySnapshot(parser.nextToken() == JsonToken.START_OBJECT ? readSnapshot(parser) : null);
            }
        }
    }

    /**
     * A session table as the agent's snapshot gives it ({@code GET /v1/sessions}, or a reset's
     * {@code snapshot}); {@code seq} is {@code null} where the snapshot had none.
     */
    private record Snapshot(@Nullable Long seq, String instance, String boot, long restoredSeq,
            @Nullable Map<String, MapEntryNode> sessions) {
    }

    /** Reads a snapshot object, the parser at its {@code START_OBJECT}, to its {@code END_OBJECT}. */
    private Snapshot readSnapshot(final JsonParser parser) throws IOException {
        Long seq = null;
        String instance = "";
        String boot = "";
        long restoredSeq = -1;
        Map<String, MapEntryNode> sessions = null;
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            final String name = parser.currentName();
            final JsonToken value = parser.nextToken();
            switch (name) {
                case "seq" -> seq = value == JsonToken.VALUE_NUMBER_INT ? parser.getLongValue() : null;
                case "instance" -> instance = value.isScalarValue() && value != JsonToken.VALUE_NULL
                    ? parser.getText() : "";
                case "boot" -> boot = value.isScalarValue() && value != JsonToken.VALUE_NULL ? parser.getText() : "";
                case "restored_seq" -> restoredSeq = value.isNumeric() ? parser.getValueAsLong(-1) : -1;
                case "sessions" -> {
                    if (value == JsonToken.START_ARRAY) {
                        sessions = new HashMap<>();
                        JsonToken next;
                        while ((next = parser.nextToken()) != JsonToken.END_ARRAY) {
                            if (next == null) {
                                throw new IOException("snapshot ended inside its sessions");
                            }
                            addRecord(parser, sessions);
                        }
                    } else {
                        parser.skipChildren();
                    }
                }
                default -> parser.skipChildren();
            }
        }
        return new Snapshot(seq, instance, boot, restoredSeq, sessions);
    }

    private void applySnapshot(final @Nullable Snapshot snapshot) throws AgentException {
        if (snapshot == null || snapshot.seq() == null || snapshot.sessions() == null) {
            throw new AgentException("session snapshot without seq or sessions");
        }
        final Map<String, MapEntryNode> sessions = snapshot.sessions();
        final long snapshotSeq = snapshot.seq();
        // did the agent lose state since this follower applied events? Its log is another (lost
        // state directory), or went back, or its process restarted having restored less than
        // what was applied (a kill -9 loses the last flush interval)
        final long applied = appliedSeq.get();
        final String instance = snapshot.instance();
        final String boot = snapshot.boot();
        final long restoredSeq = snapshot.restoredSeq();
        final boolean agentLost = applied > 0 && (snapshotSeq < applied
            || !agentInstance.isEmpty() && !instance.isEmpty() && !instance.equals(agentInstance)
            || !agentBoot.isEmpty() && !boot.isEmpty() && !boot.equals(agentBoot) && restoredSeq >= 0
                && restoredSeq < applied);
        agentInstance = instance;
        agentBoot = boot;
        int rewritten = 0;
        int lost = 0;
        final long now = System.currentTimeMillis();
        final String since = Instant.ofEpochMilli(now).truncatedTo(ChronoUnit.SECONDS).toString();
        synchronized (this) {
            for (var it = written.keySet().iterator(); it.hasNext();) {
                final var id = it.next();
                if (sessions.containsKey(id) || unconfirmed.containsKey(id)) {
                    continue;
                }
                if (agentLost) {
                    // the agent lost it without ending it: the flow table keeps it, marked,
                    // rather than forget what the fabric did
                    unconfirmed.put(id, now);
                    pendingMarks.put(id, "not reported by the agent since " + since
                        + ": the agent lost its state (restart without its saved table, or its log rewound)");
                    lost++;
                } else {
                    // the agent ended it (aged out, evicted) while the stream was broken, or a
                    // previous owner left it behind: it goes
                    it.remove();
                    pendingRemovals.add(id);
                    pendingUpserts.remove(id);
                    pairing.forget(nodeId, id);
                }
            }
            for (var entry : sessions.entrySet()) {
                final var node = paired(entry.getKey(), entry.getValue(),
                    SessionNodes.learnedData(entry.getValue()));
                entry.setValue(node);
                final boolean wasUnconfirmed = unconfirmed.remove(entry.getKey()) != null;
                pendingMarks.remove(entry.getKey());
                if (!node.equals(written.put(entry.getKey(), node)) || wasUnconfirmed) {
                    pendingUpserts.put(entry.getKey(), entry.getValue());
                    pendingRemovals.remove(entry.getKey());
                    rewritten++;
                }
            }
        }
        if (lost > 0) {
            lostState = "the agent lost state at " + since + ": " + lost + " sessions it no longer reports are kept"
                + " unconfirmed";
            LOG.warn("RFT {}: {}", nodeId, lostState);
        }
        LOG.debug("RFT {}: snapshot rewrites {} of {} sessions", nodeId, rewritten, sessions.size());
        appliedSeq.set(snapshotSeq);
        LOG.debug("RFT {}: snapshot of {} sessions at seq {}", nodeId, sessions.size(), appliedSeq.get());
    }

    private void stream() throws IOException, InterruptedException, AgentException {
        final var path = "/v1/events?after=" + appliedSeq.get() + "&wait=" + resyncInterval.toSeconds();
        final var response = client.send(request(path, null), HttpResponse.BodyHandlers.ofInputStream());
        try (var body = response.body()) {
            if (response.statusCode() != 200) {
                throw new AgentException("GET /v1/events answered HTTP " + response.statusCode());
            }
            open = body;
            // NDJSON read as a stream of JSON values straight from the bytes, each session record
            // straight into its node: the stream carries every session change of a switch
            try (JsonParser parser = JSON.createParser(body)) {
                JsonToken next;
                while (!closed && (next = parser.nextToken()) != null) {
                    if (next == JsonToken.START_OBJECT) {
                        onEvent(parser);
                    } else {
                        // not an event: a heartbeat of another shape, or garbage; skipped whole
                        parser.skipChildren();
                    }
                }
            }
        } finally {
            open = null;
        }
    }

    /** Reads one event, the parser at its {@code START_OBJECT}, and applies it. */
    private void onEvent(final JsonParser parser) throws IOException, AgentException, InterruptedException {
        String type = "";
        long seq = -1;
        SessionStream.Parsed session = null;
        boolean hasRecord = false;
        String reason = "";
        Snapshot snapshot = null;
        int field = NameOrder.END;
        while ((field = EVENT.next(parser, field)) != NameOrder.END) {
            final String name = EVENT.name(parser, field);
            final JsonToken value = parser.nextToken();
            switch (name) {
                case "type" -> type = value.isScalarValue() && value != JsonToken.VALUE_NULL ? parser.getText() : "";
                case "seq" -> seq = value.isNumeric() ? parser.getValueAsLong(-1) : -1;
                case "session" -> {
                    hasRecord = true;
                    session = readRecord(parser);
                }
                case "reason" -> reason = value.isScalarValue() ? parser.getText() : "";
                case "snapshot" -> {
                    if (value == JsonToken.START_OBJECT) {
                        snapshot = readSnapshot(parser);
                    } else {
                        parser.skipChildren();
                    }
                }
                default -> parser.skipChildren();
            }
        }
        switch (type) {
            case "session" -> {
                if (seq <= appliedSeq.get()) {
                    // already applied (a resumed stream never repeats, but be safe)
                    return;
                }
                if (!hasRecord) {
                    badRecords.incrementAndGet();
                    LOG.warn("RFT {}: agent sent a session event without its session, skipped", nodeId);
                } else if (session != null && session.removed()) {
                    // the agent aged the session out or evicted it: so does the flow table
                    final var id = session.id();
                    synchronized (this) {
                        pendingUpserts.remove(id);
                        unconfirmed.remove(id);
                        pendingMarks.remove(id);
                        if (written.remove(id) != null) {
                            pendingRemovals.add(id);
                        }
                        // again: a replay of the CM sessions may have read it between the two
                        pairing.forget(nodeId, id);
                    }
                } else if (session != null) {
                    final var id = session.id();
                    synchronized (this) {
                        final var node = paired(id, session.node(), session.data() != null);
                        pendingUpserts.put(id, node);
                        pendingRemovals.remove(id);
                        // reported again: confirmed (the put replaces the marked session)
                        unconfirmed.remove(id);
                        pendingMarks.remove(id);
                        written.put(id, node);
                        if (pendingUpserts.size() >= FLUSH_AT) {
                            flushLocked();
                        }
                    }
                }
                appliedSeq.set(seq);
                awaitRoom();
            }
            case "reset" -> {
                LOG.info("RFT {}: agent reset the stream ({}), resynchronising from its snapshot", nodeId, reason);
                applySnapshot(snapshot);
            }
            default -> {
                // heartbeat, or a type a newer agent sends: ignored by contract
            }
        }
    }

    /**
     * Waits while as many writes are pending as the bound allows (the batches in flight are slow
     * to commit): the agent's stream is not read meanwhile, so it waits in the agent's log.
     */
    private void awaitRoom() throws InterruptedException {
        if (pending() < pendingLimit) {
            return;
        }
        final long start = System.nanoTime();
        while (!closed && pending() >= pendingLimit) {
            // a virtual thread: sleeping unmounts it (a monitor's wait would pin its carrier)
            Thread.sleep(1);
        }
        heldBackNanos.addAndGet(System.nanoTime() - start);
    }

    /** A session record (at {@code value}), or {@code null} if refused (counted, logged). */
    private SessionStream.@Nullable Parsed readRecord(final JsonParser parser) throws IOException {
        try {
            final var parsed = records.read(parser);
            observe(parsed);
            return parsed;
        } catch (SessionStream.UnknownLearnedFromException e) {
            badRecords.incrementAndGet();
            unknownLearnedFrom.incrementAndGet();
            LOG.warn("RFT {}: agent sent a session this controller cannot tell the origin of, skipped: {}", nodeId,
                e.getMessage());
            return null;
        } catch (SessionStream.BadRecordException e) {
            badRecords.incrementAndGet();
            LOG.warn("RFT {}: agent sent a session the model cannot take, skipped: {}", nodeId, e.getMessage());
            return null;
        }
    }

    private void addRecord(final JsonParser parser, final Map<String, MapEntryNode> into) throws IOException {
        final var parsed = readRecord(parser);
        if (parsed != null && !parsed.removed()) {
            into.put(parsed.id(), parsed.node());
        }
    }

    private synchronized void flush() {
        flushLocked();
    }

    private synchronized void flushLocked() {
        final long now = System.currentTimeMillis();
        if (now >= nextSweepMillis && !unconfirmed.isEmpty()) {
            // unconfirmed sessions leave after the retention the agents keep finished sessions for
            nextSweepMillis = now + 1000;
            for (var it = unconfirmed.entrySet().iterator(); it.hasNext();) {
                final var e = it.next();
                if (now - e.getValue() >= UNCONFIRMED_FOR.toMillis()) {
                    it.remove();
                    pendingMarks.remove(e.getKey());
                    written.remove(e.getKey());
                    pendingRemovals.add(e.getKey());
                    pairing.forget(nodeId, e.getKey());
                }
            }
        }
        if (!pendingMarks.isEmpty()) {
            final var marks = pendingMarks;
            pendingMarks = new HashMap<>();
            // each marked session whole, as last written (see SessionNodes.withUnconfirmed)
            final Map<String, MapEntryNode> marked = new HashMap<>();
            marks.forEach((id, why) -> {
                final var session = written.get(id);
                if (session != null) {
                    marked.put(id, SessionNodes.withUnconfirmed(session, why));
                }
            });
            Futures.addCallback(writer.markUnconfirmed(nodeId, marked), new FutureCallback<CommitInfo>() {
                @Override
                public void onSuccess(final CommitInfo result) {
                    // marked
                }

                @Override
                public void onFailure(final Throwable cause) {
                    remark(marks);
                }
            }, this::runCallback);
        }
        if (pendingUpserts.isEmpty() && pendingRemovals.isEmpty() || batchesInFlight >= MAX_IN_FLIGHT) {
            // a full pipeline: what is pending goes out, larger, when a commit completes
            return;
        }
        batchesInFlight++;
        final var upserts = pendingUpserts;
        final var removals = pendingRemovals;
        pendingUpserts = new LinkedHashMap<>();
        pendingRemovals = new HashSet<>();
        final long batch = ++batches;
        for (var id : upserts.keySet()) {
            inFlight.put(id, batch);
        }
        for (var id : removals) {
            inFlight.put(id, batch);
        }
        final var commit = writer.writeSessions(nodeId, upserts, removals);
        // not the committing thread: it may hold the writer while this follower's reader waits for it
        Futures.addCallback(commit, new FutureCallback<CommitInfo>() {
            @Override
            public void onSuccess(final CommitInfo result) {
                committed(batch, upserts, removals);
            }

            @Override
            public void onFailure(final Throwable cause) {
                failed(batch, upserts, removals);
            }
        }, this::runCallback);
    }

    private void runCallback(final Runnable callback) {
        try {
            scheduler.execute(callback);
        } catch (RejectedExecutionException e) {
            // shutting down: nothing left to write to
            LOG.debug("RFT {}: commit outcome after shutdown", nodeId);
        }
    }

    private synchronized void committed(final long batch, final Map<String, MapEntryNode> upserts,
            final Set<String> removals) {
        batchesInFlight--;
        for (var id : upserts.keySet()) {
            inFlight.remove(id, batch);
        }
        for (var id : removals) {
            inFlight.remove(id, batch);
        }
        if (pendingUpserts.size() + pendingRemovals.size() >= FLUSH_AT) {
            // gathered while the pipeline was full: out now rather than at the next tick
            flushLocked();
        }
    }

    /** Marks whose commit failed go out again, where the session is still unconfirmed. */
    private synchronized void remark(final Map<String, String> marks) {
        failedCommits.incrementAndGet();
        for (var mark : marks.entrySet()) {
            if (unconfirmed.containsKey(mark.getKey())) {
                pendingMarks.putIfAbsent(mark.getKey(), mark.getValue());
            }
        }
    }

    private synchronized void failed(final long batch, final Map<String, MapEntryNode> upserts,
            final Set<String> removals) {
        batchesInFlight--;
        failedCommits.incrementAndGet();
        int again = 0;
        for (var entry : upserts.entrySet()) {
            final var id = entry.getKey();
            // only if no later batch (in flight or pending) carries this session, nor removed it
            if (inFlight.remove(id, batch) && !pendingUpserts.containsKey(id) && !pendingRemovals.contains(id)
                    && written.containsKey(id)) {
                pendingUpserts.put(id, entry.getValue());
                again++;
            }
        }
        for (var id : removals) {
            if (inFlight.remove(id, batch) && !pendingUpserts.containsKey(id) && !written.containsKey(id)) {
                pendingRemovals.add(id);
                again++;
            }
        }
        rewrittenAfterFailure.addAndGet(again);
        if (!closed) {
            LOG.warn("RFT {}: a commit of {} sessions and {} removals failed; {} go out again", nodeId,
                upserts.size(), removals.size(), again);
        }
    }

    private HttpRequest request(final String path, final @Nullable Duration timeout) throws AgentException {
        final URI uri;
        try {
            uri = new URI(scheme + "://" + (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port + path);
        } catch (URISyntaxException e) {
            throw new AgentException("bad agent address " + host, e);
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
        flusher.close();
        pairingRegistration.close();
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
