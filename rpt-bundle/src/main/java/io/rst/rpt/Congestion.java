/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rpt;

import java.util.List;
import org.eclipse.jdt.annotation.Nullable;

/**
 * Congestion on a session's data path: what each switch saw of a direction's data (its DSCP, the
 * sampled packets that entered ECN-capable and CE-marked, the CNPs about it), and what the path
 * makes of it. A mark once set stays set, and a switch's capture sees a packet as it enters, so
 * the first hop in path order whose ingress saw CE names the link where marking happened: the one
 * from the hop before it (or from the sending host, at the first hop). Pure: no datastore, no
 * threads.
 */
final class Congestion {
    /** Ten-thousandths in a whole: the model's shares have four fraction digits. */
    static final long WHOLE = 10_000;

    private Congestion() {
        // utility
    }

    /**
     * One switch's figures for one direction of a session ({@code rdma-flow-table} data-flow); -1
     * where the switch did not report one.
     *
     * @param dscp the DSCP of the last sampled data packet
     * @param priority the priority the DSCP maps to ({@link DscpMap}), -1 until mapped
     * @param ect sampled data packets that entered ECN-capable
     * @param ce of those, the ones that entered CE-marked
     * @param cnp CNPs about the direction's data that entered the switch
     */
    record Figures(int dscp, int priority, long ect, long ce, long cnp) {
        /** The switch reported ECN figures. */
        boolean ecn() {
            return ect >= 0 && ce >= 0;
        }

        /** These figures with the priority {@code map} gives their DSCP. */
        Figures mapped(final DscpMap map) {
            final int mapped = map.priority(dscp);
            return mapped == priority ? this : new Figures(dscp, mapped, ect, ce, cnp);
        }

        /** {@code ce} over {@code ect} in ten-thousandths ({@link #share}), -1 where ect is 0 or unknown. */
        long ceShare() {
            return share(ce, ect);
        }
    }

    /**
     * The link where a direction's data was first marked CE.
     *
     * @param node the node whose egress marked it: the hop before the first that saw CE, or the
     *        sending host; null where unknown
     * @param egressTp its port onto the link, or null where unknown
     * @param nextNode the first hop in path order whose ingress saw CE
     * @param nextIngressTp that hop's ingress port, or null where it did not say
     * @param hopIndex that hop's index on the path
     * @param certain whether the hop before reported ECN-capable data without CE and links to it
     *        (at the first hop: the sending host's port is known), so that marking cannot have
     *        happened further back
     */
    record MarkedAt(@Nullable String node, @Nullable String egressTp, String nextNode, @Nullable String nextIngressTp,
            int hopIndex, boolean certain) {
    }

    /**
     * A direction's congestion, as its path shows it.
     *
     * @param ect the sampled ECN-capable packets at the last hop that reported ECN figures, -1 where none did
     * @param ce the CE-marked ones there, -1 where none did
     * @param cnp the most CNPs any switch saw about the direction's data, -1 where none reported CNPs
     * @param markedAt where marking starts, or null where no hop saw CE
     */
    record Summary(long ect, long ce, long cnp, @Nullable MarkedAt markedAt) {
        /** {@code ce} over {@code ect} in ten-thousandths, -1 where unknown. */
        long ceShare() {
            return share(ce, ect);
        }
    }

    /**
     * {@code part} of {@code whole} in ten-thousandths, rounded half-even, at most a whole; -1
     * where either is unknown (negative) or {@code whole} is 0.
     */
    static long share(final long part, final long whole) {
        if (part < 0 || whole <= 0) {
            return -1;
        }
        if (part >= whole) {
            return WHOLE;
        }
        // part < whole: part * WHOLE overflows only for counts beyond 9.2e14, taken the slow way
        if (part > Long.MAX_VALUE / WHOLE) {
            return java.math.BigDecimal.valueOf(part).multiply(java.math.BigDecimal.valueOf(WHOLE))
                .divide(java.math.BigDecimal.valueOf(whole), 0, java.math.RoundingMode.HALF_EVEN).longValue();
        }
        final long scaled = part * WHOLE;
        final long quotient = scaled / whole;
        final long remainder = scaled % whole;
        // remainder < whole: twice it may pass a long's most only for wholes beyond 4.6e18
        final int half = Long.compare(remainder, whole - remainder);
        return half > 0 || half == 0 && (quotient & 1) == 1 ? quotient + 1 : quotient;
    }

    /**
     * What the hops of {@code direction} say of its congestion, with {@code cnp} (the most CNPs any
     * switch saw about its data, -1 where none reported CNPs); null where no hop has ECN figures
     * and no switch reported CNPs.
     */
    static @Nullable Summary of(final PathAssembler.DirectionResult direction, final long cnp) {
        final List<PathAssembler.HopResult> hops = direction.hops();
        MarkedAt marked = null;
        PathAssembler.HopResult last = null;
        for (int i = 0; i < hops.size(); i++) {
            final var hop = hops.get(i);
            final var figures = hop.figures();
            if (figures == null || !figures.ecn()) {
                continue;
            }
            last = hop;
            if (marked == null && figures.ce() > 0) {
                marked = markedAt(direction, i);
            }
        }
        if (last == null && cnp < 0) {
            return null;
        }
        final var figures = last == null ? null : last.figures();
        return new Summary(figures == null ? -1 : figures.ect(), figures == null ? -1 : figures.ce(), cnp, marked);
    }

    /** The link into hop {@code index}, the first of {@code direction} whose ingress saw CE. */
    private static MarkedAt markedAt(final PathAssembler.DirectionResult direction, final int index) {
        final var hops = direction.hops();
        final var hop = hops.get(index);
        if (index == 0) {
            final var source = direction.source();
            final String tp = source == null ? null : source.tp();
            return new MarkedAt(source == null ? null : source.node(), tp, hop.node(), hop.ingressTp(), 0, tp != null);
        }
        final var before = hops.get(index - 1);
        final var figures = before.figures();
        final boolean certain = before.egressTp() != null && figures != null && figures.ecn() && figures.ect() > 0
            && figures.ce() == 0;
        return new MarkedAt(before.node(), before.egressTp(), hop.node(), hop.ingressTp(), index, certain);
    }
}
