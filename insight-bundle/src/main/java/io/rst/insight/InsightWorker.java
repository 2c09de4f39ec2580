/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.insight;

import static java.util.Objects.requireNonNull;

import com.google.common.util.concurrent.FutureCallback;
import com.google.common.util.concurrent.MoreExecutors;
import edu.umd.cs.findbugs.annotations.SuppressFBWarnings;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleSupplier;
import org.eclipse.jdt.annotation.Nullable;
import org.opendaylight.mdsal.binding.api.DataBroker;
import org.opendaylight.mdsal.binding.api.DataObjectModification;
import org.opendaylight.mdsal.binding.api.DataTreeChangeListener;
import org.opendaylight.mdsal.binding.api.DataTreeModification;
import org.opendaylight.mdsal.binding.api.NotificationPublishService;
import org.opendaylight.mdsal.common.api.CommitInfo;
import org.opendaylight.mdsal.common.api.LogicalDatastoreType;
import org.opendaylight.mdsal.dom.api.DOMDataBroker;
import org.opendaylight.mdsal.dom.api.DOMDataTreeChangeListener;
import org.opendaylight.mdsal.dom.api.DOMDataTreeIdentifier;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.Rft;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft.Switch;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.AgentStatus;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.Rpt;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.rpt.PausedPort;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.insight.rev261201.AgentDroppingPacketsBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.insight.rev261201.AgentReachableBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.insight.rev261201.AgentUnreachableBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.insight.rev261201.Congested;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.insight.rev261201.CongestedBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.insight.rev261201.DataDirection;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.insight.rev261201.LldpDisagreementBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.insight.rev261201.PathChangedBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.insight.rev261201.PfcDeadlockSuspectBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.insight.rev261201.PfcStormBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.insight.rev261201.ProblemKind;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.insight.rev261201.Problems;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.insight.rev261201.SessionFailedBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.topology.rev261201.RstLldpTopologyAttributes;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.NetworkTopology;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.network.topology.Topology;
import org.opendaylight.yangtools.binding.DataObjectIdentifier;
import org.opendaylight.yangtools.binding.DataObjectReference;
import org.opendaylight.yangtools.binding.Notification;
import org.opendaylight.yangtools.concepts.Registration;
import org.opendaylight.yangtools.yang.common.Decimal64;
import org.opendaylight.yangtools.yang.common.Uint16;
import org.opendaylight.yangtools.yang.common.Uint32;
import org.opendaylight.yangtools.yang.common.Uint64;
import org.opendaylight.yangtools.yang.common.Uint8;
import org.opendaylight.yangtools.yang.data.api.schema.MapEntryNode;
import org.opendaylight.yangtools.yang.data.tree.api.DataTreeCandidate;
import org.opendaylight.yangtools.yang.data.tree.api.DataTreeCandidateNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows rdma-flow-table:rft and rdma-path-table:rpt (operational) into a {@link FabricIndex},
 * publishes the notifications their changes call for, recomputes the problems at most once a
 * second and writes them to rst-insight:problems when they changed, and keeps the metrics'
 * {@link Snapshot}. Everything runs on the one executor thread it is given, so the index needs no
 * lock; listeners only hand their changes over.
 */
@SuppressFBWarnings(value = { "NP_NONNULL_FIELD_NOT_INITIALIZED_IN_CONSTRUCTOR", "NP_STORE_INTO_NONNULL_FIELD" },
    justification = "SpotBugs reads no TYPE_USE @Nullable on fields: these fields are @Nullable")
final class InsightWorker implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(InsightWorker.class);
    /**
     * The share of one core the problems' recomputation may take at most: with the index's own
     * groups (FabricIndex) one takes about 0.3 s at 300,000 sessions, so every 6 s at most there.
     */
    static final double SHARE = 0.05;
    static final DataObjectIdentifier<Problems> PROBLEMS = DataObjectIdentifier.builder(Problems.class).build();

    private final DataBroker broker;
    private final NotificationPublishService notifications;
    private final ProblemDetector detector;
    private final ScheduledExecutorService executor;
    private final DoubleSupplier clock;
    private final List<Registration> registrations = new ArrayList<>();
    private final ScheduledFuture<?> ticker;

    private final FabricIndex index = new FabricIndex();
    /** Sessions whose failure was announced: each is announced once. */
    private final Set<String> announced = new HashSet<>();
    /** The congestion problems (congested, PFC) of the last recomputation, by id: each announced as it appears. */
    private Set<String> raised = Set.of();
    /** Per datastore and topology id, the topology's links (source and destination ends). */
    private final Map<LogicalDatastoreType, Map<String, List<Problem.Place[]>>> topologies = Map.of(
        LogicalDatastoreType.CONFIGURATION, new HashMap<>(), LogicalDatastoreType.OPERATIONAL, new HashMap<>());
    private boolean dirty = true;
    /** System.nanoTime() of the last recomputation: the rate limit runs on the machine's clock. */
    private long lastRecompute = System.nanoTime() - TimeUnit.DAYS.toNanos(1);
    /** Seconds the last recomputation took: a big fabric's takes long, so it runs less often. */
    private double lastTook;
    /** Seconds between two recomputations at least. */
    private final double minRecompute;
    private @Nullable Problems written;
    private volatile Snapshot snapshot = Snapshot.INACTIVE;
    // executor-confined: rpt/failed-commits as the RPT last wrote it
    private long pathFailedCommits;
    private volatile boolean closed;

    /**
     * Starts following the datastore.
     *
     * @param idleRecompute seconds between recomputations when nothing changed (time alone can
     *     make a problem: a DREQ that stays unanswered)
     */
    InsightWorker(final DataBroker broker, final DOMDataBroker dom, final NotificationPublishService notifications,
            final ProblemDetector.Options options, final ScheduledExecutorService executor, final DoubleSupplier clock,
            final double idleRecompute) {
        this(broker, dom, notifications, options, executor, clock, idleRecompute, 1);
    }

    /** As above, the problems recomputed at most every {@code minRecompute} seconds (tests). */
    InsightWorker(final DataBroker broker, final DOMDataBroker dom, final NotificationPublishService notifications,
            final ProblemDetector.Options options, final ScheduledExecutorService executor, final DoubleSupplier clock,
            final double idleRecompute, final double minRecompute) {
        this.minRecompute = minRecompute;
        this.broker = requireNonNull(broker);
        this.notifications = requireNonNull(notifications);
        detector = new ProblemDetector(options);
        this.executor = requireNonNull(executor);
        this.clock = requireNonNull(clock);
        // the sessions through the DOM API, read leaf by leaf (SessionLeaves); the agents' status,
        // rare, through the binding one
        final var dtcs = requireNonNull(dom.extension(DOMDataBroker.DataTreeChangeExtension.class),
            "the DOM data broker follows no data tree changes");
        registrations.add(dtcs.registerTreeChangeListener(
            DOMDataTreeIdentifier.of(LogicalDatastoreType.OPERATIONAL, SessionLeaves.switches()),
            new DOMDataTreeChangeListener() {
                @Override
                public void onDataTreeChanged(final List<DataTreeCandidate> changes) {
                    executor.execute(() -> onSwitches(changes));
                }

                @Override
                public void onInitialData() {
                    // nothing yet: nothing to index
                }
            }));
        registrations.add(broker.registerTreeChangeListener(LogicalDatastoreType.OPERATIONAL,
            DataObjectReference.builder(Rft.class).child(Switch.class).child(AgentStatus.class).build(),
            (DataTreeChangeListener<AgentStatus>) changes -> executor.execute(() -> onAgents(changes))));
        // the paths too, read leaf by leaf (PathLeaves)
        registrations.add(dtcs.registerTreeChangeListener(
            DOMDataTreeIdentifier.of(LogicalDatastoreType.OPERATIONAL, PathLeaves.paths()),
            new DOMDataTreeChangeListener() {
                @Override
                public void onDataTreeChanged(final List<DataTreeCandidate> changes) {
                    executor.execute(() -> onPaths(changes));
                }

                @Override
                public void onInitialData() {
                    // no path yet
                }
            }));
        // the RPT's refused commits: a leaf of rpt, changed only when a commit was refused
        registrations.add(dtcs.registerTreeChangeListener(
            DOMDataTreeIdentifier.of(LogicalDatastoreType.OPERATIONAL, PathLeaves.failedCommitsPath()),
            new DOMDataTreeChangeListener() {
                @Override
                public void onDataTreeChanged(final List<DataTreeCandidate> changes) {
                    final long failed = PathLeaves.failedCommits(changes);
                    if (failed >= 0) {
                        executor.execute(() -> {
                            pathFailedCommits = failed;
                            refreshLive();
                        });
                    }
                }

                @Override
                public void onInitialData() {
                    // none refused
                }
            }));
        // the ports PFC pauses with the sessions they hold up (rpt/paused-port): a few entries,
        // written at each probe of an agent while its switch pauses
        registrations.add(broker.registerTreeChangeListener(LogicalDatastoreType.OPERATIONAL,
            DataObjectReference.builder(Rpt.class).child(PausedPort.class).build(),
            (DataTreeChangeListener<PausedPort>) changes -> executor.execute(() -> onPausedPorts(changes))));
        // the links, for PFC pauses at both ends of one: configured and discovered topologies merged
        for (var store : List.of(LogicalDatastoreType.CONFIGURATION, LogicalDatastoreType.OPERATIONAL)) {
            registrations.add(broker.registerTreeChangeListener(store,
                DataObjectReference.builder(NetworkTopology.class).child(Topology.class).build(),
                (DataTreeChangeListener<Topology>) changes -> executor.execute(() -> onTopology(store, changes))));
        }
        ticker = executor.scheduleWithFixedDelay(() -> tick(idleRecompute), 1, 1, TimeUnit.SECONDS);
    }

    Snapshot snapshot() {
        return snapshot;
    }

    private Snapshot snapshot(final ProblemSummary summary, final double now, final double took) {
        // the counts the index keeps as sightings and paths come and go: no walk of every session
        final Map<String, Map<String, Long>> bySwitch = new HashMap<>();
        index.statesBySwitch().forEach((node, byState) -> bySwitch.put(node, Map.copyOf(byState)));
        for (var agent : index.agents()) {
            bySwitch.putIfAbsent(agent.switchId(), Map.of());
        }
        final var ecn = new ArrayList<Snapshot.PortEcn>();
        for (var sw : new TreeMap<>(index.ecnByPort()).entrySet()) {
            for (var port : new TreeMap<>(sw.getValue()).entrySet()) {
                final long[] sums = port.getValue();
                ecn.add(new Snapshot.PortEcn(sw.getKey(), port.getKey(), sums[0], sums[1], sums[2]));
            }
        }
        final var held = index.pausedPorts().entrySet().stream()
            .map(e -> new Snapshot.HeldPort(e.getKey().node(), e.getKey().tp(), e.getKey().priority(),
                e.getValue().count()))
            .sorted(Comparator.comparing(Snapshot.HeldPort::node).thenComparing(Snapshot.HeldPort::port)
                .thenComparingInt(Snapshot.HeldPort::priority))
            .toList();
        return new Snapshot(true, bySwitch, index.sessionCount(), index.pathCount(), index.incompletePaths(),
            index.asymmetricPaths(), summary.byKind(), List.copyOf(index.agents()), index.sessionUpdates(),
            index.ingestLag(), now, took, pathFailedCommits, index.originsBySwitch(), index.oneWayBySwitch(), ecn,
            detector.congestedSessions(index), held, index.lldpLinks(), index.lldpDisagreements().size());
    }

    private void onAgents(final List<DataTreeModification<AgentStatus>> changes) {
        if (closed) {
            return;
        }
        final double now = clock.getAsDouble();
        for (var change : changes) {
            final var root = change.getRootNode();
            if (root instanceof DataObjectModification.WithDataAfter<AgentStatus> present) {
                final String node = change.path().toLegacy().firstKeyOf(Switch.class).getNodeId().getValue();
                agent(node, present.dataAfter(), now);
            }
        }
        refreshLive();
    }

    /**
     * The snapshot's agents' facts and ingest figures as they are now. A recomputation of the
     * problems comes at most once a second, and as rarely as once a minute when one takes long
     * (it may take a twentieth of a core, {@link #SHARE}): taken only then, /metrics'
     * rst_agent_last_event_seq would stand still through a whole minute of a loaded controller
     * while the agents are 78,000 events ahead. These few values follow each change instead.
     */
    private void refreshLive() {
        final var current = snapshot;
        if (current.active()) {
            snapshot = current.withLive(index.agents(), index.sessionUpdates(), index.ingestLag(), pathFailedCommits);
        }
    }

    private void onSwitches(final List<DataTreeCandidate> changes) {
        if (closed) {
            return;
        }
        final double now = clock.getAsDouble();
        final Set<String> touched = new HashSet<>();
        for (var change : changes) {
            final var root = change.getRootNode();
            final var path = change.getRootPath();
            final String rootSwitch = path.isEmpty() ? null : SessionLeaves.nodeId(path.getLastPathArgument());
            if (rootSwitch != null) {
                onSwitch(rootSwitch, root, now, touched);
            } else {
                // the list itself: its entries are the switches
                for (var child : root.childNodes()) {
                    final String node = SessionLeaves.nodeId(child.name());
                    if (node != null) {
                        onSwitch(node, child, now, touched);
                    }
                }
            }
        }
        for (var id : touched) {
            final var sightings = index.sightings(id);
            if (sightings.isEmpty()) {
                announced.remove(id);
                continue;
            }
            final var verdict = detector.verdict(sightings, now);
            if (verdict != null && verdict.failed() && announced.add(id)) {
                publish(sessionFailed(id, verdict, now));
            }
        }
        dirty = true;
        refreshLive();
        tick(1);
    }

    /** One switch entry's change: its sessions' sightings follow it. */
    private void onSwitch(final String node, final DataTreeCandidateNode change, final double now,
            final Set<String> touched) {
        switch (change.modificationType()) {
            case DELETE, DISAPPEARED -> {
                touched.addAll(index.sessionsOf(node));
                index.removeSwitch(node);
            }
            case WRITE, APPEARED -> {
                // a whole switch written: its sessions replace what the index held for it
                final Map<String, MapEntryNode> after = new HashMap<>();
                if (change.dataAfter() instanceof MapEntryNode sw) {
                    for (var session : SessionLeaves.sessionsOf(sw)) {
                        final String id = SessionLeaves.sessionId(session.name());
                        if (id != null) {
                            after.put(id, session);
                        }
                    }
                }
                for (var id : index.sessionsOf(node)) {
                    if (!after.containsKey(id)) {
                        index.removeSighting(node, id);
                        touched.add(id);
                    }
                }
                after.forEach((id, session) -> {
                    index.putSighting(SessionLeaves.sighting(node, session), id, now);
                    touched.add(id);
                });
            }
            case SUBTREE_MODIFIED -> {
                final var sessions = change.modifiedChild(SessionLeaves.SESSIONS);
                if (sessions == null) {
                    // the agent's status, say: no session moved
                    return;
                }
                for (var child : sessions.childNodes()) {
                    final String id = SessionLeaves.sessionId(child.name());
                    if (id == null) {
                        continue;
                    }
                    switch (child.modificationType()) {
                        case UNMODIFIED -> {
                            // nothing
                        }
                        case DELETE, DISAPPEARED -> {
                            index.removeSighting(node, id);
                            touched.add(id);
                        }
                        default -> {
                            if (child.dataAfter() instanceof MapEntryNode session) {
                                index.putSighting(SessionLeaves.sighting(node, session), id, now);
                                touched.add(id);
                            }
                        }
                    }
                }
            }
            default -> {
                // unmodified
            }
        }
    }

    private void agent(final String node, final @Nullable AgentStatus status, final double now) {
        if (status == null) {
            return;
        }
        final var after = AgentFacts.of(node, status);
        final var before = index.putAgent(after);
        if (after.lost() && (before == null || !before.lost())) {
            publish(new AgentUnreachableBuilder().setNodeId(node).setState(String.valueOf(after.state()))
                .setDetail(after.detail()).setTime(ProblemSummary.time(now)).build());
        } else if (before != null && before.lost() && after.answers()) {
            publish(new AgentReachableBuilder().setNodeId(node).setState(String.valueOf(after.state()))
                .setDetail(after.detail()).setTime(ProblemSummary.time(now)).build());
        }
        if (after.dropping() && (before == null || !before.dropping()
                || Double.compare(before.droppingSince(), after.droppingSince()) != 0)) {
            // once each time the agent starts dropping (the status's dropping-since is new)
            publish(new AgentDroppingPacketsBuilder().setNodeId(node).setState(String.valueOf(after.state()))
                .setDetail(after.detail()).setTime(ProblemSummary.time(now))
                .setDroppedPackets(Uint64.valueOf(Math.max(0, after.droppedPackets())))
                .setSince(ProblemSummary.time(after.droppingSince())).build());
        }
    }

    private void onPausedPorts(final List<DataTreeModification<PausedPort>> changes) {
        if (closed) {
            return;
        }
        for (var change : changes) {
            final var key = change.path().toLegacy().firstKeyOf(PausedPort.class);
            if (key == null || key.getNodeId() == null || key.getTpId() == null || key.getPriority() == null) {
                continue;
            }
            final var port = new FabricIndex.PausedPort(key.getNodeId().getValue(), key.getTpId().getValue(),
                key.getPriority().intValue());
            if (change.getRootNode() instanceof DataObjectModification.WithDataAfter<PausedPort> present
                    && present.dataAfter() != null) {
                final var after = present.dataAfter();
                final var sessions = after.getSession() == null ? List.<String>of()
                    : after.getSession().stream().sorted().toList();
                index.putPausedPort(port, new FabricIndex.HeldUp(after.getSessionCount() == null ? sessions.size()
                    : after.getSessionCount().longValue(), sessions));
            } else {
                index.putPausedPort(port, null);
            }
        }
        dirty = true;
    }

    private void onTopology(final LogicalDatastoreType store, final List<DataTreeModification<Topology>> changes) {
        if (closed) {
            return;
        }
        final var byId = topologies.get(store);
        for (var change : changes) {
            final var id = change.path().toLegacy().firstKeyOf(Topology.class).getTopologyId().getValue();
            if (change.getRootNode() instanceof DataObjectModification.WithDataAfter<Topology> present
                    && present.dataAfter() != null) {
                final var links = new ArrayList<Problem.Place[]>();
                for (var link : present.dataAfter().nonnullLink().values()) {
                    final var src = link.getSource();
                    final var dst = link.getDestination();
                    if (src != null && dst != null && src.getSourceNode() != null && src.getSourceTp() != null
                            && dst.getDestNode() != null && dst.getDestTp() != null) {
                        links.add(new Problem.Place[] {
                            new Problem.Place(src.getSourceNode().getValue(),
                                String.valueOf(src.getSourceTp().getValue())),
                            new Problem.Place(dst.getDestNode().getValue(), String.valueOf(dst.getDestTp().getValue())),
                        });
                    }
                }
                byId.put(id, links);
                if (store == LogicalDatastoreType.OPERATIONAL && FabricIndex.LLDP_TOPOLOGY.equals(id)) {
                    lldp(present.dataAfter());
                }
            } else {
                byId.remove(id);
                if (store == LogicalDatastoreType.OPERATIONAL && FabricIndex.LLDP_TOPOLOGY.equals(id)) {
                    index.lldp(List.of(), 0);
                }
            }
        }
        final Map<Problem.Place, Problem.Place> peers = new HashMap<>();
        for (var stored : topologies.values()) {
            for (var links : stored.values()) {
                for (var link : links) {
                    peers.put(link[0], link[1]);
                    peers.put(link[1], link[0]);
                }
            }
        }
        index.links(peers);
        dirty = true;
    }

    /** The LLDP topology's links and the disagreements the controller listed with it. */
    private void lldp(final Topology topology) {
        final var attributes = topology.augmentation(RstLldpTopologyAttributes.class);
        final List<FabricIndex.LldpDisagreement> disagreements = new ArrayList<>();
        if (attributes != null) {
            for (var d : attributes.nonnullLldpDisagreement().values()) {
                if (d.getNodeId() == null || d.getTpId() == null || d.getPeerNodeId() == null
                        || d.getPeerTpId() == null) {
                    continue;
                }
                disagreements.add(new FabricIndex.LldpDisagreement(d.getId(),
                    d.getKind() == null ? "" : d.getKind().getName(),
                    new Problem.Place(d.getNodeId().getValue(), String.valueOf(d.getTpId().getValue())),
                    new Problem.Place(d.getPeerNodeId().getValue(), String.valueOf(d.getPeerTpId().getValue())),
                    d.getPeerSays() == null ? "" : d.getPeerSays(), d.getDetail() == null ? "" : d.getDetail()));
            }
        }
        index.lldp(disagreements, topology.nonnullLink().size());
    }

    private void onPaths(final List<DataTreeCandidate> changes) {
        if (closed) {
            return;
        }
        final double now = clock.getAsDouble();
        for (var change : changes) {
            final var path = change.getRootPath();
            final String rootPath = path.isEmpty() ? null : PathLeaves.sessionId(path.getLastPathArgument());
            if (rootPath != null) {
                onPath(rootPath, change.getRootNode(), now);
            } else {
                // the list itself: its entries are the paths
                for (var child : change.getRootNode().childNodes()) {
                    final String id = PathLeaves.sessionId(child.name());
                    if (id != null) {
                        onPath(id, child, now);
                    }
                }
            }
        }
        dirty = true;
    }

    private void onPath(final String id, final DataTreeCandidateNode change, final double now) {
        switch (change.modificationType()) {
            case UNMODIFIED -> {
                // nothing
            }
            case DELETE, DISAPPEARED -> index.removePath(id);
            default -> {
                if (change.dataAfter() instanceof MapEntryNode node) {
                    final var after = PathLeaves.facts(id, node);
                    final var before = index.putPath(after);
                    if (before != null && after.replaces(before)) {
                        publish(pathChanged(before, after, now));
                    }
                }
            }
        }
    }

    private static Notification<?> sessionFailed(final String id, final Verdict verdict, final double now) {
        final var builder = new SessionFailedBuilder().setSessionId(id).setFailure(verdict.kind())
            .setReason(verdict.reason()).setNodeId(verdict.node()).setTpId(verdict.tp())
            .setTime(ProblemSummary.time(now));
        if (verdict.requesterIp() != null) {
            builder.setRequesterIp(Sighting.ipAddress(verdict.requesterIp()));
        }
        if (verdict.responderIp() != null) {
            builder.setResponderIp(Sighting.ipAddress(verdict.responderIp()));
        }
        if (verdict.kind() == ProblemKind.Rejected && verdict.rejectReason() >= 0) {
            builder.setRejectReason(Uint16.valueOf(verdict.rejectReason()));
        }
        return builder.build();
    }

    private static Notification<?> pathChanged(final PathFacts before, final PathFacts after, final double now) {
        final var builder = new PathChangedBuilder().setSessionId(after.sessionId())
            .setPreviousForward(before.forward()).setForward(after.forward())
            .setPreviousReverse(before.reverse()).setReverse(after.reverse()).setTime(ProblemSummary.time(now));
        if (after.requesterIp() != null) {
            builder.setRequesterIp(Sighting.ipAddress(after.requesterIp()));
        }
        if (after.responderIp() != null) {
            builder.setResponderIp(Sighting.ipAddress(after.responderIp()));
        }
        return builder.build();
    }

    private void publish(final Notification<?> notification) {
        LOG.debug("Publishing {}", notification);
        // offer, never put: a slow subscriber must not stall the index (a refused one is counted in the log)
        final var future = notifications.offerNotification(notification);
        if (future == NotificationPublishService.REJECTED) {
            LOG.warn("Notification queue full: dropped {}", notification.implementedInterface().getSimpleName());
        }
    }

    /**
     * Recomputes when something changed and a second passed, or when idleRecompute passed; never
     * sooner than {@link #SHARE} allows after the last recomputation: a recomputation over 100,000 sessions
     * must not take the CPU the flow and path tables' own ingest needs.
     */
    private void tick(final double idleRecompute) {
        if (closed) {
            return;
        }
        final double since = (System.nanoTime() - lastRecompute) / 1e9;
        final double minimum = Math.max(minRecompute, lastTook / SHARE);
        if (since >= minimum && (dirty || since >= idleRecompute)) {
            recompute(clock.getAsDouble());
        }
    }

    private void recompute(final double now) {
        final long start = System.nanoTime();
        dirty = false;
        lastRecompute = start;
        final var problems = detector.detect(index, now);
        announce(problems, now);
        final var summary = ProblemSummary.of(problems);
        final var content = summary.toContainer(null);
        if (!content.equals(written)) {
            written = content;
            final var tx = broker.newWriteOnlyTransaction();
            tx.put(LogicalDatastoreType.OPERATIONAL, PROBLEMS, summary.toContainer(Instant.now()));
            tx.commit().addCallback(new FutureCallback<CommitInfo>() {
                @Override
                public void onSuccess(final CommitInfo result) {
                    LOG.debug("Problems written: {}", summary.total());
                }

                @Override
                public void onFailure(final Throwable cause) {
                    LOG.warn("Writing the problems failed; retried on the next change", cause);
                    executor.execute(() -> {
                        written = null;
                        dirty = true;
                    });
                }
            }, MoreExecutors.directExecutor());
        }
        snapshot = snapshot(summary, now, (System.nanoTime() - start) / 1e9);
        lastTook = (System.nanoTime() - start) / 1e9;
    }

    /**
     * Publishes the congestion problems (congested, pfc-storm, pfc-deadlock-suspect) and the LLDP
     * disagreements (lldp-disagreement) that were not there at the last recomputation: once when
     * each appears, again only after it went.
     */
    private void announce(final List<Problem> problems, final double now) {
        final Set<String> current = new HashSet<>();
        for (var problem : problems) {
            final var kind = problem.kind();
            if (kind != ProblemKind.Congested && kind != ProblemKind.PfcStorm
                    && kind != ProblemKind.PfcDeadlockSuspect && kind != ProblemKind.LldpDisagreement) {
                continue;
            }
            current.add(problem.id());
            if (!raised.contains(problem.id())) {
                publish(notification(problem, now));
            }
        }
        raised = current;
    }

    private Notification<?> notification(final Problem problem, final double now) {
        final var time = ProblemSummary.time(now);
        final var sessions = problem.sessions().isEmpty() ? null : new LinkedHashSet<>(problem.sessions());
        final var count = Uint32.valueOf(Math.min(problem.count(), 0xFFFF_FFFFL));
        return switch (problem.kind()) {
            case Congested -> {
                final var tally = detector.tally(index, problem.id().substring("congested|".length()));
                final var builder = new CongestedBuilder().setProblemId(problem.id()).setNodeId(problem.node())
                    .setTpId(problem.tp()).setDetail(problem.detail()).setCount(count).setSessionId(sessions)
                    .setTime(time).setDirection(problem.direction() == null ? null
                        : DataDirection.forName(problem.direction()))
                    .setLearnedFrom(problem.learnedFrom() == null ? null
                        : Congested.LearnedFrom.forName(problem.learnedFrom()))
                    .setCePackets(Uint64.valueOf(tally.ce)).setEctPackets(Uint64.valueOf(tally.ect))
                    .setCnpPackets(Uint64.valueOf(tally.cnp));
                if (!Double.isNaN(tally.maxShare)) {
                    builder.setCeShare(share(tally.maxShare));
                }
                yield builder.build();
            }
            case PfcStorm -> {
                final var builder = new PfcStormBuilder().setProblemId(problem.id()).setNodeId(problem.node())
                    .setTpId(problem.tp()).setDetail(problem.detail()).setCount(count).setSessionId(sessions)
                    .setTime(time).setPriority(Uint8.valueOf(problem.priority()))
                    .setHeldUpSessions(Uint32.valueOf(Math.min(problem.heldUp(), 0xFFFF_FFFFL)));
                final double paused = pausedShare(problem);
                if (!Double.isNaN(paused)) {
                    builder.setPausedShare(share(paused));
                }
                yield builder.build();
            }
            case LldpDisagreement -> new LldpDisagreementBuilder().setProblemId(problem.id())
                .setNodeId(problem.node()).setTpId(problem.tp()).setDetail(problem.detail()).setCount(count)
                .setTime(time).setPeerNodeId(problem.peer() == null ? null : problem.peer().node())
                .setPeerTpId(problem.peer() == null ? null : problem.peer().tp()).setDisagreement(problem.reason())
                .build();
            default -> new PfcDeadlockSuspectBuilder().setProblemId(problem.id()).setNodeId(problem.node())
                .setTpId(problem.tp()).setDetail(problem.detail()).setCount(count).setSessionId(sessions)
                .setTime(time).setPriority(Uint8.valueOf(problem.priority()))
                .setPeerNodeId(problem.peer() == null ? null : problem.peer().node())
                .setPeerTpId(problem.peer() == null ? null : problem.peer().tp())
                .setHeldUpSessions(Uint32.valueOf(Math.min(problem.heldUp(), 0xFFFF_FFFFL))).build();
        };
    }

    /** The paused share of a PFC storm's port and priority, as its agent's status says it now. */
    private double pausedShare(final Problem problem) {
        for (var agent : index.agents()) {
            if (agent.switchId().equals(problem.node())) {
                for (var pfc : agent.pfc()) {
                    if (pfc.tp().equals(problem.tp()) && pfc.priority() == problem.priority()) {
                        return pfc.pausedShare();
                    }
                }
            }
        }
        return Double.NaN;
    }

    /** A share as YANG's decimal64 of four digits (0 to 1). */
    private static Decimal64 share(final double value) {
        return Decimal64.valueOf(BigDecimal.valueOf(Math.max(0, Math.min(1, value))).setScale(4,
            RoundingMode.HALF_EVEN));
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        ticker.cancel(false);
        registrations.forEach(Registration::close);
        registrations.clear();
        snapshot = Snapshot.INACTIVE;
        // the problems belong to the active instance: the next one writes its own
        final var tx = broker.newWriteOnlyTransaction();
        tx.delete(LogicalDatastoreType.OPERATIONAL, PROBLEMS);
        tx.commit().addCallback(new FutureCallback<CommitInfo>() {
            @Override
            public void onSuccess(final CommitInfo result) {
                LOG.debug("Problems removed");
            }

            @Override
            public void onFailure(final Throwable cause) {
                LOG.warn("Removing the problems failed", cause);
            }
        }, MoreExecutors.directExecutor());
    }
}
