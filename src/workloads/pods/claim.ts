// controller.ControllerRefManager: a controller claims the objects its selector matches. It keeps what it
// controls, adopts matching orphans (adding its controller reference, and for Jobs the tracking finalizer) and
// releases what it controls but no longer matches. Adoption first re-reads the owner from the API server, so an
// owner deleted meanwhile adopts nothing (RecheckDeletionTimestamp). Writes are merge patches guarded by the
// resourceVersion they were computed from; a conflict surfaces, and the reconcile retries on a fresher cache.
import { matchesLabels, type LabelSelector } from '../../apimachinery/label-selector.ts';
import type { KubeObject, OwnerReference } from '../../apimachinery/object.ts';
import type { KubeClient, ResourceTarget } from '../../client/client.ts';
import { NotFoundError } from '../../client/errors.ts';
import { controllerOf } from './owner.ts';

export interface ClaimOptions {
  client: KubeClient;
  /** The claimed objects' resource (pods, replicasets). */
  resource: ResourceTarget;
  /** The owner's resource, for the re-read before adopting. */
  ownerResource: ResourceTarget;
  owner: KubeObject;
  ref: OwnerReference;
  selector: LabelSelector;
  /** Added on adoption (Jobs: batch.kubernetes.io/job-tracking). */
  finalizer?: string;
}

export async function claim<T extends KubeObject>(candidates: readonly T[], o: ClaimOptions): Promise<T[]> {
  const uid = o.owner.metadata.uid;
  const claimed: T[] = [];
  let ownerAlive: boolean | undefined;
  const canAdopt = async (): Promise<boolean> => {
    if (ownerAlive === undefined) {
      try {
        const fresh = await o.client.get(o.ownerResource, o.owner.metadata.name ?? '', { namespace: o.owner.metadata.namespace ?? '' });
        ownerAlive = fresh.metadata.uid === uid && fresh.metadata.deletionTimestamp === undefined;
      } catch (err) {
        if (!(err instanceof NotFoundError)) throw err;
        ownerAlive = false;
      }
    }
    return ownerAlive;
  };
  for (const obj of candidates) {
    const ref = controllerOf(obj);
    const matches = matchesLabels(o.selector, obj.metadata.labels);
    if (ref) {
      if (ref.uid !== uid) continue;
      if (matches || o.owner.metadata.deletionTimestamp !== undefined) {
        claimed.push(obj);
        continue;
      }
      await patchIgnoringGone(o, obj, { ownerReferences: (obj.metadata.ownerReferences ?? []).filter((r) => r.uid !== uid) });
      continue;
    }
    if (!matches || obj.metadata.deletionTimestamp !== undefined || o.owner.metadata.deletionTimestamp !== undefined) continue;
    if (!(await canAdopt())) continue;
    const finalizers = obj.metadata.finalizers ?? [];
    const adopted = await patchIgnoringGone(o, obj, {
      ownerReferences: [...(obj.metadata.ownerReferences ?? []), o.ref],
      ...(o.finalizer && !finalizers.includes(o.finalizer) ? { finalizers: [...finalizers, o.finalizer] } : {}),
    });
    if (adopted) claimed.push(adopted);
  }
  return claimed;
}

async function patchIgnoringGone<T extends KubeObject>(o: ClaimOptions, obj: T, metadata: Record<string, unknown>): Promise<T | undefined> {
  try {
    return await o.client.patch<T>(o.resource, obj.metadata.name ?? '', { metadata: { resourceVersion: obj.metadata.resourceVersion, uid: obj.metadata.uid, ...metadata } }, {
      type: 'merge',
      namespace: obj.metadata.namespace ?? '',
    });
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}
