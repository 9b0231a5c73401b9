// Per-key and global rate limiters, after client-go's workqueue: the delay before a failed key runs again.
import { realClock, type Clock } from './clock.ts';

export interface RateLimiter {
  /** Delay in ms before key may run again; counts as one more failure for per-key limiters. */
  when(key: string): number;
  /** Clears the key's failure history (success, or an explicit requeueAfter). */
  forget(key: string): void;
  /** How many times the key has failed since it was last forgotten. */
  numRequeues(key: string): number;
}

/** base × 2^failures, capped at max: 5 ms, 10 ms, 20 ms, … 1000 s with the defaults. */
export class ExponentialRateLimiter implements RateLimiter {
  private readonly failures = new Map<string, number>();
  private readonly baseMs: number;
  private readonly maxMs: number;

  constructor(baseMs = 5, maxMs = 1_000_000) {
    this.baseMs = baseMs;
    this.maxMs = maxMs;
  }

  when(key: string): number {
    const exp = this.failures.get(key) ?? 0;
    this.failures.set(key, exp + 1);
    // Past 2^52 the product overflows precision long after it passed any sane cap.
    const delay = exp > 52 ? this.maxMs : this.baseMs * 2 ** exp;
    return Math.min(delay, this.maxMs);
  }

  forget(key: string): void {
    this.failures.delete(key);
  }

  numRequeues(key: string): number {
    return this.failures.get(key) ?? 0;
  }
}

/**
 * A global token bucket (golang.org/x/time/rate's Reserve): burst tokens, refilled at qps per second.
 * Each call reserves one token; the delay is how long until that token exists. Keys are ignored.
 */
export class TokenBucketRateLimiter implements RateLimiter {
  private readonly qps: number;
  private readonly burst: number;
  private readonly clock: Clock;
  private tokens: number;
  private last: number;

  constructor(qps = 10, burst = 100, clock: Clock = realClock) {
    if (!(qps > 0) || !(burst >= 1)) throw new RangeError('token bucket needs qps > 0 and burst >= 1');
    this.qps = qps;
    this.burst = burst;
    this.clock = clock;
    this.tokens = burst;
    this.last = clock.now();
  }

  when(_key: string): number {
    const now = this.clock.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.qps);
    this.last = now;
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : (-this.tokens / this.qps) * 1000;
  }

  forget(_key: string): void {}

  numRequeues(_key: string): number {
    return 0;
  }
}

/** The longest delay any of its limiters asks for (client-go's MaxOfRateLimiter). */
export class MaxOfRateLimiter implements RateLimiter {
  private readonly limiters: RateLimiter[];

  constructor(...limiters: RateLimiter[]) {
    this.limiters = limiters;
  }

  when(key: string): number {
    let delay = 0;
    for (const limiter of this.limiters) delay = Math.max(delay, limiter.when(key));
    return delay;
  }

  forget(key: string): void {
    for (const limiter of this.limiters) limiter.forget(key);
  }

  numRequeues(key: string): number {
    let n = 0;
    for (const limiter of this.limiters) n = Math.max(n, limiter.numRequeues(key));
    return n;
  }
}

export interface ControllerRateLimiterOptions {
  baseDelayMs?: number;
  maxDelayMs?: number;
  qps?: number;
  burst?: number;
  clock?: Clock;
}

/** client-go's DefaultControllerRateLimiter: max(per-key 5 ms→1000 s, global 10 qps / burst 100). */
export function defaultControllerRateLimiter(options: ControllerRateLimiterOptions = {}): RateLimiter {
  return new MaxOfRateLimiter(
    new ExponentialRateLimiter(options.baseDelayMs ?? 5, options.maxDelayMs ?? 1_000_000),
    new TokenBucketRateLimiter(options.qps ?? 10, options.burst ?? 100, options.clock ?? realClock),
  );
}
