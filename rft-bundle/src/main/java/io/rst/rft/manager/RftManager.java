/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.manager;

import static java.util.Objects.requireNonNull;

import com.google.common.util.concurrent.Futures;
import com.google.common.util.concurrent.ListenableFuture;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.function.Function;
import org.eclipse.jdt.annotation.Nullable;
import org.opendaylight.mdsal.binding.api.DataBroker;
import org.opendaylight.mdsal.common.api.LogicalDatastoreType;
import org.opendaylight.mdsal.singleton.api.ClusterSingletonService;
import org.opendaylight.mdsal.singleton.api.ClusterSingletonServiceProvider;
import org.opendaylight.mdsal.singleton.api.ServiceGroupIdentifier;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.Rft;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft.Switch;
import org.opendaylight.yangtools.binding.DataObjectReference;
import org.opendaylight.yangtools.concepts.Registration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The RFT manager: a thin Blueprint shell. It runs as a cluster singleton (one member of a cluster
 * talks to the agents) and, while it is the owner, follows {@code /rft/switch} in the configuration
 * and keeps each switch's agent status in the operational datastore.
 */
public final class RftManager implements ClusterSingletonService, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RftManager.class);
    private static final ServiceGroupIdentifier IDENTIFIER = new ServiceGroupIdentifier("rst-rft-manager");
    /**
     * How often a followed agent's table is re-read whole: a safety net only, since removals come
     * as events; a full table is large (about 600 bytes of JSON per session).
     */
    private static final Duration RESYNC_INTERVAL = Duration.ofMinutes(10);

    private final DataBroker broker;
    private final AgentTokens tokens;
    private final Duration pollInterval;
    private final Registration singleton;

    private @Nullable Worker worker;
    private boolean closed;

    /**
     * The parts that live while this member owns the singleton; tests build it directly.
     */
    static final class Worker implements AutoCloseable {
        private final StatusWriter writer;
        private final AgentStatusTracker tracker;
        private final Registration listener;

        Worker(final DataBroker broker, final AgentProbe probe, final Duration pollInterval,
                final java.util.concurrent.ScheduledExecutorService executor, final Function<String, String> tokens,
                final Duration resyncInterval) {
            writer = new StatusWriter(broker);
            final var http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
                .version(HttpClient.Version.HTTP_1_1).build();
            tracker = new AgentStatusTracker(executor, probe, writer, pollInterval, Clock.systemUTC(),
                (nodeId, host, port) -> new AgentFollower(nodeId, host, port, () -> tokens.apply(nodeId), writer,
                    http, executor, resyncInterval));
            listener = broker.registerTreeChangeListener(LogicalDatastoreType.CONFIGURATION,
                DataObjectReference.builder(Rft.class).child(Switch.class).build(), new SwitchConfigListener(tracker));
        }

        @Override
        public void close() {
            listener.close();
            tracker.close();
            writer.close();
        }
    }

    /**
     * The manager, as Blueprint builds it from {@code etc/io.rst.rft.cfg}.
     *
     * @param agentTokenFile the file of the token presented to every agent, or blank
     * @param agentTokenDir the directory of per-switch token files named after node-ids, or blank
     * @param pollIntervalSeconds how often each enabled switch's agent is probed
     */
    public RftManager(final DataBroker broker, final ClusterSingletonServiceProvider singletons,
            final String agentTokenFile, final String agentTokenDir, final int pollIntervalSeconds) {
        this.broker = requireNonNull(broker);
        this.tokens = AgentTokens.of(agentTokenFile, agentTokenDir);
        if (pollIntervalSeconds < 1) {
            throw new IllegalArgumentException("poll interval must be at least 1 s: " + pollIntervalSeconds);
        }
        this.pollInterval = Duration.ofSeconds(pollIntervalSeconds);
        singleton = singletons.registerClusterSingletonService(this);
        LOG.info("RST RFT manager started ({})", tokens);
    }

    @Override
    public ServiceGroupIdentifier getIdentifier() {
        return IDENTIFIER;
    }

    @Override
    public synchronized void instantiateServiceInstance() {
        if (closed || worker != null) {
            return;
        }
        final var executor = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform()
            .name("rst-rft-manager").daemon().factory());
        worker = new Worker(broker, new HttpAgentProbe(executor, tokens::tokenFor, pollInterval), pollInterval,
            executor, tokens::tokenFor, RESYNC_INTERVAL);
        LOG.info("RST RFT manager is the active instance");
    }

    @Override
    public synchronized ListenableFuture<?> closeServiceInstance() {
        final var current = worker;
        worker = null;
        if (current != null) {
            current.close();
            LOG.info("RST RFT manager is no longer the active instance");
        }
        return Futures.immediateFuture(null);
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            singleton.close();
            closeServiceInstance();
            LOG.info("RST RFT manager stopped");
        }
    }
}
