// A reflector + cache for one resource: list, then watch from the listed resourceVersion; never stops on
// its own. 410 → relist and diff (vanished objects are delivered as deletes); any other error →
// jittered exponential backoff; a silent stream → reconnect (watchdog); bookmarks keep the RV fresh.
import type { KubeObject, WatchEvent } from '../../apimachinery/object.ts';
import type { KubeClient, ResourceRef, ResourceTarget } from '../../client/client.ts';
import { GoneError } from '../../client/errors.ts';
import { realClock, type Clock, type TimerHandle } from '../workqueue/clock.ts';
import { Backoff, type BackoffOptions } from './backoff.ts';
import { builtinIndexers } from './indexers.ts';
import { Store, keyOf, type IndexFunc, type ReadonlyStore } from './store.ts';

export interface InformerHandlers<T extends KubeObject = KubeObject> {
  /** initialList: the object arrived with a (re)list rather than a watch event. */
  onAdd?(obj: T, initialList: boolean): void;
  /** Only when resourceVersion changed — except on periodic resync, where oldObj === newObj. */
  onUpdate?(oldObj: T, newObj: T): void;
  /** finalStateUnknown: the delete was inferred by a relist, so obj is the last state seen. */
  onDelete?(obj: T, finalStateUnknown: boolean): void;
}

export type InformerPhase = 'list' | 'watch' | 'handler';

export interface InformerErrorInfo {
  phase: InformerPhase;
  /** Delay before the next attempt (0 = immediately); undefined for handler errors. */
  retryInMs?: number;
  /** Consecutive failures, as the backoff counts them. */
  failures: number;
}

/** Reported (not thrown) when a watch stayed silent past inactivityTimeoutMs and was restarted. */
export class WatchInactivityError extends Error {
  override readonly name = 'WatchInactivityError' as const;
}

/** Reported when a watch ended at once without events: treated as a failure so reconnects back off. */
export class WatchClosedError extends Error {
  override readonly name = 'WatchClosedError' as const;
}

export interface InformerStats {
  lists: number;
  watches: number;
  events: number;
  bookmarks: number;
  gone: number;
  errors: number;
  inactivityRestarts: number;
  resyncs: number;
  lastError: unknown;
}

export interface InformerOptions<T extends KubeObject = KubeObject> {
  client: KubeClient;
  resource: ResourceTarget;
  /** Only this namespace; all namespaces otherwise. */
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  /** List page size (limit/continue); 0 lists in one request. Default 500. */
  pageSize?: number;
  /** Re-deliver every cached object as an update this often; 0 (default) disables. */
  resyncPeriodMs?: number;
  /** Server-side watch lifetime, randomised in [min, max] like client-go (default 300–600 s). */
  watchTimeoutSeconds?: { min: number; max: number };
  /** Restart a watch that has delivered nothing (not even a bookmark) for this long. Default 90 s. */
  inactivityTimeoutMs?: number;
  /** A watch that ends normally sooner than this without events counts as a failure. Default 1 s. */
  minWatchDurationMs?: number;
  backoff?: BackoffOptions;
  clock?: Clock;
  random?: () => number;
  /**
   * Applied to each object before it is cached. Default: drop metadata.managedFields (large, rarely read)
   * and fill in apiVersion/kind, which list items lack. null keeps objects exactly as received.
   */
  transform?: ((obj: KubeObject, ref: ResourceRef) => T) | null;
  /** Extra indexes besides the built-in namespace / owner / label ones. */
  indexers?: Record<string, IndexFunc<T>>;
  /** Keep the built-in indexes (default true). */
  builtinIndexes?: boolean;
  /** Every failure lands here; without a handler they go to console.warn, never nowhere. */
  onError?: (err: unknown, info: InformerErrorInfo) => void;
}

export function defaultTransform<T extends KubeObject>(obj: KubeObject, ref: ResourceRef): T {
  if (obj.metadata.managedFields !== undefined) delete obj.metadata.managedFields;
  if (obj.apiVersion === undefined) obj.apiVersion = ref.group === '' ? ref.version : `${ref.group}/${ref.version}`;
  if (obj.kind === undefined) obj.kind = ref.kind;
  return obj as T;
}

export class Informer<T extends KubeObject = KubeObject> {
  readonly stats: InformerStats = { lists: 0, watches: 0, events: 0, bookmarks: 0, gone: 0, errors: 0, inactivityRestarts: 0, resyncs: 0, lastError: undefined };
  private readonly o: InformerOptions<T>;
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly backoff: Backoff;
  private readonly cache: Store<T>;
  private readonly transform: (obj: KubeObject, ref: ResourceRef) => T;
  private readonly handlers = new Set<InformerHandlers<T>>();
  private ref: ResourceRef | undefined;
  private rv: string | undefined;
  private needList = true;
  private consecutiveGone = 0;
  private synced = false;
  private syncWaiters: (() => void)[] = [];
  private running: Promise<void> | undefined;
  private stopping = false;
  private abort: AbortController | undefined;
  private wake: (() => void) | undefined;
  private resyncTimer: TimerHandle | undefined;
  /** A running informer keeps the process alive even while it only waits (backoff timers are unref'd). */
  private keepAlive: NodeJS.Timeout | undefined;

  constructor(options: InformerOptions<T>) {
    this.o = options;
    this.clock = options.clock ?? realClock;
    this.random = options.random ?? Math.random;
    this.backoff = new Backoff(this.clock, options.backoff, this.random);
    this.transform = options.transform === null ? (obj) => obj as T : (options.transform ?? defaultTransform);
    const indexers = { ...(options.builtinIndexes === false ? {} : builtinIndexers<T>()), ...(options.indexers ?? {}) };
    this.cache = new Store<T>(indexers);
  }

  /** The cache; read-only for callers (the informer is its only writer). */
  get store(): ReadonlyStore<T> {
    return this.cache;
  }

  /** The resourceVersion the next watch resumes from. */
  get resourceVersion(): string | undefined {
    return this.rv;
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
    if (this.synced && handlers.onAdd) for (const obj of this.cache.values()) this.call(() => handlers.onAdd?.(obj, true));
    return () => this.handlers.delete(handlers);
  }

  hasSynced(): boolean {
    return this.synced;
  }

  /** Resolves after the first complete list has been cached and delivered. */
  waitForSync(signal?: AbortSignal): Promise<void> {
    if (this.synced) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason as Error);
      const done = (): void => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = (): void => {
        this.syncWaiters = this.syncWaiters.filter((w) => w !== done);
        reject(signal?.reason as Error);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.syncWaiters.push(done);
    });
  }

  /** Starts the list/watch loop in the background; idempotent. */
  start(): void {
    if (this.running) return;
    this.stopping = false;
    this.keepAlive = setInterval(() => undefined, 2 ** 31 - 1);
    if (this.synced) this.scheduleResync();
    this.running = this.run();
  }

  /** Stops the loop and waits for it; the cache keeps its contents. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.abort?.abort(new Error('informer stopped'));
    this.wake?.();
    this.resyncTimer?.cancel();
    this.resyncTimer = undefined;
    clearInterval(this.keepAlive);
    this.keepAlive = undefined;
    const running = this.running;
    this.running = undefined;
    await running;
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      let phase: InformerPhase = 'list';
      try {
        this.ref ??= await this.o.client.resolve(this.o.resource);
        if (this.needList) await this.relist();
        phase = 'watch';
        await this.watchOnce();
      } catch (err) {
        if (this.stopping) break;
        await this.fail(err, phase);
      }
    }
  }

  private async fail(err: unknown, phase: InformerPhase): Promise<void> {
    this.stats.errors++;
    this.stats.lastError = err;
    let delay: number;
    if (err instanceof GoneError) {
      // Our resourceVersion is older than the server's history: relist at once the first time, back off if it repeats.
      this.stats.gone++;
      this.needList = true;
      this.rv = undefined;
      this.consecutiveGone++;
      delay = this.consecutiveGone === 1 ? 0 : this.backoff.next();
    } else {
      delay = this.backoff.next();
    }
    this.report(err, { phase, retryInMs: delay, failures: this.backoff.failures });
    if (delay > 0) await this.sleep(delay);
  }

  private report(err: unknown, info: InformerErrorInfo): void {
    const resource = this.ref ? `${this.ref.resource}${this.ref.group ? `.${this.ref.group}` : ''}` : 'resource';
    if (this.o.onError) {
      try {
        this.o.onError(err, info);
      } catch {
        // A broken error handler must not break the loop.
      }
      return;
    }
    console.warn(`informer ${resource}: ${info.phase} failed (${String(err)}); retrying in ${info.retryInMs ?? 0} ms`);
  }

  private sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = this.clock.schedule(() => {
        this.wake = undefined;
        resolve();
      }, ms);
      this.wake = () => {
        timer.cancel();
        this.wake = undefined;
        resolve();
      };
    });
  }

  private newAbort(): AbortController {
    const ac = new AbortController();
    this.abort = ac;
    // stop() may have run between two requests: the new one must not outlive it.
    if (this.stopping) ac.abort(new Error('informer stopped'));
    return ac;
  }

  private listFilter(): { namespace?: string; labelSelector?: string; fieldSelector?: string } {
    const f: { namespace?: string; labelSelector?: string; fieldSelector?: string } = {};
    if (this.o.namespace !== undefined) f.namespace = this.o.namespace;
    if (this.o.labelSelector !== undefined) f.labelSelector = this.o.labelSelector;
    if (this.o.fieldSelector !== undefined) f.fieldSelector = this.o.fieldSelector;
    return f;
  }

  /** Lists everything (paged), then reconciles the cache with it: adds, changed updates, and deletes for what vanished. */
  private async relist(): Promise<void> {
    const ref = this.ref!;
    const ac = this.newAbort();
    const fresh = new Map<string, T>();
    let limit: number | undefined = this.o.pageSize ?? 500;
    if (limit === 0) limit = undefined;
    let cont: string | undefined;
    let rv: string | undefined;
    while (!this.stopping) {
      let page;
      try {
        page = await this.o.client.list(ref, { ...this.listFilter(), ...(limit !== undefined ? { limit } : {}), ...(cont ? { continue: cont } : {}), signal: ac.signal });
      } catch (err) {
        // The continue token expired between pages: start over in a single unpaged request.
        if (err instanceof GoneError && cont !== undefined) {
          fresh.clear();
          cont = undefined;
          rv = undefined;
          limit = undefined;
          continue;
        }
        throw err;
      }
      for (const item of page.items) {
        const obj = this.transform(item, ref);
        fresh.set(keyOf(obj), obj);
      }
      // Pages are meant to be one snapshot at the first page's RV. Resume the watch from there: if a server
      // serves later pages from newer state, replaying from the older RV still delivers every change.
      rv ??= page.metadata.resourceVersion;
      cont = page.metadata.continue || undefined;
      if (cont === undefined) break;
    }
    if (this.stopping) return;
    this.stats.lists++;

    const initial = !this.synced;
    const vanished: string[] = [];
    for (const key of this.cache.keys()) if (!fresh.has(key)) vanished.push(key);
    for (const key of vanished) {
      const old = this.cache.delete(key);
      if (old) this.emitDelete(old, true);
    }
    for (const [key, obj] of fresh) {
      const old = this.cache.get(key);
      if (!old) {
        this.cache.set(key, obj);
        this.emitAdd(obj, true);
      } else if (old.metadata.resourceVersion !== obj.metadata.resourceVersion) {
        this.cache.set(key, obj);
        this.emitUpdate(old, obj);
      }
    }
    this.rv = rv;
    this.needList = false;
    if (initial) this.markSynced();
  }

  private markSynced(): void {
    this.synced = true;
    const waiters = this.syncWaiters;
    this.syncWaiters = [];
    for (const w of waiters) w();
    this.scheduleResync();
  }

  private scheduleResync(): void {
    const period = this.o.resyncPeriodMs ?? 0;
    if (period <= 0 || this.stopping) return;
    this.resyncTimer = this.clock.schedule(() => {
      this.resyncTimer = undefined;
      if (this.stopping) return;
      this.stats.resyncs++;
      for (const obj of this.cache.values()) this.emitUpdate(obj, obj);
      this.scheduleResync();
    }, period);
  }

  private async watchOnce(): Promise<void> {
    const ref = this.ref!;
    const ac = this.newAbort();
    const { min, max } = this.o.watchTimeoutSeconds ?? { min: 300, max: 600 };
    const timeoutSeconds = Math.round(min + (max - min) * this.random());
    const inactivityMs = this.o.inactivityTimeoutMs ?? 90_000;
    const started = this.clock.now();
    let lastActivity = started;
    let connected = false;
    let silent = false;
    let events = 0;

    // Lazy watchdog: one timer per period, re-armed for the remainder when activity happened meanwhile.
    let watchdog: TimerHandle | undefined;
    const arm = (ms: number): void => {
      watchdog = this.clock.schedule(() => {
        const idle = this.clock.now() - lastActivity;
        if (idle < inactivityMs) return arm(inactivityMs - idle);
        silent = true;
        ac.abort(new WatchInactivityError(`no watch event for ${Math.round(idle / 1000)} s`));
      }, ms);
    };
    arm(inactivityMs);
    this.stats.watches++;
    try {
      const stream = await this.o.client.watch<T>(ref, {
        ...this.listFilter(),
        ...(this.rv !== undefined ? { resourceVersion: this.rv } : {}),
        allowWatchBookmarks: true,
        timeoutSeconds,
        signal: ac.signal,
      });
      connected = true;
      // Aborting the signal tears the stream down; make sure the iteration ends too.
      if (ac.signal.aborted) stream.close();
      else ac.signal.addEventListener('abort', () => stream.close(), { once: true });
      for await (const event of stream) {
        lastActivity = this.clock.now();
        events++;
        this.apply(event);
        if (this.stopping) break;
      }
    } catch (err) {
      if (!silent) {
        // An established stream that breaks is a fresh failure, not one more in a row: without this, streams
        // that break every few seconds would push the reconnect delay to its 30 s cap and keep the cache stale.
        if (connected && (events > 0 || this.clock.now() - started >= (this.o.minWatchDurationMs ?? 1_000))) this.backoff.reset();
        throw err;
      }
    } finally {
      watchdog?.cancel();
      if (!ac.signal.aborted) ac.abort();
    }
    if (this.stopping) return;
    if (silent) {
      this.stats.inactivityRestarts++;
      const err = new WatchInactivityError(`watch silent for ${inactivityMs} ms; restarting from resourceVersion ${this.rv ?? '(none)'}`);
      // Connected but quiet: restart at once. Never connected: that is a failure, so back off.
      if (!connected) throw err;
      this.report(err, { phase: 'watch', retryInMs: 0, failures: this.backoff.failures });
      return;
    }
    if (events === 0 && this.clock.now() - started < (this.o.minWatchDurationMs ?? 1_000)) {
      throw new WatchClosedError('watch closed by the server immediately without events');
    }
  }

  private apply(event: WatchEvent<T>): void {
    const rv = event.object.metadata?.resourceVersion;
    switch (event.type) {
      case 'BOOKMARK':
        this.stats.bookmarks++;
        break;
      case 'ADDED':
      case 'MODIFIED': {
        this.stats.events++;
        const obj = this.transform(event.object, this.ref!);
        const key = keyOf(obj);
        const old = this.cache.set(key, obj);
        if (!old) this.emitAdd(obj, false);
        else if (old.metadata.resourceVersion !== obj.metadata.resourceVersion) this.emitUpdate(old, obj);
        break;
      }
      case 'DELETED': {
        this.stats.events++;
        const old = this.cache.delete(keyOf(event.object));
        if (old) this.emitDelete(this.transform(event.object, this.ref!), false);
        break;
      }
      default:
        break;
    }
    // A healthy stream: a later 410 is a fresh one, not a loop.
    this.consecutiveGone = 0;
    if (rv) this.rv = rv;
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
