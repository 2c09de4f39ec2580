/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.insight;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.AgentState;

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
    public void labelValuesAreEscaped() {
        assertTrue(MetricsText.escape("a\"b\\c\nd").equals("a\\\"b\\\\c\\nd"));
    }
}
