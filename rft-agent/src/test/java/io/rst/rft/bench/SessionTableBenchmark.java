/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.bench;

import io.rst.rft.decode.CmMessage;
import io.rst.rft.decode.CmMessageType;
import io.rst.rft.decode.FrameDecoder;
import io.rst.rft.pcap.CmFrameBuilder;
import io.rst.rft.session.SessionConfig;
import io.rst.rft.session.SessionTable;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Session-table updates per second on one core: a stream of REQ, REP, RTU, DREQ, DREP for 64k
 * connections at a time (each connection's messages in order, connections interleaved), into a
 * table of at most 1M sessions with no listener. When the stream wraps, the REQs reuse the comm
 * IDs of CLOSED sessions, which the table replaces: the table sees a steady churn.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "-Xmx4g")
public class SessionTableBenchmark {
    private static final int CONNS = 1 << 16;
    private static final CmMessageType[] TYPES = {CmMessageType.REQ, CmMessageType.REP, CmMessageType.RTU,
        CmMessageType.DREQ, CmMessageType.DREP};

    private CmMessage[] stream;
    private SessionTable table;
    private int next;
    private long time;

    @Setup
    public void setup() {
        final CmFrameBuilder b = new CmFrameBuilder();
        final FrameDecoder d = new FrameDecoder();
        final byte[] f = new byte[512];
        stream = new CmMessage[CONNS * TYPES.length];
        int at = 0;
        for (int step = 0; step < TYPES.length; step++) {
            for (int c = 0; c < CONNS; c++) {
                final boolean fromA = step != 1 && step != 4;
                final byte[] a = {10, 0, (byte) (c >> 8), (byte) c};
                final byte[] z = {10, 1, (byte) (c >> 8), (byte) c};
                b.type(TYPES[step]).ips(fromA ? a : z, fromA ? z : a)
                    .commIds(fromA ? c : ~c, step == 0 ? 0 : fromA ? ~c : c).localQpn(c).remoteQpn(c);
                final int len = b.build(f);
                final CmMessage m = new CmMessage();
                d.decodeEthernet(f, 0, len, m);
                stream[at++] = m;
            }
        }
        table = new SessionTable(new SessionConfig(1 << 20, 1_000_000_000L, 0L, 32), null);
    }

    /** One CM message applied per call. */
    @Benchmark
    public boolean accept() {
        final CmMessage m = stream[next];
        next = next + 1 == stream.length ? 0 : next + 1;
        m.setCapture(0, time += 1000);
        return table.accept(m, "swp1");
    }
}
