/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.capture;

/**
 * BPF filter expressions (libpcap syntax) for RoCEv2.
 *
 * <p>A CM MAD travels QP1 to QP1, so the filter looks at the BTH destination QP, three bytes
 * right after the UDP header's 8 bytes and the BTH's first 5:
 * <pre>
 *  UDP header (8)                BTH (12)
 *  +--------+--------+--------+--------+--------+--------+--------+--------+
 *  | sport  | dport  | length | cksum  |op|fl|pkey|rs| dest QP (24) |a| PSN |
 *  +--------+--------+--------+--------+--------+--------+--------+--------+
 *  0        2        4        6        8  9  10  12 13             16    20
 *                                       udp[12:4] & 0x00ffffff == dest QP
 * </pre>
 * libpcap's {@code udp[...]} indexing only works for IPv4, so IPv6 is matched with fixed
 * offsets from the IPv6 header (next header at 6, UDP at 40, no extension headers: RoCEv2
 * senders do not use them). 802.1Q-tagged frames get the same test after {@code vlan}.
 *
 * <p>With congestion counting, CNPs (BTH opcode 0x81, {@code udp[8]}; IPv6 {@code ip6[48]}) pass
 * whatever the sampling, as do PFC frames (MAC control, ethertype 0x8808 with opcode 0x0101 in
 * the two bytes after it, {@code ether[14:2]}; never VLAN-tagged), tested first: libpcap's
 * {@code vlan} moves the offsets of every test after it. LLDP frames (ethertype 0x88cc, never
 * VLAN-tagged) are kept with {@link #withLldp(String)}, tested first for the same reason.
 */
public final class CaptureFilters {
    /** The IANA port of RoCEv2. */
    public static final int ROCEV2_PORT = 4791;
    /** The BTH opcode of a CNP. */
    private static final String CNP = "0x81";
    /** PFC frames: MAC control with the PFC opcode. */
    private static final String PFC = "(ether proto 0x8808 and ether[14:2] = 0x0101)";

    private CaptureFilters() {
        // constants and static builders only
    }

    /**
     * The filter for CM MADs only: UDP to {@code udpPort} whose BTH destination QP is 1.
     *
     * @param udpPort the RoCEv2 UDP port, normally 4791
     * @return a libpcap filter expression
     */
    public static String cmOnly(final int udpPort) {
        checkPort(udpPort);
        final String v4 = "(udp dst port " + udpPort + " and (udp[12:4] & 0x00ffffff) = 1)";
        final String v6 = "(ip6 and ip6[6] = 17 and ip6[42:2] = " + udpPort
            + " and (ip6[52:4] & 0x00ffffff) = 1)";
        final String any = "(" + v4 + " or " + v6 + ")";
        return any + " or (vlan and " + any + ")";
    }

    /**
     * As {@link #cmOnly(int)}; with {@code congestion} PFC frames too (CNPs are not kept: without
     * data sampling no session knows its QPs).
     */
    public static String cmOnly(final int udpPort, final boolean congestion) {
        return (congestion ? PFC + " or " : "") + cmOnly(udpPort);
    }

    /**
     * CM MADs, and the data BTH packets whose PSN is a multiple of {@code every} (a power of two):
     * sampled in the kernel, so that the capture path sees 1 in {@code every} data packets of each
     * QP whatever the rate, as a switch's sFlow would. The PSN is the low 24 bits of
     * {@code udp[16:4]} (IPv6: {@code ip6[56:4]}).
     *
     * @param udpPort the RoCEv2 UDP port, normally 4791
     * @param every 1 for every data packet, else a power of two up to 2^24
     * @return a libpcap filter expression
     */
    public static String cmAndSampledData(final int udpPort, final int every) {
        return cmAndSampledData(udpPort, every, false);
    }

    /**
     * As {@link #cmAndSampledData(int, int)}; with {@code congestion} every CNP too, whatever its
     * PSN, and every PFC frame.
     *
     * @param udpPort the RoCEv2 UDP port, normally 4791
     * @param every 1 for every data packet, else a power of two up to 2^24
     * @param congestion keep CNPs and PFC frames
     * @return a libpcap filter expression
     */
    public static String cmAndSampledData(final int udpPort, final int every, final boolean congestion) {
        checkPort(udpPort);
        if (every < 1 || every > 1 << 24 || Integer.bitCount(every) != 1) {
            throw new IllegalArgumentException("sampling must be a power of two up to 2^24: " + every);
        }
        if (every == 1) {
            return allRoce(udpPort, congestion);
        }
        final String mask = "0x" + Integer.toHexString(every - 1);
        final String v4 = "(udp dst port " + udpPort + " and ((udp[12:4] & 0x00ffffff) = 1 or (udp[16:4] & " + mask
            + ") = 0" + (congestion ? " or udp[8] = " + CNP : "") + "))";
        final String v6 = "(ip6 and ip6[6] = 17 and ip6[42:2] = " + udpPort + " and ((ip6[52:4] & 0x00ffffff) = 1"
            + " or (ip6[56:4] & " + mask + ") = 0" + (congestion ? " or ip6[48] = " + CNP : "") + "))";
        final String any = "(" + v4 + " or " + v6 + ")";
        // PFC first: libpcap's "vlan" moves the offsets of everything after it
        return (congestion ? PFC + " or " : "") + any + " or (vlan and " + any + ")";
    }

    /**
     * The filter for all RoCEv2 (CM and data BTH packets): UDP to {@code udpPort}.
     *
     * @param udpPort the RoCEv2 UDP port, normally 4791
     * @return a libpcap filter expression
     */
    public static String allRoce(final int udpPort) {
        checkPort(udpPort);
        return "(udp dst port " + udpPort + ") or (vlan and udp dst port " + udpPort + ")";
    }

    /** As {@link #allRoce(int)}; with {@code congestion} PFC frames too (CNPs are RoCEv2). */
    public static String allRoce(final int udpPort, final boolean congestion) {
        return (congestion ? PFC + " or " : "") + allRoce(udpPort);
    }

    /**
     * {@code filter}, and every LLDP frame (IEEE 802.1AB, ethertype 0x88cc), tested first: a
     * {@code vlan} in {@code filter} moves the offsets of every test after it.
     *
     * @param filter a libpcap filter expression
     * @return a libpcap filter expression
     */
    public static String withLldp(final String filter) {
        return "(ether proto 0x88cc) or " + filter;
    }

    private static void checkPort(final int udpPort) {
        if (udpPort < 1 || udpPort > 65535) {
            throw new IllegalArgumentException("UDP port out of range: " + udpPort);
        }
    }
}
