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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.opendaylight.mdsal.binding.dom.adapter.test.AbstractConcurrentDataBrokerTest;
import org.opendaylight.mdsal.common.api.LogicalDatastoreType;
import org.opendaylight.mdsal.dom.api.DOMDataBroker;
import org.opendaylight.mdsal.dom.api.DOMDataTreeWriteTransaction;
import org.opendaylight.mdsal.dom.api.DOMTransactionChain;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.AgentState;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.AgentStatusBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.SessionKey;
import org.opendaylight.yangtools.yang.data.api.schema.MapEntryNode;

/**
 * The writer makes sure of a switch's entry once, not with every batch of sessions (applied
 * against a large table, that merge cost more than the sessions' puts), and again whenever the
 * entry may have gone: removed through the writer, or by anyone else, which makes the next batch
 * fail (the follower writes a failed batch again) and the one after it whole. What the switches
 * write in one tick goes out in one transaction, at the tick or once it is large.
 */
public class StatusWriterTest extends AbstractConcurrentDataBrokerTest {
    private final AtomicInteger merges = new AtomicInteger();
    private final AtomicInteger transactions = new AtomicInteger();

    public StatusWriterTest() {
        super(true);
    }

    /** Sets up the base class's broker, which it does with JUnit 4's @Before (Jupiter does not run it). */
    @BeforeEach
    public void setUpBroker() throws Exception {
        setup();
    }

    private static Map<String, MapEntryNode> sessions(final String... ids) {
        final Map<String, MapEntryNode> nodes = new java.util.LinkedHashMap<>();
        for (var id : ids) {
            nodes.put(id, FollowerNodes.minimal(id));
        }
        return nodes;
    }

    private Set<String> stored(final String nodeId) throws Exception {
        try (var tx = getDataBroker().newReadOnlyTransaction()) {
            return tx.read(LogicalDatastoreType.OPERATIONAL, StatusWriter.switchPath(nodeId)).get(10, TimeUnit.SECONDS)
                .map(sw -> sw.nonnullSession().keySet().stream().map(SessionKey::getSessionId)
                    .collect(Collectors.toSet()))
                .orElse(Set.of());
        }
    }

    @Test
    public void theSwitchEntryIsMadeSureOfOnceAndAgainWhenItMayHaveGone() throws Exception {
        final var stores = TestStores.of(this);
        try (var writer = new StatusWriter(new Stores(stores.binding(), countingMerges(stores.dom()),
                stores.codec()))) {
            writer.writeSessions("leaf1", sessions("a"), List.of()).get(10, TimeUnit.SECONDS);
            writer.writeSessions("leaf1", sessions("b"), List.of()).get(10, TimeUnit.SECONDS);
            writer.writeSessions("leaf1", sessions("c"), List.of("a")).get(10, TimeUnit.SECONDS);
            writer.writeSessions("spine1", sessions("d"), List.of()).get(10, TimeUnit.SECONDS);
            assertEquals(2, merges.get(), "one merge per switch");
            assertEquals(Set.of("b", "c"), stored("leaf1"));
            assertEquals(Set.of("d"), stored("spine1"));

            // removed through the writer (the switch left the configuration): made sure of again
            writer.remove("leaf1");
            writer.writeSessions("leaf1", sessions("e"), List.of()).get(10, TimeUnit.SECONDS);
            assertEquals(3, merges.get());
            assertEquals(Set.of("e"), stored("leaf1"));

            // removed by someone else: the next batch fails and is the caller's to write again
            final var tx = getDomBroker().newWriteOnlyTransaction();
            tx.delete(LogicalDatastoreType.OPERATIONAL, SessionNodes.switchPath("leaf1"));
            tx.commit().get(10, TimeUnit.SECONDS);
            assertThrows(ExecutionException.class,
                () -> writer.writeSessions("leaf1", sessions("f"), List.of()).get(10, TimeUnit.SECONDS));
            // after the failure (the chain's, too) every entry is made sure of again
            // (the failed chain's successor may still be in the making: a batch may fail until it is)
            await("a batch is written after the failure").atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(50)).ignoreException(ExecutionException.class).until(() -> {
                    writer.writeSessions("leaf1", sessions("f"), List.of()).get(10, TimeUnit.SECONDS);
                    return true;
                });
            assertEquals(Set.of("f"), stored("leaf1"));
            assertEquals(Set.of("d"), stored("spine1"));
        }
    }

    @Test
    public void theSwitchesBatchesOfOneTickGoOutInOneTransaction() throws Exception {
        final var stores = TestStores.of(this);
        try (var writer = new StatusWriter(new Stores(stores.binding(), countingMerges(stores.dom()),
                stores.codec()))) {
            final var go = new AtomicBoolean();
            final var second = new AtomicBoolean();
            final var leaf = new AtomicReference<com.google.common.util.concurrent.ListenableFuture<?>>();
            final var spine = new AtomicReference<com.google.common.util.concurrent.ListenableFuture<?>>();
            // two followers' flushes: the first writes in the tick that finds it armed, and arms the
            // second, which runs after it in the same tick
            try (var one = writer.onTick(() -> {
                if (go.compareAndSet(true, false)) {
                    leaf.set(writer.writeSessions("leaf1", sessions("a", "b"), List.of()));
                    second.set(true);
                }
            }); var two = writer.onTick(() -> {
                if (second.getAndSet(false)) {
                    spine.set(writer.writeSessions("spine1", sessions("c"), List.of()));
                }
            })) {
                go.set(true);
                await("the second flush writes").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(5))
                    .until(() -> spine.get() != null);
                spine.get().get(10, TimeUnit.SECONDS);
                assertSame(leaf.get(), spine.get(), "one outcome for the tick");
            }
            assertEquals(1, transactions.get(), "one transaction for the tick");
            assertEquals(Set.of("a", "b"), stored("leaf1"));
            assertEquals(Set.of("c"), stored("spine1"));
        }
    }

    @Test
    public void writesWaitForTheTickUnlessTheyAreMany() throws Exception {
        final var stores = TestStores.of(this);
        final var scheduler = Executors.newSingleThreadScheduledExecutor();
        final var held = new CountDownLatch(1);
        try (var writer = new StatusWriter(new Stores(stores.binding(), countingMerges(stores.dom()),
                stores.codec()), scheduler)) {
            // the tick's thread busy: nothing commits but what is large enough
            scheduler.execute(() -> {
                try {
                    held.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            // a small batch waits for the tick: it is not committed by itself (one transaction below
            // holds it with the large one)
            final var few = writer.writeSessions("leaf1", sessions("a"), List.of());
            assertFalse(few.isDone(), "a small batch waits for the tick");
            final String[] ids = new String[StatusWriter.COMMIT_AT];
            for (int i = 0; i < ids.length; i++) {
                ids[i] = "s" + i;
            }
            final var many = writer.writeSessions("leaf1", sessions(ids), List.of());
            many.get(10, TimeUnit.SECONDS);
            few.get(10, TimeUnit.SECONDS);
            assertEquals(1, transactions.get());
            assertEquals(StatusWriter.COMMIT_AT + 1, stored("leaf1").size());
            held.countDown();
            // and a small one goes out at the next tick
            writer.writeSessions("spine1", sessions("b"), List.of()).get(10, TimeUnit.SECONDS);
            assertEquals(Set.of("b"), stored("spine1"));
        } finally {
            held.countDown();
            scheduler.shutdownNow();
        }
    }

    private AgentState storedState(final String nodeId) throws Exception {
        try (var tx = getDataBroker().newReadOnlyTransaction()) {
            return tx.read(LogicalDatastoreType.OPERATIONAL, StatusWriter.switchPath(nodeId)).get(10, TimeUnit.SECONDS)
                .map(sw -> sw.getAgentStatus() == null ? null : sw.getAgentStatus().getState()).orElse(null);
        }
    }

    @Test
    public void aSwitchsFirstStatusGoesOutAtOnceTheRestAtTheTick() throws Exception {
        final var stores = TestStores.of(this);
        final var scheduler = Executors.newSingleThreadScheduledExecutor();
        final var held = new CountDownLatch(1);
        try (var writer = new StatusWriter(new Stores(stores.binding(), stores.dom(), stores.codec()), scheduler)) {
            // the tick's thread busy: only what goes out at once reaches the datastore
            scheduler.execute(() -> {
                try {
                    held.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            // just configured: a read right after the configuration must find the switch
            writer.write("leaf1",
                new AgentStatusBuilder().setState(AgentState.CONNECTING).setDetail("reaching").build());
            // the first status of a switch does not wait for the held tick
            await().atMost(Duration.ofSeconds(10)).until(() -> storedState("leaf1") != null);
            assertEquals(AgentState.CONNECTING, storedState("leaf1"));
            // its later statuses share the tick's transaction
            writer.write("leaf1", new AgentStatusBuilder().setState(AgentState.CAPTURING).setDetail("up").build());
            // the tick is held: the later status cannot have been written
            assertEquals(AgentState.CONNECTING, storedState("leaf1"));
            held.countDown();
            await().atMost(Duration.ofSeconds(10)).until(() -> storedState("leaf1") == AgentState.CAPTURING);
        } finally {
            held.countDown();
            scheduler.shutdownNow();
        }
    }

    /** The broker, counting the merges of the writer's transactions. */
    private DOMDataBroker countingMerges(final DOMDataBroker real) {
        return proxy(DOMDataBroker.class, real, (method, result) -> method.getName().endsWith("TransactionChain")
            ? proxy(DOMTransactionChain.class, (DOMTransactionChain) result, (chainMethod, tx) ->
                "newWriteOnlyTransaction".equals(chainMethod.getName()) && transactions.incrementAndGet() > 0
                    ? proxy(DOMDataTreeWriteTransaction.class, (DOMDataTreeWriteTransaction) tx, (txMethod, out) -> {
                        if ("merge".equals(txMethod.getName())) {
                            merges.incrementAndGet();
                        }
                        return out;
                    })
                    : tx)
            : result);
    }

    /** What a method of {@code target} returned, for a proxy to pass on or replace. */
    @FunctionalInterface
    private interface Wrap {
        Object apply(Method method, Object result);
    }

    @SuppressWarnings("checkstyle:AvoidHidingCauseException") // a proxy throws what its target threw
    private static <T> T proxy(final Class<T> type, final T target, final Wrap wrap) {
        final InvocationHandler handler = (proxy, method, args) -> {
            try {
                return wrap.apply(method, method.invoke(target, args));
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        };
        return type.cast(Proxy.newProxyInstance(StatusWriterTest.class.getClassLoader(), new Class<?>[] {type},
            handler));
    }
}
