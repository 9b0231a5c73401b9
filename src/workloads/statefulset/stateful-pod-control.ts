// Creating, relabelling and deleting a StatefulSet's pods with the statefulset controller's Events
// (StatefulPodControl): "create Pod web-0 in StatefulSet web successful", "delete Pod … successful", and
// FailedCreate/FailedDelete/FailedUpdate "… failed error: <cause>". A pod's claims are created before it.
import { AlreadyExistsError, NotFoundError } from '../../client/errors.ts';
import { podsResource } from '../../apimachinery/builtin-resources.ts';
import type { Pod, StatefulSet } from '../../apimachinery/api/index.ts';
import { messageOf } from '../../apimachinery/error-message.ts';
import { createMissingClaims, updateClaimsForRetentionPolicy, type ClaimControl } from './claims.ts';
import { identityLabels } from './identity.ts';

type Verb = 'create' | 'update' | 'delete';
const reasons: Record<Verb, [string, string]> = {
  create: ['SuccessfulCreate', 'FailedCreate'],
  update: ['SuccessfulUpdate', 'FailedUpdate'],
  delete: ['SuccessfulDelete', 'FailedDelete'],
};

function record(c: ClaimControl, verb: Verb, set: StatefulSet, pod: Pod, err?: unknown): void {
  const [ok, failed] = reasons[verb];
  const what = `${verb} Pod ${pod.metadata.name ?? ''} in StatefulSet ${set.metadata.name ?? ''}`;
  if (err === undefined) void c.recorder.normal(set, ok, `${what} successful`);
  else void c.recorder.warning(set, failed, `${what} failed error: ${messageOf(err)}`);
}

/** CreateStatefulPod; false when the pod already exists (the cache has not shown it yet). */
export async function createStatefulPod(c: ClaimControl, set: StatefulSet, pod: Pod): Promise<boolean> {
  await createMissingClaims(c, set, pod);
  let created: Pod;
  try {
    created = await c.client.create<Pod>(podsResource, pod);
  } catch (err) {
    if (err instanceof AlreadyExistsError) return false;
    record(c, 'create', set, pod, err);
    throw err;
  }
  record(c, 'create', set, pod);
  // The claims can name the pod as their owner only now that it has a uid.
  await updateClaimsForRetentionPolicy(c, set, created);
  return true;
}

/** UpdateStatefulPod: the identity labels back on a member that lost them, its claims and their owners. */
export async function updateStatefulPod(c: ClaimControl, set: StatefulSet, pod: Pod): Promise<void> {
  try {
    await createMissingClaims(c, set, pod);
    await updateClaimsForRetentionPolicy(c, set, pod);
    const labels = identityLabels(pod);
    if (Object.entries(labels).some(([k, v]) => pod.metadata.labels?.[k] !== v)) {
      await c.client.patch(podsResource, pod.metadata.name ?? '', { metadata: { resourceVersion: pod.metadata.resourceVersion, labels } }, { type: 'merge', namespace: pod.metadata.namespace ?? '' });
      record(c, 'update', set, pod);
    }
  } catch (err) {
    if (err instanceof NotFoundError) return;
    record(c, 'update', set, pod, err);
    throw err;
  }
}

/** DeleteStatefulPod: this very pod (uid precondition); a pod already gone is no error. */
export async function deleteStatefulPod(c: ClaimControl, set: StatefulSet, pod: Pod): Promise<void> {
  try {
    await c.client.delete(podsResource, pod.metadata.name ?? '', { namespace: pod.metadata.namespace ?? '', ...(pod.metadata.uid ? { preconditions: { uid: pod.metadata.uid } } : {}) });
  } catch (err) {
    if (err instanceof NotFoundError) return;
    record(c, 'delete', set, pod, err);
    throw err;
  }
  record(c, 'delete', set, pod);
}
