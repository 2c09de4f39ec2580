/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rpt;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.Path;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.sessions.through.output.PathKey;

/**
 * Copies stored paths into the RPC outputs' own list types (same grouping, other classes).
 */
final class RpcPaths {
    private RpcPaths() {
        // utility
    }

    static Map<org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.trace.session.output.PathKey,
            org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.trace.session.output.Path> trace(
            final Collection<? extends Path> paths) {
        final var out = new LinkedHashMap<
            org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.trace.session.output.PathKey,
            org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.trace.session.output.Path>();
        for (var path : paths) {
            final var copy = new org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.trace.session.output
                .PathBuilder(path).build();
            out.put(copy.key(), copy);
        }
        return out;
    }

    static Map<PathKey, org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.sessions.through.output.Path>
            through(final Collection<? extends Path> paths) {
        final var out = new LinkedHashMap<PathKey,
            org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.sessions.through.output.Path>();
        for (var path : paths) {
            final var copy = new org.opendaylight.yang.gen.v1.urn.io.rst.rdma.path.table.rev261201.sessions.through
                .output.PathBuilder(path).build();
            out.put(copy.key(), copy);
        }
        return out;
    }
}
