/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */

// Words and colours for values, shared by every view: a state is always shown as a colour and a
// word (never a colour alone), the way Grafana's tables do.

import type { AgentState, SessionState } from './model';

/** IBTA CM REJ reason codes (InfiniBand Architecture, vol. 1, table "REJ reason"; Linux ib_cm.h). */
const REJECT_REASONS: Readonly<Record<number, string>> = {
  1: 'no QP available',
  2: 'no EEC available',
  3: 'no resources available',
  4: 'timeout',
  5: 'unsupported request',
  6: 'invalid comm ID',
  7: 'invalid comm instance',
  8: 'invalid service ID (nobody listens)',
  9: 'invalid transport type',
  10: 'stale connection',
  11: 'RDC does not exist',
  12: 'primary remote GID rejected',
  13: 'primary remote LID rejected',
  14: 'invalid primary SL',
  15: 'invalid primary traffic class',
  16: 'invalid primary hop limit',
  17: 'invalid primary packet rate',
  18: 'alternate remote GID rejected',
  19: 'alternate remote LID rejected',
  20: 'invalid alternate SL',
  21: 'invalid alternate traffic class',
  22: 'invalid alternate hop limit',
  23: 'invalid alternate packet rate',
  24: 'port CM redirect',
  25: 'port redirect',
  26: 'invalid MTU',
  27: 'insufficient responder resources',
  28: 'consumer reject (the application refused)',
  29: 'invalid RNR retry',
  30: 'duplicate local comm ID',
  31: 'invalid class version',
  32: 'invalid flow label',
  33: 'invalid alternate flow label',
  35: 'vendor option not supported',
};

export function rejectReasonText(code: number | undefined): string {
  if (code === undefined) {
    return 'reason unknown';
  }
  const name = REJECT_REASONS[code];
  return name ? `${name} (reason ${code})` : `reason ${code}`;
}

export type Tone = 'ok' | 'warn' | 'bad' | 'idle' | 'busy';

export function agentTone(state: AgentState | undefined): Tone {
  switch (state) {
    case 'CAPTURING':
      return 'ok';
    case 'CONNECTING':
      return 'busy';
    case 'STOPPED':
    case 'NO_ADDRESS':
      return 'warn';
    case 'UNREACHABLE':
    case 'UNAUTHORIZED':
    case 'UNTRUSTED':
      return 'bad';
    case 'DISABLED':
    case 'NOT_CONFIGURED':
    case undefined:
      return 'idle';
  }
}

export function agentWord(state: AgentState | undefined, configured: boolean): string {
  if (!configured) {
    return 'not configured';
  }
  switch (state) {
    case 'CAPTURING':
      return 'capturing';
    case 'CONNECTING':
      return 'connecting';
    case 'STOPPED':
      return 'stopped';
    case 'NO_ADDRESS':
      return 'no agent address';
    case 'UNREACHABLE':
      return 'unreachable';
    case 'UNAUTHORIZED':
      return 'unauthorized';
    case 'UNTRUSTED':
      return 'untrusted certificate';
    case 'NOT_CONFIGURED':
      return 'not configured';
    case 'DISABLED':
      return 'off';
    case undefined:
      return 'waiting for status';
  }
}

export function sessionTone(state: SessionState | undefined): Tone {
  switch (state) {
    case 'ESTABLISHED':
      return 'ok';
    case 'REQ_SENT':
    case 'REP_SENT':
      return 'busy';
    case 'DISCONNECTING':
      return 'warn';
    case 'REJECTED':
    case 'TIMED_OUT':
      return 'bad';
    case 'ACTIVE':
      return 'ok';
    case 'CLOSED':
    case 'IDLE':
    case undefined:
      return 'idle';
  }
}

/** "CM" or "data": where a session was learnt from, as its badge says it. */
export function learnedWord(learnedFrom: 'cm' | 'data' | undefined): string {
  return learnedFrom === 'data' ? 'data' : 'CM';
}

/** Whether a session id is a data-learned session's ({@code IP_A/qp0xAAAAAA/IP_B/qp0xBBBBBB}), else a CM session's. */
export function isDataSessionId(id: string): boolean {
  return /^[^/]+\/qp0x[0-9a-f]{6}\/[^/]+\/qp0x[0-9a-f]{6}$/.test(id);
}

/**
 * Whether the controller joined this data-learned record into a CM session (its QPs are that
 * session's; the switch saw its data but not the CM messages): it is that session's data there.
 */
export function joinedToCm(s: { learnedFrom?: 'cm' | 'data'; pairedSession?: string }): boolean {
  return s.learnedFrom === 'data' && s.pairedSession !== undefined && !isDataSessionId(s.pairedSession);
}

/**
 * What the UI says of a data-learned session's or flow's kind: "one-way, peer QP unknown" for a
 * one-way flow (and whether the controller paired it), the transport otherwise; and whether it is
 * part of a CM session.
 */
export function dataKindWord(s: { learnedFrom?: 'cm' | 'data'; oneWay?: boolean; transport?: string;
    pairedSession?: string; pairAmbiguous?: boolean }): string {
  if (s.learnedFrom !== 'data') {
    return '';
  }
  const transport = s.transport ? `${s.transport}, ` : '';
  const joined = joinedToCm(s) ? ', part of a CM session' : '';
  if (!s.oneWay) {
    return `${transport}both directions${joined}`;
  }
  const pairing = joined || (s.pairedSession ? ', paired across switches' : s.pairAmbiguous ? ', pairing ambiguous' : '');
  return `${transport}one-way, peer QP unknown${pairing}`;
}

export function sessionWord(state: SessionState | undefined): string {
  return state === undefined ? 'unknown' : state.toLowerCase().replace('_', ' ');
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/** Epoch seconds as local date and time to the millisecond: "2026-12-01 10:22:33.123". */
export function formatTime(epochSeconds: number | undefined): string {
  if (epochSeconds === undefined) {
    return '';
  }
  const d = new Date(epochSeconds * 1000);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} `
    + `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

/** Clock time to the microsecond (CM messages of one session are microseconds apart). */
export function formatMicros(epochSeconds: number | undefined): string {
  if (epochSeconds === undefined) {
    return '';
  }
  let whole = Math.floor(epochSeconds);
  let micros = Math.round((epochSeconds - whole) * 1e6);
  if (micros >= 1e6) {
    whole += 1;
    micros -= 1e6;
  }
  const d = new Date(whole * 1000);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(micros, 6)}`;
}

/** Clock time only, to the millisecond. */
export function formatClock(epochSeconds: number | undefined): string {
  return formatTime(epochSeconds).slice(11);
}

/** "4.2 s ago", "3 min ago", "2 h ago". */
export function formatAgo(epochSeconds: number | undefined, nowSeconds: number): string {
  if (epochSeconds === undefined) {
    return 'never';
  }
  const d = Math.max(0, nowSeconds - epochSeconds);
  if (d < 10) {
    return `${d.toFixed(1)} s ago`;
  }
  if (d < 120) {
    return `${Math.round(d)} s ago`;
  }
  if (d < 7200) {
    return `${Math.round(d / 60)} min ago`;
  }
  return `${Math.round(d / 3600)} h ago`;
}

/** A duration between two CM messages: "+28 µs", "+1.234 ms", "+2.500 s". */
export function formatDelta(seconds: number): string {
  if (seconds < 0.001) {
    return `+${Math.round(seconds * 1e6)} µs`;
  }
  if (seconds < 1) {
    return `+${(seconds * 1000).toFixed(3)} ms`;
  }
  return `+${seconds.toFixed(3)} s`;
}

export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

export function hex(n: number | undefined): string {
  return n === undefined ? '' : '0x' + n.toString(16).padStart(6, '0');
}
