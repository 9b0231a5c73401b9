// Read-your-writes over an informer cache. A reconcile that runs right after our own write may still
// see the older cached object; acting on it costs a conflict or a needless re-trigger. We remember
// which resourceVersions our writes superseded: a cached object at one of those is stale, and the
// written object stands in until the cache catches up. No ordering of resourceVersions is assumed.
import type { KubeObject } from '../../apimachinery/object.ts';
import { keyOf } from './store.ts';
import type { Informer } from './informer.ts';

interface Entry<T> {
  superseded: Set<string>;
  written: T;
}

export class ReadYourWrites<T extends KubeObject> {
  private readonly entries = new Map<string, Entry<T>>();

  /** Forgets entries once the cache shows our write or anything newer, or the object is deleted. */
  attach(informer: Pick<Informer<T>, 'addEventHandler'>): () => void {
    return informer.addEventHandler({
      onAdd: (obj) => this.observe(obj),
      onUpdate: (_old, obj) => this.observe(obj),
      onDelete: (obj) => this.entries.delete(keyOf(obj)),
    });
  }

  /** Records that `written` replaced the object at `baseResourceVersion` ('' for a create). */
  record(baseResourceVersion: string | undefined, written: T): void {
    const key = keyOf(written);
    const entry = this.entries.get(key);
    const superseded = entry ? entry.superseded : new Set<string>();
    superseded.add(baseResourceVersion ?? '');
    if (entry) superseded.add(entry.written.metadata.resourceVersion ?? '');
    superseded.delete(written.metadata.resourceVersion ?? '');
    this.entries.set(key, { superseded, written });
  }

  /** The freshest view: our written object when the cached one is older than it, else the cached one. */
  resolve(cached: T): T {
    const entry = this.entries.get(keyOf(cached));
    if (!entry) return cached;
    if (entry.superseded.has(cached.metadata.resourceVersion ?? '')) return entry.written;
    return cached;
  }

  /** Our written object for a key the cache does not hold yet (just created), if any. */
  pending(key: string): T | undefined {
    const entry = this.entries.get(key);
    return entry?.superseded.has('') ? entry.written : undefined;
  }

  forget(key: string): void {
    this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }

  private observe(obj: T): void {
    const key = keyOf(obj);
    const entry = this.entries.get(key);
    if (entry && !entry.superseded.has(obj.metadata.resourceVersion ?? '')) this.entries.delete(key);
  }
}
