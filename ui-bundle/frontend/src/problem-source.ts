/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */

// Where the UI's problems come from: the controller's rst-insight:problems (operational), which
// its insight bundle recomputes from the flow and path tables as they change and which /metrics
// and the notifications report too. One small GET (at most 1,000 problem groups, the counts
// covering all) instead of the flow and path tables, whatever the fabric's size.

import type { Restconf } from './api';
import { member, time } from './model';
import { kindLabel, SEVERITIES, type Place, type Problem, type ProblemKind, type ProblemSession,
  type Severity } from './problems';

export const PROBLEMS = 'rst-insight:problems';

/** The summary and the groups; not the per-switch and per-port counts, which no view shows. */
const PROBLEM_FIELDS = 'updated;total;kind;problem';

export interface ProblemReport {
  /** Most urgent first, then largest. */
  readonly problems: readonly Problem[];
  /** When the controller last recomputed them (its `updated`), else when they were fetched; epoch seconds. */
  readonly at: number;
  /** Sessions, set-ups and agents with a problem, all kinds: the controller's count, which covers groups not listed. */
  readonly total: number;
  /** The controller's counts per kind (they cover groups not listed too). */
  readonly byKind: Partial<Record<ProblemKind, number>>;
  /** False when the controller has no rst-insight:problems (its insight feature not installed, or starting). */
  readonly available: boolean;
  /** Problem entries that could not be read (no id, no count, a severity not in the model): counted, not shown. */
  readonly skipped: number;
}

/**
 * Kinds whose problem's node-id saw every one of its sessions (where the REJ entered, where the
 * unanswered message was last seen, the switches that saw a half-seen flow), so a session opens in
 * that switch's flow table. The others' sessions (flapping set-ups seen by several switches, path
 * problems placed where routes part) open on their paths.
 */
const SEEN_AT_NODE: ReadonlySet<string> = new Set(['rejected', 'req-unanswered', 'rep-unanswered', 'dreq-unanswered',
  'half-seen']);

const SEVERITY_RANK: Record<Severity, number> = { critical: 0, warning: 1, notice: 2 };

type Json = Record<string, unknown>;

function text(v: unknown): string | undefined {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
}

/** A YANG integer: RFC 7951 writes up to 32 bits as a number, 64 as a string; both are read. */
function integer(v: unknown): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isInteger(n) && n >= 0 ? n : undefined;
}

function entries(v: unknown): Json[] {
  return Array.isArray(v) ? v.filter((x): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x)) : [];
}

function parseProblem(o: Json): Problem | undefined {
  const id = text(member(o, 'id'));
  const kind = text(member(o, 'kind'));
  const severity = text(member(o, 'severity'));
  const count = integer(member(o, 'count'));
  if (!id || !kind || count === undefined || count < 1 || !(SEVERITIES as readonly string[]).includes(severity ?? '')) {
    return undefined;
  }
  const node = text(member(o, 'node-id'));
  const tp = text(member(o, 'tp-id'));
  const places: Place[] = node === undefined ? [] : [tp === undefined ? { node } : { node, tp }];
  // a PFC deadlock suspect or an LLDP disagreement is a link: its other end is a place too
  const peer = text(member(o, 'peer-node-id'));
  const peerTp = text(member(o, 'peer-tp-id'));
  if (peer !== undefined) {
    places.push(peerTp === undefined ? { node: peer } : { node: peer, tp: peerTp });
  }
  const ids = member(o, 'session-id');
  const switchId = SEEN_AT_NODE.has(kind) ? node : undefined;
  const sessions: ProblemSession[] = (Array.isArray(ids) ? ids : ids === undefined ? [] : [ids])
    .map(text).filter((s): s is string => s !== undefined)
    .map(sessionId => switchId === undefined ? { sessionId } : { sessionId, switchId });
  const learned = text(member(o, 'learned-from'));
  return {
    id, kind, severity: severity as Severity,
    title: text(member(o, 'title')) ?? kindLabel(kind),
    where: text(member(o, 'detail')) ?? '',
    places, count, sessions,
    firstSeen: time(member(o, 'first-seen')),
    latest: time(member(o, 'last-seen')),
    reason: text(member(o, 'reason')),
    rejectReason: integer(member(o, 'reject-reason')),
    requesterIp: text(member(o, 'requester-ip')),
    responderIp: text(member(o, 'responder-ip')),
    learnedFrom: learned === 'cm' || learned === 'data' ? learned : undefined,
    direction: text(member(o, 'direction')),
    priority: integer(member(o, 'priority')),
    heldUpSessions: integer(member(o, 'held-up-sessions')),
  };
}

/**
 * A RESTCONF answer for rst-insight:problems as the views' report; `fetchedAt` (epoch seconds)
 * stands in where the controller wrote no `updated`. An absent answer (no container) is an empty,
 * unavailable report.
 */
export function parseProblems(doc: unknown, fetchedAt: number): ProblemReport {
  const root = member(doc, 'problems');
  if (typeof root !== 'object' || root === null) {
    return { problems: [], at: fetchedAt, total: 0, byKind: {}, available: false, skipped: 0 };
  }
  const problems: Problem[] = [];
  let skipped = 0;
  const listed = member(root, 'problem');
  for (const o of Array.isArray(listed) ? listed : []) {
    const p = typeof o === 'object' && o !== null && !Array.isArray(o) ? parseProblem(o as Json) : undefined;
    if (p) {
      problems.push(p);
    } else {
      skipped++;
    }
  }
  // a system-ordered list: the datastore need not keep the order the controller wrote
  problems.sort((a, b) => SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] || b.count - a.count
    || a.id.localeCompare(b.id));
  const byKind: Partial<Record<ProblemKind, number>> = {};
  for (const k of entries(member(root, 'kind'))) {
    const kind = text(member(k, 'kind'));
    const count = integer(member(k, 'count'));
    if (kind !== undefined && count !== undefined) {
      byKind[kind] = count;
    }
  }
  let sum = 0;
  for (const n of Object.values(byKind)) {
    sum += n ?? 0;
  }
  const total = integer(member(root, 'total')) ?? sum;
  return { problems, at: time(member(root, 'updated')) ?? fetchedAt, total, byKind, available: true, skipped };
}

export async function fetchProblems(api: Restconf, signal?: AbortSignal): Promise<ProblemReport> {
  const doc = await api.get(PROBLEMS, { content: 'nonconfig', fields: PROBLEM_FIELDS }, { signal });
  return parseProblems(doc, Date.now() / 1000);
}
