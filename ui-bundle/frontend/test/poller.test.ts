/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */

import { describe, expect, it } from 'vitest';
import { nextDelay } from '../src/poller';

describe('poll pacing', () => {
  const o = { minMs: 3000, maxMs: 60000, costFactor: 10 };

  it('polls at the floor while answers are cheap', () => {
    expect(nextDelay(50, 0, o)).toBe(3000);
  });

  it('waits ten times what the last answer took when answers are dear (100,000 sessions)', () => {
    expect(nextDelay(2500, 0, o)).toBe(25000);
    expect(nextDelay(20000, 0, o)).toBe(60000);
  });

  it('retries an unreachable controller soon, then backs off, never beyond the ceiling', () => {
    const d = [1, 2, 3, 4, 5, 9].map(f => nextDelay(0, f, o));
    expect(d[0]).toBe(1500);
    for (let i = 1; i < d.length; i++) {
      expect(d[i]).toBeGreaterThanOrEqual(d[i - 1]);
    }
    expect(d.at(-1)).toBeLessThanOrEqual(60000);
  });
});
