/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.capture;

import edu.umd.cs.findbugs.annotations.SuppressFBWarnings;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.util.Locale;
import org.eclipse.jdt.annotation.Nullable;
import org.pcap4j.core.BpfProgram.BpfCompileMode;
import org.pcap4j.core.NotOpenException;
import org.pcap4j.core.PcapHandle;
import org.pcap4j.core.PcapHandle.PcapDirection;
import org.pcap4j.core.PcapNativeException;
import org.pcap4j.core.PcapNetworkInterface.PromiscuousMode;
import org.pcap4j.core.PcapStat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Live capture on one interface with libpcap (through pcap4j's raw-packet API), inbound only, so
 * that the interface is the ingress port of every frame it delivers.
 */
@SuppressFBWarnings(value = { "NP_NONNULL_FIELD_NOT_INITIALIZED_IN_CONSTRUCTOR", "NP_STORE_INTO_NONNULL_FIELD" },
    justification = "SpotBugs reads no TYPE_USE @Nullable on fields: these fields are @Nullable")
public final class PcapLiveSource extends CaptureSource {
    private static final Logger LOG = LoggerFactory.getLogger(PcapLiveSource.class);
    /** How often libpcap's drop counters are read, in nanoseconds. */
    private static final long STATS_INTERVAL_NANOS = 500_000_000L;

    private final String filter;
    private final int bufferBytes;
    private final int timeoutMillis;
    private volatile @Nullable PcapHandle handle;
    private volatile @Nullable String reader;
    private volatile @Nullable String mac;

    /**
     * Makes a source; nothing is opened until {@link #start()}.
     *
     * @param ifName the interface
     * @param filter a libpcap filter expression, see {@link CaptureFilters}
     * @param ring where frames go; its slot size is also the snap length
     * @param bufferBytes the kernel capture buffer size
     * @param timeoutMillis libpcap's read timeout, which bounds how long a frame may wait in a
     *     kernel block before it is delivered, and how long {@link #stop()} may take
     */
    public PcapLiveSource(final String ifName, final String filter, final FrameRing ring, final int bufferBytes,
            final int timeoutMillis) {
        super(ifName, ring);
        this.filter = filter;
        this.bufferBytes = bufferBytes;
        this.timeoutMillis = timeoutMillis;
    }

    @Override
    public @Nullable String mac() {
        return mac;
    }

    /**
     * The MAC address in {@code file} (the kernel's {@code /sys/class/net/IF/address}), lower case,
     * or null when the file is missing or holds no 6-byte colon-separated address (or all zeros,
     * as a loopback's).
     */
    static @Nullable String readMac(final Path file) {
        final String text;
        try {
            text = Files.readString(file, StandardCharsets.US_ASCII).trim().toLowerCase(Locale.ROOT);
        } catch (IOException | SecurityException e) {
            return null;
        }
        return text.matches("[0-9a-f]{2}(:[0-9a-f]{2}){5}") && !"00:00:00:00:00:00".equals(text) ? text : null;
    }

    @Override
    @SuppressWarnings("checkstyle:IllegalCatch") // whatever keeps pcap_next_ex from opening, pcap4j reads
    protected void capture() {
        mac = readMac(Path.of("/sys/class/net", name(), "address"));
        final PcapHandle h;
        try {
            h = new PcapHandle.Builder(name())
                .snaplen(ring().slotBytes())
                .promiscuousMode(PromiscuousMode.PROMISCUOUS)
                .timeoutMillis(timeoutMillis)
                .bufferSize(bufferBytes)
                .build();
        } catch (PcapNativeException e) {
            setError("cannot open " + name() + ": " + e.getMessage());
            LOG.warn("cannot open {}: {}", name(), e.getMessage());
            return;
        }
        try {
            h.setDirection(PcapDirection.IN);
            h.setFilter(filter, BpfCompileMode.OPTIMIZE);
        } catch (PcapNativeException | NotOpenException e) {
            setError("cannot set up capture on " + name() + ": " + e.getMessage());
            LOG.warn("cannot set up capture on {}: {}", name(), e.getMessage());
            h.close();
            return;
        }
        handle = h;
        LOG.info("capturing on {} (inbound, filter: {})", name(), filter);
        PcapNextEx fast = null;
        try {
            fast = PcapNextEx.open(h);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            LOG.info("capture on {} through pcap4j's getNextRawPacket: {}", name(), e.toString());
        }
        reader = fast != null ? "pcap_next_ex" : "pcap4j";
        try {
            if (fast != null) {
                loop(h, fast);
            } else {
                loop(h);
            }
        } finally {
            handle = null;
            readStats(h);
            h.close();
            LOG.info("capture on {} stopped", name());
        }
    }

    /** The capture loop on libpcap's pcap_next_ex: frames go straight into ring slots. */
    private void loop(final PcapHandle pcap, final PcapNextEx nextEx) {
        final FrameRing ring = ring();
        // a full ring still has to take the frame from libpcap, to count it: it lands here
        final byte[] overflow = new byte[ring.slotBytes()];
        long count = packets();
        long nextStats = System.nanoTime() + STATS_INTERVAL_NANOS;
        while (keepRunning()) {
            final byte[] claimed = ring.claim();
            final boolean full = claimed == FrameRing.FULL;
            final int rc = nextEx.next(full ? overflow : claimed);
            if (rc == PcapNextEx.FRAME) {
                count++;
                publishPackets(count);
                if (full) {
                    ring.countDrop();
                } else {
                    ring.commit(nextEx.length(), nextEx.wireLength(), nextEx.micros());
                }
            } else if (rc < 0 && rc != -2) {
                setError("capture on " + name() + " failed: pcap_next_ex returned " + rc);
                return;
            }
            if (rc != PcapNextEx.FRAME || (count & 0x3ff) == 0) {
                final long now = System.nanoTime();
                if (now - nextStats >= 0) {
                    readStats(pcap);
                    nextStats = now + STATS_INTERVAL_NANOS;
                }
            }
        }
    }

    private void loop(final PcapHandle pcap) {
        final FrameRing ring = ring();
        long count = packets();
        long nextStats = System.nanoTime() + STATS_INTERVAL_NANOS;
        while (keepRunning()) {
            final byte[] frame;
            try {
                // pcap4j copies each frame into a new array; it dies young, and the ring copy is
                // what lives on, so the heap stays bounded whatever the rate
                frame = pcap.getNextRawPacket();
            } catch (NotOpenException e) {
                setError("capture handle closed");
                return;
            }
            if (frame != null) {
                count++;
                publishPackets(count);
                ring.offer(frame, frame.length, micros(pcap.getTimestamp()));
            }
            if (frame == null || (count & 0x3ff) == 0) {
                final long now = System.nanoTime();
                if (now - nextStats >= 0) {
                    readStats(pcap);
                    nextStats = now + STATS_INTERVAL_NANOS;
                }
            }
        }
    }

    private void readStats(final PcapHandle pcap) {
        try {
            final PcapStat s = pcap.getStats();
            publishDrops(s.getNumPacketsDropped(), s.getNumPacketsDroppedByIf());
        } catch (PcapNativeException | NotOpenException e) {
            LOG.debug("no stats from {}: {}", name(), e.getMessage());
        }
    }

    private static long micros(final Timestamp ts) {
        if (ts == null) {
            return System.currentTimeMillis() * 1000L;
        }
        return Math.floorDiv(ts.getTime(), 1000L) * 1_000_000L + ts.getNanos() / 1000;
    }

    /**
     * How frames are read: {@code pcap_next_ex} (into ring slots, no allocation) or
     * {@code pcap4j} (its getNextRawPacket, where the fast path is not available); null before the
     * first start.
     */
    public String reader() {
        return reader;
    }

    @Override
    protected void wakeUp() {
        final PcapHandle h = handle;
        if (h != null) {
            try {
                h.breakLoop();
            } catch (NotOpenException e) {
                // already closed by its thread: nothing to wake
            }
        }
    }

    @Override
    public long deliveryBoundMicros() {
        // libpcap hands a frame over within its read timeout (TPACKET_V3 retires a block by then);
        // twice that plus scheduling slack
        return (2L * timeoutMillis + 30) * 1000L;
    }
}
