/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.cli;

import static io.rst.rft.testutil.Tshark.number;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rst.rft.testutil.Captures;
import io.rst.rft.testutil.Tshark;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code rst sessions} on real captures of sessions set up without CM (NCCL, perftest, SEND/ACK
 * tests), against what tshark's fields say: every RC QP pair the packets show, found here from
 * tshark's IP addresses, destination QPs, opcodes and PSNs by the same evidence (an answer whose
 * PSN one flow of the opposite direction sent before, and no other; two such answers pair), but
 * counted independently of the agent's code (every earlier request, not only the recent ones).
 */
class RealCaptureDataSessionsTest {
    private static final Logger LOG = LoggerFactory.getLogger(RealCaptureDataSessionsTest.class);

    private static final ObjectMapper JSON = new ObjectMapper();

    /** A one-way flow as tshark shows it. */
    private static final class Flow {
        final String src;
        final String dst;
        final int qp;
        final int transport;
        final List<long[]> requests = new ArrayList<>();
        long packets;

        Flow(final String src, final String dst, final int qp, final int transport) {
            this.src = src;
            this.dst = dst;
            this.qp = qp;
            this.transport = transport;
        }

        String oneWayId() {
            return src + "/-/" + dst + "/" + qpText(qp);
        }
    }

    private static String qpText(final int qpn) {
        return String.format("qp0x%06x", qpn);
    }

    private static boolean isAnswer(final int op) {
        return op >= 0x0d && op <= 0x12;
    }

    /** Whether answer PSN p belongs to a request (psn, READ length or -1) of the requester. */
    private static boolean answers(final long[] req, final long psn) {
        final long span = req[1] < 0 ? 1 : Math.min(255, Math.max(1, (req[1] + 255) / 256));
        return (psn - req[0] & 0xffffff) < span;
    }

    /** Orders endpoints (IP, QPN) as the session ids do: IP address bytes, then QPN. */
    private static int compare(final String ipA, final int qa, final String ipB, final int qb) throws IOException {
        final byte[] a = InetAddress.getByName(ipA).getAddress();
        final byte[] b = InetAddress.getByName(ipB).getAddress();
        final int c = Arrays.compareUnsigned(a, b);
        return c != 0 ? c : Integer.compare(qa, qb);
    }

    @ParameterizedTest
    @ValueSource(strings = {"linux-riscv-dev__rocev2_test.pcap", "rdma_ib_tutorial__nccl_ring2_node0.pcap",
        "rdma_ib_tutorial__rdma_write_bw.pcap", "linux-riscv-dev__rdma-nccl2.pcap",
        "rdma_ib_tutorial__pingpong_ud.pcap"})
    void sessionsListsEveryRcQpPairTsharkShows(final String name) throws Exception {
        final Path file = Captures.dir().resolve(name);
        assumeTrue(Files.isReadable(file), name + " is not in the captures folder: skipped");
        Tshark.assumeInstalled();

        // the evidence, from tshark's fields
        final Map<String, Flow> flows = new LinkedHashMap<>();
        final Map<String, Integer> votes = new TreeMap<>();
        final Map<String, Flow[]> pairOf = new HashMap<>();
        for (String[] row : Tshark.fields(file, List.of("-Y", "infiniband.bth"), List.of("ip.src", "ip.dst",
                "ipv6.src", "ipv6.dst", "infiniband.bth.destqp", "infiniband.bth.opcode", "infiniband.bth.psn",
                "infiniband.reth.dmalen"))) {
            final String src = row[0].isEmpty() ? row[2] : row[0];
            final String dst = row[1].isEmpty() ? row[3] : row[1];
            if (row[4].isEmpty() || row[5].isEmpty() || src.isEmpty()) {
                continue;
            }
            final int qp = (int) number(row[4]);
            final int op = (int) number(row[5]);
            final long psn = number(row[6]);
            final int transport = op >>> 5;
            if (qp <= 1 || transport != 0 && transport != 1 && transport != 3) {
                continue;
            }
            final Flow f = flows.computeIfAbsent(src + "/" + dst + "/" + qp, k -> new Flow(src, dst, qp, transport));
            f.packets++;
            if (transport != 0) {
                continue;
            }
            if (!isAnswer(op)) {
                f.requests.add(new long[] {psn, op == 0x0c && !row[7].isEmpty() ? number(row[7]) : -1});
                continue;
            }
            // an answer: which flows of the opposite direction sent a request it answers?
            final List<Flow> fit = new ArrayList<>();
            for (Flow x : flows.values()) {
                if (x.transport == 0 && x.src.equals(dst) && x.dst.equals(src) && x != f
                        && x.requests.stream().anyMatch(r -> answers(r, psn))) {
                    fit.add(x);
                }
            }
            if (fit.size() == 1) {
                final Flow x = fit.get(0);
                final String key = compare(x.dst, x.qp, f.dst, f.qp) <= 0
                    ? x.dst + "/" + qpText(x.qp) + "/" + f.dst + "/" + qpText(f.qp)
                    : f.dst + "/" + qpText(f.qp) + "/" + x.dst + "/" + qpText(x.qp);
                votes.merge(key, 1, Integer::sum);
                pairOf.put(key, new Flow[] {x, f});
            }
        }
        final Map<String, Flow[]> pairs = new TreeMap<>();
        final java.util.Set<Flow> paired = new java.util.HashSet<>();
        votes.forEach((k, n) -> {
            if (n >= 2) {
                pairs.put(k, pairOf.get(k));
            }
        });
        for (Flow[] p : pairs.values()) {
            assertTrue(paired.add(p[0]) && paired.add(p[1]), "the evidence pairs a flow twice: " + pairs.keySet());
        }
        final TreeSet<String> oneWay = new TreeSet<>();
        for (Flow f : flows.values()) {
            if (!paired.contains(f)) {
                oneWay.add(f.oneWayId() + " " + new String[] {"RC", "UC", "", "UD"}[f.transport]);
            }
        }

        // what rst sessions says
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(0, Main.run(new String[] {"sessions", file.toString()}, new PrintStream(out, true,
            StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8)), err::toString);
        final Map<String, JsonNode> sessions = new TreeMap<>();
        final TreeSet<String> oneWayListed = new TreeSet<>();
        for (String line : out.toString(StandardCharsets.UTF_8).lines().toList()) {
            final JsonNode n = JSON.readTree(line);
            assertEquals("data", n.path("learned_from").asText(), "no CM in these files: " + line);
            if (n.path("one_way").asBoolean(false)) {
                oneWayListed.add(n.path("session_id").asText() + " " + n.path("transport").asText());
            } else {
                sessions.put(n.path("session_id").asText(), n);
            }
        }
        assertEquals(pairs.keySet(), sessions.keySet(), name + ": the RC QP pairs");
        assertEquals(oneWay, oneWayListed, name + ": the one-way flows");
        for (Map.Entry<String, Flow[]> e : pairs.entrySet()) {
            final JsonNode s = sessions.get(e.getKey());
            assertEquals("RC", s.path("transport").asText());
            assertEquals("ACTIVE", s.path("state").asText(), "the files are shorter than the idle time");
            // requester_data: toward B, the second endpoint of the id
            final Flow[] p = e.getValue();
            final Flow toB = e.getKey().endsWith("/" + p[0].dst + "/" + qpText(p[0].qp)) ? p[0] : p[1];
            final Flow toA = toB == p[0] ? p[1] : p[0];
            assertEquals(toB.packets, s.path("requester_data").path("packets").asLong(), e.getKey());
            assertEquals(toA.packets, s.path("responder_data").path("packets").asLong(), e.getKey());
        }
        if (name.equals("linux-riscv-dev__rocev2_test.pcap")) {
            assertEquals(16, sessions.size(), "the capture's 16 two-way QP pairs");
        }
        LOG.info("{}: {} RC sessions, {} one-way flows", name, sessions.size(), oneWayListed.size());
    }
}
