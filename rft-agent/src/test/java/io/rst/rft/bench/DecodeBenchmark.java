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
import io.rst.rft.decode.DecodeResult;
import io.rst.rft.decode.FrameDecoder;
import io.rst.rft.pcap.CmFrameBuilder;
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
 * CM MADs decoded per second on one core: Ethernet + IPv4 + UDP + BTH + DETH + MAD + CM fields,
 * over 1024 distinct frames of REQ, REP, RTU, DREQ and DREP (some with VLAN tags, some IPv6).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class DecodeBenchmark {
    private static final int N = 1024;
    private static final CmMessageType[] TYPES = {CmMessageType.REQ, CmMessageType.REP, CmMessageType.RTU,
        CmMessageType.DREQ, CmMessageType.DREP};

    private final byte[][] frames = new byte[N][];
    private final int[] lengths = new int[N];
    private final FrameDecoder decoder = new FrameDecoder();
    private final CmMessage msg = new CmMessage();
    private int next;

    @Setup
    public void setup() {
        final CmFrameBuilder b = new CmFrameBuilder();
        for (int i = 0; i < N; i++) {
            final byte[] f = new byte[512];
            b.type(TYPES[i % TYPES.length]).commIds(i * 7919, i * 104729).localQpn(i).transactionId(i * 31L)
                .serviceId(0x0000000001060000L | i).vlans(i % 4 == 0 ? new int[] {100} : new int[0]);
            if (i % 8 == 7) {
                final byte[] a = new byte[16];
                final byte[] c = new byte[16];
                a[0] = (byte) 0xfd;
                c[0] = (byte) 0xfd;
                a[15] = 1;
                c[15] = 2;
                b.ips(a, c);
            } else {
                b.ips(new byte[] {10, 0, (byte) (i >> 8), (byte) i}, new byte[] {10, 1, (byte) (i >> 8), (byte) i});
            }
            if (TYPES[i % TYPES.length] == CmMessageType.REQ) {
                b.ipCm(4, 1000 + i, new byte[] {10, 0, 0, 1}, new byte[] {10, 0, 0, 2});
            } else {
                b.noIpCm();
            }
            lengths[i] = b.build(f);
            frames[i] = f;
        }
    }

    /** One CM MAD decoded per call. */
    @Benchmark
    public int decodeCmMad() {
        final int i = next++ & N - 1;
        final DecodeResult r = decoder.decodeEthernet(frames[i], 0, lengths[i], msg);
        return r.ordinal() + msg.localCommId();
    }
}
