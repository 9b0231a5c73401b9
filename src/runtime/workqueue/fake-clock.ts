// A manual clock for tests: time moves only when advance() is called, and due timers fire in order.
import type { Clock, TimerHandle } from './clock.ts';

interface FakeTimer {
  at: number;
  seq: number;
  fn: () => void;
  cancelled: boolean;
}

export class FakeClock implements Clock {
  private time: number;
  private seq = 0;
  private timers: FakeTimer[] = [];

  constructor(start = 0) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  schedule(fn: () => void, ms: number): TimerHandle {
    const timer: FakeTimer = { at: this.time + Math.max(0, ms), seq: this.seq++, fn, cancelled: false };
    this.timers.push(timer);
    return { cancel: () => void (timer.cancelled = true) };
  }

  /** Number of timers still waiting to fire. */
  pending(): number {
    return this.timers.filter((t) => !t.cancelled).length;
  }

  /** Due time of the earliest live timer, if any. */
  nextAt(): number | undefined {
    let next: number | undefined;
    for (const t of this.timers) if (!t.cancelled && (next === undefined || t.at < next)) next = t.at;
    return next;
  }

  /** Moves time forward by ms, firing every timer that falls due on the way (timers they schedule included). */
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      this.timers = this.timers.filter((t) => !t.cancelled);
      let next: FakeTimer | undefined;
      for (const t of this.timers) if (t.at <= end && (!next || t.at < next.at || (t.at === next.at && t.seq < next.seq))) next = t;
      if (!next) break;
      this.time = next.at;
      next.cancelled = true;
      next.fn();
    }
    this.time = end;
  }
}
