/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.pcap;

/**
 * Receives each packet of a capture file. The bytes are a view into the reader's buffer, valid
 * only during the call: decode them there, copy what must outlive it.
 */
@FunctionalInterface
public interface PacketHandler {
    /**
     * One packet.
     *
     * @param frame 1-based index of the packet in the file
     * @param epochNanos capture time, nanoseconds since the epoch
     * @param linkType the pcap linktype of the packet's interface
     * @param interfaceId pcapng interface index (0 in pcap files)
     * @param buf buffer holding the captured bytes
     * @param off offset of the first captured byte
     * @param capLen number of captured bytes
     * @param origLen length of the packet on the wire
     */
    void packet(long frame, long epochNanos, int linkType, int interfaceId, byte[] buf, int off, int capLen,
            int origLen);
}
