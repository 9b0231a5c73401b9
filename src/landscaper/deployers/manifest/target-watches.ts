// Watches on target clusters that wake waiting deploy items (the manifest deployer never polls). An item that
// waits for readiness, exports or deletions declares the objects it waits on; one metadata-only informer per
// (target cluster, resource, namespace, label selector) is shared by every item waiting there, and any event on
// a watched object requeues the items that wait on it. A newly synced informer wakes all its holders once,
// which covers changes between an item's last check and the informer's initial list. Informers nobody waits on
// any more linger a while (bursts of items reuse them), then stop.
import type { KubeObject } from '../../../apimachinery/object.ts';
import type { ResourceRef } from '../../../client/client.ts';
import { Informer } from '../../../runtime/index.ts';
import type { TargetClient } from './target-client.ts';

export interface WatchInterest {
  ref: ResourceRef;
  /** Omitted: all namespaces (cluster-scoped kinds, or label selections without one). */
  namespace?: string;
  /** Omitted: any object the informer sees (label selections, deleteAllResources). */
  name?: string;
  labelSelector?: string;
}

/** Why a wait is not over yet, and the objects whose changes may end it. */
export interface Pending {
  waiting: string;
  interests: WatchInterest[];
  /** Look again after this long even without events (a timeout falls due). */
  recheckInMs?: number;
}

interface SharedInformer {
  informer: Informer;
  /** Item keys → the names each waits on here ('' = any). */
  holders: Map<string, Set<string>>;
  linger: NodeJS.Timeout | undefined;
}

export interface TargetWatchesOptions {
  /** Requeues a deploy item by its "namespace/name" key. */
  wake(itemKey: string): void;
  /** How long an informer nobody holds stays up; default 60 s. */
  lingerMs?: number;
  onError?(err: unknown, what: string): void;
}

function informerKey(tc: TargetClient, i: WatchInterest): string {
  return [tc.key, i.ref.group, i.ref.version, i.ref.resource, i.namespace ?? '', i.labelSelector ?? ''].join('|');
}

// Waiting only needs to know that something changed: keep identity, drop the payload.
function metadataOnly(obj: KubeObject): KubeObject {
  const m = obj.metadata;
  return { metadata: { ...(m.name !== undefined ? { name: m.name } : {}), ...(m.namespace !== undefined ? { namespace: m.namespace } : {}), ...(m.resourceVersion !== undefined ? { resourceVersion: m.resourceVersion } : {}) } };
}

export class TargetWatches {
  private readonly informers = new Map<string, SharedInformer>();
  /** Item key → informer keys it holds. */
  private readonly held = new Map<string, Set<string>>();
  private readonly o: TargetWatchesOptions;

  constructor(options: TargetWatchesOptions) {
    this.o = options;
  }

  /**
   * Makes `itemKey` wait on exactly these objects (earlier interests are replaced). Returns true when an interest
   * is new: an event may have passed before it was registered, so the caller checks once more.
   */
  set(itemKey: string, tc: TargetClient, interests: WatchInterest[]): boolean {
    const wanted = new Map<string, { interest: WatchInterest; names: Set<string> }>();
    for (const i of interests) {
      const key = informerKey(tc, i);
      const entry = wanted.get(key) ?? { interest: i, names: new Set<string>() };
      entry.names.add(i.name ?? '');
      wanted.set(key, entry);
    }
    let added = false;
    const previous = this.held.get(itemKey) ?? new Set<string>();
    for (const key of previous) if (!wanted.has(key)) this.drop(key, itemKey);
    for (const [key, { interest, names }] of wanted) {
      const shared = this.informers.get(key) ?? this.start(key, tc, interest);
      if (shared.linger) {
        clearTimeout(shared.linger);
        shared.linger = undefined;
      }
      const before = shared.holders.get(itemKey);
      if (!before || [...names].some((n) => !before.has(n))) added = true;
      shared.holders.set(itemKey, names);
    }
    this.held.set(itemKey, new Set(wanted.keys()));
    return added;
  }

  /** The item no longer waits (its job ended, moved on or the item is gone). */
  release(itemKey: string): void {
    for (const key of this.held.get(itemKey) ?? []) this.drop(key, itemKey);
    this.held.delete(itemKey);
  }

  /** Informers running (for tests and metrics). */
  get size(): number {
    return this.informers.size;
  }

  async close(): Promise<void> {
    const all = [...this.informers.values()];
    this.informers.clear();
    this.held.clear();
    for (const s of all) if (s.linger) clearTimeout(s.linger);
    await Promise.all(all.map((s) => s.informer.stop()));
  }

  private start(key: string, tc: TargetClient, i: WatchInterest): SharedInformer {
    const informer = new Informer({
      client: tc.client,
      resource: i.ref,
      ...(i.namespace !== undefined ? { namespace: i.namespace } : {}),
      ...(i.labelSelector ? { labelSelector: i.labelSelector } : {}),
      transform: metadataOnly,
      builtinIndexes: false,
      onError: (err) => this.o.onError?.(err, `watching ${i.ref.resource} in ${tc.describe}`),
    });
    const shared: SharedInformer = { informer, holders: new Map(), linger: undefined };
    const touched = (obj: KubeObject): void => {
      const name = obj.metadata.name ?? '';
      for (const [item, names] of shared.holders) if (names.has('') || names.has(name)) this.o.wake(item);
    };
    informer.addEventHandler({ onAdd: touched, onUpdate: (_old, obj) => touched(obj), onDelete: touched });
    this.informers.set(key, shared);
    informer.start();
    void informer.waitForSync().then(() => {
      for (const item of shared.holders.keys()) this.o.wake(item);
    }, () => {});
    return shared;
  }

  private drop(key: string, itemKey: string): void {
    const shared = this.informers.get(key);
    if (!shared) return;
    shared.holders.delete(itemKey);
    if (shared.holders.size > 0 || shared.linger) return;
    shared.linger = setTimeout(() => {
      if (shared.holders.size > 0 || this.informers.get(key) !== shared) return;
      this.informers.delete(key);
      void shared.informer.stop();
    }, this.o.lingerMs ?? 60_000);
    shared.linger.unref();
  }
}
