/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code ./rst} launcher at the repository's root, run as a user runs it: {@code --help} on it
 * and on every command prints the usage on stdout with status 0 (and starts nothing: no build, no
 * Karaf), and a wrong command or option is one line on stderr with a non-zero status. The tools
 * jar does not exist while this module's tests run, so the launcher gets ({@code RST_TOOLS_JAR}) a
 * manifest-only jar over this test's class path: the same {@code Main}, the same way in.
 */
class LauncherTest {
    private static final Path RST = Path.of(System.getProperty("user.dir")).getParent().resolve("rst");
    private static final List<String> SCRIPT_COMMANDS = List.of("build", "test", "controller", "stop", "bench", "demo");
    private static final List<String> JAR_COMMANDS = List.of("decode", "sessions", "agent", "gen");

    @TempDir
    static Path tmp;
    private static Path toolsJar;

    private record Result(int status, String out, String err) {
        List<String> errLines() {
            return err.lines().toList();
        }
    }

    @BeforeAll
    static void toolsJarOverThisClassPath() throws IOException {
        assumeTrue(Files.isExecutable(RST), "no ./rst beside this module: launcher test skipped");
        String cp = System.getProperty("surefire.test.class.path");
        if (cp == null || cp.isEmpty()) {
            cp = System.getProperty("java.class.path");
        }
        final StringBuilder urls = new StringBuilder();
        for (String e : cp.split(File.pathSeparator)) {
            if (!e.isEmpty()) {
                urls.append(urls.isEmpty() ? "" : " ").append(Path.of(e).toAbsolutePath().toUri());
            }
        }
        final Manifest m = new Manifest();
        m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        m.getMainAttributes().put(Attributes.Name.MAIN_CLASS, Main.class.getName());
        m.getMainAttributes().put(Attributes.Name.CLASS_PATH, urls.toString());
        toolsJar = tmp.resolve("tools.jar");
        try (OutputStream os = Files.newOutputStream(toolsJar)) {
            // the manifest is all
            new JarOutputStream(os, m).close();
        }
    }

    private static Result rst(final String... args) throws Exception {
        final List<String> cmd = new ArrayList<>(List.of("bash", RST.toString()));
        cmd.addAll(List.of(args));
        final ProcessBuilder pb = new ProcessBuilder(cmd).directory(tmp.toFile());
        pb.environment().put("RST_TOOLS_JAR", toolsJar.toString());
        final Path out = Files.createTempFile(tmp, "out", ".txt");
        final Path err = Files.createTempFile(tmp, "err", ".txt");
        pb.redirectOutput(out.toFile()).redirectError(err.toFile());
        final Process p = pb.start();
        // nothing to read: a command that asked would see the end of its input
        p.getOutputStream().close();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("./rst " + String.join(" ", args) + " did not end within 120 s");
        }
        return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
            Files.readString(err, StandardCharsets.UTF_8));
    }

    @Test
    void helpOfTheLauncherListsEveryCommand() throws Exception {
        for (String flag : List.of("--help", "-h", "help")) {
            final Result r = rst(flag);
            assertEquals(0, r.status(), flag + ": " + r.err());
            assertTrue(r.out().startsWith("usage: ./rst COMMAND"), r.out());
            for (String cmd : SCRIPT_COMMANDS) {
                assertTrue(r.out().contains("\n  " + cmd + " "), cmd + " missing from " + r.out());
            }
            for (String cmd : JAR_COMMANDS) {
                assertTrue(r.out().contains("\n  " + cmd + " "), cmd + " missing from " + r.out());
            }
            assertEquals("", r.err());
        }
        final Result none = rst();
        assertEquals(2, none.status());
        assertTrue(none.err().startsWith("usage: ./rst COMMAND"), none.err());
    }

    @Test
    void helpOfEveryCommandGoesToStdoutWithStatusZero() throws Exception {
        final List<String> all = new ArrayList<>(SCRIPT_COMMANDS);
        all.addAll(JAR_COMMANDS);
        for (String cmd : all) {
            for (String flag : List.of("--help", "-h")) {
                final Result r = rst(cmd, flag);
                assertEquals(0, r.status(), cmd + " " + flag + ": " + r.err());
                assertTrue(r.out().startsWith("usage: ./rst " + cmd) || r.out().startsWith("usage: rst " + cmd),
                    cmd + " " + flag + ": " + r.out());
                assertEquals("", r.err(), cmd + " " + flag);
            }
        }
        // every bench: a usage, and nothing started (bench lab once built a whole lab first)
        for (String bench : List.of("decode", "agent", "lab", "tls", "ingest", "crash", "cluster", "dsbench")) {
            final Result r = rst("bench", bench, "--help");
            assertEquals(0, r.status(), bench + ": " + r.err());
            assertTrue(r.out().startsWith("usage: ./rst bench " + bench), bench + ": " + r.out());
            assertEquals("", r.err(), bench);
        }
    }

    @Test
    void wrongCommandsAndOptionsAreOneLineAndNonZero() throws Exception {
        for (List<String> args : List.of(List.of("frobnicate"), List.of("--frobnicate"),
                List.of("controller", "--bogus"), List.of("stop", "--bogus"), List.of("bench"),
                List.of("bench", "frobnicate"), List.of("bench", "decode", "--bogus"), List.of("gen", "--bogus"),
                List.of("decode", "--bogus", "f.pcap"), List.of("agent", "--bogus"))) {
            final Result r = rst(args.toArray(String[]::new));
            assertNotEquals(0, r.status(), args.toString());
            assertEquals(1, r.errLines().size(), args + ": " + r.err());
            assertTrue(r.errLines().get(0).endsWith("--help)"), r.err());
            assertEquals("", r.out(), args.toString());
        }
    }
}
