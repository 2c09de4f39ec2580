/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.OutputStream;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A small real processor for agent tests that do not depend on the CM decoder: the last payload
 * byte of each UDP frame names a session, and every frame updates it (one event per frame).
 */
final class EventPerFrameProcessor implements FrameProcessor {
    private final SessionEvents events;
    private final Map<String, Object> table = new LinkedHashMap<>();
    private final ObjectMapper mapper = new ObjectMapper();
    private long frames;
    private long restored;

    EventPerFrameProcessor(final SessionEvents events) {
        this.events = events;
    }

    @Override
    public void onFrame(final byte[] buf, final int off, final int len, final long tsMicros, final String port) {
        frames++;
        final String id = "s" + (buf[off + len - 1] & 0xff);
        final Map<String, Object> rec = new LinkedHashMap<>();
        final Object old = table.get(id);
        rec.put("session_id", id);
        rec.put("messages", old == null ? 1 : mapper.valueToTree(old).path("messages").asInt() + 1);
        rec.put("ingress_port", port);
        rec.put("last_seen", tsMicros / 1e6);
        final Map<String, Object> frozen = Map.copyOf(rec);
        table.put(id, frozen);
        events.onSession(frozen, tsMicros);
    }

    @Override
    public void expire(final long nowMicros) {
    }

    @Override
    public Object[] sessionHandles() {
        return table.values().toArray();
    }

    @Override
    public boolean restore(final JsonNode record) {
        final String id = record.path("session_id").asText("");
        if (id.isEmpty()) {
            return false;
        }
        table.put(id, record);
        restored++;
        return true;
    }

    @Override
    public void writeSessions(final OutputStream out) throws IOException {
        for (Object r : table.values()) {
            out.write(mapper.writeValueAsBytes(r));
            out.write('\n');
        }
    }

    @Override
    public void addCounters(final ObjectNode counters) {
        counters.put("cm_mads", frames);
        counters.put("data_packets", 0);
        counters.putObject("skipped");
        counters.put("sessions_live", table.size());
        counters.put("evictions", 0);
        counters.put("restored_sessions", restored);
    }
}
