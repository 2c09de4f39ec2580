/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.decode;

import org.eclipse.jdt.annotation.Nullable;

/**
 * The Communication Management messages (IBA vol. 1 ch. 12), by MAD attribute ID.
 * {@link #name()} is the name used in {@code decode} and {@code sessions} output.
 */
public enum CmMessageType {
    CLASS_PORT_INFO(0x0001),
    REQ(0x0010),
    MRA(0x0011),
    REJ(0x0012),
    REP(0x0013),
    RTU(0x0014),
    DREQ(0x0015),
    DREP(0x0016),
    SIDR_REQ(0x0017),
    SIDR_REP(0x0018),
    LAP(0x0019),
    APR(0x001A);

    private static final CmMessageType[] BY_ATTRIBUTE = new CmMessageType[0x20];
    private static final CmMessageType[] VALUES = values();

    static {
        for (CmMessageType t : VALUES) {
            BY_ATTRIBUTE[t.attributeId] = t;
        }
    }

    private final int attributeId;

    CmMessageType(final int attributeId) {
        this.attributeId = attributeId;
    }

    /** The MAD attribute ID of this message. */
    public int attributeId() {
        return attributeId;
    }

    /** The type for a MAD attribute ID, or null if the ID is not a CM message. No allocation. */
    public static @Nullable CmMessageType ofAttribute(final int attributeId) {
        return attributeId >= 0 && attributeId < BY_ATTRIBUTE.length ? BY_ATTRIBUTE[attributeId] : null;
    }

    /** The type with this ordinal (for compact storage). */
    public static CmMessageType ofOrdinal(final int ordinal) {
        return VALUES[ordinal];
    }
}
