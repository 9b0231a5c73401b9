// Probes, graceful deletion and activeDeadlineSeconds on a real node agent.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { namespacesResource, podsResource } from '../../src/apimachinery/builtin-resources.ts';
import { TRUSTED_NAMESPACE_LABELS } from '../../src/apimachinery/pod-security-labels.ts';
import { freePort } from '../helpers/bosun-process.ts';
import { waitForLog } from './harness.ts';
import type { Pod } from '../../src/apimachinery/api/index.ts';
import { busybox, NODE, startPodHarness, type PodHarness } from './pod-harness.ts';

let h: PodHarness;
before(async () => {
  h = await startPodHarness();
});
after(async () => {
  await h.close();
});

const phase = (name: string) => h.pod(name)?.status?.phase;
const condition = (name: string, type: string) => h.pod(name)?.status?.conditions?.find((c) => c.type === type)?.status;

test('a readiness exec probe makes the pod Ready once the file appears', { timeout: 20_000 }, async () => {
  await h.create('readiness', {
    containers: [busybox('main', 'sleep 60', { readinessProbe: { exec: { command: ['test', '-f', '/tmp/ready'] }, periodSeconds: 1 } })],
  });
  await h.until(() => phase('readiness') === 'Running', 'readiness Running');
  assert.equal(condition('readiness', 'Ready'), 'False');
  assert.equal(h.container('readiness', 'main')?.ready, false);
  await h.until(() => h.events('readiness').some((e) => e.reason === 'Unhealthy' && e.message?.startsWith('Readiness probe failed')), 'an Unhealthy Event');
  const handle = h.agent.containers.running({ namespace: 'default', pod: 'readiness', container: 'main' });
  assert.ok(handle);
  const touch = await handle.exec(['touch', '/tmp/ready']);
  assert.equal((await touch.exited).exitCode, 0);
  await h.until(() => condition('readiness', 'Ready') === 'True', 'readiness Ready');
  assert.equal(condition('readiness', 'ContainersReady'), 'True');
  assert.equal(h.container('readiness', 'main')?.ready, true);
});

test('a failing liveness probe restarts the container', { timeout: 30_000 }, async () => {
  await h.create('liveness', {
    terminationGracePeriodSeconds: 1,
    containers: [busybox('main', 'sleep 60', { livenessProbe: { exec: { command: ['test', '-f', '/tmp/alive'] }, periodSeconds: 1, failureThreshold: 1 } })],
  });
  await h.until(() => (h.container('liveness', 'main')?.restartCount ?? 0) >= 1, 'liveness restarted', 25_000);
  const main = h.container('liveness', 'main');
  assert.ok(main?.lastState?.terminated);
  assert.equal(main.lastState.terminated.exitCode, 137);
  await h.until(() => h.events('liveness').some((e) => e.reason === 'Killing' && e.message === 'Container main failed liveness probe, will be restarted'), 'a Killing Event');
});

test('a startup probe gates started and readiness', { timeout: 20_000 }, async () => {
  await h.create('startup', {
    containers: [busybox('main', 'sleep 1; touch /tmp/up; sleep 60', { startupProbe: { exec: { command: ['test', '-f', '/tmp/up'] }, periodSeconds: 1, failureThreshold: 10 } })],
  });
  await h.until(() => phase('startup') === 'Running', 'startup Running');
  assert.equal(h.container('startup', 'main')?.started, false);
  await h.until(() => h.container('startup', 'main')?.started === true && condition('startup', 'Ready') === 'True', 'startup started and Ready');
});

test('an httpGet readiness probe on a host-network pod checks 127.0.0.1', { timeout: 20_000 }, async () => {
  const port = await freePort();
  // The host's network is for trusted namespaces only (Pod Security baseline refuses it elsewhere).
  const ns = 'host-network';
  await h.client.create(namespacesResource, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels: TRUSTED_NAMESPACE_LABELS } });
  await h.create('http', {
    hostNetwork: true,
    containers: [busybox('main', `cd /tmp && echo ok > index.html && exec python3 -m http.server ${port} --bind 127.0.0.1`, { readinessProbe: { httpGet: { path: '/index.html', port }, periodSeconds: 1 } })],
  }, ns);
  await h.until(() => h.pod('http', ns)?.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True', 'http Ready');
});

test('deleting a pod sends SIGTERM, waits, and removes the pod', { timeout: 30_000 }, async () => {
  await h.create('graceful', {
    terminationGracePeriodSeconds: 10,
    containers: [busybox('main', "trap 'echo got TERM; sleep 1; exit 0' TERM; echo started; while true; do sleep 0.1; done")],
  });
  await h.until(() => h.container('graceful', 'main')?.state !== undefined && 'running' in (h.container('graceful', 'main')?.state ?? {}), 'graceful running');
  const pod = h.pod('graceful');
  const logPath = h.agent.containers.logPath({ namespace: 'default', pod: 'graceful', container: 'main' }, false) ?? '';
  await waitForLog(logPath, 'started');
  const sawTerm = waitForLog(logPath, 'got TERM', 10_000);
  const began = Date.now();
  await h.client.delete(podsResource, 'graceful', { namespace: 'default' });
  await sawTerm;
  await h.until(() => h.pod('graceful') === undefined, 'graceful gone');
  // The trap ends the container well before the 10 s grace period.
  assert.ok(Date.now() - began < 8000);
  const uid = pod?.metadata.uid ?? '';
  await waitFor(async () => !(await h.agent.sandbox.listPods()).some((p) => p.podUid === uid));
});

test('a pod marked for deletion is stopped, then deleted by the agent with grace 0', { timeout: 30_000 }, async () => {
  // A finalizer keeps the object after DELETE, as kube-apiserver keeps a bound pod for its kubelet.
  const pod = await h.client.create<Pod>(
    podsResource,
    { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'held', namespace: 'default', finalizers: ['test.bosun.dev/hold'] }, spec: { nodeName: NODE, containers: [busybox('main', "trap 'exit 0' TERM; echo trapped; while true; do sleep 0.1; done")] } },
    { namespace: 'default' },
  );
  await h.until(() => phase('held') === 'Running', 'held Running');
  // SIGTERM before the shell set its trap would be ignored (pid 1): wait for the trap.
  await waitForLog(h.agent.containers.logPath({ namespace: 'default', pod: 'held', container: 'main' }, false) ?? '', 'trapped');
  const mark = h.server.mark();
  await h.client.delete(podsResource, 'held', { namespace: 'default' });
  // The agent's DELETE of a pod a finalizer holds changes nothing a watch would see: read the request log.
  const agentDelete = () => h.server.since(mark).some((r) => r.method === 'DELETE' && r.url === '/api/v1/namespaces/default/pods/held?gracePeriodSeconds=0');
  await waitFor(() => Promise.resolve(agentDelete()), 20_000);
  const main = h.container('held', 'main');
  assert.ok(main?.state?.terminated);
  assert.equal(main.state.terminated.exitCode, 0);
  assert.ok(h.events('held').some((e) => e.reason === 'Killing' && e.message === 'Stopping container main'));
  assert.ok(!(await h.agent.sandbox.listPods()).some((p) => p.podUid === pod.metadata.uid));
  await h.client.patch(podsResource, 'held', { metadata: { finalizers: null } }, { type: 'merge', namespace: 'default' });
  await h.until(() => h.pod('held') === undefined, 'held gone');
});

test('activeDeadlineSeconds fails the pod with DeadlineExceeded', { timeout: 20_000 }, async () => {
  await h.create('deadline', { activeDeadlineSeconds: 1, terminationGracePeriodSeconds: 1, containers: [busybox('main', 'sleep 60')] });
  await h.until(() => phase('deadline') === 'Failed', 'deadline Failed');
  const status = h.pod('deadline')?.status;
  assert.equal(status?.reason, 'DeadlineExceeded');
  assert.equal(status?.message, 'Pod was active on the node longer than the specified deadline');
});

/** Re-checks with backoff: the sandbox's cgroups have no change event. */
async function waitFor(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (let delay = 10; !(await check()); delay = Math.min(delay * 2, 500)) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}
