/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.lab;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.eclipse.jdt.annotation.Nullable;

/**
 * The lab fabric on this machine: makes the namespaces, links, addresses, routes and one RFT agent
 * per switch that a {@link Fabric} describes, tells a controller about them, and removes every
 * trace again. What it made is kept in {@code DIR/lab.json} (default {@code /run/rst-lab}), so
 * that {@code down} works from another process; {@code down} also removes whatever a crashed run
 * left (every {@code rst-*} namespace, the {@code rst-mgmt} bridge).
 */
public final class Lab {
    public static final Path DEFAULT_DIR = Path.of("/run/rst-lab");
    public static final String TOPOLOGY_ID = "rst-lab";

    private static final SecureRandom RANDOM = new SecureRandom();

    private final Path dir;
    private @Nullable HttpClient client;
    private @Nullable String clientKey;

    public Lab(final Path dir) {
        this.dir = dir;
    }

    public Path dir() {
        return dir;
    }

    public Path tokenDir() {
        return dir.resolve("tokens");
    }

    public Path truthFile() {
        return dir.resolve("truth.jsonl");
    }

    /** The lab's CA and its agents' certificates ({@code DIR/certs}). */
    public LabCerts certs() {
        return new LabCerts(dir.resolve("certs"));
    }

    /** The CA that signs the lab's agent certificates: the controller's {@code agent-ca-file}. */
    public Path caFile() {
        return certs().caFile();
    }

    /** Whether the lab's agents serve their API over TLS (the default; not with {@code --plain-http}). */
    public boolean tls() {
        return state().path("tls").asBoolean(false);
    }

    private String scheme() {
        return tls() ? "https" : "http";
    }

    /**
     * The client that talks to the agents: over TLS trusting the lab's CA, or plain. Kept while
     * the lab (its transport, its CA) stays the same, since tests ask the agents every 250 ms.
     */
    private synchronized HttpClient agentClient() {
        final boolean tls = tls();
        String key = "plain";
        if (tls) {
            try {
                key = "tls " + Files.getLastModifiedTime(caFile()).toMillis();
            } catch (IOException e) {
                throw new LabException("no CA in " + caFile() + ": " + e.getMessage(), e);
            }
        }
        if (client == null || !key.equals(clientKey)) {
            final Duration connect = Duration.ofSeconds(2);
            client = tls ? certs().client(connect) : HttpClient.newBuilder().connectTimeout(connect).build();
            clientKey = key;
        }
        return client;
    }

    private Path stateFile() {
        return dir.resolve("lab.json");
    }

    /** Whether a lab is up (its state file exists). */
    public boolean isUp() {
        return Files.exists(stateFile());
    }

    /** The fabric of the lab that is up. */
    public Fabric fabric() {
        final var s = state();
        final Set<String> dual = new TreeSet<>();
        s.path("dual_homed").forEach(n -> dual.add(n.asText()));
        return new Fabric(s.path("spines").asInt(), s.path("leaves").asInt(), s.path("hosts_per_leaf").asInt(), dual);
    }

    /** Leaf-spine links the lab has taken down, named by their leaf end. */
    public Set<String> downLinks() {
        final Set<String> out = new TreeSet<>();
        state().path("down_links").forEach(n -> out.add(n.asText()));
        return out;
    }

    private ObjectNode state() {
        try {
            return (ObjectNode) Restconf.JSON.readTree(stateFile().toFile());
        } catch (IOException e) {
            throw new LabException("no lab is up here (" + stateFile() + "): ./rst lab up first", e);
        }
    }

    private void writeState(final ObjectNode state) {
        try {
            Files.writeString(stateFile(), Restconf.JSON.writerWithDefaultPrettyPrinter().writeValueAsString(state));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Where a switch's agent listens: its management address, or a loopback one in replay mode. */
    public String agentAddress(final String switchId) {
        final var a = state().path("agent_addresses").path(switchId);
        return a.isMissingNode() ? fabric().mgmtIp(switchId) : a.asText();
    }

    /** The lab's agents' data sampling: they keep the data packets whose PSN is a multiple of it. */
    public int dataSample() {
        return state().path("data_sample").asInt(1);
    }

    /** Whether the lab replays a recording instead of running namespaces. */
    public boolean replay() {
        return state().path("replay").asBoolean();
    }

    /** The bearer token of a switch's agent (each agent has its own). */
    public String token(final String switchId) {
        try {
            return Files.readString(tokenDir().resolve(switchId)).strip();
        } catch (IOException e) {
            throw new LabException("no token for " + switchId + " in " + tokenDir(), e);
        }
    }

    /**
     * Builds the fabric and starts its agents.
     *
     * @param fabric what to build
     * @param agentCommand how to start an agent ({@code java ... io.rst.rft.cli.Main}); the agent's
     *        own arguments follow
     * @param log progress, a line per step
     */
    public void up(final Fabric fabric, final List<String> agentCommand, final Consumer<String> log) {
        up(fabric, agentCommand, false, log);
    }

    /**
     * Builds the fabric and starts its agents, serving TLS with the lab's own CA unless
     * {@code plainHttp}.
     */
    public void up(final Fabric fabric, final List<String> agentCommand, final boolean plainHttp,
            final Consumer<String> log) {
        up(fabric, agentCommand, plainHttp, 1, log);
    }

    /**
     * Builds the fabric and starts its agents, serving TLS unless {@code plainHttp}, each sampling
     * the data packets whose PSN is a multiple of {@code dataSample} (a power of two; 1: every
     * data packet).
     */
    public void up(final Fabric fabric, final List<String> agentCommand, final boolean plainHttp,
            final int dataSample, final Consumer<String> log) {
        if (dataSample < 1 || Integer.bitCount(dataSample) != 1) {
            throw new LabException("--data-sample must be a power of two, got " + dataSample);
        }
        if (!"root".equals(System.getProperty("user.name"))) {
            throw new LabException("the lab needs root (network namespaces): run as root, or ./rst demo --replay");
        }
        if (isUp()) {
            throw new LabException("a lab is already up (" + stateFile() + "): ./rst lab down first");
        }
        if (!leftovers().isEmpty()) {
            throw new LabException("namespaces " + leftovers() + " are left from an earlier lab: ./rst lab down first");
        }
        try {
            Files.createDirectories(dir);
            Files.createDirectories(tokenDir());
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
            Files.setPosixFilePermissions(tokenDir(), PosixFilePermissions.fromString("rwx------"));
        } catch (IOException e) {
            throw new LabException("cannot make " + dir + ": " + e.getMessage(), e);
        }
        final ObjectNode s = Restconf.JSON.createObjectNode();
        s.put("spines", fabric.spines()).put("leaves", fabric.leaves()).put("hosts_per_leaf", fabric.hostsPerLeaf());
        final ArrayNode dual = s.putArray("dual_homed");
        fabric.dualHomed().forEach(dual::add);
        s.putArray("down_links");
        s.put("tls", !plainHttp);
        s.put("data_sample", dataSample);
        s.putObject("agents");
        writeState(s);
        // a new CA for every lab: never one a crashed run left behind
        deleteTree(certs().dir());

        log.accept("lab: " + fabric.switches().size() + " switches, " + fabric.hosts().size() + " hosts, "
            + fabric.links().size() + " links");
        final List<String> root = new ArrayList<>();
        for (var n : fabric.nodes()) {
            root.add("netns add " + n.namespace());
        }
        // veth pairs are made in the root namespace under temporary names, then moved and renamed
        int linkIndex = 0;
        final Map<String, List<String>> perNs = new LinkedHashMap<>();
        for (var n : fabric.nodes()) {
            perNs.put(n.namespace(), new ArrayList<>(List.of("link set lo up")));
        }
        for (var link : fabric.links()) {
            final String ta = "rstt" + linkIndex + "a";
            final String tb = "rstt" + linkIndex + "b";
            linkIndex++;
            root.add("link add " + ta + " type veth peer name " + tb);
            root.add("link set " + ta + " netns " + Fabric.NS_PREFIX + link.a().node());
            root.add("link set " + tb + " netns " + Fabric.NS_PREFIX + link.b().node());
            for (var pair : List.of(new Object[] {ta, link.a()}, new Object[] {tb, link.b()})) {
                final var port = (Fabric.Port) pair[1];
                final var cmds = perNs.get(Fabric.NS_PREFIX + port.node());
                cmds.add("link set " + pair[0] + " name " + port.name());
                cmds.add("addr add " + port.cidr() + " dev " + port.name());
                cmds.add("link set " + port.name() + " up");
            }
        }
        // management: every switch's mgmt0 on a bridge in the root namespace
        root.add("link add " + Fabric.MGMT_BRIDGE + " type bridge");
        root.add("addr add " + Fabric.MGMT_GATEWAY + "/24 dev " + Fabric.MGMT_BRIDGE);
        root.add("link set " + Fabric.MGMT_BRIDGE + " up");
        for (var sw : fabric.switches()) {
            final String rootSide = "rm-" + sw.id();
            root.add("link add " + rootSide + " type veth peer name rstm-" + sw.id());
            root.add("link set rstm-" + sw.id() + " netns " + sw.namespace());
            root.add("link set " + rootSide + " master " + Fabric.MGMT_BRIDGE);
            root.add("link set " + rootSide + " up");
            final var cmds = perNs.get(sw.namespace());
            cmds.add("link set rstm-" + sw.id() + " name mgmt0");
            cmds.add("addr add " + fabric.mgmtIp(sw.id()) + "/24 dev mgmt0");
            cmds.add("link set mgmt0 up");
        }
        Shell.ipBatch(null, root, false);
        for (var n : fabric.nodes()) {
            sysctls(n);
            Shell.ipBatch(n.namespace(), perNs.get(n.namespace()), false);
        }
        for (var n : fabric.nodes()) {
            Shell.ipBatch(n.namespace(), fabric.routes(n.id()), false);
        }
        log.accept("lab: namespaces, links, addresses and ECMP routes made");
        warmNeighbours(fabric);

        final ObjectNode agents = (ObjectNode) s.get("agents");
        for (var sw : fabric.switches()) {
            final List<String> cmd = new ArrayList<>(List.of("setsid", "ip", "netns", "exec", sw.namespace()));
            cmd.addAll(agentCommand);
            cmd.add("agent");
            cmd.addAll(LabMain.agentExtraArgs());
            // data packets too (every one by default, as sFlow at rate 1 would): the lab shows data
            // paths, and learns the NCCL-style connections, which have no CM, from their data
            cmd.addAll(List.of("--data-sample", Integer.toString(dataSample)));
            for (var p : fabric.ports(sw.id())) {
                cmd.add("--interface");
                cmd.add(p.name());
            }
            agents.put(sw.id(), startAgent(sw.id(), fabric.mgmtIp(sw.id()), cmd, !plainHttp));
        }
        writeState(s);
        waitForAgents(fabric, log);
    }

    /**
     * Starts one agent with its own token and state directory, and with TLS its own certificate
     * for its node-id and {@code listen} (the CA made first); its pid.
     */
    private long startAgent(final String switchId, final String listen, final List<String> cmd, final boolean tls) {
        final byte[] t = new byte[32];
        RANDOM.nextBytes(t);
        final Path tokenFile = tokenDir().resolve(switchId);
        try {
            Files.writeString(tokenFile, HexFormat.of().formatHex(t) + "\n");
            Files.setPosixFilePermissions(tokenFile, PosixFilePermissions.fromString("rw-------"));
            Files.createDirectories(dir.resolve("agents").resolve(switchId));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        final List<String> all = new ArrayList<>(cmd);
        all.addAll(List.of("--listen", listen + ":" + Fabric.AGENT_PORT, "--token-file", tokenFile.toString(),
            "--state-dir", dir.resolve("agents").resolve(switchId).toString(), "--agent-id", switchId));
        if (tls) {
            final var certs = certs();
            if (!Files.exists(certs.caFile())) {
                certs.makeCa();
            }
            certs.makeSwitch(switchId, listen);
            all.addAll(List.of("--tls-cert", certs.cert(switchId).toString(), "--tls-key",
                certs.key(switchId).toString()));
        } else {
            all.add("--plain-http");
        }
        try {
            final var agentLog = dir.resolve("agents").resolve(switchId + ".log").toFile();
            return new ProcessBuilder(all).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(agentLog)).start().pid();
        } catch (IOException e) {
            throw new LabException("cannot start the agent of " + switchId + ": " + e.getMessage(), e);
        }
    }

    /**
     * The lab without namespaces (for a machine where this user cannot make them): the fabric's
     * traffic written as each switch port would capture it ({@link Recording}), and one agent per
     * switch replaying its ports' files, listening on its own loopback address.
     */
    public void upReplay(final Fabric fabric, final List<String> agentCommand, final int connections,
            final Consumer<String> log) throws IOException, InterruptedException {
        upReplay(fabric, agentCommand, connections, false, log);
    }

    /** {@link #upReplay(Fabric, List, int, Consumer)}, with TLS unless {@code plainHttp}. */
    // the recording is closed (its files complete) before the agents replay them, inside the try
    // that closes it again on the way out
    @SuppressWarnings("try")
    public void upReplay(final Fabric fabric, final List<String> agentCommand, final int connections,
            final boolean plainHttp, final Consumer<String> log) throws IOException, InterruptedException {
        if (isUp()) {
            throw new LabException("a lab is already up (" + stateFile() + "): ./rst lab down first");
        }
        Files.createDirectories(tokenDir());
        Files.setPosixFilePermissions(tokenDir(), PosixFilePermissions.fromString("rwx------"));
        final ObjectNode s = Restconf.JSON.createObjectNode();
        s.put("spines", fabric.spines()).put("leaves", fabric.leaves()).put("hosts_per_leaf", fabric.hostsPerLeaf());
        s.putArray("dual_homed");
        s.putArray("down_links");
        s.put("replay", true);
        s.put("tls", !plainHttp);
        s.put("data_sample", 1);
        deleteTree(certs().dir());
        final ObjectNode addresses = s.putObject("agent_addresses");
        final var all = fabric.switches();
        for (int n = 0; n < all.size(); n++) {
            addresses.put(all.get(n).id(), "127.0.0." + (10 + n));
        }
        s.putObject("agents");
        writeState(s);
        final Path rec = dir.resolve("recording");
        try (var recording = new Recording(fabric, rec); var truth = new Truth.Writer(truthFile());
             var traffic = new Traffic(fabric, truth, 1, recording)) {
            // a fifth of them NCCL-style (no CM: learnt from their data), short-lived: the
            // recording ends with the traffic
            traffic.nccl().options(NcclTraffic.Options.defaults(1).withShares(0.5, 0).withBurst(24, 1));
            traffic.run(new Traffic.Options(2000, Math.max(1, connections / 2), connections, 0, 7, 2, true, 0.2));
            traffic.quiesce();
            recording.close();
            log.accept("lab: " + connections + " connections recorded as each switch port captures them, in " + rec);
            final ObjectNode agents = (ObjectNode) s.get("agents");
            for (var sw : all) {
                final List<String> cmd = new ArrayList<>(agentCommand);
                cmd.add("agent");
                cmd.addAll(List.of("--data-sample", "1"));
                final var ports = recording.files().getOrDefault(sw.id(), Map.of());
                if (ports.isEmpty()) {
                    // a switch nothing crossed still runs an agent, replaying nothing
                    Files.createDirectories(rec.resolve(sw.id()));
                    final Path empty = rec.resolve(sw.id()).resolve("none.pcap");
                    io.rst.rft.pcap.PcapWriter.pcap(empty, 1, false, true).close();
                    cmd.addAll(List.of("--replay", "none=" + empty));
                }
                ports.forEach((port, file) -> cmd.addAll(List.of("--replay", port + "=" + file)));
                agents.put(sw.id(), startAgent(sw.id(), addresses.path(sw.id()).asText(), cmd, !plainHttp));
            }
        }
        writeState(s);
        waitForAgents(fabric, log);
    }

    private static void sysctls(final Fabric.Node node) {
        final List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", node.namespace(), "sysctl", "-q", "-w",
            "net.ipv4.conf.all.rp_filter=0", "net.ipv4.conf.default.rp_filter=0",
            "net.ipv4.fib_multipath_hash_policy=1", "net.ipv6.conf.all.disable_ipv6=1",
            "net.ipv6.conf.default.disable_ipv6=1"));
        if (node.isSwitch()) {
            cmd.add("net.ipv4.ip_forward=1");
            // a link whose far end went down carries no route, as a routing protocol would have it
            cmd.add("net.ipv4.conf.all.ignore_routes_with_linkdown=1");
        }
        Shell.run(cmd);
    }

    /** One ping over each link, so that the first CM packets do not wait on ARP. */
    private static void warmNeighbours(final Fabric fabric) {
        final List<Process> pings = new ArrayList<>();
        try {
            for (var link : fabric.links()) {
                pings.add(new ProcessBuilder("ip", "netns", "exec", Fabric.NS_PREFIX + link.b().node(), "ping", "-c",
                    "1", "-W", "2", "-I", link.b().address(), link.a().address()).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start());
            }
            for (var p : pings) {
                p.waitFor();
            }
        } catch (IOException e) {
            // ping missing: ARP resolves on the first packets instead, which the kernel queues
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void waitForAgents(final Fabric fabric, final Consumer<String> log) {
        final var http = agentClient();
        final String scheme = scheme();
        final long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        for (var sw : fabric.switches()) {
            while (true) {
                try {
                    final var rsp = http.send(HttpRequest.newBuilder(URI.create(scheme + "://"
                        + agentAddress(sw.id()) + ":" + Fabric.AGENT_PORT + "/v1/health"))
                        .timeout(Duration.ofSeconds(2)).build(),
                        HttpResponse.BodyHandlers.discarding());
                    if (rsp.statusCode() == 200) {
                        break;
                    }
                } catch (IOException e) {
                    // not listening yet
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new LabException("interrupted", e);
                }
                final long pid = state().path("agents").path(sw.id()).asLong();
                final boolean alive = ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
                if (!alive || System.nanoTime() > deadline) {
                    final var logFile = dir.resolve("agents").resolve(sw.id() + ".log");
                    final var lines = read(logFile).strip().split("\n");
                    throw new LabException("the agent of " + sw.id()
                        + (alive ? " did not answer within 90 s" : " ended")
                        + "; its log " + logFile + " ends: " + lines[lines.length - 1]);
                }
                sleep(200);
            }
        }
        log.accept("lab: " + fabric.switches().size() + " agents answer, " + agentAddress(fabric.switches().get(0).id())
            + " and up, port " + Fabric.AGENT_PORT + " (a token each, in " + tokenDir() + "; " + (tls()
                ? "TLS, certificates of the lab's CA " + caFile() + ")" : "plain HTTP, as asked: not encrypted)"));
    }

    /** Asks an agent for its status, with its own token. */
    public JsonNode agentStatus(final String switchId) {
        try {
            final var rsp = agentClient().send(HttpRequest.newBuilder(URI.create(scheme() + "://"
                + agentAddress(switchId) + ":" + Fabric.AGENT_PORT + "/v1/status")).timeout(Duration.ofSeconds(5))
                .header("Authorization", "Bearer " + token(switchId)).build(), HttpResponse.BodyHandlers.ofString());
            return Restconf.JSON.readTree(rsp.body());
        } catch (IOException e) {
            throw new LabException("the agent of " + switchId + " does not answer: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LabException("interrupted", e);
        }
    }

    /**
     * Writes the lab's topology into network-topology (configuration, topology {@code rst-lab}:
     * switches and hosts, termination points named after the interfaces, links both ways, each
     * host's address) and its switches, with their agents' addresses, into rdma-flow-table: with
     * TLS {@code agent-transport tls} and each agent's certificate fingerprint pinned (so the
     * controller needs no CA file for the lab), otherwise {@code agent-transport plain-http}.
     */
    public void register(final Restconf rc) {
        final var fabric = fabric();
        rc.put("data/network-topology:network-topology/topology=" + TOPOLOGY_ID, topology(fabric, downLinks()));
        for (var sw : fabric.switches()) {
            final ObjectNode body = switchConfig(sw.id());
            rc.put("data/rdma-flow-table:rft/switch=" + sw.id(), body);
        }
    }

    /** A switch's entry in {@code rdma-flow-table:rft} as {@link #register} writes it. */
    ObjectNode switchConfig(final String switchId) {
        final boolean tls = tls();
        final ObjectNode body = Restconf.JSON.createObjectNode();
        final ObjectNode entry = body.putArray("rdma-flow-table:switch").addObject().put("node-id", switchId)
            .put("agent-address", agentAddress(switchId)).put("agent-port", Fabric.AGENT_PORT).put("enabled", true)
            .put("agent-transport", tls ? "tls" : "plain-http");
        if (tls) {
            entry.put("agent-tls-fingerprint", certs().fingerprint(switchId));
        }
        return body;
    }

    /** Removes what {@link #register} wrote. */
    public void unregister(final Restconf rc) {
        final var fabric = fabric();
        for (var sw : fabric.switches()) {
            rc.delete("data/rdma-flow-table:rft/switch=" + sw.id());
        }
        rc.delete("data/network-topology:network-topology/topology=" + TOPOLOGY_ID);
    }

    static ObjectNode topology(final Fabric fabric, final Set<String> down) {
        final ObjectNode body = Restconf.JSON.createObjectNode();
        final ObjectNode topo = body.putArray("network-topology:topology").addObject();
        topo.put("topology-id", TOPOLOGY_ID);
        final ArrayNode nodes = topo.putArray("node");
        for (var n : fabric.nodes()) {
            final ObjectNode node = nodes.addObject();
            node.put("node-id", n.id());
            node.put("rst-topology:node-kind", n.isSwitch() ? "switch" : "host");
            if (!n.isSwitch()) {
                node.putArray("rst-topology:ip-address").add(fabric.hostIp(n.id()));
            }
            final ArrayNode tps = node.putArray("termination-point");
            for (var p : fabric.ports(n.id())) {
                tps.addObject().put("tp-id", p.name());
            }
        }
        final ArrayNode links = topo.putArray("link");
        for (var link : fabric.links()) {
            final String name = fabric.fabricLinkName(link.b().node(), link.b().name());
            if (name != null && down.contains(name)) {
                continue;
            }
            for (var ends : List.of(new Fabric.Port[] {link.a(), link.b()}, new Fabric.Port[] {link.b(), link.a()})) {
                final ObjectNode l = links.addObject();
                l.put("link-id", ends[0].node() + ":" + ends[0].name());
                l.putObject("source").put("source-node", ends[0].node()).put("source-tp", ends[0].name());
                l.putObject("destination").put("dest-node", ends[1].node()).put("dest-tp", ends[1].name());
            }
        }
        return body;
    }

    /**
     * Takes a leaf-spine link down or up again: the interface at {@code node}, the fabric's routes
     * (as a routing protocol would withdraw and restore them), and, when a controller is given, the
     * topology's link in both directions.
     */
    public void setLink(final String node, final String port, final boolean up, final Restconf rc) {
        final var fabric = fabric();
        final String name = fabric.fabricLinkName(node, port);
        if (name == null) {
            throw new LabException(node + ":" + port + " is not a leaf-spine link");
        }
        final var s = state();
        final Set<String> down = downLinks();
        if (up) {
            down.remove(name);
        } else {
            down.add(name);
        }
        final ArrayNode arr = s.putArray("down_links");
        down.forEach(arr::add);
        writeState(s);
        Shell.run("ip", "-n", Fabric.NS_PREFIX + node, "link", "set", port, up ? "up" : "down");
        for (var sw : fabric.switches()) {
            final List<String> lines = new ArrayList<>();
            for (var r : routesNow(sw.namespace())) {
                lines.add("route del " + r);
            }
            lines.addAll(fabric.routes(sw.id(), down));
            Shell.ipBatch(sw.namespace(), lines, false);
        }
        if (rc != null) {
            rc.put("data/network-topology:network-topology/topology=" + TOPOLOGY_ID, topology(fabric, down));
        }
    }

    /** The static routes of a namespace (those the lab added), as {@code ip route del} wants them. */
    private static List<String> routesNow(final String ns) {
        final List<String> out = new ArrayList<>();
        for (var line : Shell.run("ip", "-o", "-n", ns, "route", "show", "proto", "boot").split("\n")) {
            final String prefix = line.strip().split("\\s+")[0];
            if (!prefix.isEmpty()) {
                out.add(prefix);
            }
        }
        return out;
    }

    /** Stops the agents and removes every namespace, link, file and process of the lab. */
    public void down(final Consumer<String> log) {
        if (isUp() && replay()) {
            stopAgents();
            deleteTree(dir);
            log.accept("lab: stopped the replaying agents and removed " + dir);
            return;
        }
        if (isUp()) {
            stopAgents();
        }
        final List<String> namespaces = leftovers();
        for (var ns : namespaces) {
            // anything still running inside (an agent started by a crashed run)
            for (var pid : Shell.quiet("ip", "netns", "pids", ns).split("\\s+")) {
                if (!pid.isBlank()) {
                    ProcessHandle.of(Long.parseLong(pid.strip())).ifPresent(ProcessHandle::destroyForcibly);
                }
            }
            Shell.quiet("ip", "netns", "del", ns);
        }
        Shell.quiet("ip", "link", "del", Fabric.MGMT_BRIDGE);
        deleteTree(dir);
        log.accept("lab: removed " + namespaces.size() + " namespaces, the management bridge and " + dir);
    }

    private void stopAgents() {
        final var agents = state().path("agents");
        agents.properties().forEach(e -> ProcessHandle.of(e.getValue().asLong()).ifPresent(ProcessHandle::destroy));
        final long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        agents.properties().forEach(e -> ProcessHandle.of(e.getValue().asLong()).ifPresent(p -> {
            while (p.isAlive() && System.nanoTime() < deadline) {
                sleep(50);
            }
            p.destroyForcibly();
        }));
    }

    /** Namespaces named {@code rst-*} on this machine. */
    public static List<String> leftovers() {
        final List<String> out = new ArrayList<>();
        for (var line : Shell.quiet("ip", "netns", "list").split("\n")) {
            final String name = line.strip().split("\\s+")[0];
            if (name.startsWith(Fabric.NS_PREFIX)) {
                out.add(name);
            }
        }
        return out;
    }

    private static void deleteTree(final Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            walk.sorted((a, b) -> b.getNameCount() - a.getNameCount()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException e) {
            throw new LabException("cannot remove " + root + ": " + e.getMessage(), e);
        }
    }

    /** A line per switch: its agent, and what the agent says. */
    public List<String> status() {
        if (!isUp()) {
            final var left = leftovers();
            return List.of(left.isEmpty() ? "lab: down" : "lab: down, but " + left.size()
                + " rst-* namespaces are left: ./rst lab down removes them");
        }
        final var fabric = fabric();
        final List<String> out = new ArrayList<>();
        out.add("lab: up, " + fabric.spines() + " spines, " + fabric.leaves() + " leaves, " + fabric.hostsPerLeaf()
            + " hosts per leaf" + (fabric.dualHomed().isEmpty() ? "" : ", dual-homed " + fabric.dualHomed())
            + (downLinks().isEmpty() ? "" : ", links down " + downLinks()));
        final var agents = state().path("agents");
        for (var sw : fabric.switches()) {
            final long pid = agents.path(sw.id()).asLong();
            final boolean alive = ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
            String what;
            try {
                final var st = agentStatus(sw.id());
                what = (tls() ? "TLS " : "plain HTTP ") + "capturing=" + st.path("capturing").asBoolean() + " sessions="
                    + st.path("counters").path("sessions_live").asLong() + " cm_mads="
                    + st.path("counters").path("cm_mads").asLong()
                    + (st.path("counters").has("data_sessions") ? " data_sessions="
                        + st.path("counters").path("data_sessions").asLong() + " data_one_way="
                        + st.path("counters").path("data_one_way").asLong() : "");
            } catch (LabException e) {
                what = e.getMessage();
            }
            out.add(String.format("  %-8s agent pid %d %s at %s:%d  %s", sw.id(), pid,
                alive ? "running" : "NOT RUNNING", agentAddress(sw.id()), Fabric.AGENT_PORT, what));
        }
        for (var h : fabric.hosts()) {
            out.add(String.format("  %-8s host %s", h.id(), fabric.hostIp(h.id())));
        }
        return out;
    }

    static void sleep(final long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LabException("interrupted", e);
        }
    }

    /** Reads the whole of a small text file, for logs. */
    static String read(final Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }
}
