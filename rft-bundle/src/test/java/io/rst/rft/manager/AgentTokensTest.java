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
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AgentTokensTest {
    @TempDir
    Path tmp;

    @Test
    void aSwitchsOwnFileElseTheSharedOneElseNone() throws Exception {
        final Path dir = Files.createDirectory(tmp.resolve("tokens"));
        Files.writeString(dir.resolve("leaf1"), "leaf1-token\n");
        Files.setPosixFilePermissions(dir.resolve("leaf1"), PosixFilePermissions.fromString("rw-------"));
        Files.writeString(dir.resolve("openflow:7"), " of7-token ");
        Files.setPosixFilePermissions(dir.resolve("openflow:7"), PosixFilePermissions.fromString("rw-------"));
        Files.writeString(tmp.resolve("shared"), "shared-token\n");
        Files.setPosixFilePermissions(tmp.resolve("shared"), PosixFilePermissions.fromString("rw-------"));
        final var tokens = AgentTokens.of(tmp.resolve("shared").toString(), dir.toString());
        assertEquals("leaf1-token", tokens.tokenFor("leaf1"));
        assertEquals("of7-token", tokens.tokenFor("openflow:7"));
        assertEquals("shared-token", tokens.tokenFor("leaf2"));

        // read on each request: a rotated file takes effect without a restart
        Files.writeString(dir.resolve("leaf1"), "rotated");
        Files.setPosixFilePermissions(dir.resolve("leaf1"), PosixFilePermissions.fromString("rw-------"));
        assertEquals("rotated", tokens.tokenFor("leaf1"));
        Files.writeString(dir.resolve("leaf2"), "leaf2-token");
        Files.setPosixFilePermissions(dir.resolve("leaf2"), PosixFilePermissions.fromString("rw-------"));
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
        Files.setPosixFilePermissions(tmp.resolve("secret"), PosixFilePermissions.fromString("rw-------"));
        Files.createDirectory(dir.resolve("sub"));
        Files.writeString(dir.resolve("sub").resolve("x"), "nested");
        Files.setPosixFilePermissions(dir.resolve("sub").resolve("x"), PosixFilePermissions.fromString("rw-------"));
        Files.writeString(tmp.resolve("shared"), "shared-token");
        Files.setPosixFilePermissions(tmp.resolve("shared"), PosixFilePermissions.fromString("rw-------"));
        final var tokens = AgentTokens.of(tmp.resolve("shared").toString(), dir.toString());
        for (var nodeId : new String[] {"../secret", "..", ".", "sub/x", "sub/../../secret", "/etc/hostname",
            "..\\secret", ""}) {
            assertEquals("shared-token", tokens.tokenFor(nodeId), nodeId);
        }
        // an own token file that cannot be read is no token, not the shared one: the operator meant
        // this switch to have its own
        assertEquals("", tokens.tokenFor("sub"));
    }

    @Test
    void aTokenFileOthersMayReadIsRefusedWithTheReason() throws Exception {
        Files.writeString(tmp.resolve("shared"), "shared-token\n");
        Files.setPosixFilePermissions(tmp.resolve("shared"), PosixFilePermissions.fromString("rw-r--r--"));
        final var tokens = AgentTokens.of(tmp.resolve("shared").toString(), "");
        final var e = org.junit.jupiter.api.Assertions.assertThrows(AgentTokens.ExposedTokenException.class,
            () -> tokens.tokenFor("leaf1"));
        org.junit.jupiter.api.Assertions.assertTrue(
            e.getMessage().contains("is accessible by group and others (mode 0644)"), e.getMessage());
        // the probe turns it into the switch's status detail (UNAUTHORIZED), without reaching any agent
        final var r = new HttpAgentProbe(Runnable::run, tokens::tokenFor, java.time.Duration.ofSeconds(1))
            .probe("leaf1", "127.0.0.1", 9).toCompletableFuture().get();
        assertEquals(new AgentProbe.Result.Refused(e.getMessage()), r);
    }
}
