/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code rst agent}'s answers before it starts anything: its usage, and bad options. */
class AgentCommandTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(final String... args) {
        out.reset();
        err.reset();
        return AgentCommand.run(List.of(args), new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8), AgentCommand::countingProcessor);
    }

    @Test
    void helpPrintsTheUsageOnStdoutAndStartsNothing() {
        for (List<String> args : List.of(List.of("--help"), List.of("-h"),
                List.of("--listen", "127.0.0.1:1", "--help"))) {
            assertEquals(0, run(args.toArray(String[]::new)), args.toString());
            final String usage = out.toString(StandardCharsets.UTF_8);
            assertTrue(usage.startsWith("usage: rst agent "), usage);
            // every option the parser knows is in the usage
            for (String opt : List.of("--interface", "--listen", "--token-file", "--state-dir", "--all-roce",
                    "--udp-port", "--max-sessions", "--retention", "--retain-events", "--retain-mb", "--replay",
                    "--agent-id", "--queue-frames", "--buffer-mb", "--data-sample", "--max-flows", "--data-idle",
                    "--data-report-ms")) {
                assertTrue(usage.contains("\n  " + opt + " "), opt + " is not described");
            }
            assertEquals("", err.toString(StandardCharsets.UTF_8));
        }
    }

    @Test
    void badOptionsAreOneLineWithStatusTwo() {
        for (List<String> args : List.of(List.of("--bogus"), List.of("--listen"), List.of("--listen", "nowhere"),
                List.of("--token", "secret"), List.of("--max-sessions", "0"), List.of("--buffer-mb", "x"),
                List.of("--max-flows", "3"), List.of("--data-idle", "0"), List.of("--data-report-ms", "-1"),
                List.of("--max-flows"))) {
            assertEquals(2, run(args.toArray(String[]::new)), args.toString());
            final List<String> e = err.toString(StandardCharsets.UTF_8).lines().toList();
            assertEquals(1, e.size(), args + ": " + e);
            assertTrue(e.get(0).startsWith("rst agent: ") && e.get(0).endsWith("(see: rst agent --help)"), e.get(0));
            assertEquals("", out.toString(StandardCharsets.UTF_8));
        }
    }
}
