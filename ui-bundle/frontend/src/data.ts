/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */

// Every RESTCONF request the views make, in one file, each with the `fields=` that keeps its answer
// as small as the view needs: at 100,000 sessions the difference between the whole flow table
// and the columns shown is most of the payload. Paths name modules without revision dates.

import { ApiError, key, type Restconf } from './api';
import {
  EMPTY_TOPOLOGY, mergeSwitches, parseAgentStatus, parsePaths, parsePausedPorts, parsePfc, parseSession, parseSwitchConfigs,
  parseSwitchSessions, parseTopology, member, type AgentStatus, type Path, type PausedPort, type PfcEntry, type Session,
  type SwitchConfig, type SwitchState, type Topology,
} from './model';

/**
 * The last flow table shown, with its filter and sort: going from a session back to its table is
 * instant and keeps what the operator had set. One switch only, to bound the memory it holds; a
 * write to the switch's RFT forgets it (the table is about to change).
 */
export const lastTable: {
  value?: {
    nodeId: string; rows: readonly Session[]; at: number; query: string; state: string; port: string; origin?: string;
    sortKey: string; sortDir: 'asc' | 'desc';
  };
} = {};

export const RFT = 'rdma-flow-table:rft';
export const RPT = 'rdma-path-table:rpt';
export const TOPOLOGY = 'network-topology:network-topology';

/**
 * The leaves of data-learned sessions (where a session was learnt from, a one-way flow's kind and
 * pairing, where each direction's data entered the switch).
 */
const DATA_SESSION_FIELDS = 'learned-from;transport;one-way;paired-session;pair-ambiguous;'
  + 'requester-data(ingress-port);responder-data(ingress-port);';

/**
 * The columns of the flow table; message ingress ports make the Ports column and its filter (a
 * data-learned session's data ingress ports, which has no messages).
 */
export const FLOW_TABLE_FIELDS = 'session(session-id;requester-ip;responder-ip;requester-comm-id;responder-comm-id;'
  + 'requester-qpn;responder-qpn;service-id;state;reject-reason;first-seen;last-seen;roles-known;'
  + 'requester-udp-src-port;responder-udp-src-port;' + DATA_SESSION_FIELDS + 'message(ingress-tp))';

/** The same without the leaves that only newer revisions of rdma-flow-table have. */
export const FLOW_TABLE_FIELDS_BASE = FLOW_TABLE_FIELDS.replace('requester-udp-src-port;responder-udp-src-port;', '')
  .replace(DATA_SESSION_FIELDS, '');

/**
 * The first, quick request of a big table: identities (which name the addresses and the comm ID)
 * and states. RESTCONF's time grows with the bytes it writes (about 2 s for 100,000 sessions with
 * every column here, 0.9 s for these two), so the view paints these rows first and fills in the
 * other columns when the full answer arrives.
 */
export const FLOW_TABLE_QUICK_FIELDS = 'session(session-id;state)';
export const PATH_LIST_QUICK_FIELDS = 'path(session-id;state)';

/**
 * Whether the controller's model has the newer leaves: RESTCONF refuses (500) a fields= that names
 * a leaf the model lacks, so the first refusal is remembered and the request made without them.
 */
let newerLeaves: boolean | undefined;

/** The home page's poll: agent status and one small leaf per session, to count them by state. */
export const OVERVIEW_FIELDS = 'switch(node-id;agent-status(state;detail;last-change;last-contact;last-event-seq;'
  + 'agent-version);session(state))';

/**
 * The path list: enough to list, filter and summarise every path, not to draw it (a data-learned
 * session's directions are its data paths).
 */
export const PATH_LIST_FIELDS = 'path(session-id;requester-ip;responder-ip;requester-qpn;responder-qpn;state;'
  + 'learned-from;one-way;transport;asymmetric;forward(complete;hop(index;node-id;observed));'
  + 'reverse(complete;hop(index;node-id;observed));data-forward(complete;hop(index;node-id;observed));'
  + 'data-reverse(complete;hop(index;node-id;observed)))';

/** The same without the leaves that only newer revisions of rdma-path-table have. */
export const PATH_LIST_FIELDS_BASE = 'path(session-id;requester-ip;responder-ip;requester-qpn;responder-qpn;state;'
  + 'asymmetric;forward(complete;hop(index;node-id;observed));reverse(complete;hop(index;node-id;observed)))';

/** Whether the path table has learned-from and one-way (see {@link newerLeaves}). */
let newerPathLeaves: boolean | undefined;

export async function fetchTopology(api: Restconf): Promise<Topology> {
  const doc = await api.get(TOPOLOGY);
  return doc === undefined ? EMPTY_TOPOLOGY : parseTopology(doc);
}

export interface Overview {
  readonly switches: readonly SwitchState[];
  readonly topology: Topology;
  readonly at: number;
  /** The switches and their agents' states are in, their session counts not yet. */
  readonly countsPending?: boolean;
}

export async function fetchOverview(api: Restconf, topology: Topology): Promise<Overview> {
  const [config, oper] = await Promise.all([
    api.get(RFT, { content: 'config' }),
    api.get(RFT, { content: 'nonconfig', fields: OVERVIEW_FIELDS }),
  ]);
  return { switches: mergeSwitches(config, oper, topology), topology, at: Date.now() / 1000 };
}

/** Every switch's configuration and agent state, without sessions (for colouring the fabric). */
export async function fetchSwitchStates(api: Restconf, topology: Topology): Promise<SwitchState[]> {
  const [config, oper] = await Promise.all([
    api.get(RFT, { content: 'config' }),
    api.get(RFT, { content: 'nonconfig', fields: 'switch(node-id;agent-status(state;detail))' }),
  ]);
  return mergeSwitches(config, oper, topology);
}

/** One switch's configuration and agent status (small: for views about that switch). */
export async function fetchSwitch(api: Restconf, nodeId: string): Promise<{ config?: SwitchConfig; status?: AgentStatus }> {
  const [config, status] = await Promise.all([
    api.get(`${RFT}/switch=${key(nodeId)}`, { content: 'config' }),
    api.get(`${RFT}/switch=${key(nodeId)}/agent-status`, { content: 'nonconfig' }),
  ]);
  return { config: parseSwitchConfigs(config)[0], status: parseAgentStatus(member(status, 'agent-status')) };
}

export async function fetchFlowTable(api: Restconf, nodeId: string, signal?: AbortSignal): Promise<Session[]> {
  const path = `${RFT}/switch=${key(nodeId)}`;
  const opts = { timeoutMs: 120000, signal };
  let doc: unknown;
  if (newerLeaves !== false) {
    try {
      doc = await api.get(path, { content: 'nonconfig', fields: FLOW_TABLE_FIELDS }, opts);
      newerLeaves = true;
    } catch (e) {
      if (!(e instanceof ApiError) || e.kind !== 'http' || newerLeaves === true) {
        throw e;
      }
      newerLeaves = false;
    }
  }
  if (newerLeaves === false) {
    doc = await api.get(path, { content: 'nonconfig', fields: FLOW_TABLE_FIELDS_BASE }, opts);
  }
  return doc === undefined ? [] : parseSwitchSessions(doc);
}

export async function fetchFlowTableQuick(api: Restconf, nodeId: string, signal?: AbortSignal): Promise<Session[]> {
  const doc = await api.get(`${RFT}/switch=${key(nodeId)}`, { content: 'nonconfig', fields: FLOW_TABLE_QUICK_FIELDS },
    { timeoutMs: 120000, signal });
  return doc === undefined ? [] : parseSwitchSessions(doc);
}

export async function fetchSession(api: Restconf, nodeId: string, sessionId: string): Promise<Session | undefined> {
  const doc = await api.get(`${RFT}/switch=${key(nodeId)}/session=${key(sessionId)}`, { content: 'nonconfig' });
  const list = member(doc, 'session');
  const obj = Array.isArray(list) ? list[0] : undefined;
  return obj ? parseSession(obj as Record<string, unknown>) : undefined;
}

export async function fetchPath(api: Restconf, sessionId: string): Promise<Path | undefined> {
  const doc = await api.get(`${RPT}/path=${key(sessionId)}`);
  return doc === undefined ? undefined : parsePaths(doc)[0];
}

export async function fetchPathList(api: Restconf, signal?: AbortSignal): Promise<Path[]> {
  const opts = { timeoutMs: 120000, signal };
  let doc: unknown;
  if (newerPathLeaves !== false) {
    try {
      doc = await api.get(RPT, { fields: PATH_LIST_FIELDS }, opts);
      newerPathLeaves = true;
    } catch (e) {
      if (!(e instanceof ApiError) || e.kind !== 'http' || newerPathLeaves === true) {
        throw e;
      }
      newerPathLeaves = false;
    }
  }
  if (newerPathLeaves === false) {
    doc = await api.get(RPT, { fields: PATH_LIST_FIELDS_BASE }, opts);
  }
  return doc === undefined ? [] : parsePaths(doc);
}

export async function fetchPathListQuick(api: Restconf, signal?: AbortSignal): Promise<Path[]> {
  const doc = await api.get(RPT, { fields: PATH_LIST_QUICK_FIELDS }, { timeoutMs: 120000, signal });
  return doc === undefined ? [] : parsePaths(doc);
}

export async function sessionsThrough(api: Restconf, nodeId: string, tpId?: string): Promise<Path[]> {
  const doc = await api.rpc('rdma-path-table:sessions-through', tpId ? { 'node-id': nodeId, 'tp-id': tpId } : { 'node-id': nodeId },
    { timeoutMs: 60000 });
  return doc === undefined ? [] : parsePaths(doc);
}

/**
 * The ports and priorities PFC pauses, with the sessions they hold up (rpt/paused-port: one entry
 * per paused port and priority, small whatever the number of sessions). Empty where the path
 * table has none (no pause, or a controller whose model lacks the list).
 */
export async function fetchPausedPorts(api: Restconf, signal?: AbortSignal): Promise<PausedPort[]> {
  try {
    const doc = await api.get(RPT, { fields: 'paused-port' }, { signal });
    return doc === undefined ? [] : parsePausedPorts(doc);
  } catch (e) {
    // a model without paused-port refuses the fields= (HTTP 400/500): nothing is paused that it knows of
    if (e instanceof ApiError && e.kind === 'http') {
      return [];
    }
    throw e;
  }
}

/** A switch's PFC counts per interface and priority, from its agent status (empty when it has none). */
export async function fetchPfc(api: Restconf, nodeId: string): Promise<PfcEntry[]> {
  const doc = await api.get(`${RFT}/switch=${key(nodeId)}/agent-status`, { content: 'nonconfig' });
  return doc === undefined ? [] : parsePfc(doc);
}

/**
 * Turns a switch's RFT on or off. A switch that `rft` configuration lacks is created (with the
 * agent address, when the operator gave one); an existing one is merged, so nothing else changes.
 */
export async function setEnabled(api: Restconf, nodeId: string, enabled: boolean, configured: boolean,
    agentAddress?: string): Promise<void> {
  const entry: Record<string, unknown> = { 'node-id': nodeId, enabled };
  if (agentAddress) {
    entry['agent-address'] = agentAddress;
  }
  const body = { 'rdma-flow-table:switch': [entry] };
  if (lastTable.value?.nodeId === nodeId) {
    lastTable.value = undefined;
  }
  if (configured) {
    await api.patch(`${RFT}/switch=${key(nodeId)}`, body);
  } else {
    await api.put(`${RFT}/switch=${key(nodeId)}`, body);
  }
}

export async function setAgentAddress(api: Restconf, nodeId: string, agentAddress: string): Promise<void> {
  await api.patch(`${RFT}/switch=${key(nodeId)}`,
    { 'rdma-flow-table:switch': [{ 'node-id': nodeId, 'agent-address': agentAddress }] });
}
