// The node runtime API against a real agent and the embedded API server: a container's main PID and cgroups,
// SIGTERM to that PID restarting the container, the containers watch, the socket env only on privileged pods
// of trusted namespaces, finalizer removal and pod replacement limited to this node's pods.
import assert from 'node:assert/strict';
import { readFile, readlink, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { nodesResource, persistentVolumeClaimsResource, podsResource } from '../../src/apimachinery/builtin-resources.ts';
import { NotFoundError } from '../../src/client/errors.ts';
import { NodeRuntimeClient, NodeRuntimeForbiddenError, NodeRuntimeNotFoundError } from '../../src/client/node-runtime/client.ts';
import { NODE_RUNTIME_SOCKET_ENV, type RuntimePodContainers } from '../../src/client/node-runtime/protocol.ts';
import type { Pod } from '../../src/apimachinery/api/index.ts';
import { updateObject } from '../../src/runtime/conflict-retry.ts';
import { isAlive } from './harness.ts';
import { NODE, startPodHarness, type PodHarness } from './pod-harness.ts';
import { CHAOS_NAMESPACE, cmdline, containerStatus, ensureTrustedNamespace, environ, isRunning, nsPids, procCgroups } from './runtime-api-fixture.ts';

let h: PodHarness;
let runtime: NodeRuntimeClient;
before(async () => {
  h = await startPodHarness();
  runtime = new NodeRuntimeClient(h.agent.runtimeSocketPath);
  await ensureTrustedNamespace(h, CHAOS_NAMESPACE);
});
after(async () => {
  await h.close();
});

const sleeper = (name: string) => ({ name, image: 'busybox', command: ['sleep', '3600'] });

test('the socket is private to root and named after the data dir', async () => {
  assert.match(h.agent.runtimeSocketPath, /^\/run\/bosun\/runtime-[0-9a-f]{12}\.sock$/);
  assert.ok((await stat(h.agent.runtimeSocketPath)).isSocket());
  assert.equal((await stat(join(h.agent.runtimeSocketPath, '..'))).mode & 0o777, 0o700);
});

test('the node: its name and a process in its network namespace, which node-level disruptions enter', async () => {
  const node = await runtime.node();
  assert.equal(node.name, NODE);
  assert.equal(await readlink(`/proc/${node.pid}/ns/net`), await readlink('/proc/self/ns/net'));
});

test('a container: its main process (PID 1 of its namespace) in the cgroups the API names; no socket env unprivileged', { timeout: 30_000 }, async () => {
  await h.create('plain', { containers: [sleeper('main')] });
  await h.until(() => isRunning(containerStatus(h, 'default', 'plain', 'main')), 'plain running');
  const id = containerStatus(h, 'default', 'plain', 'main')?.containerID ?? '';
  assert.match(id, /^bosun:\/\/[0-9a-f]{64}$/);
  const container = await runtime.container(id);
  assert.equal(container.id, id.slice('bosun://'.length));
  assert.deepEqual([container.namespace, container.pod, container.container, container.podUid], ['default', 'plain', 'main', h.pod('plain')?.metadata.uid]);
  assert.equal(container.cgroupVersion, h.agent.sandbox.cgroupLayout.version);
  const pid = container.pid ?? 0;
  assert.ok(pid > 0);
  assert.deepEqual(await cmdline(pid), ['sleep', '3600']);
  assert.equal((await nsPids(pid)).at(-1), 1, 'PID 1 in its own PID namespace');
  assert.ok(!(await environ(pid)).some((v) => v.startsWith(`${NODE_RUNTIME_SOCKET_ENV}=`)), 'an unprivileged pod is not told the socket');
  const own = await procCgroups(pid);
  assert.ok(container.cgroups['cpuset'] === undefined || container.cgroups['cpuset'].startsWith('/'), 'cpuset, when mounted, as an absolute path');
  for (const controller of ['cpu', 'memory', 'pids', ...(container.cgroups['cpuset'] !== undefined ? ['cpuset'] : [])]) {
    const dir = container.cgroups[controller];
    assert.ok(dir !== undefined, `a ${controller} cgroup`);
    assert.ok(dir.endsWith(own.get(controller) ?? '\0'), `${controller}: ${dir} holds ${own.get(controller) ?? '?'}`);
    const procs = (await readFile(join(dir, 'cgroup.procs'), 'utf8')).split('\n').map(Number);
    assert.ok(procs.includes(pid), `${dir}/cgroup.procs lists ${pid}`);
  }
  // The plain GET of the pod's containers, and unknown IDs.
  const listed = await runtime.podContainers('default', 'plain');
  assert.deepEqual(listed.containers, [{ name: 'main', id: container.id, running: true }]);
  await assert.rejects(runtime.container('bosun://0000'), NodeRuntimeNotFoundError);
  await assert.rejects(runtime.podContainers('default', 'no-such-pod'), NodeRuntimeNotFoundError);
});

test('SIGTERM to a privileged container\'s main PID restarts it, and the watch reports the stop and the start', { timeout: 40_000 }, async () => {
  await h.create('chaos', { hostPID: true, containers: [{ ...sleeper('main'), securityContext: { privileged: true } }] }, CHAOS_NAMESPACE);
  await h.until(() => isRunning(containerStatus(h, CHAOS_NAMESPACE, 'chaos', 'main')), 'chaos running');
  const first = await runtime.container(containerStatus(h, CHAOS_NAMESPACE, 'chaos', 'main')?.containerID ?? '');
  const pid = first.pid ?? 0;
  assert.deepEqual(await cmdline(pid), ['sleep', '3600']);
  assert.ok((await environ(pid)).includes(`${NODE_RUNTIME_SOCKET_ENV}=${h.agent.runtimeSocketPath}`), 'a privileged pod of a trusted namespace is told the socket');

  const abort = new AbortController();
  const lines: RuntimePodContainers[] = [];
  const watch = runtime.watchPod(CHAOS_NAMESPACE, 'chaos', abort.signal);
  const next = async () => {
    const result = await watch.next();
    assert.ok(!result.done, 'the watch ended early');
    lines.push(result.value);
    return result.value.containers[0];
  };
  assert.deepEqual(await next(), { name: 'main', id: first.id, running: true }, 'a line at once');

  process.kill(pid, 'SIGTERM');
  assert.deepEqual(await next(), { name: 'main', id: first.id, running: false }, 'a line on the stop');
  const restarted = await next();
  assert.equal(restarted?.running, true, 'a line on the start');
  assert.notEqual(restarted.id, first.id);
  await h.until(() => containerStatus(h, CHAOS_NAMESPACE, 'chaos', 'main')?.restartCount === 1 && isRunning(containerStatus(h, CHAOS_NAMESPACE, 'chaos', 'main')), 'restartCount 1');
  const last = containerStatus(h, CHAOS_NAMESPACE, 'chaos', 'main')?.lastState;
  assert.ok(last?.terminated);
  assert.equal(last.terminated.exitCode, 143);
  assert.equal(await isAlive(pid), false);
  const second = await runtime.container(restarted.id ?? '');
  assert.notEqual(second.pid, pid);
  assert.equal(second.pid !== undefined && (await isAlive(second.pid)), true);

  // The watch ends on abort.
  const pending = watch.next();
  abort.abort();
  assert.deepEqual(await pending, { done: true, value: undefined });
  assert.ok(lines.every((line) => line.podUid === h.pod('chaos', CHAOS_NAMESPACE)?.metadata.uid));
});

test('finalizer removal: this node\'s pods only', { timeout: 30_000 }, async () => {
  const own = await h.client.create<Pod>(
    podsResource,
    { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'finalized', namespace: 'default', finalizers: ['chaos.datadoghq.com/chaos-pod', 'example.com/keep'] }, spec: { nodeName: NODE, containers: [sleeper('main')] } },
    { namespace: 'default' },
  );
  await runtime.removeFinalizer('default', 'finalized', 'chaos.datadoghq.com/chaos-pod');
  const read = await h.client.get<Pod>(podsResource, 'finalized', { namespace: 'default' });
  assert.deepEqual(read.metadata.finalizers, ['example.com/keep']);
  assert.equal(read.metadata.uid, own.metadata.uid);

  await h.client.create<Pod>(
    podsResource,
    { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'elsewhere', namespace: 'default', finalizers: ['chaos.datadoghq.com/chaos-pod'] }, spec: { nodeName: 'another-node', containers: [sleeper('main')] } },
    { namespace: 'default' },
  );
  await assert.rejects(runtime.removeFinalizer('default', 'elsewhere', 'chaos.datadoghq.com/chaos-pod'), NodeRuntimeForbiddenError);
  assert.deepEqual((await h.client.get<Pod>(podsResource, 'elsewhere', { namespace: 'default' })).metadata.finalizers, ['chaos.datadoghq.com/chaos-pod']);
  await assert.rejects(runtime.removeFinalizer('default', 'no-such-pod', 'x'), NodeRuntimeNotFoundError);

  // Let both go: without finalizers, deleted at once (the other node's pod has no agent to wait for).
  for (const name of ['finalized', 'elsewhere']) {
    // The agent writes the status of the pod it runs meanwhile: retry on conflict.
    const pod = await h.client.get<Pod>(podsResource, name, { namespace: 'default' });
    await updateObject(h.client, podsResource, pod, (draft) => void (draft.metadata.finalizers = []));
    await h.client.delete(podsResource, name, { namespace: 'default', gracePeriodSeconds: 0 });
  }
});

async function claim(name: string): Promise<void> {
  await h.client.create(
    persistentVolumeClaimsResource,
    { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name, namespace: 'default' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Mi' } } } },
    { namespace: 'default' },
  );
}

async function claimExists(name: string): Promise<boolean> {
  try {
    await h.client.get(persistentVolumeClaimsResource, name, { namespace: 'default' });
    return true;
  } catch (error) {
    if (error instanceof NotFoundError) return false;
    throw error;
  }
}

async function unschedulable(): Promise<boolean | undefined> {
  return (await h.client.get<{ spec?: { unschedulable?: boolean } } & Pod>(nodesResource, NODE)).spec?.unschedulable;
}

test('pod replacement deletes the pod, and its claims with deleteStorage; the node stays schedulable', { timeout: 40_000 }, async () => {
  await Promise.all([claim('data-kept'), claim('data-dropped')]);
  const withClaim = (name: string, claimName: string) => ({
    terminationGracePeriodSeconds: 1,
    volumes: [{ name: 'data', persistentVolumeClaim: { claimName } }],
    containers: [{ ...sleeper('main'), volumeMounts: [{ name: 'data', mountPath: '/data' }] }],
  });
  const kept = await h.create('keeps-storage', withClaim('keeps-storage', 'data-kept'));
  const dropped = await h.create('drops-storage', withClaim('drops-storage', 'data-dropped'));
  await h.until(() => isRunning(containerStatus(h, 'default', 'keeps-storage', 'main')) && isRunning(containerStatus(h, 'default', 'drops-storage', 'main')), 'both running');

  await runtime.replacePod('default', 'keeps-storage', { deleteStorage: false, force: false, gracePeriodSeconds: 1 });
  await runtime.replacePod('default', 'drops-storage', { deleteStorage: true, force: true });
  await h.until(() => h.pod('keeps-storage') === undefined && h.pod('drops-storage') === undefined, 'both pods deleted', 30_000);
  assert.equal(await claimExists('data-kept'), true);
  assert.equal(await claimExists('data-dropped'), false);
  assert.notEqual(await unschedulable(), true, 'uncordoned again');
  assert.ok(kept.metadata.uid && dropped.metadata.uid);

  // Another node's pod is refused, and a node cordoned by someone else stays cordoned.
  await h.client.create<Pod>(podsResource, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'not-mine', namespace: 'default' }, spec: { nodeName: 'another-node', containers: [sleeper('main')] } }, { namespace: 'default' });
  await assert.rejects(runtime.replacePod('default', 'not-mine', { deleteStorage: false, force: true }), NodeRuntimeForbiddenError);
  await h.client.delete(podsResource, 'not-mine', { namespace: 'default', gracePeriodSeconds: 0 });
  const node = await h.client.get<Pod & { spec?: { unschedulable?: boolean } }>(nodesResource, NODE);
  await h.client.update(nodesResource, { ...node, spec: { ...node.spec, unschedulable: true } });
  await h.create('cordoned-node', { terminationGracePeriodSeconds: 1, containers: [sleeper('main')] });
  await runtime.replacePod('default', 'cordoned-node', { deleteStorage: false, force: true });
  assert.equal(await unschedulable(), true);
  await h.until(() => h.pod('cordoned-node') === undefined, 'cordoned-node deleted');
});
