/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.manager;

import static java.util.Objects.requireNonNull;

import edu.umd.cs.findbugs.annotations.SuppressFBWarnings;
import org.eclipse.jdt.annotation.Nullable;

/**
 * Which switches this member follows. A controller alone follows every configured switch
 * ({@link #ALONE}); in a cluster, each switch's agent is followed by exactly one member at a time,
 * as the entity ownership service decides ({@link ClusterOwnership}). Every call, and every
 * callback, runs on the tracker's single thread.
 */
@SuppressFBWarnings(value = "NP_NONNULL_FIELD_NOT_INITIALIZED_IN_CONSTRUCTOR",
    justification = "SpotBugs reads no TYPE_USE @Nullable on fields: alone()'s callbacks are @Nullable")
interface SwitchOwnership extends AutoCloseable {
    /** What the tracker hears: this member now follows a switch, or must stop following it. */
    interface Callbacks {
        void acquired(String nodeId);

        void released(String nodeId);
    }

    /** A controller alone: every configured switch is its own, at once. */
    static SwitchOwnership alone() {
        return new SwitchOwnership() {
            private @Nullable Callbacks callbacks;

            @Override
            public void start(final Callbacks target) {
                callbacks = target;
            }

            @Override
            public void configured(final String nodeId) {
                requireNonNull(callbacks).acquired(nodeId);
            }

            @Override
            public boolean prefers(final String nodeId) {
                return true;
            }

            @Override
            public void removed(final String nodeId) {
                requireNonNull(callbacks).released(nodeId);
            }

            @Override
            public void close() {
                // nothing held
            }
        };
    }

    /** Starts deciding; callbacks go to {@code target} on the tracker's thread. */
    void start(Callbacks target);

    /** A switch is configured (again): this member may have to follow it. */
    void configured(String nodeId);

    /**
     * Whether this member is the one meant to follow the switch, before the ownership service has
     * said so (it is then the one to write the switch's first status).
     */
    boolean prefers(String nodeId);

    /** A switch's configuration went: nobody follows it any more. */
    void removed(String nodeId);

    @Override
    void close();
}
