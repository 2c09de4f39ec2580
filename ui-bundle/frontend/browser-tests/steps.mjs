/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */

// A small step runner in Playwright's manner: a suite is the operator's steps in order, each
// named; a step waits on what the page shows (never a bare sleep), every view gets a screenshot,
// and a failing step is named and photographed, and the steps after it are skipped (they build on
// it). The last line is "N passed, N failed, N skipped".

import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

export class Skip extends Error {}

export function skip(reason) {
  throw new Skip(reason);
}

export function slug(s) {
  return s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60);
}

/** Polls fn until it returns something truthy (returned), or fails after timeoutMs with the message. */
export async function until(fn, message, timeoutMs = 15000, everyMs = 250) {
  const deadline = Date.now() + timeoutMs;
  let last;
  for (;;) {
    try {
      const v = await fn();
      if (v) {
        return v;
      }
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) {
      throw new Error(`${message} (waited ${timeoutMs / 1000} s)${last ? `: ${last.message}` : ''}`);
    }
    await new Promise(r => setTimeout(r, everyMs));
  }
}

export function check(condition, message) {
  if (!condition) {
    throw new Error(message);
  }
}

export class Suite {
  constructor(page, screenshotDir) {
    this.page = page;
    this.dir = screenshotDir;
    this.steps = [];
    this.shots = 0;
    mkdirSync(screenshotDir, { recursive: true });
    // one run's pictures only: an old FAILED-* beside a green run would mislead
    for (const f of readdirSync(screenshotDir)) {
      if (f.endsWith('.png')) {
        rmSync(join(screenshotDir, f));
      }
    }
  }

  step(name, fn) {
    this.steps.push({ name, fn });
  }

  /** A screenshot of the view the step shows, numbered in the order taken. */
  async shot(name) {
    this.shots++;
    const file = join(this.dir, `${String(this.shots).padStart(2, '0')}-${slug(name)}.png`);
    await this.page.screenshot({ path: file });
    return file;
  }

  async run() {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    let broken;
    for (const [i, s] of this.steps.entries()) {
      const n = i + 1;
      if (broken) {
        console.log(`skip ${n} - ${s.name} (after "${broken}" failed)`);
        skipped++;
        continue;
      }
      const t0 = Date.now();
      try {
        await s.fn();
        console.log(`ok ${n} - ${s.name} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
        passed++;
      } catch (e) {
        if (e instanceof Skip) {
          console.log(`skip ${n} - ${s.name}: ${e.message}`);
          skipped++;
          continue;
        }
        failed++;
        broken = s.name;
        const file = join(this.dir, `FAILED-${String(n).padStart(2, '0')}-${slug(s.name)}.png`);
        await this.page.screenshot({ path: file }).catch(() => undefined);
        console.log(`not ok ${n} - ${s.name}`);
        console.log(`  FAILED STEP: "${s.name}": ${e.message}`);
        console.log(`  screenshot: ${file}`);
      }
    }
    console.log(`browser: ${passed} passed, ${failed} failed, ${skipped} skipped`);
    return failed === 0;
  }
}
