/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */

// The shell around the views: sign-in, the header (with the "Traffic paths" button at the top
// left), the banner that says when the controller cannot be reached, themes, and a hash router
// (#/, #/switch/ID, #/switch/ID/session/SID, #/paths, #/paths/SID, #/port/ID/TP, #/problems), so that every view
// has a URL an operator can bookmark or paste into a ticket.

import { ApiError, Restconf, type Credentials } from './api';
import { fetchTopology } from './data';
import { h, replace } from './dom';
import { formatClock } from './format';
import { EMPTY_TOPOLOGY, type Topology } from './model';
import { fetchProblems, type ProblemReport } from './problem-source';
import { Poller } from './poller';
import { FlowTableView } from './views/flows';
import { HomeView } from './views/home';
import { PortView } from './views/congestion';
import { PathsView } from './views/paths';
import { ProblemsView } from './views/problems';
import { SessionView } from './views/session';
import { SignInView } from './views/signin';

export interface View {
  readonly el: HTMLElement;
  readonly title: string;
  /** Whether the view shows problems (rst-insight:problems): the app keeps them fresh while it is open. */
  readonly wantsProblems?: boolean;
  start(): void;
  stop(): void;
  /** A route change within the view (another session on the fabric): true if handled in place. */
  reroute?(parts: readonly string[]): boolean;
}

export interface AppContext {
  readonly api: Restconf;
  topology(maxAgeMs?: number): Promise<Topology>;
  /** The latest problem report, and a way to hear of the next ones. */
  problems(): ProblemReport | undefined;
  onProblems(l: (r: ProblemReport) => void): () => void;
  refreshProblems(): void;
  /** Views say when they last had fresh data; the header shows it. */
  updated(): void;
  onTheme(l: () => void): () => void;
  navigate(hash: string): void;
  /** A refused sign-in ends the session; views show other errors themselves. */
  handleError(e: unknown): void;
}

const STORE = 'rst-ui-credentials';
const THEME = 'rst-ui-theme';

export class App implements AppContext {
  private apiValue: Restconf | undefined;
  private view: View | undefined;
  private readonly main = h('main', { id: 'view', tabindex: -1 });
  private readonly banner = h('div', { class: 'banner', role: 'alert', id: 'unreachable', hidden: true });
  private readonly status = h('span', { class: 'conn', role: 'status', 'aria-live': 'polite' });
  private readonly problemCount = h('span', { class: 'count', id: 'problem-count' });
  private readonly header: HTMLElement;
  private readonly userEl = h('span', { class: 'user' });
  private topo: { at: number; value: Promise<Topology> } | undefined;
  private report: ProblemReport | undefined;
  private readonly problemListeners = new Set<(r: ProblemReport) => void>();
  private readonly themeListeners = new Set<() => void>();
  // the controller recomputes its problems at most once a second; one small GET reads them
  private readonly problemPoller = new Poller(() => this.pollProblems(), { minMs: 5000, maxMs: 60000, costFactor: 10 });
  private lastUpdate: number | undefined;
  private unreachableSince: number | undefined;

  constructor(private readonly root: HTMLElement, private readonly restconfBase: string) {
    this.header = h('header', { class: 'top' },
      h('a', { class: 'btn primary', href: '#/paths', id: 'traffic-paths' }, 'Traffic paths'),
      h('nav', { 'aria-label': 'Views' },
        h('a', { href: '#/', 'data-nav': 'home' }, 'Switches'),
        h('a', { href: '#/problems', 'data-nav': 'problems' }, 'Problems ', this.problemCount)),
      h('span', { class: 'brand' }, 'RST · RDMA Session Tracer'),
      h('span', { class: 'grow' }),
      this.status,
      h('button', { type: 'button', class: 'btn', id: 'theme', onclick: () => this.toggleTheme() }, 'Theme'),
      this.userEl,
      h('button', { type: 'button', class: 'btn', id: 'sign-out', onclick: () => this.signOut() }, 'Sign out'));
    this.applyTheme(localStorage.getItem(THEME) ?? (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'));
    window.addEventListener('hashchange', () => this.route());
    setInterval(() => this.renderStatus(), 1000);
  }

  get api(): Restconf {
    if (!this.apiValue) {
      throw new Error('not signed in');
    }
    return this.apiValue;
  }

  start(): void {
    const stored = sessionStorage.getItem(STORE);
    if (stored) {
      try {
        this.signedIn(JSON.parse(stored) as Credentials);
        return;
      } catch {
        sessionStorage.removeItem(STORE);
      }
    }
    this.showSignIn();
  }

  private showSignIn(message?: string): void {
    this.view?.stop();
    this.view = undefined;
    this.problemPoller.stop();
    this.apiValue = undefined;
    const view = new SignInView(this.restconfBase, creds => this.signedIn(creds), message);
    replace(this.root, view.el);
    document.title = 'Sign in · RST';
    view.focus();
  }

  private signedIn(creds: Credentials): void {
    sessionStorage.setItem(STORE, JSON.stringify(creds));
    const api = new Restconf(this.restconfBase, creds);
    api.onConnection((ok, err) => this.connection(ok, err));
    this.apiValue = api;
    this.userEl.textContent = creds.user;
    this.topo = undefined;
    replace(this.root, this.header, this.banner, this.main);
    this.route();
  }

  private signOut(message?: string): void {
    sessionStorage.removeItem(STORE);
    this.showSignIn(message);
  }

  private route(): void {
    if (!this.apiValue) {
      return;
    }
    const parts = location.hash.replace(/^#\/?/, '').split('/').filter(p => p !== '').map(decodeURIComponent);
    if (this.view?.reroute?.(parts)) {
      return;
    }
    let next: View;
    if (parts[0] === 'switch' && parts.length >= 4 && parts[2] === 'session') {
      next = new SessionView(this, parts[1], parts.slice(3).join('/'));
    } else if (parts[0] === 'switch' && parts.length >= 2) {
      next = new FlowTableView(this, parts[1]);
    } else if (parts[0] === 'paths') {
      next = new PathsView(this, parts.length > 1 ? parts.slice(1).join('/') : undefined);
    } else if (parts[0] === 'port' && parts.length >= 3) {
      next = new PortView(this, parts[1], parts.slice(2).join('/'));
    } else if (parts[0] === 'problems') {
      next = new ProblemsView(this);
    } else {
      next = new HomeView(this);
    }
    this.view?.stop();
    this.view = next;
    replace(this.main, next.el);
    document.title = `${next.title} · RST`;
    for (const a of this.header.querySelectorAll('nav a')) {
      const nav = (a as HTMLElement).dataset.nav;
      const current = (nav === 'home' && next instanceof HomeView) || (nav === 'problems' && next instanceof ProblemsView);
      if (current) {
        a.setAttribute('aria-current', 'page');
      } else {
        a.removeAttribute('aria-current');
      }
    }
    this.problemPoller.stop();
    next.start();
    if (next.wantsProblems) {
      this.problemPoller.start();
    }
  }

  navigate(hash: string): void {
    if (location.hash === hash) {
      this.route();
    } else {
      location.hash = hash;
    }
  }

  topology(maxAgeMs = 30000): Promise<Topology> {
    const now = Date.now();
    if (!this.topo || now - this.topo.at > maxAgeMs) {
      const value = fetchTopology(this.api).catch(e => {
        this.topo = undefined;
        if (e instanceof ApiError && e.kind === 'http') {
          return EMPTY_TOPOLOGY;
        }
        throw e;
      });
      this.topo = { at: now, value };
    }
    return this.topo.value;
  }

  problems(): ProblemReport | undefined {
    return this.report;
  }

  onProblems(l: (r: ProblemReport) => void): () => void {
    this.problemListeners.add(l);
    return () => this.problemListeners.delete(l);
  }

  refreshProblems(): void {
    this.problemPoller.kick();
  }

  private async pollProblems(): Promise<void> {
    try {
      this.publish(await fetchProblems(this.api));
    } catch (e) {
      this.handleError(e);
      throw e;
    }
  }

  private publish(report: ProblemReport): void {
    this.report = report;
    const n = report.problems.filter(p => p.severity !== 'notice').length;
    this.problemCount.textContent = String(n);
    this.problemCount.className = `count ${n > 0 ? 'tone-bad' : 'tone-ok'}`;
    for (const l of this.problemListeners) {
      l(report);
    }
  }

  /** Views hand their errors here: a refused sign-in ends the session, the rest is shown. */
  handleError(e: unknown): void {
    if (e instanceof ApiError && e.kind === 'unauthorized' && e.status === 401) {
      this.signOut('The controller no longer accepts these credentials: sign in again.');
    }
  }

  updated(): void {
    this.lastUpdate = Date.now() / 1000;
    this.renderStatus();
  }

  onTheme(l: () => void): () => void {
    this.themeListeners.add(l);
    return () => this.themeListeners.delete(l);
  }

  private connection(ok: boolean, err?: ApiError): void {
    if (ok) {
      this.unreachableSince = undefined;
      this.banner.hidden = true;
    } else {
      this.unreachableSince ??= Date.now() / 1000;
      replace(this.banner, h('strong', null, 'Controller unreachable. '),
        `${err?.message ?? 'No answer'} since ${formatClock(this.unreachableSince)}; the views show the last data `
        + 'they had and retry by themselves.');
      this.banner.hidden = false;
    }
    this.renderStatus();
  }

  private renderStatus(): void {
    if (this.unreachableSince !== undefined) {
      this.status.className = 'conn tone-bad';
      this.status.textContent = '● unreachable';
      return;
    }
    this.status.className = 'conn tone-ok';
    const ago = this.lastUpdate === undefined ? '' : ` · updated ${formatClock(this.lastUpdate).slice(0, 8)}`;
    this.status.textContent = `● live${ago}`;
  }

  private toggleTheme(): void {
    const next = document.documentElement.dataset.theme === 'dark' ? 'light' : 'dark';
    localStorage.setItem(THEME, next);
    this.applyTheme(next);
    for (const l of this.themeListeners) {
      l();
    }
  }

  private applyTheme(theme: string): void {
    document.documentElement.dataset.theme = theme;
    const b = this.header.querySelector('#theme');
    if (b) {
      b.textContent = theme === 'dark' ? 'Light theme' : 'Dark theme';
    }
  }
}
