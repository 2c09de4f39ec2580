/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */

// A path direction as segments to light on the fabric drawing: from the sending host through each
// hop to the receiving host, each segment marked observed (the switch it enters saw the traffic),
// inferred, or gap (a switch that should have seen it did not: its RFT is off, or a link is
// missing). The hop list says which switches saw the traffic; the topology's links say which
// node fed each hop's ingress port, which is how a silent switch between two hops is found.
// Pure: the drawing applies the result.

import { hostIds, type Direction, type Hop, type Topology, type TopoLink } from './model';

export type SegmentKind = 'observed' | 'inferred' | 'gap';

export interface Segment {
  readonly from: string;
  readonly to: string;
  readonly fromTp?: string;
  readonly toTp?: string;
  readonly kind: SegmentKind;
}

export interface Route {
  readonly segments: readonly Segment[];
  /** Switches on the way that did not see the traffic. */
  readonly gapNodes: readonly string[];
  /** The node sequence, sender's host to receiver's host where known. */
  readonly nodes: readonly string[];
}

export interface LinkIndex {
  /** The link that ends on a port ("node|tp"). */
  readonly into: ReadonlyMap<string, TopoLink>;
  /** The link that leaves from a port. */
  readonly outOf: ReadonlyMap<string, TopoLink>;
  readonly hostsByIp: ReadonlyMap<string, string>;
  /** Host nodes (the topology's kind, or nodes with addresses). */
  readonly hosts: ReadonlySet<string>;
}

export function indexLinks(topo: Topology): LinkIndex {
  const into = new Map<string, TopoLink>();
  const outOf = new Map<string, TopoLink>();
  for (const l of topo.links) {
    if (l.dstTp !== undefined) {
      into.set(l.dstNode + '|' + l.dstTp, l);
    }
    if (l.srcTp !== undefined) {
      outOf.set(l.srcNode + '|' + l.srcTp, l);
    }
  }
  const hostsByIp = new Map<string, string>();
  const hosts = hostIds(topo);
  for (const n of topo.nodes) {
    for (const ip of n.ips) {
      hostsByIp.set(ip, n.id);
    }
  }
  return { into, outOf, hostsByIp, hosts };
}

/**
 * Splits a direction's hops by the traffic they were learnt from. Under ECMP a QP's data may take
 * another member than its CM messages: then both chains are drawn. Hops without a traffic kind
 * belong to the CM chain (the CM messages are what RFT sees first).
 */
export function chainsByTraffic(dir: Direction): { cm: readonly Hop[]; data: readonly Hop[] } {
  const cm = dir.hops.filter(h => h.traffic !== 'data');
  const data = dir.hops.filter(h => h.traffic === 'data');
  return { cm, data };
}

/** Whether the CM and data chains cross different switches (then the view shows both). */
export function cmAndDataApart(dir: Direction): boolean {
  const { cm, data } = chainsByTraffic(dir);
  if (data.length === 0 || cm.length === 0) {
    return false;
  }
  return cm.map(h => h.nodeId).join('>') !== data.map(h => h.nodeId).join('>');
}

/**
 * The switches a direction's gap statements name ("switch spine1 (port swp4) feeds leaf4:swp3 but
 * RFT there saw nothing ..."): the path table infers such a hop from the topology where it can,
 * and the drawing marks it as the gap it is rather than as an ordinary inferred hop.
 */
export function gapSwitches(gaps: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const g of gaps) {
    for (const m of g.matchAll(/\bswitch (\S+) \(port /g)) {
      out.add(m[1]);
    }
  }
  return out;
}

export function routeOf(hops: readonly Hop[], dir: Direction, srcIp: string | undefined, dstIp: string | undefined,
    links: LinkIndex): Route {
  const segments: Segment[] = [];
  const gapNodes: string[] = [];
  const nodes: string[] = [];
  if (hops.length === 0) {
    return { segments, gapNodes, nodes };
  }
  const silent = gapSwitches(dir.gaps);
  for (const h of hops) {
    if (!h.observed && silent.has(h.nodeId)) {
      gapNodes.push(h.nodeId);
    }
  }
  const kindInto = (h: Hop): SegmentKind => h.observed ? 'observed' : silent.has(h.nodeId) ? 'gap' : 'inferred';
  const hopIds = new Set(hops.map(h => h.nodeId));

  // where the traffic came from: the path table's word, else the link into the first hop, else
  // the host that owns the sender's address
  const first = hops[0];
  const feed = first.ingressTp !== undefined ? links.into.get(first.nodeId + '|' + first.ingressTp) : undefined;
  const source = dir.sourceNode ?? feed?.srcNode ?? (srcIp ? links.hostsByIp.get(srcIp) : undefined);
  if (source !== undefined && source !== first.nodeId) {
    const senderHost = srcIp ? links.hostsByIp.get(srcIp) : undefined;
    // the link into the first hop comes from a switch, not from a host: that switch is silent
    if (feed !== undefined && dir.sourceNode === undefined && !links.hosts.has(feed.srcNode)) {
      if (senderHost !== undefined) {
        nodes.push(senderHost);
      }
      nodes.push(feed.srcNode);
      gapNodes.push(feed.srcNode);
      segments.push({ from: feed.srcNode, to: first.nodeId, fromTp: feed.srcTp, toTp: feed.dstTp, kind: 'gap' });
    } else {
      nodes.push(source);
      segments.push({ from: source, to: first.nodeId, fromTp: feed?.srcTp ?? dir.sourceTp, toTp: first.ingressTp,
        kind: kindInto(first) });
    }
  }
  nodes.push(first.nodeId);

  for (let i = 0; i + 1 < hops.length; i++) {
    const a = hops[i];
    const b = hops[i + 1];
    const into = b.ingressTp !== undefined ? links.into.get(b.nodeId + '|' + b.ingressTp) : undefined;
    const out = a.egressTp !== undefined ? links.outOf.get(a.nodeId + '|' + a.egressTp) : undefined;
    if (into !== undefined && into.srcNode === a.nodeId) {
      segments.push({ from: a.nodeId, to: b.nodeId, fromTp: into.srcTp, toTp: into.dstTp, kind: kindInto(b) });
    } else if (into !== undefined && !hopIds.has(into.srcNode)) {
      // b was fed by a switch that is not on the path: it saw nothing, a gap
      const silent = into.srcNode;
      gapNodes.push(silent);
      nodes.push(silent);
      const toSilent = out?.dstNode === silent ? out : undefined;
      segments.push({ from: a.nodeId, to: silent, fromTp: toSilent?.srcTp ?? a.egressTp, toTp: toSilent?.dstTp,
        kind: 'gap' });
      segments.push({ from: silent, to: b.nodeId, fromTp: into.srcTp, toTp: into.dstTp, kind: 'gap' });
    } else if (out !== undefined && out.dstNode === b.nodeId) {
      segments.push({ from: a.nodeId, to: b.nodeId, fromTp: out.srcTp, toTp: out.dstTp, kind: kindInto(b) });
    } else {
      // no link joins them: the topology lacks it
      segments.push({ from: a.nodeId, to: b.nodeId, fromTp: a.egressTp, toTp: b.ingressTp, kind: 'gap' });
    }
    nodes.push(b.nodeId);
  }

  const last = hops[hops.length - 1];
  const out = last.egressTp !== undefined ? links.outOf.get(last.nodeId + '|' + last.egressTp) : undefined;
  const dest = dir.destinationNode ?? out?.dstNode ?? (dstIp ? links.hostsByIp.get(dstIp) : undefined);
  if (dest !== undefined && dest !== last.nodeId) {
    segments.push({ from: last.nodeId, to: dest, fromTp: out?.srcTp ?? last.egressTp,
      toTp: out?.dstTp ?? dir.destinationTp, kind: kindInto(last) });
    nodes.push(dest);
  }
  return { segments, gapNodes, nodes };
}
