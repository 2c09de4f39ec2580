/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.cli;

import io.rst.rft.agent.AgentCommand;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Entry point of the RFT tools jar ({@code rft-agent-VERSION-agent.jar}): {@code decode},
 * {@code sessions}, {@code gen} and {@code agent}. No OpenDaylight class is loaded on this path.
 */
public final class Main {
    private Main() {
        // entry point only
    }

    @SuppressWarnings("checkstyle:RegexpSinglelineJava") // the command line's entry point: it owns the console
    public static void main(final String[] args) {
        // the agent logs to stdout (slf4j-simple reads these before its first logger is made)
        setDefault("org.slf4j.simpleLogger.logFile", "System.out");
        setDefault("org.slf4j.simpleLogger.showDateTime", "true");
        setDefault("org.slf4j.simpleLogger.dateTimeFormat", "yyyy-MM-dd'T'HH:mm:ss.SSSXXX");
        // stdout without System.out's per-call locking and line flushing: output is written in blocks
        final PrintStream out =
            new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
        final int rc = run(args, out, System.err);
        out.flush();
        System.exit(rc);
    }

    private static void setDefault(final String key, final String value) {
        if (System.getProperty(key) == null) {
            System.setProperty(key, value);
        }
    }

    static final String USAGE = """
        usage: rst COMMAND [ARGS]   (java -jar rft-agent-VERSION-agent.jar COMMAND [ARGS])
          decode FILE          one JSON line per CM MAD in a pcap or pcapng file
          sessions FILE        one JSON line per RDMA session in a pcap or pcapng file
          gen --out FILE       write generated CM traffic to a pcap (live sessions by default)
          agent [OPTIONS]      the RFT switch agent: capture (or --replay FILE) and its HTTP API
        rst COMMAND --help prints a command's options.""";

    @SuppressWarnings("checkstyle:RegexpSinglelineJava") // usage and errors go to the streams it is given
    static int run(final String[] args, final PrintStream out, final PrintStream err) {
        if (args.length == 0) {
            err.println(USAGE);
            return 2;
        }
        final String[] rest = Arrays.copyOfRange(args, 1, args.length);
        return switch (args[0]) {
            case "decode" -> FileCommands.decode(rest, out, err);
            case "sessions" -> FileCommands.sessions(rest, out, err);
            case "gen" -> FileCommands.gen(rest, out, err);
            case "agent" -> AgentCommand.run(Arrays.asList(rest), out, err, AgentCommand::cmProcessor);
            case "--help", "-h", "help" -> {
                out.println(USAGE);
                yield 0;
            }
            default -> {
                err.println("rst: unknown command '" + args[0] + "'" + seeHelp(null));
                yield 2;
            }
        };
    }

    /** Whether the arguments ask for the usage ({@code --help} or {@code -h} anywhere). */
    static boolean wantsHelp(final String[] args) {
        for (String a : args) {
            if ("--help".equals(a) || "-h".equals(a)) {
                return true;
            }
        }
        return false;
    }

    /** The tail of a one-line usage error: where the usage is. */
    static String seeHelp(final String cmd) {
        return cmd == null ? " (see: rst --help)" : " (see: rst " + cmd + " --help)";
    }
}
