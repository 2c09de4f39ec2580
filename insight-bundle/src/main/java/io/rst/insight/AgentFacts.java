/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.insight;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import org.eclipse.jdt.annotation.Nullable;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.AgentState;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.AgentStatus;
import org.opendaylight.yangtools.yang.common.Uint64;

/**
 * What the detectors and metrics need of a switch's agent status.
 *
 * @param lastContact seconds since the epoch, NaN when the agent never answered
 * @param lastEventSeq the last agent event the controller applied, -1 when none
 * @param droppedPackets frames the agent's capture lost since it started (kernel and queue), -1 when unknown
 * @param kernelDrops of which the kernel dropped, -1 when unknown
 * @param queueDrops of which the agent's queue dropped, -1 when unknown
 * @param droppingSince seconds since the epoch since when the agent is dropping, NaN when it is not
 * @param lastDrop seconds since the epoch of the last probe that found drops grown, NaN when none
 * @param failedCommits commits of the switch's sessions the datastore refused (each written again), 0 when none
 * @param data the agent's data-sampling counters, or null where it reports none
 * @param refusedRecords the agent's session records the controller refused, 0 when none
 * @param refusedUnknownLearnedFrom of which for a learned_from the controller does not know, 0 when none
 * @param pfc the PFC figures per port and priority (rdma-flow-table's agent-status pfc), in the
 *     status's order; empty when none
 */
record AgentFacts(String switchId, @Nullable AgentState state, @Nullable String detail, double lastChange,
        double lastContact, long lastEventSeq, long droppedPackets, long kernelDrops, long queueDrops,
        double droppingSince, double lastDrop, long failedCommits, @Nullable DataCounters data, long refusedRecords,
        long refusedUnknownLearnedFrom, List<Pfc> pfc) {

    /**
     * One port's and priority's PFC figures, as the switch's status carries them.
     *
     * @param tp the port (the pfc entry's tp-id, else its interface): where the PFC frames
     *     entered, and what the switch sends out of it in the priority is paused
     * @param frames PFC frames that asked the priority to pause, -1 when not said
     * @param pausedUs microseconds the priority was paused since the agent started, -1 when not said
     * @param paused whether the last frame's pause had not ended when the agent reported
     * @param pausedShare the share of the agent's last probe interval the priority was paused,
     *     NaN where the status has none (the first probe, an agent restarted)
     * @param last seconds since the epoch of the last frame, NaN when not said
     */
    record Pfc(String tp, int priority, long frames, long pausedUs, boolean paused, double pausedShare,
            double last) {
        Pfc {
            requireNonNull(tp);
        }

        /** Paused now, or during the agent's last probe interval. */
        boolean pausedLately() {
            return paused || pausedShare > 0;
        }
    }

    /**
     * An agent's data-sampling counters as its status says them (rdma-flow-table's agent-status
     * data-*), -1 for each it does not report.
     */
    record DataCounters(long flows, long sessions, long oneWay, long flowsEvicted, long pairAmbiguous,
            long bthRejected) {
    }

    AgentFacts {
        requireNonNull(switchId);
        pfc = List.copyOf(pfc);
    }

    /** An agent without data-sampling counters or refused records. */
    @SuppressWarnings("checkstyle:ParameterNumber")
    AgentFacts(final String switchId, final @Nullable AgentState state, final @Nullable String detail,
            final double lastChange, final double lastContact, final long lastEventSeq, final long droppedPackets,
            final long kernelDrops, final long queueDrops, final double droppingSince, final double lastDrop,
            final long failedCommits) {
        this(switchId, state, detail, lastChange, lastContact, lastEventSeq, droppedPackets, kernelDrops, queueDrops,
            droppingSince, lastDrop, failedCommits, null, 0, 0);
    }

    /** An agent without PFC figures. */
    @SuppressWarnings("checkstyle:ParameterNumber")
    AgentFacts(final String switchId, final @Nullable AgentState state, final @Nullable String detail,
            final double lastChange, final double lastContact, final long lastEventSeq, final long droppedPackets,
            final long kernelDrops, final long queueDrops, final double droppingSince, final double lastDrop,
            final long failedCommits, final @Nullable DataCounters data, final long refusedRecords,
            final long refusedUnknownLearnedFrom) {
        this(switchId, state, detail, lastChange, lastContact, lastEventSeq, droppedPackets, kernelDrops, queueDrops,
            droppingSince, lastDrop, failedCommits, data, refusedRecords, refusedUnknownLearnedFrom, List.of());
    }

    /** This agent with these PFC figures. */
    AgentFacts withPfc(final List<Pfc> figures) {
        return new AgentFacts(switchId, state, detail, lastChange, lastContact, lastEventSeq, droppedPackets,
            kernelDrops, queueDrops, droppingSince, lastDrop, failedCommits, data, refusedRecords,
            refusedUnknownLearnedFrom, figures);
    }

    /** An agent whose drops are unknown. */
    AgentFacts(final String switchId, final @Nullable AgentState state, final @Nullable String detail,
            final double lastChange, final double lastContact, final long lastEventSeq) {
        this(switchId, state, detail, lastChange, lastContact, lastEventSeq, -1, -1, -1, Double.NaN, Double.NaN, 0);
    }

    static AgentFacts of(final String switchId, final AgentStatus status) {
        final var seq = status.getLastEventSeq();
        final var data = new DataCounters(count(status.getDataFlows()), count(status.getDataSessions()),
            count(status.getDataOneWay()), count(status.getDataFlowsEvicted()), count(status.getDataPairAmbiguous()),
            count(status.getDataBthRejected()));
        final boolean anyData = data.flows() >= 0 || data.sessions() >= 0 || data.oneWay() >= 0
            || data.flowsEvicted() >= 0 || data.pairAmbiguous() >= 0 || data.bthRejected() >= 0;
        return new AgentFacts(switchId, status.getState(), status.getDetail(), Sighting.seconds(status.getLastChange()),
            Sighting.seconds(status.getLastContact()), seq == null ? -1 : seq.longValue(),
            count(status.getDroppedPackets()), count(status.getKernelDrops()), count(status.getQueueDrops()),
            Sighting.seconds(status.getDroppingSince()), Sighting.seconds(status.getLastDrop()),
            Math.max(0, count(status.getFailedCommits())), anyData ? data : null,
            Math.max(0, count(status.getRefusedRecords())), Math.max(0, count(status.getRefusedUnknownLearnedFrom())),
            pfc(status));
    }

    private static List<Pfc> pfc(final AgentStatus status) {
        final var entries = status.getPfc();
        if (entries == null || entries.isEmpty()) {
            return List.of();
        }
        final var out = new ArrayList<Pfc>(entries.size());
        for (var entry : entries.values()) {
            final var tp = entry.getTpId() != null ? entry.getTpId().getValue() : entry.getInterface();
            if (tp == null || entry.getPriority() == null) {
                continue;
            }
            out.add(new Pfc(tp, entry.getPriority().intValue(), count(entry.getFrames()), count(entry.getPausedUs()),
                Boolean.TRUE.equals(entry.getPaused()),
                entry.getPausedShare() == null ? Double.NaN : entry.getPausedShare().doubleValue(),
                Sighting.seconds(entry.getLast())));
        }
        return out;
    }

    private static long count(final @Nullable Uint64 value) {
        return value == null ? -1 : Math.max(0, value.longValue());
    }

    /** The agent answers and is dropping captured frames now. */
    boolean dropping() {
        return !Double.isNaN(droppingSince) && !lost();
    }

    /** An enabled switch whose sessions the controller cannot follow. */
    boolean lost() {
        return lost(state);
    }

    static boolean lost(final @Nullable AgentState state) {
        return state != null && switch (state) {
            case UNREACHABLE, UNAUTHORIZED, UNTRUSTED -> true;
            case DISABLED, CONNECTING, CAPTURING, STOPPED, NOADDRESS, NOTCONFIGURED -> false;
        };
    }

    /** The agent answers (capturing or not). */
    boolean answers() {
        return state == AgentState.CAPTURING || state == AgentState.STOPPED;
    }
}
