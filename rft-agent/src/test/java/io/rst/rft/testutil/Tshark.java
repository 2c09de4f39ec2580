/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.testutil;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** tshark, the reference decoder, for tests that compare with it: the fields it shows of each frame of a file. */
public final class Tshark {
    private Tshark() {
    }

    /** Skips the calling test unless tshark is on the PATH. */
    public static void assumeInstalled() {
        boolean found = false;
        for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            found |= !d.isEmpty() && Files.isExecutable(Path.of(d, "tshark"));
        }
        assumeTrue(found, "tshark is not installed (scripts/setup.sh --test-deps installs it): skipped");
    }

    /**
     * The {@code fields} tshark shows of each frame of {@code pcap} ({@code tshark -T fields}, with
     * {@code options} such as a display filter before them): a row per frame, the fields in
     * order, empty where the frame has none. Fails the test if tshark fails.
     */
    public static List<String[]> fields(final Path pcap, final List<String> options, final List<String> fields)
            throws IOException, InterruptedException {
        final List<String> cmd = new ArrayList<>(List.of("tshark", "-n", "-r", pcap.toString(), "-T", "fields",
            "-E", "separator=/t"));
        cmd.addAll(options);
        for (String f : fields) {
            cmd.add("-e");
            cmd.add(f);
        }
        final Path out = Files.createTempFile("tshark", ".tsv");
        final Path err = Files.createTempFile("tshark", ".err");
        try {
            final Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), "tshark finished");
            assertEquals(0, p.exitValue(), () -> "tshark failed: " + read(err));
            final List<String[]> rows = new ArrayList<>();
            for (String l : Files.readAllLines(out, StandardCharsets.UTF_8)) {
                rows.add(l.split("\t", -1));
            }
            return rows;
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    private static String read(final Path path) {
        try {
            return Files.readString(path);
        } catch (IOException e) {
            return e.toString();
        }
    }

    /**
     * A number field as tshark shows it: decimal, or hexadecimal after {@code 0x} (up to 64 bits,
     * unsigned); of a field shown both ways ({@code 10 (0x0a)}), the first; of a field that occurs
     * more than once in the frame ({@code 0x02,0x02}), the first occurrence.
     */
    public static long number(final String field) {
        final String s = field.split(",")[0].strip().split(" ")[0];
        return s.startsWith("0x") ? Long.parseUnsignedLong(s.substring(2), 16) : Long.parseLong(s);
    }
}
