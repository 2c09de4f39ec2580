/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.manager;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;
import java.util.Collection;
import org.eclipse.jdt.annotation.Nullable;
import org.opendaylight.yangtools.yang.data.api.YangInstanceIdentifier.NodeIdentifier;
import org.opendaylight.yangtools.yang.data.api.YangInstanceIdentifier.NodeIdentifierWithPredicates;
import org.opendaylight.yangtools.yang.data.api.schema.AbstractMapEntryNode;
import org.opendaylight.yangtools.yang.data.api.schema.DataContainerChild;
import org.opendaylight.yangtools.yang.data.api.schema.MapEntryNode;

/**
 * A list entry (a session, a message of its log) whose children are the slots of a
 * {@link NodeLayout}: built by filling an array, not through yangtools' builder.
 *
 * <p>{@link AbstractMapEntryNode} is yangtools' extension point for another implementation; the
 * datastore, its serialisation, RESTCONF and the binding codec see the entry through
 * {@link MapEntryNode} alone. Equality and hash code are the contract's: equal to yangtools' own
 * entry with the same children, with the same hash code. As for {@link PackedMessageLog}, one thing an
 * entry must never meet is a datastore modification inside it (a merge or a write of one of its
 * leaves), for which the datastore copies it through yangtools' builder, which takes only its own
 * class: the RFT manager writes sessions whole, an {@code unconfirmed} mark too
 * ({@link SessionNodes#withUnconfirmed}).
 */
final class CompactEntry extends AbstractMapEntryNode {
    private final NodeIdentifierWithPredicates name;
    private final NodeLayout layout;
    private final Object[] values;
    private final int size;

    /**
     * An entry of {@code layout} with {@code values} in its slots (a leaf's value, another child's
     * node, or null); the array is the entry's from now on. The key's leaves must be among the
     * values, as the key has them.
     */
    CompactEntry(final NodeIdentifierWithPredicates name, final NodeLayout layout, final Object[] values) {
        this.name = requireNonNull(name);
        this.layout = requireNonNull(layout);
        this.size = layout.check(values);
        for (var key : name.entrySet()) {
            final int slot = layout.slot(key.getKey());
            if (slot < 0 || !key.getValue().equals(values[slot])) {
                throw new IllegalArgumentException("key " + name + " not among the values");
            }
        }
        this.values = values;
    }

    @Override
    public NodeIdentifierWithPredicates name() {
        return name;
    }

    @Override
    public @Nullable DataContainerChild childByArg(final NodeIdentifier child) {
        return layout.child(values, child);
    }

    @Override
    public Collection<DataContainerChild> body() {
        return layout.body(values, size);
    }

    @Override
    public int size() {
        return size;
    }

    /** This entry with the leaf {@code id} of its layout set to {@code value} (null: absent). */
    CompactEntry with(final NodeIdentifier id, final @Nullable Object value) {
        final int slot = layout.slot(id);
        if (slot < 0) {
            throw new IllegalArgumentException(id + " is not in the entry's layout");
        }
        final var copy = values.clone();
        copy[slot] = value;
        return new CompactEntry(name, layout, copy);
    }

    @Override
    protected int valueHashCode() {
        return layout.hashCode(values);
    }

    @Override
    protected boolean valueEquals(final MapEntryNode other) {
        if (other instanceof CompactEntry compact && compact.layout == layout) {
            return Arrays.equals(values, compact.values);
        }
        return layout.equals(values, size, other);
    }
}
