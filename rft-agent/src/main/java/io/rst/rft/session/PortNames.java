/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.session;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Ingress port names, each kept once and named in a session's message log by a 16-bit number
 * (0: unknown, as in capture files). A switch has tens of ports; beyond 65,535 distinct names new
 * ones are recorded as unknown.
 */
final class PortNames {
    private final Map<String, Integer> portIndex = new HashMap<>();
    private final List<String> ports = new ArrayList<>();

    PortNames() {
        ports.add(null);
    }

    /** The name of number {@code id}, null for unknown. */
    String name(final int id) {
        return ports.get(id);
    }

    int id(final String port) {
        if (port == null) {
            return 0;
        }
        final Integer id = portIndex.get(port);
        if (id != null) {
            return id;
        }
        if (ports.size() > 0xffff) {
            // beyond 65535 distinct names (never on a switch) new ports are recorded as unknown
            return 0;
        }
        ports.add(port);
        portIndex.put(port, ports.size() - 1);
        return ports.size() - 1;
    }
}
