/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.insight;

import static java.util.Objects.requireNonNull;

import javax.servlet.ServletException;
import org.opendaylight.aaa.web.ServletDetails;
import org.opendaylight.aaa.web.WebContext;
import org.opendaylight.aaa.web.WebContextSecurer;
import org.opendaylight.aaa.web.WebServer;
import org.opendaylight.yangtools.concepts.Registration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves the metrics at {@code /metrics} on the controller's web server (the RESTCONF port),
 * behind AAA with the RESTCONF credentials, as docs/metrics.md tells Prometheus to scrape them
 * (basic_auth in the scrape configuration): the figures name the fabric's switches, hosts'
 * addresses and problems, which RESTCONF guards too.
 */
public final class MetricsWebContext implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MetricsWebContext.class);

    /** Where the metrics answer on the web server. */
    public static final String CONTEXT_PATH = "/metrics";

    private final Registration registration;

    public MetricsWebContext(final WebServer webServer, final WebContextSecurer securer, final InsightService service)
            throws ServletException {
        requireNonNull(service);
        final var builder = WebContext.builder()
            .name("RST-metrics")
            .contextPath(CONTEXT_PATH)
            .supportsSessions(false)
            .addServlet(ServletDetails.builder()
                .name("RST-metrics")
                .servlet(new MetricsServlet(service::snapshot))
                .addUrlPattern("/*")
                .build());
        securer.requireAuthentication(builder, "/*");
        registration = requireNonNull(webServer).registerWebContext(builder.build());
        LOG.info("RST metrics served at {}", CONTEXT_PATH);
    }

    @Override
    public void close() {
        registration.close();
    }
}
