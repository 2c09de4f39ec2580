/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */

// A virtual table: only the rows in sight exist in the DOM, so 100,000 sessions scroll as
// smoothly as 100. A grid for assistive technology (role=grid with aria-rowcount/rowindex); the
// keyboard moves the active row (arrows, Page Up/Down, Home/End) and Enter opens it.

import { h, replace } from './dom';
import type { ColumnDef, SortDir } from './table';

export interface VTableColumn<R> extends ColumnDef<R> {
  /** CSS grid track, e.g. "8rem" or "minmax(10rem, 1fr)". */
  readonly width?: string;
  readonly cell?: (row: R) => Node | string;
}

export interface VTableOptions<R> {
  readonly label: string;
  readonly rowHeight: number;
  readonly onOpen: (row: R) => void;
  readonly onSort?: (key: string) => void;
  readonly rowClass?: (row: R) => string;
  readonly empty?: string;
}

let nextId = 0;

export class VirtualTable<R> {
  readonly el: HTMLElement;
  private readonly scroller: HTMLElement;
  private readonly head: HTMLElement;
  private readonly spacer: HTMLElement;
  private readonly emptyEl: HTMLElement;
  private readonly id = `vt${nextId++}`;
  private columns: readonly VTableColumn<R>[] = [];
  private rows: readonly R[] = [];
  private order: Uint32Array = new Uint32Array(0);
  private active = -1;
  private sortKey: string | undefined;
  private sortDir: SortDir = 'asc';
  private frame = 0;

  constructor(private readonly options: VTableOptions<R>) {
    this.head = h('div', { class: 'vhead', role: 'row', 'aria-rowindex': 1 });
    this.spacer = h('div', { class: 'vspacer', role: 'rowgroup' });
    this.emptyEl = h('div', { class: 'vempty', hidden: true }, options.empty ?? 'Nothing to show');
    this.scroller = h('div', {
      class: 'vscroll', tabindex: 0, role: 'grid', 'aria-label': options.label, 'aria-rowcount': 1,
      onscroll: () => this.schedule(),
      onkeydown: (e: Event) => this.onKey(e as KeyboardEvent),
    }, this.head, this.spacer, this.emptyEl);
    this.el = h('div', { class: 'vtable' }, this.scroller);
    this.el.style.setProperty('--row-h', `${options.rowHeight}px`);
    new ResizeObserver(() => this.schedule()).observe(this.scroller);
  }

  setColumns(columns: readonly VTableColumn<R>[]): void {
    this.columns = columns;
    this.el.style.setProperty('--cols', columns.map(c => c.width ?? 'minmax(7rem, 1fr)').join(' '));
    this.renderHead();
    this.schedule();
  }

  setSort(key: string | undefined, dir: SortDir): void {
    this.sortKey = key;
    this.sortDir = dir;
    this.renderHead();
  }

  /** Rows and the order to show them in (indices into rows), keeping the active row if it stays. */
  setData(rows: readonly R[], order: Uint32Array, keep?: (a: R, b: R) => boolean): void {
    const prev = this.active >= 0 && this.active < this.order.length ? this.rows[this.order[this.active]] : undefined;
    this.rows = rows;
    this.order = order;
    this.active = -1;
    if (prev !== undefined && keep) {
      for (let i = 0; i < order.length; i++) {
        if (keep(prev, rows[order[i]])) {
          this.active = i;
          break;
        }
      }
    }
    this.scroller.setAttribute('aria-rowcount', String(order.length + 1));
    this.spacer.style.height = `${order.length * this.options.rowHeight}px`;
    this.emptyEl.hidden = order.length > 0;
    if (this.active < 0 && this.scroller.scrollTop > order.length * this.options.rowHeight) {
      this.scroller.scrollTop = 0;
    }
    this.render();
  }

  get rowCount(): number {
    return this.order.length;
  }

  focus(): void {
    this.scroller.focus();
  }

  private renderHead(): void {
    replace(this.head, this.columns.map(c => {
      const sorted = this.sortKey === c.key;
      const arrow = sorted ? (this.sortDir === 'asc' ? ' ▲' : ' ▼') : '';
      return h('div', {
        role: 'columnheader', class: 'vcell',
        'aria-sort': sorted ? (this.sortDir === 'asc' ? 'ascending' : 'descending') : 'none',
      }, this.options.onSort
        ? h('button', { type: 'button', class: 'sort', onclick: () => this.options.onSort!(c.key) }, c.label + arrow)
        : c.label);
    }));
  }

  private schedule(): void {
    if (this.frame === 0) {
      this.frame = requestAnimationFrame(() => {
        this.frame = 0;
        this.render();
      });
    }
  }

  private render(): void {
    const rh = this.options.rowHeight;
    // the sticky header covers the top of the scroller: rows in sight start at scrollTop
    const top = this.scroller.scrollTop;
    const height = this.scroller.clientHeight || 600;
    const first = Math.max(0, Math.floor(top / rh) - 5);
    // never more than a screenful or two, whatever the layout says the height is
    const last = Math.min(this.order.length, Math.ceil((top + Math.min(height, 4000)) / rh) + 5);
    const out: HTMLElement[] = [];
    for (let i = first; i < last; i++) {
      const row = this.rows[this.order[i]];
      const cls = this.options.rowClass?.(row) ?? '';
      const r = h('div', {
        class: `vrow ${cls}${i === this.active ? ' active' : ''}`, role: 'row', id: `${this.id}-r${i}`,
        'aria-rowindex': i + 2, 'aria-selected': i === this.active ? 'true' : 'false',
        onclick: () => {
          this.active = i;
          this.options.onOpen(row);
        },
      }, this.columns.map(c => h('div', { role: 'gridcell', class: 'vcell' }, c.cell ? c.cell(row) : c.text(row))));
      r.style.transform = `translateY(${i * rh}px)`;
      out.push(r);
    }
    replace(this.spacer, out);
    if (this.active >= 0) {
      this.scroller.setAttribute('aria-activedescendant', `${this.id}-r${this.active}`);
    } else {
      this.scroller.removeAttribute('aria-activedescendant');
    }
  }

  private onKey(e: KeyboardEvent): void {
    const n = this.order.length;
    if (n === 0) {
      return;
    }
    const page = Math.max(1, Math.floor(this.scroller.clientHeight / this.options.rowHeight) - 1);
    let next = this.active;
    switch (e.key) {
      case 'ArrowDown': next = Math.min(n - 1, this.active + 1); break;
      case 'ArrowUp': next = Math.max(0, this.active - 1); break;
      case 'PageDown': next = Math.min(n - 1, Math.max(0, this.active) + page); break;
      case 'PageUp': next = Math.max(0, this.active - page); break;
      case 'Home': next = 0; break;
      case 'End': next = n - 1; break;
      case 'Enter':
        if (this.active >= 0) {
          e.preventDefault();
          this.options.onOpen(this.rows[this.order[this.active]]);
        }
        return;
      default:
        return;
    }
    e.preventDefault();
    this.active = next;
    this.reveal(next);
    this.render();
  }

  private reveal(i: number): void {
    const rh = this.options.rowHeight;
    const headH = this.head.offsetHeight || rh;
    const y = i * rh;
    const top = this.scroller.scrollTop;
    const visible = this.scroller.clientHeight - headH;
    if (y < top) {
      this.scroller.scrollTop = y;
    } else if (y + rh > top + visible) {
      this.scroller.scrollTop = y + rh - visible;
    }
  }
}
