// trackJobStatusAndRemoveFinalizers: count finished pods without losing any. Their UIDs go to
// status.uncountedTerminatedPods (first status write), then their tracking finalizers are removed, then they move
// to succeeded/failed (second write). The interim SuccessCriteriaMet/FailureTarget condition is written first; the
// terminal Complete/Failed condition, completionTime and the Job's final Event once nothing is uncounted and no pod
// is still terminating.
//
// Status writes carry the cached resourceVersion and are not retried with re-read data: the counters are
// increments over the cached status, so a conflict (StatusConflictError) means a stale cache and the whole sync
// runs again.
import { nowTime } from '../../apimachinery/time.ts';
import { jobsResource } from '../../apimachinery/builtin-resources.ts';
import { NotFoundError } from '../../client/errors.ts';
import { setCondition, updateStatus } from '../../runtime/index.ts';
import type { Job, JobStatus, Pod } from '../../apimachinery/api/index.ts';
import { CONDITION_COMPLETE, CONDITION_FAILED, CONDITION_FAILURE_TARGET, CONDITION_SUCCESS_CRITERIA_MET, MAX_PODS_PER_SYNC } from './constants.ts';
import type { FinishedCondition, JobEvent } from './finished-condition.ts';
import { completionIndex, formatIndexes } from './indexed.ts';
import type { BackoffRecord } from './pod-failure-backoff.ts';
import { isPodFailed, type Uncounted } from './pod-accounting.ts';
import type { JobControllerData } from './sync.ts';
import { hasTrackingFinalizer, removeTrackingFinalizer } from './tracking-finalizer.ts';

/** What the sync decided, for the tracking step: the status so far and the condition the Job finishes with. */
export interface TrackedSync {
  job: Job;
  key: string;
  pods: readonly Pod[];
  status: JobStatus;
  uncounted: Uncounted;
  expectedRemovals: ReadonlySet<string>;
  succeededIndexes: ReadonlySet<number> | undefined;
  finished: FinishedCondition | undefined;
  terminating: number;
  backoffRecord: BackoffRecord;
  now: Date;
  /** Filled in: the Events to record and the errors to report once the status is written. */
  events: JobEvent[];
  errors: unknown[];
}

/** Moves UIDs whose pods no longer hold the finalizer from uncounted to the counters (cleanUncountedPodsWithoutFinalizers). */
function countUncounted(status: JobStatus, uncounted: Uncounted, withFinalizer: ReadonlySet<string>): void {
  const keep = (uids: string[]): string[] => uids.filter((u) => withFinalizer.has(u));
  const succeeded = keep(uncounted.succeeded);
  const failed = keep(uncounted.failed);
  status.succeeded = (status.succeeded ?? 0) + uncounted.succeeded.length - succeeded.length;
  status.failed = (status.failed ?? 0) + uncounted.failed.length - failed.length;
  uncounted.succeeded = succeeded;
  uncounted.failed = failed;
}

/** The status to write: the uncounted UIDs as they stand; no conditions list while there are none. */
function withUncounted(status: JobStatus, uncounted: Uncounted): JobStatus {
  const { conditions, ...rest } = status;
  return {
    ...rest,
    ...(conditions && conditions.length > 0 ? { conditions } : {}),
    uncountedTerminatedPods: {
      ...(uncounted.succeeded.length > 0 ? { succeeded: [...uncounted.succeeded] } : {}),
      ...(uncounted.failed.length > 0 ? { failed: [...uncounted.failed] } : {}),
    },
  };
}

async function writeStatus(d: JobControllerData, job: Job, status: JobStatus, signal: AbortSignal): Promise<Job> {
  return updateStatus<Job>(d.client, jobsResource, job, (draft) => void (draft.status = structuredClone(status)), { attempts: 1, signal });
}

/** Writes the status in its two steps, releasing the finished pods in between; answers the Job as last written. */
export async function trackJobStatusAndRemoveFinalizers(d: JobControllerData, s: TrackedSync, signal: AbortSignal): Promise<Job> {
  const { job, key, status, uncounted, now } = s;
  const withFinalizer = new Set(s.pods.filter((p) => hasTrackingFinalizer(p) && !s.expectedRemovals.has(p.metadata.uid ?? '')).map((p) => p.metadata.uid ?? ''));
  countUncounted(status, uncounted, withFinalizer);
  const toRelease: Pod[] = [];
  for (const pod of s.pods) {
    const uid = pod.metadata.uid ?? '';
    if (!hasTrackingFinalizer(pod) || s.expectedRemovals.has(uid)) continue;
    const considerFailed = isPodFailed(pod);
    if (job.metadata.deletionTimestamp === undefined && !s.finished && pod.status?.phase !== 'Succeeded' && !considerFailed) continue;
    toRelease.push(pod);
    const index = completionIndex(pod);
    const countable = job.spec.completionMode !== 'Indexed' || (index !== undefined && index < (job.spec.completions ?? 0));
    if (pod.status?.phase === 'Succeeded' && !uncounted.failed.includes(uid)) {
      // An Indexed Job counts succeeded pods by their index (completedIndexes), not by UID.
      if (job.spec.completionMode !== 'Indexed' && !uncounted.succeeded.includes(uid)) uncounted.succeeded.push(uid);
    } else if (considerFailed || (s.finished !== undefined && s.finished.type !== CONDITION_SUCCESS_CRITERIA_MET)) {
      // Once the Job has failed, every pod not yet terminated counts as failed.
      if (countable && !uncounted.failed.includes(uid)) uncounted.failed.push(uid);
    }
    if (uncounted.succeeded.length + uncounted.failed.length >= MAX_PODS_PER_SYNC) break;
  }
  if (s.succeededIndexes) {
    status.completedIndexes = formatIndexes(s.succeededIndexes);
    status.succeeded = s.succeededIndexes.size;
  }
  const conditions = (status.conditions ??= []);
  let finished = s.finished;
  if (finished?.type === CONDITION_FAILURE_TARGET) {
    setCondition(conditions, finished, now);
    finished = { ...finished, type: CONDITION_FAILED };
  } else if (finished?.type === CONDITION_SUCCESS_CRITERIA_MET) {
    setCondition(conditions, finished, now);
    finished = { ...finished, type: CONDITION_COMPLETE };
  }

  let current = await writeStatus(d, job, withUncounted(status, uncounted), signal);
  d.backoff.commit(key, s.backoffRecord);
  const released = await releasePods(d, key, toRelease);
  s.errors.push(...released.errors);
  for (const uid of released.uids) withFinalizer.delete(uid);
  countUncounted(status, uncounted, withFinalizer);
  let jobFinished = false;
  if (finished && uncounted.succeeded.length + uncounted.failed.length === 0 && s.terminating === 0) {
    setCondition(conditions, finished, now);
    if (finished.type === CONDITION_COMPLETE) status.completionTime = nowTime(now);
    jobFinished = true;
  }
  current = await writeStatus(d, current, withUncounted(status, uncounted), signal);
  if (jobFinished && finished) {
    if (finished.type === CONDITION_COMPLETE) {
      if (job.spec.completions !== undefined && (status.succeeded ?? 0) > job.spec.completions) {
        s.events.push(['Warning', 'TooManySucceededPods', 'Too many succeeded pods running after completion count reached']);
      }
      s.events.push(['Normal', 'Completed', 'Job completed']);
    } else s.events.push(['Warning', finished.reason, finished.message]);
  }
  return current;
}

async function releasePods(d: JobControllerData, key: string, pods: readonly Pod[]): Promise<{ uids: string[]; errors: unknown[] }> {
  const uids: string[] = [];
  const errors: unknown[] = [];
  await Promise.all(
    pods.map(async (pod) => {
      const uid = pod.metadata.uid ?? '';
      d.finalizers.expectRemoval(key, uid);
      try {
        await removeTrackingFinalizer(d.client, pod);
        uids.push(uid);
      } catch (err) {
        if (err instanceof NotFoundError) {
          uids.push(uid);
          return;
        }
        d.finalizers.observed(uid);
        errors.push(err);
      }
    }),
  );
  return { uids, errors };
}

