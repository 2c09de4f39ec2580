/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.manager;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import java.io.IOException;
import java.util.Map;
import org.opendaylight.yangtools.yang.data.api.schema.MapEntryNode;

/**
 * Agents' session records read into the flow table's nodes as a follower reads them
 * ({@link SessionStream}): the nodes tests write to the datastore and compare with what it holds.
 */
final class FollowerNodes {
    private static final JsonFactory JSON = new JsonFactory();

    private FollowerNodes() {
        // utility
    }

    /**
     * The node of one session record, each interface name it reports replaced by the tp-id
     * {@code ports} maps it to, if any.
     *
     * @throws SessionStream.BadRecordException the follower refuses the record
     * @throws IllegalArgumentException the record is a removal, not a session
     */
    static MapEntryNode node(final String record, final Map<String, String> ports)
            throws IOException, SessionStream.BadRecordException {
        try (JsonParser parser = JSON.createParser(record)) {
            parser.nextToken();
            final var node = new SessionStream(ports).read(parser).node();
            if (node == null) {
                throw new IllegalArgumentException("a removal, not a session: " + record);
            }
            return node;
        }
    }

    /** The node of the least a CM session's record holds: its id and its requester's comm ID. */
    static MapEntryNode minimal(final String id) {
        try {
            return node("{\"session_id\":\"" + id + "\",\"requester_comm_id\":\"0x00000001\"}", Map.of());
        } catch (IOException | SessionStream.BadRecordException e) {
            throw new IllegalStateException("the follower refused a minimal record " + id, e);
        }
    }
}
