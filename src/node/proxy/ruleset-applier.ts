// Applies the proxy's ruleset with one `nft -f -` per change set. Informer events only mark the ruleset stale:
// a burst of them (a Deployment scaled, a resync) runs one transaction, and changes that arrive while nft runs
// run one more after it. A script identical to the last applied one is skipped. A failed transaction is
// retried with exponential backoff, each failure reported; the next success is reported too.
import { Backoff, realClock, type BackoffOptions, type Clock, type TimerHandle } from '../../runtime/index.ts';

export interface RulesetApplierOptions {
  /** The whole script for the current state (pure, cheap next to running nft). */
  render(): string;
  /** Runs the script as one transaction; rejects with nft's message. */
  apply(script: string): Promise<void>;
  /** A transaction failed; the next try is in retryInMs. */
  onFailure(error: unknown, info: { failures: number; retryInMs: number }): void;
  /** A transaction succeeded (after failures: failuresBefore says how many). */
  onApplied?(info: { failuresBefore: number }): void;
  backoff?: BackoffOptions;
  clock?: Clock;
}

export class RulesetApplier {
  private stale = false;
  private running: Promise<void> | undefined;
  private retry: TimerHandle | undefined;
  private lastApplied: string | undefined;
  private stopped = false;
  private readonly backoff: Backoff;
  private readonly clock: Clock;

  constructor(private readonly options: RulesetApplierOptions) {
    this.clock = options.clock ?? realClock;
    this.backoff = new Backoff(this.clock, { initialMs: 500, maxMs: 30_000, ...options.backoff });
  }

  /** The state changed: apply it soon, together with whatever else changes in the same turn. */
  request(): void {
    this.stale = true;
    if (this.running === undefined && this.retry === undefined && !this.stopped) this.running = this.drain();
  }

  /** Resolves once nothing is stale or running (a pending retry counts as idle: it may wait long). */
  async settled(): Promise<void> {
    while (this.running !== undefined) await this.running;
  }

  /** Stops applying; resolves once a running transaction is done. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.retry?.cancel();
    this.retry = undefined;
    await this.settled();
  }

  private async drain(): Promise<void> {
    // Let the events of the same turn (a list, a burst of watch events) join this change set.
    await new Promise<void>((resolve) => setImmediate(resolve));
    try {
      while (this.stale && !this.stopped) {
        this.stale = false;
        const script = this.options.render();
        if (script === this.lastApplied) continue;
        try {
          await this.options.apply(script);
        } catch (error) {
          this.lastApplied = undefined;
          this.stale = true;
          const retryInMs = this.backoff.next();
          this.options.onFailure(error, { failures: this.backoff.failures, retryInMs });
          if (this.stopped) return;
          this.retry = this.clock.schedule(() => {
            this.retry = undefined;
            this.request();
          }, retryInMs);
          return;
        }
        this.lastApplied = script;
        const failuresBefore = this.backoff.failures;
        this.backoff.reset();
        this.options.onApplied?.({ failuresBefore });
      }
    } finally {
      this.running = undefined;
    }
  }
}
