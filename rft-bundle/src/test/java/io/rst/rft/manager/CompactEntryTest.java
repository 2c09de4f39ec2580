/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.manager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.opendaylight.yangtools.yang.common.Uint16;
import org.opendaylight.yangtools.yang.common.Uint64;
import org.opendaylight.yangtools.yang.data.api.YangInstanceIdentifier.NodeIdentifier;
import org.opendaylight.yangtools.yang.data.api.YangInstanceIdentifier.NodeIdentifierWithPredicates;
import org.opendaylight.yangtools.yang.data.api.schema.DataContainerChild;
import org.opendaylight.yangtools.yang.data.api.schema.MapEntryNode;
import org.opendaylight.yangtools.yang.data.spi.node.ImmutableNodes;

/** The compact nodes against yangtools' own: the same children, equal both ways, one hash code. */
public class CompactEntryTest {
    private static final NodeIdentifierWithPredicates KEY =
        NodeIdentifierWithPredicates.of(SessionNodes.SESSION, SessionNodes.SESSION_ID, "s1");

    private static CompactEntry compact(final String state) {
        final var layout = SessionNodes.SESSION_LAYOUT;
        final Object[] v = layout.slots();
        v[layout.slot(SessionNodes.SESSION_ID_LEAF)] = "s1";
        v[layout.slot(SessionNodes.STATE)] = state;
        v[layout.slot(SessionNodes.RDMA_CM_DST_PORT)] = Uint16.valueOf(4791);
        final Object[] data = SessionNodes.DATA_LAYOUT.slots();
        data[SessionNodes.DATA_LAYOUT.slot(SessionNodes.UDP_SRC_PORT)] = Uint16.valueOf(50000);
        data[SessionNodes.DATA_LAYOUT.slot(SessionNodes.PACKETS)] = Uint64.valueOf(7);
        v[layout.slot(SessionNodes.REQUESTER_DATA)] = new CompactContainer(SessionNodes.REQUESTER_DATA,
            SessionNodes.DATA_LAYOUT, data);
        return new CompactEntry(KEY, layout, v);
    }

    private static MapEntryNode yangtools(final String state) {
        return ImmutableNodes.newMapEntryBuilder().withNodeIdentifier(KEY)
            .withChild(ImmutableNodes.leafNode(SessionNodes.RDMA_CM_DST_PORT, Uint16.valueOf(4791)))
            .withChild(ImmutableNodes.leafNode(SessionNodes.STATE, state))
            .withChild(ImmutableNodes.newContainerBuilder().withNodeIdentifier(SessionNodes.REQUESTER_DATA)
                .withChild(ImmutableNodes.leafNode(SessionNodes.PACKETS, Uint64.valueOf(7)))
                .withChild(ImmutableNodes.leafNode(SessionNodes.UDP_SRC_PORT, Uint16.valueOf(50000)))
                .build())
            .withChild(ImmutableNodes.leafNode(SessionNodes.SESSION_ID_LEAF, "s1"))
            .build();
    }

    @Test
    public void equalToYangtoolsOwnBothWaysWithItsHashCode() {
        final var ours = compact("ESTABLISHED");
        final var theirs = yangtools("ESTABLISHED");
        assertEquals(theirs, ours);
        assertEquals(ours, theirs);
        assertEquals(theirs.hashCode(), ours.hashCode());
        assertEquals(ours, compact("ESTABLISHED"));
        assertNotEquals(ours, compact("CLOSED"));
        assertNotEquals(ours, yangtools("CLOSED"));
        assertNotEquals(yangtools("CLOSED"), ours);
        assertEquals(4, ours.size());
        final List<DataContainerChild> children = new ArrayList<>(ours.body());
        assertEquals(4, children.size());
        for (var child : children) {
            assertEquals(child, theirs.childByArg(child.name()));
        }
        assertEquals("ESTABLISHED", ours.childByArg(SessionNodes.STATE).body());
        assertNull(ours.childByArg(SessionNodes.LAST_SEEN));
        assertNull(ours.childByArg(SessionNodes.SEQ_LEAF));
    }

    @Test
    public void aTimeKeptAsMicrosecondsIsItsTextToEveryReader() {
        final var layout = SessionNodes.SESSION_LAYOUT;
        final Object[] v = layout.slots();
        v[layout.slot(SessionNodes.SESSION_ID_LEAF)] = "s1";
        v[layout.slot(SessionNodes.FIRST_SEEN)] = 1_764_547_200_250_000L;
        v[layout.slot(SessionNodes.LAST_SEEN)] = "2025-12-01T00:00:00.500000Z";
        final var ours = new CompactEntry(KEY, layout, v);
        final var theirs = ImmutableNodes.newMapEntryBuilder().withNodeIdentifier(KEY)
            .withChild(ImmutableNodes.leafNode(SessionNodes.SESSION_ID_LEAF, "s1"))
            .withChild(ImmutableNodes.leafNode(SessionNodes.FIRST_SEEN, "2025-12-01T00:00:00.250000Z"))
            .withChild(ImmutableNodes.leafNode(SessionNodes.LAST_SEEN, "2025-12-01T00:00:00.500000Z"))
            .build();
        assertEquals("2025-12-01T00:00:00.250000Z", ours.childByArg(SessionNodes.FIRST_SEEN).body());
        assertEquals(theirs, ours);
        assertEquals(ours, theirs);
        assertEquals(theirs.hashCode(), ours.hashCode());
        for (var child : ours.body()) {
            assertEquals(theirs.childByArg(child.name()), child);
        }
        v[layout.slot(SessionNodes.FIRST_SEEN)] = 1_764_547_200_250_001L;
        assertNotEquals(theirs, new CompactEntry(KEY, layout, v));
        // a time no date-and-time can say, and microseconds where no time goes, are refused
        v[layout.slot(SessionNodes.FIRST_SEEN)] = Long.MAX_VALUE;
        assertThrows(IllegalArgumentException.class, () -> new CompactEntry(KEY, layout, v));
        v[layout.slot(SessionNodes.FIRST_SEEN)] = null;
        assertThrows(IllegalArgumentException.class, () -> new NodeLayout(new NodeIdentifier[] {SessionNodes.STATE},
            Set.of(SessionNodes.FIRST_SEEN)));
    }

    @Test
    public void aMarkIsACopy() {
        final var ours = compact("ESTABLISHED");
        final var marked = SessionNodes.withUnconfirmed(ours, "gone");
        assertEquals("gone", marked.childByArg(SessionNodes.UNCONFIRMED).body());
        assertNull(ours.childByArg(SessionNodes.UNCONFIRMED));
        // the same mark on yangtools' own entry makes an equal entry
        assertEquals(SessionNodes.withUnconfirmed(yangtools("ESTABLISHED"), "gone"), marked);
    }

    @Test
    public void aKeyOrAChildThatDoesNotFitIsRefused() {
        final var layout = SessionNodes.SESSION_LAYOUT;
        final Object[] noKey = layout.slots();
        noKey[layout.slot(SessionNodes.STATE)] = "CLOSED";
        assertThrows(IllegalArgumentException.class, () -> new CompactEntry(KEY, layout, noKey));
        final Object[] otherKey = layout.slots();
        otherKey[layout.slot(SessionNodes.SESSION_ID_LEAF)] = "s2";
        assertThrows(IllegalArgumentException.class, () -> new CompactEntry(KEY, layout, otherKey));
        final Object[] nodeAsLeaf = layout.slots();
        nodeAsLeaf[layout.slot(SessionNodes.SESSION_ID_LEAF)] = "s1";
        nodeAsLeaf[layout.slot(SessionNodes.STATE)] = ImmutableNodes.leafNode(SessionNodes.STATE, "CLOSED");
        assertThrows(IllegalArgumentException.class, () -> new CompactEntry(KEY, layout, nodeAsLeaf));
        final Object[] valueAsNode = layout.slots();
        valueAsNode[layout.slot(SessionNodes.SESSION_ID_LEAF)] = "s1";
        valueAsNode[layout.slot(SessionNodes.REQUESTER_DATA)] = "not a container";
        assertThrows(IllegalArgumentException.class, () -> new CompactEntry(KEY, layout, valueAsNode));
        assertThrows(IllegalArgumentException.class, () -> new CompactEntry(KEY, layout, new Object[3]));
    }
}
