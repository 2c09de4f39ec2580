/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.pcap;

import edu.umd.cs.findbugs.annotations.SuppressFBWarnings;
import io.rst.rft.decode.CmMessageType;
import io.rst.rft.decode.FrameDecoder;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.eclipse.jdt.annotation.Nullable;

/**
 * Writes CM traffic to a pcap file: {@code sessions} connections, interleaved in groups, each a
 * scenario. In benchmark mode every connection is REQ, REP, RTU, DREQ, DREP (5 frames). In
 * "all types" mode the scenarios rotate through every CM message and the cases real captures
 * show, with IPv4 and IPv6, 0, 1 (802.1Q) or 2 (QinQ) VLAN tags, rdma_cm private data and odd but
 * legal values (24-bit QPNs and PSNs up to 0xffffff, comm IDs with the top bit set, service IDs
 * outside rdma_cm):
 *
 * <pre>
 *  0 REQ REP RTU DREQ DREP                      CLOSED
 *  1 REQ REJ(REQ rejected)                      REJECTED
 *  2 REQ MRA REP RTU                            ESTABLISHED
 *  3 REQ REQ (retry, same CID), no answer       TIMED_OUT (the file ends 10 s later)
 *  4 REQ REP RTU DREQ(responder) DREP           CLOSED
 *  5 REQ REP RTU DREQ DREQ(crossing) DREP DREP  CLOSED
 *  6 REQ REP RTU DREQ, no DREP                  TIMED_OUT (the DREQ's wait ends before the file)
 *  7 REQ REP RTU LAP APR                        ESTABLISHED
 *  8 SIDR_REQ SIDR_REP                          (no session)
 *  9 DREQ DREP only (capture started late)      CLOSED, roles unknown
 * 10 REQ REP REJ(REP rejected)                  REJECTED
 * </pre>
 * A ClassPortInfo MAD ends an "all types" file, 10 s after the rest.
 *
 * <p>With {@link #hostPool(int)} (what {@code rst gen} does by default) the connections look like
 * a running cluster's instead: each is REQ, REP, RTU (with {@code stopAfter(3)}) between a random
 * pair of a few hosts, so the same hosts hold many sessions, and each host numbers its comm IDs
 * and QPNs as Linux does (a counter XOR a random per-host value for comm IDs, consecutive QPNs from
 * a random base); the two sides' CM packets have UDP source ports of their own, the REQ carries
 * rdma_cm private data, and the services are those RDMA clusters run (NVMe-oF, iSER, SMB Direct,
 * perftest, rping).
 */
public final class CmTrafficGenerator {
    /**
     * What to generate.
     *
     * @param sessions number of connections
     * @param seed random seed (same seed, same file)
     * @param allTypes every scenario (else REQ..DREP only)
     * @param ipMode 4, 6, or 0 for both alternately
     * @param vlanTags 0, 1, 2, or -1 for all three in turn
     * @param nanoseconds nanosecond pcap (else microsecond)
     * @param udpPort the RoCEv2 UDP port
     * @param startNanos time of the first frame
     */
    public record Options(int sessions, long seed, boolean allTypes, int ipMode, int vlanTags,
            boolean nanoseconds, int udpPort, long startNanos) {
        public static Options bench(final int sessions) {
            return new Options(sessions, 1, false, 4, 0, false, FrameDecoder.ROCEV2_PORT, 1_767_225_600_000_000_000L);
        }

        public static Options allTypes(final int sessions, final long seed) {
            return new Options(sessions, seed, true, 0, -1, true, FrameDecoder.ROCEV2_PORT,
                1_767_225_600_000_000_000L);
        }
    }

    /** What the table should end with for one generated connection (all-types mode). */
    public record Expected(String requesterIp, int requesterCid, String state, List<String> messages,
            boolean rolesKnown) {
    }

    /** rdma_cm TCP port space services of a live mix: NVMe-oF, iSER, SMB Direct, perftest, rping. */
    private static final int[] LIVE_SERVICES = {4420, 3260, 5445, 18515, 7174};
    private static final int HOSTS_PER_RACK = 4;

    private static final int SCENARIOS = 11;
    private static final int GROUP = 4;
    private static final long STEP_NANOS = 7_000L;

    private final Options opt;
    private final SplittableRandom rnd;
    private final CmFrameBuilder fb = new CmFrameBuilder();
    private final byte[] frame = new byte[2048];
    private final List<Expected> expected = new ArrayList<>();
    private long now;
    private long frames;
    private int maxSteps = Integer.MAX_VALUE;
    /** The host pool; empty when every connection has addresses of its own. */
    private Host[] hosts = new Host[0];

    public CmTrafficGenerator(final Options options) {
        opt = options;
        rnd = new SplittableRandom(options.seed());
        now = options.startNanos();
    }

    /**
     * Ends every connection's script after {@code steps} messages: 3 leaves benchmark connections
     * ESTABLISHED (REQ REP RTU), live sessions for memory measurements.
     */
    public CmTrafficGenerator stopAfter(final int steps) {
        if (steps < 1) {
            throw new IllegalArgumentException("steps must be positive: " + steps);
        }
        maxSteps = steps;
        return this;
    }

    /**
     * Makes every connection one between two of {@code count} hosts (a random pair each time)
     * rather than between addresses of its own; see the class documentation. Host {@code i} is
     * {@code 10.0.R.N} (IPv6 {@code fd00:0:0:R::N}) with R = i / 4 + 1 and N = i % 4 + 11: four
     * hosts per rack, as behind a leaf switch. Not with all-types scenarios.
     */
    public CmTrafficGenerator hostPool(final int count) {
        if (count < 2 || count > HOSTS_PER_RACK * 254) {
            throw new IllegalArgumentException("hosts must be 2.." + HOSTS_PER_RACK * 254 + ": " + count);
        }
        if (opt.allTypes()) {
            throw new IllegalArgumentException("a host pool makes plain connections, not all-types scenarios");
        }
        hosts = new Host[count];
        for (int i = 0; i < count; i++) {
            hosts[i] = new Host(i, rnd);
        }
        return this;
    }

    /** One host of a pool: its addresses, and its CM's and NIC's numbering. */
    private static final class Host {
        final byte[] v4;
        final byte[] v6;
        /** Linux's cm.random_id_operand: local comm IDs are an allocation counter XOR this. */
        final int commIdOperand;
        int nextCommId;
        int nextQpn;

        Host(final int index, final SplittableRandom rnd) {
            final int rack = index / HOSTS_PER_RACK + 1;
            final int n = index % HOSTS_PER_RACK + 11;
            v4 = new byte[] {10, 0, (byte) rack, (byte) n};
            v6 = new byte[16];
            v6[0] = (byte) 0xfd;
            v6[6] = (byte) (rack >>> 8);
            v6[7] = (byte) rack;
            v6[15] = (byte) n;
            commIdOperand = rnd.nextInt();
            nextCommId = rnd.nextInt(1, 4096);
            // QPNs count up from wherever the NIC's allocator stands
            nextQpn = rnd.nextInt(0x100, 0x800000);
        }

        int commId() {
            return nextCommId++ ^ commIdOperand;
        }

        int qpn() {
            final int q = nextQpn;
            nextQpn = nextQpn + 1 & 0xffffff;
            return q;
        }
    }

    /** Expected outcomes (filled by {@link #write} in all-types mode). */
    public List<Expected> expected() {
        return List.copyOf(expected);
    }

    /** Writes the file; returns the number of frames. */
    public long write(final Path file) throws IOException {
        try (PcapWriter w = PcapWriter.pcap(file, FrameDecoder.LINKTYPE_ETHERNET, false, opt.nanoseconds())) {
            final Conn[] group = new Conn[GROUP];
            for (int first = 0; first < opt.sessions(); first += GROUP) {
                final int n = Math.min(GROUP, opt.sessions() - first);
                for (int i = 0; i < n; i++) {
                    group[i] = newConn(first + i);
                }
                boolean more = true;
                for (int step = 0; more; step++) {
                    more = false;
                    for (int i = 0; i < n; i++) {
                        if (emit(group[i], step, w)) {
                            more = true;
                        }
                    }
                }
                for (int i = 0; i < n; i++) {
                    if (opt.allTypes() && group[i].scenario != 8) {
                        expected.add(group[i].expected());
                    }
                }
                if (hosts.length > 0) {
                    // connections of a live cluster come and go over time, not back to back
                    now += rnd.nextLong(200_000L, 2_000_000L);
                }
            }
            if (opt.allTypes()) {
                now += 10_000_000_000L;
                fb.type(CmMessageType.CLASS_PORT_INFO).transactionId(rnd.nextLong()).method(0x01);
                put(w);
            }
        }
        return frames;
    }

    @SuppressFBWarnings(value = "NP_NONNULL_FIELD_NOT_INITIALIZED_IN_CONSTRUCTOR",
        justification = "SpotBugs reads no TYPE_USE @Nullable on fields: these fields are @Nullable")
    private static final class Conn {
        int scenario;
        byte @Nullable [] reqAddr;
        byte @Nullable [] respAddr;
        int @Nullable [] vlans;
        int reqCommId;
        int respCommId;
        int reqQpn;
        int respQpn;
        long tid;
        long tid2;
        long service;
        int psnA;
        int psnB;
        /** UDP source port of the requester's CM packets (and of the responder's outside a host pool). */
        int udpPort;
        int respUdpPort;
        /** The requester's port in rdma_cm's REQ private data. */
        int cmSrcPort;
        @Nullable String reqIp;
        final List<String> msgs = new ArrayList<>();

        Expected expected() {
            final String state = switch (scenario) {
                case 1, 10 -> "REJECTED";
                case 2, 7 -> "ESTABLISHED";
                case 3, 6 -> "TIMED_OUT";
                default -> "CLOSED";
            };
            return new Expected(reqIp, reqCommId, state, List.copyOf(msgs), scenario != 9);
        }
    }

    private Conn newConn(final int index) {
        if (hosts.length > 0) {
            return newPoolConn(index);
        }
        final Conn c = new Conn();
        c.scenario = opt.allTypes() ? index % SCENARIOS : 0;
        final boolean v6 = opt.ipMode() == 6 || opt.ipMode() == 0 && index % 2 != 0;
        if (v6) {
            c.reqAddr = new byte[16];
            c.respAddr = new byte[16];
            c.reqAddr[0] = (byte) 0xfd;
            c.respAddr[0] = (byte) 0xfd;
            c.reqAddr[1] = 0x00;
            c.respAddr[1] = 0x00;
            c.reqAddr[3] = 1;
            c.respAddr[3] = 1;
            // a zero run in the middle and a non-zero tail: exercises RFC 5952 compression
            c.reqAddr[14] = (byte) (index >>> 8);
            c.reqAddr[15] = (byte) (index * 2 + 1);
            c.respAddr[14] = (byte) (index >>> 8);
            c.respAddr[15] = (byte) (index * 2 + 2);
            c.respAddr[8] = (byte) (index % 3 == 0 ? 0 : 0x12);
        } else {
            c.reqAddr = new byte[] {10, (byte) (index >>> 16), (byte) (index >>> 8), (byte) (index * 2 + 1)};
            c.respAddr = new byte[] {(byte) 172, 16, (byte) (index >>> 8), (byte) (index * 2 + 2)};
        }
        final int tags = opt.vlanTags() >= 0 ? opt.vlanTags() : index % 3;
        c.vlans = tags == 0 ? new int[0] : tags == 1 ? new int[] {100 + index % 4000} : new int[] {200, 4094};
        c.reqCommId = index % 7 == 3 ? 0x80000000 | rnd.nextInt() : rnd.nextInt();
        c.respCommId = rnd.nextInt();
        c.reqQpn = index % 13 == 5 ? 0xffffff : rnd.nextInt(1 << 24);
        c.respQpn = rnd.nextInt(1 << 24);
        c.tid = rnd.nextLong();
        c.tid2 = rnd.nextLong();
        c.psnA = index % 11 == 4 ? 0xffffff : rnd.nextInt(1 << 24);
        c.psnB = rnd.nextInt(1 << 24);
        final int port = rnd.nextInt(1, 65536);
        c.service = switch (index % 5) {
            case 3 -> 0x0000000001110000L | port; // rdma_cm, UDP port space
            case 4 -> opt.allTypes() ? rnd.nextLong() & 0x7fffffffffffffffL | 0x1000000000000000L
                : 0x0000000001060000L | port; // not rdma_cm
            default -> 0x0000000001060000L | port; // rdma_cm, TCP port space
        };
        c.udpPort = opt.allTypes() ? rnd.nextInt(49152, 65536) : 55410;
        c.respUdpPort = c.udpPort;
        c.cmSrcPort = port ^ 0x5a5a;
        c.reqIp = io.rst.rft.decode.JsonBytes.ipString(c.reqAddr, v6 ? 6 : 4);
        return c;
    }

    /** A connection between two hosts of the pool (scenario 0, cut short by {@link #stopAfter}). */
    private Conn newPoolConn(final int index) {
        final Conn c = new Conn();
        final Host requester = hosts[rnd.nextInt(hosts.length)];
        Host responder = hosts[rnd.nextInt(hosts.length - 1)];
        if (responder == requester) {
            responder = hosts[hosts.length - 1];
        }
        final boolean v6 = opt.ipMode() == 6 || opt.ipMode() == 0 && index % 2 != 0;
        c.reqAddr = v6 ? requester.v6 : requester.v4;
        c.respAddr = v6 ? responder.v6 : responder.v4;
        final int tags = opt.vlanTags() >= 0 ? opt.vlanTags() : index % 3;
        c.vlans = tags == 0 ? new int[0] : tags == 1 ? new int[] {100 + index % 4000} : new int[] {200, 4094};
        c.reqCommId = requester.commId();
        c.respCommId = responder.commId();
        c.reqQpn = requester.qpn();
        c.respQpn = responder.qpn();
        c.tid = rnd.nextLong();
        c.tid2 = rnd.nextLong();
        c.psnA = rnd.nextInt(1 << 24);
        c.psnB = rnd.nextInt(1 << 24);
        c.service = 0x0000000001060000L | LIVE_SERVICES[rnd.nextInt(LIVE_SERVICES.length)];
        // each side's CM packets leave with a UDP source port of their own (ECMP hashes on it)
        c.udpPort = rnd.nextInt(49152, 65536);
        c.respUdpPort = rnd.nextInt(49152, 65536);
        c.cmSrcPort = rnd.nextInt(32768, 61000);
        c.reqIp = io.rst.rft.decode.JsonBytes.ipString(c.reqAddr, v6 ? 6 : 4);
        return c;
    }

    /** Emits step {@code step} of a connection; false when it has no such step. */
    private boolean emit(final Conn conn, final int step, final PcapWriter writer) throws IOException {
        final CmMessageType[] script = script(conn.scenario);
        if (step >= script.length || step >= maxSteps) {
            return false;
        }
        final CmMessageType t = script[step];
        // who sends: per scenario and step
        final boolean fromA = switch (conn.scenario) {
            case 4 -> step == 0 || step == 2 || step == 4;
            case 5 -> step == 0 || step == 2 || step == 4 || step == 6;
            case 9 -> step == 0;
            default -> switch (t) {
                case REQ, RTU, DREQ, LAP, SIDR_REQ -> true;
                case REJ -> conn.scenario == 10;
                default -> false;
            };
        };
        fb.ips(fromA ? conn.reqAddr : conn.respAddr, fromA ? conn.respAddr : conn.reqAddr).vlans(conn.vlans)
            .udpPorts(fromA ? conn.udpPort : conn.respUdpPort, opt.udpPort())
            .type(t).method(0x03)
            .commIds(fromA ? conn.reqCommId : conn.respCommId, fromA ? conn.respCommId : conn.reqCommId)
            .transactionId(conn.scenario == 5 && !fromA && (t == CmMessageType.DREQ) ? conn.tid2 : conn.tid)
            .bthPsn(step).dscp(conn.scenario % 2 == 0 ? 0 : 26).noIpCm();
        final boolean quick = conn.scenario == 3 || conn.scenario == 6;
        switch (t) {
            case REQ -> {
                fb.commIds(conn.reqCommId, 0).localQpn(conn.reqQpn).startingPsn(conn.psnA).serviceId(conn.service)
                    // the unanswered REQ (3) and the DREQ without DREP (6) give up within the
                    // capture: 67 ms, retried once; the others wait as rdma_cm does by default
                    .timeouts(quick ? 14 : 20, quick ? 14 : 20, quick ? 1 : 15);
                if (conn.service >>> 24 == 1L) {
                    fb.ipCm(conn.reqAddr.length == 4 ? 4 : 6, conn.cmSrcPort, conn.reqAddr, conn.respAddr);
                }
            }
            case REP -> fb.localQpn(conn.respQpn).startingPsn(conn.psnB);
            case REJ -> fb.reject(conn.scenario == 10 ? 1 : 28 + conn.scenario % 3, conn.scenario == 10 ? 1 : 0)
                .commIds(fromA ? conn.reqCommId : conn.respCommId, fromA ? conn.respCommId : conn.reqCommId);
            case MRA -> fb.mra(0, 18);
            case DREQ -> fb.remoteQpn(fromA ? conn.respQpn : conn.reqQpn);
            case LAP -> fb.remoteQpn(conn.respQpn).timeouts(19, 20, 15);
            case APR -> fb.apStatus(0);
            case SIDR_REQ -> fb.commIds(conn.reqCommId, 0).serviceId(conn.service);
            case SIDR_REP -> fb.commIds(conn.reqCommId, 0).localQpn(conn.respQpn).serviceId(conn.service).sidrStatus(0);
            default -> {
                // RTU, DREP: comm IDs only
            }
        }
        conn.msgs.add(t.name());
        put(writer);
        return true;
    }

    private static final CmMessageType[][] SCRIPTS = {
        {CmMessageType.REQ, CmMessageType.REP, CmMessageType.RTU, CmMessageType.DREQ, CmMessageType.DREP},
        {CmMessageType.REQ, CmMessageType.REJ},
        {CmMessageType.REQ, CmMessageType.MRA, CmMessageType.REP, CmMessageType.RTU},
        {CmMessageType.REQ, CmMessageType.REQ},
        {CmMessageType.REQ, CmMessageType.REP, CmMessageType.RTU, CmMessageType.DREQ, CmMessageType.DREP},
        {CmMessageType.REQ, CmMessageType.REP, CmMessageType.RTU, CmMessageType.DREQ, CmMessageType.DREQ,
            CmMessageType.DREP, CmMessageType.DREP},
        {CmMessageType.REQ, CmMessageType.REP, CmMessageType.RTU, CmMessageType.DREQ},
        {CmMessageType.REQ, CmMessageType.REP, CmMessageType.RTU, CmMessageType.LAP, CmMessageType.APR},
        {CmMessageType.SIDR_REQ, CmMessageType.SIDR_REP},
        {CmMessageType.DREQ, CmMessageType.DREP},
        {CmMessageType.REQ, CmMessageType.REP, CmMessageType.REJ},
    };

    private static CmMessageType[] script(final int scenario) {
        return SCRIPTS[scenario];
    }

    private void put(final PcapWriter writer) throws IOException {
        final int len = fb.build(frame);
        writer.write(now, frame, 0, len);
        now += STEP_NANOS;
        frames++;
    }
}
