// The CronJob controller on the embedded API server with the other workloads controllers and the fake kubelet,
// through real kubectl. Its clock is injected: it runs at real speed but is set just before a minute boundary,
// so the first Job comes from the controller's own requeue at that boundary; later scheduled times are reached by
// moving the clock a minute on and touching the CronJob (an event, as a changed spec would be).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { cronJobsResource, jobsResource } from '../../src/apimachinery/builtin-resources.ts';
import type { CronJob, Job } from '../../src/apimachinery/api/index.ts';
import type { Informer } from '../../src/runtime/informer/informer.ts';
import { startWorkloads, type WorkloadsHarness } from './harness.ts';

describe('CronJob controller on the embedded server', () => {
  let h: WorkloadsHarness;
  let jobs: Informer<Job>;
  let cronJobs: Informer<CronJob>;
  let offsetMs = 0;
  const now = (): Date => new Date(Date.now() + offsetMs);
  const jobsOf = (name: string): Job[] => jobs.list('default').filter((j) => j.metadata.ownerReferences?.some((r) => r.kind === 'CronJob' && r.name === name));
  const minuteOf = (ms: number): number => Math.floor(ms / 60_000);
  /** kubectl apply of one CronJob (the harness applies a List, which kubectl validates against OpenAPI itself). */
  const applyCronJob = async (name: string, spec: Partial<CronJob['spec']>): Promise<void> => {
    const manifest = {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name, namespace: 'default' },
      spec: { schedule: '* * * * *', jobTemplate: { spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } } }, ...spec },
    };
    const applied = await h.kubectl(['apply', '-f', '-'], JSON.stringify(manifest));
    assert.equal(applied.code, 0, applied.stderr);
  };
  let touches = 0;
  /** Moves the controller's clock one minute on and wakes the CronJob with a change, as an edit would. */
  const nextMinute = async (name: string): Promise<void> => {
    offsetMs += 60_000;
    const touched = await h.kubectl(['annotate', '--overwrite', `cronjob/${name}`, `test/touch=${touches++}`]);
    assert.equal(touched.code, 0, touched.stderr);
  };

  before(async () => {
    h = await startWorkloads({ workloads: { cronJob: { now } } });
    jobs = h.watch<Job>(jobsResource);
    cronJobs = h.watch<CronJob>(cronJobsResource);
    await Promise.all([jobs.waitForSync(), cronJobs.waitForSync()]);
  });
  after(async () => {
    await h.close();
  });

  test('every minute: the Job is created at the minute boundary, named by it, and the CronJob lists it active', async () => {
    h.kubelet.decide = () => ({ phase: 'Running' });
    const real = Date.now();
    const boundary = (minuteOf(real) + 1) * 60_000;
    offsetMs = boundary - 3_000 - real;
    const created = await h.kubectl(['create', 'cronjob', 'tick', '--image=busybox', '--schedule=* * * * *', '--', 'true']);
    assert.equal(created.code, 0, created.stderr);
    await h.until(() => jobsOf('tick').length === 1, 'the first Job', 20_000);
    const [first] = jobsOf('tick');
    assert.equal(first?.metadata.name, `tick-${minuteOf(boundary)}`);
    assert.equal(first?.metadata.annotations?.['batch.kubernetes.io/cronjob-scheduled-timestamp'], new Date(boundary).toISOString().replace('.000Z', 'Z'));
    assert.ok(now().getTime() >= boundary, 'not before the boundary');
    await h.until(() => cronJobs.get('tick', 'default')?.status?.active?.length === 1, 'status.active');
    const cj = cronJobs.get('tick', 'default')!;
    assert.equal(cj.status?.lastScheduleTime, new Date(boundary).toISOString().replace('.000Z', 'Z'));
    assert.equal(cj.status?.active?.[0]?.name, first?.metadata.name);
    await h.until(() => h.events('tick').some((e) => e.reason === 'SuccessfulCreate'), 'SuccessfulCreate');
    assert.equal(h.events('tick').find((e) => e.reason === 'SuccessfulCreate')?.message, `Created job ${first?.metadata.name ?? ''}`);
    // A second minute: Allow runs beside the still-running first Job.
    await nextMinute('tick');
    await h.until(() => jobsOf('tick').length === 2, 'the second Job');
    assert.deepEqual(jobsOf('tick').map((j) => j.metadata.name).sort(), [`tick-${minuteOf(boundary)}`, `tick-${minuteOf(boundary) + 1}`]);
    const table = await h.kubectl(['get', 'cj', 'tick', '--no-headers']);
    // LAST SCHEDULE is in kubectl's past only by the real clock; the controller's runs ahead.
    assert.match(table.stdout, /^tick\s+\* \* \* \* \*\s+<none>\s+False\s+2\s+\S+\s+\d+s/);
  });

  test('concurrencyPolicy Forbid skips the run while the last Job is active, with JobAlreadyActive', async () => {
    h.kubelet.decide = () => ({ phase: 'Running' });
    offsetMs = 0;
    await applyCronJob('single', { concurrencyPolicy: 'Forbid' });
    await nextMinute('single');
    await h.until(() => jobsOf('single').length === 1, 'the first Job');
    await nextMinute('single');
    await h.until(() => h.events('single').some((e) => e.reason === 'JobAlreadyActive'), 'JobAlreadyActive');
    assert.equal(h.events('single').find((e) => e.reason === 'JobAlreadyActive')?.message, 'Not starting job because prior execution is running and concurrency policy is Forbid');
    assert.equal(jobsOf('single').length, 1, 'no second Job');
  });

  test('history limits: of the succeeded Jobs only the newest successfulJobsHistoryLimit stay, with SuccessfulDelete', async () => {
    h.kubelet.decide = () => ({ phase: 'Succeeded' });
    // The controller's clock half a minute into a minute: each step below is a minute on, and the real clock
    // (which the controller's also follows) cannot carry it over another boundary while a step runs.
    const real = Date.now();
    offsetMs = minuteOf(real) * 60_000 + 30_000 - real;
    await applyCronJob('short', { successfulJobsHistoryLimit: 1 });
    const names: string[] = [];
    for (let run = 0; run < 3; run++) {
      await nextMinute('short');
      const name = `short-${minuteOf(now().getTime())}`;
      names.push(name);
      await h.until(() => jobs.get(name, 'default')?.status?.conditions?.some((c) => c.type === 'Complete' && c.status === 'True') === true, `${name} complete`);
      await h.until(() => (cronJobs.get('short', 'default')?.status?.active ?? []).length === 0, `${name} seen completed`);
    }
    await h.until(() => jobsOf('short').filter((j) => !j.metadata.deletionTimestamp).length === 1, 'one Job kept');
    assert.deepEqual(jobsOf('short').filter((j) => !j.metadata.deletionTimestamp).map((j) => j.metadata.name), [names[2]]);
    const deletedEvents = (): string[] => h.events('short').filter((e) => e.reason === 'SuccessfulDelete').map((e) => e.message ?? '').sort();
    await h.until(() => deletedEvents().length === 2, 'two SuccessfulDelete events');
    const deleted = deletedEvents();
    assert.deepEqual(deleted, [`Deleted job ${names[0] ?? ''}`, `Deleted job ${names[1] ?? ''}`]);
    assert.ok(h.events('short').some((e) => e.reason === 'SawCompletedJob' && e.message === `Saw completed job: ${names[2] ?? ''}, condition: Complete`));
    assert.ok(cronJobs.get('short', 'default')?.status?.lastSuccessfulTime, 'lastSuccessfulTime set');
    assert.deepEqual(h.deniedToControllers(), []);
  });
});
