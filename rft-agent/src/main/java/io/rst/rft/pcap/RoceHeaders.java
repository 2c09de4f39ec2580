/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.pcap;

/**
 * The headers every generated RoCEv2 frame starts with: Ethernet (locally administered MACs made
 * of the addresses' last bytes, optional VLAN tags), IPv4 (with its checksum) or IPv6, and UDP.
 * The frame builders write what follows the UDP header.
 */
final class RoceHeaders {
    private RoceHeaders() {
        // utility
    }

    /**
     * Writes the headers at {@code buf[0..]}, zero-filled by the caller.
     *
     * @param vlans VLAN IDs, outermost first (two: QinQ)
     * @param tos the IP traffic class byte (DSCP and ECN)
     * @param udpLen the UDP length: its header, the payload and the ICRC
     * @return the offset of the UDP payload (the BTH)
     */
    static int write(final byte[] buf, final byte[] srcIp, final byte[] dstIp, final int[] vlans, final int tos,
            final int udpSrcPort, final int udpDstPort, final int udpLen) {
        buf[0] = 0x02;
        buf[5] = dstIp[dstIp.length - 1];
        buf[6] = 0x02;
        buf[11] = srcIp[srcIp.length - 1];
        int pos = 12;
        for (int i = 0; i < vlans.length; i++) {
            put16(buf, pos, vlans.length > 1 && i == 0 ? 0x88a8 : 0x8100);
            put16(buf, pos + 2, vlans[i] & 0x0fff | 3 << 13);
            pos += 4;
        }
        final boolean v4 = srcIp.length == 4;
        put16(buf, pos, v4 ? 0x0800 : 0x86dd);
        pos += 2;
        if (v4) {
            buf[pos] = 0x45;
            buf[pos + 1] = (byte) tos;
            put16(buf, pos + 2, 20 + udpLen);
            put16(buf, pos + 6, 0x4000);
            buf[pos + 8] = 64;
            buf[pos + 9] = 17;
            System.arraycopy(srcIp, 0, buf, pos + 12, 4);
            System.arraycopy(dstIp, 0, buf, pos + 16, 4);
            int sum = 0;
            for (int i = 0; i < 20; i += 2) {
                sum += (buf[pos + i] & 0xff) << 8 | buf[pos + i + 1] & 0xff;
            }
            sum = (sum & 0xffff) + (sum >>> 16);
            sum += sum >>> 16;
            put16(buf, pos + 10, ~sum & 0xffff);
            pos += 20;
        } else {
            put32(buf, pos, 6 << 28 | (tos & 0xff) << 20);
            put16(buf, pos + 4, udpLen);
            buf[pos + 6] = 17;
            buf[pos + 7] = 64;
            System.arraycopy(srcIp, 0, buf, pos + 8, 16);
            System.arraycopy(dstIp, 0, buf, pos + 24, 16);
            pos += 40;
        }
        put16(buf, pos, udpSrcPort);
        put16(buf, pos + 2, udpDstPort);
        put16(buf, pos + 4, udpLen);
        return pos + 8;
    }

    static void put16(final byte[] buf, final int at, final int value) {
        buf[at] = (byte) (value >>> 8);
        buf[at + 1] = (byte) value;
    }

    static void put32(final byte[] buf, final int at, final int value) {
        buf[at] = (byte) (value >>> 24);
        buf[at + 1] = (byte) (value >>> 16);
        buf[at + 2] = (byte) (value >>> 8);
        buf[at + 3] = (byte) value;
    }
}
