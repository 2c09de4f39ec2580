/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */

import { describe, expect, it } from 'vitest';
import { hostIds, mergeSwitches, parsePaths, parseSwitchSessions, parseTopology, time } from '../src/model';
import { labTopology } from './fixtures';

describe('RESTCONF parsers', () => {
  it('read a switch table with date-and-time and uint64 written as strings, and ports from the messages', () => {
    const doc = {
      'rdma-flow-table:switch': [{
        'node-id': 'leaf1',
        session: [{
          'session-id': '10.0.0.165/0x71d95a23/172.16.0.166', state: 'REJECTED', 'reject-reason': 29,
          'first-seen': '2026-01-01T00:00:00.005446Z', 'requester-qpn': 5874191, 'requester-udp-src-port': 49152,
          message: [
            { seq: 1, 'ingress-tp': 'swp3', type: 'REJ', 'from-requester': false, time: '2026-01-01T00:00:00.005474Z' },
            { seq: 0, 'ingress-tp': 'swp1', type: 'REQ', 'from-requester': true, time: '2026-01-01T00:00:00.005446Z' },
          ],
        }],
      }],
    };
    const [s] = parseSwitchSessions(doc);
    expect(s.state).toBe('REJECTED');
    expect(s.firstSeen).toBeCloseTo(1767225600.005446, 6);
    expect(s.requesterUdpSrcPort).toBe(49152);
    expect(s.messages?.map(m => m.type)).toEqual(['REQ', 'REJ']);
    expect(s.ports).toEqual(['swp1', 'swp3']);
  });

  it('list configured, operational-only and topology-only switches, hosts left out', () => {
    const config = { 'rdma-flow-table:rft': { switch: [{ 'node-id': 'leaf1', 'agent-address': '10.9.0.1', enabled: true }] } };
    const oper = { 'rdma-flow-table:rft': { switch: [
      { 'node-id': 'leaf1', 'agent-status': { state: 'CAPTURING' }, session: [{ state: 'ESTABLISHED' }, { state: 'REJECTED' }, { state: 'REJECTED' }] },
      { 'node-id': 'spine9', 'agent-status': { state: 'DISABLED' } },
    ] } };
    const all = mergeSwitches(config, oper, labTopology());
    expect(all.map(s => s.nodeId)).toEqual(['leaf1', 'leaf2', 'spine1', 'spine2', 'spine9']);
    const leaf1 = all[0];
    expect(leaf1.config?.enabled).toBe(true);
    expect(leaf1.sessionCount).toBe(3);
    expect(leaf1.counts.REJECTED).toBe(2);
    expect(all.find(s => s.nodeId === 'leaf2')?.config).toBeUndefined();
  });

  it('tell hosts from switches without rst-topology: hosts have one link partner', () => {
    const hosts = hostIds(labTopology(false));
    // h1b is dual-homed: without the topology's word it looks like a switch, which is why the lab writes kinds
    expect([...hosts].sort()).toEqual(['h1a', 'h2a']);
    expect([...hostIds(labTopology(true))].sort()).toEqual(['h1a', 'h1b', 'h2a']);
  });

  it('read paths with the newer end-point leaves when present', () => {
    const [p] = parsePaths({ 'rdma-path-table:path': [{
      'session-id': 'x', asymmetric: true,
      forward: { complete: false, gap: ['switch spine1 (port swp1) feeds leaf2: RFT off'], 'source-node': 'h1a', 'source-tp': 'eth0',
        hop: [{ index: 1, 'node-id': 'leaf2', observed: true }, { index: 0, 'node-id': 'leaf1', observed: true, traffic: 'cm' }] },
    }] });
    expect(p.asymmetric).toBe(true);
    expect(p.forward.hops.map(h => h.nodeId)).toEqual(['leaf1', 'leaf2']);
    expect(p.forward.sourceNode).toBe('h1a');
    expect(p.forward.gaps).toHaveLength(1);
    expect(p.reverse.hops).toEqual([]);
  });

  it('merge a node that two topologies both list, and draw nodes that only links name', () => {
    const t = parseTopology({ 'network-topology:network-topology': { topology: [
      { 'topology-id': 'a', node: [{ 'node-id': 'n1', 'termination-point': [{ 'tp-id': 'p1' }] }] },
      { 'topology-id': 'b', node: [{ 'node-id': 'n1', 'termination-point': [{ 'tp-id': 'p2' }] }],
        link: [{ 'link-id': 'l', source: { 'source-node': 'n1', 'source-tp': 'p2' }, destination: { 'dest-node': 'ghost', 'dest-tp': 'q' } }] },
    ] } });
    expect(t.nodes.find(n => n.id === 'n1')?.tps).toEqual(['p1', 'p2']);
    expect(t.nodes.find(n => n.id === 'ghost')?.tps).toEqual(['q']);
  });

  it('read date-and-time as seconds since the epoch, to the microsecond, whatever the offset', () => {
    expect(time('2026-01-01T00:00:00.005446Z')).toBeCloseTo(1767225600.005446, 6);
    expect(time('2026-01-01T02:00:00.5+02:00')).toBeCloseTo(1767225600.5, 6);
    expect(time('2025-12-31T18:30:00-05:30')).toBe(1767225600);
    expect(time('2026-01-01t00:00:00.123456789z')).toBeCloseTo(1767225600.123456, 6);
    for (const bad of ['1767225600.005446', '2026-01-01', '2026-01-01T00:00:00', 'soon', '', undefined, 1767225600]) {
      expect(time(bad)).toBeUndefined();
    }
  });
});
