/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rpt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rst.rpt.Congestion.Figures;
import io.rst.rpt.Congestion.MarkedAt;
import io.rst.rpt.PathAssembler.Fabric;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.eclipse.jdt.annotation.Nullable;
import org.junit.jupiter.api.Test;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.SessionState;

/**
 * Congestion on data paths, on a two-tier fabric (links both ways):
 * <pre>
 *            spine1                      spine2
 *       eth1 /    \ eth2            eth1 /    \ eth2
 *     eth3 leaf1   leaf2 eth3      eth4 leaf1   leaf2 eth4
 *   eth1 |              | eth1
 *       h1a            h2a
 * </pre>
 * The requester h1a's data to h2a goes leaf1, spine1, leaf2; the first hop whose ingress saw CE
 * names the link where marking happened, the hop before it its egress (the host, at the first hop).
 */
class CongestionTest {
    private static final String H1A = "10.1.0.2";
    private static final String H2A = "10.2.0.2";
    private static final LinkIndex LINKS = both(LinkIndex.builder(),
        "h1a", "h1a-eth0", "leaf1", "leaf1-eth1",
        "h2a", "h2a-eth0", "leaf2", "leaf2-eth1",
        "leaf1", "leaf1-eth3", "spine1", "spine1-eth1",
        "leaf1", "leaf1-eth4", "spine2", "spine2-eth1",
        "leaf2", "leaf2-eth3", "spine1", "spine1-eth2",
        "leaf2", "leaf2-eth4", "spine2", "spine2-eth2").build();
    private static final HostIndex HOSTS = HostIndex.builder().host("h1a", List.of(H1A)).host("h2a", List.of(H2A))
        .switchNode("leaf1").switchNode("leaf2").switchNode("spine1").switchNode("spine2").build();
    private static final Fabric FABRIC = new Fabric(LINKS, HOSTS, Set.of("leaf1", "leaf2", "spine1", "spine2"));

    private static LinkIndex.Builder both(final LinkIndex.Builder builder, final String... ends) {
        for (int i = 0; i < ends.length; i += 4) {
            builder.link(ends[i], ends[i + 1], ends[i + 2], ends[i + 3]);
            builder.link(ends[i + 2], ends[i + 3], ends[i], ends[i + 1]);
        }
        return builder;
    }

    /** A data-learned session (h1a's QP 0x101 and h2a's 0xabcd) as {@code node} paired it. */
    private static SwitchSession data(final String node, final String forwardIngress,
            final @Nullable Figures forward, final @Nullable String reverseIngress, final @Nullable Figures reverse) {
        return new SwitchSession(node, H1A, H2A, 0x101, 0xabcd, SessionState.ACTIVE, 100, 200, false, null, 0, false,
            null, 0, true, forwardIngress, reverseIngress != null, reverseIngress, true, false, "RC", null, null,
            forward, reverse);
    }

    /** A CM session as {@code node} saw it: its CM messages, and its requester's data sampled there. */
    private static SwitchSession cm(final String node, final String cmIngress, final String dataIngress,
            final @Nullable Figures forward) {
        return new SwitchSession(node, H1A, H2A, 0x101, 0xabcd, SessionState.ESTABLISHED, 100, 200, true, cmIngress,
            100, false, null, 0, true, dataIngress, false, null, false, false, null, null, null, forward, null);
    }

    private static Figures ecn(final long ect, final long ce) {
        return new Figures(26, -1, ect, ce, 0);
    }

    private static PathAssembler.DirectionResult forward(final SwitchSession... seen) {
        return DataPaths.ofData(List.of(seen), FABRIC, H1A, H2A, false).forward();
    }

    @Test
    void ceFirstAtTheSecondHopNamesTheFirstHopsEgress() {
        final var path = forward(data("leaf1", "leaf1-eth1", ecn(40, 0), null, null),
            data("spine1", "spine1-eth1", ecn(40, 10), null, null),
            data("leaf2", "leaf2-eth3", ecn(40, 12), null, null));
        assertTrue(path.complete(), path.gaps().toString());
        final var congestion = path.congestion();
        assertEquals(new MarkedAt("leaf1", "leaf1-eth3", "spine1", "spine1-eth1", 1, true), congestion.markedAt());
        // the direction's share: at the last hop, 12 of 40
        assertEquals(12, congestion.ce());
        assertEquals(3_000, congestion.ceShare());
        // per hop: the figures, the DSCP's priority (26: 3 by default), the share
        final var hops = path.hops();
        assertEquals(new Figures(26, 3, 40, 10, 0), hops.get(1).figures());
        assertEquals(2_500, hops.get(1).figures().ceShare());
        assertEquals(0, hops.get(0).figures().ceShare());
    }

    @Test
    void ceAtTheFirstHopNamesTheSendingHostsLink() {
        final var path = forward(data("leaf1", "leaf1-eth1", ecn(40, 1), null, null),
            data("spine1", "spine1-eth1", ecn(40, 1), null, null),
            data("leaf2", "leaf2-eth3", ecn(40, 1), null, null));
        assertEquals(new MarkedAt("h1a", "h1a-eth0", "leaf1", "leaf1-eth1", 0, true), path.congestion().markedAt());
    }

    @Test
    void noCeNoMarkingButTheSharesAndCnps() {
        final var path = forward(data("leaf1", "leaf1-eth1", ecn(40, 0), null, null),
            data("spine1", "spine1-eth1", ecn(40, 0), null, null),
            data("leaf2", "leaf2-eth3", new Figures(26, -1, 40, 0, 3), null, null),
            // the CNPs come back through spine2 (ECMP): it counts them, without the data
            new SwitchSession("spine2", H1A, H2A, 0x101, 0xabcd, SessionState.ACTIVE, 100, 200, false, null, 0, false,
                null, 0, false, null, false, null, true, false, "RC", null, null, new Figures(-1, -1, 0, 0, 7),
                null));
        assertNull(path.congestion().markedAt());
        assertEquals(0, path.congestion().ceShare());
        // the most CNPs any switch saw, the one off the data path included
        assertEquals(7, path.congestion().cnp());
        assertEquals(List.of("leaf1", "spine1", "leaf2"), nodes(path));
    }

    @Test
    void aHopWithoutEcnFiguresBeforeTheMarkMakesItUncertain() {
        // spine1's agent reports no ECN figures (an older agent): the mark seen at leaf2 may be its
        final var path = forward(data("leaf1", "leaf1-eth1", ecn(40, 0), null, null),
            data("spine1", "spine1-eth1", null, null, null),
            data("leaf2", "leaf2-eth3", ecn(40, 5), null, null));
        assertEquals(new MarkedAt("spine1", "spine1-eth2", "leaf2", "leaf2-eth3", 2, false),
            path.congestion().markedAt());
        assertNull(path.hops().get(1).figures());
        // spine1 silent altogether: inferred, no figures, so uncertain the same way
        final var inferred = forward(data("leaf1", "leaf1-eth1", ecn(40, 0), null, null),
            data("leaf2", "leaf2-eth3", ecn(40, 5), null, null));
        assertFalse(inferred.hops().get(1).observed());
        assertEquals(new MarkedAt("spine1", "spine1-eth2", "leaf2", "leaf2-eth3", 2, false),
            inferred.congestion().markedAt());
    }

    @Test
    void noFiguresAtAllNoCongestion() {
        final var path = forward(data("leaf1", "leaf1-eth1", null, null, null),
            data("spine1", "spine1-eth1", null, null, null), data("leaf2", "leaf2-eth3", null, null, null));
        assertNull(path.congestion());
        assertTrue(path.hops().stream().allMatch(h -> h.figures() == null));
    }

    @Test
    void aCmSessionsSampledDataHasItsCongestionToo() {
        final var result = DataPaths.of(List.of(cm("leaf1", "leaf1-eth1", "leaf1-eth1", ecn(20, 0)),
                cm("spine1", "spine1-eth1", "spine1-eth1", ecn(20, 4)),
                cm("leaf2", "leaf2-eth3", "leaf2-eth3", ecn(20, 4))), FABRIC, H1A, H2A,
            PathAssembler.assemble(List.of(), FABRIC, H1A, H2A), PathAssembler.assemble(List.of(), FABRIC, H2A, H1A));
        assertEquals(new MarkedAt("leaf1", "leaf1-eth3", "spine1", "spine1-eth1", 1, true),
            result.forward().congestion().markedAt());
        assertEquals(2_000, result.forward().congestion().ceShare());
        // nobody sampled the responder's data: no figures that way
        assertNull(result.reverse().congestion());
    }

    @Test
    void theReverseDirectionHasItsOwnMark() {
        // the responder's data h2a -> h1a: leaf2, spine1, leaf1, marked on spine1's way into leaf1
        final var result = DataPaths.ofData(List.of(
            data("leaf2", "leaf2-eth3", ecn(10, 0), "leaf2-eth1", ecn(30, 0)),
            data("spine1", "spine1-eth1", ecn(10, 0), "spine1-eth2", ecn(30, 0)),
            data("leaf1", "leaf1-eth1", ecn(10, 0), "leaf1-eth3", ecn(30, 6))), FABRIC, H1A, H2A, false);
        assertNull(result.forward().congestion().markedAt());
        assertEquals(new MarkedAt("spine1", "spine1-eth1", "leaf1", "leaf1-eth3", 2, true),
            result.reverse().congestion().markedAt());
    }

    @Test
    void thePriorityIsTheDscpsAsTheFabricMapsIt() {
        final var configured = new Fabric(LINKS, HOSTS, Set.of("leaf1", "leaf2", "spine1", "spine2"),
            new DscpMap(Map.of(26, 5)));
        final var path = DataPaths.ofData(List.of(data("leaf1", "leaf1-eth1", ecn(4, 0), null, null),
            data("spine1", "spine1-eth1", new Figures(46, -1, 4, 0, 0), null, null)), configured, H1A, H2A, true)
            .forward();
        assertEquals(5, path.hops().get(0).figures().priority());
        // not configured: its class selector
        assertEquals(5, path.hops().get(1).figures().priority());
        assertEquals(46 >> 3, DscpMap.DEFAULT.priority(46));
        assertEquals(3, DscpMap.DEFAULT.priority(26));
        assertEquals(6, DscpMap.DEFAULT.priority(48));
        assertEquals(-1, DscpMap.DEFAULT.priority(-1));
    }

    @Test
    void aPausedPortHoldsUpTheSessionsLeavingThroughItInItsPriority() {
        final List<PathValue> paths = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            final String id = String.format("s%02d", i);
            // the odd ones take spine2
            final boolean viaSpine2 = i % 2 == 1;
            final var result = DataPaths.ofData(List.of(data("leaf1", "leaf1-eth1", ecn(4, 0), null, null),
                data(viaSpine2 ? "spine2" : "spine1", viaSpine2 ? "spine2-eth1" : "spine1-eth1", ecn(4, 0), null,
                    null)), FABRIC, H1A, H2A, true);
            paths.add(new PathValue(id, H1A, H2A, -1, 0xabcd, SessionState.ACTIVE, null, null, false, result, true,
                true, "RC"));
        }
        final var entry = PausedPorts.of("leaf1", new PausedPorts.Pause("leaf1-eth3", 3, true, 1_500), paths);
        // all 25 counted, the first 20 named
        assertEquals(25, entry.count());
        assertEquals(PausedPorts.MAX_SESSIONS, entry.sessions().size());
        assertEquals("s00", entry.sessions().get(0));
        assertEquals("s38", entry.sessions().get(19));
        // the priority must be the data's; the port must be where it leaves, not where it enters
        assertEquals(0, PausedPorts.of("leaf1", new PausedPorts.Pause("leaf1-eth3", 4, true, 0), paths).count());
        assertEquals(0, PausedPorts.of("leaf1", new PausedPorts.Pause("leaf1-eth1", 3, true, 0), paths).count());
        assertEquals(25, PausedPorts.of("leaf1", new PausedPorts.Pause("leaf1-eth4", 3, false, 10), paths).count());
        // the RPC's filter: in or out through the port, in that priority
        assertTrue(paths.get(0).crossesData("leaf1", "leaf1-eth1", 3));
        assertFalse(paths.get(0).crossesData("leaf1", "leaf1-eth1", 4));
        assertTrue(paths.get(0).crossesData("spine1", null, 3));
    }

    @Test
    void sharesRoundHalfEven() {
        assertEquals(-1, Congestion.share(1, 0));
        assertEquals(-1, Congestion.share(-1, 5));
        assertEquals(10_000, Congestion.share(7, 5));
        assertEquals(3_333, Congestion.share(1, 3));
        assertEquals(6_667, Congestion.share(2, 3));
        // 1/20000 = 0.5 ten-thousandths: to the even 0; 3/20000 = 1.5: to 2
        assertEquals(0, Congestion.share(1, 20_000));
        assertEquals(2, Congestion.share(3, 20_000));
        assertEquals(5_000, Congestion.share(Long.MAX_VALUE / 2, Long.MAX_VALUE - 1));
    }

    private static List<String> nodes(final PathAssembler.DirectionResult path) {
        return path.hops().stream().map(PathAssembler.HopResult::node).toList();
    }
}
