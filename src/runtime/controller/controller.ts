// A controller: watches feed keys into a deduplicating work queue; workers reconcile them one key at a time.
// The contract it keeps is documented in ./reconciler.ts.
import { ConflictError } from '../../client/errors.ts';
import { randomUUID } from 'node:crypto';
import { pino, type Logger } from 'pino';
import type { KubeObject } from '../../apimachinery/object.ts';
import { WorkQueue, type WorkQueueOptions } from '../workqueue/queue.ts';
import { action as actions, type Action } from './action.ts';
import { noControllerMetrics, type ControllerMetrics, type ReconcileResult } from './controller-metrics.ts';
import { keyOf } from '../informer/store.ts';
import { byOwner, type MapFunc, type OwnerKind } from './handler.ts';
import type { Predicate } from './predicate.ts';
import type { ErrorPolicy, ReconcileContext, ReconcileFunc } from './reconciler.ts';
import type { ObjectEvent, WatchSource } from './source.ts';
import { isTerminal } from './terminal-error.ts';

export interface ControllerOptions<T extends KubeObject, C> {
  /** Names the controller in logs and metrics; unique per manager. */
  name: string;
  /** The informer of the primary kind. */
  source: WatchSource<T>;
  /** How ownerReferences name the primary kind; needed by owns(). */
  kind?: OwnerKind;
  reconcile: ReconcileFunc<T, C>;
  /** Decides what a failed reconcile leads to; defaults to requeue with backoff. */
  errorPolicy?: ErrorPolicy<T, C>;
  data: C;
  /** Keys reconciled in parallel (controller-runtime's MaxConcurrentReconciles); default 1. */
  concurrency?: number;
  /** Filters on the primary kind's events. */
  predicates?: Predicate<T>[];
  logger?: Logger;
  metrics?: ControllerMetrics;
  queue?: WorkQueueOptions;
  /** How long start() waits for every watched cache to sync; default 2 minutes. */
  cacheSyncTimeoutMs?: number;
  /** Aborts ctx.signal of a reconcile that runs longer; default none. */
  reconcileTimeoutMs?: number;
  /**
   * Hand reconcile a deep copy of the cached object (default true). false passes the cached object itself:
   * the reconciler then must treat it as read-only (copy before changing anything). Worth it for large
   * objects reconciled often, where the copy dominates.
   */
  copyObjects?: boolean;
}

export interface WatchOptions<U extends KubeObject> {
  predicates?: Predicate<U>[];
  /**
   * Coalesce: queue the mapped keys this many ms after the first event instead of at once, so a burst of
   * events (a hundred children finishing together) costs one reconcile, not one each. Default 0.
   */
  delayMs?: number;
}

export class CacheSyncTimeoutError extends Error {
  override readonly name = 'CacheSyncTimeoutError' as const;
}

export class ControllerStateError extends Error {
  override readonly name = 'ControllerStateError' as const;
}

interface Watch {
  source: WatchSource<KubeObject>;
  map: MapFunc;
  predicates: Predicate[];
  delayMs: number;
}

const defaultErrorPolicy = (): Action => actions.requeue();

/** Runtime errors that signal a bug rather than a failed operation: the analogue of a Go panic. */
const bugTypes = [TypeError, RangeError, ReferenceError, SyntaxError, EvalError, URIError];

export function isPanic(err: unknown): boolean {
  return !(err instanceof Error) || bugTypes.some((type) => err instanceof type);
}

export class Controller<T extends KubeObject, C = unknown> {
  readonly name: string;
  readonly queue: WorkQueue;
  private readonly options: ControllerOptions<T, C>;
  private readonly log: Logger;
  private readonly metrics: ControllerMetrics;
  private readonly concurrency: number;
  private readonly watchList: Watch[] = [];
  private readonly unsubscribes: Array<() => void> = [];
  /** Aborted on a hard stop: reconciles see it through ctx.signal; the sync wait gives up. */
  private readonly hardStop = new AbortController();
  private workers: Promise<void>[] = [];
  private state: 'new' | 'starting' | 'running' | 'stopping' | 'stopped' = 'new';
  private synced = false;

  constructor(options: ControllerOptions<T, C>) {
    this.options = options;
    this.name = options.name;
    this.concurrency = Math.max(1, Math.floor(options.concurrency ?? 1));
    this.log = (options.logger ?? pino({ enabled: false })).child({ controller: options.name });
    this.metrics = options.metrics ?? noControllerMetrics;
    this.queue = new WorkQueue(options.queue);
    this.watchList.push({
      source: options.source as unknown as WatchSource<KubeObject>,
      map: (obj) => [keyOf(obj)],
      predicates: (options.predicates ?? []) as unknown as Predicate[],
      delayMs: 0,
    });
  }

  /** Reconciles the owner (the primary kind) when an object it controls changes. */
  owns<U extends KubeObject>(source: WatchSource<U>, options: WatchOptions<U> & { onlyController?: boolean } = {}): this {
    if (!this.options.kind) throw new ControllerStateError(`controller ${this.name}: owns() needs options.kind`);
    return this.watches(source, byOwner(this.options.kind, options), options);
  }

  /** Reconciles the primary objects map(obj) names when a watched object changes. */
  watches<U extends KubeObject>(source: WatchSource<U>, map: MapFunc<U>, options: WatchOptions<U> = {}): this {
    if (this.state !== 'new') throw new ControllerStateError(`controller ${this.name}: add watches before start()`);
    this.watchList.push({
      source: source as unknown as WatchSource<KubeObject>,
      map: map as MapFunc,
      predicates: (options.predicates ?? []) as unknown as Predicate[],
      delayMs: options.delayMs ?? 0,
    });
    return this;
  }

  /** Queues a key by hand (a timer outside Kubernetes, a webhook…). */
  enqueue(key: string): void {
    this.queue.add(key);
  }

  /** True once every watched cache synced and the workers run. */
  get ready(): boolean {
    return this.synced;
  }

  /**
   * Subscribes to every watch, waits for their caches to sync (the gate before workers), queues every
   * primary object once, then starts the workers. Resolves when they run.
   */
  async start(): Promise<void> {
    if (this.state !== 'new') throw new ControllerStateError(`controller ${this.name}: already started`);
    this.state = 'starting';
    for (const watch of this.watchList) {
      this.unsubscribes.push(
        watch.source.addEventHandler({
          onAdd: (object) => this.onEvent(watch, { type: 'added', object }),
          onUpdate: (old, object) => this.onEvent(watch, { type: 'modified', object, old }),
          onDelete: (object) => this.onEvent(watch, { type: 'deleted', object }),
        }),
      );
    }
    const timeoutMs = this.options.cacheSyncTimeoutMs ?? 120_000;
    const gate = new AbortController();
    const onStop = (): void => gate.abort(this.hardStop.signal.reason);
    this.hardStop.signal.addEventListener('abort', onStop, { once: true });
    // A referenced timer (unlike AbortSignal.timeout): waiting for caches is live work that keeps the process up.
    const timer = setTimeout(() => gate.abort(new CacheSyncTimeoutError(`controller ${this.name}: caches did not sync within ${timeoutMs} ms`)), timeoutMs);
    try {
      await Promise.all(this.watchList.map((w) => w.source.waitForSync(gate.signal)));
    } catch (err) {
      if (this.hardStop.signal.aborted) return;
      throw err instanceof CacheSyncTimeoutError ? err : new CacheSyncTimeoutError(`controller ${this.name}: cache sync failed`, { cause: err });
    } finally {
      clearTimeout(timer);
      this.hardStop.signal.removeEventListener('abort', onStop);
    }
    if (this.state !== 'starting') return;
    this.synced = true;
    this.metrics.maxConcurrentReconciles(this.concurrency);
    this.state = 'running';
    this.workers = Array.from({ length: this.concurrency }, () => this.worker());
    this.log.info({ workers: this.concurrency }, 'controller started');
  }

  /**
   * Stops the controller. drain (the default) finishes every queued and in-flight key first; without it
   * only in-flight reconciles finish, and they see ctx.signal aborted (leadership was lost: stop writing).
   */
  async stop(options: { drain?: boolean } = {}): Promise<void> {
    if (this.state === 'stopped') return;
    const drain = options.drain ?? true;
    this.state = 'stopping';
    for (const unsubscribe of this.unsubscribes.splice(0)) unsubscribe();
    // Draining needs workers: a controller still behind its sync gate just stops.
    if (drain && this.workers.length > 0) {
      await this.queue.shutDownWithDrain();
    } else {
      this.hardStop.abort(new ControllerStateError(`controller ${this.name} stopped`));
      this.queue.shutDown();
    }
    await Promise.all(this.workers);
    this.state = 'stopped';
    this.log.info({ drained: drain }, 'controller stopped');
  }

  private onEvent(watch: Watch, event: ObjectEvent): void {
    if (!watch.predicates.every((p) => p(event))) return;
    const queue = (key: string): void => (watch.delayMs > 0 ? this.queue.addAfter(key, watch.delayMs) : this.queue.add(key));
    for (const key of watch.map(event.object)) queue(key);
    // An update that moved the object away from a primary still concerns the old one.
    if (event.old && watch !== this.watchList[0]) for (const key of watch.map(event.old)) queue(key);
  }

  private async worker(): Promise<void> {
    for (;;) {
      const key = await this.queue.get();
      if (key === undefined) return;
      try {
        await this.reconcileKey(key);
      } finally {
        this.queue.done(key);
      }
    }
  }

  private async reconcileKey(key: string): Promise<void> {
    const cached = this.options.source.store.get(key);
    if (!cached) {
      // Deleted: nothing to reconcile; finalizers did the cleanup while it still existed.
      this.queue.forget(key);
      this.log.debug({ object: key }, 'object not found in cache; skipped');
      return;
    }
    const obj = this.options.copyObjects === false ? cached : structuredClone(cached);
    const reconcileID = randomUUID();
    const log = this.log.child({ object: key, reconcileID });
    const timeoutMs = this.options.reconcileTimeoutMs;
    const signal = timeoutMs ? AbortSignal.any([this.hardStop.signal, AbortSignal.timeout(timeoutMs)]) : this.hardStop.signal;
    const ctx: ReconcileContext<C> = { controller: this.name, key, reconcileID, log, signal, data: this.options.data };
    this.metrics.activeWorkers(1);
    const started = performance.now();
    let result: ReconcileResult = 'error';
    try {
      result = this.apply(key, await this.options.reconcile(obj, ctx));
    } catch (err) {
      this.handleError(key, obj, err, ctx);
    } finally {
      this.metrics.activeWorkers(-1);
      this.metrics.reconciled(result, (performance.now() - started) / 1000);
    }
  }

  private handleError(key: string, obj: T, err: unknown, ctx: ReconcileContext<C>): void {
    const terminal = isTerminal(err);
    this.metrics.errored(terminal);
    if (isPanic(err)) {
      this.metrics.panicked();
      ctx.log.error({ err }, 'reconcile panicked (recovered)');
    } else if (err instanceof ConflictError) {
      // A stale cache read, or a write that kept conflicting (StatusConflictError, ObjectConflictError are
      // ConflictErrors): expected now and then, retried with backoff; not worth an error line.
      ctx.log.debug({ err: err.message }, 'conflict, retrying with a fresher cache');
    } else {
      ctx.log.error({ err, terminal }, 'reconcile failed');
    }
    if (terminal) {
      this.queue.forget(key);
      return;
    }
    let next: Action;
    try {
      next = (this.options.errorPolicy ?? defaultErrorPolicy)(obj, err, ctx);
    } catch (policyErr) {
      this.metrics.panicked();
      ctx.log.error({ err: policyErr }, 'errorPolicy threw (recovered); requeueing with backoff');
      next = actions.requeue();
    }
    this.apply(key, next);
  }

  private apply(key: string, next: Action): ReconcileResult {
    switch (next.type) {
      case 'awaitChange':
        this.queue.forget(key);
        return 'success';
      case 'requeueAfter':
        this.queue.forget(key);
        this.queue.addAfter(key, next.afterMs);
        return 'requeue_after';
      case 'requeue':
        this.queue.addRateLimited(key, next.atMostMs);
        return 'requeue';
    }
  }
}
