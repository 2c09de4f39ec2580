/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.agent;

import java.io.IOException;
import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.function.BiFunction;

/**
 * {@code rst agent ...}: parses the options, runs the agent until SIGTERM/SIGINT, and stops it
 * cleanly from a shutdown hook (capture stopped, queues drained, state flushed, API closed).
 */
public final class AgentCommand {
    private AgentCommand() {
        // entry point only
    }

    /**
     * Runs the agent in this thread until the JVM is told to stop.
     *
     * @param out where {@code --help} prints the usage
     * @param err where errors go (one line for bad usage)
     * @param processorFactory the frame processor (decoder and session table) to use
     * @return the exit status: 0 stopped cleanly (or usage printed), 1 could not start, 2 bad usage
     */
    // a command line tool: it writes to the streams it is given, and any failure to start is one line and status 1
    @SuppressWarnings({ "checkstyle:IllegalCatch", "checkstyle:RegexpSinglelineJava" })
    public static int run(final List<String> args, final PrintStream out, final PrintStream err,
            final BiFunction<AgentOptions, FrameProcessor.SessionEvents, FrameProcessor> processorFactory) {
        if (AgentOptions.wantsHelp(args)) {
            out.println(AgentOptions.usage());
            return 0;
        }
        final AgentOptions options;
        try {
            options = AgentOptions.parse(args);
        } catch (IllegalArgumentException e) {
            err.println("rst agent: " + e.getMessage() + " (see: rst agent --help)");
            return 2;
        }
        final Agent agent;
        try {
            agent = new Agent(options, events -> processorFactory.apply(options, events));
            agent.start();
        } catch (IOException | RuntimeException e) {
            err.println("rst agent: " + e.getMessage());
            return 1;
        }
        // SIGTERM and SIGINT stop the agent here, so that it exits 0 after a clean stop (the JVM's
        // own handling would end it with 143 or 130); any other end of the JVM still closes it
        final CountDownLatch stop = new CountDownLatch(1);
        final Thread hook = new Thread(agent::close, "shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        for (String name : new String[] {"TERM", "INT"}) {
            sun.misc.Signal.handle(new sun.misc.Signal(name), signal -> stop.countDown());
        }
        try {
            stop.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        agent.close();
        return 0;
    }

    /** The processor used when no decoder is wired in: counts frames only. */
    public static FrameProcessor countingProcessor(final AgentOptions options,
            final FrameProcessor.SessionEvents events) {
        return new CountingProcessor();
    }

    /** The real processor: the RoCEv2/CM decoder and the session table. */
    public static FrameProcessor cmProcessor(final AgentOptions options, final FrameProcessor.SessionEvents events) {
        return new CmFrameProcessor(options, events);
    }
}
