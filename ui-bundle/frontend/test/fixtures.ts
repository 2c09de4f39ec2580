/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */

// RESTCONF answers as the controller writes them (shapes copied from a running controller), for
// the parsers and everything built on them.

import { parseTopology, type Session, type Topology } from '../src/model';

/** A small leaf-spine fabric in the lab's format: 2 spines, 2 leaves, 3 hosts (h1b dual-homed). */
export function labTopology(withKinds = true): Topology {
  const node = (id: string, kind: string, tps: string[], ips: string[] = []) => ({
    'node-id': id,
    'termination-point': tps.map(t => ({ 'tp-id': t })),
    ...(withKinds ? { 'rst-topology:node-kind': kind, ...(ips.length ? { 'rst-topology:ip-address': ips } : {}) } : {}),
  });
  const links: unknown[] = [];
  const link = (a: string, atp: string, b: string, btp: string) => {
    for (const [s, st, d, dt] of [[a, atp, b, btp], [b, btp, a, atp]]) {
      links.push({ 'link-id': `${s}:${st}-${d}:${dt}`, source: { 'source-node': s, 'source-tp': st },
        destination: { 'dest-node': d, 'dest-tp': dt } });
    }
  };
  link('h1a', 'eth0', 'leaf1', 'swp1');
  link('h1b', 'eth0', 'leaf1', 'swp2');
  link('h1b', 'eth1', 'leaf2', 'swp2');
  link('h2a', 'eth0', 'leaf2', 'swp1');
  link('leaf1', 'swp3', 'spine1', 'swp1');
  link('leaf1', 'swp4', 'spine2', 'swp1');
  link('leaf2', 'swp3', 'spine1', 'swp2');
  link('leaf2', 'swp4', 'spine2', 'swp2');
  return parseTopology({
    'network-topology:network-topology': {
      topology: [{
        'topology-id': 'rst-lab',
        node: [
          node('spine2', 'switch', ['swp1', 'swp2']),
          node('spine1', 'switch', ['swp1', 'swp2']),
          node('leaf2', 'switch', ['swp1', 'swp2', 'swp3', 'swp4']),
          node('leaf1', 'switch', ['swp1', 'swp2', 'swp3', 'swp4']),
          node('h2a', 'host', ['eth0'], ['10.0.2.1']),
          node('h1b', 'host', ['eth0', 'eth1'], ['10.0.1.2']),
          node('h1a', 'host', ['eth0'], ['10.0.1.1']),
        ],
        link: links,
      }, { 'topology-id': 'flow:1' }],
    },
  });
}

let seq = 0;

export function session(over: Partial<Session> = {}): Session {
  seq++;
  return {
    sessionId: over.sessionId ?? `10.0.1.1/0x${seq.toString(16).padStart(8, '0')}/10.0.2.1`,
    requesterIp: '10.0.1.1',
    responderIp: '10.0.2.1',
    requesterCommId: `0x${seq.toString(16).padStart(8, '0')}`,
    responderCommId: `0x9999${seq.toString(16).padStart(4, '0')}`,
    requesterQpn: 100 + seq,
    responderQpn: 200 + seq,
    serviceId: '0x0000000001060000',
    state: 'ESTABLISHED',
    firstSeen: 1000 + seq,
    lastSeen: 1000 + seq,
    ports: ['swp1'],
    ...over,
  };
}
