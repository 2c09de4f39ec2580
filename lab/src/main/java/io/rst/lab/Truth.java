/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.lab;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * What the traffic generator did, one JSON line per fact: a connection started (with everything
 * needed to check it: hosts, IPs, comm IDs, QPNs, UDP source ports, the state the flow table
 * should reach) or its expected state changed (a live connection closed), each with the time it
 * was written (the checker leaves out what changed too recently to have settled). The checker
 * reads it back; an operator can too ({@code /run/rst-lab/truth.jsonl}).
 */
public final class Truth {
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * One connection as the generator made it.
     *
     * @param id connection number
     * @param scenario what it did
     * @param requester requester host id
     * @param requesterIp its address
     * @param responder responder host id
     * @param responderIp its address
     * @param requesterCid the requester's comm ID
     * @param responderCid the responder's comm ID
     * @param requesterQpn QPN
     * @param responderQpn QPN
     * @param requesterCmPort UDP source port of the requester's CM packets
     * @param responderCmPort UDP source port of the responder's CM packets, -1 if it sent none
     * @param requesterDataPort UDP source port of the requester's data packets
     * @param responderDataPort UDP source port of the responder's data packets
     * @param expect the state the flow table should reach
     * @param rejectReason the REJ reason, -1 if none
     * @param changedMillis when the generator last wrote of it (started it, or closed it), epoch
     *        milliseconds; 0 when the file does not say
     */
    public record Connection(long id, String scenario, String requester, String requesterIp, String responder,
            String responderIp, String requesterCid, String responderCid, int requesterQpn, int responderQpn,
            int requesterCmPort, int responderCmPort, int requesterDataPort, int responderDataPort, String expect,
            int rejectReason, long changedMillis) {
        /** The session id RST gives it (rdma-flow-table's, the same on every switch). */
        public String sessionId() {
            return requesterIp + "/" + requesterCid + "/" + responderIp;
        }

        Connection withExpect(final String state, final long atMillis) {
            return new Connection(id, scenario, requester, requesterIp, responder, responderIp, requesterCid,
                responderCid, requesterQpn, responderQpn, requesterCmPort, responderCmPort, requesterDataPort,
                responderDataPort, state, rejectReason, Math.max(changedMillis, atMillis));
        }
    }

    private Truth() {
        // utility
    }

    /** Appends facts to a file, one line each, flushed as they come. */
    public static final class Writer implements AutoCloseable {
        private final BufferedWriter out;
        private final LongSupplier clock;

        public Writer(final Path file) throws IOException {
            this(file, System::currentTimeMillis);
        }

        /** A writer that stamps each line with {@code clock}'s epoch milliseconds. */
        Writer(final Path file, final LongSupplier clock) throws IOException {
            this.clock = clock;
            Files.createDirectories(file.toAbsolutePath().getParent());
            out = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
        }

        @SuppressWarnings("checkstyle:ParameterNumber")
        synchronized void started(final long id, final String scenario, final String requester, final String requesterIp,
                final String responder, final String responderIp, final String requesterCid, final String responderCid,
                final int requesterQpn, final int responderQpn, final int requesterCmPort, final int responderCmPort,
                final int requesterDataPort, final int responderDataPort, final String expect, final int rejectReason) {
            write(JSON.valueToTree(new Connection(id, scenario, requester, requesterIp, responder, responderIp,
                requesterCid, responderCid, requesterQpn, responderQpn, requesterCmPort, responderCmPort,
                requesterDataPort, responderDataPort, expect, rejectReason, clock.getAsLong())));
        }

        synchronized void expect(final long id, final String state) {
            final ObjectNode line = JSON.createObjectNode();
            line.put("id", id);
            line.put("expect", state);
            line.put("changedMillis", clock.getAsLong());
            write(line);
        }

        private void write(final JsonNode line) {
            try {
                out.write(JSON.writeValueAsString(line));
                out.write('\n');
                out.flush();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public synchronized void close() throws IOException {
            out.close();
        }
    }

    /**
     * Every connection of a truth file, with its latest expected state, in the order they started.
     * A last line without its newline is one the generator is writing now: it is left for the next
     * read.
     */
    public static List<Connection> read(final Path file) throws IOException {
        final Map<Long, Connection> byId = new LinkedHashMap<>();
        if (!Files.exists(file)) {
            return List.of();
        }
        final byte[] bytes = Files.readAllBytes(file);
        int complete = bytes.length;
        while (complete > 0 && bytes[complete - 1] != '\n') {
            complete--;
        }
        for (var line : new String(bytes, 0, complete, StandardCharsets.UTF_8).split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            final JsonNode node = JSON.readTree(line);
            final long id = node.path("id").asLong();
            if (node.has("scenario")) {
                byId.put(id, JSON.treeToValue(node, Connection.class));
            } else {
                final var c = byId.get(id);
                if (c != null) {
                    byId.put(id, c.withExpect(node.path("expect").asText(), node.path("changedMillis").asLong(0)));
                }
            }
        }
        return new ArrayList<>(byId.values());
    }
}
