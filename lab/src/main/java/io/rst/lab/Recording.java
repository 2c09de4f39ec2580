/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.lab;

import io.rst.rft.pcap.PcapWriter;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;

/**
 * The lab's traffic written as each switch would capture it, one pcap file per switch port
 * ({@code DIR/SWITCH/PORT.pcap}), for machines that cannot make network namespaces: agents replay
 * the files ({@code --replay PORT=FILE}) and the controller sees what a running lab would show.
 * There is no kernel to ask here, so a packet's spine is a stand-in for the fabric's L4 hash (a
 * CRC of the 5-tuple); the forwarding is otherwise the lab's: host, its leaf, a spine, the far
 * leaf, the far host.
 */
public final class Recording implements Traffic.Wire, AutoCloseable {
    private final Fabric fabric;
    private final Path dir;
    private final Map<String, PcapWriter> writers = new LinkedHashMap<>();
    private final byte[] frame = new byte[2048];

    public Recording(final Fabric fabric, final Path dir) throws IOException {
        if (!fabric.dualHomed().isEmpty()) {
            throw new LabException("a recording does not model dual-homed hosts");
        }
        this.fabric = fabric;
        this.dir = dir;
        Files.createDirectories(dir);
    }

    /** The switch ports a packet crosses, as {switch, ingress port} pairs. */
    List<String[]> path(final String srcHost, final String dstHost, final int sport, final byte[] src,
            final byte[] dst) {
        final var a = fabric.node(srcHost);
        final var b = fabric.node(dstHost);
        final String leafA = "leaf" + a.index();
        final String leafB = "leaf" + b.index();
        final List<String[]> out = new ArrayList<>();
        out.add(new String[] {leafA, fabric.peer(srcHost, "eth0").name()});
        if (a.index() != b.index()) {
            final CRC32 crc = new CRC32();
            crc.update(src);
            crc.update(dst);
            crc.update(new byte[] {(byte) (sport >> 8), (byte) sport, 0x12, (byte) 0xb7, 17});
            final int s = (int) (crc.getValue() % fabric.spines()) + 1;
            out.add(new String[] {"spine" + s, "swp" + a.index()});
            out.add(new String[] {leafB, fabric.uplink(b.index(), s).name()});
        }
        return out;
    }

    @Override
    public void send(final String host, final byte[] src, final int srcPort, final byte[] dst,
            final ByteBuffer payload, final int count) throws IOException {
        send(host, src, srcPort, dst, Traffic.CM_TOS, payload, count);
    }

    @Override
    public synchronized void send(final String host, final byte[] src, final int srcPort, final byte[] dst,
            final int tos, final ByteBuffer payload, final int count) throws IOException {
        final String dstHost = fabric.hostsByIp().get(ipString(dst));
        final int len = frame(src, srcPort, dst, tos, payload);
        final long now = System.currentTimeMillis() * 1_000_000L;
        for (var hop : path(host, dstHost, srcPort, src, dst)) {
            final var w = writer(hop[0], hop[1]);
            for (int i = 0; i < count; i++) {
                w.write(now + i * 1000L, frame, 0, len);
            }
        }
    }

    private PcapWriter writer(final String sw, final String port) throws IOException {
        final String key = sw + "/" + port;
        var writer = writers.get(key);
        if (writer == null) {
            Files.createDirectories(dir.resolve(sw));
            writer = PcapWriter.pcap(dir.resolve(sw).resolve(port + ".pcap"), 1, false, true);
            writers.put(key, writer);
        }
        return writer;
    }

    /** Ethernet, IPv4 (with {@code tos}) and UDP around a RoCEv2 payload; returns the frame's length. */
    private int frame(final byte[] src, final int sport, final byte[] dst, final int tos, final ByteBuffer payload) {
        final int plen = payload.remaining();
        java.util.Arrays.fill(frame, 0, 42, (byte) 0);
        frame[0] = 0x02;
        frame[5] = dst[3];
        frame[6] = 0x02;
        frame[11] = src[3];
        frame[12] = 0x08;
        frame[14] = 0x45;
        frame[15] = (byte) tos;
        put16(16, 20 + 8 + plen);
        put16(20, 0x4000);
        frame[22] = 64;
        frame[23] = 17;
        System.arraycopy(src, 0, frame, 26, 4);
        System.arraycopy(dst, 0, frame, 30, 4);
        int sum = 0;
        for (int i = 14; i < 34; i += 2) {
            sum += (frame[i] & 0xff) << 8 | frame[i + 1] & 0xff;
        }
        sum = (sum & 0xffff) + (sum >>> 16);
        sum += sum >>> 16;
        put16(24, ~sum & 0xffff);
        put16(34, sport);
        put16(36, 4791);
        put16(38, 8 + plen);
        payload.duplicate().get(frame, 42, plen);
        return 42 + plen;
    }

    private void put16(final int at, final int value) {
        frame[at] = (byte) (value >>> 8);
        frame[at + 1] = (byte) value;
    }

    private static String ipString(final byte[] ip) {
        return (ip[0] & 0xff) + "." + (ip[1] & 0xff) + "." + (ip[2] & 0xff) + "." + (ip[3] & 0xff);
    }

    /** The files written, by switch: port name to file. */
    public Map<String, Map<String, Path>> files() {
        final Map<String, Map<String, Path>> out = new LinkedHashMap<>();
        for (var key : writers.keySet()) {
            final String[] sp = key.split("/");
            out.computeIfAbsent(sp[0], k -> new LinkedHashMap<>())
                .put(sp[1], dir.resolve(sp[0]).resolve(sp[1] + ".pcap"));
        }
        return out;
    }

    @Override
    public synchronized void close() throws IOException {
        for (var w : writers.values()) {
            w.close();
        }
    }
}
