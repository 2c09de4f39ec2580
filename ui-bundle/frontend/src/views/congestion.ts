/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */

// Congestion in the views: a session's CE and CNP counts over the polls of the open view (a
// bounded history, drawn as sparklines beside the latest counts), and the port view
// (#/port/NODE/TP): the port's PFC pauses per priority, from its switch's agent status and
// rpt/paused-port, with the sessions each pause holds up and every session that crosses the port.

import type { AppContext, View } from '../app';
import { CongestionHistory, formatShare, portPriorities, sparkPoints, type PortPriority, type SampleField } from '../congestion';
import { fetchPausedPorts, fetchPfc, sessionsThrough } from '../data';
import { badge, h, replace, route } from '../dom';
import { formatClock, formatCount } from '../format';
import { Poller } from '../poller';
import { portSessions } from './paths';

const SVG = 'http://www.w3.org/2000/svg';

/** A small line of values (an SVG polyline), with its values in the title for screen readers and tooltips. */
export function sparkline(values: readonly (number | undefined)[], cls: string, label: string): Element {
  const width = 120;
  const height = 22;
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('class', `spark ${cls}`);
  svg.setAttribute('width', String(width));
  svg.setAttribute('height', String(height));
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', label);
  const title = document.createElementNS(SVG, 'title');
  title.textContent = label;
  svg.append(title);
  const points = sparkPoints(values, width, height);
  if (points) {
    const line = document.createElementNS(SVG, 'polyline');
    line.setAttribute('points', points);
    svg.append(line);
  }
  return svg;
}

const ROWS: readonly { label: string; ce: SampleField; cnp: SampleField }[] = [
  { label: 'requester → responder', ce: 'forwardCe', cnp: 'forwardCnp' },
  { label: 'responder → requester', ce: 'reverseCe', cnp: 'reverseCnp' },
];

/**
 * The history as a table: per direction the latest CE-marked and CNP counts and, over the samples
 * kept, what each poll added. Null while no sample has a figure (the session's data is not sampled).
 */
export function historyBlock(hist: CongestionHistory): HTMLElement | null {
  const samples = hist.samples();
  const last = samples[samples.length - 1];
  if (!last || !samples.some(s => s.forwardCe !== undefined || s.forwardCnp !== undefined || s.reverseCe !== undefined
    || s.reverseCnp !== undefined)) {
    return null;
  }
  const span = samples.length > 2 ? `over the last ${samples.length} polls, since ${formatClock(samples[0].at).slice(0, 8)}`
    : 'drawn from the third poll on';
  const rows = ROWS.filter(r => samples.some(s => s[r.ce] !== undefined || s[r.cnp] !== undefined));
  return h('section', { class: 'congestion-history', id: 'congestion-history', 'data-samples': samples.length },
    h('h3', null, 'CE marks and CNPs over time'),
    h('p', { class: 'muted small' }, `Counts as the path table has them (CE at the last hop, the most CNPs any switch saw); the lines `
      + `show what each poll added, ${span}. At most ${hist.capacity} polls are kept, while this view is open.`),
    h('div', { class: 'scroll-x' }, h('table', { class: 'grid' },
      h('thead', null, h('tr', null, h('th', null, 'Direction'), h('th', { class: 'num' }, 'CE-marked'), h('th', null, 'CE added per poll'),
        h('th', { class: 'num' }, 'CNPs'), h('th', null, 'CNPs added per poll'))),
      h('tbody', null, rows.map(r => {
        const ce = hist.increments(r.ce);
        const cnp = hist.increments(r.cnp);
        return h('tr', { 'data-row': r.ce.startsWith('forward') ? 'forward' : 'reverse' },
          h('th', { scope: 'row' }, r.label),
          h('td', { class: 'num' }, last[r.ce] === undefined ? '' : formatCount(last[r.ce]!)),
          h('td', null, sparkline(ce, 'ce', `CE-marked packets added per poll: ${ce.map(v => v ?? '–').join(', ') || 'none yet'}`)),
          h('td', { class: 'num' }, last[r.cnp] === undefined ? '' : formatCount(last[r.cnp]!)),
          h('td', null, sparkline(cnp, 'cnp', `CNPs added per poll: ${cnp.map(v => v ?? '–').join(', ') || 'none yet'}`)));
      })))));
}

/** A port view: #/port/NODE/TP. */
export class PortView implements View {
  readonly el: HTMLElement;
  readonly title: string;
  private readonly pauses = h('div', { id: 'port-pauses' });
  private readonly through = h('div', { id: 'through' });
  private readonly errorEl = h('p', { class: 'error', role: 'alert', hidden: true });
  private readonly poller: Poller;
  private readonly abort = new AbortController();
  private throughShown = false;

  constructor(private readonly app: AppContext, private readonly nodeId: string, private readonly tp: string) {
    this.title = `Port ${nodeId} ${tp}`;
    this.poller = new Poller(() => this.refresh(), { minMs: 5000, maxMs: 60000, costFactor: 10 });
    this.el = h('div', { class: 'view port' },
      h('section', { class: 'panel' },
        h('nav', { class: 'crumbs', 'aria-label': 'Breadcrumb' }, h('a', { href: '#/' }, 'Switches'), ' / ',
          h('a', { href: route('switch', nodeId) }, nodeId), ' / port'),
        h('h1', null, `${nodeId} ${tp}`),
        h('p', { class: 'muted' }, 'PFC frames entering this port come from the neighbour at its other end: they pause what '
          + `${nodeId} sends out of it, in their priority. The sessions a pause holds up are those whose data leaves through `
          + 'this port in that priority.'),
        this.errorEl,
        h('h2', null, 'Pauses per priority'), this.pauses,
        h('h2', null, 'Sessions through this port'),
        h('p', null, h('button', { type: 'button', class: 'btn', id: 'port-through', onclick: () => void this.showThrough() },
          'Ask the controller'), ' ', h('a', { href: route('paths'), class: 'small' }, 'traffic paths')),
        this.through));
  }

  start(): void {
    this.poller.start();
    void this.showThrough();
  }

  stop(): void {
    this.poller.stop();
    this.abort.abort();
  }

  private async refresh(): Promise<void> {
    try {
      const [pfc, paused] = await Promise.all([fetchPfc(this.app.api, this.nodeId),
        fetchPausedPorts(this.app.api, this.abort.signal)]);
      this.renderPauses(portPriorities(this.nodeId, this.tp, pfc, paused));
      this.errorEl.hidden = true;
      this.app.updated();
      this.el.dataset.ready = 'true';
    } catch (e) {
      if (this.abort.signal.aborted) {
        return;
      }
      this.app.handleError(e);
      this.errorEl.textContent = `Could not load the port's pauses: ${(e as Error).message}`;
      this.errorEl.hidden = false;
      throw e;
    }
  }

  private renderPauses(rows: readonly PortPriority[]): void {
    if (rows.length === 0) {
      replace(this.pauses, h('p', { class: 'muted', id: 'no-pauses' }, `No PFC frame entered ${this.nodeId} ${this.tp} since its `
        + 'agent started (or the agent does not count them).'));
      return;
    }
    replace(this.pauses, h('div', { class: 'scroll-x' }, h('table', { class: 'grid pfc', id: 'pfc' },
      h('thead', null, h('tr', null, h('th', null, 'Priority'), h('th', null, 'Paused'), h('th', { class: 'num' }, 'Share of the last interval'),
        h('th', { class: 'num' }, 'PFC frames'), h('th', { class: 'num' }, 'XON'), h('th', { class: 'num' }, 'Paused in all'),
        h('th', null, 'Last frame'), h('th', { class: 'num' }, 'Link Mb/s'), h('th', null, 'Sessions held up'))),
      h('tbody', null, rows.map(r => {
        const paused = r.paused?.paused ?? r.pfc?.paused;
        const share = r.paused?.pausedShare ?? r.pfc?.pausedShare;
        const held = r.paused;
        return h('tr', { class: paused || (share ?? 0) > 0 ? 'paused' : '', 'data-priority': r.priority },
          h('th', { scope: 'row' }, String(r.priority)),
          h('td', null, paused === undefined ? '' : paused ? badge('bad', 'paused now') : badge('ok', 'not now')),
          h('td', { class: 'num' }, formatShare(share)),
          h('td', { class: 'num' }, r.pfc?.frames === undefined ? '' : formatCount(r.pfc.frames)),
          h('td', { class: 'num' }, r.pfc?.xon === undefined ? '' : formatCount(r.pfc.xon)),
          h('td', { class: 'num' }, r.pfc?.pausedUs === undefined ? '' : `${(r.pfc.pausedUs / 1000).toFixed(1)} ms`),
          h('td', null, formatClock(r.pfc?.last)),
          h('td', { class: 'num' }, r.pfc?.linkSpeedMbps === undefined ? '' : formatCount(r.pfc.linkSpeedMbps)),
          h('td', { class: 'held-up' }, held === undefined ? h('span', { class: 'muted' }, 'not paused in the last interval')
            : [h('strong', null, formatCount(held.sessionCount ?? held.sessions.length)),
              held.sessions.length ? h('ul', { class: 'held-sessions' }, held.sessions.map(id => h('li', null,
                h('a', { href: route('switch', this.nodeId, 'session', id), class: 'mono' }, id), ' ',
                h('a', { href: route('paths', id), class: 'small' }, 'path')))) : null,
              (held.sessionCount ?? 0) > held.sessions.length
                ? h('div', { class: 'muted small' }, `the first ${held.sessions.length} listed`) : null]));
      })))));
  }

  private async showThrough(): Promise<void> {
    if (!this.throughShown) {
      replace(this.through, h('p', { class: 'muted' }, `Asking which sessions cross ${this.nodeId} ${this.tp}…`));
    }
    try {
      const paths = await sessionsThrough(this.app.api, this.nodeId, this.tp);
      this.throughShown = true;
      replace(this.through, portSessions(this.nodeId, this.tp, paths, p => this.app.navigate(route('paths', p.sessionId))));
    } catch (e) {
      this.app.handleError(e);
      replace(this.through, h('p', { class: 'error', role: 'alert' }, `Could not ask: ${(e as Error).message}`));
    }
  }
}
