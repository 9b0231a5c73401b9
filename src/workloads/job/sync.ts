// One sync of a Job, after kube-controller-manager's job controller (syncJob, manageJob,
// trackJobStatusAndRemoveFinalizers), for NonIndexed and Indexed Jobs (./indexed.ts):
//
// 1. Claim the pods the selector matches; count the finished ones that still carry the tracking finalizer.
// 2. Decide whether the Job has failed (more failures than backoffLimit, or past activeDeadlineSeconds: the
//    interim FailureTarget condition) or succeeded (completions reached: SuccessCriteriaMet).
// 3. Otherwise keep min(parallelism, completions − succeeded) pods active, creating after the pod failure
//    backoff; a suspended Job deletes its active pods.
// 4. Count finished pods without losing any: their UIDs go to status.uncountedTerminatedPods first, then their
//    finalizers are removed, then they move to succeeded/failed. The terminal Complete/Failed condition is set
//    once nothing is uncounted and no pod is still terminating.
//
// Status writes carry the cached resourceVersion and are not retried with re-read data: the counters are
// increments over the cached status, so a conflict means a stale cache and the whole sync runs again.
import { fromLabelSelectorObject, LabelSelectorError } from '../../apimachinery/label-selector.ts';
import { nowTime } from '../../apimachinery/time.ts';
import type { KubeClient } from '../../client/client.ts';
import { NotFoundError } from '../../client/errors.ts';
import { getCondition, setCondition, type ConditionInput } from '../../runtime/conditions.ts';
import { action, type Action } from '../../runtime/controller/action.ts';
import type { ReconcileContext } from '../../runtime/controller/reconciler.ts';
import { TerminalError } from '../../runtime/controller/terminal-error.ts';
import type { EventRecorder } from '../../runtime/event-recorder.ts';
import type { Informer } from '../../runtime/informer/informer.ts';
import { StatusConflictError, updateStatus } from '../../runtime/status.ts';
import { jobsResource, podsResource } from '../../apimachinery/builtin-resources.ts';
import type { Job, JobStatus, Pod } from '../../apimachinery/api/index.ts';
import { claim } from '../pods/claim.ts';
import { podsToDelete } from '../pods/deletion-order.ts';
import type { Expectations } from '../pods/expectations.ts';
import { controllerRefTo } from '../pods/owner.ts';
import { podFromTemplate, type PodControl } from '../pods/pod-control.ts';
import { isPodActive, isPodReady, isPodTerminating } from '../pods/pod-state.ts';
import { slowStartBatch } from '../pods/slow-start.ts';
import {
  CONDITION_COMPLETE,
  CONDITION_FAILED,
  CONDITION_FAILURE_TARGET,
  CONDITION_SUCCESS_CRITERIA_MET,
  CONDITION_SUSPENDED,
  JOB_TRACKING_FINALIZER,
  MESSAGE_BACKOFF_LIMIT_EXCEEDED,
  MESSAGE_COMPLETIONS_REACHED,
  MESSAGE_DEADLINE_EXCEEDED,
  REASON_BACKOFF_LIMIT_EXCEEDED,
  REASON_COMPLETIONS_REACHED,
  REASON_DEADLINE_EXCEEDED,
} from './constants.ts';
import type { FinalizerExpectations } from './finalizer-expectations.ts';
import type { BackoffRecord, PodFailureBackoff } from './pod-failure-backoff.ts';
import { completionIndex, firstPendingIndexes, formatIndexes, parseIndexes, redundantIndexedPods, templateForIndex } from './indexed.ts';
import { hasTrackingFinalizer, removeTrackingFinalizer } from './tracking-finalizer.ts';

export interface JobControllerData {
  client: KubeClient;
  recorder: EventRecorder;
  pods: Informer<Pod>;
  podControl: PodControl;
  expectations: Expectations;
  finalizers: FinalizerExpectations;
  backoff: PodFailureBackoff;
  now(): Date;
}

/** Pods created or deleted in one sync at most (MaxPodCreateDeletePerSync), and uncounted pods at most. */
const maxPodsPerSync = 500;

type FinishedCondition = Omit<ConditionInput, 'observedGeneration'>;

export function isJobFinished(job: Job): boolean {
  const conditions = job.status?.conditions;
  return getCondition(conditions, CONDITION_COMPLETE)?.status === 'True' || getCondition(conditions, CONDITION_FAILED)?.status === 'True';
}

/** Failed, or deleted before it succeeded (an orphan that never reached a terminal phase). */
function isPodFailed(pod: Pod): boolean {
  return pod.status?.phase === 'Failed' || (pod.metadata.deletionTimestamp !== undefined && pod.status?.phase !== 'Succeeded');
}

/** restartPolicy OnFailure: restarts of running and pending pods count against backoffLimit. */
function pastBackoffLimitOnFailure(job: Job, pods: readonly Pod[], backoffLimit: number): boolean {
  if (job.spec.template.spec.restartPolicy !== 'OnFailure') return false;
  let restarts = 0;
  for (const pod of pods) {
    if (pod.status?.phase !== 'Running' && pod.status?.phase !== 'Pending') continue;
    for (const s of [...(pod.status.initContainerStatuses ?? []), ...(pod.status.containerStatuses ?? [])]) restarts += s.restartCount ?? 0;
  }
  return backoffLimit === 0 ? restarts > 0 : restarts >= backoffLimit;
}

/** ms until activeDeadlineSeconds passes (≤ 0: passed); undefined without a deadline or while suspended. */
function deadlineRemainingMs(job: Job, startTime: string | undefined, now: number): number | undefined {
  const seconds = job.spec.activeDeadlineSeconds;
  if (seconds === undefined || startTime === undefined || job.spec.suspend === true) return undefined;
  return Date.parse(startTime) + seconds * 1000 - now;
}

interface Uncounted {
  succeeded: string[];
  failed: string[];
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

export async function syncJob(job: Job, ctx: ReconcileContext<JobControllerData>): Promise<Action> {
  const d = ctx.data;
  const key = ctx.key;
  if (isJobFinished(job)) {
    d.backoff.remove(key);
    d.expectations.forget(key);
    d.finalizers.forgetJob(key);
    return action.awaitChange();
  }
  const mode = job.spec.completionMode ?? 'NonIndexed';
  if (mode !== 'NonIndexed' && mode !== 'Indexed') {
    void d.recorder.warning(job, 'UnknownCompletionMode', 'Skipped Job sync because completion mode is unknown');
    return action.awaitChange();
  }
  const completions = job.spec.completions;
  if (mode === 'Indexed' && completions === undefined) throw new TerminalError(`job ${key}: an Indexed Job needs spec.completions`);
  let selector;
  try {
    selector = fromLabelSelectorObject(job.spec.selector ?? {});
  } catch (err) {
    if (err instanceof LabelSelectorError) throw new TerminalError(`job ${key}: invalid selector: ${err.message}`, { cause: err });
    throw err;
  }
  if (selector.length === 0) throw new TerminalError(`job ${key} has no selector: it would select every pod`);

  const now = d.now();
  const nowMs = now.getTime();
  const satisfied = d.expectations.satisfied(key);
  const namespace = job.metadata.namespace ?? '';
  const pods = await claim(d.pods.list(namespace), {
    client: d.client,
    resource: podsResource,
    ownerResource: jobsResource,
    owner: job,
    ref: controllerRefTo(job, 'batch/v1', 'Job'),
    selector,
    finalizer: JOB_TRACKING_FINALIZER,
  });

  const status: JobStatus = structuredClone(job.status ?? {});
  const uncounted: Uncounted = { succeeded: [...(status.uncountedTerminatedPods?.succeeded ?? [])], failed: [...(status.uncountedTerminatedPods?.failed ?? [])] };
  const expectedRemovals = d.finalizers.expected(key);
  const isUncounted = (uid: string): boolean => uncounted.succeeded.includes(uid) || uncounted.failed.includes(uid);
  const tracked = (p: Pod): boolean => hasTrackingFinalizer(p) && !isUncounted(p.metadata.uid ?? '') && !expectedRemovals.has(p.metadata.uid ?? '');
  const newSucceeded = pods.filter((p) => tracked(p) && p.status?.phase === 'Succeeded');
  const newFailed = pods.filter((p) => tracked(p) && isPodFailed(p));
  const activePods = pods.filter(isPodActive);
  let active = activePods.length;
  let ready = activePods.filter(isPodReady).length;
  let terminating = pods.filter(isPodTerminating).length;
  // Indexed: the succeeded indexes, the recorded ones and those of succeeded pods not counted yet.
  const previousIndexes = mode === 'Indexed' ? parseIndexes(status.completedIndexes, completions ?? 0) : undefined;
  const succeededIndexes = previousIndexes && new Set(previousIndexes);
  if (succeededIndexes) {
    for (const pod of pods) {
      const index = completionIndex(pod);
      if (pod.status?.phase === 'Succeeded' && hasTrackingFinalizer(pod) && index !== undefined && index < (completions ?? 0)) succeededIndexes.add(index);
    }
  }
  const succeeded = succeededIndexes ? succeededIndexes.size : (status.succeeded ?? 0) + newSucceeded.length + uncounted.succeeded.length;
  const failed = (status.failed ?? 0) + newFailed.length + uncounted.failed.length;
  const suspended = job.spec.suspend === true;
  if (status.startTime === undefined && !suspended) status.startTime = nowTime(now);
  const backoffRecord = d.backoff.next(key, newSucceeded, newFailed);
  const backoffLimit = job.spec.backoffLimit ?? 6;

  let finished: FinishedCondition | undefined;
  let requeueMs: number | undefined;
  const criteriaMet = getCondition(status.conditions, CONDITION_SUCCESS_CRITERIA_MET);
  const failureTarget = getCondition(status.conditions, CONDITION_FAILURE_TARGET);
  if (criteriaMet?.status === 'True') finished = { type: CONDITION_SUCCESS_CRITERIA_MET, status: 'True', reason: criteriaMet.reason ?? '', message: criteriaMet.message ?? '' };
  else if (failureTarget?.status === 'True') finished = { type: CONDITION_FAILED, status: 'True', reason: failureTarget.reason ?? '', message: failureTarget.message ?? '' };
  else {
    const deadline = deadlineRemainingMs(job, job.status?.startTime, nowMs);
    if (failed > backoffLimit || pastBackoffLimitOnFailure(job, pods, backoffLimit)) {
      finished = { type: CONDITION_FAILURE_TARGET, status: 'True', reason: REASON_BACKOFF_LIMIT_EXCEEDED, message: MESSAGE_BACKOFF_LIMIT_EXCEEDED };
    } else if (deadline !== undefined && deadline <= 0) {
      finished = { type: CONDITION_FAILURE_TARGET, status: 'True', reason: REASON_DEADLINE_EXCEEDED, message: MESSAGE_DEADLINE_EXCEEDED };
    } else if (deadline !== undefined) requeueMs = deadline;
  }

  const errors: unknown[] = [];
  const events: [type: 'Normal' | 'Warning', reason: string, message: string][] = [];
  if (finished) {
    // Finished: no pod may keep running. Deletion keeps the finalizers, so the pods are still counted (as failed).
    const result = await deletePods(d, job, key, activePods, false);
    if (result.deleted !== active || !satisfied) finished = undefined;
    active -= result.deleted;
    terminating += result.deleted;
    ready -= result.deletedReady;
    errors.push(...result.errors);
  } else {
    let managed = false;
    if (satisfied && job.metadata.deletionTimestamp === undefined) {
      const result = await manageJob(d, job, key, activePods, succeeded, succeededIndexes, backoffRecord, nowMs);
      ({ active, ready } = result);
      terminating += result.deleted;
      errors.push(...result.errors);
      if (result.requeueMs !== undefined) requeueMs = Math.min(requeueMs ?? Infinity, result.requeueMs);
      managed = true;
    }
    const complete = completions === undefined ? succeeded > 0 && active === 0 : succeeded >= completions && active === 0;
    if (complete) {
      finished = { type: CONDITION_SUCCESS_CRITERIA_MET, status: 'True', reason: REASON_COMPLETIONS_REACHED, message: MESSAGE_COMPLETIONS_REACHED };
    } else if (managed) {
      const conditions = (status.conditions ??= []);
      if (suspended) {
        if (setCondition(conditions, { type: CONDITION_SUSPENDED, status: 'True', reason: 'JobSuspended', message: 'Job suspended' }, now)) events.push(['Normal', 'Suspended', 'Job suspended']);
      } else if (getCondition(conditions, CONDITION_SUSPENDED) && setCondition(conditions, { type: CONDITION_SUSPENDED, status: 'False', reason: 'JobResumed', message: 'Job resumed' }, now)) {
        events.push(['Normal', 'Resumed', 'Job resumed']);
        // activeDeadlineSeconds counts the time the Job is continuously active.
        status.startTime = nowTime(now);
      }
    }
  }
  status.active = active;
  status.ready = ready;
  status.terminating = terminating;

  // trackJobStatusAndRemoveFinalizers.
  const withFinalizer = new Set(pods.filter((p) => hasTrackingFinalizer(p) && !expectedRemovals.has(p.metadata.uid ?? '')).map((p) => p.metadata.uid ?? ''));
  countUncounted(status, uncounted, withFinalizer);
  const toRelease: Pod[] = [];
  for (const pod of pods) {
    const uid = pod.metadata.uid ?? '';
    if (!hasTrackingFinalizer(pod) || expectedRemovals.has(uid)) continue;
    const considerFailed = isPodFailed(pod);
    if (job.metadata.deletionTimestamp === undefined && !finished && pod.status?.phase !== 'Succeeded' && !considerFailed) continue;
    toRelease.push(pod);
    const index = completionIndex(pod);
    const countable = mode === 'NonIndexed' || (index !== undefined && index < (completions ?? 0));
    if (pod.status?.phase === 'Succeeded' && !uncounted.failed.includes(uid)) {
      // An Indexed Job counts succeeded pods by their index (completedIndexes), not by UID.
      if (mode === 'NonIndexed' && !uncounted.succeeded.includes(uid)) uncounted.succeeded.push(uid);
    } else if (considerFailed || (finished !== undefined && finished.type !== CONDITION_SUCCESS_CRITERIA_MET)) {
      // Once the Job has failed, every pod not yet terminated counts as failed.
      if (countable && !uncounted.failed.includes(uid)) uncounted.failed.push(uid);
    }
    if (uncounted.succeeded.length + uncounted.failed.length >= maxPodsPerSync) break;
  }
  if (succeededIndexes) {
    status.completedIndexes = formatIndexes(succeededIndexes);
    status.succeeded = succeededIndexes.size;
  }
  const conditions = (status.conditions ??= []);
  if (finished?.type === CONDITION_FAILURE_TARGET) {
    setCondition(conditions, finished, now);
    finished = { ...finished, type: CONDITION_FAILED };
  } else if (finished?.type === CONDITION_SUCCESS_CRITERIA_MET) {
    setCondition(conditions, finished, now);
    finished = { ...finished, type: CONDITION_COMPLETE };
  }

  let current: Job;
  try {
    current = await writeStatus(d, job, withUncounted(status, uncounted), ctx.signal);
    d.backoff.commit(key, backoffRecord);
    const released = await releasePods(d, key, toRelease);
    errors.push(...released.errors);
    for (const uid of released.uids) withFinalizer.delete(uid);
    countUncounted(status, uncounted, withFinalizer);
    let jobFinished = false;
    if (finished && uncounted.succeeded.length + uncounted.failed.length === 0 && terminating === 0) {
      setCondition(conditions, finished, now);
      if (finished.type === CONDITION_COMPLETE) status.completionTime = nowTime(now);
      jobFinished = true;
    }
    current = await writeStatus(d, current, withUncounted(status, uncounted), ctx.signal);
    if (jobFinished && finished) {
      if (finished.type === CONDITION_COMPLETE) {
        if (job.spec.completions !== undefined && (status.succeeded ?? 0) > job.spec.completions) {
          events.push(['Warning', 'TooManySucceededPods', 'Too many succeeded pods running after completion count reached']);
        }
        events.push(['Normal', 'Completed', 'Job completed']);
      } else events.push(['Warning', finished.reason, finished.message]);
    }
  } catch (err) {
    if (err instanceof NotFoundError) return action.awaitChange();
    if (err instanceof StatusConflictError) return action.requeue();
    throw err;
  }
  for (const [type, reason, message] of events) void d.recorder.event(current, type, reason, message);
  if (errors.length > 0) throw errors[0] instanceof Error ? errors[0] : new Error(String(errors[0]));
  return requeueMs === undefined ? action.awaitChange() : action.requeueAfter(Math.max(0, requeueMs));
}

interface ManageResult {
  active: number;
  ready: number;
  /** Pods deleted now: they are terminating. */
  deleted: number;
  errors: unknown[];
  requeueMs?: number;
}

async function manageJob(
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
  const victims = [...redundant, ...podsToDelete(rest, surplus - redundant.length)].slice(0, maxPodsPerSync);
  if (victims.length > 0) {
    const result = await deletePods(d, job, key, victims, true);
    return { active: active - result.deleted, ready: ready - result.deletedReady, deleted: result.deleted, errors: result.errors };
  }
  const indexes = succeededIndexes && firstPendingIndexes(activePods, succeededIndexes, wantActive - active, completions ?? 0);
  const missing = Math.min(indexes ? indexes.length : wantActive - active, maxPodsPerSync);
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

interface DeleteResult {
  deleted: number;
  deletedReady: number;
  errors: unknown[];
}

/**
 * Deletes pods, counting them as expected deletions. withoutFinalizer (scale-down, suspend) removes the tracking
 * finalizer first, so they are not counted as failures; a failed Job keeps it, so they are counted.
 */
async function deletePods(d: JobControllerData, job: Job, key: string, pods: readonly Pod[], withoutFinalizer: boolean): Promise<DeleteResult> {
  const result: DeleteResult = { deleted: 0, deletedReady: 0, errors: [] };
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

