/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.OutputStream;

/**
 * A processor that only counts frames, for when no decoder is wired in: capture, queues and the
 * API still work and can be tested on their own.
 */
final class CountingProcessor implements FrameProcessor {
    private long frames;

    @Override
    public void onFrame(final byte[] buf, final int off, final int len, final long tsMicros,
            final String ingressPort) {
        frames++;
    }

    @Override
    public void expire(final long nowMicros) {
        // no table
    }

    @Override
    public Object[] sessionHandles() {
        return new Object[0];
    }

    @Override
    public boolean restore(final JsonNode record) {
        return false;
    }

    @Override
    public void writeSessions(final OutputStream out) {
        // no table
    }

    @Override
    public void addCounters(final ObjectNode counters) {
        counters.put("cm_mads", 0);
        counters.put("data_packets", 0);
        counters.putObject("skipped").put("no_decoder", frames);
        counters.put("sessions_live", 0);
        counters.put("evictions", 0);
        counters.put("restored_sessions", 0);
    }
}
