/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rpt;

import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.jdt.annotation.Nullable;

/**
 * One copy of each node id and tp id the RPT holds: a fabric has a few hundred of them, and a
 * million paths would otherwise hold a million copies of "eth1" (each session's entry read from
 * the datastore brings its own strings). Bounded: past {@link #MAX} distinct names (odd input, a
 * huge fabric), names are kept as they come, which costs memory but nothing else.
 */
final class Names {
    /** Distinct names kept at most. */
    static final int MAX = 65_536;

    private static final ConcurrentHashMap<String, String> NAMES = new ConcurrentHashMap<>();

    private Names() {
        // utility
    }

    /** The one copy of {@code name}, or {@code name} itself past {@link #MAX} names or when null. */
    static @Nullable String intern(final @Nullable String name) {
        if (name == null) {
            return null;
        }
        final String known = NAMES.get(name);
        if (known != null) {
            return known;
        }
        if (NAMES.size() >= MAX) {
            return name;
        }
        final String raced = NAMES.putIfAbsent(name, name);
        return raced == null ? name : raced;
    }
}
