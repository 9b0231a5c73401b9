// Jittered exponential backoff for reconnects (kube-rs's default watcher backoff): 800 ms doubling to
// 30 s, and the attempt count resets once the connection has been healthy for a while.
import type { Clock } from '../workqueue/clock.ts';

export interface BackoffOptions {
  initialMs?: number;
  maxMs?: number;
  factor?: number;
  /** Fraction of each delay that is randomised: 0.5 → delay × [0.5, 1]. */
  jitter?: number;
  /** A failure this long after the previous one starts again from initialMs. */
  resetAfterMs?: number;
}

export class Backoff {
  private readonly initialMs: number;
  private readonly maxMs: number;
  private readonly factor: number;
  private readonly jitter: number;
  private readonly resetAfterMs: number;
  private readonly clock: Clock;
  private readonly random: () => number;
  private attempt = 0;
  private lastFailureAt: number | undefined;

  constructor(clock: Clock, options: BackoffOptions = {}, random: () => number = Math.random) {
    this.initialMs = options.initialMs ?? 800;
    this.maxMs = options.maxMs ?? 30_000;
    this.factor = options.factor ?? 2;
    this.jitter = Math.min(1, Math.max(0, options.jitter ?? 0.5));
    this.resetAfterMs = options.resetAfterMs ?? 120_000;
    this.clock = clock;
    this.random = random;
  }

  /** Consecutive failures counted so far (after reset rules). */
  get failures(): number {
    return this.attempt;
  }

  /** Records a failure and returns how long to wait before the next try. */
  next(): number {
    const now = this.clock.now();
    if (this.lastFailureAt !== undefined && now - this.lastFailureAt >= this.resetAfterMs) this.attempt = 0;
    this.lastFailureAt = now;
    const base = Math.min(this.maxMs, this.initialMs * this.factor ** Math.min(this.attempt, 64));
    this.attempt++;
    return Math.round(base * (1 - this.jitter * this.random()));
  }

  reset(): void {
    this.attempt = 0;
    this.lastFailureAt = undefined;
  }
}
