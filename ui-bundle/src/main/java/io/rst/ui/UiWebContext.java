/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.ui;

import static java.util.Objects.requireNonNull;

import javax.servlet.ServletException;
import org.opendaylight.aaa.web.ResourceDetails;
import org.opendaylight.aaa.web.ServletDetails;
import org.opendaylight.aaa.web.WebContext;
import org.opendaylight.aaa.web.WebServer;
import org.opendaylight.yangtools.concepts.Registration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves the web UI under {@code /rst/} on the controller's web server (the RESTCONF port), the
 * way netconf's OpenAPI explorer serves its pages: a {@link WebContext} with the bundle's
 * {@code /rst-ui} folder as a resource, registered with AAA's {@link WebServer}.
 *
 * <p>The pages themselves are public, as DLUX's were: they hold no data. Everything the UI shows
 * comes from RESTCONF ({@code /rests}), which AAA guards with the operator's credentials; the
 * page's sign-in form sends them there. Guarding the static files too would make the browser pop
 * its own basic-auth dialog before the page could explain anything.
 */
public final class UiWebContext implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(UiWebContext.class);

    /** Where the UI answers on the web server. */
    public static final String CONTEXT_PATH = "/rst";
    /** Where the built frontend sits in this bundle (ui-bundle/frontend, built by Maven). */
    static final String RESOURCE_FOLDER = "/rst-ui";
    /** The page; everything else it loads is under assets/, with content hashes in the names. */
    static final String PAGE = RESOURCE_FOLDER + "/index.html";

    private final Registration registration;

    public UiWebContext(final WebServer webServer) throws ServletException {
        registration = requireNonNull(webServer).registerWebContext(webContext());
        LOG.info("RST UI served at {}/", CONTEXT_PATH);
    }

    static WebContext webContext() {
        return WebContext.builder()
            .name("RST-UI")
            .contextPath(CONTEXT_PATH)
            .supportsSessions(false)
            // "/rst/" itself is the page. A resource mapping of the whole context ("/*") would take
            // the root too and answer it 403 (a folder), so only assets/ is mapped as resources.
            .addServlet(ServletDetails.builder()
                .name("RST-UI-page")
                .servlet(new IndexServlet(PAGE))
                .addUrlPattern("")
                .addUrlPattern("/index.html")
                .build())
            .addResource(ResourceDetails.builder().name(RESOURCE_FOLDER + "/assets").alias("/assets").build())
            .build();
    }

    @Override
    public void close() {
        registration.close();
    }
}
