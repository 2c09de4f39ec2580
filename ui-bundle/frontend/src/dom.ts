/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */

// A few lines instead of a framework: elements are built with h() and views replace what changed.
// Text always goes in as text (never as HTML), so nothing from the datastore can inject markup.

import type { Tone } from './format';

type Child = Node | string | number | null | undefined | false;
export type Children = Child | readonly Children[];
type Attrs = Record<string, string | number | boolean | EventListener | undefined | null>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs | null = null,
    ...children: Children[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v === undefined || v === null || v === false) {
        continue;
      }
      if (k.startsWith('on') && typeof v === 'function') {
        el.addEventListener(k.slice(2), v);
      } else if (k === 'class') {
        el.className = String(v);
      } else if (k === 'text') {
        el.textContent = String(v);
      } else if (v === true) {
        el.setAttribute(k, '');
      } else {
        el.setAttribute(k, String(v));
      }
    }
  }
  append(el, children);
  return el;
}

function isList(c: Children): c is readonly Children[] {
  return Array.isArray(c);
}

function append(el: Element, children: readonly Children[]): void {
  for (const c of children) {
    if (isList(c)) {
      append(el, c);
    } else if (c !== null && c !== undefined && c !== false) {
      el.append(typeof c === 'number' ? String(c) : c);
    }
  }
}

export function replace(el: Element, ...children: Children[]): void {
  el.replaceChildren();
  append(el, children);
}

/** A state as a coloured dot and a word: colour is never the only carrier of meaning. */
export function badge(tone: Tone, word: string, extra: Attrs = {}): HTMLSpanElement {
  return h('span', { class: `badge tone-${tone}`, ...extra }, h('span', { class: 'dot', 'aria-hidden': 'true' }), word);
}

export function link(href: string, text: string, attrs: Attrs = {}): HTMLAnchorElement {
  return h('a', { href, ...attrs }, text);
}

/** An accessible on/off switch (a button with aria-pressed), as operators know it from Grafana. */
export function toggle(label: string, on: boolean, onChange: (next: boolean) => void, attrs: Attrs = {}): HTMLButtonElement {
  const b = h('button', {
    class: 'toggle',
    type: 'button',
    role: 'switch',
    'aria-checked': on ? 'true' : 'false',
    'aria-label': label,
    title: label,
    ...attrs,
  }, h('span', { class: 'knob', 'aria-hidden': 'true' }), h('span', { class: 'toggle-word' }, on ? 'on' : 'off'));
  b.addEventListener('click', () => onChange(b.getAttribute('aria-checked') !== 'true'));
  return b;
}

export function debounce<A extends unknown[]>(fn: (...args: A) => void, ms: number): (...args: A) => void {
  let t: ReturnType<typeof setTimeout> | undefined;
  return (...args: A) => {
    if (t !== undefined) {
      clearTimeout(t);
    }
    t = setTimeout(() => {
      t = undefined;
      fn(...args);
    }, ms);
  };
}

/** Route links: "#/switch/leaf1" with each part percent-encoded. */
export function route(...parts: string[]): string {
  return '#/' + parts.map(encodeURIComponent).join('/');
}
