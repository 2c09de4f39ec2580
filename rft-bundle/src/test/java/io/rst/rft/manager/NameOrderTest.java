/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.manager;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Reading with guessed names gives the names and values that reading without them gives. */
class NameOrderTest {
    private static final JsonFactory JSON = new JsonFactory();
    private static final NameOrder ORDER = new NameOrder("a", "bb", "requester_udp_src_port", "d_long_name_here");

    @Test
    void inOrderOutOfOrderMissingUnknownAndEscapedNamesReadAsWithout() throws IOException {
        final var rnd = new Random(7);
        final var text = new StringBuilder();
        final String[] pool = {"a", "bb", "requester_udp_src_port", "d_long_name_here", "zz", "requester_udp_src_por",
            "requester_udp_src_portX", "b\\u0062", "requester_\\u0075dp_src_port"};
        for (int r = 0; r < 3000; r++) {
            text.append('{');
            final int n = rnd.nextInt(6);
            for (int i = 0; i < n; i++) {
                // mostly the order, sometimes a jump, a stranger or an escaped name
                final String name = rnd.nextInt(4) > 0 ? pool[Math.min(i, 3)] : pool[rnd.nextInt(pool.length)];
                text.append(i > 0 ? "," : "").append(rnd.nextBoolean() ? " " : "").append('"').append(name)
                    .append("\":").append(rnd.nextBoolean() ? "\"v" + r + "\"" : "{\"a\":[1," + i + "]}");
            }
            text.append("}\n");
        }
        final byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
        // one byte at a time too: names then straddle the parser's buffer ends
        for (final boolean trickle : new boolean[] {false, true}) {
            assertEquals(read(bytes, false, trickle), read(bytes, true, trickle), "trickle " + trickle);
        }
    }

    @Test
    void escapedAndUnknownNamesAreTold() throws IOException {
        try (JsonParser p = JSON.createParser("{\"b\\u0062\":1,\"zz\":2,\"requester_udp_src_port\":3}")) {
            p.nextToken();
            int field = ORDER.next(p, NameOrder.END);
            assertEquals(1, field, "an escaped name is its text");
            assertEquals("bb", ORDER.name(p, field));
            p.nextToken();
            field = ORDER.next(p, field);
            assertEquals(NameOrder.OTHER, field);
            assertEquals("zz", ORDER.name(p, field));
            p.nextToken();
            field = ORDER.next(p, field);
            assertEquals(2, field);
            p.nextToken();
            assertEquals(3, p.getIntValue());
            assertEquals(NameOrder.END, ORDER.next(p, field));
            assertEquals(JsonToken.END_OBJECT, p.currentToken());
        }
    }

    private static List<String> read(final byte[] bytes, final boolean guessed, final boolean trickle)
            throws IOException {
        final InputStream in = trickle ? new ByteArrayInputStream(bytes) {
            @Override
            public synchronized int read(final byte[] buffer, final int off, final int len) {
                return super.read(buffer, off, Math.min(len, 7));
            }
        } : new ByteArrayInputStream(bytes);
        final List<String> out = new ArrayList<>();
        try (JsonParser p = JSON.createParser(in)) {
            while (p.nextToken() == JsonToken.START_OBJECT) {
                int field = NameOrder.END;
                while (true) {
                    final String name;
                    if (guessed) {
                        field = ORDER.next(p, field);
                        if (field == NameOrder.END) {
                            break;
                        }
                        name = ORDER.name(p, field);
                        assertEquals(p.currentName(), name);
                    } else {
                        if (p.nextToken() != JsonToken.FIELD_NAME) {
                            break;
                        }
                        name = p.currentName();
                    }
                    final JsonToken value = p.nextToken();
                    if (value == JsonToken.START_OBJECT) {
                        p.skipChildren();
                        out.add(name + "={}");
                    } else {
                        out.add(name + "=\"" + p.getText());
                    }
                }
                assertEquals(JsonToken.END_OBJECT, p.currentToken());
                out.add("}");
            }
        }
        return out;
    }
}
