/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */

// Problems: the controller's rst-insight:problems, every group of failing sessions, flapping
// endpoints, odd paths and unhealthy agents, most severe first, each with where it happened and
// links to the sessions concerned.

import type { AppContext, View } from '../app';
import { badge, h, replace } from '../dom';
import { formatClock, formatCount, formatTime } from '../format';
import type { ProblemReport } from '../problem-source';
import { countByKind, kindLabel, placeRoute, problemFacts, sessionRoute, type Problem, type ProblemKind,
  type Severity } from '../problems';

const SEVERITY_TONE: Record<Severity, 'bad' | 'warn' | 'idle'> = { critical: 'bad', warning: 'warn', notice: 'idle' };
/** A severity's colour and word; one the UI does not know (never parsed, but kept safe) in the neutral tone. */
function severityBadge(s: Severity): HTMLElement {
  return badge(SEVERITY_TONE[s] ?? 'idle', s);
}

/** One line for the home page's glance: severity, what, where, how many. */
export function problemLine(p: Problem): HTMLElement {
  const first = p.sessions[0];
  return h('span', { class: 'problem-line', 'data-kind': p.kind, 'data-id': p.id },
    severityBadge(p.severity),
    h('strong', null, p.title),
    p.count > 1 ? h('span', { class: 'muted' }, ` ×${formatCount(p.count)}`) : null,
    ' — ', h('span', { class: 'where' }, p.where),
    first ? [' ', h('a', { href: sessionRoute(first) }, 'open')] : null);
}

export class ProblemsView implements View {
  readonly el: HTMLElement;
  readonly title = 'Problems';
  readonly wantsProblems = true;
  private readonly body = h('tbody');
  private readonly filters = h('div', { class: 'chips', role: 'group', 'aria-label': 'Show kinds' });
  private readonly asOf = h('p', { class: 'muted small', role: 'status' });
  private readonly hidden = new Set<ProblemKind>();
  private unsubscribe: (() => void) | undefined;

  constructor(private readonly app: AppContext) {
    this.el = h('div', { class: 'view problems' },
      h('section', { class: 'panel' },
        h('h1', null, 'Problems'),
        h('p', { class: 'muted' }, 'Rejected, unanswered, half-closed and flapping sessions, asymmetric paths and data '
          + 'apart from its CM, half-seen data flows, congested data (CE marks, CNPs), PFC pause storms and suspected '
          + 'PFC deadlocks, and agents the controller cannot use, grouped by cause and place: '
          + 'the controller\'s own rst-insight:problems, as /metrics and the notifications report them.'),
        this.filters, this.asOf,
        h('div', { class: 'scroll-x' },
          h('table', { class: 'grid', id: 'problems' },
            h('thead', null, h('tr', null,
              h('th', { scope: 'col' }, 'Severity'),
              h('th', { scope: 'col' }, 'Problem'),
              h('th', { scope: 'col' }, 'Where'),
              h('th', { scope: 'col', class: 'num' }, 'Count'),
              h('th', { scope: 'col' }, 'Latest'),
              h('th', { scope: 'col' }, 'Sessions'))),
            this.body))));
    this.render(app.problems());
  }

  start(): void {
    this.unsubscribe = this.app.onProblems(r => this.render(r));
    // this view is the problems: no reason to wait for anything else
    this.app.updated();
    this.app.refreshProblems();
  }

  stop(): void {
    this.unsubscribe?.();
  }

  private render(r: ProblemReport | undefined): void {
    if (!r) {
      replace(this.asOf, 'Looking for problems…');
      return;
    }
    this.app.updated();
    const listed = r.problems.reduce((m, p) => m + p.count, 0);
    replace(this.asOf, r.available
      ? [`As the controller found them at ${formatClock(r.at).slice(0, 8)}: ${formatCount(r.total)} in all`,
        listed < r.total ? `, ${formatCount(listed)} of them in the ${formatCount(r.problems.length)} groups listed` : '',
        '.', r.skipped ? ` ${formatCount(r.skipped)} entries could not be read.` : '']
      : 'The controller reports no problems: rst-insight:problems is absent (the odl-rst-insight feature is not '
        + 'installed, or is starting).');
    this.el.dataset.updated = String(r.at);
    const kinds = [...new Set(r.problems.map(p => p.kind))];
    const listedByKind = countByKind(r.problems);
    replace(this.filters, kinds.map(k => {
      const n = r.byKind[k] ?? listedByKind[k] ?? 0;
      return h('label', { class: 'chip' },
        h('input', {
          type: 'checkbox', checked: !this.hidden.has(k),
          onchange: (e: Event) => {
            if ((e.target as HTMLInputElement).checked) {
              this.hidden.delete(k);
            } else {
              this.hidden.add(k);
            }
            this.render(this.app.problems());
          },
        }), ` ${kindLabel(k)} (${formatCount(n)})`);
    }));
    const shown = r.problems.filter(p => !this.hidden.has(p.kind));
    if (shown.length === 0) {
      replace(this.body, h('tr', null, h('td', { colspan: 6, class: 'empty' }, 'No problem seen.')));
      return;
    }
    replace(this.body, shown.map(p => h('tr', { 'data-kind': p.kind, 'data-id': p.id },
      h('td', null, severityBadge(p.severity)),
      h('td', null, h('strong', null, p.title), h('div', { class: 'muted small' }, kindLabel(p.kind))),
      h('td', { class: 'where' }, p.where,
        p.places.length ? h('div', { class: 'small' }, 'on the fabric: ',
          p.places.map((pl, i) => [i ? (p.kind === 'pfc-deadlock-suspect' || p.kind === 'lldp-disagreement' ? ' ⇄ ' : ', ') : '', h('a', {
            href: placeRoute(p, pl), class: 'place', 'data-node': pl.node, 'data-tp': pl.tp,
          }, pl.tp ? `${pl.node} ${pl.tp}` : pl.node)])) : null,
        problemFacts(p) ? h('div', { class: 'small facts' }, problemFacts(p)) : null),
      h('td', { class: 'num' }, formatCount(p.count)),
      h('td', null, formatTime(p.latest)),
      h('td', { class: 'sessions' }, p.sessions.slice(0, 3).map((s, i) => [i ? h('br') : null,
        h('a', { href: sessionRoute(s), class: 'mono' }, s.sessionId)]),
      p.count > 3 ? h('div', { class: 'muted small' }, `and ${formatCount(p.count - Math.min(3, p.sessions.length))} more`) : null))));
  }
}
