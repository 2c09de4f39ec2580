/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
/**
 * Live capture (libpcap through pcap4j's raw-packet API) and pcap file replay, behind a small
 * adapter: each capture thread copies raw frames into its own bounded {@link FrameRing}, never
 * waiting on anything; one consumer drains the rings into a {@link FrameSink}. Nothing here
 * imports OpenDaylight or OSGi, and pcap4j's packet factories are never used.
 */
@NonNullByDefault
package io.rst.rft.capture;

import org.eclipse.jdt.annotation.NonNullByDefault;
