/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.agent;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import edu.umd.cs.findbugs.annotations.SuppressFBWarnings;
import io.rst.rft.capture.CaptureGroup;
import io.rst.rft.capture.CaptureSource;
import io.rst.rft.capture.FrameRing;
import io.rst.rft.capture.PcapFileSource;
import io.rst.rft.capture.PcapLiveSource;
import io.rst.rft.decode.JsonBytes;
import io.rst.rft.session.SessionBinary;
import io.rst.rft.wire.TlsFiles;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.eclipse.jdt.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The switch agent: wiring and lifecycle of capture, the decode thread, the event log and its
 * store, and the API. Threads: one per capture source (frames into its ring, never waiting), one
 * decode thread (owns the {@link FrameProcessor}, into which the sessions saved in the state
 * directory are put back at start, and appends events), one persister (the event log's new events
 * into the write-ahead log every {@code --flush-ms}, and checkpoints of the table; the decode
 * thread never waits for it: the in-memory log is its bounded queue, and what it could not write
 * before the log forgot it is counted), and the API's threads (read the log, and ask the decode
 * thread for snapshots).
 */
@SuppressFBWarnings(value = "NP_NONNULL_FIELD_NOT_INITIALIZED_IN_CONSTRUCTOR",
    justification = "SpotBugs reads no TYPE_USE @Nullable on fields: these fields are @Nullable")
public final class Agent implements AutoCloseable {
    public static final String VERSION = "0.1.0-SNAPSHOT";
    private static final Logger LOG = LoggerFactory.getLogger(Agent.class);
    /**
     * Bytes kept of each frame: a CM MAD frame is at most 358 (two VLAN tags, IPv6, BTH, DETH,
     * MAD, ICRC); of data packets (--all-roce) only the headers are decoded.
     */
    /** The capture's snap length: the bytes kept of each frame. */
    static final int SNAP_BYTES = 512;


    private final AgentOptions options;
    private final ObjectMapper mapper;
    private final long startNanos = System.nanoTime();
    private final StateDir state;
    private final EventStore store;
    private final EventLog log;
    private final CaptureGroup capture;
    private final FrameProcessor processor;
    private final DecodeLoop decode;
    private final ScheduledExecutorService persister;
    /** Scratch for records that come as objects (slow path); decode thread only. */
    private final JsonBytes recordJson = new JsonBytes(1024);
    private final String token;
    private final String instance;
    /** This process among the agent's lives: a client tells a restart by it. */
    private final String boot = java.util.UUID.randomUUID().toString();
    private volatile @Nullable AgentApi api;
    /** The API certificate's SHA-256 fingerprint (openssl's form) and where it came from; null for plain HTTP. */
    private volatile @Nullable String tlsFingerprint;
    private volatile @Nullable String tlsCertificate;
    /** What the start found in the state directory. */
    private final EventStore.LoadReport restored;
    private final long restoredSessions;
    /** Guarded by this. */
    private long persistedSeq;
    private boolean closed;
    private final java.util.concurrent.atomic.AtomicLong walLostEvents = new java.util.concurrent.atomic.AtomicLong();
    private final java.util.concurrent.atomic.AtomicLong writeErrors = new java.util.concurrent.atomic.AtomicLong();
    private volatile @Nullable String lastWriteError;
    /** How often the persister appends new events to the WAL (fsync: every --flush-ms). */
    static final long APPEND_MS = 20;
    private volatile long lastFlushNanos = System.nanoTime();

    /**
     * Builds the agent and restores its state; nothing runs until {@link #start()}.
     *
     * @param processorFactory makes the frame processor, given where to report session changes
     */
    public Agent(final AgentOptions options,
            final Function<FrameProcessor.SessionEvents, FrameProcessor> processorFactory) throws IOException {
        this.options = options;
        mapper = new ObjectMapper();
        mapper.getFactory().disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
        state = new StateDir(options.stateDir(), mapper);
        if (options.tokenFile() != null && Files.exists(options.tokenFile())) {
            TlsFiles.requirePrivate(options.tokenFile(), "token file");
        }
        token = state.token(options.tokenFile());
        store = new EventStore(options.stateDir(), mapper);
        log = new EventLog(options.retainEvents(), options.retainBytes());
        String inst = state.instance();
        if (inst == null) {
            store.clear();
            inst = state.newInstance();
            LOG.info("new event log, instance {}", inst);
        }
        instance = inst;
        processor = processorFactory.apply(new FrameProcessor.SessionEvents() {
            @Override
            public void onSession(final Object record, final long timeMicros) {
                onSessionRecord(record, timeMicros);
            }

            @Override
            public void onSessionJson(final JsonBytes session, final long timeMicros) {
                log.appendSession(timeMicros, session);
            }

            @Override
            public void onSessionJson(final JsonBytes session, final SessionBinary wal, final long timeMicros) {
                log.appendSession(timeMicros, session, wal);
            }
        });
        if (options.flushMs() > 0) {
            // the write-ahead log keeps each event as the session's binary record, a tenth of its line
            processor.recordBinary();
        }
        restored = restore();
        restoredSessions = processor.sessionHandles().length;
        capture = new CaptureGroup(sources());
        // a replay ages its sessions on the file's clock
        decode = new DecodeLoop(capture, processor, options.eventHoldMs(), !options.replays().isEmpty());
        persister = Executors.newSingleThreadScheduledExecutor(r -> {
            final Thread t = new Thread(r, "persister");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Puts the checkpointed table back into the processor (so that a session seen again
     * continues), then replays the write-ahead log's newer events over it (full states, a
     * {@code removed} one takes its session out); the log's events are retained again for clients
     * that resume, and the numbering continues after the newest seq read.
     */
    private EventStore.LoadReport restore() {
        final long t0 = System.nanoTime();
        final long[] refused = new long[1];
        final EventStore.LoadReport r = store.load(instance, new EventStore.Loaded() {
            @Override
            public void session(final JsonNode record) {
                if (!processor.restore(record)) {
                    refused[0]++;
                }
            }

            private final JsonBytes scratch = new JsonBytes(1024);

            @Override
            public boolean binaryEvent(final long seq, final long timeMicros, final byte[] record,
                    final boolean afterCheckpoint) {
                if (!processor.restoreBinary(record, EventLog.WAL_HEADER, record.length - EventLog.WAL_HEADER,
                        afterCheckpoint, scratch)) {
                    return false;
                }
                log.restoreSession(seq, timeMicros, scratch);
                return true;
            }

            @Override
            public void event(final EventLog.Event event, final JsonNode session, final boolean afterCheckpoint) {
                log.restore(event);
                if (afterCheckpoint && !processor.restore(session) && !session.path("removed").asBoolean(false)) {
                    refused[0]++;
                }
            }
        });
        log.skipTo(r.lastSeq());
        synchronized (this) {
            persistedSeq = log.lastSeq();
        }
        if (log.lastSeq() > 0) {
            LOG.info("restored instance {} in {} ms: {}; {} records refused; events {}..{} retained", instance,
                (System.nanoTime() - t0) / 1_000_000L, EventStore.describe(r), refused[0], log.firstRetainedSeq(),
                log.lastSeq());
        }
        return r;
    }

    private List<CaptureSource> sources() throws IOException {
        final int perSource;
        final List<CaptureSource> out = new ArrayList<>();
        if (!options.replays().isEmpty()) {
            for (var e : options.replays().entrySet()) {
                out.add(new PcapFileSource(e.getKey(), e.getValue().toString(),
                    new FrameRing(Math.max(1024, options.queueFrames() / options.replays().size()), SNAP_BYTES)));
            }
            return out;
        }
        List<String> names = options.interfaces();
        if (names.isEmpty()) {
            names = CaptureGroup.upInterfaces();
            if (names.isEmpty()) {
                throw new IOException("no interface is up, and none was given with --interface");
            }
        }
        perSource = Math.max(1024, options.queueFrames() / names.size());
        for (String n : names) {
            out.add(new PcapLiveSource(n, options.filter(), new FrameRing(perSource, SNAP_BYTES),
                options.bufferBytes(), 50));
        }
        return out;
    }

    /** Starts the decode thread, the persister and the API, and capture if the switch is on. */
    public synchronized void start() throws IOException {
        // the API's certificate first: a state directory whose own certificate cannot be used starts nothing
        java.nio.file.Path certFile = null;
        java.nio.file.Path keyFile = null;
        if (!options.plainHttp()) {
            final AgentOptions.Tls tls = options.tls();
            if (tls == null) {
                // no certificate given: the agent's own, made in the state directory at the first start
                final SelfMadeTls.Material own = SelfMadeTls.loadOrMake(options.stateDir(), AgentOptions.hostName(),
                    options.listen());
                if (own.made()) {
                    LOG.info("made a TLS key {} and a self-signed certificate {}", own.key(), own.cert());
                }
                certFile = own.cert();
                keyFile = own.key();
            } else {
                certFile = tls.certChain();
                keyFile = tls.key();
            }
            tlsFingerprint = SelfMadeTls.opensslFingerprint(TlsFiles.certificates(certFile).get(0));
            tlsCertificate = tls == null ? "self-made" : "file";
        }
        if (options.flushMs() > 0) {
            // never append after what may be a torn tail: each start writes a file of its own
            store.startWal(log.lastSeq() + 1);
        }
        decode.start();
        if (options.flushMs() > 0) {
            // events are appended every APPEND_MS at most, fsynced every --flush-ms: the in-memory
            // log (65,536 events by default) is the writer's queue, and a storm of 400,000 events
            // a second would outrun it within one --flush-ms of 200 ms, each time forcing a checkpoint
            final long every = Math.min(options.flushMs(), APPEND_MS);
            persister.scheduleWithFixedDelay(this::persist, every, every, TimeUnit.MILLISECONDS);
            if (!restored.clean() && restored.walEvents() > 0) {
                // after a crash: a checkpoint at once, so that the next start need not replay this WAL again
                persister.execute(this::checkpointNow);
            }
        }
        if (options.plainHttp()) {
            LOG.warn("serving plain HTTP (--plain-http): the token and the sessions cross the network in clear");
            api = new AgentApi(this, AgentApi.bindPlain(options.listen()), "plain-http", token, mapper);
        } else {
            final AgentOptions.Tls tls = options.tls();
            api = new AgentApi(this, TlsFiles.bindTls(options.listen(), certFile, keyFile,
                tls == null ? null : tls.clientCa()), tls == null || tls.clientCa() == null ? "tls" : "mtls", token,
                mapper);
            LOG.info("TLS certificate SHA-256 fingerprint {} ({}{})", tlsFingerprint, tls == null ? "self-made, " : "",
                certFile);
        }
        if (state.capturing()) {
            capture.start();
        } else {
            LOG.info("capture is off (switched off by the operator; POST /v1/start turns it on)");
        }
        LOG.info("agent {} listening on {}, capturing on {}", options.agentId(), api.address(),
            capture.sources().stream().map(CaptureSource::name).toList());
    }

    /**
     * The SHA-256 fingerprint of the certificate the API serves, as {@code openssl x509 -noout
     * -fingerprint -sha256} prints it, or null when it serves plain HTTP.
     */
    public @Nullable String tlsFingerprint() {
        return tlsFingerprint;
    }

    /** Where the API listens. */
    public InetSocketAddress address() {
        return api.address();
    }

    /** The event log (API threads read it). */
    EventLog log() {
        return log;
    }

    String instance() {
        return instance;
    }

    /** The newest event in the write-ahead log (fsynced). */
    synchronized long persistedSeq() {
        return persistedSeq;
    }

    /** Turns capture on or off, and keeps the choice across restarts. */
    synchronized void setCapturing(final boolean on) throws IOException {
        if (closed) {
            throw new IOException("agent is shutting down");
        }
        state.setCapturing(on);
        if (on) {
            capture.start();
        } else {
            capture.stop();
        }
        LOG.info("capture switched {}", on ? "on" : "off");
    }

    // on the decode thread: a processor's record that needs Jackson
    private void onSessionRecord(final Object record, final long timeMicros) {
        try {
            recordJson.reset();
            recordJson.raw(mapper.writeValueAsBytes(record));
        } catch (JsonProcessingException e) {
            LOG.error("cannot serialise session record {}", record, e);
            return;
        }
        log.appendSession(timeMicros, recordJson);
    }

    /** Sessions written per request to the decode thread while streaming a snapshot. */
    private static final int SNAPSHOT_PAGE = 1000;

    private record SnapshotStart(long seq, Object[] handles) {
    }

    /**
     * Writes {@code {"seq":N,"instance":ID,"boot":B,"restored_seq":R,"sessions":[...]}} to
     * {@code out} (B names this process, R is the last event it restored when it started: a
     * client that applied events beyond R from another process knows they may be lost), a page of
     * sessions at a time, each page serialised on the decode thread, so that neither a large table's
     * JSON is ever whole in memory nor the decode thread held for long. {@code N} is the last event before the first
     * page: a session may be written in a state newer than {@code N}, and the events after
     * {@code N} (full states, in order) bring a client that applies them to the same end.
     *
     * @return N
     */
    long writeSnapshot(final OutputStream out) throws IOException {
        final SnapshotStart start = onDecodeThread(() -> new SnapshotStart(log.lastSeq(), processor.sessionHandles()));
        out.write(("{\"seq\":" + start.seq() + ",\"instance\":\"" + instance + "\",\"boot\":\"" + boot
            + "\",\"restored_seq\":" + restored.lastSeq() + ",\"sessions\":[").getBytes(StandardCharsets.US_ASCII));
        final Object[] handles = start.handles();
        final java.io.ByteArrayOutputStream page = new java.io.ByteArrayOutputStream(64 * 1024);
        boolean first = true;
        for (int from = 0; from < handles.length; from += SNAPSHOT_PAGE) {
            final int f = from;
            final int t = Math.min(from + SNAPSHOT_PAGE, handles.length);
            page.reset();
            final int written = onDecodeThread(() -> {
                try {
                    return processor.sessionsJson(handles, f, t, mapper, page);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            if (written > 0) {
                if (!first) {
                    out.write(',');
                }
                page.writeTo(out);
                first = false;
            }
        }
        out.write(']');
        out.write('}');
        return start.seq();
    }

    /** The status document of {@code GET /v1/status}. */
    ObjectNode status() throws IOException {
        final ObjectNode[] parts = onDecodeThread(() -> {
            final ObjectNode c = mapper.createObjectNode();
            processor.addCounters(c);
            final ObjectNode own = mapper.createObjectNode();
            processor.addStatus(own);
            return new ObjectNode[] {c, own};
        });
        final ObjectNode counters = parts[0];
        final ObjectNode s = mapper.createObjectNode();
        s.put("version", VERSION);
        s.put("agent_id", options.agentId());
        s.put("instance", instance);
        s.put("uptime_s", (System.nanoTime() - startNanos) / 1_000_000_000L);
        s.put("capturing", state.capturing());
        s.put("mode", options.replays().isEmpty() ? "live" : "replay");
        s.put("filter", options.filter());
        final ArrayNode ifs = s.putArray("interfaces");
        long queueDrops = 0;
        long kernelDrops = 0;
        boolean running = false;
        for (CaptureSource src : capture.sources()) {
            final ObjectNode i = ifs.addObject();
            i.put("name", src.name());
            i.put("mac", src.mac());
            if (src instanceof PcapLiveSource live) {
                i.put("up", CaptureGroup.isUp(src.name()));
                if (live.reader() != null) {
                    i.put("reader", live.reader());
                }
            }
            i.put("running", src.isRunning());
            i.put("packets", src.packets());
            i.put("kernel_drops", src.kernelDrops());
            i.put("if_drops", src.interfaceDrops());
            i.put("queue_drops", src.ring().drops());
            i.put("truncated", src.ring().truncated());
            if (src.error() != null) {
                i.put("error", src.error());
            }
            if (src instanceof PcapFileSource f) {
                i.put("finished", f.finished());
            }
            queueDrops += src.ring().drops();
            kernelDrops += src.kernelDrops();
            running |= src.isRunning();
        }
        s.put("capture_running", running);
        final ObjectNode c = s.putObject("counters");
        c.put("frames", decode.frames());
        c.setAll(counters);
        c.put("queue_drops", queueDrops);
        c.put("kernel_drops", kernelDrops);
        c.put("queue_backlog", capture.backlog());
        c.put("decode_failures", decode.failures());
        c.put("events", log.lastSeq());
        s.setAll(parts[1]);
        s.put("last_seq", log.lastSeq());
        s.put("first_retained_seq", log.firstRetainedSeq());
        final ObjectNode r = s.putObject("restored");
        r.put("restored_sessions", restoredSessions);
        r.put("restored_from", restored.checkpointSeq());
        r.put("checkpoint_sessions", restored.checkpointSessions());
        r.put("wal_events", restored.walEvents());
        r.put("last_seq", restored.lastSeq());
        r.put("clean", restored.clean());
        if (!restored.clean() && restored.lastTimeMicros() > 0) {
            r.put("possibly_lost_after", java.time.Instant.EPOCH.plus(restored.lastTimeMicros(),
                java.time.temporal.ChronoUnit.MICROS).toString());
        }
        if (restored.checkpointProblem() != null) {
            r.put("checkpoint_problem", restored.checkpointProblem());
        }
        final ArrayNode problems = r.putArray("wal_problems");
        restored.problems().forEach(problems::add);
        r.put("wal_skipped_bytes", restored.skippedBytes());
        final ObjectNode d = s.putObject("durability");
        d.put("flush_ms", options.flushMs());
        d.put("wal_bytes", store.walBytesOnDisk());
        d.put("checkpoints", store.checkpoints());
        d.put("unwritten_events", walLostEvents.get());
        d.put("write_errors", writeErrors.get());
        if (lastWriteError != null) {
            d.put("last_write_error", lastWriteError);
        }
        if (options.flushMs() > 0) {
            d.put("last_flush_age_ms", (System.nanoTime() - lastFlushNanos) / 1_000_000L);
        }
        final AgentApi a = api;
        if (a != null) {
            a.addStatus(s);
        }
        final String fingerprint = tlsFingerprint;
        if (fingerprint != null) {
            s.put("tls_fingerprint", fingerprint);
            s.put("tls_certificate", tlsCertificate);
        }
        return s;
    }

    private <T> T onDecodeThread(final java.util.function.Supplier<T> task) throws IOException {
        try {
            return decode.call(task).get(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IOException("decode thread did not answer: " + e, e);
        }
    }

    // on the persister thread; the final call is from close() after the persister has stopped
    // A scheduled task that throws is never run again: any failure is counted and logged instead.
    @SuppressWarnings("checkstyle:IllegalCatch")
    private synchronized void persist() {
        try {
            // events the log forgot before they were written: only a checkpoint makes the table durable again
            final boolean sync = System.nanoTime() - lastFlushNanos >= options.flushMs() * 1_000_000L;
            if (flushWal(sync) || checkpointDue(options.walBytes(), store.walBytesSinceCheckpoint(),
                    store.walEventsSinceCheckpoint(), store.checkpointBytes(), store.checkpointSessions(),
                    processor.liveSessions())) {
                checkpoint(false);
            }
        } catch (IOException | RuntimeException e) {
            writeErrors.incrementAndGet();
            lastWriteError = e.toString();
            LOG.error("cannot write the event log to {}", options.stateDir(), e);
        }
    }

    /**
     * Whether the WAL since the last checkpoint makes the next one: when it is larger than
     * {@code --wal-mb} and holds more than twice as many events as the table has sessions (the
     * table's sessions now, or at the last checkpoint if that was more; when the sessions are not
     * known, more than twice the checkpoint's bytes). A checkpoint serialises the whole table on
     * the decode thread, so with a fixed threshold its share of the capture's cost would grow with
     * the table (two checkpoints of 200,000 sessions in a storm of a million frames take a tenth of
     * the capture rate); so a checkpoint comes at most every two events per session, and a restart
     * replays at most about twice the table's sessions in events after the checkpoint. Counted by
     * the table now rather than by the last checkpoint, a growing table (a connection storm) is not
     * checkpointed again and again as it grows; counted in events rather than bytes, since the WAL
     * keeps binary records, a tenth of a checkpoint's JSON per session.
     */
    static boolean checkpointDue(final long walMbBytes, final long walBytes, final long walEvents,
            final long lastCheckpointBytes, final long lastCheckpointSessions, final long liveSessions) {
        if (walBytes <= walMbBytes) {
            return false;
        }
        final long table = Math.max(lastCheckpointSessions, liveSessions);
        return table > 0 ? walEvents > 2 * table : walBytes > 2 * lastCheckpointBytes;
    }

    // a scheduled task: a failure is counted and logged, the schedule goes on
    @SuppressWarnings("checkstyle:IllegalCatch")
    private synchronized void checkpointNow() {
        try {
            checkpoint(false);
        } catch (IOException | RuntimeException e) {
            writeErrors.incrementAndGet();
            lastWriteError = e.toString();
            LOG.error("cannot write a checkpoint to {}", options.stateDir(), e);
        }
    }

    /**
     * Appends the events not yet written to the WAL and fsyncs it.
     *
     * @return whether events were forgotten by the in-memory log before they could be written
     */
    private synchronized boolean flushWal() throws IOException {
        return flushWal(true);
    }

    /**
     * Appends the events not yet written to the WAL, and fsyncs it if {@code sync}.
     *
     * @return whether events were forgotten by the in-memory log before they could be written
     */
    private synchronized boolean flushWal(final boolean sync) throws IOException {
        final long first = log.firstRetainedSeq();
        final boolean gap = persistedSeq + 1 < first;
        if (gap) {
            walLostEvents.addAndGet(first - 1 - persistedSeq);
            LOG.warn("event log outran the store: events {}..{} are not on disk", persistedSeq + 1, first - 1);
            persistedSeq = first - 1;
        }
        while (true) {
            final List<EventLog.Event> batch = log.after(persistedSeq, 4096);
            if (batch.isEmpty()) {
                break;
            }
            store.append(batch);
            for (EventLog.Event e : batch) {
                // the ring keeps the line for clients; the binary record dies young
                e.written();
            }
            persistedSeq = batch.get(batch.size() - 1).seq();
        }
        if (sync) {
            store.sync();
            lastFlushNanos = System.nanoTime();
        }
        return gap;
    }

    /**
     * Writes a checkpoint of the table: a new WAL file first (every event after the checkpoint's
     * seq is then in a file the checkpoint does not delete), then the table a page at a time, each
     * serialised on the decode thread, the WAL still flushed between pages so that a long
     * checkpoint does not widen what a crash may lose.
     */
    private synchronized void checkpoint(final boolean clean) throws IOException {
        final boolean wal = options.flushMs() > 0 && !clean;
        if (wal) {
            flushWal();
            store.startWal(persistedSeq + 1);
        }
        // least recently active first: a checkpoint needs no sorting, and its restore keeps the eviction order
        final SnapshotStart start = onDecodeThread(() -> new SnapshotStart(log.lastSeq(),
            processor.checkpointHandles()));
        final Object[] handles = start.handles();
        final int[] next = {0};
        final long[] lastFlush = {System.nanoTime()};
        store.checkpoint(start.seq(), System.currentTimeMillis() * 1000L, instance, clean, log.firstRetainedSeq(),
            out -> {
                if (next[0] >= handles.length) {
                    return -1;
                }
                if (wal && System.nanoTime() - lastFlush[0] > options.flushMs() * 1_000_000L) {
                    flushWal();
                    lastFlush[0] = System.nanoTime();
                }
                final int f = next[0];
                final int t = Math.min(f + SNAPSHOT_PAGE, handles.length);
                next[0] = t;
                return onDecodeThread(() -> {
                    try {
                        return processor.sessionsJson(handles, f, t, mapper, out);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
            });
    }

    /** Stops capture, drains and flushes everything, and closes the API; idempotent. */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        LOG.info("agent stopping");
        if (api != null) {
            api.close();
        }
        capture.stop();
        decode.stop();
        // not shutdownNow: an interrupt would close the WAL's channel in the middle of a write
        persister.shutdown();
        try {
            persister.awaitTermination(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (options.flushMs() > 0) {
            try {
                flushWal();
            } catch (IOException e) {
                LOG.error("cannot write the event log to {}", options.stateDir(), e);
            }
        }
        try {
            // streamed from the table a page at a time: a million sessions are never all JSON at once
            checkpoint(true);
            store.close();
        } catch (IOException | UncheckedIOException e) {
            LOG.error("cannot save the session table to {}", options.stateDir(), e);
        }
        LOG.info("agent stopped at event {}", log.lastSeq());
    }
}
