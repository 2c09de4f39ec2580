/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/lab.md shows {@code ./rst lab --help} as {@link LabMain} prints it: the one block between
 * {@code <!-- usage: ./rst lab --help -->} and {@code <!-- /usage -->} equals its output.
 * scripts/cli-docs.sh writes the block.
 */
class LabDocsTest {
    private static final Path DOC = Path.of(System.getProperty("user.dir")).getParent().resolve("docs/lab.md");
    private static final String FIX = "docs/lab.md differs from the code: run scripts/cli-docs.sh "
        + "(after mvn -pl lab -am package -DskipTests) and commit docs/lab.md";
    private static final Pattern BLOCK = Pattern.compile(
        "<!-- usage: (.+?) -->\n```text\n(.*?)\n```\n<!-- /usage -->", Pattern.DOTALL);
    private static final Pattern MARKER = Pattern.compile("<!-- usage: (.+?) -->");

    @Test
    void theLabsUsageIsTheDocs() throws IOException {
        final String text = Files.readString(DOC, StandardCharsets.UTF_8);
        final List<String> markers = new ArrayList<>();
        final Matcher mm = MARKER.matcher(text);
        while (mm.find()) {
            markers.add(mm.group(1));
        }
        assertEquals(List.of("./rst lab --help"), markers, "usage markers in docs/lab.md: " + FIX);
        final Matcher m = BLOCK.matcher(text);
        assertTrue(m.find(), "docs/lab.md: the usage block is not ```text ... ``` then <!-- /usage -->: " + FIX);

        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int status = LabMain.run(new String[] {"--help"}, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, status, err.toString(StandardCharsets.UTF_8));
        assertEquals(out.toString(StandardCharsets.UTF_8).replaceAll("\n+\\z", ""), m.group(2), FIX);
    }
}
