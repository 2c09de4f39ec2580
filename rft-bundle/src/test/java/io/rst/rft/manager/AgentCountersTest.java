/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.manager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** An agent's data-sampling counters as its status reports them: what is not a count is unknown. */
class AgentCountersTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void countersTheAgentReportsAndTheOnesItDoesNot() throws Exception {
        final var counters = HttpAgentProbe.dataCounters(JSON.readTree("""
            {"kernel_drops":1,"data_flows":12,"data_sessions":3,"data_one_way":-4,"data_flows_evicted":"7",
             "data_pair_ambiguous":1.5,"data_bth_rejected":9}"""));
        assertEquals(new AgentProbe.DataCounters(12, 3, -1, -1, -1, 9), counters);
        // an agent that does not sample data reports none of them
        assertNull(HttpAgentProbe.dataCounters(JSON.readTree("{\"kernel_drops\":1,\"queue_drops\":0}")));
        assertNull(HttpAgentProbe.dataCounters(JSON.readTree("[]")));
    }
}
