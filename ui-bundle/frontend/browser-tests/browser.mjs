/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */

// Debian's Chromium, headless, driven by playwright-core: no browser is ever downloaded. The flags
// keep Chromium from reaching for Google's hosts (this machine's network refuses them, many at a
// time) and let it run as root in a container.

import { chromium } from 'playwright-core';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function chromiumPath() {
  const candidates = [process.env.RST_CHROMIUM, '/usr/bin/chromium', '/usr/lib/chromium/chromium', '/usr/bin/chromium-browser']
    .filter(Boolean);
  const found = candidates.find(p => existsSync(p));
  if (!found) {
    throw new Error(`no Chromium found (tried ${candidates.join(', ')}): apt-get install chromium, or set RST_CHROMIUM`);
  }
  return found;
}

export async function launch() {
  // a fresh profile each run (no state carried between runs), removed when the browser closes
  const userDataDir = mkdtempSync(join(tmpdir(), 'rst-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: chromiumPath(),
    headless: true,
    viewport: { width: 1280, height: 800 },
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
  // Chromium may still be writing its profile as it closes: retry, and never let a leftover temp
  // directory fail a run whose steps all passed
  context.on('close', () => {
    try {
      rmSync(userDataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
    } catch (e) {
      console.log(`note: could not remove the browser profile ${userDataDir}: ${e.message}`);
    }
  });
  return context;
}
