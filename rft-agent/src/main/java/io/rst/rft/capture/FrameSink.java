/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.capture;

/**
 * Receives raw link-layer (Ethernet) frames. The buffer is only valid during the call: the
 * caller reuses it for the next frame, so an implementation that keeps bytes must copy them.
 */
@FunctionalInterface
public interface FrameSink {
    /**
     * One captured frame.
     *
     * @param buf buffer holding the frame
     * @param off offset of the first byte of the Ethernet header in {@code buf}
     * @param len number of captured bytes (may be less than the frame's length on the wire)
     * @param tsMicros capture time, microseconds since the epoch
     * @param ifIndex index of the capture source in its {@link CaptureGroup} (not a kernel ifindex)
     */
    void onFrame(byte[] buf, int off, int len, long tsMicros, int ifIndex);
}
