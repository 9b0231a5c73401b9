// The agent's Node and its heartbeat Lease, against the real embedded API server.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { leasesResource, NODE_LEASE_NAMESPACE, nodesResource } from '../../src/apimachinery/builtin-resources.ts';
import { NodeLease } from '../../src/node/agent/node-lease.ts';
import { registerNode } from '../../src/node/agent/node-registration.ts';
import { prettyName } from '../../src/node/agent/node-info.ts';
import { pressureConditions } from '../../src/node/agent/node-pressure.ts';
import { release } from 'node:os';
import type { Lease, Node } from '../../src/apimachinery/api/index.ts';
import { startHarness, type Harness } from '../runtime/harness.ts';

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h.close();
});

test('the Node is registered Ready with the host capacity and kubelet addresses', async () => {
  await registerNode(h.client, { nodeName: 'agent-a' });
  const node = await h.client.get<Node>(nodesResource, 'agent-a');
  const ready = node.status?.conditions?.find((c) => c.type === 'Ready');
  assert.equal(ready?.status, 'True');
  assert.equal(ready?.reason, 'KubeletReady');
  assert.equal(ready?.message, 'kubelet is posting ready status');
  assert.match(String(node.status?.capacity?.cpu), /^[1-9]\d*$/);
  assert.match(String(node.status?.capacity?.memory), /^\d+Ki$/);
  assert.equal(node.status?.allocatable?.pods, '110');
  assert.deepEqual((node.status?.addresses ?? []).map((a) => a.type), ['InternalIP', 'Hostname']);
  // kubelet's condition list: the three pressures from the host's readings, then Ready.
  assert.deepEqual((node.status?.conditions ?? []).map((c) => c.type), ['MemoryPressure', 'DiskPressure', 'PIDPressure', 'Ready']);
  assert.equal(node.status?.conditions?.find((c) => c.type === 'MemoryPressure')?.reason, 'KubeletHasSufficientMemory');
  assert.equal(node.status?.nodeInfo?.['kernelVersion'], release());
  assert.notEqual(node.status?.nodeInfo?.['osImage'], '');
  assert.match(node.status?.nodeInfo?.['kubeletVersion'] ?? '', /^v1\.\d+\.\d+/);
  // Registering again takes over the existing Node rather than failing.
  await registerNode(h.client, { nodeName: 'agent-a', maxPods: 20 });
  assert.equal((await h.client.get<Node>(nodesResource, 'agent-a')).status?.allocatable?.pods, '20');
});

test('the Lease appears in kube-node-lease and is renewed on the timer', { timeout: 5000 }, async () => {
  const lease = new NodeLease(h.client, { nodeName: 'agent-b', leaseDurationSeconds: 4, renewIntervalMs: 50 });
  const first = await lease.start();
  try {
    assert.equal(first.spec?.holderIdentity, 'agent-b');
    assert.equal(first.spec?.leaseDurationSeconds, 4);
    const stream = await h.client.watch<Lease>(leasesResource, { namespace: NODE_LEASE_NAMESPACE, resourceVersion: first.metadata.resourceVersion, fieldSelector: 'metadata.name=agent-b' });
    try {
      for await (const event of stream) {
        if (event.type === 'MODIFIED' && event.object.spec?.renewTime !== first.spec?.renewTime) break;
      }
    } finally {
      stream.close();
    }
  } finally {
    lease.stop();
  }
});

test('nodeInfo.osImage is os-release PRETTY_NAME, unquoted', () => {
  assert.equal(prettyName('NAME="Debian GNU/Linux"\nPRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\n'), 'Debian GNU/Linux 12 (bookworm)');
  assert.equal(prettyName('ID=x\n'), 'Linux');
});

test('pressure conditions against kubelet\'s default thresholds; an unchanged status keeps its transition time', () => {
  const MI = 1024 * 1024;
  const healthy = { memoryAvailableBytes: 500 * MI, fsAvailableBytes: 50, fsCapacityBytes: 100, maxPids: 1000, runningPids: 100 };
  const first = pressureConditions(healthy, [], 't1');
  assert.deepEqual(first.map((c) => `${c.type}=${c.status}`), ['MemoryPressure=False', 'DiskPressure=False', 'PIDPressure=False']);
  const pressed = pressureConditions({ memoryAvailableBytes: 99 * MI, fsAvailableBytes: 9, fsCapacityBytes: 100, maxPids: 1000, runningPids: 901 }, first, 't2');
  assert.deepEqual(pressed.map((c) => `${c.type}=${c.status}/${c.reason}`), ['MemoryPressure=True/KubeletHasInsufficientMemory', 'DiskPressure=True/KubeletHasDiskPressure', 'PIDPressure=True/KubeletHasInsufficientPID']);
  assert.ok(pressed.every((c) => c.lastTransitionTime === 't2'));
  const again = pressureConditions(healthy, first, 't3');
  assert.ok(again.every((c) => c.lastTransitionTime === 't1' && c.lastHeartbeatTime === 't3'));
});
