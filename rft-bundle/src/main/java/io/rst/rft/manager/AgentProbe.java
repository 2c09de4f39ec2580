/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.manager;

import java.util.List;
import java.util.concurrent.CompletionStage;
import org.eclipse.jdt.annotation.Nullable;

/**
 * Asks a switch's agent how it is, and turns its capture on or off. Implementations never block
 * the caller. The switch's node-id picks the token (see {@link AgentTokens}).
 */
interface AgentProbe {
    /**
     * What a probe found.
     */
    sealed interface Result {
        /**
         * The agent answered its status.
         *
         * @param capturing whether its capture runs
         * @param version the version it reports
         * @param lastSeq its last event sequence number
         * @param encrypted whether it answered over TLS
         * @param kernelDrops frames the kernel dropped before the capture read them, since the agent started
         * @param queueDrops frames the agent dropped with its capture queue full, since it started
         * @param data its data-sampling counters, or null where it reports none
         * @param congestion its CNP and PFC figures, or null where it reports none
         * @param lldp its name, interfaces and LLDP neighbours, or null where it reports none
         */
        record Answered(boolean capturing, String version, long lastSeq, boolean encrypted, long kernelDrops,
                long queueDrops, @Nullable DataCounters data, @Nullable Congestion congestion, @Nullable Lldp lldp)
                implements Result {
            /** An answer without LLDP neighbours. */
            Answered(final boolean capturing, final String version, final long lastSeq, final boolean encrypted,
                    final long kernelDrops, final long queueDrops, final @Nullable DataCounters data,
                    final @Nullable Congestion congestion) {
                this(capturing, version, lastSeq, encrypted, kernelDrops, queueDrops, data, congestion, null);
            }

            /** An answer without drop counters. */
            Answered(final boolean capturing, final String version, final long lastSeq, final boolean encrypted) {
                this(capturing, version, lastSeq, encrypted, 0, 0);
            }

            /** An answer without data-sampling counters. */
            Answered(final boolean capturing, final String version, final long lastSeq, final boolean encrypted,
                    final long kernelDrops, final long queueDrops) {
                this(capturing, version, lastSeq, encrypted, kernelDrops, queueDrops, null, null);
            }

            /** An answer without CNP and PFC figures. */
            Answered(final boolean capturing, final String version, final long lastSeq, final boolean encrypted,
                    final long kernelDrops, final long queueDrops, final @Nullable DataCounters data) {
                this(capturing, version, lastSeq, encrypted, kernelDrops, queueDrops, data, null);
            }

            /** Frames the capture lost, all causes together. */
            long drops() {
                return kernelDrops + queueDrops;
            }
        }

        /**
         * The agent's certificate cannot be trusted, or it speaks plain HTTP where TLS is expected.
         *
         * @param detail why, in words
         */
        record Untrusted(String detail) implements Result {
        }

        /**
         * The agent refused our token.
         *
         * @param detail why, in words
         */
        record Refused(String detail) implements Result {
        }

        /**
         * The agent could not be reached or answered nonsense.
         *
         * @param detail why, in words
         */
        record Unreachable(String detail) implements Result {
        }
    }

    /**
     * An agent's data-sampling counters ({@code counters} of its status, agents that learn
     * sessions from data packets); -1 where the agent did not report one.
     *
     * @param flows data flows tracked ({@code data_flows})
     * @param sessions data-learned sessions paired ({@code data_sessions})
     * @param oneWay one-way flows ({@code data_one_way})
     * @param evicted flows evicted with the table full, since the agent started ({@code data_flows_evicted})
     * @param pairAmbiguous responses that fitted two flows ({@code data_pair_ambiguous})
     * @param bthRejected sampled packets with a garbage BTH ({@code data_bth_rejected})
     */
    record DataCounters(long flows, long sessions, long oneWay, long evicted, long pairAmbiguous, long bthRejected) {
    }

    /** The most PFC entries a status keeps: the agent's own bound, 256 interfaces of 8 priorities. */
    int MAX_PFC = 2048;

    /**
     * An agent's CNP and PFC figures ({@code counters.cnps}, {@code counters.cnp_unmatched},
     * {@code counters.pfc_frames}, {@code counters.pfc_untabled} and the {@code pfc} list of its
     * status); -1 where the agent did not report a counter.
     *
     * @param pfc per interface and priority, in the agent's order, each (interface, priority) once
     * @param pfcSkipped entries of the agent's list left out: without an interface name or a
     *        priority from 0 to 7, an interface and priority listed before, beyond {@link #MAX_PFC}
     */
    record Congestion(long cnps, long cnpUnmatched, long pfcFrames, long pfcUntabled, List<Pfc> pfc,
            int pfcSkipped) {
        public Congestion {
            pfc = List.copyOf(pfc);
        }
    }

    /**
     * One entry of an agent's {@code pfc} list: the PFC frames that entered {@code iface} and asked
     * {@code priority} to pause. -1 (or null) where the agent did not report a figure, or reported
     * something that is not one.
     *
     * @param iface the interface, as the agent captures on it
     * @param priority 0 to 7
     * @param frames frames that asked the priority to pause
     * @param xon of those, the ones with 0 quanta
     * @param quanta the quanta asked in all
     * @param pausedUs microseconds the priority was paused since the agent started
     * @param paused whether the last frame's pause had not ended at the agent's clock
     * @param last the last frame's capture time, ISO 8601 UTC as the agent wrote it
     * @param linkSpeedMbps the speed the quanta are timed with
     */
    record Pfc(String iface, int priority, long frames, long xon, long quanta, long pausedUs,
            @Nullable Boolean paused, @Nullable String last, long linkSpeedMbps) {
        public Pfc {
            java.util.Objects.requireNonNull(iface);
            if (priority < 0 || priority > 7) {
                throw new IllegalArgumentException("PFC priority out of range: " + priority);
            }
        }
    }

    /** The most LLDP neighbours a status keeps: the agent's own bound, 256 interfaces of 64. */
    int MAX_LLDP = 16384;
    /** The most capture interfaces a status keeps. */
    int MAX_INTERFACES = 1024;

    /**
     * What an agent's status says of its place in the fabric: its name ({@code agent_id}), its
     * capture interfaces with their MACs ({@code interfaces}) and the LLDP neighbours it hears
     * ({@code lldp}).
     *
     * @param agentId the agent's name, or null
     * @param interfaces interface name to its MAC (lower-case colon hex, or null when unknown), in the agent's order
     * @param neighbours the neighbours, in the agent's order, each (interface, chassis ID, port ID) once
     * @param skipped neighbours of the agent's list left out: without an interface, a chassis ID or
     *        a port ID, listed before, beyond {@link #MAX_LLDP}, or a list that is not one
     */
    record Lldp(@Nullable String agentId, java.util.Map<String, java.util.Optional<String>> interfaces,
            List<Neighbour> neighbours, int skipped) {
        public Lldp {
            interfaces = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(interfaces));
            neighbours = List.copyOf(neighbours);
        }
    }

    /**
     * One LLDP neighbour an agent hears.
     *
     * @param iface the switch's interface its LLDPDUs entered
     * @param chassisId its Chassis ID as the agent writes it
     * @param chassisIdSubtype the Chassis ID's subtype name ({@code mac_address} ...), or null
     * @param portId its Port ID as the agent writes it
     * @param portIdSubtype the Port ID's subtype name, or null
     * @param portDescription its port description, or null
     * @param systemName its system name, or null
     * @param managementAddresses its IP management addresses (valid IP literals only)
     * @param capabilities the capabilities it has (names), empty when not sent
     * @param enabledCapabilities those enabled, empty when not sent
     * @param ttl its TTL in seconds, or -1
     * @param ageSeconds seconds since its last LLDPDU, or -1
     * @param lastSeen its last LLDPDU's capture time (ISO 8601 UTC), or null
     */
    record Neighbour(String iface, String chassisId, @Nullable String chassisIdSubtype, String portId,
            @Nullable String portIdSubtype, @Nullable String portDescription, @Nullable String systemName,
            List<String> managementAddresses, List<String> capabilities, List<String> enabledCapabilities, int ttl,
            long ageSeconds, @Nullable String lastSeen) {
        public Neighbour {
            java.util.Objects.requireNonNull(iface);
            java.util.Objects.requireNonNull(chassisId);
            java.util.Objects.requireNonNull(portId);
            managementAddresses = List.copyOf(managementAddresses);
            capabilities = List.copyOf(capabilities);
            enabledCapabilities = List.copyOf(enabledCapabilities);
        }
    }

    /** How the switch's agent is trusted, and the certificate it last showed; null where not known. */
    default AgentLinks.@Nullable Trust trust(final String nodeId) {
        return null;
    }

    /** {@code GET /v1/status}. */
    CompletionStage<Result> probe(String nodeId, String host, int port);

    /**
     * {@code POST /v1/start} ({@code on}) or {@code POST /v1/stop}: the agent keeps the setting
     * across its restarts and answers with its new status.
     */
    CompletionStage<Result> capture(String nodeId, String host, int port, boolean on);
}
