// The controller's own slice writes, so a sync never acts on a cache that has not caught up with them (the role
// of upstream's EndpointSliceTracker): a slice we created or updated counts as written until the informer shows
// it, and one we deleted as gone. Upstream retries the Service on such a stale cache; Bosun reads through it.
import type { EndpointSlice } from '../../apimachinery/api/index.ts';
import { keyOf, type Informer, type ReadYourWrites } from '../../runtime/index.ts';

export class SliceWrites {
  private readonly writes: ReadYourWrites<EndpointSlice>;
  /** Per Service key, the keys of slices it created that the cache may not hold yet. */
  private readonly created = new Map<string, Set<string>>();
  /** Slice key → UID of slices deleted but maybe still cached. */
  private readonly deleted = new Map<string, string>();

  constructor(informer: Informer<EndpointSlice>, writes: ReadYourWrites<EndpointSlice>) {
    this.writes = writes;
    informer.addEventHandler({ onDelete: (slice) => this.deleted.delete(keyOf(slice)) });
  }

  /** The Service's slices as they are after our writes, from the cached ones. */
  view(serviceKey: string, cached: readonly EndpointSlice[]): EndpointSlice[] {
    const slices = cached.filter((slice) => this.deleted.get(keyOf(slice)) !== slice.metadata.uid).map((slice) => this.writes.resolve(slice));
    const created = this.created.get(serviceKey);
    for (const key of created ?? []) {
      const pending = this.writes.pending(key);
      if (!pending) created?.delete(key);
      else if (!slices.some((slice) => keyOf(slice) === key)) slices.push(pending);
    }
    if (created?.size === 0) this.created.delete(serviceKey);
    return slices;
  }

  recordCreate(serviceKey: string, slice: EndpointSlice): void {
    this.writes.record('', slice);
    const keys = this.created.get(serviceKey) ?? new Set<string>();
    keys.add(keyOf(slice));
    this.created.set(serviceKey, keys);
  }

  recordUpdate(before: EndpointSlice, slice: EndpointSlice): void {
    this.writes.record(before.metadata.resourceVersion, slice);
  }

  /** After a successful delete; stillCached says whether the informer has yet to see it. */
  recordDelete(slice: EndpointSlice, stillCached: boolean): void {
    this.writes.forget(keyOf(slice));
    if (stillCached) this.deleted.set(keyOf(slice), slice.metadata.uid ?? '');
  }

  forgetService(serviceKey: string): void {
    this.created.delete(serviceKey);
  }
}
