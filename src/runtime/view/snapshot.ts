// A snapshot: the objects of several resources in one namespace, as a terminal view (`bosun tree`) reads them,
// listed once or kept live. Keyed by a name the view chooses ("installations", "pods"…).
import type { KubeObject } from '../../apimachinery/object.ts';
import type { ResourceRef } from '../../apimachinery/resource-ref.ts';
import type { KubeClient } from '../../client/client.ts';

export type SnapshotResources<K extends string> = Readonly<Record<K, ResourceRef>>;
export type Snapshot<K extends string> = Record<K, KubeObject[]>;

/** One list per resource, in parallel: what a one-shot view shows. */
export async function loadSnapshot<K extends string>(client: KubeClient, namespace: string, resources: SnapshotResources<K>, signal?: AbortSignal): Promise<Snapshot<K>> {
  const opts = { namespace, ...(signal ? { signal } : {}) };
  const keys = Object.keys(resources) as K[];
  const lists = await Promise.all(keys.map((key) => client.list(resources[key], opts)));
  return Object.fromEntries(keys.map((key, i) => [key, lists[i]!.items])) as Snapshot<K>;
}
