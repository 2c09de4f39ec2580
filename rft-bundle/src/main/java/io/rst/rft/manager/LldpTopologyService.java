/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.manager;

import static java.util.Objects.requireNonNull;

import com.google.common.util.concurrent.FutureCallback;
import com.google.common.util.concurrent.Futures;
import com.google.common.util.concurrent.ListenableFuture;
import com.google.common.util.concurrent.MoreExecutors;
import edu.umd.cs.findbugs.annotations.SuppressFBWarnings;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.eclipse.jdt.annotation.Nullable;
import org.opendaylight.mdsal.binding.api.DataBroker;
import org.opendaylight.mdsal.binding.api.DataObjectDeleted;
import org.opendaylight.mdsal.common.api.CommitInfo;
import org.opendaylight.mdsal.common.api.LogicalDatastoreType;
import org.opendaylight.mdsal.singleton.api.ClusterSingletonService;
import org.opendaylight.mdsal.singleton.api.ClusterSingletonServiceProvider;
import org.opendaylight.mdsal.singleton.api.ServiceGroupIdentifier;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.Rft;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft.Switch;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.AgentStatus;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.topology.rev261201.RstLldpTopologyAttributesBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.topology.rev261201.RstNodeAttributes;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.topology.rev261201.RstNodeAttributesBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.topology.rev261201.rst.lldp.topology.attributes.LldpDisagreement;
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
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.network.topology.topology.node.TerminationPoint;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.network.topology.topology.node.TerminationPointBuilder;
import org.opendaylight.yangtools.binding.DataObjectIdentifier;
import org.opendaylight.yangtools.binding.DataObjectReference;
import org.opendaylight.yangtools.binding.util.BindingMap;
import org.opendaylight.yangtools.concepts.Registration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The LLDP topology service, a Blueprint bean: while {@code lldp-topology} is on (etc/io.rst.rft.cfg,
 * the default), one member of a cluster (the singleton's owner) follows the switches' agent status
 * in the operational {@code rdma-flow-table:rft/switch} list and writes the operational network-topology
 * {@value LldpFabric#TOPOLOGY_ID}: the nodes and links the agents' LLDP neighbours draw
 * ({@link LldpFabric}) and the links they contradict ({@code rst-topology:lldp-disagreement}). The
 * RPT reads its links and hosts as any topology's; its switches without agent are listed as
 * NOT_CONFIGURED switches.
 */
@SuppressFBWarnings(value = { "NP_NONNULL_FIELD_NOT_INITIALIZED_IN_CONSTRUCTOR", "NP_STORE_INTO_NONNULL_FIELD" },
    justification = "SpotBugs reads no TYPE_USE @Nullable on fields: these fields are @Nullable")
public final class LldpTopologyService implements ClusterSingletonService, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LldpTopologyService.class);
    private static final ServiceGroupIdentifier IDENTIFIER = new ServiceGroupIdentifier("rst-lldp-topology");
    /** Changes within this many milliseconds of the first of a burst make one write. */
    static final long COALESCE_MS = 200;
    static final DataObjectIdentifier<Topology> TOPOLOGY = DataObjectIdentifier.builder(NetworkTopology.class)
        .child(Topology.class, new TopologyKey(new TopologyId(LldpFabric.TOPOLOGY_ID))).build();

    private final DataBroker broker;
    private final @Nullable Registration singleton;
    private @Nullable Running running;
    private boolean closed;

    /** What runs while this member owns the singleton. */
    private static final class Running implements AutoCloseable {
        private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("rst-lldp-topology").daemon().factory());
        private final LldpTopology topology;
        private final Registration listener;

        Running(final DataBroker broker) {
            topology = new LldpTopology(r -> executor.schedule(r, COALESCE_MS, TimeUnit.MILLISECONDS),
                graph -> write(broker, graph));
            // the agent status only: the switches' sessions change far more often and say nothing of links
            listener = broker.registerTreeChangeListener(LogicalDatastoreType.OPERATIONAL,
                DataObjectReference.builder(Rft.class).child(Switch.class).child(AgentStatus.class).build(),
                changes -> {
                    final List<Runnable> work = new ArrayList<>();
                    for (var change : changes) {
                        final var root = change.getRootNode();
                        final String node = change.path().toLegacy().firstKeyOf(Switch.class).getNodeId().getValue();
                        final AgentStatus after = root instanceof DataObjectDeleted ? null : root.dataAfter();
                        work.add(() -> topology.changed(node, after));
                    }
                    executor.execute(() -> work.forEach(Runnable::run));
                });
        }

        private void write(final DataBroker broker, final LldpFabric.Graph graph) {
            final var tx = broker.newWriteOnlyTransaction();
            tx.mergeParentStructurePut(LogicalDatastoreType.OPERATIONAL, TOPOLOGY, topology(graph));
            tx.commit().addCallback(new FutureCallback<CommitInfo>() {
                @Override
                public void onSuccess(final CommitInfo result) {
                    LOG.debug("LLDP topology written: {} nodes, {} links, {} disagreements", graph.nodes().size(),
                        graph.links().size(), graph.disagreements().size());
                }

                @Override
                public void onFailure(final Throwable cause) {
                    LOG.warn("LLDP topology: writing {} failed", LldpFabric.TOPOLOGY_ID, cause);
                    executor.execute(topology::failed);
                }
            }, MoreExecutors.directExecutor());
        }

        @Override
        public void close() {
            listener.close();
            executor.shutdownNow();
        }
    }

    /**
     * The service, as Blueprint builds it.
     *
     * @param enabled {@code lldp-topology} of etc/io.rst.rft.cfg: false writes no LLDP topology
     */
    public LldpTopologyService(final DataBroker broker, final ClusterSingletonServiceProvider singletons,
            final boolean enabled) {
        this.broker = requireNonNull(broker);
        if (enabled) {
            singleton = singletons.registerClusterSingletonService(this);
            LOG.info("RST LLDP topology started: topology {} from the agents' LLDP neighbours",
                LldpFabric.TOPOLOGY_ID);
        } else {
            singleton = null;
            LOG.info("RST LLDP topology off (lldp-topology=false in etc/io.rst.rft.cfg)");
        }
    }

    /** The topology as written: nodes with their kind, ports and addresses, links, disagreements. */
    static Topology topology(final LldpFabric.Graph graph) {
        final List<Node> nodes = new ArrayList<>();
        for (var n : graph.nodes().values()) {
            final List<TerminationPoint> tps = new ArrayList<>();
            n.tps().stream().sorted().forEach(tp -> tps.add(new TerminationPointBuilder().setTpId(new TpId(tp))
                .build()));
            final var attributes = new RstNodeAttributesBuilder().setNodeKind(n.isSwitch()
                ? RstNodeAttributes.NodeKind.Switch : RstNodeAttributes.NodeKind.Host);
            if (!n.isSwitch() && !n.ips().isEmpty()) {
                attributes.setIpAddress(n.ips().stream().sorted().map(LldpStatus::ip).collect(
                    java.util.stream.Collectors.toCollection(java.util.LinkedHashSet::new)));
            }
            nodes.add(new NodeBuilder().setNodeId(new NodeId(n.id())).setTerminationPoint(tps.isEmpty() ? null
                : BindingMap.ordered(tps)).addAugmentation(attributes.build()).build());
        }
        final List<Link> links = new ArrayList<>();
        for (var l : graph.links().values()) {
            links.add(new LinkBuilder().setLinkId(new LinkId(l.id()))
                .setSource(new SourceBuilder().setSourceNode(new NodeId(l.source().node()))
                    .setSourceTp(new TpId(l.source().tp())).build())
                .setDestination(new DestinationBuilder().setDestNode(new NodeId(l.destination().node()))
                    .setDestTp(new TpId(l.destination().tp())).build())
                .build());
        }
        final List<LldpDisagreement> disagreements = new ArrayList<>();
        for (var d : graph.disagreements().values()) {
            disagreements.add(new org.opendaylight.yang.gen.v1.urn.io.rst.rst.topology.rev261201.rst.lldp.topology
                .attributes.LldpDisagreementBuilder().setId(d.id())
                .setKind(d.mismatch() ? LldpDisagreement.Kind.Mismatch : LldpDisagreement.Kind.ClaimedTwice)
                .setNodeId(new NodeId(d.claimer().node())).setTpId(new TpId(d.claimer().tp()))
                .setSays(d.far().toString()).setPeerNodeId(new NodeId(d.far().node()))
                .setPeerTpId(new TpId(d.far().tp())).setPeerSays(d.peerSays()).setDetail(d.detail()).build());
        }
        final var builder = new TopologyBuilder().setTopologyId(new TopologyId(LldpFabric.TOPOLOGY_ID))
            .setNode(nodes.isEmpty() ? null : BindingMap.ordered(nodes))
            .setLink(links.isEmpty() ? null : BindingMap.ordered(links));
        if (!disagreements.isEmpty()) {
            builder.addAugmentation(new RstLldpTopologyAttributesBuilder()
                .setLldpDisagreement(BindingMap.ordered(disagreements)).build());
        }
        return builder.build();
    }

    @Override
    public ServiceGroupIdentifier getIdentifier() {
        return IDENTIFIER;
    }

    @Override
    public synchronized void instantiateServiceInstance() {
        if (closed || running != null) {
            return;
        }
        running = new Running(broker);
        LOG.info("RST LLDP topology is the active instance");
    }

    @Override
    public synchronized ListenableFuture<?> closeServiceInstance() {
        final var current = running;
        running = null;
        if (current != null) {
            current.close();
            LOG.info("RST LLDP topology is no longer the active instance");
        }
        return Futures.immediateFuture(null);
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            if (singleton != null) {
                singleton.close();
            }
            closeServiceInstance();
        }
    }
}
