// An in-memory stand-in for an informer, for controller unit tests: set/remove objects, then sync.
import type { KubeObject } from '../../src/apimachinery/object.ts';
import type { WatchSource } from '../../src/runtime/controller/source.ts';
import type { InformerHandlers } from '../../src/runtime/informer/informer.ts';
import { keyOf } from '../../src/runtime/informer/store.ts';

export class FakeSource<T extends KubeObject = KubeObject> implements WatchSource<T> {
  private readonly items = new Map<string, T>();
  private readonly handlers = new Set<InformerHandlers<T>>();
  private synced = false;
  private waiters: Array<() => void> = [];
  private rv = 0;

  readonly store = { get: (key: string): T | undefined => this.items.get(key) };

  list(): T[] {
    return [...this.items.values()];
  }

  addEventHandler(handlers: InformerHandlers<T>): () => void {
    this.handlers.add(handlers);
    if (this.synced) for (const obj of this.items.values()) handlers.onAdd?.(obj, true);
    return () => this.handlers.delete(handlers);
  }

  hasSynced(): boolean {
    return this.synced;
  }

  waitForSync(signal?: AbortSignal): Promise<void> {
    if (this.synced) return Promise.resolve();
    return new Promise((resolve, reject) => {
      signal?.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
      this.waiters.push(resolve);
    });
  }

  /** Like an informer's first list: every stored object reaches the handlers as an add, then waiters resume. */
  sync(): void {
    for (const h of this.handlers) for (const obj of this.items.values()) h.onAdd?.(obj, true);
    this.synced = true;
    for (const w of this.waiters.splice(0)) w();
  }

  /** Stores obj (bumping resourceVersion) and tells the handlers. */
  set(obj: T): T {
    const stored = { ...obj, metadata: { ...obj.metadata, resourceVersion: String(++this.rv) } };
    const key = keyOf(stored);
    const old = this.items.get(key);
    this.items.set(key, stored);
    if (!this.synced) return stored;
    for (const h of this.handlers) {
      if (old) h.onUpdate?.(old, stored);
      else h.onAdd?.(stored, false);
    }
    return stored;
  }

  remove(key: string): void {
    const old = this.items.get(key);
    if (!old) return;
    this.items.delete(key);
    for (const h of this.handlers) h.onDelete?.(old, false);
  }
}
