// What a delete will do, short of doing it, as kube-apiserver's rest.BeforeDelete: preconditions, the propagation
// policy's finalizer, a grace period for kinds deleted gracefully (pods), and whether the object goes now or is
// only marked with a deletionTimestamp while finalizers remain.
import type { KubeObject } from '../../apimachinery/object.ts';
import { errors } from '../../apimachinery/status-error.ts';
import { nowTime } from '../../apimachinery/time.ts';
import type { ObjectService } from './object-service.ts';
import { specFinalizersOf } from './object-shape.ts';
import type { PreparedDelete } from './prepared-write.ts';
import { groupResource, type ResourceType } from './resource-type.ts';
import type { DeleteOptions } from './write-types.ts';

type GracefulDeletion = { outcome: 'none' | 'pending' } | { outcome: 'mark'; seconds: number; deletionTimestamp: string };

/** What a delete will do (preconditions checked), short of doing it. */
export function prepareDelete(objects: ObjectService, type: ResourceType, namespace: string, name: string, options: DeleteOptions): PreparedDelete {
  const current = objects.get(type, namespace, name);
  const old = current.object;
  const pre = options.preconditions;
  if (pre?.uid && pre.uid !== old.metadata.uid) {
    throw errors.conflict(groupResource(type), name, `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${old.metadata.uid ?? ''}`);
  }
  if (pre?.resourceVersion && pre.resourceVersion !== old.metadata.resourceVersion) {
    throw errors.conflict(
      groupResource(type),
      name,
      `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${old.metadata.resourceVersion ?? ''}`,
    );
  }
  const policy = options.propagationPolicy ?? 'Background';
  const finalizers = [...(old.metadata.finalizers ?? []), ...specFinalizersOf(type, old)];
  const policyFinalizer = policy === 'Foreground' ? 'foregroundDeletion' : policy === 'Orphan' ? 'orphan' : undefined;
  const hasDependents = policyFinalizer !== undefined;
  const dryRun = options.dryRun === true;
  const grace = gracefulDeletion(type, old, options.gracePeriodSeconds);
  if (grace.outcome === 'pending') return { type, current, outcome: 'unchanged', next: undefined, dryRun };
  const graceOver = grace.outcome === 'none' || (grace.outcome === 'mark' && grace.seconds === 0);
  if (graceOver && finalizers.length === 0 && !hasDependents) return { type, current, outcome: 'remove', next: undefined, dryRun };
  const next = structuredClone(old);
  const meta = next.metadata;
  const graceful = grace.outcome === 'mark';
  if (policyFinalizer && !finalizers.includes(policyFinalizer) && (graceful || !meta.deletionTimestamp)) {
    // Swap a previously requested propagation finalizer for the one asked now.
    meta.finalizers = [...(old.metadata.finalizers ?? []).filter((f) => f !== 'orphan' && f !== 'foregroundDeletion'), policyFinalizer];
  }
  if (!graceful && meta.deletionTimestamp && JSON.stringify(meta.finalizers ?? []) === JSON.stringify(old.metadata.finalizers ?? [])) {
    return { type, current, outcome: 'unchanged', next: undefined, dryRun };
  }
  if (!meta.deletionTimestamp) {
    type.prepareForDelete?.(next);
    if (meta.generation !== undefined) meta.generation += 1;
  }
  if (graceful) {
    meta.deletionTimestamp = grace.deletionTimestamp;
    meta.deletionGracePeriodSeconds = grace.seconds;
  } else if (!meta.deletionTimestamp) {
    meta.deletionTimestamp = nowTime();
    meta.deletionGracePeriodSeconds = 0;
  }
  return { type, current, outcome: 'mark', next, dryRun };
}

/**
 * rest.BeforeDelete for kinds deleted gracefully: 'mark' sets (or shortens) the grace period, 'pending' leaves a
 * grace period already running alone, 'none' deletes as any other kind (no period, or a period run out to 0).
 */
function gracefulDeletion(type: ResourceType, old: KubeObject, requested: number | undefined): GracefulDeletion {
  if (!type.gracefulDeletePeriod) return { outcome: 'none' };
  const meta = old.metadata;
  if (meta.deletionTimestamp) {
    const running = meta.deletionGracePeriodSeconds ?? 0;
    if (running === 0) return { outcome: 'none' };
    if (requested === undefined || requested >= running) return { outcome: 'pending' };
    // Shortened to 0 (the kubelet's last word), the object goes at once unless finalizers hold it.
    const seconds = Math.max(0, requested);
    const start = Date.parse(meta.deletionTimestamp) - running * 1000;
    return { outcome: 'mark', seconds, deletionTimestamp: nowTime(new Date(start + seconds * 1000)) };
  }
  const seconds = type.gracefulDeletePeriod(old, requested);
  if (seconds === 0) return { outcome: 'none' };
  return { outcome: 'mark', seconds, deletionTimestamp: nowTime(new Date(Date.now() + seconds * 1000)) };
}
