/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */

// Traffic paths: the fabric drawn from network-topology (hosts, leaves, spines in rows), the chosen
// session's forward and reverse paths lit hop by hop, and the list of every session with its
// path. A click on a switch lists its ports; a click on a port or a link asks the controller
// which sessions cross it (sessions-through). Everything the canvas offers is also reachable by
// keyboard from the side panel.

import type { AppContext, View } from '../app';
import { CongestionHistory, pausedPortsOf, sampleOf } from '../congestion';
import { fetchPath, fetchPathList, fetchPathListQuick, fetchPausedPorts, fetchSwitchStates, sessionsThrough } from '../data';
import { badge, h, replace, route } from '../dom';
import { Fabric, type LinkRef } from '../fabric';
import { agentTone, agentWord, formatCount, sessionTone, sessionWord, type Tone } from '../format';
import { isHost } from '../layout';
import { dataDirections, naturalCompare, type Path, type PausedPort, type SwitchState, type Topology } from '../model';
import { Poller } from '../poller';
import { learnedText, PATH_TABLE } from '../session-table';
import { applyView, indexRows, warmUp, type IndexedTable, type SortDir, type TableDef } from '../table';
import { VirtualTable } from '../vtable';
import { historyBlock } from './congestion';
import { renderPath, routeLayers } from './pathpanel';

const PATH_WIDTHS: Record<string, string> = {
  state: '9.5rem', requesterIp: '8.5rem', responderIp: '8.5rem', qpns: '11rem', forward: 'minmax(12rem, 1fr)',
  reverse: 'minmax(12rem, 1fr)', complete: '10rem', learnedFrom: '7.5rem',
};

function pathTable(label: string, onOpen: (p: Path) => void, rowHeight = 28, onSort?: (key: string) => void): VirtualTable<Path> {
  const t = new VirtualTable<Path>({ label, rowHeight, onOpen, onSort, empty: 'No session.' });
  t.setColumns(PATH_TABLE.columns.map(c => ({
    ...c, width: PATH_WIDTHS[c.key],
    cell: c.key === 'state' ? (p: Path) => badge(sessionTone(p.state), sessionWord(p.state))
      : c.key === 'learnedFrom' ? (p: Path) => badge(p.learnedFrom === 'data' ? 'busy' : 'idle', c.text(p)) : c.text,
  })));
  return t;
}

/** The answer of sessions-through, as a list whose rows open the session on the fabric. */
export function portSessions(node: string, tp: string | undefined, paths: readonly Path[], open: (p: Path) => void): HTMLElement {
  const where = tp ? `${node} ${tp}` : node;
  const title = h('h3', { id: 'through-h' }, `${formatCount(paths.length)} session${paths.length === 1 ? '' : 's'} through ${where}`);
  if (paths.length === 0) {
    return h('div', { class: 'through', 'data-where': where }, title, h('p', { class: 'muted' }, 'None.'));
  }
  const t = pathTable(`Sessions through ${where}`, open, 26);
  const order = new Uint32Array(paths.length).map((_, i) => i);
  const box = h('div', { class: 'through', 'data-where': where }, title, t.el);
  t.setData(paths, order);
  return box;
}

export class PathsView implements View {
  readonly el: HTMLElement;
  readonly title = 'Traffic paths';
  private readonly fabricEl = h('div', { class: 'fabric', id: 'fabric', role: 'img',
    'aria-label': 'The fabric: hosts at the bottom, leaves above them, spines on top' });
  private readonly side = h('aside', { class: 'panel side', id: 'side', 'aria-live': 'polite' });
  private readonly search: HTMLInputElement;
  private readonly count = h('span', { id: 'path-count', role: 'status' });
  private readonly errorEl = h('p', { class: 'error', role: 'alert', hidden: true });
  private readonly list: VirtualTable<Path>;
  private readonly poller: Poller;
  private fabric: Fabric | undefined;
  private topology: Topology | undefined;
  private switches: SwitchState[] = [];
  private data: IndexedTable<Path> | undefined;
  private selected: string | undefined;
  private selectedPath: Path | undefined;
  /** The selected session's CE and CNP counts at each poll (bounded; starts over with another session). */
  private history: CongestionHistory | undefined;
  private paused: PausedPort[] = [];
  private sideMode: 'nodes' | 'session' | 'node' = 'nodes';
  private sideNode: string | undefined;
  private frame = 0;
  private sortKey: string | undefined;
  private sortDir: SortDir = 'asc';
  private unTheme: (() => void) | undefined;
  private readonly abort = new AbortController();

  constructor(private readonly app: AppContext, sessionId: string | undefined) {
    this.selected = sessionId;
    this.sideMode = sessionId ? 'session' : 'nodes';
    this.search = h('input', {
      type: 'search', id: 'path-search', class: 'search', spellcheck: 'false', autocomplete: 'off',
      placeholder: 'Search paths: IP, QPN, switch…  e.g. node:spine1 gap:yes asymmetric:yes state:est',
      'aria-label': 'Search the paths', oninput: () => this.schedule(),
    });
    this.list = pathTable('Every session with its path', p => this.app.navigate(route('paths', p.sessionId)), 28, k => {
      // arrival order until the operator asks for one: sorting 100,000 paths would delay the first paint
      this.sortDir = this.sortKey === k && this.sortDir === 'asc' ? 'desc' : 'asc';
      this.sortKey = k;
      this.list.setSort(this.sortKey, this.sortDir);
      this.apply();
    });
    this.poller = new Poller(() => this.refresh(), { minMs: 5000, maxMs: 300000, costFactor: 10 });
    this.el = h('div', { class: 'view paths' },
      h('h1', { class: 'sr-only' }, 'Traffic paths'),
      h('div', { class: 'paths-top' },
        h('section', { class: 'panel fabric-panel', 'aria-label': 'Fabric' }, this.fabricEl,
          h('p', { class: 'legend small' },
            h('span', { class: 'swatch forward', 'aria-hidden': 'true' }), ' forward ',
            h('span', { class: 'swatch reverse', 'aria-hidden': 'true' }), ' reverse · dashed: inferred · ',
            h('span', { class: 'tone-text-bad' }, 'red: gap'), ' · data arriving CE-marked: ',
            h('span', { class: 'ce-chip ce-1' }, 'some'), ' ', h('span', { class: 'ce-chip ce-2' }, '>1 %'), ' ',
            h('span', { class: 'ce-chip ce-3' }, '>5 %'), ' · click a switch or a link for the sessions through it')),
        this.side),
      h('section', { class: 'panel path-list', 'aria-labelledby': 'paths-h' },
        h('div', { class: 'controls' }, h('h2', { id: 'paths-h' }, 'Sessions and their paths'), this.search, this.count),
        this.errorEl, this.list.el));
  }

  start(): void {
    this.poller.start();
    this.unTheme = this.app.onTheme(() => this.fabric?.applyTheme());
  }

  stop(): void {
    this.poller.stop();
    this.abort.abort();
    this.unTheme?.();
    this.fabric?.destroy();
  }

  reroute(parts: readonly string[]): boolean {
    if (parts[0] !== 'paths') {
      return false;
    }
    const sessionId = parts.length > 1 ? parts.slice(1).join('/') : undefined;
    this.selected = sessionId;
    this.sideMode = sessionId ? 'session' : 'nodes';
    void this.loadSelected();
    return true;
  }

  private async loadSelected(): Promise<void> {
    const id = this.selected;
    try {
      const path = id ? await fetchPath(this.app.api, id) : undefined;
      if (id !== this.selected) {
        return; // another click came first
      }
      this.selectedPath = path;
      this.showSelection();
      this.renderSide();
    } catch (e) {
      this.app.handleError(e);
      this.errorEl.textContent = `Could not load the path: ${(e as Error).message}`;
      this.errorEl.hidden = false;
    }
  }

  private async refresh(): Promise<void> {
    try {
      const topology = await this.app.topology();
      if (!this.fabric) {
        this.topology = topology;
        this.drawFabric(topology, this.switches);
      }
      if (!this.data) {
        // the fabric and the sessions' identities first; hops when the full list arrives
        const [switches, quick, selected] = await Promise.all([
          fetchSwitchStates(this.app.api, topology),
          fetchPathListQuick(this.app.api, this.abort.signal),
          this.selected ? fetchPath(this.app.api, this.selected) : Promise.resolve(undefined),
        ]);
        if (!this.data) {
          this.topology = topology;
          this.switches = switches;
          this.drawFabric(topology, switches);
          this.data = indexRows(quick, PATH_TABLE as TableDef<Path>);
          this.apply();
          this.selectedPath = selected;
          this.showSelection();
          this.renderSide();
          this.el.dataset.ready = 'true';
        }
      }
      const [switches, paths, selected, paused] = await Promise.all([
        fetchSwitchStates(this.app.api, topology),
        fetchPathList(this.app.api, this.abort.signal),
        this.selected ? fetchPath(this.app.api, this.selected) : Promise.resolve(undefined),
        fetchPausedPorts(this.app.api, this.abort.signal),
      ]);
      this.paused = paused;
      this.record(selected);
      this.topology = topology;
      this.switches = switches;
      this.drawFabric(topology, switches);
      this.data = indexRows(paths, PATH_TABLE as TableDef<Path>);
      this.el.dataset.complete = 'true';
      this.apply();
      const table = this.data;
      requestIdleCallback(() => {
        if (table) {
          warmUp(table);
        }
      });
      this.selectedPath = selected;
      this.showSelection();
      this.renderSide();
      this.errorEl.hidden = true;
      this.app.updated();
      this.el.dataset.ready = 'true';
      this.el.dataset.complete = 'true';
    } catch (e) {
      if (this.abort.signal.aborted) {
        return;
      }
      this.app.handleError(e);
      this.errorEl.textContent = `Could not load the paths: ${(e as Error).message}`;
      this.errorEl.hidden = false;
      throw e;
    }
  }

  /** Adds the selected session's counts to its history (a new one when the selection changed). */
  private record(path: Path | undefined): void {
    if (!path || path.sessionId !== this.selected) {
      return;
    }
    if (this.history?.sessionId !== path.sessionId) {
      this.history = new CongestionHistory(path.sessionId);
    }
    const d = dataDirections(path);
    this.history.add(sampleOf(Date.now() / 1000, d.forward, d.reverse));
  }

  private drawFabric(topology: Topology, switches: readonly SwitchState[]): void {
    if (topology.nodes.length === 0) {
      replace(this.fabricEl, h('p', { class: 'muted empty' }, 'network-topology has no nodes yet: the fabric appears when a '
        + 'topology is written (the lab writes rst-lab).'));
      return;
    }
    if (!this.fabric) {
      this.fabricEl.replaceChildren();
      this.fabric = new Fabric(this.fabricEl, {
        onNode: id => this.pickNode(id),
        onLink: l => void this.pickLink(l),
      });
      (window as unknown as { rstFabric?: Fabric }).rstFabric = this.fabric;
    }
    this.fabric.setTopology(topology);
    const tones = new Map<string, Tone>();
    for (const s of switches) {
      tones.set(s.nodeId, s.config ? agentTone(s.config.enabled ? s.status?.state : 'DISABLED') : 'idle');
    }
    this.fabric.setSwitchTones(tones);
  }

  private showSelection(): void {
    if (!this.fabric || !this.topology) {
      return;
    }
    this.fabric.showRoutes(this.selectedPath ? routeLayers(this.selectedPath, this.topology) : []);
  }

  private schedule(): void {
    if (this.frame === 0) {
      this.frame = requestAnimationFrame(() => {
        this.frame = 0;
        this.apply();
      });
    }
  }

  private apply(): void {
    if (!this.data) {
      return;
    }
    const view = applyView(this.data, this.search.value, this.sortKey, this.sortDir);
    this.list.setData(this.data.rows, view.order, (a, b) => a.sessionId === b.sessionId);
    const total = this.data.rows.length;
    this.count.textContent = (view.order.length === total ? `${formatCount(total)} sessions`
      : `${formatCount(view.order.length)} of ${formatCount(total)} sessions`)
      + (this.el.dataset.complete ? '' : ' — loading the hops…');
  }

  private pickNode(id: string): void {
    this.sideMode = 'node';
    this.sideNode = id;
    this.fabric?.select([id]);
    this.renderSide();
  }

  private async pickLink(l: LinkRef): Promise<void> {
    this.fabric?.select([l.a, l.b]);
    // a link's sessions are those through either of its ends' ports; ask on a switch's side
    const hostA = this.topology ? isHost(this.topology, l.a) : false;
    const [node, tp] = hostA ? [l.b, l.bTp] : [l.a, l.aTp];
    await this.showThrough(node, tp, `link ${l.a} ${l.aTp ?? ''} — ${l.b} ${l.bTp ?? ''}`);
  }

  private async showThrough(node: string, tp: string | undefined, label?: string): Promise<void> {
    const slot = this.side.querySelector('#through') ?? this.side;
    replace(slot, h('p', { class: 'muted' }, `Asking which sessions cross ${label ?? (tp ? `${node} ${tp}` : node)}…`));
    try {
      const paths = await sessionsThrough(this.app.api, node, tp);
      const box = portSessions(node, tp, paths, p => this.app.navigate(route('paths', p.sessionId)));
      if (slot === this.side) {
        replace(this.side, h('h2', null, label ?? node), h('div', { id: 'through' }, box), this.backToNodes());
      } else {
        replace(slot, box);
      }
    } catch (e) {
      this.app.handleError(e);
      replace(slot, h('p', { class: 'error', role: 'alert' }, `Could not ask: ${(e as Error).message}`));
    }
  }

  private backToNodes(): HTMLElement {
    return h('p', null, h('button', {
      type: 'button', class: 'link', onclick: () => {
        this.sideMode = 'nodes';
        this.fabric?.select([]);
        this.renderSide();
      },
    }, '← all switches'));
  }

  private renderSide(): void {
    switch (this.sideMode) {
      case 'session':
        this.renderSessionSide();
        return;
      case 'node':
        this.renderNodeSide();
        return;
      case 'nodes':
        this.renderNodesSide();
        return;
    }
  }

  private renderSessionSide(): void {
    const p = this.selectedPath;
    if (!p) {
      replace(this.side, h('h2', null, 'Session'), h('p', { class: 'muted' }, `No path for ${this.selected ?? '?'} (yet).`),
        this.backToNodes());
      return;
    }
    // a switch that saw the session, for the link to its flow table
    const seenBy = [...p.forward.hops, ...p.reverse.hops].find(x => x.observed)?.nodeId;
    replace(this.side,
      h('h2', null, `${p.requesterIp ?? '?'} → ${p.responderIp ?? '?'}`),
      h('p', null, badge(sessionTone(p.state), sessionWord(p.state)), ' ', badge(p.learnedFrom === 'data' ? 'busy' : 'idle',
        learnedText(p)), ' QPNs ', `${p.requesterQpn ?? (p.oneWay ? 'unknown' : '?')} ↔ ${p.responderQpn ?? '?'} `,
        seenBy ? h('a', { href: route('switch', seenBy, 'session', p.sessionId), id: 'open-session' }, 'timeline') : null),
      this.history?.sessionId === p.sessionId ? historyBlock(this.history) : null,
      renderPath(p, (n, tp) => void this.showThrough(n, tp)),
      h('div', { id: 'through' }),
      this.backToNodes());
  }

  private renderNodeSide(): void {
    const id = this.sideNode;
    const n = this.topology?.nodes.find(x => x.id === id);
    if (!id || !n) {
      this.renderNodesSide();
      return;
    }
    const sw = this.switches.find(s => s.nodeId === id);
    const host = this.topology ? isHost(this.topology, id) : false;
    const pausedHere = pausedPortsOf(id, this.paused);
    replace(this.side,
      h('h2', null, id),
      host ? h('p', null, 'host ', n.ips.join(', '))
        : h('p', null, badge(sw?.config ? agentTone(sw.config.enabled ? sw.status?.state : 'DISABLED') : 'idle',
          sw?.config ? (sw.config.enabled ? agentWord(sw.status?.state, true) : 'RFT off') : 'not configured'), ' ',
        h('a', { href: route('switch', id) }, 'flow table')),
      host ? null : h('p', null, h('button', { type: 'button', class: 'btn', onclick: () => void this.showThrough(id, undefined) },
        `Sessions through ${id}`)),
      h('h3', null, 'Ports'),
      host ? null : h('p', { class: 'muted small' }, 'A port: the sessions through it; "pauses": its PFC pauses per priority'
        + ' and the sessions they hold up.'),
      h('ul', { class: 'ports', id: 'ports' }, n.tps.map(tp => h('li', null, host ? tp : [h('button', {
        type: 'button', class: 'link port', 'data-node': id, 'data-tp': tp, onclick: () => void this.showThrough(id, tp),
      }, tp), ' ', h('a', { href: route('port', id, tp), class: 'small port-view', 'data-tp': tp }, 'pauses'),
      pausedHere.has(tp) ? [' ', badge('bad', `paused: priority ${pausedHere.get(tp)!.join(', ')}`, { 'data-paused': tp })] : null]))),
      h('div', { id: 'through' }),
      this.backToNodes());
  }

  private renderNodesSide(): void {
    const topo = this.topology;
    if (!topo) {
      return;
    }
    const switches = topo.nodes.filter(n => !isHost(topo, n.id)).map(n => n.id).sort(naturalCompare);
    replace(this.side,
      h('h2', null, 'Switches'),
      h('p', { class: 'muted small' }, 'Pick a session below to light its path, or a switch for its ports.'),
      h('ul', { class: 'nodes', id: 'node-list' }, switches.map(id => h('li', null,
        h('button', { type: 'button', class: 'link node', 'data-node': id, onclick: () => this.pickNode(id) }, id)))));
  }
}
