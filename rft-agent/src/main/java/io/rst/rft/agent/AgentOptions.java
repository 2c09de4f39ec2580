/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.agent;

import io.rst.rft.capture.CaptureFilters;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The agent's command-line options (its one home for configuration; every one has a default
 * that works on a switch).
 *
 * @param interfaces interfaces to capture on; empty means every up, non-loopback interface
 * @param listen where the API listens
 * @param tokenFile file holding the API token, or null to use (or generate) STATE_DIR/agent.token
 * @param stateDir where the on/off switch, the event log, the token and the self-made TLS
 *        certificate are kept
 * @param allRoce capture all RoCEv2, not only CM (QP1)
 * @param udpPort the RoCEv2 UDP port
 * @param maxSessions the session table's limit (evictions beyond)
 * @param retentionSeconds how long closed sessions stay in the table
 * @param retainEvents how many events the log keeps for clients that resume
 * @param retainBytes how many bytes of event lines the log keeps at most (the older go first)
 * @param replays pcap files to replay instead of live capture, by the ingress port their frames
 *        get (empty: live capture)
 * @param agentId this switch's name in the status, default the host name
 * @param queueFrames frames the capture rings hold in total
 * @param bufferBytes kernel capture buffer per interface
 * @param flushMs how often the write-ahead log is written and fsynced (what a kill -9 may lose at
 *        most); 0: no write-ahead log, the table is saved only at a clean stop
 * @param walBytes the write-ahead log's size that makes a new checkpoint
 * @param tls where the API's certificate, key and (for mutual TLS) client CA are, or null for
 *        the agent's own certificate (made in {@code stateDir}), or plain HTTP
 * @param plainHttp plain HTTP instead of TLS ({@code --plain-http})
 * @param dataSample 0: no data packets; N (a power of two): data packets whose BTH PSN is a
 *        multiple of N are sampled, matched to sessions, and tell where each session's data enters
 * @param eventHoldMs how long a session's changes are gathered into one event at most: the
 *        changes of every session within that time (a set-up's REQ, REP, RTU and first data
 *        packets, a tear-down's DREQ and DREP) become one event each, with the final state
 * @param maxFlows with {@code dataSample}: the most data flows learnt from sampled packets that no
 *        CM session claims (one-way flows, two per paired session); beyond, the least recently seen
 *        is evicted
 * @param dataIdleSeconds a data-learned session is IDLE after this long without a sampled packet,
 *        and removed after the retention
 * @param dataReportMs a data-learned session's changes become an event at most once in this time
 * @param congestion capture and count CNPs (with {@code dataSample}) and PFC frames
 *        ({@code --no-congestion} turns it off)
 * @param linkSpeedMbps the link speed PFC pause quanta are timed with where
 *        {@code /sys/class/net/IF/speed} does not say (replays, virtual interfaces)
 * @param lldp capture LLDP frames and keep each interface's neighbours ({@code --no-lldp} turns
 *        it off)
 */
public record AgentOptions(List<String> interfaces, InetSocketAddress listen, Path tokenFile, Path stateDir,
        boolean allRoce, int udpPort, int maxSessions, long retentionSeconds, int retainEvents, long retainBytes,
        Map<String, Path> replays,
        String agentId, int queueFrames, int bufferBytes, int flushMs, long walBytes, Tls tls, boolean plainHttp,
        int dataSample, int eventHoldMs, int maxFlows, int dataIdleSeconds, int dataReportMs, boolean congestion,
        int linkSpeedMbps, boolean lldp) {

    /**
     * The API's TLS files (PEM).
     *
     * @param certChain the agent's certificate, then its chain
     * @param key the agent's PKCS#8 private key
     * @param clientCa CAs a client certificate must chain to (mutual TLS), or null for none
     */
    public record Tls(Path certChain, Path key, Path clientCa) {
        public Tls {
            if (certChain == null || key == null) {
                throw new IllegalArgumentException("--tls-cert and --tls-key go together");
            }
        }
    }

    private static final String USAGE = """
        usage: rst agent [--interface IF]... [--listen HOST:PORT] [--token-file F] [--state-dir D]
                         [--all-roce] [--udp-port N] [--max-sessions N] [--retention SECONDS]
                         [--retain-events N] [--retain-mb N] [--replay [PORT=]FILE]... [--agent-id NAME]
                         [--queue-frames N] [--buffer-mb N] [--flush-ms N] [--wal-mb N]
                         [--tls-cert F --tls-key F [--tls-client-ca F] | --plain-http] [--data-sample N]
                         [--max-flows N] [--data-idle S] [--data-report-ms N] [--event-hold-ms N]
                         [--no-congestion] [--link-speed-mbps N] [--no-lldp]
          --interface IF     capture inbound on IF (repeatable); default: every up non-loopback interface
          --listen HOST:PORT API address (default 0.0.0.0:4791)
          --token-file F     file holding the bearer token (default: STATE_DIR/agent.token, generated
                             at the first start with mode 0600); there is no --token: it would show
                             in the process list
          --state-dir D      the on/off switch, the event log, the saved table, the default token
                             and the self-made TLS certificate
                             (default /var/lib/rst-agent as root, else $XDG_STATE_HOME/rst-agent or
                             ~/.local/state/rst-agent)
          --all-roce         capture all RoCEv2 (data BTH too), not only CM MADs to QP1
          --udp-port N       RoCEv2 UDP port (default 4791)
          --max-sessions N   session table limit (default 250000; ~250 bytes of heap each); beyond
                             it the session that finished first goes, or, none finished, the least
                             recently updated
          --retention S      seconds a finished session (closed, rejected, timed out) is kept, from
                             when it finished (default 3600)
          --retain-events N  events kept for clients that resume (default 65536)
          --retain-mb N      at most this many MiB of retained events, the oldest go first (default 16)
          --replay [PORT=]F  replay pcap F as PORT's capture (repeatable; PORT default "replay")
          --agent-id NAME    this switch's name in the status (default: host name)
          --queue-frames N   frames the capture queues hold in total (default 32768)
          --buffer-mb N      kernel capture buffer per interface in MiB (default 16)
          --flush-ms N       write-ahead log flush interval: what a crash may lose at most (default
                             200; 0: no write-ahead log, the table is saved at a clean stop only)
          --wal-mb N         write-ahead log size below which no checkpoint is written
                             (default 64; beyond it, one at two events per session)
          --tls-cert F       serve the API over TLS (1.3, 1.2) with this PEM certificate (chain: leaf
                             first); without it the agent serves TLS with a certificate of its own
                             (EC P-256, self-signed, 10 years): STATE_DIR/agent-tls.crt and
                             agent-tls.key (mode 0600), made at the first start and kept
          --tls-key F        the certificate's PEM PKCS#8 private key, unencrypted (RSA, EC or
                             Ed25519; mode 0600 or stricter)
          --tls-client-ca F  mutual TLS: require a client certificate from these PEM CAs (the bearer
                             token stays required)
          --plain-http       serve plain HTTP instead of TLS (unencrypted: the token and the sessions
                             in clear)
          --data-sample N    sample data packets too, 1 in N (a power of two; 1: all; default 0:
                             none): each session then says on which port and from which UDP
                             source port its data enters, for its data path; data of QPs no CM
                             session announced makes sessions too (NCCL, perftest, UCX): RC flows
                             paired by the PSNs of their answers, UC/UD and unpaired RC one-way
          --max-flows N      data flows (source IP, destination IP, destination QP) learnt at most
                             (default 1000000; ~200 bytes of heap each); beyond it the least
                             recently seen goes (counters.data_flows_evicted); 0: sampled data only
                             joins CM sessions, nothing is learnt from it
          --data-idle S      a data-learned session is IDLE after S seconds without a sampled
                             packet (default 30), then removed after the retention; its QP pair
                             seen again is a new session
          --data-report-ms N a data-learned session's changes make an event at most once in N
                             ms, and only when something changed (default 5000)
          --event-hold-ms N  a session's changes within N ms become one event with its final
                             state (0 to 1000, default 50; 0: one event per decode batch): a
                             set-up is one event, not three to five, at most N ms later
          --no-congestion    capture no CNPs and no PFC frames (by default every CNP is kept
                             whatever --data-sample, and counted for the session whose data it is
                             about; every PFC frame is counted per interface and priority)
          --link-speed-mbps N
                             the link speed PFC pauses are timed with (a quantum is 512 bit
                             times) where /sys/class/net/IF/speed does not say (default 100000)
          --no-lldp          capture no LLDP frames (by default every LLDP frame is kept and each
                             interface's neighbours are listed in the status, at most 64 each)
          -h, --help         this text
        At start the agent prints its certificate's SHA-256 fingerprint (as openssl x509 -fingerprint
        -sha256 does): pin it in the switch's agent-tls-fingerprint, or let the controller trust it
        on first use. A token or key file that its group or others may read or write, and a
        self-made key or certificate that cannot be read, are refused (exit status 1; the message
        says which file, and to remove it to make a new one).
        Live capture needs root (or CAP_NET_RAW); --replay does not.
        The HTTP API (bearer token): GET /v1/status, POST /v1/start and /v1/stop, GET /v1/sessions,
        GET /v1/events?after=SEQ, GET /v1/health (no token); see docs/agent-api.md in RST's repository.
        Exit status: 0 stopped by SIGTERM or SIGINT, 1 could not start, 2 bad usage, 70 the decode
        thread died.""";

    public AgentOptions {
        interfaces = List.copyOf(interfaces);
        if (udpPort < 1 || udpPort > 65535) {
            throw new IllegalArgumentException("--udp-port out of range: " + udpPort);
        }
        if (maxSessions < 1) {
            throw new IllegalArgumentException("--max-sessions must be positive");
        }
        if (retentionSeconds < 1) {
            throw new IllegalArgumentException("--retention must be positive");
        }
        if (retainEvents < 16) {
            throw new IllegalArgumentException("--retain-events must be at least 16");
        }
        if (queueFrames < 64) {
            throw new IllegalArgumentException("--queue-frames must be at least 64");
        }
        if (bufferBytes < 1 << 16) {
            throw new IllegalArgumentException("--buffer-mb must be at least 1");
        }
        if (flushMs < 0 || flushMs > 60_000) {
            throw new IllegalArgumentException("--flush-ms out of range: " + flushMs);
        }
        if (walBytes < 1 << 20) {
            throw new IllegalArgumentException("--wal-mb must be at least 1");
        }
        if (dataSample < 0 || dataSample > 1 << 24 || Integer.bitCount(dataSample) > 1) {
            throw new IllegalArgumentException("--data-sample must be 0 or a power of two up to 2^24, got "
                + dataSample);
        }
        if (maxFlows != 0 && maxFlows < 16) {
            throw new IllegalArgumentException("--max-flows must be 0 (no learning) or at least 16, got " + maxFlows);
        }
        if (dataIdleSeconds < 1 || dataIdleSeconds > 86_400) {
            throw new IllegalArgumentException("--data-idle out of range (1 to 86400): " + dataIdleSeconds);
        }
        if (dataReportMs < 0 || dataReportMs > 3_600_000) {
            throw new IllegalArgumentException("--data-report-ms out of range (0 to 3600000): " + dataReportMs);
        }
        if (linkSpeedMbps < 1 || linkSpeedMbps > 10_000_000) {
            throw new IllegalArgumentException("--link-speed-mbps out of range (1 to 10000000): " + linkSpeedMbps);
        }
        if (tls != null && plainHttp) {
            throw new IllegalArgumentException("--plain-http and --tls-cert contradict each other");
        }
    }

    /** The command's usage, as {@code --help} prints it. */
    public static String usage() {
        return USAGE;
    }

    /** Whether the arguments ask for the usage ({@code --help} or {@code -h} anywhere). */
    public static boolean wantsHelp(final List<String> args) {
        return args.contains("--help") || args.contains("-h");
    }

    /** The BPF filter the options ask for. */
    public String filter() {
        final String roce;
        if (allRoce) {
            roce = CaptureFilters.allRoce(udpPort, congestion);
        } else {
            roce = dataSample > 0 ? CaptureFilters.cmAndSampledData(udpPort, dataSample, congestion)
                : CaptureFilters.cmOnly(udpPort, congestion);
        }
        return lldp ? CaptureFilters.withLldp(roce) : roce;
    }

    /**
     * Parses the arguments after {@code agent}.
     *
     * @throws IllegalArgumentException with a message for the operator
     */
    public static AgentOptions parse(final List<String> args) {
        final List<String> ifs = new ArrayList<>();
        InetSocketAddress listen = new InetSocketAddress("0.0.0.0", CaptureFilters.ROCEV2_PORT);
        Path tokenFile = null;
        Path stateDir = defaultStateDir();
        boolean allRoce = false;
        int dataSample = 0;
        int udpPort = CaptureFilters.ROCEV2_PORT;
        int maxSessions = 250_000;
        long retention = 3600;
        int retainEvents = 65536;
        int retainMb = 16;
        final Map<String, Path> replay = new LinkedHashMap<>();
        String agentId = null;
        int queueFrames = 32768;
        int bufferMb = 16;
        int flushMs = 200;
        int walMb = 64;
        Path tlsCert = null;
        Path tlsKey = null;
        Path tlsClientCa = null;
        boolean plainHttp = false;
        int eventHoldMs = 50;
        int maxFlows = 1_000_000;
        int dataIdle = 30;
        int dataReportMs = 5000;
        boolean congestion = true;
        int linkSpeedMbps = 100_000;
        boolean lldp = true;
        for (int i = 0; i < args.size(); i++) {
            final String a = args.get(i);
            switch (a) {
                case "--all-roce" -> allRoce = true;
                case "--plain-http" -> plainHttp = true;
                case "--no-congestion" -> congestion = false;
                case "--no-lldp" -> lldp = false;
                case "--interface", "--listen", "--token-file", "--state-dir", "--udp-port", "--max-sessions",
                    "--retention", "--retain-events", "--retain-mb", "--replay", "--agent-id", "--queue-frames",
                    "--buffer-mb", "--flush-ms", "--wal-mb", "--tls-cert", "--tls-key", "--tls-client-ca",
                    "--data-sample", "--event-hold-ms", "--max-flows", "--data-idle", "--data-report-ms",
                    "--link-speed-mbps" -> {
                    if (i + 1 >= args.size()) {
                        throw new IllegalArgumentException(a + " needs a value");
                    }
                    final String v = args.get(++i);
                    switch (a) {
                        case "--interface" -> ifs.add(v);
                        case "--listen" -> listen = parseListen(v);
                        case "--token-file" -> tokenFile = Path.of(v);
                        case "--state-dir" -> stateDir = Path.of(v);
                        case "--udp-port" -> udpPort = parseInt(a, v);
                        case "--max-sessions" -> maxSessions = parseInt(a, v);
                        case "--retention" -> retention = parseInt(a, v);
                        case "--retain-events" -> retainEvents = parseInt(a, v);
                        case "--retain-mb" -> retainMb = parseInt(a, v);
                        case "--replay" -> {
                            final int eq = v.indexOf('=');
                            final String port = eq > 0 ? v.substring(0, eq) : "replay";
                            if (replay.put(port, Path.of(v.substring(eq + 1))) != null) {
                                throw new IllegalArgumentException("--replay: two files for port " + port);
                            }
                        }
                        case "--agent-id" -> agentId = v;
                        case "--queue-frames" -> queueFrames = parseInt(a, v);
                        case "--buffer-mb" -> bufferMb = parseInt(a, v);
                        case "--flush-ms" -> flushMs = parseInt(a, v);
                        case "--wal-mb" -> walMb = parseInt(a, v);
                        case "--tls-cert" -> tlsCert = Path.of(v);
                        case "--tls-key" -> tlsKey = Path.of(v);
                        case "--tls-client-ca" -> tlsClientCa = Path.of(v);
                        case "--data-sample" -> dataSample = parseInt(a, v);
                        case "--event-hold-ms" -> eventHoldMs = parseInt(a, v);
                        case "--max-flows" -> maxFlows = parseInt(a, v);
                        case "--data-idle" -> dataIdle = parseInt(a, v);
                        case "--data-report-ms" -> dataReportMs = parseInt(a, v);
                        case "--link-speed-mbps" -> linkSpeedMbps = parseInt(a, v);
                        default -> throw new IllegalStateException(a);
                    }
                }
                case "--token" -> throw new IllegalArgumentException(
                    "a token on the command line would show in the process list: use --token-file");
                default -> throw new IllegalArgumentException("unknown option '" + a + "'");
            }
        }
        if (agentId == null) {
            agentId = hostName();
        }
        if (eventHoldMs < 0 || eventHoldMs > 1000) {
            throw new IllegalArgumentException("--event-hold-ms out of range (0 to 1000): " + eventHoldMs);
        }
        if (retainMb < 1 || retainMb > 65536) {
            throw new IllegalArgumentException("--retain-mb out of range: " + retainMb);
        }
        if (bufferMb < 1 || bufferMb > 1024) {
            throw new IllegalArgumentException("--buffer-mb out of range: " + bufferMb);
        }
        if (walMb < 1 || walMb > 65536) {
            throw new IllegalArgumentException("--wal-mb out of range: " + walMb);
        }
        if ((tlsCert == null) != (tlsKey == null)) {
            throw new IllegalArgumentException("--tls-cert and --tls-key go together");
        }
        if (tlsClientCa != null && tlsCert == null) {
            throw new IllegalArgumentException("--tls-client-ca needs --tls-cert and --tls-key");
        }
        return new AgentOptions(ifs, listen, tokenFile, stateDir, allRoce, udpPort, maxSessions, retention,
            retainEvents, (long) retainMb << 20, Map.copyOf(replay), agentId, queueFrames, bufferMb << 20,
            flushMs, (long) walMb << 20, tlsCert == null ? null : new Tls(tlsCert, tlsKey, tlsClientCa), plainHttp,
            dataSample, eventHoldMs, maxFlows, dataIdle, dataReportMs, congestion, linkSpeedMbps, lldp);
    }

    static InetSocketAddress parseListen(final String value) {
        final int colon = value.lastIndexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException("--listen wants HOST:PORT, got '" + value + "'");
        }
        String host = value.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        final int port = parseInt("--listen", value.substring(colon + 1));
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("--listen port out of range: " + port);
        }
        return host.isEmpty() ? new InetSocketAddress(port) : new InetSocketAddress(host, port);
    }

    private static int parseInt(final String opt, final String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(opt + " wants a number, got '" + value + "'", e);
        }
    }

    static Path defaultStateDir() {
        if ("root".equals(System.getProperty("user.name"))) {
            return Path.of("/var/lib/rst-agent");
        }
        final String xdg = System.getenv("XDG_STATE_HOME");
        final Path base = xdg != null && !xdg.isEmpty() ? Path.of(xdg)
            : Path.of(System.getProperty("user.home"), ".local", "state");
        return base.resolve("rst-agent");
    }

    static String hostName() {
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.net.UnknownHostException e) {
            return "agent";
        }
    }
}
