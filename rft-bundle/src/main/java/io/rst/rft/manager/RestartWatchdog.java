/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.manager;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bounds the restart that OpenDaylight starts when this member is downed by the split-brain
 * resolver (a network cut) or quarantined: it sets {@code karaf.restart.jvm} and stops the OSGi
 * framework, and Karaf's launcher ({@code bin/karaf}) starts a new JVM when the old one exits with
 * status 10. That stop can hang for good: mdsal's cluster singleton provider waits, without a
 * timeout, for each singleton group this member owned to hand its cleanup entity back through the
 * entity ownership service, whose Pekko system the downing has already shut down. The member then
 * never comes back. Armed when the RFT manager is closed during such a restart, the watchdog ends
 * the JVM with status 10 after a grace period ({@value #GRACE_PROPERTY}, default 60 s) if it is
 * still alive, after logging what the framework's stop is waiting on. A normal stop (no restart
 * asked) is left alone.
 */
final class RestartWatchdog {
    /** The system property that sets the grace period, in seconds. */
    static final String GRACE_PROPERTY = "rst.restart.grace.seconds";
    /** The status Karaf's launcher restarts the JVM on. */
    static final int RESTART_STATUS = 10;

    private static final Logger LOG = LoggerFactory.getLogger(RestartWatchdog.class);
    private static final Duration DEFAULT_GRACE = Duration.ofSeconds(60);
    private static final AtomicBoolean ARMED = new AtomicBoolean();

    private RestartWatchdog() {
        // static only
    }

    /**
     * Arms the watchdog once per JVM when a restart of the JVM has been asked for.
     *
     * @return whether it was armed by this call
     */
    @SuppressWarnings("checkstyle:RegexpSinglelineJava") // before the JVM is halted, stderr says why
    static boolean armIfRestarting() {
        if (!Boolean.getBoolean("karaf.restart.jvm") || !ARMED.compareAndSet(false, true)) {
            return false;
        }
        final var grace = grace();
        LOG.warn("RST: the JVM is restarting (this member was downed or quarantined); if it has not "
            + "exited in {} s it is ended with status {} and Karaf's launcher starts it again", grace.toSeconds(),
            RESTART_STATUS);
        Thread.ofPlatform().name("rst-restart-watchdog").daemon().start(() -> {
            try {
                Thread.sleep(grace);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            final var message = "RST: the JVM's restart did not finish in " + grace.toSeconds()
                + " s; ending it with status " + RESTART_STATUS + " so that it starts again. Stuck: "
                + stuckStop();
            LOG.error(message);
            System.err.println(message);
            System.err.flush();
            try {
                // a moment for the log's appender
                Thread.sleep(500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            Runtime.getRuntime().halt(RESTART_STATUS);
        });
        return true;
    }

    static Duration grace() {
        final var value = System.getProperty(GRACE_PROPERTY);
        if (value != null) {
            try {
                final long seconds = Long.parseLong(value.strip());
                if (seconds > 0) {
                    return Duration.ofSeconds(seconds);
                }
            } catch (NumberFormatException e) {
                LOG.warn("RST: {}={} is not a number of seconds; using {} s", GRACE_PROPERTY, value,
                    DEFAULT_GRACE.toSeconds());
            }
        }
        return DEFAULT_GRACE;
    }

    /** The framework stop thread's top frames (where the stop waits), for the log. */
    private static String stuckStop() {
        final var out = new StringBuilder();
        for (Map.Entry<Thread, StackTraceElement[]> entry : Thread.getAllStackTraces().entrySet()) {
            if (entry.getKey().getName().startsWith("Framework stop")) {
                out.append('"').append(entry.getKey().getName()).append('"');
                final var frames = entry.getValue();
                for (int i = 0; i < Math.min(frames.length, 12); i++) {
                    out.append("\n    at ").append(frames[i]);
                }
            }
        }
        return out.isEmpty() ? "no framework stop thread found" : out.toString();
    }
}
