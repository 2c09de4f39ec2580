/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rst.rft.decode.JsonBytes;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The event log's lines and its two bounds (events and bytes). */
class EventLogTest {
    private static JsonBytes session(final int size) {
        final JsonBytes j = new JsonBytes(16);
        j.raw("{\"session_id\":\"").raw("x".repeat(size)).raw("\"}");
        return j;
    }

    @Test
    void linesAreWholeJsonEventsWithTheirSeqAndTime() throws Exception {
        final EventLog log = new EventLog(8);
        assertEquals(1, log.appendSession(1_767_225_600_000_001L, session(3)));
        assertEquals(2, log.appendSession(5L, session(1)));
        final List<EventLog.Event> all = log.after(0, 10);
        final String line = new String(all.get(0).line(), StandardCharsets.US_ASCII);
        assertTrue(line.endsWith("}\n"), line);
        final JsonNode n = new ObjectMapper().readTree(line);
        assertEquals(1, n.path("seq").asLong());
        assertTrue(line.startsWith("{\"seq\":1,\"time\":1767225600.000001,"), line);
        assertEquals("session", n.path("type").asText());
        assertEquals("xxx", n.path("session").path("session_id").asText());
        assertTrue(new String(all.get(1).line(), StandardCharsets.US_ASCII)
            .startsWith("{\"seq\":2,\"time\":0.000005,"));
    }

    @Test
    void theOldestGoWhenEitherBoundIsReached() {
        final EventLog byCount = new EventLog(4);
        for (int i = 0; i < 10; i++) {
            byCount.appendSession(i, session(10));
        }
        assertEquals(7, byCount.firstRetainedSeq());
        assertEquals(List.of(7L, 8L, 9L, 10L), byCount.after(0, 100).stream().map(EventLog.Event::seq).toList());

        final int lineBytes = byCount.after(9, 1).get(0).line().length;
        final EventLog byBytes = new EventLog(1000, 3L * lineBytes);
        for (int i = 0; i < 10; i++) {
            byBytes.appendSession(i, session(10));
        }
        assertEquals(8, byBytes.firstRetainedSeq(), "three lines fit");
        // seq 8 and 9 have one digit less than 10: three lines fit, four do not
        assertEquals(byBytes.after(0, 100).stream().mapToLong(e -> e.line().length).sum(), byBytes.retainedBytes());
        assertEquals(3L * lineBytes - 2, byBytes.retainedBytes());
        // one event larger than the whole budget is still kept, alone
        byBytes.appendSession(11, session(10 * lineBytes));
        assertEquals(11, byBytes.firstRetainedSeq());
        assertEquals(11, byBytes.lastSeq());
        assertEquals(1, byBytes.after(0, 100).size());
        // a jump forgets everything, and the bytes with it
        byBytes.skipTo(20);
        assertEquals(0, byBytes.retainedBytes());
        assertEquals(21, byBytes.firstRetainedSeq());
        assertEquals(21, byBytes.appendSession(12, session(1)));
    }
}
