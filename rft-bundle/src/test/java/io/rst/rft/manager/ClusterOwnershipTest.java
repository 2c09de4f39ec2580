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
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The agents divided among three members: each switch followed by exactly one member (the one the
 * ownership service names), about a third each; a member killed gives its switches to both others,
 * and takes them back when it starts again; a switch removed is followed by nobody.
 */
public class ClusterOwnershipTest {
    private static final List<String> SWITCHES = IntStream.range(0, 30).mapToObj(i -> "leaf" + i).toList();

    private final OwnershipArbiter arbiter = new OwnershipArbiter();
    /** Pekko's view: the members up and reachable (the same from every member here). */
    private final Set<String> up = ConcurrentHashMap.newKeySet();
    private final Map<String, Member> members = new HashMap<>();

    /** One member: its ownership on its own thread, and what it follows. */
    private final class Member implements SwitchOwnership.Callbacks {
        final String name;
        final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor();
        final ClusterOwnership ownership;
        final Set<String> follows = ConcurrentHashMap.newKeySet();

        Member(final String name) {
            this.name = name;
            up.add(name);
            ownership = new ClusterOwnership(arbiter.member(name), new ClusterMembers() {
                @Override
                public String self() {
                    return name;
                }

                @Override
                public Set<String> reachable() {
                    return Set.copyOf(up);
                }
            }, executor);
            executor.execute(() -> {
                ownership.start(this);
                SWITCHES.forEach(ownership::configured);
            });
        }

        @Override
        public void acquired(final String nodeId) {
            assertTrue(follows.add(nodeId), name + " acquired " + nodeId + " twice");
        }

        @Override
        public void released(final String nodeId) {
            assertTrue(follows.remove(nodeId), name + " released " + nodeId + " it did not follow");
        }

        /** The process dies: nothing is withdrawn, the others see it unreachable. */
        void kill() {
            executor.shutdownNow();
            up.remove(name);
            arbiter.down(name);
        }
    }

    @AfterEach
    public void stop() {
        members.values().forEach(m -> m.executor.shutdownNow());
    }

    private Member start(final String name) {
        final var member = new Member(name);
        members.put(name, member);
        return member;
    }

    private static void await(final String what, final BooleanSupplier condition) {
        Awaitility.await(what).atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(20))
            .until(condition::getAsBoolean);
    }

    /** Each switch followed by exactly the member the ownership service names, among {@code live}. */
    private boolean followedOnce(final Set<String> live) {
        for (var sw : SWITCHES) {
            final var followers = live.stream().filter(m -> members.get(m).follows.contains(sw)).toList();
            if (followers.size() != 1 || !followers.get(0).equals(arbiter.owner(ClusterOwnership.AGENT_ENTITY, sw))) {
                return false;
            }
        }
        return true;
    }

    private boolean asPreferred(final Set<String> live) {
        return SWITCHES.stream().allMatch(sw -> members.get(ClusterOwnership.preferred(sw, live)).follows.contains(sw));
    }

    @Test
    public void agentsAreDividedAmongTheMembersAndMovedWhenOneLeaves() throws Exception {
        // alone, a member follows every switch
        final var first = start("member-1");
        await("member-1 follows all", () -> first.follows.size() == SWITCHES.size());

        start("member-2");
        start("member-3");
        final Set<String> all = Set.of("member-1", "member-2", "member-3");
        await("each switch followed by its preferred member, once", () -> asPreferred(all) && followedOnce(all));
        for (var member : all) {
            final int n = members.get(member).follows.size();
            assertTrue(n >= 5 && n <= 15, member + " follows " + n + " of 30");
        }

        // member-2 dies: its switches go to both others, each still followed once
        final Set<String> itHad = new TreeSet<>(members.get("member-2").follows);
        members.get("member-2").kill();
        final Set<String> left = Set.of("member-1", "member-3");
        await("member-2's switches taken over", () -> followedOnce(left) && asPreferred(left));
        for (var member : left) {
            assertTrue(itHad.stream().anyMatch(members.get(member).follows::contains),
                member + " took some of member-2's switches");
        }
        // nothing else moved: a survivor keeps what it followed
        final Map<String, String> before = SWITCHES.stream().filter(sw -> !itHad.contains(sw))
            .collect(Collectors.toMap(sw -> sw, sw -> ClusterOwnership.preferred(sw, all)));
        before.forEach((sw, member) -> assertTrue(members.get(member).follows.contains(sw), sw));

        // it starts again: it takes its switches back
        final var again = start("member-2");
        await("member-2 back", () -> asPreferred(all) && followedOnce(all));
        assertEquals(itHad, new TreeSet<>(again.follows));

        // a switch removed: followed by nobody, owned by nobody
        for (var member : all) {
            members.get(member).executor.execute(() -> members.get(member).ownership.removed("leaf0"));
        }
        await("leaf0 followed by nobody", () -> all.stream().noneMatch(m -> members.get(m).follows.contains("leaf0")));
        await("leaf0 owned by nobody", () -> arbiter.owner(ClusterOwnership.AGENT_ENTITY, "leaf0") == null);
        assertNull(arbiter.owner(ClusterOwnership.AGENT_ENTITY, "leaf0"));
    }

    @Test
    public void theSamePreferenceOnEveryMember() {
        final Set<String> three = Set.of("member-1", "member-2", "member-3");
        final Map<String, Long> counts = SWITCHES.stream()
            .collect(Collectors.groupingBy(sw -> ClusterOwnership.preferred(sw, three), Collectors.counting()));
        assertEquals(three, counts.keySet());
        // the order the members are listed in does not matter
        for (var sw : SWITCHES) {
            assertEquals(ClusterOwnership.preferred(sw, three),
                ClusterOwnership.preferred(sw, new TreeSet<>(three).descendingSet()));
        }
        // a member leaving moves only its own switches
        for (var sw : SWITCHES) {
            final var was = ClusterOwnership.preferred(sw, three);
            if (!"member-3".equals(was)) {
                assertEquals(was, ClusterOwnership.preferred(sw, Set.of("member-1", "member-2")));
            }
        }
    }
}
