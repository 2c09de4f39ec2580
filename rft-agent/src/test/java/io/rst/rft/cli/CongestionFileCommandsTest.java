/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rst.rft.decode.CmMessageType;
import io.rst.rft.decode.FrameDecoder;
import io.rst.rft.pcap.CmFrameBuilder;
import io.rst.rft.pcap.DataFrameBuilder;
import io.rst.rft.pcap.DataTrafficGenerator;
import io.rst.rft.pcap.PcapWriter;
import io.rst.rft.pcap.PfcFrameBuilder;
import io.rst.rft.testutil.Captures;
import io.rst.rft.testutil.Tshark;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code rst decode} lists PFC frames and counts CNPs; {@code rst sessions} counts ECN marks and
 * CNPs per session and direction, on generated files and, against tshark's fields, on the real
 * captures that hold ECN-capable data (none of them holds a CE mark, a CNP or a PFC frame).
 */
class CongestionFileCommandsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final byte[] A = {10, 0, 0, 1};
    private static final byte[] B = {10, 0, 0, 2};

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

    private static byte[] cm(final CmMessageType type, final byte[] src, final byte[] dst, final int lc, final int rc,
            final int qpn) {
        final byte[] buf = new byte[512];
        return Arrays.copyOf(buf, new CmFrameBuilder().ips(src, dst).type(type).commIds(lc, rc).localQpn(qpn)
            .build(buf));
    }

    private Path write(final List<byte[]> frames) throws IOException {
        final Path f = tmp.resolve("c.pcap");
        try (PcapWriter w = PcapWriter.pcap(f, FrameDecoder.LINKTYPE_ETHERNET, false, false)) {
            long ns = 1_767_225_600_000_000_000L;
            for (byte[] frame : frames) {
                w.write(ns, frame, 0, frame.length);
                ns += 1000;
            }
        }
        return f;
    }

    @Test
    void decodeListsPfcFramesAndCountsCnps() throws Exception {
        final byte[] pfc = new PfcFrameBuilder().srcMac(0x020000000007L).pause(3, 0xffff).build();
        final Path f = write(List.of(
            cm(CmMessageType.REQ, A, B, 0x11, 0, 0x101),
            new DataFrameBuilder().ips(A, B).destQp(0x202).ecn(3).build(),
            new DataFrameBuilder().ips(B, A).opcode(DataFrameBuilder.CNP).destQp(0x101).build(),
            pfc,
            Arrays.copyOf(pfc, 30),
            new PfcFrameBuilder().opcode(0x0001).quanta(0, 0xffff).build()));
        assertEquals(0, run("decode", f.toString()));
        final List<String> decoded = lines(out);
        assertEquals(2, decoded.size(), decoded.toString());
        assertEquals("REQ", JSON.readTree(decoded.get(0)).path("msg").asText());
        assertEquals("{\"frame\":4,\"time\":1767225600.000003,\"src_mac\":\"02:00:00:00:00:07\",\"msg\":\"PFC\","
            + "\"class_enable\":8,\"quanta\":[0,0,0,65535,0,0,0,0]}", decoded.get(1));
        assertEquals(List.of("rst decode: " + f + ": 6 packets read, 1 CM MADs, 2 RoCE data (1 CNPs), 1 PFC frames, "
            + "2 skipped (not_ip 1, bad_pfc 1)"), lines(err));
    }

    @Test
    void sessionsCountsEcnAndEveryCnpWhateverTheSampling() throws Exception {
        final List<byte[]> frames = new ArrayList<>(List.of(
            cm(CmMessageType.REQ, A, B, 0x11, 0, 0x101),
            cm(CmMessageType.REP, B, A, 0x22, 0x11, 0x202),
            cm(CmMessageType.RTU, A, B, 0x11, 0x22, 0)));
        for (int psn = 0; psn < 128; psn++) {
            frames.add(new DataFrameBuilder().ips(A, B).destQp(0x202).psn(psn).ecn(psn < 64 ? 2 : 3).build());
        }
        for (int i = 0; i < 5; i++) {
            frames.add(new DataFrameBuilder().ips(B, A).opcode(DataFrameBuilder.CNP).destQp(0x101).psn(i).build());
        }
        frames.add(new DataFrameBuilder().ips(B, A).opcode(DataFrameBuilder.CNP).destQp(0x999).build());
        final Path f = write(frames);
        assertEquals(0, run("sessions", "--data-sample", "64", f.toString()));
        final JsonNode s = JSON.readTree(lines(out).get(0));
        // PSN 0 (ECT(0)) and 64 (CE) are sampled; every CNP counts
        assertEquals(JSON.readTree("{\"udp_src_port\":49152,\"packets\":2,\"dscp\":26,\"ect\":2,\"ce\":1,\"cnp\":5}"),
            s.path("requester_data"));
        assertEquals(List.of("rst sessions: " + f + ": 137 packets read, 3 CM MADs, 134 RoCE data (6 CNPs), 0 skipped; "
            + "1 CNPs of no session"), lines(err));
        assertEquals(0, run("sessions", "--data-sample", "1", f.toString()));
        assertEquals(JSON.readTree("{\"udp_src_port\":49152,\"packets\":128,\"dscp\":26,\"ect\":128,\"ce\":64,"
            + "\"cnp\":5}"), JSON.readTree(lines(out).get(0)).path("requester_data"));
    }

    /**
     * {@code rst gen --data-storm --congestion}: every data packet ECT, one turn in eight with its
     * request CE-marked and answered by a CNP, and a PFC frame after every 1000 frames; the agent's
     * own counting reads back exactly that.
     */
    @Test
    void theCongestionStormIsCountedBackByTheAgent() throws Exception {
        final Path f = tmp.resolve("storm.pcap");
        assertEquals(0, run("gen", "--out", f.toString(), "--data-storm", "--congestion", "--sessions", "3",
            "--frames", "2100", "--seed", "5", "--start", "1767225600"), lines(err).toString());
        final long written = Long.parseLong(lines(err).get(0).replaceAll(".*: (\\d+) frames, .*", "$1"));
        assertTrue(written > 2090 && written <= 2100, lines(err).toString());
        assertEquals(0, run("sessions", "--data-sample", "1", f.toString()));
        // the first turn's CNP comes before its QP pair is paired: a CNP of no session
        final String sessionsSummary = lines(err).get(0);
        final long unmatched = sessionsSummary.matches(".*; (\\d+) CNPs of no session$")
            ? Long.parseLong(sessionsSummary.replaceAll(".*; (\\d+) CNPs of no session$", "$1")) : 0;
        long packets = 0;
        long ect = 0;
        long ce = 0;
        long cnp = 0;
        final List<String> sessions = lines(out);
        assertEquals(3, sessions.size(), sessions.toString());
        for (String line : sessions) {
            final JsonNode s = JSON.readTree(line);
            assertEquals("data", s.path("learned_from").asText(), line);
            for (String dir : List.of("requester_data", "responder_data")) {
                final JsonNode d = s.path(dir);
                packets += d.path("packets").asLong();
                ect += d.path("ect").asLong();
                ce += d.path("ce").asLong();
                cnp += d.path("cnp").asLong();
                assertEquals(26, d.path("dscp").asInt(), line);
            }
        }
        final long turns = packets / 2;
        assertEquals(2 * turns, packets, "two data packets a turn");
        assertEquals(packets, ect, "every data packet ECN-capable");
        assertEquals((turns + DataTrafficGenerator.CE_EVERY - 1) / DataTrafficGenerator.CE_EVERY, ce,
            "the first turn of every eight CE-marked");
        assertEquals(1, unmatched, sessionsSummary);
        assertEquals(ce, cnp + unmatched, "each CE mark answered by one CNP");
        assertEquals(0, run("decode", f.toString()));
        final String summary = lines(err).get(0);
        assertTrue(summary.contains("(" + ce + " CNPs), 2 PFC frames"), summary);
        assertEquals(written, packets + ce + 2, "data, CNPs and PFC frames: every frame written");
    }

    /** Per one-way flow (source, destination, destination QP): tshark's counts. */
    private static final class Flow {
        long packets;
        long ect;
        long ce;
        int lastDscp = -1;
    }

    private static Map<String, Flow> tshark(final Path pcap, final long[] cnpsAndPfc) throws Exception {
        final List<String[]> rows = Tshark.fields(pcap, List.of("-Y", "infiniband.bth or macc"), List.of("ip.src",
            "ip.dst", "ipv6.src", "ipv6.dst", "infiniband.bth.destqp", "infiniband.bth.opcode", "ip.dsfield.ecn",
            "ipv6.tclass.ecn", "ip.dsfield.dscp", "ipv6.tclass.dscp", "eth.type"));
        final Map<String, Flow> flows = new TreeMap<>();
        for (String[] c : rows) {
            if (c[4].isEmpty()) {
                // MAC control
                cnpsAndPfc[1]++;
                continue;
            }
            final int qp = (int) Tshark.number(c[4]);
            final int op = (int) Tshark.number(c[5]);
            if (op == 0x81) {
                cnpsAndPfc[0]++;
                continue;
            }
            if (qp == 1) {
                // CM: QP 1
                continue;
            }
            final String src = text(c[0].isEmpty() ? c[2] : c[0]);
            final String dst = text(c[1].isEmpty() ? c[3] : c[1]);
            final Flow f = flows.computeIfAbsent(src + ">" + dst + ">" + qp, k -> new Flow());
            final int ecn = (int) Tshark.number(c[6].isEmpty() ? c[7] : c[6]);
            f.packets++;
            f.ect += ecn != 0 ? 1 : 0;
            f.ce += ecn == 3 ? 1 : 0;
            f.lastDscp = (int) Tshark.number(c[8].isEmpty() ? c[9] : c[8]);
        }
        return flows;
    }

    /**
     * The real captures with ECN-capable RoCE data: linux-riscv-dev__write.pcap (a CM session, ECT(0)
     * both ways, DSCP 0 one way and 26 the other), linux-riscv-dev__nvme-discover.pcap (a CM session
     * of NVMe-oF, ECT(1) both ways) and linux-riscv-dev__rocev2_test.pcap (SEND and ACK without CM,
     * ECT(0), DSCP 0 and 26): every direction's packets, ECN-capable and CE counts and last DSCP
     * are tshark's; no CE, CNP or PFC frame is in any of them.
     */
    @ParameterizedTest
    @ValueSource(strings = {"linux-riscv-dev__write.pcap", "linux-riscv-dev__nvme-discover.pcap",
        "linux-riscv-dev__rocev2_test.pcap"})
    void realCapturesEcnFiguresAreTsharks(final String name) throws Exception {
        final Path pcap = Captures.dir().resolve(name);
        Tshark.assumeInstalled();
        final long[] cnpsAndPfc = new long[2];
        final Map<String, Flow> flows = tshark(pcap, cnpsAndPfc);
        assertEquals(0, cnpsAndPfc[0], "no CNP in " + name);
        assertEquals(0, cnpsAndPfc[1], "no PFC frame in " + name);
        assertEquals(0, run("sessions", "--data-sample", "1", pcap.toString()));
        final Map<String, JsonNode> directions = new HashMap<>();
        for (String line : lines(out)) {
            final JsonNode r = JSON.readTree(line);
            final String req = r.path("requester_ip").asText();
            final String resp = r.path("responder_ip").asText();
            if (r.path("requester_data").has("packets") && r.has("responder_qpn")) {
                directions.put(req + ">" + resp + ">" + r.path("responder_qpn").asInt(), r.path("requester_data"));
            }
            if (r.path("responder_data").has("packets") && r.has("requester_qpn")) {
                directions.put(resp + ">" + req + ">" + r.path("requester_qpn").asInt(), r.path("responder_data"));
            }
        }
        assertEquals(flows.keySet(), new java.util.TreeSet<>(directions.keySet()), name);
        long ect = 0;
        for (Map.Entry<String, Flow> e : flows.entrySet()) {
            final JsonNode d = directions.get(e.getKey());
            assertNotNull(d, e.getKey());
            final Flow f = e.getValue();
            assertEquals(f.packets, d.path("packets").asLong(), name + " " + e.getKey());
            assertEquals(f.ect, d.path("ect").asLong(), name + " " + e.getKey());
            assertEquals(f.ce, d.path("ce").asLong(), name + " " + e.getKey());
            assertEquals(f.lastDscp, d.path("dscp").asInt(), name + " " + e.getKey());
            assertEquals(0, d.path("cnp").asLong(), name + " " + e.getKey());
            ect += f.ect;
        }
        assertTrue(ect > 0, "ECN-capable data in " + name);
        assertEquals(0, run("decode", pcap.toString()));
        assertTrue(!lines(err).get(0).contains("CNPs") && !lines(err).get(0).contains("PFC"), lines(err).get(0));
    }

    private static String text(final String ip) throws IOException {
        return InetAddress.getByName(ip).getHostAddress().replaceAll("(^|:)0(:0)+(:|$)", "::");
    }
}
