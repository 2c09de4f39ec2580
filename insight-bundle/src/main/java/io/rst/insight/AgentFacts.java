/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.insight;

import static java.util.Objects.requireNonNull;

import org.eclipse.jdt.annotation.Nullable;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.AgentState;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.AgentStatus;

/**
 * What the detectors and metrics need of a switch's agent status.
 *
 * @param lastContact seconds since the epoch, NaN when the agent never answered
 * @param lastEventSeq the last agent event the controller applied, -1 when none
 */
record AgentFacts(String switchId, @Nullable AgentState state, @Nullable String detail, double lastChange,
        double lastContact, long lastEventSeq) {

    AgentFacts {
        requireNonNull(switchId);
    }

    static AgentFacts of(final String switchId, final AgentStatus status) {
        final var seq = status.getLastEventSeq();
        return new AgentFacts(switchId, status.getState(), status.getDetail(), Sighting.seconds(status.getLastChange()),
            Sighting.seconds(status.getLastContact()), seq == null ? -1 : seq.longValue());
    }

    /** An enabled switch whose sessions the controller cannot follow. */
    boolean lost() {
        return lost(state);
    }

    static boolean lost(final @Nullable AgentState state) {
        return state != null && switch (state) {
            case UNREACHABLE, UNAUTHORIZED, UNTRUSTED -> true;
            case DISABLED, CONNECTING, CAPTURING, STOPPED, NOADDRESS, NOTCONFIGURED -> false;
        };
    }

    /** The agent answers (capturing or not). */
    boolean answers() {
        return state == AgentState.CAPTURING || state == AgentState.STOPPED;
    }
}
