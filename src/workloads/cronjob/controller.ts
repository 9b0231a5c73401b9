// Registers the CronJob controller (kube-controller-manager's cronjob controller v2): a CronJob is synced when it
// or one of its Jobs changes, and again just after its next scheduled time.
import type { CronJob, Job } from '../../apimachinery/api/index.ts';
import { cronJobsResource, jobsResource } from '../../apimachinery/builtin-resources.ts';
import type { Controller, Manager } from '../../runtime/index.ts';
import { statusWriter } from '../../runtime/index.ts';
import { syncCronJob, type CronJobControllerData } from './sync.ts';

export interface CronJobControllerOptions {
  name?: string;
  concurrency?: number;
  /** The clock schedules are read against (tests inject one). */
  now?: () => Date;
}

export function registerCronJobController(mgr: Manager, options: CronJobControllerOptions = {}): Controller<CronJob, CronJobControllerData> {
  const jobs = mgr.informer<Job>(jobsResource);
  const data: CronJobControllerData = {
    client: mgr.client,
    recorder: mgr.recorder('cronjob-controller'),
    jobs,
    status: statusWriter<CronJob>(mgr.client, cronJobsResource),
    now: options.now ?? (() => new Date()),
  };
  return mgr
    .controller<CronJob, CronJobControllerData>({ name: options.name ?? 'cronjob', for: cronJobsResource, data, concurrency: options.concurrency ?? 5, reconcile: syncCronJob })
    .owns(jobs);
}
