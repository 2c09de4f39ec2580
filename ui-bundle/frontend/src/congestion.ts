/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */

// Congestion on a session's data paths in words and grades, for the path tables, the fabric
// drawing and the session's history: what entered each hop (ECN-capable, CE-marked, CNPs), where
// the marking starts (marked-at), and the direction's CE and CNP counts over the polls of an open
// view. Pure, except for the history, which keeps a bounded number of samples.

import type { Direction, Hop, MarkedAt, PausedPort, PfcEntry } from './model';
import type { Route } from './pathgeo';

/**
 * How a hop's data arrived: no figures (the agent reports none, or an inferred hop), ECN-capable
 * and never CE-marked, or CE-marked in some share.
 */
export type CongestionLevel = 'none' | 'ect' | 'ce';

export interface Grade {
  readonly level: CongestionLevel;
  /** For 'ce': 1 (under 1 % marked), 2 (up to 5 %), 3 (above 5 %, where insight calls a session congested); else 0. */
  readonly grade: 0 | 1 | 2 | 3;
}

/** The CE shares at which a hop's warning colour steps up (a share above the step). */
export const GRADE_STEPS = [0.01, 0.05] as const;

/** A hop's grade from its figures: the share where the path table wrote one, else CE over ECN-capable. */
export function hopGrade(hop: Pick<Hop, 'ectPackets' | 'cePackets' | 'ceShare'>): Grade {
  const share = hop.ceShare ?? (hop.ectPackets && hop.cePackets !== undefined ? Math.min(1, hop.cePackets / hop.ectPackets)
    : undefined);
  if (share === undefined) {
    return hop.ectPackets !== undefined || hop.cePackets !== undefined ? { level: 'ect', grade: 0 } : { level: 'none', grade: 0 };
  }
  if (share > 0 || (hop.cePackets ?? 0) > 0) {
    return { level: 'ce', grade: share > GRADE_STEPS[1] ? 3 : share > GRADE_STEPS[0] ? 2 : 1 };
  }
  return { level: 'ect', grade: 0 };
}

/** The CSS class of a grade: '' (no figures), 'ect', 'ce-1' to 'ce-3'. */
export function gradeClass(g: Grade): string {
  return g.level === 'none' ? '' : g.level === 'ect' ? 'ect' : `ce-${g.grade}`;
}

/** A share as a percentage with two decimals ("25.00 %"). */
export function formatShare(share: number | undefined): string {
  return share === undefined ? '' : `${(share * 100).toFixed(2)} %`;
}

/** A hop's figures in one line, for its tooltip: "DSCP 26 (priority 3) · ECT 40 · CE 10 (25.00 %) · CNPs 37". */
export function hopCongestionText(hop: Hop): string {
  const parts: string[] = [];
  if (hop.dscp !== undefined) {
    parts.push(`DSCP ${hop.dscp}${hop.priority !== undefined ? ` (priority ${hop.priority})` : ''}`);
  } else if (hop.priority !== undefined) {
    parts.push(`priority ${hop.priority}`);
  }
  if (hop.ectPackets !== undefined) {
    parts.push(`ECT ${hop.ectPackets}`);
  }
  if (hop.cePackets !== undefined) {
    parts.push(`CE ${hop.cePackets}${hop.ceShare !== undefined ? ` (${formatShare(hop.ceShare)})` : ''}`);
  }
  if (hop.cnpPackets !== undefined) {
    parts.push(`CNPs ${hop.cnpPackets}`);
  }
  return parts.length ? parts.join(' · ') : 'no congestion figures';
}

/**
 * Where marking starts, in words: "marked at leaf1 swp3 → spine1 swp1", with "(may be earlier)"
 * when a hop before reported no ECN figures and could have hidden an earlier mark.
 */
export function markedAtText(m: MarkedAt): string {
  const from = m.nodeId !== undefined ? `${m.nodeId}${m.egressTp !== undefined ? ` ${m.egressTp}` : ''}` : 'an unknown sender';
  const to = m.nextNodeId !== undefined ? `${m.nextNodeId}${m.nextIngressTp !== undefined ? ` ${m.nextIngressTp}` : ''}` : '?';
  return `marked at ${from} → ${to}${m.certain ? '' : ' (may be earlier)'}`;
}

/** A direction's totals in words: "CE 25.00 % at the last hop (10 CE-marked) · 37 CNPs"; '' without figures. */
export function directionCongestionText(d: Direction): string {
  const parts: string[] = [];
  if (d.ceShare !== undefined || d.cePackets !== undefined) {
    parts.push(`CE ${d.ceShare !== undefined ? formatShare(d.ceShare) : '?'} at the last hop`
      + (d.cePackets !== undefined ? ` (${d.cePackets} CE-marked)` : ''));
  }
  if (d.cnpPackets !== undefined) {
    parts.push(`${d.cnpPackets} CNPs`);
  }
  return parts.join(' · ');
}

/**
 * The fabric's extra classes for each segment of a route: the data direction's grade of the hop
 * the segment enters ('ect', 'ce-1'..'ce-3'), and 'marked' on the segment marked-at names (from
 * its node into its next node; with 'uncertain' where it may have started earlier). A segment into a node the data direction has no hop at (a host,
 * a silent switch) gets no grade.
 */
export function segmentClasses(route: Route, data: Direction | undefined): string[] {
  if (!data) {
    return route.segments.map(() => '');
  }
  const byNode = new Map<string, Hop>();
  for (const hop of data.hops) {
    byNode.set(hop.nodeId, hop);
  }
  const m = data.markedAt;
  return route.segments.map(s => {
    const hop = byNode.get(s.to);
    const cls = hop ? gradeClass(hopGrade(hop)) : '';
    const marked = m !== undefined && m.nextNodeId === s.to && (m.nodeId === undefined || m.nodeId === s.from);
    return [cls, marked ? 'marked' : '', marked && !m.certain ? 'uncertain' : ''].filter(c => c !== '').join(' ');
  });
}

/** One poll's per-direction counts of a session's data. */
export interface CongestionSample {
  /** Epoch seconds. */
  readonly at: number;
  readonly forwardCe?: number;
  readonly forwardCnp?: number;
  readonly reverseCe?: number;
  readonly reverseCnp?: number;
}

export type SampleField = 'forwardCe' | 'forwardCnp' | 'reverseCe' | 'reverseCnp';

/**
 * The last `capacity` samples of one session's counts while a view of it is open: a ring, so
 * that a view left open for a day holds as much as one open for a minute. A sample whose counts
 * are all absent is kept too (the session had no figures then), so the time axis stays true.
 */
export class CongestionHistory {
  private readonly ring: CongestionSample[] = [];
  private start = 0;

  constructor(readonly sessionId: string, readonly capacity = 60) {
    if (!Number.isInteger(capacity) || capacity < 2) {
      throw new Error(`a history keeps at least 2 samples, not ${capacity}`);
    }
  }

  get size(): number {
    return this.ring.length;
  }

  add(sample: CongestionSample): void {
    if (this.ring.length < this.capacity) {
      this.ring.push(sample);
    } else {
      this.ring[this.start] = sample;
      this.start = (this.start + 1) % this.capacity;
    }
  }

  /** Oldest first. */
  samples(): CongestionSample[] {
    return [...this.ring.slice(this.start), ...this.ring.slice(0, this.start)];
  }

  /**
   * What a count grew by between each sample and the one before (one fewer than the samples):
   * absent where either is absent; where it went down (the counts start over when an agent
   * restarts or the session returns after its retention), the new count itself.
   */
  increments(field: SampleField): (number | undefined)[] {
    const s = this.samples();
    const out: (number | undefined)[] = [];
    for (let i = 1; i < s.length; i++) {
      const a = s[i - 1][field];
      const b = s[i][field];
      out.push(a === undefined || b === undefined ? undefined : b >= a ? b - a : b);
    }
    return out;
  }
}

/** A direction pair's counts as a sample. */
export function sampleOf(at: number, forward: Direction | undefined, reverse: Direction | undefined): CongestionSample {
  return { at, forwardCe: forward?.cePackets, forwardCnp: forward?.cnpPackets, reverseCe: reverse?.cePackets,
    reverseCnp: reverse?.cnpPackets };
}

/**
 * An SVG polyline's points for values in a box of width × height (the highest value at the top, 0
 * at the bottom); absent values break nothing: they are drawn at 0. '' for fewer than two values.
 */
export function sparkPoints(values: readonly (number | undefined)[], width: number, height: number): string {
  if (values.length < 2) {
    return '';
  }
  const max = Math.max(1, ...values.map(v => v ?? 0));
  const step = width / (values.length - 1);
  return values.map((v, i) => `${round(i * step)},${round(height - ((v ?? 0) / max) * height)}`).join(' ');
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}

/** One priority of a port: the agent's PFC counts and the path table's paused-port entry, either may be missing. */
export interface PortPriority {
  readonly priority: number;
  readonly pfc?: PfcEntry;
  readonly paused?: PausedPort;
}

/**
 * A port's priorities that PFC frames asked to pause, by priority: the switch's agent's counts
 * for the port (its tp-id, or the interface where it maps none) and rpt/paused-port's entry.
 */
export function portPriorities(nodeId: string, tp: string, pfc: readonly PfcEntry[], paused: readonly PausedPort[]): PortPriority[] {
  const byPriority = new Map<number, { pfc?: PfcEntry; paused?: PausedPort }>();
  for (const e of pfc) {
    if (e.tpId === tp || e.interface === tp) {
      byPriority.set(e.priority, { ...byPriority.get(e.priority), pfc: e });
    }
  }
  for (const p of paused) {
    if (p.nodeId === nodeId && p.tpId === tp) {
      byPriority.set(p.priority, { ...byPriority.get(p.priority), paused: p });
    }
  }
  return [...byPriority.entries()].sort((a, b) => a[0] - b[0]).map(([priority, v]) => ({ priority, ...v }));
}

/** The ports of a switch that rpt/paused-port lists, with their paused priorities ("swp4" → [3]). */
export function pausedPortsOf(nodeId: string, paused: readonly PausedPort[]): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const p of paused) {
    if (p.nodeId === nodeId) {
      out.set(p.tpId, [...(out.get(p.tpId) ?? []), p.priority]);
    }
  }
  return out;
}
