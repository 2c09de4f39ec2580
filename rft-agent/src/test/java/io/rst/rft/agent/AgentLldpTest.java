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
import io.rst.rft.decode.FrameDecoder;
import io.rst.rft.pcap.LldpFrameBuilder;
import io.rst.rft.pcap.PcapWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An agent replaying LLDPDUs on port swp7: a neighbour heard a moment ago is listed in
 * {@code /v1/status} with every field; one that shut down (TTL 0) and one whose TTL passed long ago
 * are not; a malformed LLDPDU is a counted skip. With {@code --no-lldp} there is neither the list
 * nor its counters, and the filter keeps no LLDP frame.
 */
class AgentLldpTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TOKEN = "lldp-token";

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

    private Path capture() throws Exception {
        // a replay ages its neighbours on the capture's clock, running on from its last frame
        final long now = System.currentTimeMillis() * 1000L;
        final LldpFrameBuilder spine = new LldpFrameBuilder().srcMac(0x0c42a1000011L).chassisMac(0x0c42a1000001L)
            .portName("swp31").portDescription("to leaf1 swp7").systemName("spine1").ttl(3600).capabilities(0x14, 0x14)
            .managementAddress(new byte[] {10, 0, 0, 11}, 5)
            .managementAddress(new byte[] {(byte) 0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x11}, 5);
        final LldpFrameBuilder leaving = new LldpFrameBuilder()
            .chassisId(7, "leaving".getBytes(java.nio.charset.StandardCharsets.US_ASCII)).portName("p1");
        final LldpFrameBuilder stale = new LldpFrameBuilder().chassisMac(0x0c42a1000002L).portName("swp32").ttl(5);
        final Path pcap = dir.resolve("lldp.pcap");
        try (PcapWriter w = PcapWriter.pcap(pcap, FrameDecoder.LINKTYPE_ETHERNET, false, false)) {
            write(w, (now - 600_000_000L) * 1000L, stale.build());
            write(w, (now - 2_000_000L) * 1000L, spine.build());
            write(w, (now - 2_000_000L) * 1000L, leaving.build());
            write(w, (now - 1_000_000L) * 1000L, spine.build());
            write(w, (now - 1_000_000L) * 1000L, leaving.ttl(0).build());
            write(w, (now - 1_000_000L) * 1000L, new LldpFrameBuilder().chassisId(9, new byte[] {1}).build());
            write(w, (now - 1_000_000L) * 1000L, Arrays.copyOf(spine.build(), 20));
        }
        return pcap;
    }

    private static void write(final PcapWriter out, final long nanos, final byte[] frame) throws Exception {
        out.write(nanos, frame, 0, frame.length);
    }

    private void start(final String... extra) throws Exception {
        final Path pcap = capture();
        Files.writeString(dir.resolve("token"), TOKEN + "\n");
        Files.setPosixFilePermissions(dir.resolve("token"), PosixFilePermissions.fromString("rw-------"));
        final List<String> args = new ArrayList<>(List.of("--listen", "127.0.0.1:0", "--token-file",
            dir.resolve("token").toString(), "--state-dir", dir.resolve("state").toString(), "--replay",
            "swp7=" + pcap, "--agent-id", "leaf1", "--plain-http"));
        args.addAll(List.of(extra));
        final AgentOptions o = AgentOptions.parse(args);
        agent = new Agent(o, events -> AgentCommand.cmProcessor(o, events));
        agent.start();
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
            .until(() -> get("/v1/status").path("interfaces").path(0).path("finished").asBoolean()
                && get("/v1/status").path("counters").path("frames").asLong() == 7);
    }

    private JsonNode get(final String path) throws Exception {
        final HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
            + agent.address().getPort() + path)).timeout(Duration.ofSeconds(20)).header("Authorization", "Bearer "
            + TOKEN).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return JSON.readTree(r.body());
    }

    @Test
    void theStatusListsTheNeighbourHeardAndCountsTheRest() throws Exception {
        start();
        // the stale neighbour, heard 10 minutes before the others with a TTL of 5 s, goes at the
        // first ageing, within about a second of the start
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
            .until(() -> get("/v1/status").path("lldp").size() == 1);
        final JsonNode status = get("/v1/status");
        final JsonNode n = status.path("lldp").get(0);
        assertEquals("swp7", n.path("interface").asText());
        assertEquals("0c:42:a1:00:00:01", n.path("chassis_id").asText());
        assertEquals("mac_address", n.path("chassis_id_subtype").asText());
        assertEquals("swp31", n.path("port_id").asText());
        assertEquals("interface_name", n.path("port_id_subtype").asText());
        assertEquals("to leaf1 swp7", n.path("port_description").asText());
        assertEquals("spine1", n.path("system_name").asText());
        assertTrue(n.path("system_description").isNull(), n.toString());
        assertEquals("[\"10.0.0.11\",\"fd00::11\"]", n.path("management_addresses").toString());
        assertEquals("[\"bridge\",\"router\"]", n.path("capabilities").toString());
        assertEquals("[\"bridge\",\"router\"]", n.path("enabled_capabilities").toString());
        assertEquals(3600, n.path("ttl").asInt());
        // a replayed file is no interface of this host: no MAC
        assertTrue(status.path("interfaces").path(0).has("mac"), status.path("interfaces").toString());
        assertTrue(status.path("interfaces").path(0).path("mac").isNull(), status.path("interfaces").toString());
        assertTrue(n.path("age_seconds").asLong() >= 0 && n.path("age_seconds").asLong() < 3600, n.toString());
        assertEquals(1, Instant.parse(n.path("last_seen").asText()).getEpochSecond()
            - Instant.parse(n.path("first_seen").asText()).getEpochSecond(), n.toString());
        assertTrue(n.path("first_seen").asText().endsWith("Z"), n.toString());
        final JsonNode c = status.path("counters");
        assertEquals(5, c.path("lldp_frames").asLong(), c.toString());
        assertEquals(2, c.path("lldp_malformed").asLong(), c.toString());
        assertEquals(1, c.path("skipped").path("lldp_unknown_subtype").asLong(), c.toString());
        assertEquals(1, c.path("skipped").path("lldp_truncated").asLong(), c.toString());
        assertEquals(1, c.path("lldp_neighbours").asLong(), c.toString());
        assertEquals(1, c.path("lldp_shutdowns").asLong(), c.toString());
        assertEquals(1, c.path("lldp_aged_out").asLong(), c.toString());
        assertEquals(0, c.path("lldp_refused").asLong(), c.toString());
        assertTrue(status.path("filter").asText().startsWith("(ether proto 0x88cc) or "),
            status.path("filter").asText());
    }

    @Test
    void withoutLldpNeitherTheListNorItsCounters() throws Exception {
        start("--no-lldp");
        final JsonNode status = get("/v1/status");
        assertFalse(status.has("lldp"), status.toString());
        assertFalse(status.path("counters").has("lldp_frames"), status.toString());
        assertFalse(status.path("filter").asText().contains("0x88cc"), status.path("filter").asText());
        // the frames are still decoded: the malformed ones are skips like any other
        assertEquals(1, status.path("counters").path("skipped").path("lldp_unknown_subtype").asLong());
    }
}
