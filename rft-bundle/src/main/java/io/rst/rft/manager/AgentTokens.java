/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.manager;

import edu.umd.cs.findbugs.annotations.SuppressFBWarnings;
import io.rst.rft.wire.TlsFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.eclipse.jdt.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bearer token the controller presents to each switch's agent: the file named after the
 * switch's node-id in {@code agent-token-dir}, else the one {@code agent-token-file} names, else
 * none. Tokens live in files, never in the datastore (RESTCONF would show them), and are read on
 * each request, so that rotating a file needs no restart.
 */
@SuppressFBWarnings(value = "NP_STORE_INTO_NONNULL_FIELD",
    justification = "SpotBugs reads no TYPE_USE @Nullable on fields: these fields are @Nullable")
final class AgentTokens {
    private static final Logger LOG = LoggerFactory.getLogger(AgentTokens.class);

    private final @Nullable Path tokenFile;
    private final @Nullable Path tokenDir;

    AgentTokens(final @Nullable Path tokenFile, final @Nullable Path tokenDir) {
        this.tokenFile = tokenFile;
        this.tokenDir = tokenDir == null ? null : tokenDir.toAbsolutePath().normalize();
    }

    /** From the configuration's strings: blank means not set. */
    static AgentTokens of(final @Nullable String tokenFile, final @Nullable String tokenDir) {
        return new AgentTokens(tokenFile == null || tokenFile.isBlank() ? null : Path.of(tokenFile.strip()),
            tokenDir == null || tokenDir.isBlank() ? null : Path.of(tokenDir.strip()));
    }

    /**
     * Thrown for a token file that others may read: the controller refuses to use it, and the
     * switch's status says why.
     */
    static final class ExposedTokenException extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        ExposedTokenException(final String message, final Throwable cause) {
            super(message, cause);
        }
    }

    private static String read(final Path file) throws IOException {
        if (Files.isRegularFile(file)) {
            try {
                TlsFiles.requirePrivate(file, "agent token file");
            } catch (NoSuchFileException e) {
                throw e;
            } catch (IOException e) {
                throw new ExposedTokenException("the controller refuses the " + e.getMessage(), e);
            }
        }
        return Files.readString(file, StandardCharsets.UTF_8).strip();
    }

    /**
     * The token for the switch {@code nodeId}, or "" when none is configured or readable.
     *
     * @throws ExposedTokenException when the token file may be read by its group or others
     */
    String tokenFor(final String nodeId) {
        final var own = switchFile(nodeId);
        if (own != null) {
            try {
                return read(own);
            } catch (NoSuchFileException e) {
                // no file of its own: the shared token
                LOG.trace("RFT: no token file {} for switch {}", own, nodeId);
            } catch (IOException e) {
                LOG.warn("RFT cannot read the agent token file {} of switch {}: {}", own, nodeId, e.getMessage());
                return "";
            }
        }
        final var shared = tokenFile;
        if (shared == null) {
            return "";
        }
        try {
            return read(shared);
        } catch (IOException e) {
            LOG.warn("RFT cannot read the agent token file {}: {}", shared, e.getMessage());
            return "";
        }
    }

    /**
     * The file of the switch's own token, or null. A node-id comes from the datastore, that is from
     * anyone who may write RESTCONF: one that is not a plain file name (a path, "..") must never make
     * the controller read, and send to an agent address of the writer's choosing, a file outside the
     * directory.
     */
    private @Nullable Path switchFile(final String nodeId) {
        final var dir = tokenDir;
        if (dir == null || nodeId.isEmpty() || ".".equals(nodeId) || "..".equals(nodeId)
                || nodeId.indexOf('/') >= 0 || nodeId.indexOf('\\') >= 0 || nodeId.indexOf('\0') >= 0) {
            return null;
        }
        final var file = dir.resolve(nodeId).normalize();
        return dir.equals(file.getParent()) ? file : null;
    }

    /** Where a switch's token comes from, in words, for status details. */
    String describe() {
        final var dir = tokenDir;
        final var file = tokenFile;
        if (dir == null && file == null) {
            return "no agent token configured (agent-token-file or agent-token-dir in etc/io.rst.rft.cfg)";
        }
        return "agent token from " + (dir == null ? "" : dir + "/NODE-ID, else ") + (file == null ? "none" : file);
    }

    @Override
    public String toString() {
        return describe();
    }
}
