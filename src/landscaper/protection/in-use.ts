// In-use protection for the objects deploy items need until their uninstall is done (Targets, Contexts, and the
// Secrets Targets read), as Kubernetes' pvc-protection keeps a PersistentVolumeClaim that a pod still uses: such an
// object carries the finalizer landscaper.gardener.cloud/in-use; once it is deleted, the finalizer goes when
// nothing uses it any more. Deleting an example folder with kubectl (the Target together with the Installation),
// or the namespace of a whole tree, therefore lets the deploy items uninstall through the Target first, instead
// of ending in DeleteFailed ("target not found") with kubectl waiting forever.
import type { KubeObject } from '../../apimachinery/object.ts';
import { namespacesResource } from '../../apimachinery/builtin-resources.ts';
import type { KubeClient, ResourceRef } from '../../client/client.ts';
import { NotFoundError } from '../../client/errors.ts';
import type {
  Action,
  Controller,
  EventRecorder,
  Informer,
  InformerFilter,
  Manager,
  Predicate,
  ReconcileContext,
} from '../../runtime/index.ts';
import { action, addFinalizer, hasFinalizer, removeFinalizer } from '../../runtime/index.ts';
import { IN_USE_FINALIZER } from '../api/constants.ts';
import { nameList } from '../status-helpers.ts';

/** What uses a protected kind: deploy items use Targets and Contexts, Targets use Secrets. */
export interface InUseUsers<U extends KubeObject> {
  resource: ResourceRef;
  /** "deploy items", "Targets": for messages. */
  what: string;
  /** "<namespace>/<name>" of each protected object the user needs (in the user's own namespace). */
  uses(user: U): string[];
}

/** What one protected kind needs. */
export interface InUseKind<U extends KubeObject> {
  /** Controller name in logs and metrics. */
  name: string;
  /** "Target", "Context": for messages. */
  kind: string;
  resource: ResourceRef;
  users: InUseUsers<U>;
  /** Only these objects of the kind are looked at (Secrets: those a Target marked). */
  filter?: InformerFilter;
  /**
   * Objects whose deletion the installations order themselves (their import copies and exports): their deletion is
   * held only while their namespace is being deleted, when nothing else orders it.
   */
  managed?(obj: KubeObject): boolean;
  /** Runs for every live object of the kind (a Target marks the Secrets it reads for their own protection). */
  protectAlso?(obj: KubeObject, client: KubeClient): Promise<void>;
  /** Set when an unused, live object should not keep the finalizer: it is released (the marking undone). */
  release?(obj: KubeObject, client: KubeClient): Promise<void>;
}

interface InUseData<U extends KubeObject> {
  client: KubeClient;
  spec: InUseKind<U>;
  users: Informer<U>;
  index: string;
  recorder: EventRecorder;
}

export function registerInUseProtection<U extends KubeObject>(mgr: Manager, spec: InUseKind<U>): Controller<KubeObject, InUseData<U>> {
  const users = mgr.informer<U>(spec.users.resource);
  const index = `landscaper.in-use.${spec.kind.toLowerCase()}`;
  if (!users.store.indexNames().includes(index)) users.addIndexer(index, (u) => spec.users.uses(u));
  const uses = (u: U): string[] => spec.users.uses(u);
  // Only a user that appears, goes, or changes what it uses can change whether an object is in use.
  const usageChanged: Predicate<U> = (e) => e.type !== 'modified' || !e.old || uses(e.old).join('\n') !== uses(e.object).join('\n');
  return mgr
    .controller<KubeObject, InUseData<U>>({
      name: spec.name,
      for: spec.resource,
      ...(spec.filter ? { filter: spec.filter } : {}),
      data: { client: mgr.client, spec, users, index, recorder: mgr.recorder('landscaper-in-use-protection') },
      reconcile: reconcileInUse,
    })
    .watches(users, uses, { predicates: [usageChanged] });
}

async function reconcileInUse<U extends KubeObject>(obj: KubeObject, ctx: ReconcileContext<InUseData<U>>): Promise<Action> {
  const d = ctx.data;
  const present = hasFinalizer(obj, IN_USE_FINALIZER);
  if (obj.metadata.deletionTimestamp === undefined) {
    if (d.spec.release !== undefined && (await usersOf(obj, d)).length === 0) {
      await d.spec.release(obj, d.client);
      return action.awaitChange();
    }
    // From the start, not only once a user appears: a deletion right after the apply is caught too.
    if (!present) await addFinalizer(d.client, d.spec.resource, obj, IN_USE_FINALIZER);
    await d.spec.protectAlso?.(obj, d.client);
    return action.awaitChange();
  }
  if (!present) return action.awaitChange();
  const users = await usersOf(obj, d);
  if (users.length > 0 && (d.spec.managed?.(obj) !== true || (await namespaceTerminating(d.client, obj.metadata.namespace ?? '')))) {
    // The users' deletion events wake the object again.
    const what = `${d.spec.kind} ${obj.metadata.namespace}/${obj.metadata.name}`;
    void d.recorder.normal(obj, 'InUse', `${what} is deleted once no ${d.spec.users.what.replace(/s$/, '')} uses it; still used by ${nameList(users)}`);
    return action.awaitChange();
  }
  await removeFinalizer(d.client, d.spec.resource, obj, IN_USE_FINALIZER);
  return action.awaitChange();
}

/**
 * Names of the users of obj. The cache answers "in use"; "unused" lets the object go for good, so it is confirmed
 * on the server (a user created a moment ago may not be in the cache yet).
 */
async function usersOf<U extends KubeObject>(obj: KubeObject, d: InUseData<U>): Promise<string[]> {
  const key = `${obj.metadata.namespace}/${obj.metadata.name}`;
  const cached = d.users.byIndex(d.index, key);
  const users = cached.length > 0 ? cached : (await d.client.list<U>(d.spec.users.resource, { namespace: obj.metadata.namespace ?? '' })).items.filter((u) => d.spec.users.uses(u).includes(key));
  return users.map((u) => u.metadata.name ?? '').sort();
}

/** Read from the server: the namespace event and the object's own may arrive in either order. */
async function namespaceTerminating(client: KubeClient, namespace: string): Promise<boolean> {
  try {
    return (await client.get(namespacesResource, namespace)).metadata.deletionTimestamp !== undefined;
  } catch (err) {
    if (err instanceof NotFoundError) return true;
    throw err;
  }
}
