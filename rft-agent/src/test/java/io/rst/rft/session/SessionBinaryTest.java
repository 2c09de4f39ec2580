/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rst.rft.decode.CmMessage;
import io.rst.rft.decode.JsonBytes;
import io.rst.rft.pcap.CmTrafficGenerator;
import io.rst.rft.testutil.Captures;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The write-ahead log's binary session records: every generated scenario (IPv4 and IPv6, every
 * message type, several ports, sessions removed) decodes to the very JSON it was encoded from,
 * and restored from its records a table holds what the first held; damaged records are refused.
 */
class SessionBinaryTest {
    @TempDir
    Path tmp;

    private record Drained(String json, byte[] bin) {
    }

    private List<Drained> drainAll(final SessionTable table) {
        final List<Drained> out = new ArrayList<>();
        table.drainChanges(new JsonBytes(64),
            j -> out.add(new Drained(j.toString(), table.lastBinary().toByteArray())));
        return out;
    }

    @Test
    void everyScenarioDecodesToTheJsonItWasEncodedFromAndRestoresTheTable() throws Exception {
        final Path pcap = tmp.resolve("all.pcap");
        new CmTrafficGenerator(CmTrafficGenerator.Options.allTypes(110, 5)).write(pcap);
        // small: sessions are evicted (handed over removed); a long retention keeps the finished ones
        final SessionTable t = new SessionTable(new SessionConfig(80, 3_600_000_000L, 0L, 32), null);
        t.trackChanges();
        t.recordBinary();
        final List<Drained> drained = new ArrayList<>();
        int seen = 0;
        for (CmMessage c : Captures.cmMessages(pcap)) {
            t.accept(c, seen % 7 == 0 ? null : "swp" + seen % 3);
            seen++;
            if (seen % 50 == 0) {
                drained.addAll(drainAll(t));
            }
        }
        drained.addAll(drainAll(t));
        assertTrue(drained.stream().anyMatch(d -> d.json().contains("\"removed\":true")), "evictions handed over");
        assertTrue(drained.stream()
            .anyMatch(d -> d.json().matches("(?s).*\"requester_ip\":\"[0-9a-f.]*:[0-9a-f:.]*\".*")),
            "IPv6 among them");

        final SessionTable back = new SessionTable(new SessionConfig(80, 3_600_000_000L, 0L, 32), null);
        final JsonBytes json = new JsonBytes(64);
        long binBytes = 0;
        long jsonBytes = 0;
        for (Drained d : drained) {
            assertTrue(back.restoreBinary(d.bin(), 0, d.bin().length, true, json), d.json());
            assertEquals(d.json(), json.toString());
            binBytes += d.bin().length;
            jsonBytes += d.json().length();
        }
        assertEquals(toJson(t), toJson(back), "the same table after its log's records");
        assertTrue(binBytes * 4 < jsonBytes, "a record is a fraction of the JSON: " + binBytes + " / " + jsonBytes);
    }

    @Test
    void damagedRecordsAreRefusedAndChangeNothing() throws Exception {
        final Path pcap = tmp.resolve("some.pcap");
        new CmTrafficGenerator(CmTrafficGenerator.Options.allTypes(20, 9)).write(pcap);
        final SessionTable t = new SessionTable(SessionConfig.DEFAULT, null);
        t.trackChanges();
        t.recordBinary();
        for (CmMessage c : Captures.cmMessages(pcap)) {
            t.accept(c, "swp1");
        }
        final List<Drained> drained = drainAll(t);
        final SessionTable back = new SessionTable(SessionConfig.DEFAULT, null);
        final JsonBytes json = new JsonBytes(64);
        for (Drained d : drained) {
            final byte[] b = d.bin();
            for (int n = 0; n < b.length; n++) {
                assertFalse(back.restoreBinary(b, 0, n, true, json), "cut at " + n);
            }
            final byte[] longer = java.util.Arrays.copyOf(b, b.length + 1);
            assertFalse(back.restoreBinary(longer, 0, longer.length, true, json), "a byte too many");
            final byte[] otherFormat = b.clone();
            otherFormat[0] = 3;
            assertFalse(back.restoreBinary(otherFormat, 0, b.length, true, json), "another format");
        }
        final Random r = new Random(1);
        for (int k = 0; k < 2000; k++) {
            final byte[] junk = new byte[r.nextInt(300)];
            r.nextBytes(junk);
            if (junk.length > 0) {
                junk[0] = 1;
            }
            back.restoreBinary(junk, 0, junk.length, true, json);
        }
        assertEquals(0, back.size() - back.snapshot().size(), "consistent after garbage");
    }

    private static List<String> toJson(final SessionTable table) {
        final List<String> out = new ArrayList<>();
        table.snapshotJson(new JsonBytes(64), j -> out.add(j.toString()));
        return out;
    }
}
