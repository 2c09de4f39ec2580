/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rst.rft.testutil.Captures;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code decode}, {@code sessions} and {@code gen} subcommands through Main, as the launcher runs them. */
class FileCommandsTest {
    @TempDir
    Path tmp;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(final String... args) {
        out.reset();
        err.reset();
        return Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private List<String> lines(final ByteArrayOutputStream s) {
        return s.toString(StandardCharsets.UTF_8).lines().toList();
    }

    @Test
    void decodeAndSessionsOfAGeneratedFile() throws Exception {
        final Path f = tmp.resolve("g.pcap");
        assertEquals(0, run("gen", "--out", f.toString(), "--sessions", "100"));
        assertEquals(0, run("decode", f.toString()));
        final List<String> decoded = lines(out);
        assertEquals(500, decoded.size());
        final ObjectMapper om = new ObjectMapper();
        final JsonNode first = om.readTree(decoded.get(0));
        assertEquals(1, first.get("frame").asInt());
        assertEquals("REQ", first.get("msg").asText());
        assertTrue(first.get("transaction_id").asText().matches("0x[0-9a-f]{16}"));
        assertTrue(first.get("local_comm_id").asText().matches("0x[0-9a-f]{8}"));
        assertFalse(first.has("remote_comm_id"), "REQ carries no remote comm ID");
        assertEquals(List.of("rst decode: " + f + ": 500 packets read, 500 CM MADs, 0 RoCE data, 0 skipped"),
            lines(err));
        assertEquals(0, run("sessions", f.toString()));
        final List<String> sessions = lines(out);
        assertEquals(100, sessions.size());
        for (String s : sessions) {
            final JsonNode n = om.readTree(s);
            assertEquals("CLOSED", n.get("state").asText());
            assertEquals("[\"REQ\",\"REP\",\"RTU\",\"DREQ\",\"DREP\"]", n.get("messages").toString());
        }
    }

    @Test
    void sessionsJudgesReqAndDreqTimeoutsAtTheLastPacketOfTheFile() throws Exception {
        final Path f = tmp.resolve("all.pcap");
        assertEquals(0, run("gen", "--out", f.toString(), "--sessions", "22", "--all-types", "--ip", "0",
            "--vlans", "-1", "--nanos"));
        assertEquals(0, run("sessions", f.toString()));
        final ObjectMapper om = new ObjectMapper();
        final java.util.Map<String, Long> states = new java.util.TreeMap<>();
        for (String s : lines(out)) {
            states.merge(om.readTree(s).get("state").asText(), 1L, Long::sum);
        }
        // 22 connections, 2 of each scenario; the 2 SIDR exchanges make no session
        // the DREQs without DREP (scenario 6) time out too: 4.3 s before the file's end
        assertEquals(java.util.Map.of("CLOSED", 8L, "ESTABLISHED", 4L, "REJECTED", 4L, "TIMED_OUT", 4L), states);
    }

    @Test
    void decodeOfARealCaptureCountsSkipsByReason() throws Exception {
        final Path f = Captures.dir().resolve("rdma-roce-lab__test.pcap");
        assertEquals(0, run("decode", f.toString()));
        assertEquals(5, lines(out).size());
        assertEquals(List.of("rst decode: " + f + ": 16 packets read, 5 CM MADs, 7 RoCE data, 4 skipped (not_ip 4)"),
            lines(err));
    }

    @Test
    void missingAndNonCaptureFilesFailWithOneLine() throws Exception {
        assertEquals(1, run("decode", tmp.resolve("nope.pcap").toString()));
        assertEquals(1, lines(err).size());
        assertTrue(lines(err).get(0).contains("no such file"));
        assertEquals("", out.toString(StandardCharsets.UTF_8));
        final Path txt = tmp.resolve("x.pcap");
        Files.writeString(txt, "not a capture at all");
        assertEquals(1, run("sessions", txt.toString()));
        assertEquals(1, lines(err).size());
        assertTrue(lines(err).get(0).contains("not a pcap or pcapng file"));
        assertEquals(1, run("decode", tmp.toString()));
        assertEquals(2, run("decode"));
        assertEquals(2, run("frobnicate"));
    }
}
