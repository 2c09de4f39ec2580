/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rst.rft.decode.CmMessage;
import io.rst.rft.decode.CmMessageType;
import io.rst.rft.decode.DecodeResult;
import io.rst.rft.decode.FrameDecoder;
import io.rst.rft.decode.JsonBytes;
import io.rst.rft.pcap.CmFrameBuilder;
import io.rst.rft.pcap.DataFrameBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Feeds generated RoCEv2 data packets (and CM messages) through the decoder into a session table
 * that learns from data and tracks changes, and collects the reported records: a test's view of
 * what an agent would stream.
 */
final class DataTraffic {
    /** Decimals as written (seconds with 6 digits), so that a record read back writes the same bytes. */
    static final ObjectMapper JSON = new ObjectMapper()
        .enable(com.fasterxml.jackson.databind.DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
        .setNodeFactory(com.fasterxml.jackson.databind.node.JsonNodeFactory.withExactBigDecimals(true));

    final SessionTable table;
    private final FrameDecoder decoder = new FrameDecoder();
    private final CmMessage msg = new CmMessage();
    private final DataFrameBuilder fb = new DataFrameBuilder();
    private final CmFrameBuilder cm = new CmFrameBuilder();
    private final byte[] frame = new byte[2048];
    private final JsonBytes scratch = new JsonBytes(1024);
    /** Every record reported so far, in order (removed ones carry "removed":true). */
    final List<JsonNode> events = new ArrayList<>();
    /** Time of the next packet, microseconds. */
    long now = 1_700_000_000_000_000L;
    /** Data packets whose PSN has none of these bits set are sampled. */
    int sampleMask;
    long frames;
    /** The IP ECN field of the next data packets (ECT(0), as RoCE NICs send, unless a test says). */
    int ecn = 2;

    DataTraffic(final SessionConfig config, final DataConfig data) {
        table = new SessionTable(config, null);
        table.trackChanges();
        table.trackData(data);
    }

    DataTraffic(final DataConfig data) {
        this(new SessionConfig(1 << 16, 600_000_000L, 0L, 32), data);
    }

    DataTraffic() {
        this(new DataConfig(1 << 16, 30_000_000L, 0L));
    }

    static byte[] ip(final String dotted) {
        final String[] p = dotted.split("\\.");
        return new byte[] {(byte) Integer.parseInt(p[0]), (byte) Integer.parseInt(p[1]), (byte) Integer.parseInt(p[2]),
            (byte) Integer.parseInt(p[3])};
    }

    /**
     * One data packet at the current time (then the clock moves on 10 us); false if not sampled,
     * or not data.
     */
    boolean send(final byte[] src, final byte[] dst, final int qp, final int opcode, final int psn) {
        return send(src, dst, qp, opcode, psn, 4096, "swp1");
    }

    boolean send(final byte[] src, final byte[] dst, final int qp, final int opcode, final int psn,
            final long dmaLength, final String port) {
        fb.ips(src, dst).destQp(qp).opcode(opcode).psn(psn).dmaLength(dmaLength).udpPorts(50000 + (qp & 0xff), 4791)
            .ecn(ecn);
        final int len = fb.build(frame);
        msg.setCapture(++frames, now * 1000L);
        now += 10;
        if (decoder.decodeEthernet(frame, 0, len, msg) != DecodeResult.ROCE_DATA) {
            // a UD SEND to QP 1 is a MAD: not data
            return false;
        }
        if ((msg.bthPsn() & sampleMask) != 0) {
            return false;
        }
        table.acceptData(msg, port);
        return true;
    }

    /**
     * One CNP from {@code src} to QP {@code qp} at {@code dst} at the current time, handed to the
     * table as an agent does (whatever the sampling).
     *
     * @return whether a session or flow took it
     */
    boolean cnp(final byte[] src, final byte[] dst, final int qp) {
        fb.ips(src, dst).destQp(qp).opcode(DataFrameBuilder.CNP).psn(0).udpPorts(50000 + (qp & 0xff), 4791).ecn(0);
        final int len = fb.build(frame);
        msg.setCapture(++frames, now * 1000L);
        now += 10;
        assertEquals(DecodeResult.ROCE_DATA, decoder.decodeEthernet(frame, 0, len, msg));
        return table.acceptCnp(msg);
    }

    /** One CM message at the current time. */
    void cm(final CmMessageType type, final byte[] src, final byte[] dst, final int lc, final int rc, final int qpn) {
        cm.ips(src, dst).type(type).commIds(lc, rc).localQpn(qpn).remoteQpn(qpn);
        final int len = cm.build(frame);
        msg.setCapture(++frames, now * 1000L);
        now += 10;
        assertEquals(DecodeResult.CM_MAD, decoder.decodeEthernet(frame, 0, len, msg));
        table.accept(msg, "swp1");
    }

    /** Drains the table's changes into {@link #events}; returns how many came. */
    int drain() {
        final int before = events.size();
        table.drainChanges(scratch, j -> events.add(parse(j)));
        return events.size() - before;
    }

    /** Drains the table's changes without keeping them (the agent's cost, not a test's). */
    int drainQuietly() {
        return table.drainChanges(scratch, j -> { });
    }

    void expire() {
        table.expire(now);
    }

    private static JsonNode parse(final JsonBytes json) {
        try {
            final JsonNode n = JSON.readTree(json.toByteArray());
            // the table's bytes are the record's: parsed and written again, the same bytes
            final ObjectNode copy = ((ObjectNode) n).deepCopy();
            final boolean removed = copy.path("removed").asBoolean(false);
            copy.remove("removed");
            final SessionRecord r = JSON.treeToValue(copy, SessionRecord.class);
            final JsonBytes again = new JsonBytes(1024);
            r.appendJson(again);
            final String written = again.toString();
            final String expected = removed ? written.substring(0, written.length() - 1) + ",\"removed\":true}"
                : written;
            assertEquals(expected, json.toString(), "record bytes");
            assertEquals(JSON.readTree(JSON.writeValueAsBytes(r)), copy, "Jackson writes the same record");
            return n;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The records in the table now, by session id. */
    java.util.Map<String, SessionRecord> records() {
        final java.util.Map<String, SessionRecord> out = new java.util.LinkedHashMap<>();
        for (SessionRecord r : table.snapshot()) {
            out.put(r.sessionId(), r);
        }
        return out;
    }

    /** The ids of the reported records, in order, "-" before those reported removed. */
    List<String> eventIds() {
        final List<String> out = new ArrayList<>();
        for (JsonNode n : events) {
            out.add((n.path("removed").asBoolean(false) ? "-" : "") + n.path("session_id").asText());
        }
        return out;
    }
}
