/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class LabBenchTest {
    private static final long S = 1_000_000_000L;
    private static final long MS = 1_000_000L;

    @Test
    void delaysAreGroupedByTheTenSecondsTheirRtuFellIn() {
        final long start = 1000 * S;
        final List<long[]> timed = List.of(
            new long[] {start + 1 * S, 300 * MS},
            new long[] {start + 9 * S, 500 * MS},
            new long[] {start + 3 * S, 400 * MS},
            new long[] {start + 25 * S, 2900 * MS},
            // an RTU just before the period (the sampling starts with it) counts in its first 10 s
            new long[] {start - MS, 100 * MS});
        assertEquals("0s 300 ms/500 ms, 20s 2900 ms/2900 ms", LabBench.windows(timed, start));
    }

    @Test
    void theControllersThreadsAreToldApartByName() {
        assertEquals(LabBench.GC_CONCURRENT, LabBench.threadGroup("G1 Conc#0"));
        assertEquals(LabBench.GC_CONCURRENT, LabBench.threadGroup("G1 Refine#0"));
        assertEquals(LabBench.GC_CONCURRENT, LabBench.threadGroup("ZWorkerYoung#0"));
        assertEquals(LabBench.GC_PAUSES, LabBench.threadGroup("GC Thread#1"));
        assertEquals(LabBench.JIT, LabBench.threadGroup("C2 CompilerThre"));
        assertEquals(LabBench.JIT, LabBench.threadGroup("C1 CompilerThre"));
        assertEquals(LabBench.RFT, LabBench.threadGroup("rst-rft-manager"));
        assertEquals(LabBench.RFT, LabBench.threadGroup("rst-rft-http-3"));
        assertEquals(LabBench.RFT, LabBench.threadGroup("ForkJoinPool-1-"));
        assertEquals(LabBench.DATASTORE, LabBench.threadGroup("opendaylight-cl"));
        assertEquals(LabBench.RPT, LabBench.threadGroup("rst-rpt"));
        assertEquals(LabBench.INSIGHT, LabBench.threadGroup("rst-insight"));
        assertEquals(LabBench.RESTCONF, LabBench.threadGroup("qtp1790214397-1"));
        assertEquals(LabBench.REST, LabBench.threadGroup("ForkJoinPool.co"));
        assertEquals(LabBench.REST, LabBench.threadGroup("pool-7-thread-1"));
        // thread by thread: one born in between counts whole, one that ended in between is left
        // out (summed by group first, its earlier 40 s would have been taken off the others')
        assertEquals("GC concurrent 3.0 s, GC pauses 0.5 s, JIT 0.0 s, datastore 0.0 s, RFT (agent streams, followers) "
            + "0.0 s, RPT 0.0 s, insight 0.0 s, RESTCONF (the bench's asks) 2.0 s, the rest 10.0 s",
            LabBench.cpuSplit(Map.of("1", new LabBench.ThreadCpu(LabBench.GC_PAUSES, 1.0),
                    "2", new LabBench.ThreadCpu(LabBench.JIT, 2.0),
                    "3", new LabBench.ThreadCpu(LabBench.REST, 5.0),
                    "4", new LabBench.ThreadCpu(LabBench.RESTCONF, 40.0),
                    "5", new LabBench.ThreadCpu(LabBench.RESTCONF, 1.0)),
                Map.of("6", new LabBench.ThreadCpu(LabBench.GC_CONCURRENT, 3.0),
                    "1", new LabBench.ThreadCpu(LabBench.GC_PAUSES, 1.5),
                    "2", new LabBench.ThreadCpu(LabBench.JIT, 2.0),
                    "3", new LabBench.ThreadCpu(LabBench.REST, 15.0),
                    "5", new LabBench.ThreadCpu(LabBench.RESTCONF, 3.0))));
    }

    @Test
    void eachAgentsCaptureDropsAreSaidBySwitchName() throws Exception {
        final Map<String, JsonNode> statuses = new TreeMap<>();
        statuses.put("spine1", Restconf.JSON.readTree("{\"counters\":{\"kernel_drops\":12,\"queue_drops\":3}}"));
        statuses.put("leaf1", Restconf.JSON.readTree("{\"counters\":{\"kernel_drops\":0,\"queue_drops\":0}}"));
        // an agent that leaves a count out, or sends something that is not one, is not read as 0
        statuses.put("leaf2", Restconf.JSON.readTree("{\"counters\":{\"kernel_drops\":\"many\"}}"));
        assertEquals("leaf1 0/0, leaf2 ?/?, spine1 12/3", LabBench.dropsLine(statuses));
    }
}
