/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
/**
 * RPT: joins the per-switch flow tables ({@code rdma-flow-table:rft}, operational) with the links
 * of every network-topology topology into per-session paths ({@code rdma-path-table:rpt}), and
 * answers {@code trace-session} and {@code sessions-through}.
 *
 * <pre>
 *  oper /rft/switch/session ---\                       /--> oper /rpt/path[session-id]
 *                               >-- RptWorker (1 thread) --&lt;
 *  oper /network-topology/... -/   PathAssembler (pure)  \--> RPCs, from memory
 * </pre>
 */
package io.rst.rpt;
