/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.manager;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rst.yang.chain.RecoveringChain;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.opendaylight.mdsal.binding.dom.adapter.test.AbstractConcurrentDataBrokerTest;
import org.opendaylight.mdsal.common.api.LogicalDatastoreType;

/**
 * The writers' transaction chain ({@link RecoveringChain}, shared with the RPT) on ODL's in-memory
 * broker: a refused commit fails the chain, the replacement is made on the owner's executor and
 * takes the writes that follow, and the failure's word comes once; a closed chain is not replaced.
 */
public class RecoveringChainTest extends AbstractConcurrentDataBrokerTest {
    private final List<Runnable> ownersQueue = new CopyOnWriteArrayList<>();
    private final AtomicInteger replaced = new AtomicInteger();

    public RecoveringChainTest() {
        super(true);
    }

    /** Sets up the base class's broker, which it does with JUnit 4's @Before (Jupiter does not run it). */
    @BeforeEach
    public void setUpBroker() throws Exception {
        setup();
    }

    private RecoveringChain chain() {
        // the owner's executor: the test runs what it is given, when it decides to
        return new RecoveringChain(getDomBroker(), "test", ownersQueue::add, replaced::incrementAndGet);
    }

    /**
     * Commits a session under a switch entry someone else removed: refused, and the chain fails
     * with it.
     */
    private void fail(final RecoveringChain chain) throws Exception {
        assertTrue(writes(chain, "s0"));
        final var delete = getDomBroker().newWriteOnlyTransaction();
        delete.delete(LogicalDatastoreType.OPERATIONAL, SessionNodes.switchPath("leaf1"));
        delete.commit().get(10, TimeUnit.SECONDS);
        final var tx = chain.newWriteOnlyTransaction();
        tx.put(LogicalDatastoreType.OPERATIONAL, SessionNodes.sessionPath("leaf1", "s1"), session("s1"));
        assertThrows(ExecutionException.class, () -> tx.commit().get(10, TimeUnit.SECONDS));
        // the datastore's word of the failure reaches the owner's executor
        await("the chain's failure").atMost(Duration.ofSeconds(10)).until(() -> !ownersQueue.isEmpty());
    }

    private static org.opendaylight.yangtools.yang.data.api.schema.MapEntryNode session(final String id) {
        return FollowerNodes.minimal(id);
    }

    /** Writes the switch entry and a session through {@code chain}; whether the datastore has the session. */
    private boolean writes(final RecoveringChain chain, final String id) throws Exception {
        final var tx = chain.newWriteOnlyTransaction();
        tx.merge(LogicalDatastoreType.OPERATIONAL, SessionNodes.switchPath("leaf1"), SessionNodes.switchEntry("leaf1"));
        tx.put(LogicalDatastoreType.OPERATIONAL, SessionNodes.sessionPath("leaf1", id), session(id));
        tx.commit().get(10, TimeUnit.SECONDS);
        try (var read = getDomBroker().newReadOnlyTransaction()) {
            return read.read(LogicalDatastoreType.OPERATIONAL, SessionNodes.sessionPath("leaf1", id))
                .get(10, TimeUnit.SECONDS).isPresent();
        }
    }

    @Test
    public void aFailedChainIsReplacedOnTheOwnersExecutorAndTheReplacementWrites() throws Exception {
        try (var chain = chain()) {
            fail(chain);
            // not before the owner's executor runs it
            assertEquals(0, replaced.get());
            ownersQueue.removeFirst().run();
            assertEquals(1, replaced.get());
            assertTrue(writes(chain, "s2"));
            assertTrue(ownersQueue.isEmpty(), ownersQueue.toString());
        }
    }

    @Test
    public void aClosedChainIsNotReplaced() throws Exception {
        final var chain = chain();
        fail(chain);
        chain.close();
        ownersQueue.removeFirst().run();
        assertEquals(0, replaced.get());
    }
}
