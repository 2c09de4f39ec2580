/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */

// The problems the views show: the controller's own (rst-insight:problems), which its insight
// bundle computes from the flow and path tables and which /metrics and the YANG notifications
// report too, so the UI, scripts and alerts agree. problem-source.ts fetches and reads them; this
// file has their shape and the words and links the views put on them.
//
// A problem is a group (kind, cause, place) with a count and some of its sessions: at 100,000
// sessions one bad port can reject thousands of them, and the operator needs one line that says so.

import { route } from './dom';

/** The kinds rst-insight's problem-kind enumeration has (rst-insight@2026-12-01.yang). */
export const PROBLEM_KINDS = ['rejected', 'req-unanswered', 'rep-unanswered', 'dreq-unanswered', 'flapping',
  'asymmetric-path', 'data-path-differs', 'agent-unreachable', 'half-seen', 'agent-dropping-packets',
  'agent-not-capturing', 'congested', 'pfc-storm', 'pfc-deadlock-suspect', 'lldp-disagreement'] as const;
export type KnownKind = (typeof PROBLEM_KINDS)[number];

/**
 * A problem's kind: one of rst-insight's, or a newer controller's kind this UI has no word for
 * (shown under its own name, with the title and detail the controller wrote).
 */
export type ProblemKind = KnownKind | (string & Record<never, never>);

export const SEVERITIES = ['critical', 'warning', 'notice'] as const;
export type Severity = (typeof SEVERITIES)[number];

export interface Place {
  readonly node: string;
  readonly tp?: string;
}

export interface ProblemSession {
  readonly sessionId: string;
  /** A switch that saw it, to open it in that switch's flow table; absent: opened on its path. */
  readonly switchId?: string;
}

export interface Problem {
  /** Stable while the problem lasts: kind, cause and place (rst-insight's id). */
  readonly id: string;
  readonly kind: ProblemKind;
  readonly severity: Severity;
  readonly title: string;
  /** Where and why, in words (rst-insight's detail). */
  readonly where: string;
  /** The switch (and port) where it shows, for links into the other views; empty when no switch saw it. */
  readonly places: readonly Place[];
  /** Sessions, set-ups (flapping) or agents it covers. */
  readonly count: number;
  /** Some of its sessions (rst-insight names at most 20). */
  readonly sessions: readonly ProblemSession[];
  /** Epoch seconds: its sessions' earliest and latest times, or when the agent's state changed. */
  readonly firstSeen?: number;
  readonly latest?: number;
  /** The cause in words (for a REJ the reason's name), and a REJ's reason code. */
  readonly reason?: string;
  readonly rejectReason?: number;
  /** For flapping: the endpoints set up again and again. */
  readonly requesterIp?: string;
  readonly responderIp?: string;
  /** For a problem about sessions: whether they were learnt from CM messages or from data packets. */
  readonly learnedFrom?: 'cm' | 'data';
  /** Congestion kinds: the data direction (congested), the paused priority and the sessions it holds up (PFC kinds). */
  readonly direction?: string;
  readonly priority?: number;
  readonly heldUpSessions?: number;
}

/** Kinds whose places are ports that PFC pauses: their links open the port view. */
const PORT_KINDS: ReadonlySet<string> = new Set(['pfc-storm', 'pfc-deadlock-suspect', 'congested',
  'lldp-disagreement']);

/**
 * Where a problem's place links: a congestion problem's port to the port view (its pauses and the
 * sessions through it); otherwise the first session's path, else the switch's flow table.
 */
export function placeRoute(p: Pick<Problem, 'kind' | 'sessions'>, place: Place): string {
  if (place.tp !== undefined && PORT_KINDS.has(p.kind)) {
    return route('port', place.node, place.tp);
  }
  return p.sessions[0] ? route('paths', p.sessions[0].sessionId) : route('switch', place.node);
}

/** A congestion problem's own figures in words ("priority 3 · 57 sessions held up · data-forward"); '' for others. */
export function problemFacts(p: Pick<Problem, 'direction' | 'priority' | 'heldUpSessions'>): string {
  return [p.priority !== undefined ? `priority ${p.priority}` : '',
    p.heldUpSessions !== undefined ? `${p.heldUpSessions} session${p.heldUpSessions === 1 ? '' : 's'} held up` : '',
    p.direction ?? ''].filter(x => x !== '').join(' · ');
}

/** Where a problem's session opens: in the flow table of a switch that saw it, else on its path. */
export function sessionRoute(s: ProblemSession): string {
  return s.switchId !== undefined ? route('switch', s.switchId, 'session', s.sessionId) : route('paths', s.sessionId);
}

/** Counts per kind of the problems listed (the report's byKind has the controller's, which cover all). */
export function countByKind(problems: readonly Problem[]): Partial<Record<ProblemKind, number>> {
  const out: Partial<Record<ProblemKind, number>> = {};
  for (const p of problems) {
    out[p.kind] = (out[p.kind] ?? 0) + p.count;
  }
  return out;
}

export const KIND_LABEL: Record<KnownKind, string> = {
  rejected: 'rejected',
  'req-unanswered': 'REQ unanswered',
  'rep-unanswered': 'REP unanswered',
  'dreq-unanswered': 'DREQ unanswered (half-closed)',
  flapping: 'flapping',
  'asymmetric-path': 'asymmetric paths',
  'data-path-differs': 'data apart from CM',
  'agent-unreachable': 'agents unreachable',
  'agent-not-capturing': 'agents not capturing',
  'half-seen': 'half-seen data flows',
  'agent-dropping-packets': 'agents dropping packets',
  congested: 'congested (CE marks, CNPs)',
  'pfc-storm': 'PFC pause storm',
  'pfc-deadlock-suspect': 'PFC deadlock suspected',
  'lldp-disagreement': 'LLDP neighbours disagree',
};

/** A kind in words: this UI's label, or the controller's own name for a kind it does not know. */
export function kindLabel(kind: ProblemKind): string {
  return (KIND_LABEL as Record<string, string>)[kind] ?? kind;
}
