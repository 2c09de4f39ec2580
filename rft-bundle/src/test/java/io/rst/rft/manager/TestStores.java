/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.manager;

import org.opendaylight.mdsal.binding.dom.adapter.test.AbstractBaseDataBrokerTest;

/** The {@link Stores} of a test's in-memory broker: its binding and DOM brokers and its codec. */
final class TestStores {
    private TestStores() {
        // factory
    }

    static Stores of(final AbstractBaseDataBrokerTest test) {
        return new Stores(test.getDataBroker(), test.getDomBroker(),
            test.getDataBrokerTestCustomizer().getAdapterContext().currentSerializer());
    }
}
