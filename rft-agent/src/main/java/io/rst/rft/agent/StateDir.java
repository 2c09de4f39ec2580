/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the agent keeps across restarts, in one directory: {@code agent.json} (the operator's
 * capture on/off switch and the event log's instance id), {@code agent.token} (a generated token,
 * mode 0600, when no token file is given), {@code checkpoint.rst} and {@code wal/}
 * (see {@link EventStore}). Small files are replaced atomically (write, then rename).
 */
public final class StateDir {
    private static final Logger LOG = LoggerFactory.getLogger(StateDir.class);
    private static final String META = "agent.json";
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Path dir;
    private final ObjectMapper mapper;
    private boolean capturing = true;
    private String instance;

    public StateDir(final Path dir, final ObjectMapper mapper) throws IOException {
        this.dir = dir;
        this.mapper = mapper;
        Files.createDirectories(dir);
        final Path meta = dir.resolve(META);
        if (Files.isRegularFile(meta)) {
            try {
                final JsonNode node = mapper.readTree(meta.toFile());
                capturing = node.path("capturing").asBoolean(true);
                instance = node.path("instance").asText(null);
            } catch (IOException e) {
                LOG.warn("ignoring unreadable {}: {}", meta, e.getMessage());
            }
        }
    }

    public Path path() {
        return dir;
    }

    /** The operator's switch: whether capture should run (true for a new agent). */
    public synchronized boolean capturing() {
        return capturing;
    }

    public synchronized void setCapturing(final boolean on) throws IOException {
        capturing = on;
        save();
    }

    /** The event log's instance id, or null when the log has none yet. */
    public synchronized String instance() {
        return instance;
    }

    /** Starts a new event log instance (its sequence numbers restart). */
    public synchronized String newInstance() throws IOException {
        instance = UUID.randomUUID().toString();
        save();
        return instance;
    }

    private void save() throws IOException {
        final ObjectNode node = mapper.createObjectNode();
        node.put("capturing", capturing);
        node.put("instance", instance);
        writeAtomically(dir.resolve(META), mapper.writeValueAsBytes(node));
    }

    /**
     * The agent's token: read from {@code tokenFile} if given, else from (or generated into)
     * {@code agent.token} in this directory, readable by its owner only.
     */
    public String token(final Path tokenFile) throws IOException {
        if (tokenFile != null) {
            final String t = Files.readString(tokenFile, StandardCharsets.UTF_8).strip();
            if (t.isEmpty()) {
                throw new IOException("token file " + tokenFile + " is empty");
            }
            return t;
        }
        final Path generated = dir.resolve("agent.token");
        if (Files.isRegularFile(generated)) {
            final String t = Files.readString(generated, StandardCharsets.UTF_8).strip();
            if (!t.isEmpty()) {
                LOG.info("API token from {}", generated);
                return t;
            }
            Files.delete(generated);
        }
        final byte[] random = new byte[32];
        RANDOM.nextBytes(random);
        final String t = HexFormat.of().formatHex(random);
        try {
            Files.createFile(generated,
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (FileAlreadyExistsException e) {
            throw new IOException("another agent is writing " + generated, e);
        }
        Files.writeString(generated, t + "\n", StandardCharsets.UTF_8);
        LOG.info("generated an API token into {}", generated);
        return t;
    }

    static void writeAtomically(final Path target, final byte[] bytes) throws IOException {
        final Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
        Files.write(tmp, bytes);
        try {
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
