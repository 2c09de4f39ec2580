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
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.opendaylight.mdsal.common.api.CommitInfo;
import org.opendaylight.mdsal.common.api.LogicalDatastoreType;
import org.opendaylight.mdsal.dom.api.DOMDataBroker;
import org.opendaylight.mdsal.dom.api.DOMDataTreeWriteTransaction;
import org.opendaylight.mdsal.dom.api.DOMTransactionChain;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.Rft;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft.Switch;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft.SwitchKey;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.AgentStatus;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.Session;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.SessionKey;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.NodeId;
import org.opendaylight.yangtools.binding.DataObjectIdentifier;
import org.opendaylight.yangtools.binding.data.codec.api.BindingNormalizedNodeSerializer;
import org.opendaylight.yangtools.yang.common.Empty;
import org.opendaylight.yangtools.yang.data.api.schema.MapEntryNode;
import org.opendaylight.yangtools.yang.data.api.schema.MapNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes agent status and the flow table to the operational datastore through one DOM transaction
 * chain, without ever waiting for a commit. Sessions go in as nodes built by {@link SessionNodes}
 * (the binding codec cost more than everything else the RFT manager does), the status through the
 * binding codec. A failed chain is logged and replaced.
 */
final class StatusWriter implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StatusWriter.class);

    private final DOMDataBroker dom;
    private final BindingNormalizedNodeSerializer codec;
    private DOMTransactionChain chain;
    private boolean closed;
    // switches whose entry a transaction of this chain has made sure of, and no commit has failed
    // since: a merge of the entry, applied against a table of 100,000 sessions, cost the RFT
    // manager's thread more than the puts of the sessions it came with
    private final Set<String> ensured = new HashSet<>();

    StatusWriter(final Stores stores) {
        this.dom = stores.dom();
        this.codec = stores.codec();
        this.chain = newChain();
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
        final var tx = chain.newWriteOnlyTransaction();
        ensure(tx, nodeId);
        // put, not merge: a leaf the status no longer has (dropping-since after a quiet minute, a
        // default address the inventory withdrew) must go
        tx.put(LogicalDatastoreType.OPERATIONAL, normalized.path(), normalized.node());
        watch(tx.commit(), "status of " + nodeId);
    }

    /**
     * Writes sessions a switch reported and removes those it no longer has, in one transaction.
     * The switch entry is made sure of once, not once per session nor per transaction (a merge of
     * the parents per session cost more than the session itself, and one per transaction more than
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
        final var tx = chain.newWriteOnlyTransaction();
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
        return watch(tx.commit(), upserts.size() + " sessions and " + removals.size() + " removals of " + nodeId);
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
        final var tx = chain.newWriteOnlyTransaction();
        final var switchPath = SessionNodes.switchPath(nodeId);
        marked.forEach((id, session) -> tx.put(LogicalDatastoreType.OPERATIONAL,
            SessionNodes.sessionPath(switchPath, id), session));
        return watch(tx.commit(), marked.size() + " unconfirmed sessions of " + nodeId);
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
        final var tx = chain.newWriteOnlyTransaction();
        tx.delete(LogicalDatastoreType.OPERATIONAL, SessionNodes.switchPath(nodeId));
        ensured.remove(nodeId);
        watch(tx.commit(), "removal of " + nodeId);
    }

    /**
     * Merges the switch entry's key into {@code tx} unless a transaction of this chain already
     * did and nothing failed since: the chain applies its transactions in order, so the later ones
     * see the entry even before the first commits. Another writer removing the entry (another
     * member, an operator) makes the next puts under it fail, which brings the merge back.
     */
    private void ensure(final DOMDataTreeWriteTransaction tx, final String nodeId) {
        if (ensured.add(nodeId)) {
            tx.merge(LogicalDatastoreType.OPERATIONAL, SessionNodes.switchPath(nodeId),
                SessionNodes.switchEntry(nodeId));
        }
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

    private DOMTransactionChain newChain() {
        final var created = dom.createMergingTransactionChain();
        created.addCallback(new FutureCallback<>() {
            @Override
            public void onSuccess(final Empty result) {
                LOG.debug("RFT status chain closed");
            }

            @Override
            public void onFailure(final Throwable cause) {
                LOG.warn("RFT status chain failed, starting a new one", cause);
                replaceChain(created);
            }
        });
        return created;
    }

    private synchronized void replaceChain(final DOMTransactionChain failed) {
        if (!closed && chain == failed) {
            ensured.clear();
            chain = newChain();
        }
    }


    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            chain.close();
        }
    }
}
