/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */

// One switch's RDMA flow table: fetched whole once (only the shown columns, fields=), then
// searched, filtered and sorted in the page, in a virtual table. It refreshes itself at a pace
// set by what the last fetch cost, keeping the filter, the sort and the selected row.

import type { AppContext, View } from '../app';
import { fetchFlowTable, fetchFlowTableQuick, fetchSwitch, lastTable, setEnabled } from '../data';
import { badge, h, replace, route, toggle } from '../dom';
import { agentTone, agentWord, formatClock, formatCount, sessionTone, sessionWord } from '../format';
import { naturalCompare, SESSION_STATES, type AgentStatus, type Session, type SwitchConfig } from '../model';
import { Poller } from '../poller';
import { sessionTableDef } from '../session-table';
import { applyView, indexRows, warmUp, type IndexedTable, type SortDir } from '../table';
import { VirtualTable, type VTableColumn } from '../vtable';

const WIDTHS: Record<string, string> = {
  state: '9.5rem', requesterIp: 'minmax(8rem, 1fr)', responderIp: 'minmax(8rem, 1fr)', requesterQpn: '9rem',
  responderQpn: '9rem', requesterCommId: '7.5rem', responderCommId: '7.5rem', ports: '6rem', serviceId: '11.5rem',
  firstSeen: '12.5rem', lastSeen: '12.5rem', requesterUdpSrcPort: '7rem', responderUdpSrcPort: '7rem',
  learnedFrom: '7.5rem', dataKind: '14rem',
};

/** The origin control's choices: any, learnt from CM, from data, and data flows seen one way only. */
const ORIGINS: readonly { value: string; label: string; test: (s: Session) => boolean }[] = [
  { value: 'cm', label: 'learnt from CM', test: s => s.learnedFrom !== 'data' },
  { value: 'data', label: 'learnt from data', test: s => s.learnedFrom === 'data' },
  { value: 'one-way', label: 'one-way flows', test: s => s.learnedFrom === 'data' && s.oneWay === true },
];

export class FlowTableView implements View {
  readonly el: HTMLElement;
  readonly title: string;
  private readonly search: HTMLInputElement;
  private readonly stateSelect: HTMLSelectElement;
  private readonly portSelect: HTMLSelectElement;
  private readonly originSelect: HTMLSelectElement;
  private readonly count = h('span', { id: 'flow-count', role: 'status', 'aria-live': 'polite' });
  private readonly timing = h('span', { class: 'muted small', id: 'flow-timing' });
  private readonly head = h('div', { class: 'switch-head' });
  private readonly errorEl = h('p', { class: 'error', role: 'alert', hidden: true });
  private readonly table: VirtualTable<Session>;
  private readonly poller: Poller;
  private data: IndexedTable<Session> | undefined;
  private sortKey = 'lastSeen';
  private sortDir: SortDir = 'desc';
  private frame = 0;
  private abort = new AbortController();
  private sw: { config?: SwitchConfig; status?: AgentStatus } | undefined;
  private pendingToggle: boolean | undefined;
  private fetchedAt = 0;
  /** False while the rows come from the quick first request (identities and states only). */
  private complete = false;

  constructor(private readonly app: AppContext, private readonly nodeId: string) {
    this.title = `${nodeId} flow table`;
    this.search = h('input', {
      type: 'search', id: 'flow-search', class: 'search', spellcheck: 'false', autocomplete: 'off',
      placeholder: 'Search: IP, QPN, comm ID, state, port…  e.g. state:rej port:swp1 qpn:0x1a2b learned:data',
      'aria-label': 'Search the flow table', oninput: () => this.schedule(),
    });
    this.stateSelect = h('select', { id: 'flow-state', 'aria-label': 'State', onchange: () => this.schedule() },
      h('option', { value: '' }, 'any state'), SESSION_STATES.map(s => h('option', { value: s }, sessionWord(s))));
    this.portSelect = h('select', { id: 'flow-port', 'aria-label': 'Port', onchange: () => this.schedule() },
      h('option', { value: '' }, 'any port'));
    this.originSelect = h('select', { id: 'flow-origin', 'aria-label': 'Learnt from', onchange: () => this.schedule() },
      h('option', { value: '' }, 'CM and data'), ORIGINS.map(o => h('option', { value: o.value }, o.label)));
    this.table = new VirtualTable<Session>({
      label: `Sessions of ${nodeId}`,
      rowHeight: 30,
      onOpen: s => this.app.navigate(route('switch', nodeId, 'session', s.sessionId)),
      onSort: k => {
        this.sortDir = this.sortKey === k && this.sortDir === 'asc' ? 'desc' : 'asc';
        this.sortKey = k;
        this.table.setSort(this.sortKey, this.sortDir);
        this.apply();
      },
      rowClass: s => `state-${s.state ?? 'unknown'}`,
      empty: 'No session matches.',
    });
    this.table.setSort(this.sortKey, this.sortDir);
    this.poller = new Poller(() => this.refresh(), { minMs: 5000, maxMs: 300000, costFactor: 10 });
    this.el = h('div', { class: 'view flows' },
      h('section', { class: 'panel flows-panel' },
        h('nav', { class: 'crumbs', 'aria-label': 'Breadcrumb' }, h('a', { href: '#/' }, 'Switches'), ' / ', nodeId),
        h('h1', null, `${nodeId} — RDMA flow table`),
        this.head,
        this.errorEl,
        h('div', { class: 'controls' }, this.search, this.stateSelect, this.portSelect, this.originSelect, this.count,
          this.timing),
        this.table.el));
  }

  start(): void {
    const cached = lastTable.value?.nodeId === this.nodeId ? lastTable.value : undefined;
    if (cached) {
      this.search.value = cached.query;
      this.sortKey = cached.sortKey;
      this.sortDir = cached.sortDir;
      this.table.setSort(this.sortKey, this.sortDir);
      this.show(cached.rows, true);
      this.fetchedAt = cached.at;
      this.stateSelect.value = cached.state;
      this.originSelect.value = cached.origin ?? '';
      this.portSelect.value = cached.port;
      this.apply();
    }
    // an empty table costs nothing to fetch again; a big one was fetched moments ago
    const age = cached && cached.rows.length > 0 ? Date.now() - cached.at : Infinity;
    this.poller.start(age < 10000 ? 10000 - age : 0);
    this.search.focus();
  }

  stop(): void {
    this.poller.stop();
    this.abort.abort();
    if (this.data) {
      lastTable.value = {
        nodeId: this.nodeId, rows: this.data.rows, at: this.fetchedAt,
        query: this.search.value, state: this.stateSelect.value, port: this.portSelect.value,
        origin: this.originSelect.value, sortKey: this.sortKey,
        sortDir: this.sortDir,
      };
    }
  }

  private show(rows: readonly Session[], complete: boolean): void {
    this.complete = complete;
    if (complete) {
      this.el.dataset.complete = 'true';
    }
    const def = sessionTableDef(rows);
    this.table.setColumns(def.columns.map(c => ({ ...c, width: WIDTHS[c.key], cell: this.cell(c.key, c.text) })));
    this.data = indexRows(rows, def);
    this.fillPorts(rows);
  }

  private async refresh(): Promise<void> {
    try {
      if (!this.data) {
        // a big table: paint identities and states first (see FLOW_TABLE_QUICK_FIELDS)
        const [quick, sw] = await Promise.all([
          fetchFlowTableQuick(this.app.api, this.nodeId, this.abort.signal),
          fetchSwitch(this.app.api, this.nodeId),
        ]);
        if (!this.data) {
          this.sw = sw;
          this.renderHead();
          this.show(quick, false);
          this.apply();
        }
      }
      const t0 = performance.now();
      const [rows, sw] = await Promise.all([
        fetchFlowTable(this.app.api, this.nodeId, this.abort.signal),
        fetchSwitch(this.app.api, this.nodeId),
      ]);
      const fetched = performance.now() - t0;
      this.sw = sw;
      if (this.pendingToggle !== undefined && this.sw?.config?.enabled === this.pendingToggle) {
        this.pendingToggle = undefined;
      }
      this.renderHead();
      this.show(rows, true);
      this.fetchedAt = Date.now();
      const table = this.data;
      requestIdleCallback(() => {
        if (table) {
          warmUp(table);
        }
      });
      this.errorEl.hidden = true;
      this.app.updated();
      this.apply();
      this.timing.dataset.fetchMs = fetched.toFixed(0);
    } catch (e) {
      if (this.abort.signal.aborted) {
        return;
      }
      this.app.handleError(e);
      this.errorEl.textContent = `Could not load the flow table: ${(e as Error).message}`;
      this.errorEl.hidden = false;
      throw e;
    }
  }

  private cell(key: string, text: (s: Session) => string): VTableColumn<Session>['cell'] {
    if (key === 'state') {
      return s => badge(sessionTone(s.state), sessionWord(s.state));
    }
    if (key === 'learnedFrom') {
      // a data-learned session's roles are unknown; a one-way flow's peer QP too
      return s => badge(s.learnedFrom === 'data' ? 'busy' : 'idle', text(s));
    }
    return text;
  }

  private renderHead(): void {
    const sw = this.sw;
    const configured = sw?.config !== undefined;
    const enabled = this.pendingToggle ?? sw?.config?.enabled ?? false;
    replace(this.head,
      badge(this.pendingToggle !== undefined ? 'busy' : configured ? agentTone(sw?.status?.state) : 'idle',
        this.pendingToggle !== undefined ? (enabled ? 'turning on…' : 'turning off…') : agentWord(sw?.status?.state, configured)),
      sw?.status?.detail ? h('span', { class: 'muted' }, sw.status.detail) : null,
      h('span', { class: 'grow' }),
      h('span', null, 'RFT '),
      toggle(`RFT on ${this.nodeId}`, enabled, next => void this.toggle(next), { disabled: this.pendingToggle !== undefined }),
      h('span', { class: 'muted small' }, sw?.status?.lastContact ? `last contact ${formatClock(sw.status.lastContact)}` : ''));
  }

  private async toggle(next: boolean): Promise<void> {
    this.pendingToggle = next;
    this.renderHead();
    try {
      await setEnabled(this.app.api, this.nodeId, next, this.sw?.config !== undefined);
      this.poller.kick();
    } catch (e) {
      this.pendingToggle = undefined;
      this.app.handleError(e);
      this.errorEl.textContent = `Could not turn RFT ${next ? 'on' : 'off'}: ${(e as Error).message}`;
      this.errorEl.hidden = false;
      this.renderHead();
    }
  }

  private fillPorts(rows: readonly Session[]): void {
    const ports = new Set<string>();
    for (const r of rows) {
      for (const p of r.ports) {
        ports.add(p);
      }
    }
    const current = this.portSelect.value;
    replace(this.portSelect, h('option', { value: '' }, 'any port'),
      [...ports].sort(naturalCompare).map(p => h('option', { value: p, selected: p === current }, p)));
  }

  private schedule(): void {
    if (this.frame === 0) {
      this.frame = requestAnimationFrame(() => {
        this.frame = 0;
        this.apply();
      });
    }
  }

  /** Filter, sort and show; the time it took is shown, and kept for the benchmark. */
  private apply(): void {
    const data = this.data;
    if (!data) {
      return;
    }
    const t0 = performance.now();
    const state = this.stateSelect.value;
    const port = this.portSelect.value;
    const origin = ORIGINS.find(o => o.value === this.originSelect.value);
    const extra = state || port || origin
      ? (s: Session) => (!state || s.state === state) && (!port || s.ports.includes(port)) && (!origin || origin.test(s))
      : undefined;
    const view = applyView(data, this.search.value, this.sortKey, this.sortDir, extra);
    this.table.setData(data.rows, view.order, (a, b) => a.sessionId === b.sessionId);
    const ms = performance.now() - t0;
    const total = data.rows.length;
    replace(this.count, view.order.length === total ? `${formatCount(total)} sessions`
      : `${formatCount(view.order.length)} of ${formatCount(total)} sessions`,
      this.complete ? null : h('span', { class: 'muted', id: 'flow-loading' }, ' — loading QPNs, ports and times…'),
      view.unknownFields.length ? h('span', { class: 'tone-text-warn' },
        ` (no field ${view.unknownFields.join(', ')}: try ip, src, dst, qpn, cid, state, port, service, sport, id, learned,`
          + ' oneway, transport, paired)') : null);
    this.timing.textContent = `filtered and sorted in ${ms.toFixed(0)} ms`;
    this.timing.dataset.filterMs = ms.toFixed(1);
    this.el.dataset.ready = 'true';
  }
}
