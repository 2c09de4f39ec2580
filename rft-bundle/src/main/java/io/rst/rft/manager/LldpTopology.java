/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.manager;

import edu.umd.cs.findbugs.annotations.SuppressFBWarnings;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.eclipse.jdt.annotation.Nullable;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.AgentStatus;

/**
 * Keeps the LLDP topology ({@code rst-lldp}) in step with the switches' agent status: each
 * change of a switch's reported interfaces or neighbours is noted, and the topology worked out
 * again ({@link LldpFabric}) at most once per coalescing delay after the first change of a burst;
 * it is handed to the sink only when it differs from the last one handed (a neighbour that ages
 * out at its agent leaves the status at the next probe, and its links leave the topology with
 * it). Confined to one thread: the caller runs {@link #changed} and the scheduled recomputations
 * on the same one.
 */
@SuppressFBWarnings(value = {"NP_NONNULL_FIELD_NOT_INITIALIZED_IN_CONSTRUCTOR", "NP_STORE_INTO_NONNULL_FIELD"},
    justification = "written is null before the first write and after a failed one (TYPE_USE @Nullable)")
final class LldpTopology {
    /** What the topology is written with; a failed write calls {@link LldpTopology#failed}. */
    @FunctionalInterface
    interface Sink {
        void write(LldpFabric.Graph graph);
    }

    private final Consumer<Runnable> later;
    private final Sink sink;
    private final Map<String, LldpFabric.Switch> switches = new HashMap<>();
    // null: nothing written yet, or the last write failed
    private LldpFabric.@Nullable Graph written;
    private boolean scheduled;
    private long writes;

    /**
     * A topology keeper.
     *
     * @param later runs a recomputation after the coalescing delay, on the caller's thread
     * @param sink writes a changed topology
     */
    LldpTopology(final Consumer<Runnable> later, final Sink sink) {
        this.later = later;
        this.sink = sink;
    }

    /** A switch's agent status changed ({@code after} null: it went, with its switch). */
    void changed(final String nodeId, final @Nullable AgentStatus after) {
        final var now = after == null ? null : of(nodeId, after);
        final var before = now == null ? switches.remove(nodeId) : switches.put(nodeId, now);
        if (java.util.Objects.equals(before, now)) {
            return;
        }
        if (!scheduled) {
            scheduled = true;
            later.accept(this::flush);
        }
    }

    /** Works the topology out and hands it to the sink if it changed; true when it did. */
    boolean flush() {
        scheduled = false;
        final var graph = LldpFabric.build(switches.values());
        if (graph.equals(written)) {
            return false;
        }
        written = graph;
        writes++;
        sink.write(graph);
        return true;
    }

    /** The last write failed: the next recomputation writes whatever it finds. */
    void failed() {
        written = null;
        if (!scheduled) {
            scheduled = true;
            later.accept(this::flush);
        }
    }

    /** Topologies handed to the sink. */
    long writes() {
        return writes;
    }

    /**
     * A switch's agent status in {@link LldpFabric}'s terms, or null when its agent reports no
     * name, no interfaces and no neighbours (an agent without LLDP: it takes no part).
     */
    static LldpFabric.@Nullable Switch of(final String nodeId, final AgentStatus status) {
        final Map<String, String> interfaces = new LinkedHashMap<>();
        status.nonnullInterface().values().forEach(i -> interfaces.put(i.getName(),
            i.getMac() == null ? "" : i.getMac().getValue().toLowerCase(java.util.Locale.ROOT)));
        final List<LldpFabric.Neighbour> neighbours = new ArrayList<>();
        for (var n : status.nonnullLldpNeighbour().values()) {
            final List<String> addresses = new ArrayList<>();
            if (n.getManagementAddress() != null) {
                n.getManagementAddress().forEach(a -> addresses.add(a.stringValue()));
            }
            neighbours.add(new LldpFabric.Neighbour(n.getInterface(), n.getChassisId(), n.getChassisIdSubtype(),
                n.getPortId(), n.getPortIdSubtype(), n.getPortDescription(), n.getSystemName(), addresses,
                n.getEnabledCapabilities() == null ? List.of() : List.copyOf(n.getEnabledCapabilities())));
        }
        if (interfaces.isEmpty() && neighbours.isEmpty() && status.getAgentId() == null) {
            return null;
        }
        final var address = status.getAgentAddress();
        return new LldpFabric.Switch(nodeId, status.getAgentId(),
            address == null ? null : address.stringValue(), interfaces, neighbours);
    }
}
