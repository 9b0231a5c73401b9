// Which scheduled time is due, after kube-controller-manager's cronjob controller v2 (mostRecentScheduleTime,
// nextScheduleTime, nextScheduleTimeDuration): the latest unmet time since the last schedule (or creation),
// counting from no earlier than startingDeadlineSeconds ago, and how many were missed on the way.
import type { CronSchedule } from '../../apimachinery/cron-schedule.ts';
import type { CronJob } from '../../apimachinery/api/index.ts';

/** Upstream requeues this long after the next scheduled time, so the sync surely sees it as due. */
export const NEXT_SCHEDULE_DELTA_MS = 100;
/** More missed times than this is most likely a wrong clock (upstream: "more than 80, but less than lots"). */
export const MANY_MISSED = 100;

export interface ScheduleTimes {
  /** The time counting starts from: last schedule, creation, or now − startingDeadlineSeconds. */
  earliest: Date;
  /** The latest scheduled time in (earliest, now], if any. */
  mostRecent?: Date;
  /** Roughly how many scheduled times passed unmet (upstream's estimate from the interval). */
  missed: number;
}

export class InvalidScheduleError extends Error {
  override readonly name = 'InvalidScheduleError' as const;
}

export function mostRecentScheduleTime(cronJob: CronJob, now: Date, schedule: CronSchedule, includeStartingDeadline: boolean): ScheduleTimes {
  let earliest = new Date(cronJob.status?.lastScheduleTime ?? cronJob.metadata.creationTimestamp ?? now.toISOString());
  const deadline = cronJob.spec.startingDeadlineSeconds;
  if (includeStartingDeadline && deadline !== undefined) {
    const schedulingDeadline = new Date(now.getTime() - deadline * 1000);
    if (schedulingDeadline > earliest) earliest = schedulingDeadline;
  }
  const t1 = schedule.next(earliest);
  const t2 = t1 && schedule.next(t1);
  if (!t1 || now < t1) return { earliest, missed: 0 };
  if (!t2 || now < t2) return { earliest, mostRecent: t1, missed: 0 };
  const interval = Math.round((t2.getTime() - t1.getTime()) / 1000);
  if (interval < 1) throw new InvalidScheduleError('time difference between two schedules is less than 1 second');
  const missed = Math.floor((now.getTime() - t1.getTime()) / 1000 / interval) + 1;
  // Jump close to now by whole intervals, then let the schedule find the exact latest time (irregular schedules).
  let mostRecent: Date | undefined;
  for (let t = schedule.next(new Date(t1.getTime() + (missed - 2) * interval * 1000)); t && t <= now; t = schedule.next(t)) mostRecent = t;
  return { earliest, ...(mostRecent ? { mostRecent } : {}), missed };
}

/** The unmet scheduled time to start now, if any (within the starting deadline's window). */
export function nextScheduleTime(cronJob: CronJob, now: Date, schedule: CronSchedule): ScheduleTimes & { due?: Date } {
  const times = mostRecentScheduleTime(cronJob, now, schedule, true);
  return times.mostRecent && times.mostRecent <= now ? { ...times, due: times.mostRecent } : times;
}

/** ms from now until just after the next scheduled time: when the controller looks again. */
export function nextScheduleDelayMs(cronJob: CronJob, now: Date, schedule: CronSchedule): number | undefined {
  let from: Date;
  try {
    const times = mostRecentScheduleTime(cronJob, now, schedule, false);
    from = times.mostRecent ?? times.earliest;
  } catch (error) {
    if (!(error instanceof InvalidScheduleError)) throw error;
    from = now;
  }
  const next = schedule.next(from);
  return next === undefined ? undefined : next.getTime() + NEXT_SCHEDULE_DELTA_MS - now.getTime();
}
