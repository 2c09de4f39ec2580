/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */

// The flow table's and the path list's columns and filter fields (pure: the views render them).

import { dataKindWord, formatTime, hex, learnedWord, sessionWord } from './format';
import type { Path, Session } from './model';
import { ipSortKey, naturalKey, parseNumber, type ColumnDef, type FieldFilters, type TableDef } from './table';

function qpnText(q: number | undefined): string {
  return q === undefined ? '' : `${q} (${hex(q)})`;
}

function matchQpn(value: string, ...qpns: (number | undefined)[]): boolean {
  const n = parseNumber(value);
  return n !== undefined && qpns.includes(n);
}

/** Hex digits anywhere in either comm ID, with or without 0x: `cid:1a2b`, `cid:0x00001a2b`. */
function matchCommId(value: string, ...ids: (string | undefined)[]): boolean {
  const v = value.startsWith('0x') ? value.slice(2) : value;
  return /^[0-9a-f]+$/.test(v) && ids.some(id => id !== undefined && id.slice(2).includes(v));
}

/** `state:rej` matches REJECTED; `state:req` REQ_SENT; `state:timed` or `state:timed_out`... */
function matchState(value: string, state: string | undefined): boolean {
  if (state === undefined) {
    return false;
  }
  const s = state.toLowerCase();
  const v = value.replace(/[\s-]/g, '_');
  return s.startsWith(v) || s.replace('_', '').startsWith(v.replace('_', ''));
}

function matchIp(value: string, ...ips: (string | undefined)[]): boolean {
  return ips.some(ip => ip !== undefined && (ip === value || ip.startsWith(value)));
}

/** `learned:data`, `learned:cm` (or `from:`): where the session was learnt from. */
function matchLearned(value: string, learnedFrom: 'cm' | 'data' | undefined): boolean {
  const origin = learnedFrom ?? 'cm';
  return value === origin || (value === 'cm' || value === 'data' ? false : origin.startsWith(value));
}

function yes(value: string): boolean {
  return value === 'yes' || value === 'true' || value === '1';
}

/** The origin column: "CM", "data", or "data one-way" for a flow whose peer QP is unknown. */
export function learnedText(r: { learnedFrom?: 'cm' | 'data'; oneWay?: boolean }): string {
  return learnedWord(r.learnedFrom) + (r.learnedFrom === 'data' && r.oneWay ? ' one-way' : '');
}

export const SESSION_COLUMNS: readonly ColumnDef<Session>[] = [
  { key: 'state', label: 'State', text: s => sessionWord(s.state) },
  { key: 'learnedFrom', label: 'From', text: learnedText },
  { key: 'requesterIp', label: 'Requester IP', text: s => s.requesterIp ?? '', sortKey: s => ipSortKey(s.requesterIp) },
  { key: 'requesterQpn', label: 'Req. QPN', text: s => qpnText(s.requesterQpn), sortKey: s => s.requesterQpn },
  { key: 'requesterCommId', label: 'Req. comm ID', text: s => s.requesterCommId ?? '' },
  { key: 'responderIp', label: 'Responder IP', text: s => s.responderIp ?? '', sortKey: s => ipSortKey(s.responderIp) },
  { key: 'responderQpn', label: 'Resp. QPN', text: s => qpnText(s.responderQpn), sortKey: s => s.responderQpn },
  { key: 'responderCommId', label: 'Resp. comm ID', text: s => s.responderCommId ?? '' },
  { key: 'ports', label: 'Ports', text: s => s.ports.join(' '), sortKey: s => s.ports.length ? naturalKey(s.ports.join(' ')) : undefined },
  { key: 'serviceId', label: 'Service ID', text: s => s.serviceId ?? '' },
  { key: 'firstSeen', label: 'First seen', text: s => formatTime(s.firstSeen), sortKey: s => s.firstSeen },
  { key: 'lastSeen', label: 'Last seen', text: s => formatTime(s.lastSeen), sortKey: s => s.lastSeen },
];

/** Columns that only newer models have: shown when any row carries them. */
export const SESSION_OPTIONAL_COLUMNS: readonly ColumnDef<Session>[] = [
  { key: 'requesterUdpSrcPort', label: 'Req. UDP sport', text: s => s.requesterUdpSrcPort?.toString() ?? '',
    sortKey: s => s.requesterUdpSrcPort },
  { key: 'responderUdpSrcPort', label: 'Resp. UDP sport', text: s => s.responderUdpSrcPort?.toString() ?? '',
    sortKey: s => s.responderUdpSrcPort },
  { key: 'dataKind', label: 'Data flow', text: dataKindWord },
];

export const SESSION_FIELDS: FieldFilters<Session> = {
  ip: (s, v) => matchIp(v, s.requesterIp, s.responderIp),
  src: (s, v) => matchIp(v, s.requesterIp),
  requester: (s, v) => matchIp(v, s.requesterIp),
  dst: (s, v) => matchIp(v, s.responderIp),
  responder: (s, v) => matchIp(v, s.responderIp),
  qpn: (s, v) => matchQpn(v, s.requesterQpn, s.responderQpn),
  cid: (s, v) => matchCommId(v, s.requesterCommId, s.responderCommId),
  comm: (s, v) => matchCommId(v, s.requesterCommId, s.responderCommId),
  state: (s, v) => matchState(v, s.state),
  port: (s, v) => s.ports.some(p => p.toLowerCase() === v),
  service: (s, v) => (s.serviceId ?? '').includes(v),
  id: (s, v) => s.sessionId.toLowerCase().includes(v),
  learned: (s, v) => matchLearned(v, s.learnedFrom),
  from: (s, v) => matchLearned(v, s.learnedFrom),
  oneway: (s, v) => yes(v) === (s.oneWay === true),
  transport: (s, v) => (s.transport ?? '').toLowerCase() === v,
  paired: (s, v) => yes(v) === (s.pairedSession !== undefined),
  sport: (s, v) => {
    const n = parseNumber(v);
    return n !== undefined && (s.requesterUdpSrcPort === n || s.responderUdpSrcPort === n);
  },
};

export function sessionTableDef(rows: readonly Session[]): TableDef<Session> {
  const optional = SESSION_OPTIONAL_COLUMNS.filter(c => rows.some(r => c.text(r) !== ''));
  return { columns: [...SESSION_COLUMNS, ...optional], fields: SESSION_FIELDS };
}

/** "leaf1 → spine2 → leaf3", with inferred hops in brackets. */
export function hopsText(hops: Path['forward']['hops']): string {
  return hops.map(h => h.observed ? h.nodeId : `(${h.nodeId})`).join(' → ');
}

function pathCompleteness(p: Path): string {
  const f = p.forward.complete ? 'complete' : p.forward.hops.length ? 'gap' : 'unseen';
  if (p.oneWay) {
    // the other direction is nobody's to see: the peer's QP is unknown
    return `${f}, one-way`;
  }
  const r = p.reverse.complete ? 'complete' : p.reverse.hops.length ? 'gap' : 'unseen';
  return f === r ? f : `${f} / ${r}`;
}

export const PATH_TABLE: TableDef<Path> = {
  columns: [
    { key: 'state', label: 'State', text: p => sessionWord(p.state) },
    { key: 'learnedFrom', label: 'From', text: learnedText },
    { key: 'requesterIp', label: 'Requester', text: p => p.requesterIp ?? '', sortKey: p => ipSortKey(p.requesterIp) },
    { key: 'responderIp', label: 'Responder', text: p => p.responderIp ?? '', sortKey: p => ipSortKey(p.responderIp) },
    { key: 'qpns', label: 'QPNs', text: p => [p.requesterQpn, p.responderQpn].map(q => q ?? '?').join(' ↔ '),
      sortKey: p => p.requesterQpn },
    { key: 'forward', label: 'Forward', text: p => hopsText(p.forward.hops) },
    { key: 'reverse', label: 'Reverse', text: p => hopsText(p.reverse.hops) },
    { key: 'complete', label: 'Path', text: p => pathCompleteness(p) + (p.asymmetric ? ', asymmetric' : '') },
  ],
  fields: {
    ip: (p, v) => matchIp(v, p.requesterIp, p.responderIp),
    src: (p, v) => matchIp(v, p.requesterIp),
    dst: (p, v) => matchIp(v, p.responderIp),
    qpn: (p, v) => matchQpn(v, p.requesterQpn, p.responderQpn),
    state: (p, v) => matchState(v, p.state),
    node: (p, v) => [...p.forward.hops, ...p.reverse.hops].some(h => h.nodeId.toLowerCase() === v),
    switch: (p, v) => [...p.forward.hops, ...p.reverse.hops].some(h => h.nodeId.toLowerCase() === v),
    gap: (p, v) => (v === 'yes' || v === 'true') === (!p.forward.complete || !p.oneWay && !p.reverse.complete),
    learned: (p, v) => matchLearned(v, p.learnedFrom),
    from: (p, v) => matchLearned(v, p.learnedFrom),
    oneway: (p, v) => yes(v) === (p.oneWay === true),
    asymmetric: (p, v) => (v === 'yes' || v === 'true') === p.asymmetric,
    id: (p, v) => p.sessionId.toLowerCase().includes(v),
  },
};
