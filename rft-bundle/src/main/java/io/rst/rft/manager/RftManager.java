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
import edu.umd.cs.findbugs.annotations.SuppressFBWarnings;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.function.Function;
import org.eclipse.jdt.annotation.Nullable;
import org.opendaylight.controller.cluster.ActorSystemProvider;
import org.opendaylight.mdsal.binding.api.DataBroker;
import org.opendaylight.mdsal.common.api.LogicalDatastoreType;
import org.opendaylight.mdsal.dom.api.DOMDataBroker;
import org.opendaylight.mdsal.eos.binding.api.EntityOwnershipService;
import org.opendaylight.mdsal.singleton.api.ClusterSingletonService;
import org.opendaylight.mdsal.singleton.api.ClusterSingletonServiceProvider;
import org.opendaylight.mdsal.singleton.api.ServiceGroupIdentifier;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.Rft;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft.Switch;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.NetworkTopology;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.network.topology.Topology;
import org.opendaylight.yangtools.binding.DataObjectReference;
import org.opendaylight.yangtools.binding.data.codec.api.BindingNormalizedNodeSerializer;
import org.opendaylight.yangtools.concepts.Registration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The RFT manager: a thin Blueprint shell. On every member of a cluster it follows
 * {@code /rft/switch} in the configuration, and follows the agents of the switches the entity
 * ownership service gives this member ({@link ClusterOwnership}: each switch followed by exactly
 * one member, the switches spread among the members, moved when a member leaves or comes back),
 * keeping their agent status and sessions in the operational datastore. A controller alone is a
 * cluster of one and follows every switch. The listing of the topology's unconfigured switches runs
 * as a cluster singleton (one member writes it).
 */
public final class RftManager implements ClusterSingletonService, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RftManager.class);
    private static final ServiceGroupIdentifier IDENTIFIER = new ServiceGroupIdentifier("rst-rft-manager");
    /**
     * How often a followed agent's table is re-read whole: a safety net only, since removals come
     * as events; a full table is large (about 600 bytes of JSON per session).
     */
    private static final Duration RESYNC_INTERVAL = Duration.ofMinutes(10);

    private final Registration singleton;
    private final Worker worker;
    private final java.util.concurrent.ExecutorService httpExecutor;
    private boolean listing;
    private boolean closed;

    /**
     * The parts that live while this member owns the singleton; tests build it directly.
     */
    @SuppressFBWarnings(value = "NP_STORE_INTO_NONNULL_FIELD",
        justification = "SpotBugs reads no TYPE_USE @Nullable on fields: these fields are @Nullable")
    static final class Worker implements AutoCloseable {
        /**
         * How often the one-way flows' pairing across switches is worked out again: each sweep
         * looks only at the addresses whose flows changed since the last, so a short period costs
         * little and adds little to a data-learned session's delay to its complete path.
         */
        static final Duration PAIRING_SWEEP = Duration.ofMillis(100);

        private final StatusWriter writer;
        private final AgentStatusTracker tracker;
        private final DataPairing pairing = new DataPairing();
        private final java.util.concurrent.ScheduledFuture<?> sweeper;
        private final Registration listener;
        private final List<Registration> topologyListeners = new ArrayList<>();
        private final @Nullable InventoryAddresses inventory;

        Worker(final Stores stores, final AgentProbe probe, final Duration pollInterval,
                final java.util.concurrent.ScheduledExecutorService executor, final Function<String, String> tokens,
                final Duration resyncInterval) {
            this(stores, probe, pollInterval, executor, tokens, resyncInterval, Set.of());
        }

        Worker(final Stores stores, final AgentProbe probe, final Duration pollInterval,
                final java.util.concurrent.ScheduledExecutorService executor, final Function<String, String> tokens,
                final Duration resyncInterval, final Set<String> topologies) {
            this(stores, false, probe, pollInterval, executor, tokens, resyncInterval, topologies);
        }

        /**
         * The worker of a controller alone; with {@code inventory}, NETCONF-mounted devices' hosts
         * are the default agent addresses of the switches of the same node-id.
         */
        @SuppressWarnings("checkstyle:ParameterNumber")
        Worker(final Stores stores, final boolean inventory, final AgentProbe probe,
                final Duration pollInterval, final java.util.concurrent.ScheduledExecutorService executor,
                final Function<String, String> tokens, final Duration resyncInterval, final Set<String> topologies) {
            this(stores, inventory, probe, pollInterval, executor, tokens, resyncInterval, topologies,
                SwitchOwnership.alone(), true);
        }

        /** A member's worker without the inventory's addresses (tests). */
        @SuppressWarnings("checkstyle:ParameterNumber")
        Worker(final Stores stores, final AgentProbe probe, final Duration pollInterval,
                final java.util.concurrent.ScheduledExecutorService executor, final Function<String, String> tokens,
                final Duration resyncInterval, final Set<String> topologies, final SwitchOwnership ownership,
                final boolean listsTopology) {
            this(stores, false, probe, pollInterval, executor, tokens, resyncInterval, topologies, ownership,
                listsTopology);
        }

        /**
         * A member's worker: it follows the switches {@code ownership} gives it, and lists the
         * topology's unconfigured switches while {@link #listTopology} says so ({@code listsTopology}
         * at first).
         */
        @SuppressWarnings("checkstyle:ParameterNumber")
        Worker(final Stores stores, final boolean inventory, final AgentProbe probe,
                final Duration pollInterval, final java.util.concurrent.ScheduledExecutorService executor,
                final Function<String, String> tokens, final Duration resyncInterval, final Set<String> topologies,
                final SwitchOwnership ownership, final boolean listsTopology) {
            final DataBroker broker = stores.binding();
            writer = new StatusWriter(stores, executor);
            // the probe and the followers share each switch's link (its TLS trust, its plain fallback)
            final var links = probe instanceof HttpAgentProbe http ? http.links()
                : new AgentLinks(null, null, null, executor, Duration.ofSeconds(5));
            tracker = new AgentStatusTracker(executor, probe, writer, pollInterval, Clock.systemUTC(),
                config -> {
                    final var nodeId = config.nodeId();
                    final var link = links.link(nodeId);
                    return new AgentFollower(nodeId, java.util.Objects.requireNonNull(config.agentAddress()),
                        config.agentPort(), () -> {
                        try {
                            return tokens.apply(nodeId);
                        } catch (AgentTokens.ExposedTokenException e) {
                            return ""; // the probe reports it; the agent refuses the follower meanwhile
                        }
                    }, writer, link.scheme(),
                        link.client(), executor, resyncInterval, config.portMap(), pairing);
                }, ownership, listsTopology);
            sweeper = executor.scheduleWithFixedDelay(this::sweep, PAIRING_SWEEP.toMillis(), PAIRING_SWEEP.toMillis(),
                java.util.concurrent.TimeUnit.MILLISECONDS);
            listener = broker.registerTreeChangeListener(LogicalDatastoreType.CONFIGURATION,
                DataObjectReference.builder(Rft.class).child(Switch.class).build(),
                new SwitchConfigListener(tracker, links));
            // the topology's switches are listed too, not configured until an operator says so
            final var topologySwitches = new TopologySwitches(tracker, topologies);
            for (var store : List.of(LogicalDatastoreType.CONFIGURATION, LogicalDatastoreType.OPERATIONAL)) {
                topologyListeners.add(broker.registerTreeChangeListener(store,
                    DataObjectReference.builder(NetworkTopology.class).child(Topology.class).build(),
                    topologySwitches.listener(store)));
            }
            this.inventory = inventory ? new InventoryAddresses(stores.dom(), tracker::inventoryAddresses) : null;
        }

        @SuppressWarnings("checkstyle:IllegalCatch") // a failed sweep must not end the ones scheduled after it
        private void sweep() {
            try {
                pairing.sweep();
            } catch (RuntimeException e) {
                LOG.warn("RFT: pairing one-way flows across switches failed", e);
            }
        }

        /** The pairing of this member's switches' one-way flows (tests). */
        DataPairing pairing() {
            return pairing;
        }

        /** Whether this member lists the topology's unconfigured switches. */
        void listTopology(final boolean lists) {
            tracker.listTopology(lists);
        }

        @Override
        public void close() {
            if (inventory != null) {
                inventory.close();
            }
            topologyListeners.forEach(Registration::close);
            listener.close();
            sweeper.cancel(false);
            tracker.close();
            writer.close();
        }
    }

    /**
     * The RFT manager's worker outside OSGi, on a controller alone: it follows every switch
     * configured in {@code broker}'s {@code rft}, over plain HTTP or TLS as each switch says,
     * presenting {@code token} to every agent. For embedding the manager in a process of its own
     * (the ingest and crash benchmarks); close the result to stop it.
     */
    public static AutoCloseable standalone(final DataBroker broker, final DOMDataBroker domBroker,
            final BindingNormalizedNodeSerializer codec, final String token) {
        requireNonNull(token);
        final var executor = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform()
            .name("rst-rft-manager").daemon().factory());
        final var worker = new Worker(new Stores(broker, domBroker, codec), new HttpAgentProbe(executor,
            node -> token, Duration.ofSeconds(2)), Duration.ofSeconds(1), executor, node -> token, RESYNC_INTERVAL);
        return () -> {
            worker.close();
            executor.shutdownNow();
        };
    }

    /**
     * The manager, as Blueprint builds it from {@code etc/io.rst.rft.cfg}.
     *
     * @param agentTokenFile the file of the token presented to every agent, or blank
     * @param agentTokenDir the directory of per-switch token files named after node-ids, or blank
     * @param pollIntervalSeconds how often each enabled switch's agent is probed
     * @param agentCaFile PEM CAs an agent's certificate must chain to (unless its fingerprint is pinned), or blank
     * @param agentClientCertFile PEM certificate the controller presents to agents (mutual TLS), or blank
     * @param agentClientKeyFile the client certificate's PEM PKCS#8 key (mode 0600), or blank
     * @param topologies comma-separated ids of the network topologies whose switches are listed,
     *        blank for all
     * @param agentTrustOnFirstUse whether the certificate of an agent with no pinned fingerprint that
     *        does not chain to the CA is trusted on first use, its fingerprint pinned in the switch's
     *        configuration
     */
    @SuppressWarnings("checkstyle:ParameterNumber")
    public RftManager(final DataBroker broker, final DOMDataBroker domBroker,
            final BindingNormalizedNodeSerializer codec, final ClusterSingletonServiceProvider singletons,
            final EntityOwnershipService ownershipService, final ActorSystemProvider actors,
            final @Nullable String agentTokenFile, final @Nullable String agentTokenDir, final int pollIntervalSeconds,
            final @Nullable String agentCaFile, final @Nullable String agentClientCertFile,
            final @Nullable String agentClientKeyFile, final @Nullable String topologies,
            final boolean agentTrustOnFirstUse) {
        requireNonNull(broker);
        requireNonNull(domBroker);
        final var tokens = AgentTokens.of(agentTokenFile, agentTokenDir);
        final Set<String> topologyIds = topologies == null ? Set.of() : java.util.Arrays.stream(topologies.split(","))
            .map(String::trim).filter(t -> !t.isEmpty()).collect(java.util.stream.Collectors.toUnmodifiableSet());
        if (pollIntervalSeconds < 1) {
            throw new IllegalArgumentException("poll interval must be at least 1 s: " + pollIntervalSeconds);
        }
        final var pollInterval = Duration.ofSeconds(pollIntervalSeconds);
        final var executor = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform()
            .name("rst-rft-manager").daemon().factory());
        // the agents' HTTP (TLS decryption, each event stream's bytes) on a pool of its own, so
        // that no agent's stream waits behind the followers' batches on the manager's one thread,
        // nor behind another agent's stream (on one thread, the lab's flow tables would lag tens of
        // seconds at a few hundred sessions a second, with the controller's CPU half idle)
        httpExecutor = Executors.newFixedThreadPool(Math.max(2, Runtime.getRuntime().availableProcessors()),
            Thread.ofPlatform().name("rst-rft-http-", 0).daemon().factory());
        final var links = AgentLinks.of(agentCaFile, agentClientCertFile, agentClientKeyFile, httpExecutor,
            pollInterval, agentTrustOnFirstUse, new FirstUsePins(broker));
        worker = new Worker(new Stores(broker, domBroker, codec), true,
            new HttpAgentProbe(links, tokens::tokenFor, pollInterval), pollInterval, executor, tokens::tokenFor,
            RESYNC_INTERVAL, topologyIds,
            new ClusterOwnership(ownershipService, new PekkoMembers(actors), executor), false);
        singleton = singletons.registerClusterSingletonService(this);
        LOG.info("RST RFT manager started ({})", tokens);
    }

    @Override
    public ServiceGroupIdentifier getIdentifier() {
        return IDENTIFIER;
    }

    @Override
    public synchronized void instantiateServiceInstance() {
        if (closed || listing) {
            return;
        }
        listing = true;
        worker.listTopology(true);
        LOG.info("RST RFT manager is the active instance");
    }

    @Override
    public synchronized ListenableFuture<?> closeServiceInstance() {
        if (listing) {
            listing = false;
            worker.listTopology(false);
            LOG.info("RST RFT manager is no longer the active instance");
        }
        return Futures.immediateFuture(null);
    }

    @Override
    public synchronized void close() {
        // a restart after a downing can hang in OpenDaylight's own shutdown: bound it
        RestartWatchdog.armIfRestarting();
        if (!closed) {
            closed = true;
            singleton.close();
            closeServiceInstance();
            worker.close();
            httpExecutor.shutdownNow();
            LOG.info("RST RFT manager stopped");
        }
    }
}
