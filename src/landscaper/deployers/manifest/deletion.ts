// Deleting managed resources in deletion groups (upstream resourcemanager DeletionGroup/DeleteManagedResources).
// Without groups: namespaced resources, then cluster-scoped ones, then CRDs. A group is deleted completely —
// every object gone — before the next one starts. One call does what can be done now and names what it waits
// for; the deployer calls again when a watched object changes.
import type { KubeObject } from '../../../apimachinery/object.ts';
import type { KubeClient, ResourceRef } from '../../../client/client.ts';
import { NotFoundError } from '../../../client/errors.ts';
import type { JSONObject } from '../../api/shared.ts';
import { MANAGED_DEPLOY_ITEM_LABEL, type DeletionGroup } from './config.ts';
import { mergeInto } from './merge.ts';
import { describeRef, nsOpt, type ManagedResource, type ResourceReference } from './resources.ts';
import type { Pending, WatchInterest } from './target-watches.ts';
import { removeAllFinalizers } from '../../../runtime/index.ts';

const DEFAULT_GROUPS: DeletionGroup[] = [
  { predefinedResourceGroup: { type: 'namespaced-resources' } },
  { predefinedResourceGroup: { type: 'cluster-scoped-resources' } },
  { predefinedResourceGroup: { type: 'crds' } },
];

export interface DeleteOptions {
  client: KubeClient;
  resources: ManagedResource[];
  groups: DeletionGroup[] | undefined;
}

const isCrd = (r: ResourceReference): boolean => r.kind === 'CustomResourceDefinition';

function matches(group: DeletionGroup, r: ResourceReference): boolean {
  const p = group.predefinedResourceGroup;
  if (p) {
    switch (p.type) {
      case 'namespaced-resources':
        return !isCrd(r) && (r.namespace ?? '') !== '';
      case 'cluster-scoped-resources':
        return !isCrd(r) && (r.namespace ?? '') === '';
      case 'crds':
        return isCrd(r);
      case 'empty':
        return false;
    }
  }
  const listed = (list: string[] | undefined, v: string): boolean => !list || list.length === 0 || list.includes(v);
  return (group.customResourceGroup?.resources ?? []).some((t) => t.kind === r.kind && t.apiVersion === r.apiVersion && listed(t.namespaces, r.namespace ?? '') && listed(t.names, r.name));
}

async function resolve(client: KubeClient, r: { apiVersion: string; kind: string }): Promise<ResourceRef | undefined> {
  try {
    return await client.resolve(r);
  } catch (err) {
    // The kind is gone (its CRD was deleted): so are its objects.
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}

/** deleteAllResources: every object of the group's types (in the given namespaces/names), managed or not. */
async function allResources(client: KubeClient, group: DeletionGroup): Promise<ResourceReference[]> {
  const out: ResourceReference[] = [];
  for (const t of group.customResourceGroup?.resources ?? []) {
    const ref = await resolve(client, t);
    if (!ref) continue;
    const namespaces = ref.namespaced ? (t.namespaces && t.namespaces.length > 0 ? t.namespaces : [undefined]) : [undefined];
    for (const ns of namespaces) {
      const list = await client.list(ref, ns ? { namespace: ns } : {});
      for (const item of list.items) {
        if (t.names && t.names.length > 0 && !t.names.includes(item.metadata.name ?? '')) continue;
        out.push({ apiVersion: t.apiVersion, kind: t.kind, name: item.metadata.name ?? '', ...(item.metadata.namespace ? { namespace: item.metadata.namespace } : {}) });
      }
    }
  }
  return out;
}

/** Deletes r; returns true while it still exists. forceDelete strips its finalizers. */
async function deleteOne(client: KubeClient, ref: ResourceRef, r: ResourceReference, force: boolean): Promise<boolean> {
  const opts = nsOpt(ref, r.namespace);
  try {
    await client.delete(ref, r.name, opts);
  } catch (err) {
    if (err instanceof NotFoundError) return false;
    throw err;
  }
  let current: KubeObject;
  try {
    current = await client.get(ref, r.name, opts);
  } catch (err) {
    if (err instanceof NotFoundError) return false;
    throw err;
  }
  if (force) await removeAllFinalizers(client, ref, current);
  return true;
}

/** Deletes the first group that still has objects: undefined once every group is gone, else what remains. */
export async function deleteInGroups(o: DeleteOptions): Promise<Pending | undefined> {
  if (o.resources.length === 0 && !(o.groups ?? []).some((g) => g.customResourceGroup?.deleteAllResources)) return undefined;
  const groups = o.groups && o.groups.length > 0 ? o.groups : DEFAULT_GROUPS;
  const buckets = groups.map(() => [] as ResourceReference[]);
  for (const mr of o.resources) {
    const i = groups.findIndex((g) => matches(g, mr.resource));
    if (i >= 0) buckets[i]!.push(mr.resource);
  }
  for (const [i, group] of groups.entries()) {
    const members = group.customResourceGroup?.deleteAllResources ? await allResources(o.client, group) : buckets[i]!;
    const force = (group.predefinedResourceGroup?.forceDelete ?? group.customResourceGroup?.forceDelete) === true;
    const remaining: ResourceReference[] = [];
    const interests: WatchInterest[] = [];
    for (const r of members) {
      const ref = await resolve(o.client, r);
      if (!ref || !(await deleteOne(o.client, ref, r, force))) continue;
      remaining.push(r);
      interests.push({ ref, ...nsOpt(ref, r.namespace), name: r.name });
    }
    if (remaining.length > 0) {
      const which = groups.length > 1 ? ` (deletion group ${i + 1} of ${groups.length})` : '';
      return { waiting: `the deletion of ${remaining.map(describeRef).join(', ')}${which}`, interests };
    }
  }
  return undefined;
}

/**
 * upstream FilterByPolicy + AnnotateAndPatchBeforeDelete: keep/ignore are never deleted, fallback only when it is
 * still labelled for this deploy item; annotateBeforeDelete and patchBeforeDelete are written first.
 * Returns whether the resource is to be deleted.
 */
export async function prepareForDelete(client: KubeClient, mr: ManagedResource, deployItemName: string, managedLabel = MANAGED_DEPLOY_ITEM_LABEL): Promise<boolean> {
  if (mr.policy === 'keep' || mr.policy === 'ignore') return false;
  const needsObject = mr.policy === 'fallback' || mr.annotateBeforeDelete !== undefined || mr.patchBeforeDelete !== undefined;
  if (!needsObject) return true;
  const ref = await resolve(client, mr.resource);
  if (!ref) return false;
  const opts = nsOpt(ref, mr.resource.namespace);
  let current: KubeObject;
  try {
    current = await client.get(ref, mr.resource.name, opts);
  } catch (err) {
    if (err instanceof NotFoundError) return false;
    throw err;
  }
  if (mr.policy === 'fallback' && current.metadata.labels?.[managedLabel] !== deployItemName) return false;
  if (mr.annotateBeforeDelete === undefined && mr.patchBeforeDelete === undefined) return true;
  let next = current as unknown as JSONObject;
  if (mr.annotateBeforeDelete) {
    next = { ...next, metadata: { ...(next['metadata'] as JSONObject), annotations: { ...(current.metadata.annotations ?? {}), ...mr.annotateBeforeDelete } } };
  }
  if (mr.patchBeforeDelete && typeof mr.patchBeforeDelete === 'object' && !Array.isArray(mr.patchBeforeDelete)) {
    next = mergeInto(next, mr.patchBeforeDelete, true);
  }
  await client.update(ref, next as unknown as KubeObject, opts);
  return true;
}
