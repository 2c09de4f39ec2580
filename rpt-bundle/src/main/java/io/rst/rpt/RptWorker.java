/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rpt;

import com.google.common.util.concurrent.FutureCallback;
import com.google.common.util.concurrent.ListenableFuture;
import com.google.common.util.concurrent.MoreExecutors;
import edu.umd.cs.findbugs.annotations.SuppressFBWarnings;
import io.rst.yang.chain.RecoveringChain;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.jdt.annotation.Nullable;
import org.opendaylight.mdsal.binding.api.DataBroker;
import org.opendaylight.mdsal.binding.api.DataObjectDeleted;
import org.opendaylight.mdsal.binding.api.DataObjectModified;
import org.opendaylight.mdsal.binding.api.DataObjectWritten;
import org.opendaylight.mdsal.binding.api.DataTreeChangeListener;
import org.opendaylight.mdsal.binding.api.DataTreeModification;
import org.opendaylight.mdsal.binding.api.RpcProviderService;
import org.opendaylight.mdsal.common.api.CommitInfo;
import org.opendaylight.mdsal.common.api.LogicalDatastoreType;
import org.opendaylight.mdsal.dom.api.DOMDataBroker;
import org.opendaylight.mdsal.dom.api.DOMDataTreeChangeListener;
import org.opendaylight.mdsal.dom.api.DOMDataTreeIdentifier;
import org.opendaylight.mdsal.dom.api.DOMDataTreeWriteTransaction;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.IpAddress;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.LearnedFrom;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.Rft;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft.Switch;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.AgentStatus;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.RptSettings;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.SessionsThrough;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.SessionsThroughInput;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.SessionsThroughOutput;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.SessionsThroughOutputBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.TraceSession;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.TraceSessionInput;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.TraceSessionOutput;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.TraceSessionOutputBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.rpt.Path;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.topology.rev261201.RstNodeAttributes;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.NetworkTopology;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.network.topology.Topology;
import org.opendaylight.yangtools.binding.DataObjectReference;
import org.opendaylight.yangtools.concepts.Registration;
import org.opendaylight.yangtools.yang.common.QName;
import org.opendaylight.yangtools.yang.common.RpcResultBuilder;
import org.opendaylight.yangtools.yang.data.api.YangInstanceIdentifier;
import org.opendaylight.yangtools.yang.data.api.YangInstanceIdentifier.NodeIdentifier;
import org.opendaylight.yangtools.yang.data.api.YangInstanceIdentifier.NodeIdentifierWithPredicates;
import org.opendaylight.yangtools.yang.data.api.schema.MapEntryNode;
import org.opendaylight.yangtools.yang.data.api.schema.MapNode;
import org.opendaylight.yangtools.yang.data.api.schema.NormalizedNode;
import org.opendaylight.yangtools.yang.data.tree.api.DataTreeCandidate;
import org.opendaylight.yangtools.yang.data.tree.api.DataTreeCandidateNode;
import org.opendaylight.yangtools.yang.data.tree.api.ModificationType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The RPT while this member owns the singleton: follows every switch's flow table and the
 * topology (links, and hosts with their addresses, from both the configuration datastore, where an
 * operator or an inventory import writes over RESTCONF, and the operational one, where discovery
 * writes), keeps each session's paths, writes them to {@code rdma-path-table:rpt} and answers the
 * RPCs from memory. State is confined to one executor thread; listeners only enqueue. The flow
 * tables are followed through the DOM API: of each session a switch has, only what a path needs is
 * kept ({@link SwitchSession}), read straight from the changed list entries, and each path is kept
 * as a {@link PathValue} and written as the node {@link PathNodes} makes of it; the binding objects
 * of the sessions and paths (a session's decoded lazily, then cached) would be most of this thread's
 * time and of the heap per session. Only the RPCs, which are rare, make binding paths. From the
 * switches' statuses it keeps the ports and priorities PFC pauses, and writes each with the sessions
 * whose data it holds up ({@code rpt/paused-port}, {@link PausedPorts}); from the configuration, the
 * fabric's DSCP to priority map ({@code rpt-settings}, {@link DscpMap}).
 */
@SuppressFBWarnings(value = "NP_NONNULL_FIELD_NOT_INITIALIZED_IN_CONSTRUCTOR",
    justification = "SpotBugs reads no TYPE_USE @Nullable on fields: these fields are @Nullable")
final class RptWorker implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RptWorker.class);
    /** How long flow-table changes are gathered before the paths they touch are computed. */
    static final Duration GATHER = Duration.ofMillis(20);
    /** Paths computed and written in one transaction at most (a backlog goes out in several). */
    private static final int MAX_PATHS_PER_TRANSACTION = 2000;
    /** The first wait before paths of a refused commit are written again; it doubles while commits keep failing. */
    private static final Duration RETRY_FIRST = Duration.ofMillis(100);
    private static final Duration RETRY_MAX = Duration.ofSeconds(10);
    /** How long closing waits for the recomputation under way. */
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(10);
    /**
     * How long a new session's path waits for the rest of its switches while it is incomplete:
     * a session's switches report it within a few hundred milliseconds of each other (each agent
     * holds its events briefly to put its ports' captures in order), and a path written half-made
     * is written again moments later. A path whose switches never all report (a switch without
     * RFT, a REQ never answered) is written when the wait is over.
     */
    static final Duration HOLD_INCOMPLETE = Duration.ofMillis(300);

    private static final NodeIdentifier RFT = NodeIdentifier.create(Rft.QNAME);
    private static final NodeIdentifier SWITCH = NodeIdentifier.create(Switch.QNAME);
    private static final QName NODE_ID = QName.create(Switch.QNAME, "node-id").intern();
    /** {@code rft/switch}: the switches' list, whose entries' changes come as its candidate's children. */
    private static final YangInstanceIdentifier SWITCHES = YangInstanceIdentifier.of(RFT, SWITCH);
    private static final SwitchSession[] NO_SWITCHES = new SwitchSession[0];
    private static final NodeIdentifier AGENT_STATUS = NodeIdentifier.create(AgentStatus.QNAME);

    private final ExecutorService executor;
    // replaced on the executor when the datastore fails it (a refused commit fails its chain)
    private final RecoveringChain chain;
    private volatile boolean closed;
    /** Tests: runs on the RPT's thread after each path a recomputation assembles. */
    private volatile @Nullable Runnable afterAssembly;
    private final List<Registration> registrations = new ArrayList<>();

    // executor-confined: each session as each switch that saw it has it (a few switches each);
    // a one-way flow the controller paired is under the session it was paired into
    private final Map<String, SwitchSession[]> sessions = new HashMap<>();
    // executor-confined: one-way flows under the session they were paired into, by switch and flow
    // ("node\nflow id") -> that session's id; the other flow-table entries are under their own id
    private final Map<String, String> pairedInto = new HashMap<>();
    // executor-confined: data-learned records that joined a CM session ("node\nrecord id"), as their
    // switch reported them: placed again when their CM session comes, or goes
    private final Map<String, SwitchSession> joinedReports = new HashMap<>();
    // executor-confined: CM sessions no switch reports (yet, or any more) to the records that
    // joined them ("node\nrecord id"); those wait under their own id, their path held back
    private final Map<String, Set<String>> waiting = new HashMap<>();
    private final Map<String, String> waitingFor = new HashMap<>();
    // every switch RFT knows, whether or not it has sessions now: a path through one that saw
    // nothing is a gap, while a node RFT does not know (a host) is where a path starts or ends
    private final Set<String> rftSwitches = new HashSet<>();
    private LinkIndex links = LinkIndex.EMPTY;
    private HostIndex hosts = HostIndex.EMPTY;
    // the fabric's DSCP to priority map (rpt-settings)
    private DscpMap dscp = DscpMap.DEFAULT;
    // executor-confined: the ports and priorities each switch's status says are paused, the
    // switches whose paused-port entries are to be written again, and the entries written
    private final Map<String, List<PausedPorts.Pause>> pauses = new HashMap<>();
    private final Set<String> pausesChanged = new HashSet<>();
    private final Map<String, List<YangInstanceIdentifier>> pausedWritten = new HashMap<>();
    // per datastore, by topology id: the two are merged (a link in either counts)
    private final Map<LogicalDatastoreType, Map<String, Topology>> topologies = Map.of(
        LogicalDatastoreType.CONFIGURATION, new HashMap<>(), LogicalDatastoreType.OPERATIONAL, new HashMap<>());

    // read by RPC threads
    private final Map<String, PathValue> paths = new ConcurrentHashMap<>();
    // executor-confined: the parts of path nodes that repeat between paths, made once
    private final PathNodes.Cache nodes = new PathNodes.Cache();

    // listener threads add, the executor drains
    private final Queue<List<DataTreeCandidate>> pendingSwitchChanges = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean drainQueued = new AtomicBoolean();
    private final Executor gather;
    // executor-confined: sessions whose first path is held back while incomplete, with the
    // System.nanoTime() their hold ends
    private final Map<String, Long> held = new HashMap<>();
    private boolean heldDrainQueued;
    private final Executor heldDrain;
    private final Duration holdIncomplete;
    private long pathsHeld;
    private long pathsUnchanged;
    private long pathsRewrittenInPart;
    // executor-confined: paths whose commit the datastore refused, so whose state there is not
    // known: written again whole (or deleted) by the next recomputation that takes them
    private final Set<String> unsure = new HashSet<>();
    private boolean retryQueued;
    // reset by the next commit that succeeds
    private volatile long retryDelayMillis = RETRY_FIRST.toMillis();
    private final AtomicLong failedCommits = new AtomicLong();

    RptWorker(final DataBroker broker, final DOMDataBroker domBroker, final RpcProviderService rpcs,
            final ExecutorService executor) {
        this(broker, domBroker, rpcs, executor, HOLD_INCOMPLETE);
    }

    /** With another hold of new, incomplete paths (tests). */
    RptWorker(final DataBroker broker, final DOMDataBroker domBroker, final RpcProviderService rpcs,
            final ExecutorService executor, final Duration holdIncomplete) {
        this.holdIncomplete = holdIncomplete;
        this.executor = executor;
        this.gather = CompletableFuture.delayedExecutor(GATHER.toMillis(), TimeUnit.MILLISECONDS, executor);
        // a third of the hold: a held path goes out at most a third of the hold late
        this.heldDrain = CompletableFuture.delayedExecutor(Math.max(1, holdIncomplete.toMillis() / 3),
            TimeUnit.MILLISECONDS,
            executor);
        this.chain = new RecoveringChain(domBroker, "RPT", this::executeUnlessClosed, () -> { });
        final var tx = chain.newWriteOnlyTransaction();
        tx.put(LogicalDatastoreType.OPERATIONAL, PathNodes.rptIdentifier(), PathNodes.emptyRpt());
        tx.commit().addCallback(logFailure("empty path table"), MoreExecutors.directExecutor());

        for (var store : List.of(LogicalDatastoreType.CONFIGURATION, LogicalDatastoreType.OPERATIONAL)) {
            registrations.add(broker.registerTreeChangeListener(store,
                DataObjectReference.builder(NetworkTopology.class).child(Topology.class).build(),
                (DataTreeChangeListener<Topology>) changes -> executor.execute(() -> onTopology(store, changes))));
        }
        registrations.add(broker.registerTreeChangeListener(LogicalDatastoreType.CONFIGURATION,
            DataObjectReference.builder(RptSettings.class).build(),
            (DataTreeChangeListener<RptSettings>) changes -> executor.execute(() -> onSettings(changes))));
        final var treeChanges = domBroker.extension(DOMDataBroker.DataTreeChangeExtension.class);
        if (treeChanges == null) {
            throw new IllegalStateException("the DOM data broker " + domBroker + " has no tree change listeners");
        }
        registrations.add(treeChanges.registerTreeChangeListener(
            DOMDataTreeIdentifier.of(LogicalDatastoreType.OPERATIONAL, SWITCHES), new DOMDataTreeChangeListener() {
                @Override
                public void onDataTreeChanged(final List<DataTreeCandidate> changes) {
                    enqueueSwitches(changes);
                }

                @Override
                public void onInitialData() {
                    // no switch yet
                }
            }));
        registrations.add(rpcs.registerRpcImplementations((TraceSession) this::traceSession,
            (SessionsThrough) this::sessionsThrough));
    }

    private void onTopology(final LogicalDatastoreType store, final List<DataTreeModification<Topology>> changes) {
        final var byId = topologies.get(store);
        for (var change : changes) {
            final var root = change.getRootNode();
            switch (root) {
                case DataObjectWritten<Topology> written -> byId.put(written.dataAfter().getTopologyId().getValue(),
                    written.dataAfter());
                case DataObjectModified<Topology> modified -> byId.put(
                    modified.dataAfter().getTopologyId().getValue(), modified.dataAfter());
                case DataObjectDeleted<Topology> deleted -> byId.remove(
                    root.coerceKeyStep(Topology.class).key().getTopologyId().getValue());
            }
        }
        final var linkBuilder = LinkIndex.builder();
        final var hostBuilder = HostIndex.builder();
        for (var stored : topologies.values()) {
            for (var topology : stored.values()) {
                addLinks(topology, linkBuilder);
                addNodes(topology, hostBuilder);
            }
        }
        final var newLinks = linkBuilder.build();
        final var newHosts = hostBuilder.build();
        if (newLinks.equals(links) && newHosts.equals(hosts)) {
            // a change that moves no path (a node's other attributes, say): nothing to recompute
            return;
        }
        final boolean hostsChanged = !newHosts.equals(hosts);
        final var touched = links.nodesOfChangedLinks(newLinks);
        links = newLinks;
        hosts = newHosts;
        if (hostsChanged) {
            // a host's addresses decide where paths start and end: every path again (rare)
            LOG.debug("RPT topology: hosts changed, {} links: every path again", links.size());
            recompute(new HashSet<>(sessions.keySet()));
            return;
        }
        // only the paths a changed link can move: those seen by, or running through, a node at
        // either end of it (a path's every hop is found from the links at its nodes)
        final Set<String> dirty = new HashSet<>();
        addPathsAt(touched, dirty);
        LOG.debug("RPT topology: {} links, links at {} changed: {} paths again", links.size(), touched, dirty.size());
        recompute(dirty);
    }

    /** The DSCP to priority map configured: every path with data again when it changes (rare). */
    private void onSettings(final List<DataTreeModification<RptSettings>> changes) {
        RptSettings settings = null;
        for (var change : changes) {
            settings = change.getRootNode().dataAfter();
        }
        final Map<Integer, Integer> configured = new HashMap<>();
        if (settings != null) {
            for (var entry : settings.nonnullDscpPriority().values()) {
                if (entry.getDscp() != null && entry.getPriority() != null) {
                    configured.put(entry.getDscp().intValue(), entry.getPriority().intValue());
                }
            }
        }
        final var map = new DscpMap(configured);
        if (map.equals(dscp)) {
            return;
        }
        dscp = map;
        final Set<String> withData = new HashSet<>();
        for (var path : paths.values()) {
            if (path.data() != null) {
                withData.add(path.sessionId());
            }
        }
        LOG.debug("RPT: DSCP to priority map {}: {} paths with data again", configured, withData.size());
        recompute(withData);
        pausesChanged.addAll(pauses.keySet());
        writePausedPorts();
    }

    /**
     * Writes the paused-port entries of the switches whose status changed: each paused port and
     * priority with the sessions whose data it holds up now ({@link PausedPorts}); those no longer
     * paused are deleted.
     */
    private void writePausedPorts() {
        if (pausesChanged.isEmpty() || closed) {
            return;
        }
        DOMDataTreeWriteTransaction tx = null;
        for (var node : pausesChanged) {
            final var before = pausedWritten.remove(node);
            final List<YangInstanceIdentifier> now = new ArrayList<>();
            for (var pause : pauses.getOrDefault(node, List.of())) {
                final var id = PathNodes.pausedPortIdentifier(node, pause.tp(), pause.priority());
                if (tx == null) {
                    tx = newTransaction();
                }
                tx.put(LogicalDatastoreType.OPERATIONAL, id, PathNodes.pausedPort(PausedPorts.of(node, pause,
                    paths.values())));
                now.add(id);
            }
            if (before != null) {
                for (var id : before) {
                    if (!now.contains(id)) {
                        if (tx == null) {
                            tx = newTransaction();
                        }
                        tx.delete(LogicalDatastoreType.OPERATIONAL, id);
                    }
                }
            }
            if (!now.isEmpty()) {
                pausedWritten.put(node, now);
            }
        }
        pausesChanged.clear();
        if (tx != null) {
            commit(tx, List.of());
        }
    }

    /**
     * Takes the paused ports and priorities of a switch's status ({@code pfc}) when the status was
     * written: the switch's paused-port entries are written again, with the sessions crossing them
     * now, whenever it pauses or just stopped (every probe of its agent while it pauses).
     */
    private void takePauses(final String node, final @Nullable NormalizedNode after) {
        final var now = PausedPorts.of(after);
        final var before = now.isEmpty() ? pauses.remove(node) : pauses.put(node, now);
        if (!now.isEmpty() || before != null) {
            pausesChanged.add(node);
        }
    }

    /** Adds the sessions seen by any of {@code changedNodes}, or whose path runs through one of them. */
    private void addPathsAt(final Set<String> changedNodes, final Set<String> dirty) {
        for (var entry : sessions.entrySet()) {
            for (var seen : entry.getValue()) {
                if (changedNodes.contains(seen.node())) {
                    dirty.add(entry.getKey());
                    break;
                }
            }
        }
        for (var path : paths.values()) {
            if (!dirty.contains(path.sessionId()) && path.touches(changedNodes)) {
                dirty.add(path.sessionId());
            }
        }
    }

    private static void addLinks(final Topology topology, final LinkIndex.Builder builder) {
        for (var link : topology.nonnullLink().values()) {
            final var src = link.getSource();
            final var dst = link.getDestination();
            if (src == null || dst == null || src.getSourceNode() == null || src.getSourceTp() == null
                    || dst.getDestNode() == null || dst.getDestTp() == null) {
                continue;
            }
            builder.link(src.getSourceNode().getValue(), String.valueOf(src.getSourceTp().getValue()),
                dst.getDestNode().getValue(), String.valueOf(dst.getDestTp().getValue()));
        }
    }

    private static void addNodes(final Topology topology, final HostIndex.Builder builder) {
        for (var node : topology.nonnullNode().values()) {
            final var attributes = node.augmentation(RstNodeAttributes.class);
            if (attributes == null) {
                continue;
            }
            final var id = node.getNodeId().getValue();
            final var kind = attributes.getNodeKind();
            final var addresses = attributes.getIpAddress();
            if (kind == RstNodeAttributes.NodeKind.Switch) {
                builder.switchNode(id);
            } else if (kind == RstNodeAttributes.NodeKind.Host || addresses != null && !addresses.isEmpty()) {
                // addresses without a kind: what has addresses for sessions to start from is a host
                builder.host(id, addresses == null ? List.of()
                    : addresses.stream().map(IpAddress::stringValue).toList());
            }
        }
    }

    /**
     * Queues flow-table changes and, unless a drain is already queued, a drain: under load the
     * changes of many commits (several agents' batches, each switch of a session) are applied
     * together and each touched path is computed and written once, while an idle worker still
     * takes a single change at once.
     */
    private void enqueueSwitches(final List<DataTreeCandidate> changes) {
        pendingSwitchChanges.add(changes);
        if (drainQueued.compareAndSet(false, true)) {
            // a session's switches report it within a few milliseconds of each other (their
            // agents' batches): waiting as long writes its path once rather than once per switch
            gather.execute(this::drainSwitches);
        }
    }

    private void drainSwitches() {
        drainQueued.set(false);
        final Set<String> dirty = new HashSet<>();
        List<DataTreeCandidate> changes;
        // a bounded batch: a backlog goes out as a stream of transactions, each path in it soon,
        // rather than as one that holds every path back until all are computed
        while (dirty.size() < MAX_PATHS_PER_TRANSACTION && (changes = pendingSwitchChanges.poll()) != null) {
            applySwitches(changes, dirty);
        }
        recompute(dirty);
        writePausedPorts();
        if (!closed && !pendingSwitchChanges.isEmpty() && drainQueued.compareAndSet(false, true)) {
            executor.execute(this::drainSwitches);
        }
    }

    private void applySwitches(final List<DataTreeCandidate> changes, final Set<String> dirty) {
        // switches RFT learns or forgets: a path breaks at a node RFT does not trace, while it
        // infers a traced switch that saw nothing; the paths at the node and its neighbours move
        final Set<String> learnedOrForgotten = new HashSet<>();
        for (var change : changes) {
            // registered at rft/switch: the root is the list, its children the switches
            final var root = change.getRootNode();
            if (root.modificationType() == ModificationType.UNMODIFIED) {
                continue;
            }
            for (var child : root.childNodes()) {
                applySwitch(child, learnedOrForgotten, dirty);
            }
        }
        if (!learnedOrForgotten.isEmpty()) {
            final Set<String> around = new HashSet<>(learnedOrForgotten);
            for (var node : learnedOrForgotten) {
                for (var link : links.from(node)) {
                    around.add(link.dest().node());
                }
            }
            addPathsAt(around, dirty);
        }
    }

    private void applySwitch(final DataTreeCandidateNode change, final Set<String> learnedOrForgotten,
            final Set<String> dirty) {
        if (change.modificationType() == ModificationType.UNMODIFIED
                || !(change.name() instanceof NodeIdentifierWithPredicates key)
                || !(key.getValue(NODE_ID) instanceof String name)) {
            return;
        }
        final String node = Names.intern(name);
        final var after = change.dataAfter();
        if (after == null) {
            if (rftSwitches.remove(node)) {
                learnedOrForgotten.add(node);
            }
            takePauses(node, null);
            replaceAll(node, Map.of(), dirty);
            return;
        }
        if (rftSwitches.add(node)) {
            learnedOrForgotten.add(node);
        }
        final var status = change.modifiedChild(AGENT_STATUS);
        if (change.dataBefore() == null || status != null && status.modificationType() != ModificationType.UNMODIFIED) {
            takePauses(node, after);
        }
        if (change.dataBefore() == null) {
            replaceAll(node, sessionsOf(node, after), dirty);
            return;
        }
        // only the sessions that changed: a switch's table can hold 250,000 of them. A switch entry
        // written with its agent status alone leaves them unmodified; one put again still says
        // which sessions changed
        final var table = change.modifiedChild(SwitchSession.SESSION);
        if (table == null || table.modificationType() == ModificationType.UNMODIFIED) {
            return;
        }
        for (var entry : table.childNodes()) {
            if (entry.modificationType() == ModificationType.UNMODIFIED
                    || !(entry.name() instanceof NodeIdentifierWithPredicates entryKey)
                    || !(entryKey.getValue(SwitchSession.SESSION_ID) instanceof String id)) {
                continue;
            }
            final var now = entry.dataAfter();
            if (now == null) {
                forget(node, id, dirty);
            } else if (now instanceof MapEntryNode session) {
                final var seen = read(node, id, session);
                if (seen != null) {
                    place(node, id, seen, dirty);
                }
            }
        }
    }

    /** What a path needs of a session's entry, or null (logged) where the entry cannot be read. */
    @SuppressWarnings("checkstyle:IllegalCatch") // an entry that cannot be read, however it fails, is skipped
    private static @Nullable SwitchSession read(final String node, final String id, final MapEntryNode session) {
        try {
            return SwitchSession.of(node, session);
        } catch (RuntimeException e) {
            // the datastore validates what it stores: not expected, and one session only
            LOG.warn("RPT skips session {} of {}: its entry cannot be read", id, node, e);
            return null;
        }
    }

    private void replaceAll(final String node, final Map<String, SwitchSession> now, final Set<String> dirty) {
        // rare (a switch learnt or forgotten): every session is looked at for those of the switch
        final List<String> gone = new ArrayList<>();
        for (var entry : sessions.entrySet()) {
            for (var seen : entry.getValue()) {
                // what the switch's flow table calls it: a paired flow its own id
                final String id = seen.sourceId() != null ? seen.sourceId() : entry.getKey();
                if (seen.node().equals(node) && !now.containsKey(id)) {
                    gone.add(id);
                }
            }
        }
        for (var id : gone) {
            forget(node, id, dirty);
        }
        for (var entry : now.entrySet()) {
            place(node, entry.getKey(), entry.getValue(), dirty);
        }
    }

    /**
     * Records the flow table's entry {@code id} of {@code node}: under its own id, or, for a
     * data-learned record the controller paired ({@code paired-session}), under the session it was
     * paired into, as that session's data in its direction(s): a one-way flow into the data-learned
     * session of its two directions, a one-way flow or a data-learned session into the CM session
     * of its QPs. A record joined to a CM session no switch reports (yet) waits under its own id,
     * its path held back, and goes into the CM session when that comes. A record paired or
     * unpaired since it was last recorded leaves where it was.
     */
    private void place(final String node, final String id, final SwitchSession reported, final Set<String> dirty) {
        final String key = node + '\n' + id;
        final String pairedWith = reported.pairedSession();
        SwitchSession part = null;
        unwait(key);
        joinedReports.remove(key);
        if (pairedWith != null && SwitchSession.DataEnds.parse(pairedWith) != null) {
            part = reported.partOf(pairedWith, id);
        } else if (pairedWith != null) {
            final var cm = cmEnds(pairedWith);
            if (cm == null) {
                waiting.computeIfAbsent(pairedWith, k -> new HashSet<>()).add(key);
                waitingFor.put(key, pairedWith);
                joinedReports.put(key, reported);
            } else {
                part = reported.joining(cm, id);
                if (part != null) {
                    joinedReports.put(key, reported);
                }
            }
        }
        final String target = part == null ? id : pairedWith;
        final String was = pairedInto.get(key);
        if (was != null && !was.equals(target)) {
            remove(was, node, id, dirty);
            pairedInto.remove(key);
        } else if (was == null && part != null) {
            // until now a path of its own
            remove(id, node, null, dirty);
        }
        if (part != null) {
            pairedInto.put(key, target);
            put(target, part, dirty);
        } else {
            put(id, reported, dirty);
            if (!reported.learnedData()) {
                // a CM session's report: the records waiting for it join it
                joinWaiting(id, dirty);
            }
        }
    }

    /** The ends of the CM session {@code id} as the switches that report it have them, or null if none does. */
    private SwitchSession.@Nullable Ends cmEnds(final String id) {
        String requester = null;
        String responder = null;
        int requesterQpn = -1;
        int responderQpn = -1;
        for (var seen : sessions.getOrDefault(id, NO_SWITCHES)) {
            if (seen.sourceId() != null || seen.learnedData()) {
                continue;
            }
            if (requester == null) {
                requester = seen.requesterIp();
            }
            if (responder == null) {
                responder = seen.responderIp();
            }
            if (requesterQpn < 0) {
                requesterQpn = seen.requesterQpn();
            }
            if (responderQpn < 0) {
                responderQpn = seen.responderQpn();
            }
        }
        return requester == null || responder == null ? null
            : new SwitchSession.Ends(requester, requesterQpn, responder, responderQpn);
    }

    /** The records that wait for the CM session {@code id}, placed again now that a switch reports it. */
    private void joinWaiting(final String id, final Set<String> dirty) {
        final var keys = waiting.remove(id);
        if (keys == null) {
            return;
        }
        for (var key : keys) {
            waitingFor.remove(key);
            final var reported = joinedReports.get(key);
            if (reported != null) {
                place(reported.node(), key.substring(key.indexOf('\n') + 1), reported, dirty);
            }
        }
    }

    /**
     * The CM session {@code id} lost a switch's report: if none is left, the records that joined it
     * go back under their own ids, to wait for it there (and come back if a switch reports it again).
     */
    private void leaveIfGone(final String id, final Set<String> dirty) {
        final var seen = sessions.get(id);
        if (seen == null || SwitchSession.DataEnds.parse(id) != null || cmEnds(id) != null) {
            return;
        }
        for (var part : seen.clone()) {
            if (part.sourceId() == null) {
                continue;
            }
            final var reported = joinedReports.get(part.node() + '\n' + part.sourceId());
            if (reported != null) {
                place(part.node(), part.sourceId(), reported, dirty);
            }
        }
    }

    private void unwait(final String key) {
        final String target = waitingFor.remove(key);
        if (target != null) {
            final var keys = waiting.get(target);
            if (keys != null && keys.remove(key) && keys.isEmpty()) {
                waiting.remove(target);
            }
        }
    }

    /** Records the session as {@code reported}'s switch has it; dirty unless that changes what a path shows. */
    private void put(final String id, final SwitchSession reported, final Set<String> dirty) {
        final var before = sessions.getOrDefault(id, NO_SWITCHES);
        final int at = indexOf(before, reported.node(), reported.sourceId());
        if (at >= 0 && before[at].equals(reported)) {
            // what the path needs is as it was (a packet count changed, say): the path is too
            return;
        }
        // the session's addresses once, whichever switches have them
        final var seen = before.length == 0 ? reported : reported.sharing(before[at == 0 && before.length > 1 ? 1 : 0]);
        final SwitchSession[] after;
        if (at < 0) {
            after = Arrays.copyOf(before, before.length + 1);
            after[before.length] = seen;
        } else {
            after = before.clone();
            after[at] = seen;
        }
        sessions.put(id, after);
        dirty.add(id);
    }

    /** The flow table's entry {@code id} of {@code node} is gone: so is what it stood for. */
    private void forget(final String node, final String id, final Set<String> dirty) {
        final String key = node + '\n' + id;
        final String pairedWith = pairedInto.remove(key);
        unwait(key);
        joinedReports.remove(key);
        if (pairedWith != null) {
            remove(pairedWith, node, id, dirty);
        } else {
            remove(id, node, null, dirty);
            leaveIfGone(id, dirty);
        }
    }

    /** Takes what {@code node} reported as {@code sourceId} (null: the session itself) out of path {@code id}. */
    private void remove(final String id, final String node, final @Nullable String sourceId, final Set<String> dirty) {
        final var before = sessions.get(id);
        final int at = before == null ? -1 : indexOf(before, node, sourceId);
        if (at < 0) {
            return;
        }
        if (before.length == 1) {
            sessions.remove(id);
        } else {
            final var after = new SwitchSession[before.length - 1];
            System.arraycopy(before, 0, after, 0, at);
            System.arraycopy(before, at + 1, after, at, before.length - at - 1);
            sessions.put(id, after);
        }
        dirty.add(id);
    }

    private static int indexOf(final SwitchSession[] seen, final String node, final @Nullable String sourceId) {
        for (int i = 0; i < seen.length; i++) {
            if (seen[i].node().equals(node) && java.util.Objects.equals(seen[i].sourceId(), sourceId)) {
                return i;
            }
        }
        return -1;
    }

    private static Map<String, SwitchSession> sessionsOf(final String node, final NormalizedNode sw) {
        final Map<String, SwitchSession> map = new HashMap<>();
        if (sw instanceof MapEntryNode entry && entry.childByArg(SwitchSession.SESSION) instanceof MapNode table) {
            for (var session : table.body()) {
                if (session.name().getValue(SwitchSession.SESSION_ID) instanceof String id) {
                    final var seen = read(node, id, session);
                    if (seen != null) {
                        map.put(id, seen);
                    }
                }
            }
        }
        return map;
    }

    private void recompute(final Set<String> sessionIds) {
        if (sessionIds.isEmpty()) {
            return;
        }
        final long now = System.nanoTime();
        // a transaction only once there is something to write: cancelling an empty one fails the
        // datastore's ping-pong transaction chain (and with it every later path write)
        DOMDataTreeWriteTransaction tx = null;
        List<String> inTx = new ArrayList<>();
        for (var id : sessionIds) {
            if (closed) {
                // closing (ownership moving, the controller stopping): what is assembled goes out,
                // the rest is the next owner's; close() waits for this and then closes the chain
                break;
            }
            if (inTx.size() == MAX_PATHS_PER_TRANSACTION) {
                // a snapshot or a topology change touches 100,000 paths: commit them as they come
                commit(tx, inTx);
                tx = null;
                inTx = new ArrayList<>();
            }
            // a path whose last commit was refused: the datastore may hold it as it was, or not at all
            final boolean rewrite = !unsure.isEmpty() && unsure.remove(id);
            final var seenBy = sessions.get(id);
            if (seenBy == null || seenBy.length == 0) {
                held.remove(id);
                if (paths.remove(id) != null || rewrite) {
                    if (tx == null) {
                        tx = newTransaction();
                    }
                    tx.delete(LogicalDatastoreType.OPERATIONAL, PathNodes.identifier(id));
                    inTx.add(id);
                }
                continue;
            }
            final var assembled = assemble(id, seenBy);
            final var hook = afterAssembly;
            if (hook != null) {
                hook.run();
            }
            final var before = rewrite ? null : paths.get(id);
            if (before == null && !rewrite && (!assembled.complete() || waits(id, seenBy)) && holds(id, now)) {
                continue;
            }
            held.remove(id);
            if (assembled.equals(before)) {
                // a change of what the path does not show (a packet count, the last-seen time)
                pathsUnchanged++;
                continue;
            }
            paths.put(id, assembled);
            if (tx == null) {
                tx = newTransaction();
            }
            final var path = PathNodes.identifier(id);
            if (before == null) {
                tx.put(LogicalDatastoreType.OPERATIONAL, path, PathNodes.node(assembled, nodes));
            } else {
                // only what changed: the commit serialises what is written (a state is one leaf)
                for (var change : PathNodes.changes(before, assembled, nodes).entrySet()) {
                    final var child = path.node(change.getKey());
                    final var value = change.getValue();
                    if (value == null) {
                        tx.delete(LogicalDatastoreType.OPERATIONAL, child);
                    } else {
                        tx.put(LogicalDatastoreType.OPERATIONAL, child, value);
                    }
                }
                pathsRewrittenInPart++;
            }
            inTx.add(id);
        }
        if (tx != null) {
            commit(tx, inTx);
        }
    }

    /** A transaction on the chain; a chain the datastore failed (not yet heard of) is replaced first. */
    private DOMDataTreeWriteTransaction newTransaction() {
        return chain.newWriteOnlyTransaction();
    }

    /** Commits {@code tx}, which writes the paths of {@code ids}; a refusal brings them back (counted). */
    private void commit(final DOMDataTreeWriteTransaction tx, final List<String> ids) {
        tx.commit().addCallback(new FutureCallback<CommitInfo>() {
            @Override
            public void onSuccess(final CommitInfo result) {
                retryDelayMillis = RETRY_FIRST.toMillis();
            }

            @Override
            public void onFailure(final Throwable cause) {
                failedCommits.incrementAndGet();
                LOG.warn("RPT: the datastore refused a commit of {} paths; they are written again whole: {}",
                    ids.size(), cause.toString());
                executeUnlessClosed(() -> refused(ids));
            }
        }, MoreExecutors.directExecutor());
    }

    private void refused(final List<String> ids) {
        unsure.addAll(ids);
        if (!retryQueued) {
            retryQueued = true;
            CompletableFuture.delayedExecutor(retryDelayMillis, TimeUnit.MILLISECONDS, this::executeUnlessClosed)
                .execute(this::retry);
            // while commits keep failing (the datastore has no leader, say), less and less often
            retryDelayMillis = Math.min(retryDelayMillis * 2, RETRY_MAX.toMillis());
        }
    }

    private void retry() {
        retryQueued = false;
        if (closed) {
            return;
        }
        // how many commits were refused, for an operator (and insight's /metrics) to see
        final var tx = newTransaction();
        tx.put(LogicalDatastoreType.OPERATIONAL, PathNodes.failedCommitsIdentifier(),
            PathNodes.failedCommits(failedCommits.get()));
        commit(tx, List.of());
        recompute(new HashSet<>(unsure));
    }

    private void executeUnlessClosed(final Runnable task) {
        try {
            executor.execute(() -> {
                if (!closed) {
                    task.run();
                }
            });
        } catch (RejectedExecutionException e) {
            LOG.debug("RPT closed: a commit outcome is not acted on");
        }
    }

    /** Commits of paths the datastore refused (their paths were written again). */
    long failedCommits() {
        return failedCommits.get();
    }

    /** Whether a report under {@code id} is a record waiting for the CM session it joined. */
    private boolean waits(final String id, final SwitchSession[] seenBy) {
        if (waitingFor.isEmpty()) {
            return false;
        }
        for (var seen : seenBy) {
            if (seen.sourceId() == null && waitingFor.containsKey(seen.node() + '\n' + id)) {
                return true;
            }
        }
        return false;
    }

    /** Whether a new session's incomplete path is still held back at {@code now}; starts its hold. */
    private boolean holds(final String id, final long now) {
        final Long until = held.get(id);
        if (until == null) {
            held.put(id, now + holdIncomplete.toNanos());
            pathsHeld++;
            if (!heldDrainQueued) {
                heldDrainQueued = true;
                heldDrain.execute(this::drainHeld);
            }
            return true;
        }
        return now - until < 0;
    }

    /** Writes the held paths whose hold is over, whole or not, and waits for the others. */
    private void drainHeld() {
        heldDrainQueued = false;
        final long now = System.nanoTime();
        final Set<String> due = new HashSet<>();
        for (var entry : held.entrySet()) {
            if (now - entry.getValue() >= 0) {
                due.add(entry.getKey());
            }
        }
        recompute(due);
        if (!held.isEmpty()) {
            heldDrainQueued = true;
            heldDrain.execute(this::drainHeld);
        }
    }

    /** New sessions whose path was held back while incomplete (since the start). */
    long pathsHeld() {
        return pathsHeld;
    }

    /** Paths written again as the children of theirs that changed, not whole. */
    long pathsRewrittenInPart() {
        return pathsRewrittenInPart;
    }

    /** Recomputed paths that came out as written before, so were not written again. */
    long pathsUnchanged() {
        return pathsUnchanged;
    }

    private PathValue assemble(final String id, final SwitchSession[] seenBy) {
        boolean data = false;
        for (var session : seenBy) {
            data |= session.learnedData();
        }
        if (data) {
            return assembleData(id, seenBy);
        }
        final List<PathAssembler.Observation> forward = new ArrayList<>(seenBy.length);
        final List<PathAssembler.Observation> reverse = new ArrayList<>(seenBy.length);
        SwitchSession latest = null;
        for (var session : seenBy) {
            // the latest report of the session says its addresses, QPs and state (ties: the first);
            // a data-learned record that joined it says only where its data went
            if (latest == null || latest.sourceId() != null && session.sourceId() == null
                    || session.sourceId() == null && session.lastSeenMicros() > latest.lastSeenMicros()) {
                latest = session;
            }
            final var fwd = session.forwardObservation();
            if (fwd != null) {
                forward.add(fwd);
            }
            final var rev = session.reverseObservation();
            if (rev != null) {
                reverse.add(rev);
            }
        }
        final var fabric = new PathAssembler.Fabric(links, hosts, rftSwitches, dscp);
        final String requester = latest.requesterIp();
        final String responder = latest.responderIp();
        final var fwdPath = PathAssembler.assemble(forward, fabric, requester, responder);
        final var revPath = PathAssembler.assemble(reverse, fabric, responder, requester);
        return new PathValue(id, requester, responder, latest.requesterQpn(), latest.responderQpn(), latest.state(),
            fwdPath, revPath, PathAssembler.asymmetric(fwdPath, revPath),
            DataPaths.of(Arrays.asList(seenBy), fabric, requester, responder, fwdPath, revPath));
    }

    /**
     * A data-learned session's path, or a one-way flow's: its data paths alone (it has no CM
     * messages), asymmetric where the two data paths cross other switches.
     */
    private PathValue assembleData(final String id, final SwitchSession[] seenBy) {
        SwitchSession latest = null;
        boolean oneWay = true;
        String transport = null;
        for (var session : seenBy) {
            if (latest == null || session.lastSeenMicros() > latest.lastSeenMicros()) {
                latest = session;
            }
            // one-way only while every switch (and every flow paired in) says so
            oneWay &= session.oneWay() && session.sourceId() == null;
            if (transport == null) {
                transport = session.transport();
            }
        }
        final var fabric = new PathAssembler.Fabric(links, hosts, rftSwitches, dscp);
        final String requester = latest.requesterIp();
        final String responder = latest.responderIp();
        final var data = DataPaths.ofData(Arrays.asList(seenBy), fabric, requester, responder, oneWay);
        final boolean asymmetric = data.reverse() != null && PathAssembler.asymmetric(data.forward(), data.reverse());
        return new PathValue(id, requester, responder, oneWay ? -1 : latest.requesterQpn(), latest.responderQpn(),
            latest.state(), null, null, asymmetric, data, true, oneWay, transport);
    }

    private ListenableFuture<org.opendaylight.yangtools.yang.common.RpcResult<TraceSessionOutput>> traceSession(
            final TraceSessionInput input) {
        final var src = input.getSrcIp();
        final var dst = input.getDstIp();
        if (src == null || dst == null) {
            return RpcResultBuilder.<TraceSessionOutput>failed()
                .withError(org.opendaylight.yangtools.yang.common.ErrorType.PROTOCOL, "src-ip and dst-ip are mandatory")
                .buildFuture();
        }
        final var qpn = input.getQpn();
        final String one = src.stringValue();
        final String other = dst.stringValue();
        final var learned = input.getLearnedFrom();
        final List<PathValue> out = new ArrayList<>();
        for (var path : paths.values()) {
            if (path.between(one, other, qpn) && learnedAs(path, learned)) {
                out.add(path);
            }
        }
        return RpcResultBuilder.success(new TraceSessionOutputBuilder()
            .setPath(RpcPaths.trace(PathValue.toBinding(out))).build()).buildFuture();
    }

    private ListenableFuture<org.opendaylight.yangtools.yang.common.RpcResult<SessionsThroughOutput>> sessionsThrough(
            final SessionsThroughInput input) {
        final var node = input.getNodeId();
        if (node == null) {
            return RpcResultBuilder.<SessionsThroughOutput>failed()
                .withError(org.opendaylight.yangtools.yang.common.ErrorType.PROTOCOL, "node-id is mandatory")
                .buildFuture();
        }
        final var tp = input.getTpId();
        final String nodeName = node.getValue();
        final String tpName = tp == null ? null : tp.getValue();
        final var learned = input.getLearnedFrom();
        final int priority = input.getPriority() == null ? -1 : input.getPriority().intValue();
        final List<PathValue> out = new ArrayList<>();
        for (var path : paths.values()) {
            if ((priority < 0 ? path.crosses(nodeName, tpName) : path.crossesData(nodeName, tpName, priority))
                    && learnedAs(path, learned)) {
                out.add(path);
            }
        }
        return RpcResultBuilder.success(new SessionsThroughOutputBuilder()
            .setPath(RpcPaths.through(PathValue.toBinding(out))).build()).buildFuture();
    }

    /** Whether the path's session was learnt as {@code learned} says (any way when null). */
    private static boolean learnedAs(final PathValue path, final @Nullable LearnedFrom learned) {
        return learned == null || (learned == LearnedFrom.Data) == path.learnedData();
    }

    private static FutureCallback<CommitInfo> logFailure(final String what) {
        return new FutureCallback<>() {
            @Override
            public void onSuccess(final CommitInfo result) {
                LOG.debug("RPT wrote {}", what);
            }

            @Override
            public void onFailure(final Throwable cause) {
                LOG.warn("RPT failed to write {}", what, cause);
            }
        };
    }

    /** The paths as a binding reader has them (tests). */
    Collection<Path> paths() {
        return PathValue.toBinding(paths.values());
    }

    /** Tests: {@code hook} runs on the RPT's thread after each path a recomputation assembles. */
    void afterAssembly(final @Nullable Runnable hook) {
        afterAssembly = hook;
    }

    /** Whether {@link #close} began. */
    boolean closing() {
        return closed;
    }

    @Override
    public void close() {
        closed = true;
        registrations.forEach(Registration::close);
        registrations.clear();
        // the recomputation under way (its transaction open) ends first; what is queued behind it
        // is dropped: the paths are another member's from now on, or nobody's. Closing the chain
        // with a transaction open throws, and OpenDaylight then takes the RPT as failed to stop
        executor.shutdownNow();
        try {
            if (!executor.awaitTermination(CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.warn("RPT: a recomputation outlasted {}; its transaction chain is closed regardless", CLOSE_WAIT);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            chain.close();
        } catch (IllegalStateException e) {
            LOG.warn("RPT: its transaction chain did not close cleanly: {}", e.getMessage());
        }
    }
}
