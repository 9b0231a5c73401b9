// The list/watch loop for one resource, as a stream of events that survives errors (kube-rs's watcher):
// list (paged), then watch from the listed resourceVersion; never stops on its own. 410 → relist; any
// other error → jittered exponential backoff; a silent stream → reconnect (watchdog); bookmarks keep the
// resume point fresh. It keeps no objects: what it emits is applied to a cache by the reflector.
import { apiVersionOf } from '../../apimachinery/group-version.ts';
import type { KubeObject, WatchEvent } from '../../apimachinery/object.ts';
import type { KubeClient, ResourceRef, ResourceTarget } from '../../client/client.ts';
import { GoneError } from '../../client/errors.ts';
import { realClock, type Clock, type TimerHandle } from '../workqueue/clock.ts';
import { Backoff, type BackoffOptions } from './backoff.ts';

/**
 * What the watcher emits, like kube-rs's watcher::Event. A (re)list is `init`, one `initApply` per listed
 * object, then `initDone`: together they replace everything known before. An `init` may come again before
 * `initDone` (the list started over) or never be followed by one (the list failed); a consumer keeps what it
 * knew until `initDone`. `apply` and `delete` are watch events.
 */
export type WatcherEvent<T extends KubeObject = KubeObject> =
  | { readonly type: 'init' }
  | { readonly type: 'initApply'; readonly object: T }
  | { readonly type: 'initDone' }
  | { readonly type: 'apply'; readonly object: T }
  | { readonly type: 'delete'; readonly object: T };

const INIT: WatcherEvent<never> = { type: 'init' };
const INIT_DONE: WatcherEvent<never> = { type: 'initDone' };

export type WatcherPhase = 'list' | 'watch';

export interface WatcherErrorInfo {
  phase: WatcherPhase;
  /** Delay before the next attempt (0 = immediately). */
  retryInMs: number;
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

export interface WatcherStats {
  lists: number;
  watches: number;
  events: number;
  bookmarks: number;
  gone: number;
  errors: number;
  inactivityRestarts: number;
  lastError: unknown;
}

/** How to list and watch; an informer takes the same settings. */
export interface WatcherSettings<T extends KubeObject = KubeObject> {
  client: KubeClient;
  resource: ResourceTarget;
  /** Only this namespace; all namespaces otherwise. */
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  /** List page size (limit/continue); 0 lists in one request. Default 500. */
  pageSize?: number;
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
   * Applied to each object before it is emitted. Default: drop metadata.managedFields (large, rarely read)
   * and fill in apiVersion/kind, which list items lack. null keeps objects exactly as received.
   */
  transform?: ((obj: KubeObject, ref: ResourceRef) => T) | null;
}

export interface WatcherOptions<T extends KubeObject = KubeObject> extends WatcherSettings<T> {
  /** Called synchronously for each event, in order; what it throws counts as a failure of the list or watch. */
  onEvent(event: WatcherEvent<T>): void;
  /** Every failure and watchdog restart, with the delay before the next attempt. Must not throw. */
  onError(err: unknown, info: WatcherErrorInfo): void;
  /** Counters to add to; an informer shares one object with its own. */
  stats?: WatcherStats;
}

export function defaultTransform<T extends KubeObject>(obj: KubeObject, ref: ResourceRef): T {
  if (obj.metadata.managedFields !== undefined) delete obj.metadata.managedFields;
  if (obj.apiVersion === undefined) obj.apiVersion = apiVersionOf(ref);
  if (obj.kind === undefined) obj.kind = ref.kind;
  return obj as T;
}

export class Watcher<T extends KubeObject = KubeObject> {
  readonly stats: WatcherStats;
  private readonly o: WatcherOptions<T>;
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly backoff: Backoff;
  private readonly transform: (obj: KubeObject, ref: ResourceRef) => T;
  private resolved: ResourceRef | undefined;
  private rv: string | undefined;
  private needList = true;
  private consecutiveGone = 0;
  private loop: Promise<void> | undefined;
  private stopping = false;
  private abort: AbortController | undefined;
  private wake: (() => void) | undefined;
  /** A running watcher keeps the process alive even while it only waits (backoff timers are unref'd). */
  private keepAlive: NodeJS.Timeout | undefined;

  constructor(options: WatcherOptions<T>) {
    this.o = options;
    this.stats = options.stats ?? { lists: 0, watches: 0, events: 0, bookmarks: 0, gone: 0, errors: 0, inactivityRestarts: 0, lastError: undefined };
    this.clock = options.clock ?? realClock;
    this.random = options.random ?? Math.random;
    this.backoff = new Backoff(this.clock, options.backoff, this.random);
    this.transform = options.transform === null ? (obj) => obj as T : (options.transform ?? defaultTransform);
  }

  /** The resource, once discovery has resolved it. */
  get ref(): ResourceRef | undefined {
    return this.resolved;
  }

  /** The resourceVersion the next watch resumes from. */
  get resourceVersion(): string | undefined {
    return this.rv;
  }

  /** Between start() and stop(). */
  get running(): boolean {
    return this.loop !== undefined;
  }

  /** Starts the list/watch loop in the background; idempotent. */
  start(): void {
    if (this.loop) return;
    this.stopping = false;
    this.keepAlive = setInterval(() => undefined, 2 ** 31 - 1);
    this.loop = this.run();
  }

  /** Stops the loop and waits for it; the next start() resumes from the last resourceVersion. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.abort?.abort(new Error('informer stopped'));
    this.wake?.();
    clearInterval(this.keepAlive);
    this.keepAlive = undefined;
    const loop = this.loop;
    this.loop = undefined;
    await loop;
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      let phase: WatcherPhase = 'list';
      try {
        const ref = (this.resolved ??= await this.o.client.resolve(this.o.resource));
        if (this.needList) await this.relist(ref);
        phase = 'watch';
        await this.watchOnce(ref);
      } catch (err) {
        if (this.stopping) break;
        await this.fail(err, phase);
      }
    }
  }

  private async fail(err: unknown, phase: WatcherPhase): Promise<void> {
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
    this.o.onError(err, { phase, retryInMs: delay, failures: this.backoff.failures });
    if (delay > 0) await this.sleep(delay);
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

  /** Lists everything (paged) as init, initApply per object, initDone; then the watch resumes from the list's RV. */
  private async relist(ref: ResourceRef): Promise<void> {
    const ac = this.newAbort();
    let limit: number | undefined = this.o.pageSize ?? 500;
    if (limit === 0) limit = undefined;
    let cont: string | undefined;
    let rv: string | undefined;
    this.o.onEvent(INIT);
    while (!this.stopping) {
      let page;
      try {
        page = await this.o.client.list(ref, { ...this.listFilter(), ...(limit !== undefined ? { limit } : {}), ...(cont ? { continue: cont } : {}), signal: ac.signal });
      } catch (err) {
        // The continue token expired between pages: start over in a single unpaged request.
        if (err instanceof GoneError && cont !== undefined) {
          this.o.onEvent(INIT);
          cont = undefined;
          rv = undefined;
          limit = undefined;
          continue;
        }
        throw err;
      }
      for (const item of page.items) this.o.onEvent({ type: 'initApply', object: this.transform(item, ref) });
      // Pages are meant to be one snapshot at the first page's RV. Resume the watch from there: if a server
      // serves later pages from newer state, replaying from the older RV still delivers every change.
      rv ??= page.metadata.resourceVersion;
      cont = page.metadata.continue || undefined;
      if (cont === undefined) break;
    }
    if (this.stopping) return;
    this.stats.lists++;
    this.o.onEvent(INIT_DONE);
    this.rv = rv;
    this.needList = false;
  }

  private async watchOnce(ref: ResourceRef): Promise<void> {
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
        this.deliver(event, ref);
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
      this.o.onError(err, { phase: 'watch', retryInMs: 0, failures: this.backoff.failures });
      return;
    }
    if (events === 0 && this.clock.now() - started < (this.o.minWatchDurationMs ?? 1_000)) {
      throw new WatchClosedError('watch closed by the server immediately without events');
    }
  }

  private deliver(event: WatchEvent<T>, ref: ResourceRef): void {
    const rv = event.object.metadata?.resourceVersion;
    switch (event.type) {
      case 'BOOKMARK':
        this.stats.bookmarks++;
        break;
      case 'ADDED':
      case 'MODIFIED':
        this.stats.events++;
        this.o.onEvent({ type: 'apply', object: this.transform(event.object, ref) });
        break;
      case 'DELETED':
        this.stats.events++;
        this.o.onEvent({ type: 'delete', object: this.transform(event.object, ref) });
        break;
      default:
        break;
    }
    // A healthy stream: a later 410 is a fresh one, not a loop.
    this.consecutiveGone = 0;
    if (rv) this.rv = rv;
  }
}
