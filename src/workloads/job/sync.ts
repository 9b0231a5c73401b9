// One sync of a Job, after kube-controller-manager's job controller (syncJob), for NonIndexed and Indexed Jobs
// (./indexed.ts). Its steps, each in its own file:
//
// 1. Claim the pods the selector matches and count them (pod-accounting.ts): the finished ones that still carry
//    the tracking finalizer, the active, ready and terminating ones.
// 2. Decide whether the Job has failed or succeeded (finished-condition.ts): more failures than backoffLimit, or
//    past activeDeadlineSeconds (the interim FailureTarget condition); completions reached (SuccessCriteriaMet).
// 3. Otherwise keep min(parallelism, completions − succeeded) pods active (manage-job.ts, manageJob), creating
//    after the pod failure backoff; a suspended Job deletes its active pods. A finished Job deletes them all.
// 4. Count finished pods without losing any (track-status.ts, trackJobStatusAndRemoveFinalizers), then set the
//    terminal Complete/Failed condition once nothing is uncounted and no pod is still terminating.
import { fromLabelSelectorObject, LabelSelectorError } from '../../apimachinery/label-selector.ts';
import { nowTime } from '../../apimachinery/time.ts';
import type { KubeClient } from '../../client/client.ts';
import { NotFoundError } from '../../client/errors.ts';
import type { Action, EventRecorder, Informer, ReconcileContext } from '../../runtime/index.ts';
import { action, TerminalError } from '../../runtime/index.ts';
import { jobsResource, podsResource } from '../../apimachinery/builtin-resources.ts';
import type { Job, JobStatus, Pod } from '../../apimachinery/api/index.ts';
import { claim } from '../pods/claim.ts';
import type { Expectations } from '../pods/expectations.ts';
import { controllerRefTo } from '../pods/owner.ts';
import type { PodControl } from '../pods/pod-control.ts';
import { CONDITION_SUCCESS_CRITERIA_MET, JOB_TRACKING_FINALIZER, MESSAGE_COMPLETIONS_REACHED, REASON_COMPLETIONS_REACHED } from './constants.ts';
import type { FinalizerExpectations } from './finalizer-expectations.ts';
import { finishedCondition, isJobFinished, updateSuspendedCondition, type JobEvent } from './finished-condition.ts';
import { deletePods, manageJob } from './manage-job.ts';
import { countPods, uncountedOf } from './pod-accounting.ts';
import type { PodFailureBackoff } from './pod-failure-backoff.ts';
import { trackJobStatusAndRemoveFinalizers } from './track-status.ts';

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

/** The Job's pod selector; a Job whose selector is invalid or empty cannot be synced. */
function selectorOf(job: Job, key: string): ReturnType<typeof fromLabelSelectorObject> {
  let selector;
  try {
    selector = fromLabelSelectorObject(job.spec.selector ?? {});
  } catch (err) {
    if (err instanceof LabelSelectorError) throw new TerminalError(`job ${key}: invalid selector: ${err.message}`, { cause: err });
    throw err;
  }
  if (selector.length === 0) throw new TerminalError(`job ${key} has no selector: it would select every pod`);
  return selector;
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
  const selector = selectorOf(job, key);

  const now = d.now();
  const satisfied = d.expectations.satisfied(key);
  const pods = await claim(d.pods.list(job.metadata.namespace ?? ''), {
    client: d.client,
    resource: podsResource,
    ownerResource: jobsResource,
    owner: job,
    ref: controllerRefTo(job, 'batch/v1', 'Job'),
    selector,
    finalizer: JOB_TRACKING_FINALIZER,
  });

  const status: JobStatus = structuredClone(job.status ?? {});
  const uncounted = uncountedOf(status);
  const expectedRemovals = d.finalizers.expected(key);
  const counts = countPods(job, pods, status, uncounted, expectedRemovals);
  let { active, ready, terminating } = counts;
  const { activePods, succeeded, succeededIndexes } = counts;
  if (status.startTime === undefined && job.spec.suspend !== true) status.startTime = nowTime(now);
  const backoffRecord = d.backoff.next(key, counts.newSucceeded, counts.newFailed);
  let { finished, requeueMs } = finishedCondition(job, status, counts.failed, pods, now.getTime());

  const errors: unknown[] = [];
  const events: JobEvent[] = [];
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
      const result = await manageJob(d, job, key, activePods, succeeded, succeededIndexes, backoffRecord, now.getTime());
      ({ active, ready } = result);
      terminating += result.deleted;
      errors.push(...result.errors);
      if (result.requeueMs !== undefined) requeueMs = Math.min(requeueMs ?? Infinity, result.requeueMs);
      managed = true;
    }
    const complete = completions === undefined ? succeeded > 0 && active === 0 : succeeded >= completions && active === 0;
    if (complete) {
      finished = { type: CONDITION_SUCCESS_CRITERIA_MET, status: 'True', reason: REASON_COMPLETIONS_REACHED, message: MESSAGE_COMPLETIONS_REACHED };
    } else if (managed) updateSuspendedCondition(job, status, now, events);
  }
  status.active = active;
  status.ready = ready;
  status.terminating = terminating;

  let current: Job;
  try {
    const tracked = { job, key, pods, status, uncounted, expectedRemovals, succeededIndexes, finished, terminating, backoffRecord, now, events, errors };
    current = await trackJobStatusAndRemoveFinalizers(d, tracked, ctx.signal);
  } catch (err) {
    if (err instanceof NotFoundError) return action.awaitChange();
    throw err;
  }
  for (const [type, reason, message] of events) void d.recorder.event(current, type, reason, message);
  if (errors.length > 0) throw errors[0] instanceof Error ? errors[0] : new Error(String(errors[0]));
  return requeueMs === undefined ? action.awaitChange() : action.requeueAfter(Math.max(0, requeueMs));
}
