/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.cli;

import java.io.PrintStream;

/**
 * Entry point of the RFT tools jar ({@code rft-bundle-VERSION-agent.jar}): {@code decode},
 * {@code sessions} and {@code agent}. No OpenDaylight class is loaded on this path.
 */
public final class Main {
    private Main() {
        // entry point only
    }

    public static void main(final String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(final String[] args, final PrintStream out, final PrintStream err) {
        if (args.length == 0) {
            err.println("usage: rst decode FILE | rst sessions FILE | rst agent [options]");
            return 2;
        }
        err.println("rst: unknown command '" + args[0] + "'");
        return 2;
    }
}
