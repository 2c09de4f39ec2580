/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rpt;

import com.google.common.net.InetAddresses;
import java.net.InetAddress;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.jdt.annotation.Nullable;

/**
 * What the topology says of its nodes beyond links ({@code rst-topology}): which are hosts and
 * which are switches, and which host holds an IP address. Immutable once built; two indexes of the
 * same facts are equal.
 */
final class HostIndex {
    static final HostIndex EMPTY = new HostIndex(Map.of(), Set.of(), Set.of());
    /** Addresses' texts whose host is remembered at most. */
    private static final int MAX_TEXTS = 16_384;

    private final Map<InetAddress, String> hostByIp;
    private final Set<String> hosts;
    private final Set<String> switches;
    // hostOf by the address's text, as asked: every path asks for its two ends, and parsing the
    // text each time would be a tenth of the path's assembly; bounded, the rest is parsed each time
    private final Map<String, Optional<String>> hostByText = new ConcurrentHashMap<>();

    private HostIndex(final Map<InetAddress, String> hostByIp, final Set<String> hosts, final Set<String> switches) {
        this.hostByIp = hostByIp;
        this.hosts = hosts;
        this.switches = switches;
    }

    /**
     * The host node that holds {@code ip}, or null when none does, or more than one claims it (then
     * the topology does not say which), or {@code ip} is not an address.
     */
    @Nullable String hostOf(final @Nullable String ip) {
        if (ip == null || hostByIp.isEmpty()) {
            return null;
        }
        final var known = hostByText.get(ip);
        if (known != null) {
            return known.orElse(null);
        }
        final var address = parse(ip);
        final String host = address == null ? null : hostByIp.get(address);
        if (hostByText.size() < MAX_TEXTS) {
            hostByText.put(ip, Optional.ofNullable(host));
        }
        return host;
    }

    /** Whether the topology says {@code node} is a host. */
    boolean isHost(final String node) {
        return hosts.contains(node);
    }

    /** Whether the topology says {@code node} is a switch. */
    boolean isSwitch(final String node) {
        return switches.contains(node);
    }

    private static @Nullable InetAddress parse(final @Nullable String ip) {
        if (ip == null) {
            return null;
        }
        try {
            // literals only (no name lookup); 10.1.0.2 and fd00::0:2 compare as addresses, not text
            return InetAddresses.forString(ip);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    @Override
    public boolean equals(final Object obj) {
        return obj == this || obj instanceof HostIndex other && hostByIp.equals(other.hostByIp)
            && hosts.equals(other.hosts) && switches.equals(other.switches);
    }

    @Override
    public int hashCode() {
        return hostByIp.hashCode() * 31 + hosts.hashCode();
    }

    static Builder builder() {
        return new Builder();
    }

    static final class Builder {
        private final Map<InetAddress, String> byIp = new HashMap<>();
        private final Set<InetAddress> claimedTwice = new HashSet<>();
        private final Set<String> hosts = new HashSet<>();
        private final Set<String> switches = new HashSet<>();

        /** A host node and its addresses (text that is no address is ignored). */
        Builder host(final String node, final Iterable<String> ips) {
            hosts.add(node);
            for (var ip : ips) {
                final var address = parse(ip);
                if (address != null) {
                    final var previous = byIp.putIfAbsent(address, node);
                    if (previous != null && !previous.equals(node)) {
                        claimedTwice.add(address);
                    }
                }
            }
            return this;
        }

        Builder switchNode(final String node) {
            switches.add(node);
            return this;
        }

        HostIndex build() {
            final Map<InetAddress, String> unique = new HashMap<>(byIp);
            unique.keySet().removeAll(claimedTwice);
            final Set<String> plainSwitches = new HashSet<>(switches);
            // a node that two topologies call differently is neither: the facts do not agree
            plainSwitches.removeAll(hosts);
            final Set<String> plainHosts = new HashSet<>(hosts);
            plainHosts.removeAll(switches);
            if (unique.isEmpty() && plainHosts.isEmpty() && plainSwitches.isEmpty()) {
                return EMPTY;
            }
            return new HostIndex(Map.copyOf(unique), Set.copyOf(plainHosts), Set.copyOf(plainSwitches));
        }
    }
}
