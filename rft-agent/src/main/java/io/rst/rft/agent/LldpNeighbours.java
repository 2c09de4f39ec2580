/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.agent;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import edu.umd.cs.findbugs.annotations.SuppressFBWarnings;
import io.rst.rft.decode.LldpPdu;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The LLDP neighbours heard on each capture interface, keyed by (interface, Chassis ID, Port ID):
 * what each last said (subtypes, port description, system name and description, capabilities,
 * management addresses, TTL) and when it was first and last heard. A neighbour is forgotten when its TTL has
 * passed since its last LLDPDU, or at once on an LLDPDU with TTL 0 (the sender shuts down). Bounded:
 * at most {@link #MAX_PER_INTERFACE} neighbours on an interface and {@link #MAX_INTERFACES}
 * interfaces; the LLDPDUs of neighbours beyond are counted as refused. Decode thread only; an
 * LLDPDU that repeats what its neighbour said allocates nothing.
 */
final class LldpNeighbours {
    static final int MAX_PER_INTERFACE = 64;
    static final int MAX_INTERFACES = 256;

    /** One neighbour; its fields are replaced only when an LLDPDU says something new. */
    @SuppressFBWarnings(value = "NP_NONNULL_FIELD_NOT_INITIALIZED_IN_CONSTRUCTOR",
        justification = "the optional TLVs' fields are null while not sent: SpotBugs reads no TYPE_USE @Nullable")
    private static final class Neighbour {
        final int chassisSubtype;
        final byte[] chassisId;
        final String chassisText;
        final int portSubtype;
        final byte[] portId;
        final String portText;
        final long firstSeenMicros;
        long lastSeenMicros;
        int ttl;
        byte[] portDescription;
        String portDescriptionText;
        byte[] systemName;
        String systemNameText;
        byte[] systemDescription;
        String systemDescriptionText;
        int systemCapabilities = -1;
        int enabledCapabilities = -1;
        List<String> capabilities = List.of();
        List<String> enabledNames = List.of();
        int managementCount;
        final int[] managementVersion = new int[LldpPdu.MAX_MANAGEMENT];
        final byte[] managementAddress = new byte[16 * LldpPdu.MAX_MANAGEMENT];

        Neighbour(final LldpPdu pdu, final long nowMicros) {
            chassisSubtype = pdu.chassisIdSubtype();
            chassisId = pdu.chassisIdBytes();
            chassisText = pdu.chassisIdText();
            portSubtype = pdu.portIdSubtype();
            portId = pdu.portIdBytes();
            portText = pdu.portIdText();
            firstSeenMicros = nowMicros;
        }

        void update(final LldpPdu pdu, final long nowMicros) {
            lastSeenMicros = nowMicros;
            ttl = pdu.ttl();
            if (!pdu.portDescriptionEquals(portDescription, length(portDescription))) {
                portDescription = pdu.portDescriptionBytes();
                portDescriptionText = pdu.portDescriptionText();
            }
            if (!pdu.systemNameEquals(systemName, length(systemName))) {
                systemName = pdu.systemNameBytes();
                systemNameText = pdu.systemNameText();
            }
            if (!pdu.systemDescriptionEquals(systemDescription, length(systemDescription))) {
                systemDescription = pdu.systemDescriptionBytes();
                systemDescriptionText = pdu.systemDescriptionText();
            }
            if (pdu.systemCapabilities() != systemCapabilities || pdu.enabledCapabilities() != enabledCapabilities) {
                systemCapabilities = pdu.systemCapabilities();
                enabledCapabilities = pdu.enabledCapabilities();
                capabilities = LldpPdu.capabilityNames(systemCapabilities);
                enabledNames = LldpPdu.capabilityNames(enabledCapabilities);
            }
            managementCount = pdu.managementCount();
            for (int i = 0; i < managementCount; i++) {
                managementVersion[i] = pdu.managementVersion(i);
                pdu.copyManagementAddress(i, managementAddress, 16 * i);
            }
        }

        private static int length(final byte[] bytes) {
            return bytes == null ? -1 : bytes.length;
        }

        boolean is(final LldpPdu pdu) {
            return pdu.chassisIdEquals(chassisSubtype, chassisId, chassisId.length)
                && pdu.portIdEquals(portSubtype, portId, portId.length);
        }

        boolean expired(final long nowMicros) {
            return nowMicros - lastSeenMicros > ttl * 1_000_000L;
        }
    }

    /** The neighbours of one interface, in the order they were first heard. */
    private static final class Interface {
        final String name;
        final Neighbour[] neighbours = new Neighbour[MAX_PER_INTERFACE];
        int count;

        Interface(final String name) {
            this.name = name;
        }

        void remove(final int index) {
            System.arraycopy(neighbours, index + 1, neighbours, index, count - index - 1);
            neighbours[--count] = null;
        }
    }

    private final Map<String, Interface> index = new HashMap<>();
    private final List<Interface> interfaces = new ArrayList<>();
    private long frames;
    private long refused;
    private long agedOut;
    private long shutdowns;
    private int size;
    private long now = Long.MIN_VALUE;

    /** LLDPDUs taken (those refused included). */
    long frames() {
        return frames;
    }

    /** LLDPDUs of a new neighbour on a full interface, or of an interface beyond the bound. */
    long refused() {
        return refused;
    }

    /** Neighbours forgotten because their TTL passed. */
    long agedOut() {
        return agedOut;
    }

    /** Neighbours forgotten on their shutdown LLDPDU (TTL 0). */
    long shutdowns() {
        return shutdowns;
    }

    /** Neighbours known now. */
    int size() {
        return size;
    }

    /** An LLDPDU that entered {@code port} at {@code timeMicros}. */
    void frame(final String port, final long timeMicros, final LldpPdu pdu) {
        frames++;
        advance(timeMicros);
        Interface ifc = index.get(port);
        if (ifc == null) {
            if (interfaces.size() == MAX_INTERFACES) {
                refused++;
                return;
            }
            ifc = new Interface(port);
            index.put(port, ifc);
            interfaces.add(ifc);
        }
        int at = -1;
        for (int i = 0; i < ifc.count; i++) {
            if (ifc.neighbours[i].is(pdu)) {
                at = i;
                break;
            }
        }
        if (pdu.ttl() == 0) {
            if (at >= 0) {
                ifc.remove(at);
                size--;
                shutdowns++;
            }
            return;
        }
        if (at < 0) {
            if (ifc.count == MAX_PER_INTERFACE) {
                refused++;
                return;
            }
            at = ifc.count++;
            ifc.neighbours[at] = new Neighbour(pdu, timeMicros);
            size++;
        }
        ifc.neighbours[at].update(pdu, timeMicros);
    }

    /** The clock moves on (microseconds since the epoch; it never goes back). */
    void advance(final long nowMicros) {
        if (nowMicros > now) {
            now = nowMicros;
        }
    }

    /** Forgets the neighbours whose TTL has passed at the clock, moved on to {@code nowMicros}. */
    void expire(final long nowMicros) {
        advance(nowMicros);
        for (Interface ifc : interfaces) {
            for (int i = ifc.count - 1; i >= 0; i--) {
                if (ifc.neighbours[i].expired(now)) {
                    ifc.remove(i);
                    size--;
                    agedOut++;
                }
            }
        }
    }

    /**
     * Appends one object per neighbour, interfaces in the order their first LLDPDU came, each's
     * neighbours in the order they were first heard: {@code interface}, {@code chassis_id},
     * {@code chassis_id_subtype}, {@code port_id}, {@code port_id_subtype}, {@code port_description},
     * {@code system_name}, {@code system_description} (null when not sent), {@code management_addresses},
     * {@code capabilities} and {@code enabled_capabilities} (capability names; null when not sent),
     * {@code ttl}, {@code age_seconds} (since the last LLDPDU, at the clock), {@code first_seen} and
     * {@code last_seen} (ISO 8601 UTC).
     */
    void write(final ArrayNode out) {
        for (Interface ifc : interfaces) {
            for (int i = 0; i < ifc.count; i++) {
                final Neighbour n = ifc.neighbours[i];
                final ObjectNode o = out.addObject();
                o.put("interface", ifc.name);
                o.put("chassis_id", n.chassisText);
                o.put("chassis_id_subtype", LldpPdu.chassisSubtypeName(n.chassisSubtype));
                o.put("port_id", n.portText);
                o.put("port_id_subtype", LldpPdu.portSubtypeName(n.portSubtype));
                o.put("port_description", n.portDescriptionText);
                o.put("system_name", n.systemNameText);
                o.put("system_description", n.systemDescriptionText);
                final ArrayNode m = o.putArray("management_addresses");
                for (int k = 0; k < n.managementCount; k++) {
                    m.add(io.rst.rft.decode.JsonBytes.ipString(Arrays.copyOfRange(n.managementAddress, 16 * k,
                        16 * k + 16), n.managementVersion[k]));
                }
                if (n.systemCapabilities < 0) {
                    o.putNull("capabilities");
                    o.putNull("enabled_capabilities");
                } else {
                    n.capabilities.forEach(o.putArray("capabilities")::add);
                    n.enabledNames.forEach(o.putArray("enabled_capabilities")::add);
                }
                o.put("ttl", n.ttl);
                o.put("age_seconds", Math.max(0L, now - n.lastSeenMicros) / 1_000_000L);
                o.put("first_seen", time(n.firstSeenMicros));
                o.put("last_seen", time(n.lastSeenMicros));
            }
        }
    }

    private static String time(final long micros) {
        return Instant.EPOCH.plus(micros, ChronoUnit.MICROS).toString();
    }
}
