/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.insight;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.AgentState;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.SessionState;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.insight.rev261201.ProblemKind;

/**
 * Renders a {@link Snapshot} in Prometheus's text exposition format (version 0.0.4). Every
 * metric is named rst_...; the names are a contract (docs/metrics.md lists them).
 */
final class MetricsText {
    static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private MetricsText() {
        // functions only
    }

    static String render(final Snapshot snapshot, final double now) {
        final var out = new StringBuilder(4096);
        gauge(out, "rst_insight_active",
            "1 on the controller that computes the figures (the cluster singleton's owner).");
        out.append("rst_insight_active ").append(snapshot.active() ? 1 : 0).append('\n');

        gauge(out, "rst_sessions", "Sessions in each switch's flow table (rdma-flow-table:rft), by state.");
        for (var sw : new TreeMap<>(snapshot.sessionsBySwitch()).entrySet()) {
            for (var state : SessionState.values()) {
                final long n = sw.getValue().getOrDefault(state.getName(), 0L);
                out.append("rst_sessions{switch=\"").append(escape(sw.getKey())).append("\",state=\"")
                    .append(state.getName()).append("\"} ").append(n).append('\n');
            }
        }
        gauge(out, "rst_sessions_by_origin", "Sessions in each switch's flow table by where they were learnt from"
            + " (learned_from: cm, from CM messages; data, from sampled data packets) and state.");
        for (var sw : new TreeMap<>(snapshot.sessionsBySwitch()).entrySet()) {
            final var counts = snapshot.originsBySwitch().getOrDefault(sw.getKey(), Map.of());
            for (var state : SessionState.values()) {
                final boolean data = state == SessionState.ACTIVE || state == SessionState.IDLE;
                final String origin = data ? Problem.DATA : Problem.CM;
                out.append("rst_sessions_by_origin{switch=\"").append(escape(sw.getKey())).append("\",learned_from=\"")
                    .append(origin).append("\",state=\"").append(state.getName()).append("\"} ")
                    .append(counts.getOrDefault(origin + "|" + state.getName(), 0L)).append('\n');
            }
        }
        gauge(out, "rst_one_way_flows", "One-way flows (data-learned, one direction seen) in each switch's flow table,"
            + " by the controller's pairing across switches: paired, ambiguous (more than one flow fits) or unpaired.");
        for (var sw : new TreeMap<>(snapshot.sessionsBySwitch()).entrySet()) {
            final var counts = snapshot.oneWayBySwitch().getOrDefault(sw.getKey(), Map.of());
            for (var pairing : List.of("paired", "ambiguous", "unpaired")) {
                out.append("rst_one_way_flows{switch=\"").append(escape(sw.getKey())).append("\",pairing=\"")
                    .append(pairing).append("\"} ").append(counts.getOrDefault(pairing, 0L)).append('\n');
            }
        }
        gauge(out, "rst_fabric_sessions", "Sessions in the fabric, each counted once however many switches saw it.");
        out.append("rst_fabric_sessions ").append(snapshot.fabricSessions()).append('\n');

        gauge(out, "rst_paths", "Paths in rdma-path-table:rpt.");
        out.append("rst_paths ").append(snapshot.paths()).append('\n');
        gauge(out, "rst_paths_incomplete", "Paths with a direction that is not complete (a gap).");
        out.append("rst_paths_incomplete ").append(snapshot.incompletePaths()).append('\n');
        gauge(out, "rst_paths_asymmetric", "Paths whose reverse does not retrace the forward.");
        out.append("rst_paths_asymmetric ").append(snapshot.asymmetricPaths()).append('\n');

        gauge(out, "rst_lldp_links", "Links of the LLDP topology rst-lldp (each direction one).");
        out.append("rst_lldp_links ").append(snapshot.lldpLinks()).append('\n');
        gauge(out, "rst_lldp_disagreements", "Links the agents' LLDP neighbours contradict, left out of rst-lldp.");
        out.append("rst_lldp_disagreements ").append(snapshot.lldpDisagreements()).append('\n');

        gauge(out, "rst_problems", "Problems by kind, as rst-insight:problems counts them.");
        for (var kind : ProblemKind.values()) {
            out.append("rst_problems{kind=\"").append(kind.getName()).append("\"} ")
                .append(snapshot.problems().getOrDefault(kind, 0L)).append('\n');
        }

        gauge(out, "rst_agents", "Switches' agents by state.");
        final Map<AgentState, Long> byState = new TreeMap<>();
        for (var agent : snapshot.agents()) {
            if (agent.state() != null) {
                byState.merge(agent.state(), 1L, Long::sum);
            }
        }
        for (var state : AgentState.values()) {
            out.append("rst_agents{state=\"").append(state.getName()).append("\"} ")
                .append(byState.getOrDefault(state, 0L)).append('\n');
        }
        final var agents = snapshot.agents().stream().sorted(Comparator.comparing(AgentFacts::switchId)).toList();
        gauge(out, "rst_agent_up", "1 when the switch's agent answers (capturing or stopped), else 0.");
        for (var agent : agents) {
            out.append("rst_agent_up{switch=\"").append(escape(agent.switchId())).append("\"} ")
                .append(agent.answers() ? 1 : 0).append('\n');
        }
        gauge(out, "rst_agent_last_event_seq",
            "Sequence number of the agent's last event the controller applied (its rate is events per second).");
        for (var agent : agents) {
            if (agent.lastEventSeq() >= 0) {
                out.append("rst_agent_last_event_seq{switch=\"").append(escape(agent.switchId())).append("\"} ")
                    .append(agent.lastEventSeq()).append('\n');
            }
        }
        gauge(out, "rst_agent_last_contact_age_seconds", "Seconds since the agent last answered the controller.");
        for (var agent : agents) {
            if (!Double.isNaN(agent.lastContact())) {
                out.append("rst_agent_last_contact_age_seconds{switch=\"").append(escape(agent.switchId()))
                    .append("\"} ").append(number(Math.max(0, now - agent.lastContact()))).append('\n');
            }
        }

        out.append("# HELP rst_agent_dropped_packets_total Frames the agent's capture lost since the agent started, "
            + "by cause (kernel: libpcap's buffer; queue: the agent's queue full).\n"
            + "# TYPE rst_agent_dropped_packets_total counter\n");
        for (var agent : agents) {
            if (agent.droppedPackets() >= 0) {
                final var sw = escape(agent.switchId());
                out.append("rst_agent_dropped_packets_total{switch=\"").append(sw).append("\",cause=\"kernel\"} ")
                    .append(Math.max(0, agent.kernelDrops())).append('\n');
                out.append("rst_agent_dropped_packets_total{switch=\"").append(sw).append("\",cause=\"queue\"} ")
                    .append(Math.max(0, agent.queueDrops())).append('\n');
            }
        }

        dataCounters(out, agents);
        congestion(out, snapshot, agents);

        out.append("# HELP rst_ingest_refused_records_total Session records of a switch's agent the controller "
            + "refused, by reason (model: the model cannot take it, a CM record without its comm ID; "
            + "unknown_learned_from: an origin this controller does not know).\n"
            + "# TYPE rst_ingest_refused_records_total counter\n");
        for (var agent : agents) {
            final var sw = escape(agent.switchId());
            out.append("rst_ingest_refused_records_total{switch=\"").append(sw).append("\",reason=\"model\"} ")
                .append(Math.max(0, agent.refusedRecords() - agent.refusedUnknownLearnedFrom())).append('\n');
            out.append("rst_ingest_refused_records_total{switch=\"").append(sw)
                .append("\",reason=\"unknown_learned_from\"} ").append(agent.refusedUnknownLearnedFrom()).append('\n');
        }

        out.append("# HELP rst_ingest_failed_commits_total Commits of a switch's sessions that the datastore "
            + "refused (each written again in the next commit).\n# TYPE rst_ingest_failed_commits_total counter\n");
        for (var agent : agents) {
            out.append("rst_ingest_failed_commits_total{switch=\"").append(escape(agent.switchId())).append("\"} ")
                .append(agent.failedCommits()).append('\n');
        }
        out.append("# HELP rst_paths_failed_commits_total Commits of paths that the datastore refused (their "
            + "paths written again whole).\n# TYPE rst_paths_failed_commits_total counter\n");
        out.append("rst_paths_failed_commits_total ").append(snapshot.pathFailedCommits()).append('\n');

        out.append("# HELP rst_ingest_session_updates_total Session updates written into a switch's flow table "
            + "(its rate is the ingest rate).\n# TYPE rst_ingest_session_updates_total counter\n");
        for (var sw : new TreeMap<>(snapshot.sessionUpdates()).entrySet()) {
            out.append("rst_ingest_session_updates_total{switch=\"").append(escape(sw.getKey())).append("\"} ")
                .append(sw.getValue()).append('\n');
        }
        gauge(out, "rst_ingest_lag_seconds",
            "Seconds from the latest updated session's last CM message (the agent's capture time) to its arrival in "
                + "the flow table: the ingest lag.");
        for (var sw : new TreeMap<>(snapshot.ingestLag()).entrySet()) {
            out.append("rst_ingest_lag_seconds{switch=\"").append(escape(sw.getKey())).append("\"} ")
                .append(number(sw.getValue())).append('\n');
        }
        gauge(out, "rst_insight_recompute_seconds", "How long the last recomputation of the problems took.");
        out.append("rst_insight_recompute_seconds ").append(number(snapshot.recomputeSeconds())).append('\n');
        return out.toString();
    }

    /**
     * The congestion figures: per switch and data ingress port the paths' ECN and CNP sums, per
     * switch port and priority the PFC figures and the sessions a pause holds up, and the sessions
     * congested. No label names a session: a fabric's sessions would be as many series.
     */
    private static void congestion(final StringBuilder out, final Snapshot snapshot, final List<AgentFacts> agents) {
        gauge(out, "rst_sessions_congested", "Sessions with a data direction over the congestion thresholds (CE share"
            + " at the last hop, or CNPs per sampled packet): the sessions of the congested problems.");
        out.append("rst_sessions_congested ").append(snapshot.congestedSessions()).append('\n');
        gauge(out, "rst_data_ect_packets", "ECN-capable sampled data packets entering the switch by the port, summed"
            + " over the data paths in rdma-path-table:rpt that cross it (port \"\" where the path does not say).");
        for (var port : snapshot.ecnByPort()) {
            portLine(out, "rst_data_ect_packets", port).append(port.ect()).append('\n');
        }
        gauge(out, "rst_data_ce_packets", "Of those, the CE-marked ones (marked before this switch), summed over the"
            + " data paths.");
        for (var port : snapshot.ecnByPort()) {
            portLine(out, "rst_data_ce_packets", port).append(port.ce()).append('\n');
        }
        gauge(out, "rst_data_cnp_packets", "CNPs about the data entering the switch by the port (every CNP, not"
            + " sampled), summed over the data paths.");
        for (var port : snapshot.ecnByPort()) {
            portLine(out, "rst_data_cnp_packets", port).append(port.cnp()).append('\n');
        }
        counter(out, "rst_pfc_frames_total", "PFC frames that entered the switch's port asking the priority to pause,"
            + " since the agent started.");
        pfc(out, agents, "rst_pfc_frames_total", p -> p.frames() < 0 ? null : String.valueOf(p.frames()));
        counter(out, "rst_pfc_paused_seconds_total", "Seconds the priority was paused on the switch's port (what"
            + " the switch sends out of it), since the agent started.");
        pfc(out, agents, "rst_pfc_paused_seconds_total", p -> p.pausedUs() < 0 ? null : number(p.pausedUs() / 1e6));
        gauge(out, "rst_pfc_paused_share", "The share of the agent's last probe interval the priority was paused on"
            + " the port (absent at the agent's first probe).");
        pfc(out, agents, "rst_pfc_paused_share", p -> Double.isNaN(p.pausedShare()) ? null : number(p.pausedShare()));
        gauge(out, "rst_pfc_paused", "1 while the port's priority is paused (the last frame's pause had not ended"
            + " when the agent reported), else 0.");
        pfc(out, agents, "rst_pfc_paused", p -> p.paused() ? "1" : "0");
        gauge(out, "rst_pfc_held_up_sessions", "Sessions whose data leaves the switch through the paused port in the"
            + " priority (rdma-path-table:rpt/paused-port): a pause's blast radius.");
        for (var held : snapshot.heldUp()) {
            out.append("rst_pfc_held_up_sessions{switch=\"").append(escape(held.node())).append("\",port=\"")
                .append(escape(held.port())).append("\",priority=\"").append(held.priority()).append("\"} ")
                .append(held.sessions()).append('\n');
        }
    }

    private static StringBuilder portLine(final StringBuilder out, final String name, final Snapshot.PortEcn port) {
        return out.append(name).append("{switch=\"").append(escape(port.node())).append("\",port=\"")
            .append(escape(port.port())).append("\"} ");
    }

    /** One line per agent's port and priority whose value is not null. */
    private static void pfc(final StringBuilder out, final List<AgentFacts> agents, final String name,
            final java.util.function.Function<AgentFacts.Pfc, String> value) {
        for (var agent : agents) {
            final var sw = escape(agent.switchId());
            final var listed = new java.util.HashSet<String>();
            for (var pfc : agent.pfc()) {
                final var text = value.apply(pfc);
                // a port the status lists twice (two interfaces of one tp-id): its first entry
                if (text != null && listed.add(pfc.tp() + "|" + pfc.priority())) {
                    out.append(name).append("{switch=\"").append(sw).append("\",port=\"").append(escape(pfc.tp()))
                        .append("\",priority=\"").append(pfc.priority()).append("\"} ").append(text).append('\n');
                }
            }
        }
    }

    /** The agents' data-sampling counters, for the agents that report them. */
    private static void dataCounters(final StringBuilder out, final List<AgentFacts> agents) {
        gauge(out, "rst_agent_data_flows", "Data flows the switch's agent tracks (agents sampling data packets).");
        dataCounter(out, agents, "rst_agent_data_flows", AgentFacts.DataCounters::flows);
        gauge(out, "rst_agent_data_sessions",
            "Data-learned sessions the switch's agent paired (both directions seen).");
        dataCounter(out, agents, "rst_agent_data_sessions", AgentFacts.DataCounters::sessions);
        gauge(out, "rst_agent_data_one_way", "One-way flows the switch's agent tracks (one direction seen).");
        dataCounter(out, agents, "rst_agent_data_one_way", AgentFacts.DataCounters::oneWay);
        counter(out, "rst_agent_data_flows_evicted_total",
            "Data flows the switch's agent evicted with its flow table full, since it started.");
        dataCounter(out, agents, "rst_agent_data_flows_evicted_total", AgentFacts.DataCounters::flowsEvicted);
        counter(out, "rst_agent_data_pair_ambiguous_total",
            "Responses the switch's agent left unpaired because they fitted two flows, since it started.");
        dataCounter(out, agents, "rst_agent_data_pair_ambiguous_total", AgentFacts.DataCounters::pairAmbiguous);
        counter(out, "rst_agent_data_bth_rejected_total",
            "Sampled packets whose BTH the switch's agent rejected as garbage, since it started.");
        dataCounter(out, agents, "rst_agent_data_bth_rejected_total", AgentFacts.DataCounters::bthRejected);
    }

    private static void dataCounter(final StringBuilder out, final List<AgentFacts> agents, final String name,
            final java.util.function.ToLongFunction<AgentFacts.DataCounters> value) {
        for (var agent : agents) {
            final var data = agent.data();
            if (data != null && value.applyAsLong(data) >= 0) {
                out.append(name).append("{switch=\"").append(escape(agent.switchId())).append("\"} ")
                    .append(value.applyAsLong(data)).append('\n');
            }
        }
    }

    private static void counter(final StringBuilder out, final String name, final String help) {
        out.append("# HELP ").append(name).append(' ').append(help).append("\n# TYPE ").append(name)
            .append(" counter\n");
    }

    private static void gauge(final StringBuilder out, final String name, final String help) {
        out.append("# HELP ").append(name).append(' ').append(help).append("\n# TYPE ").append(name)
            .append(" gauge\n");
    }

    private static String number(final double value) {
        return Double.isNaN(value) ? "NaN" : String.format(java.util.Locale.ROOT, "%.6f", value);
    }

    /** Label values: backslash, double quote and newline escaped, as the format requires. */
    static String escape(final String value) {
        return value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }
}
