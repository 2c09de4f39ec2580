/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.lab;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The NCCL-style traffic as it goes to the wire, through the lab's recording (the frames each
 * switch port captures) rather than the hosts' namespaces: every frame decoded by tshark and
 * checked as an RC requester and responder must send it, every ICRC recomputed, and the truth
 * log's record of each QP pair.
 */
class NcclTrafficTest {
    @TempDir
    static Path dir;
    private static Fabric fabric;
    private static List<Truth.NcclQp> qps;
    /** tshark's fields of every frame each host sent, by host. */
    private static Map<String, List<String[]>> sent;
    private static Path truthFile;
    private static long cmConnections;

    /** The fields asked of tshark, in this order. */
    private static final String[] FIELDS = {"ip.src", "ip.dst", "udp.srcport", "udp.length", "infiniband.bth.opcode",
        "infiniband.bth.destqp", "infiniband.bth.psn", "infiniband.bth.a", "infiniband.bth.p_key",
        "infiniband.reth.dmalen", "infiniband.aeth.syndrome", "infiniband.aeth.msn", "infiniband.immdt",
        "infiniband.invariant.crc"};
    private static final int SRC = 0;
    private static final int DST = 1;
    private static final int SPORT = 2;
    private static final int UDPLEN = 3;
    private static final int OP = 4;
    private static final int QP = 5;
    private static final int PSN = 6;
    private static final int ACKREQ = 7;
    private static final int PKEY = 8;
    private static final int DMALEN = 9;
    private static final int SYNDROME = 10;
    private static final int MSN = 11;
    private static final int IMM = 12;
    private static final int ICRC = 13;

    @BeforeAll
    static void traffic() throws Exception {
        fabric = Fabric.defaults();
        truthFile = dir.resolve("truth.jsonl");
        final Path rec = dir.resolve("recording");
        try (var recording = new Recording(fabric, rec); var truth = new Truth.Writer(truthFile)) {
            final var traffic = new Traffic(fabric, truth, 1, recording);
            try {
                // every QP starts just below the PSN wrap; long-lived ones live 0.3 s, a message
                // every 20 ms after their burst of 60
                traffic.nccl().options(NcclTraffic.Options.defaults(1).withBurst(60, 0).withWrapShare(1)
                    .withLife(0.3, 20));
                // a quarter of the connections NCCL-style, the rest CM: both in one truth file
                traffic.run(new Traffic.Options(10_000, 1000, 64, 0, 3, 1, false, 0.25));
                traffic.quiesce();
                await("the long-lived QP pairs stop sending").atMost(Duration.ofSeconds(20))
                    .pollInterval(Duration.ofMillis(20)).until(() -> traffic.nccl().running() == 0);
                assertEquals(0, traffic.nccl().bootstrapErrors(), "bootstrap: " + traffic.nccl().lastError());
                assertEquals(0, traffic.nccl().sequenceErrors(), "PSNs: " + traffic.nccl().lastError());
                assertEquals(0, traffic.sendErrors(), "send errors: " + traffic.lastError());
            } finally {
                traffic.close();
            }
        }
        qps = Truth.readNccl(truthFile);
        cmConnections = Truth.read(truthFile).size();
        sent = new LinkedHashMap<>();
        if (tshark()) {
            for (var h : fabric.hosts()) {
                final var leafPort = fabric.peer(h.id(), "eth0");
                final Path file = rec.resolve(leafPort.node()).resolve(leafPort.name() + ".pcap");
                sent.put(h.id(), Files.exists(file) ? decode(file) : List.of());
            }
        }
    }

    private static boolean tshark() {
        return Files.isExecutable(Path.of("/usr/bin/tshark"));
    }

    private static List<String[]> decode(final Path file) throws IOException, InterruptedException {
        final List<String> cmd = new ArrayList<>(List.of("tshark", "-n", "-r", file.toString(), "-T", "fields",
            "-E", "separator=\t", "-E", "occurrence=f", "-Y", "infiniband.bth.opcode < 0x64"));
        for (var f : FIELDS) {
            cmd.add("-e");
            cmd.add(f);
        }
        final var out = run(cmd);
        final List<String[]> rows = new ArrayList<>();
        for (var line : out.split("\n")) {
            if (!line.isBlank()) {
                rows.add(line.split("\t", -1));
            }
        }
        return rows;
    }

    private static String run(final List<String> cmd) throws IOException, InterruptedException {
        final var p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), "tshark failed: " + cmd);
        return out;
    }

    @Test
    void everyQpPairIsInTheTruthWithItsIdPortsAndTimes() throws IOException {
        assertTrue(qps.size() >= 20, "QP pairs: " + qps.size());
        assertTrue(cmConnections > 20, "CM connections beside them: " + cmConnections);
        final Set<Long> connections = new HashSet<>();
        final Set<String> ids = new HashSet<>();
        boolean oneWay = false;
        boolean twoWay = false;
        boolean longLived = false;
        boolean shortLived = false;
        for (var q : qps) {
            connections.add(q.connection());
            assertTrue(ids.add(q.sessionId()), "two QP pairs with one id " + q.sessionId());
            assertTrue(q.sessionId()
                .matches("10\\.\\d+\\.\\d+\\.\\d+/qp0x[0-9a-f]{6}/10\\.\\d+\\.\\d+\\.\\d+/qp0x[0-9a-f]{6}"),
                q.sessionId());
            assertTrue(q.firstPacketMs() > 0 && q.pairableMs() >= q.firstPacketMs() && q.endedMs() >= q.firstPacketMs(),
                "times of " + q);
            assertTrue(q.portA() >= 49152 && q.portB() >= 49152, "ephemeral ports: " + q);
            if (q.id() == q.connection()) {
                // a connection's first QP: just below the wrap, as the options ask
                assertTrue(q.psnA() > 0xffffff - 256 && q.psnB() > 0xffffff - 256, "initial PSNs below the wrap: " + q);
            }
            oneWay |= !q.twoWay();
            twoWay |= q.twoWay();
            longLived |= q.longLived();
            shortLived |= !q.longLived();
        }
        assertTrue(oneWay && twoWay && longLived && shortLived, "one-way, two-way, long- and short-lived QP pairs");
        // 2 to 4 QPs per connection, each side's ports and QPs its own
        for (var c : connections) {
            final var mine = qps.stream().filter(q -> q.connection() == c).toList();
            assertTrue(mine.size() >= 2 && mine.size() <= 4, "QPs of connection " + c + ": " + mine.size());
            assertEquals(mine.size(), mine.stream().map(Truth.NcclQp::portA).distinct().count());
            assertEquals(mine.size(), mine.stream().map(Truth.NcclQp::portB).distinct().count());
            assertEquals(1, mine.stream().map(q -> q.hostA() + q.hostB()).distinct().count());
        }
        // ids for both kinds from one sequence: the next run starts above them all
        final long max = Math.max(qps.stream().mapToLong(Truth.NcclQp::id).max().orElseThrow(),
            Truth.read(truthFile).stream().mapToLong(Truth.Connection::id).max().orElseThrow());
        assertEquals(max + 1, Truth.nextId(truthFile));
    }

    @Test
    void sessionIdsOrderTheEndpointsByAddressThenQpn() {
        // 10.2.0.2 before 10.10.0.2: by the address's bytes, not its text
        final var q = new Truth.NcclQp(1, 1, "h10a", "10.10.0.2", 0x10, 1, 50000, "h2a", "10.2.0.2", 0xabcdef, 2, 50001,
            false, false, 0, -1, -1);
        assertFalse(q.aIsLower());
        assertEquals("10.2.0.2/qp0xabcdef/10.10.0.2/qp0x000010", q.sessionId());
        assertEquals("10.10.0.2/-/10.2.0.2/qp0xabcdef", q.oneWayIdAtoB());
        assertEquals("10.2.0.2/-/10.10.0.2/qp0x000010", q.oneWayIdBtoA());
        // one address: by QPN
        final var same = new Truth.NcclQp(1, 1, "h1a", "10.1.0.2", 0x200, 1, 50000, "h1a", "10.1.0.2", 0x100, 2, 50001,
            true, false, 0, -1, -1);
        assertEquals("10.1.0.2/qp0x000100/10.1.0.2/qp0x000200", same.sessionId());
        // IPv4 before IPv6
        assertTrue(Truth.compareIps("255.255.255.255", "::1") < 0);
    }

    @Test
    void theBootstrapReadsWhatThePeerSentAndRefusesAnythingElse() throws IOException {
        final var bytes = new ByteArrayOutputStream();
        final var out = new DataOutputStream(bytes);
        out.writeInt(NcclTraffic.MAGIC);
        out.writeInt(2);
        out.writeInt(0x123456);
        out.writeInt(0xfffff0);
        out.writeInt(0x11);
        out.writeInt(0);
        final int[][] got = NcclTraffic.receive(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())), 2);
        assertEquals(0x123456, got[0][0]);
        assertEquals(0xfffff0, got[0][1]);
        assertEquals(0x11, got[1][0]);
        // another QP count, another magic, a QPN beyond 24 bits, a message cut short
        assertThrows(IOException.class, () -> NcclTraffic.receive(in(bytes.toByteArray()), 3));
        final byte[] wrong = bytes.toByteArray().clone();
        wrong[0] = 0;
        assertThrows(IOException.class, () -> NcclTraffic.receive(in(wrong), 2));
        final byte[] wide = bytes.toByteArray().clone();
        wide[8] = 1;
        assertThrows(IOException.class, () -> NcclTraffic.receive(in(wide), 2));
        assertThrows(IOException.class, () -> NcclTraffic.receive(in(java.util.Arrays.copyOf(bytes.toByteArray(), 12)),
            2));
    }

    private static DataInputStream in(final byte[] bytes) {
        return new DataInputStream(new ByteArrayInputStream(bytes));
    }

    @Test
    void theIcrcIsTheOneRealRoceNicsSend() throws IOException {
        final Path pcaps = pcaps();
        assumeTrue(pcaps != null,
            "no ../shared/pcaps (set -Drst.pcaps=DIR): the real capture's ICRCs are not compared");
        final Path file = pcaps.resolve("rdma_ib_tutorial__nccl_ring2_node0.pcap");
        final var frames = rocePackets(file);
        assertTrue(frames.size() > 100, "RoCEv2 frames in the capture: " + frames.size());
        for (var f : frames) {
            assertEquals(storedIcrc(f), RcFrames.icrcOfPacket(f, 0, f.length), "ICRC of a real frame");
        }
    }

    /** The real captures' folder: -Drst.pcaps, or shared/pcaps beside this directory or one above it. */
    private static Path pcaps() {
        final String prop = System.getProperty("rst.pcaps");
        if (prop != null && !prop.isEmpty()) {
            return Files.isDirectory(Path.of(prop)) ? Path.of(prop) : null;
        }
        for (Path a = Path.of(System.getProperty("user.dir")).toAbsolutePath(); a != null; a = a.getParent()) {
            if (Files.isDirectory(a.resolve("shared/pcaps"))) {
                return a.resolve("shared/pcaps");
            }
        }
        return null;
    }

    @Test
    void everyFrameTheLabRecordedHasItsIcrc() throws IOException {
        // the NCCL-style QPs' frames (the CM connections' data is not RC as a NIC sends it)
        final Set<Integer> qpns = new HashSet<>();
        qps.forEach(q -> {
            qpns.add(q.qpnA());
            qpns.add(q.qpnB());
        });
        int checked = 0;
        for (var h : fabric.hosts()) {
            final var leafPort = fabric.peer(h.id(), "eth0");
            final Path file = dir.resolve("recording").resolve(leafPort.node()).resolve(leafPort.name() + ".pcap");
            if (!Files.exists(file)) {
                continue;
            }
            for (var f : rocePackets(file)) {
                final int op = f[28] & 0xff;
                final int qp = (f[33] & 0xff) << 16 | (f[34] & 0xff) << 8 | f[35] & 0xff;
                if (op <= RcFrames.ACKNOWLEDGE && qpns.contains(qp)) {
                    assertEquals(storedIcrc(f), RcFrames.icrcOfPacket(f, 0, f.length),
                        "ICRC of a lab frame, opcode " + op);
                    checked++;
                }
            }
        }
        assertTrue(checked > 1000, "RC frames checked: " + checked);
    }

    @Test
    void tsharkFindsNothingMalformed() throws Exception {
        assumeTrue(tshark(), "no tshark: the frames are not decoded");
        for (var h : fabric.hosts()) {
            final var leafPort = fabric.peer(h.id(), "eth0");
            final Path file = dir.resolve("recording").resolve(leafPort.node()).resolve(leafPort.name() + ".pcap");
            if (Files.exists(file)) {
                final String bad = run(List.of("tshark", "-n", "-r", file.toString(), "-Y",
                    "_ws.malformed || _ws.expert.severity >= warning"));
                assertEquals("", bad.strip(), "tshark's complaints about " + file);
            }
        }
    }

    /** One direction of a QP pair: the packets a host sent to its peer's QP. */
    private record Flow(String src, String dst, int qp) {
    }

    @Test
    void everyRequestAndResponseIsWhatAnRcQpSends() throws Exception {
        assumeTrue(tshark(), "no tshark: the frames are not decoded");
        final Map<Flow, List<String[]>> flows = new LinkedHashMap<>();
        for (var rows : sent.values()) {
            for (var r : rows) {
                flows.computeIfAbsent(new Flow(r[SRC], r[DST], Integer.decode(r[QP])), k -> new ArrayList<>()).add(r);
            }
        }
        int wraps = 0;
        int coalesced = 0;
        int reads = 0;
        int imm = 0;
        int sends = 0;
        int multi = 0;
        for (var q : qps) {
            final var ab = flows.get(new Flow(q.ipA(), q.ipB(), q.qpnB()));
            final var ba = flows.get(new Flow(q.ipB(), q.ipA(), q.qpnA()));
            assertNotNull(ab, "no packets from A to B's QP: " + q);
            assertNotNull(ba, "no packets from B to A's QP (its ACKs): " + q);
            for (var r : ab) {
                assertEquals(q.portA(), Integer.parseInt(r[SPORT]), "A's UDP source port");
            }
            for (var r : ba) {
                assertEquals(q.portB(), Integer.parseInt(r[SPORT]), "B's UDP source port");
            }
            final var reqA = requests(q.sessionId() + " A", ab, q.psnA());
            final var reqB = requests(q.sessionId() + " B", ba, q.psnB());
            if (!q.twoWay()) {
                assertTrue(reqB.messages == 0, "one-way, yet B sent requests: " + q.sessionId());
                assertTrue(ba.stream().allMatch(r -> Integer.parseInt(r[OP]) == RcFrames.ACKNOWLEDGE),
                    "B of a one-way pair sends ACKs only");
            } else {
                assertTrue(reqB.messages > 0, "two-way, yet B sent no request: " + q.sessionId());
            }
            final int acksB = responses(q.sessionId() + " B's answers", ba, reqA);
            final int acksA = responses(q.sessionId() + " A's answers", ab, reqB);
            wraps += reqA.wrapped + reqB.wrapped;
            coalesced += reqA.acked - acksB + reqB.acked - acksA;
            reads += reqA.reads + reqB.reads;
            imm += reqA.imm + reqB.imm;
            sends += reqA.sends + reqB.sends;
            multi += reqA.multi + reqB.multi;
        }
        assertTrue(wraps > 0, "no request sequence wrapped at 2^24");
        assertTrue(coalesced > 0, "no ACK acknowledged more than one message");
        assertTrue(reads > 0 && imm > 0 && sends > 0 && multi > 0, "READs " + reads + ", immediates " + imm
            + ", SENDs " + sends + ", messages of several packets " + multi);
    }

    /** What a side's requests were, for checking the other side's answers. */
    private static final class Requests {
        int messages;
        int wrapped;
        int reads;
        int imm;
        int sends;
        int multi;
        /** Messages answered by an ACK (WRITE and SEND). */
        int acked;
        /** Each message's last PSN, in order, and for READs the PSNs their responses use. */
        final List<int[]> ends = new ArrayList<>();
        final Map<Integer, Integer> readPackets = new HashMap<>();
    }

    /** A side's requests in order: PSNs one after another from its initial PSN, each message well formed. */
    private static Requests requests(final String what, final List<String[]> rows, final int initialPsn) {
        final Requests out = new Requests();
        int expect = initialPsn;
        int family = -1;
        int msgBytes = 0;
        int dma = 0;
        int packets = 0;
        for (var r : rows) {
            final int op = Integer.parseInt(r[OP]);
            if (RcFrames.isResponse(op)) {
                continue;
            }
            final int psn = Integer.parseInt(r[PSN]);
            assertEquals(expect, psn, what + ": request PSN");
            assertEquals("65535", r[PKEY], what + ": P_Key");
            final boolean reth = !r[DMALEN].isEmpty();
            assertEquals(RcFrames.hasReth(op), reth, what + ": RETH with opcode " + op);
            assertEquals(RcFrames.hasImm(op), !r[IMM].isEmpty(), what + ": ImmDt with opcode " + op);
            assertTrue(r[SYNDROME].isEmpty(), what + ": a request with an AETH");
            assertFalse(r[ICRC].isEmpty(), what + ": no ICRC");
            final int payload = Integer.parseInt(r[UDPLEN]) - 8 - RcFrames.BTH_LEN - (reth ? RcFrames.RETH_LEN : 0)
                - (RcFrames.hasImm(op) ? RcFrames.IMM_LEN : 0) - RcFrames.ICRC_LEN;
            final boolean first = op == RcFrames.WRITE_FIRST || op == RcFrames.SEND_FIRST;
            final boolean middle = op == RcFrames.WRITE_MIDDLE || op == RcFrames.SEND_MIDDLE;
            final boolean last = !first && !middle;
            if (op == RcFrames.READ_REQUEST) {
                assertEquals(-1, family, what + ": a READ inside a message");
                assertEquals(0, payload, what + ": READ request payload");
                final int len = Integer.parseInt(r[DMALEN]);
                final int k = (len + RcFrames.PMTU - 1) / RcFrames.PMTU;
                out.readPackets.put(psn, k);
                out.ends.add(new int[] {psn, k});
                out.reads++;
                out.messages++;
                assertEquals("1", r[ACKREQ], what + ": READ request without AckReq");
                expect = RcFrames.psnPlus(psn, k);
                wrapCount(out, psn, expect);
                continue;
            }
            if (first || op == RcFrames.WRITE_ONLY || op == RcFrames.WRITE_ONLY_IMM || op == RcFrames.SEND_ONLY
                    || op == RcFrames.SEND_ONLY_IMM) {
                assertEquals(-1, family, what + ": a new message (opcode " + op + ") before the last one ended");
                family = op <= RcFrames.SEND_ONLY_IMM ? 0 : 1;
                msgBytes = 0;
                packets = 0;
                dma = reth ? Integer.parseInt(r[DMALEN]) : -1;
            } else {
                assertEquals(op <= RcFrames.SEND_ONLY_IMM ? 0 : 1, family,
                    what + ": opcode " + op + " outside its message");
            }
            packets++;
            msgBytes += payload;
            if (first || middle) {
                assertEquals(RcFrames.PMTU, payload, what + ": a First or Middle packet not of the path MTU");
            } else {
                assertTrue(payload > 0 && payload <= RcFrames.PMTU && payload % 4 == 0, what + ": payload " + payload);
            }
            assertEquals(last ? "1" : "0", r[ACKREQ], what + ": AckReq on opcode " + op);
            expect = RcFrames.psnPlus(psn, 1);
            wrapCount(out, psn, expect);
            if (last) {
                if (family == 1) {
                    assertEquals(dma, msgBytes, what + ": RETH DMA length against the WRITE's payload");
                } else {
                    out.sends++;
                }
                if (RcFrames.hasImm(op)) {
                    out.imm++;
                }
                if (packets > 1) {
                    out.multi++;
                }
                out.ends.add(new int[] {psn, 0});
                out.acked++;
                out.messages++;
                family = -1;
            }
        }
        assertEquals(-1, family, what + ": the last message did not end");
        return out;
    }

    private static void wrapCount(final Requests out, final int psn, final int next) {
        if (next < psn) {
            out.wrapped++;
        }
    }

    /**
     * A side's answers to the other side's requests: ACKs naming a message's last PSN, in order,
     * MSN counting messages; READ responses with the READ's PSNs; every message answered. Returns
     * the ACKs.
     */
    private static int responses(final String what, final List<String[]> rows, final Requests req) {
        int acks = 0;
        int at = 0; // the next request message not yet answered
        int msn = -1;
        int readLeft = 0;
        int readPsn = 0;
        for (var r : rows) {
            final int op = Integer.parseInt(r[OP]);
            if (!RcFrames.isResponse(op)) {
                continue;
            }
            final int psn = Integer.parseInt(r[PSN]);
            assertEquals(RcFrames.hasAeth(op), !r[SYNDROME].isEmpty(), what + ": AETH with opcode " + op);
            assertTrue(r[DMALEN].isEmpty() && r[IMM].isEmpty(), what + ": RETH or ImmDt in a response");
            if (RcFrames.hasAeth(op)) {
                assertEquals(RcFrames.ACK_SYNDROME, Integer.parseInt(r[SYNDROME]), what + ": syndrome");
                final int m = Integer.parseInt(r[MSN]);
                assertTrue(msn < 0 || m >= msn, what + ": MSN went back from " + msn + " to " + m);
                msn = m;
            }
            if (op == RcFrames.ACKNOWLEDGE) {
                assertEquals(0, readLeft, what + ": an ACK inside a READ's responses");
                // the ACK names the last PSN of a WRITE or SEND at or after the next unanswered one
                int end = at;
                while (end < req.ends.size() && req.ends.get(end)[0] != psn) {
                    assertEquals(0, req.ends.get(end)[1], what + ": an ACK passed over a READ");
                    end++;
                }
                assertTrue(end < req.ends.size(), what + ": ACK PSN " + psn + " names no message's last PSN");
                assertTrue(end - at <= 2, what + ": an ACK for " + (end - at + 1) + " messages (at most 3)");
                assertEquals(0, req.ends.get(end)[1], what + ": an ACK for a READ");
                at = end + 1;
                acks++;
                continue;
            }
            if (op == RcFrames.READ_RESPONSE_FIRST || op == RcFrames.READ_RESPONSE_ONLY) {
                assertEquals(0, readLeft, what + ": a new READ response before the last ended");
                // earlier WRITEs and SENDs may be acknowledged by it
                int end = at;
                while (end < req.ends.size() && !(req.ends.get(end)[1] > 0 && req.ends.get(end)[0] == psn)) {
                    end++;
                }
                assertTrue(end < req.ends.size(), what + ": READ response PSN " + psn + " answers no READ request");
                readLeft = req.ends.get(end)[1];
                readPsn = psn;
                at = end + 1;
                assertEquals(op == RcFrames.READ_RESPONSE_ONLY, readLeft == 1, what + ": Only for one packet");
            } else {
                assertTrue(readLeft > 0, what + ": READ response " + op + " outside a READ");
                assertEquals(RcFrames.psnPlus(readPsn, 1), psn, what + ": READ response PSNs count on");
                readPsn = psn;
                assertEquals(op == RcFrames.READ_RESPONSE_LAST, readLeft == 1, what + ": Last on the last packet");
            }
            readLeft--;
        }
        assertEquals(0, readLeft, what + ": a READ's responses did not end");
        assertEquals(req.ends.size(), at, what + ": requests left unanswered");
        return acks;
    }

    /** The IPv4 packets to UDP 4791 of a classic pcap file (Ethernet), from the IP header on. */
    private static List<byte[]> rocePackets(final Path file) throws IOException {
        final ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        final List<byte[]> out = new ArrayList<>();
        b.position(24);
        while (b.remaining() >= 16) {
            b.getInt();
            b.getInt();
            final int incl = b.getInt();
            b.getInt();
            final byte[] frame = new byte[incl];
            b.get(frame);
            if (frame.length < 14 + 28 + 16 || (frame[12] & 0xff) != 0x08 || frame[13] != 0 || frame[23] != 17) {
                continue;
            }
            final int ipLen = (frame[16] & 0xff) << 8 | frame[17] & 0xff;
            final int dport = (frame[36] & 0xff) << 8 | frame[37] & 0xff;
            if (dport == 4791 && 14 + ipLen <= frame.length) {
                out.add(java.util.Arrays.copyOfRange(frame, 14, 14 + ipLen));
            }
        }
        return out;
    }

    private static int storedIcrc(final byte[] packet) {
        return ByteBuffer.wrap(packet, packet.length - 4, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
    }
}
