/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.manager;

import static java.util.Objects.requireNonNull;

import java.util.Map;
import org.eclipse.jdt.annotation.Nullable;

/**
 * What the configuration says of one switch, as plain values.
 *
 * @param nodeId the switch's network-topology node id
 * @param agentAddress where its agent listens, or null when not configured
 * @param agentPort the agent's TCP port
 * @param enabled whether RFT is on for the switch
 * @param transport how the agent is reached
 * @param tlsFingerprint the agent certificate's pinned SHA-256 fingerprint (lower-case hex pairs with
 *        colons), or null to verify it against the CA file
 * @param portMap interface name (as the agent captures on it) to the termination point's tp-id,
 *        for the interfaces whose names differ from their tp-ids
 * @param firstUse what the controller pinned on first use ({@code agent-tls-first-use}), or null
 */
record SwitchConfig(String nodeId, @Nullable String agentAddress, int agentPort, boolean enabled,
        AgentLinks.Transport transport, @Nullable String tlsFingerprint, Map<String, String> portMap,
        @Nullable FirstUse firstUse) {
    /**
     * The fingerprint the controller pinned on first use, and when.
     *
     * @param fingerprint in the form of {@link io.rst.rft.wire.TlsFiles#fingerprint}
     * @param pinned a yang:date-and-time
     */
    record FirstUse(String fingerprint, String pinned) {
        FirstUse {
            requireNonNull(fingerprint);
            requireNonNull(pinned);
        }
    }

    SwitchConfig {
        requireNonNull(nodeId);
        requireNonNull(transport);
        if (agentPort < 1 || agentPort > 65535) {
            throw new IllegalArgumentException("agent port out of range: " + agentPort);
        }
        portMap = Map.copyOf(portMap);
    }

    /** A switch the controller pinned nothing of on first use. */
    SwitchConfig(final String nodeId, final @Nullable String agentAddress, final int agentPort, final boolean enabled,
            final AgentLinks.Transport transport, final @Nullable String tlsFingerprint,
            final Map<String, String> portMap) {
        this(nodeId, agentAddress, agentPort, enabled, transport, tlsFingerprint, portMap, null);
    }

    /**
     * Whether the pinned fingerprint is the one the controller pinned on first use (not one an
     * operator set).
     */
    boolean pinnedOnFirstUse() {
        return tlsFingerprint != null && firstUse != null && tlsFingerprint.equals(firstUse.fingerprint());
    }

    /** A switch without a port map. */
    SwitchConfig(final String nodeId, final @Nullable String agentAddress, final int agentPort, final boolean enabled,
            final AgentLinks.Transport transport, final @Nullable String tlsFingerprint) {
        this(nodeId, agentAddress, agentPort, enabled, transport, tlsFingerprint, Map.of());
    }

    /** The same switch, its agent reached at {@code address} (a default the configuration does not give). */
    SwitchConfig withAgentAddress(final String address) {
        return new SwitchConfig(nodeId, address, agentPort, enabled, transport, tlsFingerprint, portMap, firstUse);
    }

    /** The same switch, its agent's certificate pinned as {@code fingerprint}. */
    SwitchConfig withPin(final @Nullable String fingerprint, final @Nullable FirstUse pinnedFirstUse) {
        return new SwitchConfig(nodeId, agentAddress, agentPort, enabled, transport, fingerprint, portMap,
            pinnedFirstUse);
    }

    /** Whether the operator configured an agent address. */
    boolean hasAgentAddress() {
        return agentAddress != null && !agentAddress.isBlank();
    }

    /** A switch whose transport is not configured (TLS first, plain HTTP as a fallback). */
    SwitchConfig(final String nodeId, final @Nullable String agentAddress, final int agentPort, final boolean enabled) {
        this(nodeId, agentAddress, agentPort, enabled, AgentLinks.Transport.UNSET, null);
    }
}
