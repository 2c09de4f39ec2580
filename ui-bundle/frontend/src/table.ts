/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */

// Client-side filtering, searching and sorting of big tables (a switch's flow table, the path
// list): pure functions over arrays, no DOM. A table of 100,000 sessions is fetched once and then
// filtered and sorted here within 300 ms (the UI's floor at that size), so every per-row cost is paid once
// when the rows arrive (lower-cased search text, sort keys) and a filter is one pass of
// `String.includes` and field tests.

/** A sortable value: numbers compare as numbers, strings as code units (see naturalKey). */
export type SortKey = number | string | undefined;

export interface ColumnDef<R> {
  readonly key: string;
  readonly label: string;
  /** What the cell shows, and what free-text search looks at. */
  text(row: R): string;
  /** The value the column sorts by; defaults to text(). */
  sortKey?(row: R): SortKey;
}

/** `name:value` filter terms: the row matches when the function says so (value lower-cased). */
export type FieldFilters<R> = Readonly<Record<string, (row: R, value: string) => boolean>>;

export interface TableDef<R> {
  readonly columns: readonly ColumnDef<R>[];
  readonly fields: FieldFilters<R>;
}

/**
 * Rows with what filtering and sorting need, each computed once, when first needed: the first
 * paint of 100,000 rows should not wait for search text that nobody has typed yet.
 */
export interface IndexedTable<R> {
  readonly rows: readonly R[];
  readonly def: TableDef<R>;
  /** Lower-cased text of every column per row, built by the first search. */
  haystacks?: string[];
  /** Sort keys per column, filled on the first sort by that column. */
  readonly sortKeys: Map<string, SortKey[]>;
}

export function indexRows<R>(rows: readonly R[], def: TableDef<R>): IndexedTable<R> {
  return { rows, def, sortKeys: new Map() };
}

/** Builds the search text now (when the page is idle after a paint), so the first search is quick. */
export function warmUp<R>(table: IndexedTable<R>): void {
  haystacksOf(table);
}

function haystacksOf<R>(table: IndexedTable<R>): string[] {
  if (!table.haystacks) {
    const { rows, def } = table;
    const haystacks = new Array<string>(rows.length);
    for (let i = 0; i < rows.length; i++) {
      let h = '';
      for (const c of def.columns) {
        h += c.text(rows[i]) + '\u0001';
      }
      haystacks[i] = h.toLowerCase();
    }
    table.haystacks = haystacks;
  }
  return table.haystacks;
}

export interface CompiledQuery<R> {
  readonly test: (row: R, haystack: string) => boolean;
  /** Terms that named a field the table does not have: shown to the user, not silently dropped. */
  readonly unknownFields: readonly string[];
  readonly empty: boolean;
  /** Whether a term searches the text of every column (field terms do not need it). */
  readonly usesText: boolean;
}

/**
 * Parses a search box: whitespace-separated terms, all of which must match. `field:value` tests a
 * field (`state:rej`, `port:swp1`, `ip:10.0.1`, `qpn:0x12`); a term prefixed with `-` must NOT
 * match; anything else is a case-insensitive substring of any column. `"quoted text"` keeps spaces.
 */
export function compileQuery<R>(query: string, fields: FieldFilters<R>): CompiledQuery<R> {
  const tests: ((row: R, haystack: string) => boolean)[] = [];
  const unknownFields: string[] = [];
  let usesText = false;
  for (const raw of tokenize(query)) {
    let term = raw;
    let negate = false;
    if (term.length > 1 && term.startsWith('-')) {
      negate = true;
      term = term.slice(1);
    }
    const colon = term.indexOf(':');
    let t: (row: R, haystack: string) => boolean;
    const name = colon > 0 ? term.slice(0, colon).toLowerCase() : '';
    if (colon > 0 && name in fields) {
      const value = term.slice(colon + 1).toLowerCase();
      const f = fields[name];
      t = value === '' ? () => true : row => f(row, value);
    } else {
      // "fe80::1" or "10.0.0.1:4791" is text, not a field: only a word before ':' names a field
      if (colon > 0 && /^[a-z-]+$/i.test(name) && !/^[0-9a-f]{1,4}$/i.test(name)) {
        unknownFields.push(name);
      }
      const needle = term.toLowerCase();
      usesText = true;
      t = (_row, haystack) => haystack.includes(needle);
    }
    tests.push(negate ? (row, h) => !t(row, h) : t);
  }
  if (tests.length === 0) {
    return { test: () => true, unknownFields, empty: true, usesText };
  }
  if (tests.length === 1) {
    return { test: tests[0], unknownFields, empty: false, usesText };
  }
  return {
    test: (row, haystack) => {
      for (const t of tests) {
        if (!t(row, haystack)) {
          return false;
        }
      }
      return true;
    },
    unknownFields,
    empty: false,
    usesText,
  };
}

export function tokenize(query: string): string[] {
  const out: string[] = [];
  const re = /(-?[\w.-]*:)?"([^"]*)"|(\S+)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(query)) !== null) {
    if (m[2] !== undefined) {
      out.push((m[1] ?? '') + m[2]);
    } else if (m[3] !== undefined) {
      out.push(m[3]);
    }
  }
  return out.filter(t => t !== '' && t !== '-');
}

export type SortDir = 'asc' | 'desc';

export interface View {
  /** Row indices into IndexedTable.rows, filtered and in display order. */
  readonly order: Uint32Array;
  readonly unknownFields: readonly string[];
}

/**
 * Rows that pass the query (and the extra predicate, for structured controls), sorted by a
 * column. Undefined sort values go last in either direction; ties keep the arrival order.
 */
export function applyView<R>(table: IndexedTable<R>, query: string, sortBy: string | undefined, dir: SortDir,
    extra?: (row: R) => boolean): View {
  const q = compileQuery(query, table.def.fields);
  const n = table.rows.length;
  let order = new Uint32Array(n);
  let k = 0;
  if (q.empty && !extra) {
    for (let i = 0; i < n; i++) {
      order[i] = i;
    }
    k = n;
  } else {
    const rows = table.rows;
    const hay = q.usesText ? haystacksOf(table) : undefined;
    for (let i = 0; i < n; i++) {
      const r = rows[i];
      if ((!extra || extra(r)) && q.test(r, hay ? hay[i] : '')) {
        order[k++] = i;
      }
    }
    order = order.slice(0, k);
  }
  if (sortBy !== undefined) {
    const keys = sortKeysFor(table, sortBy);
    if (keys) {
      sortIndices(order, keys, dir);
    }
  }
  return { order, unknownFields: q.unknownFields };
}

function sortKeysFor<R>(table: IndexedTable<R>, column: string): SortKey[] | undefined {
  const cached = table.sortKeys.get(column);
  if (cached) {
    return cached;
  }
  const col = table.def.columns.find(c => c.key === column);
  if (!col) {
    return undefined;
  }
  const keyOf = col.sortKey ?? ((r: R) => naturalKey(col.text(r)));
  const keys = table.rows.map(r => {
    const k = keyOf(r);
    return k === '' ? undefined : k;
  });
  table.sortKeys.set(column, keys);
  return keys;
}

export function sortIndices(order: Uint32Array, keys: readonly SortKey[], dir: SortDir): void {
  // a column nobody has values for yet (a big table's first, quick rows): arrival order
  if (keys.every(k => k === undefined)) {
    return;
  }
  const sign = dir === 'asc' ? 1 : -1;
  order.sort((a, b) => {
    const ka = keys[a];
    const kb = keys[b];
    if (ka === kb) {
      return a - b;
    }
    if (ka === undefined) {
      return 1;
    }
    if (kb === undefined) {
      return -1;
    }
    // mixed numbers and strings in one column: numbers first
    if (typeof ka !== typeof kb) {
      return typeof ka === 'number' ? -sign : sign;
    }
    return (ka < kb ? -1 : 1) * sign;
  });
}

/** A string whose plain ordering is the natural one: digit runs padded ("swp2" < "swp10"). */
export function naturalKey(s: string): string {
  return s.toLowerCase().replace(/\d+/g, d => d.padStart(12, '0'));
}

/** IPv4 as a number; IPv6 as fixed-width hex (sorted after IPv4); undefined when absent. */
export function ipSortKey(ip: string | undefined): SortKey {
  if (!ip) {
    return undefined;
  }
  const v4 = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(ip);
  if (v4) {
    return ((+v4[1] * 256 + +v4[2]) * 256 + +v4[3]) * 256 + +v4[4];
  }
  return '~' + expandIpv6(ip);
}

function expandIpv6(ip: string): string {
  const [head, tail] = ip.toLowerCase().split('::');
  const h = head ? head.split(':') : [];
  const t = tail !== undefined && tail !== '' ? tail.split(':') : [];
  const missing = tail === undefined ? 0 : 8 - h.length - t.length;
  return [...h, ...Array<string>(Math.max(0, missing)).fill('0'), ...t].map(g => g.padStart(4, '0')).join(':');
}

/** A QPN or any number typed as decimal or 0x-hex. */
export function parseNumber(value: string): number | undefined {
  const v = value.trim().toLowerCase();
  if (/^0x[0-9a-f]+$/.test(v)) {
    return parseInt(v.slice(2), 16);
  }
  if (/^\d+$/.test(v)) {
    return parseInt(v, 10);
  }
  return undefined;
}
