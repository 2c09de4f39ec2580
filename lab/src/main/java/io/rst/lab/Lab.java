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
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.eclipse.jdt.annotation.Nullable;

/**
 * The lab fabric on this machine: makes the namespaces, links, addresses, routes, one lldpd per
 * namespace and one RFT agent per switch (a process, or the agent's container image) that a
 * {@link Fabric} describes, registers the switches with a controller, and removes every trace
 * again. It writes no topology for a live fabric: the controller learns it from the agents' LLDP
 * neighbours, as on a real fabric, and {@link LinkCheck} compares that with the lab's wiring.
 * What it made is kept in {@code DIR/lab.json} (default {@code /run/rst-lab}), so that
 * {@code down} works from another process; {@code down} also removes whatever a crashed run left
 * (every process in an {@code rst-*} namespace, those namespaces, the {@code rst-mgmt} bridge,
 * {@link #LLDPD_RUN}, the {@code rst-lab-*} containers).
 */
public final class Lab {
    public static final Path DEFAULT_DIR = Path.of("/run/rst-lab");
    /** The configuration topology of a replayed lab, which has no links to hear LLDP on. */
    public static final String TOPOLOGY_ID = "rst-lab";
    /** The operational topology the controller learns from the agents' LLDP neighbours. */
    public static final String LLDP_TOPOLOGY_ID = "rst-lldp";
    /** lldpd's transmit interval in the lab (s): a neighbour is heard every second. */
    public static final int LLDP_TX_INTERVAL = 1;
    /** lldpd's hold multiplier: the TTL its LLDPDUs carry is interval times hold. */
    public static final int LLDP_TX_HOLD = 3;
    /** How long a neighbour is kept after its last LLDPDU (s): a link that went silent is gone then. */
    public static final int LLDP_TTL_SECONDS = LLDP_TX_INTERVAL * LLDP_TX_HOLD;
    /** Names of the agents' containers ({@code up} with a container image): this and the switch. */
    public static final String CONTAINER_PREFIX = "rst-lab-";
    /**
     * The lldpd daemons' control sockets and configuration files: lldpcli drops root for lldpd's
     * group before it opens them, so they live in a folder that group can reach whatever the
     * lab's directory is (one lab per machine, as its namespaces' names are the machine's).
     */
    public static final Path LLDPD_RUN = Path.of("/run/rst-lldpd");

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
        up(fabric, agentCommand, plainHttp, dataSample, null, log);
    }

    /**
     * Builds the fabric and starts its agents as above; with a {@code containerImage} (a podman
     * image name, loaded already) each switch's agent runs as that image in its switch's namespace
     * ({@code podman run --network ns:/run/netns/rst-NODE}, container {@code rst-lab-NODE}) with
     * the same token, certificate and state directory as the agent process would have. podman takes
     * its settings from {@code CONTAINERS_CONF} ({@code ./rst} sets packaging/podman/containers.conf).
     */
    public void up(final Fabric fabric, final List<String> agentCommand, final boolean plainHttp,
            final int dataSample, final @Nullable String containerImage, final Consumer<String> log) {
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
        if (containerImage != null) {
            s.put("image", containerImage);
        }
        s.putObject("agents");
        s.putObject("lldpd");
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
            if (fabric.dualHomed().contains(n.id())) {
                // its RDMA address, reachable over either link (its default route's source)
                perNs.get(n.namespace()).add("addr add " + fabric.hostIp(n.id()) + "/32 dev lo");
            }
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
        startLldpd(fabric, s);
        writeState(s);

        final ObjectNode agents = (ObjectNode) s.get("agents");
        for (var sw : fabric.switches()) {
            if (containerImage != null) {
                final List<String> args = new ArrayList<>(LabMain.agentExtraArgs());
                args.addAll(List.of("--data-sample", Integer.toString(dataSample)));
                agents.put(sw.id(), startContainer(sw.id(), fabric, containerImage, args, !plainHttp));
                writeState(s);
                continue;
            }
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
        waitForLldp(fabric, log);
    }

    /** A new random token for a switch's agent in its file (mode 0600), and the agent's state directory. */
    private Path newToken(final String switchId) {
        final byte[] t = new byte[32];
        RANDOM.nextBytes(t);
        final Path tokenFile = tokenDir().resolve(switchId);
        try {
            Files.writeString(tokenFile, HexFormat.of().formatHex(t) + "\n");
            Files.setPosixFilePermissions(tokenFile, PosixFilePermissions.fromString("rw-------"));
            Files.createDirectories(agentStateDir(switchId));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return tokenFile;
    }

    private Path agentStateDir(final String switchId) {
        return dir.resolve("agents").resolve(switchId);
    }

    /** The switch's certificate for its node-id and {@code listen}, of the lab's CA (made first). */
    private void newCertificate(final String switchId, final String listen) {
        final var certs = certs();
        if (!Files.exists(certs.caFile())) {
            certs.makeCa();
        }
        certs.makeSwitch(switchId, listen);
    }

    /**
     * Starts one agent with its own token and state directory, and with TLS its own certificate
     * for its node-id and {@code listen} (the CA made first); its pid.
     */
    private long startAgent(final String switchId, final String listen, final List<String> cmd, final boolean tls) {
        final Path tokenFile = newToken(switchId);
        final List<String> all = new ArrayList<>(cmd);
        all.addAll(List.of("--listen", listen + ":" + Fabric.AGENT_PORT, "--token-file", tokenFile.toString(),
            "--state-dir", agentStateDir(switchId).toString(), "--agent-id", switchId));
        if (tls) {
            newCertificate(switchId, listen);
            all.addAll(List.of("--tls-cert", certs().cert(switchId).toString(), "--tls-key",
                certs().key(switchId).toString()));
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
     * Starts a switch's agent as the container image in the switch's namespace: the state
     * directory the agent process would have as its state volume, and a directory with copies of
     * its token, certificate and key (mode 0600) as its read-only {@code /etc/rst-agent}; its
     * interfaces, address and name in the entry point's variables, {@code args} (and
     * {@code --plain-http} without TLS) in {@code RST_AGENT_ARGS}. The pid of the agent in the
     * container.
     */
    private long startContainer(final String switchId, final Fabric fabric, final String image,
            final List<String> args, final boolean tls) {
        final String listen = fabric.mgmtIp(switchId);
        final Path tokenFile = newToken(switchId);
        final Path conf = dir.resolve("agents").resolve(switchId + ".conf");
        final List<String> agentArgs = new ArrayList<>(args);
        try {
            Files.createDirectories(conf);
            Files.setPosixFilePermissions(conf, PosixFilePermissions.fromString("rwx------"));
            copyPrivate(tokenFile, conf.resolve("agent.token"));
            if (tls) {
                newCertificate(switchId, listen);
                copyPrivate(certs().cert(switchId), conf.resolve("agent.crt"));
                copyPrivate(certs().key(switchId), conf.resolve("agent.key"));
            } else {
                agentArgs.add("--plain-http");
            }
        } catch (IOException e) {
            throw new LabException("cannot write " + conf + ": " + e.getMessage(), e);
        }
        final String name = CONTAINER_PREFIX + switchId;
        final List<String> ports = fabric.ports(switchId).stream().map(Fabric.Port::name).toList();
        Shell.quiet("podman", "rm", "-f", name);
        Shell.run(List.of("podman", "run", "-d", "--name", name, "--network", "ns:/run/netns/" + Fabric.NS_PREFIX
            + switchId, "--cap-add", "NET_RAW", "--cap-add", "NET_ADMIN", "-v", agentStateDir(switchId)
            + ":/var/lib/rst-agent", "-v", conf + ":/etc/rst-agent:ro", "-e", "RST_AGENT_INTERFACES="
            + String.join(",", ports), "-e", "RST_AGENT_LISTEN=" + listen + ":" + Fabric.AGENT_PORT, "-e",
            "RST_AGENT_ID=" + switchId, "-e", "RST_AGENT_ARGS=" + String.join(" ", agentArgs), image));
        final String pid = Shell.run("podman", "inspect", "--format", "{{.State.Pid}}", name).strip();
        try {
            return Long.parseLong(pid);
        } catch (NumberFormatException e) {
            throw new LabException("podman gives no pid for " + name + ": " + pid, e);
        }
    }

    private static void copyPrivate(final Path from, final Path to) throws IOException {
        Files.copy(from, to, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Files.setPosixFilePermissions(to, PosixFilePermissions.fromString("rw-------"));
    }

    /** The podman image the lab's agents run as, or null when they run as processes. */
    public @Nullable String containerImage() {
        final var image = state().path("image");
        return image.isMissingNode() ? null : image.asText();
    }

    private Path lldpdDir() {
        return dir.resolve("lldpd");
    }

    /** The control socket of a node's lldpd ({@code lldpcli -u SOCKET}). */
    public Path lldpdSocket(final String node) {
        return LLDPD_RUN.resolve(node + ".socket");
    }

    /** The pids of the lab's lldpd daemons, by node. */
    public Map<String, Long> lldpdPids() {
        final Map<String, Long> out = new LinkedHashMap<>();
        state().path("lldpd").properties().forEach(e -> out.put(e.getKey(), e.getValue().asLong()));
        return out;
    }

    /**
     * Starts one lldpd in every namespace, as every switch and host of a real fabric runs one: in
     * the foreground ({@code -dd}, its log in {@code DIR/lldpd/NODE.log}) with its own control
     * socket ({@link #LLDPD_RUN}{@code /NODE.socket}) and its own pid file named ({@code -p},
     * which lldpd writes only when it daemonizes: the lab keeps the pid in its state), sending and
     * listening on the node's fabric interfaces only (never a switch's {@code mgmt0}), its
     * chassis ID the first of their MACs, its management address the switch's agent address or
     * the host's RDMA address, and its configuration (read by lldpd through {@code lldpcli -u
     * SOCKET} before it sends anything) from {@link #LLDPD_RUN}{@code /NODE.conf}: the node id as
     * system name (the namespaces share the host name), ports named by interface name, a switch's
     * capabilities, a transmit interval of {@link #LLDP_TX_INTERVAL} s and a hold of
     * {@link #LLDP_TX_HOLD} ({@link #lldpdConfig}). Each one drops root to {@code _lldpd} in
     * lldpd's chroot, which they share.
     */
    private void startLldpd(final Fabric fabric, final ObjectNode labState) {
        final ObjectNode pids = (ObjectNode) labState.get("lldpd");
        try {
            Files.createDirectories(lldpdDir());
            // a crashed run's sockets and files go: a socket left there would be taken as a daemon's
            deleteTree(LLDPD_RUN);
            Files.createDirectories(LLDPD_RUN);
            // lldpcli, having dropped root for lldpd's group, and lldpd's unprivileged side reach into it
            Files.setPosixFilePermissions(LLDPD_RUN, PosixFilePermissions.fromString("rwxr-xr-x"));
        } catch (IOException e) {
            throw new LabException("cannot make " + LLDPD_RUN + ": " + e.getMessage(), e);
        }
        for (var n : fabric.nodes()) {
            final String ports = String.join(",", fabric.ports(n.id()).stream().map(Fabric.Port::name).toList());
            final Path conf = LLDPD_RUN.resolve(n.id() + ".conf");
            try {
                Files.writeString(conf, lldpdConfig(n.id(), n.isSwitch()));
            } catch (IOException e) {
                throw new LabException("cannot write " + conf + ": " + e.getMessage(), e);
            }
            final List<String> cmd = List.of("setsid", "ip", "netns", "exec", n.namespace(), "lldpd", "-d", "-d",
                "-u", lldpdSocket(n.id()).toString(), "-p", lldpdDir().resolve(n.id() + ".pid").toString(),
                "-I", ports, "-C", ports, "-m", n.isSwitch() ? fabric.mgmtIp(n.id()) : fabric.hostIp(n.id()),
                "-O", conf.toString());
            try {
                pids.put(n.id(), new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(
                    ProcessBuilder.Redirect.appendTo(lldpdDir().resolve(n.id() + ".log").toFile())).start().pid());
            } catch (IOException e) {
                throw new LabException("cannot start lldpd (scripts/setup.sh --test-deps installs it): "
                    + e.getMessage(), e);
            }
        }
        writeState(labState);
        final long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        for (var n : fabric.nodes()) {
            while (!Files.exists(lldpdSocket(n.id()))) {
                final boolean alive = ProcessHandle.of(pids.path(n.id()).asLong()).map(ProcessHandle::isAlive)
                    .orElse(false);
                if (!alive || System.nanoTime() > deadline) {
                    final var logFile = lldpdDir().resolve(n.id() + ".log");
                    throw new LabException("lldpd in " + n.namespace() + (alive ? " made no socket within 20 s"
                        : " ended") + "; its log " + logFile + " ends: " + lastLine(logFile));
                }
                sleep(100);
            }
        }
    }

    /**
     * What a node's lldpd is configured with at its start (lldpcli commands): its name, its ports
     * named by interface name (port ID subtype 5, as switch operating systems send it), a switch's
     * capabilities bridge and router enabled (a host's stay lldpd's own: station), and the timers.
     */
    static String lldpdConfig(final String node, final boolean isSwitch) {
        return "configure system hostname " + node + "\n"
            + "configure lldp portidsubtype ifname\n"
            + (isSwitch ? "configure system capabilities enabled bridge,router\n" : "")
            + "configure lldp tx-interval " + LLDP_TX_INTERVAL + "\n"
            + "configure lldp tx-hold " + LLDP_TX_HOLD + "\n";
    }

    /**
     * What a node's lldpd hears now: by its interface, the neighbour's system name and port
     * ({@code NODE:PORT}: its port ID when that is an interface name, else its description),
     * from {@code lldpcli -u SOCKET -f keyvalue show neighbors}.
     */
    public Map<String, String> heardNeighbours(final String node) {
        return parseNeighbours(Shell.run("lldpcli", "-u", lldpdSocket(node).toString(), "-f", "keyvalue", "show",
            "neighbors"));
    }

    /** {@link #heardNeighbours} from lldpcli's keyvalue lines ({@code lldp.IF.chassis.name=...}). */
    static Map<String, String> parseNeighbours(final String keyvalue) {
        final Map<String, String> names = new LinkedHashMap<>();
        final Map<String, String> ports = new LinkedHashMap<>();
        final Map<String, String> descriptions = new LinkedHashMap<>();
        for (var line : keyvalue.split("\n")) {
            final int eq = line.indexOf('=');
            if (!line.startsWith("lldp.") || eq < 0) {
                continue;
            }
            final String key = line.substring(5, eq);
            final String value = line.substring(eq + 1).strip();
            if (key.endsWith(".chassis.name")) {
                names.put(key.substring(0, key.length() - ".chassis.name".length()), value);
            } else if (key.endsWith(".port.ifname")) {
                ports.put(key.substring(0, key.length() - ".port.ifname".length()), value);
            } else if (key.endsWith(".port.descr")) {
                descriptions.put(key.substring(0, key.length() - ".port.descr".length()), value);
            }
        }
        final Map<String, String> out = new TreeMap<>();
        names.forEach((ifc, name) -> out.put(ifc, name + ":" + ports.getOrDefault(ifc,
            descriptions.getOrDefault(ifc, "?"))));
        return out;
    }

    /**
     * Waits (20 s at most) until every node's lldpd, and every switch's agent, hears the far end
     * of each of its links that is up, by name and port; a {@link LabException} naming the ports
     * that hear nothing, or the wrong neighbour, otherwise.
     */
    private void waitForLldp(final Fabric fabric, final Consumer<String> log) {
        final long start = System.nanoTime();
        final long deadline = start + Duration.ofSeconds(20).toNanos();
        while (true) {
            final List<String> missing = unheardLinks(fabric);
            if (missing.isEmpty()) {
                log.accept("lab: lldpd in " + fabric.nodes().size() + " namespaces (transmit every "
                    + LLDP_TX_INTERVAL + " s, TTL " + LLDP_TTL_SECONDS + " s): every link heard both ways, by lldpd"
                    + " and by the agents, after "
                    + (System.nanoTime() - start) / 1_000_000 + " ms");
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new LabException("lldpd: not every link is heard after 20 s: " + String.join("; ",
                    missing.subList(0, Math.min(10, missing.size()))) + " (logs in " + lldpdDir() + ")");
            }
            sleep(250);
        }
    }

    /**
     * The node ports whose lldpd does not hear the far end of their link as the wiring has it,
     * and the switch ports whose agent does not list it in its status' {@code lldp} (by system
     * name and port).
     */
    public List<String> unheardLinks(final Fabric fabric) {
        final List<String> out = unheard(fabric, "lldpd", this::heardNeighbours, fabric.nodes());
        out.addAll(unheard(fabric, "the agent", this::agentNeighbours, fabric.switches()));
        return out;
    }

    /**
     * What a switch's agent lists in its status' {@code lldp}: by interface, {@code NAME:PORT}
     * (the system name; the port ID when its subtype is an interface name, else the port
     * description).
     */
    public Map<String, String> agentNeighbours(final String switchId) {
        final Map<String, String> out = new TreeMap<>();
        for (var n : agentStatus(switchId).path("lldp")) {
            out.put(n.path("interface").asText(), n.path("system_name").asText() + ":"
                + ("interface_name".equals(n.path("port_id_subtype").asText()) ? n.path("port_id").asText()
                    : n.path("port_description").asText()));
        }
        return out;
    }

    private List<String> unheard(final Fabric fabric, final String who,
            final java.util.function.Function<String, Map<String, String>> heardBy, final List<Fabric.Node> nodes) {
        final Set<String> down = downLinks();
        final List<String> out = new ArrayList<>();
        for (var n : nodes) {
            final Map<String, String> heard = heardBy.apply(n.id());
            for (var p : fabric.ports(n.id())) {
                final String name = n.isSwitch() ? fabric.fabricLinkName(n.id(), p.name()) : null;
                if (name != null && down.contains(name)) {
                    continue;
                }
                final var far = fabric.peer(n.id(), p.name());
                final String want = far.node() + ":" + far.name();
                final String got = heard.get(p.name());
                if (!want.equals(got)) {
                    out.add(who + " at " + n.id() + ":" + p.name() + " hears " + (got == null ? "nothing" : got)
                        + ", not " + want);
                }
            }
        }
        return out;
    }

    private static String lastLine(final Path file) {
        final var lines = read(file).strip().split("\n");
        return lines[lines.length - 1];
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
                    if (containerImage() != null) {
                        try {
                            Files.writeString(logFile, Shell.quiet("podman", "logs", CONTAINER_PREFIX + sw.id()));
                        } catch (IOException e) {
                            // the message below says what the file holds
                        }
                    }
                    throw new LabException("the agent of " + sw.id()
                        + (alive ? " did not answer within 90 s" : " ended")
                        + "; its log " + logFile + " ends: " + lastLine(logFile));
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
     * Writes the lab's switches, with their agents' addresses, into rdma-flow-table: with TLS
     * {@code agent-transport tls} and each agent's certificate fingerprint pinned (so the
     * controller needs no CA file for the lab), otherwise {@code agent-transport plain-http}. No
     * topology: the controller learns the links from the agents' LLDP neighbours (topology
     * {@code rst-lldp}). A replayed lab, which has no links to hear LLDP on, writes its wiring as
     * the configuration topology {@code rst-lab} instead.
     */
    public void register(final Restconf rc) {
        final var fabric = fabric();
        if (replay()) {
            rc.put("data/network-topology:network-topology/topology=" + TOPOLOGY_ID, topology(fabric, downLinks()));
        }
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
        if (replay()) {
            rc.delete("data/network-topology:network-topology/topology=" + TOPOLOGY_ID);
        }
    }

    /**
     * The lab's wiring as a network-topology topology ({@code topology-id} {@code id}): every
     * node with its node-kind, each host with its address, every interface as a termination
     * point, every link that is up in both directions with {@code link-id} {@code NODE:TP} of its
     * source. What a replayed lab registers, and what {@link LinkCheck} expects the controller to
     * learn.
     */
    static ObjectNode topology(final Fabric fabric, final Set<String> down) {
        return topology(fabric, down, TOPOLOGY_ID);
    }

    static ObjectNode topology(final Fabric fabric, final Set<String> down, final String id) {
        final ObjectNode body = Restconf.JSON.createObjectNode();
        final ObjectNode topo = body.putArray("network-topology:topology").addObject();
        topo.put("topology-id", id);
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
     * Takes a leaf-spine link down or up again: the interface at {@code node} and the fabric's
     * routes (as a routing protocol would withdraw and restore them). The controller sees it as
     * a real fabric's would: lldpd stops hearing the far end, the agents forget the neighbour
     * after its TTL ({@link #LLDP_TTL_SECONDS}), and the link leaves topology {@code rst-lldp};
     * back up, lldpd hears it again within its transmit interval.
     */
    public void setLink(final String node, final String port, final boolean up) {
        if (replay()) {
            throw new LabException("a replayed lab has no links to take down");
        }
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
            stopLldpd();
        }
        final int containers = removeContainers();
        final List<String> namespaces = leftovers();
        for (var ns : namespaces) {
            // anything still running inside (an agent or an lldpd started by a crashed run)
            for (var pid : Shell.quiet("ip", "netns", "pids", ns).split("\\s+")) {
                if (!pid.isBlank()) {
                    ProcessHandle.of(Long.parseLong(pid.strip())).ifPresent(ProcessHandle::destroyForcibly);
                }
            }
            Shell.quiet("ip", "netns", "del", ns);
        }
        Shell.quiet("ip", "link", "del", Fabric.MGMT_BRIDGE);
        deleteTree(LLDPD_RUN);
        deleteTree(dir);
        log.accept("lab: removed " + namespaces.size() + " namespaces" + (containers > 0 ? ", " + containers
            + " agent containers" : "") + ", the management bridge and " + dir);
    }

    private void stopAgents() {
        stopAll(state().path("agents"), Duration.ofSeconds(15));
    }

    private void stopLldpd() {
        stopAll(state().path("lldpd"), Duration.ofSeconds(5));
    }

    /** SIGTERM to each pid of {@code pids} (name to pid), SIGKILL to those still alive after {@code grace}. */
    private static void stopAll(final JsonNode pids, final Duration grace) {
        pids.properties().forEach(e -> ProcessHandle.of(e.getValue().asLong()).ifPresent(ProcessHandle::destroy));
        final long deadline = System.nanoTime() + grace.toNanos();
        pids.properties().forEach(e -> ProcessHandle.of(e.getValue().asLong()).ifPresent(p -> {
            while (p.isAlive() && System.nanoTime() < deadline) {
                sleep(50);
            }
            p.destroyForcibly();
        }));
    }

    /**
     * Removes every container named {@code rst-lab-*} (the agents of a lab with a container
     * image, stopped or not); how many. None when podman is not installed.
     */
    private static int removeContainers() {
        final String names;
        try {
            names = Shell.run(List.of("podman", "ps", "-a", "--format", "{{.Names}}"), null, false);
        } catch (LabException e) {
            return 0;
        }
        final List<String> ours = new ArrayList<>();
        for (var line : names.split("\n")) {
            if (line.strip().startsWith(CONTAINER_PREFIX)) {
                ours.add(line.strip());
            }
        }
        if (!ours.isEmpty()) {
            final List<String> cmd = new ArrayList<>(List.of("podman", "rm", "-f", "-t", "10"));
            cmd.addAll(ours);
            Shell.run(cmd, null, false);
        }
        return ours.size();
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
        final String image = containerImage();
        if (image != null) {
            out.add("  agents run as the container image " + image);
        }
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
            out.add(String.format("  %-8s agent %spid %d %s at %s:%d  %s", sw.id(), image == null ? ""
                : "container " + CONTAINER_PREFIX + sw.id() + " ", pid, alive ? "running" : "NOT RUNNING",
                agentAddress(sw.id()), Fabric.AGENT_PORT, what));
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
