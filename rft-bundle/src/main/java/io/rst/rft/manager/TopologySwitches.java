/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.manager;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.opendaylight.mdsal.binding.api.DataObjectDeleted;
import org.opendaylight.mdsal.binding.api.DataTreeChangeListener;
import org.opendaylight.mdsal.binding.api.DataTreeModification;
import org.opendaylight.mdsal.common.api.LogicalDatastoreType;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.topology.rev261201.RstNodeAttributes;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.network.topology.Topology;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.network.topology.topology.Node;

/**
 * The switches the controller already knows: every switch node of network-topology (of the
 * topologies configured, default all), in both datastores, handed to the tracker so that each
 * appears in the operational RFT list, NOT_CONFIGURED until an operator gives it an agent and turns
 * it on. A node is a switch when its rst-topology node-kind says so, or when it has no node-kind
 * and does not look like a host (l2switch's host tracker names hosts {@code host:...}; a node with
 * host addresses is a host).
 */
final class TopologySwitches {
    private final AgentStatusTracker tracker;
    private final Set<String> topologies;
    /** Per datastore, per topology: its switch nodes. Listener threads only, under this object's lock. */
    private final Map<LogicalDatastoreType, Map<String, List<String>>> known = new HashMap<>();

    /**
     * Switch nodes for {@code tracker}.
     *
     * @param topologies topology ids to take switches from; empty: every topology
     */
    TopologySwitches(final AgentStatusTracker tracker, final Set<String> topologies) {
        this.tracker = tracker;
        this.topologies = Set.copyOf(topologies);
    }

    /** The listener for one datastore's topologies. */
    DataTreeChangeListener<Topology> listener(final LogicalDatastoreType store) {
        return changes -> changed(store, changes);
    }

    private synchronized void changed(final LogicalDatastoreType store,
            final List<DataTreeModification<Topology>> changes) {
        final var byTopology = known.computeIfAbsent(store, s -> new HashMap<>());
        for (var change : changes) {
            final var root = change.getRootNode();
            final String id = root.coerceKeyStep(Topology.class).key().getTopologyId().getValue();
            if (!topologies.isEmpty() && !topologies.contains(id)) {
                continue;
            }
            if (root instanceof DataObjectDeleted) {
                byTopology.remove(id);
            } else {
                final var after = root.dataAfter();
                byTopology.put(id, after == null ? List.of() : switches(after));
            }
        }
        // node -> why it is listed (the first topology that names it)
        final Map<String, String> nodes = new TreeMap<>();
        for (var perStore : known.values()) {
            perStore.forEach((topology, ids) -> ids.forEach(n -> nodes.putIfAbsent(n, "switch of topology "
                + topology + " without RFT configuration: set agent-address and enabled in rdma-flow-table:rft"
                + " (configuration) to trace it")));
        }
        tracker.topologySwitches(nodes);
    }

    static List<String> switches(final Topology topology) {
        return topology.nonnullNode().values().stream().filter(TopologySwitches::isSwitch)
            .map(n -> n.getNodeId().getValue()).toList();
    }

    static boolean isSwitch(final Node node) {
        final var attributes = node.augmentation(RstNodeAttributes.class);
        if (attributes != null && attributes.getNodeKind() != null) {
            return attributes.getNodeKind() == RstNodeAttributes.NodeKind.Switch;
        }
        if (attributes != null && attributes.getIpAddress() != null && !attributes.getIpAddress().isEmpty()) {
            return false;
        }
        return !node.getNodeId().getValue().startsWith("host:");
    }
}
