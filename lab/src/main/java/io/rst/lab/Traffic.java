/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.lab;

import static java.util.Objects.requireNonNull;

import io.rst.rft.decode.CmMessageType;
import io.rst.rft.pcap.CmFrameBuilder;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * RDMA connections between the lab's hosts, as real UDP packets that the kernel routes through
 * the fabric: each host's packets leave from sockets opened inside its namespace. Every connection
 * is a CM exchange with realistic comm IDs, QPNs, service IDs and rdma_cm private data, from a
 * UDP source port of its own per side; data packets (RC SEND, BTH to the peer's QPN) follow on
 * another source port per side, as real NICs do, so that under ECMP the data and the CM of one
 * session may take different spines. A share of the connections ({@link Options#ncclShare}) are
 * NCCL-style instead ({@link NcclTraffic}): no CM, QPNs exchanged over TCP, then RC data. What
 * each connection did is written to the {@link Truth} log as it happens.
 *
 * <pre>
 * scenario      messages                                   the flow table should end with
 * LIVE          REQ REP RTU, data                          ESTABLISHED (CLOSED once closed)
 * CLOSED        REQ REP RTU, data, DREQ DREP               CLOSED
 * REJECTED      REQ REJ(reason)                            REJECTED with the reason
 * UNANSWERED    REQ, its retry, nothing back               TIMED_OUT
 * HALF_CLOSED   REQ REP RTU, data, DREQ, no DREP           TIMED_OUT (the DREQ's wait ends)
 * MRA           REQ MRA REP RTU, data                      ESTABLISHED
 * FLAPPING      the same pair set up and torn down 3 times CLOSED, three sessions
 * </pre>
 */
public final class Traffic implements AutoCloseable {
    /**
     * Where a host's packets go: by default a UDP socket opened in the host's namespace, so that
     * the kernel routes them; a {@link Recording} writes them to capture files instead.
     */
    @FunctionalInterface
    public interface Wire {
        /** Sends {@code count} copies of a RoCEv2 UDP payload from a host. */
        void send(String host, byte[] src, int srcPort, byte[] dst, ByteBuffer payload, int count) throws IOException;

        /**
         * Sends {@code count} copies of a RoCEv2 UDP payload from a host with {@code tos} (DSCP and
         * ECN) in its IP header; a wire that keeps no IP header sends it as the plain one.
         */
        default void send(final String host, final byte[] src, final int srcPort, final byte[] dst, final int tos,
                final ByteBuffer payload, final int count) throws IOException {
            send(host, src, srcPort, dst, payload, count);
        }
    }

    /** The IP TOS of the hosts' RDMA data: DSCP 26 (RoCE's usual traffic class) and ECT(0), as RoCE NICs send it. */
    public static final int DATA_TOS = 26 << 2 | 0b10;
    /** The IP TOS of a CNP: DSCP 48, not ECN-capable, as RoCE NICs send them. */
    public static final int CNP_TOS = 48 << 2;
    /** The IP TOS of CM MADs: DSCP 0, not ECN-capable. */
    public static final int CM_TOS = 0;

    /** What the connections do. */
    public enum Scenario { LIVE, CLOSED, REJECTED, UNANSWERED, HALF_CLOSED, MRA, FLAPPING }

    /**
     * How much traffic.
     *
     * @param rate new connections per second
     * @param concurrency live connections kept at most: beyond it the oldest is closed
     * @param connections connections in all (0: no limit)
     * @param seconds how long (0: no limit; with neither limit, until interrupted)
     * @param seed random seed
     * @param dataPackets data packets each way per connection
     * @param mix true: every scenario in the proportions above; false: LIVE only
     * @param ncclShare the share of connections that are NCCL-style ({@link NcclTraffic}) instead
     */
    public record Options(double rate, int concurrency, int connections, double seconds, long seed, int dataPackets,
            boolean mix, double ncclShare) {
        /** Options without NCCL-style connections. */
        public Options(final double rate, final int concurrency, final int connections, final double seconds,
                final long seed, final int dataPackets, final boolean mix) {
            this(rate, concurrency, connections, seconds, seed, dataPackets, mix, 0);
        }

        public Options {
            if (!(ncclShare >= 0 && ncclShare <= 1)) {
                throw new IllegalArgumentException("--nccl-share must be in [0, 1], got " + ncclShare);
            }
            if (!(rate > 0) || rate > 100_000) {
                throw new IllegalArgumentException("--rate must be in (0, 100000], got " + rate);
            }
            if (concurrency < 1) {
                throw new IllegalArgumentException("--concurrency must be positive");
            }
            if (connections < 0 || seconds < 0) {
                throw new IllegalArgumentException("--connections and --seconds must not be negative");
            }
            if (dataPackets < 0 || dataPackets > 1000) {
                throw new IllegalArgumentException("--data-packets must be 0..1000");
            }
        }
    }

    // REQ and DREQ wait 4.096 us * 2^18 = 1.07 s for an answer: quick time-outs in the lab
    static final int CM_TIMEOUT_EXP = 18;
    private static final int[] REJECT_REASONS = {28, 8, 2, 5};
    private static final long[] SERVICE_PORTS = {4420, 7471, 18515, 20049};
    private static final int ROCE_PORT = 4791;

    private final Fabric fabric;
    private final Truth.Writer truth;
    private final Map<String, ScheduledExecutorService> hostThreads = new LinkedHashMap<>();
    private final Map<String, byte[]> hostIps = new LinkedHashMap<>();
    private final Selector sinks;
    private final Thread drain;
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong sendErrors = new AtomicLong();
    private final AtomicLong received = new AtomicLong();
    /** Each host's next QP number ({@link #qpn}); used by the thread that runs the traffic. */
    private final Map<String, int[]> nextQpn = new java.util.HashMap<>();
    /** Each host's next comm ID counter and the operand it is masked with ({@link #commId}); as {@link #nextQpn}. */
    private final Map<String, int[]> nextCommId = new java.util.HashMap<>();
    /** Each single-homed host's raw socket, used on its thread only. */
    private final Map<String, RawUdp> raws = new java.util.concurrent.ConcurrentHashMap<>();
    // messages scheduled and not yet sent, on every host's thread (an answer is scheduled by its cause)
    private final AtomicLong pending = new AtomicLong();
    private final Wire wire;
    /** Whether the hosts' threads live in their namespaces (no wire was given). */
    private final boolean namespaces;
    // live connections, oldest first: beyond the concurrency the oldest is closed (across runs)
    private final ArrayDeque<Conn> live = new ArrayDeque<>();
    private final NcclTraffic nccl;
    /**
     * Each host's connected QPs: the local QPN to its peer's QPN (high 32 bits) and the local
     * QP's UDP source port (low 16), for the CNPs a host's NIC sends back ({@link CnpResponder}).
     */
    private final Map<String, Map<Integer, Long>> connectedQps = new java.util.concurrent.ConcurrentHashMap<>();
    private final CnpResponder cnps;
    private volatile java.util.function.ObjLongConsumer<String> onRtu;
    private volatile String lastError;
    private long nextId;

    /** Opens a thread and a receiving socket (UDP 4791) in every host's namespace. */
    public Traffic(final Fabric fabric, final Truth.Writer truth, final long firstId) throws IOException {
        this(fabric, truth, firstId, null);
    }

    /**
     * Traffic onto {@code wire} instead of the hosts' namespaces (null: the namespaces).
     */
    @SuppressWarnings("checkstyle:AvoidHidingCauseException") // the cause is what the host's thread threw
    public Traffic(final Fabric fabric, final Truth.Writer truth, final long firstId, final Wire wire)
            throws IOException {
        this.fabric = requireNonNull(fabric);
        this.truth = requireNonNull(truth);
        this.nextId = firstId;
        this.wire = wire != null ? wire : new Wire() {
            @Override
            public void send(final String host, final byte[] src, final int srcPort, final byte[] dst,
                    final ByteBuffer payload, final int count) throws IOException {
                sendUdp(host, src, srcPort, dst, CM_TOS, payload, count);
            }

            @Override
            public void send(final String host, final byte[] src, final int srcPort, final byte[] dst, final int tos,
                    final ByteBuffer payload, final int count) throws IOException {
                sendUdp(host, src, srcPort, dst, tos, payload, count);
            }
        };
        this.namespaces = wire == null;
        sinks = Selector.open();
        final List<DatagramChannel> opened = new ArrayList<>();
        for (var host : fabric.hosts()) {
            final var exec = wire != null ? new ScheduledThreadPoolExecutor(1)
                : new ScheduledThreadPoolExecutor(1, NetnsThreads.factory(host.namespace()));
            exec.setRemoveOnCancelPolicy(true);
            hostThreads.put(host.id(), exec);
            hostIps.put(host.id(), bytes(fabric.hostIp(host.id())));
            connectedQps.put(host.id(), new java.util.concurrent.ConcurrentHashMap<>());
            if (wire != null) {
                continue;
            }
            // a host with one route out sends through a raw socket of its own (one system call a
            // packet); a dual-homed one through a UDP socket per packet, whose ports its multipath
            // route hashes as the truth does
            if (!fabric.dualHomed().contains(host.id())) {
                try {
                    raws.put(host.id(), exec.submit(RawUdp::new).get());
                } catch (ExecutionException e) {
                    throw new IOException("cannot open a raw socket in " + host.namespace() + ": "
                        + e.getCause().getMessage(), e.getCause());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted", e);
                }
            }
            // a socket on the RoCEv2 port, so that arriving CM packets are taken, not answered with ICMP
            try {
                opened.add(exec.submit(() -> {
                    final var ch = DatagramChannel.open(StandardProtocolFamily.INET);
                    ch.bind(new InetSocketAddress(ROCE_PORT));
                    ch.configureBlocking(false);
                    return ch;
                }).get());
            } catch (ExecutionException e) {
                throw new IOException("cannot open a socket in " + host.namespace() + ": " + e.getCause().getMessage(),
                    e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", e);
            }
        }
        for (var ch : opened) {
            ch.register(sinks, SelectionKey.OP_READ);
        }
        nccl = new NcclTraffic(this);
        cnps = wire == null ? new CnpResponder(this) : null;
        drain = new Thread(this::drain, "lab-sinks");
        drain.setDaemon(true);
        drain.start();
    }

    private void drain() {
        final ByteBuffer buf = ByteBuffer.allocateDirect(2048);
        while (sinks.isOpen()) {
            try {
                // every 20 ms rather than at each arrival: woken for every packet, this thread
                // would pay a context switch per packet or two (the sockets' buffers hold far more than 20 ms)
                Thread.sleep(20);
                sinks.selectNow();
                for (var it = sinks.selectedKeys().iterator(); it.hasNext();) {
                    final var key = it.next();
                    it.remove();
                    final var ch = (DatagramChannel) key.channel();
                    while (true) {
                        buf.clear();
                        if (ch.receive(buf) == null) {
                            break;
                        }
                        received.incrementAndGet();
                    }
                }
            } catch (IOException | java.nio.channels.ClosedSelectorException e) {
                return;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    public long sent() {
        return sent.get();
    }

    public long sendErrors() {
        return sendErrors.get();
    }

    public long received() {
        return received.get();
    }

    /** One connection's fixed facts. */
    private record Conn(long id, Scenario scenario, String requester, String responder, int requesterCid,
            int responderCid, int requesterQpn, int responderQpn, long serviceId, int privatePort, int requesterCmPort,
            int responderCmPort, int requesterDataPort, int responderDataPort, int rejectReason, long tid) {
    }

    /**
     * Runs until the options say stop (or the thread is interrupted); returns the number of
     * connections started. Messages still scheduled (answers, time-outs) go out before it returns.
     */
    public long run(final Options opt) throws InterruptedException {
        final var rnd = new SplittableRandom(opt.seed() ^ nextId);
        final var hosts = fabric.hosts().stream().map(Fabric.Node::id).toList();
        if (hosts.size() < 2) {
            throw new LabException("traffic needs at least two hosts");
        }
        final long start = System.nanoTime();
        final long endNanos = opt.seconds() > 0 ? start + (long) (opt.seconds() * 1e9) : Long.MAX_VALUE;
        long started = 0;
        while (opt.connections() == 0 || started < opt.connections()) {
            final long now = System.nanoTime();
            if (now >= endNanos) {
                break;
            }
            final long due = (long) ((now - start) / 1e9 * opt.rate()) + 1;
            if (started >= due) {
                Thread.sleep(Math.max(1, (long) (1000 / opt.rate() / 2)));
                continue;
            }
            final boolean ncclStyle = opt.ncclShare() > 0 && rnd.nextDouble() < opt.ncclShare();
            final var scenario = opt.mix() ? pick(rnd) : Scenario.LIVE;
            final String hostA = hosts.get(rnd.nextInt(hosts.size()));
            String hostB = hosts.get(rnd.nextInt(hosts.size() - 1));
            if (hostB.equals(hostA)) {
                hostB = hosts.get(hosts.size() - 1);
            }
            if (ncclStyle) {
                nccl.start(hostA, hostB, rnd);
                started++;
                continue;
            }
            if (scenario == Scenario.FLAPPING) {
                for (int k = 0; k < 3; k++) {
                    startConnection(newConn(rnd, Scenario.FLAPPING, hostA, hostB), 300L * k, opt);
                }
            } else {
                final var c = newConn(rnd, scenario, hostA, hostB);
                startConnection(c, 0, opt);
                if (scenario == Scenario.LIVE || scenario == Scenario.MRA) {
                    live.add(c);
                    while (live.size() > opt.concurrency()) {
                        closeConnection(live.poll(), 0, false);
                    }
                }
            }
            started++;
        }
        return started;
    }

    /** Waits until every scheduled message, and every answer they cause, went out (30 s at most). */
    public void quiesce() throws InterruptedException {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (pending.get() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
    }

    private static Scenario pick(final SplittableRandom rnd) {
        final int r = rnd.nextInt(100);
        if (r < 50) {
            return Scenario.LIVE;
        } else if (r < 65) {
            return Scenario.CLOSED;
        } else if (r < 75) {
            return Scenario.REJECTED;
        } else if (r < 82) {
            return Scenario.UNANSWERED;
        } else if (r < 89) {
            return Scenario.HALF_CLOSED;
        } else if (r < 95) {
            return Scenario.MRA;
        }
        return Scenario.FLAPPING;
    }

    /**
     * The next QP number of {@code host}: from a random start, one after another, as an HCA hands
     * them out, so that no two of a host's QPs have the same number (drawn at random, two of the
     * ~25,000 connections a host holds at 100,000 live sessions would share one now and then, and
     * a switch's agent could only take one's data for the other's, a data path no real fabric
     * shows). Skips the special QPs 0 and 1 and the low numbers; wraps after 2^24.
     */
    int qpn(final String host, final SplittableRandom rnd) {
        final int[] next = nextQpn.computeIfAbsent(host, h -> new int[] {0x11 + rnd.nextInt(0xffffee)});
        final int q = next[0];
        next[0] = q >= 0xffffff ? 0x11 : q + 1;
        return q;
    }

    /**
     * The next local comm ID of {@code host}, handed out as Linux's CM does: a counter, one after
     * another, masked with a random operand drawn once per host, so that the IDs look random on
     * the wire but none of a host's connections shares one with another. Drawn at random, two of
     * a host's comm IDs would be equal now and then (tens of thousands of connections a host in
     * the benchmark), which no real CM hands out. Never 0 (a REQ's "no remote comm ID yet").
     */
    private int commId(final String host, final SplittableRandom rnd) {
        final int[] next = nextCommId.computeIfAbsent(host, h -> new int[] {rnd.nextInt(), rnd.nextInt()});
        int id;
        do {
            id = next[0]++ ^ next[1];
        } while (id == 0);
        return id;
    }

    private Conn newConn(final SplittableRandom rnd, final Scenario scenario, final String requester,
            final String responder) {
        final int reqPort = ephemeral(rnd);
        int respPort = ephemeral(rnd);
        int reqData = ephemeral(rnd);
        while (reqData == reqPort) {
            reqData = ephemeral(rnd);
        }
        int respData = ephemeral(rnd);
        while (respData == respPort) {
            respData = ephemeral(rnd);
        }
        return new Conn(nextId++, scenario, requester, responder, commId(requester, rnd), commId(responder, rnd),
            qpn(requester, rnd), qpn(responder, rnd),
            0x0000000001060000L | SERVICE_PORTS[rnd.nextInt(SERVICE_PORTS.length)], ephemeral(rnd), reqPort, respPort,
            reqData, respData, REJECT_REASONS[rnd.nextInt(REJECT_REASONS.length)],
            rnd.nextLong() & 0x7fffffffffffffffL);
    }

    static int ephemeral(final SplittableRandom rnd) {
        return 49152 + rnd.nextInt(16384);
    }

    private void startConnection(final Conn conn, final long atMs, final Options opt) {
        final String expect = switch (conn.scenario()) {
            case LIVE, MRA -> "ESTABLISHED";
            case CLOSED, FLAPPING -> "CLOSED";
            case REJECTED -> "REJECTED";
            case UNANSWERED, HALF_CLOSED -> "TIMED_OUT";
        };
        truth.started(conn.id(), conn.scenario().name(), conn.requester(), fabric.hostIp(conn.requester()),
            conn.responder(), fabric.hostIp(conn.responder()), hex8(conn.requesterCid()), hex8(conn.responderCid()),
            conn.requesterQpn(), conn.responderQpn(), conn.requesterCmPort(),
            conn.scenario() == Scenario.UNANSWERED ? -1 : conn.responderCmPort(),
            conn.requesterDataPort(), conn.responderDataPort(), expect,
            conn.scenario() == Scenario.REJECTED ? conn.rejectReason() : -1);
        // each answer leaves a few milliseconds after what it answers actually left, as a real
        // responder's does: under load a host's thread runs late, and an answer scheduled by the
        // clock could then overtake its REQ, which no real fabric shows
        final Runnable afterReq = switch (conn.scenario()) {
            case UNANSWERED -> null;
            case REJECTED -> () -> send(conn, false, CmMessageType.REJ, 3, null);
            case MRA -> () -> send(conn, false, CmMessageType.MRA, 2, () -> setUp(conn, 18, opt, null));
            case LIVE -> () -> setUp(conn, 3, opt, null);
            case CLOSED, FLAPPING -> () -> setUp(conn, 3, opt, () -> closeConnection(conn, 54, true));
            case HALF_CLOSED -> () -> setUp(conn, 3, opt, () -> {
                send(conn, true, CmMessageType.DREQ, 54, null);
                releaseQp(conn.requester(), conn.requesterQpn());
                releaseQp(conn.responder(), conn.responderQpn());
            });
        };
        send(conn, true, CmMessageType.REQ, atMs, afterReq);
        if (conn.scenario() == Scenario.UNANSWERED) {
            // the retry, from the same host thread: after the first REQ
            send(conn, true, CmMessageType.REQ, atMs + 1100, null);
        }
    }

    /** REP after {@code delayMs}, RTU after it, data after that, then {@code then}. */
    private void setUp(final Conn conn, final long delayMs, final Options opt, final Runnable then) {
        send(conn, false, CmMessageType.REP, delayMs, () -> send(conn, true, CmMessageType.RTU, 3, () -> {
            if (opt.dataPackets() > 0) {
                data(conn, true, 3, opt.dataPackets());
                data(conn, false, 5, opt.dataPackets());
            }
            if (then != null) {
                then.run();
            }
        }));
    }

    /** DREQ after {@code delayMs}, its DREP after it. */
    private void closeConnection(final Conn conn, final long delayMs, final boolean expected) {
        send(conn, true, CmMessageType.DREQ, delayMs, () -> send(conn, false, CmMessageType.DREP, 3, null));
        releaseQp(conn.requester(), conn.requesterQpn());
        releaseQp(conn.responder(), conn.responderQpn());
        if (!expected) {
            truth.expect(conn.id(), "CLOSED");
        }
    }

    /**
     * Sends one CM message from the requester ({@code fromRequester}) or the responder,
     * {@code delayMs} from now; {@code then} (may be null) runs on the sending host's thread once
     * it left.
     */
    private void send(final Conn conn, final boolean fromRequester, final CmMessageType type, final long delayMs,
            final Runnable then) {
        final String host = fromRequester ? conn.requester() : conn.responder();
        final byte[] src = hostIps.get(host);
        final byte[] dst = hostIps.get(fromRequester ? conn.responder() : conn.requester());
        final int port = fromRequester ? conn.requesterCmPort() : conn.responderCmPort();
        schedule(host, () -> {
            final var fb = new CmFrameBuilder().ips(src, dst).udpPorts(port, ROCE_PORT).type(type);
            // a DREP answers its DREQ with the same transaction ID; other messages have their own
            fb.transactionId(type == CmMessageType.DREP ? conn.tid() ^ 3 : conn.tid() ^ type.attributeId());
            switch (type) {
                case REQ -> fb.commIds(conn.requesterCid(), 0).localQpn(conn.requesterQpn()).serviceId(conn.serviceId())
                    .startingPsn(conn.requesterQpn() * 7 & 0xffffff).timeouts(CM_TIMEOUT_EXP, CM_TIMEOUT_EXP, 1)
                    .ipCm(4, conn.privatePort(), src, dst);
                case REP -> fb.commIds(conn.responderCid(), conn.requesterCid()).localQpn(conn.responderQpn())
                    .startingPsn(conn.responderQpn() * 5 & 0xffffff);
                case REJ -> fb.commIds(conn.responderCid(), conn.requesterCid()).reject(conn.rejectReason(), 0);
                case MRA -> fb.commIds(conn.responderCid(), conn.requesterCid()).mra(0, CM_TIMEOUT_EXP);
                case RTU -> fb.commIds(conn.requesterCid(), conn.responderCid());
                case DREQ -> fb.commIds(conn.requesterCid(), conn.responderCid()).remoteQpn(conn.responderQpn());
                case DREP -> fb.commIds(conn.responderCid(), conn.requesterCid());
                default -> throw new IllegalStateException("not sent by the lab: " + type);
            }
            final byte[] frame = new byte[fb.length()];
            fb.build(frame);
            // the kernel writes Ethernet, IP and UDP: send what follows them (BTH, DETH, MAD, ICRC)
            transmit(host, src, port, dst, ByteBuffer.wrap(frame, 42, frame.length - 42), 1);
            final var listener = onRtu;
            if (type == CmMessageType.RTU && listener != null) {
                listener.accept(fabric.hostIp(conn.requester()) + "/" + hex8(conn.requesterCid()) + "/"
                    + fabric.hostIp(conn.responder()), System.nanoTime());
            }
            if (then != null) {
                then.run();
            }
        }, delayMs);
    }

    /** Runs {@code task} on {@code host}'s thread after {@code delayMs}, counted until it ran. */
    void schedule(final String host, final Runnable task, final long delayMs) {
        pending.incrementAndGet();
        try {
            hostThreads.get(host).schedule(() -> {
                try {
                    task.run();
                } finally {
                    pending.decrementAndGet();
                }
            }, delayMs, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // closing: the host's thread takes no more
            pending.decrementAndGet();
        }
    }

    /** RC SEND Only packets to the peer's QPN, from the side's data source port. */
    private void data(final Conn conn, final boolean fromRequester, final long delayMs, final int count) {
        final String host = fromRequester ? conn.requester() : conn.responder();
        final byte[] src = hostIps.get(host);
        final byte[] dst = hostIps.get(fromRequester ? conn.responder() : conn.requester());
        final int port = fromRequester ? conn.requesterDataPort() : conn.responderDataPort();
        final int destQpn = fromRequester ? conn.responderQpn() : conn.requesterQpn();
        final int psn = (fromRequester ? conn.requesterQpn() * 7 : conn.responderQpn() * 5) & 0xffffff;
        final int localQpn = fromRequester ? conn.requesterQpn() : conn.responderQpn();
        schedule(host, () -> {
            connectQp(host, localQpn, destQpn, port);
            final ByteBuffer payload = ByteBuffer.allocate(12 + 64 + 4);
            payload.put((byte) 0x04).put((byte) 0).putShort((short) 0xffff).putInt(destQpn & 0xffffff)
                .putInt(0x80000000 | psn);
            payload.flip().limit(payload.capacity());
            transmit(host, src, port, dst, DATA_TOS, payload, count);
        }, delayMs);
    }

    /** Sends a CM MAD ({@link #CM_TOS}). */
    void transmit(final String host, final byte[] src, final int srcPort, final byte[] dst,
            final ByteBuffer payload, final int count) {
        transmit(host, src, srcPort, dst, CM_TOS, payload, count);
    }

    @SuppressWarnings("checkstyle:IllegalCatch") // runs on a host's thread: a failed send is counted, not thrown
    void transmit(final String host, final byte[] src, final int srcPort, final byte[] dst, final int tos,
            final ByteBuffer payload, final int count) {
        try {
            wire.send(host, src, srcPort, dst, tos, payload, count);
            sent.addAndGet(count);
        } catch (IOException | RuntimeException e) {
            sendErrors.incrementAndGet();
            lastError = e.toString();
        }
    }

    /**
     * The default wire: the host's raw socket ({@link RawUdp}), or a UDP socket opened for the
     * packet; either on the host's thread, in the host's namespace.
     */
    private void sendUdp(final String host, final byte[] src, final int srcPort, final byte[] dst, final int tos,
            final ByteBuffer payload, final int count) throws IOException {
        final RawUdp raw = raws.get(host);
        if (raw != null) {
            raw.send(src, srcPort, dst, ROCE_PORT, tos, payload, count);
            return;
        }
        try (var ch = DatagramChannel.open(StandardProtocolFamily.INET)) {
            ch.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            // IP_TOS on a UDP socket keeps the ECN bits (only TCP's are the kernel's)
            ch.setOption(StandardSocketOptions.IP_TOS, tos);
            ch.bind(new InetSocketAddress(InetAddress.getByAddress(src), srcPort));
            final var to = new InetSocketAddress(InetAddress.getByAddress(dst), ROCE_PORT);
            for (int i = 0; i < count; i++) {
                ch.send(payload.duplicate(), to);
            }
        }
    }

    /** The NCCL-style connections among this traffic's ({@link Options#ncclShare}). */
    public NcclTraffic nccl() {
        return nccl;
    }

    /** The next connection id; on the thread that runs the traffic. */
    long nextId() {
        return nextId++;
    }

    Fabric fabric() {
        return fabric;
    }

    Truth.Writer truth() {
        return truth;
    }

    byte[] hostIp(final String host) {
        return hostIps.get(host);
    }

    /** Whether the hosts' packets go through their namespaces (no {@link Wire} given). */
    boolean inNamespaces() {
        return namespaces;
    }

    /**
     * Runs {@code task} on {@code host}'s thread after {@code delayMs}, not counted by
     * {@link #quiesce} (a long-lived QP's messages); false if the traffic is closing.
     */
    boolean scheduleBackground(final String host, final Runnable task, final long delayMs) {
        try {
            hostThreads.get(host).schedule(task, delayMs, TimeUnit.MILLISECONDS);
            return true;
        } catch (java.util.concurrent.RejectedExecutionException e) {
            return false;
        }
    }

    /** Runs {@code task} on {@code host}'s thread (in its namespace) and waits for its result. */
    @SuppressWarnings("checkstyle:AvoidHidingCauseException") // the cause is what the task threw
    <T> T onHost(final String host, final java.util.concurrent.Callable<T> task) throws IOException {
        try {
            return hostThreads.get(host).submit(task).get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
        } catch (java.util.concurrent.TimeoutException | java.util.concurrent.RejectedExecutionException e) {
            throw new IOException("host " + host + "'s thread did not run the task: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    void pendingAdd(final int delta) {
        pending.addAndGet(delta);
    }

    /**
     * A QP of {@code host} is connected to the peer's {@code remoteQpn} and sends from UDP source
     * port {@code srcPort}: its NIC answers CE-marked packets to it with CNPs from then on.
     */
    void connectQp(final String host, final int localQpn, final int remoteQpn, final int srcPort) {
        connectedQps.get(host).put(localQpn, (long) remoteQpn << 32 | srcPort & 0xffff);
    }

    /** A QP of {@code host} is gone (its connection closed). */
    void releaseQp(final String host, final int localQpn) {
        connectedQps.get(host).remove(localQpn);
    }

    /**
     * The peer QPN (high 32 bits) and UDP source port (low 16) of a connected QP of {@code host},
     * or -1 when it has none.
     */
    long connectedQp(final String host, final int localQpn) {
        final Long v = connectedQps.get(host).get(localQpn);
        return v == null ? -1 : v;
    }

    /** CNPs the hosts sent in answer to CE-marked packets (0 without namespaces). */
    public long cnpsSent() {
        return cnps == null ? 0 : cnps.sent();
    }

    /** CE-marked packets the hosts received. */
    public long ceReceived() {
        return cnps == null ? 0 : cnps.ceReceived();
    }

    /** Called with a session id and {@link System#nanoTime()} as each connection's RTU leaves its host. */
    public void onRtu(final java.util.function.ObjLongConsumer<String> listener) {
        onRtu = listener;
    }

    public String lastError() {
        return lastError;
    }

    /** Keeps {@code error} as the last error (a part of the traffic that counts and goes on). */
    void noteError(final String error) {
        lastError = error;
    }

    static String hex8(final int value) {
        return String.format("0x%08x", value);
    }

    static byte[] bytes(final String ip) {
        try {
            return InetAddress.getByName(ip).getAddress();
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(ip, e);
        }
    }

    @Override
    public void close() {
        nccl.close();
        if (cnps != null) {
            cnps.close();
        }
        for (var exec : hostThreads.values()) {
            exec.shutdown();
        }
        for (var exec : hostThreads.values()) {
            try {
                exec.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        // the host threads have ended: nothing sends any more
        raws.values().forEach(RawUdp::close);
        try {
            for (var key : sinks.keys()) {
                key.channel().close();
            }
            sinks.close();
        } catch (IOException e) {
            // closing: nothing left to do
        }
    }
}
