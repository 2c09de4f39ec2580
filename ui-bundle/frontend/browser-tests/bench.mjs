/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */

// The UI's benchmark, in the same headless Chromium as the browser suite: time from navigation to
// each view painted with its data, and time for the flow table of a switch with 100,000 sessions
// to apply a filter and a sort, against the floors (2 s, 300 ms). Not part of the test run:
// scripts/bench-ui.sh prepares the data and runs it.
//   RST_URL, RST_USER, RST_PASSWORD   as for the suite
//   RST_BENCH_SWITCH                  the big switch (default: the switch with the most sessions)
//   RST_BENCH_RUNS                    repetitions of each measurement (default 3; the median counts)

import { launch } from './browser.mjs';

const BASE = (process.env.RST_URL ?? 'http://127.0.0.1:8181').replace(/\/$/, '');
const USER = process.env.RST_USER ?? 'admin';
const PASSWORD = process.env.RST_PASSWORD ?? 'admin';
const RUNS = Number(process.env.RST_BENCH_RUNS ?? 3);
const PAINT_FLOOR = 2000;
const FILTER_FLOOR = 300;

const median = xs => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const results = [];

function report(what, values, floor) {
  const m = median(values);
  const ok = m <= floor;
  results.push(ok);
  console.log(`${what.padEnd(58)} ${m.toFixed(0).padStart(6)} ms  (runs: ${values.map(v => v.toFixed(0)).join(', ')}; floor ${floor} ms) ${ok ? 'ok' : 'OVER THE FLOOR'}`);
}

function info(what, values) {
  console.log(`${what.padEnd(58)} ${median(values).toFixed(0).padStart(6)} ms  (runs: ${values.map(v => v.toFixed(0)).join(', ')}; no floor)`);
}

const context = await launch();
const page = context.pages()[0] ?? await context.newPage();

/**
 * Load a view by URL in a fresh document (a hash change alone would not reload the page) and wait
 * until it shows its data: the time from navigation start.
 */
async function paint(hash, ready) {
  await page.goto('about:blank');
  const t0 = Date.now();
  await page.goto(`${BASE}/rst/${hash}`);
  await page.locator(ready).first().waitFor({ timeout: 120000 });
  return Date.now() - t0;
}

// sign in once; the credentials stay in the tab's session storage across navigations
await page.goto(`${BASE}/rst/`);
await page.fill('#user', USER);
await page.fill('#password', PASSWORD);
await page.click('#sign-in');
await page.locator('#switches tbody tr[data-switch]').first().waitFor({ timeout: 60000 });

const big = process.env.RST_BENCH_SWITCH ?? await page.locator('#switches tbody tr[data-switch]').evaluateAll(trs => trs
  .map(tr => ({ id: tr.getAttribute('data-switch'), n: Number(tr.querySelector('.sessions')?.textContent?.replace(/,/g, '') ?? '0') }))
  .sort((a, b) => b.n - a.n)[0].id);
const sessions = await page.locator(`#switches tr[data-switch="${big}"] .sessions`).textContent();
console.log(`UI benchmark against ${BASE}/rst/, 1280x800, big switch ${big} with ${sessions} sessions, median of ${RUNS}`);

const fcp = [];
const home = [];
for (let i = 0; i < RUNS; i++) {
  home.push(await paint('#/', '#switches tbody tr[data-switch]'));
  fcp.push(await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN));
}
report('first contentful paint of the page', fcp, PAINT_FLOOR);
report('home: switches with their states painted', home, PAINT_FLOOR);

const flows = [];
const flowsComplete = [];
for (let i = 0; i < RUNS; i++) {
  const t0 = Date.now();
  flows.push(await paint(`#/switch/${encodeURIComponent(big)}`, '.flows[data-ready] .vrow'));
  await page.locator('.flows[data-complete]').waitFor({ timeout: 120000 });
  flowsComplete.push(Date.now() - t0);
}
report(`flow table of ${big}: first rows painted`, flows, PAINT_FLOOR);
info(`flow table of ${big}: every column (QPNs, ports, times) in`, flowsComplete);

/** One filter or sort applied in the page: from the input event to the next frame painted. */
async function inPage(action) {
  return page.evaluate(async a => {
    const t0 = performance.now();
    if (a.kind === 'filter') {
      const input = document.getElementById('flow-search');
      input.value = a.value;
      input.dispatchEvent(new Event('input', { bubbles: true }));
    } else {
      [...document.querySelectorAll('.vhead button.sort')].find(b => b.textContent.startsWith(a.value)).click();
    }
    // the view applies on the next animation frame; the frame after it is the painted result
    await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
    return performance.now() - t0;
  }, action);
}

const filters = [];
const sorts = [];
const clears = [];
for (let i = 0; i < RUNS; i++) {
  filters.push(await inPage({ kind: 'filter', value: 'state:rej' }));
  sorts.push(await inPage({ kind: 'sort', value: 'Req. QPN' }));
  clears.push(await inPage({ kind: 'filter', value: i % 2 ? '10.0.1' : 'qpn:4605301' }));
  await inPage({ kind: 'filter', value: '' });
}
const shown = await page.locator('#flow-count').textContent();
report('flow table: filter state:rej applied and painted', filters, FILTER_FLOOR);
report('flow table: sort by QPN applied and painted', sorts, FILTER_FLOOR);
report('flow table: free-text / QPN search applied and painted', clears, FILTER_FLOOR);
const sortAll = [];
for (let i = 0; i < RUNS; i++) {
  sortAll.push(await inPage({ kind: 'sort', value: 'Requester IP' }));
}
report(`flow table: sort all ${shown?.trim()} by requester IP`, sortAll, FILTER_FLOOR);

const firstSession = await page.locator('.vrow').first();
const sessionPaint = [];
for (let i = 0; i < RUNS; i++) {
  await page.goto(`${BASE}/rst/#/switch/${encodeURIComponent(big)}`);
  await page.locator('.flows[data-ready] .vrow').first().waitFor({ timeout: 120000 });
  const t0 = Date.now();
  await firstSession.click();
  await page.locator('.session[data-ready] #timeline tbody tr').first().waitFor();
  sessionPaint.push(Date.now() - t0);
}
report('session: timeline and path painted (from the click)', sessionPaint, PAINT_FLOOR);

const paths = [];
for (let i = 0; i < RUNS; i++) {
  paths.push(await paint('#/paths', '.paths[data-ready] .path-list .vrow'));
}
report('traffic paths: fabric and the sessions painted', paths, PAINT_FLOOR);
const pathsComplete = [];
for (let i = 0; i < RUNS; i++) {
  const t0 = Date.now();
  await paint('#/paths', '.paths[data-ready] .path-list .vrow');
  await page.locator('.paths[data-complete]').waitFor({ timeout: 120000 });
  pathsComplete.push(Date.now() - t0);
}
info('traffic paths: every path with its hops in', pathsComplete);

const problems = [];
for (let i = 0; i < RUNS; i++) {
  problems.push(await paint('#/problems', '#problems tbody tr'));
}
report('problems: first look painted', problems, PAINT_FLOOR);
const problemsComplete = [];
for (let i = 0; i < RUNS; i++) {
  const t0 = Date.now();
  await paint('#/problems', '#problems tbody tr');
  await page.locator('.problems[data-complete="true"]').waitFor({ timeout: 120000 });
  problemsComplete.push(Date.now() - t0);
}
info('problems: places, flapping and paths in', problemsComplete);

await context.close();
const over = results.filter(ok => !ok).length;
console.log(over === 0 ? 'every measurement within its floor' : `${over} measurement(s) over the floor`);
process.exit(0);
