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

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Network namespaces for tests that run real agents and real traffic: namespaces named
 * {@code rstt-RANDOM-NAME}, veth links between them and one from the root namespace on a /30 of
 * this run's own (so that runs at the same time do not clash), commands and processes inside
 * them. Closing deletes the namespaces, and with them every veth that has an end in one. Needs
 * root and iproute2: {@link #assumeAvailable} skips a test without them.
 */
public final class Netns implements AutoCloseable {
    private final String prefix;
    private final byte[] random;
    private final List<String> made = new ArrayList<>();

    private Netns(final byte[] random) {
        this.random = random;
        prefix = "rstt-" + HexFormat.of().formatHex(random);
    }

    /** Skips the calling test unless it runs as root with iproute2 and each of {@code tools}. */
    public static void assumeAvailable(final String... tools) {
        assumeTrue("root".equals(System.getProperty("user.name")), "needs root for network namespaces");
        assumeTrue(executable("ip"), "needs iproute2");
        for (String tool : tools) {
            assumeTrue(executable(tool), "needs " + tool);
        }
    }

    private static boolean executable(final String name) {
        return List.of("/usr/sbin/", "/sbin/", "/usr/bin/", "/bin/").stream()
            .anyMatch(d -> Files.isExecutable(Path.of(d + name)));
    }

    /** New namespaces of these short names (deleted again if making one fails). */
    public static Netns create(final String... names) throws IOException, InterruptedException {
        final Netns n = new Netns(new SecureRandom().generateSeed(3));
        try {
            for (String name : names) {
                run("ip", "netns", "add", n.name(name));
                n.made.add(n.name(name));
            }
        } catch (IOException | InterruptedException | AssertionError e) {
            n.close();
            throw e;
        }
        return n;
    }

    /**
     * Two hosts routed through a switch: namespaces h1, sw and h2; h1 (10.77.1.1, port h1e) on the
     * switch's port s1 (10.77.1.254), h2 (10.77.2.1, port h2e) on its port s2 (10.77.2.254), each
     * host's default route through the switch, which forwards between them.
     */
    public static Netns twoHostsThroughASwitch() throws IOException, InterruptedException {
        final Netns n = create("h1", "sw", "h2");
        try {
            for (int h = 1; h <= 2; h++) {
                n.link("h" + h, "h" + h + "e", "10.77." + h + ".1/24", "sw", "s" + h, "10.77." + h + ".254/24");
                n.exec("h" + h, "ip", "route", "add", "default", "via", "10.77." + h + ".254");
            }
            n.exec("sw", "sysctl", "-qw", "net.ipv4.ip_forward=1");
            n.exec("sw", "ip", "link", "set", "lo", "up");
        } catch (IOException | InterruptedException | AssertionError e) {
            n.close();
            throw e;
        }
        return n;
    }

    /** The full name of namespace {@code name}. */
    public String name(final String name) {
        return prefix + "-" + name;
    }

    /** What the names of this run start with ({@code rstt-} and six hex digits). */
    public String prefix() {
        return prefix;
    }

    /**
     * A veth link from {@code ifA} in namespace {@code nsA} to {@code ifB} in {@code nsB}, both
     * ends up, each with its address (CIDR) unless null. Both ends are made in their namespaces:
     * names in the root namespace would clash with other runs'.
     */
    public void link(final String nsA, final String ifA, final String addressA, final String nsB, final String ifB,
            final String addressB) throws IOException, InterruptedException {
        run("ip", "link", "add", ifA, "netns", name(nsA), "type", "veth", "peer", "name", ifB, "netns", name(nsB));
        up(nsA, ifA, addressA);
        up(nsB, ifB, addressB);
    }

    private void up(final String ns, final String ifName, final String address)
            throws IOException, InterruptedException {
        if (address != null) {
            exec(ns, "ip", "addr", "add", address, "dev", ifName);
        }
        exec(ns, "ip", "link", "set", ifName, "up");
    }

    /**
     * A management link from the root namespace (this JVM) to {@code ifName} in namespace
     * {@code ns}, on a /30 in 10.76.0.0/16 of this run's own; returns the address of the
     * namespace's end.
     */
    public String management(final String ns, final String ifName) throws IOException, InterruptedException {
        final String net = "10.76." + (random[0] & 0xff) + ".";
        final int first = (random[1] & 0x3f) << 2;
        // the root namespace's end: rstt, the run's six hex digits, m (an interface name of 11)
        final String root = prefix.replace("-", "") + "m";
        run("ip", "link", "add", root, "type", "veth", "peer", "name", ifName, "netns", name(ns));
        run("ip", "addr", "add", net + (first + 1) + "/30", "dev", root);
        run("ip", "link", "set", root, "up");
        up(ns, ifName, net + (first + 2) + "/30");
        return net + (first + 2);
    }

    /** Runs a command in namespace {@code ns} to its end; fails the test unless it exits 0. */
    public void exec(final String ns, final String... cmd) throws IOException, InterruptedException {
        run(inNamespace(ns, cmd));
    }

    /**
     * Starts a command in namespace {@code ns}, its output (and errors) to {@code output}. {@code ip
     * netns exec} execs the command: the process is the command's, and destroying it signals it.
     */
    public Process start(final String ns, final ProcessBuilder.Redirect output, final String... cmd)
            throws IOException {
        return new ProcessBuilder(inNamespace(ns, cmd)).redirectErrorStream(true).redirectOutput(output).start();
    }

    private String[] inNamespace(final String ns, final String... cmd) {
        final List<String> c = new ArrayList<>(List.of("ip", "netns", "exec", name(ns)));
        c.addAll(List.of(cmd));
        return c.toArray(String[]::new);
    }

    /** Runs a command to its end (at most a minute); fails the test unless it exits 0. */
    public static void run(final String... cmd) throws IOException, InterruptedException {
        final Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), String.join(" ", cmd));
        assertEquals(0, p.exitValue(), String.join(" ", cmd) + ": " + out);
    }

    /**
     * A command line that runs {@code args} (JVM options, then a main class and its arguments) in
     * a new JVM of this one's kind, on this one's class path.
     */
    public static String[] java(final String... args) {
        final List<String> c = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
            .toString(), "-cp", System.getProperty("java.class.path")));
        c.addAll(List.of(args));
        return c.toArray(String[]::new);
    }

    @Override
    public void close() throws IOException, InterruptedException {
        for (String n : made) {
            // deleting a namespace deletes its veth ends, and so their peers
            new ProcessBuilder("ip", "netns", "del", n).inheritIO().start().waitFor();
        }
        made.clear();
    }
}
