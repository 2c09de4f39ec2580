/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.capture;

import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * The capture sources of one agent, fixed for its lifetime so that a source's index (the
 * {@code ifIndex} a {@link FrameSink} receives) always names the same port. Capture threads
 * start and stop together; one consumer thread drains all rings.
 */
public final class CaptureGroup {
    private final List<CaptureSource> sources;

    public CaptureGroup(final List<? extends CaptureSource> sources) {
        this.sources = List.copyOf(sources);
        if (this.sources.isEmpty()) {
            throw new IllegalArgumentException("no capture source");
        }
    }

    public List<CaptureSource> sources() {
        return sources;
    }

    /** The ingress port name of source {@code ifIndex}. */
    public String portName(final int ifIndex) {
        return sources.get(ifIndex).name();
    }

    public void start() {
        sources.forEach(CaptureSource::start);
    }

    public void stop() {
        sources.forEach(CaptureSource::stop);
    }

    /**
     * Hands waiting frames to {@code sink}, at most {@code maxPerSource} from each source so that
     * a busy port cannot starve the others. Consumer thread only.
     *
     * @return the number of frames handed over
     */
    public int drain(final FrameSink sink, final int maxPerSource) {
        int n = 0;
        for (int i = 0; i < sources.size(); i++) {
            n += sources.get(i).ring().drain(sink, i, maxPerSource);
        }
        return n;
    }

    /** Frames waiting in all rings. */
    public int backlog() {
        int n = 0;
        for (CaptureSource s : sources) {
            n += s.ring().size();
        }
        return n;
    }

    /**
     * Names of the interfaces that are up and not loopback, sorted, as the kernel of this network
     * namespace reports them.
     */
    public static List<String> upInterfaces() throws SocketException {
        final List<String> names = new ArrayList<>();
        for (NetworkInterface nif : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (nif.isUp() && !nif.isLoopback()) {
                names.add(nif.getName());
            }
        }
        Collections.sort(names);
        return names;
    }

    /** Whether interface {@code name} exists and is up (false if that cannot be told). */
    public static boolean isUp(final String name) {
        try {
            final NetworkInterface nif = NetworkInterface.getByName(Objects.requireNonNull(name));
            return nif != null && nif.isUp();
        } catch (SocketException e) {
            return false;
        }
    }
}
