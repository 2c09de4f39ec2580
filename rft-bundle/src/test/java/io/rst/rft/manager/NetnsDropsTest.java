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
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rst.rft.pcap.CmTrafficGenerator;
import io.rst.rft.testutil.Netns;
import io.rst.yang.time.Times;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.opendaylight.mdsal.binding.dom.adapter.test.AbstractConcurrentDataBrokerTest;
import org.opendaylight.mdsal.common.api.LogicalDatastoreType;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.Host;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.IpAddress;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.Ipv4Address;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.PortNumber;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.AgentState;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.AgentTransport;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft.Switch;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft.SwitchBuilder;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.NodeId;
import org.opendaylight.yangtools.yang.common.Uint16;

/**
 * A real agent process capturing live on a veth in a "switch" network namespace, with a small
 * kernel buffer and queue, flooded by tcpreplay at top speed: it drops frames, and the RFT
 * manager's worker (against the real in-memory broker, over a management veth) carries its
 * kernel and queue drops into the switch's agent-status, with since when it is dropping. Needs
 * root, iproute2 and tcpreplay; skipped otherwise. The namespace's name and the management link's
 * addresses are this run's own ({@link Netns}), and the namespace is always removed.
 */
@Timeout(value = 15, unit = TimeUnit.MINUTES)
public class NetnsDropsTest extends AbstractConcurrentDataBrokerTest {
    private static final int PORT = 4807;

    private Path dir;
    private Netns net;
    private String mgmtAgent;
    private Process agent;
    private ScheduledExecutorService executor;
    private RftManager.Worker worker;

    @BeforeEach
    public void namespaceAndAgent() throws Exception {
        // the broker: the base class sets it up with JUnit 4's @Before, which Jupiter does not run
        setup();
        Netns.assumeAvailable("tcpreplay");
        dir = Files.createTempDirectory("rst-netns-drops");
        // the switch's namespace, and a management link to it on a /30 of this run's own
        net = Netns.create("sw");
        net.exec("sw", "ip", "link", "set", "lo", "up");
        mgmtAgent = net.management("sw", "mgmt");
        // the switch port the agent captures on, and its peer the flood comes from
        net.exec("sw", "ip", "link", "add", "swp1", "type", "veth", "peer", "name", "flood");
        net.exec("sw", "ip", "link", "set", "swp1", "up");
        net.exec("sw", "ip", "link", "set", "flood", "up");

        Files.writeString(dir.resolve("token"), "drops-token\n");
        Files.setPosixFilePermissions(dir.resolve("token"), PosixFilePermissions.fromString("rw-------"));
        agent = net.start("sw", ProcessBuilder.Redirect.to(dir.resolve("agent.log").toFile()), Netns.java("-Xmx96m",
            "-XX:TieredStopAtLevel=1", "io.rst.rft.cli.Main", "agent", "--interface", "swp1", "--queue-frames", "64",
            "--buffer-mb", "1", "--retention", "1000000000", "--listen", mgmtAgent + ":" + PORT, "--token-file",
            dir.resolve("token").toString(), "--state-dir", dir.resolve("state").toString(), "--agent-id", "leaf1",
            "--plain-http"));
        executor = Executors.newScheduledThreadPool(2);
        worker = new RftManager.Worker(TestStores.of(this), new HttpAgentProbe(executor, n -> "drops-token",
            Duration.ofSeconds(3)), Duration.ofMillis(300), executor, n -> "drops-token", Duration.ofSeconds(60));
    }

    @AfterEach
    public void teardown() throws Exception {
        if (worker != null) {
            worker.close();
        }
        if (executor != null) {
            executor.shutdownNow();
        }
        if (agent != null) {
            agent.destroy();
            if (!agent.waitFor(10, TimeUnit.SECONDS)) {
                agent.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
        if (net != null) {
            net.close();
        }
        if (dir != null) {
            try (var files = Files.walk(dir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    @Test
    public void anAgentThatDropsFramesSaysHowManyAndSinceWhenInItsStatus() throws Exception {
        final var tx = getDataBroker().newWriteOnlyTransaction();
        tx.mergeParentStructurePut(LogicalDatastoreType.CONFIGURATION, StatusWriter.switchPath("leaf1"),
            new SwitchBuilder().setNodeId(new NodeId("leaf1")).setEnabled(true)
                .setAgentAddress(new Host(new IpAddress(new Ipv4Address(mgmtAgent))))
                .setAgentPort(new PortNumber(Uint16.valueOf(PORT))).setAgentTransport(AgentTransport.PlainHttp)
                .build());
        tx.commit().get(5, TimeUnit.SECONDS);

        // capturing, nothing dropped yet, and not dropping
        final var quiet = awaitOper(sw -> sw.isPresent() && sw.orElseThrow().getAgentStatus() != null
            && sw.orElseThrow().getAgentStatus().getState() == AgentState.CAPTURING
            && sw.orElseThrow().getAgentStatus().getDroppedPackets() != null).orElseThrow().getAgentStatus();
        assertEquals(0, quiet.getDroppedPackets().longValue());
        assertEquals(null, quiet.getDroppingSince());

        // 25,000 CM frames at top speed into a 1 MiB kernel buffer and a 64-frame queue
        final Path pcap = dir.resolve("flood.pcap");
        new CmTrafficGenerator(CmTrafficGenerator.Options.bench(5_000)).write(pcap);
        final double before = System.currentTimeMillis() / 1000.0;
        net.exec("sw", "tcpreplay", "-q", "-i", "flood", "--topspeed", pcap.toString());

        final var dropping = awaitOper(sw -> sw.orElseThrow().getAgentStatus().getDroppingSince() != null)
            .orElseThrow().getAgentStatus();
        final long dropped = dropping.getDroppedPackets().longValue();
        assertTrue(dropped > 0, "dropped " + dropped);
        assertEquals(dropped, dropping.getKernelDrops().longValue() + dropping.getQueueDrops().longValue());
        final double since = Times.seconds(dropping.getDroppingSince().getValue());
        assertTrue(since >= before - 1, since + " is not after the flood began at " + before);
        assertNotNull(dropping.getLastDrop());
        assertTrue(Times.seconds(dropping.getLastDrop().getValue()) >= since);
        assertEquals(AgentState.CAPTURING, dropping.getState());
    }

    private Optional<Switch> awaitOper(final Predicate<Optional<Switch>> condition) {
        final AtomicReference<Optional<Switch>> last = new AtomicReference<>(Optional.empty());
        await().atMost(Duration.ofSeconds(90)).untilAsserted(() -> {
            try (var tx = getDataBroker().newReadOnlyTransaction()) {
                last.set(tx.read(LogicalDatastoreType.OPERATIONAL, StatusWriter.switchPath("leaf1")).get(5,
                    TimeUnit.SECONDS));
            }
            assertTrue(condition.test(last.get()), "leaf1 never reached the expected state; last: " + last.get()
                + "; agent log: " + Files.readString(dir.resolve("agent.log")));
        });
        return last.get();
    }
}
