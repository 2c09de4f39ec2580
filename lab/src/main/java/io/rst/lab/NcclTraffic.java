/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.lab;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.ObjLongConsumer;

/**
 * Connections between two lab hosts as NCCL (and perftest without rdma_cm, UCX, MPI) sets them
 * up: no CM at all. The two hosts first open a real TCP connection between their namespaces (the
 * bootstrap), each sends its QPNs and initial PSNs for the connection's QPs (NCCL opens several
 * channels per peer: 2 to 4 QPs here) and reads the peer's; then RoCEv2 RC data flows over UDP
 * 4791 to the QPNs read, from a UDP source port per QP per side, as NICs choose them, as real
 * packets the kernel routes ({@link Traffic}'s hosts and wire).
 *
 * <p>Requests: RDMA WRITE (First, Middle, Last or Only), WRITE with immediate, SEND, and in
 * two-way connections READ requests; each message's last packet asks for an acknowledgement. The
 * other side answers as an RC responder does, on its own host's thread a millisecond after the
 * request left: an ACK (opcode 0x11, AETH with the message sequence number) whose PSN is the last
 * request PSN it acknowledges, now and then one ACK for two or three messages (coalesced), and
 * READ responses (First, Middle, Last or Only) whose PSNs count on from the READ request's. PSNs
 * start at a random 24-bit value (for a share of connections, their first QP's just below 2^24,
 * so that the wrap to 0 shows in every run) and wrap at 2^24. One-way connections: only the side
 * that opened the bootstrap issues requests (NCCL's send channel), the other only acknowledges;
 * two-way: both do, on the same QP pair. Short-lived connections send one burst of messages;
 * long-lived ones then go on with a message now and then until their lifetime ends, the traffic closes, or more than
 * {@link Options#maxLive} are live (the oldest stops). Every QP pair is written to the
 * {@link Truth} log: at its first packet, when a response left that an agent sampling every N-th
 * PSN pairs it from (the second answer it keeps with the request it names), and when it stopped.
 */
public final class NcclTraffic implements AutoCloseable {
    /**
     * How the NCCL-style connections behave.
     *
     * @param minQps QPs per connection, at least
     * @param maxQps QPs per connection, at most
     * @param twoWayShare share of connections where both sides issue requests
     * @param longLivedShare share of connections that go on after their opening burst
     * @param burstMessages messages each requesting side sends in its opening burst
     * @param burstGapMs milliseconds between a burst's messages
     * @param keepaliveMs a long-lived connection's mean gap between its later messages
     * @param lifetimeSeconds a long-lived connection's longest life (each draws from half of it up)
     * @param maxLive long-lived connections sending at once, at most
     * @param dataSample the agents' data sampling (every N-th PSN), for the truth's pairable time
     * @param wrapShare share of connections whose first QP's initial PSN lies just below 2^24
     */
    public record Options(int minQps, int maxQps, double twoWayShare, double longLivedShare, int burstMessages,
            long burstGapMs, long keepaliveMs, double lifetimeSeconds, int maxLive, int dataSample, double wrapShare) {
        public Options {
            if (minQps < 1 || maxQps < minQps || maxQps > 64) {
                throw new IllegalArgumentException("QPs per NCCL-style connection: 1 <= min <= max <= 64, got " + minQps
                    + ".." + maxQps);
            }
            if (!(twoWayShare >= 0 && twoWayShare <= 1 && longLivedShare >= 0 && longLivedShare <= 1 && wrapShare >= 0
                    && wrapShare <= 1)) {
                throw new IllegalArgumentException("shares must be in [0, 1]");
            }
            if (burstMessages < 1 || burstMessages > 100_000 || burstGapMs < 0 || keepaliveMs < 1
                    || lifetimeSeconds < 0 || maxLive < 0) {
                throw new IllegalArgumentException("burst of 1..100000 messages, gaps and lifetime not negative");
            }
            if (dataSample < 1 || Integer.bitCount(dataSample) != 1) {
                throw new IllegalArgumentException("--data-sample must be a power of two, got " + dataSample);
            }
        }

        /**
         * The lab's defaults: 2-4 QPs, half one-way, half long-lived (a minute at most, a message
         * every two seconds or so, at most 50 such connections at once), an opening burst of 16
         * messages 5 ms apart, or, where the agents sample every N-th PSN, of 8 N messages in about
         * the same 80 ms (an agent pairs the QPs on the second answer naming a request PSN that is a
         * multiple of N; about one message in N ends on one, so all but about one burst in a hundred
         * have two; from N = 16 on, the messages go back to back, as NCCL posts a step's chunks).
         */
        public static Options defaults(final int dataSample) {
            final int messages = Math.max(16, 8 * dataSample);
            return new Options(2, 4, 0.5, 0.5, messages, BURST_MS / messages, 2000, 60, 50, dataSample, 0.1);
        }

        /** The same with another bound on the long-lived connections sending at once. */
        public Options withMaxLive(final int limit) {
            return new Options(minQps, maxQps, twoWayShare, longLivedShare, burstMessages, burstGapMs, keepaliveMs,
                lifetimeSeconds, limit, dataSample, wrapShare);
        }

        /** The same with another opening burst. */
        public Options withBurst(final int messages, final long gapMs) {
            return new Options(minQps, maxQps, twoWayShare, longLivedShare, messages, gapMs, keepaliveMs,
                lifetimeSeconds, maxLive, dataSample, wrapShare);
        }

        /** The same with other shares of two-way and long-lived connections. */
        public Options withShares(final double twoWay, final double longLived) {
            return new Options(minQps, maxQps, twoWay, longLived, burstMessages, burstGapMs, keepaliveMs,
                lifetimeSeconds, maxLive, dataSample, wrapShare);
        }

        /** The same with another long-lived lifetime and gap. */
        public Options withLife(final double seconds, final long gapMs) {
            return new Options(minQps, maxQps, twoWayShare, longLivedShare, burstMessages, burstGapMs, gapMs, seconds,
                maxLive, dataSample, wrapShare);
        }

        /** The same with another number of QPs per connection. */
        public Options withQps(final int min, final int max) {
            return new Options(min, max, twoWayShare, longLivedShare, burstMessages, burstGapMs, keepaliveMs,
                lifetimeSeconds, maxLive, dataSample, wrapShare);
        }

        /** The same with another share of QPs starting just below the PSN wrap. */
        public Options withWrapShare(final double share) {
            return new Options(minQps, maxQps, twoWayShare, longLivedShare, burstMessages, burstGapMs, keepaliveMs,
                lifetimeSeconds, maxLive, dataSample, share);
        }
    }

    /** How long the defaults' opening burst lasts, about. */
    private static final long BURST_MS = 80;
    /** The bootstrap message's first four bytes. */
    static final int MAGIC = 0x4e43434c;
    private static final int BOOTSTRAP_TIMEOUT_MS = 10_000;
    /** The sampled answers an agent takes to pair two flows (two in a row: one could fit by chance). */
    static final int PAIRING_ANSWERS = 2;
    /** How long after a request left its answer leaves the other host. */
    private static final long RESPONSE_DELAY_MS = 1;

    private final Traffic traffic;
    private final ExecutorService bootstrap;
    /** Long-lived connections, oldest first; on the thread that runs the traffic. */
    private final ArrayDeque<List<QpPair>> live = new ArrayDeque<>();
    private final AtomicLong connections = new AtomicLong();
    private final AtomicLong qpPairs = new AtomicLong();
    private final AtomicLong bootstrapErrors = new AtomicLong();
    private final AtomicLong sequenceErrors = new AtomicLong();
    /** QP pairs that have not ended. */
    private final java.util.Set<QpPair> running = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private volatile Options options = Options.defaults(1);
    private volatile ObjLongConsumer<String> onFirstPacket;
    private volatile String lastError;
    private volatile boolean closing;

    NcclTraffic(final Traffic traffic) {
        this.traffic = traffic;
        bootstrap = Executors.newSingleThreadExecutor(r -> {
            final Thread t = new Thread(r, "lab-nccl-bootstrap");
            t.setDaemon(true);
            return t;
        });
    }

    public Options options() {
        return options;
    }

    /** Sets how the connections started from now on behave. */
    public void options(final Options opt) {
        options = java.util.Objects.requireNonNull(opt);
    }

    /** Called with a session id and {@link System#nanoTime()} as each QP pair's first packet leaves its host. */
    public void onFirstPacket(final ObjLongConsumer<String> listener) {
        onFirstPacket = listener;
    }

    /** NCCL-style connections started. */
    public long connections() {
        return connections.get();
    }

    /** QP pairs that sent their first packet. */
    public long qpPairs() {
        return qpPairs.get();
    }

    /** Bootstrap exchanges that failed (their QPs sent nothing). */
    public long bootstrapErrors() {
        return bootstrapErrors.get();
    }

    /**
     * Requests whose PSN was not the one their responder expected from the PSN the bootstrap
     * exchanged and the requests before: 0 unless the traffic is wrong.
     */
    public long sequenceErrors() {
        return sequenceErrors.get();
    }

    public String lastError() {
        return lastError;
    }

    /** One side of a QP pair: its QP, and its state as requester and as responder. */
    private static final class Side {
        final String host;
        final byte[] ip;
        final String ipText;
        final int qpn;
        final int initialPsn;
        final int port;
        final SplittableRandom rnd;
        Side peer;
        /** The peer's QP as the bootstrap told this side. */
        int remoteQpn;
        /**
         * As responder, the PSN the peer's next request must carry (an RC responder's expected
         * PSN): from the initial PSN the bootstrap told, on this side's host thread.
         */
        int expectedPsn;
        // as requester, on this side's host thread
        int nextPsn;
        long va;
        int rkey;
        // as responder to the peer's requests, on this side's host thread
        int msn;
        int deferred;

        Side(final String host, final byte[] ip, final String ipText, final int qpn, final int initialPsn,
                final int port, final SplittableRandom rnd) {
            this.host = host;
            this.ip = ip;
            this.ipText = ipText;
            this.qpn = qpn;
            this.initialPsn = initialPsn;
            this.port = port;
            this.rnd = rnd;
            this.nextPsn = initialPsn;
            this.va = 0x7f0000000000L | (rnd.nextLong() & 0xffffff000L);
            this.rkey = rnd.nextInt();
        }
    }

    /** One QP pair of a connection. */
    private final class QpPair {
        final long id;
        final long connection;
        final Side sideA;
        final Side sideB;
        final boolean twoWay;
        final boolean longLived;
        final long endNanos;
        /** The agents' data sampling the pair's pairable time is told for. */
        final int sample;
        final AtomicBoolean started = new AtomicBoolean();
        final AtomicBoolean pairable = new AtomicBoolean();
        /** Sampled answers so far (see {@link #pairable}). */
        final AtomicInteger answers = new AtomicInteger();
        final AtomicBoolean ended = new AtomicBoolean();
        final AtomicInteger requesting;
        volatile boolean stopped;

        QpPair(final long id, final long connection, final Side sideA, final Side sideB, final boolean twoWay,
                final boolean longLived, final long endNanos, final int sample) {
            this.id = id;
            this.connection = connection;
            this.sideA = sideA;
            this.sideB = sideB;
            this.twoWay = twoWay;
            this.longLived = longLived;
            this.endNanos = endNanos;
            this.sample = sample;
            this.requesting = new AtomicInteger(twoWay ? 2 : 1);
        }

        Truth.NcclQp truth(final long firstMs) {
            return new Truth.NcclQp(id, connection, sideA.host, sideA.ipText, sideA.qpn, sideA.initialPsn, sideA.port,
                sideB.host, sideB.ipText, sideB.qpn, sideB.initialPsn, sideB.port, twoWay, longLived, firstMs, -1, -1);
        }
    }

    /**
     * Starts a connection from {@code hostA} (it opens the bootstrap connection) to {@code hostB}: QPs and
     * their facts drawn now, the bootstrap and the data on other threads. Called by the thread that
     * runs the traffic.
     */
    @SuppressWarnings("checkstyle:IllegalCatch") // a bootstrap that fails in any way is counted, not lost on its thread
    void start(final String hostA, final String hostB, final SplittableRandom rnd) {
        final Options opt = options;
        final int n = opt.minQps() + rnd.nextInt(opt.maxQps() - opt.minQps() + 1);
        final boolean twoWay = rnd.nextDouble() < opt.twoWayShare();
        final boolean longLived = rnd.nextDouble() < opt.longLivedShare();
        final long endNanos = System.nanoTime() + (long) (opt.lifetimeSeconds() * (0.5 + rnd.nextDouble() / 2) * 1e9);
        final List<QpPair> pairs = new ArrayList<>();
        final String ipA = traffic.fabric().hostIp(hostA);
        final String ipB = traffic.fabric().hostIp(hostB);
        final List<Integer> portsA = new ArrayList<>();
        final List<Integer> portsB = new ArrayList<>();
        long connection = -1;
        for (int i = 0; i < n; i++) {
            final long id = traffic.nextId();
            if (connection < 0) {
                connection = id;
            }
            final Side sa = new Side(hostA, traffic.hostIp(hostA), ipA, traffic.qpn(hostA, rnd),
                initialPsn(rnd, opt, i), port(rnd, portsA), rnd.split());
            final Side sb = new Side(hostB, traffic.hostIp(hostB), ipB, traffic.qpn(hostB, rnd),
                initialPsn(rnd, opt, i), port(rnd, portsB), rnd.split());
            sa.peer = sb;
            sb.peer = sa;
            pairs.add(new QpPair(id, connection, sa, sb, twoWay, longLived, endNanos, opt.dataSample()));
        }
        connections.incrementAndGet();
        if (longLived) {
            live.add(pairs);
            while (live.size() > opt.maxLive()) {
                live.poll().forEach(p -> p.stopped = true);
            }
        }
        traffic.pendingAdd(1);
        try {
            bootstrap.execute(() -> {
                try {
                    exchange(pairs);
                    for (var p : pairs) {
                        running.add(p);
                        // each side's NIC knows its QP's peer from now on (for the CNPs it sends back)
                        traffic.connectQp(p.sideA.host, p.sideA.qpn, p.sideA.remoteQpn, p.sideA.port);
                        traffic.connectQp(p.sideB.host, p.sideB.qpn, p.sideB.remoteQpn, p.sideB.port);
                        burst(p, p.sideA, opt, 0);
                        if (p.twoWay) {
                            burst(p, p.sideB, opt, 2);
                        }
                    }
                } catch (IOException | RuntimeException e) {
                    bootstrapErrors.incrementAndGet();
                    lastError = "bootstrap " + hostA + " -> " + hostB + ": " + e;
                } finally {
                    traffic.pendingAdd(-1);
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException e) {
            traffic.pendingAdd(-1);
        }
    }

    /**
     * A random 24-bit initial PSN; for a share of the connections' first QPs, within 256 below the
     * wrap. Only the first: two QPs of one host pair whose PSNs run close together are ambiguous to
     * an agent (an answer fits both) until they part, as NCCL's QPs that all start at 0 are.
     */
    private static int initialPsn(final SplittableRandom rnd, final Options opt, final int qp) {
        if (qp == 0 && rnd.nextDouble() < opt.wrapShare()) {
            return RcFrames.PSN_MASK - rnd.nextInt(256);
        }
        return rnd.nextInt(RcFrames.PSN_MASK + 1);
    }

    /** An ephemeral UDP source port for one more QP of a side, none of the side's others. */
    private static int port(final SplittableRandom rnd, final List<Integer> taken) {
        int candidate;
        do {
            candidate = Traffic.ephemeral(rnd);
        } while (taken.contains(candidate));
        taken.add(candidate);
        return candidate;
    }

    /**
     * The bootstrap: a TCP connection from A's namespace to a listener in B's (over the loopback
     * where the traffic goes to a {@link Traffic.Wire} instead of namespaces); A sends its QPNs and
     * initial PSNs, B reads them and sends its own, A reads them. Each side then sends to the QPN
     * it read.
     */
    private void exchange(final List<QpPair> pairs) throws IOException {
        final Side a0 = pairs.get(0).sideA;
        final Side b0 = pairs.get(0).sideB;
        final boolean ns = traffic.inNamespaces();
        final InetAddress ipB = ns ? InetAddress.getByAddress(b0.ip) : InetAddress.getLoopbackAddress();
        final InetAddress ipA = ns ? InetAddress.getByAddress(a0.ip) : InetAddress.getLoopbackAddress();
        // each socket is made on its host's thread, so that it belongs to that host's namespace
        try (ServerSocketChannel server = traffic.onHost(b0.host, () -> listener(ipB));
             SocketChannel client = traffic.onHost(a0.host, () -> client(ipA))) {
            client.socket().connect(server.getLocalAddress(), BOOTSTRAP_TIMEOUT_MS);
            server.socket().setSoTimeout(BOOTSTRAP_TIMEOUT_MS);
            try (var accepted = server.socket().accept()) {
                accepted.setSoTimeout(BOOTSTRAP_TIMEOUT_MS);
                client.socket().setSoTimeout(BOOTSTRAP_TIMEOUT_MS);
                final var aOut = new DataOutputStream(client.socket().getOutputStream());
                final var aIn = new DataInputStream(client.socket().getInputStream());
                final var bOut = new DataOutputStream(accepted.getOutputStream());
                final var bIn = new DataInputStream(accepted.getInputStream());
                send(aOut, pairs, true);
                final int[][] fromA = receive(bIn, pairs.size());
                send(bOut, pairs, false);
                final int[][] fromB = receive(aIn, pairs.size());
                for (int i = 0; i < pairs.size(); i++) {
                    final var p = pairs.get(i);
                    p.sideB.remoteQpn = fromA[i][0];
                    p.sideB.expectedPsn = fromA[i][1];
                    p.sideA.remoteQpn = fromB[i][0];
                    p.sideA.expectedPsn = fromB[i][1];
                }
            }
        }
    }

    /** The bootstrap's listener on B's address, on an ephemeral port, a backlog of one. */
    private static ServerSocketChannel listener(final InetAddress ip) throws IOException {
        final var ch = ServerSocketChannel.open();
        ch.bind(new InetSocketAddress(ip, 0), 1);
        return ch;
    }

    /** The bootstrap's client, bound to A's address. */
    private static SocketChannel client(final InetAddress ip) throws IOException {
        final var ch = SocketChannel.open();
        ch.bind(new InetSocketAddress(ip, 0));
        return ch;
    }

    private static void send(final DataOutputStream out, final List<QpPair> pairs, final boolean fromSideA)
            throws IOException {
        out.writeInt(MAGIC);
        out.writeInt(pairs.size());
        for (var p : pairs) {
            final Side s = fromSideA ? p.sideA : p.sideB;
            out.writeInt(s.qpn);
            out.writeInt(s.initialPsn);
        }
        out.flush();
    }

    /** The peer's QPNs and initial PSNs, as it sent them; an error if they are not what the bootstrap sends. */
    static int[][] receive(final DataInputStream in, final int expected) throws IOException {
        final int magic = in.readInt();
        if (magic != MAGIC) {
            throw new IOException(String.format("bootstrap: not the lab's message (0x%08x)", magic));
        }
        final int n = in.readInt();
        if (n != expected) {
            throw new IOException("bootstrap: the peer has " + n + " QPs, this side " + expected);
        }
        final int[][] out = new int[n][2];
        for (int i = 0; i < n; i++) {
            out[i][0] = in.readInt();
            out[i][1] = in.readInt();
            if ((out[i][0] & ~RcFrames.PSN_MASK) != 0 || (out[i][1] & ~RcFrames.PSN_MASK) != 0) {
                throw new IOException("bootstrap: QPN or PSN beyond 24 bits");
            }
        }
        return out;
    }

    /** A side's opening burst of messages, {@code delayMs} from now, then (long-lived) its later ones. */
    private void burst(final QpPair pair, final Side side, final Options opt, final long delayMs) {
        traffic.schedule(side.host, () -> {
            final int count = opt.burstMessages();
            message(pair, side, count == 1, true);
            if (count > 1) {
                next(pair, side, opt, 1, count);
            } else {
                afterBurst(pair, side, opt);
            }
        }, delayMs);
    }

    private void next(final QpPair pair, final Side side, final Options opt, final int sent, final int count) {
        traffic.schedule(side.host, () -> {
            final boolean last = sent + 1 == count;
            message(pair, side, last, true);
            if (last) {
                afterBurst(pair, side, opt);
            } else {
                next(pair, side, opt, sent + 1, count);
            }
        }, opt.burstGapMs());
    }

    /** After the burst: a short-lived side is done, a long-lived one goes on now and then. */
    private void afterBurst(final QpPair pair, final Side side, final Options opt) {
        if (!pair.longLived) {
            done(pair);
            return;
        }
        keepalive(pair, side, opt);
    }

    private void keepalive(final QpPair pair, final Side side, final Options opt) {
        final long gap = Math.max(1, (long) (opt.keepaliveMs() * (0.5 + side.rnd.nextDouble())));
        final boolean scheduled = traffic.scheduleBackground(side.host, () -> {
            if (pair.stopped || closing || System.nanoTime() >= pair.endNanos) {
                done(pair);
                return;
            }
            message(pair, side, true, false);
            keepalive(pair, side, opt);
        }, gap);
        if (!scheduled) {
            done(pair);
        }
    }

    /** A side stopped issuing requests: the pair has ended when both (one-way: A) have. */
    private void done(final QpPair pair) {
        if (pair.requesting.decrementAndGet() == 0 && pair.ended.compareAndSet(false, true)) {
            running.remove(pair);
            traffic.releaseQp(pair.sideA.host, pair.sideA.qpn);
            traffic.releaseQp(pair.sideB.host, pair.sideB.qpn);
            traffic.truth().ncclFact(pair.id, "nccl-ended", System.currentTimeMillis());
        }
    }

    /** The message kinds a requester sends. */
    private enum Kind { WRITE, WRITE_IMM, SEND, READ }

    /**
     * One message from {@code side} (on its host's thread): its packets, then the peer's answer
     * on the peer's thread. {@code flush}: the answer may not be held back (coalesced);
     * {@code inBurst}: it may.
     */
    private void message(final QpPair pair, final Side side, final boolean flush, final boolean inBurst) {
        final SplittableRandom rnd = side.rnd;
        final int r = rnd.nextInt(100);
        final Kind kind = pair.twoWay && r < 15 ? Kind.READ : r < 55 ? Kind.WRITE : r < 80 ? Kind.WRITE_IMM : Kind.SEND;
        // 1 to 8 packets, most messages small
        final int packets = 1 + rnd.nextInt(1 + rnd.nextInt(8));
        // a SEND's last packet carries 16 bytes at least: tshark 4.0 takes shorter ones for broken
        // RPC-over-RDMA
        final int lastLen = Math.max(kind == Kind.SEND ? 16 : 4, 4 * (1 + rnd.nextInt(RcFrames.PMTU / 4)));
        final int bytes = (packets - 1) * RcFrames.PMTU + lastLen;
        final int first = side.nextPsn;
        final byte[] buf = BUF.get();
        if (kind == Kind.READ) {
            // one request; the responses use the PSNs up to first + packets - 1
            final int len = RcFrames.write(buf, RcFrames.READ_REQUEST, side.remoteQpn, first, true, false, side.va,
                side.rkey, bytes, 0, 0, 0, 0, new RcFrames.Udp(side.ip, side.peer.ip, side.port));
            firstPacket(pair);
            traffic.transmit(side.host, side.ip, side.port, side.peer.ip, Traffic.DATA_TOS,
                ByteBuffer.wrap(buf, 0, len), 1);
        } else {
            for (int i = 0; i < packets; i++) {
                final boolean isFirst = i == 0;
                final boolean isLast = i == packets - 1;
                final int opcode = opcode(kind, isFirst, isLast);
                final int psn = RcFrames.psnPlus(first, i);
                final int len = RcFrames.write(buf, opcode, side.remoteQpn, psn, isLast, isLast && kind != Kind.WRITE,
                    side.va, side.rkey, bytes, rnd.nextInt(), 0, 0, isLast ? lastLen : RcFrames.PMTU,
                    new RcFrames.Udp(side.ip, side.peer.ip, side.port));
                firstPacket(pair);
                traffic.transmit(side.host, side.ip, side.port, side.peer.ip, Traffic.DATA_TOS,
                    ByteBuffer.wrap(buf, 0, len), 1);
            }
        }
        side.nextPsn = RcFrames.psnPlus(first, packets);
        side.va += bytes + 64L & ~63L;
        final Side responder = side.peer;
        final Runnable answer = () -> respond(pair, responder, kind, first, packets, lastLen, flush || !inBurst);
        if (inBurst) {
            traffic.schedule(responder.host, answer, RESPONSE_DELAY_MS);
        } else {
            traffic.scheduleBackground(responder.host, answer, RESPONSE_DELAY_MS);
        }
    }

    private static int opcode(final Kind kind, final boolean first, final boolean last) {
        return switch (kind) {
            case WRITE -> first && last ? RcFrames.WRITE_ONLY : first ? RcFrames.WRITE_FIRST
                : last ? RcFrames.WRITE_LAST : RcFrames.WRITE_MIDDLE;
            case WRITE_IMM -> first && last ? RcFrames.WRITE_ONLY_IMM : first ? RcFrames.WRITE_FIRST
                : last ? RcFrames.WRITE_LAST_IMM : RcFrames.WRITE_MIDDLE;
            case SEND -> first && last ? RcFrames.SEND_ONLY : first ? RcFrames.SEND_FIRST
                : last ? RcFrames.SEND_LAST : RcFrames.SEND_MIDDLE;
            case READ -> RcFrames.READ_REQUEST;
        };
    }

    /**
     * The responder's answer to a message (on its host's thread): READ responses, or an ACK naming
     * the message's last PSN, unless it holds the ACK back to acknowledge the next message too
     * (at most two held; never when {@code flush}).
     */
    private void respond(final QpPair pair, final Side responder, final Kind kind, final int first, final int packets,
            final int lastLen, final boolean flush) {
        final Side requester = responder.peer;
        if (first != responder.expectedPsn) {
            // the request is not the one the bootstrap's PSN and the messages so far make next
            sequenceErrors.incrementAndGet();
            lastError = String.format("QP pair %d: request PSN %d where %d was expected", pair.id, first,
                responder.expectedPsn);
        }
        responder.expectedPsn = RcFrames.psnPlus(first, packets);
        final byte[] buf = BUF.get();
        final var udp = new RcFrames.Udp(responder.ip, requester.ip, responder.port);
        responder.msn = responder.msn + 1 & RcFrames.PSN_MASK;
        if (kind == Kind.READ) {
            for (int i = 0; i < packets; i++) {
                final boolean isFirst = i == 0;
                final boolean isLast = i == packets - 1;
                final int opcode = isFirst && isLast ? RcFrames.READ_RESPONSE_ONLY
                    : isFirst ? RcFrames.READ_RESPONSE_FIRST
                    : isLast ? RcFrames.READ_RESPONSE_LAST : RcFrames.READ_RESPONSE_MIDDLE;
                final int psn = RcFrames.psnPlus(first, i);
                final int len = RcFrames.write(buf, opcode, responder.remoteQpn, psn, false, false, 0, 0, 0, 0,
                    RcFrames.ACK_SYNDROME, responder.msn, isLast ? lastLen : RcFrames.PMTU, udp);
                firstPacket(pair);
                traffic.transmit(responder.host, responder.ip, responder.port, requester.ip, Traffic.DATA_TOS,
                    ByteBuffer.wrap(buf, 0, len), 1);
                // each response counts on from the READ request's PSN: an agent keeps it with the
                // request where both PSNs are multiples of its sampling
                if (first % pair.sample == 0) {
                    pairable(pair, psn);
                }
            }
            responder.deferred = 0;
            return;
        }
        final int last = RcFrames.psnPlus(first, packets - 1);
        if (!flush && responder.deferred < 2 && responder.rnd.nextInt(4) == 0) {
            responder.deferred++;
            return;
        }
        responder.deferred = 0;
        final int len = RcFrames.write(buf, RcFrames.ACKNOWLEDGE, responder.remoteQpn, last, false, false, 0, 0, 0, 0,
            RcFrames.ACK_SYNDROME, responder.msn, 0, udp);
        firstPacket(pair);
        traffic.transmit(responder.host, responder.ip, responder.port, requester.ip, Traffic.DATA_TOS,
            ByteBuffer.wrap(buf, 0, len), 1);
        pairable(pair, last);
    }

    /** The truth's line and the listener, at a pair's first packet (on the sending host's thread). */
    private void firstPacket(final QpPair pair) {
        if (pair.started.compareAndSet(false, true)) {
            qpPairs.incrementAndGet();
            final var qp = pair.truth(System.currentTimeMillis());
            traffic.truth().nccl(qp);
            final var l = onFirstPacket;
            if (l != null) {
                l.accept(qp.sessionId(), System.nanoTime());
            }
        }
    }

    /**
     * A response with PSN {@code psn} of its requester's sequence left: where agents sample every
     * N-th PSN, they keep it (and the request it names) when the PSN is a multiple of N, and an
     * agent pairs the two flows on the second such answer that fits one flow only. The truth says
     * when the second one left (on either side's thread).
     */
    private void pairable(final QpPair pair, final int psn) {
        if (psn % pair.sample == 0 && pair.answers.incrementAndGet() == PAIRING_ANSWERS
                && pair.pairable.compareAndSet(false, true)) {
            traffic.truth().ncclFact(pair.id, "nccl-pairable", System.currentTimeMillis());
        }
    }

    /** Each host thread's packet buffer. */
    private static final ThreadLocal<byte[]> BUF = ThreadLocal.withInitial(() -> new byte[RcFrames.MAX_LEN]);

    /** Stops every long-lived connection: each side ends at its next message's time instead of sending it. */
    public void stopAll() {
        running.forEach(p -> p.stopped = true);
    }

    /** QP pairs sending now (started, not ended). */
    public int running() {
        return running.size();
    }

    /**
     * Stops the bootstrap and every long-lived connection: each side ends at its next message's
     * time instead of sending it (the host threads run what they have scheduled before they close).
     */
    @Override
    public void close() {
        closing = true;
        running.forEach(p -> p.stopped = true);
        bootstrap.shutdown();
        try {
            bootstrap.awaitTermination(BOOTSTRAP_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
