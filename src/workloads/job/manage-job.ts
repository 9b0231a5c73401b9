// manageJob: keep the Job's active pods at min(parallelism, completions − succeeded), creating missing ones (with
// their completion index, after the pod failure backoff, at most 500 per sync in slow-start batches) and deleting
// surplus or redundant ones; a suspended Job deletes its active pods. Creations and deletions are counted as
// expectations so the next sync waits for the informer to see them.
import { NotFoundError } from '../../client/errors.ts';
import type { Job, Pod } from '../../apimachinery/api/index.ts';
import { podsToDelete } from '../pods/deletion-order.ts';
import { controllerRefTo } from '../pods/owner.ts';
import { podFromTemplate } from '../pods/pod-control.ts';
import { isPodReady } from '../pods/pod-state.ts';
import { slowStartBatch } from '../pods/slow-start.ts';
import { JOB_TRACKING_FINALIZER, MAX_PODS_PER_SYNC } from './constants.ts';
import { firstPendingIndexes, redundantIndexedPods, templateForIndex } from './indexed.ts';
import type { BackoffRecord } from './pod-failure-backoff.ts';
import type { JobControllerData } from './sync.ts';
import { hasTrackingFinalizer, removeTrackingFinalizer } from './tracking-finalizer.ts';

interface ManageResult {
  active: number;
  ready: number;
  /** Pods deleted now: they are terminating. */
  deleted: number;
  errors: unknown[];
  requeueMs?: number;
}

export async function manageJob(
  d: JobControllerData,
  job: Job,
  key: string,
  activePods: Pod[],
  succeeded: number,
  succeededIndexes: ReadonlySet<number> | undefined,
  backoff: BackoffRecord,
  now: number,
): Promise<ManageResult> {
  let active = activePods.length;
  const ready = activePods.filter(isPodReady).length;
  if (job.spec.suspend === true) {
    const result = await deletePods(d, job, key, podsToDelete(activePods, active), true);
    return { active: active - result.deleted, ready: ready - result.deletedReady, deleted: result.deleted, errors: result.errors };
  }
  const parallelism = job.spec.parallelism ?? 1;
  const completions = job.spec.completions;
  const wantActive = completions === undefined ? (succeeded > 0 ? active : parallelism) : Math.max(0, Math.min(completions - succeeded, parallelism));
  const surplus = active - wantActive;
  // Indexed: redundant pods go whatever the counts; then the least advanced, as for NonIndexed.
  const redundant = succeededIndexes ? redundantIndexedPods(activePods, succeededIndexes, completions ?? 0) : [];
  const rest = activePods.filter((p) => !redundant.includes(p));
  const victims = [...redundant, ...podsToDelete(rest, surplus - redundant.length)].slice(0, MAX_PODS_PER_SYNC);
  if (victims.length > 0) {
    const result = await deletePods(d, job, key, victims, true);
    return { active: active - result.deleted, ready: ready - result.deletedReady, deleted: result.deleted, errors: result.errors };
  }
  const indexes = succeededIndexes && firstPendingIndexes(activePods, succeededIndexes, wantActive - active, completions ?? 0);
  const missing = Math.min(indexes ? indexes.length : wantActive - active, MAX_PODS_PER_SYNC);
  if (missing <= 0) return { active, ready, deleted: 0, errors: [] };
  const waitMs = d.backoff.remainingMs(backoff, now);
  if (waitMs > 0) return { active, ready, deleted: 0, errors: [], requeueMs: waitMs };
  const template = structuredClone(job.spec.template);
  const meta = (template.metadata ??= {});
  if (!(meta.finalizers ?? []).includes(JOB_TRACKING_FINALIZER)) meta.finalizers = [...(meta.finalizers ?? []), JOB_TRACKING_FINALIZER];
  const ref = controllerRefTo(job, 'batch/v1', 'Job');
  const name = job.metadata.name ?? '';
  d.expectations.expectCreations(key, missing);
  let next = 0;
  const result = await slowStartBatch(missing, async () => {
    const index = indexes?.[next++];
    const pod =
      index === undefined
        ? podFromTemplate(template, job.metadata.namespace ?? '', ref, `${name}-`)
        : podFromTemplate(templateForIndex(job, template, index), job.metadata.namespace ?? '', ref, `${name}-${index}-`);
    try {
      await d.podControl.create(job, pod);
    } catch (err) {
      d.expectations.creationObserved(key);
      throw err;
    }
  });
  for (let i = 0; i < result.skipped; i++) d.expectations.creationObserved(key);
  active += result.succeeded;
  return { active, ready, deleted: 0, errors: result.errors };
}

export interface PodDeletion {
  deleted: number;
  deletedReady: number;
  errors: unknown[];
}

/**
 * Deletes pods, counting them as expected deletions. withoutFinalizer (scale-down, suspend) removes the tracking
 * finalizer first, so they are not counted as failures; a failed Job keeps it, so they are counted.
 */
export async function deletePods(d: JobControllerData, job: Job, key: string, pods: readonly Pod[], withoutFinalizer: boolean): Promise<PodDeletion> {
  const result: PodDeletion = { deleted: 0, deletedReady: 0, errors: [] };
  if (pods.length === 0) return result;
  d.expectations.expectDeletions(key, pods.length);
  await Promise.all(
    pods.map(async (pod) => {
      try {
        if (withoutFinalizer && hasTrackingFinalizer(pod)) await removeTrackingFinalizer(d.client, pod);
        await d.podControl.delete(job, pod);
        result.deleted++;
        if (isPodReady(pod)) result.deletedReady++;
      } catch (err) {
        d.expectations.deletionObserved(key);
        if (!(err instanceof NotFoundError)) result.errors.push(err);
      }
    }),
  );
  return result;
}
