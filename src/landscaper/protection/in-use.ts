// In-use protection for the objects deploy items need until their uninstall is done (Targets, Contexts), as
// Kubernetes' pvc-protection keeps a PersistentVolumeClaim that a pod still uses: every such object carries
// the finalizer landscaper.gardener.cloud/in-use from the moment the controller sees it; once it is deleted,
// the finalizer goes when no deploy item uses it any more. Deleting an example folder with kubectl (the Target
// together with the Installation) therefore lets the deploy items uninstall through the Target first, instead
// of ending in DeleteFailed ("target not found") with kubectl waiting forever.
import type { KubeObject } from '../../apimachinery/object.ts';
import type { KubeClient, ResourceRef } from '../../client/client.ts';
import { action, type Action } from '../../runtime/controller/action.ts';
import type { Controller } from '../../runtime/controller/controller.ts';
import type { Predicate } from '../../runtime/controller/predicate.ts';
import type { ReconcileContext } from '../../runtime/controller/reconciler.ts';
import type { EventRecorder } from '../../runtime/event-recorder.ts';
import { addFinalizer, hasFinalizer, removeFinalizer } from '../../runtime/finalizer.ts';
import type { Informer } from '../../runtime/informer/informer.ts';
import type { Manager } from '../../runtime/manager.ts';
import { IN_USE_FINALIZER } from '../api/constants.ts';
import type { DeployItem } from '../api/deploy-item.ts';
import { deployItemsResource } from '../api/resources.ts';
import { nameList } from '../status-helpers.ts';

/** What one protected kind needs: how deploy items name an object of it. */
export interface InUseKind {
  /** Controller name in logs and metrics. */
  name: string;
  /** "Target", "Context": for messages. */
  kind: string;
  resource: ResourceRef;
  /** "<namespace>/<name>" of the object the item uses, or undefined. */
  usedBy(item: DeployItem): string | undefined;
  /** Objects whose lifecycle the Landscaper itself orders (its import copies and exports): never protected. */
  managed?(obj: KubeObject): boolean;
}

interface InUseData {
  client: KubeClient;
  spec: InUseKind;
  items: Informer<DeployItem>;
  index: string;
  recorder: EventRecorder;
}

export function registerInUseProtection(mgr: Manager, spec: InUseKind): Controller<KubeObject, InUseData> {
  const items = mgr.informer<DeployItem>(deployItemsResource);
  const index = `landscaper.in-use.${spec.kind.toLowerCase()}`;
  if (!items.store.indexNames().includes(index)) items.addIndexer(index, (d) => spec.usedBy(d));
  const keyOf = (d: DeployItem): string[] => {
    const key = spec.usedBy(d);
    return key === undefined ? [] : [key];
  };
  // Only a deploy item that appears, goes, or changes what it uses can change whether an object is in use.
  const usageChanged: Predicate<DeployItem> = (e) => e.type !== 'modified' || !e.old || spec.usedBy(e.old) !== spec.usedBy(e.object);
  return mgr
    .controller<KubeObject, InUseData>({
      name: spec.name,
      for: spec.resource,
      data: { client: mgr.client, spec, items, index, recorder: mgr.recorder('landscaper-in-use-protection') },
      reconcile: reconcileInUse,
    })
    .watches(items, keyOf, { predicates: [usageChanged] });
}

async function reconcileInUse(obj: KubeObject, ctx: ReconcileContext<InUseData>): Promise<Action> {
  const d = ctx.data;
  const present = hasFinalizer(obj, IN_USE_FINALIZER);
  if (d.spec.managed?.(obj) === true) {
    if (present) await removeFinalizer(d.client, d.spec.resource, obj, IN_USE_FINALIZER);
    return action.awaitChange();
  }
  if (obj.metadata.deletionTimestamp === undefined) {
    // From the start, not only once a deploy item appears: a deletion right after the apply is caught too.
    if (!present) await addFinalizer(d.client, d.spec.resource, obj, IN_USE_FINALIZER);
    return action.awaitChange();
  }
  if (!present) return action.awaitChange();
  const users = await usersOf(obj, d);
  if (users.length > 0) {
    // The deploy items' deletion events wake the object again.
    const what = `${d.spec.kind} ${obj.metadata.namespace}/${obj.metadata.name}`;
    void d.recorder.normal(obj, 'InUse', `${what} is deleted once no deploy item uses it; still used by ${nameList(users)}`);
    return action.awaitChange();
  }
  await removeFinalizer(d.client, d.spec.resource, obj, IN_USE_FINALIZER);
  return action.awaitChange();
}

/**
 * Names of the deploy items using obj. The cache answers "in use"; "unused" lets the object go for good, so it
 * is confirmed on the server (an item created a moment ago may not be in the cache yet).
 */
async function usersOf(obj: KubeObject, d: InUseData): Promise<string[]> {
  const key = `${obj.metadata.namespace}/${obj.metadata.name}`;
  const cached = d.items.byIndex(d.index, key);
  const items = cached.length > 0 ? cached : (await d.client.list<DeployItem>(deployItemsResource, { namespace: obj.metadata.namespace ?? '' })).items.filter((i) => d.spec.usedBy(i) === key);
  return items.map((i) => i.metadata.name ?? '').sort();
}
