// The decisions of one CronJob sync (syncCronJob), kept free of I/O so they can be tested with any clock:
// first the active list against the Jobs that exist, then whether a scheduled time is due and may start.
import { CronScheduleError, isKnownTimeZone, parseCronSchedule, type CronSchedule } from '../../apimachinery/cron-schedule.ts';
import type { CronJob, CronJobStatus, Job } from '../../apimachinery/api/index.ts';
import { finishedConditionOf } from './job-state.ts';
import { jobName } from './job-template.ts';
import { InvalidScheduleError, MANY_MISSED, nextScheduleDelayMs, nextScheduleTime } from './schedule-times.ts';

export type CronJobEvent = [type: 'Normal' | 'Warning', reason: string, message: string];

/** Go's time.RFC1123Z in UTC, as MissSchedule prints the missed time: `Sat, 28 Nov 2026 16:40:00 +0000`. */
function rfc1123z(time: Date): string {
  return time.toUTCString().replace('GMT', '+0000');
}

/**
 * The active list kept true: a finished Job leaves it (SawCompletedJob), a Job gone from the server too
 * (MissingJob; `gone` holds the uids a fresh read confirmed missing); a succeeded Job advances lastSuccessfulTime.
 */
export function reconcileChildren(cronJob: CronJob, jobs: readonly Job[], gone: ReadonlySet<string>): { status: CronJobStatus; events: CronJobEvent[] } {
  const status: CronJobStatus = structuredClone(cronJob.status ?? {});
  const events: CronJobEvent[] = [];
  const active = (): NonNullable<CronJobStatus['active']> => status.active ?? [];
  const remove = (uid: string | undefined): void => {
    status.active = active().filter((r) => r.uid !== uid);
    if (status.active.length === 0) delete status.active;
  };
  for (const job of jobs) {
    const uid = job.metadata.uid;
    const listed = active().some((r) => r.uid === uid);
    const finished = finishedConditionOf(job);
    if (!listed && finished === undefined) {
      events.push(['Warning', 'UnexpectedJob', `Saw a job that the controller did not create or forgot: ${job.metadata.name ?? ''}`]);
    } else if (listed && finished !== undefined) {
      remove(uid);
      events.push(['Normal', 'SawCompletedJob', `Saw completed job: ${job.metadata.name ?? ''}, condition: ${finished}`]);
    }
    const completion = job.status?.completionTime;
    if (finished === 'Complete' && completion !== undefined && (status.lastSuccessfulTime === undefined || Date.parse(completion) > Date.parse(status.lastSuccessfulTime))) {
      status.lastSuccessfulTime = completion;
    }
  }
  for (const ref of active()) {
    if (ref.uid !== undefined && gone.has(ref.uid)) {
      events.push(['Normal', 'MissingJob', `Active job went missing: ${ref.name ?? ''}`]);
      remove(ref.uid);
    }
  }
  return { status, events };
}

export interface RunDecision {
  events: CronJobEvent[];
  /** The scheduled time to start a Job for now. */
  start?: Date;
  /** Replace: the active Jobs to delete before starting. */
  replaceActive: boolean;
  /** When to look again (just after the next scheduled time); undefined: only when the CronJob changes. */
  requeueMs?: number;
}

/** The schedule the controller runs (formatSchedule): the timeZone field, or a TZ= prefix kept from before. */
function scheduleOf(cronJob: CronJob, events: CronJobEvent[]): CronSchedule | undefined {
  const { schedule, timeZone } = cronJob.spec;
  if (schedule.includes('TZ')) {
    events.push(['Warning', 'UnsupportedSchedule', `CRON_TZ or TZ used in schedule ${JSON.stringify(schedule)} is not officially supported, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details`]);
  }
  try {
    return parseCronSchedule(schedule, schedule.includes('TZ') ? undefined : timeZone);
  } catch (error) {
    if (!(error instanceof CronScheduleError)) throw error;
    events.push(['Warning', 'UnparseableSchedule', `unparseable schedule: ${JSON.stringify(schedule)} : ${error.message}`]);
    return undefined;
  }
}

/** Whether a Job starts now; `cronJob.status` is the status after reconcileChildren. */
export function decideRun(cronJob: CronJob, now: Date): RunDecision {
  const events: CronJobEvent[] = [];
  const none: RunDecision = { events, replaceActive: false };
  if (cronJob.metadata.deletionTimestamp !== undefined) return none;
  const timeZone = cronJob.spec.timeZone;
  if (timeZone !== undefined && !isKnownTimeZone(timeZone)) {
    events.push(['Warning', 'UnknownTimeZone', `invalid timeZone: ${JSON.stringify(timeZone)}: unknown time zone ${timeZone}`]);
    return none;
  }
  if (cronJob.spec.suspend === true) return none;
  const schedule = scheduleOf(cronJob, events);
  if (!schedule) return none;
  let due: Date | undefined;
  try {
    const times = nextScheduleTime(cronJob, now, schedule);
    due = times.due;
    if (due && times.missed > MANY_MISSED) events.push(['Warning', 'TooManyMissedTimes', 'too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew']);
  } catch (error) {
    if (!(error instanceof InvalidScheduleError)) throw error;
    events.push(['Warning', 'InvalidSchedule', `invalid schedule: ${cronJob.spec.schedule} : ${error.message}`]);
    return none;
  }
  const requeueMs = nextScheduleDelayMs(cronJob, now, schedule);
  const later: RunDecision = { events, replaceActive: false, ...(requeueMs !== undefined ? { requeueMs } : {}) };
  if (!due) return later;
  const deadline = cronJob.spec.startingDeadlineSeconds;
  if (deadline !== undefined && due.getTime() + deadline * 1000 < now.getTime()) {
    events.push(['Warning', 'MissSchedule', `Missed scheduled time to start a job: ${rfc1123z(due)}`]);
    return later;
  }
  const active = cronJob.status?.active ?? [];
  const name = jobName(cronJob, due);
  const lastSchedule = cronJob.status?.lastScheduleTime;
  if (active.some((r) => r.name === name) || (lastSchedule !== undefined && Date.parse(lastSchedule) === due.getTime())) return later;
  if (cronJob.spec.concurrencyPolicy === 'Forbid' && active.length > 0) {
    events.push(['Normal', 'JobAlreadyActive', 'Not starting job because prior execution is running and concurrency policy is Forbid']);
    return later;
  }
  return { ...later, start: due, replaceActive: cronJob.spec.concurrencyPolicy === 'Replace' && active.length > 0 };
}
