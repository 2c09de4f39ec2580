/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.pcap;

import static io.rst.rft.pcap.RoceHeaders.put16;

/**
 * Builds PFC frames (IEEE 802.1Qbb priority-based flow control, an IEEE 802.3 MAC control frame)
 * for tests and generated captures: to the MAC control address 01:80:c2:00:00:01, ethertype
 * 0x8808, opcode 0x0101, the priority-enable vector (bit {@code p}: priority {@code p}), then
 * the pause time of priorities 0 to 7 in quanta of 512 bit times, padded to Ethernet's minimum of
 * 60 bytes (no FCS, as captures show frames). Values are written as given (no validation): tests
 * use odd values on purpose.
 *
 * <pre>
 * dst 01:80:c2:00:00:01(6) src(6) type 8808(2) | opcode 0101(2) | enable vector(2) | time[0..7](2 each) | pad
 * </pre>
 */
public final class PfcFrameBuilder {
    /** The frame's length: Ethernet's minimum without the FCS. */
    public static final int LENGTH = 60;
    /** The bytes that matter: the Ethernet header, the opcode, the vector and the 8 times. */
    public static final int PFC_BYTES = 14 + 20;

    private long srcMac = 0x02_00_00_00_00_01L;
    private int enable;
    private final int[] quanta = new int[8];
    private int opcode = 0x0101;

    /** The source MAC address (48 bits): the port that asks its neighbour to pause. */
    public PfcFrameBuilder srcMac(final long mac) {
        srcMac = mac;
        return this;
    }

    /** The priority-enable vector as written (16 bits; the high byte is reserved). */
    public PfcFrameBuilder enable(final int vector) {
        enable = vector;
        return this;
    }

    /** Pause time of {@code priority} (0 to 7) in quanta (16 bits); its enable bit is set too. */
    public PfcFrameBuilder pause(final int priority, final int time) {
        quanta[priority] = time;
        enable |= 1 << priority;
        return this;
    }

    /** Pause time of {@code priority} without touching the enable vector. */
    public PfcFrameBuilder quanta(final int priority, final int time) {
        quanta[priority] = time;
        return this;
    }

    /** The MAC control opcode (0x0101 PFC, 0x0001 is an 802.3x PAUSE). */
    public PfcFrameBuilder opcode(final int value) {
        opcode = value;
        return this;
    }

    /** A new array holding the frame. */
    public byte[] build() {
        final byte[] b = new byte[LENGTH];
        build(b);
        return b;
    }

    /** Writes the frame at {@code buf[0..]} and returns its length ({@link #LENGTH}). */
    public int build(final byte[] buf) {
        java.util.Arrays.fill(buf, 0, LENGTH, (byte) 0);
        buf[0] = 0x01;
        buf[1] = (byte) 0x80;
        buf[2] = (byte) 0xc2;
        buf[5] = 0x01;
        for (int i = 0; i < 6; i++) {
            buf[6 + i] = (byte) (srcMac >>> 8 * (5 - i));
        }
        put16(buf, 12, 0x8808);
        put16(buf, 14, opcode);
        put16(buf, 16, enable);
        for (int p = 0; p < 8; p++) {
            put16(buf, 18 + 2 * p, quanta[p]);
        }
        return LENGTH;
    }
}
