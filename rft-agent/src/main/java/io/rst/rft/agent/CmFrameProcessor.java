/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.agent;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rst.rft.decode.CmMessage;
import io.rst.rft.decode.DecodeResult;
import io.rst.rft.decode.FrameDecoder;
import io.rst.rft.decode.JsonBytes;
import io.rst.rft.session.DataConfig;
import io.rst.rft.session.SessionConfig;
import io.rst.rft.session.SessionRecord;
import io.rst.rft.session.SessionTable;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;

/**
 * The agent's real processor: the RoCEv2/CM decoder into one reused {@link CmMessage}, and the
 * session table with change tracking (with {@code --data-sample}, learning sessions from the
 * sampled data no CM session claims). A session's changes within one decode batch become one
 * event with its final state, written by the table straight into a reused JSON buffer: per
 * frame nothing is allocated, per event only the retained line. Decode-thread only.
 */
final class CmFrameProcessor implements FrameProcessor {
    private static final DecodeResult[] RESULTS = DecodeResult.values();

    private final FrameDecoder decoder;
    private final CmMessage message = new CmMessage();
    private final SessionTable table;
    private final JsonBytes json = new JsonBytes(2048);
    private final SessionTable.JsonSink toEvents;
    private final ObjectMapper mapper = new ObjectMapper()
        .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    private final long[] results = new long[RESULTS.length];
    private long frames;
    private long lastMicros;
    /** Data packets whose PSN has none of these bits set are sampled; -1: no data sampling. */
    private final int dataMask;
    /** CNPs counted for the sessions' data and PFC frames per interface; false: both ignored. */
    private final boolean congestion;
    private final PfcCounters pfc;
    /** LLDP neighbours per interface, kept unless {@code --no-lldp}. */
    private final boolean lldpOn;
    private final LldpNeighbours lldp = new LldpNeighbours();

    CmFrameProcessor(final AgentOptions options, final SessionEvents events) {
        this(options, events, options.replays().isEmpty() ? PfcCounters::sysfsSpeed : port -> -1);
    }

    /**
     * A processor whose PFC pauses are timed with the link speeds {@code speedOf} says (Mbit/s; 0
     * or less: {@code --link-speed-mbps}): Linux's {@code /sys/class/net} when capturing live,
     * nothing for a replay, whose ports are not this host's interfaces.
     */
    CmFrameProcessor(final AgentOptions options, final SessionEvents events,
            final java.util.function.ToIntFunction<String> speedOf) {
        congestion = options.congestion();
        lldpOn = options.lldp();
        pfc = new PfcCounters(speedOf, options.linkSpeedMbps());
        decoder = new FrameDecoder(options.udpPort());
        final SessionConfig d = SessionConfig.DEFAULT;
        table = new SessionTable(new SessionConfig(options.maxSessions(), options.retentionSeconds() * 1_000_000L,
            d.minCmTimeoutMicros(), d.maxMessagesPerSession()), null);
        table.trackChanges();
        dataMask = options.dataSample() > 0 ? options.dataSample() - 1 : -1;
        if (dataMask >= 0 && options.maxFlows() == 0) {
            // sampled data joins the CM sessions' data paths; nothing is learnt from it
            table.trackData();
        } else if (dataMask >= 0) {
            table.trackData(new DataConfig(options.maxFlows(), options.dataIdleSeconds() * 1_000_000L,
                options.dataReportMs() * 1000L));
        }
        toEvents = j -> events.onSessionJson(j, table.lastBinary(), lastMicros);
    }

    @Override
    public void onFrame(final byte[] buf, final int off, final int len, final long tsMicros, final String port) {
        frames++;
        lastMicros = tsMicros;
        message.setCapture(frames, tsMicros * 1000L);
        // a frame as long as the capture's snap length may have been cut by it
        final DecodeResult r = decoder.decodeEthernet(buf, off, len, len >= Agent.SNAP_BYTES ? Integer.MAX_VALUE : len,
            message);
        results[r.ordinal()]++;
        if (r == DecodeResult.CM_MAD) {
            table.accept(message, port);
        } else if (r == DecodeResult.ROCE_DATA) {
            if (message.isCnp()) {
                // every CNP, whatever its PSN: the kernel filter keeps them all
                if (congestion) {
                    table.acceptCnp(message);
                }
            } else if (dataMask >= 0 && (message.bthPsn() & dataMask) == 0) {
                // the kernel filter samples live capture the same way; files are sampled here
                table.acceptData(message, port);
            }
        } else if (r == DecodeResult.PFC && congestion) {
            pfc.frame(port, tsMicros * 1000L, message);
        } else if (r == DecodeResult.LLDP && lldpOn) {
            lldp.frame(port, tsMicros, message.lldp());
        }
        if (congestion) {
            // pauses run on the capture's clock: every frame moves it
            pfc.advance(tsMicros * 1000L);
        }
    }

    @Override
    public void endBatch() {
        // the event's time is that of the batch's last frame: no change in it is later
        table.drainChanges(json, toEvents);
    }

    @Override
    public void expire(final long nowMicros) {
        table.drainChanges(json, toEvents);
        lastMicros = nowMicros;
        table.expire(nowMicros);
        table.drainChanges(json, toEvents);
        pfc.advance(nowMicros * 1000L);
        pfc.refreshSpeeds();
        if (lldpOn) {
            lldp.expire(nowMicros);
        }
    }

    @Override
    public Object[] sessionHandles() {
        return table.sessionHandles();
    }

    @Override
    public Object[] checkpointHandles() {
        return table.sessionHandlesInEvictionOrder();
    }

    @Override
    public int liveSessions() {
        return table.size() + table.dataRecords();
    }

    @Override
    public void recordBinary() {
        table.recordBinary();
    }

    @Override
    public boolean restoreBinary(final byte[] buf, final int off, final int len, final boolean apply,
            final JsonBytes out) {
        return table.restoreBinary(buf, off, len, apply, out);
    }

    @Override
    public int sessionsJson(final Object[] handles, final int from, final int to,
            final com.fasterxml.jackson.databind.ObjectMapper unused, final java.io.ByteArrayOutputStream out) {
        final int[] n = {0};
        table.snapshotJson(handles, from, to, json, j -> {
            if (n[0]++ > 0) {
                out.write(',');
            }
            try {
                j.drainTo(out);
            } catch (IOException e) {
                // a ByteArrayOutputStream does not throw
                throw new UncheckedIOException(e);
            }
        });
        return n[0];
    }

    // a record this agent did not write, or a damaged one, may fail anywhere in its mapping: not put back
    @Override
    @SuppressWarnings("checkstyle:IllegalCatch")
    public boolean restore(final JsonNode record) {
        try {
            final SessionRecord r = mapper.treeToValue(record, SessionRecord.class);
            // a replayed "removed" event takes the session out again rather than bringing it back
            return record.path("removed").asBoolean(false) ? table.forget(r) : table.restore(r);
        } catch (JsonProcessingException | RuntimeException e) {
            // a record this agent did not write, or a damaged one: not put back
            return false;
        }
    }

    // the sink's IOException crosses the table's callback wrapped; it is thrown here as itself
    @Override
    @SuppressWarnings("checkstyle:AvoidHidingCauseException")
    public void writeSessions(final OutputStream out) throws IOException {
        try {
            table.snapshotJson(json, j -> {
                try {
                    j.raw('\n').drainTo(out);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    @Override
    public void addCounters(final ObjectNode counters) {
        counters.put("cm_mads", results[DecodeResult.CM_MAD.ordinal()]);
        counters.put("data_packets", results[DecodeResult.ROCE_DATA.ordinal()]);
        final ObjectNode skipped = counters.putObject("skipped");
        for (DecodeResult r : RESULTS) {
            if (r.isSkipped() && results[r.ordinal()] > 0) {
                skipped.put(r.reason(), results[r.ordinal()]);
            }
        }
        counters.put("sessions_live", table.size());
        counters.put("evictions", table.evictions());
        counters.put("expired", table.expired());
        counters.put("timed_out", table.timedOut());
        counters.put("restored_sessions", table.restored());
        if (dataMask >= 0) {
            counters.put("data_sample", dataMask + 1);
            counters.put("data_matched", table.dataMatched());
            counters.put("data_unmatched", table.dataUnmatched());
            counters.put("data_flows", table.dataFlows());
            counters.put("data_sessions", table.dataSessions());
            counters.put("data_one_way", table.dataOneWay());
            counters.put("data_flows_evicted", table.dataFlowsEvicted());
            counters.put("data_pair_ambiguous", table.dataPairAmbiguous());
            counters.put("data_bth_rejected", table.dataBthRejected());
            counters.put("data_untracked", table.dataUntracked());
            counters.put("data_expired", table.dataExpired());
        }
        if (congestion) {
            counters.put("cnps", table.cnps());
            if (dataMask >= 0) {
                counters.put("cnp_unmatched", table.cnpUnmatched());
            }
            counters.put("pfc_frames", pfc.frames());
            counters.put("pfc_untabled", pfc.untabled());
        }
        if (lldpOn) {
            long malformed = 0;
            for (DecodeResult r : RESULTS) {
                if (r.isMalformedLldp()) {
                    malformed += results[r.ordinal()];
                }
            }
            counters.put("lldp_frames", lldp.frames());
            counters.put("lldp_malformed", malformed);
            counters.put("lldp_neighbours", lldp.size());
            counters.put("lldp_refused", lldp.refused());
            counters.put("lldp_aged_out", lldp.agedOut());
            counters.put("lldp_shutdowns", lldp.shutdowns());
        }
    }

    @Override
    public void addStatus(final ObjectNode status) {
        if (congestion) {
            pfc.write(status.putArray("pfc"));
        }
        if (lldpOn) {
            lldp.write(status.putArray("lldp"));
        }
    }
}
