// apiVersion+kind → ResourceRef through the discovery endpoints, cached per group/version and
// refreshed when a kind is missing (a CRD installed after the first lookup).
import { parseApiVersion } from '../apimachinery/group-version.ts';
import type { ResourceRef } from './client.ts';
import { NotFoundError } from './errors.ts';

interface ApiResource {
  name: string;
  namespaced: boolean;
  kind: string;
}

interface ApiResourceList {
  resources?: ApiResource[];
}

/** Fetches a discovery document (GET path → parsed JSON); throws the client's typed errors. */
export type DiscoveryFetch = (path: string, signal?: AbortSignal) => Promise<unknown>;

interface CacheEntry {
  byKind: Map<string, ResourceRef>;
  fetchedAt: number;
}

export class Discovery {
  private readonly fetch: DiscoveryFetch;
  private readonly cache = new Map<string, CacheEntry>();
  private readonly pending = new Map<string, Promise<CacheEntry>>();
  /** A miss refetches only if the cached document is older than this, so an unknown kind cannot hammer discovery. */
  private readonly minRefreshMs: number;

  constructor(fetch: DiscoveryFetch, options?: { minRefreshMs?: number }) {
    this.fetch = fetch;
    this.minRefreshMs = options?.minRefreshMs ?? 1_000;
  }

  async resolve(apiVersion: string, kind: string, signal?: AbortSignal): Promise<ResourceRef> {
    const cached = this.cache.get(apiVersion);
    const hit = cached?.byKind.get(kind);
    if (hit) return hit;
    if (cached && Date.now() - cached.fetchedAt < this.minRefreshMs) throw noMatch(apiVersion, kind);
    const fresh = await this.load(apiVersion, signal);
    const ref = fresh.byKind.get(kind);
    if (!ref) throw noMatch(apiVersion, kind);
    return ref;
  }

  /** Forgets one group/version, or everything. */
  invalidate(apiVersion?: string): void {
    if (apiVersion === undefined) this.cache.clear();
    else this.cache.delete(apiVersion);
  }

  private load(apiVersion: string, signal?: AbortSignal): Promise<CacheEntry> {
    let p = this.pending.get(apiVersion);
    if (!p) {
      p = this.fetchEntry(apiVersion, signal).finally(() => this.pending.delete(apiVersion));
      this.pending.set(apiVersion, p);
    }
    return p;
  }

  private async fetchEntry(apiVersion: string, signal?: AbortSignal): Promise<CacheEntry> {
    const { group, version } = parseApiVersion(apiVersion);
    const path = group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
    let doc: ApiResourceList;
    try {
      doc = (await this.fetch(path, signal)) as ApiResourceList;
    } catch (err) {
      if (err instanceof NotFoundError) {
        // The whole group/version is unknown: remember that briefly too.
        const entry = { byKind: new Map<string, ResourceRef>(), fetchedAt: Date.now() };
        this.cache.set(apiVersion, entry);
        return entry;
      }
      throw err;
    }
    const byKind = new Map<string, ResourceRef>();
    for (const r of doc.resources ?? []) {
      // Subresources ('deployments/status') share the parent's kind; skip them.
      if (r.name.includes('/') || byKind.has(r.kind)) continue;
      byKind.set(r.kind, { group, version, resource: r.name, namespaced: r.namespaced, kind: r.kind });
    }
    const entry = { byKind, fetchedAt: Date.now() };
    this.cache.set(apiVersion, entry);
    return entry;
  }
}

function noMatch(apiVersion: string, kind: string): NotFoundError {
  return new NotFoundError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `no matches for kind "${kind}" in version "${apiVersion}"`,
    reason: 'NotFound',
    details: { kind },
    code: 404,
  });
}
