/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rpt;

import java.util.Arrays;
import java.util.Map;

/**
 * The fabric's DSCP to priority (traffic class) map ({@code rpt-settings/dscp-priority}): the
 * configured entries, and for every other DSCP its class selector, the upper three of its six bits.
 * The default is RoCE's common set-up: data on DSCP 26 in priority 3, CNPs on DSCP 48 in priority 6.
 * Immutable.
 */
final class DscpMap {
    /** No entry configured: every DSCP in its class selector. */
    static final DscpMap DEFAULT = new DscpMap(Map.of());

    private final byte[] priorities = new byte[64];

    /**
     * The map with {@code configured} (DSCP to priority) over the default.
     *
     * @throws IllegalArgumentException a DSCP outside 0 to 63 or a priority outside 0 to 7
     */
    DscpMap(final Map<Integer, Integer> configured) {
        for (int dscp = 0; dscp < priorities.length; dscp++) {
            priorities[dscp] = (byte) (dscp >> 3);
        }
        for (var entry : configured.entrySet()) {
            final int dscp = entry.getKey();
            final int priority = entry.getValue();
            if (dscp < 0 || dscp >= priorities.length || priority < 0 || priority > 7) {
                throw new IllegalArgumentException("no DSCP to priority: " + dscp + " -> " + priority);
            }
            priorities[dscp] = (byte) priority;
        }
    }

    /** The priority of {@code dscp}, or -1 where it is none (-1: unknown). */
    int priority(final int dscp) {
        return dscp < 0 || dscp >= priorities.length ? -1 : priorities[dscp];
    }

    @Override
    public boolean equals(final Object obj) {
        return obj instanceof DscpMap other && Arrays.equals(priorities, other.priorities);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(priorities);
    }

    @Override
    public String toString() {
        return "DscpMap" + Arrays.toString(priorities);
    }
}
