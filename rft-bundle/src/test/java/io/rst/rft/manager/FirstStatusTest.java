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

import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.opendaylight.mdsal.binding.dom.adapter.test.AbstractConcurrentDataBrokerTest;
import org.opendaylight.mdsal.common.api.LogicalDatastoreType;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.Host;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.IpAddress;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.Ipv4Address;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.AgentState;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft.Switch;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft.SwitchBuilder;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.NodeId;

/**
 * A switch just configured has an operational status before the ownership service names the member
 * that follows it (a round trip of the cluster's, even for a controller alone): a read of its state
 * right after its configuration finds it. The member meant to follow it writes that status; the
 * others do not.
 */
public class FirstStatusTest extends AbstractConcurrentDataBrokerTest {
    /** Sets up the base class's broker, which it does with JUnit 4's @Before (Jupiter does not run it). */
    @BeforeEach
    public void setUpBroker() throws Exception {
        setup();
    }

    /** An ownership service that has not answered yet: nothing is ever acquired. */
    private static final class Undecided implements SwitchOwnership {
        private final Set<String> preferred;

        Undecided(final Set<String> preferred) {
            this.preferred = preferred;
        }

        @Override
        public void start(final Callbacks target) {
            // no answer yet
        }

        @Override
        public void configured(final String nodeId) {
            // no answer yet
        }

        @Override
        public boolean prefers(final String nodeId) {
            return preferred.contains(nodeId);
        }

        @Override
        public void removed(final String nodeId) {
            // nothing held
        }

        @Override
        public void close() {
            // nothing held
        }
    }

    /** A probe the test never reaches: no switch is followed. */
    private static final AgentProbe NO_PROBE = new AgentProbe() {
        @Override
        public CompletionStage<Result> probe(final String nodeId, final String host, final int port) {
            return CompletableFuture.failedFuture(new AssertionError("no switch is followed"));
        }

        @Override
        public CompletionStage<Result> capture(final String nodeId, final String host, final int port,
                final boolean on) {
            return CompletableFuture.failedFuture(new AssertionError("no switch is followed"));
        }
    };

    @Test
    public void theMemberMeantToFollowASwitchWritesItsFirstStatusAtOnce() throws Exception {
        final var executor = Executors.newSingleThreadScheduledExecutor();
        try (var worker = new RftManager.Worker(TestStores.of(this), NO_PROBE, Duration.ofSeconds(60), executor,
                node -> "", Duration.ofMinutes(10), Set.of(), new Undecided(Set.of("leaf1", "leaf3")), true)) {
            // configured one after the other: the tracker takes them in this order
            putSwitch("leaf2", true);
            putSwitch("leaf3", false);
            putSwitch("leaf1", true);
            // leaf1 has a status before the ownership service answers
            await().atMost(Duration.ofSeconds(30)).until(() -> operSwitch("leaf1").map(Switch::getAgentStatus)
                .isPresent());
            final var status = operSwitch("leaf1").orElseThrow().getAgentStatus();
            assertEquals(AgentState.CONNECTING, status.getState());
            assertEquals(AgentState.DISABLED, operSwitch("leaf3").orElseThrow().getAgentStatus().getState());
            // another member is meant to follow leaf2: it writes leaf2's status, not this one
            assertFalse(operSwitch("leaf2").isPresent());
        } finally {
            executor.shutdownNow();
        }
    }

    private void putSwitch(final String nodeId, final boolean enabled) throws Exception {
        final var sw = new SwitchBuilder().setNodeId(new NodeId(nodeId)).setEnabled(enabled)
            .setAgentAddress(new Host(new IpAddress(new Ipv4Address("127.0.0.1")))).build();
        final var tx = getDataBroker().newWriteOnlyTransaction();
        tx.mergeParentStructurePut(LogicalDatastoreType.CONFIGURATION, StatusWriter.switchPath(nodeId), sw);
        tx.commit().get(5, TimeUnit.SECONDS);
    }

    private Optional<Switch> operSwitch(final String nodeId) throws Exception {
        try (var tx = getDataBroker().newReadOnlyTransaction()) {
            return tx.read(LogicalDatastoreType.OPERATIONAL, StatusWriter.switchPath(nodeId)).get(5, TimeUnit.SECONDS);
        }
    }
}
