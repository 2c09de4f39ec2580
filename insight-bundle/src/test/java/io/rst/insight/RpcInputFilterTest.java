/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.insight;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** What the RPC input filter refuses, and what it lets RESTCONF take. */
public class RpcInputFilterTest {
    private static final String TRACE = "rdma-path-table:trace-session";

    @Test
    public void aGoodInputPasses() {
        assertNull(RpcInputFilter.check(TRACE,
            "{\"input\":{\"src-ip\":\"10.0.0.1\",\"dst-ip\":\"fe80::1\",\"qpn\":17}}"));
        assertNull(RpcInputFilter.check(TRACE,
            "{\"rdma-path-table:input\":{\"src-ip\":\"10.0.0.1\",\"dst-ip\":\"10.0.0.2\",\"qpn\":\"16777215\"}}"));
        assertNull(RpcInputFilter.check("rdma-path-table:sessions-through", "{\"input\":{\"node-id\":\"leaf1\"}}"));
        // malformed JSON is RESTCONF's to answer
        assertNull(RpcInputFilter.check(TRACE, "{\"input\":"));
    }

    @Test
    public void aBadAddressIsAnInvalidValueWithItsPath() {
        final var error = RpcInputFilter.check(TRACE, "{\"input\":{\"src-ip\":\"garbage\",\"dst-ip\":\"10.0.0.2\"}}");
        assertEquals("invalid-value", error.tag());
        assertEquals("/rdma-path-table:trace-session/input/src-ip", error.path());
        assertEquals("src-ip \"garbage\" is not an IPv4 or IPv6 address", error.message());
        assertEquals("invalid-value", RpcInputFilter.check(TRACE,
            "{\"input\":{\"src-ip\":\"10.0.0.1\",\"dst-ip\":\"10.0.0.300\"}}").tag());
    }

    @Test
    public void aQpnOutOfRangeIsAnInvalidValue() {
        final var error = RpcInputFilter.check(TRACE,
            "{\"input\":{\"src-ip\":\"10.0.0.1\",\"dst-ip\":\"10.0.0.2\",\"qpn\":16777216}}");
        assertEquals("invalid-value", error.tag());
        assertEquals("/rdma-path-table:trace-session/input/qpn", error.path());
        assertEquals("invalid-value", RpcInputFilter.check(TRACE,
            "{\"input\":{\"src-ip\":\"10.0.0.1\",\"dst-ip\":\"10.0.0.2\",\"qpn\":-1}}").tag());
        assertEquals("invalid-value", RpcInputFilter.check(TRACE,
            "{\"input\":{\"src-ip\":\"10.0.0.1\",\"dst-ip\":\"10.0.0.2\",\"qpn\":\"x\"}}").tag());
    }

    @Test
    public void whereASessionWasLearntFromIsCmOrData() {
        assertNull(RpcInputFilter.check(TRACE,
            "{\"input\":{\"src-ip\":\"10.0.0.1\",\"dst-ip\":\"10.0.0.2\",\"learned-from\":\"data\"}}"));
        assertNull(RpcInputFilter.check("rdma-path-table:sessions-through",
            "{\"input\":{\"node-id\":\"leaf1\",\"rdma-path-table:learned-from\":\"cm\"}}"));
        final var error = RpcInputFilter.check("rdma-path-table:sessions-through",
            "{\"input\":{\"node-id\":\"leaf1\",\"learned-from\":\"DATA\"}}");
        assertEquals("invalid-value", error.tag());
        assertEquals("/rdma-path-table:sessions-through/input/learned-from", error.path());
        assertEquals("learned-from \"DATA\" is neither cm nor data", error.message());
    }

    @Test
    public void aMissingMandatoryLeafIsAMissingElement() {
        final var error = RpcInputFilter.check(TRACE, "{\"input\":{\"dst-ip\":\"10.0.0.2\"}}");
        assertEquals("missing-element", error.tag());
        assertEquals("/rdma-path-table:trace-session/input/src-ip", error.path());
        assertEquals("missing-element", RpcInputFilter.check(TRACE, "").tag());
        assertEquals("/rdma-path-table:sessions-through/input/node-id",
            RpcInputFilter.check("rdma-path-table:sessions-through", "{\"input\":{}}").path());
    }
}
