/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.lab;

import com.sun.jna.Library;
import com.sun.jna.Native;
import java.util.concurrent.ThreadFactory;

/**
 * Threads that live in another network namespace. A Linux thread may join a network namespace
 * on its own ({@code setns(2)} with {@code CLONE_NEWNET}); every socket it then opens belongs to
 * that namespace, so one JVM sends the traffic of every lab host through the kernel's own stack
 * and routing, without a process per host.
 */
final class NetnsThreads {
    private static final int CLONE_NEWNET = 0x40000000;
    private static final int O_RDONLY = 0;

    /** The libc calls used, loaded once. */
    interface LibC extends Library {
        LibC INSTANCE = Native.load("c", LibC.class);

        int open(String path, int flags);

        int setns(int fd, int nstype);

        int close(int fd);
    }

    private NetnsThreads() {
        // utility
    }

    /** Moves the calling (platform) thread into the named namespace ({@code ip netns} name). */
    static void enter(final String namespace) {
        final String path = "/run/netns/" + namespace;
        final int fd = LibC.INSTANCE.open(path, O_RDONLY);
        if (fd < 0) {
            throw new LabException("cannot open " + path + " (errno " + Native.getLastError() + ")");
        }
        try {
            if (LibC.INSTANCE.setns(fd, CLONE_NEWNET) != 0) {
                throw new LabException("setns into " + namespace + " failed (errno " + Native.getLastError()
                    + "): the lab needs root");
            }
        } finally {
            LibC.INSTANCE.close(fd);
        }
    }

    /** A factory of platform threads that enter {@code namespace} before they run anything. */
    static ThreadFactory factory(final String namespace) {
        return task -> {
            final Thread t = new Thread(() -> {
                enter(namespace);
                task.run();
            }, "lab-" + namespace);
            t.setDaemon(true);
            return t;
        };
    }
}
