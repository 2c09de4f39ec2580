/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.insight;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.AgentState;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.insight.rev261201.ProblemKind;

/**
 * The metrics' names as the documentation and the Grafana dashboard use them: every rst_ name
 * that docs/metrics.md or docs/grafana/rst.json names is one the endpoint serves.
 */
public class MetricsTextTest {
    @Test
    public void everyMetricTheDocsAndTheDashboardNameIsServed() throws Exception {
        final var snapshot = new Snapshot(true, Map.of("leaf1", Map.of("ESTABLISHED", 3L)), 3, 3, 0, 0, Map.of(),
            List.of(new AgentFacts("leaf1", AgentState.CAPTURING, null, 1, 1, 7, 5, 3, 2, Double.NaN, Double.NaN, 4)),
            Map.of("leaf1", 9L),
            Map.of("leaf1", 0.5), 2, 0.001, 6);
        final var text = MetricsText.render(snapshot, 2);
        final var served = new TreeSet<String>();
        for (var line : text.split("\n")) {
            if (!line.startsWith("#")) {
                served.add(line.replaceAll("[{ ].*", ""));
            } else if (line.startsWith("# TYPE ")) {
                // a metric /metrics declares, whose samples come only when an agent reports them
                served.add(line.substring("# TYPE ".length()).replaceAll(" .*", ""));
            }
        }
        final var docs = Path.of("..", "docs");
        final var named = Pattern.compile("rst_[a-z_]+[a-z]");
        for (var file : List.of(docs.resolve("metrics.md"), docs.resolve("grafana/rst.json"))) {
            final var matcher = named.matcher(Files.readString(file));
            while (matcher.find()) {
                assertTrue(served.contains(matcher.group()),
                    file + " names " + matcher.group() + ", which /metrics does not serve: " + served);
            }
        }
        assertTrue(text.contains("rst_agent_last_event_seq{switch=\"leaf1\"} 7\n"), text);
        assertTrue(text.contains("rst_agent_last_contact_age_seconds{switch=\"leaf1\"} 1.000000\n"), text);
        assertTrue(text.contains("rst_agent_dropped_packets_total{switch=\"leaf1\",cause=\"kernel\"} 3\n"), text);
        assertTrue(text.contains("rst_agent_dropped_packets_total{switch=\"leaf1\",cause=\"queue\"} 2\n"), text);
        assertTrue(text.contains("rst_ingest_failed_commits_total{switch=\"leaf1\"} 4\n"), text);
        assertTrue(text.contains("rst_paths_failed_commits_total 6\n"), text);
    }

    @Test
    public void dataLearnedSessionsAndTheAgentsDataCountersAreServed() {
        final var snapshot = new Snapshot(true, Map.of("spine1", Map.of("ACTIVE", 4L, "ESTABLISHED", 1L)), 5, 3, 0, 0,
            Map.of(ProblemKind.HalfSeen, 2L),
            List.of(new AgentFacts("spine1", AgentState.CAPTURING, null, 1, 1, 7, 0, 0, 0, Double.NaN, Double.NaN, 0,
                    new AgentFacts.DataCounters(12, 3, 6, 1, 9, -1), 5, 2),
                new AgentFacts("spine2", AgentState.CAPTURING, null, 1, 1, 7)),
            Map.of(), Map.of(), 2, 0.001, 0,
            Map.of("spine1", Map.of("data|ACTIVE", 4L, "cm|ESTABLISHED", 1L)),
            Map.of("spine1", Map.of("paired", 1L, "unpaired", 3L)));
        final var text = MetricsText.render(snapshot, 2);
        for (var line : List.of("rst_sessions{switch=\"spine1\",state=\"ACTIVE\"} 4",
                "rst_sessions{switch=\"spine1\",state=\"IDLE\"} 0",
                "rst_sessions_by_origin{switch=\"spine1\",learned_from=\"data\",state=\"ACTIVE\"} 4",
                "rst_sessions_by_origin{switch=\"spine1\",learned_from=\"data\",state=\"IDLE\"} 0",
                "rst_sessions_by_origin{switch=\"spine1\",learned_from=\"cm\",state=\"ESTABLISHED\"} 1",
                "rst_one_way_flows{switch=\"spine1\",pairing=\"paired\"} 1",
                "rst_one_way_flows{switch=\"spine1\",pairing=\"ambiguous\"} 0",
                "rst_one_way_flows{switch=\"spine1\",pairing=\"unpaired\"} 3",
                "rst_problems{kind=\"half-seen\"} 2",
                "rst_agent_data_flows{switch=\"spine1\"} 12", "rst_agent_data_sessions{switch=\"spine1\"} 3",
                "rst_agent_data_one_way{switch=\"spine1\"} 6",
                "rst_agent_data_flows_evicted_total{switch=\"spine1\"} 1",
                "rst_agent_data_pair_ambiguous_total{switch=\"spine1\"} 9",
                "rst_ingest_refused_records_total{switch=\"spine1\",reason=\"model\"} 3",
                "rst_ingest_refused_records_total{switch=\"spine1\",reason=\"unknown_learned_from\"} 2",
                "rst_ingest_refused_records_total{switch=\"spine2\",reason=\"model\"} 0")) {
            assertTrue(text.contains(line + "\n"), line + " in\n" + text);
        }
        // a counter an agent does not report is not served as 0
        assertFalse(text.contains("rst_agent_data_bth_rejected_total{"), text);
        assertFalse(text.contains("rst_agent_data_flows{switch=\"spine2\"}"), text);
        assertTrue(text.contains("# TYPE rst_agent_data_bth_rejected_total counter\n"), text);
    }

    @Test
    public void theCongestionFiguresAreServedPerPortAndPriorityWithoutSessionLabels() {
        final var agent = new AgentFacts("leaf1", AgentState.CAPTURING, null, 1, 1, 7).withPfc(List.of(
            new AgentFacts.Pfc("swp2", 3, 120, 2_500_000, true, 0.75, 1),
            new AgentFacts.Pfc("swp2", 6, -1, -1, false, Double.NaN, Double.NaN)));
        final var snapshot = new Snapshot(true, Map.of(), 0, 2, 0, 0, Map.of(ProblemKind.PfcStorm, 1L),
            List.of(agent), Map.of(), Map.of(), 2, 0.001, 0, Map.of(), Map.of(),
            List.of(new Snapshot.PortEcn("spine1", "swp1", 1000, 70, 12), new Snapshot.PortEcn("spine1", "", 5, 0, 0)),
            3, List.of(new Snapshot.HeldPort("leaf1", "swp2", 3, 42)));
        final var text = MetricsText.render(snapshot, 2);
        for (var line : List.of("rst_sessions_congested 3",
                "rst_data_ect_packets{switch=\"spine1\",port=\"swp1\"} 1000",
                "rst_data_ce_packets{switch=\"spine1\",port=\"swp1\"} 70",
                "rst_data_cnp_packets{switch=\"spine1\",port=\"swp1\"} 12",
                "rst_data_ect_packets{switch=\"spine1\",port=\"\"} 5",
                "rst_pfc_frames_total{switch=\"leaf1\",port=\"swp2\",priority=\"3\"} 120",
                "rst_pfc_paused_seconds_total{switch=\"leaf1\",port=\"swp2\",priority=\"3\"} 2.500000",
                "rst_pfc_paused_share{switch=\"leaf1\",port=\"swp2\",priority=\"3\"} 0.750000",
                "rst_pfc_paused{switch=\"leaf1\",port=\"swp2\",priority=\"3\"} 1",
                "rst_pfc_paused{switch=\"leaf1\",port=\"swp2\",priority=\"6\"} 0",
                "rst_pfc_held_up_sessions{switch=\"leaf1\",port=\"swp2\",priority=\"3\"} 42",
                "rst_problems{kind=\"pfc-storm\"} 1", "rst_problems{kind=\"congested\"} 0",
                "rst_problems{kind=\"pfc-deadlock-suspect\"} 0",
                "# TYPE rst_pfc_frames_total counter", "# TYPE rst_pfc_paused_share gauge",
                "# TYPE rst_data_ce_packets gauge")) {
            assertTrue(text.contains(line + "\n"), line + " in\n" + text);
        }
        // what the status does not say is not served as 0
        assertFalse(text.contains("rst_pfc_frames_total{switch=\"leaf1\",port=\"swp2\",priority=\"6\"}"), text);
        assertFalse(text.contains("rst_pfc_paused_share{switch=\"leaf1\",port=\"swp2\",priority=\"6\"}"), text);
        // no series names a session
        assertFalse(text.contains("session=") || text.contains("session_id="), text);
    }

    @Test
    public void labelValuesAreEscaped() {
        assertTrue(MetricsText.escape("a\"b\\c\nd").equals("a\\\"b\\\\c\\nd"));
    }
}
