/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.ui;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InputStream;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * Answers the context root ({@code /rst/}) with the UI's page. The page is small and names its
 * scripts and styles with content hashes, so it must never be cached, while they may be.
 */
final class IndexServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    private final String resource;

    IndexServlet(final String resource) {
        this.resource = requireNonNull(resource);
    }

    @Override
    protected void doGet(final HttpServletRequest req, final HttpServletResponse resp) throws IOException {
        final byte[] page;
        try (InputStream in = IndexServlet.class.getResourceAsStream(resource)) {
            if (in == null) {
                resp.sendError(HttpServletResponse.SC_NOT_FOUND, "the UI was built without its page");
                return;
            }
            page = in.readAllBytes();
        }
        resp.setContentType("text/html;charset=utf-8");
        resp.setHeader("Cache-Control", "no-cache");
        resp.setHeader("X-Content-Type-Options", "nosniff");
        resp.setContentLength(page.length);
        resp.getOutputStream().write(page);
    }
}
