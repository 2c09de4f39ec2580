/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */

// The fabric's drawing: tiers by distance from the hosts (hosts at the bottom, leaves above them,
// spines above the leaves, any super-spine above those), each host under its leaf, spines spread
// over the leaves. An operator reads a leaf-spine fabric in rows, as ONOS draws it; a force-directed
// layout would move nodes at every refresh and tangle the links. Pure: positions only.

import { hostIds, naturalCompare, type Topology } from './model';

export type Tier = 'host' | 'leaf' | 'spine' | 'core';

export interface PlacedNode {
  readonly id: string;
  readonly tier: Tier;
  /** 0 for hosts, 1 for leaves, 2 for spines, 3+ above; -1 for switches no host reaches. */
  readonly level: number;
  readonly x: number;
  readonly y: number;
}

export interface FabricLayout {
  readonly nodes: readonly PlacedNode[];
  readonly width: number;
  readonly height: number;
}

export interface LayoutOptions {
  readonly hostGap: number;
  readonly leafGap: number;
  readonly rowGap: number;
}

const DEFAULTS: LayoutOptions = { hostGap: 80, leafGap: 150, rowGap: 170 };

/** Whether a node is a host (see hostIds). */
export function isHost(topo: Topology, id: string): boolean {
  return hostIds(topo).has(id);
}

export function layoutFabric(topo: Topology, options: Partial<LayoutOptions> = {}): FabricLayout {
  const opt = { ...DEFAULTS, ...options };
  const ids = topo.nodes.map(n => n.id);
  const neighbours = new Map<string, Set<string>>(ids.map(id => [id, new Set<string>()]));
  for (const l of topo.links) {
    if (l.srcNode === l.dstNode) {
      continue;
    }
    neighbours.get(l.srcNode)?.add(l.dstNode);
    neighbours.get(l.dstNode)?.add(l.srcNode);
  }
  const hosts = hostIds(topo);

  // level = hops from the nearest host, by breadth-first search from all hosts at once
  const level = new Map<string, number>();
  let frontier = [...hosts];
  for (const h of frontier) {
    level.set(h, 0);
  }
  for (let d = 1; frontier.length > 0; d++) {
    const next: string[] = [];
    for (const id of frontier) {
      for (const nb of neighbours.get(id) ?? []) {
        if (!level.has(nb) && !hosts.has(nb)) {
          level.set(nb, d);
          next.push(nb);
        }
      }
    }
    frontier = next;
  }
  // no host anywhere (a topology without hosts): every switch in one row
  const unreached = ids.filter(id => !level.has(id)).sort(naturalCompare);
  const maxLevel = Math.max(1, ...level.values());

  const leaves = ids.filter(id => level.get(id) === 1).sort(naturalCompare);
  const leafIndex = new Map(leaves.map((id, i) => [id, i]));

  // hosts under their first leaf (natural order), dual-homed ones included there
  const hostsOf = new Map<string, string[]>(leaves.map(id => [id, []]));
  const orphanHosts: string[] = [];
  for (const h of [...hosts].sort(naturalCompare)) {
    const parents = [...(neighbours.get(h) ?? [])].filter(nb => leafIndex.has(nb))
      .sort((a, b) => leafIndex.get(a)! - leafIndex.get(b)!);
    if (parents.length === 0) {
      orphanHosts.push(h);
    } else {
      hostsOf.get(parents[0])!.push(h);
    }
  }

  const placed: PlacedNode[] = [];
  const yOf = (lvl: number) => (maxLevel - lvl) * opt.rowGap;
  let cursor = 0;
  for (const leaf of leaves) {
    const hosts = hostsOf.get(leaf)!;
    const slot = Math.max(opt.leafGap, hosts.length * opt.hostGap);
    const start = cursor + (slot - hosts.length * opt.hostGap) / 2;
    hosts.forEach((h, i) => placed.push({ id: h, tier: 'host', level: 0, x: start + (i + 0.5) * opt.hostGap, y: yOf(0) }));
    placed.push({ id: leaf, tier: 'leaf', level: 1, x: cursor + slot / 2, y: yOf(1) });
    cursor += slot;
  }
  for (const h of orphanHosts) {
    placed.push({ id: h, tier: 'host', level: 0, x: cursor + opt.hostGap / 2, y: yOf(0) });
    cursor += opt.hostGap;
  }
  const width = Math.max(cursor, opt.leafGap);

  // every higher level spread evenly over the width the leaves take
  for (let lvl = 2; lvl <= maxLevel; lvl++) {
    const row = ids.filter(id => level.get(id) === lvl).sort(naturalCompare);
    row.forEach((id, i) => placed.push({
      id, tier: lvl === 2 ? 'spine' : 'core', level: lvl, x: (i + 0.5) * width / row.length, y: yOf(lvl),
    }));
  }
  if (unreached.length > 0) {
    const y = leaves.length === 0 && hosts.size === 0 ? yOf(1) : yOf(maxLevel) - opt.rowGap;
    const gap = Math.max(opt.leafGap, width / unreached.length);
    unreached.forEach((id, i) => placed.push({ id, tier: 'spine', level: -1, x: (i + 0.5) * gap, y }));
  }
  const minY = Math.min(0, ...placed.map(p => p.y));
  const shifted = minY < 0 ? placed.map(p => ({ ...p, y: p.y - minY })) : placed;
  return {
    nodes: shifted,
    width: Math.max(width, ...shifted.map(p => p.x + opt.hostGap / 2)),
    height: Math.max(0, ...shifted.map(p => p.y)),
  };
}
