/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.manager;

import java.util.HashSet;
import java.util.Set;
import org.apache.pekko.cluster.Cluster;
import org.apache.pekko.cluster.Member;
import org.apache.pekko.cluster.MemberStatus;
import org.opendaylight.controller.cluster.ActorSystemProvider;

/**
 * The cluster's members from OpenDaylight's own Pekko cluster: each member's name is its
 * {@code member-N} role (configuration/initial/pekko.conf), the same name the entity ownership
 * service gives owners. A controller alone is a cluster of one ({@code member-1}).
 */
final class PekkoMembers implements ClusterMembers {
    private final Cluster cluster;
    private final String self;

    PekkoMembers(final ActorSystemProvider actors) {
        cluster = Cluster.get(actors.getActorSystem());
        self = name(cluster.selfMember());
    }

    private static String name(final Member member) {
        for (var role : member.getRoles()) {
            if (role.startsWith("member-")) {
                return role;
            }
        }
        return member.address().toString();
    }

    @Override
    public String self() {
        return self;
    }

    @Override
    public Set<String> reachable() {
        // the cluster's state is a snapshot Pekko keeps current: reading it never blocks
        final var state = cluster.state();
        final var unreachable = state.getUnreachable();
        final Set<String> names = new HashSet<>();
        for (var member : state.getMembers()) {
            final var status = member.status();
            if ((status == MemberStatus.up() || status == MemberStatus.weaklyUp()) && !unreachable.contains(member)) {
                names.add(name(member));
            }
        }
        names.add(self);
        return names;
    }
}
