/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.decode;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.eclipse.jdt.annotation.Nullable;

/**
 * A reusable, mutable view of one decoded LLDPDU (IEEE 802.1AB), filled by {@link FrameDecoder}
 * for {@link DecodeResult#LLDP}: the mandatory Chassis ID, Port ID and Time To Live TLVs, and the
 * optional Port Description, System Name, System Description, System Capabilities and the IPv4
 * and IPv6 Management Address TLVs. Every value is copied into fixed arrays of the largest size the standard allows,
 * so that decoding allocates nothing; the text forms ({@link #chassisIdText()} ...) allocate and
 * are for the slow path. Not thread-safe; the decoder reuses it.
 *
 * <p>An ID is kept as its subtype and its bytes; what the bytes are follows from the subtype:
 * <pre>
 *  subtype  Chassis ID              Port ID
 *  1        chassis component (text) interface alias (text)
 *  2        interface alias (text)   port component (text)
 *  3        port component (text)    MAC address (6 bytes)
 *  4        MAC address (6 bytes)    network address (IANA family, address)
 *  5        network address          interface name (text)
 *  6        interface name (text)    agent circuit ID (bytes, RFC 3046)
 *  7        locally assigned (text)  locally assigned (text)
 * </pre>
 */
public final class LldpPdu {
    /** The longest ID, port description, system name or system description (bytes). */
    public static final int MAX_STRING = 255;
    /** Management addresses kept of one LLDPDU (IPv4 and IPv6 ones; the rest are ignored). */
    public static final int MAX_MANAGEMENT = 4;

    /** What the bytes of an ID are. */
    public enum IdKind {
        TEXT, MAC, NETWORK_ADDRESS, BYTES
    }

    private static final String[] CHASSIS_SUBTYPES = {"", "chassis_component", "interface_alias", "port_component",
        "mac_address", "network_address", "interface_name", "local"};
    private static final String[] PORT_SUBTYPES = {"", "interface_alias", "port_component", "mac_address",
        "network_address", "interface_name", "agent_circuit_id", "local"};
    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    /**
     * The System Capabilities bits of IEEE 802.1AB (bit 0 the least significant of the 16-bit
     * field): other, repeater, bridge, WLAN access point, router, telephone, DOCSIS cable device,
     * station only; the higher bits (C-VLAN, S-VLAN, two-port MAC relay of later editions) are named
     * by their bit number.
     */
    private static final String[] CAPABILITY_NAMES = {"other", "repeater", "bridge", "wlan_access_point",
        "router", "telephone", "docsis", "station"};

    int chassisIdSubtype;
    final byte[] chassisId = new byte[MAX_STRING];
    int chassisIdLength;
    int portIdSubtype;
    final byte[] portId = new byte[MAX_STRING];
    int portIdLength;
    int ttl;
    final byte[] portDescription = new byte[MAX_STRING];
    /** -1: no Port Description TLV. */
    int portDescriptionLength = -1;
    final byte[] systemName = new byte[MAX_STRING];
    int systemNameLength = -1;
    final byte[] systemDescription = new byte[MAX_STRING];
    int systemDescriptionLength = -1;
    int managementCount;
    /** 4 or 6 per management address. */
    final int[] managementVersion = new int[MAX_MANAGEMENT];
    /** 16 bytes per management address (IPv4 in the first 4). */
    final byte[] managementAddress = new byte[16 * MAX_MANAGEMENT];
    /** The System Capabilities' two 16-bit fields; -1: no (valid) System Capabilities TLV. */
    int systemCapabilities = -1;
    int enabledCapabilities = -1;
    /** The capture cut the frame after its mandatory TLVs: what came later is missing. */
    boolean cut;

    void clear() {
        chassisIdSubtype = 0;
        chassisIdLength = 0;
        portIdSubtype = 0;
        portIdLength = 0;
        ttl = 0;
        portDescriptionLength = -1;
        systemNameLength = -1;
        systemDescriptionLength = -1;
        managementCount = 0;
        systemCapabilities = -1;
        enabledCapabilities = -1;
        cut = false;
    }

    /** Copies every field of {@code other} into this view. */
    public void copyFrom(final LldpPdu other) {
        chassisIdSubtype = other.chassisIdSubtype;
        chassisIdLength = other.chassisIdLength;
        System.arraycopy(other.chassisId, 0, chassisId, 0, MAX_STRING);
        portIdSubtype = other.portIdSubtype;
        portIdLength = other.portIdLength;
        System.arraycopy(other.portId, 0, portId, 0, MAX_STRING);
        ttl = other.ttl;
        portDescriptionLength = other.portDescriptionLength;
        System.arraycopy(other.portDescription, 0, portDescription, 0, MAX_STRING);
        systemNameLength = other.systemNameLength;
        System.arraycopy(other.systemName, 0, systemName, 0, MAX_STRING);
        systemDescriptionLength = other.systemDescriptionLength;
        System.arraycopy(other.systemDescription, 0, systemDescription, 0, MAX_STRING);
        managementCount = other.managementCount;
        System.arraycopy(other.managementVersion, 0, managementVersion, 0, MAX_MANAGEMENT);
        System.arraycopy(other.managementAddress, 0, managementAddress, 0, managementAddress.length);
        systemCapabilities = other.systemCapabilities;
        enabledCapabilities = other.enabledCapabilities;
        cut = other.cut;
    }

    /** The Chassis ID subtype (1 to 7). */
    public int chassisIdSubtype() {
        return chassisIdSubtype;
    }

    /** The Chassis ID's length in bytes (1 to 255). */
    public int chassisIdLength() {
        return chassisIdLength;
    }

    /** The Port ID subtype (1 to 7). */
    public int portIdSubtype() {
        return portIdSubtype;
    }

    /** The Port ID's length in bytes (1 to 255). */
    public int portIdLength() {
        return portIdLength;
    }

    /** Time To Live in seconds (0: the sender shuts down, forget it). */
    public int ttl() {
        return ttl;
    }

    public boolean hasPortDescription() {
        return portDescriptionLength >= 0;
    }

    public boolean hasSystemName() {
        return systemNameLength >= 0;
    }

    public boolean hasSystemDescription() {
        return systemDescriptionLength >= 0;
    }

    /** Whether a System Capabilities TLV was sent. */
    public boolean hasCapabilities() {
        return systemCapabilities >= 0;
    }

    /** The system capabilities bits (16 bits; -1 when not sent). */
    public int systemCapabilities() {
        return systemCapabilities;
    }

    /** The enabled capabilities bits (16 bits; -1 when not sent). */
    public int enabledCapabilities() {
        return enabledCapabilities;
    }

    /**
     * The names of the capability bits set in {@code bits}, lowest bit first ({@code bridge},
     * {@code router}, {@code station} ...; a bit above the eight named ones as {@code bitN});
     * empty for -1 (allocates).
     */
    public static List<String> capabilityNames(final int bits) {
        if (bits <= 0) {
            return List.of();
        }
        final List<String> names = new ArrayList<>(4);
        for (int bit = 0; bit < 16; bit++) {
            if ((bits & 1 << bit) != 0) {
                names.add(bit < CAPABILITY_NAMES.length ? CAPABILITY_NAMES[bit] : "bit" + bit);
            }
        }
        return names;
    }

    /** The IPv4 and IPv6 management addresses kept (at most {@link #MAX_MANAGEMENT}). */
    public int managementCount() {
        return managementCount;
    }

    /** 4 or 6: the family of management address {@code i}. */
    public int managementVersion(final int index) {
        return managementVersion[index];
    }

    /** The capture cut the frame after its mandatory TLVs: the optional ones after the cut are missing. */
    public boolean isCut() {
        return cut;
    }

    /** Whether the Chassis ID is {@code subtype} and {@code id[0, length)} (no allocation). */
    public boolean chassisIdEquals(final int subtype, final byte[] id, final int length) {
        return subtype == chassisIdSubtype
            && Arrays.equals(chassisId, 0, chassisIdLength, id, 0, length);
    }

    /** Whether the Port ID is {@code subtype} and {@code id[0, length)} (no allocation). */
    public boolean portIdEquals(final int subtype, final byte[] id, final int length) {
        return subtype == portIdSubtype && Arrays.equals(portId, 0, portIdLength, id, 0, length);
    }

    /** Whether the port description is {@code text[0, length)} ({@code length} -1: absent). */
    public boolean portDescriptionEquals(final byte[] text, final int length) {
        return sameOptional(portDescription, portDescriptionLength, text, length);
    }

    /** Whether the system name is {@code text[0, length)} ({@code length} -1: absent). */
    public boolean systemNameEquals(final byte[] text, final int length) {
        return sameOptional(systemName, systemNameLength, text, length);
    }

    /** Whether the system description is {@code text[0, length)} ({@code length} -1: absent). */
    public boolean systemDescriptionEquals(final byte[] text, final int length) {
        return sameOptional(systemDescription, systemDescriptionLength, text, length);
    }

    private static boolean sameOptional(final byte[] mine, final int myLength, final byte[] other, final int length) {
        return myLength == length && (length < 0 || Arrays.equals(mine, 0, myLength, other, 0, length));
    }

    /** A copy of the Chassis ID's bytes (allocates). */
    public byte[] chassisIdBytes() {
        return Arrays.copyOf(chassisId, chassisIdLength);
    }

    /** A copy of the Port ID's bytes (allocates). */
    public byte[] portIdBytes() {
        return Arrays.copyOf(portId, portIdLength);
    }

    /** A copy of the port description's bytes, or null when absent (allocates). */
    public byte @Nullable [] portDescriptionBytes() {
        return portDescriptionLength < 0 ? null : Arrays.copyOf(portDescription, portDescriptionLength);
    }

    /** A copy of the system name's bytes, or null when absent (allocates). */
    public byte @Nullable [] systemNameBytes() {
        return systemNameLength < 0 ? null : Arrays.copyOf(systemName, systemNameLength);
    }

    /** A copy of the system description's bytes, or null when absent (allocates). */
    public byte @Nullable [] systemDescriptionBytes() {
        return systemDescriptionLength < 0 ? null : Arrays.copyOf(systemDescription, systemDescriptionLength);
    }

    /** Copies the 16 bytes of management address {@code i} (IPv4 in the first 4) to {@code dst[off..]}. */
    public void copyManagementAddress(final int index, final byte[] dst, final int off) {
        System.arraycopy(managementAddress, 16 * index, dst, off, 16);
    }

    /** Management address {@code i} as text (allocates). */
    public String managementAddressText(final int index) {
        final byte[] a = Arrays.copyOfRange(managementAddress, 16 * index, 16 * index + 16);
        return JsonBytes.ipString(a, managementVersion[index]);
    }

    /** The Chassis ID as text (MAC colon-separated, network address as an IP, text as UTF-8). */
    public String chassisIdText() {
        return idText(chassisKind(chassisIdSubtype), chassisId, chassisIdLength);
    }

    /** The Port ID as text, as {@link #chassisIdText()}. */
    public String portIdText() {
        return idText(portKind(portIdSubtype), portId, portIdLength);
    }

    /** The port description as text, or null when absent (allocates). */
    public @Nullable String portDescriptionText() {
        return portDescriptionLength < 0 ? null
            : new String(portDescription, 0, portDescriptionLength, StandardCharsets.UTF_8);
    }

    /** The system name as text, or null when absent (allocates). */
    public @Nullable String systemNameText() {
        return systemNameLength < 0 ? null : new String(systemName, 0, systemNameLength, StandardCharsets.UTF_8);
    }

    /** The system description as text, or null when absent (allocates). */
    public @Nullable String systemDescriptionText() {
        return systemDescriptionLength < 0 ? null
            : new String(systemDescription, 0, systemDescriptionLength, StandardCharsets.UTF_8);
    }

    /** The name of a Chassis ID subtype ({@code mac_address}, {@code interface_name} ...). */
    public static String chassisSubtypeName(final int subtype) {
        return subtype >= 1 && subtype <= 7 ? CHASSIS_SUBTYPES[subtype] : "unknown";
    }

    /** The name of a Port ID subtype ({@code mac_address}, {@code interface_name} ...). */
    public static String portSubtypeName(final int subtype) {
        return subtype >= 1 && subtype <= 7 ? PORT_SUBTYPES[subtype] : "unknown";
    }

    /** What a Chassis ID of this subtype holds. */
    public static IdKind chassisKind(final int subtype) {
        return switch (subtype) {
            case 4 -> IdKind.MAC;
            case 5 -> IdKind.NETWORK_ADDRESS;
            default -> IdKind.TEXT;
        };
    }

    /** What a Port ID of this subtype holds. */
    public static IdKind portKind(final int subtype) {
        return switch (subtype) {
            case 3 -> IdKind.MAC;
            case 4 -> IdKind.NETWORK_ADDRESS;
            case 6 -> IdKind.BYTES;
            default -> IdKind.TEXT;
        };
    }

    /**
     * An ID's bytes as text: a MAC address or other bytes as lower-case hex pairs separated by
     * colons, a network address of IANA family 1 (IPv4) or 2 (IPv6) as the address, of another
     * family as the family number, a colon and the hex pairs; text as UTF-8.
     */
    public static String idText(final IdKind kind, final byte[] id, final int length) {
        return switch (kind) {
            case TEXT -> new String(id, 0, length, StandardCharsets.UTF_8);
            case MAC, BYTES -> hexPairs(id, 0, length);
            case NETWORK_ADDRESS -> {
                final int family = id[0] & 0xff;
                if (family == 1 && length == 5 || family == 2 && length == 17) {
                    yield JsonBytes.ipString(Arrays.copyOfRange(id, 1, length), family == 1 ? 4 : 6);
                }
                yield family + ":" + hexPairs(id, 1, length - 1);
            }
        };
    }

    private static String hexPairs(final byte[] bytes, final int off, final int length) {
        final StringBuilder sb = new StringBuilder(length * 3);
        for (int i = 0; i < length; i++) {
            if (i > 0) {
                sb.append(':');
            }
            sb.append((char) HEX[(bytes[off + i] & 0xff) >>> 4]).append((char) HEX[bytes[off + i] & 0xf]);
        }
        return sb.toString();
    }

    // ---- JSON (rst decode), allocation-free once the buffer has grown ----

    private static final byte[] K_LLDP = JsonBytes.ascii("\",\"msg\":\"LLDP\",\"chassis_id\":");
    private static final byte[] K_CHASSIS_SUBTYPE = JsonBytes.ascii(",\"chassis_id_subtype\":\"");
    private static final byte[] K_PORT_ID = JsonBytes.ascii("\",\"port_id\":");
    private static final byte[] K_PORT_SUBTYPE = JsonBytes.ascii(",\"port_id_subtype\":\"");
    private static final byte[] K_TTL = JsonBytes.ascii("\",\"ttl\":");
    private static final byte[] K_PORT_DESCRIPTION = JsonBytes.ascii(",\"port_description\":");
    private static final byte[] K_SYSTEM_NAME = JsonBytes.ascii(",\"system_name\":");
    private static final byte[] K_SYSTEM_DESCRIPTION = JsonBytes.ascii(",\"system_description\":");
    private static final byte[] K_MANAGEMENT = JsonBytes.ascii(",\"management_addresses\":[");
    private static final byte[] K_CUT = JsonBytes.ascii(",\"cut\":true");
    private static final byte[] K_CAPABILITIES = JsonBytes.ascii(",\"capabilities\":[");
    private static final byte[] K_ENABLED_CAPABILITIES = JsonBytes.ascii(",\"enabled_capabilities\":[");

    private static final byte[][] CHASSIS_SUBTYPE_BYTES = asciiAll(CHASSIS_SUBTYPES);
    private static final byte[][] PORT_SUBTYPE_BYTES = asciiAll(PORT_SUBTYPES);
    private static final byte[][] CAPABILITY_BYTES = capabilityBytes();

    private static byte[][] capabilityBytes() {
        final byte[][] out = new byte[16][];
        for (int bit = 0; bit < 16; bit++) {
            out[bit] = JsonBytes.ascii(bit < CAPABILITY_NAMES.length ? CAPABILITY_NAMES[bit] : "bit" + bit);
        }
        return out;
    }

    private static byte[][] asciiAll(final String[] names) {
        final byte[][] out = new byte[names.length][];
        for (int i = 0; i < names.length; i++) {
            out[i] = JsonBytes.ascii(names[i]);
        }
        return out;
    }

    /**
     * Appends the LLDP part of a decode line, from {@code "msg":"LLDP"} on (the caller wrote the
     * frame, time and the opening quote's key {@code "src_mac":"...}): IDs, subtypes, TTL, the
     * optional TLVs present, the management addresses, {@code capabilities} and
     * {@code enabled_capabilities} (names) when sent, {@code "cut":true} when the capture cut it.
     */
    void appendJson(final JsonBytes out) {
        out.raw(K_LLDP);
        appendId(out, chassisKind(chassisIdSubtype), chassisId, chassisIdLength);
        out.raw(K_CHASSIS_SUBTYPE).raw(CHASSIS_SUBTYPE_BYTES[chassisIdSubtype]);
        out.raw(K_PORT_ID);
        appendId(out, portKind(portIdSubtype), portId, portIdLength);
        out.raw(K_PORT_SUBTYPE).raw(PORT_SUBTYPE_BYTES[portIdSubtype]);
        out.raw(K_TTL).decimal(ttl);
        if (portDescriptionLength >= 0) {
            appendUtf8(out.raw(K_PORT_DESCRIPTION), portDescription, 0, portDescriptionLength);
        }
        if (systemNameLength >= 0) {
            appendUtf8(out.raw(K_SYSTEM_NAME), systemName, 0, systemNameLength);
        }
        if (systemDescriptionLength >= 0) {
            appendUtf8(out.raw(K_SYSTEM_DESCRIPTION), systemDescription, 0, systemDescriptionLength);
        }
        out.raw(K_MANAGEMENT);
        for (int i = 0; i < managementCount; i++) {
            if (i > 0) {
                out.raw(',');
            }
            out.ip(managementAddress, 16 * i, managementVersion[i]);
        }
        out.raw(']');
        if (systemCapabilities >= 0) {
            appendCapabilities(out.raw(K_CAPABILITIES), systemCapabilities);
            appendCapabilities(out.raw(K_ENABLED_CAPABILITIES), enabledCapabilities);
        }
        if (cut) {
            out.raw(K_CUT);
        }
    }

    private static void appendCapabilities(final JsonBytes out, final int bits) {
        boolean first = true;
        for (int bit = 0; bit < 16; bit++) {
            if ((bits & 1 << bit) != 0) {
                if (!first) {
                    out.raw(',');
                }
                out.raw('"').raw(CAPABILITY_BYTES[bit]).raw('"');
                first = false;
            }
        }
        out.raw(']');
    }

    private static void appendId(final JsonBytes out, final IdKind kind, final byte[] id, final int length) {
        switch (kind) {
            case TEXT -> appendUtf8(out, id, 0, length);
            case MAC, BYTES -> appendHexPairs(out.raw('"'), id, 0, length).raw('"');
            default -> {
                final int family = id[0] & 0xff;
                if (family == 1 && length == 5 || family == 2 && length == 17) {
                    out.ip(id, 1, family == 1 ? 4 : 6);
                } else {
                    appendHexPairs(out.raw('"').decimal(family).raw(':'), id, 1, length - 1).raw('"');
                }
            }
        }
    }

    private static JsonBytes appendHexPairs(final JsonBytes out, final byte[] bytes, final int off,
            final int length) {
        for (int i = 0; i < length; i++) {
            if (i > 0) {
                out.raw(':');
            }
            out.raw((char) HEX[(bytes[off + i] & 0xff) >>> 4]).raw((char) HEX[bytes[off + i] & 0xf]);
        }
        return out;
    }

    /**
     * Appends {@code b[off, off + length)} read as UTF-8 as a quoted JSON string, ASCII only:
     * what is not printable ASCII as {@code \}{@code uXXXX} escapes (surrogate pairs beyond the
     * BMP), each byte that starts no valid sequence as U+FFFD.
     */
    static void appendUtf8(final JsonBytes out, final byte[] bytes, final int off, final int length) {
        out.raw('"');
        final int end = off + length;
        int at = off;
        while (at < end) {
            final int c = bytes[at] & 0xff;
            if (c < 0x80) {
                if (c == '"' || c == '\\') {
                    out.raw('\\').raw((char) c);
                } else if (c < 0x20 || c == 0x7f) {
                    escape(out, c);
                } else {
                    out.raw((char) c);
                }
                at++;
                continue;
            }
            final int n = c >= 0xf0 && c <= 0xf4 ? 3 : c >= 0xe0 ? (c < 0xf0 ? 2 : -1) : c >= 0xc2 ? 1 : -1;
            int cp = n == 3 ? c & 0x07 : n == 2 ? c & 0x0f : c & 0x1f;
            boolean ok = n > 0 && at + n < end;
            for (int k = 1; ok && k <= n; k++) {
                final int cc = bytes[at + k] & 0xff;
                ok = (cc & 0xc0) == 0x80;
                cp = cp << 6 | cc & 0x3f;
            }
            ok &= n != 2 || cp >= 0x800 && (cp < 0xd800 || cp > 0xdfff);
            ok &= n != 3 || cp >= 0x10000 && cp <= 0x10ffff;
            if (!ok) {
                escape(out, 0xfffd);
                at++;
                continue;
            }
            if (cp >= 0x10000) {
                escape(out, Character.highSurrogate(cp));
                escape(out, Character.lowSurrogate(cp));
            } else {
                escape(out, cp);
            }
            at += n + 1;
        }
        out.raw('"');
    }

    private static void escape(final JsonBytes out, final int ch) {
        out.raw('\\').raw('u').raw((char) HEX[ch >>> 12 & 0xf]).raw((char) HEX[ch >>> 8 & 0xf])
            .raw((char) HEX[ch >>> 4 & 0xf]).raw((char) HEX[ch & 0xf]);
    }
}
