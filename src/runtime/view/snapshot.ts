// A snapshot: the objects of several resources in one namespace, as a terminal view (`bosun tree`) reads them,
// listed once or kept live. Keyed by a name the view chooses ("installations", "pods"…).
import type { KubeObject } from '../../apimachinery/object.ts';
import type { ResourceRef } from '../../apimachinery/resource-ref.ts';
import type { KubeClient } from '../../client/client.ts';

/**
 * A resource in the view's namespace, or pinned elsewhere: `namespace: null` for every namespace (or a
 * cluster-scoped kind), a name for one (a disruption's chaos pods live in the chaos namespace).
 */
export type SnapshotSource = ResourceRef | { resource: ResourceRef; namespace: string | null };
export type SnapshotResources<K extends string> = Readonly<Record<K, SnapshotSource>>;
export type Snapshot<K extends string> = Record<K, KubeObject[]>;

/** Where one source is read from when the view shows `namespace`: the resource and the namespace (undefined: all). */
export function resolveSource(source: SnapshotSource, namespace: string): { resource: ResourceRef; namespace: string | undefined } {
  if ('namespace' in source && 'resource' in source) return { resource: source.resource, namespace: source.namespace ?? undefined };
  return { resource: source, namespace };
}

/** One list per resource, in parallel: what a one-shot view shows. */
export async function loadSnapshot<K extends string>(client: KubeClient, namespace: string, resources: SnapshotResources<K>, signal?: AbortSignal): Promise<Snapshot<K>> {
  const keys = Object.keys(resources) as K[];
  const lists = await Promise.all(
    keys.map((key) => {
      const where = resolveSource(resources[key], namespace);
      return client.list(where.resource, { ...(where.namespace !== undefined ? { namespace: where.namespace } : {}), ...(signal ? { signal } : {}) });
    }),
  );
  return Object.fromEntries(keys.map((key, i) => [key, lists[i]!.items])) as Snapshot<K>;
}
