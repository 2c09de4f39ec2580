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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.agent.status.Pfc;
import org.opendaylight.yangtools.yang.common.Decimal64;
import org.opendaylight.yangtools.yang.common.Uint32;
import org.opendaylight.yangtools.yang.common.Uint64;
import org.opendaylight.yangtools.yang.common.Uint8;

/**
 * An agent's PFC figures as the switch's status shows them: read from its status (what is not a
 * figure is unknown, what is not an entry is skipped and counted), and the share of the time
 * between two probes each priority was paused.
 */
class PfcFiguresTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static AgentProbe.Pfc pfc(final String iface, final int priority, final long pausedUs) {
        return new AgentProbe.Pfc(iface, priority, 4, 1, 196_605, pausedUs, Boolean.FALSE,
            "2026-12-01T09:30:00.004100Z", 100_000);
    }

    private static AgentProbe.Congestion congestion(final AgentProbe.Pfc... pfc) {
        return new AgentProbe.Congestion(0, 0, pfc.length, 0, List.of(pfc), 0);
    }

    private static List<Long> shares(final PfcFigures figures) {
        final List<Long> out = new ArrayList<>();
        for (var row : figures.rows()) {
            out.add(row.share());
        }
        return out;
    }

    @Test
    void theShareOfAProbeIntervalIsTheGrowthOfPausedTime() {
        final var figures = new PfcFigures();
        // the first probe: the agent's counts run from its start, no interval yet
        figures.update(congestion(pfc("swp1", 3, 1_000), pfc("swp2", 3, 0)), 10_000);
        assertEquals(List.of(-1L, -1L), shares(figures));
        // 5 s later: swp1 paused 1.25 s of them, swp2 not at all, swp3 (new) 5 ms from 0
        figures.update(congestion(pfc("swp1", 3, 1_251_000), pfc("swp2", 3, 0), pfc("swp3", 6, 5_000)), 15_000);
        assertEquals(List.of(2_500L, 0L, 10L), shares(figures));
        // paused longer than the interval (an XOFF's pause reaching past the agent's clock): a whole
        figures.update(congestion(pfc("swp1", 3, 9_000_000), pfc("swp2", 3, 1), pfc("swp3", 6, 5_000)), 20_000);
        assertEquals(List.of(10_000L, 0L, 0L), shares(figures));
        // the agent restarted: its paused time went down, no share until the next probe
        figures.update(congestion(pfc("swp1", 3, 100), pfc("swp2", 3, 1)), 25_000);
        assertEquals(List.of(-1L, 0L), shares(figures));
        figures.update(congestion(pfc("swp1", 3, 2_500_100), pfc("swp2", 3, 1)), 30_000);
        assertEquals(List.of(5_000L, 0L), shares(figures));
        // two answers within a millisecond: the shares stay, the next interval counts from the earlier
        figures.update(congestion(pfc("swp1", 3, 2_600_100), pfc("swp2", 3, 1)), 30_000);
        assertEquals(List.of(5_000L, 0L), shares(figures));
        figures.update(congestion(pfc("swp1", 3, 3_500_100), pfc("swp2", 3, 1)), 40_000);
        assertEquals(List.of(1_000L, 0L), shares(figures));
        // an agent that no longer reports PFC figures: none, and a first probe again after
        figures.update(null, 45_000);
        assertEquals(List.of(), shares(figures));
        figures.update(congestion(pfc("swp1", 3, 4_000_000)), 50_000);
        assertEquals(List.of(-1L), shares(figures));
    }

    @Test
    void sharesRoundHalfEvenToFourDigits() {
        // 1 us of 3 s: 0.0000033 -> 0
        assertEquals(0, PfcFigures.share(0, 1, 3_000));
        // 150 us of 1 s: 1.5 ten-thousandths -> 2; 250 us: 2.5 -> 2; 350 us: 3.5 -> 4
        assertEquals(2, PfcFigures.share(0, 150, 1_000));
        assertEquals(2, PfcFigures.share(0, 250, 1_000));
        assertEquals(4, PfcFigures.share(0, 350, 1_000));
        assertEquals(10_000, PfcFigures.share(0, 1_000_000, 1_000));
        assertEquals(-1, PfcFigures.share(-1, 5, 1_000));
        assertEquals(-1, PfcFigures.share(7, 5, 1_000));
        assertEquals(-1, PfcFigures.share(0, 5, 0));
    }

    @Test
    void theStatusListNamesEachPortAsThePathsDo() {
        final var figures = new PfcFigures();
        figures.update(congestion(pfc("Ethernet1/1", 3, 0), new AgentProbe.Pfc("swp9", 7, -1, -1, -1, -1, null, "x",
            -1)), 1_000);
        figures.update(congestion(pfc("Ethernet1/1", 3, 500_000), new AgentProbe.Pfc("swp9", 7, -1, -1, -1, -1, null,
            "yesterday", -1)), 2_000);
        final List<Pfc> status = PfcFigures.toStatus(figures.rows(), Map.of("Ethernet1/1", "leaf1:1"));
        assertEquals(2, status.size());
        final var mapped = status.get(0);
        assertEquals("Ethernet1/1", mapped.key().getInterface());
        assertEquals(Uint8.valueOf(3), mapped.key().getPriority());
        assertEquals("leaf1:1", mapped.getTpId().getValue());
        assertEquals(Uint64.valueOf(4), mapped.getFrames());
        assertEquals(Uint64.valueOf(1), mapped.getXon());
        assertEquals(Uint64.valueOf(196_605), mapped.getQuanta());
        assertEquals(Uint64.valueOf(500_000), mapped.getPausedUs());
        assertEquals(Boolean.FALSE, mapped.getPaused());
        assertEquals("2026-12-01T09:30:00.004100Z", mapped.getLast().getValue());
        assertEquals(Uint32.valueOf(100_000), mapped.getLinkSpeedMbps());
        assertEquals(Decimal64.of(4, 5_000), mapped.getPausedShare());
        // unknown figures are absent; the interface is its own tp-id where the port map has none
        final var bare = status.get(1);
        assertEquals("swp9", bare.getTpId().getValue());
        assertNull(bare.getFrames());
        assertNull(bare.getPausedUs());
        assertNull(bare.getPaused());
        assertNull(bare.getLast());
        assertNull(bare.getLinkSpeedMbps());
        assertNull(bare.getPausedShare());
    }

    @Test
    void theAgentsStatusReadWhatIsAFigureAndSkipWhatIsNoEntry() throws Exception {
        final var congestion = HttpAgentProbe.congestion(JSON.readTree("""
            {"counters":{"cnps":12,"cnp_unmatched":2,"pfc_frames":-4,"pfc_untabled":"1"},
             "pfc":[{"interface":"swp1","priority":3,"frames":4,"xon":1,"quanta":196605,"paused_us":1006,
                     "paused":false,"last":"2026-12-01T09:30:00.004100Z","link_speed_mbps":100000},
                    {"interface":"swp1","priority":3,"frames":9},
                    {"interface":"swp1","priority":8},
                    {"interface":"","priority":1},
                    {"priority":1},
                    {"interface":"swp2","priority":"3"},
                    {"interface":"swp2","priority":0,"frames":1.5,"paused":"yes","last":7,"paused_us":-1},
                    7]}"""));
        assertEquals(12, congestion.cnps());
        assertEquals(2, congestion.cnpUnmatched());
        assertEquals(-1, congestion.pfcFrames());
        assertEquals(-1, congestion.pfcUntabled());
        assertEquals(List.of(new AgentProbe.Pfc("swp1", 3, 4, 1, 196_605, 1006, Boolean.FALSE,
            "2026-12-01T09:30:00.004100Z", 100_000), new AgentProbe.Pfc("swp2", 0, -1, -1, -1, -1, null, null, -1)),
            congestion.pfc());
        // the second swp1/3, priority 8, no name (twice), a priority that is text, an entry that is no object
        assertEquals(6, congestion.pfcSkipped());

        // at most the agent's own bound
        final var many = new StringBuilder("{\"pfc\":[");
        for (int i = 0; i < AgentProbe.MAX_PFC + 5; i++) {
            many.append(i == 0 ? "" : ",").append("{\"interface\":\"if").append(i / 8).append("\",\"priority\":")
                .append(i % 8).append('}');
        }
        final var bounded = HttpAgentProbe.congestion(JSON.readTree(many.append("]}").toString()));
        assertEquals(AgentProbe.MAX_PFC, bounded.pfc().size());
        assertEquals(5, bounded.pfcSkipped());

        // an agent that counts no congestion reports none of it
        assertNull(HttpAgentProbe.congestion(JSON.readTree("{\"counters\":{\"kernel_drops\":1}}")));
        assertNull(HttpAgentProbe.congestion(JSON.readTree("{\"counters\":{},\"pfc\":{\"swp1\":1}}")));
        // a list that is not one, beside counters: nothing of it, counted
        final var notAList = HttpAgentProbe.congestion(JSON.readTree("{\"counters\":{\"cnps\":0},\"pfc\":{}}"));
        assertEquals(List.of(), notAList.pfc());
        assertEquals(1, notAList.pfcSkipped());
    }
}
