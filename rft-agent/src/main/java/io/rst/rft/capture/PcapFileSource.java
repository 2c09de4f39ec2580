/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.capture;

import java.io.EOFException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import org.pcap4j.core.NotOpenException;
import org.pcap4j.core.PcapHandle;
import org.pcap4j.core.PcapHandle.TimestampPrecision;
import org.pcap4j.core.PcapNativeException;
import org.pcap4j.core.Pcaps;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Replays a pcap or pcapng file into a ring, as fast as the consumer takes it and without loss
 * (unlike live capture, a file can wait): the agent's offline mode, for load tests and for
 * filling a table from a recorded capture. Frames carry the source's name as ingress port.
 */
public final class PcapFileSource extends CaptureSource {
    private static final Logger LOG = LoggerFactory.getLogger(PcapFileSource.class);

    /** pcap_next_ex's answer at the end of a file. */
    private static final int PCAP_EOF = -2;

    private final String path;
    private volatile boolean finished;

    public PcapFileSource(final String portName, final String path, final FrameRing ring) {
        super(portName, ring);
        this.path = path;
    }

    /** Whether the whole file has been read. */
    public boolean finished() {
        return finished;
    }

    @Override
    protected void capture() {
        final PcapHandle h;
        try {
            h = Pcaps.openOffline(path, TimestampPrecision.MICRO);
        } catch (PcapNativeException e) {
            setError("cannot read " + path + ": " + e.getMessage());
            LOG.warn("cannot read {}: {}", path, e.getMessage());
            return;
        }
        PcapNextEx fast = null;
        try {
            fast = PcapNextEx.open(h);
        } catch (ReflectiveOperationException e) {
            LOG.info("replaying {} through pcap4j's getNextRawPacketEx: {}", path, e.toString());
        }
        if (fast != null) {
            LOG.info("replaying {}", path);
            replay(h, fast);
            return;
        }
        LOG.info("replaying {}", path);
        final FrameRing ring = ring();
        long count = packets();
        try {
            while (keepRunning()) {
                final byte[] frame;
                try {
                    frame = h.getNextRawPacketEx();
                } catch (EOFException e) {
                    finished = true;
                    break;
                } catch (TimeoutException e) {
                    continue;
                } catch (PcapNativeException e) {
                    setError("error reading " + path + ": " + e.getMessage());
                    break;
                }
                final long ts = micros(h);
                while (!ring.offerIfRoom(frame, frame.length, ts)) {
                    if (!keepRunning()) {
                        return;
                    }
                    LockSupport.parkNanos(50_000L);
                }
                count++;
                publishPackets(count);
            }
        } catch (NotOpenException e) {
            setError("handle closed");
        } finally {
            h.close();
            LOG.info("replay of {} ended after {} frames", path, count);
        }
    }

    /**
     * The replay loop on libpcap's pcap_next_ex: each frame is read into one reused array, then
     * offered to the ring (waiting for room); pcap4j's reader makes a new array and a native
     * pointer per frame, whose cleaning costs more than the decoding at top speed.
     */
    private void replay(final PcapHandle pcap, final PcapNextEx reader) {
        final FrameRing ring = ring();
        final byte[] slot = new byte[ring.slotBytes()];
        long count = packets();
        try {
            while (keepRunning()) {
                final int rc = reader.next(slot);
                if (rc == PcapNextEx.TIMEOUT) {
                    continue;
                }
                if (rc == PCAP_EOF) {
                    finished = true;
                    break;
                }
                if (rc != PcapNextEx.FRAME) {
                    setError("error reading " + path + ": pcap_next_ex returned " + rc);
                    break;
                }
                while (!ring.offerIfRoom(slot, reader.length(), reader.micros())) {
                    if (!keepRunning()) {
                        return;
                    }
                    LockSupport.parkNanos(50_000L);
                }
                count++;
                publishPackets(count);
            }
        } finally {
            pcap.close();
            LOG.info("replay of {} ended after {} frames", path, count);
        }
    }

    private static long micros(final PcapHandle pcap) {
        final java.sql.Timestamp ts = pcap.getTimestamp();
        return ts == null ? 0L : Math.floorDiv(ts.getTime(), 1000L) * 1_000_000L + ts.getNanos() / 1000;
    }

    @Override
    protected void wakeUp() {
        // the loop checks keepRunning() between frames and while waiting for room
    }

    @Override
    public boolean exhausted() {
        return finished || !isRunning();
    }
}
