// When a Job is done, as the job controller decides it in syncJob: a SuccessCriteriaMet or FailureTarget condition
// already set carries on to Complete or Failed; otherwise more failures than backoffLimit (or, with restartPolicy
// OnFailure, as many restarts) or a passed activeDeadlineSeconds set FailureTarget. Also the Suspended condition.
import { nowTime } from '../../apimachinery/time.ts';
import type { ConditionInput } from '../../runtime/index.ts';
import { getCondition, setCondition } from '../../runtime/index.ts';
import type { Job, JobStatus, Pod } from '../../apimachinery/api/index.ts';
import {
  CONDITION_COMPLETE,
  CONDITION_FAILED,
  CONDITION_FAILURE_TARGET,
  CONDITION_SUCCESS_CRITERIA_MET,
  CONDITION_SUSPENDED,
  MESSAGE_BACKOFF_LIMIT_EXCEEDED,
  MESSAGE_DEADLINE_EXCEEDED,
  REASON_BACKOFF_LIMIT_EXCEEDED,
  REASON_DEADLINE_EXCEEDED,
} from './constants.ts';

export type FinishedCondition = Omit<ConditionInput, 'observedGeneration'>;

/** An event for the Job, recorded once its status is written. */
export type JobEvent = [type: 'Normal' | 'Warning', reason: string, message: string];

export function isJobFinished(job: Job): boolean {
  const conditions = job.status?.conditions;
  return getCondition(conditions, CONDITION_COMPLETE)?.status === 'True' || getCondition(conditions, CONDITION_FAILED)?.status === 'True';
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

/**
 * The condition the Job finishes with, if it is done (interim: SuccessCriteriaMet or FailureTarget); else, with a
 * deadline, when to look again.
 */
export function finishedCondition(job: Job, status: JobStatus, failed: number, pods: readonly Pod[], nowMs: number): { finished: FinishedCondition | undefined; requeueMs: number | undefined } {
  const criteriaMet = getCondition(status.conditions, CONDITION_SUCCESS_CRITERIA_MET);
  const failureTarget = getCondition(status.conditions, CONDITION_FAILURE_TARGET);
  if (criteriaMet?.status === 'True') return { finished: { type: CONDITION_SUCCESS_CRITERIA_MET, status: 'True', reason: criteriaMet.reason ?? '', message: criteriaMet.message ?? '' }, requeueMs: undefined };
  if (failureTarget?.status === 'True') return { finished: { type: CONDITION_FAILED, status: 'True', reason: failureTarget.reason ?? '', message: failureTarget.message ?? '' }, requeueMs: undefined };
  const deadline = deadlineRemainingMs(job, job.status?.startTime, nowMs);
  const backoffLimit = job.spec.backoffLimit ?? 6;
  if (failed > backoffLimit || pastBackoffLimitOnFailure(job, pods, backoffLimit)) {
    return { finished: { type: CONDITION_FAILURE_TARGET, status: 'True', reason: REASON_BACKOFF_LIMIT_EXCEEDED, message: MESSAGE_BACKOFF_LIMIT_EXCEEDED }, requeueMs: undefined };
  }
  if (deadline !== undefined && deadline <= 0) {
    return { finished: { type: CONDITION_FAILURE_TARGET, status: 'True', reason: REASON_DEADLINE_EXCEEDED, message: MESSAGE_DEADLINE_EXCEEDED }, requeueMs: undefined };
  }
  return { finished: undefined, requeueMs: deadline };
}

/** Suspended True while suspended; False (and a new startTime) when resumed. */
export function updateSuspendedCondition(job: Job, status: JobStatus, now: Date, events: JobEvent[]): void {
  const conditions = (status.conditions ??= []);
  if (job.spec.suspend === true) {
    if (setCondition(conditions, { type: CONDITION_SUSPENDED, status: 'True', reason: 'JobSuspended', message: 'Job suspended' }, now)) events.push(['Normal', 'Suspended', 'Job suspended']);
  } else if (getCondition(conditions, CONDITION_SUSPENDED) && setCondition(conditions, { type: CONDITION_SUSPENDED, status: 'False', reason: 'JobResumed', message: 'Job resumed' }, now)) {
    events.push(['Normal', 'Resumed', 'Job resumed']);
    // activeDeadlineSeconds counts the time the Job is continuously active.
    status.startTime = nowTime(now);
  }
}
