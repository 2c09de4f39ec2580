/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */

import { describe, expect, it } from 'vitest';
import type { Direction, Hop } from '../src/model';
import { chainsByTraffic, cmAndDataApart, gapSwitches, indexLinks, routeOf } from '../src/pathgeo';
import { labTopology } from './fixtures';

const hop = (index: number, nodeId: string, ingressTp: string, egressTp?: string, observed = true,
    traffic: 'cm' | 'data' = 'cm'): Hop => ({ index, nodeId, ingressTp, egressTp, observed, traffic });

const dir = (hops: Hop[], over: Partial<Direction> = {}): Direction => ({ complete: true, hops, gaps: [], ...over });

describe('a path direction on the fabric', () => {
  const links = indexLinks(labTopology());

  it('runs from the sending host through each hop to the receiving host', () => {
    const d = dir([hop(0, 'leaf1', 'swp1', 'swp3'), hop(1, 'spine1', 'swp1', 'swp2'), hop(2, 'leaf2', 'swp3', 'swp1')]);
    const r = routeOf(d.hops, d, '10.0.1.1', '10.0.2.1', links);
    expect(r.nodes).toEqual(['h1a', 'leaf1', 'spine1', 'leaf2', 'h2a']);
    expect(r.segments.map(s => `${s.from}>${s.to}:${s.kind}`)).toEqual([
      'h1a>leaf1:observed', 'leaf1>spine1:observed', 'spine1>leaf2:observed', 'leaf2>h2a:observed']);
    expect(r.segments[1]).toMatchObject({ fromTp: 'swp3', toTp: 'swp1' });
    expect(r.gapNodes).toEqual([]);
  });

  it('marks a silent switch between two hops as a gap (its RFT is off)', () => {
    // spine1 saw nothing: leaf2's ingress swp3 is fed by spine1, which is not on the path
    const d = dir([hop(0, 'leaf1', 'swp1'), hop(1, 'leaf2', 'swp3', 'swp1')], { complete: false, gaps: ['spine1 saw nothing'] });
    const r = routeOf(d.hops, d, '10.0.1.1', '10.0.2.1', links);
    expect(r.gapNodes).toEqual(['spine1']);
    expect(r.nodes).toEqual(['h1a', 'leaf1', 'spine1', 'leaf2', 'h2a']);
    expect(r.segments.filter(s => s.kind === 'gap').map(s => `${s.from}>${s.to}`)).toEqual(['leaf1>spine1', 'spine1>leaf2']);
  });

  it('marks a silent first switch when the first hop is fed by a switch, not a host', () => {
    const d = dir([hop(0, 'spine1', 'swp1', 'swp2'), hop(1, 'leaf2', 'swp3', 'swp1')], { complete: false });
    const r = routeOf(d.hops, d, '10.0.1.1', '10.0.2.1', links);
    expect(r.gapNodes).toEqual(['leaf1']);
    expect(r.segments[0]).toMatchObject({ from: 'leaf1', to: 'spine1', kind: 'gap' });
  });

  it('marks an inferred hop that a gap statement names as the gap (the path table infers the silent switch)', () => {
    const d = dir([hop(0, 'leaf1', 'swp1', 'swp3'), hop(1, 'spine1', 'swp1', 'swp2', false), hop(2, 'leaf2', 'swp3')], {
      complete: false,
      gaps: ['switch spine1 (port swp2) feeds leaf2:swp3 but RFT there saw nothing (off, agent down, or lost); hop spine1 inferred'],
    });
    const r = routeOf(d.hops, d, '10.0.1.1', '10.0.2.1', links);
    expect(r.gapNodes).toEqual(['spine1']);
    expect(r.segments.map(s => s.kind)).toEqual(['observed', 'gap', 'observed', 'observed']);
    expect([...gapSwitches(['switch leaf3 (port swp1) feeds spine2:swp3', 'no switch named here'])]).toEqual(['leaf3']);
  });

  it('dashes the way into an inferred hop', () => {
    const d = dir([hop(0, 'leaf1', 'swp1', 'swp3'), hop(1, 'spine1', 'swp1', 'swp2', false), hop(2, 'leaf2', 'swp3')]);
    const r = routeOf(d.hops, d, '10.0.1.1', '10.0.2.1', links);
    expect(r.segments.map(s => s.kind)).toEqual(['observed', 'inferred', 'observed', 'observed']);
  });

  it('takes the path table\'s own end points when it gives them', () => {
    const d = dir([hop(0, 'leaf1', 'swp2', 'swp3'), hop(1, 'spine1', 'swp1', 'swp2'), hop(2, 'leaf2', 'swp3')],
      { sourceNode: 'h1b', sourceTp: 'eth0', destinationNode: 'h2a', destinationTp: 'eth0' });
    const r = routeOf(d.hops, d, undefined, undefined, links);
    expect(r.nodes[0]).toBe('h1b');
    expect(r.nodes.at(-1)).toBe('h2a');
  });

  it('joins two hops no link joins with a gap (the topology lacks the link)', () => {
    const d = dir([hop(0, 'leaf1', 'swp1', 'swp9'), hop(1, 'leaf2', 'swp9')]);
    const r = routeOf(d.hops, d, '10.0.1.1', '10.0.2.1', links);
    expect(r.segments.find(s => s.from === 'leaf1' && s.to === 'leaf2')?.kind).toBe('gap');
  });

  it('tells CM hops from data hops, and whether they part', () => {
    const same = dir([hop(0, 'leaf1', 'swp1'), hop(0, 'leaf1', 'swp1', undefined, true, 'data')]);
    expect(cmAndDataApart(same)).toBe(false);
    const apart = dir([hop(0, 'leaf1', 'swp1'), hop(1, 'spine1', 'swp1'), hop(2, 'leaf1', 'swp1', undefined, true, 'data'),
      hop(3, 'spine2', 'swp1', undefined, true, 'data')]);
    expect(cmAndDataApart(apart)).toBe(true);
    expect(chainsByTraffic(apart).data.map(h => h.nodeId)).toEqual(['leaf1', 'spine2']);
  });
});
