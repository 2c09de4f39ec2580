/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.manager;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AgentTokensTest {
    @TempDir
    Path tmp;

    @Test
    void aSwitchsOwnFileElseTheSharedOneElseNone() throws Exception {
        final Path dir = Files.createDirectory(tmp.resolve("tokens"));
        Files.writeString(dir.resolve("leaf1"), "leaf1-token\n");
        Files.writeString(dir.resolve("openflow:7"), " of7-token ");
        Files.writeString(tmp.resolve("shared"), "shared-token\n");
        final var tokens = AgentTokens.of(tmp.resolve("shared").toString(), dir.toString());
        assertEquals("leaf1-token", tokens.tokenFor("leaf1"));
        assertEquals("of7-token", tokens.tokenFor("openflow:7"));
        assertEquals("shared-token", tokens.tokenFor("leaf2"));

        // read on each request: a rotated file takes effect without a restart
        Files.writeString(dir.resolve("leaf1"), "rotated");
        assertEquals("rotated", tokens.tokenFor("leaf1"));
        Files.writeString(dir.resolve("leaf2"), "leaf2-token");
        assertEquals("leaf2-token", tokens.tokenFor("leaf2"));

        assertEquals("rotated", AgentTokens.of("", dir.toString()).tokenFor("leaf1"), "the directory alone");
        assertEquals("", AgentTokens.of(" ", dir.toString()).tokenFor("leaf3"), "no file, no shared token");
        assertEquals("shared-token", AgentTokens.of(tmp.resolve("shared").toString(), "").tokenFor("leaf1"));
        assertEquals("", AgentTokens.of(null, null).tokenFor("leaf1"));
    }

    @Test
    void aNodeIdNeverLeadsOutOfTheDirectory() throws Exception {
        // node-ids come from RESTCONF: a path in one must not make the controller send a file's
        // content to an agent address of the writer's choosing
        final Path dir = Files.createDirectory(tmp.resolve("tokens"));
        Files.writeString(tmp.resolve("secret"), "not-a-token");
        Files.createDirectory(dir.resolve("sub"));
        Files.writeString(dir.resolve("sub").resolve("x"), "nested");
        Files.writeString(tmp.resolve("shared"), "shared-token");
        final var tokens = AgentTokens.of(tmp.resolve("shared").toString(), dir.toString());
        for (var nodeId : new String[] {"../secret", "..", ".", "sub/x", "sub/../../secret", "/etc/hostname",
                "..\\secret", ""}) {
            assertEquals("shared-token", tokens.tokenFor(nodeId), nodeId);
        }
        // an own token file that cannot be read is no token, not the shared one: the operator meant
        // this switch to have its own
        assertEquals("", tokens.tokenFor("sub"));
    }
}
