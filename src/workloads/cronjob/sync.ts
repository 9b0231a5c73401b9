// One sync of a CronJob, after kube-controller-manager's cronjob controller v2 (sync, syncCronJob,
// cleanupFinishedJobs): keep the active list true (decide.ts), start the due Job (deleting the active ones first
// under Replace), prune finished Jobs beyond the history limits, write status, and come back just after the next
// scheduled time. No polling: between scheduled times only a change to the CronJob or its Jobs wakes it.
import type { CronJob, CronJobStatus, Job, JobReference } from '../../apimachinery/api/index.ts';
import { jobsResource } from '../../apimachinery/builtin-resources.ts';
import { nowTime } from '../../apimachinery/time.ts';
import type { KubeClient } from '../../client/client.ts';
import { AlreadyExistsError, NotFoundError } from '../../client/errors.ts';
import type { Action, EventRecorder, Informer, ReconcileContext, StatusWriter } from '../../runtime/index.ts';
import { action, messageOf } from '../../runtime/index.ts';
import { isControlledBy } from '../pods/owner.ts';
import { decideRun, reconcileChildren, type CronJobEvent } from './decide.ts';
import { jobsBeyondHistoryLimits } from './history.ts';
import { jobFromTemplate } from './job-template.ts';

export interface CronJobControllerData {
  client: KubeClient;
  recorder: EventRecorder;
  jobs: Informer<Job>;
  status: StatusWriter<CronJob>;
  now(): Date;
}

function referenceTo(job: Job): JobReference {
  return { kind: 'Job', namespace: job.metadata.namespace ?? '', name: job.metadata.name ?? '', uid: job.metadata.uid ?? '', apiVersion: 'batch/v1', resourceVersion: job.metadata.resourceVersion ?? '' };
}

/** The active Jobs the cache does not have, confirmed gone by a read (the cache may only be behind). */
async function goneActive(d: CronJobControllerData, cronJob: CronJob, jobs: readonly Job[], signal: AbortSignal): Promise<Set<string>> {
  const gone = new Set<string>();
  for (const ref of cronJob.status?.active ?? []) {
    if (ref.uid === undefined || jobs.some((j) => j.metadata.uid === ref.uid)) continue;
    try {
      const job = await d.client.get<Job>(jobsResource, ref.name ?? '', { namespace: ref.namespace ?? cronJob.metadata.namespace ?? '', signal });
      if (job.metadata.uid !== ref.uid) gone.add(ref.uid);
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      gone.add(ref.uid);
    }
  }
  return gone;
}

/** deleteJob: background propagation; on success the Job leaves the active list. */
async function deleteJob(d: CronJobControllerData, job: Job, status: CronJobStatus, events: CronJobEvent[], signal: AbortSignal): Promise<boolean> {
  try {
    await d.client.delete(jobsResource, job.metadata.name ?? '', { namespace: job.metadata.namespace ?? '', propagationPolicy: 'Background', signal });
  } catch (error) {
    if (!(error instanceof NotFoundError)) {
      events.push(['Warning', 'FailedDelete', `Deleted job: ${messageOf(error)}`]);
      return false;
    }
  }
  status.active = (status.active ?? []).filter((r) => r.uid !== job.metadata.uid);
  if (status.active.length === 0) delete status.active;
  events.push(['Normal', 'SuccessfulDelete', `Deleted job ${job.metadata.name ?? ''}`]);
  return true;
}

/** Creates the Job for `scheduledTime`; one that already exists (a retried sync) is taken if this CronJob controls it. */
async function startJob(d: CronJobControllerData, cronJob: CronJob, scheduledTime: Date, status: CronJobStatus, events: CronJobEvent[], signal: AbortSignal): Promise<void> {
  const wanted = jobFromTemplate(cronJob, scheduledTime);
  let job: Job;
  try {
    job = await d.client.create<Job>(jobsResource, wanted, { signal });
    events.push(['Normal', 'SuccessfulCreate', `Created job ${job.metadata.name ?? ''}`]);
  } catch (error) {
    if (!(error instanceof AlreadyExistsError)) {
      events.push(['Warning', 'FailedCreate', `Error creating job: ${messageOf(error)}`]);
      throw error;
    }
    job = await d.client.get<Job>(jobsResource, wanted.metadata.name ?? '', { namespace: wanted.metadata.namespace ?? '', signal });
    if (!isControlledBy(job, cronJob) || (status.active ?? []).some((r) => r.uid === job.metadata.uid)) return;
  }
  status.active = [...(status.active ?? []), referenceTo(job)];
  status.lastScheduleTime = nowTime(scheduledTime);
}

export async function syncCronJob(cronJob: CronJob, ctx: ReconcileContext<CronJobControllerData>): Promise<Action> {
  const d = ctx.data;
  const jobs = d.jobs.list(cronJob.metadata.namespace ?? '').filter((j) => isControlledBy(j, cronJob));
  const gone = await goneActive(d, cronJob, jobs, ctx.signal);
  const { status, events } = reconcileChildren(cronJob, jobs, gone);
  const decision = decideRun({ ...cronJob, status }, d.now());
  events.push(...decision.events);
  let failure: unknown;
  try {
    if (decision.start) {
      let replaced = true;
      if (decision.replaceActive) {
        for (const ref of [...(status.active ?? [])]) {
          const job = jobs.find((j) => j.metadata.uid === ref.uid);
          if (job && !(await deleteJob(d, job, status, events, ctx.signal))) replaced = false;
        }
      }
      if (!replaced) throw new Error(`could not replace the active jobs of cronjob ${ctx.key}`);
      await startJob(d, cronJob, decision.start, status, events, ctx.signal);
    }
    for (const job of jobsBeyondHistoryLimits(cronJob, jobs)) await deleteJob(d, job, status, events, ctx.signal);
  } catch (error) {
    failure = error;
  }
  let current = cronJob;
  try {
    current = await d.status.write(cronJob, (draft) => void (draft.status = status), { signal: ctx.signal });
  } catch (error) {
    if (error instanceof NotFoundError) return action.awaitChange();
    failure ??= error;
  }
  for (const [type, reason, message] of events) void d.recorder.event(current, type, reason, message);
  if (failure !== undefined) throw failure instanceof Error ? failure : new Error(String(failure));
  return decision.requeueMs === undefined ? action.awaitChange() : action.requeueAfter(Math.max(0, decision.requeueMs));
}
