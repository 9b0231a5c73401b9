// Chaos pods whose disruption is gone (its finalizer removed by hand): upstream's HandleOrphanedChaosPods. Such
// a pod is removed once its target is gone too (while the target lives, its injector may still have to clean).
// Upstream looks the target up as a pod even at node level, so every node-level orphan went at once; here a
// node target is looked up as a node.
import { podsResource } from '../../apimachinery/builtin-resources.ts';
import { objectKey } from '../../apimachinery/object.ts';
import { NotFoundError } from '../../client/errors.ts';
import type { Action, ReconcileContext } from '../../runtime/index.ts';
import { action, hasFinalizer, removeFinalizerWithRetry } from '../../runtime/index.ts';
import { CHAOS_POD_FINALIZER, DISRUPTION_NAME_LABEL, DISRUPTION_NAMESPACE_LABEL, TARGET_LABEL } from '../api/constants.ts';
import { disruptionsResource } from '../api/resources.ts';
import type { Pod } from '../../apimachinery/api/index.ts';
import type { DisruptionControllerData } from './options.ts';

/** Node-level chaos pods carry a node name as target; the kind tells nothing, so both are looked up. */
function targetExists(x: DisruptionControllerData, pod: Pod): boolean {
  const target = pod.metadata.labels?.[TARGET_LABEL] ?? '';
  const namespace = pod.metadata.labels?.[DISRUPTION_NAMESPACE_LABEL] ?? '';
  return x.pods.store.get(objectKey(namespace, target)) !== undefined || x.nodes.store.get(target) !== undefined;
}

export async function reconcileChaosPodOrphan(pod: Pod, ctx: ReconcileContext<DisruptionControllerData>): Promise<Action> {
  const x = ctx.data;
  const name = pod.metadata.labels?.[DISRUPTION_NAME_LABEL];
  const namespace = pod.metadata.labels?.[DISRUPTION_NAMESPACE_LABEL];
  if (!name || !namespace) return action.awaitChange();
  if (x.disruptions.store.get(objectKey(namespace, name))) return action.awaitChange();
  // The cache may lag a disruption created a moment ago: ask the API server before calling it an orphan.
  try {
    await x.client.get(disruptionsResource, name, { namespace, signal: ctx.signal });
    return action.awaitChange();
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
  }
  if (targetExists(x, pod)) return action.awaitChange();
  x.metrics.orphanFound.inc();
  ctx.log.info({ pod: pod.metadata.name, disruption: `${namespace}/${name}` }, 'removing an orphaned chaos pod whose target is gone');
  if (hasFinalizer(pod, CHAOS_POD_FINALIZER)) await removeFinalizerWithRetry(x.client, podsResource, pod, CHAOS_POD_FINALIZER, { signal: ctx.signal });
  if (!pod.metadata.deletionTimestamp) {
    await x.client.delete(podsResource, pod.metadata.name ?? '', { namespace: pod.metadata.namespace ?? '' }).catch((err: unknown) => {
      if (!(err instanceof NotFoundError)) throw err;
    });
  }
  return action.awaitChange();
}
