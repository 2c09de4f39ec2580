/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.manager;

import static java.util.Objects.requireNonNull;

import org.opendaylight.mdsal.binding.api.DataBroker;
import org.opendaylight.mdsal.dom.api.DOMDataBroker;
import org.opendaylight.yangtools.binding.data.codec.api.BindingNormalizedNodeSerializer;

/**
 * The datastore as the RFT manager uses it: the binding broker for listeners and reads, and the
 * DOM broker of the same datastore with the binding codec for writes (the flow table's sessions
 * are written as nodes built by hand, see {@link SessionNodes}).
 *
 * @param binding listeners and reads
 * @param dom writes, on one transaction chain
 * @param codec the binding codec, for the writes that are not sessions (agent status)
 */
public record Stores(DataBroker binding, DOMDataBroker dom, BindingNormalizedNodeSerializer codec) {
    public Stores {
        requireNonNull(binding);
        requireNonNull(dom);
        requireNonNull(codec);
    }
}
