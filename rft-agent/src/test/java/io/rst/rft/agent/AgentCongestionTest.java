/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.agent;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rst.rft.decode.CmMessageType;
import io.rst.rft.decode.FrameDecoder;
import io.rst.rft.pcap.CmFrameBuilder;
import io.rst.rft.pcap.DataFrameBuilder;
import io.rst.rft.pcap.PcapWriter;
import io.rst.rft.pcap.PfcFrameBuilder;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An agent replaying a capture with a CM session, ECN-marked data, CNPs and PFC frames, sampling
 * 1 in 64: its sessions carry the sampled packets' ECN figures and every CNP, its status the CNPs
 * of no session and the PFC table; with {@code --no-congestion} neither CNPs nor PFC frames count.
 */
class AgentCongestionTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TOKEN = "congestion-token";
    private static final byte[] A = {10, 0, 0, 1};
    private static final byte[] B = {10, 0, 0, 2};
    private static final byte[] C = {10, 0, 0, 3};
    private static final long START_US = 1_767_225_600_000_000L;

    @TempDir
    Path dir;
    private Agent agent;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @AfterEach
    void stop() {
        if (agent != null) {
            agent.close();
        }
    }

    private static byte[] cm(final CmMessageType type, final byte[] src, final byte[] dst, final int lc, final int rc,
            final int qpn) {
        final byte[] buf = new byte[512];
        final int len = new CmFrameBuilder().ips(src, dst).type(type).commIds(lc, rc).localQpn(qpn).build(buf);
        return Arrays.copyOf(buf, len);
    }

    private static byte[] data(final byte[] src, final byte[] dst, final int qp, final int psn, final int ecn) {
        return new DataFrameBuilder().ips(src, dst).destQp(qp).psn(psn).ecn(ecn).build();
    }

    private static byte[] cnp(final byte[] src, final byte[] dst, final int qp, final int psn) {
        return new DataFrameBuilder().ips(src, dst).opcode(DataFrameBuilder.CNP).destQp(qp).psn(psn).dscp(48).ecn(0)
            .build();
    }

    /** The capture: frames 1 us apart, the PFC frames where said. */
    private Path capture() throws Exception {
        final List<byte[]> frames = new ArrayList<>(List.of(
            cm(CmMessageType.REQ, A, B, 0x11, 0, 0x101),
            cm(CmMessageType.REP, B, A, 0x22, 0x11, 0x202),
            cm(CmMessageType.RTU, A, B, 0x11, 0x22, 0),
            // A to B: PSN 0 (ECT(0)) and 64 (CE) are sampled, 1 (CE) is not
            data(A, B, 0x202, 0, 2), data(A, B, 0x202, 64, 3), data(A, B, 0x202, 1, 3),
            // B to A: PSN 128 (ECT(1)) sampled
            data(B, A, 0x101, 128, 1),
            // B's CNPs to A's QP, whatever their PSN, and one to a QP nobody announced
            cnp(B, A, 0x101, 0x21), cnp(B, A, 0x101, 0), cnp(C, A, 0x999, 0)));
        final Path pcap = dir.resolve("congestion.pcap");
        try (PcapWriter w = PcapWriter.pcap(pcap, FrameDecoder.LINKTYPE_ETHERNET, false, false)) {
            long us = START_US;
            for (byte[] f : frames) {
                w.write(us * 1000L, f, 0, f.length);
                us++;
            }
            // priority 3: 0xffff quanta, an XON 100 us later, then 1000 quanta for priorities 0 and 3
            final long t0 = START_US + 1000;
            final byte[] xoff = new PfcFrameBuilder().pause(3, 0xffff).build();
            final byte[] xon = new PfcFrameBuilder().pause(3, 0).build();
            final byte[] both = new PfcFrameBuilder().pause(0, 1000).pause(3, 1000).build();
            w.write(t0 * 1000L, xoff, 0, xoff.length);
            w.write((t0 + 100) * 1000L, xon, 0, xon.length);
            w.write((t0 + 200) * 1000L, both, 0, both.length);
            // a PFC frame cut before its pause times
            w.write((t0 + 300) * 1000L, both, 0, 24);
        }
        return pcap;
    }

    private void start(final boolean congestion) throws Exception {
        final Path pcap = capture();
        Files.writeString(dir.resolve("token"), TOKEN + "\n");
        Files.setPosixFilePermissions(dir.resolve("token"), PosixFilePermissions.fromString("rw-------"));
        final List<String> args = new ArrayList<>(List.of("--listen", "127.0.0.1:0", "--token-file",
            dir.resolve("token").toString(), "--state-dir", dir.resolve("state").toString(), "--replay",
            "swp7=" + pcap, "--data-sample", "64", "--agent-id", "leaf1", "--event-hold-ms", "0", "--plain-http"));
        if (!congestion) {
            args.add("--no-congestion");
        }
        final AgentOptions o = AgentOptions.parse(args);
        agent = new Agent(o, events -> AgentCommand.cmProcessor(o, events));
        agent.start();
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
            .until(() -> get("/v1/status").path("interfaces").path(0).path("finished").asBoolean()
                && get("/v1/status").path("counters").path("frames").asLong() == 14);
    }

    private JsonNode get(final String path) throws Exception {
        final HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
            + agent.address().getPort() + path)).timeout(Duration.ofSeconds(20)).header("Authorization", "Bearer "
            + TOKEN).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return JSON.readTree(r.body());
    }

    private JsonNode session() throws Exception {
        final JsonNode sessions = get("/v1/sessions").path("sessions");
        assertEquals(1, sessions.size(), sessions.toString());
        return sessions.get(0);
    }

    @Test
    void sessionsCarryEcnAndCnpsAndTheStatusThePfcTable() throws Exception {
        start(true);
        final JsonNode s = session();
        assertEquals("10.0.0.1/0x00000011/10.0.0.2", s.path("session_id").asText());
        assertEquals(JSON.readTree("{\"udp_src_port\":49152,\"ingress_port\":\"swp7\",\"packets\":2,\"dscp\":26,"
            + "\"ect\":2,\"ce\":1,\"cnp\":2}"), s.path("requester_data"));
        assertEquals(JSON.readTree("{\"udp_src_port\":49152,\"ingress_port\":\"swp7\",\"packets\":1,\"dscp\":26,"
            + "\"ect\":1,\"ce\":0,\"cnp\":0}"), s.path("responder_data"));
        final JsonNode status = get("/v1/status");
        final JsonNode c = status.path("counters");
        assertEquals(3, c.path("cnps").asLong());
        assertEquals(1, c.path("cnp_unmatched").asLong());
        assertEquals(3, c.path("pfc_frames").asLong());
        assertEquals(0, c.path("pfc_untabled").asLong());
        assertEquals(1, c.path("skipped").path("bad_pfc").asLong());
        assertTrue(status.path("filter").asText().contains("ether proto 0x8808"), status.path("filter").asText());
        assertTrue(status.path("filter").asText().contains("udp[8] = 0x81"), status.path("filter").asText());
        final JsonNode pfc = status.path("pfc");
        assertEquals(2, pfc.size(), pfc.toString());
        final JsonNode p0 = pfc.get(0);
        assertEquals("swp7", p0.path("interface").asText());
        assertEquals(0, p0.path("priority").asInt());
        assertEquals(1, p0.path("frames").asLong());
        assertEquals(1000, p0.path("quanta").asLong());
        // 1000 quanta at the default 100 Gbit/s: 5.12 us
        assertEquals(5, p0.path("paused_us").asLong());
        assertEquals(100_000, p0.path("link_speed_mbps").asInt());
        final JsonNode p3 = pfc.get(1);
        assertEquals(3, p3.path("priority").asInt());
        assertEquals(3, p3.path("frames").asLong());
        assertEquals(1, p3.path("xon").asLong());
        assertEquals(0xffff + 1000, p3.path("quanta").asLong());
        // 100 us until the XON, then 5.12 us
        assertEquals(105, p3.path("paused_us").asLong());
        assertFalse(p3.path("paused").asBoolean());
        assertEquals("2026-01-01T00:00:00.001200Z", p3.path("last").asText());
    }

    @Test
    void withoutCongestionCountingNeitherCnpsNorPfcFramesCount() throws Exception {
        start(false);
        final JsonNode s = session();
        assertEquals(0, s.path("requester_data").path("cnp").asLong());
        assertEquals(1, s.path("requester_data").path("ce").asLong(), "the sampled packets' ECN still counts");
        final JsonNode status = get("/v1/status");
        assertFalse(status.has("pfc"));
        assertFalse(status.path("counters").has("cnps"));
        assertFalse(status.path("counters").has("pfc_frames"));
        assertFalse(status.path("filter").asText().contains("0x8808"), status.path("filter").asText());
        assertFalse(status.path("filter").asText().contains("0x81"), status.path("filter").asText());
    }
}
