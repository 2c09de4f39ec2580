/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.manager;

import java.time.Duration;
import java.util.concurrent.Executors;
import org.opendaylight.mdsal.binding.dom.adapter.test.AbstractBaseDataBrokerTest;

/**
 * The RFT manager's worker (probe, followers, status writer) for the ingest benchmark in the RPT's
 * tests: the worker is package-private, and the benchmark runs the RFT and the RPT on one broker.
 */
public final class RftWorkerForBench {
    private RftWorkerForBench() {
        // factory
    }

    /** Starts the worker following every switch configured in {@code broker}, with one token for all. */
    public static AutoCloseable start(final AbstractBaseDataBrokerTest broker, final String token) {
        final var executor = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().name("rst-rft-manager")
            .daemon().factory());
        final var stores = new Stores(broker.getDataBroker(), broker.getDomBroker(),
            broker.getDataBrokerTestCustomizer().getAdapterContext().currentSerializer());
        final var worker = new RftManager.Worker(stores, new HttpAgentProbe(executor, node -> token,
            Duration.ofSeconds(2)), Duration.ofSeconds(1), executor, node -> token, Duration.ofMinutes(10));
        return () -> {
            worker.close();
            executor.shutdownNow();
        };
    }
}
