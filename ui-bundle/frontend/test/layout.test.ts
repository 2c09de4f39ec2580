/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */

import { describe, expect, it } from 'vitest';
import { layoutFabric } from '../src/layout';
import { parseTopology } from '../src/model';
import { labTopology } from './fixtures';

describe('leaf-spine layout', () => {
  const placed = new Map(layoutFabric(labTopology()).nodes.map(n => [n.id, n]));

  it('puts hosts at the bottom, leaves in the middle, spines on top', () => {
    expect(placed.get('h1a')!.tier).toBe('host');
    expect(placed.get('leaf1')!.tier).toBe('leaf');
    expect(placed.get('spine1')!.tier).toBe('spine');
    // y grows downwards
    expect(placed.get('spine1')!.y).toBeLessThan(placed.get('leaf1')!.y);
    expect(placed.get('leaf1')!.y).toBeLessThan(placed.get('h1a')!.y);
    expect(placed.get('spine1')!.y).toBe(placed.get('spine2')!.y);
    expect(placed.get('h1a')!.y).toBe(placed.get('h2a')!.y);
  });

  it('orders rows naturally and keeps each host under its leaf', () => {
    expect(placed.get('leaf1')!.x).toBeLessThan(placed.get('leaf2')!.x);
    expect(placed.get('spine1')!.x).toBeLessThan(placed.get('spine2')!.x);
    expect(placed.get('h1a')!.x).toBeLessThan(placed.get('leaf2')!.x);
    expect(placed.get('h2a')!.x).toBeGreaterThan(placed.get('leaf1')!.x);
    // the dual-homed h1b sits with its first leaf
    expect(Math.abs(placed.get('h1b')!.x - placed.get('leaf1')!.x)).toBeLessThan(Math.abs(placed.get('h1b')!.x - placed.get('leaf2')!.x));
  });

  it('does not overlap nodes of a row', () => {
    const rows = new Map<number, number[]>();
    for (const n of placed.values()) {
      rows.set(n.y, [...(rows.get(n.y) ?? []), n.x]);
    }
    for (const xs of rows.values()) {
      xs.sort((a, b) => a - b);
      for (let i = 1; i < xs.length; i++) {
        expect(xs[i] - xs[i - 1]).toBeGreaterThanOrEqual(60);
      }
    }
  });

  it('is the same whatever order the topology lists nodes in (a refresh never moves the drawing)', () => {
    const t = labTopology();
    const shuffled = { nodes: [...t.nodes].reverse(), links: [...t.links].reverse() };
    expect(layoutFabric(shuffled).nodes.slice().sort((a, b) => a.id.localeCompare(b.id)))
      .toEqual(layoutFabric(t).nodes.slice().sort((a, b) => a.id.localeCompare(b.id)));
  });

  it('puts a super-spine above the spines, and switches of a host-less topology in one row', () => {
    const t = labTopology();
    const withCore = {
      nodes: [...t.nodes, { id: 'core1', topologyId: 'x', kind: 'switch' as const, ips: [], tps: ['p1'] }],
      links: [...t.links, { id: 'c', srcNode: 'core1', srcTp: 'p1', dstNode: 'spine1', dstTp: 'swp9' }],
    };
    const core = layoutFabric(withCore).nodes.find(n => n.id === 'core1')!;
    const spine = layoutFabric(withCore).nodes.find(n => n.id === 'spine1')!;
    expect(core.tier).toBe('core');
    expect(core.y).toBeLessThan(spine.y);

    const noHosts = parseTopology({ 'network-topology': { topology: [{ 'topology-id': 'of', node: [
      { 'node-id': 'openflow:1', 'rst-topology:node-kind': 'switch' }, { 'node-id': 'openflow:2', 'rst-topology:node-kind': 'switch' }] }] } });
    const ys = new Set(layoutFabric(noHosts).nodes.map(n => n.y));
    expect(ys.size).toBe(1);
  });
});
