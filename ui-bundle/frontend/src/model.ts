/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */

// What the UI reads from RESTCONF, as plain values, and the parsers that make them from RESTCONF's
// JSON. Parsers are lenient on purpose: leaves that newer model revisions add (UDP source ports,
// path end points, rst-topology's node kind) are used when present and never required, and a
// member's module prefix ("rdma-flow-table:rft", "rst-topology:node-kind") is matched by its local
// name, so no revision date or augmenting module name is baked in here.

export const AGENT_STATES = ['DISABLED', 'NO_ADDRESS', 'CONNECTING', 'CAPTURING', 'STOPPED', 'UNREACHABLE',
  'UNAUTHORIZED', 'UNTRUSTED', 'NOT_CONFIGURED'] as const;
export type AgentState = (typeof AGENT_STATES)[number];

export const SESSION_STATES = ['REQ_SENT', 'REP_SENT', 'ESTABLISHED', 'REJECTED', 'DISCONNECTING', 'CLOSED',
  'TIMED_OUT', 'ACTIVE', 'IDLE'] as const;
export type SessionState = (typeof SESSION_STATES)[number];

/**
 * Where a session was learnt from: its CM messages, or its sampled data packets (connections set
 * up without CM: NCCL, perftest without -R, UCX, MPI). Absent in the model means cm.
 */
export type LearnedFrom = 'cm' | 'data';

export const TRANSPORTS = ['RC', 'UC', 'UD'] as const;
export type Transport = (typeof TRANSPORTS)[number];

export interface SwitchConfig {
  readonly nodeId: string;
  readonly agentAddress?: string;
  readonly agentPort?: number;
  readonly enabled: boolean;
}

export interface AgentStatus {
  readonly state?: AgentState;
  readonly detail?: string;
  readonly lastChange?: number;
  readonly lastContact?: number;
  readonly lastEventSeq?: number;
  readonly agentVersion?: string;
}

export interface CmMessage {
  readonly seq: number;
  readonly type: string;
  readonly ingressTp?: string;
  readonly time?: number;
  readonly fromRequester?: boolean;
}

export interface Session {
  readonly sessionId: string;
  /** cm unless the flow table says data (absent: cm). */
  readonly learnedFrom?: LearnedFrom;
  readonly transport?: Transport;
  /** A one-way flow: one direction seen, the sender's QP unknown (no requester QPN). */
  readonly oneWay?: boolean;
  /** The data-learned session the controller paired this one-way flow into (its other direction crossed other switches). */
  readonly pairedSession?: string;
  /** The controller found more than one flow to pair this one-way flow with, and did not guess. */
  readonly pairAmbiguous?: boolean;
  readonly requesterIp?: string;
  readonly responderIp?: string;
  readonly requesterCommId?: string;
  readonly responderCommId?: string;
  readonly requesterQpn?: number;
  readonly responderQpn?: number;
  readonly serviceId?: string;
  readonly state?: SessionState;
  readonly rejectReason?: number;
  readonly firstSeen?: number;
  readonly lastSeen?: number;
  readonly rolesKnown?: boolean;
  readonly requesterUdpSrcPort?: number;
  readonly responderUdpSrcPort?: number;
  readonly rdmaCmSrcPort?: number;
  readonly rdmaCmDstPort?: number;
  readonly droppedMessages?: number;
  /** Where each direction's sampled data entered the switch (requester-data, responder-data). */
  readonly requesterDataPort?: string;
  readonly responderDataPort?: string;
  /**
   * The distinct ports where the session's messages entered the switch, in first-seen order; for a
   * session learnt from data, where its data entered.
   */
  readonly ports: readonly string[];
  /** Present when the request asked for the message list. */
  readonly messages?: readonly CmMessage[];
}

/** One switch as the home page shows it: configuration, agent status, sessions (or their states). */
export interface SwitchState {
  readonly nodeId: string;
  readonly config?: SwitchConfig;
  readonly status?: AgentStatus;
  /** Sessions per state, from whatever session fields were fetched. */
  readonly counts: Readonly<Partial<Record<SessionState, number>>>;
  readonly sessionCount: number;
}

export interface Hop {
  readonly index: number;
  readonly nodeId: string;
  readonly ingressTp?: string;
  readonly egressTp?: string;
  readonly observed: boolean;
  readonly traffic?: 'cm' | 'data';
  /**
   * Data paths only, what entered the switch (absent on inferred hops and where the agent reports
   * none): the DSCP and the priority it maps to, the sampled ECN-capable and CE-marked packets, CE
   * over ECN-capable, and the CNPs about the direction's data (every one, not sampled).
   */
  readonly dscp?: number;
  readonly priority?: number;
  readonly ectPackets?: number;
  readonly cePackets?: number;
  readonly ceShare?: number;
  readonly cnpPackets?: number;
}

/** Where a data direction's marking starts: the link from node-id's egress-tp into next-node-id. */
export interface MarkedAt {
  /** The node whose egress queue marked (the hop before, or the sending host); absent where unknown. */
  readonly nodeId?: string;
  readonly egressTp?: string;
  /** The first hop whose ingress saw CE, its ingress port and index. */
  readonly nextNodeId?: string;
  readonly nextIngressTp?: string;
  readonly hopIndex?: number;
  /** False when a hop before could have hidden an earlier mark (no ECN figures there). */
  readonly certain: boolean;
}

export interface Direction {
  readonly complete: boolean;
  readonly hops: readonly Hop[];
  readonly gaps: readonly string[];
  /** Where the direction's traffic came from and went to, when the path table says. */
  readonly sourceNode?: string;
  readonly sourceTp?: string;
  readonly destinationNode?: string;
  readonly destinationTp?: string;
  /** Data paths only: the CE share and CE count at the last hop with ECN figures, the most CNPs any switch saw. */
  readonly ceShare?: number;
  readonly cePackets?: number;
  readonly cnpPackets?: number;
  readonly markedAt?: MarkedAt;
}

export interface Path {
  readonly sessionId: string;
  readonly requesterIp?: string;
  readonly responderIp?: string;
  readonly requesterQpn?: number;
  readonly responderQpn?: number;
  readonly state?: SessionState;
  /** Absent: cm. */
  readonly learnedFrom?: LearnedFrom;
  readonly transport?: Transport;
  readonly oneWay?: boolean;
  /**
   * The path's two directions: a CM session's CM paths (its data hops, where they part, beside
   * them); a data-learned session's data paths, which are all it has; a one-way flow's one data
   * path, forward, and nothing reverse.
   */
  readonly forward: Direction;
  readonly reverse: Direction;
  /**
   * A CM session's data paths (data-forward, data-reverse), where agents sample its data; absent
   * otherwise, and for a data-learned session, whose data paths are forward and reverse.
   */
  readonly dataForward?: Direction;
  readonly dataReverse?: Direction;
  readonly asymmetric: boolean;
  readonly anomalies: readonly string[];
}

export type NodeKind = 'switch' | 'host';

export interface TopoNode {
  readonly id: string;
  /** From rst-topology's node-kind when the topology says; else inferred by the layout. */
  readonly kind?: NodeKind;
  readonly ips: readonly string[];
  readonly tps: readonly string[];
  readonly topologyId: string;
}

export interface TopoLink {
  readonly id: string;
  readonly srcNode: string;
  readonly srcTp?: string;
  readonly dstNode: string;
  readonly dstTp?: string;
}

export interface Topology {
  readonly nodes: readonly TopoNode[];
  readonly links: readonly TopoLink[];
}

export const EMPTY_TOPOLOGY: Topology = { nodes: [], links: [] };

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A member by local name, whatever module prefix RESTCONF put in front of it. */
export function member(obj: unknown, name: string): unknown {
  if (!isObject(obj)) {
    return undefined;
  }
  if (name in obj) {
    return obj[name];
  }
  const suffix = ':' + name;
  for (const key of Object.keys(obj)) {
    if (key.endsWith(suffix)) {
      return obj[key];
    }
  }
  return undefined;
}

/**
 * The object with its members under their local names: itself when no member has a module
 * prefix (the usual case below the top level), else a copy without the prefixes. Parsing 100,000
 * sessions looks up ~25 members each; one pass over the keys beats a suffix scan per absent one.
 */
function plain(o: Json): Json {
  let prefixed = false;
  for (const k in o) {
    if (k.includes(':')) {
      prefixed = true;
      break;
    }
  }
  if (!prefixed) {
    return o;
  }
  const out: Json = {};
  for (const [k, v] of Object.entries(o)) {
    out[k.slice(k.indexOf(':') + 1)] = v;
  }
  return out;
}

function str(v: unknown): string | undefined {
  if (typeof v === 'string') {
    return v;
  }
  if (typeof v === 'number') {
    return String(v);
  }
  return undefined;
}

/** RESTCONF JSON writes decimal64 and 64-bit integers as strings or numbers, depending on codec. */
function num(v: unknown): number | undefined {
  if (typeof v === 'number') {
    return v;
  }
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

/**
 * A yang:date-and-time (RFC 3339: the flow table writes UTC to the microsecond) as seconds since
 * the epoch, fraction kept to the microsecond; anything else is absent.
 */
export function time(v: unknown): number | undefined {
  if (typeof v !== 'string') {
    return undefined;
  }
  const m = RFC3339.exec(v.trim());
  if (!m) {
    return undefined;
  }
  const whole = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
  if (!Number.isFinite(whole)) {
    return undefined;
  }
  const fraction = m[7] ? Number(`0.${m[7].slice(0, 6)}`) : 0;
  const offset = m[8] ? (m[8] === '+' ? 1 : -1) * (Number(m[9]) * 3600 + Number(m[10]) * 60) : 0;
  return whole / 1000 - offset + fraction;
}

function bool(v: unknown): boolean | undefined {
  if (typeof v === 'boolean') {
    return v;
  }
  if (v === 'true') {
    return true;
  }
  if (v === 'false') {
    return false;
  }
  return undefined;
}

function list(v: unknown): Json[] {
  return Array.isArray(v) ? v.filter(isObject) : [];
}

function strings(v: unknown): string[] {
  if (Array.isArray(v)) {
    return v.map(str).filter((s): s is string => s !== undefined);
  }
  const s = str(v);
  return s === undefined ? [] : [s];
}

function oneOf<T extends string>(values: readonly T[], v: unknown): T | undefined {
  return typeof v === 'string' && (values as readonly string[]).includes(v) ? v as T : undefined;
}

/** The `rft` container of a RESTCONF answer for `rdma-flow-table:rft`, or the answer itself. */
function rftRoot(doc: unknown): unknown {
  return member(doc, 'rft') ?? doc;
}

export function parseSwitchConfigs(doc: unknown): SwitchConfig[] {
  return list(member(rftRoot(doc), 'switch')).map(parseSwitchConfig).filter(s => s.nodeId !== '');
}

function parseSwitchConfig(o: Json): SwitchConfig {
  return {
    nodeId: str(member(o, 'node-id')) ?? '',
    agentAddress: str(member(o, 'agent-address')),
    agentPort: num(member(o, 'agent-port')),
    enabled: bool(member(o, 'enabled')) ?? false,
  };
}

export function parseAgentStatus(o: unknown): AgentStatus | undefined {
  if (!isObject(o)) {
    return undefined;
  }
  return {
    state: oneOf(AGENT_STATES, member(o, 'state')),
    detail: str(member(o, 'detail')),
    lastChange: time(member(o, 'last-change')),
    lastContact: time(member(o, 'last-contact')),
    lastEventSeq: num(member(o, 'last-event-seq')),
    agentVersion: str(member(o, 'agent-version')),
  };
}

export function parseMessage(o: Json): CmMessage {
  const f = plain(o);
  return {
    seq: num(f['seq']) ?? 0,
    type: str(f['type']) ?? '?',
    ingressTp: str(f['ingress-tp']),
    time: time(f['time']),
    fromRequester: bool(f['from-requester']),
  };
}

export function parseSession(o: Json): Session {
  const f = plain(o);
  const rawMessages = f['message'];
  const messages = Array.isArray(rawMessages) ? list(rawMessages).map(parseMessage) : undefined;
  if (messages) {
    messages.sort((a, b) => a.seq - b.seq);
  }
  const ports: string[] = [];
  for (const m of messages ?? []) {
    if (m.ingressTp !== undefined && !ports.includes(m.ingressTp)) {
      ports.push(m.ingressTp);
    }
  }
  const sessionId = str(f['session-id']) ?? '';
  const fromId = idParts(sessionId);
  const fromDataId = fromId ? undefined : dataIdParts(sessionId);
  const requesterDataPort = str(member(f['requester-data'], 'ingress-port'));
  const responderDataPort = str(member(f['responder-data'], 'ingress-port'));
  for (const p of [requesterDataPort, responderDataPort]) {
    if (p !== undefined && !ports.includes(p)) {
      ports.push(p);
    }
  }
  const learned = f['learned-from'];
  const learnedFrom: LearnedFrom = learned === 'data' || learned === 'cm' ? learned : fromDataId ? 'data' : 'cm';
  return {
    sessionId,
    learnedFrom,
    transport: oneOf(TRANSPORTS, f['transport']),
    oneWay: bool(f['one-way']) ?? fromDataId?.oneWay,
    pairedSession: str(f['paired-session']),
    pairAmbiguous: bool(f['pair-ambiguous']),
    requesterIp: str(f['requester-ip']) ?? fromId?.requesterIp ?? fromDataId?.requesterIp,
    responderIp: str(f['responder-ip']) ?? fromId?.responderIp ?? fromDataId?.responderIp,
    requesterCommId: str(f['requester-comm-id']) ?? fromId?.requesterCommId,
    responderCommId: str(f['responder-comm-id']),
    requesterQpn: num(f['requester-qpn']) ?? fromDataId?.requesterQpn,
    responderQpn: num(f['responder-qpn']) ?? fromDataId?.responderQpn,
    serviceId: str(f['service-id']),
    state: oneOf(SESSION_STATES, f['state']),
    rejectReason: num(f['reject-reason']),
    firstSeen: time(f['first-seen']),
    lastSeen: time(f['last-seen']),
    rolesKnown: bool(f['roles-known']),
    requesterUdpSrcPort: num(f['requester-udp-src-port']),
    responderUdpSrcPort: num(f['responder-udp-src-port']),
    rdmaCmSrcPort: num(f['rdma-cm-src-port']),
    rdmaCmDstPort: num(f['rdma-cm-dst-port']),
    droppedMessages: num(f['dropped-messages']),
    requesterDataPort,
    responderDataPort,
    ports,
    messages,
  };
}

/**
 * What a data-learned session's identity says: `IP_A/qp0xAAAAAA/IP_B/qp0xBBBBBB` (the lower
 * endpoint first) or a one-way flow's `SRC/-/DST/qp0xBBBBBB` (the sender's QP unknown).
 */
export function dataIdParts(id: string): {
  requesterIp: string; responderIp: string; requesterQpn?: number; responderQpn: number; oneWay: boolean;
} | undefined {
  const parts = id.split('/');
  if (parts.length !== 4 || !/^qp0x[0-9a-f]{6}$/.test(parts[3]) || parts[0] === '' || parts[2] === '') {
    return undefined;
  }
  const responderQpn = parseInt(parts[3].slice(4), 16);
  if (parts[1] === '-') {
    return { requesterIp: parts[0], responderIp: parts[2], responderQpn, oneWay: true };
  }
  if (!/^qp0x[0-9a-f]{6}$/.test(parts[1])) {
    return undefined;
  }
  return { requesterIp: parts[0], responderIp: parts[2], requesterQpn: parseInt(parts[1].slice(4), 16), responderQpn,
    oneWay: false };
}

/**
 * What a session's identity says (rdma-flow-table's session-id: requester IP, requester comm ID,
 * responder IP when the roles are known). A first, quick request fetches only identities and
 * states, so that a big table shows its rows before the full columns arrive.
 */
export function idParts(id: string): { requesterIp: string; requesterCommId: string; responderIp: string } | undefined {
  const parts = id.split('/');
  if (parts.length !== 3 || !/^0x[0-9a-f]{8}$/.test(parts[1])) {
    return undefined;
  }
  return { requesterIp: parts[0], requesterCommId: parts[1], responderIp: parts[2] };
}

/** The sessions of one switch from an answer for `rft/switch=ID` (or a switch object). */
export function parseSwitchSessions(doc: unknown): Session[] {
  const sw = member(doc, 'switch');
  const obj = Array.isArray(sw) ? sw[0] : (sw ?? doc);
  return list(member(obj, 'session')).map(parseSession);
}

function countStates(sessions: readonly Json[]): Partial<Record<SessionState, number>> {
  const counts: Partial<Record<SessionState, number>> = {};
  for (const s of sessions) {
    const st = oneOf(SESSION_STATES, member(s, 'state'));
    if (st) {
      counts[st] = (counts[st] ?? 0) + 1;
    }
  }
  return counts;
}

/**
 * Every switch the UI should list: those in `rft` configuration, those in `rft` operational (the
 * controller lists topology switches it knows there too), and the topology's switch nodes, the
 * last two marked "not configured" when configuration lacks them. Sorted naturally by name.
 */
export function mergeSwitches(configDoc: unknown, operDoc: unknown, topology: Topology): SwitchState[] {
  const configs = new Map(parseSwitchConfigs(configDoc).map(c => [c.nodeId, c]));
  const byId = new Map<string, SwitchState>();
  for (const o of list(member(rftRoot(operDoc), 'switch'))) {
    const nodeId = str(member(o, 'node-id'));
    if (!nodeId) {
      continue;
    }
    const sessions = list(member(o, 'session'));
    byId.set(nodeId, {
      nodeId,
      config: configs.get(nodeId),
      status: parseAgentStatus(member(o, 'agent-status')),
      counts: countStates(sessions),
      sessionCount: sessions.length,
    });
  }
  for (const [nodeId, config] of configs) {
    if (!byId.has(nodeId)) {
      byId.set(nodeId, { nodeId, config, counts: {}, sessionCount: 0 });
    }
  }
  for (const n of topology.nodes) {
    if (!byId.has(n.id) && isSwitchNode(n, topology)) {
      byId.set(n.id, { nodeId: n.id, counts: {}, sessionCount: 0 });
    }
  }
  return [...byId.values()].sort((a, b) => naturalCompare(a.nodeId, b.nodeId));
}

/** A node is a switch if it is no host and some link touches it (a lone node is not worth a row). */
function isSwitchNode(n: TopoNode, topology: Topology): boolean {
  if (n.kind) {
    return n.kind === 'switch';
  }
  return !hostIds(topology).has(n.id) && topology.links.some(l => l.srcNode === n.id || l.dstNode === n.id);
}

const hostCache = new WeakMap<Topology, Set<string>>();

/**
 * The host nodes: rst-topology's node-kind where the topology has it; otherwise nodes with IP
 * addresses or named as OpenFlow's host tracker names them ("host:..."); and, in a topology that
 * says nothing of either, the nodes with a single link partner (a leaf-spine fabric's switches
 * all have several).
 */
export function hostIds(topology: Topology): Set<string> {
  const cached = hostCache.get(topology);
  if (cached) {
    return cached;
  }
  const hosts = new Set<string>();
  const described = topology.nodes.some(n => n.kind !== undefined || n.ips.length > 0 || n.id.startsWith('host:'));
  const partners = new Map<string, Set<string>>();
  for (const l of topology.links) {
    if (!partners.has(l.srcNode)) {
      partners.set(l.srcNode, new Set());
    }
    partners.get(l.srcNode)!.add(l.dstNode);
  }
  for (const n of topology.nodes) {
    const host = n.kind !== undefined ? n.kind === 'host'
      : described ? n.ips.length > 0 || n.id.startsWith('host:')
        : (partners.get(n.id)?.size ?? 0) === 1;
    if (host) {
      hosts.add(n.id);
    }
  }
  hostCache.set(topology, hosts);
  return hosts;
}

function parseHop(o: Json, i: number): Hop {
  const f = plain(o);
  const traffic = f['traffic'];
  return {
    index: num(f['index']) ?? i,
    nodeId: str(f['node-id']) ?? '?',
    ingressTp: str(f['ingress-tp']),
    egressTp: str(f['egress-tp']),
    observed: bool(f['observed']) ?? false,
    traffic: traffic === 'cm' || traffic === 'data' ? traffic : undefined,
    dscp: count(f['dscp']),
    priority: count(f['priority']),
    ectPackets: count(f['ect-packets']),
    cePackets: count(f['ce-packets']),
    ceShare: share(f['ce-share']),
    cnpPackets: count(f['cnp-packets']),
  };
}

/** A counter (uint, written as a number or, for 64 bits, a string); anything else is absent. */
function count(v: unknown): number | undefined {
  const n = num(v);
  return n !== undefined && Number.isInteger(n) && n >= 0 ? n : undefined;
}

/** A decimal64 share in 0..1; anything else is absent. */
function share(v: unknown): number | undefined {
  const n = num(v);
  return n !== undefined && n >= 0 && n <= 1 ? n : undefined;
}

export function parseMarkedAt(o: unknown): MarkedAt | undefined {
  if (!isObject(o)) {
    return undefined;
  }
  const f = plain(o);
  return {
    nodeId: str(f['node-id']),
    egressTp: str(f['egress-tp']),
    nextNodeId: str(f['next-node-id']),
    nextIngressTp: str(f['next-ingress-tp']),
    hopIndex: count(f['hop-index']),
    certain: bool(f['certain']) ?? false,
  };
}

const NO_DIRECTION: Direction = { complete: false, hops: [], gaps: [] };

export function parseDirection(o: unknown): Direction {
  if (o === undefined) {
    return NO_DIRECTION; // the quick list's paths: identities and states only
  }
  const hops = list(member(o, 'hop')).map(parseHop).sort((a, b) => a.index - b.index);
  return {
    complete: bool(member(o, 'complete')) ?? false,
    hops,
    gaps: strings(member(o, 'gap')),
    sourceNode: str(member(o, 'source-node')),
    sourceTp: str(member(o, 'source-tp')),
    destinationNode: str(member(o, 'destination-node')),
    destinationTp: str(member(o, 'destination-tp')),
    ceShare: share(member(o, 'ce-share')),
    cePackets: count(member(o, 'ce-packets')),
    cnpPackets: count(member(o, 'cnp-packets')),
    markedAt: parseMarkedAt(member(o, 'marked-at')),
  };
}

export function parsePath(o: Json): Path {
  const f = plain(o);
  const sessionId = str(f['session-id']) ?? '';
  const fromId = idParts(sessionId);
  const fromDataId = fromId ? undefined : dataIdParts(sessionId);
  const learned = f['learned-from'];
  const learnedFrom: LearnedFrom = learned === 'data' || learned === 'cm' ? learned : fromDataId ? 'data' : 'cm';
  // a data-learned session has no CM path: its data paths are its directions
  const data = learnedFrom === 'data';
  return {
    sessionId,
    learnedFrom,
    transport: oneOf(TRANSPORTS, f['transport']),
    oneWay: bool(f['one-way']) ?? fromDataId?.oneWay,
    requesterIp: str(f['requester-ip']) ?? fromId?.requesterIp ?? fromDataId?.requesterIp,
    responderIp: str(f['responder-ip']) ?? fromId?.responderIp ?? fromDataId?.responderIp,
    requesterQpn: num(f['requester-qpn']) ?? fromDataId?.requesterQpn,
    responderQpn: num(f['responder-qpn']) ?? fromDataId?.responderQpn,
    state: oneOf(SESSION_STATES, f['state']),
    forward: parseDirection(data ? f['data-forward'] : f['forward']),
    reverse: parseDirection(data ? f['data-reverse'] : f['reverse']),
    dataForward: !data && f['data-forward'] !== undefined ? parseDirection(f['data-forward']) : undefined,
    dataReverse: !data && f['data-reverse'] !== undefined ? parseDirection(f['data-reverse']) : undefined,
    asymmetric: bool(f['asymmetric']) ?? false,
    anomalies: strings(f['anomaly']),
  };
}

/** A session's data paths: a data-learned session's directions, else its data-forward and data-reverse. */
export function dataDirections(p: Path): { forward?: Direction; reverse?: Direction } {
  return p.learnedFrom === 'data' ? { forward: p.forward, reverse: p.oneWay ? undefined : p.reverse }
    : { forward: p.dataForward, reverse: p.dataReverse };
}

/** One port and priority that PFC pauses (rpt/paused-port), with the sessions whose data it holds up. */
export interface PausedPort {
  readonly nodeId: string;
  readonly tpId: string;
  readonly priority: number;
  readonly paused?: boolean;
  readonly pausedShare?: number;
  readonly sessionCount?: number;
  /** Up to 20 of those sessions' ids. */
  readonly sessions: readonly string[];
}

/** rpt's paused-port list (from `rpt?fields=paused-port` or `rpt/paused-port=...`); entries without a key are left out. */
export function parsePausedPorts(doc: unknown): PausedPort[] {
  const root = member(doc, 'rpt') ?? doc;
  const out: PausedPort[] = [];
  for (const o of list(member(root, 'paused-port'))) {
    const f = plain(o);
    const nodeId = str(f['node-id']);
    const tpId = str(f['tp-id']);
    const priority = count(f['priority']);
    if (!nodeId || !tpId || priority === undefined || priority > 7) {
      continue;
    }
    out.push({ nodeId, tpId, priority, paused: bool(f['paused']), pausedShare: share(f['paused-share']),
      sessionCount: count(f['session-count']), sessions: strings(f['session']) });
  }
  return out.sort((a, b) => naturalCompare(a.nodeId, b.nodeId) || naturalCompare(a.tpId, b.tpId) || a.priority - b.priority);
}

/** One interface and priority of an agent's PFC counts (agent-status pfc). */
export interface PfcEntry {
  readonly interface: string;
  /** The port as paths name it (port-map's tp-id, else the interface). */
  readonly tpId: string;
  readonly priority: number;
  readonly frames?: number;
  readonly xon?: number;
  readonly quanta?: number;
  readonly pausedUs?: number;
  readonly paused?: boolean;
  /** Epoch seconds of the last frame. */
  readonly last?: number;
  readonly linkSpeedMbps?: number;
  readonly pausedShare?: number;
}

/** The pfc list of an agent-status (or of an answer that holds one); entries without a key are left out. */
export function parsePfc(doc: unknown): PfcEntry[] {
  const status = member(doc, 'agent-status') ?? doc;
  const out: PfcEntry[] = [];
  for (const o of list(member(status, 'pfc'))) {
    const f = plain(o);
    const iface = str(f['interface']);
    const priority = count(f['priority']);
    if (!iface || priority === undefined || priority > 7) {
      continue;
    }
    out.push({ interface: iface, tpId: str(f['tp-id']) ?? iface, priority, frames: count(f['frames']), xon: count(f['xon']),
      quanta: count(f['quanta']), pausedUs: count(f['paused-us']), paused: bool(f['paused']), last: time(f['last']),
      linkSpeedMbps: count(f['link-speed-mbps']), pausedShare: share(f['paused-share']) });
  }
  return out;
}

/** Paths from `rdma-path-table:rpt`, from `rpt/path=ID`, or from an RPC's output. */
export function parsePaths(doc: unknown): Path[] {
  const root = member(doc, 'rpt') ?? member(doc, 'output') ?? doc;
  return list(member(root, 'path')).map(parsePath);
}

/**
 * The topology as one graph: every topology's nodes and links (the lab writes `rst-lab`; an
 * OpenFlow or BGP-LS topology works the same). Config and operational arrive merged.
 */
export function parseTopology(doc: unknown): Topology {
  const nt = member(doc, 'network-topology') ?? doc;
  const nodes = new Map<string, TopoNode>();
  const links = new Map<string, TopoLink>();
  for (const topo of list(member(nt, 'topology'))) {
    const topologyId = str(member(topo, 'topology-id')) ?? '';
    for (const n of list(member(topo, 'node'))) {
      const id = str(member(n, 'node-id'));
      if (!id) {
        continue;
      }
      const kind = member(n, 'node-kind');
      const prev = nodes.get(id);
      const tps = list(member(n, 'termination-point')).map(tp => str(member(tp, 'tp-id')))
        .filter((s): s is string => s !== undefined);
      nodes.set(id, {
        id,
        topologyId,
        kind: kind === 'switch' || kind === 'host' ? kind : prev?.kind,
        ips: [...new Set([...(prev?.ips ?? []), ...strings(member(n, 'ip-address'))])],
        tps: [...new Set([...(prev?.tps ?? []), ...tps])].sort(naturalCompare),
      });
    }
    for (const l of list(member(topo, 'link'))) {
      const src = member(l, 'source');
      const dst = member(l, 'destination');
      const srcNode = str(member(src, 'source-node'));
      const dstNode = str(member(dst, 'dest-node'));
      if (!srcNode || !dstNode) {
        continue;
      }
      const id = str(member(l, 'link-id')) ?? `${srcNode}:${str(member(src, 'source-tp'))}->${dstNode}`;
      links.set(topologyId + '/' + id, {
        id,
        srcNode,
        srcTp: str(member(src, 'source-tp')),
        dstNode,
        dstTp: str(member(dst, 'dest-tp')),
      });
    }
  }
  // a link may name a node that the node list lacks: it is still drawn
  for (const l of links.values()) {
    for (const [id, tp] of [[l.srcNode, l.srcTp], [l.dstNode, l.dstTp]] as const) {
      const n = nodes.get(id) ?? { id, topologyId: '', ips: [], tps: [] };
      nodes.set(id, tp && !n.tps.includes(tp) ? { ...n, tps: [...n.tps, tp].sort(naturalCompare) } : n);
    }
  }
  return { nodes: [...nodes.values()], links: [...links.values()] };
}

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** "leaf2" before "leaf10", "swp2" before "swp10". */
export function naturalCompare(a: string, b: string): number {
  return collator.compare(a, b);
}
