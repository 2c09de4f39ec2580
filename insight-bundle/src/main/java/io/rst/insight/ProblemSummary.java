/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.insight;

import io.rst.yang.time.Times;
import java.time.Instant;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.eclipse.jdt.annotation.Nullable;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.yang.types.rev130715.DateAndTime;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.insight.rev261201.DataDirection;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.insight.rev261201.ProblemKind;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.insight.rev261201.Problems;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.insight.rev261201.ProblemsBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.insight.rev261201.problems.KindBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.insight.rev261201.problems.PortBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.insight.rev261201.problems.ProblemBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.insight.rev261201.problems.SwitchBuilder;
import org.opendaylight.yangtools.binding.util.BindingMap;
import org.opendaylight.yangtools.yang.common.Uint16;
import org.opendaylight.yangtools.yang.common.Uint32;
import org.opendaylight.yangtools.yang.common.Uint8;

/**
 * The problems summed fabric-wide, per switch and per port, and the rst-insight:problems
 * container that carries them, so that a UI or a script reads counts instead of scanning sessions.
 */
record ProblemSummary(List<Problem> problems, Map<ProblemKind, Long> byKind,
        Map<String, Map<ProblemKind, Long>> bySwitch, Map<Problem.Place, Map<ProblemKind, Long>> byPort) {

    /** At most this many problem groups go into the datastore; the counts cover them all. */
    static final int MAX_LISTED = 1000;

    static ProblemSummary of(final List<Problem> problems) {
        final var byKind = new EnumMap<ProblemKind, Long>(ProblemKind.class);
        final var bySwitch = new TreeMap<String, Map<ProblemKind, Long>>();
        final var byPort = new HashMap<Problem.Place, Map<ProblemKind, Long>>();
        for (var p : problems) {
            byKind.merge(p.kind(), (long) p.count(), Long::sum);
            final var nodes = new LinkedHashSet<String>();
            for (var place : p.places()) {
                nodes.add(place.node());
                if (place.tp() != null) {
                    byPort.computeIfAbsent(place, k -> new EnumMap<>(ProblemKind.class)).merge(p.kind(),
                        (long) p.count(), Long::sum);
                }
            }
            for (var node : nodes) {
                bySwitch.computeIfAbsent(node, k -> new EnumMap<>(ProblemKind.class)).merge(p.kind(),
                    (long) p.count(), Long::sum);
            }
        }
        return new ProblemSummary(List.copyOf(problems), byKind, bySwitch, byPort);
    }

    long total() {
        return byKind.values().stream().mapToLong(Long::longValue).sum();
    }

    /** The container, without its updated time (so that two summaries compare by content). */
    Problems toContainer(final @Nullable Instant updated) {
        final var builder = new ProblemsBuilder().setTotal(uint32(total()))
            .setKind(byKind.entrySet().stream().map(e -> new KindBuilder().setKind(e.getKey())
                .setCount(uint32(e.getValue())).build()).collect(BindingMap.toOrderedMap()))
            .setSwitch(bySwitch.entrySet().stream().map(e -> new SwitchBuilder().setNodeId(e.getKey())
                .setTotal(uint32(sum(e.getValue())))
                .setKind(e.getValue().entrySet().stream().map(k -> new org.opendaylight.yang.gen.v1.urn.io.rst.rst
                    .insight.rev261201.problems._switch.KindBuilder().setKind(k.getKey()).setCount(uint32(k.getValue()))
                    .build()).collect(BindingMap.toOrderedMap()))
                .build()).collect(BindingMap.toOrderedMap()))
            .setPort(byPort.entrySet().stream().map(e -> new PortBuilder().setNodeId(e.getKey().node())
                .setTpId(e.getKey().tp()).setTotal(uint32(sum(e.getValue())))
                .setKind(e.getValue().entrySet().stream().map(k -> new org.opendaylight.yang.gen.v1.urn.io.rst.rst
                    .insight.rev261201.problems.port.KindBuilder().setKind(k.getKey()).setCount(uint32(k.getValue()))
                    .build()).collect(BindingMap.toOrderedMap()))
                .build()).collect(BindingMap.toOrderedMap()))
            .setProblem(problems.stream().limit(MAX_LISTED).map(ProblemSummary::entry)
                .collect(BindingMap.toOrderedMap()));
        if (updated != null) {
            builder.setUpdated(time(updated.toEpochMilli() / 1000.0));
        }
        return builder.build();
    }

    private static org.opendaylight.yang.gen.v1.urn.io.rst.rst.insight.rev261201.problems.Problem entry(
            final Problem problem) {
        final var builder = new ProblemBuilder().setId(problem.id()).setKind(problem.kind())
            .setSeverity(problem.severity())
            .setLearnedFrom(problem.learnedFrom() == null ? null
                : org.opendaylight.yang.gen.v1.urn.io.rst.rst.insight.rev261201.problems.Problem.LearnedFrom.forName(
                    problem.learnedFrom()))
            .setTitle(problem.title()).setDetail(problem.detail()).setNodeId(problem.node()).setTpId(problem.tp())
            .setReason(problem.reason())
            .setCount(Uint32.valueOf(problem.count())).setSessionId(problem.sessions().isEmpty() ? null
                : new LinkedHashSet<>(problem.sessions()));
        if (problem.direction() != null) {
            builder.setDirection(DataDirection.forName(problem.direction()));
        }
        if (problem.priority() >= 0) {
            builder.setPriority(Uint8.valueOf(problem.priority()));
        }
        if (problem.peer() != null) {
            builder.setPeerNodeId(problem.peer().node()).setPeerTpId(problem.peer().tp());
        }
        if (problem.heldUp() >= 0) {
            builder.setHeldUpSessions(uint32(problem.heldUp()));
        }
        if (problem.rejectReason() >= 0) {
            builder.setRejectReason(Uint16.valueOf(problem.rejectReason()));
        }
        if (problem.requesterIp() != null) {
            builder.setRequesterIp(Sighting.ipAddress(problem.requesterIp()));
        }
        if (problem.responderIp() != null) {
            builder.setResponderIp(Sighting.ipAddress(problem.responderIp()));
        }
        if (!Double.isNaN(problem.firstSeen())) {
            builder.setFirstSeen(time(problem.firstSeen()));
        }
        if (!Double.isNaN(problem.lastSeen())) {
            builder.setLastSeen(time(problem.lastSeen()));
        }
        return builder.build();
    }

    /**
     * RFC 3339 in UTC, to the microsecond, as YANG's date-and-time wants it and as the flow table
     * writes its times; absent for a time outside years 0000-9999 (or NaN).
     */
    static @Nullable DateAndTime time(final double epochSeconds) {
        final String text = Double.isNaN(epochSeconds) ? null : Times.format(Math.round(epochSeconds * 1e6));
        return text == null ? null : new DateAndTime(text);
    }

    private static long sum(final Map<ProblemKind, Long> counts) {
        return counts.values().stream().mapToLong(Long::longValue).sum();
    }

    private static Uint32 uint32(final long value) {
        return Uint32.valueOf(Math.min(value, 0xFFFF_FFFFL));
    }
}
