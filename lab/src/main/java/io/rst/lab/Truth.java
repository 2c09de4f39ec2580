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
import java.util.HashMap;
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

    /**
     * One QP pair of an NCCL-style connection: set up without CM, its QPNs and initial PSNs
     * exchanged over a TCP connection between the two hosts, then RC data. RST learns it from its
     * sampled data packets only.
     *
     * @param id its number (the same sequence as the CM connections')
     * @param connection the bootstrap connection it belongs to: the id of its first QP pair
     * @param hostA the host that opened the bootstrap connection (the writer of a one-way connection)
     * @param ipA its address
     * @param qpnA its QP
     * @param psnA the initial PSN of its requests
     * @param portA the UDP source port of its packets (its NIC's choice for the QP)
     * @param hostB the host that accepted the bootstrap connection
     * @param ipB its address
     * @param qpnB its QP
     * @param psnB the initial PSN of its requests
     * @param portB the UDP source port of its packets
     * @param twoWay both sides issue requests; false: only A does, B only answers (ACKs)
     * @param longLived it sends on after its opening burst, until the traffic ends or its lifetime
     * @param firstPacketMs when its first packet left (milliseconds since the epoch)
     * @param pairableMs when the second answer (ACK or READ response) left that an agent sampling
     *     every N-th PSN (the traffic's data sampling) keeps together with the request it names
     *     (agents pair on two): from then on a switch seeing both directions can pair the QPs; -1 if
     *     not yet
     * @param endedMs when its last packet left; -1 while it sends
     */
    public record NcclQp(long id, long connection, String hostA, String ipA, int qpnA, int psnA, int portA,
            String hostB, String ipB, int qpnB, int psnB, int portB, boolean twoWay, boolean longLived,
            long firstPacketMs, long pairableMs, long endedMs) {
        /** Whether A is the lower endpoint (by address bytes, IPv4 before IPv6, then QPN): the session id's first. */
        public boolean aIsLower() {
            final int c = compareIps(ipA, ipB);
            return c < 0 || c == 0 && qpnA < qpnB;
        }

        /**
         * The session id RST gives it (the same at every switch): {@code IP/qp0xQPN/IP/qp0xQPN}, the
         * lower endpoint first.
         */
        public String sessionId() {
            return aIsLower() ? dataSessionId(ipA, qpnA, ipB, qpnB) : dataSessionId(ipB, qpnB, ipA, qpnA);
        }

        /** The one-way flow id a switch gives A's packets to B's QP while it has not paired them. */
        public String oneWayIdAtoB() {
            return ipA + "/-/" + ipB + "/" + qp(qpnB);
        }

        /** The one-way flow id of B's packets to A's QP. */
        public String oneWayIdBtoA() {
            return ipB + "/-/" + ipA + "/" + qp(qpnA);
        }

        NcclQp with(final long pairable, final long ended) {
            return new NcclQp(id, connection, hostA, ipA, qpnA, psnA, portA, hostB, ipB, qpnB, psnB, portB, twoWay,
                longLived, firstPacketMs, pairable, ended);
        }
    }

    /** {@code IP_A/qp0xAAAAAA/IP_B/qp0xBBBBBB}: a data-learned session's id, endpoints as given. */
    static String dataSessionId(final String ipA, final int qpnA, final String ipB, final int qpnB) {
        return ipA + "/" + qp(qpnA) + "/" + ipB + "/" + qp(qpnB);
    }

    /** {@code qp0x} and six lower-case hex digits. */
    static String qp(final int qpn) {
        return String.format("qp0x%06x", qpn & 0xffffff);
    }

    /** Orders addresses as RST orders a data-learned session's endpoints: IPv4 before IPv6, then by their bytes. */
    static int compareIps(final String first, final String second) {
        final byte[] x = Traffic.bytes(first);
        final byte[] y = Traffic.bytes(second);
        if (x.length != y.length) {
            return x.length - y.length;
        }
        return java.util.Arrays.compareUnsigned(x, y);
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
        synchronized void started(final long id, final String scenario, final String requester,
                final String requesterIp, final String responder, final String responderIp, final String requesterCid,
                final String responderCid, final int requesterQpn, final int responderQpn, final int requesterCmPort,
                final int responderCmPort, final int requesterDataPort, final int responderDataPort,
                final String expect, final int rejectReason) {
            write(JSON.valueToTree(new Connection(id, scenario, requester, requesterIp, responder, responderIp,
                requesterCid, responderCid, requesterQpn, responderQpn, requesterCmPort, responderCmPort,
                requesterDataPort, responderDataPort, expect, rejectReason, clock.getAsLong())));
        }

        /** An NCCL-style QP pair's first packet left. */
        synchronized void nccl(final NcclQp qp) {
            final ObjectNode line = JSON.createObjectNode();
            line.put("kind", "nccl");
            line.setAll((ObjectNode) JSON.valueToTree(qp));
            line.put("sessionId", qp.sessionId());
            write(line);
        }

        /**
         * An NCCL-style QP pair's first pairable response ({@code nccl-pairable}) or last packet
         * ({@code nccl-ended}).
         */
        synchronized void ncclFact(final long id, final String kind, final long atMs) {
            final ObjectNode line = JSON.createObjectNode();
            line.put("kind", kind);
            line.put("id", id);
            line.put("atMs", atMs);
            write(line);
        }

        /**
         * A fact about the fabric rather than a connection ({@code kind} {@code congest},
         * {@code congest-off}, {@code pfc}: see {@link Congestion}), stamped with {@code atMs}
         * unless it has one.
         */
        public synchronized void fact(final ObjectNode fact) {
            if (!fact.has("atMs")) {
                fact.put("atMs", clock.getAsLong());
            }
            write(fact);
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

    /** The next free id of a truth file: one more than any connection's or QP pair's there. */
    public static long nextId(final Path file) throws IOException {
        long max = 0;
        if (Files.exists(file)) {
            for (var line : completeLines(file)) {
                if (!line.isBlank()) {
                    max = Math.max(max, JSON.readTree(line).path("id").asLong());
                }
            }
        }
        return max + 1;
    }

    /**
     * Every NCCL-style QP pair of a truth file, with when it first became pairable and when it
     * ended, in the order of their first packets.
     */
    public static List<NcclQp> readNccl(final Path file) throws IOException {
        final Map<Long, NcclQp> byId = new LinkedHashMap<>();
        if (!Files.exists(file)) {
            return List.of();
        }
        final var reader = JSON.readerFor(NcclQp.class)
            .without(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
        // a fact can come before the QP pair's own line: both sides write from their own threads
        final Map<Long, long[]> early = new HashMap<>();
        for (var line : completeLines(file)) {
            if (line.isBlank()) {
                continue;
            }
            final JsonNode node = JSON.readTree(line);
            final String kind = node.path("kind").asText("");
            final long id = node.path("id").asLong();
            switch (kind) {
                case "nccl" -> {
                    final NcclQp qp = reader.readValue(node);
                    final long[] f = early.remove(id);
                    byId.put(id, f == null ? qp : qp.with(f[0], f[1]));
                }
                case "nccl-pairable", "nccl-ended" -> {
                    final long at = node.path("atMs").asLong();
                    final var qp = byId.get(id);
                    final long[] f = qp != null ? new long[] {qp.pairableMs(), qp.endedMs()}
                        : early.computeIfAbsent(id, k -> new long[] {-1, -1});
                    if (kind.equals("nccl-pairable")) {
                        f[0] = f[0] < 0 ? at : Math.min(f[0], at);
                    } else {
                        f[1] = Math.max(f[1], at);
                    }
                    if (qp != null) {
                        byId.put(id, qp.with(f[0], f[1]));
                    }
                }
                default -> {
                    // a CM connection's line: read's
                }
            }
        }
        return new ArrayList<>(byId.values());
    }

    /** The facts of a truth file of the given {@code kind} ({@link Writer#fact}), in their order. */
    public static List<JsonNode> facts(final Path file, final String kind) throws IOException {
        final List<JsonNode> out = new ArrayList<>();
        if (!Files.exists(file)) {
            return out;
        }
        for (var line : completeLines(file)) {
            if (!line.isBlank() && line.contains("\"" + kind + "\"")) {
                final JsonNode node = JSON.readTree(line);
                if (kind.equals(node.path("kind").asText())) {
                    out.add(node);
                }
            }
        }
        return out;
    }

    /**
     * When each connection of a truth file started (its first line's time, epoch milliseconds), by
     * id: {@link Connection#changedMillis} moves on when it closes.
     */
    public static Map<Long, Long> startTimes(final Path file) throws IOException {
        final Map<Long, Long> out = new HashMap<>();
        if (!Files.exists(file)) {
            return out;
        }
        for (var line : completeLines(file)) {
            if (line.contains("\"scenario\"")) {
                final JsonNode node = JSON.readTree(line);
                if (node.has("scenario") && !node.has("kind")) {
                    out.putIfAbsent(node.path("id").asLong(), node.path("changedMillis").asLong(0));
                }
            }
        }
        return out;
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
        for (var line : completeLines(file)) {
            if (line.isBlank()) {
                continue;
            }
            final JsonNode node = JSON.readTree(line);
            if (node.has("kind")) {
                // an NCCL-style QP pair's facts: readNccl's
                continue;
            }
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

    /** The file's complete lines: a last line without its newline is one a writer is writing now. */
    private static String[] completeLines(final Path file) throws IOException {
        final byte[] bytes = Files.readAllBytes(file);
        int complete = bytes.length;
        while (complete > 0 && bytes[complete - 1] != '\n') {
            complete--;
        }
        return new String(bytes, 0, complete, StandardCharsets.UTF_8).split("\n");
    }
}
