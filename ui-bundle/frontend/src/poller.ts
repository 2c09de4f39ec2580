/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */

// Live views poll RESTCONF. A fixed rate that is fine for a lab is a denial of service at 100,000
// sessions, so each poll waits for the previous one and the pause after it grows with what the
// last answer cost: the UI keeps the controller busy at most 1/(costFactor+1) of the time per open
// view, however big the tables get. A hidden tab does not poll at all.

export interface PollOptions {
  /** Shortest pause between two polls. */
  readonly minMs: number;
  /** Longest pause. */
  readonly maxMs: number;
  /** The pause is at least this many times the last poll's duration. */
  readonly costFactor: number;
}

/** The pause after a poll that took `tookMs` (pure, for the tests). */
export function nextDelay(tookMs: number, failed: number, o: PollOptions): number {
  if (failed > 0) {
    // unreachable: retry soon, then back off, so that the banner clears quickly when it comes back
    return Math.min(o.maxMs, Math.max(1000, o.minMs / 2) * 2 ** Math.min(failed - 1, 4));
  }
  return Math.min(o.maxMs, Math.max(o.minMs, tookMs * o.costFactor));
}

export class Poller {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running = false;
  private stopped = true;
  private failed = 0;
  private again = false;
  private readonly onVisibility = () => {
    if (!document.hidden && !this.stopped) {
      this.kick();
    }
  };

  constructor(private readonly task: () => Promise<void>, private readonly options: PollOptions) {}

  /** Starts polling, now or after a pause (when the view already shows fresh data). */
  start(initialDelayMs = 0): void {
    if (!this.stopped) {
      return;
    }
    this.stopped = false;
    document.addEventListener('visibilitychange', this.onVisibility);
    if (initialDelayMs > 0) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        void this.run();
      }, initialDelayMs);
    } else {
      this.kick();
    }
  }

  stop(): void {
    this.stopped = true;
    document.removeEventListener('visibilitychange', this.onVisibility);
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
  }

  /** Poll now (after a write, say), or right after the poll in flight. */
  kick(): void {
    if (this.stopped) {
      return;
    }
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    void this.run();
  }

  private async run(): Promise<void> {
    this.running = true;
    const t0 = performance.now();
    try {
      await this.task();
      this.failed = 0;
    } catch {
      // the task shows its own error; the poller only slows down
      this.failed++;
    }
    this.running = false;
    if (this.stopped) {
      return;
    }
    if (this.again) {
      this.again = false;
      void this.run();
      return;
    }
    if (document.hidden) {
      return; // onVisibility restarts it
    }
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.run();
    }, nextDelay(performance.now() - t0, this.failed, this.options));
  }
}
