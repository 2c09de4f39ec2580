/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rpt;

import static java.util.Objects.requireNonNull;

import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;
import org.eclipse.jdt.annotation.Nullable;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.agent.status.Pfc;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.AgentStatus;
import org.opendaylight.yangtools.yang.common.Decimal64;
import org.opendaylight.yangtools.yang.common.QName;
import org.opendaylight.yangtools.yang.common.Uint8;
import org.opendaylight.yangtools.yang.data.api.YangInstanceIdentifier.NodeIdentifier;
import org.opendaylight.yangtools.yang.data.api.schema.DataContainerNode;
import org.opendaylight.yangtools.yang.data.api.schema.LeafNode;
import org.opendaylight.yangtools.yang.data.api.schema.MapNode;
import org.opendaylight.yangtools.yang.data.api.schema.NormalizedNode;

/**
 * The blast radius of PFC pauses ({@code rpt/paused-port}): the ports and priorities a switch's
 * status says are paused (its {@code pfc} list: paused now, or for some of the last probe
 * interval), each with the sessions whose data they hold up. A PFC frame entering a switch's port
 * pauses what the switch sends out of it in that priority, so a session is held up where a hop of
 * its data path at the switch leaves through the port with its data in that priority. Pure: no
 * datastore, no threads.
 */
final class PausedPorts {
    /** Sessions' ids an entry lists at most (it counts them all). */
    static final int MAX_SESSIONS = 20;
    /** A paused-share's fraction digits. */
    private static final int SHARE_DIGITS = 4;

    private static final NodeIdentifier AGENT_STATUS = NodeIdentifier.create(AgentStatus.QNAME);
    private static final NodeIdentifier PFC = NodeIdentifier.create(Pfc.QNAME);
    private static final NodeIdentifier TP_ID = leaf("tp-id");
    private static final NodeIdentifier INTERFACE = leaf("interface");
    private static final NodeIdentifier PRIORITY = leaf("priority");
    private static final NodeIdentifier PAUSED = leaf("paused");
    private static final NodeIdentifier PAUSED_SHARE = leaf("paused-share");

    private PausedPorts() {
        // utility
    }

    /**
     * A port and priority a switch's status says is paused.
     *
     * @param tp the port (its tp-id)
     * @param priority 0 to 7
     * @param paused whether the pause had not ended when the agent last reported
     * @param share the share of the last probe interval it was paused, in ten-thousandths, -1 where unknown
     */
    record Pause(String tp, int priority, boolean paused, long share) {
        Pause {
            requireNonNull(tp);
        }
    }

    /**
     * A paused port and priority of a switch, with the sessions it holds up.
     *
     * @param node the switch
     * @param pause the port, priority and how paused
     * @param count the sessions whose data leaves the switch through the port in the priority
     * @param sessions the first {@link #MAX_SESSIONS} of their ids, in order
     */
    record Entry(String node, Pause pause, int count, List<String> sessions) {
        Entry {
            requireNonNull(node);
            requireNonNull(pause);
            sessions = List.copyOf(sessions);
        }
    }

    /**
     * The paused ports and priorities of a switch's entry ({@code rft/switch}), from its agent
     * status's {@code pfc} list: those paused now or for some of the last probe interval, in the
     * list's order. Entries without a port or priority are passed over (the datastore validates what
     * it stores, so they are not expected).
     */
    static List<Pause> of(final @Nullable NormalizedNode switchEntry) {
        if (!(switchEntry instanceof DataContainerNode sw) || !(sw.childByArg(AGENT_STATUS) instanceof DataContainerNode
                status) || !(status.childByArg(PFC) instanceof MapNode list)) {
            return List.of();
        }
        final List<Pause> out = new ArrayList<>();
        for (var entry : list.body()) {
            final String tp = value(entry, TP_ID) instanceof String id ? id
                : value(entry, INTERFACE) instanceof String iface ? iface : null;
            final boolean paused = Boolean.TRUE.equals(value(entry, PAUSED));
            final long share = value(entry, PAUSED_SHARE) instanceof Decimal64 decimal
                ? decimal.scaleTo(SHARE_DIGITS, RoundingMode.HALF_EVEN).unscaledValue() : -1;
            if (tp != null && value(entry, PRIORITY) instanceof Uint8 priority && (paused || share > 0)) {
                out.add(new Pause(tp, priority.intValue(), paused, share));
            }
        }
        return out;
    }

    /** The sessions of {@code paths} that {@code pause} at {@code node} holds up. */
    static Entry of(final String node, final Pause pause, final Collection<PathValue> paths) {
        final var ids = new TreeSet<String>();
        int count = 0;
        for (var path : paths) {
            if (path.leavesIn(node, pause.tp(), pause.priority())) {
                count++;
                ids.add(path.sessionId());
                if (ids.size() > MAX_SESSIONS) {
                    ids.pollLast();
                }
            }
        }
        return new Entry(node, pause, count, new ArrayList<>(ids));
    }

    private static @Nullable Object value(final DataContainerNode parent, final NodeIdentifier name) {
        return parent.childByArg(name) instanceof LeafNode<?> leaf ? leaf.body() : null;
    }

    private static NodeIdentifier leaf(final String name) {
        return NodeIdentifier.create(QName.create(Pfc.QNAME, name).intern());
    }
}
