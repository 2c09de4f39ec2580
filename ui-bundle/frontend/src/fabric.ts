/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */

// The fabric drawn with Cytoscape.js at fixed positions (layout.ts), ONOS-style: switches and
// hosts in rows, one line per physical link with its port names at the ends, and a session's path
// laid over it, one arrowed line per hop and direction (forward blue, reverse orange; solid where
// the switch saw the traffic, dashed where inferred, red where a switch on the way saw nothing).

import cytoscape from 'cytoscape';
import type { Tone } from './format';
import { layoutFabric } from './layout';
import type { Topology } from './model';
import type { Route } from './pathgeo';

export interface LinkRef {
  readonly a: string;
  readonly aTp?: string;
  readonly b: string;
  readonly bTp?: string;
}

export interface FabricHandlers {
  readonly onNode?: (id: string) => void;
  readonly onLink?: (link: LinkRef) => void;
}

export interface RouteLayer {
  readonly route: Route;
  readonly direction: 'forward' | 'reverse';
  readonly traffic: 'cm' | 'data';
  /**
   * Extra classes per segment, in the route's order: the data's congestion grade entering the
   * segment's hop ('ect', 'ce-1'..'ce-3') and 'marked' where marking starts (congestion.ts).
   */
  readonly classes?: readonly string[];
}

function cssVar(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || '#888';
}

function linkKey(a: string, aTp: string | undefined, b: string, bTp: string | undefined): LinkRef {
  const x = `${a}|${aTp ?? ''}`;
  const y = `${b}|${bTp ?? ''}`;
  return x <= y ? { a, aTp, b, bTp } : { a: b, aTp: bTp, b: a, bTp: aTp };
}

export class Fabric {
  private readonly cy: cytoscape.Core;
  private signature = '';
  private readonly resizer: ResizeObserver;

  constructor(container: HTMLElement, private readonly handlers: FabricHandlers = {}) {
    this.cy = cytoscape({
      container,
      elements: [],
      style: this.style(),
      layout: { name: 'preset' },
      minZoom: 0.2,
      maxZoom: 3,
      wheelSensitivity: 0.3,
      boxSelectionEnabled: false,
      autoungrabify: true,
    });
    // a window resized (or a large screen) gets the whole fabric again, filling the space
    let width = 0;
    let height = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    this.resizer = new ResizeObserver(entries => {
      const r = entries[0].contentRect;
      if (Math.abs(r.width - width) < 8 && Math.abs(r.height - height) < 8) {
        return;
      }
      width = r.width;
      height = r.height;
      clearTimeout(timer);
      timer = setTimeout(() => this.fit(), 150);
    });
    this.resizer.observe(container);
    this.cy.on('tap', 'node', e => this.handlers.onNode?.(e.target.id()));
    this.cy.on('tap', 'edge.link', e => {
      const d = e.target.data();
      this.handlers.onLink?.({ a: d.source, aTp: d.srcTp, b: d.target, bTp: d.dstTp });
    });
  }

  /** Redraws only when nodes or links changed, so a refresh does not move the view. */
  setTopology(topo: Topology): void {
    const sig = JSON.stringify([topo.nodes.map(n => [n.id, n.kind]), topo.links.map(l => [l.srcNode, l.srcTp, l.dstNode, l.dstTp])]);
    if (sig === this.signature) {
      return;
    }
    this.signature = sig;
    const layout = layoutFabric(topo);
    const elements: cytoscape.ElementDefinition[] = [];
    for (const p of layout.nodes) {
      elements.push({ group: 'nodes', data: { id: p.id, label: p.id }, position: { x: p.x, y: p.y }, classes: p.tier });
    }
    const seen = new Set<string>();
    for (const l of topo.links) {
      const k = linkKey(l.srcNode, l.srcTp, l.dstNode, l.dstTp);
      const id = `L|${k.a}|${k.aTp ?? ''}|${k.b}|${k.bTp ?? ''}`;
      if (seen.has(id) || k.a === k.b) {
        continue;
      }
      seen.add(id);
      elements.push({
        group: 'edges', classes: 'link',
        data: { id, source: k.a, target: k.b, srcTp: k.aTp, dstTp: k.bTp, srcLabel: k.aTp ?? '', dstLabel: k.bTp ?? '' },
      });
    }
    this.cy.batch(() => {
      this.cy.elements().remove();
      this.cy.add(elements);
    });
    this.fit();
  }

  fit(): void {
    this.cy.resize();
    this.cy.fit(undefined, 24);
  }

  get nodeCount(): number {
    return this.cy.nodes().length;
  }

  /** Colours switches by their agent's state (tone), and marks switches whose RFT is off. */
  setSwitchTones(tones: ReadonlyMap<string, Tone>): void {
    this.cy.batch(() => {
      this.cy.nodes().forEach(n => {
        const t = tones.get(n.id());
        n.removeClass('tone-ok tone-warn tone-bad tone-idle tone-busy');
        if (t) {
          n.addClass(`tone-${t}`);
        }
      });
    });
  }

  showRoutes(layers: readonly RouteLayer[]): void {
    this.cy.batch(() => {
      this.cy.remove('edge.route');
      this.cy.nodes().removeClass('onroute gapnode');
      let i = 0;
      for (const layer of layers) {
        layer.route.segments.forEach((s, j) => {
          if (this.cy.getElementById(s.from).empty() || this.cy.getElementById(s.to).empty()) {
            return;
          }
          const extra = layer.classes?.[j] ?? '';
          this.cy.add({
            group: 'edges',
            classes: `route ${layer.direction} ${s.kind} ${layer.traffic} ${extra}`.trim(),
            data: { id: `R${i++}`, source: s.from, target: s.to, label: !extra.includes('marked') ? ''
              : extra.includes('uncertain') ? 'CE marked here (may be earlier)' : 'CE marked here' },
          });
          this.cy.getElementById(s.from).addClass('onroute');
          this.cy.getElementById(s.to).addClass('onroute');
        });
        for (const g of layer.route.gapNodes) {
          this.cy.getElementById(g).addClass('gapnode');
        }
      }
    });
  }

  /** How many hop lines are lit (for the browser tests: the canvas has no DOM to look into). */
  routeEdgeCount(): number {
    return this.cy.edges('.route').length;
  }

  /** The lit hop lines' congestion classes, e.g. ['ce-3 marked', 'ect'] (for the browser tests). */
  routeCongestion(): string[] {
    return this.cy.edges('.route').map(e => ['ect', 'ce-1', 'ce-2', 'ce-3', 'marked'].filter(c => e.hasClass(c)).join(' '))
      .filter(c => c !== '');
  }

  /** The nodes drawn as gaps (for the browser tests). */
  gapNodes(): string[] {
    return this.cy.nodes('.gapnode').map(n => n.id());
  }

  /** Marks nodes (a selected switch, the ends of a selected link). */
  select(ids: readonly string[]): void {
    this.cy.nodes().removeClass('picked');
    for (const id of ids) {
      this.cy.getElementById(id).addClass('picked');
    }
  }

  /** The node's position on screen, relative to the container (for tests and tooltips). */
  renderedPosition(id: string): { x: number; y: number } | undefined {
    const n = this.cy.getElementById(id);
    return n.empty() ? undefined : n.renderedPosition();
  }

  applyTheme(): void {
    this.cy.style(this.style());
  }

  destroy(): void {
    this.resizer.disconnect();
    this.cy.destroy();
  }

  private style(): cytoscape.StylesheetJson {
    const fg = cssVar('--fg');
    const muted = cssVar('--muted');
    const bg = cssVar('--panel');
    const line = cssVar('--line');
    const fwd = cssVar('--fwd');
    const rev = cssVar('--rev');
    const bad = cssVar('--bad');
    const ce = [cssVar('--ce-1'), cssVar('--ce-2'), cssVar('--ce-3')];
    return [
      {
        selector: 'node',
        style: {
          label: 'data(label)', color: fg, 'font-size': 12, 'text-valign': 'center', 'text-halign': 'center',
          'background-color': bg, 'border-width': 2, 'border-color': muted, width: 64, height: 30,
          shape: 'round-rectangle', 'font-family': 'system-ui, sans-serif',
        },
      },
      { selector: 'node.host', style: { shape: 'ellipse', width: 46, height: 26, 'font-size': 11 } },
      { selector: 'node.spine, node.core', style: { width: 76, height: 34 } },
      { selector: 'node.tone-ok', style: { 'border-color': cssVar('--ok') } },
      { selector: 'node.tone-warn', style: { 'border-color': cssVar('--warn') } },
      { selector: 'node.tone-bad', style: { 'border-color': bad } },
      { selector: 'node.tone-busy', style: { 'border-color': cssVar('--busy') } },
      { selector: 'node.tone-idle', style: { 'border-color': muted, 'border-style': 'dotted' } },
      { selector: 'node.onroute', style: { 'border-width': 3 } },
      { selector: 'node.gapnode', style: { 'border-color': bad, 'border-style': 'dashed', 'border-width': 4 } },
      { selector: 'node.picked', style: { 'overlay-color': fwd, 'overlay-opacity': 0.25, 'overlay-padding': 6 } },
      {
        selector: 'edge.link',
        style: {
          width: 2, 'line-color': line, 'curve-style': 'bezier', 'source-label': 'data(srcLabel)',
          'target-label': 'data(dstLabel)', 'source-text-offset': 28, 'target-text-offset': 28, 'font-size': 9,
          color: muted, 'min-zoomed-font-size': 7, 'text-background-color': bg, 'text-background-opacity': 0.8,
          'text-background-padding': '1px',
        },
      },
      {
        selector: 'edge.route',
        style: {
          width: 3, 'curve-style': 'bezier', 'control-point-step-size': 14, 'target-arrow-shape': 'triangle',
          'arrow-scale': 0.9, 'line-color': fwd, 'target-arrow-color': fwd,
        },
      },
      { selector: 'edge.route.reverse', style: { 'line-color': rev, 'target-arrow-color': rev } },
      { selector: 'edge.route.inferred', style: { 'line-style': 'dashed' } },
      { selector: 'edge.route.data', style: { 'line-style': 'dotted', width: 4 } },
      { selector: 'edge.route.gap', style: { 'line-color': bad, 'target-arrow-color': bad, 'line-style': 'dashed' } },
      // the data's CE marks entering a hop, graded by share; the link where marking starts labelled
      { selector: 'edge.route.ce-1', style: { 'line-color': ce[0], 'target-arrow-color': ce[0] } },
      { selector: 'edge.route.ce-2', style: { 'line-color': ce[1], 'target-arrow-color': ce[1], width: 4 } },
      { selector: 'edge.route.ce-3', style: { 'line-color': ce[2], 'target-arrow-color': ce[2], width: 5 } },
      {
        selector: 'edge.route.marked',
        style: {
          label: 'data(label)', 'font-size': 10, color: fg, 'text-background-color': bg, 'text-background-opacity': 0.9,
          'text-background-padding': '2px', 'line-style': 'solid', 'text-rotation': 'autorotate',
        },
      },
    ];
  }
}
