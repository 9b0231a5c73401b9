// Applies watcher events to a Store (kube-rs's reflector): a (re)list replaces the cache, and what it no
// longer holds is reported deleted with finalStateUnknown; watch events add, update (only when the
// resourceVersion changed) and delete. Holds the sync gate: synced once the first list has been applied.
import type { KubeObject } from '../../apimachinery/object.ts';
import { keyOf, type Store } from './store.ts';
import type { WatcherEvent } from './watcher.ts';

/** What the reflector reports after changing the store, in the order it changed it. */
export interface StoreChanges<T extends KubeObject = KubeObject> {
  /** initialList: the object arrived with a (re)list rather than a watch event. */
  added(obj: T, initialList: boolean): void;
  updated(oldObj: T, newObj: T): void;
  /** finalStateUnknown: the delete was inferred by a relist, so obj is the last state seen. */
  deleted(obj: T, finalStateUnknown: boolean): void;
  /** The first list has been applied and its changes reported. */
  synced(): void;
}

export class Reflector<T extends KubeObject = KubeObject> {
  private readonly store: Store<T>;
  private readonly changes: StoreChanges<T>;
  /** The objects of the list in progress; they replace the store's at initDone. */
  private listed = new Map<string, T>();
  private synced = false;
  private syncWaiters: (() => void)[] = [];

  constructor(store: Store<T>, changes: StoreChanges<T>) {
    this.store = store;
    this.changes = changes;
  }

  apply(event: WatcherEvent<T>): void {
    switch (event.type) {
      case 'init':
        this.listed = new Map();
        break;
      case 'initApply':
        this.listed.set(keyOf(event.object), event.object);
        break;
      case 'initDone':
        this.replace();
        break;
      case 'apply': {
        const obj = event.object;
        const old = this.store.set(keyOf(obj), obj);
        if (!old) this.changes.added(obj, false);
        else if (old.metadata.resourceVersion !== obj.metadata.resourceVersion) this.changes.updated(old, obj);
        break;
      }
      case 'delete':
        if (this.store.delete(keyOf(event.object))) this.changes.deleted(event.object, false);
        break;
    }
  }

  hasSynced(): boolean {
    return this.synced;
  }

  /** Resolves after the first complete list has been applied and its changes reported. */
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

  /** Makes the store hold exactly the listed objects: deletes for what vanished, adds, changed updates. */
  private replace(): void {
    const listed = this.listed;
    this.listed = new Map();
    const initial = !this.synced;
    const vanished: string[] = [];
    for (const key of this.store.keys()) if (!listed.has(key)) vanished.push(key);
    for (const key of vanished) {
      const old = this.store.delete(key);
      if (old) this.changes.deleted(old, true);
    }
    for (const [key, obj] of listed) {
      const old = this.store.get(key);
      if (!old) {
        this.store.set(key, obj);
        this.changes.added(obj, true);
      } else if (old.metadata.resourceVersion !== obj.metadata.resourceVersion) {
        this.store.set(key, obj);
        this.changes.updated(old, obj);
      }
    }
    if (initial) this.markSynced();
  }

  private markSynced(): void {
    this.synced = true;
    const waiters = this.syncWaiters;
    this.syncWaiters = [];
    for (const w of waiters) w();
    this.changes.synced();
  }
}
