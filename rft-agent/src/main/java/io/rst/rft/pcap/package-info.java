/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
/**
 * Capture files: {@link io.rst.rft.pcap.CaptureFileReader} reads pcap and pcapng without
 * allocation per packet (layouts in its Javadoc); {@link io.rst.rft.pcap.PcapWriter} writes them;
 * {@link io.rst.rft.pcap.CmFrameBuilder} and {@link io.rst.rft.pcap.CmTrafficGenerator} make CM
 * traffic for tests, the benchmark and the {@code gen} subcommand;
 * {@link io.rst.rft.pcap.DataFrameBuilder} data packets and CNPs (with any DSCP and ECN), and
 * {@link io.rst.rft.pcap.PfcFrameBuilder} PFC frames. Live capture (pcap4j) is the
 * agent's, in {@code io.rst.rft.capture}.
 */
@NonNullByDefault
package io.rst.rft.pcap;

import org.eclipse.jdt.annotation.NonNullByDefault;
