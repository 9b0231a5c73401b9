// Node failure through the node runtime API, with the node lifecycle controller (2 s grace) watching the
// agent's 1 s Lease: a crash takes the Node NotReady and the pods' processes away without a status write,
// then the agent comes back as after a reboot and restarts its pods; a shutdown stays dark until restarted.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { nodesResource } from '../../src/apimachinery/builtin-resources.ts';
import type { KubeClient } from '../../src/client/client.ts';
import { createKubeClient } from '../../src/client/create-client.ts';
import { NodeRuntimeClient } from '../../src/client/node-runtime/client.ts';
import type { Node } from '../../src/apimachinery/api/index.ts';
import { Informer } from '../../src/runtime/informer/informer.ts';
import { createLogger } from '../../src/runtime/logger.ts';
import { Manager } from '../../src/runtime/manager.ts';
import { registerNodeLifecycleController } from '../../src/workloads/node-lifecycle/controller.ts';
import { Changes } from '../client/wait.ts';
import { isAlive } from './harness.ts';
import { NODE, startPodHarness, type PodHarness } from './pod-harness.ts';
import { containerStatus, isRunning } from './runtime-api-fixture.ts';

let h: PodHarness;
let manager: Manager;
let managerClient: KubeClient;
let nodes: Informer<Node>;
const nodeChanges = new Changes();

before(async () => {
  h = await startPodHarness({ leaseDurationSeconds: 1, leaseRenewIntervalMs: 250, nodeFailureRebootAfterMs: 5000 });
  managerClient = createKubeClient({ kubeconfig: h.server.kubeconfig });
  manager = new Manager({ client: managerClient, logger: createLogger({ level: 'silent' }), gracefulShutdownTimeoutMs: 2000 });
  registerNodeLifecycleController(manager, { gracePeriodMs: 2000 });
  await manager.start();
  nodes = new Informer<Node>({ client: h.client, resource: nodesResource, onError: () => undefined });
  nodes.addEventHandler({ onAdd: nodeChanges.notify, onUpdate: nodeChanges.notify, onDelete: nodeChanges.notify });
  nodes.start();
  await nodes.waitForSync();
});
after(async () => {
  await manager.stop();
  await managerClient.close();
  await nodes.stop();
  await h.close();
});

const ready = () => nodes.get(NODE)?.status?.conditions?.find((c) => c.type === 'Ready')?.status;
const untilNode = (check: () => boolean, what: string) => nodeChanges.until(check, 30_000, what);

async function runningPid(runtime: NodeRuntimeClient, pod: string): Promise<number> {
  await h.until(() => isRunning(containerStatus(h, 'default', pod, 'main')), `${pod} running`, 30_000);
  const pid = (await runtime.container(containerStatus(h, 'default', pod, 'main')?.containerID ?? '')).pid;
  assert.ok(pid !== undefined && (await isAlive(pid)));
  return pid;
}

test('a crash: NotReady, processes gone without a status write, then back Ready with the pod restarted', { timeout: 90_000 }, async () => {
  const runtime = new NodeRuntimeClient(h.agent.runtimeSocketPath);
  await h.create('survivor', { terminationGracePeriodSeconds: 1, containers: [{ name: 'main', image: 'busybox', command: ['sleep', '3600'] }] });
  const pid = await runningPid(runtime, 'survivor');
  await untilNode(() => ready() === 'True', 'node Ready');

  await runtime.nodeFailure({ shutdown: false });
  await untilNode(() => ready() !== undefined && ready() !== 'True', 'node NotReady');
  assert.equal(await isAlive(pid), false, 'the pod\'s process is gone');
  assert.deepEqual(await h.agent.sandbox.listPods(), [], 'no pod processes are left');
  // Nobody told the API server: the pod still reads as running there, as with a crashed kubelet.
  assert.equal(isRunning(containerStatus(h, 'default', 'survivor', 'main')), true);

  await untilNode(() => ready() === 'True', 'node Ready again');
  await h.agent.up;
  await h.until(() => containerStatus(h, 'default', 'survivor', 'main')?.restartCount === 1 && isRunning(containerStatus(h, 'default', 'survivor', 'main')), 'survivor restarted', 30_000);
  const last = containerStatus(h, 'default', 'survivor', 'main')?.lastState;
  assert.ok(last?.terminated);
  assert.equal(last.terminated.exitCode, 137);
  const again = await runningPid(runtime, 'survivor');
  assert.notEqual(again, pid);
});

test('a shutdown stays dark until the agent is started again', { timeout: 90_000 }, async () => {
  const runtime = new NodeRuntimeClient(h.agent.runtimeSocketPath);
  const pid = await runningPid(runtime, 'survivor');
  const restarts = containerStatus(h, 'default', 'survivor', 'main')?.restartCount ?? 0;
  await runtime.nodeFailure({ shutdown: true });
  await untilNode(() => ready() !== undefined && ready() !== 'True', 'node NotReady');
  assert.equal(await isAlive(pid), false);
  // No reboot is pending.
  await h.agent.up;
  assert.notEqual(ready(), 'True');

  await h.agent.stop();
  await h.restartAgent();
  await untilNode(() => ready() === 'True', 'node Ready after the restart');
  await h.until(() => containerStatus(h, 'default', 'survivor', 'main')?.restartCount === restarts + 1 && isRunning(containerStatus(h, 'default', 'survivor', 'main')), 'survivor restarted', 30_000);
});
