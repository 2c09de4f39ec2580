/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.insight;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import javax.servlet.Filter;
import javax.servlet.FilterChain;
import javax.servlet.FilterConfig;
import javax.servlet.ReadListener;
import javax.servlet.ServletException;
import javax.servlet.ServletInputStream;
import javax.servlet.ServletRequest;
import javax.servlet.ServletResponse;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletRequestWrapper;
import javax.servlet.http.HttpServletResponse;
import org.eclipse.jdt.annotation.Nullable;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.Ipv4Address;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.Ipv6Address;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bad RPC input is the caller's error: answered 400 with an RFC 8040 error (error-tag
 * invalid-value or missing-element, and an error-path), never 500.
 *
 * <p>Why a filter: netconf 10.0.2's RESTCONF parses an RPC's JSON input with yangtools' codec,
 * which throws IllegalArgumentException ("Invalid value "garbage" for union type", a value out of
 * a range) from {@code JsonParserStream}; {@code OperationInputBody.toContainerNode} catches only
 * IOException, so the exception escapes JAX-RS and Jetty answers 500 with an HTML page. And a
 * missing mandatory leaf of an RPC input is not checked before the RPC runs. This filter sits in
 * RESTCONF's own chain (AAA's filter chain takes every Filter service with
 * {@code org.opendaylight.aaa.filterchain.filter=true}, after authentication): it checks the
 * input of RST's RPCs against their model before RESTCONF parses it, and, for any RPC, turns an
 * IllegalArgumentException that escapes the parsing into 400 invalid-value.
 */
public final class RpcInputFilter implements Filter {
    private static final Logger LOG = LoggerFactory.getLogger(RpcInputFilter.class);
    /** Bodies of RST's RPCs are small; a larger one is passed on unchecked. */
    private static final int MAX_BODY = 64 * 1024;
    private static final long MAX_QPN = 0xFF_FFFFL;

    /** One leaf of an RPC's input, as the model declares it. */
    private record Leaf(String name, boolean mandatory, Kind kind) {
    }

    private enum Kind { IP, QPN, STRING, LEARNED_FROM }

    private record Rpc(String name, List<Leaf> leaves) {
    }

    private static final List<Rpc> RPCS = List.of(
        new Rpc("rdma-path-table:trace-session", List.of(new Leaf("src-ip", true, Kind.IP),
            new Leaf("dst-ip", true, Kind.IP), new Leaf("qpn", false, Kind.QPN),
            new Leaf("learned-from", false, Kind.LEARNED_FROM))),
        new Rpc("rdma-path-table:sessions-through", List.of(new Leaf("node-id", true, Kind.STRING),
            new Leaf("tp-id", false, Kind.STRING), new Leaf("learned-from", false, Kind.LEARNED_FROM))));

    /** An RFC 8040 error: the caller's. */
    record InputError(String tag, String path, String message) {
    }

    @Override
    public void init(final FilterConfig filterConfig) {
        // nothing to set up
    }

    @Override
    @SuppressWarnings("checkstyle:IllegalCatch") // a codec error comes wrapped in any exception: found, else rethrown
    public void doFilter(final ServletRequest request, final ServletResponse response, final FilterChain chain)
            throws IOException, ServletException {
        if (!(request instanceof HttpServletRequest http) || !(response instanceof HttpServletResponse out)
                || !"POST".equals(http.getMethod())) {
            chain.doFilter(request, response);
            return;
        }
        ServletRequest next = request;
        final var rpc = rpcOf(http.getRequestURI());
        final var type = http.getContentType();
        if (rpc != null && type != null && type.toLowerCase(Locale.ROOT).contains("json")) {
            final byte[] body = http.getInputStream().readNBytes(MAX_BODY + 1);
            if (body.length <= MAX_BODY) {
                final var error = check(rpc, new String(body, StandardCharsets.UTF_8));
                if (error != null) {
                    answer(out, error);
                    return;
                }
            }
            next = new Replayed(http, body);
        }
        try {
            chain.doFilter(next, response);
        } catch (ServletException | RuntimeException e) {
            final var cause = codecError(e);
            if (cause == null || response.isCommitted()) {
                throw e;
            }
            LOG.debug("RPC input refused by the codec", cause);
            answer(out, new InputError("invalid-value", null, cause.getMessage()));
        }
    }

    private static @Nullable Rpc rpcOf(final @Nullable String uri) {
        if (uri == null) {
            return null;
        }
        for (var rpc : RPCS) {
            if (uri.endsWith("/operations/" + rpc.name())) {
                return rpc;
            }
        }
        return null;
    }

    /** The first thing wrong with an RPC's JSON input, or null when RESTCONF may take it. */
    static @Nullable InputError check(final String rpcName, final String body) {
        for (var rpc : RPCS) {
            if (rpc.name().equals(rpcName)) {
                return check(rpc, body);
            }
        }
        return null;
    }

    private static @Nullable InputError check(final Rpc rpc, final String body) {
        final JsonElement root;
        try {
            root = body.isBlank() ? new JsonObject() : JsonParser.parseString(body);
        } catch (JsonParseException e) {
            // not ours to judge: RESTCONF answers malformed JSON itself
            return null;
        }
        if (!root.isJsonObject()) {
            return null;
        }
        final var module = rpc.name().substring(0, rpc.name().indexOf(':'));
        var input = root.getAsJsonObject().get("input");
        if (input == null) {
            input = root.getAsJsonObject().get(module + ":input");
        }
        final var leaves = input != null && input.isJsonObject() ? input.getAsJsonObject() : new JsonObject();
        final String base = "/" + rpc.name() + "/input/";
        for (var leaf : rpc.leaves()) {
            var value = leaves.get(leaf.name());
            if (value == null) {
                value = leaves.get(module + ":" + leaf.name());
            }
            if (value == null || value.isJsonNull()) {
                if (leaf.mandatory()) {
                    return new InputError("missing-element", base + leaf.name(),
                        leaf.name() + " is mandatory in the input of " + rpc.name());
                }
                continue;
            }
            final var problem = invalid(leaf, value);
            if (problem != null) {
                return new InputError("invalid-value", base + leaf.name(), problem);
            }
        }
        return null;
    }

    private static @Nullable String invalid(final Leaf leaf, final JsonElement value) {
        if (!value.isJsonPrimitive()) {
            return leaf.name() + " must be a single value, not " + value;
        }
        final String text = value.getAsString();
        return switch (leaf.kind()) {
            case IP -> ip(text) ? null : leaf.name() + " \"" + text + "\" is not an IPv4 or IPv6 address";
            case QPN -> {
                try {
                    final long qpn = Long.parseLong(text.trim());
                    yield qpn >= 0 && qpn <= MAX_QPN ? null
                        : leaf.name() + " " + text + " is out of range: a QPN is 24 bits, 0 to " + MAX_QPN;
                } catch (NumberFormatException e) {
                    yield leaf.name() + " \"" + text + "\" is not a number (a QPN is 24 bits, 0 to " + MAX_QPN + ")";
                }
            }
            case STRING -> text.isEmpty() ? leaf.name() + " must not be empty" : null;
            // the enumeration rdma-flow-table:learned-from
            case LEARNED_FROM -> "cm".equals(text) || "data".equals(text) ? null
                : leaf.name() + " \"" + text + "\" is neither cm nor data";
        };
    }

    private static boolean ip(final String text) {
        try {
            if (text.indexOf(':') >= 0) {
                new Ipv6Address(text);
            } else {
                new Ipv4Address(text);
            }
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** The codec's refusal of a value, if that is what went wrong. */
    private static @Nullable IllegalArgumentException codecError(final Throwable thrown) {
        for (Throwable t = thrown; t != null; t = t.getCause()) {
            if (t instanceof IllegalArgumentException iae) {
                for (var frame : iae.getStackTrace()) {
                    if (frame.getClassName().startsWith("org.opendaylight.yangtools.yang.data.codec")
                            || frame.getClassName().endsWith("OperationInputBody")) {
                        return iae;
                    }
                }
                return null;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return null;
    }

    private static void answer(final HttpServletResponse out, final InputError error) throws IOException {
        final var err = new JsonObject();
        err.addProperty("error-type", "protocol");
        err.addProperty("error-tag", error.tag());
        if (error.path() != null) {
            err.addProperty("error-path", error.path());
        }
        err.addProperty("error-message", error.message());
        final var list = new com.google.gson.JsonArray();
        list.add(err);
        final var errors = new JsonObject();
        errors.add("error", list);
        final var root = new JsonObject();
        root.add("ietf-restconf:errors", errors);
        final byte[] body = root.toString().getBytes(StandardCharsets.UTF_8);
        out.resetBuffer();
        out.setStatus(HttpServletResponse.SC_BAD_REQUEST);
        out.setContentType("application/yang-data+json");
        out.setContentLength(body.length);
        out.getOutputStream().write(body);
    }

    @Override
    public void destroy() {
        // nothing held
    }

    /** The request with its body, already read, served again to RESTCONF. */
    private static final class Replayed extends HttpServletRequestWrapper {
        private final byte[] body;

        Replayed(final HttpServletRequest request, final byte[] body) {
            super(request);
            this.body = body;
        }

        @Override
        public ServletInputStream getInputStream() {
            final var in = new ByteArrayInputStream(body);
            return new ServletInputStream() {
                @Override
                public int read() {
                    return in.read();
                }

                @Override
                public int read(final byte[] buf, final int off, final int len) {
                    return in.read(buf, off, len);
                }

                @Override
                public boolean isFinished() {
                    return in.available() == 0;
                }

                @Override
                public boolean isReady() {
                    return true;
                }

                @Override
                public void setReadListener(final ReadListener listener) {
                    throw new IllegalStateException("the body is already read");
                }
            };
        }

        @Override
        public int getContentLength() {
            return body.length;
        }

        @Override
        public long getContentLengthLong() {
            return body.length;
        }
    }
}
