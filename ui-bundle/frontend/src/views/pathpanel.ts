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

import { badge, h } from '../dom';
import type { RouteLayer } from '../fabric';
import type { Direction, Hop, Path, Topology } from '../model';
import { chainsByTraffic, cmAndDataApart, indexLinks, routeOf } from '../pathgeo';

export interface PortHandler {
  (node: string, tp: string): void;
}

export function routeLayers(path: Path, topo: Topology): RouteLayer[] {
  const links = indexLinks(topo);
  const layers: RouteLayer[] = [];
  const dirs = [
    { direction: 'forward' as const, d: path.forward, src: path.requesterIp, dst: path.responderIp },
    { direction: 'reverse' as const, d: path.reverse, src: path.responderIp, dst: path.requesterIp },
  ];
  for (const { direction, d, src, dst } of dirs) {
    const { cm, data } = chainsByTraffic(d);
    if (cm.length) {
      layers.push({ direction, traffic: 'cm', route: routeOf(cm, d, src, dst, links) });
    }
    // a data-learned session's data is all it has: drawn whether or not a CM chain is beside it
    if (data.length && (cm.length === 0 || cmAndDataApart(d))) {
      layers.push({ direction, traffic: 'data', route: routeOf(data, d, src, dst, links) });
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

function hopRows(hops: readonly Hop[], onPort?: PortHandler): HTMLElement[] {
  return hops.map(hop => h('tr', { class: hop.observed ? 'observed' : 'inferred' },
    h('td', { class: 'num' }, hop.index),
    h('th', { scope: 'row' }, hop.nodeId),
    h('td', null, portButton(hop.nodeId, hop.ingressTp, onPort)),
    h('td', null, portButton(hop.nodeId, hop.egressTp, onPort)),
    h('td', null, hop.observed ? badge('ok', 'observed') : badge('idle', 'inferred')),
    h('td', null, hop.traffic ?? '')));
}

function directionBlock(title: string, cls: string, d: Direction, from: string | undefined, to: string | undefined,
    onPort?: PortHandler): HTMLElement {
  const state = d.hops.length === 0 ? badge('idle', 'not seen') : d.complete ? badge('ok', 'complete') : badge('bad', 'gap');
  const apart = cmAndDataApart(d);
  return h('section', { class: `direction ${cls}`, 'data-direction': cls },
    h('h3', null, h('span', { class: `swatch ${cls}`, 'aria-hidden': 'true' }), `${title}: ${from ?? '?'} → ${to ?? '?'} `, state),
    d.sourceNode || d.destinationNode
      ? h('p', { class: 'muted small' }, `from ${d.sourceNode ?? '?'} ${d.sourceTp ?? ''} to ${d.destinationNode ?? '?'} ${d.destinationTp ?? ''}`)
      : null,
    d.hops.length ? h('div', { class: 'scroll-x' }, h('table', { class: 'grid hops' },
      h('thead', null, h('tr', null, h('th', null, '#'), h('th', null, 'Switch'), h('th', null, 'In'), h('th', null, 'Out'),
        h('th', null, 'Seen'), h('th', null, 'Traffic'))),
      h('tbody', null, hopRows(d.hops, onPort)))) : null,
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
      h('span', { class: 'tone-text-bad' }, 'red: a switch on the way saw nothing')),
    path.asymmetric ? h('p', { class: 'tone-text-warn', id: 'asymmetric' },
      'Asymmetric: the reverse path does not retrace the forward one.') : null,
    path.anomalies.length ? h('ul', { class: 'anomalies' }, path.anomalies.map(a => h('li', { class: 'tone-text-warn' }, a))) : null,
    directionBlock(data ? 'Forward data' : 'Forward', 'forward', path.forward, path.requesterIp, path.responderIp, onPort),
    path.oneWay ? h('p', { class: 'muted', 'data-direction': 'reverse' }, 'Reverse: none (one-way flow)')
      : directionBlock(data ? 'Reverse data' : 'Reverse', 'reverse', path.reverse, path.responderIp, path.requesterIp,
        onPort));
}
