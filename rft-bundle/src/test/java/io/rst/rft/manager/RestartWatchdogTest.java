/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.manager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The restart watchdog, in child JVMs: a JVM whose restart hangs (a thread named like the
 * framework's stop parked for good, as in OpenDaylight's singleton provider) is ended with status
 * 10, the status Karaf's launcher restarts on, and the log names where it hung; a JVM that
 * finishes its restart in time exits on its own; without a restart asked the watchdog stays off.
 */
class RestartWatchdogTest {
    /** The name of the thread the watchdog starts when armed. */
    private static final String WATCHDOG_THREAD = "rst-restart-watchdog";

    /** A child JVM: asks for a restart, arms the watchdog, then hangs or exits. */
    public static final class Child {
        @SuppressWarnings("checkstyle:RegexpSinglelineJava") // the test reads what the child prints
        public static void main(final String[] args) throws InterruptedException {
            if (!"no-restart".equals(args[0])) {
                System.setProperty("karaf.restart.jvm", "true");
            }
            System.setProperty(RestartWatchdog.GRACE_PROPERTY, "1");
            System.out.println("armed=" + RestartWatchdog.armIfRestarting());
            System.out.println("again=" + RestartWatchdog.armIfRestarting());
            // what could end this JVM: the watchdog's thread, if one was started
            System.out.println("watchdog=" + Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> WATCHDOG_THREAD.equals(t.getName()) && t.isAlive()));
            System.out.flush();
            if ("exits".equals(args[0])) {
                System.exit(0);
            }
            final var stop = Thread.ofPlatform().name("Framework stop - test").start(() -> {
                try {
                    new CountDownLatch(1).await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            if ("no-restart".equals(args[0])) {
                // no watchdog thread runs (the child printed so): nothing is left to end it
                System.exit(3);
            }
            stop.join();
        }
    }

    private record Run(int status, String out, long millis) {
    }

    private static Run child(final String mode) throws IOException, InterruptedException {
        final var java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        final long start = System.nanoTime();
        final var process = new ProcessBuilder(List.of(java, "-cp", System.getProperty("java.class.path"),
            Child.class.getName(), mode)).redirectErrorStream(true).start();
        final var out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the child did not end: " + out);
        return new Run(process.exitValue(), out, (System.nanoTime() - start) / 1_000_000);
    }

    @Test
    void aHungRestartEndsWithTheRestartStatus() throws Exception {
        final var run = child("hangs");
        assertEquals(RestartWatchdog.RESTART_STATUS, run.status(), run.out());
        assertTrue(run.out().contains("armed=true"), run.out());
        assertTrue(run.out().contains("again=false"), run.out());
        assertTrue(run.out().contains("watchdog=true"), run.out());
        assertTrue(run.out().contains("did not finish in 1 s"), run.out());
        assertTrue(run.out().contains("\"Framework stop - test\""), run.out());
        assertTrue(run.out().contains("CountDownLatch.await"), run.out());
    }

    @Test
    void aRestartThatFinishesIsLeftAlone() throws Exception {
        final var run = child("exits");
        assertEquals(0, run.status(), run.out());
        assertTrue(run.out().contains("armed=true"), run.out());
        assertFalse(run.out().contains("did not finish"), run.out());
    }

    @Test
    void noRestartNoWatchdog() throws Exception {
        final var run = child("no-restart");
        assertEquals(3, run.status(), run.out());
        assertTrue(run.out().contains("armed=false"), run.out());
        assertTrue(run.out().contains("watchdog=false"), run.out());
        assertFalse(run.out().contains("did not finish"), run.out());
    }

    @Test
    void graceFromTheProperty() {
        System.clearProperty(RestartWatchdog.GRACE_PROPERTY);
        assertEquals(60, RestartWatchdog.grace().toSeconds());
        System.setProperty(RestartWatchdog.GRACE_PROPERTY, " 15 ");
        assertEquals(15, RestartWatchdog.grace().toSeconds());
        System.setProperty(RestartWatchdog.GRACE_PROPERTY, "soon");
        assertEquals(60, RestartWatchdog.grace().toSeconds());
        System.setProperty(RestartWatchdog.GRACE_PROPERTY, "0");
        assertEquals(60, RestartWatchdog.grace().toSeconds());
        System.clearProperty(RestartWatchdog.GRACE_PROPERTY);
    }
}
