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
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.rst.rft.decode.CmMessage;
import io.rst.rft.decode.DecodeResult;
import io.rst.rft.decode.FrameDecoder;
import io.rst.rft.decode.LldpDecodeTest;
import io.rst.rft.pcap.CaptureFileReader;
import io.rst.rft.testutil.AgentProcess;
import io.rst.rft.testutil.Netns;
import io.rst.rft.testutil.Tshark;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real LLDP: lldpd in a "neighbour" namespace sends LLDPDUs over a veth to a "switch" namespace
 * where the agent captures; the agent's status lists the neighbour with lldpd's chassis ID (its
 * MAC), port ID, system name and management addresses, and forgets it once lldpd is killed and
 * its TTL (tx-interval x tx-hold) has passed. tcpdump's capture of the same LLDPDUs reads the same
 * with our decoder as with tshark. Needs root, iproute2, lldpd, tcpdump and tshark; skipped
 * otherwise. Namespaces are named rstt-RANDOM-{nb,sw} and always removed.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class NetnsLldpTest {
    private static final String HOSTNAME = "lldp-neighbour-1";

    @TempDir
    Path dir;
    private Netns net;
    private AgentProcess agent;
    private Process lldpd;
    private Process tcpdump;
    private Path socketDir;

    @AfterEach
    void teardown() throws Exception {
        for (Process p : new Process[] {lldpd, tcpdump}) {
            if (p != null) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
        if (agent != null) {
            agent.close();
        }
        if (net != null) {
            net.close();
        }
        if (socketDir != null) {
            // the socket and lldpd's lock file beside it
            try (var files = Files.list(socketDir)) {
                for (Path f : files.toList()) {
                    Files.deleteIfExists(f);
                }
            }
            Files.deleteIfExists(socketDir);
        }
    }

    private String lldpcli(final String socket, final String... args) throws Exception {
        final List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", net.name("nb"), "lldpcli", "-u",
            socket));
        cmd.addAll(List.of(args));
        final Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), String.join(" ", cmd));
        assertEquals(0, p.exitValue(), String.join(" ", cmd) + ": " + out);
        return out;
    }

    private static String macOf(final String text) {
        final java.util.regex.Matcher m = java.util.regex.Pattern.compile("link/ether ([0-9a-f:]{17})").matcher(text);
        assertTrue(m.find(), text);
        return m.group(1);
    }

    private JsonNode neighbour(final JsonNode status) {
        JsonNode found = null;
        for (JsonNode n : status.path("lldp")) {
            if ("s1".equals(n.path("interface").asText())) {
                found = n;
            }
        }
        return found;
    }

    @Test
    void theAgentListsLldpdAsItsNeighbourAndForgetsItAfterItsTtl() throws Exception {
        Netns.assumeAvailable("lldpd", "lldpcli", "tcpdump");
        Tshark.assumeInstalled();
        net = Netns.create("nb", "sw");
        net.link("nb", "n1", "10.77.9.1/24", "sw", "s1", "10.77.9.2/24");
        net.exec("nb", "ip", "-6", "addr", "add", "fd77::1/64", "dev", "n1", "nodad");
        net.exec("nb", "ip", "link", "set", "lo", "up");
        final String mgmt = net.management("sw", "mgmt");
        final String nbMac = macOf(run("ip", "netns", "exec", net.name("nb"), "ip", "link", "show", "n1"));

        final Path pcap = dir.resolve("lldp.pcap");
        tcpdump = net.start("sw", ProcessBuilder.Redirect.appendTo(dir.resolve("tcpdump.log").toFile()), "tcpdump",
            "-i", "s1", "-U", "-Z", "root", "-w", pcap.toString(), "ether", "proto", "0x88cc");
        agent = new AgentProcess(net, "sw", mgmt, dir, "-Xmx128m", "--interface", "s1", "--agent-id", "sw");
        agent.start(Duration.ofSeconds(30));
        await("tcpdump listens").atMost(Duration.ofSeconds(20)).until(() ->
            Files.readString(dir.resolve("tcpdump.log")).contains("listening on"));

        // lldpd on n1 only, with its own control socket (in a folder lldpcli may enter after it drops
        // root for lldpd's group); its name and a TTL of 1 s x 3
        socketDir = Files.createTempDirectory("rst-lldpd", PosixFilePermissions.asFileAttribute(
            PosixFilePermissions.fromString("rwxr-xr-x")));
        final String socket = socketDir.resolve("lldpd.socket").toString();
        lldpd = net.start("nb", ProcessBuilder.Redirect.appendTo(dir.resolve("lldpd.log").toFile()), "lldpd", "-d",
            "-u", socket, "-I", "n1");
        await("lldpd answers").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200)).until(() -> {
            assertTrue(lldpd.isAlive(), "lldpd died: " + Files.readString(dir.resolve("lldpd.log")));
            return Files.exists(Path.of(socket));
        });
        lldpcli(socket, "configure", "system", "hostname", HOSTNAME);
        lldpcli(socket, "configure", "lldp", "tx-interval", "1");
        lldpcli(socket, "configure", "lldp", "tx-hold", "3");

        final AtomicReference<JsonNode> seen = new AtomicReference<>();
        await("the agent lists lldpd").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
            .untilAsserted(() -> {
                final JsonNode n = neighbour(agent.status());
                seen.set(n);
                assertTrue(n != null && HOSTNAME.equals(n.path("system_name").asText())
                    && n.path("ttl").asInt() <= 10, "status: " + agent.status());
            });
        final JsonNode n = seen.get();
        assertEquals(nbMac, n.path("chassis_id").asText(), n.toString());
        assertEquals("mac_address", n.path("chassis_id_subtype").asText(), n.toString());
        // lldpd sends the port's MAC or its name, as configured
        final String portSubtype = n.path("port_id_subtype").asText();
        assertEquals("mac_address".equals(portSubtype) ? nbMac : "n1", n.path("port_id").asText(), n.toString());
        assertTrue(List.of("mac_address", "interface_name").contains(portSubtype), n.toString());
        final List<String> addresses = new ArrayList<>();
        n.path("management_addresses").forEach(a -> addresses.add(a.asText()));
        assertTrue(addresses.contains("10.77.9.1"), n.toString());
        final int ttl = n.path("ttl").asInt();
        assertTrue(ttl >= 3 && ttl <= 10, "TTL of tx-interval 1 x tx-hold 3: " + n);
        // what lldpcli says it sends
        final String local = lldpcli(socket, "-f", "keyvalue", "show", "chassis");
        assertTrue(local.toLowerCase(Locale.ROOT).contains(nbMac), local);
        assertTrue(local.contains(HOSTNAME), local);

        final JsonNode status = agent.status();
        final JsonNode c = status.path("counters");
        assertTrue(c.path("lldp_frames").asLong() >= 2, status.toString());
        assertEquals(0, c.path("lldp_malformed").asLong(), status.toString());
        assertEquals(1, c.path("lldp_neighbours").asLong(), status.toString());
        assertTrue(status.path("filter").asText().startsWith("(ether proto 0x88cc) or "), status.toString());

        // lldpd killed (no shutdown LLDPDU): gone once its TTL has passed
        lldpd.descendants().forEach(ProcessHandle::destroyForcibly);
        lldpd.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        await("the neighbour ages out").atMost(Duration.ofSeconds(ttl + 15L)).pollInterval(Duration.ofMillis(200))
            .until(() -> neighbour(agent.status()) == null);
        final JsonNode after = agent.status().path("counters");
        assertEquals(0, after.path("lldp_neighbours").asLong(), after.toString());
        assertEquals(1, after.path("lldp_aged_out").asLong(), after.toString());

        // tcpdump's capture of lldpd's LLDPDUs: our decoder reads what tshark reads
        tcpdump.destroy();
        assertTrue(tcpdump.waitFor(10, TimeUnit.SECONDS));
        final List<String[]> rows = Tshark.fields(pcap, List.of(), LldpDecodeTest.TSHARK_FIELDS);
        assertTrue(rows.size() >= 2, "LLDPDUs captured: " + rows.size());
        final FrameDecoder decoder = new FrameDecoder();
        final CmMessage msg = new CmMessage();
        final int[] frame = {0};
        try (CaptureFileReader reader = CaptureFileReader.open(pcap)) {
            reader.readAll((number, ns, linkType, ifId, buf, off, capLen, origLen) -> {
                final DecodeResult r = decoder.decode(linkType, buf, off, capLen, origLen, msg);
                final String what = "captured LLDPDU " + (frame[0] + 1);
                assertEquals(DecodeResult.LLDP, r, what);
                LldpDecodeTest.assertSameAsTshark(msg.lldp(), rows.get(frame[0]++), what);
            });
        }
        assertEquals(rows.size(), frame[0]);
    }

    private static String run(final String... cmd) throws Exception {
        final Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), String.join(" ", cmd));
        assertEquals(0, p.exitValue(), String.join(" ", cmd) + ": " + out);
        return out;
    }
}
