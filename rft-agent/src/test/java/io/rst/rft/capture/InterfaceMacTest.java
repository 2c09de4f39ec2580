/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An interface's MAC address as the agent reads it from the kernel's {@code address} file: lower
 * case; null for a missing file, an all-zero address (loopback) or what is no 6-byte address.
 */
class InterfaceMacTest {
    @TempDir
    Path dir;

    private String read(final String content) throws Exception {
        final Path f = dir.resolve("address");
        Files.writeString(f, content);
        return PcapLiveSource.readMac(f);
    }

    @Test
    void theKernelsAddressFile() throws Exception {
        assertEquals("0c:42:a1:00:10:ff", read("0C:42:A1:00:10:FF\n"));
        assertEquals("02:00:00:00:00:01", read("02:00:00:00:00:01"));
        assertNull(read("00:00:00:00:00:00\n"), "loopback");
        assertNull(read("80:00:00:48:fe:80:00:00:00:00:00:00:02:00:5e:10:00:00:00:01\n"), "an InfiniBand address");
        assertNull(read(""), "empty");
        assertNull(read("not a mac\n"));
        assertNull(PcapLiveSource.readMac(dir.resolve("missing")));
    }

    @Test
    void aReplayHasNone() {
        final PcapFileSource f = new PcapFileSource("swp1", dir.resolve("x.pcap").toString(), new FrameRing(1024, 256));
        assertNull(f.mac());
    }
}
