/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.manager;

import com.google.common.hash.Hashing;
import edu.umd.cs.findbugs.annotations.SuppressFBWarnings;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.eclipse.jdt.annotation.Nullable;
import org.opendaylight.mdsal.eos.binding.api.Entity;
import org.opendaylight.mdsal.eos.binding.api.EntityOwnershipService;
import org.opendaylight.mdsal.eos.common.api.CandidateAlreadyRegisteredException;
import org.opendaylight.mdsal.eos.common.api.EntityOwnershipStateChange;
import org.opendaylight.yang.gen.v1.urn.opendaylight.params.xml.ns.yang.mdsal.core.general.entity.rev150930.EntityKey;
import org.opendaylight.yangtools.concepts.Registration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The switches' agents divided among the members of a cluster, the OpenDaylight way: one entity of
 * the ownership service per switch ({@value #AGENT_ENTITY}, named after its node-id), and a member
 * follows a switch exactly while the service names it the owner. The service guarantees one owner
 * at a time and moves an entity off a member that becomes unreachable, but it does not spread
 * entities: its owner supervisor gives an entity to the first candidate that registers, and on a
 * loss to the first active candidate in a hash set's order (controller 12.0.3,
 * {@code OwnerSupervisor.assignOwnerFor}), so with every member a candidate of every switch one
 * member would follow them all.
 *
 * <p>So a member is a candidate only for the switches it is the preferred member of: by rendezvous
 * hashing of the node-id over the members that are up, reachable (Pekko's view) and run RST (their
 * {@value #MEMBER_ENTITY} entity has an owner). Every member computes the same preference from the
 * same views, so each switch has one candidate, and every member about a third of the switches.
 * When a member dies, the others see it unreachable, the preference moves its switches to them
 * (spread, not all to one), their candidacies arrive and the service gives them the entities; when
 * it comes back, the switches it is preferred for again leave their interim owner (which withdraws
 * its candidacy and stops following) and go back to it. While views differ for a moment two
 * members may both be candidates: the service still names one owner.
 */
@SuppressFBWarnings(value = "NP_NONNULL_FIELD_NOT_INITIALIZED_IN_CONSTRUCTOR",
    justification = "SpotBugs reads no TYPE_USE @Nullable on fields: these fields are @Nullable")
final class ClusterOwnership implements SwitchOwnership {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterOwnership.class);
    static final String AGENT_ENTITY = "rst-rft-agent";
    static final String MEMBER_ENTITY = "rst-rft-member";
    /** How often the cluster's membership is looked at (a read of Pekko's state, no messages). */
    static final Duration MEMBERSHIP_POLL = Duration.ofSeconds(1);

    private final EntityOwnershipService eos;
    private final ClusterMembers members;
    private final ScheduledExecutorService executor;
    private final String self;

    // the tracker's thread only
    private @Nullable Callbacks callbacks;
    private final Set<String> switches = new HashSet<>();
    private final Map<String, Registration> candidacies = new HashMap<>();
    private final Set<String> owned = new HashSet<>();
    /** Members whose RFT manager runs: their member entity has an owner. */
    private final Set<String> running = new HashSet<>();
    private Set<String> eligible = Set.of();
    private @Nullable Registration memberCandidacy;
    private @Nullable Registration memberListener;
    private @Nullable Registration agentListener;
    private @Nullable ScheduledFuture<?> poll;
    private boolean closed;

    ClusterOwnership(final EntityOwnershipService eos, final ClusterMembers members,
            final ScheduledExecutorService executor) {
        this.eos = eos;
        this.members = members;
        this.executor = executor;
        this.self = members.self();
    }

    @Override
    public void start(final Callbacks target) {
        callbacks = target;
        running.add(self);
        agentListener = eos.registerListener(AGENT_ENTITY, this::agentChanged);
        memberListener = eos.registerListener(MEMBER_ENTITY, this::memberChanged);
        try {
            memberCandidacy = eos.registerCandidate(new Entity(MEMBER_ENTITY, self));
        } catch (CandidateAlreadyRegisteredException e) {
            // another RFT manager of this member is still closing: the entity is held all the same
            LOG.warn("RFT: this member's entity {} is already registered", self, e);
        }
        eligible = eligibleNow();
        poll = executor.scheduleWithFixedDelay(this::membership, MEMBERSHIP_POLL.toMillis(),
            MEMBERSHIP_POLL.toMillis(), TimeUnit.MILLISECONDS);
        LOG.info("RFT: {} follows the switches it is preferred for among {}", self, eligible);
    }

    /** The member a switch prefers among {@code candidates}: the highest rendezvous hash. */
    static String preferred(final String nodeId, final Set<String> candidates) {
        return candidates.stream().max(Comparator.comparingLong((String member) -> Hashing.murmur3_128()
            .hashString(nodeId + '\n' + member, StandardCharsets.UTF_8).asLong())
            .thenComparing(Comparator.reverseOrder())).orElseThrow();
    }

    private Set<String> eligibleNow() {
        final Set<String> now = new TreeSet<>(members.reachable());
        now.retainAll(running);
        now.add(self);
        return now;
    }

    private void membership() {
        if (closed) {
            return;
        }
        final var now = eligibleNow();
        if (!now.equals(eligible)) {
            LOG.info("RFT: members following agents now {} (were {})", now, eligible);
            eligible = now;
            List.copyOf(switches).forEach(this::decide);
        }
    }

    @Override
    public void configured(final String nodeId) {
        if (switches.add(nodeId)) {
            decide(nodeId);
        }
    }

    @Override
    public boolean prefers(final String nodeId) {
        return !closed && self.equals(preferred(nodeId, eligible));
    }

    @Override
    public void removed(final String nodeId) {
        switches.remove(nodeId);
        withdraw(nodeId);
    }

    private void decide(final String nodeId) {
        if (closed || !switches.contains(nodeId)) {
            return;
        }
        if (self.equals(preferred(nodeId, eligible))) {
            if (!candidacies.containsKey(nodeId)) {
                try {
                    candidacies.put(nodeId, eos.registerCandidate(new Entity(AGENT_ENTITY, nodeId)));
                } catch (CandidateAlreadyRegisteredException e) {
                    LOG.warn("RFT {}: already a candidate", nodeId, e);
                }
            }
        } else {
            withdraw(nodeId);
        }
    }

    /** No longer a candidate: stops following at once, before another member is named the owner. */
    private void withdraw(final String nodeId) {
        final var candidacy = candidacies.remove(nodeId);
        if (candidacy != null) {
            candidacy.close();
        }
        if (owned.remove(nodeId)) {
            LOG.info("RFT {}: no longer followed by {}", nodeId, self);
            callback().released(nodeId);
        }
    }

    private Callbacks callback() {
        final var target = callbacks;
        if (target == null) {
            throw new IllegalStateException("not started");
        }
        return target;
    }

    private static @Nullable String name(final Entity entity) {
        final EntityKey key = entity.getIdentifier().firstKeyOf(
            org.opendaylight.yang.gen.v1.urn.opendaylight.params.xml.ns.yang.mdsal.core.general.entity.rev150930
                .Entity.class);
        return key == null ? null : key.getName();
    }

    private void onExecutor(final Runnable task) {
        try {
            executor.execute(task);
        } catch (RejectedExecutionException e) {
            LOG.debug("RFT: ownership change after shutdown", e);
        }
    }

    // the ownership service's thread: handed to the tracker's
    private void agentChanged(final Entity entity, final EntityOwnershipStateChange change, final boolean inJeopardy) {
        final var nodeId = name(entity);
        if (nodeId != null) {
            onExecutor(() -> ownership(nodeId, change));
        }
    }

    private void ownership(final String nodeId, final EntityOwnershipStateChange change) {
        if (closed) {
            return;
        }
        if (change.isOwner()) {
            if (candidacies.containsKey(nodeId) && owned.add(nodeId)) {
                LOG.info("RFT {}: followed by {}", nodeId, self);
                callback().acquired(nodeId);
            }
        } else if (owned.remove(nodeId)) {
            LOG.info("RFT {}: the ownership service moved it off {} ({})", nodeId, self, change);
            callback().released(nodeId);
        }
    }

    private void memberChanged(final Entity entity, final EntityOwnershipStateChange change,
            final boolean inJeopardy) {
        final var member = name(entity);
        if (member != null) {
            onExecutor(() -> {
                if (change.hasOwner() || member.equals(self)) {
                    running.add(member);
                } else {
                    running.remove(member);
                }
                membership();
            });
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        final var scheduled = poll;
        if (scheduled != null) {
            scheduled.cancel(false);
        }
        for (var registration : new Registration[] { agentListener, memberListener }) {
            if (registration != null) {
                registration.close();
            }
        }
        candidacies.values().forEach(Registration::close);
        candidacies.clear();
        final var member = memberCandidacy;
        if (member != null) {
            member.close();
        }
    }
}
