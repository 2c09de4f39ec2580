/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rpt;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rst.yang.time.Times;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.opendaylight.mdsal.binding.api.RpcService;
import org.opendaylight.mdsal.binding.dom.adapter.BindingDOMRpcProviderServiceAdapter;
import org.opendaylight.mdsal.binding.dom.adapter.BindingDOMRpcServiceAdapter;
import org.opendaylight.mdsal.binding.dom.adapter.test.AbstractConcurrentDataBrokerTest;
import org.opendaylight.mdsal.common.api.LogicalDatastoreType;
import org.opendaylight.mdsal.dom.api.DOMDataBroker;
import org.opendaylight.mdsal.dom.api.DOMTransactionChain;
import org.opendaylight.mdsal.dom.broker.DOMRpcRouter;
import org.opendaylight.mdsal.dom.broker.RouterDOMRpcProviderService;
import org.opendaylight.mdsal.dom.broker.RouterDOMRpcService;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.IpAddress;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.Ipv4Address;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.PortNumber;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.yang.types.rev130715.DateAndTime;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.AgentState;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.CmMessageType;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.LearnedFrom;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.Qpn;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.Rft;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.SessionState;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.Transport;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.agent.status.PfcBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rdma.session.MessageBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rdma.session.RequesterDataBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rdma.session.ResponderDataBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft.Switch;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft.SwitchBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft.SwitchKey;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.AgentStatus;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.AgentStatusBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.Session;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.SessionBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.SessionKey;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.Direction;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.Rpt;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.RptSettings;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.RptSettingsBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.SessionsThrough;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.SessionsThroughInputBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.TraceSession;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.TraceSessionInputBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.TrafficKind;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.rpt.Path;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.rpt.PathKey;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.rpt.PausedPort;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.rpt.PausedPortKey;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.rpt.settings.DscpPriorityBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.topology.rev261201.RstNodeAttributes;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.topology.rev261201.RstNodeAttributesBuilder;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.LinkId;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.NetworkTopology;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.NodeId;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.TopologyId;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.TpId;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.link.attributes.DestinationBuilder;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.link.attributes.SourceBuilder;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.network.topology.Topology;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.network.topology.TopologyBuilder;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.network.topology.TopologyKey;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.network.topology.topology.Link;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.network.topology.topology.LinkBuilder;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.network.topology.topology.Node;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.network.topology.topology.NodeBuilder;
import org.opendaylight.yangtools.binding.DataObjectIdentifier;
import org.opendaylight.yangtools.binding.DataObjectReference;
import org.opendaylight.yangtools.binding.util.BindingMap;
import org.opendaylight.yangtools.concepts.Registration;
import org.opendaylight.yangtools.yang.common.Decimal64;
import org.opendaylight.yangtools.yang.common.Uint16;
import org.opendaylight.yangtools.yang.common.Uint32;
import org.opendaylight.yangtools.yang.common.Uint64;
import org.opendaylight.yangtools.yang.common.Uint8;

/**
 * The RPT against a real in-memory broker and a real RPC router: flow tables and topology links
 * in, paths and RPC answers out.
 */
public class RptWorkerTest extends AbstractConcurrentDataBrokerTest {
    private static final String REQUESTER = "10.1.0.2";
    private static final String RESPONDER = "10.2.0.2";
    private static final String ID = REQUESTER + "/0x00000001/" + RESPONDER;

    /** The hold of new, incomplete paths here: long enough that no test's writes outlast it. */
    private static final java.time.Duration HOLD = java.time.Duration.ofSeconds(3);

    /** A session at leaf9 whose path the tests await as the mark that what came before was taken in. */
    private static final String LATER = "10.9.0.2/0x00000009/10.9.0.3";

    private RptWorker worker;
    private RpcService rpcs;
    private ExecutorService executor;
    /** The transaction chains the worker made. */
    private final List<DOMTransactionChain> chains = new CopyOnWriteArrayList<>();

    @BeforeEach
    public void startWorker() throws Exception {
        // the broker: the base class sets it up with JUnit 4's @Before, which Jupiter does not run
        setup();
        final var customizer = getDataBrokerTestCustomizer();
        final var router = new DOMRpcRouter(customizer.getSchemaService());
        // the router learns the model from schema updates: give it the current one
        customizer.updateSchema(getRuntimeContext());
        executor = Executors.newSingleThreadExecutor();
        worker = new RptWorker(getDataBroker(), recordingChains(getDomBroker()),
            new BindingDOMRpcProviderServiceAdapter(customizer.getAdapterContext(),
                new RouterDOMRpcProviderService(router)), executor, HOLD);
        rpcs = new BindingDOMRpcServiceAdapter(customizer.getAdapterContext(), new RouterDOMRpcService(router));
    }

    @AfterEach
    public void stopWorker() {
        if (worker != null) {
            worker.close();
        }
    }

    /** {@code real}, the transaction chains it makes kept in {@link #chains}. */
    private DOMDataBroker recordingChains(final DOMDataBroker real) {
        return (DOMDataBroker) java.lang.reflect.Proxy.newProxyInstance(getClass().getClassLoader(),
            new Class<?>[] {DOMDataBroker.class}, (proxy, method, args) -> {
                final Object result = method.invoke(real, args);
                if (result instanceof DOMTransactionChain chain) {
                    chains.add(chain);
                }
                return result;
            });
    }

    /** Counts, by session id, the changes of its path a listener of the whole path table hears. */
    private Registration countPathWrites(final Map<String, AtomicInteger> writes) {
        return getDataBroker().registerTreeChangeListener(LogicalDatastoreType.OPERATIONAL,
            DataObjectReference.builder(Rpt.class).child(Path.class).build(),
            (org.opendaylight.mdsal.binding.api.DataTreeChangeListener<Path>) changes -> changes.forEach(change ->
                writes.computeIfAbsent(change.path().toLegacy().firstKeyOf(Path.class).getSessionId(),
                    id -> new AtomicInteger()).incrementAndGet()));
    }

    /**
     * Reports {@link #LATER} at leaf9 and waits until its path is heard: the RPT takes the flow
     * table's changes in order on its one thread, and the listener hears its commits in order, so
     * what the RPT made of anything written before (and what {@code writes} heard of it) is in.
     */
    private void awaitLaterPath(final Map<String, AtomicInteger> writes) throws Exception {
        putSession("leaf9", LATER, "leaf9-eth1", "leaf9-eth2");
        await("the later session's path is heard").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
            .until(() -> writes.containsKey(LATER));
    }

    /**
     * A new path is held back while some of its switches have not reported (not written half-made),
     * then written once, whole; a report that changes nothing the path shows does not write it
     * again; and a session that only one switch reports gets its path, with its gap, once the hold
     * is over.
     */
    @Test
    public void aNewPathWaitsForItsSwitchesWhileIncompleteAndAnUnchangedPathIsNotWrittenAgain() throws Exception {
        writeFabric(LogicalDatastoreType.CONFIGURATION, true);
        for (var sw : List.of("leaf1", "leaf2", "spine1", "spine2")) {
            putSwitchWithoutSessions(sw);
        }
        final var writes = new java.util.concurrent.CopyOnWriteArrayList<Path>();
        final var registration = getDataBroker().registerTreeChangeListener(LogicalDatastoreType.OPERATIONAL,
            org.opendaylight.yangtools.binding.DataObjectReference.builder(Rpt.class)
                .child(Path.class, new PathKey(ID)).build(),
            (org.opendaylight.mdsal.binding.api.DataTreeChangeListener<Path>) changes -> {
                for (var change : changes) {
                    if (change.getRootNode().dataAfter() != null) {
                        writes.add(change.getRootNode().dataAfter());
                    }
                }
            });
        try {
            // the first switch alone makes a path with a gap: held back, not written half-made
            final long held = worker.pathsHeld();
            putSession("leaf1", "leaf1-eth1", "leaf1-eth4");
            await("the new path is held back").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                .until(() -> worker.pathsHeld() > held);
            assertEquals(List.of(), writes, "an incomplete new path was written before its hold ended");
            putSession("spine2", "spine2-eth1", "spine2-eth2");
            putSession("leaf2", "leaf2-eth4", "leaf2-eth1");
            awaitPath(p -> p.isPresent() && p.orElseThrow().getForward().getComplete()
                && p.orElseThrow().getReverse().getComplete());
            await("the listener hears the write").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                .until(() -> !writes.isEmpty());
            assertEquals(1, writes.size(), "the path was written once, whole");
            assertEquals(List.of("leaf1", "spine2", "leaf2"), nodes(writes.get(0).getForward()));

            // leaf1 reports the session again, changed only where the path does not show
            final long unchanged = worker.pathsUnchanged();
            putSession("leaf1", ID, "leaf1-eth1", "leaf1-eth4", null, null, "100.000009");
            await("the path is recomputed").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                .until(() -> worker.pathsUnchanged() != unchanged);
            // counted unchanged: recomputed and not written
            assertEquals(unchanged + 1, worker.pathsUnchanged());
            assertEquals(1, writes.size(), "an unchanged path was written again");
        } finally {
            registration.close();
        }

        // a session only one switch ever reports still gets its path, with its gap, once the hold is over
        final String lone = "10.9.0.2/0x00000002/10.9.0.3";
        final long start = System.nanoTime();
        putSession("leaf1", lone, "leaf1-eth1", "leaf1-eth4");
        final var incomplete = awaitPath(lone, p -> p.isPresent()).orElseThrow();
        assertTrue(System.nanoTime() - start >= HOLD.toNanos(), "written before its hold ended");
        assertFalse(incomplete.getForward().getComplete());
    }

    /**
     * A commit of paths that the datastore refuses is not taken as written (nothing is silently
     * lost): the paths it carried are written again whole, on a new transaction chain
     * (a refused commit fails the chain, and every later write on it), and the failure is counted.
     * The refusal is the datastore's own: the path's entry is removed behind the RPT's back, so
     * that its next write, of the part that changed, has no entry to go into.
     */
    @Test
    public void aRefusedPathCommitIsWrittenAgainWholeAndLaterPathsStillGoOut() throws Exception {
        writeFabric(LogicalDatastoreType.CONFIGURATION, true);
        putAcrossSpine2(ID);
        awaitPath(p -> p.isPresent() && p.orElseThrow().getForward().getComplete()
            && p.orElseThrow().getReverse().getComplete());
        assertEquals(0, worker.failedCommits());

        final var delete = getDataBroker().newWriteOnlyTransaction();
        delete.delete(LogicalDatastoreType.OPERATIONAL, DataObjectIdentifier.builder(Rpt.class)
            .child(Path.class, new PathKey(ID)).build());
        delete.commit().get(5, TimeUnit.SECONDS);
        // the requester's data now seen at leaf1: the RPT writes the path's data part alone
        putSession("leaf1", "leaf1-eth1", "leaf1-eth4", "leaf1-eth1", null);

        final var again = awaitPath(p -> p.isPresent() && p.orElseThrow().getDataForward() != null);
        assertTrue(again.orElseThrow().getForward().getComplete()
            && again.orElseThrow().getReverse().getComplete(), "written whole again");
        assertEquals(List.of("leaf1", "spine2", "leaf2"), nodes(again.orElseThrow().getForward()));
        assertTrue(worker.failedCommits() >= 1, "the refused commit is counted");

        // and the paths of later sessions still go out
        final String later = "10.9.0.2/0x00000002/10.9.0.3";
        putAcrossSpine2(later);
        awaitPath(later, p -> p.isPresent() && p.orElseThrow().getForward().getComplete());
    }

    /**
     * Losing the singleton while paths are being computed and written (ownership moving to
     * another member, or the controller stopping) closes the worker cleanly: no write of the old
     * owner is left half-made on its transaction chain (closing a chain with a transaction still
     * open throws, and OpenDaylight then logs the RPT as failed to stop), and nothing is written
     * after the close returns.
     */
    @Test
    public void closingWhilePathsAreWrittenLeavesNoTransactionOpen() throws Exception {
        writeFabric(LogicalDatastoreType.CONFIGURATION, true);
        putBulkAcrossSpine2(3000);
        // the paths are being written: close now, in the middle of it
        await("paths are being written").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(1))
            .until(() -> countPaths() > 0);
        final var closing = worker;
        worker = null;
        closing.close();
        // the RPT's thread has ended, and its chain closes once every transaction on it is done:
        // then what was committed before the close has landed, and nothing more can come
        assertTrue(executor.isTerminated(), "the RPT's thread outlived the close");
        assertFalse(chains.isEmpty());
        await("the RPT's transaction chains close").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
            .until(() -> chains.stream().allMatch(chain -> chain.future().isDone()));
        for (var chain : chains) {
            // closed, not failed
            chain.future().get();
        }
        final long settled = countPaths();
        assertTrue(settled > 0, "the paths committed before the close");
        assertEquals(settled, countPaths(), "paths written after the close");
    }

    @Test
    public void closingStopsARecomputationOfManyPathsInsteadOfWaitingForItsEnd() throws Exception {
        // a snapshot of a big switch makes one recomputation of every session it holds, and a
        // loaded datastore slows its writes: closing must not wait for all of it (and then close
        // the chain under it), but stop the recomputation where it is
        final var closer = new java.util.concurrent.atomic.AtomicReference<Thread>();
        final var assembled = new java.util.concurrent.atomic.AtomicInteger();
        final var closing = worker;
        closing.afterAssembly(() -> {
            if (assembled.incrementAndGet() == 100) {
                // the 100th path: close from another thread, as OpenDaylight does, and go on once it began
                final var t = new Thread(closing::close, "closer");
                closer.set(t);
                t.start();
                while (!closing.closing()) {
                    Thread.onSpinWait();
                }
            }
        });
        writeFabric(LogicalDatastoreType.CONFIGURATION, true);
        putBulkAcrossSpine2(3000);
        await("a recomputation reaches its 100th path").atMost(Duration.ofSeconds(30))
            .pollInterval(Duration.ofMillis(5)).until(() -> closer.get() != null);
        closer.get().join(30_000);
        worker = null;
        // the close returned once the RPT's thread had ended: nothing is assembled any more
        assertTrue(executor.isTerminated(), "the RPT's thread outlived the close");
        // the recomputation stopped at the close: its paths after the 100th were not assembled
        assertTrue(assembled.get() <= 101, "paths assembled after the close began: " + assembled.get());
    }

    /** Each switch of the path leaf1 -> spine2 -> leaf2, with where the REQ and the REP entered it. */
    private static final List<List<String>> ACROSS_SPINE2 = List.of(List.of("leaf1", "leaf1-eth1", "leaf1-eth4"),
        List.of("spine2", "spine2-eth1", "spine2-eth2"), List.of("leaf2", "leaf2-eth4", "leaf2-eth1"));

    /**
     * Sessions 0 to {@code sessions - 1} ({@link #bulkId}) at each switch of leaf1 -> spine2 -> leaf2, a commit a
     * switch.
     */
    private void putBulkAcrossSpine2(final int sessions) throws Exception {
        for (var hop : ACROSS_SPINE2) {
            final var tx = getDataBroker().newWriteOnlyTransaction();
            for (int i = 0; i < sessions; i++) {
                tx.mergeParentStructurePut(LogicalDatastoreType.OPERATIONAL, DataObjectIdentifier.builder(Rft.class)
                    .child(Switch.class, new SwitchKey(new NodeId(hop.get(0))))
                    .child(Session.class, new SessionKey(bulkId(i))).build(),
                    sessionBuilder(bulkId(i), hop.get(1), hop.get(2), "100.000003").build());
            }
            tx.commit().get(30, TimeUnit.SECONDS);
        }
    }

    /** The session {@code id} at each switch of leaf1 -> spine2 -> leaf2. */
    private void putAcrossSpine2(final String id) throws Exception {
        for (var hop : ACROSS_SPINE2) {
            putSession(hop.get(0), id, hop.get(1), hop.get(2));
        }
    }

    private long countPaths() throws Exception {
        try (var rtx = getDataBroker().newReadOnlyTransaction()) {
            return rtx.read(LogicalDatastoreType.OPERATIONAL, DataObjectIdentifier.builder(Rpt.class).build())
                .get(5, TimeUnit.SECONDS).map(rpt -> (long) rpt.nonnullPath().size()).orElse(0L);
        }
    }

    private static String bulkId(final int index) {
        return "10.1.0.2/0x" + String.format("%08x", 0x100 + index) + "/10.2.0.2";
    }

    /**
     * A switch's entry is written again and again with its agent's status alone (the RFT manager's
     * probe): its sessions are not looked at, no path is computed or written for it; nor for a
     * session reported again with only what no path shows changed (its data's packet count).
     */
    @Test
    public void aStatusOnlyWriteOrAPacketCountTouchesNoPath() throws Exception {
        writeFabric(LogicalDatastoreType.CONFIGURATION, true);
        putSession("leaf1", "leaf1-eth1", "leaf1-eth4", "leaf1-eth1", null);
        putSession("spine2", "spine2-eth1", "spine2-eth2");
        putSession("leaf2", "leaf2-eth4", "leaf2-eth1");
        awaitPath(p -> p.isPresent() && p.orElseThrow().getForward().getComplete()
            && p.orElseThrow().getReverse().getComplete() && p.orElseThrow().getDataForward() != null);
        final Map<String, AtomicInteger> writes = new ConcurrentHashMap<>();
        final var registration = countPathWrites(writes);
        try {
            await("the listener hears the path as it stands").atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(20)).until(() -> writes.containsKey(ID));
            assertEquals(1, writes.get(ID).get(), "the path as it stands");
            final long unchanged = worker.pathsUnchanged();
            for (var state : List.of(AgentState.CAPTURING, AgentState.UNREACHABLE, AgentState.CAPTURING)) {
                for (var sw : List.of("leaf1", "spine2", "leaf2")) {
                    final var tx = getDataBroker().newWriteOnlyTransaction();
                    tx.merge(LogicalDatastoreType.OPERATIONAL,
                        DataObjectIdentifier.builder(Rft.class).child(Switch.class, new SwitchKey(new NodeId(sw)))
                            .build(),
                        new SwitchBuilder().setNodeId(new NodeId(sw))
                            .setAgentStatus(new AgentStatusBuilder().setState(state).build()).build());
                    tx.commit().get(5, TimeUnit.SECONDS);
                }
            }
            // leaf1's data sampled again: one more packet, the same port
            final var tx = getDataBroker().newWriteOnlyTransaction();
            tx.merge(LogicalDatastoreType.OPERATIONAL, sessionPath("leaf1").toBuilder()
                .child(org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rdma.session.RequesterData
                    .class).build(),
                new RequesterDataBuilder().setPackets(Uint64.valueOf(2)).build());
            tx.commit().get(5, TimeUnit.SECONDS);
            awaitLaterPath(writes);
            assertEquals(unchanged, worker.pathsUnchanged(), "a path was computed again");
            assertEquals(1, writes.get(ID).get(), "a path was written again");
        } finally {
            registration.close();
        }
        // and the switches' sessions are still there: one going away still moves the path
        deleteSession("spine2");
        awaitPath(p -> p.isPresent() && !p.orElseThrow().getForward().getComplete());
    }

    /**
     * A switch's entry put again whole (not merged) replaces its table: the sessions it no longer
     * has are gone from the paths, those it still has stay.
     */
    @Test
    public void aSwitchPutAgainWholeReplacesItsSessions() throws Exception {
        writeFabric(LogicalDatastoreType.CONFIGURATION, true);
        final String other = "10.9.0.2/0x00000002/10.9.0.3";
        putSession("leaf1", "leaf1-eth1", "leaf1-eth4");
        putSession("leaf1", other, "leaf1-eth1", "leaf1-eth4");
        putSession("spine2", "spine2-eth1", "spine2-eth2");
        putSession("leaf2", "leaf2-eth4", "leaf2-eth1");
        awaitPath(p -> p.isPresent() && p.orElseThrow().getForward().getComplete());
        final var kept = new SessionBuilder(readSession("leaf1", other)).build();
        final var tx = getDataBroker().newWriteOnlyTransaction();
        tx.put(LogicalDatastoreType.OPERATIONAL,
            DataObjectIdentifier.builder(Rft.class).child(Switch.class, new SwitchKey(new NodeId("leaf1"))).build(),
            new SwitchBuilder().setNodeId(new NodeId("leaf1"))
                .setAgentStatus(new AgentStatusBuilder().setState(AgentState.CAPTURING).build())
                .setSession(Map.of(kept.key(), kept)).build());
        tx.commit().get(5, TimeUnit.SECONDS);
        // leaf1 saw nothing of the first session any more: its hop is inferred
        final var path = awaitPath(p -> p.isPresent() && !p.orElseThrow().getForward().getComplete()).orElseThrow();
        assertEquals(List.of(false, true, true), observed(path.getForward()));
        assertTrue(awaitPath(other, p -> p.isPresent()).isPresent());
    }

    private Session readSession(final String node, final String id) throws Exception {
        try (var rtx = getDataBroker().newReadOnlyTransaction()) {
            return rtx.read(LogicalDatastoreType.OPERATIONAL, DataObjectIdentifier.builder(Rft.class)
                .child(Switch.class, new SwitchKey(new NodeId(node))).child(Session.class, new SessionKey(id)).build())
                .get(5, TimeUnit.SECONDS).orElseThrow();
        }
    }

    /**
     * Sessions a switch has without messages or with little else than their id still make their
     * (gapped) paths, and do not keep the other sessions of the same commit from theirs.
     */
    @Test
    public void sessionsWithoutMessagesDoNotHoldUpTheOthers() throws Exception {
        writeFabric(LogicalDatastoreType.CONFIGURATION, true);
        final String bare = "bare";
        final String silent = "10.9.0.2/0x00000003/10.9.0.3";
        final var tx = getDataBroker().newWriteOnlyTransaction();
        tx.mergeParentStructurePut(LogicalDatastoreType.OPERATIONAL, DataObjectIdentifier.builder(Rft.class)
            .child(Switch.class, new SwitchKey(new NodeId("leaf1"))).child(Session.class, new SessionKey(bare))
            .build(), new SessionBuilder().setSessionId(bare).build());
        tx.mergeParentStructurePut(LogicalDatastoreType.OPERATIONAL, DataObjectIdentifier.builder(Rft.class)
            .child(Switch.class, new SwitchKey(new NodeId("leaf1"))).child(Session.class, new SessionKey(silent))
            .build(), new SessionBuilder().setSessionId(silent).setRequesterIp(ip("10.9.0.2"))
                .setState(SessionState.REQSENT).setMessage(List.of(new MessageBuilder().setSeq(Uint32.ZERO).build()))
                .build());
        tx.commit().get(5, TimeUnit.SECONDS);
        putSession("leaf1", "leaf1-eth1", "leaf1-eth4");
        putSession("spine2", "spine2-eth1", "spine2-eth2");
        putSession("leaf2", "leaf2-eth4", "leaf2-eth1");
        awaitPath(p -> p.isPresent() && p.orElseThrow().getForward().getComplete());
        final var bareHop = awaitPath(bare, p -> p.isPresent()).orElseThrow();
        assertEquals(null, bareHop.getForward().getHop());
        assertFalse(bareHop.getForward().getComplete());
        final var silentPath = awaitPath(silent, p -> p.isPresent()).orElseThrow();
        assertEquals(SessionState.REQSENT, silentPath.getState());
        assertEquals(ip("10.9.0.2"), silentPath.getRequesterIp());
        assertEquals(null, silentPath.getReverse().getHop());
    }

    @Test
    public void aSwitchThatRftLearnsOrForgetsMovesThePathsThroughIt() throws Exception {
        writeFabric(LogicalDatastoreType.CONFIGURATION, true);
        putSession("leaf1", "leaf1-eth1", "leaf1-eth4");
        putSession("leaf2", "leaf2-eth4", "leaf2-eth1");
        // spine2 unknown to RFT: the path breaks there (a port RFT does not trace)
        final var before = awaitPath(p -> p.isPresent() && hopCount(p.orElseThrow().getForward()) == 2
            && p.orElseThrow().getReverse().getHop() != null).orElseThrow();
        assertTrue(before.getForward().getGap().stream()
            .anyMatch(gap -> gap.contains("does not trace")),
            before.getForward().getGap().toString());
        // spine2 becomes an RFT switch that saw nothing (RFT off there, say): it is inferred between the leaves
        putSwitchWithoutSessions("spine2");
        final var after = awaitPath(p -> p.isPresent() && hopCount(p.orElseThrow().getForward()) == 3).orElseThrow();
        assertEquals(List.of("leaf1", "spine2", "leaf2"), nodes(after.getForward()));
        assertEquals(List.of(true, false, true), observed(after.getForward()));
        assertFalse(after.getForward().getComplete());
        // and when RFT forgets it again, the path goes back to what it was
        final var tx = getDataBroker().newWriteOnlyTransaction();
        tx.delete(LogicalDatastoreType.OPERATIONAL, DataObjectIdentifier.builder(Rft.class)
            .child(Switch.class, new SwitchKey(new NodeId("spine2"))).build());
        tx.commit().get(5, TimeUnit.SECONDS);
        awaitPath(p -> p.isPresent() && p.orElseThrow().equals(before));
    }

    /**
     * A link change recomputes the paths at the link's nodes, not every path: a session
     * elsewhere in the fabric keeps its path untouched.
     */
    @Test
    public void aLinkChangeRewritesOnlyThePathsAtItsNodes() throws Exception {
        final DataObjectIdentifier<Topology> topology = DataObjectIdentifier.builder(NetworkTopology.class)
            .child(Topology.class, new TopologyKey(new TopologyId("rst"))).build();
        final var links = List.of(link("leaf1", "leaf1-eth3", "spine1", "spine1-eth1"),
            link("spine1", "spine1-eth2", "leaf2", "leaf2-eth3"), link("leaf8", "leaf8-eth3", "spine8", "spine8-eth1"));
        final var tx = getDataBroker().newWriteOnlyTransaction();
        tx.mergeParentStructurePut(LogicalDatastoreType.OPERATIONAL, topology, new TopologyBuilder()
            .setTopologyId(new TopologyId("rst")).setLink(links.stream()
                .collect(java.util.stream.Collectors.toMap(Link::key, l -> l))).build());
        tx.commit().get(5, TimeUnit.SECONDS);
        putSession("leaf1", "leaf1-eth1", "leaf1-eth3");
        putSession("spine1", "spine1-eth1", "spine1-eth2");
        putSession("leaf2", "leaf2-eth3", "leaf2-eth1");
        final String other = "10.9.0.2/0x00000002/10.9.0.3";
        putSession("leaf9", other, "leaf9-eth1", "leaf9-eth2");
        awaitPath(p -> p.isPresent() && hopCount(p.orElseThrow().getForward()) == 3);

        final Map<String, AtomicInteger> writes = new ConcurrentHashMap<>();
        final var registration = countPathWrites(writes);
        try {
            // the other path as it stands (a listener hears the current data first)
            await("the listener hears the path as it stands").atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(20)).until(() -> writes.containsKey(other));
            assertEquals(1, writes.get(other).get());
            // leaf1 -- spine1 goes down: the first session's path breaks there
            final var down = getDataBroker().newWriteOnlyTransaction();
            down.delete(LogicalDatastoreType.OPERATIONAL, topology.toBuilder().child(Link.class,
                links.get(0).key()).build());
            down.commit().get(5, TimeUnit.SECONDS);
            awaitPath(p -> p.isPresent() && !p.orElseThrow().getForward().getComplete()
                && observed(p.orElseThrow().getForward()).equals(List.of(true, true, true))
                && p.orElseThrow().getForward().getGap() != null && !p.orElseThrow().getForward().getGap().isEmpty());
            awaitLaterPath(writes);
            assertEquals(1,
                writes.get(other).get(), "the path of a session that crosses no changed link was not written again");
        } finally {
            registration.close();
        }
    }

    @Test
    public void pathsFromFlowTablesAndLinksAndTheRpcsAnswerFromThem() throws Exception {
        // leaf1 -- spine1 -- leaf2, links both ways as LLDP-learnt topologies have them
        final var links = new ArrayList<Link>();
        links.add(link("leaf1", "leaf1-eth3", "spine1", "spine1-eth1"));
        links.add(link("spine1", "spine1-eth1", "leaf1", "leaf1-eth3"));
        links.add(link("spine1", "spine1-eth2", "leaf2", "leaf2-eth3"));
        links.add(link("leaf2", "leaf2-eth3", "spine1", "spine1-eth2"));
        final var tx = getDataBroker().newWriteOnlyTransaction();
        tx.mergeParentStructurePut(LogicalDatastoreType.OPERATIONAL,
            DataObjectIdentifier.builder(NetworkTopology.class)
                .child(Topology.class, new TopologyKey(new TopologyId("rst"))).build(),
            new TopologyBuilder().setTopologyId(new TopologyId("rst")).setLink(links.stream()
                .collect(java.util.stream.Collectors.toMap(Link::key, l -> l))).build());
        tx.commit().get(5, TimeUnit.SECONDS);

        // each switch saw the REQ enter towards the responder and the REP towards the requester
        putSession("leaf1", "leaf1-eth1", "leaf1-eth3");
        putSession("spine1", "spine1-eth1", "spine1-eth2");
        putSession("leaf2", "leaf2-eth3", "leaf2-eth1");

        final var path = awaitPath(p -> p.isPresent() && p.orElseThrow().getForward().getHop() != null
            && p.orElseThrow().getForward().getHop().size() == 3 && p.orElseThrow().getForward().getComplete())
            .orElseThrow();
        assertEquals(List.of("leaf1", "spine1", "leaf2"), nodes(path.getForward()));
        assertEquals(List.of("leaf1-eth3", "spine1-eth2"), path.getForward().getHop().stream().limit(2)
            .map(h -> h.getEgressTp().getValue()).toList());
        assertEquals(List.of("leaf2", "spine1", "leaf1"), nodes(path.getReverse()));
        assertTrue(path.getReverse().getComplete());
        assertFalse(path.getAsymmetric());
        assertEquals(SessionState.ESTABLISHED, path.getState());

        // the RPCs answer from the paths, whichever end is named first
        final var traced = rpcs.getRpc(TraceSession.class).invoke(new TraceSessionInputBuilder()
            .setSrcIp(ip(RESPONDER)).setDstIp(ip(REQUESTER)).build()).get(5, TimeUnit.SECONDS);
        assertTrue(traced.isSuccessful());
        assertEquals(1, traced.getResult().nonnullPath().size());
        final var through = rpcs.getRpc(SessionsThrough.class).invoke(new SessionsThroughInputBuilder()
            .setNodeId(new NodeId("spine1")).setTpId(new TpId("spine1-eth2")).build()).get(5, TimeUnit.SECONDS);
        assertEquals(1, through.getResult().nonnullPath().size());
        final var elsewhere = rpcs.getRpc(SessionsThrough.class).invoke(new SessionsThroughInputBuilder()
            .setNodeId(new NodeId("leaf1")).setTpId(new TpId("leaf1-eth9")).build()).get(5, TimeUnit.SECONDS);
        assertEquals(0, elsewhere.getResult().nonnullPath().size());

        // spine1 loses the session (say its agent restarted without state): a gap; the only switch
        // between leaf1 and leaf2 is put back as inferred, not observed
        final var del = getDataBroker().newWriteOnlyTransaction();
        del.delete(LogicalDatastoreType.OPERATIONAL, sessionPath("spine1"));
        del.commit().get(5, TimeUnit.SECONDS);
        final var broken = awaitPath(p -> p.isPresent() && !p.orElseThrow().getForward().getComplete()).orElseThrow();
        assertEquals(List.of("leaf1", "spine1", "leaf2"), nodes(broken.getForward()));
        assertEquals(List.of(true, false, true), observed(broken.getForward()));
        assertTrue(broken.getForward().getGap().stream().anyMatch(gap -> gap.contains("spine1")),
            broken.getForward().getGap().toString());
    }

    /**
     * The lab's fabric as the lab writes it over RESTCONF, into the configuration datastore: leaves
     * leaf1 and leaf2, spines spine1 and spine2, hosts h1a (10.1.0.2) on leaf1 and h2a (10.2.0.2) on
     * leaf2, links both ways.
     */
    @Test
    public void hostToHostPathsOverAConfiguredTopologyAndHopsInferredWhereASwitchSawNothing() throws Exception {
        writeFabric(LogicalDatastoreType.CONFIGURATION, true);
        // the session went leaf1 -> spine2 -> leaf2 and back the same way
        putSession("leaf1", "leaf1-eth1", "leaf1-eth4");
        putSession("spine2", "spine2-eth1", "spine2-eth2");
        putSession("leaf2", "leaf2-eth4", "leaf2-eth1");
        putSwitchWithoutSessions("spine1");

        final var full = awaitPath(p -> p.isPresent() && hopCount(p.orElseThrow().getForward()) == 3
            && p.orElseThrow().getForward().getDestinationNode() != null).orElseThrow();
        final var fwd = full.getForward();
        assertEquals(List.of("leaf1", "spine2", "leaf2"), nodes(fwd));
        assertEquals(List.of("leaf1-eth1", "spine2-eth1", "leaf2-eth4"), ingress(fwd));
        assertEquals(List.of("leaf1-eth4", "spine2-eth2", "leaf2-eth1"), egress(fwd));
        assertEquals(List.of(true, true, true), observed(fwd));
        assertEquals("h1a", fwd.getSourceNode().getValue());
        assertEquals("h1a-eth0", fwd.getSourceTp().getValue());
        assertEquals("h2a", fwd.getDestinationNode().getValue());
        assertEquals("h2a-eth0", fwd.getDestinationTp().getValue());
        assertTrue(fwd.getGap() == null || fwd.getGap().isEmpty());
        assertTrue(fwd.getComplete());
        final var rev = full.getReverse();
        assertEquals(List.of("leaf2", "spine2", "leaf1"), nodes(rev));
        assertEquals(List.of("leaf2-eth1", "spine2-eth2", "leaf1-eth4"), ingress(rev));
        assertEquals(List.of("leaf2-eth4", "spine2-eth1", "leaf1-eth1"), egress(rev));
        assertEquals("h2a", rev.getSourceNode().getValue());
        assertEquals("h1a-eth0", rev.getDestinationTp().getValue());
        assertTrue(rev.getComplete());
        // the RPC answers carry the ends too
        final var traced = rpcs.getRpc(TraceSession.class).invoke(new TraceSessionInputBuilder()
            .setSrcIp(ip(REQUESTER)).setDstIp(ip(RESPONDER)).build()).get(5, TimeUnit.SECONDS);
        assertEquals("h2a-eth0", traced.getResult().nonnullPath().values().iterator().next().getForward()
            .getDestinationTp().getValue());

        // RFT off on leaf2 (its sessions go, the switch stays known): the last hop is inferred
        deleteSession("leaf2");
        final var leafOff = awaitPath(p -> p.isPresent() && !p.orElseThrow().getForward().getComplete()).orElseThrow();
        assertEquals(List.of("leaf1", "spine2", "leaf2"), nodes(leafOff.getForward()));
        assertEquals(List.of(true, true, false), observed(leafOff.getForward()));
        assertEquals(List.of("leaf1-eth1", "spine2-eth1", "leaf2-eth4"), ingress(leafOff.getForward()));
        assertEquals(List.of("leaf1-eth4", "spine2-eth2", "leaf2-eth1"), egress(leafOff.getForward()));
        assertEquals("h2a-eth0", leafOff.getForward().getDestinationTp().getValue());
        assertTrue(leafOff.getForward().getGap().stream()
            .anyMatch(gap -> gap.startsWith("switch leaf2 ") && gap.contains("inferred from topology")),
            leafOff.getForward().getGap().toString());
        // and the reverse direction starts at the silent leaf, fed by h2a
        assertEquals(List.of("leaf2", "spine2", "leaf1"), nodes(leafOff.getReverse()));
        assertEquals(List.of(false, true, true), observed(leafOff.getReverse()));
        assertEquals("h2a-eth0", leafOff.getReverse().getSourceTp().getValue());
        assertFalse(leafOff.getReverse().getComplete());

        // leaf2 back, spine2 off: the spine is inferred between the two leaves
        putSession("leaf2", "leaf2-eth4", "leaf2-eth1");
        deleteSession("spine2");
        final var spineOff = awaitPath(p -> p.isPresent() && hopCount(p.orElseThrow().getForward()) == 3
            && !p.orElseThrow().getForward().getHop().get(1).getObserved()
            && p.orElseThrow().getForward().getHop().get(2).getObserved()).orElseThrow();
        assertEquals(List.of("leaf1", "spine2", "leaf2"), nodes(spineOff.getForward()));
        assertEquals(List.of("leaf1-eth1", "spine2-eth1", "leaf2-eth4"), ingress(spineOff.getForward()));
        assertEquals(List.of("leaf1-eth4", "spine2-eth2", "leaf2-eth1"), egress(spineOff.getForward()));
        assertFalse(spineOff.getForward().getComplete());
        assertTrue(spineOff.getForward().getGap().stream()
            .anyMatch(gap -> gap.startsWith("switch spine2 ") && gap.contains("inferred from topology")),
            spineOff.getForward().getGap().toString());
        assertEquals(List.of("leaf2", "spine2", "leaf1"), nodes(spineOff.getReverse()));
    }

    /**
     * The CM went leaf1 -> spine1 -> leaf2 and back; the requester's data (another UDP source
     * port) was hashed to spine2. The leaves sampled the data (they carry both), spine2 could not
     * tell whose it was: the data path infers spine2 and says where data and CM part.
     */
    @Test
    public void dataPathsBesideTheCmPathsAndWhereTheyPart() throws Exception {
        writeFabric(LogicalDatastoreType.CONFIGURATION, true);
        putSwitchWithoutSessions("spine2");
        putSession("leaf1", "leaf1-eth1", "leaf1-eth3", "leaf1-eth1", "leaf1-eth3");
        putSession("spine1", "spine1-eth1", "spine1-eth2", null, "spine1-eth2");
        putSession("leaf2", "leaf2-eth3", "leaf2-eth1", "leaf2-eth4", "leaf2-eth1");
        final var path = awaitPath(p -> p.isPresent() && p.orElseThrow().getDataForward() != null
            && hopCount(p.orElseThrow().getForward()) == 3 && hopCount(p.orElseThrow().getDataForward()) == 3)
            .orElseThrow();
        assertEquals(List.of("leaf1", "spine1", "leaf2"), nodes(path.getForward()));
        final var dataFwd = path.getDataForward();
        assertEquals(List.of("leaf1", "spine2", "leaf2"), nodes(dataFwd));
        assertEquals(List.of(true, false, true), observed(dataFwd));
        assertEquals(List.of("leaf1-eth1", "spine2-eth1", "leaf2-eth4"), ingress(dataFwd));
        assertEquals(List.of("leaf1-eth4", "spine2-eth2", "leaf2-eth1"), egress(dataFwd));
        assertTrue(dataFwd.nonnullHop().stream().allMatch(h -> h.getTraffic() == TrafficKind.Data));
        assertTrue(dataFwd.getGap().stream()
            .anyMatch(g -> g.startsWith("switch spine2 ") && g.contains("could not tell this data's session")),
            dataFwd.getGap().toString());
        // the reverse data took the CM's way
        assertEquals(List.of("leaf2", "spine1", "leaf1"), nodes(path.getDataReverse()));
        assertTrue(path.getDataReverse().getComplete());
        assertTrue(path.getDataPathDiffers());
        assertEquals(Set.of("forward data enters leaf2 on leaf2-eth4, its CM on leaf2-eth3"), path.getAnomaly());
        // the CM path's hops say they are CM
        assertTrue(path.getForward().nonnullHop().stream().allMatch(h -> h.getTraffic() == TrafficKind.Cm));
        // without sampled data there is no data path and no verdict
        final long inPart = worker.pathsRewrittenInPart();
        putSession("leaf1", "leaf1-eth1", "leaf1-eth3");
        putSession("spine1", "spine1-eth1", "spine1-eth2");
        putSession("leaf2", "leaf2-eth3", "leaf2-eth1");
        final var cmOnly = awaitPath(p -> p.isPresent() && p.orElseThrow().getDataForward() == null).orElseThrow();
        assertEquals(null, cmOnly.getDataPathDiffers());
        assertEquals(null, cmOnly.getAnomaly());
        // the data containers went as deletes of the written path's children, not a whole rewrite
        assertTrue(worker.pathsRewrittenInPart() > inPart, "the path was written again in part");
    }

    /** The CM session with its requester's data sampled at {@code node}, with its congestion figures. */
    private void putCongested(final String node, final String reqIngress, final String repIngress,
            final String dataIngress, final long packets, final long ce) throws Exception {
        final var builder = sessionBuilder(ID, reqIngress, repIngress, "100.000003");
        builder.setRequesterData(new RequesterDataBuilder().setUdpSrcPort(new PortNumber(Uint16.valueOf(50001)))
            .setIngressPort(dataIngress).setPackets(Uint64.valueOf(packets)).setDscp(Uint8.valueOf(26))
            .setEctPackets(Uint64.valueOf(40)).setCePackets(Uint64.valueOf(ce)).setCnpPackets(Uint64.ZERO).build());
        put(node, builder.build());
    }

    /**
     * A CM session's sampled data shows its congestion hop by hop; its path is written again when
     * only a CE count changes (in part: the direction that changed), and not when only the packet
     * count does; the RPC finds it by the priority its data has.
     */
    @Test
    public void congestionOnACmSessionsDataPathWrittenAgainWhenOnlyCeChanges() throws Exception {
        writeFabric(LogicalDatastoreType.CONFIGURATION, true);
        putSwitchWithoutSessions("spine2");
        putCongested("leaf1", "leaf1-eth1", "leaf1-eth3", "leaf1-eth1", 40, 0);
        putCongested("spine1", "spine1-eth1", "spine1-eth2", "spine1-eth1", 40, 0);
        putCongested("leaf2", "leaf2-eth3", "leaf2-eth1", "leaf2-eth3", 40, 0);
        final var path = awaitPath(p -> p.isPresent() && p.orElseThrow().getDataForward() != null
            && hopCount(p.orElseThrow().getDataForward()) == 3
            && p.orElseThrow().getDataForward().nonnullHop().stream().allMatch(h -> h.getEctPackets() != null))
            .orElseThrow();
        final var clean = path.getDataForward();
        assertEquals(null, clean.getMarkedAt());
        assertEquals(Decimal64.of(4, 0), clean.getCeShare());
        assertEquals(Uint64.ZERO, clean.getCnpPackets());
        for (var hop : clean.nonnullHop()) {
            assertEquals(Uint8.valueOf(26), hop.getDscp());
            assertEquals(Uint8.valueOf(3), hop.getPriority());
            assertEquals(Uint64.valueOf(40), hop.getEctPackets());
            assertEquals(Uint64.ZERO, hop.getCePackets());
        }
        final Map<String, AtomicInteger> writes = new ConcurrentHashMap<>();
        try (var registration = countPathWrites(writes)) {
            await("the listener hears the path as it stands").atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(20)).until(() -> writes.containsKey(ID));
            assertEquals(1, writes.get(ID).get(), "the path as it stands");
            // the packet count alone: nothing the path shows, not even computed again
            final long unchanged = worker.pathsUnchanged();
            putCongested("leaf2", "leaf2-eth3", "leaf2-eth1", "leaf2-eth3", 41, 0);
            awaitLaterPath(writes);
            assertEquals(1, writes.get(ID).get(), "a packet count wrote the path again");
            assertEquals(unchanged, worker.pathsUnchanged(), "the path was computed again");
            // CE at leaf2 alone: the path again, marked between spine1 and leaf2
            final long inPart = worker.pathsRewrittenInPart();
            putCongested("leaf2", "leaf2-eth3", "leaf2-eth1", "leaf2-eth3", 42, 3);
            final var marked = awaitPath(p -> p.isPresent() && p.orElseThrow().getDataForward().getMarkedAt() != null)
                .orElseThrow().getDataForward();
            assertEquals(2, writes.get(ID).get());
            assertTrue(worker.pathsRewrittenInPart() > inPart, "the path was written again in part");
            final var at = marked.getMarkedAt();
            assertEquals("spine1", at.getNodeId().getValue());
            assertEquals("spine1-eth2", at.getEgressTp().getValue());
            assertEquals("leaf2", at.getNextNodeId().getValue());
            assertEquals("leaf2-eth3", at.getNextIngressTp().getValue());
            assertEquals(Uint16.valueOf(2), at.getHopIndex());
            assertEquals(Boolean.TRUE, at.getCertain());
            assertEquals(Decimal64.of(4, 750), marked.getCeShare());
            assertEquals(Uint64.valueOf(3), marked.getCePackets());
            assertEquals(Uint64.valueOf(3), marked.nonnullHop().get(2).getCePackets());
            assertEquals(Decimal64.of(4, 750), marked.nonnullHop().get(2).getCeShare());
        }
        // the sessions whose data crosses spine1 in priority 3, and none in priority 4
        final var three = rpcs.getRpc(SessionsThrough.class).invoke(new SessionsThroughInputBuilder()
            .setNodeId(new NodeId("spine1")).setTpId(new TpId("spine1-eth2")).setPriority(Uint8.valueOf(3)).build())
            .get(5, TimeUnit.SECONDS);
        assertEquals(List.of(ID), three.getResult().nonnullPath().values().stream().map(p -> p.getSessionId())
            .toList());
        final var four = rpcs.getRpc(SessionsThrough.class).invoke(new SessionsThroughInputBuilder()
            .setNodeId(new NodeId("spine1")).setPriority(Uint8.valueOf(4)).build()).get(5, TimeUnit.SECONDS);
        assertEquals(0, four.getResult().nonnullPath().size());
    }

    /** A data-learned session with its data paths' congestion figures, CE already on the host's link. */
    private void putCongestedData(final String node, final String forwardIngress, final String reverseIngress,
            final long forwardCe) throws Exception {
        put(node, new SessionBuilder().setSessionId(DATA_ID).setLearnedFrom(LearnedFrom.Data)
            .setTransport(Transport.RC).setRolesKnown(false).setRequesterIp(ip(REQUESTER)).setResponderIp(ip(RESPONDER))
            .setRequesterQpn(new Qpn(Uint32.valueOf(0x101))).setResponderQpn(new Qpn(Uint32.valueOf(0xabcd)))
            .setState(SessionState.ACTIVE).setFirstSeen(seconds("100.000001")).setLastSeen(seconds("130.5"))
            .setRequesterData(new RequesterDataBuilder().setUdpSrcPort(new PortNumber(Uint16.valueOf(50001)))
                .setIngressPort(forwardIngress).setPackets(Uint64.TEN).setDscp(Uint8.valueOf(26))
                .setEctPackets(Uint64.TEN).setCePackets(Uint64.valueOf(forwardCe)).setCnpPackets(Uint64.ZERO).build())
            .setResponderData(new ResponderDataBuilder().setUdpSrcPort(new PortNumber(Uint16.valueOf(50002)))
                .setIngressPort(reverseIngress).setPackets(Uint64.TEN).setDscp(Uint8.valueOf(26))
                .setEctPackets(Uint64.TEN).setCePackets(Uint64.ZERO).setCnpPackets(Uint64.valueOf(4)).build())
            .build());
    }

    /**
     * A data-learned session marked on the sending host's link; the DSCP to priority map
     * configured moves its hops' priority; a PFC pause of a port its data leaves through, in that
     * priority, lists it; the pause over, the entry goes.
     */
    @Test
    public void aDataLearnedSessionsCongestionPriorityAndThePausesThatHoldItUp() throws Exception {
        writeFabric(LogicalDatastoreType.CONFIGURATION, true);
        putSwitchWithoutSessions("spine2");
        putCongestedData("leaf1", "leaf1-eth1", "leaf1-eth3", 2);
        putCongestedData("spine1", "spine1-eth1", "spine1-eth2", 2);
        putCongestedData("leaf2", "leaf2-eth3", "leaf2-eth1", 2);
        final var path = awaitPath(DATA_ID, p -> p.isPresent() && p.orElseThrow().getDataForward() != null
            && p.orElseThrow().getDataForward().getComplete() && p.orElseThrow().getDataReverse() != null
            && p.orElseThrow().getDataReverse().getComplete()).orElseThrow();
        final var at = path.getDataForward().getMarkedAt();
        assertEquals("h1a", at.getNodeId().getValue());
        assertEquals("h1a-eth0", at.getEgressTp().getValue());
        assertEquals("leaf1", at.getNextNodeId().getValue());
        assertEquals(Uint16.ZERO, at.getHopIndex());
        assertEquals(Boolean.TRUE, at.getCertain());
        assertEquals(null, path.getDataReverse().getMarkedAt());
        assertEquals(Uint64.valueOf(4), path.getDataReverse().getCnpPackets());

        // the fabric puts DSCP 26 in priority 5
        final var settings = getDataBroker().newWriteOnlyTransaction();
        settings.put(LogicalDatastoreType.CONFIGURATION, DataObjectIdentifier.builder(RptSettings.class).build(),
            new RptSettingsBuilder().setDscpPriority(BindingMap.of(new DscpPriorityBuilder()
                .setDscp(Uint8.valueOf(26)).setPriority(Uint8.valueOf(5)).build())).build());
        settings.commit().get(5, TimeUnit.SECONDS);
        awaitPath(DATA_ID, p -> p.isPresent() && p.orElseThrow().getDataForward().nonnullHop().stream()
            .allMatch(h -> Uint8.valueOf(5).equals(h.getPriority())));

        // leaf1's agent sees PFC frames entering leaf1-eth3 (from spine1) for priority 5: the
        // forward data leaves leaf1 there, so the session is held up
        final var port = DataObjectIdentifier.builder(Rpt.class).child(PausedPort.class,
            new PausedPortKey(new NodeId("leaf1"), Uint8.valueOf(5), new TpId("leaf1-eth3"))).build();
        putPfc("leaf1", true, 5_000);
        final var paused = await("leaf1-eth3 priority 5 is listed paused").atMost(Duration.ofSeconds(10))
            .pollInterval(Duration.ofMillis(50)).until(() -> readOper(port), Optional::isPresent).orElseThrow();
        assertEquals(Uint32.ONE, paused.getSessionCount());
        assertEquals(Set.of(DATA_ID), paused.getSession());
        assertEquals(Boolean.TRUE, paused.getPaused());
        assertEquals(Decimal64.of(4, 5_000), paused.getPausedShare());
        // another priority there holds nothing up
        final var other = DataObjectIdentifier.builder(Rpt.class).child(PausedPort.class,
            new PausedPortKey(new NodeId("leaf1"), Uint8.valueOf(3), new TpId("leaf1-eth3"))).build();
        assertEquals(Uint32.ZERO, readOper(other).orElseThrow().getSessionCount());
        // the pause over: no entry
        putPfc("leaf1", false, 0);
        await("the pause is over").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
            .until(() -> readOper(port), Optional::isEmpty);
        assertEquals(Optional.empty(), readOper(other));
    }

    /** leaf1's status with PFC pauses on leaf1-eth3, priority 5 ({@code paused}, {@code share}) and 3 (paused). */
    private void putPfc(final String node, final boolean paused, final long share) throws Exception {
        final var tx = getDataBroker().newWriteOnlyTransaction();
        tx.mergeParentStructurePut(LogicalDatastoreType.OPERATIONAL, DataObjectIdentifier.builder(Rft.class)
            .child(Switch.class, new SwitchKey(new NodeId(node))).child(AgentStatus.class).build(),
            new AgentStatusBuilder().setState(AgentState.CAPTURING).setPfc(BindingMap.of(
                new PfcBuilder().setInterface("swp3").setPriority(Uint8.valueOf(5)).setTpId(new TpId("leaf1-eth3"))
                    .setPaused(paused).setPausedShare(Decimal64.of(4, share)).setFrames(Uint64.TEN).build(),
                new PfcBuilder().setInterface("swp3").setPriority(Uint8.valueOf(3)).setTpId(new TpId("leaf1-eth3"))
                    .setPaused(paused).build())).build());
        tx.commit().get(5, TimeUnit.SECONDS);
    }

    private <T extends org.opendaylight.yangtools.binding.DataObject> Optional<T> readOper(
            final DataObjectIdentifier<T> path) throws Exception {
        try (var tx = getDataBroker().newReadOnlyTransaction()) {
            return tx.read(LogicalDatastoreType.OPERATIONAL, path).get(5, TimeUnit.SECONDS);
        }
    }

    private static final String DATA_ID = REQUESTER + "/qp0x000101/" + RESPONDER + "/qp0x00abcd";
    /** The requester's data to the responder's QP, and the responder's to the requester's, one-way. */
    private static final String TO_RESPONDER = REQUESTER + "/-/" + RESPONDER + "/qp0x00abcd";
    private static final String TO_REQUESTER = RESPONDER + "/-/" + REQUESTER + "/qp0x000101";

    /** A data-learned session a switch paired: data each way entered where said (null: not seen). */
    private void putDataSession(final String node, final String forwardIngress, final String reverseIngress)
            throws Exception {
        putDataSession(node, forwardIngress, reverseIngress, null);
    }

    /** A data-learned session a switch paired, joined by the controller to the CM session {@code joined} (or not). */
    private void putDataSession(final String node, final String forwardIngress, final String reverseIngress,
            final String joined) throws Exception {
        final var builder = new SessionBuilder().setSessionId(DATA_ID).setLearnedFrom(LearnedFrom.Data)
            .setPairedSession(joined)
            .setTransport(Transport.RC).setRolesKnown(false).setRequesterIp(ip(REQUESTER)).setResponderIp(ip(RESPONDER))
            .setRequesterQpn(new Qpn(Uint32.valueOf(0x101))).setResponderQpn(new Qpn(Uint32.valueOf(0xabcd)))
            .setState(SessionState.ACTIVE).setFirstSeen(seconds("100.000001")).setLastSeen(seconds("130.5"));
        if (forwardIngress != null) {
            builder.setRequesterData(new RequesterDataBuilder().setUdpSrcPort(new PortNumber(Uint16.valueOf(50001)))
                .setIngressPort(forwardIngress).setPackets(Uint64.TEN).build());
        }
        if (reverseIngress != null) {
            builder.setResponderData(new ResponderDataBuilder().setUdpSrcPort(new PortNumber(Uint16.valueOf(50002)))
                .setIngressPort(reverseIngress).setPackets(Uint64.TEN).build());
        }
        put(node, builder.build());
    }

    /** A one-way RC flow as a switch reports it, paired by the controller into {@code paired} (or not). */
    private void putOneWay(final String node, final String id, final String ingress, final String paired)
            throws Exception {
        final boolean toResponder = id.equals(TO_RESPONDER);
        put(node, new SessionBuilder().setSessionId(id).setLearnedFrom(LearnedFrom.Data).setTransport(Transport.RC)
            .setOneWay(true).setRolesKnown(false)
            .setRequesterIp(ip(toResponder ? REQUESTER : RESPONDER))
            .setResponderIp(ip(toResponder ? RESPONDER : REQUESTER))
            .setResponderQpn(new Qpn(Uint32.valueOf(toResponder ? 0xabcd : 0x101)))
            .setRequesterData(new RequesterDataBuilder().setUdpSrcPort(new PortNumber(Uint16.valueOf(50003)))
                .setIngressPort(ingress).setPackets(Uint64.ONE).build())
            .setPairedSession(paired).setState(SessionState.ACTIVE).setFirstSeen(seconds("100.000002"))
            .setLastSeen(seconds("130.4")).build());
    }

    private void put(final String node, final Session session) throws Exception {
        final var tx = getDataBroker().newWriteOnlyTransaction();
        tx.mergeParentStructurePut(LogicalDatastoreType.OPERATIONAL, DataObjectIdentifier.builder(Rft.class)
            .child(Switch.class, new SwitchKey(new NodeId(node))).child(Session.class, session.key()).build(),
            session);
        tx.commit().get(5, TimeUnit.SECONDS);
    }

    /**
     * A data-learned session's path is its data, both ways: the leaves paired it, each spine saw one
     * direction (ECMP) and the controller paired those one-way flows into it. The flows have no path
     * of their own while paired; unpaired, a flow's is one-way.
     */
    @Test
    public void aDataLearnedSessionsPathIsItsDataBothWaysWithTheFlowsPairedIntoIt() throws Exception {
        writeFabric(LogicalDatastoreType.CONFIGURATION, true);
        putDataSession("leaf1", "leaf1-eth1", "leaf1-eth3");
        putDataSession("leaf2", "leaf2-eth4", "leaf2-eth1");
        putOneWay("spine2", TO_RESPONDER, "spine2-eth1", DATA_ID);
        putOneWay("spine1", TO_REQUESTER, "spine1-eth2", DATA_ID);
        final var path = awaitPath(DATA_ID, p -> p.isPresent() && p.orElseThrow().getDataForward() != null
            && p.orElseThrow().getDataReverse() != null && p.orElseThrow().getDataForward().getComplete()
            && p.orElseThrow().getDataReverse().getComplete()).orElseThrow();
        assertEquals(LearnedFrom.Data, path.getLearnedFrom());
        assertEquals(Transport.RC, path.getTransport());
        assertEquals(null, path.getOneWay());
        assertEquals(SessionState.ACTIVE, path.getState());
        assertEquals(0x101, path.getRequesterQpn().getValue().intValue());
        assertEquals(0xabcd, path.getResponderQpn().getValue().intValue());
        // no CM, so no CM path and nothing to differ from
        assertEquals(null, path.getForward());
        assertEquals(null, path.getReverse());
        assertEquals(null, path.getDataPathDiffers());
        assertEquals(List.of("leaf1", "spine2", "leaf2"), nodes(path.getDataForward()));
        assertEquals(List.of(true, true, true), observed(path.getDataForward()));
        assertEquals("h1a", path.getDataForward().getSourceNode().getValue());
        assertEquals("h2a-eth0", path.getDataForward().getDestinationTp().getValue());
        assertEquals(List.of("leaf2", "spine1", "leaf1"), nodes(path.getDataReverse()));
        assertTrue(path.getDataReverse().nonnullHop().stream().allMatch(h -> h.getTraffic() == TrafficKind.Data));
        // the two ways cross different spines
        assertTrue(path.getAsymmetric());
        assertEquals(Optional.empty(), readPath(TO_RESPONDER));
        assertEquals(Optional.empty(), readPath(TO_REQUESTER));

        // the RPCs find it by its data, and filter on where it was learnt from
        final var through = rpcs.getRpc(SessionsThrough.class).invoke(new SessionsThroughInputBuilder()
            .setNodeId(new NodeId("spine2")).build()).get(5, TimeUnit.SECONDS);
        assertEquals(Set.of(DATA_ID), through.getResult().nonnullPath().keySet().stream()
            .map(k -> k.getSessionId()).collect(java.util.stream.Collectors.toSet()));
        final var cmOnly = rpcs.getRpc(TraceSession.class).invoke(new TraceSessionInputBuilder()
            .setSrcIp(ip(REQUESTER)).setDstIp(ip(RESPONDER)).setLearnedFrom(LearnedFrom.Cm).build())
            .get(5, TimeUnit.SECONDS);
        assertTrue(cmOnly.getResult().nonnullPath().isEmpty());
        final var dataOnly = rpcs.getRpc(TraceSession.class).invoke(new TraceSessionInputBuilder()
            .setSrcIp(ip(RESPONDER)).setDstIp(ip(REQUESTER)).setLearnedFrom(LearnedFrom.Data)
            .setQpn(new Qpn(Uint32.valueOf(0xabcd))).build()).get(5, TimeUnit.SECONDS);
        assertEquals(1, dataOnly.getResult().nonnullPath().size());

        // the controller no longer pairs spine2's flow: it is a one-way path again, and the
        // session's forward data infers spine2
        putOneWay("spine2", TO_RESPONDER, "spine2-eth1", null);
        final var flow = awaitPath(TO_RESPONDER, Optional::isPresent).orElseThrow();
        assertEquals(Boolean.TRUE, flow.getOneWay());
        assertEquals(LearnedFrom.Data, flow.getLearnedFrom());
        assertEquals(null, flow.getRequesterQpn());
        assertEquals(0xabcd, flow.getResponderQpn().getValue().intValue());
        assertEquals(null, flow.getDataReverse());
        assertEquals(null, flow.getForward());
        assertTrue(nodes(flow.getDataForward()).contains("spine2"));
        final var without = awaitPath(DATA_ID, p -> p.isPresent()
            && !p.orElseThrow().getDataForward().getHop().get(1).getObserved()).orElseThrow();
        assertEquals(List.of("leaf1", "spine2", "leaf2"), nodes(without.getDataForward()));

        // paired again: the one-way path goes
        putOneWay("spine2", TO_RESPONDER, "spine2-eth1", DATA_ID);
        awaitPath(TO_RESPONDER, Optional::isEmpty);
        awaitPath(DATA_ID, p -> p.isPresent() && p.orElseThrow().getDataForward().getComplete());
    }

    /**
     * No switch saw both directions: the two one-way flows the controller paired across the spines
     * are one path, under the paired id, built from both flows' hops; the flow gone, the other is
     * one-way again.
     */
    @Test
    public void twoOneWayFlowsPairedAcrossSwitchesAreOnePath() throws Exception {
        writeFabric(LogicalDatastoreType.CONFIGURATION, true);
        putOneWay("spine2", TO_RESPONDER, "spine2-eth1", DATA_ID);
        putOneWay("spine1", TO_REQUESTER, "spine1-eth2", DATA_ID);
        final var path = awaitPath(DATA_ID, p -> p.isPresent() && hopCount(p.orElseThrow().getDataForward()) > 0
            && hopCount(p.orElseThrow().getDataReverse()) > 0).orElseThrow();
        assertEquals(LearnedFrom.Data, path.getLearnedFrom());
        assertEquals(null, path.getOneWay());
        assertTrue(nodes(path.getDataForward()).contains("spine2"));
        assertTrue(nodes(path.getDataReverse()).contains("spine1"));
        assertEquals(REQUESTER, path.getRequesterIp().stringValue());
        assertEquals(0x101, path.getRequesterQpn().getValue().intValue());
        assertEquals(Optional.empty(), readPath(TO_RESPONDER));
        assertEquals(Optional.empty(), readPath(TO_REQUESTER));

        final var tx = getDataBroker().newWriteOnlyTransaction();
        tx.delete(LogicalDatastoreType.OPERATIONAL, DataObjectIdentifier.builder(Rft.class)
            .child(Switch.class, new SwitchKey(new NodeId("spine1"))).child(Session.class,
                new SessionKey(TO_REQUESTER)).build());
        tx.commit().get(5, TimeUnit.SECONDS);
        // the controller unpairs the other (its pairing lost its evidence)
        putOneWay("spine2", TO_RESPONDER, "spine2-eth1", null);
        awaitPath(DATA_ID, Optional::isEmpty);
        final var alone = awaitPath(TO_RESPONDER, Optional::isPresent).orElseThrow();
        assertEquals(Boolean.TRUE, alone.getOneWay());
    }

    /** The CM session {@link #ID} between the QPs of {@link #DATA_ID}, its CM seen where said. */
    private void putCmWithQps(final String node, final String reqIngress, final String repIngress) throws Exception {
        put(node, sessionBuilder(ID, reqIngress, repIngress, "100.000003")
            .setRequesterQpn(new Qpn(Uint32.valueOf(0x101))).setResponderQpn(new Qpn(Uint32.valueOf(0xabcd))).build());
    }

    private void deleteSession(final String node, final String id) throws Exception {
        final var tx = getDataBroker().newWriteOnlyTransaction();
        tx.delete(LogicalDatastoreType.OPERATIONAL, DataObjectIdentifier.builder(Rft.class)
            .child(Switch.class, new SwitchKey(new NodeId(node))).child(Session.class, new SessionKey(id)).build());
        tx.commit().get(5, TimeUnit.SECONDS);
    }

    private void deleteSession(final String node) throws Exception {
        final var tx = getDataBroker().newWriteOnlyTransaction();
        tx.delete(LogicalDatastoreType.OPERATIONAL, sessionPath(node));
        tx.commit().get(5, TimeUnit.SECONDS);
    }

    /**
     * The CM went leaf1 -> spine1 -> leaf2 and back; the data (other UDP source ports) crossed
     * spine2, which saw no CM message and learnt a data record of its own, which the controller
     * joined to the CM session: spine2 is a data hop of the CM session's path, in the data's
     * direction, and the record has no path of its own: first a one-way flow of the requester's
     * data, then a data-learned session of both directions.
     */
    @Test
    public void dataRecordsJoinedToACmSessionAreItsDataHops() throws Exception {
        writeFabric(LogicalDatastoreType.CONFIGURATION, true);
        putCmWithQps("leaf1", "leaf1-eth1", "leaf1-eth3");
        putCmWithQps("spine1", "spine1-eth1", "spine1-eth2");
        putCmWithQps("leaf2", "leaf2-eth3", "leaf2-eth1");
        awaitPath(p -> p.isPresent() && hopCount(p.orElseThrow().getForward()) == 3);
        putOneWay("spine2", TO_RESPONDER, "spine2-eth1", ID);
        final var path = awaitPath(p -> p.isPresent() && p.orElseThrow().getDataForward() != null).orElseThrow();
        assertEquals(List.of("leaf1", "spine1", "leaf2"), nodes(path.getForward()));
        assertEquals(SessionState.ESTABLISHED, path.getState());
        assertEquals(LearnedFrom.Cm, path.getLearnedFrom());
        assertTrue(nodes(path.getDataForward()).contains("spine2"), nodes(path.getDataForward()).toString());
        final var hop = path.getDataForward().nonnullHop().stream()
            .filter(h -> h.getNodeId().getValue().equals("spine2")).findFirst().orElseThrow();
        assertTrue(hop.getObserved());
        assertEquals("spine2-eth1", hop.getIngressTp().getValue());
        assertEquals(TrafficKind.Data, hop.getTraffic());
        // the responder's data was seen nowhere
        assertTrue(path.getDataReverse() == null
            || path.getDataReverse().nonnullHop().stream().noneMatch(h -> h.getObserved()));
        assertTrue(path.getDataPathDiffers());
        assertEquals(Optional.empty(), readPath(TO_RESPONDER));

        // spine2 now pairs both directions itself: a data-learned session, joined too
        putDataSession("spine2", "spine2-eth1", "spine2-eth2", ID);
        deleteSession("spine2", TO_RESPONDER);
        final var both = awaitPath(p -> p.isPresent() && p.orElseThrow().getDataReverse() != null
            && nodes(p.orElseThrow().getDataReverse()).contains("spine2")
            && p.orElseThrow().getDataReverse().nonnullHop().stream().anyMatch(h -> h.getObserved())).orElseThrow();
        assertEquals(List.of("leaf1", "spine2", "leaf2"), nodes(both.getDataForward()));
        assertEquals(List.of("leaf2", "spine2", "leaf1"), nodes(both.getDataReverse()));
        assertEquals("spine2-eth2", both.getDataReverse().nonnullHop().get(1).getIngressTp().getValue());
        assertEquals(SessionState.ESTABLISHED, both.getState());
        assertEquals(Optional.empty(), readPath(DATA_ID));
        assertEquals(Optional.empty(), readPath(TO_RESPONDER));
        // nothing of spine2's is a path of its own (sessions-through goes by a CM session's CM path)
        final var through = rpcs.getRpc(SessionsThrough.class).invoke(new SessionsThroughInputBuilder()
            .setNodeId(new NodeId("spine2")).build()).get(5, TimeUnit.SECONDS);
        assertTrue(through.getResult().nonnullPath().isEmpty(), through.getResult().nonnullPath().toString());
        final var trace = rpcs.getRpc(TraceSession.class).invoke(new TraceSessionInputBuilder()
            .setSrcIp(ip(REQUESTER)).setDstIp(ip(RESPONDER)).build()).get(5, TimeUnit.SECONDS);
        assertEquals(Set.of(ID), trace.getResult().nonnullPath().keySet().stream()
            .map(k -> k.getSessionId()).collect(java.util.stream.Collectors.toSet()));
    }

    /**
     * The joined record comes before any switch reports its CM session: it waits (no path of its
     * own written meanwhile) and is the CM session's data hop once that comes. The CM session gone
     * from every switch, the record is on its own path again.
     */
    @Test
    public void aRecordJoinedBeforeItsCmSessionComesWaitsForIt() throws Exception {
        writeFabric(LogicalDatastoreType.CONFIGURATION, true);
        putOneWay("spine2", TO_REQUESTER, "spine2-eth2", ID);
        putCmWithQps("leaf1", "leaf1-eth1", "leaf1-eth3");
        putCmWithQps("spine1", "spine1-eth1", "spine1-eth2");
        putCmWithQps("leaf2", "leaf2-eth3", "leaf2-eth1");
        final var path = awaitPath(p -> p.isPresent() && p.orElseThrow().getDataReverse() != null
            && nodes(p.orElseThrow().getDataReverse()).contains("spine2")).orElseThrow();
        // the responder's data, to the requester's QP: the reverse
        assertEquals(List.of("leaf2", "spine2", "leaf1"), nodes(path.getDataReverse()));
        assertTrue(path.getDataReverse().nonnullHop().get(1).getObserved());
        assertEquals(Optional.empty(), readPath(TO_REQUESTER));
        assertEquals(SessionState.ESTABLISHED, path.getState());

        for (var node : List.of("leaf1", "spine1", "leaf2")) {
            deleteSession(node, ID);
        }
        awaitPath(Optional::isEmpty);
        final var alone = awaitPath(TO_REQUESTER, Optional::isPresent).orElseThrow();
        assertEquals(Boolean.TRUE, alone.getOneWay());
        assertEquals(List.of("spine2"), alone.getDataForward().nonnullHop().stream()
            .filter(h -> h.getObserved()).map(h -> h.getNodeId().getValue()).toList());
        // the CM session back (reported again): the record joins it again
        putCmWithQps("leaf1", "leaf1-eth1", "leaf1-eth3");
        awaitPath(TO_REQUESTER, Optional::isEmpty);
        awaitPath(p -> p.isPresent() && p.orElseThrow().getDataReverse() != null
            && nodes(p.orElseThrow().getDataReverse()).contains("spine2"));
    }

    private Optional<Path> readPath(final String id) throws Exception {
        try (var rtx = getDataBroker().newReadOnlyTransaction()) {
            return rtx.read(LogicalDatastoreType.OPERATIONAL, DataObjectIdentifier.builder(Rpt.class)
                .child(Path.class, new PathKey(id)).build()).get(5, TimeUnit.SECONDS);
        }
    }

    @Test
    public void linksInTheOperationalDatastoreAloneStillMakePaths() throws Exception {
        writeFabric(LogicalDatastoreType.OPERATIONAL, true);
        putSession("leaf1", "leaf1-eth1", "leaf1-eth3");
        putSession("spine1", "spine1-eth1", "spine1-eth2");
        putSession("leaf2", "leaf2-eth3", "leaf2-eth1");
        final var path = awaitPath(p -> p.isPresent() && hopCount(p.orElseThrow().getForward()) == 3
            && p.orElseThrow().getForward().getComplete()
            && p.orElseThrow().getForward().getDestinationTp() != null).orElseThrow();
        assertEquals(List.of("leaf1", "spine1", "leaf2"), nodes(path.getForward()));
        assertEquals(List.of("leaf1-eth3", "spine1-eth2", "leaf2-eth1"), egress(path.getForward()));
        assertEquals("h1a-eth0", path.getForward().getSourceTp().getValue());
        assertEquals("h2a-eth0", path.getForward().getDestinationTp().getValue());
    }

    @Test
    public void pathsFollowTheHostsAddresses() throws Exception {
        // the topology first without the hosts' addresses: the path ends at the last switch
        writeFabric(LogicalDatastoreType.CONFIGURATION, false);
        putSession("leaf1", "leaf1-eth1", "leaf1-eth3");
        putSession("spine1", "spine1-eth1", "spine1-eth2");
        putSession("leaf2", "leaf2-eth3", "leaf2-eth1");
        final var before = awaitPath(p -> p.isPresent() && hopCount(p.orElseThrow().getForward()) == 3
            && p.orElseThrow().getForward().getComplete()).orElseThrow();
        assertEquals(null, before.getForward().getDestinationNode());
        assertEquals(null, before.getForward().getHop().get(2).getEgressTp());
        assertEquals("h1a", before.getForward().getSourceNode().getValue());
        // the addresses arrive: the paths are recomputed and reach the host
        writeFabric(LogicalDatastoreType.CONFIGURATION, true);
        final var after = awaitPath(p -> p.isPresent() && p.orElseThrow().getForward().getDestinationNode() != null)
            .orElseThrow();
        assertEquals("h2a", after.getForward().getDestinationNode().getValue());
        assertEquals("leaf2-eth1", after.getForward().getHop().get(2).getEgressTp().getValue());
    }

    private void writeFabric(final LogicalDatastoreType store, final boolean withAddresses) throws Exception {
        final var links = new ArrayList<Link>();
        for (var ends : List.of(
                List.of("h1a", "h1a-eth0", "leaf1", "leaf1-eth1"),
                List.of("h2a", "h2a-eth0", "leaf2", "leaf2-eth1"),
                List.of("leaf1", "leaf1-eth3", "spine1", "spine1-eth1"),
                List.of("leaf1", "leaf1-eth4", "spine2", "spine2-eth1"),
                List.of("leaf2", "leaf2-eth3", "spine1", "spine1-eth2"),
                List.of("leaf2", "leaf2-eth4", "spine2", "spine2-eth2"))) {
            links.add(link(ends.get(0), ends.get(1), ends.get(2), ends.get(3)));
            links.add(link(ends.get(2), ends.get(3), ends.get(0), ends.get(1)));
        }
        final var nodes = new ArrayList<Node>();
        for (var sw : List.of("leaf1", "leaf2", "spine1", "spine2")) {
            nodes.add(new NodeBuilder().setNodeId(new NodeId(sw)).addAugmentation(new RstNodeAttributesBuilder()
                .setNodeKind(RstNodeAttributes.NodeKind.Switch).build()).build());
        }
        for (var host : List.of(List.of("h1a", REQUESTER), List.of("h2a", RESPONDER))) {
            final var attributes = new RstNodeAttributesBuilder().setNodeKind(RstNodeAttributes.NodeKind.Host);
            if (withAddresses) {
                attributes.setIpAddress(Set.of(ip(host.get(1))));
            }
            nodes.add(new NodeBuilder().setNodeId(new NodeId(host.get(0))).addAugmentation(attributes.build()).build());
        }
        final var tx = getDataBroker().newWriteOnlyTransaction();
        tx.mergeParentStructurePut(store, DataObjectIdentifier.builder(NetworkTopology.class)
                .child(Topology.class, new TopologyKey(new TopologyId("rst-lab"))).build(),
            new TopologyBuilder().setTopologyId(new TopologyId("rst-lab"))
                .setLink(links.stream().collect(java.util.stream.Collectors.toMap(Link::key, l -> l)))
                .setNode(nodes.stream().collect(java.util.stream.Collectors.toMap(Node::key, n -> n))).build());
        tx.commit().get(5, TimeUnit.SECONDS);
    }

    /** A switch RFT knows (its status written) that has no session: RFT off there, say. */
    private void putSwitchWithoutSessions(final String node) throws Exception {
        final var tx = getDataBroker().newWriteOnlyTransaction();
        tx.mergeParentStructurePut(LogicalDatastoreType.OPERATIONAL,
            DataObjectIdentifier.builder(Rft.class).child(Switch.class, new SwitchKey(new NodeId(node))).build(),
            new SwitchBuilder().setNodeId(new NodeId(node))
                .setAgentStatus(new AgentStatusBuilder().setState(AgentState.DISABLED).build()).build());
        tx.commit().get(5, TimeUnit.SECONDS);
    }

    private static int hopCount(final Direction direction) {
        return direction == null || direction.getHop() == null ? 0 : direction.getHop().size();
    }

    private static List<String> ingress(final Direction direction) {
        return direction.getHop().stream().map(h -> h.getIngressTp().getValue()).toList();
    }

    private static List<String> egress(final Direction direction) {
        return direction.getHop().stream().map(h -> h.getEgressTp() == null ? null : h.getEgressTp().getValue())
            .toList();
    }

    private static List<Boolean> observed(final Direction direction) {
        return direction.getHop().stream().map(h -> h.getObserved()).toList();
    }

    private static List<String> nodes(final Direction direction) {
        return direction.getHop().stream().map(h -> h.getNodeId().getValue()).toList();
    }

    private static IpAddress ip(final String text) {
        return new IpAddress(new Ipv4Address(text));
    }

    private static Link link(final String srcNode, final String srcTp, final String dstNode, final String dstTp) {
        return new LinkBuilder().setLinkId(new LinkId(srcNode + ":" + srcTp))
            .setSource(new SourceBuilder().setSourceNode(new NodeId(srcNode)).setSourceTp(new TpId(srcTp)).build())
            .setDestination(new DestinationBuilder().setDestNode(new NodeId(dstNode)).setDestTp(new TpId(dstTp))
                .build())
            .build();
    }

    private static DataObjectIdentifier<Session> sessionPath(final String node) {
        return DataObjectIdentifier.builder(Rft.class).child(Switch.class, new SwitchKey(new NodeId(node)))
            .child(Session.class, new SessionKey(ID)).build();
    }

    private void putSession(final String node, final String reqIngress, final String repIngress) throws Exception {
        putSession(node, ID, reqIngress, repIngress, null, null);
    }

    private void putSession(final String node, final String id, final String reqIngress, final String repIngress)
            throws Exception {
        putSession(node, id, reqIngress, repIngress, null, null);
    }

    /** A session whose requester's and responder's data entered where said (null: not sampled). */
    private void putSession(final String node, final String reqIngress, final String repIngress,
            final String reqDataIngress, final String repDataIngress) throws Exception {
        putSession(node, ID, reqIngress, repIngress, reqDataIngress, repDataIngress);
    }

    private void putSession(final String node, final String id, final String reqIngress, final String repIngress,
            final String reqDataIngress, final String repDataIngress) throws Exception {
        putSession(node, id, reqIngress, repIngress, reqDataIngress, repDataIngress, "100.000003");
    }

    private void putSession(final String node, final String id, final String reqIngress, final String repIngress,
            final String reqDataIngress, final String repDataIngress, final String lastSeen) throws Exception {
        final var builder = sessionBuilder(id, reqIngress, repIngress, lastSeen);
        if (reqDataIngress != null) {
            builder.setRequesterData(new RequesterDataBuilder().setUdpSrcPort(new PortNumber(Uint16.valueOf(50001)))
                .setIngressPort(reqDataIngress).setPackets(Uint64.ONE).build());
        }
        if (repDataIngress != null) {
            builder.setResponderData(new ResponderDataBuilder().setUdpSrcPort(new PortNumber(Uint16.valueOf(50002)))
                .setIngressPort(repDataIngress).setPackets(Uint64.ONE).build());
        }
        final var tx = getDataBroker().newWriteOnlyTransaction();
        // a put (the parents merged): a session written again without data has none
        tx.mergeParentStructurePut(LogicalDatastoreType.OPERATIONAL, DataObjectIdentifier.builder(Rft.class)
            .child(Switch.class, new SwitchKey(new NodeId(node))).child(Session.class, new SessionKey(id)).build(),
            builder.build());
        tx.commit().get(5, TimeUnit.SECONDS);
    }

    private static SessionBuilder sessionBuilder(final String id, final String reqIngress, final String repIngress,
            final String lastSeen) {
        return new SessionBuilder().setSessionId(id).setRequesterIp(ip(REQUESTER))
            .setResponderIp(ip(RESPONDER)).setState(SessionState.ESTABLISHED)
            .setFirstSeen(seconds("100.000001")).setLastSeen(seconds(lastSeen))
            .setMessage(List.of(
                new MessageBuilder().setSeq(Uint32.ZERO).setType(CmMessageType.REQ).setIngressTp(new TpId(reqIngress))
                    .setTime(seconds("100.000001")).setFromRequester(true).build(),
                new MessageBuilder().setSeq(Uint32.ONE).setType(CmMessageType.REP).setIngressTp(new TpId(repIngress))
                    .setTime(seconds("100.000002")).setFromRequester(false).build()));
    }

    private static DateAndTime seconds(final String value) {
        return new DateAndTime(Times.format(new BigDecimal(value).movePointRight(6).longValueExact()));
    }

    private Optional<Path> awaitPath(final Predicate<Optional<Path>> condition) throws Exception {
        return awaitPath(ID, condition);
    }

    private Optional<Path> awaitPath(final String id, final Predicate<Optional<Path>> condition) {
        return await("path " + id + " matches").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
            .until(() -> {
                try (var rtx = getDataBroker().newReadOnlyTransaction()) {
                    return rtx.read(LogicalDatastoreType.OPERATIONAL, DataObjectIdentifier.builder(Rpt.class)
                        .child(Path.class, new PathKey(id)).build()).get(5, TimeUnit.SECONDS);
                }
            }, condition);
    }
}
