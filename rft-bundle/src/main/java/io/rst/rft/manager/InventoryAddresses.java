/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.manager;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.eclipse.jdt.annotation.Nullable;
import org.opendaylight.mdsal.common.api.LogicalDatastoreType;
import org.opendaylight.mdsal.dom.api.DOMDataBroker;
import org.opendaylight.mdsal.dom.api.DOMDataTreeChangeListener;
import org.opendaylight.mdsal.dom.api.DOMDataTreeIdentifier;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.NetworkTopology;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.network.topology.Topology;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.network.topology.topology.Node;
import org.opendaylight.yangtools.concepts.Registration;
import org.opendaylight.yangtools.yang.common.QName;
import org.opendaylight.yangtools.yang.data.api.YangInstanceIdentifier;
import org.opendaylight.yangtools.yang.data.api.YangInstanceIdentifier.NodeIdentifier;
import org.opendaylight.yangtools.yang.data.api.schema.DataContainerNode;
import org.opendaylight.yangtools.yang.data.api.schema.LeafNode;
import org.opendaylight.yangtools.yang.data.api.schema.MapEntryNode;
import org.opendaylight.yangtools.yang.data.api.schema.MapNode;
import org.opendaylight.yangtools.yang.data.api.schema.NormalizedNode;
import org.opendaylight.yangtools.yang.data.tree.api.DataTreeCandidate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The management addresses OpenDaylight's inventory knows: the {@code host} of every
 * NETCONF-mounted device ({@code netconf-node-topology}'s {@code netconf-node} on a
 * network-topology node, in topology-netconf), by node-id, from both datastores (the operator's
 * configuration first). They are the default agent addresses of the switches of the same node-id.
 *
 * <p>Read through the DOM broker by the model's namespace and leaf names rather than through its
 * generated classes: RST then needs no NETCONF bundle in Karaf (without NETCONF's southbound there
 * is no such node, and nothing to read), and it reads whichever revision of the model the
 * controller's NETCONF runs (netconf 10.0.2 has netconf-node-topology 2025-11-03).
 */
final class InventoryAddresses implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(InventoryAddresses.class);
    static final String NETCONF_NAMESPACE = "urn:opendaylight:netconf-node-topology";
    private static final YangInstanceIdentifier TOPOLOGIES = YangInstanceIdentifier.of(NetworkTopology.QNAME,
        Topology.QNAME);
    private static final NodeIdentifier TOPOLOGY_ID = new NodeIdentifier(QName.create(Topology.QNAME, "topology-id"));
    private static final NodeIdentifier NODE = new NodeIdentifier(Node.QNAME);
    private static final NodeIdentifier NODE_ID = new NodeIdentifier(QName.create(Node.QNAME, "node-id"));

    /**
     * A management address and where it was found.
     *
     * @param host the device's address or host name
     * @param from where it was found, in words
     */
    record Address(String host, String from) {
        Address {
            requireNonNull(host);
            requireNonNull(from);
        }
    }

    private final Consumer<Map<String, Address>> sink;
    private final Map<LogicalDatastoreType, Map<String, Address>> byStore = new EnumMap<>(LogicalDatastoreType.class);
    private final List<Registration> registrations = new ArrayList<>();

    /** Follows both datastores' topologies, handing every change of the addresses to {@code sink}. */
    InventoryAddresses(final DOMDataBroker broker, final Consumer<Map<String, Address>> sink) {
        this.sink = requireNonNull(sink);
        final var changes = broker.extension(DOMDataBroker.DataTreeChangeExtension.class);
        if (changes == null) {
            LOG.warn("The DOM data broker offers no change listeners: no default agent addresses from NETCONF");
            return;
        }
        for (var store : List.of(LogicalDatastoreType.OPERATIONAL, LogicalDatastoreType.CONFIGURATION)) {
            registrations.add(changes.registerTreeChangeListener(DOMDataTreeIdentifier.of(store, TOPOLOGIES),
                new DOMDataTreeChangeListener() {
                    @Override
                    public void onDataTreeChanged(final List<DataTreeCandidate> candidates) {
                        changed(store, candidates);
                    }

                    @Override
                    public void onInitialData() {
                        // nothing there yet: nothing to default to
                    }
                }));
        }
    }

    private synchronized void changed(final LogicalDatastoreType store, final List<DataTreeCandidate> candidates) {
        // the listener is on the topology list: the last candidate's data is the list as it is now
        final var after = candidates.get(candidates.size() - 1).getRootNode().dataAfter();
        byStore.put(store, addresses(after));
        final Map<String, Address> merged = new TreeMap<>(byStore.getOrDefault(LogicalDatastoreType.OPERATIONAL,
            Map.of()));
        merged.putAll(byStore.getOrDefault(LogicalDatastoreType.CONFIGURATION, Map.of()));
        LOG.debug("Inventory addresses: {}", merged);
        sink.accept(merged);
    }

    /** The NETCONF hosts of every topology's nodes in {@code topologies} (the topology list). */
    static Map<String, Address> addresses(final @Nullable NormalizedNode topologies) {
        final Map<String, Address> out = new HashMap<>();
        if (!(topologies instanceof MapNode list)) {
            return out;
        }
        for (var topology : list.body()) {
            final var topologyId = text(topology.childByArg(TOPOLOGY_ID));
            if (!(topology.childByArg(NODE) instanceof MapNode nodes)) {
                continue;
            }
            for (MapEntryNode node : nodes.body()) {
                final var nodeId = text(node.childByArg(NODE_ID));
                final var host = netconfHost(node);
                if (nodeId != null && host != null && !host.isBlank()) {
                    out.putIfAbsent(nodeId, new Address(host, "the host of NETCONF device " + nodeId
                        + " in network-topology " + topologyId));
                }
            }
        }
        return out;
    }

    /** The host leaf of a node's netconf-node container, whatever the model's revision. */
    private static @Nullable String netconfHost(final MapEntryNode node) {
        for (var child : node.body()) {
            final var name = child.name().getNodeType();
            if (child instanceof DataContainerNode container && "netconf-node".equals(name.getLocalName())
                    && NETCONF_NAMESPACE.equals(name.getNamespace().toString())) {
                final var host = container.childByArg(new NodeIdentifier(QName.create(name, "host")));
                return text(host);
            }
        }
        return null;
    }

    private static @Nullable String text(final @Nullable NormalizedNode node) {
        return node instanceof LeafNode<?> leaf ? String.valueOf(leaf.body()) : null;
    }

    @Override
    public synchronized void close() {
        registrations.forEach(Registration::close);
        registrations.clear();
    }
}
