/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.capture;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;
import edu.umd.cs.findbugs.annotations.SuppressFBWarnings;
import java.lang.reflect.Field;
import org.eclipse.jdt.annotation.Nullable;
import org.pcap4j.core.PcapHandle;

/**
 * Reads frames with libpcap's {@code pcap_next_ex} (JNA direct mapping) straight into a ring
 * slot, on a handle that pcap4j opened and set up. pcap4j's own {@code getNextRawPacket} takes a
 * lock, allocates a byte[] and a {@code java.sql.Timestamp} per frame and goes through thread
 * locals; this path allocates nothing per frame: one native call, three reads of the header,
 * one copy of the bytes.
 *
 * <pre>
 * struct pcap_pkthdr (LP64 Linux):
 *  +---------------------+---------------------+----------+----------+
 *  | ts.tv_sec  (long 8) | ts.tv_usec (long 8) | caplen 4 | len 4    |
 *  +---------------------+---------------------+----------+----------+
 *  0                     8                     16         20         24
 * </pre>
 * Only 64-bit Linux has this layout for certain; {@link #open} says when it cannot be used, and
 * the caller stays with pcap4j's path.
 */
final class PcapNextEx {
    /** pcap_next_ex's answers. */
    static final int FRAME = 1;
    static final int TIMEOUT = 0;

    private static final Throwable UNAVAILABLE = register();

    private static native int pcap_next_ex(Pointer pcap, Pointer headerOut, Pointer dataOut);

    /** Binds {@link #pcap_next_ex} to libpcap; what stopped it, or null. */
    @SuppressWarnings("checkstyle:IllegalCatch") // whatever fails, the class stays usable and says why
    private static @Nullable Throwable register() {
        try {
            if (!Platform.isLinux() || !Platform.is64Bit()) {
                throw new UnsupportedOperationException("pcap_pkthdr layout known for 64-bit Linux only");
            }
            Native.register(PcapNextEx.class, NativeLibrary.getInstance(Platform.isLinux() ? "pcap" : "wpcap"));
            return null;
        } catch (RuntimeException | LinkageError e) {
            return e;
        }
    }

    private final Pointer pcap;
    /** Where pcap_next_ex puts its two pointers: header at 0, data at 8. */
    private final Memory out = new Memory(16);
    private final Pointer dataOut = out.share(8);
    /** Reused views, re-aimed at each frame's header and bytes (no Pointer per frame). */
    private final Pointer header = new Pointer(0);
    private final Pointer data = new Pointer(0);
    private int caplen;
    private int wireLen;
    private long micros;

    private PcapNextEx(final Pointer pcap) {
        this.pcap = pcap;
    }

    /**
     * The fast reader for an open pcap4j handle, or null (with the reason logged by the caller)
     * when this platform or pcap4j version does not allow it.
     */
    @SuppressFBWarnings(value = "DP_DO_INSIDE_DO_PRIVILEGED",
        justification = "no security manager in Java 21; the field is pcap4j's, read once per capture")
    static PcapNextEx open(final PcapHandle handle) throws ReflectiveOperationException {
        if (UNAVAILABLE != null) {
            throw new ReflectiveOperationException("pcap_next_ex through JNA unavailable: " + UNAVAILABLE);
        }
        // pcap4j keeps the pcap_t* private; it stays the owner (filter, stats, close)
        final Field f = PcapHandle.class.getDeclaredField("handle");
        f.setAccessible(true);
        final Pointer p = (Pointer) f.get(handle);
        if (p == null) {
            throw new ReflectiveOperationException("pcap4j handle has no pcap_t");
        }
        return new PcapNextEx(p);
    }

    /**
     * Reads the next frame into {@code slot} (at most its length).
     *
     * @return {@link #FRAME}, {@link #TIMEOUT} (no frame within the read timeout), or a negative
     *     libpcap error (-1 error, -2 break loop)
     */
    int next(final byte[] slot) {
        final int rc = pcap_next_ex(pcap, out, dataOut);
        if (rc != FRAME) {
            return rc;
        }
        Pointer.nativeValue(header, out.getLong(0));
        Pointer.nativeValue(data, out.getLong(8));
        micros = header.getLong(0) * 1_000_000L + header.getLong(8);
        caplen = header.getInt(16);
        wireLen = header.getInt(20);
        final int n = Math.min(caplen, slot.length);
        data.read(0, slot, 0, n);
        caplen = n;
        return FRAME;
    }

    /** Bytes of the last frame copied into the slot. */
    int length() {
        return caplen;
    }

    /** The last frame's length on the wire. */
    int wireLength() {
        return wireLen;
    }

    /** The last frame's capture time, microseconds since the epoch. */
    long micros() {
        return micros;
    }
}
