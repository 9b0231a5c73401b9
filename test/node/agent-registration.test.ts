// The agent's Node and its heartbeat Lease, against the real embedded API server.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { leasesResource, NODE_LEASE_NAMESPACE, nodesResource } from '../../src/apimachinery/builtin-resources.ts';
import { NodeLease } from '../../src/node/agent/node-lease.ts';
import { registerNode } from '../../src/node/agent/node-registration.ts';
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
