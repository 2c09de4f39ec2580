/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.manager;

import com.google.common.util.concurrent.FluentFuture;
import com.google.common.util.concurrent.FutureCallback;
import com.google.common.util.concurrent.Futures;
import com.google.common.util.concurrent.ListenableFuture;
import com.google.common.util.concurrent.MoreExecutors;
import com.google.common.util.concurrent.SettableFuture;
import edu.umd.cs.findbugs.annotations.SuppressFBWarnings;
import io.rst.yang.chain.RecoveringChain;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jdt.annotation.Nullable;
import org.opendaylight.mdsal.common.api.CommitInfo;
import org.opendaylight.mdsal.common.api.LogicalDatastoreType;
import org.opendaylight.mdsal.dom.api.DOMDataBroker;
import org.opendaylight.mdsal.dom.api.DOMDataTreeWriteTransaction;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.Rft;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft.Switch;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft.SwitchKey;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.AgentStatus;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.Session;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.SessionKey;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.NodeId;
import org.opendaylight.yangtools.binding.DataObjectIdentifier;
import org.opendaylight.yangtools.binding.data.codec.api.BindingNormalizedNodeSerializer;
import org.opendaylight.yangtools.concepts.Registration;
import org.opendaylight.yangtools.yang.data.api.schema.MapEntryNode;
import org.opendaylight.yangtools.yang.data.api.schema.MapNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes agent status and the flow table to the operational datastore through one DOM transaction
 * chain, without ever waiting for a commit. Sessions go in as nodes built by {@link SessionNodes}
 * (the binding codec costs more than everything else the RFT manager does), the status through the
 * binding codec. A failed chain is replaced ({@link RecoveringChain}).
 *
 * <p>Every {@link #TICK} the writer runs the followers' flushes ({@link #onTick}) and commits what
 * they wrote as one transaction: the switches' batches of a tick share it, and so do status writes
 * and marks made meanwhile. A transaction per follower and tick would cost the datastore's shard and the
 * RFT manager's thread per transaction (opening one applies its predecessor's changes again,
 * committing one serialises and reads back its changes and notifies every listener), six times
 * over with six switches; the batches reach the datastore no later for it. A tick's writes that
 * reach {@link #COMMIT_AT} sessions are committed at once.
 */
@SuppressFBWarnings(value = { "NP_NONNULL_FIELD_NOT_INITIALIZED_IN_CONSTRUCTOR", "NP_STORE_INTO_NONNULL_FIELD" },
    justification = "SpotBugs reads no TYPE_USE @Nullable on fields: these fields are @Nullable")
final class StatusWriter implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StatusWriter.class);
    /**
     * How long a session write may wait for the others of its tick: short, because a session's path
     * needs every switch's report; long enough to batch (a transaction per event would cost more
     * than the events).
     */
    static final Duration TICK = Duration.ofMillis(20);
    /** Session writes of a tick that make it commit at once. */
    static final int COMMIT_AT = 4000;

    private final DOMDataBroker dom;
    private final BindingNormalizedNodeSerializer codec;
    private final RecoveringChain chain;
    private boolean closed;
    // switches whose entry a transaction of this chain has made sure of, and no commit has failed
    // since: a merge of the entry, applied against a table of 100,000 sessions, costs the RFT
    // manager's thread more than the puts of the sessions it came with
    private final Set<String> ensured = new HashSet<>();
    // what runs at each tick before the commit: the followers' flushes
    private final java.util.List<Runnable> flushes = new CopyOnWriteArrayList<>();
    private final ScheduledFuture<?> ticker;
    private final @Nullable ScheduledExecutorService ownScheduler;
    // the tick's transaction, while writes are waiting in it; its commit's outcome, to come
    private @Nullable DOMDataTreeWriteTransaction open;
    private @Nullable SettableFuture<CommitInfo> openOutcome;
    private int openSessions;
    private int openOthers;

    /** A writer ticking on a thread of its own (tests). */
    StatusWriter(final Stores stores) {
        this(stores, null);
    }

    /** A writer ticking on {@code scheduler}, or on a thread of its own if null. */
    StatusWriter(final Stores stores, final @Nullable ScheduledExecutorService scheduler) {
        this.dom = stores.dom();
        this.codec = stores.codec();
        // replaced under this writer's lock, as its writes are: a failed chain's successor starts
        // with every switch entry to make sure of again
        this.chain = new RecoveringChain(dom, "RFT status", task -> {
            synchronized (this) {
                task.run();
            }
        }, ensured::clear);
        ownScheduler = scheduler != null ? null : Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("rst-rft-writer").daemon().factory());
        ticker = (scheduler != null ? scheduler : ownScheduler).scheduleWithFixedDelay(this::tick, TICK.toMillis(),
            TICK.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Runs {@code flush} at every tick, before the tick's commit, until the registration is closed:
     * what it writes goes out in that commit.
     */
    Registration onTick(final Runnable flush) {
        flushes.add(flush);
        return () -> flushes.remove(flush);
    }

    @SuppressWarnings("checkstyle:IllegalCatch") // a failed flush costs its batch, not the others' nor later ticks
    private void tick() {
        for (var flush : flushes) {
            try {
                flush.run();
            } catch (RuntimeException e) {
                LOG.warn("RFT: a flush failed", e);
            }
        }
        commit();
    }

    /** Commits what waits in the tick's transaction, if anything does. */
    synchronized void commit() {
        final var tx = open;
        final var outcome = openOutcome;
        if (tx == null || outcome == null) {
            return;
        }
        final String what = openSessions + " session writes and " + openOthers + " other writes";
        open = null;
        openOutcome = null;
        openSessions = 0;
        openOthers = 0;
        outcome.setFuture(watch(tx.commit(), what));
    }

    /** The tick's transaction: writes join it until the tick commits it. */
    private DOMDataTreeWriteTransaction open() {
        var tx = open;
        if (tx == null) {
            tx = chain.newWriteOnlyTransaction();
            open = tx;
            openOutcome = SettableFuture.create();
        }
        return tx;
    }

    /** The outcome of the tick's transaction, open (written into) now. */
    private ListenableFuture<? extends CommitInfo> outcome() {
        return java.util.Objects.requireNonNull(openOutcome);
    }

    static DataObjectIdentifier<Switch> switchPath(final String nodeId) {
        return DataObjectIdentifier.builder(Rft.class).child(Switch.class, new SwitchKey(new NodeId(nodeId))).build();
    }

    synchronized void write(final String nodeId, final AgentStatus status) {
        if (closed) {
            return;
        }
        final var normalized = codec.toNormalizedDataObject(
            switchPath(nodeId).toBuilder().child(AgentStatus.class).build(), status);
        final var tx = open();
        final boolean first = ensure(tx, nodeId);
        // put, not merge: a leaf the status no longer has (dropping-since after a quiet minute, a
        // default address the inventory withdrew) must go
        tx.put(LogicalDatastoreType.OPERATIONAL, normalized.path(), normalized.node());
        openOthers++;
        if (first) {
            // the switch's first status (it was just configured): out at once, not at the next
            // tick, so that a read of its operational state right after its configuration finds it
            commit();
        }
    }

    /**
     * Writes sessions a switch reported and removes those it no longer has, in one transaction.
     * The switch entry is made sure of once, not once per session nor per transaction (a merge of
     * the parents per session costs more than the session itself, and one per transaction more than
     * its puts); again after any commit of this writer fails, or the entry was removed through it.
     * Returns the commit, which the caller must watch: a failed commit wrote nothing, and the
     * sessions are the caller's to write again.
     */
    synchronized ListenableFuture<? extends CommitInfo> writeSessions(final String nodeId,
            final Map<String, MapEntryNode> upserts, final Collection<String> removals) {
        if (closed) {
            return Futures.immediateFailedFuture(new IllegalStateException("status writer closed"));
        }
        if (upserts.isEmpty() && removals.isEmpty()) {
            return CommitInfo.emptyFluentFuture();
        }
        final var tx = open();
        if (!upserts.isEmpty()) {
            ensure(tx, nodeId);
        }
        final var switchPath = SessionNodes.switchPath(nodeId);
        for (var session : upserts.entrySet()) {
            tx.put(LogicalDatastoreType.OPERATIONAL, SessionNodes.sessionPath(switchPath, session.getKey()),
                session.getValue());
        }
        for (var id : removals) {
            tx.delete(LogicalDatastoreType.OPERATIONAL, SessionNodes.sessionPath(switchPath, id));
        }
        final var outcome = outcome();
        openSessions += upserts.size() + removals.size();
        if (openSessions >= COMMIT_AT) {
            commit();
        }
        return outcome;
    }

    /**
     * Writes sessions the switch's agent no longer reports, marked unconfirmed (id -> the session
     * with its mark, {@link SessionNodes#withUnconfirmed}): whole, as every session is written, for
     * a merge of the mark alone into a session the followers built would fail (see
     * {@link CompactEntry}). Returns the commit.
     */
    synchronized ListenableFuture<? extends CommitInfo> markUnconfirmed(final String nodeId,
            final Map<String, MapEntryNode> marked) {
        if (closed) {
            return Futures.immediateFailedFuture(new IllegalStateException("status writer closed"));
        }
        if (marked.isEmpty()) {
            return CommitInfo.emptyFluentFuture();
        }
        final var tx = open();
        final var switchPath = SessionNodes.switchPath(nodeId);
        marked.forEach((id, session) -> tx.put(LogicalDatastoreType.OPERATIONAL,
            SessionNodes.sessionPath(switchPath, id), session));
        openSessions += marked.size();
        return outcome();
    }

    /**
     * The sessions of a switch already in the operational datastore, by session id: what this
     * member, or the member that ran the RFT manager before it, wrote. Blocks up to 30 s.
     *
     * @throws IllegalStateException if the datastore does not answer
     */
    Map<String, MapEntryNode> storedSessions(final String nodeId) {
        try (var tx = dom.newReadOnlyTransaction()) {
            final var found = tx.read(LogicalDatastoreType.OPERATIONAL, SessionNodes.switchPath(nodeId))
                .get(30, TimeUnit.SECONDS);
            final Map<String, MapEntryNode> sessions = new HashMap<>();
            if (found.isPresent() && found.orElseThrow() instanceof MapEntryNode sw
                    && sw.childByArg(SessionNodes.SESSIONS) instanceof MapNode list) {
                for (var session : list.body()) {
                    if (session.name().getValue(SessionNodes.SESSION_ID) instanceof String id) {
                        sessions.put(id, session);
                    }
                }
            }
            return sessions;
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("reading the sessions of " + nodeId, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted reading the sessions of " + nodeId, e);
        }
    }

    static DataObjectIdentifier<Session> sessionPath(final String nodeId, final String sessionId) {
        return DataObjectIdentifier.builder(Rft.class).child(Switch.class, new SwitchKey(new NodeId(nodeId)))
            .child(Session.class, new SessionKey(sessionId)).build();
    }

    synchronized void remove(final String nodeId) {
        if (closed) {
            return;
        }
        open().delete(LogicalDatastoreType.OPERATIONAL, SessionNodes.switchPath(nodeId));
        ensured.remove(nodeId);
        openOthers++;
    }

    /**
     * Merges the switch entry's key into {@code tx} unless a transaction of this chain already
     * did and nothing failed since: the chain applies its transactions in order, so the later ones
     * see the entry even before the first commits. Another writer removing the entry (another
     * member, an operator) makes the next puts under it fail, which brings the merge back.
     * Returns whether it merged the entry.
     */
    private boolean ensure(final DOMDataTreeWriteTransaction tx, final String nodeId) {
        if (ensured.add(nodeId)) {
            tx.merge(LogicalDatastoreType.OPERATIONAL, SessionNodes.switchPath(nodeId),
                SessionNodes.switchEntry(nodeId));
            return true;
        }
        return false;
    }

    /** Logs {@code commit}'s failure, after which every switch entry is made sure of again. */
    private FluentFuture<? extends CommitInfo> watch(final FluentFuture<? extends CommitInfo> commit,
            final String what) {
        commit.addCallback(new FutureCallback<CommitInfo>() {
            @Override
            public void onSuccess(final CommitInfo result) {
                LOG.debug("RFT wrote {}", what);
            }

            @Override
            public void onFailure(final Throwable cause) {
                LOG.warn("RFT failed to write {}", what, cause);
                forgetEnsured();
            }
        }, MoreExecutors.directExecutor());
        return commit;
    }

    private synchronized void forgetEnsured() {
        ensured.clear();
    }

    @Override
    public void close() {
        ticker.cancel(false);
        if (ownScheduler != null) {
            ownScheduler.shutdown();
        }
        synchronized (this) {
            if (!closed) {
                // what waits goes out: a switch turned off has its removal here
                commit();
                closed = true;
                chain.close();
            }
        }
    }
}
