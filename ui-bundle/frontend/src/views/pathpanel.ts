/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */

// A session's forward and reverse paths in words (hop tables with observed/inferred, gaps,
// asymmetry, CM versus data path) and as layers for the fabric drawing. Shared by the session
// view and the traffic-paths view.

import { directionCongestionText, formatShare, gradeClass, hopCongestionText, hopGrade, markedAtText,
  segmentClasses } from '../congestion';
import { badge, h, route } from '../dom';
import type { RouteLayer } from '../fabric';
import { dataDirections, type Direction, type Hop, type Path, type Topology } from '../model';
import { chainsByTraffic, cmAndDataApart, indexLinks, routeOf } from '../pathgeo';

export interface PortHandler {
  (node: string, tp: string): void;
}

export function routeLayers(path: Path, topo: Topology): RouteLayer[] {
  const links = indexLinks(topo);
  const layers: RouteLayer[] = [];
  const dataDirs = dataDirections(path);
  const dirs = [
    { direction: 'forward' as const, d: path.forward, dd: dataDirs.forward, src: path.requesterIp, dst: path.responderIp },
    { direction: 'reverse' as const, d: path.reverse, dd: dataDirs.reverse, src: path.responderIp, dst: path.requesterIp },
  ];
  for (const { direction, d, dd, src, dst } of dirs) {
    const { cm, data } = chainsByTraffic(d);
    // a CM session's data path of its own (data-forward): drawn beside the CM path where it crosses other switches
    const ownData = dd !== undefined && dd !== d && dd.hops.length > 0 ? dd : undefined;
    const dataApart = ownData !== undefined && ownData.hops.map(x => x.nodeId).join('>') !== cm.map(x => x.nodeId).join('>');
    if (cm.length) {
      const r = routeOf(cm, d, src, dst, links);
      // the CM path stands for the data where they cross the same switches: it carries the data's marks
      layers.push({ direction, traffic: 'cm', route: r, classes: dataApart ? undefined : segmentClasses(r, dd) });
    }
    // a data-learned session's data is all it has: drawn whether or not a CM chain is beside it
    if (data.length && (cm.length === 0 || cmAndDataApart(d))) {
      const r = routeOf(data, d, src, dst, links);
      layers.push({ direction, traffic: 'data', route: r, classes: segmentClasses(r, dd) });
    }
    if (ownData && (dataApart || cm.length === 0)) {
      const r = routeOf(ownData.hops, ownData, src, dst, links);
      layers.push({ direction, traffic: 'data', route: r, classes: segmentClasses(r, ownData) });
    }
  }
  return layers;
}

function portButton(node: string, tp: string | undefined, onPort?: PortHandler): Node | string {
  if (!tp) {
    return '–';
  }
  return onPort
    ? h('button', { type: 'button', class: 'link port', 'data-node': node, 'data-tp': tp, title: `Sessions through ${node} ${tp}`,
      onclick: () => onPort(node, tp) }, tp)
    : tp;
}

/** Whether any hop of the direction, or the direction itself, carries congestion figures. */
export function hasCongestion(d: Direction): boolean {
  return d.markedAt !== undefined || d.ceShare !== undefined || d.cnpPackets !== undefined
    || d.hops.some(x => x.ectPackets !== undefined || x.cePackets !== undefined || x.cnpPackets !== undefined || x.dscp !== undefined);
}

const opt = (n: number | undefined) => n === undefined ? '' : String(n);

function hopRows(hops: readonly Hop[], congestion: boolean, onPort?: PortHandler): HTMLElement[] {
  return hops.map(hop => {
    const grade = hopGrade(hop);
    const cls = gradeClass(grade);
    return h('tr', {
      class: `${hop.observed ? 'observed' : 'inferred'}${cls ? ' hop-' + cls : ''}`, 'data-node': hop.nodeId,
      'data-grade': congestion ? cls || 'none' : undefined, title: congestion ? hopCongestionText(hop) : undefined,
    },
    h('td', { class: 'num' }, hop.index),
    h('th', { scope: 'row' }, hop.nodeId),
    h('td', null, portButton(hop.nodeId, hop.ingressTp, onPort)),
    h('td', null, portButton(hop.nodeId, hop.egressTp, onPort),
      hop.egressTp ? [' ', h('a', { href: route('port', hop.nodeId, hop.egressTp), class: 'small port-view',
        title: `Pauses and sessions of ${hop.nodeId} ${hop.egressTp}` }, 'port')] : null),
    h('td', null, hop.observed ? badge('ok', 'observed') : badge('idle', 'inferred')),
    h('td', null, hop.traffic ?? ''),
    congestion ? [
      h('td', { class: 'num' }, hop.dscp !== undefined ? `${hop.dscp}${hop.priority !== undefined ? ' / ' + hop.priority : ''}` : ''),
      h('td', { class: 'num' }, opt(hop.ectPackets)),
      h('td', { class: 'num' }, opt(hop.cePackets)),
      h('td', { class: 'num ce-share' }, grade.level === 'ce'
        ? h('span', { class: `ce-chip ${cls}` }, formatShare(hop.ceShare ?? (hop.ectPackets ? (hop.cePackets ?? 0) / hop.ectPackets : 0)))
        : formatShare(hop.ceShare)),
      h('td', { class: 'num' }, opt(hop.cnpPackets)),
    ] : null);
  });
}

function directionBlock(title: string, cls: string, d: Direction, from: string | undefined, to: string | undefined,
    onPort?: PortHandler): HTMLElement {
  const state = d.hops.length === 0 ? badge('idle', 'not seen') : d.complete ? badge('ok', 'complete') : badge('bad', 'gap');
  const apart = cmAndDataApart(d);
  const congestion = hasCongestion(d);
  const totals = directionCongestionText(d);
  return h('section', { class: `direction ${cls}`, 'data-direction': cls },
    h('h3', null, h('span', { class: `swatch ${cls}`, 'aria-hidden': 'true' }), `${title}: ${from ?? '?'} → ${to ?? '?'} `, state),
    d.sourceNode || d.destinationNode
      ? h('p', { class: 'muted small' }, `from ${d.sourceNode ?? '?'} ${d.sourceTp ?? ''} to ${d.destinationNode ?? '?'} ${d.destinationTp ?? ''}`)
      : null,
    d.markedAt ? h('p', { class: `marked-at tone-text-warn${d.markedAt.certain ? '' : ' uncertain'}` }, markedAtText(d.markedAt)) : null,
    totals ? h('p', { class: 'congestion-totals small' }, totals) : null,
    d.hops.length ? h('div', { class: 'scroll-x' }, h('table', { class: 'grid hops' },
      h('thead', null, h('tr', null, h('th', null, '#'), h('th', null, 'Switch'), h('th', null, 'In'), h('th', null, 'Out'),
        h('th', null, 'Seen'), h('th', null, 'Traffic'),
        congestion ? [h('th', { title: 'DSCP of the sampled data as it entered, and the priority it maps to' }, 'DSCP / prio'),
          h('th', { title: 'sampled data packets that entered ECN-capable' }, 'ECT'),
          h('th', { title: 'of those, the ones that entered CE-marked (marked before this switch)' }, 'CE'),
          h('th', null, 'CE share'), h('th', { title: 'CNPs about this data that entered the switch' }, 'CNPs')] : null)),
      h('tbody', null, hopRows(d.hops, congestion, onPort)))) : null,
    d.gaps.length ? h('ul', { class: 'gaps' }, d.gaps.map(g => h('li', { class: 'tone-text-bad' }, 'Gap: ', g))) : null,
    apart ? h('p', { class: 'tone-text-warn' }, 'The CM messages and the data take different paths here (ECMP): both are drawn, '
      + 'the data dotted.') : null);
}

export function renderPath(path: Path, onPort?: PortHandler): HTMLElement {
  const data = path.learnedFrom === 'data';
  return h('div', { class: 'path-detail' },
    data ? h('p', { class: 'learned', id: 'path-learned' }, badge('busy', 'data'),
      path.oneWay ? ' One-way flow, peer QP unknown: only its one direction was seen, and the controller paired it with'
        + ' no flow the other way.'
        : ' Learnt from sampled data packets: the path is its data in each direction (no CM messages).'
          + ' Roles unknown: requester and responder are the lower and the higher endpoint.') : null,
    h('p', { class: 'legend small' },
      h('span', { class: 'swatch forward', 'aria-hidden': 'true' }), ' forward ',
      h('span', { class: 'swatch reverse', 'aria-hidden': 'true' }), ' reverse · solid: the switch saw it · dashed: inferred · ',
      h('span', { class: 'tone-text-bad' }, 'red: a switch on the way saw nothing'),
      ' · CE-marked data entering a hop: ', h('span', { class: 'ce-chip ce-1' }, 'some'), ' ',
      h('span', { class: 'ce-chip ce-2' }, 'over 1 %'), ' ', h('span', { class: 'ce-chip ce-3' }, 'over 5 %')),
    path.asymmetric ? h('p', { class: 'tone-text-warn', id: 'asymmetric' },
      'Asymmetric: the reverse path does not retrace the forward one.') : null,
    path.anomalies.length ? h('ul', { class: 'anomalies' }, path.anomalies.map(a => h('li', { class: 'tone-text-warn' }, a))) : null,
    directionBlock(data ? 'Forward data' : 'Forward', 'forward', path.forward, path.requesterIp, path.responderIp, onPort),
    path.oneWay ? h('p', { class: 'muted', 'data-direction': 'reverse' }, 'Reverse: none (one-way flow)')
      : directionBlock(data ? 'Reverse data' : 'Reverse', 'reverse', path.reverse, path.responderIp, path.requesterIp,
        onPort),
    // a CM session's sampled data: its own paths, with what entered each hop
    path.dataForward && path.dataForward.hops.length
      ? directionBlock('Forward data', 'forward data', path.dataForward, path.requesterIp, path.responderIp, onPort) : null,
    path.dataReverse && path.dataReverse.hops.length
      ? directionBlock('Reverse data', 'reverse data', path.dataReverse, path.responderIp, path.requesterIp, onPort) : null);
}
