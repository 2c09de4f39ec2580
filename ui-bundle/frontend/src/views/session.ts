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
import { dataKindWord, formatDelta, formatMicros, formatTime, hex, isDataSessionId, joinedToCm, learnedWord,
  rejectReasonText, sessionTone, sessionWord } from '../format';
import { CongestionHistory, sampleOf } from '../congestion';
import { dataDirections, type Path, type Session, type Topology } from '../model';
import { Poller } from '../poller';
import { historyBlock } from './congestion';
import { renderPath, routeLayers } from './pathpanel';
import { portSessions } from './paths';

function endpoint(ip: string | undefined, qpn: number | undefined, commId: string | undefined,
    data = false): string {
  // a data-learned session has no comm IDs (no CM), and a one-way flow's sender QP is unknown
  return [ip ?? 'address unknown', qpn !== undefined ? `QPN ${qpn} (${hex(qpn)})` : data ? 'QPN unknown' : 'QPN not seen',
    data ? null : commId ? `comm ID ${commId}` : 'comm ID not seen'].filter(x => x !== null).join(' · ');
}

/** What the roles of a data-learned session are, in words: nobody saw who connected. */
export const DATA_ROLES = 'unknown: learnt from data packets, nobody saw who connected; requester and responder are the '
  + 'lower and the higher endpoint by address (IPv4 before IPv6), then by QPN';

/** A one-way flow's roles: the sender and the receiving QP, the sender's QP unknown. */
export const ONE_WAY_ROLES = 'unknown: a one-way flow, only one direction seen; requester is the sender (its QP '
  + 'unknown), responder the receiving QP';

export class SessionView implements View {
  readonly el: HTMLElement;
  readonly title: string;
  private readonly facts = h('div', { class: 'facts' });
  private readonly timeline = h('div', { class: 'timeline' });
  private readonly pathEl = h('div', { class: 'path-words' });
  private readonly portEl = h('div', { class: 'port-sessions', id: 'port-sessions' });
  private readonly historyEl = h('div', { class: 'history' });
  /** The session's CE and CNP counts at each poll while this view is open (bounded). */
  private readonly history: CongestionHistory;
  private readonly fabricEl = h('div', { class: 'fabric small', role: 'img', 'aria-label': 'The session\'s path on the fabric' });
  private readonly errorEl = h('p', { class: 'error', role: 'alert', hidden: true });
  private readonly poller: Poller;
  private fabric: Fabric | undefined;
  private unTheme: (() => void) | undefined;
  private signature = '';
  /** The session a one-way flow was paired into, whose path is then the flow's. */
  private pairedInto: string | undefined;

  constructor(private readonly app: AppContext, private readonly nodeId: string, private readonly sessionId: string) {
    this.title = `Session ${sessionId}`;
    this.history = new CongestionHistory(sessionId);
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
          this.fabricEl, this.historyEl, this.pathEl, this.portEl)));
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
      const [session, own, topology] = await Promise.all([
        fetchSession(this.app.api, this.nodeId, this.sessionId),
        fetchPath(this.app.api, this.sessionId),
        this.app.topology(),
      ]);
      // a one-way flow the controller paired, or data it joined to a CM session, has that session's path
      this.pairedInto = session?.pairedSession;
      const path = own ?? (this.pairedInto ? await fetchPath(this.app.api, this.pairedInto) : undefined);
      this.errorEl.hidden = true;
      this.app.updated();
      // redraw only what changed, so a refresh does not reset what the operator looks at
      if (path) {
        const d = dataDirections(path);
        this.history.add(sampleOf(Date.now() / 1000, d.forward, d.reverse));
      }
      replace(this.historyEl, historyBlock(this.history));
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
    const data = s.learnedFrom === 'data';
    replace(this.facts, h('dl', { class: 'facts-grid' },
      fact('State', badge(sessionTone(s.state), sessionWord(s.state))),
      fact('Learnt from', h('span', { id: 'learned-from' }, badge(data ? 'busy' : 'idle', learnedWord(s.learnedFrom)),
        data ? ` sampled data packets: ${dataKindWord(s)}` : ' CM messages')),
      data ? fact('Roles', h('span', { id: 'roles' }, s.oneWay ? ONE_WAY_ROLES : DATA_ROLES)) : null,
      data && s.pairedSession ? fact(joinedToCm(s) ? 'Part of CM session' : 'Paired into', h('a', {
        href: route('paths', s.pairedSession), class: 'mono', id: 'paired-session' }, s.pairedSession)) : null,
      data && s.pairAmbiguous ? fact('Pairing', 'ambiguous: more than one flow the other way fits its PSNs; '
        + 'not paired rather than guessed') : null,
      data && (s.requesterDataPort || s.responderDataPort) ? fact('Data entered on',
        [s.requesterDataPort ? `${s.oneWay ? 'the flow' : 'requester → responder'}: ${s.requesterDataPort}` : null,
          s.responderDataPort ? `responder → requester: ${s.responderDataPort}` : null]
          .filter(x => x !== null).join(' · ')) : null,
      s.state === 'REJECTED' ? fact('Reject reason', rejectReasonText(s.rejectReason)) : null,
      fact('Requester', endpoint(s.requesterIp, s.requesterQpn, s.requesterCommId, data)),
      fact('Responder', endpoint(s.responderIp, s.responderQpn, s.responderCommId, data)),
      fact('Service ID', s.serviceId),
      fact('rdma_cm ports', s.rdmaCmSrcPort !== undefined || s.rdmaCmDstPort !== undefined
        ? `${s.rdmaCmSrcPort ?? '?'} → ${s.rdmaCmDstPort ?? '?'}` : undefined),
      fact('CM UDP source ports', s.requesterUdpSrcPort !== undefined || s.responderUdpSrcPort !== undefined
        ? `requester ${s.requesterUdpSrcPort ?? '?'}, responder ${s.responderUdpSrcPort ?? '?'}` : undefined),
      fact('First seen', formatTime(s.firstSeen)),
      fact('Last seen', formatTime(s.lastSeen)),
      s.rolesKnown === false && !data ? fact('Roles', 'unknown: only DREQ/DREP seen, the requester is a guess') : null,
      s.droppedMessages ? fact('Messages not kept', String(s.droppedMessages)) : null));
    const msgs = s.messages ?? [];
    const t0 = msgs[0]?.time;
    replace(this.timeline, msgs.length === 0 ? h('p', { class: 'muted' }, data
      ? 'No CM messages: the session was learnt from its sampled data packets.' : 'No message kept.')
      : h('div', { class: 'scroll-x' }, h('table', { class: 'grid', id: 'timeline' },
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
      replace(this.pathEl, h('p', { class: 'muted' }, this.pairedInto
        ? (isDataSessionId(this.pairedInto)
          ? 'This one-way flow has no path of its own: the controller paired it into the session linked above.'
          : 'This data has no path of its own: its QPs are the CM session\'s linked above, whose path'
            + ' it is part of; the CM session has no path yet.')
        : 'The path table has no path for this session yet.'));
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
