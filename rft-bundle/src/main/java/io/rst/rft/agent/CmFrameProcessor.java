/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.agent;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rst.rft.decode.CmMessage;
import io.rst.rft.decode.DecodeResult;
import io.rst.rft.decode.FrameDecoder;
import io.rst.rft.session.SessionChange;
import io.rst.rft.session.SessionConfig;
import io.rst.rft.session.SessionRecord;
import io.rst.rft.session.SessionTable;
import java.util.List;

/**
 * The agent's real processor: the RoCEv2/CM decoder into one reused {@link CmMessage}, and the
 * session table, whose every change becomes an event. Decode-thread only.
 */
final class CmFrameProcessor implements FrameProcessor {
    private static final DecodeResult[] RESULTS = DecodeResult.values();

    private final FrameDecoder decoder;
    private final CmMessage message = new CmMessage();
    private final SessionTable table;
    private final long[] results = new long[RESULTS.length];
    private long frames;
    private long lastMicros;

    CmFrameProcessor(final AgentOptions options, final SessionEvents events) {
        decoder = new FrameDecoder(options.udpPort());
        final SessionConfig d = SessionConfig.DEFAULT;
        table = new SessionTable(new SessionConfig(options.maxSessions(), options.retentionSeconds() * 1_000_000L,
            d.minCmTimeoutMicros(), d.maxMessagesPerSession()),
            (SessionChange change, SessionRecord rec) -> events.onSession(rec.sessionId(), rec, lastMicros));
    }

    @Override
    public void onFrame(final byte[] buf, final int off, final int len, final long tsMicros, final String port) {
        frames++;
        lastMicros = tsMicros;
        message.setCapture(frames, tsMicros * 1000L);
        final DecodeResult r = decoder.decodeEthernet(buf, off, len, message);
        results[r.ordinal()]++;
        if (r == DecodeResult.CM_MAD) {
            table.accept(message, port);
        }
    }

    @Override
    public void expire(final long nowMicros) {
        lastMicros = nowMicros;
        table.expire(nowMicros);
    }

    @Override
    public List<?> sessions() {
        return table.snapshot();
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
    }
}
