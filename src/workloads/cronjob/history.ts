// History limits (cleanupFinishedJobs, removeOldestJobs): of the CronJob's finished Jobs, the oldest beyond
// successfulJobsHistoryLimit (Complete) and failedJobsHistoryLimit (Failed) are deleted, oldest start first.
import type { CronJob, Job } from '../../apimachinery/api/index.ts';
import { finishedConditionOf } from './job-state.ts';

/** byJobStartTime: by status.startTime (Jobs without one last), then by name. */
function byStartTime(a: Job, b: Job): number {
  const sa = a.status?.startTime;
  const sb = b.status?.startTime;
  if (sa === undefined && sb !== undefined) return 1;
  if (sa !== undefined && sb === undefined) return -1;
  if (sa !== undefined && sb !== undefined && sa !== sb) return Date.parse(sa) - Date.parse(sb);
  return (a.metadata.name ?? '').localeCompare(b.metadata.name ?? '');
}

function oldestBeyond(jobs: Job[], limit: number | undefined): Job[] {
  if (limit === undefined || jobs.length <= limit) return [];
  return [...jobs].sort(byStartTime).slice(0, jobs.length - limit);
}

export function jobsBeyondHistoryLimits(cronJob: CronJob, jobs: readonly Job[]): Job[] {
  const { successfulJobsHistoryLimit, failedJobsHistoryLimit } = cronJob.spec;
  if (successfulJobsHistoryLimit === undefined && failedJobsHistoryLimit === undefined) return [];
  const succeeded = jobs.filter((j) => finishedConditionOf(j) === 'Complete');
  const failed = jobs.filter((j) => finishedConditionOf(j) === 'Failed');
  return [...oldestBeyond(succeeded, successfulJobsHistoryLimit), ...oldestBeyond(failed, failedJobsHistoryLimit)];
}
