/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.manager;

import edu.umd.cs.findbugs.annotations.SuppressFBWarnings;
import io.rst.yang.time.Times;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.eclipse.jdt.annotation.Nullable;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.IetfInetUtil;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.yang.types.rev130715.DateAndTime;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.AgentAddressSource;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.AgentState;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.AgentStatus.TlsTrust;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.agent.status.Pfc;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.AgentStatusBuilder;
import org.opendaylight.yangtools.yang.common.Uint64;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps each configured switch's agent status: DISABLED or NO_ADDRESS straight from the
 * configuration, otherwise whatever the periodic probe of its agent finds. The configuration is the
 * operator's single source of truth for capture too: a switch with RFT off has its agent told to
 * stop capturing ({@code POST /v1/stop}, retried until the agent answers), and an enabled switch
 * whose agent reports its capture stopped is told to start it. All state is confined to the
 * executor's single thread; callers hand work to it and never wait.
 */
final class AgentStatusTracker implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(AgentStatusTracker.class);
    /** The detail of a switch followed over TLS: the status says it is encrypted, not only when it is not. */
    static final String CAPTURING_TLS = "capturing over TLS";
    private static final String STARTED = " (started by the controller: RFT is on for this switch)";

    private final ScheduledExecutorService executor;
    private final AgentProbe probe;
    private final StatusWriter writer;
    private final Duration pollInterval;
    private final Clock clock;
    private final Map<String, Entry> entries = new HashMap<>();
    /** Every configured switch; {@link #entries} holds those this member follows (all, alone). */
    private final Map<String, SwitchConfig> configs = new HashMap<>();
    /** The switches this member follows, as {@link #ownership} says. */
    private final java.util.Set<String> owned = new java.util.HashSet<>();
    private final SwitchOwnership ownership;
    /**
     * Whether this member lists the topology's unconfigured switches: alone always; in a cluster
     * the member that runs the RFT manager's singleton.
     */
    private boolean listsTopology;
    /** Management addresses the inventory knows (node -> where from), the default agent addresses. */
    private Map<String, InventoryAddresses.Address> inventory = Map.of();
    /** Topology switches without configuration, listed NOT_CONFIGURED, with why. */
    private Map<String, String> unconfigured = Map.of();
    /** What was written for them: node -> detail. */
    private final Map<String, String> listedUnconfigured = new HashMap<>();
    private final FollowerFactory followers;

    /** Starts following a reachable agent's sessions (the configuration carries its address, with any default). */
    @FunctionalInterface
    interface FollowerFactory {
        AgentFollower follow(SwitchConfig config);
    }

    @SuppressFBWarnings(value = "NP_NONNULL_FIELD_NOT_INITIALIZED_IN_CONSTRUCTOR",
        justification = "SpotBugs reads no TYPE_USE @Nullable on fields: these fields are @Nullable")
    private static final class Entry {
        /** Replaced only by the controller's own first-use pin (see applyConfig). */
        SwitchConfig config;
        /** Where config's agent address came from; null when it has none. */
        final @Nullable AgentAddressSource addressSource;
        final CaptureDrops drops = new CaptureDrops();
        @Nullable ScheduledFuture<?> poll;
        @Nullable AgentFollower follower;
        @Nullable AgentState state;
        /** A start or stop request is out: do not send another. */
        boolean commandPending;
        /** The controller started the agent's capture (it had been stopped there): the status says so. */
        boolean startedByController;
        String detail = "";
        String version = "";
        String lostState = "";
        int unconfirmed;
        // commits of the follower's sessions the datastore refused, as last written
        long failedCommits;
        /** The drop figures last written (total, and whether dropping), -1 before any. */
        long dropsWritten = -1;
        /** The agent's data-sampling counters as it last reported them, and as last written. */
        AgentProbe.@Nullable DataCounters data;
        AgentProbe.@Nullable DataCounters dataWritten;
        /** The agent's CNP and PFC counters as it last reported them, and as last written (none: empty). */
        List<Long> congestion = List.of();
        List<Long> congestionWritten = List.of();
        /** Its PFC figures per interface and priority, and the list last written. */
        final PfcFigures pfc = new PfcFigures();
        List<Pfc> pfcWritten = List.of();
        /** Its name, interfaces and LLDP neighbours as it last reported them, and as last written. */
        AgentProbe.@Nullable Lldp lldp;
        AgentProbe.@Nullable Lldp lldpWritten;
        /** The follower's refused records (all, of which for an unknown learned_from) as last written. */
        long refusedWritten;
        long unknownWritten;
        /** How the agent is trusted and the certificate it showed, as last found and as last written. */
        AgentLinks.@Nullable Trust trust;
        AgentLinks.@Nullable Trust trustWritten;
        /** The last event the controller applied from this agent's stream, as last written. */
        long appliedSeq;
        /** What the status in the datastore says: contact and applied event, -1 before any write. */
        long contactWritten = -1;
        long appliedWritten = -1;
        long lastChangeMillis;
        long lastContactMillis;

        Entry(final SwitchConfig config, final @Nullable AgentAddressSource addressSource) {
            this.config = config;
            this.addressSource = addressSource;
        }
    }

    AgentStatusTracker(final ScheduledExecutorService executor, final AgentProbe probe, final StatusWriter writer,
            final Duration pollInterval, final Clock clock, final FollowerFactory followers) {
        this(executor, probe, writer, pollInterval, clock, followers, SwitchOwnership.alone(), true);
    }

    /**
     * A tracker that follows the switches {@code ownership} gives this member, and lists the
     * topology's unconfigured switches if {@code listsTopology} (until {@link #listTopology} says
     * otherwise).
     */
    AgentStatusTracker(final ScheduledExecutorService executor, final AgentProbe probe, final StatusWriter writer,
            final Duration pollInterval, final Clock clock, final FollowerFactory followers,
            final SwitchOwnership ownership, final boolean listsTopology) {
        this.ownership = ownership;
        this.listsTopology = listsTopology;
        this.executor = executor;
        this.followers = followers;
        this.probe = probe;
        this.writer = writer;
        this.pollInterval = pollInterval;
        this.clock = clock;
        executor.execute(() -> ownership.start(new SwitchOwnership.Callbacks() {
            @Override
            public void acquired(final String nodeId) {
                owned.add(nodeId);
                final var config = configs.get(nodeId);
                if (config != null && !entries.containsKey(nodeId)) {
                    applyConfig(config);
                }
            }

            @Override
            public void released(final String nodeId) {
                owned.remove(nodeId);
                // another member follows it now: what this one wrote stays, it only stops
                final var old = entries.remove(nodeId);
                if (old != null) {
                    cancel(old);
                }
            }
        }));
    }

    /** A switch was configured or its configuration changed. */
    void configured(final SwitchConfig config) {
        executor.execute(() -> {
            final boolean known = configs.put(config.nodeId(), config) != null;
            listedUnconfigured.remove(config.nodeId());
            if (owned.contains(config.nodeId())) {
                applyConfig(config);
            } else {
                if (!known && ownership.prefers(config.nodeId())) {
                    // a switch just configured has a status at once, not only once the ownership
                    // service (a round trip of the cluster's, even alone) names this member its follower
                    writer.write(config.nodeId(), new AgentStatusBuilder()
                        .setState(config.enabled() ? AgentState.CONNECTING : AgentState.DISABLED)
                        .setDetail(config.enabled() ? "configured: this member is about to follow its agent"
                            : "RFT is off for this switch")
                        .setLastChange(time(clock.millis())).build());
                }
                ownership.configured(config.nodeId());
            }
        });
    }

    /** A switch's configuration was removed. */
    void removed(final String nodeId) {
        executor.execute(() -> {
            configs.remove(nodeId);
            final var old = entries.remove(nodeId);
            ownership.removed(nodeId);
            owned.remove(nodeId);
            if (old != null) {
                cancel(old);
                writer.remove(nodeId);
                LOG.debug("RFT switch {} removed", nodeId);
            }
            // still a switch of the topology: listed again, not configured
            listUnconfigured();
        });
    }

    /**
     * Whether this member lists the topology's switches without configuration (the RFT manager's
     * singleton runs here).
     */
    void listTopology(final boolean lists) {
        executor.execute(() -> {
            listsTopology = lists;
            if (lists) {
                listUnconfigured();
            } else {
                // the next member to list them writes them all again
                listedUnconfigured.clear();
            }
        });
    }

    /**
     * The topology's switches now (node -> why it is listed): those without configuration are
     * listed NOT_CONFIGURED in the operational RFT list; those that left the topology go.
     */
    void topologySwitches(final Map<String, String> nodes) {
        final var copy = Map.copyOf(nodes);
        executor.execute(() -> {
            unconfigured = copy;
            listUnconfigured();
        });
    }

    /**
     * The management addresses the inventory knows now (node -> address): each is the default agent
     * address of the switch of the same node-id while its configuration gives none.
     */
    void inventoryAddresses(final Map<String, InventoryAddresses.Address> addresses) {
        final var copy = Map.copyOf(addresses);
        executor.execute(() -> {
            if (copy.equals(inventory)) {
                return;
            }
            inventory = copy;
            for (var config : java.util.List.copyOf(configs.values())) {
                final var entry = entries.get(config.nodeId());
                if (!config.hasAgentAddress() && owned.contains(config.nodeId())
                        && (entry == null || !entry.config.equals(withDefaults(config)))) {
                    applyConfig(config);
                }
            }
            listUnconfigured();
        });
    }

    /** The configuration with the inventory's address where the operator gave none. */
    private SwitchConfig withDefaults(final SwitchConfig config) {
        final var known = inventory.get(config.nodeId());
        return config.hasAgentAddress() || known == null ? config : config.withAgentAddress(known.host());
    }

    private void listUnconfigured() {
        if (!listsTopology) {
            return;
        }
        for (var it = listedUnconfigured.entrySet().iterator(); it.hasNext();) {
            final var node = it.next().getKey();
            if (configs.containsKey(node)) {
                // configured since: its entry's status replaced the listing
                it.remove();
            } else if (!unconfigured.containsKey(node)) {
                writer.remove(node);
                it.remove();
            }
        }
        final long now = clock.millis();
        unconfigured.forEach((node, listed) -> {
            final var known = inventory.get(node);
            // a NETCONF device's host is its agent address: turning RFT on is all it takes
            final String why = known == null ? listed : readyToEnable(known);
            if (!configs.containsKey(node) && !why.equals(listedUnconfigured.get(node))) {
                final var status = new AgentStatusBuilder().setState(AgentState.NOTCONFIGURED).setDetail(why)
                    .setLastChange(time(now));
                if (known != null) {
                    status.setAgentAddress(IetfInetUtil.hostFor(known.host()))
                        .setAgentAddressSource(AgentAddressSource.NetconfTopology);
                }
                writer.write(node, status.build());
                listedUnconfigured.put(node, why);
            }
        });
    }

    /** The detail of a switch without configuration whose agent address the inventory knows. */
    static String readyToEnable(final InventoryAddresses.Address known) {
        return "ready to enable: agent at " + known.host() + " (NETCONF inventory: " + known.from() + "); set"
            + " enabled true in rdma-flow-table:rft (configuration) to trace it, no agent-address needed";
    }

    private void applyConfig(final SwitchConfig raw) {
        listedUnconfigured.remove(raw.nodeId());
        // no agent-address configured: the inventory's, if it knows the switch
        final var config = withDefaults(raw);
        final var old = entries.get(config.nodeId());
        if (old != null) {
            if (old.config.equals(config)) {
                return;
            }
            if (old.config.tlsFingerprint() == null && config.pinnedOnFirstUse()
                    && old.config.withPin(config.tlsFingerprint(), config.firstUse()).equals(config)) {
                // the controller's own pin of the certificate it trusted on first use: the follower
                // goes on (its client trusts that one certificate), the next probe reports the pin
                old.config = config;
                return;
            }
            cancel(old);
            final var follower = old.follower;
            if (follower != null) {
                // RFT turned off, or another agent address: what the old follower wrote goes with
                // it (a new follower knows only what its own snapshot brings, and would never
                // remove the rest)
                writer.writeSessions(config.nodeId(), java.util.Map.of(), follower.knownSessions());
            }
        }
        final var entry = new Entry(config, raw.hasAgentAddress() ? AgentAddressSource.Configured
            : config.hasAgentAddress() ? AgentAddressSource.NetconfTopology : null);
        entries.put(config.nodeId(), entry);
        if (!config.enabled()) {
            if (config.agentAddress() == null || config.agentAddress().isBlank()) {
                publish(entry, AgentState.DISABLED, "RFT is off for this switch");
            } else {
                publish(entry, AgentState.DISABLED, "RFT is off: stopping capture on the agent at "
                    + config.agentAddress() + ":" + config.agentPort());
                stopCapture(entry);
            }
        } else if (config.agentAddress() == null || config.agentAddress().isBlank()) {
            publish(entry, AgentState.NOADDRESS,
                "RFT is on but no agent-address is configured, nor a NETCONF device of this node-id mounted");
        } else {
            publish(entry, AgentState.CONNECTING,
                "reaching the agent at " + config.agentAddress() + ":" + config.agentPort() + addressFrom(entry));
            entry.poll = executor.scheduleWithFixedDelay(() -> poll(entry), 0, pollInterval.toMillis(),
                TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Tells a disabled switch's agent to stop capturing, so that RFT off really stops the capture on
     * the switch; until the agent has said so, again every poll interval.
     */
    private void stopCapture(final Entry entry) {
        final var config = entry.config;
        probe.capture(config.nodeId(), Objects.requireNonNull(config.agentAddress()), config.agentPort(), false)
            .whenCompleteAsync((result, failure) -> {
                if (entries.get(config.nodeId()) != entry) {
                    return;
                }
                final String why;
                if (failure != null) {
                    why = failure.toString();
                } else {
                    why = switch (result) {
                        case AgentProbe.Result.Answered answered -> {
                            answered(entry, answered);
                            yield answered.capturing() ? "the agent still reports capturing" : null;
                        }
                        case AgentProbe.Result.Refused refused -> refused.detail();
                        case AgentProbe.Result.Unreachable unreachable -> unreachable.detail();
                        case AgentProbe.Result.Untrusted untrusted -> untrusted.detail();
                    };
                }
                if (why == null) {
                    publish(entry, AgentState.DISABLED, "RFT is off: capture stopped on the agent");
                    return;
                }
                final long every = pollInterval.toMillis();
                publish(entry, AgentState.DISABLED, "RFT is off, but the agent could not be told to stop capturing ("
                    + why + "); retrying every " + (every % 1000 == 0 ? every / 1000 + " s" : every + " ms"));
                entry.poll = executor.schedule(() -> stopCapture(entry), pollInterval.toMillis(),
                    TimeUnit.MILLISECONDS);
            }, executor);
    }

    /** Starts the capture of an enabled switch's agent that reported it stopped. */
    private void startCapture(final Entry entry) {
        final var config = entry.config;
        entry.commandPending = true;
        probe.capture(config.nodeId(), Objects.requireNonNull(config.agentAddress()), config.agentPort(), true)
            .whenCompleteAsync((result, failure) -> {
                entry.commandPending = false;
                if (entries.get(config.nodeId()) != entry) {
                    return;
                }
                if (failure == null && result instanceof AgentProbe.Result.Answered answered && answered.capturing()) {
                    answered(entry, answered);
                    entry.startedByController = true;
                    publish(entry, AgentState.CAPTURING, capturingDetail(answered.encrypted(), true));
                    return;
                }
                final String why = failure != null ? failure.toString() : switch (result) {
                    case AgentProbe.Result.Answered stopped -> "the agent still reports its capture stopped";
                    case AgentProbe.Result.Refused refused -> refused.detail();
                    case AgentProbe.Result.Unreachable unreachable -> unreachable.detail();
                    case AgentProbe.Result.Untrusted untrusted -> untrusted.detail();
                };
                // the next poll tries again
                publish(entry, AgentState.STOPPED, "agent answers, capture stopped; starting it failed: " + why);
            }, executor);
    }

    private void poll(final Entry entry) {
        final var config = entry.config;
        probe.probe(config.nodeId(), Objects.requireNonNull(config.agentAddress()), config.agentPort())
            .whenCompleteAsync((result, failure) -> {
                if (entries.get(config.nodeId()) != entry) {
                    // configuration changed while the probe was out: its answer is stale
                    return;
                }
                if (failure != null) {
                    publish(entry, AgentState.UNREACHABLE, "probe failed: " + failure);
                    return;
                }
                entry.trust = probe.trust(config.nodeId());
                switch (result) {
                    case AgentProbe.Result.Answered answered -> {
                        answered(entry, answered);
                        if (entry.follower == null) {
                            entry.follower = followers.follow(config);
                        }
                        if (answered.capturing()) {
                            publish(entry, AgentState.CAPTURING, capturingDetail(answered.encrypted(),
                                entry.startedByController));
                        } else if (!entry.commandPending) {
                            // RFT is on for this switch: the agent's capture must run too
                            publish(entry, AgentState.STOPPED, "agent answers, capture stopped: starting it");
                            startCapture(entry);
                        }
                    }
                    case AgentProbe.Result.Refused refused -> publish(entry, AgentState.UNAUTHORIZED, refused.detail());
                    case AgentProbe.Result.Unreachable unreachable ->
                        publish(entry, AgentState.UNREACHABLE, unreachable.detail());
                    case AgentProbe.Result.Untrusted untrusted ->
                        publish(entry, AgentState.UNTRUSTED, untrusted.detail());
                }
            }, executor);
    }

    /** What every answer of the agent tells: contact, version, sequence, capture drops. */
    private void answered(final Entry entry, final AgentProbe.Result.Answered answered) {
        final long now = clock.millis();
        entry.lastContactMillis = now;
        entry.version = answered.version();
        entry.drops.update(answered.kernelDrops(), answered.queueDrops(), now);
        entry.data = answered.data();
        final var congestion = answered.congestion();
        entry.congestion = congestion == null ? List.of() : List.of(congestion.cnps(), congestion.cnpUnmatched(),
            congestion.pfcFrames(), congestion.pfcUntabled(), (long) congestion.pfcSkipped());
        entry.pfc.update(congestion, now);
        entry.lldp = answered.lldp();
    }

    /** Says where the agent address came from when the operator did not configure it. */
    private String addressFrom(final Entry entry) {
        if (entry.addressSource != AgentAddressSource.NetconfTopology) {
            return "";
        }
        final var known = inventory.get(entry.config.nodeId());
        return " (agent-address not configured: " + (known == null ? "the inventory's" : known.from()) + ")";
    }

    /** A capturing agent's detail: whether what crosses the management network is encrypted, first. */
    private static String capturingDetail(final boolean encrypted, final boolean startedByController) {
        return (encrypted ? CAPTURING_TLS : AgentLinks.PLAIN_DETAIL) + (startedByController ? STARTED : "");
    }

    private void publish(final Entry entry, final AgentState state, final String detail) {
        final long now = clock.millis();
        final var follower = entry.follower;
        final String lostState = follower == null ? "" : follower.lostState();
        final int unconfirmed = follower == null ? 0 : follower.unconfirmed();
        final long failedCommits = follower == null ? entry.failedCommits : follower.failedCommits();
        final boolean changed = state != entry.state || !detail.equals(entry.detail)
            || !lostState.equals(entry.lostState) || unconfirmed != entry.unconfirmed
            || failedCommits != entry.failedCommits;
        entry.failedCommits = failedCommits;
        entry.lostState = lostState;
        entry.unconfirmed = unconfirmed;
        // drops as the status last wrote them: a new count or a start or end of dropping is news
        final var drops = entry.drops;
        final long dropsNow = drops.known() ? drops.total() * 2 + (drops.sinceMillis() == 0 ? 0 : 1) : -1;
        final boolean dropsChanged = dropsNow != entry.dropsWritten;
        entry.dropsWritten = dropsNow;
        // counters (the agent's data sampling, the records refused) are news too, not a change of state
        final long refused = follower == null ? entry.refusedWritten : follower.badRecords();
        final long unknown = follower == null ? entry.unknownWritten : follower.unknownLearnedFrom();
        final List<Pfc> pfc = PfcFigures.toStatus(entry.pfc.rows(), entry.config.portMap());
        final boolean countersChanged = !Objects.equals(entry.trust, entry.trustWritten)
            || !Objects.equals(entry.data, entry.dataWritten)
            || refused != entry.refusedWritten || unknown != entry.unknownWritten
            || !entry.congestion.equals(entry.congestionWritten) || !pfc.equals(entry.pfcWritten)
            || !Objects.equals(entry.lldp, entry.lldpWritten);
        // last-contact and last-event-seq follow the stream: a poll that brought news of either
        // is written, so that the status is never more than a poll interval behind
        if (follower != null) {
            entry.appliedSeq = follower.appliedSeq();
        }
        if (!changed && !dropsChanged && !countersChanged && entry.contactWritten == entry.lastContactMillis
                && entry.appliedWritten == entry.appliedSeq) {
            return;
        }
        entry.contactWritten = entry.lastContactMillis;
        entry.appliedWritten = entry.appliedSeq;
        entry.dataWritten = entry.data;
        entry.trustWritten = entry.trust;
        entry.congestionWritten = entry.congestion;
        entry.pfcWritten = pfc;
        entry.lldpWritten = entry.lldp;
        entry.refusedWritten = refused;
        entry.unknownWritten = unknown;
        if (changed) {
            LOG.debug("RFT switch {}: {} ({})", entry.config.nodeId(), state.getName(), detail);
            entry.lastChangeMillis = now;
        }
        entry.state = state;
        entry.detail = detail;
        final var builder = new AgentStatusBuilder().setState(state).setDetail(detail)
            .setLastChange(time(entry.lastChangeMillis));
        if (!lostState.isEmpty()) {
            builder.setLostState(lostState)
                .setUnconfirmedSessions(org.opendaylight.yangtools.yang.common.Uint32.valueOf(unconfirmed));
        }
        if (failedCommits > 0) {
            builder.setFailedCommits(Uint64.valueOf(failedCommits));
        }
        if (entry.lastContactMillis != 0) {
            builder.setLastContact(time(entry.lastContactMillis)).setAgentVersion(entry.version)
                .setLastEventSeq(Uint64.valueOf(entry.appliedSeq));
        }
        final var address = entry.config.agentAddress();
        if (address != null && !address.isBlank()) {
            builder.setAgentAddress(IetfInetUtil.hostFor(address)).setAgentAddressSource(entry.addressSource);
        }
        final var trust = entry.trust;
        if (trust != null) {
            if (trust.kind() != null) {
                builder.setTlsTrust(switch (trust.kind()) {
                    case CA -> TlsTrust.Ca;
                    case PINNED -> TlsTrust.Pinned;
                    case FIRST_USE -> TlsTrust.TrustOnFirstUse;
                    case PLAIN_HTTP -> TlsTrust.PlainHttp;
                });
            }
            builder.setTlsFingerprint(trust.fingerprint());
            if (trust.pinnedOnFirstUse() != null) {
                builder.setPinnedOnFirstUse(new DateAndTime(trust.pinnedOnFirstUse()));
            }
        }
        if (drops.known()) {
            builder.setDroppedPackets(Uint64.valueOf(drops.total())).setKernelDrops(Uint64.valueOf(drops.kernel()))
                .setQueueDrops(Uint64.valueOf(drops.queue()));
            if (drops.lastMillis() != 0) {
                builder.setLastDrop(time(drops.lastMillis()));
            }
            if (drops.sinceMillis() != 0) {
                builder.setDroppingSince(time(drops.sinceMillis()));
            }
        }
        if (refused > 0) {
            builder.setRefusedRecords(Uint64.valueOf(refused));
        }
        if (unknown > 0) {
            builder.setRefusedUnknownLearnedFrom(Uint64.valueOf(unknown));
        }
        final var data = entry.data;
        if (data != null) {
            builder.setDataFlows(counter(data.flows())).setDataSessions(counter(data.sessions()))
                .setDataOneWay(counter(data.oneWay())).setDataFlowsEvicted(counter(data.evicted()))
                .setDataPairAmbiguous(counter(data.pairAmbiguous())).setDataBthRejected(counter(data.bthRejected()));
        }
        final var congestion = entry.congestion;
        if (!congestion.isEmpty()) {
            builder.setCnps(counter(congestion.get(0))).setCnpUnmatched(counter(congestion.get(1)))
                .setPfcFrames(counter(congestion.get(2))).setPfcUntabled(counter(congestion.get(3)))
                .setPfcSkipped(congestion.get(4) > 0 ? org.opendaylight.yangtools.yang.common.Uint32.valueOf(
                    congestion.get(4)) : null);
        }
        if (!pfc.isEmpty()) {
            builder.setPfc(org.opendaylight.yangtools.binding.util.BindingMap.ordered(pfc));
        }
        LldpStatus.apply(builder, entry.lldp);
        writer.write(entry.config.nodeId(), builder.build());
    }

    /** A counter the agent reported, or null (absent) where it did not. */
    private static @Nullable Uint64 counter(final long value) {
        return value < 0 ? null : Uint64.valueOf(value);
    }

    static DateAndTime time(final long millis) {
        return new DateAndTime(Times.formatMillis(millis));
    }

    private static void cancel(final Entry entry) {
        final var poll = entry.poll;
        if (poll != null) {
            poll.cancel(false);
        }
        final var follower = entry.follower;
        if (follower != null) {
            follower.close();
        }
    }

    @Override
    public void close() {
        executor.execute(() -> {
            ownership.close();
            entries.values().forEach(AgentStatusTracker::cancel);
        });
        executor.shutdown();
    }
}
