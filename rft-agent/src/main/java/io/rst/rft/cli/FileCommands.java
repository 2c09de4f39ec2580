/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.cli;

import io.rst.rft.decode.CmMessage;
import io.rst.rft.decode.DecodeResult;
import io.rst.rft.decode.FrameDecoder;
import io.rst.rft.decode.JsonBytes;
import io.rst.rft.pcap.CaptureFileReader;
import io.rst.rft.pcap.CmTrafficGenerator;
import io.rst.rft.pcap.DataTrafficGenerator;
import io.rst.rft.pcap.NotACaptureException;
import io.rst.rft.pcap.PacketHandler;
import io.rst.rft.session.DataConfig;
import io.rst.rft.session.SessionConfig;
import io.rst.rft.session.SessionRecord;
import io.rst.rft.session.SessionTable;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.eclipse.jdt.annotation.Nullable;

/**
 * The file subcommands: {@code decode FILE}, {@code sessions FILE} and {@code gen --out F ...}.
 * Output is JSON lines on {@code out}; the summary (packets read, CM MADs, skipped by reason) and
 * errors go to {@code err}. Exit status: 0 ok, 1 unreadable or not a capture, 2 bad usage (one
 * line on {@code err}). {@code --help} or {@code -h} prints the command's usage on {@code out}.
 */
final class FileCommands {
    private static final int FLUSH_AT = 1 << 16;

    private FileCommands() {
    }

    static int decode(final String[] args, final PrintStream out, final PrintStream err) {
        if (Main.wantsHelp(args)) {
            out.println(DECODE_USAGE);
            return 0;
        }
        final Parsed p = parse("decode", args, err);
        if (p == null) {
            return 2;
        }
        final FrameDecoder decoder = new FrameDecoder(p.port);
        final CmMessage m = new CmMessage();
        final JsonBytes json = new JsonBytes(FLUSH_AT + 4096);
        final long[] counts = new long[DecodeResult.values().length + 1];
        final OutputStream os = new AsyncBlockOutput(out);
        return runFile("decode", p.file, err, counts, reader -> {
            m.setTimeDigits(reader.timeDigits());
            final PacketHandler h = (frame, ns, linkType, ifId, buf, off, capLen, origLen) -> {
                m.setCapture(frame, ns);
                final DecodeResult r = decoder.decode(linkType, buf, off, capLen, origLen, m);
                counts[r.ordinal()]++;
                if (r == DecodeResult.CM_MAD || r == DecodeResult.PFC || r == DecodeResult.LLDP) {
                    if (r == DecodeResult.CM_MAD) {
                        m.appendJson(json);
                    } else if (r == DecodeResult.PFC) {
                        m.appendPfcJson(json);
                    } else {
                        m.appendLldpJson(json);
                    }
                    json.raw('\n');
                    if (json.length() >= FLUSH_AT) {
                        drain(json, os);
                    }
                } else if (r == DecodeResult.ROCE_DATA && m.isCnp()) {
                    counts[CNPS]++;
                }
            };
            reader.readAll(h);
            drain(json, os);
            os.close();
        });
    }

    static int sessions(final String[] args, final PrintStream out, final PrintStream err) {
        if (Main.wantsHelp(args)) {
            out.println(SESSIONS_USAGE);
            return 0;
        }
        final Parsed p = parse("sessions", args, err);
        if (p == null) {
            return 2;
        }
        final FrameDecoder decoder = new FrameDecoder(p.port);
        final CmMessage m = new CmMessage();
        final long[] counts = new long[DecodeResult.values().length + 1];
        // a file is judged as a whole: nothing ages out, the table holds what the file holds
        final SessionTable table = new SessionTable(new SessionConfig(Integer.MAX_VALUE, Long.MAX_VALUE, 0L, 256),
            null);
        // data packets whose PSN has none of these bits set are sampled (as an agent's kernel
        // filter does); -1: none
        final int dataMask = p.dataSample > 0 ? p.dataSample - 1 : -1;
        if (dataMask >= 0) {
            table.trackData(new DataConfig(MAX_FLOWS, DataConfig.DEFAULT.idleMicros(), 0L));
        }
        final long[] last = {Long.MIN_VALUE};
        final OutputStream os = new AsyncBlockOutput(out);
        return runFile("sessions", p.file, err, counts, reader -> {
            final PacketHandler h = (frame, ns, linkType, ifId, buf, off, capLen, origLen) -> {
                m.setCapture(frame, ns);
                last[0] = Math.max(last[0], ns);
                final DecodeResult r = decoder.decode(linkType, buf, off, capLen, m);
                counts[r.ordinal()]++;
                if (r == DecodeResult.CM_MAD) {
                    table.accept(m, reader.interfaceName(ifId));
                } else if (r == DecodeResult.ROCE_DATA && m.isCnp()) {
                    // every CNP, as an agent's filter keeps them all: counted for the data it is about
                    counts[CNPS]++;
                    if (dataMask >= 0) {
                        table.acceptCnp(m);
                    }
                } else if (r == DecodeResult.ROCE_DATA && dataMask >= 0 && (m.bthPsn() & dataMask) == 0) {
                    table.acceptData(m, reader.interfaceName(ifId));
                }
            };
            reader.readAll(h);
            if (last[0] != Long.MIN_VALUE) {
                // a REQ's timeout is judged at the time of the file's last packet
                table.expire(Math.floorDiv(last[0], 1000L));
            }
            final JsonBytes json = new JsonBytes(FLUSH_AT + 4096);
            table.snapshot((SessionRecord r) -> {
                r.appendJson(json);
                json.raw('\n');
                if (json.length() >= FLUSH_AT) {
                    drain(json, os);
                }
            });
            drain(json, os);
            os.close();
        }, () -> (dataMask < 0 || table.dataFlows() == 0 ? ""
            : "; data-learned: " + table.dataSessions() + " sessions, " + table.dataOneWay() + " one-way flows"
                + (table.dataBthRejected() > 0 ? ", " + table.dataBthRejected() + " data packets rejected" : "")
                + (table.dataPairAmbiguous() > 0 ? ", " + table.dataPairAmbiguous() + " ambiguous answers" : ""))
            + (table.cnpUnmatched() > 0 ? "; " + table.cnpUnmatched() + " CNPs of no session" : ""));
    }

    /** Where the counts of a file's results keep its CNPs (after one count per {@link DecodeResult}). */
    private static final int CNPS = DecodeResult.values().length;

    /** Data flows a file's {@code sessions} holds at most (the agent's default). */
    private static final int MAX_FLOWS = DataConfig.DEFAULT.maxFlows();

    static final String DECODE_USAGE = """
        usage: rst decode [--port UDP_PORT] FILE.pcap|FILE.pcapng
          One JSON object per line on stdout for every CM MAD, every PFC frame and every LLDP frame
          in the file, and one summary line on stderr (packets read, CM MADs, RoCE data and CNPs
          among them, PFC frames, LLDP frames, skipped by reason).
          --port UDP_PORT   the RoCEv2 UDP port (default 4791)
          Exit status: 0 done, 1 the file is missing, unreadable or not a capture, 2 bad usage.""";

    static final String SESSIONS_USAGE = """
        usage: rst sessions [--port UDP_PORT] [--data-sample N] FILE.pcap|FILE.pcapng
          One JSON object per line on stdout for every RDMA session in the file, as it stands after
          the file's last packet (time-outs are judged at that packet's time), and one summary line
          on stderr. Sessions set up with CM, and those learnt from data packets (learned_from
          "data"): RC QP pairs paired by the PSNs of their answers, and one-way flows (UC, UD, RC
          whose other direction is not in the file).
          --port UDP_PORT   the RoCEv2 UDP port (default 4791)
          --data-sample N   use the data packets whose PSN is a multiple of N, as an agent with
                            --data-sample N would (a power of two; default 1: all; 0: none)
          Exit status: 0 done, 1 the file is missing, unreadable or not a capture, 2 bad usage.""";

    static final String GEN_USAGE = """
        usage: rst gen --out FILE [--sessions N] [--hosts N] [--storm [--established]] [--all-types]
                       [--data-storm [--frames N] [--congestion]] [--seed S] [--start SECONDS] [--ip 4|6|0]
                       [--vlans 0|1|2|-1] [--nanos] [--port P]
          Writes generated CM traffic (RoCEv2 over Ethernet) to a pcap file. By default: live
          sessions, each REQ REP RTU between a random pair of --hosts hosts (10.0.R.11 to 10.0.R.14,
          four per rack), which stay ESTABLISHED in `rst sessions` and in an agent that replays the
          file (`rst agent --replay FILE`).
          --out FILE        the file to write (required)
          --sessions N      connections (default 1000)
          --hosts N         hosts the live sessions run between (2 to 1016, default 16; not with
                            --storm or --all-types)
          --storm           a connection storm instead (benchmarks): each connection between two
                            addresses of its own, REQ REP RTU DREQ DREP, so it ends CLOSED
          --established     with --storm: stop each connection after RTU, so it stays live
          --all-types       every CM message and lifecycle case in turn (tests)
          --data-storm      RC data traffic without CM instead (benchmarks): --sessions QP pairs,
                            each between two IPv4 addresses of its own (10.64.0.0/10) with random
                            QPNs and initial PSNs, taking turns at a WRITE and
                            its ACK (either way) or a READ and its response; an agent with
                            --data-sample 1 pairs each into one data-learned session
          --frames N        with --data-storm: frames in all (default 1000000)
          --congestion      with --data-storm: the data ECT(0), every 8th turn's request CE-marked
                            and answered by a CNP, and a PFC frame pausing priority 3 after every
                            1000 frames (the congestion counting benchmark)
          --seed S          random seed (default 1); the same seed and --start make the same file
          --start SECONDS   time of the first packet, seconds since the epoch (default: now)
          --ip 4|6|0        IPv4, IPv6, or both in turn (default 4)
          --vlans 0|1|2|-1  VLAN tags per frame: none, 802.1Q, QinQ, or each in turn (default 0)
          --nanos           nanosecond time stamps (default microseconds)
          --port P          RoCEv2 UDP destination port (default 4791)
          Exit status: 0 written, 1 cannot write the file, 2 bad usage.""";

    @SuppressWarnings("checkstyle:RegexpSinglelineJava") // errors go to the stream it is given, not the console
    static int gen(final String[] args, final PrintStream out, final PrintStream err) {
        if (Main.wantsHelp(args)) {
            out.println(GEN_USAGE);
            return 0;
        }
        String file = null;
        int sessions = 1000;
        int hosts = 16;
        boolean hostsGiven = false;
        long seed = 1;
        boolean all = false;
        boolean storm = false;
        int ip = 4;
        int vlans = 0;
        boolean nanos = false;
        int port = FrameDecoder.ROCEV2_PORT;
        boolean established = false;
        boolean dataStorm = false;
        boolean congestion = false;
        long dataFrames = -1;
        long startSeconds = System.currentTimeMillis() / 1000L;
        try {
            for (int i = 0; i < args.length; i++) {
                final String a = args[i];
                switch (a) {
                    case "--all-types" -> all = true;
                    case "--storm" -> storm = true;
                    case "--nanos" -> nanos = true;
                    case "--established" -> established = true;
                    case "--data-storm" -> dataStorm = true;
                    case "--congestion" -> congestion = true;
                    case "--out", "--sessions", "--hosts", "--seed", "--start", "--ip", "--vlans", "--port",
                            "--frames" -> {
                        if (i + 1 >= args.length) {
                            throw new IllegalArgumentException(a + " needs a value");
                        }
                        final String v = args[++i];
                        switch (a) {
                            case "--out" -> file = v;
                            case "--sessions" -> sessions = number(a, v, 0, Integer.MAX_VALUE);
                            case "--hosts" -> {
                                hosts = number(a, v, 2, 1016);
                                hostsGiven = true;
                            }
                            case "--seed" -> seed = number(a, v, Long.MIN_VALUE, Long.MAX_VALUE);
                            case "--start" -> startSeconds = number(a, v, 0, 4_000_000_000L);
                            case "--ip" -> ip = number(a, v, 0, 6);
                            case "--vlans" -> vlans = number(a, v, -1, 2);
                            case "--port" -> port = number(a, v, 1, 65535);
                            case "--frames" -> dataFrames = number(a, v, 2, Long.MAX_VALUE);
                            default -> throw new IllegalStateException(a);
                        }
                    }
                    default -> throw new IllegalArgumentException("unknown option '" + a + "'");
                }
            }
            if (file == null) {
                throw new IllegalArgumentException("--out FILE is required");
            }
            if (ip != 0 && ip != 4 && ip != 6) {
                throw new IllegalArgumentException("--ip wants 4, 6 or 0 (both), got " + ip);
            }
            if (all && (storm || established || hostsGiven)) {
                throw new IllegalArgumentException("--all-types makes its own scenarios: not with --storm,"
                    + " --established or --hosts");
            }
            if (storm && hostsGiven) {
                throw new IllegalArgumentException("--hosts is for live sessions, not with --storm");
            }
            if (dataStorm && (all || storm || established || hostsGiven || ip != 4 || vlans != 0 || nanos
                    || port != FrameDecoder.ROCEV2_PORT)) {
                throw new IllegalArgumentException("--data-storm takes --sessions, --frames, --congestion, --seed and"
                    + " --start only");
            }
            if (congestion && !dataStorm) {
                throw new IllegalArgumentException("--congestion is for --data-storm");
            }
            if (!dataStorm && dataFrames >= 0) {
                throw new IllegalArgumentException("--frames is for --data-storm");
            }
            if (dataStorm && sessions > 1 << 21) {
                throw new IllegalArgumentException("--data-storm makes at most " + (1 << 21) + " QP pairs");
            }
            if (dataStorm && sessions == 0) {
                throw new IllegalArgumentException("--data-storm needs at least one QP pair (--sessions)");
            }
        } catch (IllegalArgumentException e) {
            err.println("rst gen: " + e.getMessage() + Main.seeHelp("gen"));
            return 2;
        }
        if (dataStorm) {
            try {
                final long n = new DataTrafficGenerator(sessions, dataFrames < 0 ? 1_000_000 : dataFrames, seed,
                    startSeconds * 1_000_000_000L, congestion).write(Path.of(file));
                err.println("rst gen: " + file + ": " + n + " frames, " + sessions
                    + " QP pairs: RC data without CM (data storm" + (congestion ? ", with CE marks, CNPs and PFC" : "")
                    + ")");
                return 0;
            } catch (IOException e) {
                err.println("rst gen: " + file + ": " + e.getMessage());
                return 1;
            }
        }
        final CmTrafficGenerator g = new CmTrafficGenerator(new CmTrafficGenerator.Options(sessions, seed, all, ip,
            vlans, nanos, port, startSeconds * 1_000_000_000L));
        final String what;
        if (all) {
            what = "all CM message types and lifecycle cases";
        } else if (storm) {
            if (established) {
                // REQ REP RTU only: every connection stays a live session (memory benchmarks)
                g.stopAfter(3);
            }
            what = established ? "connection storm left ESTABLISHED" : "connection storm, each CLOSED";
        } else {
            g.hostPool(hosts).stopAfter(3);
            what = "live sessions (ESTABLISHED) between " + hosts + " hosts";
        }
        try {
            final long n = g.write(Path.of(file));
            err.println("rst gen: " + file + ": " + n + " frames, " + sessions + " sessions: " + what);
            return 0;
        } catch (IOException e) {
            err.println("rst gen: " + file + ": " + e.getMessage());
            return 1;
        }
    }

    private static int number(final String opt, final String value, final int min, final int max) {
        return (int) number(opt, value, (long) min, (long) max);
    }

    private static long number(final String opt, final String value, final long min, final long max) {
        final long n;
        try {
            n = Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(opt + " wants a number, got '" + value + "'", e);
        }
        if (n < min || n > max) {
            throw new IllegalArgumentException(opt + " out of range (" + min + ".." + max + "): " + value);
        }
        return n;
    }

    private interface Body {
        void run(CaptureFileReader reader) throws IOException;
    }

    private static int runFile(final String cmd, final String file, final PrintStream err, final long[] counts,
            final Body body) {
        return runFile(cmd, file, err, counts, body, () -> "");
    }

    @SuppressWarnings("checkstyle:RegexpSinglelineJava") // errors go to the stream it is given, not the console
    private static int runFile(final String cmd, final String file, final PrintStream err, final long[] counts,
            final Body body, final java.util.function.Supplier<String> more) {
        final Path path = Path.of(file);
        if (Files.isDirectory(path)) {
            err.println("rst " + cmd + ": " + file + ": is a directory, not a capture file");
            return 1;
        }
        try (CaptureFileReader reader = CaptureFileReader.open(path)) {
            body.run(reader);
            err.println(summary(cmd, file, reader, counts) + more.get());
            return 0;
        } catch (NoSuchFileException e) {
            err.println("rst " + cmd + ": " + file + ": no such file");
        } catch (NotACaptureException e) {
            err.println("rst " + cmd + ": " + file + ": " + e.getMessage());
        } catch (IOException e) {
            err.println("rst " + cmd + ": " + file + ": cannot read: " + e.getMessage());
        } catch (UncheckedIOException e) {
            err.println("rst " + cmd + ": " + file + ": cannot write output: " + e.getCause().getMessage());
        }
        return 1;
    }

    static String summary(final String cmd, final String file, final CaptureFileReader reader, final long[] counts) {
        final StringBuilder sb = new StringBuilder(160);
        long skipped = 0;
        for (DecodeResult r : DecodeResult.values()) {
            if (r.isSkipped()) {
                skipped += counts[r.ordinal()];
            }
        }
        sb.append("rst ").append(cmd).append(": ").append(file).append(": ").append(reader.frames())
            .append(" packets read, ").append(counts[DecodeResult.CM_MAD.ordinal()]).append(" CM MADs, ")
            .append(counts[DecodeResult.ROCE_DATA.ordinal()]).append(" RoCE data");
        if (counts[CNPS] > 0) {
            sb.append(" (").append(counts[CNPS]).append(" CNPs)");
        }
        if (counts[DecodeResult.PFC.ordinal()] > 0) {
            sb.append(", ").append(counts[DecodeResult.PFC.ordinal()]).append(" PFC frames");
        }
        if (counts[DecodeResult.LLDP.ordinal()] > 0) {
            sb.append(", ").append(counts[DecodeResult.LLDP.ordinal()]).append(" LLDP frames");
        }
        sb.append(", ").append(skipped).append(" skipped");
        if (skipped > 0) {
            sb.append(" (");
            boolean first = true;
            for (DecodeResult r : DecodeResult.values()) {
                if (r.isSkipped() && counts[r.ordinal()] > 0) {
                    sb.append(first ? "" : ", ").append(r.reason()).append(' ').append(counts[r.ordinal()]);
                    first = false;
                }
            }
            sb.append(')');
        }
        if (reader.damage() != null) {
            sb.append("; file damaged: ").append(reader.damage());
        }
        return sb.toString();
    }

    private static void drain(final JsonBytes json, final OutputStream os) {
        try {
            json.drainTo(os);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private record Parsed(String file, int port, int dataSample) {
    }

    @SuppressWarnings("checkstyle:RegexpSinglelineJava") // errors go to the stream it is given, not the console
    private static @Nullable Parsed parse(final String cmd, final String[] args, final PrintStream err) {
        String file = null;
        int port = FrameDecoder.ROCEV2_PORT;
        int dataSample = 1;
        try {
            for (int i = 0; i < args.length; i++) {
                final String a = args[i];
                if ("--port".equals(a)) {
                    if (i + 1 >= args.length) {
                        throw new IllegalArgumentException("--port needs a value");
                    }
                    port = number(a, args[++i], 0, 0xffff);
                } else if ("--data-sample".equals(a) && "sessions".equals(cmd)) {
                    if (i + 1 >= args.length) {
                        throw new IllegalArgumentException("--data-sample needs a value");
                    }
                    dataSample = number(a, args[++i], 0, 1 << 24);
                    if (Integer.bitCount(dataSample) > 1) {
                        throw new IllegalArgumentException("--data-sample wants 0 or a power of two, got "
                            + dataSample);
                    }
                } else if (a.startsWith("-") && a.length() > 1) {
                    throw new IllegalArgumentException("unknown option '" + a + "'");
                } else if (file != null) {
                    throw new IllegalArgumentException("one FILE only, got '" + file + "' and '" + a + "'");
                } else {
                    file = a;
                }
            }
            if (file == null) {
                throw new IllegalArgumentException("no FILE given");
            }
        } catch (IllegalArgumentException e) {
            err.println("rst " + cmd + ": " + e.getMessage() + Main.seeHelp(cmd));
            return null;
        }
        return new Parsed(file, port, dataSample);
    }
}
