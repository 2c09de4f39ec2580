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
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jdt.annotation.Nullable;
import org.opendaylight.mdsal.binding.api.DataBroker;
import org.opendaylight.mdsal.binding.api.DataObjectDeleted;
import org.opendaylight.mdsal.binding.api.DataObjectModification;
import org.opendaylight.mdsal.binding.api.DataObjectModified;
import org.opendaylight.mdsal.binding.api.DataObjectWritten;
import org.opendaylight.mdsal.binding.api.DataTreeChangeListener;
import org.opendaylight.mdsal.binding.api.DataTreeModification;
import org.opendaylight.mdsal.binding.api.RpcProviderService;
import org.opendaylight.mdsal.common.api.CommitInfo;
import org.opendaylight.mdsal.common.api.LogicalDatastoreType;
import org.opendaylight.mdsal.dom.api.DOMDataBroker;
import org.opendaylight.mdsal.dom.api.DOMDataTreeWriteTransaction;
import org.opendaylight.mdsal.dom.api.DOMTransactionChain;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.IpAddress;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.CmMessageType;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.EpochSeconds;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.Rft;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rdma.session.Message;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft.Switch;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.Session;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.Direction;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.SessionsThrough;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.SessionsThroughInput;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.SessionsThroughOutput;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.SessionsThroughOutputBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.TraceSession;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.TraceSessionInput;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.TraceSessionOutput;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.TraceSessionOutputBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.TrafficKind;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.path.ForwardBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.path.ReverseBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.rpt.Path;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.rpt.PathBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.rpt.PathKey;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.topology.rev261201.RstNodeAttributes;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.NetworkTopology;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.NodeId;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.TpId;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.network.topology.Topology;
import org.opendaylight.yangtools.binding.DataObjectReference;
import org.opendaylight.yangtools.concepts.Registration;
import org.opendaylight.yangtools.yang.common.Empty;
import org.opendaylight.yangtools.yang.common.RpcResultBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The RPT while this member owns the singleton: follows every switch's flow table and the
 * topology (links, and hosts with their addresses, from both the configuration datastore, where an
 * operator or an inventory import writes over RESTCONF, and the operational one, where discovery
 * writes), keeps each session's paths, writes them to {@code rdma-path-table:rpt} and answers the
 * RPCs from memory. State is confined to one executor thread; listeners only enqueue. Paths are
 * read and followed through the binding API but written through the DOM one ({@link PathNodes}): in
 * a CM storm the binding codec's streaming of each path was half of this thread's time.
 */
final class RptWorker implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RptWorker.class);
    /** How long flow-table changes are gathered before the paths they touch are computed. */
    static final Duration GATHER = Duration.ofMillis(20);
    /** Paths computed and written in one transaction at most (a backlog goes out in several). */
    private static final int MAX_PATHS_PER_TRANSACTION = 2000;
    /**
     * How long a new session's path waits for the rest of its switches while it is incomplete:
     * a session's switches report it within a few hundred milliseconds of each other (each agent
     * holds its events briefly to put its ports' captures in order), and a path written half-made
     * is written again moments later. A path whose switches never all report (a switch without
     * RFT, a REQ never answered) is written when the wait is over.
     */
    static final Duration HOLD_INCOMPLETE = Duration.ofMillis(300);

    private final ExecutorService executor;
    private final DOMTransactionChain chain;
    private final List<Registration> registrations = new ArrayList<>();

    // executor-confined
    private final Map<String, Map<String, Session>> sessionsBySwitch = new HashMap<>();
    private final Map<String, Set<String>> switchesBySession = new HashMap<>();
    // every switch RFT knows, whether or not it has sessions now: a path through one that saw
    // nothing is a gap, while a node RFT does not know (a host) is where a path starts or ends
    private final Set<String> rftSwitches = new HashSet<>();
    private LinkIndex links = LinkIndex.EMPTY;
    private HostIndex hosts = HostIndex.EMPTY;
    // per datastore, by topology id: the two are merged (a link in either counts)
    private final Map<LogicalDatastoreType, Map<String, Topology>> topologies = Map.of(
        LogicalDatastoreType.CONFIGURATION, new HashMap<>(), LogicalDatastoreType.OPERATIONAL, new HashMap<>());

    // read by RPC threads
    private final Map<String, Path> paths = new ConcurrentHashMap<>();

    // listener threads add, the executor drains
    private final Queue<List<DataTreeModification<Switch>>> pendingSwitchChanges = new ConcurrentLinkedQueue<>();
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
        this.chain = domBroker.createMergingTransactionChain();
        chain.addCallback(new FutureCallback<Empty>() {
            @Override
            public void onSuccess(final Empty result) {
                LOG.debug("RPT chain closed");
            }

            @Override
            public void onFailure(final Throwable cause) {
                LOG.error("RPT transaction chain failed; path table updates stop until restart", cause);
            }
        });
        final var tx = chain.newWriteOnlyTransaction();
        tx.put(LogicalDatastoreType.OPERATIONAL, PathNodes.rptIdentifier(), PathNodes.emptyRpt());
        tx.commit().addCallback(logFailure("empty path table"), MoreExecutors.directExecutor());

        for (var store : List.of(LogicalDatastoreType.CONFIGURATION, LogicalDatastoreType.OPERATIONAL)) {
            registrations.add(broker.registerTreeChangeListener(store,
                DataObjectReference.builder(NetworkTopology.class).child(Topology.class).build(),
                (DataTreeChangeListener<Topology>) changes -> executor.execute(() -> onTopology(store, changes))));
        }
        registrations.add(broker.registerTreeChangeListener(LogicalDatastoreType.OPERATIONAL,
            DataObjectReference.builder(Rft.class).child(Switch.class).build(),
            (DataTreeChangeListener<Switch>) this::enqueueSwitches));
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
            recompute(new HashSet<>(switchesBySession.keySet()));
            return;
        }
        // only the paths a changed link can move: those seen by, or running through, a node at
        // either end of it (a path's every hop is found from the links at its nodes)
        final Set<String> dirty = new HashSet<>();
        addPathsAt(touched, dirty);
        LOG.debug("RPT topology: {} links, links at {} changed: {} paths again", links.size(), touched, dirty.size());
        recompute(dirty);
    }

    /** Adds the sessions seen by any of {@code nodes}, or whose path runs through one of them. */
    private void addPathsAt(final Set<String> nodes, final Set<String> dirty) {
        for (var entry : switchesBySession.entrySet()) {
            if (!java.util.Collections.disjoint(entry.getValue(), nodes)) {
                dirty.add(entry.getKey());
            }
        }
        for (var path : paths.values()) {
            if (!dirty.contains(path.getSessionId())
                    && (touches(path.getForward(), nodes) || touches(path.getReverse(), nodes))) {
                dirty.add(path.getSessionId());
            }
        }
    }

    private static boolean touches(final Direction direction, final Set<String> nodes) {
        if (direction == null) {
            return false;
        }
        final var source = direction.getSourceNode();
        final var destination = direction.getDestinationNode();
        if (source != null && nodes.contains(source.getValue())
                || destination != null && nodes.contains(destination.getValue())) {
            return true;
        }
        final var hops = direction.getHop();
        if (hops != null) {
            for (var hop : hops) {
                if (hop.getNodeId() != null && nodes.contains(hop.getNodeId().getValue())) {
                    return true;
                }
            }
        }
        return false;
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
    private void enqueueSwitches(final List<DataTreeModification<Switch>> changes) {
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
        List<DataTreeModification<Switch>> changes;
        // a bounded batch: a backlog goes out as a stream of transactions, each path in it soon,
        // rather than as one that holds every path back until all are computed
        while (dirty.size() < MAX_PATHS_PER_TRANSACTION && (changes = pendingSwitchChanges.poll()) != null) {
            applySwitches(changes, dirty);
        }
        recompute(dirty);
        if (!pendingSwitchChanges.isEmpty() && drainQueued.compareAndSet(false, true)) {
            executor.execute(this::drainSwitches);
        }
    }

    private void applySwitches(final List<DataTreeModification<Switch>> changes, final Set<String> dirty) {
        // switches RFT learns or forgets: a path breaks at a node RFT does not trace, while it
        // infers a traced switch that saw nothing; the paths at the node and its neighbours move
        final Set<String> learnedOrForgotten = new HashSet<>();
        for (var change : changes) {
            final var root = change.getRootNode();
            final String node = root.coerceKeyStep(Switch.class).key().getNodeId().getValue();
            if (root instanceof DataObjectDeleted<Switch> ? rftSwitches.contains(node) : !rftSwitches.contains(node)) {
                learnedOrForgotten.add(node);
            }
            switch (root) {
                case DataObjectWritten<Switch> written -> {
                    rftSwitches.add(node);
                    if (written.dataBefore() == null) {
                        replaceAll(node, sessionsOf(written.dataAfter()), dirty);
                    } else {
                        // a switch entry merged or put again (its agent status, say) still says
                        // which sessions changed: re-reading 100,000 of them per commit would not do
                        applySessions(node, written, dirty);
                    }
                }
                case DataObjectModified<Switch> modified -> {
                    // only the sessions that changed: a switch's table can hold 250,000 of them
                    rftSwitches.add(node);
                    applySessions(node, modified, dirty);
                }
                case DataObjectDeleted<Switch> deleted -> {
                    rftSwitches.remove(node);
                    replaceAll(node, Map.of(), dirty);
                }
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

    private void applySessions(final String node, final DataObjectModification<Switch> modification,
            final Set<String> dirty) {
        for (var child : modification.getModifiedChildren(Session.class)) {
            final String id = child.coerceKeyStep(Session.class).key().getSessionId();
            switch (child) {
                case DataObjectDeleted<Session> gone -> forget(node, id, dirty);
                // reported as modified: changed, no need to compare it field by field
                case DataObjectModification.WithDataAfter<Session> now -> put(node, now.dataAfter(), dirty, false);
            }
        }
    }

    private void replaceAll(final String node, final Map<String, Session> now, final Set<String> dirty) {
        for (var id : List.copyOf(sessionsBySwitch.getOrDefault(node, Map.of()).keySet())) {
            if (!now.containsKey(id)) {
                forget(node, id, dirty);
            }
        }
        for (var session : now.values()) {
            put(node, session, dirty, true);
        }
    }

    private void put(final String node, final Session session, final Set<String> dirty, final boolean compare) {
        final var id = session.getSessionId();
        final var previous = sessionsBySwitch.computeIfAbsent(node, k -> new HashMap<>()).put(id, session);
        if (!compare || !session.equals(previous)) {
            dirty.add(id);
            switchesBySession.computeIfAbsent(id, k -> new HashSet<>()).add(node);
        }
    }

    private void forget(final String node, final String id, final Set<String> dirty) {
        final var table = sessionsBySwitch.get(node);
        if (table == null || table.remove(id) == null) {
            return;
        }
        if (table.isEmpty()) {
            sessionsBySwitch.remove(node);
        }
        dirty.add(id);
        final var seen = switchesBySession.get(id);
        if (seen != null && seen.remove(node) && seen.isEmpty()) {
            switchesBySession.remove(id);
        }
    }

    private static Map<String, Session> sessionsOf(final Switch sw) {
        final Map<String, Session> map = new HashMap<>();
        for (var session : sw.nonnullSession().values()) {
            map.put(session.getSessionId(), session);
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
        int inTx = 0;
        for (var id : sessionIds) {
            if (inTx == MAX_PATHS_PER_TRANSACTION) {
                // a snapshot or a topology change touches 100,000 paths: commit them as they come
                tx.commit().addCallback(logFailure(inTx + " paths"), MoreExecutors.directExecutor());
                tx = null;
                inTx = 0;
            }
            final var seenBy = switchesBySession.get(id);
            if (seenBy == null || seenBy.isEmpty()) {
                held.remove(id);
                if (paths.remove(id) != null) {
                    if (tx == null) {
                        tx = chain.newWriteOnlyTransaction();
                    }
                    tx.delete(LogicalDatastoreType.OPERATIONAL, PathNodes.identifier(id));
                    inTx++;
                }
                continue;
            }
            final var assembled = assemble(id, seenBy);
            final var before = paths.get(id);
            if (before == null && !(assembled.getForward().getComplete() && assembled.getReverse().getComplete())
                    && holds(id, now)) {
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
                tx = chain.newWriteOnlyTransaction();
            }
            tx.put(LogicalDatastoreType.OPERATIONAL, PathNodes.identifier(id), PathNodes.node(assembled));
            inTx++;
        }
        if (tx != null) {
            tx.commit().addCallback(logFailure(inTx + " paths"), MoreExecutors.directExecutor());
        }
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

    /** Recomputed paths that came out as written before, so were not written again. */
    long pathsUnchanged() {
        return pathsUnchanged;
    }

    private Path assemble(final String id, final Set<String> seenBy) {
        final List<PathAssembler.Observation> forward = new ArrayList<>();
        final List<PathAssembler.Observation> reverse = new ArrayList<>();
        Session latest = null;
        for (var node : seenBy) {
            final var session = sessionsBySwitch.get(node).get(id);
            if (latest == null || seconds(session.getLastSeen()).compareTo(seconds(latest.getLastSeen())) > 0) {
                latest = session;
            }
        }
        for (var node : seenBy) {
            final var session = sessionsBySwitch.get(node).get(id);
            final var fwd = firstOf(session.getMessage(), true);
            if (fwd != null) {
                forward.add(observation(node, fwd));
            }
            final var rev = firstOf(session.getMessage(), false);
            if (rev != null) {
                reverse.add(observation(node, rev));
            }
        }
        final var fabric = new PathAssembler.Fabric(links, hosts, rftSwitches);
        final String requester = latest == null ? null : ipText(latest.getRequesterIp());
        final String responder = latest == null ? null : ipText(latest.getResponderIp());
        final var fwdPath = PathAssembler.assemble(forward, fabric, requester, responder);
        final var revPath = PathAssembler.assemble(reverse, fabric, responder, requester);
        final var forwardBuilder = new ForwardBuilder().setComplete(fwdPath.complete())
            .setHop(DataPaths.hops(fwdPath, TrafficKind.Cm))
            .setGap(Set.copyOf(fwdPath.gaps()));
        final var reverseBuilder = new ReverseBuilder().setComplete(revPath.complete())
            .setHop(DataPaths.hops(revPath, TrafficKind.Cm))
            .setGap(Set.copyOf(revPath.gaps()));
        final var fwdSource = fwdPath.source();
        if (fwdSource != null) {
            forwardBuilder.setSourceNode(new NodeId(fwdSource.node())).setSourceTp(tp(fwdSource.tp()));
        }
        final var fwdDestination = fwdPath.destination();
        if (fwdDestination != null) {
            forwardBuilder.setDestinationNode(new NodeId(fwdDestination.node()))
                .setDestinationTp(tp(fwdDestination.tp()));
        }
        final var revSource = revPath.source();
        if (revSource != null) {
            reverseBuilder.setSourceNode(new NodeId(revSource.node())).setSourceTp(tp(revSource.tp()));
        }
        final var revDestination = revPath.destination();
        if (revDestination != null) {
            reverseBuilder.setDestinationNode(new NodeId(revDestination.node()))
                .setDestinationTp(tp(revDestination.tp()));
        }
        final var builder = new PathBuilder().setSessionId(id)
            .setForward(forwardBuilder.build())
            .setReverse(reverseBuilder.build())
            .setAsymmetric(PathAssembler.asymmetric(fwdPath, revPath));
        if (latest != null) {
            builder.setRequesterIp(latest.getRequesterIp()).setResponderIp(latest.getResponderIp())
                .setRequesterQpn(latest.getRequesterQpn()).setResponderQpn(latest.getResponderQpn())
                .setState(latest.getState());
        }
        final Map<String, Session> byNode = new HashMap<>();
        for (var node : seenBy) {
            byNode.put(node, sessionsBySwitch.get(node).get(id));
        }
        DataPaths.add(builder, byNode, fabric, requester, responder, fwdPath, revPath);
        return builder.build();
    }

    private static @Nullable String ipText(final @Nullable IpAddress ip) {
        return ip == null ? null : ip.stringValue();
    }

    private static @Nullable TpId tp(final @Nullable String tp) {
        return tp == null ? null : new TpId(tp);
    }

    private static BigDecimal seconds(final EpochSeconds time) {
        return time == null ? BigDecimal.ZERO : time.getValue().decimalValue();
    }

    private static PathAssembler.Observation observation(final String node, final Message message) {
        final var tp = message.getIngressTp();
        final var time = message.getTime();
        return new PathAssembler.Observation(node, tp == null ? null : String.valueOf(tp.getValue()),
            time == null ? 0 : time.getValue().decimalValue().movePointRight(6).longValue());
    }

    /** Who sent a message. */
    private enum Sender { REQUESTER, RESPONDER, UNKNOWN }

    /** The first message the session's requester (forward) or responder (reverse) sent. */
    private static Message firstOf(final List<Message> messages, final boolean forward) {
        if (messages == null) {
            return null;
        }
        final var wanted = forward ? Sender.REQUESTER : Sender.RESPONDER;
        for (var message : messages) {
            final var fromRequester = message.getFromRequester();
            final var sender = fromRequester != null ? fromRequester ? Sender.REQUESTER : Sender.RESPONDER
                : senderByType(message.getType());
            if (sender == wanted) {
                return message;
            }
        }
        return null;
    }

    /** REQ and RTU come from the requester, REP, REJ and MRA (of a REQ) from the responder. */
    private static Sender senderByType(final CmMessageType type) {
        if (type == null) {
            return Sender.UNKNOWN;
        }
        return switch (type) {
            case REQ, RTU -> Sender.REQUESTER;
            case REP, REJ, MRA -> Sender.RESPONDER;
            default -> Sender.UNKNOWN;
        };
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
        final Map<PathKey, Path> out = new HashMap<>();
        for (var path : paths.values()) {
            final boolean ends = src.equals(path.getRequesterIp()) && dst.equals(path.getResponderIp())
                || dst.equals(path.getRequesterIp()) && src.equals(path.getResponderIp());
            final boolean qpnMatches = qpn == null || qpn.equals(path.getRequesterQpn())
                || qpn.equals(path.getResponderQpn());
            if (ends && qpnMatches) {
                out.put(path.key(), path);
            }
        }
        return RpcResultBuilder.success(new TraceSessionOutputBuilder().setPath(RpcPaths.trace(out.values())).build())
            .buildFuture();
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
        final List<Path> out = new ArrayList<>();
        for (var path : paths.values()) {
            if (crosses(path.getForward(), node, tp) || crosses(path.getReverse(), node, tp)) {
                out.add(path);
            }
        }
        return RpcResultBuilder.success(new SessionsThroughOutputBuilder().setPath(RpcPaths.through(out)).build())
            .buildFuture();
    }

    private static boolean crosses(final Direction direction, final NodeId node, final TpId tp) {
        if (direction == null || direction.getHop() == null) {
            return false;
        }
        for (var hop : direction.getHop()) {
            if (node.equals(hop.getNodeId())
                    && (tp == null || tp.equals(hop.getIngressTp()) || tp.equals(hop.getEgressTp()))) {
                return true;
            }
        }
        return false;
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

    Collection<Path> paths() {
        return paths.values();
    }

    @Override
    public void close() {
        registrations.forEach(Registration::close);
        registrations.clear();
        executor.shutdown();
        chain.close();
    }
}
