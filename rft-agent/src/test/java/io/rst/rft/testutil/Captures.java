/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.testutil;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.rst.rft.decode.CmMessage;
import io.rst.rft.decode.DecodeResult;
import io.rst.rft.decode.FrameDecoder;
import io.rst.rft.pcap.CaptureFileReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Finds ../shared/pcaps and decodes files for tests. */
public final class Captures {
    private static final Path DIR = find();

    private Captures() {
    }

    private static Path find() {
        final String prop = System.getProperty("rst.pcaps");
        if (prop != null && !prop.isEmpty()) {
            final Path p = Path.of(prop);
            return Files.isDirectory(p) ? p : null;
        }
        for (Path a = Path.of(System.getProperty("user.dir")).toAbsolutePath(); a != null; a = a.getParent()) {
            for (Path c : new Path[] {a.resolve("shared/pcaps"), a.resolveSibling("shared/pcaps")}) {
                if (c != null && Files.isDirectory(c)) {
                    return c;
                }
            }
        }
        return null;
    }

    /**
     * The folder of real captures. When there is none, the calling test fails if the environment
     * says it is CI ({@code CI=true}: CI has the captures), and is skipped with one line why
     * otherwise.
     */
    public static Path dir() {
        if (DIR == null && "true".equalsIgnoreCase(System.getenv("CI"))) {
            fail("no ../shared/pcaps (set -Drst.pcaps=DIR), and CI=true: CI runs the real-capture tests");
        }
        assumeTrue(DIR != null, "no ../shared/pcaps (set -Drst.pcaps=DIR): real-capture tests skipped");
        return DIR;
    }

    /** Every *.pcap / *.pcapng of the folder. */
    public static List<Path> all() throws IOException {
        try (Stream<Path> s = Files.list(dir())) {
            return s.filter(p -> p.toString().endsWith(".pcap") || p.toString().endsWith(".pcapng")).sorted()
                .toList();
        }
    }

    /** Decodes a file; returns a copy of every CM MAD. */
    public static List<CmMessage> cmMessages(final Path file) throws IOException {
        final FrameDecoder dec = new FrameDecoder();
        final CmMessage m = new CmMessage();
        final List<CmMessage> out = new ArrayList<>();
        try (CaptureFileReader r = CaptureFileReader.open(file)) {
            m.setTimeDigits(r.timeDigits());
            r.readAll((frame, ns, lt, ifId, buf, off, cap, orig) -> {
                m.setCapture(frame, ns);
                if (dec.decode(lt, buf, off, cap, m) == DecodeResult.CM_MAD) {
                    final CmMessage c = new CmMessage();
                    c.copyFrom(m);
                    out.add(c);
                }
            });
        }
        return out;
    }
}
