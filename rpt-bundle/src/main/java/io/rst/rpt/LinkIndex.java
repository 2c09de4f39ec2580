/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rpt;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.eclipse.jdt.annotation.Nullable;

/**
 * The topology's links, indexed by their destination port ("which port of which node feeds this
 * port") and by their source node ("where do this node's links go"). Links of every topology the
 * controller has, configured and discovered, are merged, so RST works with OpenFlow's, NETCONF's or
 * an operator's topology alike. Immutable once built; two indexes of the same links are equal.
 */
final class LinkIndex {
    /**
     * One end of a link.
     *
     * @param node node id
     * @param tp termination point id
     */
    record End(String node, String tp) {
        End {
            requireNonNull(node);
            requireNonNull(tp);
        }
    }

    /**
     * A link, in one direction (topologies list each direction of a cable as its own link).
     *
     * @param source where traffic leaves
     * @param dest where it enters
     */
    record Link(End source, End dest) {
        Link {
            requireNonNull(source);
            requireNonNull(dest);
        }
    }

    static final LinkIndex EMPTY = new LinkIndex(Set.of());

    private final Set<Link> links;
    private final Map<End, End> sourceByDest;
    private final Map<String, List<Link>> bySourceNode;

    private LinkIndex(final Set<Link> links) {
        this.links = links;
        final Map<End, End> byDest = new HashMap<>();
        final Map<String, List<Link>> bySource = new HashMap<>();
        for (var link : links) {
            byDest.put(link.dest(), link.source());
            bySource.computeIfAbsent(link.source().node(), k -> new ArrayList<>()).add(link);
        }
        sourceByDest = Map.copyOf(byDest);
        bySource.replaceAll((node, list) -> List.copyOf(list));
        bySourceNode = Map.copyOf(bySource);
    }

    /** The link end that feeds {@code node}/{@code tp}, if the topology has that link. */
    @Nullable End feeding(final String node, final String tp) {
        return sourceByDest.get(new End(node, tp));
    }

    /** The links leaving {@code node}. */
    List<Link> from(final String node) {
        return bySourceNode.getOrDefault(node, List.of());
    }

    /** The links from {@code source} to {@code dest} (parallel links give several). */
    List<Link> between(final String source, final String dest) {
        final List<Link> out = new ArrayList<>(1);
        for (var link : from(source)) {
            if (link.dest().node().equals(dest)) {
                out.add(link);
            }
        }
        return out;
    }

    int size() {
        return links.size();
    }

    /** The nodes at either end of a link that one of the two indexes has and the other has not. */
    Set<String> nodesOfChangedLinks(final LinkIndex other) {
        final Set<String> nodes = new HashSet<>();
        for (var link : links) {
            if (!other.links.contains(link)) {
                nodes.add(link.source().node());
                nodes.add(link.dest().node());
            }
        }
        for (var link : other.links) {
            if (!links.contains(link)) {
                nodes.add(link.source().node());
                nodes.add(link.dest().node());
            }
        }
        return nodes;
    }

    @Override
    public boolean equals(final Object obj) {
        return obj == this || obj instanceof LinkIndex other && links.equals(other.links);
    }

    @Override
    public int hashCode() {
        return links.hashCode();
    }

    static Builder builder() {
        return new Builder();
    }

    static final class Builder {
        private final Set<Link> set = new HashSet<>();

        Builder link(final String srcNode, final String srcTp, final String dstNode, final String dstTp) {
            set.add(new Link(new End(srcNode, srcTp), new End(dstNode, dstTp)));
            return this;
        }

        LinkIndex build() {
            return set.isEmpty() ? EMPTY : new LinkIndex(Set.copyOf(set));
        }
    }
}
