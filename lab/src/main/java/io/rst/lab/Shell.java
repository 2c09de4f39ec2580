/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.lab;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs the commands the lab is made of ({@code ip}, {@code sysctl}, ...) and says what failed in
 * one line: the command and what it printed.
 */
final class Shell {
    private Shell() {
        // utility
    }

    /** Runs a command; its output, or a {@link LabException} naming the command and its error. */
    static String run(final List<String> cmd) {
        return run(cmd, null, true);
    }

    static String run(final String... cmd) {
        return run(List.of(cmd));
    }

    static String run(final List<String> cmd, final String stdin, final boolean check) {
        try {
            final Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            if (stdin != null) {
                try (OutputStream in = p.getOutputStream()) {
                    in.write(stdin.getBytes(StandardCharsets.UTF_8));
                }
            } else {
                p.getOutputStream().close();
            }
            final String out;
            try (InputStream o = p.getInputStream()) {
                out = new String(o.readAllBytes(), StandardCharsets.UTF_8);
            }
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new LabException("timed out: " + String.join(" ", cmd));
            }
            if (check && p.exitValue() != 0) {
                throw new LabException(String.join(" ", cmd) + " failed (" + p.exitValue() + "): " + out.strip());
            }
            return out;
        } catch (IOException e) {
            throw new LabException("cannot run " + cmd.get(0) + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LabException("interrupted: " + String.join(" ", cmd), e);
        }
    }

    /** Runs a command and ignores its failure (for clean-up of what may not exist). */
    static String quiet(final String... cmd) {
        return run(List.of(cmd), null, false);
    }

    /** {@code ip [-n NS] -batch -} with one command per line; {@code ns} null for the root namespace. */
    static String ipBatch(final String ns, final List<String> lines, final boolean oneLine) {
        if (lines.isEmpty()) {
            return "";
        }
        final List<String> cmd = new ArrayList<>(List.of("ip"));
        if (oneLine) {
            cmd.add("-o");
        }
        if (ns != null) {
            cmd.add("-n");
            cmd.add(ns);
        }
        cmd.add("-batch");
        cmd.add("-");
        return run(cmd, String.join("\n", lines) + "\n", true);
    }
}
