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

    private List<String> lines(final ByteArrayOutputStream stream) {
        return stream.toString(StandardCharsets.UTF_8).lines().toList();
    }

    @Test
    void decodeAndSessionsOfAGeneratedFile() throws Exception {
        final Path f = tmp.resolve("g.pcap");
        assertEquals(0, run("gen", "--out", f.toString(), "--sessions", "100", "--storm"));
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

    @Test
    void genWritesLiveSessionsBetweenAFewHostsByDefault() throws Exception {
        final Path f = tmp.resolve("live.pcap");
        assertEquals(0, run("gen", "--out", f.toString(), "--sessions", "300"));
        assertEquals(
            List.of("rst gen: " + f + ": 900 frames, 300 sessions: live sessions (ESTABLISHED) between 16 hosts"),
            lines(err));
        assertEquals(0, run("sessions", f.toString()));
        final ObjectMapper om = new ObjectMapper();
        final java.util.Set<String> hosts = new java.util.TreeSet<>();
        final java.util.Map<String, Integer> perPair = new java.util.HashMap<>();
        final java.util.Map<String, java.util.Set<String>> commIds = new java.util.HashMap<>();
        final List<String> sessions = lines(out);
        // no two connections of a host share a comm ID, so none merge: every connection is a session
        assertEquals(300, sessions.size());
        for (String s : sessions) {
            final JsonNode n = om.readTree(s);
            assertEquals("ESTABLISHED", n.get("state").asText(), s);
            assertEquals("[\"REQ\",\"REP\",\"RTU\"]", n.get("messages").toString());
            final String a = n.get("requester_ip").asText();
            final String b = n.get("responder_ip").asText();
            assertTrue(a.matches("10\\.0\\.[1-4]\\.1[1-4]") && b.matches("10\\.0\\.[1-4]\\.1[1-4]"), s);
            assertFalse(a.equals(b), s);
            hosts.add(a);
            hosts.add(b);
            perPair.merge(a + ">" + b, 1, Integer::sum);
            assertTrue(commIds.computeIfAbsent(a, k -> new java.util.HashSet<>())
                .add(n.get("requester_comm_id").asText()), s);
            assertTrue(commIds.computeIfAbsent(b, k -> new java.util.HashSet<>())
                .add(n.get("responder_comm_id").asText()), s);
            assertTrue(n.has("rdma_cm_src_port") && n.has("rdma_cm_dst_port"), s);
        }
        assertEquals(16, hosts.size(), "300 sessions reach every one of the 16 hosts");
        assertTrue(perPair.values().stream().anyMatch(c -> c > 1), "some pairs hold several sessions");

        // the two sides' CM packets leave with UDP source ports of their own
        assertEquals(0, run("decode", f.toString()));
        final java.util.Map<String, Integer> reqPort = new java.util.HashMap<>();
        int differ = 0;
        for (String l : lines(out)) {
            final JsonNode n = om.readTree(l);
            if ("REQ".equals(n.get("msg").asText())) {
                reqPort.put(n.get("src_ip").asText() + n.get("local_comm_id").asText(), n.get("udp_src_port").asInt());
            } else if ("REP".equals(n.get("msg").asText())) {
                final int req = reqPort.get(n.get("dst_ip").asText() + n.get("remote_comm_id").asText());
                differ += req != n.get("udp_src_port").asInt() ? 1 : 0;
            }
        }
        assertTrue(differ > 290, "REQ and REP of a session use different UDP source ports: " + differ);
    }

    @Test
    void genStormAndItsEstablishedVariantAndAPinnedStart() throws Exception {
        final Path f = tmp.resolve("s.pcap");
        assertEquals(0, run("gen", "--out", f.toString(), "--sessions", "40", "--storm", "--established",
            "--start", "1767225600"));
        assertEquals(0, run("sessions", f.toString()));
        assertEquals(40, lines(out).size());
        final ObjectMapper om = new ObjectMapper();
        for (String s : lines(out)) {
            assertEquals("ESTABLISHED", om.readTree(s).get("state").asText());
        }
        assertEquals(0, run("decode", f.toString()));
        assertEquals(120, lines(out).size());
        assertTrue(lines(out).get(0).contains("\"time\":1767225600.000000,"), lines(out).get(0));
        // same seed, same start: the same file
        final Path g = tmp.resolve("s2.pcap");
        assertEquals(0, run("gen", "--out", g.toString(), "--sessions", "40", "--storm", "--established",
            "--start", "1767225600"));
        assertEquals(-1L, Files.mismatch(f, g));
    }

    @Test
    void genDataStormIsOneDataLearnedSessionPerQpPair() throws Exception {
        final Path f = tmp.resolve("data.pcap");
        assertEquals(0, run("gen", "--out", f.toString(), "--data-storm", "--sessions", "300", "--frames", "6001",
            "--start", "1767225600"));
        assertTrue(lines(err).get(0).contains(": 6000 frames, 300 QP pairs"), lines(err).toString());
        assertEquals(0, run("sessions", "--data-sample", "1", f.toString()));
        final ObjectMapper om = new ObjectMapper();
        final java.util.Set<String> ids = new java.util.HashSet<>();
        final java.util.Set<String> addressPairs = new java.util.HashSet<>();
        for (String line : lines(out)) {
            final JsonNode s = om.readTree(line);
            assertEquals("data", s.path("learned_from").asText(), line);
            assertFalse(s.path("one_way").asBoolean(), line);
            assertEquals("ACTIVE", s.path("state").asText(), line);
            assertTrue(ids.add(s.path("session_id").asText()), line);
            addressPairs.add(s.path("requester_ip").asText() + " " + s.path("responder_ip").asText());
            // 20 frames per QP pair, 10 each way (requests one way are answers the other)
            assertEquals(10, s.path("requester_data").path("packets").asLong(), line);
            assertEquals(10, s.path("responder_data").path("packets").asLong(), line);
        }
        assertEquals(300, ids.size());
        assertEquals(300, addressPairs.size());
    }

    @Test
    void helpGoesToStdoutWithStatusZero() {
        for (String cmd : List.of("decode", "sessions", "gen")) {
            for (String flag : List.of("--help", "-h")) {
                assertEquals(0, run(cmd, flag), cmd + " " + flag);
                assertTrue(out.toString(StandardCharsets.UTF_8).startsWith("usage: rst " + cmd + " "), cmd);
                assertEquals("", err.toString(StandardCharsets.UTF_8), cmd);
            }
        }
        for (String flag : List.of("--help", "-h", "help")) {
            assertEquals(0, run(flag));
            final String usage = out.toString(StandardCharsets.UTF_8);
            assertTrue(usage.startsWith("usage: rst COMMAND"), usage);
            for (String cmd : List.of("decode", "sessions", "gen", "agent")) {
                assertTrue(usage.contains("\n  " + cmd + " "), cmd + " missing from " + usage);
            }
            assertEquals("", err.toString(StandardCharsets.UTF_8));
        }
        // the help of a command also wins over its other arguments
        assertEquals(0, run("gen", "--sessions", "5", "--help"));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("--storm"));
    }

    @Test
    void badUsageIsOneLineOnStderrWithStatusTwo() {
        final List<List<String>> bad = List.of(List.of("frobnicate"), List.of("decode"),
            List.of("decode", "--bogus", "f"), List.of("decode", "a.pcap", "b.pcap"),
            List.of("sessions", "--port", "x", "f"), List.of("sessions", "--port"),
            List.of("gen"), List.of("gen", "--out"), List.of("gen", "--out", "f", "--bogus"),
            List.of("gen", "--out", "f", "--sessions", "many"), List.of("gen", "--out", "f", "--ip", "5"),
            List.of("gen", "--out", "f", "--all-types", "--storm"),
            List.of("gen", "--out", "f", "--storm", "--hosts", "4"),
            List.of("gen", "--out", "f", "--hosts", "1"), List.of("gen", "--out", "f", "--frames", "10"),
            List.of("gen", "--out", "f", "--data-storm", "--storm"),
            List.of("gen", "--out", "f", "--data-storm", "--sessions", "0"),
            List.of("gen", "--out", "f", "--data-storm", "--frames", "1"));
        for (List<String> args : bad) {
            assertEquals(2, run(args.toArray(String[]::new)), args.toString());
            assertEquals("", out.toString(StandardCharsets.UTF_8), args.toString());
            final List<String> e = lines(err);
            assertEquals(1, e.size(), args + ": " + e);
            assertTrue(e.get(0).startsWith("rst") && e.get(0).endsWith(" --help)"), e.get(0));
        }
        // no command at all: the whole usage, on stderr
        assertEquals(2, run());
        assertTrue(err.toString(StandardCharsets.UTF_8).startsWith("usage: rst COMMAND"));
    }
}
