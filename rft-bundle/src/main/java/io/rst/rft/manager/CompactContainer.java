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
import org.opendaylight.yangtools.yang.data.api.schema.AbstractContainerNode;
import org.opendaylight.yangtools.yang.data.api.schema.ContainerNode;
import org.opendaylight.yangtools.yang.data.api.schema.DataContainerChild;

/**
 * A container (a session's {@code requester-data} or {@code responder-data}) whose children are the
 * slots of a {@link NodeLayout}, as {@link CompactEntry} is for list entries, with the same
 * contract and the same caveat: written whole, never modified inside.
 */
final class CompactContainer extends AbstractContainerNode {
    private final NodeIdentifier name;
    private final NodeLayout layout;
    private final Object[] values;
    private final int size;

    /** A container of {@code layout} with {@code values} in its slots; the array is its own from now on. */
    CompactContainer(final NodeIdentifier name, final NodeLayout layout, final Object[] values) {
        this.name = requireNonNull(name);
        this.layout = requireNonNull(layout);
        this.size = layout.check(values);
        this.values = values;
    }

    @Override
    public NodeIdentifier name() {
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

    @Override
    protected int valueHashCode() {
        return layout.hashCode(values);
    }

    @Override
    protected boolean valueEquals(final ContainerNode other) {
        if (other instanceof CompactContainer compact && compact.layout == layout) {
            return Arrays.equals(values, compact.values);
        }
        return layout.equals(values, size, other);
    }
}
