/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.insight;

import static java.util.Objects.requireNonNull;

import com.google.common.util.concurrent.Futures;
import com.google.common.util.concurrent.ListenableFuture;
import edu.umd.cs.findbugs.annotations.SuppressFBWarnings;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.eclipse.jdt.annotation.Nullable;
import org.opendaylight.mdsal.binding.api.DataBroker;
import org.opendaylight.mdsal.binding.api.NotificationPublishService;
import org.opendaylight.mdsal.dom.api.DOMDataBroker;
import org.opendaylight.mdsal.singleton.api.ClusterSingletonService;
import org.opendaylight.mdsal.singleton.api.ClusterSingletonServiceProvider;
import org.opendaylight.mdsal.singleton.api.ServiceGroupIdentifier;
import org.opendaylight.yangtools.concepts.Registration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The insight service: a thin Blueprint shell. One member of a cluster (the singleton's owner)
 * follows the flow and path tables, writes rst-insight:problems and publishes the notifications;
 * its figures are what /metrics shows.
 */
@SuppressFBWarnings(value = { "NP_NONNULL_FIELD_NOT_INITIALIZED_IN_CONSTRUCTOR", "NP_STORE_INTO_NONNULL_FIELD" },
    justification = "SpotBugs reads no TYPE_USE @Nullable on fields: these fields are @Nullable")
public final class InsightService implements ClusterSingletonService, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(InsightService.class);
    private static final ServiceGroupIdentifier IDENTIFIER = new ServiceGroupIdentifier("rst-insight");

    private final DataBroker broker;
    private final DOMDataBroker dom;
    private final NotificationPublishService notifications;
    private final Registration singleton;
    private final ProblemDetector.Options options;
    private @Nullable InsightWorker worker;
    private @Nullable ScheduledExecutorService executor;
    private boolean closed;

    /** With the default congestion thresholds. */
    public InsightService(final DataBroker broker, final DOMDataBroker dom,
            final NotificationPublishService notifications, final ClusterSingletonServiceProvider singletons) {
        this(broker, dom, notifications, singletons, ProblemDetector.Options.DEFAULTS);
    }

    /**
     * With the congestion thresholds of etc/io.rst.insight.cfg, as text: a value that is not a
     * number in its range is refused with an error in the log, and the defaults apply.
     *
     * @param congestedCeShare congested-ce-share, 0 to 1
     * @param congestedCnpPerPacket congested-cnp-per-packet, 0 or more
     * @param pfcStormShare pfc-storm-paused-share, 0 to 1
     */
    public InsightService(final DataBroker broker, final DOMDataBroker dom,
            final NotificationPublishService notifications, final ClusterSingletonServiceProvider singletons,
            final String congestedCeShare, final String congestedCnpPerPacket, final String pfcStormShare) {
        this(broker, dom, notifications, singletons, options(congestedCeShare, congestedCnpPerPacket,
            pfcStormShare));
    }

    private InsightService(final DataBroker broker, final DOMDataBroker dom,
            final NotificationPublishService notifications, final ClusterSingletonServiceProvider singletons,
            final ProblemDetector.Options options) {
        this.broker = requireNonNull(broker);
        this.dom = requireNonNull(dom);
        this.notifications = requireNonNull(notifications);
        this.options = requireNonNull(options);
        singleton = singletons.registerClusterSingletonService(this);
        LOG.info("RST insight started (congested above CE share {} or {} CNPs per sampled packet; PFC storm above a"
            + " paused share of {})", options.congestedCeShare(), options.congestedCnpPerPacket(),
            options.pfcStormShare());
    }

    /** The thresholds from their text; the defaults, with an error logged, where one is not valid. */
    static ProblemDetector.Options options(final String ceShare, final String cnpPerPacket, final String stormShare) {
        try {
            return ProblemDetector.Options.congestion(Double.parseDouble(ceShare.strip()),
                Double.parseDouble(cnpPerPacket.strip()), Double.parseDouble(stormShare.strip()));
        } catch (IllegalArgumentException e) {
            // NumberFormatException included
            LOG.error("etc/io.rst.insight.cfg: congested-ce-share \"{}\", congested-cnp-per-packet \"{}\","
                + " pfc-storm-paused-share \"{}\" refused ({}): the defaults apply", ceShare, cnpPerPacket,
                stormShare, e.getMessage());
            return ProblemDetector.Options.DEFAULTS;
        }
    }

    @Override
    public ServiceGroupIdentifier getIdentifier() {
        return IDENTIFIER;
    }

    /** The figures of the active instance; {@link Snapshot#INACTIVE} on the other members. */
    Snapshot snapshot() {
        final var current = currentWorker();
        return current == null ? Snapshot.INACTIVE : current.snapshot();
    }

    private synchronized @Nullable InsightWorker currentWorker() {
        return worker;
    }

    @Override
    public synchronized void instantiateServiceInstance() {
        if (closed || worker != null) {
            return;
        }
        final var exec = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().name("rst-insight").daemon()
            .factory());
        executor = exec;
        worker = new InsightWorker(broker, dom, notifications, options, exec,
            () -> System.currentTimeMillis() / 1000.0, 5);
        LOG.info("RST insight is the active instance");
    }

    @Override
    public synchronized ListenableFuture<?> closeServiceInstance() {
        final var current = worker;
        worker = null;
        if (current != null) {
            current.close();
            LOG.info("RST insight is no longer the active instance");
        }
        final var exec = executor;
        executor = null;
        if (exec != null) {
            exec.shutdown();
        }
        return Futures.immediateFuture(null);
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            singleton.close();
            closeServiceInstance();
            LOG.info("RST insight stopped");
        }
    }
}
