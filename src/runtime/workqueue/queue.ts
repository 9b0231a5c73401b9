// A keyed, deduplicating, rate-limited, delaying work queue with client-go's invariants:
// - a key waits in the queue at most once (adding a queued key is a no-op);
// - a key is never handed to two workers at once: adding a key that is being processed marks it
//   dirty, and it re-enters the queue when done(key) is called, so N adds collapse into one extra run;
// - addAfter keeps the earliest due time for a key;
// - shutDownWithDrain stops taking adds, drops delayed keys, and resolves once every queued and
//   in-flight key has been processed.
import { realClock, type Clock, type TimerHandle } from './clock.ts';
import { Fifo } from './fifo.ts';
import { Heap } from './heap.ts';
import { noQueueMetrics, type QueueMetrics } from './queue-metrics.ts';
import { defaultControllerRateLimiter, type RateLimiter } from './rate-limiter.ts';

export interface WorkQueueOptions {
  clock?: Clock;
  /** Defaults to defaultControllerRateLimiter() on the same clock. */
  rateLimiter?: RateLimiter;
  metrics?: QueueMetrics;
}

interface Delayed {
  key: string;
  readyAt: number;
  seq: number;
}

export class WorkQueue {
  private readonly clock: Clock;
  private readonly rateLimiter: RateLimiter;
  private readonly metrics: QueueMetrics;

  private readonly queue = new Fifo<string>();
  /** Keys that need processing: queued ones, and in-flight ones that were added again. */
  private readonly dirty = new Set<string>();
  /** In-flight keys and when their worker took them. */
  private readonly processing = new Map<string, number>();
  /** When each queued key entered the queue, for the queue-duration metric. */
  private readonly enqueuedAt = new Map<string, number>();
  private readonly getters: Array<(key: string | undefined) => void> = [];

  /** Delayed keys: the heap orders them, the map holds each key's live entry (older entries are stale). */
  private readonly delayed = new Heap<Delayed>((a, b) => a.readyAt < b.readyAt || (a.readyAt === b.readyAt && a.seq < b.seq));
  private readonly delayedByKey = new Map<string, Delayed>();
  private delayedSeq = 0;
  private timer: TimerHandle | undefined;
  private timerAt = Infinity;

  private shuttingDown = false;
  private draining = false;
  private drained: (() => void) | undefined;

  constructor(options: WorkQueueOptions = {}) {
    this.clock = options.clock ?? realClock;
    this.rateLimiter = options.rateLimiter ?? defaultControllerRateLimiter({ clock: this.clock });
    this.metrics = options.metrics ?? noQueueMetrics;
  }

  /** Keys waiting for a worker (not delayed, not in flight). */
  get length(): number {
    return this.queue.length;
  }

  get processingCount(): number {
    return this.processing.size;
  }

  get delayedCount(): number {
    return this.delayedByKey.size;
  }

  get isShuttingDown(): boolean {
    return this.shuttingDown;
  }

  add(key: string): void {
    if (this.shuttingDown || this.dirty.has(key)) return;
    this.metrics.added();
    this.dirty.add(key);
    if (this.processing.has(key)) return;
    this.enqueue(key);
  }

  /** Adds key once ms have passed; an earlier pending due time for the same key wins. */
  addAfter(key: string, ms: number): void {
    if (this.shuttingDown) return;
    this.metrics.retried();
    if (ms <= 0) {
      this.add(key);
      return;
    }
    const readyAt = this.clock.now() + ms;
    const existing = this.delayedByKey.get(key);
    if (existing && existing.readyAt <= readyAt) return;
    const entry: Delayed = { key, readyAt, seq: this.delayedSeq++ };
    this.delayedByKey.set(key, entry);
    this.delayed.push(entry);
    this.armTimer();
  }

  /** Adds key after the rate limiter's delay (at most atMostMs); each call counts as one more failure of the key. */
  addRateLimited(key: string, atMostMs = Infinity): void {
    this.addAfter(key, Math.min(this.rateLimiter.when(key), atMostMs));
  }

  /** Resets the key's backoff: call on success and before an explicit requeueAfter. */
  forget(key: string): void {
    this.rateLimiter.forget(key);
  }

  numRequeues(key: string): number {
    return this.rateLimiter.numRequeues(key);
  }

  /**
   * The next key to process, or undefined once the queue is shut down (after draining, when draining).
   * The caller owns the key until it calls done(key).
   */
  get(): Promise<string | undefined> {
    const key = this.take();
    if (key !== undefined) return Promise.resolve(key);
    if (this.finished()) return Promise.resolve(undefined);
    return new Promise((resolve) => this.getters.push(resolve));
  }

  done(key: string): void {
    const started = this.processing.get(key);
    if (started === undefined) return;
    this.processing.delete(key);
    this.metrics.finished((this.clock.now() - started) / 1000);
    if (this.dirty.has(key)) this.enqueue(key);
    else this.settleShutdown();
  }

  /** Stops at once: waiting workers get undefined, queued and delayed keys are dropped. */
  shutDown(): void {
    this.shuttingDown = true;
    // Also cuts a drain short: waiting workers leave, the drain resolves when in-flight keys are done.
    this.draining = false;
    this.dropDelayed();
    this.queue.clear();
    this.enqueuedAt.clear();
    for (const key of [...this.dirty]) if (!this.processing.has(key)) this.dirty.delete(key);
    this.metrics.depth(0);
    this.settleShutdown();
  }

  /** Stops taking adds and resolves when every queued and in-flight key has been done. */
  shutDownWithDrain(): Promise<void> {
    this.shuttingDown = true;
    this.draining = true;
    this.dropDelayed();
    const done = new Promise<void>((resolve) => {
      this.drained = resolve;
    });
    this.settleShutdown();
    return done;
  }

  /** Sum of the time in-flight keys have been worked on, in seconds (workqueue_unfinished_work_seconds). */
  unfinishedWorkSeconds(): number {
    const now = this.clock.now();
    let total = 0;
    for (const started of this.processing.values()) total += now - started;
    return total / 1000;
  }

  /** How long the longest-running in-flight key has been worked on, in seconds. */
  longestRunningProcessorSeconds(): number {
    const now = this.clock.now();
    let longest = 0;
    for (const started of this.processing.values()) longest = Math.max(longest, now - started);
    return longest / 1000;
  }

  private enqueue(key: string): void {
    this.queue.push(key);
    this.enqueuedAt.set(key, this.clock.now());
    this.dispatch();
    this.metrics.depth(this.queue.length);
  }

  /** Hands queued keys to waiting workers. */
  private dispatch(): void {
    while (this.getters.length > 0 && this.queue.length > 0) {
      const key = this.take();
      const getter = this.getters.shift();
      if (key === undefined || getter === undefined) return;
      getter(key);
    }
  }

  private take(): string | undefined {
    const key = this.queue.shift();
    if (key === undefined) return undefined;
    const now = this.clock.now();
    this.processing.set(key, now);
    this.dirty.delete(key);
    const since = this.enqueuedAt.get(key);
    this.enqueuedAt.delete(key);
    if (since !== undefined) this.metrics.dequeued((now - since) / 1000);
    this.metrics.depth(this.queue.length);
    return key;
  }

  /** True when a worker asking for work should stop. */
  private finished(): boolean {
    if (!this.shuttingDown) return false;
    return !this.draining || (this.queue.length === 0 && this.processing.size === 0);
  }

  private settleShutdown(): void {
    if (!this.finished()) return;
    for (const getter of this.getters.splice(0)) getter(undefined);
    if (this.processing.size === 0 && this.drained) {
      this.drained();
      this.drained = undefined;
    }
  }

  private armTimer(): void {
    let next = this.delayed.peek();
    while (next && this.delayedByKey.get(next.key) !== next) {
      this.delayed.pop();
      next = this.delayed.peek();
    }
    if (!next) {
      this.timer?.cancel();
      this.timer = undefined;
      this.timerAt = Infinity;
      return;
    }
    if (this.timer && this.timerAt <= next.readyAt) return;
    this.timer?.cancel();
    this.timerAt = next.readyAt;
    this.timer = this.clock.schedule(() => this.fireDue(), next.readyAt - this.clock.now());
  }

  private fireDue(): void {
    this.timer = undefined;
    this.timerAt = Infinity;
    const now = this.clock.now();
    for (let next = this.delayed.peek(); next && next.readyAt <= now; next = this.delayed.peek()) {
      this.delayed.pop();
      if (this.delayedByKey.get(next.key) !== next) continue;
      this.delayedByKey.delete(next.key);
      this.add(next.key);
    }
    this.armTimer();
  }

  private dropDelayed(): void {
    this.timer?.cancel();
    this.timer = undefined;
    this.timerAt = Infinity;
    this.delayed.clear();
    this.delayedByKey.clear();
  }
}
