/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.manager;

import java.util.ArrayList;
import java.util.List;
import org.eclipse.jdt.annotation.Nullable;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.IpAddress;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.Ipv4Address;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.Ipv6Address;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.yang.types.rev130715.DateAndTime;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.yang.types.rev130715.MacAddress;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.agent.status.Interface;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.agent.status.InterfaceBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.agent.status.LldpNeighbour;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.agent.status.LldpNeighbourBuilder;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rft._switch.AgentStatusBuilder;
import org.opendaylight.yangtools.binding.util.BindingMap;
import org.opendaylight.yangtools.yang.common.Uint16;
import org.opendaylight.yangtools.yang.common.Uint32;

/**
 * Writes what an agent's status says of its place in the fabric into the switch's agent status:
 * {@code agent-id}, the capture interfaces with their MACs ({@code interface}), the LLDP
 * neighbours ({@code lldp-neighbour}) and how many of the agent's neighbour entries were left
 * out ({@code lldp-skipped}). The LLDP topology ({@link LldpTopology}) reads them back.
 */
final class LldpStatus {
    private LldpStatus() {
    }

    /** Sets the LLDP leaves of {@code builder} from {@code lldp} (nothing when null). */
    static void apply(final AgentStatusBuilder builder, final AgentProbe.@Nullable Lldp lldp) {
        if (lldp == null) {
            return;
        }
        builder.setAgentId(lldp.agentId());
        final List<Interface> interfaces = new ArrayList<>();
        lldp.interfaces().forEach((name, mac) -> interfaces.add(new InterfaceBuilder().setName(name)
            .setMac(mac.map(MacAddress::new).orElse(null)).build()));
        if (!interfaces.isEmpty()) {
            builder.setInterface(BindingMap.ordered(interfaces));
        }
        if (lldp.skipped() > 0) {
            builder.setLldpSkipped(Uint32.valueOf(lldp.skipped()));
        }
        final List<LldpNeighbour> neighbours = new ArrayList<>();
        for (var n : lldp.neighbours()) {
            neighbours.add(new LldpNeighbourBuilder().setInterface(n.iface()).setChassisId(n.chassisId())
                .setPortId(n.portId()).setChassisIdSubtype(n.chassisIdSubtype()).setPortIdSubtype(n.portIdSubtype())
                .setPortDescription(n.portDescription()).setSystemName(n.systemName())
                .setManagementAddress(n.managementAddresses().isEmpty() ? null
                    : n.managementAddresses().stream().map(LldpStatus::ip).collect(
                        java.util.stream.Collectors.toCollection(java.util.LinkedHashSet::new)))
                .setCapabilities(n.capabilities().isEmpty() ? null : new java.util.LinkedHashSet<>(n.capabilities()))
                .setEnabledCapabilities(n.enabledCapabilities().isEmpty() ? null
                    : new java.util.LinkedHashSet<>(n.enabledCapabilities()))
                .setTtl(n.ttl() < 0 ? null : Uint16.valueOf(n.ttl()))
                .setAgeSeconds(n.ageSeconds() < 0 ? null : Uint32.valueOf(Math.min(n.ageSeconds(), 0xffffffffL)))
                .setLastSeen(n.lastSeen() == null ? null : new DateAndTime(n.lastSeen()))
                .build());
        }
        if (!neighbours.isEmpty()) {
            builder.setLldpNeighbour(BindingMap.ordered(neighbours));
        }
    }

    /** An IP literal (checked by the probe) as the model's type. */
    static IpAddress ip(final String text) {
        return text.indexOf(':') < 0 ? new IpAddress(new Ipv4Address(text)) : new IpAddress(new Ipv6Address(text));
    }
}
