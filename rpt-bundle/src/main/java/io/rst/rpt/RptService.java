/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rpt;

import static java.util.Objects.requireNonNull;

import com.google.common.util.concurrent.Futures;
import com.google.common.util.concurrent.ListenableFuture;
import edu.umd.cs.findbugs.annotations.SuppressFBWarnings;
import java.util.concurrent.Executors;
import org.eclipse.jdt.annotation.Nullable;
import org.opendaylight.mdsal.binding.api.DataBroker;
import org.opendaylight.mdsal.binding.api.RpcProviderService;
import org.opendaylight.mdsal.dom.api.DOMDataBroker;
import org.opendaylight.mdsal.singleton.api.ClusterSingletonService;
import org.opendaylight.mdsal.singleton.api.ClusterSingletonServiceProvider;
import org.opendaylight.mdsal.singleton.api.ServiceGroupIdentifier;
import org.opendaylight.yangtools.concepts.Registration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The RDMA path table service: a thin Blueprint shell. One member of a cluster (the singleton's
 * owner) assembles and writes the paths and answers the RPCs.
 */
@SuppressFBWarnings(value = { "NP_NONNULL_FIELD_NOT_INITIALIZED_IN_CONSTRUCTOR", "NP_STORE_INTO_NONNULL_FIELD" },
    justification = "SpotBugs reads no TYPE_USE @Nullable on fields: these fields are @Nullable")
public final class RptService implements ClusterSingletonService, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RptService.class);
    private static final ServiceGroupIdentifier IDENTIFIER = new ServiceGroupIdentifier("rst-rpt");

    private final DataBroker broker;
    // paths are written through the DOM broker (PathNodes), without the binding codec's cost
    private final DOMDataBroker domBroker;
    private final RpcProviderService rpcs;
    private final Registration singleton;
    private @Nullable RptWorker worker;
    private boolean closed;

    public RptService(final DataBroker broker, final DOMDataBroker domBroker, final RpcProviderService rpcs,
            final ClusterSingletonServiceProvider singletons) {
        this.broker = requireNonNull(broker);
        this.domBroker = requireNonNull(domBroker);
        this.rpcs = requireNonNull(rpcs);
        singleton = singletons.registerClusterSingletonService(this);
        LOG.info("RST RPT started");
    }

    @Override
    public ServiceGroupIdentifier getIdentifier() {
        return IDENTIFIER;
    }

    @Override
    public synchronized void instantiateServiceInstance() {
        if (closed || worker != null) {
            return;
        }
        worker = new RptWorker(broker, domBroker, rpcs, Executors.newSingleThreadExecutor(Thread.ofPlatform()
            .name("rst-rpt").daemon().factory()));
        LOG.info("RST RPT is the active instance");
    }

    @Override
    public synchronized ListenableFuture<?> closeServiceInstance() {
        final var current = worker;
        worker = null;
        if (current != null) {
            current.close();
            LOG.info("RST RPT is no longer the active instance");
        }
        return Futures.immediateFuture(null);
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            singleton.close();
            closeServiceInstance();
            LOG.info("RST RPT stopped");
        }
    }
}
