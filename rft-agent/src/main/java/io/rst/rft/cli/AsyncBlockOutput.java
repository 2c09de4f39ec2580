/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.cli;

import edu.umd.cs.findbugs.annotations.SuppressFBWarnings;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import org.eclipse.jdt.annotation.Nullable;

/**
 * An OutputStream that gathers writes into 1 MiB blocks and writes them to the underlying
 * stream on a thread of its own, so that the decode loop never waits on the write system call
 * (the file commands use the machine's second core this way). Bounded: at most four blocks are
 * in flight; a full queue blocks the producer (back-pressure, no unbounded memory). Not for
 * concurrent producers.
 */
@SuppressFBWarnings(value = "NP_NONNULL_FIELD_NOT_INITIALIZED_IN_CONSTRUCTOR",
    justification = "SpotBugs reads no TYPE_USE @Nullable on fields: these fields are @Nullable")
final class AsyncBlockOutput extends OutputStream {
    private static final int BLOCK = 1 << 20;
    private static final int BLOCKS = 4;

    private record Block(byte[] data, int length) {
    }

    private static final Block END = new Block(new byte[0], 0);

    private final BlockingQueue<Block> full = new ArrayBlockingQueue<>(BLOCKS);
    private final BlockingQueue<byte[]> free = new ArrayBlockingQueue<>(BLOCKS + 1);
    private final Thread writer;
    private volatile @Nullable IOException failure;
    private byte[] cur = new byte[BLOCK];
    private int len;
    private boolean closed;

    AsyncBlockOutput(final OutputStream out) {
        for (int i = 0; i < BLOCKS; i++) {
            free.add(new byte[BLOCK]);
        }
        writer = new Thread(() -> {
            try {
                for (Block b = full.take(); b != END; b = full.take()) {
                    if (failure == null) {
                        try {
                            out.write(b.data(), 0, b.length());
                        } catch (IOException e) {
                            failure = e;
                        }
                    }
                    free.add(b.data());
                }
                out.flush();
            } catch (IOException e) {
                failure = e;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "rst-output");
        writer.setDaemon(true);
        writer.start();
    }

    @Override
    public void write(final int value) throws IOException {
        if (len == cur.length) {
            hand();
        }
        cur[len++] = (byte) value;
    }

    @Override
    public void write(final byte[] buf, final int off, final int count) throws IOException {
        int from = off;
        int left = count;
        while (left > 0) {
            if (len == cur.length) {
                hand();
            }
            final int k = Math.min(left, cur.length - len);
            System.arraycopy(buf, from, cur, len, k);
            len += k;
            from += k;
            left -= k;
        }
    }

    private void hand() throws IOException {
        check();
        try {
            full.put(new Block(cur, len));
            cur = free.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw (InterruptedIOException) new InterruptedIOException("interrupted while writing output").initCause(e);
        }
        len = 0;
    }

    private void check() throws IOException {
        final IOException f = failure;
        if (f != null) {
            throw f;
        }
    }

    /** Writes what is buffered and waits until the writer thread has written everything. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        if (len > 0) {
            hand();
        }
        try {
            full.put(END);
            writer.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw (InterruptedIOException) new InterruptedIOException("interrupted while writing output").initCause(e);
        }
        check();
    }
}
