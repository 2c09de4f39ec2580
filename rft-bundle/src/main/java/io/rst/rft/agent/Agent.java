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
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rst.rft.capture.CaptureGroup;
import io.rst.rft.capture.CaptureSource;
import io.rst.rft.capture.FrameRing;
import io.rst.rft.capture.PcapFileSource;
import io.rst.rft.capture.PcapLiveSource;
import io.rst.rft.decode.JsonBytes;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The switch agent: wiring and lifecycle of capture, the decode thread, the event log and its
 * store, and the API. Threads: one per capture source (frames into its ring, never waiting), one
 * decode thread (owns the {@link FrameProcessor}, into which the sessions saved in the state
 * directory are put back at start, and appends events), one persister (event log to disk), and the API's threads (read the
 * log, and ask the decode thread for snapshots).
 */
public final class Agent implements AutoCloseable {
    public static final String VERSION = "0.1.0-SNAPSHOT";
    private static final Logger LOG = LoggerFactory.getLogger(Agent.class);
    /**
     * Bytes kept of each frame: a CM MAD frame is at most 358 (two VLAN tags, IPv6, BTH, DETH,
     * MAD, ICRC); of data packets (--all-roce) only the headers are decoded.
     */
    private static final int SNAP_BYTES = 512;
    private static final int SEGMENT_EVENTS = 8192;


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
    private volatile AgentApi api;
    /** Guarded by this. */
    private long persistedSeq;
    private boolean closed;

    /**
     * Builds the agent and restores its state; nothing runs until {@link #start()}.
     *
     * @param processorFactory makes the frame processor, given where to report session changes
     */
    public Agent(final AgentOptions options, final Function<FrameProcessor.SessionEvents, FrameProcessor> processorFactory)
            throws IOException {
        this.options = options;
        mapper = new ObjectMapper();
        mapper.getFactory().disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
        state = new StateDir(options.stateDir(), mapper);
        if (options.tokenFile() != null && Files.exists(options.tokenFile())) {
            TlsFiles.requirePrivate(options.tokenFile(), "token file");
        }
        token = state.token(options.tokenFile());
        store = new EventStore(options.stateDir(), SEGMENT_EVENTS, mapper);
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
        });
        restore();
        capture = new CaptureGroup(sources());
        decode = new DecodeLoop(capture, processor);
        persister = Executors.newSingleThreadScheduledExecutor(r -> {
            final Thread t = new Thread(r, "persister");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Puts the saved table back into the processor (so that a session seen again continues), then
     * the retained events: those after the saved table's seq (an agent that stopped without saving
     * its table) bring their sessions' last state back too.
     */
    private void restore() throws IOException {
        final long[] counts = new long[2];
        final long saved = store.readSessions(instance, r -> counts[processor.restore(r) ? 0 : 1]++);
        final long base = Math.max(0, saved);
        store.load((event, session) -> {
            if (log.restore(event) && event.seq() > base && processor.restore(session)) {
                counts[0]++;
            }
        });
        log.skipTo(base);
        synchronized (this) {
            persistedSeq = log.lastSeq();
        }
        if (log.lastSeq() > 0 || counts[0] > 0) {
            LOG.info("restored {} sessions ({} refused) and events {}..{} of instance {}", counts[0], counts[1],
                log.firstRetainedSeq(), log.lastSeq(), instance);
        }
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
        decode.start();
        persister.scheduleWithFixedDelay(this::persist, 200, 200, TimeUnit.MILLISECONDS);
        final AgentOptions.Tls tls = options.tls();
        if (tls != null) {
            api = new AgentApi(this, TlsFiles.bindTls(options.listen(), tls), tls.clientCa() == null ? "tls" : "mtls",
                token, mapper);
        } else {
            if (!options.plainHttp()) {
                LOG.warn("serving plain HTTP because no certificate was given (--tls-cert, --tls-key): the token and "
                    + "the sessions cross the network in clear; say --plain-http to mean it");
            }
            api = new AgentApi(this, AgentApi.bindPlain(options.listen()), "plain-http", token, mapper);
        }
        if (state.capturing()) {
            capture.start();
        } else {
            LOG.info("capture is off (switched off by the operator; POST /v1/start turns it on)");
        }
        LOG.info("agent {} listening on {}, capturing on {}", options.agentId(), api.address(),
            capture.sources().stream().map(CaptureSource::name).toList());
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
     * Writes {@code {"seq":N,"sessions":[...]}} to {@code out}, a page of sessions at a time, each
     * page serialised on the decode thread, so that neither a large table's JSON is ever whole in
     * memory nor the decode thread held for long. {@code N} is the last event before the first
     * page: a session may be written in a state newer than {@code N}, and the events after
     * {@code N} (full states, in order) bring a client that applies them to the same end.
     *
     * @return N
     */
    long writeSnapshot(final OutputStream out) throws IOException {
        final SnapshotStart start = onDecodeThread(() -> new SnapshotStart(log.lastSeq(), processor.sessionHandles()));
        out.write(("{\"seq\":" + start.seq() + ",\"sessions\":[").getBytes(StandardCharsets.US_ASCII));
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
        final ObjectNode counters = onDecodeThread(() -> {
            final ObjectNode c = mapper.createObjectNode();
            processor.addCounters(c);
            return c;
        });
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
        s.put("last_seq", log.lastSeq());
        s.put("first_retained_seq", log.firstRetainedSeq());
        final AgentApi a = api;
        if (a != null) {
            a.addStatus(s);
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
    private synchronized void persist() {
        try {
            long first = log.firstRetainedSeq();
            if (persistedSeq + 1 < first) {
                LOG.warn("event log outran the store: events {}..{} are not on disk", persistedSeq + 1, first - 1);
                persistedSeq = first - 1;
            }
            while (true) {
                final List<EventLog.Event> batch = log.after(persistedSeq, 4096);
                if (batch.isEmpty()) {
                    break;
                }
                store.append(batch);
                persistedSeq = batch.get(batch.size() - 1).seq();
            }
            store.flush();
            store.prune(log.firstRetainedSeq());
        } catch (IOException | RuntimeException e) {
            LOG.error("cannot write the event log to {}", options.stateDir(), e);
        }
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
        persister.shutdownNow();
        try {
            persister.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        persist();
        try {
            // streamed from the table: a million sessions are never all records at once
            onDecodeThread(() -> {
                try {
                    store.writeSessions(log.lastSeq(), instance, processor::writeSessions);
                    return null;
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            store.close();
        } catch (IOException | UncheckedIOException e) {
            LOG.error("cannot save the session table to {}", options.stateDir(), e);
        }
        LOG.info("agent stopped at event {}", log.lastSeq());
    }
}
