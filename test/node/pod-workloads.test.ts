// The node agent under the workloads family's real controllers: the scheduler binds pods to the agent's Node,
// the Job and Deployment controllers count what the agent reports.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { deploymentsResource, jobsResource, podsResource } from '../../src/apimachinery/builtin-resources.ts';
import type { KubeObject } from '../../src/apimachinery/object.ts';
import { Informer } from '../../src/runtime/informer/informer.ts';
import { createLogger } from '../../src/runtime/logger.ts';
import { Manager } from '../../src/runtime/manager.ts';
import { registerWorkloads } from '../../src/workloads/family.ts';
import { Changes } from '../client/wait.ts';
import { logContents } from './harness.ts';
import { busybox, startPodHarness, type PodHarness } from './pod-harness.ts';

interface Workload extends KubeObject {
  status?: { conditions?: { type: string; status: string; reason?: string }[]; availableReplicas?: number; succeeded?: number };
}

let h: PodHarness;
let manager: Manager;
const changes = new Changes();
let jobs: Informer<Workload>;
let deployments: Informer<Workload>;

before(async () => {
  h = await startPodHarness();
  manager = new Manager({ client: h.client, logger: createLogger({ level: 'silent' }), gracefulShutdownTimeoutMs: 2_000 });
  registerWorkloads(manager, { job: { podFailureBackoffMs: 100 } });
  await manager.start();
  jobs = new Informer<Workload>({ client: h.client, resource: jobsResource, onError: () => undefined });
  deployments = new Informer<Workload>({ client: h.client, resource: deploymentsResource, onError: () => undefined });
  for (const informer of [jobs, deployments]) {
    informer.addEventHandler({ onAdd: changes.notify, onUpdate: changes.notify, onDelete: changes.notify });
    informer.start();
    await informer.waitForSync();
  }
});
after(async () => {
  await Promise.all([jobs.stop(), deployments.stop()]);
  await manager.stop();
  await h.close();
});

const condition = (obj: Workload | undefined, type: string) => obj?.status?.conditions?.find((c) => c.type === type);

test('a Job runs its script on the node and completes', { timeout: 30_000 }, async () => {
  const template = { spec: { restartPolicy: 'Never', containers: [busybox('j', 'echo hi; exit 0')] } };
  await h.client.create(jobsResource, { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j', namespace: 'default' }, spec: { template } }, { namespace: 'default' });
  await changes.until(() => condition(jobs.list().find((j) => j.metadata.name === 'j'), 'Complete')?.status === 'True', 25_000, 'Job complete');
  const pods = (await h.client.list<KubeObject>(podsResource, { namespace: 'default', labelSelector: 'batch.kubernetes.io/job-name=j' })).items;
  assert.equal(pods.length, 1);
  const name = pods[0]?.metadata.name ?? '';
  assert.equal(h.pod(name)?.status?.phase, 'Succeeded');
  assert.deepEqual(await logContents(h.agent.containers.logPath({ namespace: 'default', pod: name, container: 'j' }, false) ?? ''), ['hi']);
});

test('a Deployment becomes available, and a deleted pod is replaced', { timeout: 40_000 }, async () => {
  const labels = { app: 'web' };
  await h.client.create(
    deploymentsResource,
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'default' },
      spec: { replicas: 2, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { terminationGracePeriodSeconds: 1, containers: [busybox('web', 'sleep 600')] } } },
    },
    { namespace: 'default' },
  );
  const web = () => deployments.list().find((d) => d.metadata.name === 'web');
  await changes.until(() => web()?.status?.availableReplicas === 2, 30_000, 'web available');
  const [victim] = h.pods().filter((p) => p.metadata.labels?.['app'] === 'web');
  assert.ok(victim);
  await h.client.delete(podsResource, victim.metadata.name ?? '', { namespace: 'default' });
  await h.until(() => h.pod(victim.metadata.name ?? '') === undefined, 'the victim gone');
  // The replacement runs on the node and becomes Ready.
  await h.until(() => {
    const ready = h.pods().filter((p) => p.metadata.labels?.['app'] === 'web' && p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'));
    return ready.length === 2 && ready.every((p) => p.metadata.name !== victim.metadata.name);
  }, 'two Ready web pods, the victim not among them', 30_000);
  await changes.until(() => web()?.status?.availableReplicas === 2, 30_000, 'web available again');
});
