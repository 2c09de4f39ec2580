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
        int drained = 0;
        for (int i = 0; i < sources.size(); i++) {
            drained += sources.get(i).ring().drain(sink, i, maxPerSource);
        }
        return drained;
    }

    /**
     * Hands waiting frames to {@code sink} in capture-time order across sources, at most
     * {@code max}: a message that enters one port before another message enters another port is
     * handed on first, whichever capture thread or kernel buffer delivered it later. A frame goes
     * when no source can still deliver an earlier one: every other source has a later frame
     * waiting, or will deliver no more ({@link CaptureSource#exhausted}), or could only deliver
     * within its {@link CaptureSource#deliveryBoundMicros} and that much time has passed. With
     * {@code flush} every waiting frame goes (the sources are stopped), and so it does while a ring
     * is half full, so that holding frames back never costs one. One source: its order.
     *
     * @param nowMicros the wall clock, microseconds since the epoch
     * @return frames handed on
     */
    public int drainInTimeOrder(final FrameSink sink, final int max, final long nowMicros, final boolean flush) {
        final int count = sources.size();
        if (count == 1) {
            return sources.get(0).ring().drain(sink, 0, max);
        }
        int handed = 0;
        while (handed < max) {
            int best = -1;
            long bestTime = Long.MAX_VALUE;
            for (int i = 0; i < count; i++) {
                final long t = sources.get(i).ring().headTime();
                if (t < bestTime) {
                    bestTime = t;
                    best = i;
                }
            }
            if (best < 0) {
                break;
            }
            if (!flush && !underPressure()) {
                boolean safe = true;
                for (int i = 0; i < count && safe; i++) {
                    final CaptureSource s = sources.get(i);
                    if (i == best || s.ring().headTime() != Long.MAX_VALUE || s.exhausted()) {
                        continue;
                    }
                    final long bound = s.deliveryBoundMicros();
                    safe = bound != Long.MAX_VALUE && bestTime <= nowMicros - bound;
                }
                if (!safe) {
                    break;
                }
            }
            handed += sources.get(best).ring().drain(sink, best, 1);
        }
        return handed;
    }

    /** A ring half full: order gives way to keeping up (a frame dropped would be worse than one early). */
    private boolean underPressure() {
        for (CaptureSource s : sources) {
            if (s.ring().size() >= s.ring().capacity() / 2) {
                return true;
            }
        }
        return false;
    }

    /** Frames waiting in all rings. */
    public int backlog() {
        int waiting = 0;
        for (CaptureSource s : sources) {
            waiting += s.ring().size();
        }
        return waiting;
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
