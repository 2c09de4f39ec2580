/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */

// Home: every switch of the fabric with its agent's state (colour and word, and why), its
// session counts by state, and its RFT toggle; stat panels and the problems at a glance above.
// Polled with a request that carries one leaf per session (fields=), paced by what it costs.

import type { AppContext, View } from '../app';
import { fetchOverview, fetchSwitchStates, setAgentAddress, setEnabled, type Overview } from '../data';
import { badge, h, replace, route, toggle } from '../dom';
import { agentTone, agentWord, formatAgo, formatClock, formatCount } from '../format';
import type { SessionState, SwitchState } from '../model';
import { Poller } from '../poller';
import type { ProblemReport } from '../problem-source';
import { problemLine } from './problems';

const COUNT_COLUMNS: readonly { label: string; states: readonly SessionState[]; tone: string }[] = [
  { label: 'Established', states: ['ESTABLISHED'], tone: 'ok' },
  { label: 'Setting up', states: ['REQ_SENT', 'REP_SENT'], tone: 'busy' },
  { label: 'Rejected', states: ['REJECTED'], tone: 'bad' },
  { label: 'Timed out', states: ['TIMED_OUT'], tone: 'bad' },
  { label: 'Closing', states: ['DISCONNECTING'], tone: 'warn' },
  { label: 'Closed', states: ['CLOSED'], tone: 'idle' },
  // learnt from sampled data packets (no CM): sending, or quiet for the agent's idle time
  { label: 'Data-learned', states: ['ACTIVE', 'IDLE'], tone: 'idle' },
];

export class HomeView implements View {
  readonly el: HTMLElement;
  readonly title = 'Switches';
  readonly wantsProblems = true;
  private readonly stats = h('section', { class: 'stats', 'aria-label': 'Summary' });
  private readonly problemsEl = h('section', { class: 'panel glance', 'aria-labelledby': 'glance-h' });
  private readonly tableBody = h('tbody');
  private readonly errorEl = h('p', { class: 'error', role: 'alert', hidden: true });
  private readonly poller: Poller;
  private overview: Overview | undefined;
  /** Writes in flight, by switch: the toggle shows the wanted state until the poll confirms it. */
  private readonly pending = new Map<string, boolean>();
  private readonly addressDrafts = new Map<string, string>();
  private unsubscribe: (() => void) | undefined;

  constructor(private readonly app: AppContext) {
    this.poller = new Poller(() => this.refresh(), { minMs: 3000, maxMs: 60000, costFactor: 10 });
    this.el = h('div', { class: 'view home' },
      h('h1', { class: 'sr-only' }, 'Switches'),
      this.stats,
      this.problemsEl,
      h('section', { class: 'panel', 'aria-labelledby': 'switches-h' },
        h('h2', { id: 'switches-h' }, 'Switches and their RFT'),
        this.errorEl,
        h('div', { class: 'scroll-x' },
          h('table', { class: 'grid switches', id: 'switches' },
            h('thead', null, h('tr', null,
              h('th', { scope: 'col' }, 'Switch'),
              h('th', { scope: 'col' }, 'RFT'),
              h('th', { scope: 'col' }, 'Agent, and why'),
              h('th', { scope: 'col', class: 'num' }, 'Sessions'),
              COUNT_COLUMNS.map(c => h('th', { scope: 'col', class: 'num' }, c.label)),
              h('th', { scope: 'col' }, 'Last contact'),
              h('th', { scope: 'col', class: 'num' }, 'Events'),
              h('th', { scope: 'col' }, 'Agent address'))),
            this.tableBody))));
    this.renderProblems(app.problems());
  }

  start(): void {
    this.unsubscribe = this.app.onProblems(r => this.renderProblems(r));
    this.poller.start();
  }

  stop(): void {
    this.poller.stop();
    this.unsubscribe?.();
  }

  private async refresh(): Promise<void> {
    try {
      const topology = await this.app.topology();
      if (!this.overview) {
        // the first paint: every switch and its agent's state (a small answer), then the session
        // counts by state, which need the state of every session (100,000 of them: seconds)
        const switches = await fetchSwitchStates(this.app.api, topology);
        if (!this.overview) {
          this.overview = { switches, topology, at: Date.now() / 1000, countsPending: true };
          this.render();
        }
      }
      this.overview = await fetchOverview(this.app.api, topology);
      this.errorEl.hidden = true;
      this.app.updated();
      this.render();
    } catch (e) {
      this.app.handleError(e);
      this.errorEl.textContent = `Could not refresh: ${(e as Error).message}`;
      this.errorEl.hidden = false;
      throw e;
    }
  }

  private render(): void {
    const o = this.overview;
    if (!o) {
      return;
    }
    for (const [id, wanted] of this.pending) {
      const sw = o.switches.find(s => s.nodeId === id);
      const enabled = sw?.config?.enabled ?? false;
      if (enabled === wanted) {
        this.pending.delete(id);
      }
    }
    this.renderStats(o);
    const now = Date.now() / 1000;
    if (o.switches.length === 0) {
      replace(this.tableBody, h('tr', null, h('td', { colspan: 13, class: 'empty' },
        'No switch yet: add one to rdma-flow-table:rft, or write the fabric into network-topology.')));
      return;
    }
    // a refresh must not take the keyboard focus (or a half-typed address) away from the operator
    const active = document.activeElement as HTMLElement | null;
    const activeRow = active?.closest('tr')?.getAttribute('data-switch');
    const activeKind = active?.classList.contains('address') ? 'input.address'
      : active?.classList.contains('toggle') ? 'button.toggle' : active?.classList.contains('switch-link') ? 'a.switch-link' : undefined;
    const selection = active instanceof HTMLInputElement ? [active.selectionStart, active.selectionEnd] : undefined;
    replace(this.tableBody, o.switches.map(sw => this.row(sw, now)));
    if (activeRow && activeKind && this.tableBody.contains(active) === false) {
      const again = this.tableBody.querySelector<HTMLElement>(`tr[data-switch="${CSS.escape(activeRow)}"] ${activeKind}`);
      again?.focus();
      if (again instanceof HTMLInputElement && selection) {
        again.setSelectionRange(selection[0], selection[1]);
      }
    }
  }

  private renderStats(o: Overview): void {
    const configured = o.switches.filter(s => s.config);
    const capturing = o.switches.filter(s => s.status?.state === 'CAPTURING').length;
    const total = o.switches.reduce((n, s) => n + s.sessionCount, 0);
    const sum = (states: readonly SessionState[]) =>
      o.switches.reduce((n, s) => n + states.reduce((m, st) => m + (s.counts[st] ?? 0), 0), 0);
    const bad = o.switches.filter(s => s.config?.enabled && (s.status?.state === 'UNREACHABLE'
      || s.status?.state === 'UNAUTHORIZED')).length;
    const stat = (label: string, value: string, tone: string, id: string) =>
      h('div', { class: `stat tone-${tone}`, id }, h('div', { class: 'stat-value' }, value), h('div', { class: 'stat-label' }, label));
    replace(this.stats,
      stat('switches capturing', `${capturing} / ${configured.length}`, capturing === configured.length && capturing > 0 ? 'ok' : 'warn',
        'stat-capturing'),
      stat('agents unreachable', String(bad), bad ? 'bad' : 'ok', 'stat-unreachable'),
      stat('session sightings', o.countsPending ? '…' : formatCount(total), 'idle', 'stat-sessions'),
      stat('established', o.countsPending ? '…' : formatCount(sum(['ESTABLISHED'])), 'ok', 'stat-established'),
      stat('rejected', o.countsPending ? '…' : formatCount(sum(['REJECTED'])),
        sum(['REJECTED']) ? 'bad' : 'ok', 'stat-rejected'),
      stat('timed out', o.countsPending ? '…' : formatCount(sum(['TIMED_OUT'])),
        sum(['TIMED_OUT']) ? 'bad' : 'ok', 'stat-timed-out'));
  }

  private row(sw: SwitchState, now: number): HTMLTableRowElement {
    const countsPending = this.overview?.countsPending === true;
    const configured = sw.config !== undefined;
    const enabled = this.pending.get(sw.nodeId) ?? sw.config?.enabled ?? false;
    const busy = this.pending.has(sw.nodeId);
    const state = configured ? sw.status?.state : undefined;
    const word = busy ? (enabled ? 'turning on…' : 'turning off…') : agentWord(state, configured);
    const tone = busy ? 'busy' : configured ? agentTone(state) : 'idle';
    const address = h('input', {
      class: 'address', type: 'text', value: this.addressDrafts.get(sw.nodeId) ?? sw.config?.agentAddress ?? '',
      placeholder: configured ? 'agent address' : 'agent address (optional)',
      'aria-label': `Agent address of ${sw.nodeId}`, spellcheck: 'false',
      oninput: (e: Event) => this.addressDrafts.set(sw.nodeId, (e.target as HTMLInputElement).value),
      onkeydown: (e: Event) => {
        if ((e as KeyboardEvent).key === 'Enter' && configured) {
          void this.saveAddress(sw.nodeId, (e.target as HTMLInputElement).value.trim());
        }
      },
      onchange: (e: Event) => {
        if (configured) {
          void this.saveAddress(sw.nodeId, (e.target as HTMLInputElement).value.trim());
        }
      },
    });
    return h('tr', { 'data-switch': sw.nodeId, class: configured ? '' : 'unconfigured' },
      h('th', { scope: 'row' }, h('a', { href: route('switch', sw.nodeId), class: 'switch-link' }, sw.nodeId)),
      h('td', null, toggle(`RFT on ${sw.nodeId}`, enabled, next => void this.toggle(sw, next), { disabled: busy })),
      h('td', { class: 'agent-state' }, badge(tone, word),
        configured && sw.status?.detail && sw.status.detail !== word
          ? h('div', { class: 'why muted small' }, sw.status.detail) : null,
        configured ? null : h('div', { class: 'why muted small' }, 'in network-topology only')),
      h('td', { class: 'num sessions' }, countsPending ? '…' : formatCount(sw.sessionCount)),
      COUNT_COLUMNS.map(c => {
        const n = c.states.reduce((m, st) => m + (sw.counts[st] ?? 0), 0);
        return h('td', { class: `num ${n && (c.tone === 'bad' || c.tone === 'warn') ? 'tone-text-' + c.tone : ''}` },
          countsPending ? '…' : formatCount(n));
      }),
      h('td', { title: formatClock(sw.status?.lastContact) }, configured && sw.status?.lastContact !== undefined
        ? formatAgo(sw.status.lastContact, now) : ''),
      h('td', { class: 'num', title: 'sequence number of the last agent event applied' },
        sw.status?.lastEventSeq !== undefined ? formatCount(sw.status.lastEventSeq) : ''),
      h('td', null, address));
  }

  private async toggle(sw: SwitchState, next: boolean): Promise<void> {
    this.pending.set(sw.nodeId, next);
    this.render();
    try {
      const draft = this.addressDrafts.get(sw.nodeId)?.trim();
      await setEnabled(this.app.api, sw.nodeId, next, sw.config !== undefined, draft || undefined);
      this.addressDrafts.delete(sw.nodeId);
      this.poller.kick();
      this.app.refreshProblems();
    } catch (e) {
      this.pending.delete(sw.nodeId);
      this.app.handleError(e);
      this.errorEl.textContent = `Could not turn RFT ${next ? 'on' : 'off'} on ${sw.nodeId}: ${(e as Error).message}`;
      this.errorEl.hidden = false;
      this.render();
    }
  }

  private async saveAddress(nodeId: string, address: string): Promise<void> {
    if (!address) {
      return;
    }
    try {
      await setAgentAddress(this.app.api, nodeId, address);
      this.addressDrafts.delete(nodeId);
      this.poller.kick();
    } catch (e) {
      this.app.handleError(e);
      this.errorEl.textContent = `Could not set the agent address of ${nodeId}: ${(e as Error).message}`;
      this.errorEl.hidden = false;
    }
  }

  private renderProblems(r: ProblemReport | undefined): void {
    const head = h('h2', { id: 'glance-h' }, 'Problems at a glance');
    if (!r) {
      replace(this.problemsEl, head, h('p', { class: 'muted' }, 'Looking for problems…'));
      return;
    }
    const shown = r.problems.slice(0, 6);
    replace(this.problemsEl, head,
      shown.length === 0
        ? h('p', { class: 'tone-text-ok', id: 'no-problems' }, 'No problem seen.')
        : h('ul', { class: 'problem-lines', id: 'glance' }, shown.map(p => h('li', null, problemLine(p)))),
      h('p', { class: 'muted small' },
        `${r.problems.length} problem group${r.problems.length === 1 ? '' : 's'} as of ${formatClock(r.at).slice(0, 8)}`,
        r.available ? '' : ' (the controller reports none: rst-insight:problems is absent)',
        ' · ', h('a', { href: '#/problems' }, 'all problems')));
  }
}
