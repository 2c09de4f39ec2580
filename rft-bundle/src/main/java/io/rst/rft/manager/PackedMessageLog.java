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
import java.util.AbstractList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Map;
import java.util.RandomAccess;
import org.eclipse.jdt.annotation.Nullable;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.CmMessageType;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.rdma.session.Message;
import org.opendaylight.yangtools.yang.common.Uint32;
import org.opendaylight.yangtools.yang.data.api.YangInstanceIdentifier.NodeIdentifier;
import org.opendaylight.yangtools.yang.data.api.YangInstanceIdentifier.NodeIdentifierWithPredicates;
import org.opendaylight.yangtools.yang.data.api.schema.AbstractUserMapNode;
import org.opendaylight.yangtools.yang.data.api.schema.MapEntryNode;
import org.opendaylight.yangtools.yang.data.api.schema.UserMapNode;

/**
 * A session's message log ({@code ordered-by user} list {@code message}) as the flow table holds
 * it: each message's type, ingress port, time and direction in arrays, its entry (and its time's
 * string) made only when someone reads it. A log of entry objects would keep per message an
 * entry, its values' array and its time's string with its bytes: at 250,000 sessions
 * seen by three switches each, about 15 million objects, a quarter of the controller's heap
 * objects, which G1's concurrent marking walks on every cycle and which each young collection
 * copies when the session is new. Readers of the log (the datastore's serialisation of a commit,
 * RESTCONF, the RPT and insight reading a changed session) pay for the entries they read, and
 * those die young.
 *
 * <p>Message {@code i} has {@code seq} {@code i}, as the agent numbers them. yangtools' own
 * user-ordered map node would keep a {@code LinkedHashMap} of entries on top (about 280 bytes a
 * log). {@link AbstractUserMapNode} is yangtools' extension point for another implementation; the
 * datastore, its serialisation, RESTCONF and the binding codec see the log through
 * {@link UserMapNode} alone, and it is equal to yangtools' own node with the same entries in the
 * same order, with the same hash code. One thing a log must never meet: a datastore modification
 * inside it (a merge or a write of one message), for which the datastore would copy it through
 * yangtools' builder, which takes only its own class. The RFT manager writes whole sessions
 * ({@code put}), an {@code unconfirmed} mark too ({@link SessionNodes#withUnconfirmed}).
 */
final class PackedMessageLog extends AbstractUserMapNode {
    private static final CmMessageType[] TYPES = CmMessageType.values();
    private static final int CACHED_SEQS = 64;
    private static final NodeIdentifierWithPredicates[] SEQ_KEYS = new NodeIdentifierWithPredicates[CACHED_SEQS];
    /** A message's direction (the constructor's {@code from}): not known. */
    static final byte UNKNOWN = 0;
    /** A message's direction: the requester sent it. */
    static final byte REQUESTER = 1;
    /** A message's direction: the responder sent it. */
    static final byte RESPONDER = 2;
    private static final int FROM_SHIFT = 5;
    private static final int TYPE_MASK = (1 << FROM_SHIFT) - 1;

    static {
        if (TYPES.length > TYPE_MASK + 1) {
            throw new ExceptionInInitializerError(
                TYPES.length + " CM message types do not fit " + FROM_SHIFT + " bits");
        }
    }

    static {
        for (int i = 0; i < CACHED_SEQS; i++) {
            SEQ_KEYS[i] = NodeIdentifierWithPredicates.of(Message.QNAME, SessionNodes.SEQ, Uint32.valueOf(i));
        }
    }

    private final NodeIdentifier name;
    /** Each message's type (its ordinal, the low bits) and direction ({@code << FROM_SHIFT}). */
    private final byte[] kinds;
    private final @Nullable String[] ports;
    private final long[] times;

    /**
     * A log of {@code types.length} messages; the arrays are as long as each other, and all but
     * {@code from} are the log's from now on ({@code types} takes the directions in too).
     *
     * @param types each message's {@link CmMessageType} (its ordinal)
     * @param ports each message's ingress termination point, null where unknown; the array itself
     *        null where none is known
     * @param times each message's time in microseconds since the epoch, {@link Times#INVALID}
     *        where unknown
     * @param from each message's direction: {@link #UNKNOWN}, {@link #REQUESTER} or {@link #RESPONDER}
     */
    PackedMessageLog(final NodeIdentifier name, final byte[] types, final @Nullable String @Nullable [] ports,
            final long[] times, final byte[] from) {
        this.name = requireNonNull(name);
        this.ports = ports;
        this.times = requireNonNull(times);
        if (times.length != types.length || from.length != types.length
                || ports != null && ports.length != types.length) {
            throw new IllegalArgumentException("a message log's arrays differ in length");
        }
        // one array of both (an object fewer per log: a million at 300,000 sessions)
        kinds = types;
        for (int i = 0; i < types.length; i++) {
            final byte type = types[i];
            if (type < 0 || type >= TYPES.length) {
                throw new IllegalArgumentException("not a CM message type: " + type);
            }
            if (from[i] != UNKNOWN && from[i] != REQUESTER && from[i] != RESPONDER) {
                throw new IllegalArgumentException("not a direction: " + from[i]);
            }
            kinds[i] = (byte) (type | from[i] << FROM_SHIFT);
        }
    }

    /** The key of message {@code seq}. */
    static NodeIdentifierWithPredicates key(final int seq) {
        return seq < CACHED_SEQS ? SEQ_KEYS[seq]
            : NodeIdentifierWithPredicates.of(Message.QNAME, SessionNodes.SEQ, Uint32.valueOf(seq));
    }

    /** Message {@code seq}'s entry, made now. */
    private MapEntryNode entry(final int seq) {
        final var key = key(seq);
        final var layout = SessionNodes.MESSAGE_LAYOUT;
        final Object[] v = layout.slots();
        v[layout.slot(SessionNodes.SEQ_LEAF)] = key.getValue(SessionNodes.SEQ);
        v[layout.slot(SessionNodes.TYPE)] = TYPES[kinds[seq] & TYPE_MASK].getName();
        v[layout.slot(SessionNodes.INGRESS_TP)] = ports == null ? null : ports[seq];
        v[layout.slot(SessionNodes.TIME)] = times[seq] == Times.INVALID ? null : Times.format(times[seq]);
        v[layout.slot(SessionNodes.FROM_REQUESTER)] = switch (kinds[seq] >> FROM_SHIFT) {
            case REQUESTER -> Boolean.TRUE;
            case RESPONDER -> Boolean.FALSE;
            default -> null;
        };
        return new CompactEntry(key, layout, v);
    }

    @Override
    public NodeIdentifier name() {
        return name;
    }

    @Override
    public @Nullable MapEntryNode childByArg(final NodeIdentifierWithPredicates child) {
        if (!Message.QNAME.equals(child.getNodeType()) || child.size() != 1) {
            return null;
        }
        if (child.getValue(SessionNodes.SEQ) instanceof Uint32 seq && seq.longValue() < kinds.length) {
            return entry(seq.intValue());
        }
        return null;
    }

    @Override
    public MapEntryNode childAt(final int position) {
        if (position < 0 || position >= kinds.length) {
            throw new IndexOutOfBoundsException(position);
        }
        return entry(position);
    }

    @Override
    public int size() {
        return kinds.length;
    }

    @Override
    public boolean isEmpty() {
        return kinds.length == 0;
    }

    /** The entries, each made as it is read. */
    private final class Entries extends AbstractList<MapEntryNode> implements RandomAccess {
        @Override
        public MapEntryNode get(final int index) {
            return childAt(index);
        }

        @Override
        public int size() {
            return kinds.length;
        }
    }

    @Override
    protected Collection<MapEntryNode> value() {
        return new Entries();
    }

    @Override
    protected Collection<MapEntryNode> wrappedValue() {
        // read-only already
        return value();
    }

    @Override
    public Map<NodeIdentifierWithPredicates, MapEntryNode> asMap() {
        final var map = ImmutableMap.<NodeIdentifierWithPredicates, MapEntryNode>builderWithExpectedSize(
            kinds.length);
        for (int i = 0; i < kinds.length; i++) {
            final var entry = entry(i);
            map.put(entry.name(), entry);
        }
        return map.buildOrThrow();
    }

    @Override
    protected int valueHashCode() {
        // as yangtools' own user-ordered map node: the entries' hash codes in order
        int hashCode = 1;
        for (int i = 0; i < kinds.length; i++) {
            hashCode = 31 * hashCode + entry(i).hashCode();
        }
        return hashCode;
    }

    @Override
    protected boolean valueEquals(final UserMapNode other) {
        if (other instanceof PackedMessageLog packed) {
            return Arrays.equals(kinds, packed.kinds) && Arrays.equals(times, packed.times)
                && Arrays.equals(portsOrNulls(), packed.portsOrNulls());
        }
        if (other.size() != kinds.length) {
            return false;
        }
        int index = 0;
        for (var theirs : other.body()) {
            if (!entry(index++).equals(theirs)) {
                return false;
            }
        }
        return true;
    }

    private @Nullable String[] portsOrNulls() {
        return ports != null ? ports : new String[kinds.length];
    }
}
