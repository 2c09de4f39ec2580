/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */

// One session as one switch saw it: its facts, its CM message timeline (type, time, ingress port,
// direction) and its path across the fabric, with the sessions that share a port on a click.

import type { AppContext, View } from '../app';
import { fetchPath, fetchSession, sessionsThrough } from '../data';
import { badge, h, replace, route } from '../dom';
import { Fabric } from '../fabric';
import { formatDelta, formatMicros, formatTime, hex, rejectReasonText, sessionTone, sessionWord } from '../format';
import type { Path, Session, Topology } from '../model';
import { Poller } from '../poller';
import { renderPath, routeLayers } from './pathpanel';
import { portSessions } from './paths';

function endpoint(ip: string | undefined, qpn: number | undefined, commId: string | undefined): string {
  return [ip ?? 'address unknown', qpn !== undefined ? `QPN ${qpn} (${hex(qpn)})` : 'QPN not seen',
    commId ? `comm ID ${commId}` : 'comm ID not seen'].join(' · ');
}

export class SessionView implements View {
  readonly el: HTMLElement;
  readonly title: string;
  private readonly facts = h('div', { class: 'facts' });
  private readonly timeline = h('div', { class: 'timeline' });
  private readonly pathEl = h('div', { class: 'path-words' });
  private readonly portEl = h('div', { class: 'port-sessions', id: 'port-sessions' });
  private readonly fabricEl = h('div', { class: 'fabric small', role: 'img', 'aria-label': 'The session\'s path on the fabric' });
  private readonly errorEl = h('p', { class: 'error', role: 'alert', hidden: true });
  private readonly poller: Poller;
  private fabric: Fabric | undefined;
  private unTheme: (() => void) | undefined;
  private signature = '';

  constructor(private readonly app: AppContext, private readonly nodeId: string, private readonly sessionId: string) {
    this.title = `Session ${sessionId}`;
    this.poller = new Poller(() => this.refresh(), { minMs: 5000, maxMs: 60000, costFactor: 10 });
    this.el = h('div', { class: 'view session' },
      h('section', { class: 'panel' },
        h('nav', { class: 'crumbs', 'aria-label': 'Breadcrumb' }, h('a', { href: '#/' }, 'Switches'), ' / ',
          h('a', { href: route('switch', nodeId) }, nodeId), ' / session'),
        h('h1', null, 'Session ', h('span', { class: 'mono' }, sessionId)),
        this.errorEl, this.facts),
      h('div', { class: 'session-grid' },
        h('section', { class: 'panel', 'aria-labelledby': 'timeline-h' },
          h('h2', { id: 'timeline-h' }, `CM messages as ${nodeId} saw them`), this.timeline),
        h('section', { class: 'panel', 'aria-labelledby': 'path-h' },
          h('h2', { id: 'path-h' }, 'Path ', h('a', { href: route('paths', sessionId), class: 'small', id: 'show-on-fabric' },
            'show on the fabric')),
          this.fabricEl, this.pathEl, this.portEl)));
  }

  start(): void {
    this.poller.start();
    this.unTheme = this.app.onTheme(() => this.fabric?.applyTheme());
  }

  stop(): void {
    this.poller.stop();
    this.unTheme?.();
    this.fabric?.destroy();
  }

  private async refresh(): Promise<void> {
    try {
      const [session, path, topology] = await Promise.all([
        fetchSession(this.app.api, this.nodeId, this.sessionId),
        fetchPath(this.app.api, this.sessionId),
        this.app.topology(),
      ]);
      this.errorEl.hidden = true;
      this.app.updated();
      // redraw only what changed, so a refresh does not reset what the operator looks at
      const sig = JSON.stringify([session, path]);
      if (sig !== this.signature) {
        this.signature = sig;
        this.renderSession(session);
        this.renderPathPart(path, topology);
      }
      this.el.dataset.ready = 'true';
    } catch (e) {
      this.app.handleError(e);
      this.errorEl.textContent = `Could not load the session: ${(e as Error).message}`;
      this.errorEl.hidden = false;
      throw e;
    }
  }

  private renderSession(s: Session | undefined): void {
    if (!s) {
      replace(this.facts, h('p', { class: 'muted' }, `${this.nodeId} has no such session (any more).`));
      replace(this.timeline);
      return;
    }
    const fact = (label: string, value: Node | string | undefined) =>
      value === undefined || value === '' ? null : [h('dt', null, label), h('dd', null, value)];
    replace(this.facts, h('dl', { class: 'facts-grid' },
      fact('State', badge(sessionTone(s.state), sessionWord(s.state))),
      s.state === 'REJECTED' ? fact('Reject reason', rejectReasonText(s.rejectReason)) : null,
      fact('Requester', endpoint(s.requesterIp, s.requesterQpn, s.requesterCommId)),
      fact('Responder', endpoint(s.responderIp, s.responderQpn, s.responderCommId)),
      fact('Service ID', s.serviceId),
      fact('rdma_cm ports', s.rdmaCmSrcPort !== undefined || s.rdmaCmDstPort !== undefined
        ? `${s.rdmaCmSrcPort ?? '?'} → ${s.rdmaCmDstPort ?? '?'}` : undefined),
      fact('CM UDP source ports', s.requesterUdpSrcPort !== undefined || s.responderUdpSrcPort !== undefined
        ? `requester ${s.requesterUdpSrcPort ?? '?'}, responder ${s.responderUdpSrcPort ?? '?'}` : undefined),
      fact('First seen', formatTime(s.firstSeen)),
      fact('Last seen', formatTime(s.lastSeen)),
      s.rolesKnown === false ? fact('Roles', 'unknown: only DREQ/DREP seen, the requester is a guess') : null,
      s.droppedMessages ? fact('Messages not kept', String(s.droppedMessages)) : null));
    const msgs = s.messages ?? [];
    const t0 = msgs[0]?.time;
    replace(this.timeline, msgs.length === 0 ? h('p', { class: 'muted' }, 'No message kept.') : h('div', { class: 'scroll-x' }, h('table', { class: 'grid', id: 'timeline' },
      h('thead', null, h('tr', null, h('th', null, '#'), h('th', null, 'Time'), h('th', null, 'Since first'), h('th', null, 'Message'),
        h('th', null, 'Direction'), h('th', null, 'Ingress port'))),
      h('tbody', null, msgs.map(m => h('tr', { 'data-type': m.type },
        h('td', { class: 'num' }, m.seq),
        h('td', { class: 'mono', title: formatTime(m.time) }, formatMicros(m.time)),
        h('td', { class: 'mono' }, t0 !== undefined && m.time !== undefined ? formatDelta(m.time - t0) : ''),
        h('td', null, h('strong', { class: `msg msg-${m.type}` }, m.type)),
        h('td', null, m.fromRequester === undefined ? 'unknown'
          : m.fromRequester ? `${s.requesterIp ?? 'requester'} → ${s.responderIp ?? 'responder'}`
            : `${s.responderIp ?? 'responder'} → ${s.requesterIp ?? 'requester'}`),
        h('td', null, m.ingressTp ? h('button', {
          type: 'button', class: 'link port', 'data-node': this.nodeId, 'data-tp': m.ingressTp,
          onclick: () => void this.showPort(this.nodeId, m.ingressTp!),
        }, m.ingressTp) : '')))))));
  }

  private renderPathPart(path: Path | undefined, topology: Topology): void {
    if (!path) {
      replace(this.pathEl, h('p', { class: 'muted' }, 'The path table has no path for this session yet.'));
      this.fabricEl.hidden = true;
      return;
    }
    replace(this.pathEl, renderPath(path, (n, tp) => void this.showPort(n, tp)));
    this.fabricEl.hidden = topology.nodes.length === 0;
    if (topology.nodes.length > 0) {
      this.fabric ??= new Fabric(this.fabricEl, { onNode: id => this.fabric?.select([id]) });
      this.fabric.setTopology(topology);
      this.fabric.showRoutes(routeLayers(path, topology));
    }
  }

  private async showPort(node: string, tp: string): Promise<void> {
    replace(this.portEl, h('p', { class: 'muted' }, `Sessions through ${node} ${tp}…`));
    try {
      const paths = await sessionsThrough(this.app.api, node, tp);
      replace(this.portEl, portSessions(node, tp, paths, p => this.app.navigate(route('paths', p.sessionId))));
    } catch (e) {
      this.app.handleError(e);
      replace(this.portEl, h('p', { class: 'error', role: 'alert' }, `Could not ask for the sessions through ${node} ${tp}: ${(e as Error).message}`));
    }
  }
}
