/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.manager;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableMap;
import io.rst.yang.time.Times;
import java.util.AbstractCollection;
import java.util.Collection;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Set;
import org.eclipse.jdt.annotation.Nullable;
import org.opendaylight.yangtools.yang.common.QName;
import org.opendaylight.yangtools.yang.data.api.YangInstanceIdentifier.NodeIdentifier;
import org.opendaylight.yangtools.yang.data.api.schema.DataContainerChild;
import org.opendaylight.yangtools.yang.data.api.schema.DataContainerNode;
import org.opendaylight.yangtools.yang.data.api.schema.LeafNode;
import org.opendaylight.yangtools.yang.data.spi.node.ImmutableNodes;

/**
 * The children a {@link CompactEntry} or {@link CompactContainer} may have, in the order it gives
 * them, and what the two share: a node's children are one array of slots, a leaf's slot holding its
 * value (made a {@link LeafNode} when asked for, as yangtools' own nodes do), another child's its
 * node, an absent child's null.
 *
 * <p>yangtools' builders gather a node's children in a {@code HashMap}, remember their names in a
 * {@code LinkedHashMap} (a list entry's), make a {@code LeafNode} of each leaf only to take its
 * value out again, and at {@code build()} look the set of names up in a JVM-wide cache of offset
 * maps, hashing and comparing the set. At 1,000 new sessions a second, the RFT manager's followers
 * would spend half their time there (a Flight Recording of the lab at 100,000 live sessions).
 * A session's layout is known beforehand: building its node is filling an array.
 *
 * <p>A time leaf ({@code yang:date-and-time}, a string) may keep its value as a {@link Long} of
 * microseconds since the epoch, made its text when asked for: a session's first-seen and last-seen
 * as text would be two strings and their byte arrays in each of its flow-table entries (about 1.9
 * million objects at 275,000 sessions of three switches each, all walked by G1's marking), yet
 * are read only when the entry is (the datastore's serialisation of its commit, RESTCONF, the RPT
 * and insight reading a changed session).
 */
final class NodeLayout {
    private final NodeIdentifier[] ids;
    private final boolean[] leaf;
    private final boolean[] time;
    private final ImmutableMap<NodeIdentifier, Integer> index;
    private final ImmutableMap<QName, Integer> byQName;

    /** {@code leaves} are leaves; the other children ({@code nodes}) are nodes. */
    NodeLayout(final NodeIdentifier[] leaves, final NodeIdentifier... nodes) {
        this(leaves, Set.of(), nodes);
    }

    /**
     * {@code leaves} are leaves, those of them in {@code times} time leaves (their values a text or
     * a {@link Long} of microseconds); the other children ({@code nodes}) are nodes.
     */
    NodeLayout(final NodeIdentifier[] leaves, final Set<NodeIdentifier> times, final NodeIdentifier... nodes) {
        ids = new NodeIdentifier[leaves.length + nodes.length];
        leaf = new boolean[ids.length];
        time = new boolean[ids.length];
        final var builder = ImmutableMap.<NodeIdentifier, Integer>builderWithExpectedSize(ids.length);
        final var qnames = ImmutableMap.<QName, Integer>builderWithExpectedSize(ids.length);
        for (int i = 0; i < ids.length; i++) {
            ids[i] = i < leaves.length ? leaves[i] : nodes[i - leaves.length];
            leaf[i] = i < leaves.length;
            time[i] = leaf[i] && times.contains(ids[i]);
            builder.put(ids[i], i);
            qnames.put(ids[i].getNodeType(), i);
        }
        index = builder.buildOrThrow();
        byQName = qnames.buildOrThrow();
        for (var id : times) {
            if (!index.containsKey(id) || !leaf[index.get(id)]) {
                throw new IllegalArgumentException(id + " is not a leaf of the layout");
            }
        }
    }

    /** The slot of {@code id}, or -1 if the layout has none. */
    int slot(final NodeIdentifier id) {
        // the callers' identifiers are mostly the layout's own objects: identity first
        for (int i = 0; i < ids.length; i++) {
            if (ids[i] == id) {
                return i;
            }
        }
        final Integer found = index.get(id);
        return found == null ? -1 : found;
    }

    /** The slot of the leaf named {@code qname} (a key leaf), or -1. */
    int slot(final QName qname) {
        final Integer found = byQName.get(qname);
        return found == null ? -1 : found;
    }

    /** A new node's slots, to fill and hand to its constructor. */
    Object[] slots() {
        return new Object[ids.length];
    }

    /** Checks {@code values} fit the layout; returns how many children they hold. */
    int check(final Object[] values) {
        if (values.length != ids.length) {
            throw new IllegalArgumentException(values.length + " slots for a layout of " + ids.length);
        }
        int present = 0;
        for (int i = 0; i < values.length; i++) {
            final var value = values[i];
            if (value != null) {
                if (leaf[i] == value instanceof DataContainerChild
                        || time[i] && value instanceof Long micros && Times.format(micros) == null) {
                    throw new IllegalArgumentException(ids[i] + " given a " + value.getClass().getSimpleName());
                }
                present++;
            }
        }
        return present;
    }

    @Nullable DataContainerChild child(final Object[] values, final NodeIdentifier id) {
        final int slot = slot(id);
        return slot < 0 ? null : child(values, slot);
    }

    private @Nullable DataContainerChild child(final Object[] values, final int slot) {
        final var value = values[slot];
        if (value == null) {
            return null;
        }
        return leaf[slot] ? ImmutableNodes.leafNode(ids[slot], leafValue(slot, value)) : (DataContainerChild) value;
    }

    /** A leaf's value as yangtools' own node holds it: a time leaf's microseconds as its text. */
    private Object leafValue(final int slot, final Object value) {
        // check() let in a time slot only a Long that has a text
        return time[slot] && value instanceof Long micros ? requireNonNull(Times.format(micros)) : value;
    }

    /** The children in {@code values}, {@code size} of them, as a view. */
    Collection<DataContainerChild> body(final Object[] values, final int size) {
        return new AbstractCollection<>() {
            @Override
            public Iterator<DataContainerChild> iterator() {
                return new Iterator<>() {
                    private int next = advance(0);

                    private int advance(final int from) {
                        int at = from;
                        while (at < values.length && values[at] == null) {
                            at++;
                        }
                        return at;
                    }

                    @Override
                    public boolean hasNext() {
                        return next < values.length;
                    }

                    @Override
                    public DataContainerChild next() {
                        if (next >= values.length) {
                            throw new NoSuchElementException();
                        }
                        final var child = child(values, next);
                        next = advance(next + 1);
                        return child;
                    }
                };
            }

            @Override
            public int size() {
                return size;
            }
        };
    }

    /**
     * The hash code of yangtools' own node with these children: its children's map's, per child
     * the name's hash code xor its value's (a leaf's value, not its node's).
     */
    int hashCode(final Object[] values) {
        int hashCode = 0;
        for (int i = 0; i < values.length; i++) {
            if (values[i] != null) {
                hashCode += ids[i].hashCode() ^ leafValue(i, values[i]).hashCode();
            }
        }
        return hashCode;
    }

    /** Whether {@code other} has exactly these children, whatever its implementation. */
    boolean equals(final Object[] values, final int size, final DataContainerNode other) {
        if (other.size() != size) {
            return false;
        }
        for (int i = 0; i < values.length; i++) {
            if (values[i] != null && !requireNonNull(child(values, i)).equals(other.childByArg(ids[i]))) {
                return false;
            }
        }
        return true;
    }
}
