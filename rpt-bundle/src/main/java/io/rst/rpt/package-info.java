/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
/**
 * RPT: joins the per-switch flow tables ({@code rdma-flow-table:rft}, operational) with the links
 * and hosts ({@code rst-topology}) of every network-topology topology, configured and discovered,
 * into per-session paths from host to host ({@code rdma-path-table:rpt}), and answers
 * {@code trace-session} and {@code sessions-through}.
 *
 * <pre>
 *  oper /rft/switch/session ------\                          /--> oper /rpt/path[session-id]
 *  config + oper /network-topology -&gt;- RptWorker (1 thread) --&lt;
 *    (links, host ip-address)         PathAssembler (pure)   \--> RPCs, from memory
 * </pre>
 *
 * <p>The flow tables are followed through the DOM API and kept compact (a {@code SwitchSession}
 * per switch and session, a {@code PathValue} per path); paths are written as DOM nodes
 * ({@code PathNodes}) that share their repeated parts; only the RPCs make binding objects.
 */
@NonNullByDefault
package io.rst.rpt;

import org.eclipse.jdt.annotation.NonNullByDefault;
