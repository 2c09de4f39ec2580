/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
/**
 * Controller side of RFT, inside Karaf: follows the {@code rdma-flow-table:rft} configuration
 * (which switches trace CM sessions, where their agents listen) and writes each switch's agent
 * status to the operational datastore.
 *
 * <pre>
 *  config DS /rft/switch[node-id]  --DataTreeChangeListener-->  RftManager (Blueprint shell)
 *                                                                  |
 *                                                       AgentStatusTracker (one thread)
 *                                                        |  probes, starts/stops  AgentProbe (HTTP, async)
 *                                                        v
 *                                  oper DS /rft/switch[node-id]/agent-status  (StatusWriter, tx chain)
 * </pre>
 *
 * <p>In a cluster every member runs the manager; each switch's agent is followed by exactly one
 * member, the owner of the switch's entity in the entity ownership service
 * ({@link io.rst.rft.manager.ClusterOwnership}: candidates chosen by rendezvous hashing over the
 * members up, so the agents spread and move when a member leaves or returns). The listing of the
 * topology's unconfigured switches is a cluster singleton.
 *
 * <p>Sessions are learnt from CM messages or, where agents sample data packets, from the data
 * ({@code learned-from}). One-way flows whose other direction crossed another switch (ECMP) are
 * paired by the member's {@link io.rst.rft.manager.DataPairing}, from the PSNs the agents sampled
 * (kept in memory, never in the datastore), and each flow's entry says into which session.
 *
 * <p>A listener callback never blocks: it hands the change to the tracker's thread. The
 * configuration decides capture: RFT off for a switch stops its agent's capture, RFT on starts it
 * when the agent reports it stopped. Each switch's agent token is read from its own file in
 * {@code agent-token-dir}, else from {@code agent-token-file} ({@code etc/io.rst.rft.cfg}), never
 * from the datastore.
 */
@NonNullByDefault
package io.rst.rft.manager;

import org.eclipse.jdt.annotation.NonNullByDefault;
