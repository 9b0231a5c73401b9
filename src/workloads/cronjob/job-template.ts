// The Job a CronJob starts for a scheduled time (getJobFromTemplate2): named `<cronjob>-<minutes since the epoch>`
// so a retried sync finds the Job it already made, annotated with the scheduled time in the CronJob's time zone,
// controlled by the CronJob.
import type { CronJob, Job } from '../../apimachinery/api/index.ts';
import { controllerRefTo } from '../pods/owner.ts';

export const SCHEDULED_TIMESTAMP_ANNOTATION = 'batch.kubernetes.io/cronjob-scheduled-timestamp';

export function jobName(cronJob: CronJob, scheduledTime: Date): string {
  return `${cronJob.metadata.name ?? ''}-${Math.floor(scheduledTime.getTime() / 60_000)}`;
}

/** Go's time.Format(time.RFC3339) of `time` in `timeZone` (UTC without one): `2026-11-28T17:40:00+01:00`. */
export function rfc3339In(time: Date, timeZone = 'UTC'): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' })
      .formatToParts(time)
      .map((p) => [p.type, p.value]),
  );
  const local = `${parts['year']}-${parts['month']}-${parts['day']}T${parts['hour']}:${parts['minute']}:${parts['second']}`;
  const offsetMinutes = Math.round((Date.parse(`${local}Z`) - Math.floor(time.getTime() / 1000) * 1000) / 60_000);
  if (offsetMinutes === 0) return `${local}Z`;
  const abs = Math.abs(offsetMinutes);
  return `${local}${offsetMinutes < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

export function jobFromTemplate(cronJob: CronJob, scheduledTime: Date): Job {
  const template = cronJob.spec.jobTemplate;
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: jobName(cronJob, scheduledTime),
      namespace: cronJob.metadata.namespace ?? '',
      labels: { ...template.metadata?.labels },
      annotations: { ...template.metadata?.annotations, [SCHEDULED_TIMESTAMP_ANNOTATION]: rfc3339In(scheduledTime, cronJob.spec.timeZone) },
      ownerReferences: [controllerRefTo(cronJob, 'batch/v1', 'CronJob')],
    },
    spec: structuredClone(template.spec),
  };
}
