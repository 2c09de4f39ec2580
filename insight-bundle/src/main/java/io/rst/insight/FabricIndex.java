/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.insight;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.eclipse.jdt.annotation.Nullable;

/**
 * The fabric as the detectors and metrics see it: every session's sightings (one per switch that
 * saw it), every path, every agent's status, and per switch how many session updates arrived.
 * Fed by the datastore listeners; owned by the insight worker's one thread, never shared.
 */
final class FabricIndex {
    /** Session ID to the switches that saw it; most sessions are seen by 1 to 5 switches. */
    private final Map<String, Map<String, Sighting>> sessions = new HashMap<>();
    /** Switch to the sessions it saw: what a switch's removal or rewrite touches, without a scan. */
    private final Map<String, Set<String>> sessionsBySwitch = new HashMap<>();
    private final Map<String, PathFacts> paths = new HashMap<>();
    private final Map<String, AgentFacts> agents = new HashMap<>();
    private final Map<String, Long> sessionUpdates = new HashMap<>();
    /** Per switch, seconds from the latest updated session's last CM message to its arrival here. */
    private final Map<String, Double> ingestLag = new HashMap<>();

    /** Records a switch's (new or changed) view of a session; returns the view it replaced. */
    @Nullable Sighting putSighting(final Sighting sighting, final String sessionId, final double now) {
        final var before = sessions.computeIfAbsent(sessionId, id -> new HashMap<>(4)).put(sighting.switchId(),
            sighting);
        if (before == null) {
            sessionsBySwitch.computeIfAbsent(sighting.switchId(), k -> new HashSet<>()).add(sessionId);
        }
        // a switch written whole again repeats sessions that did not change: those are no update
        if (!sighting.equals(before)) {
            sessionUpdates.merge(sighting.switchId(), 1L, Long::sum);
            if (!Double.isNaN(sighting.lastSeen())) {
                ingestLag.put(sighting.switchId(), Math.max(0, now - sighting.lastSeen()));
            }
        }
        return before;
    }

    void removeSighting(final String switchId, final String sessionId) {
        final var bySwitch = sessions.get(sessionId);
        if (bySwitch != null) {
            bySwitch.remove(switchId);
            if (bySwitch.isEmpty()) {
                sessions.remove(sessionId);
            }
        }
        final var ids = sessionsBySwitch.get(switchId);
        if (ids != null) {
            ids.remove(sessionId);
        }
    }

    /** The sessions a switch saw (a copy: the caller may change the index while it walks them). */
    Set<String> sessionsOf(final String switchId) {
        return Set.copyOf(sessionsBySwitch.getOrDefault(switchId, Set.of()));
    }

    /** Forgets everything a switch saw (the switch was removed, or its RFT turned off). */
    void removeSwitch(final String switchId) {
        for (var id : sessionsOf(switchId)) {
            removeSighting(switchId, id);
        }
        sessionsBySwitch.remove(switchId);
        agents.remove(switchId);
        ingestLag.remove(switchId);
    }

    Collection<Sighting> sightings(final String sessionId) {
        final var bySwitch = sessions.get(sessionId);
        return bySwitch == null ? java.util.List.of() : bySwitch.values();
    }

    Map<String, Map<String, Sighting>> sessions() {
        return sessions;
    }

    @Nullable PathFacts putPath(final PathFacts path) {
        return paths.put(path.sessionId(), path);
    }

    void removePath(final String sessionId) {
        paths.remove(sessionId);
    }

    Collection<PathFacts> paths() {
        return paths.values();
    }

    @Nullable AgentFacts putAgent(final AgentFacts agent) {
        return agents.put(agent.switchId(), agent);
    }

    Collection<AgentFacts> agents() {
        return agents.values();
    }

    Map<String, Long> sessionUpdates() {
        return sessionUpdates;
    }

    Map<String, Double> ingestLag() {
        return ingestLag;
    }
}
