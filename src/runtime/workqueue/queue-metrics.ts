// What a work queue reports; src/runtime/metrics.ts implements it with prom-client.

export interface QueueMetrics {
  /** A key entered the queue (deduplicated adds are not counted). */
  added(): void;
  /** The number of keys waiting to be handed to a worker. */
  depth(n: number): void;
  /** A key was handed to a worker after waiting this long in the queue. */
  dequeued(waitedSeconds: number): void;
  /** A worker finished a key after working this long. */
  finished(workedSeconds: number): void;
  /** A key was scheduled to run again later (rate-limited or delayed). */
  retried(): void;
}

export const noQueueMetrics: QueueMetrics = {
  added() {},
  depth() {},
  dequeued() {},
  finished() {},
  retried() {},
};
