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
import io.rst.rft.pcap.NotACaptureException;
import io.rst.rft.pcap.PacketHandler;
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

/**
 * The file subcommands: {@code decode FILE}, {@code sessions FILE} and {@code gen --out F ...}.
 * Output is JSON lines on {@code out}; the summary (packets read, CM MADs, skipped by reason) and
 * errors go to {@code err}. Exit status: 0 ok, 1 unreadable or not a capture, 2 bad usage.
 */
final class FileCommands {
    private static final int FLUSH_AT = 1 << 16;

    private FileCommands() {
    }

    static int decode(final String[] args, final PrintStream out, final PrintStream err) {
        final Parsed p = parse("decode", args, err);
        if (p == null) {
            return 2;
        }
        final FrameDecoder decoder = new FrameDecoder(p.port);
        final CmMessage m = new CmMessage();
        final JsonBytes json = new JsonBytes(FLUSH_AT + 4096);
        final long[] counts = new long[DecodeResult.values().length];
        final OutputStream os = new AsyncBlockOutput(out);
        return runFile("decode", p.file, err, counts, reader -> {
            m.setTimeDigits(reader.timeDigits());
            final PacketHandler h = (frame, ns, linkType, ifId, buf, off, capLen, origLen) -> {
                m.setCapture(frame, ns);
                final DecodeResult r = decoder.decode(linkType, buf, off, capLen, m);
                counts[r.ordinal()]++;
                if (r == DecodeResult.CM_MAD) {
                    m.appendJson(json);
                    json.raw('\n');
                    if (json.length() >= FLUSH_AT) {
                        drain(json, os);
                    }
                }
            };
            reader.readAll(h);
            drain(json, os);
            os.close();
        });
    }

    static int sessions(final String[] args, final PrintStream out, final PrintStream err) {
        final Parsed p = parse("sessions", args, err);
        if (p == null) {
            return 2;
        }
        final FrameDecoder decoder = new FrameDecoder(p.port);
        final CmMessage m = new CmMessage();
        final long[] counts = new long[DecodeResult.values().length];
        // a file is judged as a whole: nothing ages out, the table holds what the file holds
        final SessionTable table = new SessionTable(new SessionConfig(Integer.MAX_VALUE, Long.MAX_VALUE, 0L, 256),
            null);
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
        });
    }

    static int gen(final String[] args, final PrintStream out, final PrintStream err) {
        String file = null;
        int sessions = 1000;
        long seed = 1;
        boolean all = false;
        int ip = 4;
        int vlans = 0;
        boolean nanos = false;
        int port = FrameDecoder.ROCEV2_PORT;
        boolean established = false;
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--out" -> file = args[++i];
                    case "--sessions" -> sessions = Integer.parseInt(args[++i]);
                    case "--seed" -> seed = Long.parseLong(args[++i]);
                    case "--all-types" -> all = true;
                    case "--ip" -> ip = Integer.parseInt(args[++i]);
                    case "--vlans" -> vlans = Integer.parseInt(args[++i]);
                    case "--nanos" -> nanos = true;
                    case "--established" -> established = true;
                    case "--port" -> port = Integer.parseInt(args[++i]);
                    default -> throw new IllegalArgumentException("unknown option " + args[i]);
                }
            }
            if (file == null || sessions < 0 || established && all || ip != 0 && ip != 4 && ip != 6 || vlans < -1
                    || vlans > 2) {
                throw new IllegalArgumentException("bad arguments");
            }
        } catch (IllegalArgumentException | ArrayIndexOutOfBoundsException e) {
            err.println("usage: rst gen --out FILE [--sessions N] [--seed S] [--all-types] [--ip 4|6|0]"
                + " [--vlans 0|1|2|-1] [--nanos] [--port P] [--established]   (" + e.getMessage() + ")");
            return 2;
        }
        final CmTrafficGenerator g = new CmTrafficGenerator(new CmTrafficGenerator.Options(sessions, seed, all, ip,
            vlans, nanos, port, 1_767_225_600_000_000_000L));
        if (established) {
            // REQ REP RTU only: every connection stays a live session (memory benchmarks)
            g.stopAfter(3);
        }
        try {
            final long n = g.write(Path.of(file));
            err.println("rst gen: " + file + ": " + n + " frames, " + sessions + " sessions");
            return 0;
        } catch (IOException e) {
            err.println("rst gen: " + file + ": " + e.getMessage());
            return 1;
        }
    }

    private interface Body {
        void run(CaptureFileReader reader) throws IOException;
    }

    private static int runFile(final String cmd, final String file, final PrintStream err, final long[] counts,
            final Body body) {
        final Path path = Path.of(file);
        if (Files.isDirectory(path)) {
            err.println("rst " + cmd + ": " + file + ": is a directory, not a capture file");
            return 1;
        }
        try (CaptureFileReader reader = CaptureFileReader.open(path)) {
            body.run(reader);
            err.println(summary(cmd, file, reader, counts));
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
            .append(counts[DecodeResult.ROCE_DATA.ordinal()]).append(" RoCE data, ").append(skipped)
            .append(" skipped");
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

    private record Parsed(String file, int port) {
    }

    private static Parsed parse(final String cmd, final String[] args, final PrintStream err) {
        String file = null;
        int port = FrameDecoder.ROCEV2_PORT;
        for (int i = 0; i < args.length; i++) {
            if ("--port".equals(args[i]) && i + 1 < args.length) {
                try {
                    port = Integer.parseInt(args[++i]);
                } catch (NumberFormatException e) {
                    port = -1;
                }
                if (port < 0 || port > 0xffff) {
                    err.println("rst " + cmd + ": bad --port " + args[i]);
                    return null;
                }
            } else if (file == null && !args[i].startsWith("--")) {
                file = args[i];
            } else {
                file = null;
                break;
            }
        }
        if (file == null) {
            err.println("usage: rst " + cmd + " [--port UDP_PORT] FILE.pcap|FILE.pcapng");
            return null;
        }
        return new Parsed(file, port);
    }
}
