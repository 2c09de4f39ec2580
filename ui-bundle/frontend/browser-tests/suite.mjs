/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */

// The UI in a real browser (Debian's Chromium, headless) against a running controller with data:
// an operator's session, step by step. Settings, all optional:
//   RST_URL            the controller (default http://127.0.0.1:8181); the UI is RST_URL/rst/
//   RST_USER, RST_PASSWORD   AAA credentials (admin/admin)
//   RST_SWITCH         the switch whose RFT is turned off and on again (default: a capturing spine
//                      if there is one, else the first capturing switch)
//   RST_EXPECT_GAP=1   fail, rather than skip, when turning the switch off leaves no gap in a path
//   RST_EXPECT_DATA=1  fail, rather than skip, when no switch lists a session learnt from data
//                      packets (connections without CM, as NCCL sets them up)
//   RST_EXPECT_CONGESTION=1  fail, rather than skip, when the data has no CE-marked data path, no
//                      paused port or no congestion problem
//   RST_AGENT_TOKEN_DIR  the controller's agent token directory (one file per switch, as the lab
//                      writes them): then the agent itself is asked whether its capture stopped
//                      (over TLS when the switch's agent-transport is tls)
//   RST_AGENT_CA_FILE  the CA the agents' TLS certificates chain to (the lab's DIR/certs/ca.crt);
//                      run-browser-tests.sh hands it to node as NODE_EXTRA_CA_CERTS
//   RST_SCREENSHOTS    where screenshots go (default ui-bundle/target/screenshots)
// Exit status 0 when every step passed or was skipped with its reason.

import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch } from './browser.mjs';
import { check, skip, Suite, until } from './steps.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const BASE = (process.env.RST_URL ?? 'http://127.0.0.1:8181').replace(/\/$/, '');
const USER = process.env.RST_USER ?? 'admin';
const PASSWORD = process.env.RST_PASSWORD ?? 'admin';
const SHOTS = resolve(process.env.RST_SCREENSHOTS ?? join(here, '..', '..', 'target', 'screenshots'));
const AUTH = 'Basic ' + Buffer.from(`${USER}:${PASSWORD}`).toString('base64');

/** RESTCONF straight from the test, to check what the UI wrote. */
async function restconf(path, init = {}) {
  const r = await fetch(`${BASE}/rests/${path}`, {
    ...init, headers: { Authorization: AUTH, Accept: 'application/yang-data+json', 'Content-Type': 'application/yang-data+json', ...init.headers },
  });
  const text = await r.text();
  return { status: r.status, json: text ? JSON.parse(text) : undefined };
}

const enc = encodeURIComponent;

async function switchConfig(id) {
  const r = await restconf(`data/rdma-flow-table:rft/switch=${enc(id)}?content=config`);
  return r.json?.['rdma-flow-table:switch']?.[0];
}

async function agentState(id) {
  const r = await restconf(`data/rdma-flow-table:rft/switch=${enc(id)}/agent-status?content=nonconfig`);
  return r.json?.['rdma-flow-table:agent-status']?.state;
}

async function sessionsThrough(node) {
  const r = await restconf('operations/rdma-path-table:sessions-through', { method: 'POST', body: JSON.stringify({ input: { 'node-id': node } }) });
  return r.json?.['rdma-path-table:output']?.path ?? [];
}

const context = await launch();
const page = context.pages()[0] ?? await context.newPage();
const errors = [];
page.on('pageerror', e => errors.push(e.message));
const suite = new Suite(page, SHOTS);
console.log(`browser suite against ${BASE}/rst/ (screenshots in ${SHOTS})`);

let target; // the switch the operator turns off and on
let transit = false; // whether some path crosses it between two other switches

const row = id => page.locator(`#switches tr[data-switch="${id}"]`);
const rowState = async id => (await row(id).locator('.agent-state .badge').textContent())?.trim();

suite.step('the page loads from the controller, with nothing from another host', async () => {
  const foreign = [];
  page.on('request', r => {
    const u = new URL(r.url());
    if (!['http:', 'https:'].includes(u.protocol) || u.origin === new URL(BASE).origin) {
      return;
    }
    foreign.push(r.url());
  });
  const resp = await page.goto(`${BASE}/rst/`);
  check(resp?.status() === 200, `GET /rst/ answered ${resp?.status()}`);
  await page.locator('#sign-in').waitFor();
  check(foreign.length === 0, `requests to other hosts: ${foreign.join(', ')}`);
  await suite.shot('sign-in page');
});

suite.step('wrong credentials are refused, and the page says so', async () => {
  await page.fill('#user', USER);
  await page.fill('#password', PASSWORD + '-wrong');
  await page.click('#sign-in');
  const msg = page.locator('#signin-error');
  await msg.waitFor({ state: 'visible' });
  const text = await msg.textContent();
  check(/wrong user name or password/i.test(text ?? ''), `the sign-in said "${text}"`);
  check(await page.locator('#switches').count() === 0, 'the switches show although the credentials were wrong');
  await suite.shot('wrong credentials refused');
});

suite.step('sign in', async () => {
  await page.fill('#password', PASSWORD);
  await page.click('#sign-in');
  await page.locator('#switches').waitFor();
  await page.locator('#traffic-paths').waitFor();
});

suite.step('see the switches and their states', async () => {
  await page.locator('#switches tbody tr[data-switch]').first().waitFor();
  const capturing = await until(async () => {
    const rows = await page.locator('#switches tbody tr[data-switch]').evaluateAll(trs => trs.map(tr => ({
      id: tr.getAttribute('data-switch'),
      state: tr.querySelector('.agent-state .badge')?.textContent?.trim(),
      sessions: Number(tr.querySelector('.sessions')?.textContent?.replace(/,/g, '') ?? '0'),
    })));
    const c = rows.filter(r => r.state === 'capturing');
    return c.length ? { rows, c } : undefined;
  }, 'no switch shows "capturing"', 60000);
  for (const r of capturing.rows) {
    check(r.state && r.state.length > 0, `switch ${r.id} shows no agent state`);
  }
  target = process.env.RST_SWITCH ?? (capturing.c.find(r => /spine/.test(r.id)) ?? capturing.c.find(r => r.sessions > 0) ?? capturing.c[0]).id;
  check(capturing.c.some(r => r.id === target), `${target} is not capturing`);
  const through = await sessionsThrough(target);
  transit = through.some(p => ['forward', 'reverse'].some(d => {
    const hops = p[d]?.hop ?? [];
    const i = hops.findIndex(h => h['node-id'] === target);
    return i > 0 && i < hops.length - 1;
  }));
  await suite.shot('switches');
});

suite.step('turn a switch\'s RFT off and see it in RESTCONF', async () => {
  const toggle = row(target).locator('button.toggle');
  check(await toggle.getAttribute('aria-checked') === 'true', `${target}'s toggle is not on`);
  await toggle.click();
  await until(async () => (await switchConfig(target))?.enabled === false, `RESTCONF still has ${target} enabled`);
  await until(async () => await rowState(target) === 'off', `the row of ${target} does not say "off" (says "${await rowState(target)}")`, 30000);
  await suite.shot(`${target} turned off`);
});

/** The agent's own word on its capture (GET /v1/status with the switch's token), when the test has the token. */
async function agentCapturing(id) {
  const cfg = await switchConfig(id);
  const token = readFileSync(join(process.env.RST_AGENT_TOKEN_DIR, id), 'utf8').trim();
  const scheme = cfg['agent-transport'] === 'tls' ? 'https' : 'http';
  const r = await fetch(`${scheme}://${cfg['agent-address']}:${cfg['agent-port'] ?? 4791}/v1/status`, { headers: { Authorization: `Bearer ${token}` } });
  return (await r.json()).capturing;
}

suite.step('see it in the agent status', async () => {
  await until(async () => await agentState(target) === 'DISABLED', `agent-status of ${target} is not DISABLED`, 30000);
  if (process.env.RST_AGENT_TOKEN_DIR) {
    await until(async () => await agentCapturing(target) === false, `the agent of ${target} still captures`, 30000);
  }
  await page.click(`#switches tr[data-switch="${target}"] a.switch-link`);
  await page.locator('.switch-head .badge', { hasText: 'off' }).waitFor();
  await suite.shot(`${target} flow table while off`);
});

suite.step('see the switch as a gap in the path view', async () => {
  if (!transit) {
    const why = `no path crossed ${target} between two other switches before it was turned off`;
    check(process.env.RST_EXPECT_GAP !== '1', why);
    skip(why);
  }
  await page.click('#traffic-paths');
  await page.locator('.paths[data-complete]').waitFor({ timeout: 120000 });
  const found = await until(async () => {
    await page.fill('#path-search', `gap:yes node:${target}`);
    const n = await page.locator('.path-list .vrow').count();
    if (n === 0) {
      return false;
    }
    await page.locator('.path-list .vrow').first().click();
    const gaps = page.locator('#side .gaps li');
    await gaps.first().waitFor({ timeout: 5000 });
    return (await gaps.allTextContents()).some(t => t.includes(target));
  }, `no path shows a gap at ${target}`, 45000, 2000);
  check(found, 'no gap');
  const marked = await page.evaluate(t => window.rstFabric?.gapNodes?.() ?? [], target);
  check(marked.includes(target), `the fabric does not mark ${target} as the gap (marked: ${marked.join(', ')})`);
  await suite.shot(`gap at ${target} on the fabric`);
});

suite.step('turn it on again', async () => {
  await page.goto(`${BASE}/rst/#/`);
  const toggle = row(target).locator('button.toggle');
  await toggle.waitFor();
  await toggle.click();
  await until(async () => (await switchConfig(target))?.enabled === true, `RESTCONF still has ${target} disabled`);
  await until(async () => await rowState(target) === 'capturing', `${target} does not capture again (says "${await rowState(target)}")`, 60000);
  if (process.env.RST_AGENT_TOKEN_DIR) {
    await until(async () => await agentCapturing(target) === true, `the agent of ${target} does not capture again`, 30000);
  }
  await suite.shot(`${target} on again`);
});

suite.step('a switch the topology knows but RFT does not: shown as not configured, its toggle creates it', async () => {
  // a topology of its own, so that the fabric under test is left as it was
  const node = 'ui-test-switch';
  const put = await restconf('data/network-topology:network-topology/topology=rst-ui-test', {
    method: 'PUT', body: JSON.stringify({ 'network-topology:topology': [{ 'topology-id': 'rst-ui-test',
      node: [{ 'node-id': node, 'rst-topology:node-kind': 'switch' }] }] }),
  });
  check(put.status === 201 || put.status === 204, `PUT of a test topology answered ${put.status}`);
  try {
    await page.goto(`${BASE}/rst/#/`);
    await until(async () => {
      await page.reload();
      await row(node).waitFor({ timeout: 10000 });
      return true;
    }, `${node} is not listed`, 60000, 1000);
    check(await rowState(node) === 'not configured', `${node} says "${await rowState(node)}"`);
    await suite.shot('a switch not configured yet');
    await row(node).locator('input.address').fill('127.0.0.99');
    await row(node).locator('button.toggle').click();
    await until(async () => (await switchConfig(node))?.enabled === true, `RESTCONF has no enabled ${node}`);
    const cfg = await switchConfig(node);
    check(cfg['agent-address'] === '127.0.0.99', `the agent address is ${cfg['agent-address']}`);
    await until(async () => !['not configured', 'turning on…'].includes(await rowState(node) ?? ''),
      `${node} still says "${await rowState(node)}"`, 30000);
  } finally {
    await restconf(`data/rdma-flow-table:rft/switch=${node}`, { method: 'DELETE' });
    await restconf('data/network-topology:network-topology/topology=rst-ui-test', { method: 'DELETE' });
  }
});

let sessionSwitch;

suite.step('open a flow table', async () => {
  sessionSwitch = await until(async () => page.locator('#switches tbody tr[data-switch]').evaluateAll(trs => trs
    .map(tr => ({ id: tr.getAttribute('data-switch'), n: Number(tr.querySelector('.sessions')?.textContent?.replace(/,/g, '') ?? '0') }))
    .filter(r => r.n > 0).sort((a, b) => b.n - a.n)[0]?.id), 'no switch has sessions', 60000);
  await page.click(`#switches tr[data-switch="${sessionSwitch}"] a.switch-link`);
  await page.locator('.flows[data-ready]').waitFor();
  await until(async () => /\d+ sessions/.test(await page.locator('#flow-count').textContent() ?? ''), 'the flow table shows no count');
  check(await page.locator('.vrow').count() > 0, 'the flow table shows no row');
  await suite.shot(`${sessionSwitch} flow table`);
});

const cellTexts = async col => page.locator('.vrow').evaluateAll((rows, c) => rows.map(r => r.children[c]?.textContent?.trim() ?? ''), col);
const colIndex = async label => page.locator('.vhead [role=columnheader]').evaluateAll((hs, l) => hs.findIndex(h => h.textContent?.startsWith(l)), label);

suite.step('filter and sort it', async () => {
  const total = await page.locator('#flow-count').textContent();
  const states = await cellTexts(0);
  const want = states.includes('rejected') ? 'rejected' : states[0];
  await page.fill('#flow-search', `state:${want.replace(' ', '_')}`);
  await until(async () => (await page.locator('#flow-count').textContent())?.includes(' of '), `the count did not change from "${total}"`);
  const shown = await cellTexts(0);
  check(shown.length > 0 && shown.every(s => s === want), `filtered on ${want} but rows show ${[...new Set(shown)].join(', ')}`);
  const ms = Number(await page.locator('#flow-timing').getAttribute('data-filter-ms'));
  check(ms < 300, `filtering took ${ms} ms (floor 300 ms)`);
  const qpnCol = await colIndex('Req. QPN');
  await page.click('.vhead button.sort >> text=Req. QPN');
  const asc = (await cellTexts(qpnCol)).map(t => parseInt(t, 10)).filter(n => !Number.isNaN(n));
  check(asc.every((v, i) => i === 0 || asc[i - 1] <= v), `not ascending: ${asc.slice(0, 8).join(', ')}`);
  await page.click('.vhead button.sort >> text=Req. QPN');
  const desc = (await cellTexts(qpnCol)).map(t => parseInt(t, 10)).filter(n => !Number.isNaN(n));
  check(desc.every((v, i) => i === 0 || desc[i - 1] >= v), `not descending: ${desc.slice(0, 8).join(', ')}`);
  await suite.shot(`${sessionSwitch} flow table filtered on ${want}, sorted by QPN`);
});

suite.step('open a session\'s timeline and path', async () => {
  // a CM session: its CM messages make the timeline (records learnt from data have none)
  await page.fill('#flow-search', 'from:cm');
  await until(async () => await page.locator('.vrow').count() > 0, 'no session learnt from CM in the flow table');
  await page.locator('.vrow').first().click();
  await page.locator('.session[data-ready]').waitFor();
  await page.locator('#timeline tbody tr').first().waitFor();
  const types = await page.locator('#timeline tbody tr').evaluateAll(trs => trs.map(tr => tr.getAttribute('data-type')));
  check(types.length > 0 && types.every(t => /^[A-Z_]+$/.test(t ?? '')), `timeline rows: ${types.join(', ')}`);
  await until(async () => await page.locator('.path-words .direction, .path-words p').count() > 0, 'the path part stays empty');
  await suite.shot('session timeline and path');
});

suite.step('click a port and get its sessions', async () => {
  const port = page.locator('#timeline button.port').first();
  const tp = await port.getAttribute('data-tp');
  await port.click();
  const box = page.locator('#port-sessions .through, #port-sessions .error');
  await box.first().waitFor();
  const title = await page.locator('#port-sessions h3').textContent();
  check(title?.includes(`through ${sessionSwitch} ${tp}`), `the answer is titled "${title}"`);
  await suite.shot(`sessions through ${sessionSwitch} ${tp}`);
  // and from the fabric's side panel: a switch, then one of its ports
  await page.click('#traffic-paths');
  await page.locator('.paths[data-ready]').waitFor();
  await page.locator('#node-list button').first().waitFor();
  const mine = page.locator(`#node-list button[data-node="${sessionSwitch}"]`);
  await (await mine.count() ? mine : page.locator('#node-list button').first()).click();
  await page.locator('#ports button.port').first().click();
  await page.locator('#through h3').waitFor();
  const t2 = await page.locator('#through h3').textContent();
  check(/\d+ sessions? through/.test(t2 ?? ''), `the fabric's port answer is "${t2}"`);
  await suite.shot('fabric port sessions');
});

suite.step('see a session\'s path lit on the fabric', async () => {
  await page.locator('.path-list .vrow').first().waitFor();
  await page.locator('.path-list .vrow').first().click();
  await page.locator('#side .direction').first().waitFor();
  const lit = await page.evaluate(() => window.rstFabric?.routeEdgeCount?.() ?? -1);
  check(lit !== 0, 'no hop lit on the fabric');
  await suite.shot('path on the fabric');
  await page.setViewportSize({ width: 1920, height: 1080 });
  await suite.shot('path on the fabric, large screen');
  await page.setViewportSize({ width: 1280, height: 800 });
});

/** The controller's problems as RESTCONF has them: id to what the problems view shows of each. */
async function insightProblems() {
  const r = await restconf('data/rst-insight:problems?content=nonconfig');
  check(r.status === 200, `rst-insight:problems answers HTTP ${r.status}: is odl-rst-insight running?`);
  const listed = r.json?.['rst-insight:problems']?.problem ?? [];
  return new Map(listed.map(p => [p.id, { kind: p.kind, severity: p.severity, title: p.title, count: Number(p.count) }]));
}

/** The problems view's rows, by the problem's id. */
async function shownProblems() {
  return new Map(await page.locator('#problems tbody tr[data-id]').evaluateAll(rows => rows.map(tr => [tr.dataset.id, {
    kind: tr.dataset.kind,
    severity: tr.querySelector('td:nth-child(1)')?.textContent?.trim(),
    title: tr.querySelector('td:nth-child(2) strong')?.textContent,
    count: Number(tr.querySelector('td.num')?.textContent?.replace(/[^0-9]/g, '')),
  }])));
}

/** What differs between the two, in words; empty when they agree. */
function problemDiff(insight, shown) {
  const out = [];
  for (const [id, want] of insight) {
    const got = shown.get(id);
    if (!got) {
      out.push(`${id}: in rst-insight:problems, not shown`);
    } else {
      for (const k of ['kind', 'severity', 'title', 'count']) {
        if (got[k] !== want[k]) {
          out.push(`${id}: ${k} "${got[k]}" shown, "${want[k]}" in rst-insight:problems`);
        }
      }
    }
  }
  for (const id of shown.keys()) {
    if (!insight.has(id)) {
      out.push(`${id}: shown, not in rst-insight:problems`);
    }
  }
  return out;
}

suite.step('see the controller\'s problems, as rst-insight:problems has them', async () => {
  await page.click('a[href="#/problems"]');
  await page.locator('.problems[data-updated]').waitFor({ timeout: 60000 });
  // both read the same container, but at different moments: wait for a moment they agree
  let diff = [];
  let insight = new Map();
  try {
    await until(async () => {
      insight = await insightProblems();
      diff = problemDiff(insight, await shownProblems());
      return diff.length === 0;
    }, 'the problems view never matched rst-insight:problems', 60000, 1000);
  } catch (e) {
    throw new Error(`${e.message}: ${diff.slice(0, 10).join('; ')}`);
  }
  if (insight.size === 0) {
    check(await page.locator('#problems td.empty').count() === 1, 'no problem in rst-insight:problems, yet the view '
      + 'does not say "No problem seen."');
  }
  await suite.shot('problems');
});

suite.step('see a rejected session among the problems', async () => {
  await page.click('a[href="#/problems"]');
  const rejected = page.locator('#problems tr[data-kind="rejected"]');
  await rejected.first().waitFor({ timeout: 60000 });
  const id = await rejected.first().getAttribute('data-id');
  const where = await rejected.first().locator('td.where').textContent();
  check(/REJ/.test(where ?? ''), `the rejection does not say where: "${where}"`);
  // the controller's words, unchanged
  const detail = (await restconf(`data/rst-insight:problems/problem=${enc(id)}?content=nonconfig`))
    .json?.['rst-insight:problem']?.[0]?.detail;
  check(detail !== undefined && (where ?? '').startsWith(detail), `the view says "${where}", rst-insight:problems "${detail}"`);
  await rejected.first().locator('td.sessions a').first().click();
  await page.locator('#timeline tr[data-type="REJ"]').first().waitFor();
  await suite.shot('rejected session');
});

suite.step('find a session learnt from its data (no CM) and see both its QPs', async () => {
  // a paired data-learned session, as RESTCONF has it: which switch, which QPs
  const fields = 'switch(node-id;session(session-id;learned-from;one-way;requester-qpn;responder-qpn))';
  let found;
  try {
    found = await until(async () => {
      const r = await restconf(`data/rdma-flow-table:rft?content=nonconfig&fields=${enc(fields)}`);
      for (const sw of r.json?.['rdma-flow-table:rft']?.switch ?? []) {
        const s = (sw.session ?? []).find(x => x['learned-from'] === 'data' && x['one-way'] !== true
          && x['requester-qpn'] !== undefined && x['responder-qpn'] !== undefined);
        if (s) {
          return { node: sw['node-id'], s };
        }
      }
      return undefined;
    }, 'no switch lists a session learnt from data', 30000, 1000);
  } catch (e) {
    check(process.env.RST_EXPECT_DATA !== '1', e.message);
    skip(e.message);
  }
  const { node, s } = found;
  const id = s['session-id'];
  check(/^[0-9.]+\/qp0x[0-9a-f]{6}\/[0-9.]+\/qp0x[0-9a-f]{6}$/.test(id), `a data-learned session's id is "${id}"`);
  // its switch's flow table, filtered on one of its QPs, shows it with both
  await page.goto(`${BASE}/rst/#/switch/${enc(node)}`);
  await page.locator('.flows[data-ready]').waitFor({ timeout: 60000 });
  await page.fill('#flow-search', `qpn:${s['requester-qpn']}`);
  const cells = await until(async () => {
    const rows = await page.locator('.vrow').evaluateAll(rs => rs.map(r => [...r.children].map(c => c.textContent?.trim() ?? '')));
    return rows.find(r => r.some(c => c.startsWith(`${s['requester-qpn']} (`)) && r.some(c => c.startsWith(`${s['responder-qpn']} (`)));
  }, `${node}'s flow table shows no row with QPs ${s['requester-qpn']} and ${s['responder-qpn']}`, 30000);
  // where the table says how a session was learnt (a column, or a badge), it says data
  const learnedCol = await colIndex('Learn');
  if (learnedCol >= 0) {
    check(/data/i.test(cells[learnedCol] ?? ''), `the "Learned" column says "${cells[learnedCol]}"`);
  }
  check(['active', 'idle'].includes(cells[0]), `the data-learned session's state reads "${cells[0]}"`);
  await suite.shot(`${node} flow table, a session learnt from data`);
  // and its own page, under its id
  await page.goto(`${BASE}/rst/#/switch/${enc(node)}/session/${enc(id)}`);
  await page.locator('.session[data-ready]').waitFor({ timeout: 30000 });
  const title = await page.locator('h1').first().textContent();
  check(title?.includes(id), `the session page is titled "${title}"`);
  await suite.shot('a session learnt from data');
});

/** A path whose data some switch saw arrive CE-marked, as RESTCONF has it; undefined when none (or an older model). */
async function markedPath() {
  const dir = 'complete;marked-at(node-id;egress-tp;next-node-id;next-ingress-tp;certain);hop(node-id;observed;ce-packets;ce-share)';
  const fields = `path(session-id;learned-from;data-forward(${dir});data-reverse(${dir}))`;
  const r = await restconf(`data/rdma-path-table:rpt?fields=${enc(fields)}`);
  for (const p of r.json?.['rdma-path-table:rpt']?.path ?? []) {
    for (const d of [p['data-forward'], p['data-reverse']]) {
      if (d?.['marked-at'] && (d.hop ?? []).some(h => Number(h['ce-packets'] ?? 0) > 0)) {
        return { id: p['session-id'], dir: d, seenBy: (d.hop ?? []).find(h => h.observed)?.['node-id'] };
      }
    }
  }
  return undefined;
}

suite.step('see where a session\'s data is marked CE, hop by hop and on the fabric', async () => {
  let found;
  try {
    found = await until(markedPath, 'skipped: no congestion in this data (no data path with a CE-marked hop)', 20000, 2000);
  } catch (e) {
    check(process.env.RST_EXPECT_CONGESTION !== '1', e.message);
    skip(e.message);
  }
  const { id, dir } = found;
  const m = dir['marked-at'];
  await page.goto(`${BASE}/rst/#/paths/${enc(id)}`);
  await page.locator('.paths[data-ready]').waitFor({ timeout: 60000 });
  const marked = page.locator('#side .marked-at').first();
  await marked.waitFor({ timeout: 30000 });
  const text = await marked.textContent();
  check(text?.startsWith(`marked at ${m['node-id'] ?? 'an unknown sender'}`) && text.includes(`→ ${m['next-node-id']}`),
    `the direction says "${text}", marked-at is ${JSON.stringify(m)}`);
  check(text.includes('(may be earlier)') === (m.certain === false), `"${text}" and certain ${m.certain} disagree`);
  const graded = await page.locator('#side table.hops tr[data-grade^="ce-"]').evaluateAll(trs => trs.map(tr => tr.dataset.node));
  const ceHops = (dir.hop ?? []).filter(h => Number(h['ce-packets'] ?? 0) > 0).map(h => h['node-id']);
  check(ceHops.every(n => graded.includes(n)), `CE hops ${ceHops.join(', ')}, coloured rows ${graded.join(', ')}`);
  const title = await page.locator(`#side table.hops tr[data-node="${ceHops[0]}"][data-grade^="ce-"]`).first().getAttribute('title');
  check(/CE \d+/.test(title ?? ''), `the CE hop's tooltip is "${title}"`);
  // the fabric draws the link where marking starts when the topology has both its ends
  const drawn = await page.evaluate(() => window.rstFabric?.routeEdgeCount?.() ?? 0);
  if (drawn > 0 && m['node-id'] !== undefined) {
    const lines = await until(async () => {
      const c = await page.evaluate(() => window.rstFabric?.routeCongestion?.() ?? []);
      return c.some(x => x.includes('marked')) ? c : undefined;
    }, 'no line of the fabric is marked where marking starts', 15000);
    check(lines.some(x => /ce-[123]/.test(x)), `the fabric's lines carry no CE grade: ${lines.join(', ')}`);
  } else {
    console.log(`  (no fabric line to mark: ${drawn} lines lit, marked-at node ${m['node-id'] ?? 'unknown'})`);
  }
  await suite.shot('congestion on a path');
});

suite.step('see a session\'s CE marks and CNPs over time', async () => {
  let found;
  try {
    found = await until(markedPath, 'skipped: no congestion in this data', 5000, 1000);
  } catch (e) {
    check(process.env.RST_EXPECT_CONGESTION !== '1', e.message);
    skip(e.message);
  }
  if (!found.seenBy) {
    skip('the marked session\'s data path has no observed hop to open it from');
  }
  await page.goto(`${BASE}/rst/#/switch/${enc(found.seenBy)}/session/${enc(found.id)}`);
  await page.locator('.session[data-ready]').waitFor({ timeout: 30000 });
  const hist = page.locator('#congestion-history');
  await hist.waitFor({ timeout: 30000 });
  // the view polls every 5 s or more: three samples (two increments) draw the lines
  await until(async () => Number(await hist.getAttribute('data-samples')) >= 3, 'the history did not grow to three samples',
    45000, 500);
  await until(async () => await hist.locator('svg.spark polyline').count() > 0, 'no sparkline drawn after three samples', 5000);
  await suite.shot('congestion over time');
});

suite.step('see a paused port, its pauses per priority and the sessions they hold up', async () => {
  const r = await restconf('data/rdma-path-table:rpt?fields=paused-port');
  const paused = r.json?.['rdma-path-table:rpt']?.['paused-port'] ?? [];
  if (paused.length === 0) {
    check(process.env.RST_EXPECT_CONGESTION !== '1', 'no port in rpt/paused-port');
    // no pause now: a port whose agent counted PFC frames still shows them, per priority
    const st = await restconf(`data/rdma-flow-table:rft?content=nonconfig&fields=${enc('switch(node-id;agent-status(pfc))')}`);
    const sw = (st.json?.['rdma-flow-table:rft']?.switch ?? []).find(x => (x['agent-status']?.pfc ?? []).length > 0);
    if (!sw) {
      skip('skipped: no congestion in this data (no port in rpt/paused-port, no PFC frame counted)');
    }
    const e = sw['agent-status'].pfc[0];
    const tp = e['tp-id'] ?? e.interface;
    await page.goto(`${BASE}/rst/#/port/${enc(sw['node-id'])}/${enc(tp)}`);
    await page.locator('.port[data-ready]').waitFor({ timeout: 30000 });
    const row = page.locator(`#pfc tr[data-priority="${e.priority}"]`);
    await row.waitFor({ timeout: 15000 });
    const frames = (await row.locator('td:nth-child(4)').textContent())?.replace(/[^0-9]/g, '');
    check(frames === String(e.frames), `PFC frames: shown ${frames}, the agent status ${e.frames}`);
    await page.locator('#through h3').waitFor({ timeout: 60000 });
    await suite.shot(`port ${sw['node-id']} ${tp}, not paused now`);
    skip(`no port in rpt/paused-port (nothing paused now); ${sw['node-id']} ${tp}'s PFC counts shown`);
  }
  const p = paused.find(x => (x.session ?? []).length > 0) ?? paused[0];
  await page.goto(`${BASE}/rst/#/port/${enc(p['node-id'])}/${enc(p['tp-id'])}`);
  await page.locator('.port[data-ready]').waitFor({ timeout: 30000 });
  const row = page.locator(`#pfc tr[data-priority="${p.priority}"]`);
  await row.waitFor({ timeout: 15000 });
  const held = (await row.locator('td.held-up strong').textContent())?.replace(/[^0-9]/g, '');
  check(held === String(p['session-count'] ?? (p.session ?? []).length), `held up: shown ${held}, paused-port ${p['session-count']}`);
  const links = await row.locator('.held-sessions a.mono').count();
  check(links === (p.session ?? []).length, `${links} session links, paused-port names ${(p.session ?? []).length}`);
  await page.locator('#through h3').waitFor({ timeout: 60000 });
  await suite.shot(`port ${p['node-id']} ${p['tp-id']}`);
  // and from the fabric: the switch's panel marks the port paused
  await page.goto(`${BASE}/rst/#/paths`);
  await page.locator('.paths[data-complete]').waitFor({ timeout: 120000 });
  const node = page.locator(`#node-list button[data-node="${p['node-id']}"]`);
  if (await node.count()) {
    await node.click();
    await page.locator(`#ports [data-paused="${p['tp-id']}"]`).waitFor({ timeout: 15000 });
  }
});

suite.step('see the congestion problems with their places', async () => {
  const r = await restconf('data/rst-insight:problems?content=nonconfig');
  const kinds = ['congested', 'pfc-storm', 'pfc-deadlock-suspect'];
  const listed = (r.json?.['rst-insight:problems']?.problem ?? []).filter(x => kinds.includes(x.kind));
  if (listed.length === 0) {
    check(process.env.RST_EXPECT_CONGESTION !== '1', 'no congestion problem in rst-insight:problems');
    skip('skipped: no congestion in this data (no congested, pfc-storm or pfc-deadlock-suspect problem)');
  }
  await page.goto(`${BASE}/rst/#/problems`);
  await page.locator('.problems[data-updated]').waitFor({ timeout: 60000 });
  for (const want of listed) {
    const row = page.locator(`#problems tr[data-id="${want.id.replace(/["\\]/g, '\\$&')}"]`);
    await row.waitFor({ timeout: 30000 });
    const tone = await row.locator('td:nth-child(1) .badge').getAttribute('class');
    check(tone?.includes(want.severity === 'critical' ? 'tone-bad' : 'tone-warn'), `${want.id}: severity ${want.severity}, badge "${tone}"`);
    const places = await row.locator('a.place').evaluateAll(as => as.map(a => a.getAttribute('href')));
    const ends = want['peer-node-id'] ? 2 : want['node-id'] ? 1 : 0;
    check(places.length === ends, `${want.id}: ${places.length} places shown, ${ends} in the problem`);
    if (want['tp-id']) {
      check(places[0] === `#/port/${enc(want['node-id'])}/${enc(want['tp-id'])}`, `${want.id}: its place links to ${places[0]}`);
    }
  }
  await suite.shot('congestion problems');
});

suite.step('read it in the dark theme', async () => {
  await page.goto(`${BASE}/rst/#/`);
  await page.locator('#switches tbody tr[data-switch]').first().waitFor();
  await page.click('#theme');
  check(await page.evaluate(() => document.documentElement.dataset.theme) === 'dark', 'the theme did not change');
  await suite.shot('switches, dark theme');
  await page.click('#traffic-paths');
  await page.locator('.paths[data-ready]').waitFor();
  await suite.shot('fabric, dark theme');
  await page.click('#theme');
});

suite.step('use the flow table by keyboard alone', async () => {
  await page.goto(`${BASE}/rst/#/`);
  await page.locator('#switches tbody tr[data-switch]').first().waitFor();
  // from the switch's link, by keyboard: Enter follows it
  await page.locator(`#switches tr[data-switch="${sessionSwitch}"] a.switch-link`).focus();
  await page.keyboard.press('Enter');
  await page.locator('.flows[data-complete]').waitFor({ timeout: 120000 });
  check(await page.evaluate(() => document.activeElement?.id) === 'flow-search', 'the search box does not have the focus');
  await page.keyboard.press('Control+A');
  await page.keyboard.type('state:est');
  await until(async () => (await page.locator('#flow-count').textContent())?.includes(' of '), 'typing did not filter');
  for (let i = 0; i < 6 && !(await page.evaluate(() => document.activeElement?.classList.contains('vscroll'))); i++) {
    await page.keyboard.press('Tab');
  }
  check(await page.evaluate(() => document.activeElement?.classList.contains('vscroll')), 'Tab does not reach the table');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await until(async () => await page.locator('.vrow.active').count() === 1, 'no row is marked as the active one');
  await suite.shot('flow table, keyboard');
  await page.keyboard.press('Enter');
  await page.locator('.session[data-ready] #timeline').waitFor();
  check(page.url().includes('/session/'), `Enter did not open the session (${page.url()})`);
});

suite.step('an unreachable controller is shown as such', async () => {
  await page.goto(`${BASE}/rst/#/`);
  await page.locator('#switches tbody tr[data-switch]').first().waitFor();
  // the controller goes away while the page is open
  await page.route('**/rests/**', route => route.abort('connectionrefused'));
  const banner = page.locator('#unreachable');
  await banner.waitFor({ state: 'visible', timeout: 30000 });
  check(/controller unreachable/i.test(await banner.textContent() ?? ''), 'the banner does not say the controller is unreachable');
  check(/unreachable/.test(await page.locator('.conn').textContent() ?? ''), 'the header does not say unreachable');
  await suite.shot('controller unreachable');
  await page.unroute('**/rests/**');
  await banner.waitFor({ state: 'hidden', timeout: 30000 });
});

suite.step('no script error on the way', async () => {
  check(errors.length === 0, `page errors: ${errors.join(' | ')}`);
});

const ok = await suite.run();
await context.close();
process.exit(ok ? 0 : 1);
