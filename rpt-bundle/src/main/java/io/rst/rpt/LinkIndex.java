/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rpt;

import static java.util.Objects.requireNonNull;

import java.util.HashMap;
import java.util.Map;
import org.eclipse.jdt.annotation.Nullable;

/**
 * The topology's links, indexed by their destination port: "which port of which node feeds this
 * port". Links of every topology the controller has are merged, so RST works with OpenFlow's,
 * NETCONF's or an operator's topology alike. Immutable once built.
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

    static final LinkIndex EMPTY = new LinkIndex(Map.of());

    private final Map<End, End> sourceByDest;

    private LinkIndex(final Map<End, End> sourceByDest) {
        this.sourceByDest = sourceByDest;
    }

    /** The link end that feeds {@code node}/{@code tp}, if the topology has that link. */
    @Nullable End feeding(final String node, final String tp) {
        return sourceByDest.get(new End(node, tp));
    }

    int size() {
        return sourceByDest.size();
    }

    static Builder builder() {
        return new Builder();
    }

    static final class Builder {
        private final Map<End, End> map = new HashMap<>();

        Builder link(final String srcNode, final String srcTp, final String dstNode, final String dstTp) {
            map.put(new End(dstNode, dstTp), new End(srcNode, srcTp));
            return this;
        }

        LinkIndex build() {
            return new LinkIndex(Map.copyOf(map));
        }
    }
}
