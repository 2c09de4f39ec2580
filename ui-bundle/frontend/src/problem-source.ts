/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */

// Where the UI's problems come from: the flow tables (with each message's type, port and direction),
// the path table's gaps and asymmetry, and the agents' status, derived in problems.ts. The views
// see only the ProblemReport fetchProblems makes, so another source of problems (the controller's
// own rst-insight:problems, which scripts and /metrics read) would change this file and no view.

import type { Restconf } from './api';
import { RFT, RPT } from './data';
import { member, parseAgentStatus, parsePaths, parseSession, parseSwitchConfigs } from './model';
import { deriveProblems, type Problem, type SwitchInput } from './problems';

const PROBLEM_SESSION_FIELDS = 'switch(node-id;agent-status(state;detail;last-change);session(session-id;requester-ip;responder-ip;state;'
  + 'reject-reason;first-seen;last-seen;service-id;rdma-cm-dst-port;roles-known;'
  + 'learned-from;transport;one-way;paired-session;pair-ambiguous;'
  + 'message(type;ingress-tp;time;from-requester)))';

/**
 * A first, quick look: identities and states (and the reasons of rejections, which only rejected
 * sessions carry), enough for rejected, timed-out and half-closing sessions per cause. Without
 * times, a session still closing counts as half-closed here; the full look tells them apart.
 */
const QUICK_SESSION_FIELDS = 'switch(node-id;agent-status(state;detail;last-change);session(session-id;state;reject-reason))';

// Whole hops: netconf 10.0.2's fields= drops a leaf-list (gap) that sits beside a sub-selected
// list (hop(node-id)) in the same container; beside a whole list it is kept.
const PROBLEM_PATH_FIELDS = 'path(session-id;requester-ip;responder-ip;asymmetric;anomaly;learned-from;one-way;'
  + 'forward(complete;gap;hop);reverse(complete;gap;hop);data-forward(complete;gap;hop);data-reverse(complete;gap;hop))';

export interface ProblemReport {
  readonly problems: readonly Problem[];
  readonly at: number;
  readonly sessionCount: number;
  /** False for the quick first look (no messages, no paths: no places, flapping or path problems yet). */
  readonly complete: boolean;
}

export async function fetchProblems(api: Restconf, quick = false, signal?: AbortSignal): Promise<ProblemReport> {
  const [config, oper, rpt] = await Promise.all([
    api.get(RFT, { content: 'config' }),
    api.get(RFT, { content: 'nonconfig', fields: quick ? QUICK_SESSION_FIELDS : PROBLEM_SESSION_FIELDS },
      { timeoutMs: 120000, signal }),
    quick ? Promise.resolve(undefined) : api.get(RPT, { fields: PROBLEM_PATH_FIELDS }, { timeoutMs: 120000, signal }),
  ]);
  const configs = new Map(parseSwitchConfigs(config).map(c => [c.nodeId, c]));
  const operSwitches = member(member(oper, 'rft'), 'switch');
  const switches: SwitchInput[] = [];
  let sessionCount = 0;
  const seen = new Set<string>();
  for (const o of Array.isArray(operSwitches) ? operSwitches : []) {
    const nodeId = String(member(o, 'node-id') ?? '');
    const c = configs.get(nodeId);
    const raw = member(o, 'session');
    const sessions = (Array.isArray(raw) ? raw : []).map(s => parseSession(s as Record<string, unknown>));
    sessionCount += sessions.length;
    seen.add(nodeId);
    switches.push({
      nodeId, configured: c !== undefined, enabled: c?.enabled ?? false, agentAddress: c?.agentAddress,
      status: parseAgentStatus(member(o, 'agent-status')), sessions,
    });
  }
  for (const c of configs.values()) {
    if (!seen.has(c.nodeId)) {
      switches.push({ nodeId: c.nodeId, configured: true, enabled: c.enabled, agentAddress: c.agentAddress, sessions: [] });
    }
  }
  const now = Date.now() / 1000;
  return {
    problems: deriveProblems({ switches, paths: rpt === undefined ? [] : parsePaths(rpt), now }), at: now, sessionCount,
    complete: !quick,
  };
}
