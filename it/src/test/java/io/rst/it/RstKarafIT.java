/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.it;

import static org.awaitility.Awaitility.await;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;
import static org.ops4j.pax.exam.CoreOptions.maven;
import static org.ops4j.pax.exam.CoreOptions.mavenBundle;
import static org.ops4j.pax.exam.CoreOptions.systemTimeout;
import static org.ops4j.pax.exam.karaf.options.KarafDistributionOption.editConfigurationFilePut;
import static org.ops4j.pax.exam.karaf.options.KarafDistributionOption.karafDistributionConfiguration;
import static org.ops4j.pax.exam.karaf.options.KarafDistributionOption.logLevel;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.concurrent.TimeUnit;
import javax.inject.Inject;
import org.apache.karaf.features.FeaturesService;
import org.awaitility.core.ConditionFactory;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.Timeout;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.Configuration;
import org.ops4j.pax.exam.Option;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.karaf.options.LogLevelOption.LogLevel;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;

/**
 * Boots the RST distribution in a real Karaf and checks, from inside it, that the features are
 * installed, that both bundles' Blueprint containers came up, and that RESTCONF serves the RFT
 * model end to end: configuration in, the RFT manager's status out, bad input refused.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class RstKarafIT {
    /** A test that hangs fails after this instead of holding the build (JUnit 4: Pax Exam's runner). */
    @Rule
    public final Timeout timeout = Timeout.builder().withTimeout(10, TimeUnit.MINUTES).withLookingForStuckThread(true)
        .build();

    private static final String RESTCONF = "http://127.0.0.1:8181/rests";
    private static final String AUTH = "Basic "
        + Base64.getEncoder().encodeToString("admin:admin".getBytes(StandardCharsets.UTF_8));

    @Inject
    private BundleContext bundleContext;

    @Inject
    private FeaturesService featuresService;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Configuration
    public Option[] config() {
        return new Option[] {
            karafDistributionConfiguration()
                .frameworkUrl(maven().groupId("io.rst").artifactId("rst-karaf").type("tar.gz").versionAsInProject())
                .unpackDirectory(Path.of(System.getProperty("rst.it.unpack", "target/exam")).toFile())
                .useDeployFolder(false),
            logLevel(LogLevel.INFO),
            systemTimeout(180_000),
            // RST and ODL come from the distribution's own system/ repository, which is searched
            // first; the local Maven repository only supplies Pax Exam's own features and bundles
            editConfigurationFilePut("etc/org.ops4j.pax.url.mvn.cfg", "org.ops4j.pax.url.mvn.repositories",
                "file:${karaf.home}/${karaf.default.repository}@id=system.repository, "
                    + "file:${karaf.data}/kar@id=kar.repository@multi, "
                    + "file:" + System.getProperty("maven.repo.local", System.getProperty("user.home")
                        + "/.m2/repository") + "@id=local.m2@snapshots"),
            // the tests wait with Awaitility, in the container
            mavenBundle("org.awaitility", "awaitility").versionAsInProject(),
            mavenBundle("org.hamcrest", "hamcrest").versionAsInProject(),
        };
    }

    @Test
    public void featuresAreInstalled() throws Exception {
        for (var feature : new String[] {"odl-rst-rft", "odl-rst-rpt", "odl-rst-ui", "odl-rst-insight", "odl-rst",
            "odl-restconf-nb"}) {
            assertTrue(feature + " is not installed", featuresService.isInstalled(featuresService.getFeature(feature)));
        }
    }

    @Test
    public void bundlesAndBlueprintContainersAreActive() throws Exception {
        for (var name : new String[] {"io.rst.yang", "io.rst.rft-wire", "io.rst.rft-bundle", "io.rst.rpt-bundle",
            "io.rst.ui-bundle", "io.rst.insight-bundle"}) {
            final var bundle = bundle(name);
            assertEquals(name + " is not active", Bundle.ACTIVE, bundle.getState());
        }
        for (var name : new String[] {"io.rst.rft-bundle", "io.rst.rpt-bundle", "io.rst.ui-bundle",
            "io.rst.insight-bundle"}) {
            awaitBlueprint(name);
        }
    }

    @Test
    public void noCaptureLibraryRunsInTheController() {
        // capture belongs to the switch agent (rft-agent, a plain jar): Karaf holds controller code only
        for (var bundle : bundleContext.getBundles()) {
            final var name = String.valueOf(bundle.getSymbolicName());
            assertFalse(name + " is installed in the controller",
                name.contains("pcap4j") || name.contains("com.sun.jna"));
        }
    }

    @Test
    public void restconfRoundTripOnRft() throws Exception {
        awaitRestconf();
        // configuration in: two switches, one off, one on with an agent that is not there
        final var put = send("PUT", "/data/rdma-flow-table:rft/switch=it-leaf1", """
            {"rdma-flow-table:switch":[{"node-id":"it-leaf1","enabled":false}]}""");
        assertTrue("PUT it-leaf1: " + put.statusCode() + " " + put.body(),
            put.statusCode() == 201 || put.statusCode() == 204);
        final var put2 = send("PUT", "/data/rdma-flow-table:rft/switch=it-leaf2", """
            {"rdma-flow-table:switch":[{"node-id":"it-leaf2","agent-address":"127.0.0.1","agent-port":9,
             "enabled":true}]}""");
        assertTrue("PUT it-leaf2: " + put2.statusCode() + " " + put2.body(),
            put2.statusCode() == 201 || put2.statusCode() == 204);

        final var config = send("GET", "/data/rdma-flow-table:rft/switch=it-leaf2?content=config", null);
        assertEquals(config.body(), 200, config.statusCode());
        assertTrue(config.body(), config.body().contains("\"agent-port\":9"));

        // state out: the RFT manager says what it found
        awaitBody("/data/rdma-flow-table:rft/switch=it-leaf1/agent-status?content=nonconfig", "\"DISABLED\"");
        awaitBody("/data/rdma-flow-table:rft/switch=it-leaf2/agent-status?content=nonconfig", "\"UNREACHABLE\"");

        // the model refuses bad input with a clear error
        final var bad = send("PUT", "/data/rdma-flow-table:rft/switch=it-bad", """
            {"rdma-flow-table:switch":[{"node-id":"it-bad","agent-port":70000}]}""");
        assertEquals(bad.body(), 400, bad.statusCode());
        assertTrue(bad.body(), bad.body().contains("70000"));

        // the RPT's RPCs are registered
        final var rpc = send("POST", "/operations/rdma-path-table:trace-session", """
            {"input":{"src-ip":"10.0.0.1","dst-ip":"10.0.0.2"}}""");
        assertTrue("trace-session: " + rpc.statusCode() + " " + rpc.body(),
            rpc.statusCode() == 200 || rpc.statusCode() == 204);

        // removing the switch removes its state
        assertEquals(204, send("DELETE", "/data/rdma-flow-table:rft/switch=it-leaf2", null).statusCode());
        waiting("it-leaf2's state goes with its configuration", Duration.ofSeconds(30), Duration.ofMillis(200))
            .untilAsserted(() -> {
                final var state = send("GET", "/data/rdma-flow-table:rft/switch=it-leaf2?content=nonconfig", null);
                assertEquals("it-leaf2's state outlived its configuration: " + state.body(), 409, state.statusCode());
            });
    }

    @Test
    public void restconfTakesHostsWithTheirAddressesInTheTopology() throws Exception {
        awaitRestconf();
        // as the lab and operators write it: rst-topology's leaves on a network-topology node
        final var put = send("PUT", "/data/network-topology:network-topology/topology=it-lab/node=h1a", """
            {"network-topology:node":[{"node-id":"h1a","rst-topology:node-kind":"host",
             "rst-topology:ip-address":["10.1.0.2"]}]}""");
        assertTrue("PUT h1a: " + put.statusCode() + " " + put.body(),
            put.statusCode() == 201 || put.statusCode() == 204);
        final var node = send("GET", "/data/network-topology:network-topology/topology=it-lab/node=h1a?content=config",
            null);
        assertEquals(node.body(), 200, node.statusCode());
        assertTrue(node.body(), node.body().contains("\"rst-topology:node-kind\":\"host\"")
            && node.body().contains("10.1.0.2"));
        assertEquals(204, send("DELETE", "/data/network-topology:network-topology/topology=it-lab", null).statusCode());
    }

    @Test
    public void webUiIsServedUnderRstOnTheRestconfPort() throws Exception {
        awaitRestconf();
        // the page needs no credentials (it holds no data; RESTCONF, which it reads, does)
        final HttpResponse<String> page = waiting("GET /rst/ answers 200", Duration.ofSeconds(60),
            Duration.ofMillis(250)).until(() -> get("http://127.0.0.1:8181/rst/"), r -> r.statusCode() == 200);
        assertTrue(page.body(), page.body().contains("<div id=\"app\">"));
        final var script = java.util.regex.Pattern.compile("src=\"\\./(assets/[^\"]+\\.js)\"").matcher(page.body());
        assertTrue("the page names no script: " + page.body(), script.find());
        final var asset = get("http://127.0.0.1:8181/rst/" + script.group(1));
        assertEquals(200, asset.statusCode());
        assertTrue("the script is empty", asset.body().length() > 1000);
        assertEquals(404, get("http://127.0.0.1:8181/rst/assets/no-such-file.js").statusCode());
    }

    private HttpResponse<String> get(final String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).build(),
            HttpResponse.BodyHandlers.ofString());
    }

    private Bundle bundle(final String symbolicName) {
        for (var bundle : bundleContext.getBundles()) {
            if (symbolicName.equals(bundle.getSymbolicName())) {
                return bundle;
            }
        }
        throw new AssertionError("bundle " + symbolicName + " is not installed");
    }

    /** A wait for {@code what}: the first look at once, then one every {@code every}, for at most {@code atMost}. */
    private static ConditionFactory waiting(final String what, final Duration atMost, final Duration every) {
        return await(what).atMost(atMost).pollDelay(Duration.ZERO).pollInterval(every);
    }

    private void awaitBlueprint(final String symbolicName) {
        final var filter = "(osgi.blueprint.container.symbolicname=" + symbolicName + ")";
        waiting("Blueprint container of " + symbolicName + " comes up", Duration.ofSeconds(120),
            Duration.ofMillis(250)).until(() -> bundleContext.getServiceReferences(
                "org.osgi.service.blueprint.container.BlueprintContainer", filter) != null);
    }

    private void awaitRestconf() {
        waiting("RESTCONF answers", Duration.ofSeconds(180), Duration.ofMillis(500)).untilAsserted(() -> {
            final HttpResponse<String> answer;
            try {
                answer = send("GET", "/data/ietf-yang-library:yang-library?fields=module-set(name)", null);
            } catch (IOException e) {
                throw new AssertionError("RESTCONF is not listening: " + e, e);
            }
            assertEquals("RESTCONF never answered: " + answer.body(), 200, answer.statusCode());
        });
    }

    private void awaitBody(final String path, final String expected) {
        waiting(path + " contains " + expected, Duration.ofSeconds(60), Duration.ofMillis(250)).untilAsserted(() -> {
            final var last = send("GET", path, null);
            assertTrue(path + " never contained " + expected + "; last: " + last.statusCode() + " " + last.body(),
                last.statusCode() == 200 && last.body().contains(expected));
        });
    }

    private HttpResponse<String> send(final String method, final String path, final String body) throws Exception {
        final var builder = HttpRequest.newBuilder(URI.create(RESTCONF + path)).timeout(Duration.ofSeconds(30))
            .header("Authorization", AUTH).header("Accept", "application/json");
        if (body != null) {
            builder.header("Content-Type", "application/json");
        }
        builder.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body));
        final var response = http.send(builder.build(), HttpResponse.BodyHandlers.ofString());
        assertNotNull(response);
        return response;
    }
}
