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
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.opendaylight.mdsal.eos.binding.api.Entity;
import org.opendaylight.mdsal.eos.binding.api.EntityOwnershipListener;
import org.opendaylight.mdsal.eos.binding.api.EntityOwnershipService;
import org.opendaylight.mdsal.eos.common.api.CandidateAlreadyRegisteredException;
import org.opendaylight.mdsal.eos.common.api.EntityOwnershipState;
import org.opendaylight.mdsal.eos.common.api.EntityOwnershipStateChange;
import org.opendaylight.yangtools.concepts.Registration;

/**
 * A cluster's entity ownership service for tests, with the owner supervisor's rules of
 * controller 12.0.3 ({@code OwnerSupervisor}): an entity without an owner goes to the first active
 * candidate (here: the first registered); an owner that unregisters, or whose member becomes
 * unreachable, is replaced by the first other active candidate, except that an unreachable sole
 * candidate keeps it; a member that starts again drops the candidacies of its previous life. No
 * OpenDaylight cluster runs in a unit test (the in-memory broker has no ownership service), so this
 * stands in for it; the real one is exercised by ./rst cluster check.
 */
final class OwnershipArbiter {
    private final Map<Entity, LinkedHashSet<String>> candidates = new HashMap<>();
    private final Map<Entity, String> owners = new HashMap<>();
    private final Set<String> active = new HashSet<>();
    private final Map<String, List<Map.Entry<String, EntityOwnershipListener>>> listeners = new HashMap<>();

    /** The ownership service as member {@code member} sees it; the member becomes active. */
    synchronized EntityOwnershipService member(final String member) {
        active.add(member);
        // a member that starts again: the candidacies of its previous life go
        for (var entry : candidates.entrySet()) {
            if (entry.getValue().remove(member) && member.equals(owners.get(entry.getKey()))) {
                assign(entry.getKey());
            }
        }
        listeners.remove(member);
        candidates.keySet().forEach(this::assignIfMissing);
        return new EntityOwnershipService() {
            @Override
            public Registration registerCandidate(final Entity entity) throws CandidateAlreadyRegisteredException {
                return register(member, entity);
            }

            @Override
            public Registration registerListener(final String entityType, final EntityOwnershipListener listener) {
                return listen(member, entityType, listener);
            }

            @Override
            public Optional<EntityOwnershipState> getOwnershipState(final Entity entity) {
                throw new UnsupportedOperationException();
            }

            @Override
            public boolean isCandidateRegistered(final Entity entity) {
                synchronized (OwnershipArbiter.this) {
                    return candidates.getOrDefault(entity, new LinkedHashSet<>()).contains(member);
                }
            }
        };
    }

    /** The member is unreachable (killed): its entities move where another candidate is active. */
    synchronized void down(final String member) {
        active.remove(member);
        listeners.remove(member);
        for (var entry : Map.copyOf(owners).entrySet()) {
            if (member.equals(entry.getValue()) && candidates.get(entry.getKey()).size() > 1) {
                assign(entry.getKey());
            }
        }
    }

    /** Who owns an entity now, or null. */
    synchronized String owner(final String type, final String name) {
        return owners.get(new Entity(type, name));
    }

    private synchronized Registration register(final String member, final Entity entity) {
        final var set = candidates.computeIfAbsent(entity, e -> new LinkedHashSet<>());
        if (!set.add(member)) {
            // the service throws CandidateAlreadyRegisteredException; no caller of ours may get here
            throw new IllegalStateException(member + " is already a candidate for " + entity);
        }
        assignIfMissing(entity);
        return () -> unregister(member, entity);
    }

    private synchronized void unregister(final String member, final Entity entity) {
        final var set = candidates.get(entity);
        if (set != null && set.remove(member) && member.equals(owners.get(entity))) {
            assign(entity);
        }
    }

    private void assignIfMissing(final Entity entity) {
        final var owner = owners.get(entity);
        if (owner == null || !active.contains(owner)) {
            assign(entity);
        }
    }

    private void assign(final Entity entity) {
        final String before = owners.get(entity);
        String after = null;
        for (var candidate : candidates.getOrDefault(entity, new LinkedHashSet<>())) {
            if (active.contains(candidate)) {
                after = candidate;
                break;
            }
        }
        if (after == null) {
            owners.remove(entity);
        } else {
            owners.put(entity, after);
        }
        if (before == null ? after != null : !before.equals(after)) {
            notify(entity, before, after);
        }
    }

    private void notify(final Entity entity, final String before, final String after) {
        for (var entry : listeners.entrySet()) {
            final var member = entry.getKey();
            final var change = EntityOwnershipStateChange.from(member.equals(before), member.equals(after),
                after != null);
            for (var listener : List.copyOf(entry.getValue())) {
                if (listener.getKey().equals(entity.getType())) {
                    listener.getValue().ownershipChanged(entity, change, false);
                }
            }
        }
    }

    private synchronized Registration listen(final String member, final String type,
            final EntityOwnershipListener listener) {
        final var entry = Map.entry(type, listener);
        listeners.computeIfAbsent(member, m -> new ArrayList<>()).add(entry);
        // the current owners first, as the service's initial sync does
        owners.forEach((entity, owner) -> {
            if (entity.getType().equals(type)) {
                listener.ownershipChanged(entity, EntityOwnershipStateChange.from(false, member.equals(owner), true),
                    false);
            }
        });
        return () -> {
            synchronized (OwnershipArbiter.this) {
                final var list = listeners.get(member);
                if (list != null) {
                    list.remove(entry);
                }
            }
        };
    }
}
