// The Job controller with kube-controller-manager's semantics, against the embedded API server, with the fake
// kubelet deciding how pods end and real kubectl where a user would type it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { jobsResource, podsResource } from '../../src/apimachinery/builtin-resources.ts';
import type { Job, JobCondition, Pod } from '../../src/apimachinery/api/index.ts';
import type { Informer } from '../../src/runtime/informer/informer.ts';
import { startWorkloads, type WorkloadsHarness } from './harness.ts';

const generatedSuffix = /^[bcdfghjklmnpqrstvwxz2456789]{5}$/;

function job(name: string, spec: Record<string, unknown>, podSpec: Record<string, unknown> = {}): Job {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name, namespace: 'default' },
    spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox', command: ['true'] }], ...podSpec } }, ...spec },
  } as Job;
}

function condition(j: Job | undefined, type: string): JobCondition | undefined {
  return j?.status?.conditions?.find((c) => c.type === type);
}

describe('Job controller', () => {
  let h: WorkloadsHarness;
  let jobs: Informer<Job>;
  let pods: Informer<Pod>;
  const podsOf = (name: string): Pod[] => pods.list('default').filter((p) => p.metadata.labels?.['batch.kubernetes.io/job-name'] === name);
  const jobNamed = (name: string): Job | undefined => jobs.get(name, 'default');

  before(async () => {
    h = await startWorkloads({ workloads: { job: { podFailureBackoffMs: 50, podEventBatchMs: 20 } } });
    jobs = h.watch<Job>(jobsResource);
    pods = h.watch<Pod>(podsResource);
    await Promise.all([jobs.waitForSync(), pods.waitForSync()]);
  });
  after(async () => {
    await h.close();
  });

  test('completions 3, parallelism 2: never more than 2 pods at once, 3 succeed, Complete after SuccessCriteriaMet', async () => {
    // Pods of this Job run until the test ends them.
    h.kubelet.decide = () => ({ phase: 'Running' });
    let maxActive = 0;
    const seen = new Map<string, Pod>();
    pods.addEventHandler({
      onAdd: (p) => {
        if (p.metadata.labels?.['job-name'] !== 'batch') return;
        seen.set(p.metadata.uid ?? '', structuredClone(p));
        maxActive = Math.max(maxActive, podsOf('batch').filter((x) => !x.status?.phase || x.status.phase === 'Pending' || x.status.phase === 'Running').length);
      },
    });
    await h.apply(job('batch', { completions: 3, parallelism: 2 }));
    for (let done = 0; done < 3; done++) {
      const wanted = Math.min(2, 3 - done);
      await h.until(() => podsOf('batch').filter((p) => p.status?.phase === 'Running').length === wanted, `${wanted} running pods after ${done} completions`);
      await h.until(() => jobNamed('batch')?.status?.active === wanted && jobNamed('batch')?.status?.ready === wanted, `status.active and ready ${wanted}`);
      const running = podsOf('batch').find((p) => p.status?.phase === 'Running')!;
      await h.kubelet.finish(running, 'Succeeded');
    }
    const wait = await h.kubectl(['wait', '--for=condition=complete', 'job/batch', '--timeout=20s']);
    assert.equal(wait.code, 0, wait.stderr);
    assert.equal(wait.stdout.trim(), 'job.batch/batch condition met');
    await h.until(() => podsOf('batch').every((p) => !(p.metadata.finalizers ?? []).includes('batch.kubernetes.io/job-tracking')), 'tracking finalizers removed');

    const done = jobNamed('batch')!;
    assert.equal(done.status?.succeeded, 3);
    assert.equal(done.status?.failed ?? 0, 0);
    assert.equal(done.status?.active ?? 0, 0);
    assert.ok(done.status?.startTime && done.status.completionTime);
    assert.equal(seen.size, 3, 'exactly three pods were created');
    assert.equal(maxActive, 2, 'parallelism 2 was reached and never exceeded');
    const types = (done.status?.conditions ?? []).map((c) => c.type);
    assert.deepEqual(types, ['SuccessCriteriaMet', 'Complete']);
    for (const type of types) {
      assert.equal(condition(done, type)?.reason, 'CompletionsReached');
      assert.equal(condition(done, type)?.message, 'Reached expected number of succeeded pods');
    }
    for (const pod of seen.values()) {
      assert.match(pod.metadata.name ?? '', /^batch-/);
      assert.match((pod.metadata.name ?? '').slice('batch-'.length), generatedSuffix);
      assert.equal(pod.metadata.labels?.['job-name'], 'batch');
      assert.equal(pod.metadata.labels?.['batch.kubernetes.io/job-name'], 'batch');
      assert.equal(pod.metadata.labels?.['controller-uid'], done.metadata.uid);
      assert.equal(pod.metadata.labels?.['batch.kubernetes.io/controller-uid'], done.metadata.uid);
      assert.deepEqual(pod.metadata.finalizers, ['batch.kubernetes.io/job-tracking']);
      assert.deepEqual(pod.metadata.ownerReferences, [{ apiVersion: 'batch/v1', kind: 'Job', name: 'batch', uid: done.metadata.uid, controller: true, blockOwnerDeletion: true }]);
    }
    await h.until(() => h.events('batch').some((e) => e.reason === 'Completed'), 'Completed event');
    const created = h.events('batch').filter((e) => e.reason === 'SuccessfulCreate').map((e) => e.message);
    assert.deepEqual(created.sort(), [...seen.values()].map((p) => `Created pod: ${p.metadata.name ?? ''}`).sort());
    assert.equal(h.events('batch').find((e) => e.reason === 'Completed')?.message, 'Job completed');
    const table = await h.kubectl(['get', 'pods', '-l', 'job-name=batch', '--no-headers']);
    assert.equal(table.stdout.trim().split('\n').filter((l) => /\bCompleted\b/.test(l)).length, 3, table.stdout);
  });

  test('kubectl create job: the pod succeeds, the Job completes, kubectl wait returns', async () => {
    h.kubelet.decide = () => ({ phase: 'Succeeded' });
    const created = await h.kubectl(['create', 'job', 'hello', '--image=busybox', '--', 'sh', '-c', 'echo hi; exit 0']);
    assert.equal(created.code, 0, created.stderr);
    const wait = await h.kubectl(['wait', '--for=condition=complete', 'job/hello', '--timeout=20s']);
    assert.equal(wait.code, 0, wait.stderr);
    const table = await h.kubectl(['get', 'job', 'hello', '--no-headers']);
    assert.match(table.stdout, /^hello\s+Complete\s+1\/1\s/);
  });

  test('a failing Job with backoffLimit 2 makes 3 pods and ends Failed with BackoffLimitExceeded', async () => {
    h.kubelet.decide = () => ({ phase: 'Failed', exitCode: 3 });
    await h.apply(job('flaky', { backoffLimit: 2 }));
    const wait = await h.kubectl(['wait', '--for=condition=failed', 'job/flaky', '--timeout=20s']);
    assert.equal(wait.code, 0, wait.stderr);
    await h.until(() => podsOf('flaky').every((p) => !(p.metadata.finalizers ?? []).length), 'finalizers released');
    const failed = jobNamed('flaky')!;
    assert.equal(podsOf('flaky').length, 3);
    assert.equal(failed.status?.failed, 3);
    assert.equal(failed.status?.succeeded ?? 0, 0);
    assert.deepEqual((failed.status?.conditions ?? []).map((c) => c.type), ['FailureTarget', 'Failed']);
    for (const type of ['FailureTarget', 'Failed']) {
      assert.equal(condition(failed, type)?.reason, 'BackoffLimitExceeded');
      assert.equal(condition(failed, type)?.message, 'Job has reached the specified backoff limit');
    }
    assert.equal(failed.status?.completionTime, undefined);
    await h.until(() => h.events('flaky').some((e) => e.reason === 'BackoffLimitExceeded'), 'BackoffLimitExceeded event');
    assert.equal(h.events('flaky').find((e) => e.reason === 'BackoffLimitExceeded')?.type, 'Warning');
    const table = await h.kubectl(['get', 'job', 'flaky', '--no-headers']);
    assert.match(table.stdout, /^flaky\s+Failed\s+0\/1\s/);
  });

  test('activeDeadlineSeconds: a Job running too long fails with DeadlineExceeded and its pods are deleted', async () => {
    h.kubelet.decide = () => ({ phase: 'Running' });
    await h.apply(job('slow', { activeDeadlineSeconds: 1 }));
    await h.until(() => condition(jobNamed('slow'), 'Failed')?.status === 'True', 'slow failed', 10_000);
    const failed = jobNamed('slow')!;
    assert.equal(condition(failed, 'Failed')?.reason, 'DeadlineExceeded');
    assert.equal(condition(failed, 'Failed')?.message, 'Job was active longer than specified deadline');
    assert.equal(failed.status?.failed, 1);
    await h.until(() => podsOf('slow').length === 0, 'the running pod deleted');
    const startedAt = Date.parse(failed.status?.startTime ?? '');
    const failedAt = Date.parse(condition(failed, 'Failed')?.lastTransitionTime ?? '');
    assert.ok(failedAt - startedAt >= 1000, `failed ${failedAt - startedAt} ms after start`);
  });

  test('suspend: no pods while suspended (Suspended=True); resuming starts them (JobResumed)', async () => {
    h.kubelet.decide = () => ({ phase: 'Succeeded' });
    await h.apply(job('later', { suspend: true }));
    await h.until(() => condition(jobNamed('later'), 'Suspended')?.status === 'True', 'Suspended condition');
    assert.equal(condition(jobNamed('later'), 'Suspended')?.reason, 'JobSuspended');
    assert.equal(podsOf('later').length, 0);
    assert.equal(jobNamed('later')?.status?.startTime, undefined);
    const resume = await h.kubectl(['patch', 'job', 'later', '--type=merge', '-p', '{"spec":{"suspend":false}}']);
    assert.equal(resume.code, 0, resume.stderr);
    await h.until(() => condition(jobNamed('later'), 'Complete')?.status === 'True', 'resumed job completes');
    assert.equal(condition(jobNamed('later'), 'Suspended')?.status, 'False');
    assert.equal(condition(jobNamed('later'), 'Suspended')?.reason, 'JobResumed');
    assert.ok(h.events('later').some((e) => e.reason === 'Suspended') && h.events('later').some((e) => e.reason === 'Resumed'));
  });

  test('ttlSecondsAfterFinished: the finished Job and its pods are deleted after the TTL', async () => {
    h.kubelet.decide = () => ({ phase: 'Succeeded' });
    await h.apply(job('brief', { ttlSecondsAfterFinished: 2 }));
    await h.until(() => condition(jobNamed('brief'), 'Complete')?.status === 'True', 'brief completes');
    const completedAt = Date.parse(condition(jobNamed('brief'), 'Complete')?.lastTransitionTime ?? '');
    await h.until(() => jobNamed('brief') === undefined && podsOf('brief').length === 0, 'job and pods deleted', 10_000);
    // The TTL counts from the Complete condition's (second-precision) transition time, as upstream.
    assert.ok(Date.now() >= completedAt + 2000, 'not deleted before its TTL');
  });

  test('Indexed: one pod per completion index with its annotation, label, hostname and env; a failed index is retried', async () => {
    const attempts = new Map<string, number>();
    h.kubelet.decide = (p) => {
      const index = p.metadata.annotations?.['batch.kubernetes.io/job-completion-index'] ?? '';
      const n = (attempts.get(index) ?? 0) + 1;
      attempts.set(index, n);
      return index === '1' && n === 1 ? { phase: 'Failed', exitCode: 2 } : { phase: 'Succeeded' };
    };
    await h.apply(job('ix', { completions: 3, parallelism: 3, completionMode: 'Indexed' }));
    const wait = await h.kubectl(['wait', '--for=condition=complete', 'job/ix', '--timeout=20s']);
    assert.equal(wait.code, 0, wait.stderr);
    const done = jobNamed('ix')!;
    assert.equal(done.status?.completedIndexes, '0-2');
    assert.equal(done.status?.succeeded, 3);
    assert.equal(done.status?.failed, 1);
    const all = podsOf('ix');
    assert.equal(all.length, 4);
    assert.deepEqual([...attempts.entries()].sort(), [['0', 1], ['1', 2], ['2', 1]]);
    for (const p of all) {
      const index = p.metadata.annotations?.['batch.kubernetes.io/job-completion-index'] ?? '';
      assert.match(p.metadata.name ?? '', new RegExp(`^ix-${index}-[bcdfghjklmnpqrstvwxz2456789]{5}$`));
      assert.equal(p.metadata.labels?.['batch.kubernetes.io/job-completion-index'], index);
      assert.equal(p.spec['hostname'], `ix-${index}`);
      assert.deepEqual((p.spec.containers[0]?.['env'] as unknown[])[0], {
        name: 'JOB_COMPLETION_INDEX',
        valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: "metadata.annotations['batch.kubernetes.io/job-completion-index']" } },
      });
    }
  });

  test('every request the controllers made is covered by the family\'s RBAC rules', () => {
    assert.deepEqual(h.deniedToControllers(), []);
  });
});
