/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.opendaylight.aaa.web.WebContext;

/**
 * The web context the bundle registers, and the built frontend the bundle carries: the page and
 * every asset it names are in the bundle, and the page loads nothing from another host.
 */
class UiWebContextTest {
    private static final Pattern ASSET = Pattern.compile("(?:src|href)=\"\\./(assets/[^\"]+)\"");
    private static final Pattern ABSOLUTE = Pattern.compile("(?:src|href)=\"(?:https?:)?//", Pattern.CASE_INSENSITIVE);

    @Test
    void servesThePageAtTheContextRootAndTheAssetsBesideIt() {
        final WebContext context = UiWebContext.webContext();
        assertEquals("/rst", context.contextPath());
        assertEquals(1, context.servlets().size());
        assertEquals(List.of("", "/index.html"), context.servlets().get(0).urlPatterns());
        assertEquals(1, context.resources().size());
        assertEquals("/rst-ui/assets", context.resources().get(0).name());
        assertEquals("/assets", context.resources().get(0).alias());
        // the pages hold no data: AAA guards RESTCONF, which is where the data is
        assertTrue(context.filters().isEmpty());
    }

    @Test
    void bundleCarriesThePageAndEveryAssetItNames() throws IOException {
        final String page = read(UiWebContext.PAGE);
        final var assets = ASSET.matcher(page).results().map(m -> m.group(1)).toList();
        assertFalse(assets.isEmpty(), "the page names no script or style: " + page);
        for (var asset : assets) {
            try (InputStream in = UiWebContext.class.getResourceAsStream(UiWebContext.RESOURCE_FOLDER + "/" + asset)) {
                assertNotNull(in, "missing from the bundle: " + asset);
            }
        }
        assertFalse(ABSOLUTE.matcher(page).find(), "the page loads something from another host: " + page);
    }

    @Test
    void scriptsCallNoOtherHost() throws IOException {
        final String page = read(UiWebContext.PAGE);
        for (var asset : ASSET.matcher(page).results().map(m -> m.group(1)).toList()) {
            final String text = read(UiWebContext.RESOURCE_FOLDER + "/" + asset);
            // no fetch of, import from or stylesheet at an absolute URL
            assertFalse(Pattern.compile("(?:fetch\\(|import\\(|@import |url\\()\\s*[\"']?(?:https?:)?//")
                .matcher(text).find(), asset + " reaches for another host");
        }
    }

    private static String read(final String resource) throws IOException {
        try (InputStream in = UiWebContext.class.getResourceAsStream(resource)) {
            assertNotNull(in, "missing from the bundle: " + resource);
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
