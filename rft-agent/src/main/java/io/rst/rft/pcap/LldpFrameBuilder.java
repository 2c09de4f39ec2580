/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.pcap;

import edu.umd.cs.findbugs.annotations.SuppressFBWarnings;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Builds LLDP frames (IEEE 802.1AB) for tests and generated captures: to the nearest-bridge
 * address 01:80:c2:00:00:0e, ethertype 0x88cc, then TLVs (a 7-bit type and a 9-bit length, then
 * the value): Chassis ID, Port ID, TTL, the optional Port Description, System Name, System
 * Description, System Capabilities and Management Addresses that were set, any raw TLVs added, and the End TLV,
 * padded to Ethernet's minimum of 60 bytes (no FCS). Values are written as given (no validation):
 * tests build malformed LLDPDUs on purpose ({@link #tlv}, {@link #omitEnd}, {@link #order}).
 *
 * <pre>
 * dst 01:80:c2:00:00:0e(6) src(6) type 88cc(2) | type(7) length(9) value ... | 0000 (End) | pad
 * </pre>
 */
@SuppressFBWarnings(value = "NP_NONNULL_FIELD_NOT_INITIALIZED_IN_CONSTRUCTOR",
    justification = "the optional TLVs' values are null until set: SpotBugs reads no TYPE_USE @Nullable on fields")
public final class LldpFrameBuilder {
    /** TLV types. */
    public static final int END = 0;
    public static final int CHASSIS_ID = 1;
    public static final int PORT_ID = 2;
    public static final int TTL = 3;
    public static final int PORT_DESCRIPTION = 4;
    public static final int SYSTEM_NAME = 5;
    public static final int SYSTEM_DESCRIPTION = 6;
    public static final int SYSTEM_CAPABILITIES = 7;
    public static final int MANAGEMENT_ADDRESS = 8;
    public static final int ORGANIZATION_SPECIFIC = 127;

    private long srcMac = 0x02_00_00_00_00_01L;
    private int chassisSubtype = 4;
    private byte[] chassisId = {2, 0, 0, 0, 0, 1};
    private int portSubtype = 5;
    private byte[] portId = "eth0".getBytes(StandardCharsets.US_ASCII);
    private int ttl = 120;
    private byte[] portDescription;
    private byte[] systemName;
    private byte[] systemDescription;
    private int systemCapabilities = -1;
    private int enabledCapabilities;
    private final ByteArrayOutputStream management = new ByteArrayOutputStream();
    private final ByteArrayOutputStream extra = new ByteArrayOutputStream();
    private boolean end = true;
    private int[] order = {CHASSIS_ID, PORT_ID, TTL};
    private int vlan = -1;

    /** The source MAC address (48 bits). */
    public LldpFrameBuilder srcMac(final long mac) {
        srcMac = mac;
        return this;
    }

    /** The Chassis ID: its subtype and its bytes (after the subtype). */
    public LldpFrameBuilder chassisId(final int subtype, final byte[] id) {
        chassisSubtype = subtype;
        chassisId = id.clone();
        return this;
    }

    /** A Chassis ID of subtype 4, a MAC address (48 bits). */
    public LldpFrameBuilder chassisMac(final long mac) {
        return chassisId(4, macBytes(mac));
    }

    /** The Port ID: its subtype and its bytes. */
    public LldpFrameBuilder portId(final int subtype, final byte[] id) {
        portSubtype = subtype;
        portId = id.clone();
        return this;
    }

    /** A Port ID of subtype 5, an interface name. */
    public LldpFrameBuilder portName(final String name) {
        return portId(5, name.getBytes(StandardCharsets.UTF_8));
    }

    /** The TTL in seconds (16 bits; 0: shutdown). */
    public LldpFrameBuilder ttl(final int seconds) {
        ttl = seconds;
        return this;
    }

    public LldpFrameBuilder portDescription(final String text) {
        portDescription = text.getBytes(StandardCharsets.UTF_8);
        return this;
    }

    public LldpFrameBuilder systemName(final String text) {
        systemName = text.getBytes(StandardCharsets.UTF_8);
        return this;
    }

    public LldpFrameBuilder systemDescription(final String text) {
        systemDescription = text.getBytes(StandardCharsets.UTF_8);
        return this;
    }

    /**
     * A System Capabilities TLV: the 16-bit system capabilities and enabled capabilities (IEEE
     * 802.1AB bits: 0x04 bridge, 0x10 router, 0x80 station ...).
     */
    public LldpFrameBuilder capabilities(final int system, final int enabled) {
        systemCapabilities = system;
        enabledCapabilities = enabled;
        return this;
    }

    /**
     * A Management Address TLV: IANA family 1 for a 4-byte address, 2 for a 16-byte one,
     * interface numbering ifIndex (2) {@code ifIndex}, no OID.
     */
    public LldpFrameBuilder managementAddress(final byte[] address, final int ifIndex) {
        return managementAddress(address.length == 4 ? 1 : 2, address, ifIndex);
    }

    /** A Management Address TLV of address family {@code family} (IANA). */
    public LldpFrameBuilder managementAddress(final int family, final byte[] address, final int ifIndex) {
        final byte[] v = new byte[1 + 1 + address.length + 1 + 4 + 1];
        v[0] = (byte) (1 + address.length);
        v[1] = (byte) family;
        System.arraycopy(address, 0, v, 2, address.length);
        int at = 2 + address.length;
        v[at++] = 2;
        v[at++] = (byte) (ifIndex >>> 24);
        v[at++] = (byte) (ifIndex >>> 16);
        v[at++] = (byte) (ifIndex >>> 8);
        v[at++] = (byte) ifIndex;
        v[at] = 0;
        writeTlv(management, MANAGEMENT_ADDRESS, v, v.length);
        return this;
    }

    /** A raw TLV after the others (before the End TLV), with the length as its value's. */
    public LldpFrameBuilder tlv(final int type, final byte[] value) {
        return tlv(type, value.length, value);
    }

    /** A raw TLV whose length field says {@code length} (9 bits), whatever the value's size. */
    public LldpFrameBuilder tlv(final int type, final int length, final byte[] value) {
        writeTlv(extra, type, value, length);
        return this;
    }

    /** Leaves the End TLV out. */
    public LldpFrameBuilder omitEnd() {
        end = false;
        return this;
    }

    /**
     * Writes the mandatory TLVs in this order ({@link #CHASSIS_ID}, {@link #PORT_ID}, {@link #TTL};
     * some may be left out).
     */
    public LldpFrameBuilder order(final int... types) {
        order = types.clone();
        return this;
    }

    /** An 802.1Q tag with this VLAN ID before the ethertype (LLDP is untagged: for robustness tests). */
    public LldpFrameBuilder vlan(final int id) {
        vlan = id;
        return this;
    }

    private static void writeTlv(final ByteArrayOutputStream out, final int type, final byte[] value,
            final int length) {
        out.write(type << 1 | length >>> 8 & 1);
        out.write(length & 0xff);
        out.write(value, 0, value.length);
    }

    private static byte[] macBytes(final long mac) {
        final byte[] b = new byte[6];
        for (int i = 0; i < 6; i++) {
            b[i] = (byte) (mac >>> 8 * (5 - i));
        }
        return b;
    }

    /** A new array holding the frame. */
    public byte[] build() {
        final ByteArrayOutputStream f = new ByteArrayOutputStream(128);
        f.write(new byte[] {1, (byte) 0x80, (byte) 0xc2, 0, 0, 0x0e}, 0, 6);
        f.write(macBytes(srcMac), 0, 6);
        if (vlan >= 0) {
            f.write(0x81);
            f.write(0x00);
            f.write(vlan >>> 8 & 0x0f);
            f.write(vlan & 0xff);
        }
        f.write(0x88);
        f.write(0xcc);
        for (int type : order) {
            switch (type) {
                case CHASSIS_ID -> writeTlv(f, CHASSIS_ID, withSubtype(chassisSubtype, chassisId),
                    chassisId.length + 1);
                case PORT_ID -> writeTlv(f, PORT_ID, withSubtype(portSubtype, portId), portId.length + 1);
                case TTL -> writeTlv(f, TTL, new byte[] {(byte) (ttl >>> 8), (byte) ttl}, 2);
                default -> throw new IllegalArgumentException("not a mandatory TLV: " + type);
            }
        }
        if (portDescription != null) {
            writeTlv(f, PORT_DESCRIPTION, portDescription, portDescription.length);
        }
        if (systemName != null) {
            writeTlv(f, SYSTEM_NAME, systemName, systemName.length);
        }
        if (systemDescription != null) {
            writeTlv(f, SYSTEM_DESCRIPTION, systemDescription, systemDescription.length);
        }
        if (systemCapabilities >= 0) {
            writeTlv(f, SYSTEM_CAPABILITIES, new byte[] {(byte) (systemCapabilities >>> 8), (byte) systemCapabilities,
                (byte) (enabledCapabilities >>> 8), (byte) enabledCapabilities}, 4);
        }
        f.write(management.toByteArray(), 0, management.size());
        f.write(extra.toByteArray(), 0, extra.size());
        if (end) {
            f.write(0);
            f.write(0);
        }
        final byte[] b = f.toByteArray();
        return b.length >= 60 ? b : Arrays.copyOf(b, 60);
    }

    private static byte[] withSubtype(final int subtype, final byte[] id) {
        final byte[] v = new byte[id.length + 1];
        v[0] = (byte) subtype;
        System.arraycopy(id, 0, v, 1, id.length);
        return v;
    }
}
