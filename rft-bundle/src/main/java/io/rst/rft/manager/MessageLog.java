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
import com.google.common.collect.Iterables;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import org.eclipse.jdt.annotation.Nullable;
import org.opendaylight.yangtools.yang.data.api.YangInstanceIdentifier.NodeIdentifier;
import org.opendaylight.yangtools.yang.data.api.YangInstanceIdentifier.NodeIdentifierWithPredicates;
import org.opendaylight.yangtools.yang.data.api.schema.AbstractUserMapNode;
import org.opendaylight.yangtools.yang.data.api.schema.MapEntryNode;
import org.opendaylight.yangtools.yang.data.api.schema.UserMapNode;

/**
 * A session's message log ({@code ordered-by user} list {@code message}) as the flow table holds
 * it: its entries in one array. yangtools' own user-ordered map node always keeps a
 * {@code LinkedHashMap} (an entry object per message, a table, the map, and the values view that
 * iterating it leaves cached): about 280 bytes a log, 840 a session across a three-switch path,
 * a fifth of the controller's heap per session. A log holds a handful of messages, so a look-up
 * by key is a scan, and the log costs its array and this object.
 *
 * <p>{@link AbstractUserMapNode} is yangtools' extension point for another implementation; the
 * datastore, its serialisation, RESTCONF and the binding codec see the log through
 * {@link UserMapNode} alone. Equality and hash code are the contract's: equal to yangtools' own
 * node with the same entries in the same order. One thing a log must never meet: a datastore
 * modification inside it (a merge or a write of one message), for which the datastore would copy
 * it through yangtools' builder, which takes only its own class. The RFT manager writes whole
 * sessions ({@code put}), an {@code unconfirmed} mark too ({@link SessionNodes#withUnconfirmed}).
 */
final class MessageLog extends AbstractUserMapNode {
    private final NodeIdentifier name;
    private final MapEntryNode[] entries;

    /**
     * A log of {@code entries} in their order; the array is the log's from now on. Keys must be
     * distinct (the caller numbers them).
     */
    MessageLog(final NodeIdentifier name, final MapEntryNode[] entries) {
        this.name = requireNonNull(name);
        this.entries = requireNonNull(entries);
    }

    @Override
    public NodeIdentifier name() {
        return name;
    }

    @Override
    public @Nullable MapEntryNode childByArg(final NodeIdentifierWithPredicates child) {
        // the keys of the first 64 messages are shared objects: identity is the common hit
        for (var entry : entries) {
            if (entry.name() == child) {
                return entry;
            }
        }
        for (var entry : entries) {
            if (entry.name().equals(child)) {
                return entry;
            }
        }
        return null;
    }

    @Override
    public MapEntryNode childAt(final int position) {
        return entries[position];
    }

    @Override
    public int size() {
        return entries.length;
    }

    @Override
    public boolean isEmpty() {
        return entries.length == 0;
    }

    @Override
    protected Collection<MapEntryNode> value() {
        // a read-only view of the array, nothing copied
        return Collections.unmodifiableList(Arrays.asList(entries));
    }

    @Override
    protected Collection<MapEntryNode> wrappedValue() {
        // the view is read-only already
        return value();
    }

    @Override
    public Map<NodeIdentifierWithPredicates, MapEntryNode> asMap() {
        // made on demand: the datastore and the codecs iterate the values or look up by key
        final var map = ImmutableMap.<NodeIdentifierWithPredicates, MapEntryNode>builderWithExpectedSize(
            entries.length);
        for (var entry : entries) {
            map.put(entry.name(), entry);
        }
        return map.buildOrThrow();
    }

    @Override
    protected int valueHashCode() {
        // as yangtools' own user-ordered map node: the entries' hash codes in order
        int hashCode = 1;
        for (var entry : entries) {
            hashCode = 31 * hashCode + entry.hashCode();
        }
        return hashCode;
    }

    @Override
    protected boolean valueEquals(final UserMapNode other) {
        return other.size() == entries.length && Iterables.elementsEqual(value(), other.body());
    }
}
