/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/cli.md shows each command's usage as the code prints it: every block between
 * {@code <!-- usage: ./rst CMD --help -->} and {@code <!-- /usage -->} equals the output of that
 * command (the tools' usages from {@link Main}, the launcher's from {@code bash rst CMD --help} at
 * the repository's root), and every command has its block. scripts/cli-docs.sh writes the blocks.
 */
class CliDocsTest {
    private static final Path ROOT = Path.of(System.getProperty("user.dir")).getParent();
    private static final Path DOC = ROOT.resolve("docs/cli.md");
    private static final String FIX = "docs/cli.md differs from the code: run scripts/cli-docs.sh "
        + "(after mvn -pl lab -am package -DskipTests) and commit docs/cli.md";
    /** The commands the tools jar answers for. */
    private static final List<String> JAVA_COMMANDS = List.of("decode", "sessions", "gen", "agent");
    /** The launcher's own usages, as arguments to ./rst. */
    private static final List<String> LAUNCHER_COMMANDS = List.of("--help", "build --help", "test --help",
        "controller --help", "stop --help", "demo --help", "certs --help", "agent-image --help", "bench --help",
        "bench decode --help", "bench agent --help", "bench agent-image --help", "bench lab --help",
        "bench tls --help", "bench ingest --help", "bench crash --help", "bench dsbench --help");
    private static final Pattern BLOCK = Pattern.compile(
        "<!-- usage: (.+?) -->\n```text\n(.*?)\n```\n<!-- /usage -->", Pattern.DOTALL);
    private static final Pattern MARKER = Pattern.compile("<!-- usage: (.+?) -->");

    /** The usage blocks of a doc, by the command in their marker (such as {@code ./rst gen --help}). */
    static Map<String, String> blocks(final Path doc) throws IOException {
        final String text = Files.readString(doc, StandardCharsets.UTF_8);
        final Map<String, String> blocks = new LinkedHashMap<>();
        final Matcher m = BLOCK.matcher(text);
        while (m.find()) {
            assertNull(blocks.put(m.group(1), m.group(2)), doc + ": two blocks for " + m.group(1));
        }
        final Matcher markers = MARKER.matcher(text);
        int count = 0;
        while (markers.find()) {
            count++;
        }
        assertEquals(count, blocks.size(), doc + ": a usage marker without a well-formed block (```text ... ``` "
            + "then <!-- /usage -->): " + FIX);
        return blocks;
    }

    private static String trimEnd(final String text) {
        return text.replaceAll("\\n+\\z", "");
    }

    @Test
    void everyCommandHasOneBlockAndNoBlockGoesUnchecked() throws IOException {
        final List<String> expected = new ArrayList<>();
        JAVA_COMMANDS.forEach(c -> expected.add("./rst " + c + " --help"));
        LAUNCHER_COMMANDS.forEach(c -> expected.add("./rst " + c));
        assertEquals(expected.stream().sorted().toList(), blocks(DOC).keySet().stream().sorted().toList(),
            "usage blocks in docs/cli.md: " + FIX);
    }

    @Test
    void theToolsUsagesAreTheDocs() throws IOException {
        final Map<String, String> blocks = blocks(DOC);
        for (String cmd : JAVA_COMMANDS) {
            final ByteArrayOutputStream out = new ByteArrayOutputStream();
            final ByteArrayOutputStream err = new ByteArrayOutputStream();
            final int status = Main.run(new String[] {cmd, "--help"},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
            assertEquals(0, status, cmd + " --help: " + err.toString(StandardCharsets.UTF_8));
            final String key = "./rst " + cmd + " --help";
            assertTrue(blocks.containsKey(key), "no block for " + key + ": " + FIX);
            assertEquals(trimEnd(out.toString(StandardCharsets.UTF_8)), blocks.get(key), key + ": " + FIX);
        }
    }

    @Test
    void theLaunchersUsagesAreTheDocs() throws Exception {
        assumeTrue(Files.isExecutable(ROOT.resolve("rst")), "no ./rst beside this module: launcher usages not checked");
        final Map<String, String> blocks = blocks(DOC);
        for (String args : LAUNCHER_COMMANDS) {
            final List<String> cmd = new ArrayList<>(List.of("bash", "rst"));
            cmd.addAll(List.of(args.split(" ")));
            final Path err = Files.createTempFile("cli-docs", ".err");
            try {
                final Process p = new ProcessBuilder(cmd).directory(ROOT.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                    .redirectError(err.toFile()).start();
                final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertTrue(p.waitFor(60, TimeUnit.SECONDS), "./rst " + args + " did not end");
                assertEquals(0, p.exitValue(), "./rst " + args + ": " + Files.readString(err));
                final String key = "./rst " + args;
                assertTrue(blocks.containsKey(key), "no block for " + key + ": " + FIX);
                assertEquals(trimEnd(out), blocks.get(key), key + ": " + FIX);
            } finally {
                Files.deleteIfExists(err);
            }
        }
    }
}
