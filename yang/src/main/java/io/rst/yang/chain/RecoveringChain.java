/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.yang.chain;

import com.google.common.util.concurrent.FutureCallback;
import java.util.concurrent.Executor;
import org.opendaylight.mdsal.dom.api.DOMDataBroker;
import org.opendaylight.mdsal.dom.api.DOMDataTreeWriteTransaction;
import org.opendaylight.mdsal.dom.api.DOMTransactionChain;
import org.opendaylight.yangtools.yang.common.Empty;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A merging DOM transaction chain that replaces itself when the datastore fails it, for a writer
 * that keeps one chain for its whole life (the RFT manager's status writer, the RPT's path
 * writer). A refused commit fails its chain, and every later transaction on it with it: the
 * writer's commits fail and are the writer's to make again, on the chain that replaces it.
 *
 * <p>The datastore's word that the chain failed comes on one of its threads: the replacement is
 * made on the executor the owner gives (its own thread, in order with its writes; a closed
 * owner's executor drops it), and {@code onReplaced} runs with it (what the owner knew of the
 * failed chain's writes no longer holds). A chain the datastore failed before the owner heard of
 * it is replaced when the owner asks it for a transaction. Nothing is replaced once closed.
 */
public final class RecoveringChain implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RecoveringChain.class);

    private final DOMDataBroker broker;
    private final String name;
    private final Executor replaceOn;
    private final Runnable onReplaced;
    private volatile DOMTransactionChain chain;
    private boolean closed;

    /**
     * A chain of {@code broker}'s, {@code name} naming its writer in the log.
     *
     * @param replaceOn where a failed chain is replaced (and {@code onReplaced} runs)
     * @param onReplaced what the owner does once its chain was replaced
     */
    public RecoveringChain(final DOMDataBroker broker, final String name, final Executor replaceOn,
            final Runnable onReplaced) {
        this.broker = broker;
        this.name = name;
        this.replaceOn = replaceOn;
        this.onReplaced = onReplaced;
        this.chain = create();
    }

    /** A transaction on the chain; a chain the datastore failed (not yet heard of) is replaced first. */
    public DOMDataTreeWriteTransaction newWriteOnlyTransaction() {
        final var current = chain;
        try {
            return current.newWriteOnlyTransaction();
        } catch (IllegalStateException e) {
            LOG.debug("{} transaction chain unusable, replacing it", name, e);
            replace(current);
            return chain.newWriteOnlyTransaction();
        }
    }

    private DOMTransactionChain create() {
        final var created = broker.createMergingTransactionChain();
        created.addCallback(new FutureCallback<Empty>() {
            @Override
            public void onSuccess(final Empty result) {
                LOG.debug("{} transaction chain closed", name);
            }

            @Override
            public void onFailure(final Throwable cause) {
                LOG.warn("{} transaction chain failed; a new one takes its writes", name, cause);
                replaceOn.execute(() -> replace(created));
            }
        });
        return created;
    }

    private synchronized void replace(final DOMTransactionChain failed) {
        if (!closed && chain == failed) {
            chain = create();
            onReplaced.run();
        }
    }

    /**
     * Closes the chain; a transaction still open on it makes the chain throw
     * ({@link IllegalStateException}).
     */
    @Override
    public void close() {
        final DOMTransactionChain last;
        synchronized (this) {
            closed = true;
            last = chain;
        }
        last.close();
    }
}
