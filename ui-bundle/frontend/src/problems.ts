/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */

// Problems at a glance, derived from the flow tables, the path table and the agents' status. This
// is the one place in the UI that derives them, and problem-source.ts the one place that fetches
// their input, so that another source of problems (the controller's rst-insight:problems) would
// replace those two files and nothing else.
//
// Problems are grouped (kind, where, why) with a count and some of their sessions, because at
// 100,000 sessions one bad port can reject thousands of them: the operator needs one line that
// says so, not thousands.

import { rejectReasonText } from './format';
import type { AgentStatus, CmMessage, Path, Session, SessionState } from './model';
import { gapSwitches } from './pathgeo';

export type ProblemKind = 'agent' | 'rejected' | 'timed-out' | 'half-closed' | 'flapping' | 'asymmetric'
  | 'path-anomaly' | 'path-gap' | 'half-seen';

export type Severity = 'critical' | 'warning' | 'notice';

export interface Place {
  readonly node: string;
  readonly tp?: string;
}

export interface Problem {
  /** Stable across refreshes: kind and grouping key. */
  readonly id: string;
  readonly kind: ProblemKind;
  readonly severity: Severity;
  readonly title: string;
  /** Where it happened, in words. */
  readonly where: string;
  /** The switches (and ports) involved, for links into the other views. */
  readonly places: readonly Place[];
  readonly count: number;
  /** Some of the sessions concerned (at most SAMPLE), and a switch that saw each. */
  readonly sessions: readonly { readonly sessionId: string; readonly switchId: string }[];
  readonly latest?: number;
}

export interface SwitchInput {
  readonly nodeId: string;
  readonly configured: boolean;
  readonly enabled: boolean;
  readonly agentAddress?: string;
  readonly status?: AgentStatus;
  /** The switch's sessions, with their messages (type, ingress port, direction) when fetched. */
  readonly sessions: readonly Session[];
}

export interface ProblemInput {
  readonly switches: readonly SwitchInput[];
  readonly paths: readonly Path[];
  /** Epoch seconds. */
  readonly now: number;
}

export interface ProblemOptions {
  /** A DISCONNECTING session older than this is half-closed, not merely closing. */
  readonly halfClosedAfter: number;
  /** Repeated set-ups of the same endpoints within this window... */
  readonly flapWindow: number;
  /** ...at least this many, of which at least flapEnded ended (rejected, timed out, closed). */
  readonly flapSetups: number;
  readonly flapEnded: number;
  /**
   * A one-way RC flow that carried data this long (first to last sampled packet) with its other
   * direction seen nowhere is half-seen (the controller's rst-insight says the same).
   */
  readonly halfSeenAfter: number;
}

export const DEFAULT_OPTIONS: ProblemOptions = { halfClosedAfter: 5, flapWindow: 300, flapSetups: 3, flapEnded: 2,
  halfSeenAfter: 60 };

const SAMPLE = 50;

const SEVERITY_RANK: Record<Severity, number> = { critical: 0, warning: 1, notice: 2 };

/** Every sighting of one session, across the switches that saw it. */
interface Merged {
  readonly sessionId: string;
  readonly sightings: { readonly switchId: string; readonly session: Session }[];
}

class Groups {
  private readonly byId = new Map<string, {
    kind: ProblemKind; severity: Severity; title: string; where: string; places: Map<string, Place>;
    count: number; sessions: { sessionId: string; switchId: string }[]; latest?: number;
  }>();

  add(id: string, kind: ProblemKind, severity: Severity, title: string, where: string, places: readonly Place[],
      session?: { sessionId: string; switchId: string }, time?: number): void {
    let g = this.byId.get(id);
    if (!g) {
      g = { kind, severity, title, where, places: new Map(), count: 0, sessions: [] };
      this.byId.set(id, g);
    }
    g.count++;
    for (const p of places) {
      g.places.set(p.node + '|' + (p.tp ?? ''), p);
    }
    if (session && g.sessions.length < SAMPLE) {
      g.sessions.push(session);
    }
    if (time !== undefined && (g.latest === undefined || time > g.latest)) {
      g.latest = time;
    }
  }

  problems(): Problem[] {
    return [...this.byId.entries()].map(([id, g]) => ({
      id, kind: g.kind, severity: g.severity, title: g.title, where: g.where, places: [...g.places.values()],
      count: g.count, sessions: g.sessions, latest: g.latest,
    })).sort((a, b) => SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] || b.count - a.count
      || a.id.localeCompare(b.id));
  }
}

export function deriveProblems(input: ProblemInput, options: ProblemOptions = DEFAULT_OPTIONS): Problem[] {
  const groups = new Groups();
  agentProblems(input.switches, groups);
  const merged = mergeSightings(input.switches);
  const paths = new Map(input.paths.map(p => [p.sessionId, p]));
  for (const m of merged) {
    sessionProblems(m, paths.get(m.sessionId), input.now, options, groups);
  }
  flapping(merged, options, groups);
  halfSeen(merged, options, groups);
  pathProblems(input.paths, merged, groups);
  return groups.problems();
}

/**
 * One-way RC flows (learnt from data) that no switch saw answered: every switch that has the flow
 * has it one-way, the controller paired it with nothing and found no flow the other way to fit,
 * and it carried data for a while. UC and UD flows have no responses, so are never half-seen.
 */
function halfSeen(merged: readonly Merged[], options: ProblemOptions, groups: Groups): void {
  for (const m of merged) {
    const unanswered = m.sightings.every(({ session: s }) => s.learnedFrom === 'data' && s.oneWay === true
      && s.transport === 'RC' && s.pairedSession === undefined && s.pairAmbiguous !== true);
    if (!unanswered) {
      continue;
    }
    const first = Math.min(...m.sightings.map(x => x.session.firstSeen ?? Infinity));
    const last = Math.max(...m.sightings.map(x => x.session.lastSeen ?? -Infinity));
    if (!Number.isFinite(first) || !Number.isFinite(last) || last - first < options.halfSeenAfter) {
      continue;
    }
    const switches = [...new Set(m.sightings.map(x => x.switchId))].sort();
    const s = m.sightings[0].session;
    groups.add(`half-seen|${switches.join(',')}`, 'half-seen', 'warning', 'Half-seen: RC data with no responses seen',
      `one-way RC flows seen at ${switches.join(', ')} (${s.requesterIp ?? '?'} → ${s.responderIp ?? '?'}); no switch`
        + ' saw their responses: the return path crosses no sampling agent, or the responses are lost',
      switches.map(node => ({ node })), { sessionId: m.sessionId, switchId: m.sightings[0].switchId }, last);
  }
}

function agentProblems(switches: readonly SwitchInput[], groups: Groups): void {
  for (const sw of switches) {
    if (!sw.configured || !sw.enabled) {
      continue;
    }
    const state = sw.status?.state;
    const detail = sw.status?.detail ? `: ${sw.status.detail}` : '';
    const at = sw.agentAddress ? ` (agent at ${sw.agentAddress})` : '';
    const places = [{ node: sw.nodeId }];
    switch (state) {
      case 'UNREACHABLE':
        groups.add('agent|' + sw.nodeId, 'agent', 'critical', 'Agent unreachable', `${sw.nodeId}${at}${detail}`, places,
          undefined, sw.status?.lastChange);
        break;
      case 'UNAUTHORIZED':
        groups.add('agent|' + sw.nodeId, 'agent', 'critical', 'Agent refused the controller\'s token',
          `${sw.nodeId}${at}${detail}`, places, undefined, sw.status?.lastChange);
        break;
      case 'STOPPED':
        groups.add('agent|' + sw.nodeId, 'agent', 'warning', 'Capture stopped on the agent', `${sw.nodeId}${at}${detail}`,
          places, undefined, sw.status?.lastChange);
        break;
      case 'NO_ADDRESS':
        groups.add('agent|' + sw.nodeId, 'agent', 'warning', 'RFT on, but no agent address', sw.nodeId, places);
        break;
      case 'CAPTURING':
      case 'CONNECTING':
      case 'DISABLED':
      case undefined:
        break;
    }
  }
}

function mergeSightings(switches: readonly SwitchInput[]): Merged[] {
  const byId = new Map<string, Merged>();
  for (const sw of switches) {
    for (const s of sw.sessions) {
      let m = byId.get(s.sessionId);
      if (!m) {
        m = { sessionId: s.sessionId, sightings: [] };
        byId.set(s.sessionId, m);
      }
      m.sightings.push({ switchId: sw.nodeId, session: s });
    }
  }
  return [...byId.values()];
}

/** A representative view of a merged session: the first sighting with the most messages. */
function best(m: Merged): Session {
  let b = m.sightings[0].session;
  for (const { session } of m.sightings) {
    if ((session.messages?.length ?? 0) > (b.messages?.length ?? 0)) {
      b = session;
    }
  }
  return b;
}

function allMessages(m: Merged): { switchId: string; message: CmMessage }[] {
  const out: { switchId: string; message: CmMessage }[] = [];
  for (const { switchId, session } of m.sightings) {
    for (const message of session.messages ?? []) {
      out.push({ switchId, message });
    }
  }
  return out;
}

function statesOf(m: Merged): Set<SessionState | undefined> {
  return new Set(m.sightings.map(x => x.session.state));
}

function placesText(places: readonly Place[]): string {
  return places.map(p => p.tp ? `${p.node} ${p.tp}` : p.node).join(', ');
}

function lastSeen(m: Merged): number | undefined {
  let t: number | undefined;
  for (const { session } of m.sightings) {
    if (session.lastSeen !== undefined && (t === undefined || session.lastSeen > t)) {
      t = session.lastSeen;
    }
  }
  return t;
}

/** The sightings of one message type, earliest first (where it entered the fabric comes first). */
function sightings(msgs: { switchId: string; message: CmMessage }[], type: string): { switchId: string; message: CmMessage }[] {
  return msgs.filter(x => x.message.type === type)
    .sort((a, b) => (a.message.time ?? Infinity) - (b.message.time ?? Infinity));
}

function placeOf(x: { switchId: string; message: CmMessage } | undefined): Place | undefined {
  return x ? { node: x.switchId, tp: x.message.ingressTp } : undefined;
}

function placeText(p: Place | undefined): string {
  return p ? (p.tp ? `${p.node} ${p.tp}` : p.node) : 'an unknown place';
}

/** Where a side's messages entered the fabric: the first hop of their direction, and its ingress port. */
function entryOf(path: Path | undefined, fromRequester: boolean | undefined): Place | undefined {
  const h = fromRequester === undefined ? undefined : (fromRequester ? path?.forward : path?.reverse)?.hops[0];
  return h ? { node: h.nodeId, tp: h.ingressTp } : undefined;
}

/** Where a side's messages left the fabric: the last hop of their direction, and its egress port. */
function exitOf(path: Path | undefined, fromRequester: boolean | undefined): Place | undefined {
  const hops = fromRequester === undefined ? undefined : (fromRequester ? path?.forward : path?.reverse)?.hops;
  const h = hops?.[hops.length - 1];
  return h ? { node: h.nodeId, tp: h.egressTp } : undefined;
}

/**
 * Failing sessions, grouped by cause and by the place that tells where to look: for a REJ the
 * port where it entered the fabric (the rejecting side's edge); for an unanswered message the port
 * where it left the fabric towards the side that stayed silent. The path table says both; without
 * a path, the messages' own sightings stand in (earliest for an entry, latest for an exit).
 */
function sessionProblems(m: Merged, path: Path | undefined, now: number, options: ProblemOptions, groups: Groups): void {
  const states = statesOf(m);
  const msgs = allMessages(m);
  const types = new Set(msgs.map(x => x.message.type));
  const ref = { sessionId: m.sessionId, switchId: m.sightings[0].switchId };
  const switchPlaces = m.sightings.map(x => ({ node: x.switchId }));
  const time = lastSeen(m);
  const s = best(m);
  const ipOf = (fromRequester: boolean | undefined) => fromRequester === true ? s.requesterIp
    : fromRequester === false ? s.responderIp : undefined;
  const sideOf = (fromRequester: boolean | undefined) => fromRequester === true ? 'requester'
    : fromRequester === false ? 'responder' : 'other side';
  const who = (fromRequester: boolean | undefined) => `${sideOf(fromRequester)}${ipOf(fromRequester) ? ` ${ipOf(fromRequester)}` : ''}`;

  if (states.has('REJECTED') || types.has('REJ')) {
    const rej = sightings(msgs, 'REJ');
    const reason = m.sightings.map(x => x.session.rejectReason).find(r => r !== undefined);
    const from = rej[0]?.message.fromRequester;
    const entry = entryOf(path, from) ?? placeOf(rej[0]);
    const places = rej.length ? rej.map(x => placeOf(x)!) : switchPlaces;
    const listed = m.sightings.some(x => x.session.messages !== undefined);
    // the session opens on a switch that saw the REJ (not every switch on the way did)
    const seenRej = rej.find(x => x.switchId === entry?.node) ?? rej[0];
    groups.add(`rejected|${reason}|${sideOf(from)}|${placeText(entry)}`, 'rejected', 'critical',
      `Rejected: ${rejectReasonText(reason)}`,
      entry ? `REJ sent by the ${who(from)}, entering the fabric at ${placeText(entry)}`
        : `seen at ${placesText(switchPlaces)}${listed ? ' (no REJ kept)' : ''}`, places,
      seenRej ? { sessionId: m.sessionId, switchId: seenRej.switchId } : ref, time);
    return;
  }
  const finished = types.has('DREP') || states.has('CLOSED');
  if (states.has('TIMED_OUT') && !finished) {
    let phase: string;
    let message: string;
    let from: boolean | undefined;
    if (msgs.length === 0) {
      phase = 'no answer';
      message = '';
    } else if (types.has('DREQ')) {
      phase = 'DREQ got no DREP';
      message = 'DREQ';
      from = sightings(msgs, 'DREQ')[0].message.fromRequester ?? true;
    } else if (types.has('REP') || types.has('MRA')) {
      phase = 'REP got no RTU';
      message = types.has('REP') ? 'REP' : 'MRA';
      from = false;
    } else {
      phase = 'REQ got no REP';
      message = 'REQ';
      from = true;
    }
    const silent = from === undefined ? 'one side' : who(!from);
    const exit = message ? exitOf(path, from) ?? placeOf(sightings(msgs, message).at(-1)) : undefined;
    groups.add(`timed-out|${phase}|${sideOf(from === undefined ? undefined : !from)}|${placeText(exit)}`, 'timed-out',
      'critical', `Timed out: ${phase}`,
      exit ? `the ${silent} did not answer; the ${message} left the fabric at ${placeText(exit)}`
        : from === undefined ? `seen at ${placesText(switchPlaces)}`
          : `the ${silent} did not answer; seen at ${placesText(switchPlaces)}`, exit ? [exit] : switchPlaces, ref, time);
    return;
  }
  if (states.has('DISCONNECTING') && !finished && (time === undefined || now - time >= options.halfClosedAfter)) {
    const dreqs = sightings(msgs, 'DREQ');
    const from = dreqs[0]?.message.fromRequester;
    const exit = exitOf(path, from) ?? placeOf(dreqs.at(-1));
    const silent = from === undefined ? 'other side' : who(!from);
    groups.add(`half-closed|${sideOf(from === undefined ? undefined : !from)}|${placeText(exit)}`, 'half-closed', 'warning',
      'Half-closed: DREQ without DREP',
      `the ${silent} has not answered the DREQ${exit ? `, which left the fabric at ${placeText(exit)}` : ''}`,
      exit ? [exit] : switchPlaces, ref, time);
  }
}

function flapping(merged: readonly Merged[], options: ProblemOptions, groups: Groups): void {
  const byEndpoints = new Map<string, { m: Merged; s: Session; t: number; ended: boolean }[]>();
  for (const m of merged) {
    const s = best(m);
    const t = m.sightings.map(x => x.session.firstSeen).find(x => x !== undefined);
    if (s.requesterIp === undefined || s.responderIp === undefined || t === undefined || s.rolesKnown === false) {
      continue;
    }
    const service = s.serviceId ?? (s.rdmaCmDstPort !== undefined ? `port ${s.rdmaCmDstPort}` : '');
    const key = `${s.requesterIp}|${s.responderIp}|${service}`;
    const states = statesOf(m);
    const ended = states.has('REJECTED') || states.has('TIMED_OUT') || states.has('CLOSED');
    let list = byEndpoints.get(key);
    if (!list) {
      list = [];
      byEndpoints.set(key, list);
    }
    list.push({ m, s, t, ended });
  }
  for (const [key, list] of byEndpoints) {
    if (list.length < options.flapSetups) {
      continue;
    }
    list.sort((a, b) => a.t - b.t);
    // the densest window of set-ups, sliding over first-seen times
    let bestFrom = 0;
    let bestTo = -1;
    for (let from = 0, to = 0; to < list.length; to++) {
      while (list[to].t - list[from].t > options.flapWindow) {
        from++;
      }
      if (to - from > bestTo - bestFrom) {
        bestFrom = from;
        bestTo = to;
      }
    }
    const window = list.slice(bestFrom, bestTo + 1);
    const ended = window.filter(x => x.ended).length;
    if (window.length < options.flapSetups || ended < options.flapEnded) {
      continue;
    }
    const [req, resp, service] = key.split('|');
    const places = new Map<string, Place>();
    for (const x of window) {
      for (const sg of x.m.sightings) {
        places.set(sg.switchId, { node: sg.switchId });
      }
    }
    const span = window[window.length - 1].t - window[0].t;
    const id = `flapping|${key}`;
    for (const x of window) {
      groups.add(id, 'flapping', 'warning', `Flapping: ${window.length} set-ups in ${Math.round(span)} s, ${ended} ended`,
        `${req} → ${resp}${service ? ` (service ${service})` : ''}; seen at ${placesText([...places.values()])}`,
        [...places.values()], { sessionId: x.m.sessionId, switchId: x.m.sightings[0].switchId }, x.t);
    }
  }
}

function pathProblems(paths: readonly Path[], merged: readonly Merged[], groups: Groups): void {
  const switchOf = new Map(merged.map(m => [m.sessionId, m.sightings[0].switchId]));
  for (const p of paths) {
    const ref = { sessionId: p.sessionId, switchId: switchOf.get(p.sessionId) ?? p.forward.hops[0]?.nodeId ?? '' };
    if (p.asymmetric) {
      const fwd = p.forward.hops.map(h => h.nodeId);
      const rev = p.reverse.hops.map(h => h.nodeId);
      const places = [...new Set([...fwd, ...rev])].map(node => ({ node }));
      // a data-learned session's directions are its data paths: grouped apart from the CM sessions'
      const data = p.learnedFrom === 'data';
      groups.add(`asymmetric|${data ? 'data|' : ''}${fwd.join('>')}|${rev.join('>')}`, 'asymmetric', 'notice',
        data ? 'Asymmetric data path' : 'Asymmetric path',
        `${data ? 'data ' : ''}forward ${fwd.join(' → ') || '?'}, reverse ${rev.join(' → ') || '?'}`, places, ref);
    }
    for (const a of p.anomalies) {
      groups.add(`anomaly|${a}`, 'path-anomaly', 'warning', 'Path anomaly', a, [], ref);
    }
    for (const d of [p.forward, p.reverse]) {
      for (const g of d.gaps) {
        // gap texts name the silent switch; grouping by text keeps one line per cause
        groups.add(`gap|${g}`, 'path-gap', 'notice', 'Path with a gap', g, [...gapSwitches([g])].map(node => ({ node })), ref);
      }
    }
  }
}

/** Counts per kind, for the home page's summary. */
export function countByKind(problems: readonly Problem[]): Partial<Record<ProblemKind, number>> {
  const out: Partial<Record<ProblemKind, number>> = {};
  for (const p of problems) {
    out[p.kind] = (out[p.kind] ?? 0) + p.count;
  }
  return out;
}

export const KIND_LABEL: Record<ProblemKind, string> = {
  agent: 'agents',
  rejected: 'rejected',
  'timed-out': 'timed out',
  'half-closed': 'half-closed',
  flapping: 'flapping',
  asymmetric: 'asymmetric paths',
  'path-anomaly': 'path anomalies',
  'path-gap': 'paths with gaps',
  'half-seen': 'half-seen data flows',
};
