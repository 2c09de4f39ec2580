/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.manager;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.jdt.annotation.Nullable;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.yang.types.rev130715.DateAndTime;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.agent.status.Pfc;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.agent.status.PfcBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.agent.status.PfcKey;
import org.opendaylight.yang.gen.v1.urn.tbd.params.xml.ns.yang.network.topology.rev131021.TpId;
import org.opendaylight.yangtools.yang.common.Decimal64;
import org.opendaylight.yangtools.yang.common.Uint32;
import org.opendaylight.yangtools.yang.common.Uint64;
import org.opendaylight.yangtools.yang.common.Uint8;

/**
 * A switch's PFC figures per interface and priority as its status shows them ({@code pfc} of
 * {@code agent-status}): the agent's, and how much of the time between the controller's last two
 * probes each priority was paused ({@code paused-share}): the growth of the agent's
 * {@code paused_us} over that time. The agent's counts run from its start, so a share needs two
 * probes; an interface and priority the previous probe did not list grew from 0, and a
 * {@code paused_us} lower than before (the agent restarted) has no share until the next probe.
 * Confined to the status tracker's thread.
 */
final class PfcFigures {
    /** {@code paused-share}'s fraction digits, and one whole in them. */
    static final int SHARE_DIGITS = 4;
    private static final long WHOLE = 10_000;

    /**
     * One entry as the status shows it.
     *
     * @param pfc the agent's figures
     * @param share the share of the last probe interval it was paused, in 1/10,000, or -1 where unknown
     */
    record Row(AgentProbe.Pfc pfc, long share) {
    }

    // paused_us by "priority interface" at the previous probe, and when that was (-1: none)
    private Map<String, Long> previous = Map.of();
    private long previousMillis = -1;
    private List<Row> rows = List.of();

    /** What the agent's status said at {@code nowMillis} (null: it reports no PFC figures). */
    void update(final AgentProbe.@Nullable Congestion congestion, final long nowMillis) {
        if (congestion == null) {
            previous = Map.of();
            previousMillis = -1;
            rows = List.of();
            return;
        }
        final long intervalMillis = previousMillis < 0 ? -1 : nowMillis - previousMillis;
        if (previousMillis >= 0 && intervalMillis <= 0) {
            // two answers within a millisecond: no interval to share, the next probe measures from the earlier
            final List<Row> same = new ArrayList<>(congestion.pfc().size());
            final Map<String, Long> shares = new HashMap<>();
            for (var row : rows) {
                shares.put(key(row.pfc()), row.share());
            }
            for (var pfc : congestion.pfc()) {
                same.add(new Row(pfc, shares.getOrDefault(key(pfc), -1L)));
            }
            rows = List.copyOf(same);
            return;
        }
        final List<Row> now = new ArrayList<>(congestion.pfc().size());
        final Map<String, Long> paused = new HashMap<>();
        for (var pfc : congestion.pfc()) {
            final String key = key(pfc);
            paused.put(key, pfc.pausedUs());
            now.add(new Row(pfc, intervalMillis < 0 ? -1 : share(previous.getOrDefault(key, 0L), pfc.pausedUs(),
                intervalMillis)));
        }
        previous = paused;
        previousMillis = nowMillis;
        rows = List.copyOf(now);
    }

    /** The entries as the last update left them, in the agent's order. */
    List<Row> rows() {
        return rows;
    }

    /**
     * The share of {@code intervalMillis} that {@code pausedUs} grew by from {@code beforeUs}, in
     * 1/10,000 rounded half-even and at most a whole; -1 where either is unknown or it went down.
     */
    static long share(final long beforeUs, final long pausedUs, final long intervalMillis) {
        if (beforeUs < 0 || pausedUs < 0 || pausedUs < beforeUs || intervalMillis <= 0) {
            return -1;
        }
        final long grownUs = pausedUs - beforeUs;
        final long intervalUs = intervalMillis * 1000;
        if (grownUs >= intervalUs) {
            return WHOLE;
        }
        // grownUs < intervalUs: the product fits a long for any interval below 29 years
        final long scaled = grownUs * WHOLE;
        final long quotient = scaled / intervalUs;
        final long twice = (scaled % intervalUs) * 2;
        return twice > intervalUs || twice == intervalUs && (quotient & 1) == 1 ? quotient + 1 : quotient;
    }

    /** The rows as the model's list, their interfaces mapped to tp-ids by {@code portMap}. */
    static List<Pfc> toStatus(final List<Row> rows, final Map<String, String> portMap) {
        final List<Pfc> out = new ArrayList<>(rows.size());
        for (var row : rows) {
            final var pfc = row.pfc();
            final var b = new PfcBuilder().withKey(new PfcKey(pfc.iface(), Uint8.valueOf(pfc.priority())))
                .setTpId(new TpId(portMap.getOrDefault(pfc.iface(), pfc.iface())))
                .setFrames(counter(pfc.frames())).setXon(counter(pfc.xon())).setQuanta(counter(pfc.quanta()))
                .setPausedUs(counter(pfc.pausedUs())).setPaused(pfc.paused()).setLast(time(pfc.last()))
                .setLinkSpeedMbps(pfc.linkSpeedMbps() < 0 || pfc.linkSpeedMbps() > 0xFFFF_FFFFL ? null
                    : Uint32.valueOf(pfc.linkSpeedMbps()));
            if (row.share() >= 0) {
                b.setPausedShare(Decimal64.of(SHARE_DIGITS, row.share()));
            }
            out.add(b.build());
        }
        return out;
    }

    private static String key(final AgentProbe.Pfc pfc) {
        return pfc.priority() + " " + pfc.iface();
    }

    private static @Nullable Uint64 counter(final long value) {
        return value < 0 ? null : Uint64.valueOf(value);
    }

    /** The agent's time where the model takes it (yang:date-and-time), else absent. */
    private static @Nullable DateAndTime time(final @Nullable String text) {
        if (text == null) {
            return null;
        }
        try {
            return new DateAndTime(text);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
