// A shared informer for one resource: a watcher (list + watch that never gives up) feeding a reflector
// (the cache and its sync gate), and the fan-out of the cache's changes to event handlers, with periodic
// resync. Handler errors are reported, never allowed to stop delivery.
import type { KubeObject } from '../../apimachinery/object.ts';
import { realClock, type Clock, type TimerHandle } from '../workqueue/clock.ts';
import { builtinIndexers } from './indexers.ts';
import { Reflector } from './reflector.ts';
import { Store, type IndexFunc, type ReadonlyStore } from './store.ts';
import { Watcher, type WatcherPhase, type WatcherSettings, type WatcherStats } from './watcher.ts';

export interface InformerHandlers<T extends KubeObject = KubeObject> {
  /** initialList: the object arrived with a (re)list rather than a watch event. */
  onAdd?(obj: T, initialList: boolean): void;
  /** Only when resourceVersion changed — except on periodic resync, where oldObj === newObj. */
  onUpdate?(oldObj: T, newObj: T): void;
  /** finalStateUnknown: the delete was inferred by a relist, so obj is the last state seen. */
  onDelete?(obj: T, finalStateUnknown: boolean): void;
}

export type InformerPhase = WatcherPhase | 'handler';

export interface InformerErrorInfo {
  phase: InformerPhase;
  /** Delay before the next attempt (0 = immediately); undefined for handler errors. */
  retryInMs?: number;
  /** Consecutive failures, as the backoff counts them. */
  failures: number;
}

export interface InformerStats extends WatcherStats {
  resyncs: number;
}

export interface InformerOptions<T extends KubeObject = KubeObject> extends WatcherSettings<T> {
  /** Re-deliver every cached object as an update this often; 0 (default) disables. */
  resyncPeriodMs?: number;
  /** Extra indexes besides the built-in namespace / owner / label ones. */
  indexers?: Record<string, IndexFunc<T>>;
  /** Keep the built-in indexes (default true). */
  builtinIndexes?: boolean;
  /** Every failure lands here; without a handler they go to console.warn, never nowhere. */
  onError?: (err: unknown, info: InformerErrorInfo) => void;
}

export class Informer<T extends KubeObject = KubeObject> {
  readonly stats: InformerStats = { lists: 0, watches: 0, events: 0, bookmarks: 0, gone: 0, errors: 0, inactivityRestarts: 0, resyncs: 0, lastError: undefined };
  private readonly o: InformerOptions<T>;
  private readonly clock: Clock;
  private readonly cache: Store<T>;
  private readonly reflector: Reflector<T>;
  private readonly watcher: Watcher<T>;
  private readonly handlers = new Set<InformerHandlers<T>>();
  private resyncTimer: TimerHandle | undefined;

  constructor(options: InformerOptions<T>) {
    this.o = options;
    this.clock = options.clock ?? realClock;
    const indexers = { ...(options.builtinIndexes === false ? {} : builtinIndexers<T>()), ...(options.indexers ?? {}) };
    this.cache = new Store<T>(indexers);
    this.reflector = new Reflector<T>(this.cache, {
      added: (obj, initialList) => this.emitAdd(obj, initialList),
      updated: (oldObj, newObj) => this.emitUpdate(oldObj, newObj),
      deleted: (obj, finalStateUnknown) => this.emitDelete(obj, finalStateUnknown),
      synced: () => this.scheduleResync(),
    });
    this.watcher = new Watcher<T>({
      ...options,
      stats: this.stats,
      onEvent: (event) => this.reflector.apply(event),
      onError: (err, info) => this.report(err, info),
    });
  }

  /** The cache; read-only for callers (the reflector is its only writer). */
  get store(): ReadonlyStore<T> {
    return this.cache;
  }

  /** The resourceVersion the next watch resumes from. */
  get resourceVersion(): string | undefined {
    return this.watcher.resourceVersion;
  }

  get(name: string, namespace?: string): T | undefined {
    return this.cache.getByName(name, namespace);
  }

  list(namespace?: string): T[] {
    return this.cache.list(namespace);
  }

  byIndex(indexName: string, value: string): T[] {
    return this.cache.byIndex(indexName, value);
  }

  addIndexer(name: string, fn: IndexFunc<T>): void {
    this.cache.addIndexer(name, fn);
  }

  /** Registers handlers; if already synced, the cached objects are replayed as adds first. Returns an unsubscribe. */
  addEventHandler(handlers: InformerHandlers<T>): () => void {
    this.handlers.add(handlers);
    if (this.reflector.hasSynced() && handlers.onAdd) for (const obj of this.cache.values()) this.call(() => handlers.onAdd?.(obj, true));
    return () => this.handlers.delete(handlers);
  }

  hasSynced(): boolean {
    return this.reflector.hasSynced();
  }

  /** Resolves after the first complete list has been cached and delivered. */
  waitForSync(signal?: AbortSignal): Promise<void> {
    return this.reflector.waitForSync(signal);
  }

  /** Starts the list/watch loop in the background; idempotent. */
  start(): void {
    if (this.watcher.running) return;
    this.watcher.start();
    if (this.reflector.hasSynced()) this.scheduleResync();
  }

  /** Stops the loop and waits for it; the cache keeps its contents. */
  async stop(): Promise<void> {
    const stopped = this.watcher.stop();
    this.resyncTimer?.cancel();
    this.resyncTimer = undefined;
    await stopped;
  }

  private scheduleResync(): void {
    const period = this.o.resyncPeriodMs ?? 0;
    if (period <= 0 || !this.watcher.running) return;
    this.resyncTimer = this.clock.schedule(() => {
      this.resyncTimer = undefined;
      if (!this.watcher.running) return;
      this.stats.resyncs++;
      for (const obj of this.cache.values()) this.emitUpdate(obj, obj);
      this.scheduleResync();
    }, period);
  }

  private report(err: unknown, info: InformerErrorInfo): void {
    if (this.o.onError) {
      try {
        this.o.onError(err, info);
      } catch {
        // A broken error handler must not break the loop.
      }
      return;
    }
    const ref = this.watcher.ref;
    const resource = ref ? `${ref.resource}${ref.group ? `.${ref.group}` : ''}` : 'resource';
    console.warn(`informer ${resource}: ${info.phase} failed (${String(err)}); retrying in ${info.retryInMs ?? 0} ms`);
  }

  private emitAdd(obj: T, initial: boolean): void {
    for (const h of this.handlers) if (h.onAdd) this.call(() => h.onAdd?.(obj, initial));
  }

  private emitUpdate(oldObj: T, newObj: T): void {
    for (const h of this.handlers) if (h.onUpdate) this.call(() => h.onUpdate?.(oldObj, newObj));
  }

  private emitDelete(obj: T, finalStateUnknown: boolean): void {
    for (const h of this.handlers) if (h.onDelete) this.call(() => h.onDelete?.(obj, finalStateUnknown));
  }

  private call(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.stats.errors++;
      this.stats.lastError = err;
      this.report(err, { phase: 'handler', failures: 0 });
    }
  }
}
