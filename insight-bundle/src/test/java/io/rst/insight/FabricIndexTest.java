/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.insight;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.CmMessageType;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.SessionState;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.insight.rev261201.ProblemKind;

/**
 * What the index keeps as sightings and paths come and go (the sessions that may have failed,
 * the states per switch, the set-ups by endpoints, the grouped paths), which the detectors and
 * the metrics read instead of walking every session: after thousands of random changes, with
 * detections in between (whose findings the index keeps until their set-ups change), it holds
 * what a walk of its sessions and paths finds, and the detectors find the same problems in it as
 * in an index fed only the final sightings and paths.
 */
public class FabricIndexTest {
    private static final double NOW = 100_000;
    private static final String[] SWITCHES = {"leaf1", "leaf2", "leaf3", "spine1", "spine2", "spine3"};
    private static final String[] HOSTS = {"10.0.1.2", "10.0.2.2", "10.0.3.2"};
    private static final String[] SERVICES = {"0x1061144", "0x1061d2f", null};
    private static final SessionState[] STATES = SessionState.values();

    @Test
    public void afterRandomChangesTheIndexHoldsWhatAWalkFindsAndTheSameProblemsAsAFreshOne() {
        for (long seed = 1; seed <= 5; seed++) {
            check(seed);
        }
    }

    private static void check(final long seed) {
        final var rnd = new Random(seed);
        final var index = new FabricIndex();
        final var detector = new ProblemDetector(ProblemDetector.Options.DEFAULTS);
        final int sessions = 300;
        int failedOnce = 0;
        // what the index must hold: session -> switch -> its sighting
        final Map<String, Map<String, Sighting>> model = new HashMap<>();
        for (int op = 1; op <= 4000; op++) {
            final String id = "s" + rnd.nextInt(sessions);
            final int what = rnd.nextInt(100);
            if (what < 60) {
                final var sighting = sighting(rnd, SWITCHES[rnd.nextInt(SWITCHES.length)], id);
                final var before = model.computeIfAbsent(id, k -> new HashMap<>()).put(sighting.switchId(), sighting);
                assertEquals(before, index.putSighting(sighting, id, NOW));
            } else if (what < 75) {
                final String node = SWITCHES[rnd.nextInt(SWITCHES.length)];
                index.removeSighting(node, id);
                final var bySwitch = model.get(id);
                if (bySwitch != null && bySwitch.remove(node) != null && bySwitch.isEmpty()) {
                    model.remove(id);
                }
            } else if (what < 90) {
                index.putPath(path(rnd, id));
            } else if (what < 97) {
                index.removePath(id);
            } else if (what < 98) {
                final String node = SWITCHES[rnd.nextInt(SWITCHES.length)];
                index.removeSwitch(node);
                model.values().forEach(bySwitch -> bySwitch.remove(node));
                model.values().removeIf(Map::isEmpty);
            } else {
                // a detection in between: its findings stand in the index until their set-ups change
                detector.detect(index, NOW);
            }
            if (op % 20 == 0) {
                assertEquals(model.size(), index.sessionCount());
                for (int i = 0; i < sessions; i++) {
                    final var bySwitch = model.getOrDefault("s" + i, Map.of());
                    assertEquals(new HashSet<>(bySwitch.values()), new HashSet<>(index.sightings("s" + i)));
                    assertEquals(bySwitch.size(), index.sightings("s" + i).size());
                    assertEquals(bySwitch.keySet(), index.seenBy("s" + i));
                }
                for (var node : SWITCHES) {
                    final Set<String> saw = new HashSet<>();
                    model.forEach((session, bySwitch) -> {
                        if (bySwitch.containsKey(node)) {
                            saw.add(session);
                        }
                    });
                    assertEquals(saw, index.sessionsOf(node));
                }
                failedOnce += compare(seed, index, detector, sessions);
            }
        }
        assertTrue(failedOnce > 0, "seed " + seed + ": some sessions failed");
    }

    /** Checks the index against a walk of its sessions and paths; returns how many sessions failed. */
    private static int compare(final long seed, final FabricIndex index, final ProblemDetector detector,
            final int sessions) {
        // what a walk of every session and path finds
        final Map<String, Map<String, Long>> states = new TreeMap<>();
        final Map<FabricIndex.Ends, List<FabricIndex.SetUp>> setUps = new HashMap<>();
        final var fresh = new FabricIndex();
        int failed = 0;
        for (int i = 0; i < sessions; i++) {
            final String id = "s" + i;
            final var sightings = index.sightings(id);
            for (var s : sightings) {
                if (s.state() != null) {
                    states.computeIfAbsent(s.switchId(), k -> new TreeMap<>()).merge(s.state().getName(), 1L,
                        Long::sum);
                }
                fresh.putSighting(s, id, NOW);
            }
            if (detector.verdict(sightings, NOW) != null) {
                failed++;
                assertTrue(index.troubled().contains(id), id + " failed but is not among the troubled");
            }
            final var setUp = FabricIndex.SetUp.of(id, sightings);
            if (setUp != null) {
                setUps.computeIfAbsent(setUp.ends(), k -> new ArrayList<>()).add(setUp);
            }
        }
        for (var id : index.troubled()) {
            assertTrue(index.sightings(id).stream().anyMatch(s -> s.state() == SessionState.REJECTED
                    || s.state() == SessionState.TIMEDOUT || s.state() == SessionState.DISCONNECTING
                    || s.saw(CmMessageType.REJ)),
                id + " is among the troubled but no switch saw it rejected, timed out or disconnecting");
        }
        final Map<String, Map<String, Long>> kept = new TreeMap<>();
        index.statesBySwitch().forEach((node, byState) -> kept.put(node, new TreeMap<>(byState)));
        assertEquals(states, kept);
        assertEquals(setUps.keySet(), index.setUps().keySet());
        setUps.forEach((ends, list) -> {
            list.sort(FabricIndex.SetUp.ORDER);
            assertEquals(list, List.copyOf(index.setUps().get(ends).inOrder));
        });
        long incomplete = 0;
        long asymmetric = 0;
        for (var path : index.paths()) {
            incomplete += path.complete() ? 0 : 1;
            asymmetric += path.asymmetric() ? 1 : 0;
            assertEquals(path.asymmetric(), index.asymmetricByRoutes().getOrDefault(FabricIndex.routes(path),
                new java.util.TreeSet<>()).contains(path.sessionId()));
            assertEquals(!path.dataApart().isEmpty(), index.dataApartByWhere().getOrDefault(FabricIndex.where(path),
                new java.util.TreeSet<>()).contains(path.sessionId()));
            fresh.putPath(path);
        }
        assertEquals(incomplete, index.incompletePaths());
        assertEquals(asymmetric, index.asymmetricPaths());
        assertEquals(asymmetric, index.asymmetricByRoutes().values().stream().mapToInt(java.util.Set::size).sum());

        final var problems = detector.detect(index, NOW);
        assertEquals(new ProblemDetector(ProblemDetector.Options.DEFAULTS).detect(fresh, NOW),
            problems, "seed " + seed);
        if (index.sessionCount() > sessions / 2 && index.pathCount() > sessions / 2) {
            for (var kind : List.of(ProblemKind.Rejected, ProblemKind.Flapping, ProblemKind.AsymmetricPath,
                    ProblemKind.DataPathDiffers)) {
                assertTrue(problems.stream().anyMatch(p -> p.kind() == kind),
                    "seed " + seed + ": a " + kind + " problem");
            }
        }
        return failed;
    }

    @Test
    public void aSessionNoLongerTroubledLeavesTheTroubledAndItsStateCounts() {
        final var index = new FabricIndex();
        index.putSighting(sighting("leaf1", SessionState.REJECTED, true), "x", NOW);
        index.putSighting(sighting("leaf2", SessionState.ESTABLISHED, false), "x", NOW);
        assertTrue(index.troubled().contains("x"));
        assertEquals(Map.of("REJECTED", 1L), index.statesBySwitch().get("leaf1"));
        index.removeSighting("leaf1", "x");
        assertFalse(index.troubled().contains("x"));
        assertEquals(Map.of("leaf2", Map.of("ESTABLISHED", 1L)), index.statesBySwitch());
        index.removeSwitch("leaf2");
        assertTrue(index.statesBySwitch().isEmpty());
        assertTrue(index.setUps().isEmpty());
        assertEquals(0, index.sessionCount());
    }

    @Test
    public void aSessionsSightingsFollowEachPutReplacementAndRemovalAndASwitchsRemovalTakesOnlyItsOwn() {
        final var index = new FabricIndex();
        final var leaf1 = sighting("leaf1", SessionState.REQSENT, false);
        final var spine1 = sighting("spine1", SessionState.REQSENT, false);
        final var leaf2 = sighting("leaf2", SessionState.REQSENT, false);
        assertNull(index.putSighting(leaf1, "x", NOW));
        assertNull(index.putSighting(spine1, "x", NOW));
        assertNull(index.putSighting(leaf2, "x", NOW));
        final var yLeaf1 = sighting("leaf1", SessionState.ESTABLISHED, false);
        final var ySpine1 = sighting("spine1", SessionState.ESTABLISHED, false);
        final var zLeaf2 = sighting("leaf2", SessionState.ESTABLISHED, false);
        index.putSighting(yLeaf1, "y", NOW);
        index.putSighting(ySpine1, "y", NOW);
        index.putSighting(zLeaf2, "z", NOW);
        assertEquals(3, index.sessionCount());
        assertEquals(Set.of(leaf1, spine1, leaf2), Set.copyOf(index.sightings("x")));
        assertEquals(3, index.sightings("x").size());
        assertEquals(Set.of("leaf1", "spine1", "leaf2"), index.seenBy("x"));
        assertEquals(Set.of("x", "y"), index.sessionsOf("leaf1"));
        assertEquals(Set.of("x", "y"), index.sessionsOf("spine1"));
        assertEquals(Set.of("x", "z"), index.sessionsOf("leaf2"));
        assertEquals(Set.of(), index.sessionsOf("spine9"));
        final var view = index.sightings("x");
        assertThrows(UnsupportedOperationException.class, () -> view.add(leaf1));
        assertThrows(UnsupportedOperationException.class, () -> view.remove(leaf1));

        // spine1's view of x replaced: the one it replaced returned, the others kept
        final var rejected = sighting("spine1", SessionState.REJECTED, true);
        assertEquals(spine1, index.putSighting(rejected, "x", NOW));
        assertEquals(Set.of(leaf1, rejected, leaf2), Set.copyOf(index.sightings("x")));
        assertEquals(3, index.sightings("x").size());
        assertEquals(Set.of("leaf1", "spine1", "leaf2"), index.seenBy("x"));
        assertEquals(Set.of(yLeaf1, ySpine1), Set.copyOf(index.sightings("y")));
        assertTrue(index.troubled().contains("x"));
        assertEquals(Map.of("REJECTED", 1L, "ESTABLISHED", 1L), index.statesBySwitch().get("spine1"));
        // the same view again is no update
        final long updates = index.sessionUpdates().get("spine1");
        assertEquals(rejected, index.putSighting(sighting("spine1", SessionState.REJECTED, true), "x", NOW));
        assertEquals(updates, (long) index.sessionUpdates().get("spine1"));

        // leaf1's view of x removed; a removal of what is not there changes nothing
        final var seenBefore = index.seenBy("x");
        index.removeSighting("leaf1", "x");
        index.removeSighting("leaf1", "x");
        index.removeSighting("spine9", "x");
        index.removeSighting("leaf1", "nothing");
        assertEquals(Set.of("leaf1", "spine1", "leaf2"), seenBefore);
        assertEquals(Set.of(rejected, leaf2), Set.copyOf(index.sightings("x")));
        assertEquals(2, index.sightings("x").size());
        assertEquals(Set.of("spine1", "leaf2"), index.seenBy("x"));
        assertEquals(Set.of("y"), index.sessionsOf("leaf1"));
        assertEquals(3, index.sessionCount());

        // spine1 removed: its views of x and y go, nothing else
        index.removeSwitch("spine1");
        assertEquals(List.of(leaf2), List.copyOf(index.sightings("x")));
        assertEquals(List.of(yLeaf1), List.copyOf(index.sightings("y")));
        assertEquals(List.of(zLeaf2), List.copyOf(index.sightings("z")));
        assertEquals(Set.of(), index.sessionsOf("spine1"));
        assertFalse(index.statesBySwitch().containsKey("spine1"));
        assertFalse(index.troubled().contains("x"));
        assertEquals(3, index.sessionCount());

        // x's last view removed: x is gone
        index.removeSighting("leaf2", "x");
        assertTrue(index.sightings("x").isEmpty());
        assertEquals(Set.of(), index.seenBy("x"));
        assertEquals(Set.of("z"), index.sessionsOf("leaf2"));
        assertEquals(2, index.sessionCount());
        // and comes back as a new session
        index.putSighting(leaf2, "x", NOW);
        assertEquals(List.of(leaf2), List.copyOf(index.sightings("x")));
        assertEquals(3, index.sessionCount());
    }

    private static Sighting sighting(final String node, final SessionState state, final boolean rej) {
        final var m = new Sighting.Messages();
        m.add(CmMessageType.REQ, "swp1", NOW - 10);
        if (rej) {
            m.add(CmMessageType.REJ, "swp2", NOW - 9);
        }
        return new Sighting(node, state, HOSTS[0], HOSTS[1], SERVICES[0], true, rej ? 28 : -1, NOW - 10, NOW - 9, m);
    }

    private static Sighting sighting(final Random rnd, final String node, final String id) {
        final var state = rnd.nextInt(4) == 0 ? null : STATES[rnd.nextInt(STATES.length)];
        // the same session seen alike by its switches, mostly: its ends come from its ID
        final int n = Integer.parseInt(id.substring(1));
        final String requester = HOSTS[n % HOSTS.length];
        final String responder = HOSTS[(n / 3 + 1) % HOSTS.length];
        final double first = NOW - 600 + n + rnd.nextInt(3);
        final var m = new Sighting.Messages();
        for (var type : CmMessageType.values()) {
            if (rnd.nextInt(3) == 0) {
                m.add(type, rnd.nextBoolean() ? "swp" + rnd.nextInt(4) : null, first + rnd.nextInt(5));
            }
        }
        return new Sighting(node, state, requester, responder, SERVICES[n % SERVICES.length], rnd.nextInt(8) != 0,
            (m.told & Sighting.Told.REJ.bit()) == 0 ? -1 : 1 + rnd.nextInt(3), first, first + rnd.nextInt(100), m);
    }

    private static PathFacts path(final Random rnd, final String id) {
        final var forward = route(rnd);
        final var reverse = rnd.nextBoolean() ? forward.reversed() : route(rnd);
        final List<String> apart = rnd.nextInt(3) == 0 ? List.of("forward data enters " + forward.get(0) + " on swp"
            + rnd.nextInt(3) + ", its CM on swp4") : List.of();
        return new PathFacts(id, null, null, forward, reverse, rnd.nextBoolean(), rnd.nextInt(4) != 0,
            !reverse.equals(forward.reversed()), apart);
    }

    private static List<String> route(final Random rnd) {
        final var out = new ArrayList<String>();
        out.add("leaf" + (1 + rnd.nextInt(3)));
        if (rnd.nextBoolean()) {
            out.add("spine" + (1 + rnd.nextInt(3)));
            out.add("leaf" + (1 + rnd.nextInt(3)));
        }
        return out;
    }
}
