/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.agent;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocket;
import org.eclipse.jdt.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A minimal HTTP/1.1 server for the agent's API, rather than {@code com.sun.net.httpserver}, which
 * reads request heads on its worker threads with no time limit: 1,000 clients sending a header
 * line a second would hold every worker, and the API would answer nobody. Here every connection reads its
 * request head on a virtual thread of its own (cheap to park by the thousand) under a deadline,
 * and only a whole, bounded request reaches the small pool of platform threads that run the
 * handlers. Bounds: {@link Limits#maxConnections} at once (a new connection pushes out the one
 * that has waited longest without a whole request: the oldest idle or slowest), a request head
 * within {@link Limits#headMillis} of its first byte, an idle keep-alive connection closed after
 * {@link Limits#idleMillis}, heads of at most {@link Limits#maxHeadBytes}, and an answer that makes
 * no progress (a client that stops reading) cut after {@link Limits#stallMillis}.
 *
 * <p>The socket factory decides plain or TLS: with an {@code SSLServerSocket} the handshake runs
 * on the connection's virtual thread under the same head deadline.
 */
final class ApiServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ApiServer.class);
    private static final byte[] CRLF = {'\r', '\n'};

    /**
     * The server's bounds.
     *
     * @param maxConnections connections at once
     * @param idleMillis how long a connection may wait before the first byte of a request
     * @param headMillis how long a request head (and its small body) may take from its first byte
     * @param maxHeadBytes request line and headers together
     * @param maxBody the largest body read (bigger ones: 413)
     * @param stallMillis how long writing an answer may make no progress
     * @param workers platform threads running handlers
     */
    record Limits(int maxConnections, long idleMillis, long headMillis, int maxHeadBytes, int maxBody,
            long stallMillis, int workers) {
        Limits {
            if (maxConnections < 1 || idleMillis < 1 || headMillis < 1 || maxHeadBytes < 256 || maxBody < 0
                || stallMillis < 1 || workers < 1) {
                throw new IllegalArgumentException("bad limits");
            }
        }

        static Limits defaults(final int workers) {
            return new Limits(512, 30_000, 5_000, 16 * 1024, 4096, 60_000, workers);
        }
    }

    /** A whole request head (the body, if any, was read and discarded). */
    record Request(String method, String rawPath, String rawQuery, Map<String, List<String>> headers,
            InetSocketAddress peer) {
        /** The values of a header (names are case-insensitive), empty if none. */
        List<String> header(final String name) {
            return headers.getOrDefault(name.toLowerCase(Locale.ROOT), List.of());
        }
    }

    /** Handles one request: answers with {@link Response#send} or {@link Response#stream}. */
    @FunctionalInterface
    interface Handler {
        void handle(Request request, Response response) throws IOException;
    }

    /** Thrown when a request cannot be answered normally: the server answers with status and closes. */
    private static final class BadRequest extends Exception {
        private static final long serialVersionUID = 1L;
        private final int status;

        BadRequest(final int status, final String message) {
            this(status, message, null);
        }

        BadRequest(final int status, final String message, final Throwable cause) {
            super(message, cause, false, false);
            this.status = status;
        }
    }

    private enum Phase { IDLE, HEAD, BUSY }

    /** One connection; its phase and deadline are read by the reaper. */
    private final class Conn {
        final Socket socket;
        final java.util.concurrent.atomic.AtomicBoolean timedOut = new java.util.concurrent.atomic.AtomicBoolean();
        volatile Phase phase = Phase.IDLE;
        /** Since when the connection has been in its phase (IDLE, HEAD), or last wrote (BUSY). */
        volatile long since = System.nanoTime();
        final byte[] buf = new byte[8192];
        int pos;
        int lim;

        Conn(final Socket socket) {
            this.socket = socket;
        }

        long deadline() {
            return since + 1_000_000L * switch (phase) {
                case IDLE -> limits.idleMillis;
                case HEAD -> limits.headMillis;
                case BUSY -> limits.stallMillis;
            };
        }

        void close() {
            try {
                socket.close();
            } catch (IOException e) {
                LOG.trace("close: {}", e.getMessage());
            }
        }
    }

    private final ServerSocket server;
    private final Handler handler;
    private final Limits limits;
    private final Set<Conn> conns = ConcurrentHashMap.newKeySet();
    private final AtomicInteger open = new AtomicInteger();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong timedOut = new AtomicLong();
    private final AtomicLong tlsFailures = new AtomicLong();
    private final ExecutorService workers;
    private final ScheduledExecutorService reaper;
    private final Thread acceptor;
    private volatile boolean closing;

    /** Serves {@code handler} on the bound {@code server} socket. */
    ApiServer(final ServerSocket server, final Handler handler, final Limits limits) {
        this.server = server;
        this.handler = handler;
        this.limits = limits;
        final AtomicInteger n = new AtomicInteger();
        workers = Executors.newFixedThreadPool(limits.workers, r -> {
            final Thread t = new Thread(r, "api-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        reaper = Executors.newSingleThreadScheduledExecutor(r -> {
            final Thread t = new Thread(r, "api-reaper");
            t.setDaemon(true);
            return t;
        });
        reaper.scheduleWithFixedDelay(this::reap, 200, 200, TimeUnit.MILLISECONDS);
        acceptor = new Thread(this::acceptLoop, "api-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    InetSocketAddress address() {
        return (InetSocketAddress) server.getLocalSocketAddress();
    }

    /** Connections open now. */
    int connections() {
        return open.get();
    }

    /** Connections closed to make room for others, or refused at the limit. */
    long droppedConnections() {
        return dropped.get();
    }

    /** Connections closed because a request head, an idle wait or an answer took too long. */
    long timedOutConnections() {
        return timedOut.get();
    }

    /** TLS handshakes that failed. */
    long tlsFailures() {
        return tlsFailures.get();
    }

    @Override
    public void close() {
        closing = true;
        try {
            server.close();
        } catch (IOException e) {
            LOG.debug("closing the API socket: {}", e.getMessage());
        }
        reaper.shutdownNow();
        conns.forEach(Conn::close);
        workers.shutdownNow();
        try {
            acceptor.join(2000);
            workers.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @SuppressWarnings("checkstyle:IllegalCatch") // a connection whose thread cannot start is dropped, not the acceptor
    private void acceptLoop() {
        while (!closing) {
            final Socket s;
            try {
                s = server.accept();
            } catch (IOException e) {
                if (!closing) {
                    LOG.warn("API accept failed: {}", e.getMessage());
                    pause();
                }
                continue;
            }
            if (open.get() >= limits.maxConnections && !evictOne()) {
                // every connection is busy answering: refuse the newcomer rather than a client being served
                dropped.incrementAndGet();
                closeQuietly(s);
                continue;
            }
            final Conn c = new Conn(s);
            conns.add(c);
            open.incrementAndGet();
            try {
                Thread.ofVirtual().name("api-conn").start(() -> serve(c));
            } catch (RuntimeException e) {
                forget(c);
            }
        }
    }

    private static void pause() {
        try {
            Thread.sleep(50);
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
        }
    }

    /** Closes the connection that has waited longest without a whole request; false if none waits. */
    private boolean evictOne() {
        Conn victim = null;
        for (Conn c : conns) {
            if (c.phase != Phase.BUSY && (victim == null || c.since - victim.since < 0)) {
                victim = c;
            }
        }
        if (victim == null) {
            return false;
        }
        dropped.incrementAndGet();
        if (conns.remove(victim)) {
            open.decrementAndGet();
        }
        victim.close();
        return true;
    }

    private void reap() {
        final long now = System.nanoTime();
        for (Conn c : conns) {
            if (now - c.deadline() > 0) {
                timedOut(c);
                c.close();
            }
        }
    }

    private void timedOut(final Conn conn) {
        if (conn.timedOut.compareAndSet(false, true)) {
            timedOut.incrementAndGet();
        }
    }

    private void forget(final Conn conn) {
        if (conns.remove(conn)) {
            open.decrementAndGet();
        }
        conn.close();
    }

    private void serve(final Conn conn) {
        try {
            if (conn.socket instanceof SSLSocket ssl) {
                conn.phase = Phase.HEAD;
                conn.since = System.nanoTime();
                ssl.setSoTimeout((int) limits.headMillis);
                try {
                    ssl.startHandshake();
                } catch (IOException e) {
                    tlsFailures.incrementAndGet();
                    LOG.debug("TLS handshake with {} failed: {}", conn.socket.getRemoteSocketAddress(), e.getMessage());
                    return;
                }
            }
            boolean keepAlive = true;
            while (keepAlive && !closing) {
                conn.phase = Phase.IDLE;
                conn.since = System.nanoTime();
                final Request req;
                try {
                    req = readRequest(conn);
                } catch (BadRequest e) {
                    conn.phase = Phase.BUSY;
                    conn.since = System.nanoTime();
                    final OutputStream out = new BufferedOutputStream(conn.socket.getOutputStream(), 1024);
                    writeSimple(out, e.status, Map.of("Connection", "close"),
                        ("{\"error\":\"" + e.getMessage() + "\"}").getBytes(StandardCharsets.UTF_8));
                    out.flush();
                    return;
                }
                if (req == null) {
                    return;
                }
                conn.phase = Phase.BUSY;
                conn.since = System.nanoTime();
                keepAlive = !req.header("connection").stream().anyMatch(v -> v.equalsIgnoreCase("close"));
                final Response resp = new Response(conn, keepAlive);
                final Future<?> f;
                try {
                    f = workers.submit(() -> {
                        handler.handle(req, resp);
                        return null;
                    });
                } catch (RejectedExecutionException e) {
                    return;
                }
                try {
                    f.get();
                } catch (ExecutionException e) {
                    LOG.debug("request {} {} failed: {}", req.method, req.rawPath, e.getCause().toString());
                    return;
                } catch (InterruptedException e) {
                    f.cancel(true);
                    return;
                }
                keepAlive = keepAlive && resp.finish();
            }
        } catch (SSLException e) {
            tlsFailures.incrementAndGet();
            LOG.debug("TLS with {} failed: {}", conn.socket.getRemoteSocketAddress(), e.getMessage());
        } catch (IOException e) {
            LOG.trace("connection {}: {}", conn.socket.getRemoteSocketAddress(), e.getMessage());
        } finally {
            forget(conn);
        }
    }

    /** Reads one byte under the connection's deadline; -1 at end of stream. */
    private int read(final Conn conn) throws IOException {
        if (conn.pos < conn.lim) {
            return conn.buf[conn.pos++] & 0xff;
        }
        while (true) {
            final long left = (conn.deadline() - System.nanoTime()) / 1_000_000L;
            if (left <= 0) {
                timedOut(conn);
                throw new SocketTimeoutException("request too slow");
            }
            conn.socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, left));
            final InputStream in = conn.socket.getInputStream();
            final int n;
            try {
                n = in.read(conn.buf, 0, conn.buf.length);
            } catch (SocketTimeoutException e) {
                continue;
            }
            if (n < 0) {
                return -1;
            }
            if (n > 0) {
                conn.pos = 0;
                conn.lim = n;
                if (conn.phase == Phase.IDLE) {
                    // the deadline for the whole head counts from its first byte
                    conn.phase = Phase.HEAD;
                    conn.since = System.nanoTime();
                }
                return conn.buf[conn.pos++] & 0xff;
            }
        }
    }

    /** Reads a request head and skips its body; null when the client closed between requests. */
    private @Nullable Request readRequest(final Conn conn) throws IOException, BadRequest {
        final List<String> lines = new ArrayList<>();
        final StringBuilder line = new StringBuilder(128);
        int total = 0;
        while (true) {
            final int b = read(conn);
            if (b < 0) {
                if (lines.isEmpty() && line.isEmpty()) {
                    return null;
                }
                throw new IOException("connection closed in a request head");
            }
            if (lines.isEmpty() && line.isEmpty() && b != '\r' && b != '\n' && (b < 'A' || b > 'Z')) {
                // not a method: most likely a TLS ClientHello (0x16) to this plain HTTP agent. Answer
                // at once, so that the client learns it speaks to plain HTTP rather than wait
                throw new BadRequest(400, "not an HTTP request (TLS to a plain HTTP agent?)");
            }
            if (++total > limits.maxHeadBytes) {
                throw new BadRequest(431, "request head too large (limit " + limits.maxHeadBytes + " bytes)");
            }
            if (b == '\n') {
                final int len = line.length();
                final String l = len > 0 && line.charAt(len - 1) == '\r' ? line.substring(0, len - 1) : line.toString();
                line.setLength(0);
                if (l.isEmpty()) {
                    if (lines.isEmpty()) {
                        continue; // tolerated empty lines before a request line
                    }
                    break;
                }
                lines.add(l);
            } else {
                line.append((char) b);
            }
        }
        final String[] parts = lines.get(0).split(" ");
        if (parts.length != 3 || !parts[2].startsWith("HTTP/1.") || parts[0].isEmpty()
            || !parts[1].startsWith("/")) {
            throw new BadRequest(400, "malformed request line");
        }
        final Map<String, List<String>> headers = new TreeMap<>();
        for (int i = 1; i < lines.size(); i++) {
            final String h = lines.get(i);
            final int colon = h.indexOf(':');
            if (colon <= 0) {
                throw new BadRequest(400, "malformed header line");
            }
            headers.computeIfAbsent(h.substring(0, colon).strip().toLowerCase(Locale.ROOT), k -> new ArrayList<>())
                .add(h.substring(colon + 1).strip());
        }
        if (!headers.getOrDefault("transfer-encoding", List.of()).isEmpty()) {
            throw new BadRequest(411, "chunked request bodies are not accepted; requests need no body");
        }
        final List<String> cl = headers.getOrDefault("content-length", List.of());
        if (cl.size() > 1) {
            throw new BadRequest(400, "repeated Content-Length");
        }
        if (cl.size() == 1) {
            final long n;
            try {
                n = Long.parseLong(cl.get(0));
            } catch (NumberFormatException e) {
                throw new BadRequest(400, "bad Content-Length", e);
            }
            if (n < 0) {
                throw new BadRequest(400, "bad Content-Length");
            }
            if (n > limits.maxBody) {
                // read a moderate excess away (under the head deadline) so the client sees the answer
                for (long i = 0; i < Math.min(n, 1 << 20); i++) {
                    if (read(conn) < 0) {
                        break;
                    }
                }
                throw new BadRequest(413, "request body too large (limit " + limits.maxBody + " bytes)");
            }
            for (long i = 0; i < n; i++) {
                if (read(conn) < 0) {
                    throw new IOException("connection closed in a request body");
                }
            }
        }
        final String target = parts[1];
        final int q = target.indexOf('?');
        return new Request(parts[0], q < 0 ? target : target.substring(0, q), q < 0 ? null : target.substring(q + 1),
            headers, (InetSocketAddress) conn.socket.getRemoteSocketAddress());
    }

    private static void writeSimple(final OutputStream out, final int status, final Map<String, String> headers,
            final byte[] body) throws IOException {
        writeHead(out, status, headers);
        out.write(("Content-Type: application/json\r\nContent-Length: " + body.length + "\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII));
        out.write(body);
    }

    private static void writeHead(final OutputStream out, final int status, final Map<String, String> headers)
            throws IOException {
        final StringBuilder sb = new StringBuilder(128).append("HTTP/1.1 ").append(status).append(' ')
            .append(reason(status)).append("\r\n");
        headers.forEach((k, v) -> sb.append(k).append(": ").append(v).append("\r\n"));
        out.write(sb.toString().getBytes(StandardCharsets.ISO_8859_1));
    }

    private static String reason(final int status) {
        return switch (status) {
            case 200 -> "OK";
            case 400 -> "Bad Request";
            case 401 -> "Unauthorized";
            case 404 -> "Not Found";
            case 405 -> "Method Not Allowed";
            case 411 -> "Length Required";
            case 413 -> "Content Too Large";
            case 414 -> "URI Too Long";
            case 431 -> "Request Header Fields Too Large";
            case 500 -> "Internal Server Error";
            case 503 -> "Service Unavailable";
            default -> "Status";
        };
    }

    private static void closeQuietly(final Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            LOG.trace("close: {}", e.getMessage());
        }
    }

    /** The answer to one request: a whole JSON body, or a chunked stream. */
    final class Response {
        private final boolean keepAlive;
        private final Map<String, String> headers = new LinkedHashMap<>();
        private final OutputStream raw;
        private boolean committed;
        private boolean complete;

        Response(final Conn conn, final boolean keepAlive) throws IOException {
            this.keepAlive = keepAlive;
            raw = new ProgressStream(new BufferedOutputStream(conn.socket.getOutputStream(), 16 * 1024), conn);
        }

        /** Sets a response header (before the answer starts). */
        void header(final String name, final String value) {
            headers.put(name, value);
        }

        boolean committed() {
            return committed;
        }

        /** Answers with a whole body. */
        void send(final int status, final String contentType, final byte[] body) throws IOException {
            if (committed) {
                throw new IOException("answer already started");
            }
            committed = true;
            if (!keepAlive) {
                headers.put("Connection", "close");
            }
            headers.put("Content-Type", contentType);
            headers.put("Content-Length", Integer.toString(body.length));
            writeHead(raw, status, headers);
            raw.write(CRLF);
            raw.write(body);
            raw.flush();
            complete = true;
        }

        /** Starts a chunked answer; closing the stream ends it. */
        OutputStream stream(final int status, final String contentType) throws IOException {
            if (committed) {
                throw new IOException("answer already started");
            }
            committed = true;
            if (!keepAlive) {
                headers.put("Connection", "close");
            }
            headers.put("Content-Type", contentType);
            headers.put("Transfer-Encoding", "chunked");
            writeHead(raw, status, headers);
            raw.write(CRLF);
            return new OutputStream() {
                private boolean closed;

                @Override
                public void write(final int value) throws IOException {
                    write(new byte[] {(byte) value}, 0, 1);
                }

                @Override
                public void write(final byte[] buf, final int off, final int len) throws IOException {
                    if (closed) {
                        throw new IOException("stream closed");
                    }
                    if (len == 0) {
                        return;
                    }
                    raw.write(Integer.toHexString(len).getBytes(StandardCharsets.US_ASCII));
                    raw.write(CRLF);
                    raw.write(buf, off, len);
                    raw.write(CRLF);
                }

                @Override
                public void flush() throws IOException {
                    raw.flush();
                }

                @Override
                public void close() throws IOException {
                    if (!closed) {
                        closed = true;
                        raw.write('0');
                        raw.write(CRLF);
                        raw.write(CRLF);
                        raw.flush();
                        complete = true;
                    }
                }
            };
        }

        /** Whether the connection may serve another request. */
        boolean finish() {
            return keepAlive && committed && complete;
        }
    }

    /** Counts write progress, so a client that stops reading is cut after the stall limit. */
    private static final class ProgressStream extends OutputStream {
        private final OutputStream out;
        private final Conn conn;

        ProgressStream(final OutputStream out, final Conn conn) {
            this.out = out;
            this.conn = conn;
        }

        @Override
        public void write(final int value) throws IOException {
            out.write(value);
        }

        @Override
        public void write(final byte[] buf, final int off, final int len) throws IOException {
            out.write(buf, off, len);
            conn.since = System.nanoTime();
        }

        @Override
        public void flush() throws IOException {
            out.flush();
            conn.since = System.nanoTime();
        }

        @Override
        public void close() throws IOException {
            out.close();
        }
    }
}
