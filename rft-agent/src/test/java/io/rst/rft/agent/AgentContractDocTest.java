/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.agent;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rst.rft.pcap.CmTrafficGenerator;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent's contract is written once, in docs/agent-api.md and docs/cli.md: every field a real
 * agent answers with in {@code GET /v1/status} and {@code GET /v1/sessions} must be named there
 * (in backquotes, as the pages name fields). A field added to the code without its line in the
 * docs fails here.
 */
class AgentContractDocTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TOKEN = "contract-token";

    @TempDir
    Path dir;
    private Agent agent;

    @AfterEach
    void stop() {
        if (agent != null) {
            agent.close();
        }
    }

    @Test
    void everyFieldTheAgentAnswersWithIsDocumented() throws Exception {
        final Path docs = Path.of("..", "docs");
        final String api = Files.readString(docs.resolve("agent-api.md"));
        final String cli = Files.readString(docs.resolve("cli.md"));

        final Path pcap = dir.resolve("all-types.pcap");
        new CmTrafficGenerator(CmTrafficGenerator.Options.allTypes(200, 11)).write(pcap);
        Files.writeString(dir.resolve("token"), TOKEN + "\n");
        Files.setPosixFilePermissions(dir.resolve("token"), PosixFilePermissions.fromString("rw-------"));
        final AgentOptions options = AgentOptions.parse(List.of("--listen", "127.0.0.1:0", "--token-file",
            dir.resolve("token").toString(), "--state-dir", dir.resolve("state").toString(), "--replay",
            pcap.toString(), "--data-sample", "1", "--agent-id", "leaf1"));
        agent = new Agent(options, events -> AgentCommand.cmProcessor(options, events));
        agent.start();

        // over TLS with the agent's self-made certificate (the status then has its TLS fields too),
        // trusted as itself by a client with the name check on: it names the listen address
        final javax.net.ssl.SSLContext tls = javax.net.ssl.SSLContext.getInstance("TLS");
        tls.init(null, io.rst.rft.wire.TlsFiles.trustManagers(dir.resolve("state").resolve(SelfMadeTls.CERT_FILE))
            .getTrustManagers(), null);
        final HttpClient http = HttpClient.newBuilder().sslContext(tls).connectTimeout(Duration.ofSeconds(5)).build();
        final String base = "https://127.0.0.1:" + agent.address().getPort();
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
            .until(() -> get(http, base + "/v1/status").path("interfaces").path(0).path("finished").asBoolean());
        final JsonNode status = get(http, base + "/v1/status");
        final JsonNode sessions = get(http, base + "/v1/sessions");

        final Set<String> undocumented = new TreeSet<>();
        fields(status, "", undocumented, api);
        final JsonNode list = sessions.path("sessions");
        assertTrue(list.size() > 0, "the agent reported sessions: " + sessions);
        for (var name : (Iterable<String>) sessions::fieldNames) {
            if (!documented(api, name)) {
                undocumented.add("/v1/sessions " + name);
            }
        }
        for (JsonNode session : list) {
            recordFields(session, undocumented, api + cli);
        }
        assertEquals(Set.of(), undocumented, "fields the agent answers with that docs/agent-api.md or docs/cli.md"
            + " do not name (in backquotes)");
    }

    private static JsonNode get(final HttpClient http, final String url) throws Exception {
        final HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(20))
            .header("Authorization", "Bearer " + TOKEN).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return JSON.readTree(r.body());
    }

    private static boolean documented(final String doc, final String name) {
        return doc.contains("`" + name + "`") || doc.contains("`" + name + "[]`") || doc.contains("`" + name + ".")
            || doc.contains("`" + name + "[");
    }

    /**
     * The status's fields by their dotted path ({@code counters.frames}); the items of an array
     * of objects ({@code interfaces[]}) and the keys of a map of counts ({@code counters.skipped})
     * by their own names.
     */
    private static void fields(final JsonNode node, final String path, final Set<String> missing, final String doc) {
        for (var it = node.fields(); it.hasNext(); ) {
            final var e = it.next();
            final String name = path.isEmpty() ? e.getKey() : path + "." + e.getKey();
            final JsonNode value = e.getValue();
            if (value.isObject() && !"counters.skipped".equals(name)) {
                fields(value, name, missing, doc);
            } else if (!documented(doc, name)) {
                missing.add("/v1/status " + name);
            } else if (value.isArray()) {
                for (JsonNode item : value) {
                    item.fieldNames().forEachRemaining(f -> {
                        if (!doc.contains("`" + f + "`")) {
                            missing.add("/v1/status " + name + "[]." + f);
                        }
                    });
                }
            } else if (value.isObject()) {
                value.fieldNames().forEachRemaining(f -> {
                    if (!doc.contains("`" + f + "`")) {
                        missing.add("/v1/status " + name + "." + f);
                    }
                });
            }
        }
    }

    private static void recordFields(final JsonNode record, final Set<String> missing, final String doc) {
        for (var it = record.fields(); it.hasNext(); ) {
            final var e = it.next();
            if (!doc.contains("`" + e.getKey() + "`")) {
                missing.add("session record " + e.getKey());
            }
            final JsonNode value = e.getValue();
            final JsonNode inner = value.isArray() && value.size() > 0 ? value.get(0) : value;
            if (inner.isObject()) {
                inner.fieldNames().forEachRemaining(f -> {
                    if (!doc.contains("`" + f + "`")) {
                        missing.add("session record " + e.getKey() + "." + f);
                    }
                });
            }
        }
    }
}
