// The node lifecycle controller with a 1 s grace period: a node whose Lease stops being renewed goes
// Ready=Unknown with the unreachable taints and its pods not Ready; a node that comes back loses the taints;
// cordoning adds the unschedulable taint.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Informer } from '../../src/runtime/informer/informer.ts';
import { nodesResource, podsResource } from '../../src/apimachinery/builtin-resources.ts';
import type { Node, Pod } from '../../src/apimachinery/api/index.ts';
import { startWorkloads, type WorkloadsHarness } from './harness.ts';

const graceMs = 1000;

describe('node lifecycle', () => {
  let h: WorkloadsHarness;
  let nodes: Informer<Node>;
  let pods: Informer<Pod>;
  const ready = (name: string) => nodes.get(name)?.status?.conditions?.find((c) => c.type === 'Ready');
  const taints = (name: string): string[] => (nodes.get(name)?.spec?.taints ?? []).map((t) => `${t.key}:${t.effect}`).sort();

  before(async () => {
    h = await startWorkloads({ workloads: { nodeLifecycle: { gracePeriodMs: graceMs } }, kubelet: { nodes: [{ name: 'node-a' }, { name: 'node-b' }] } });
    nodes = h.watch<Node>(nodesResource);
    pods = h.watch<Pod>(podsResource);
    await Promise.all([nodes.waitForSync(), pods.waitForSync()]);
  });
  after(async () => {
    await h.close();
  });

  test('a heartbeating node stays Ready, untainted, past several grace periods', async () => {
    await new Promise((resolve) => setTimeout(resolve, 3 * graceMs));
    assert.equal(ready('node-a')?.status, 'True');
    assert.equal(ready('node-b')?.status, 'True');
    assert.deepEqual(taints('node-a'), []);
  });

  test('a node whose Lease stops goes Unknown, is tainted unreachable, and its pods become not Ready', async () => {
    await h.client.create(podsResource, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'on-b', namespace: 'default' },
      spec: { nodeSelector: { 'kubernetes.io/hostname': 'node-b' }, containers: [{ name: 'c', image: 'busybox' }] },
    });
    await h.until(() => pods.get('on-b', 'default')?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true, 'pod ready on node-b');
    const stoppedAt = Date.now();
    h.kubelet.stopHeartbeat('node-b');
    await h.until(() => ready('node-b')?.status === 'Unknown', 'node-b Unknown', 10_000);
    const elapsed = Date.now() - stoppedAt;
    assert.ok(elapsed >= graceMs - 250, `went Unknown after ${elapsed} ms, before the grace period`);
    assert.equal(ready('node-b')?.reason, 'NodeStatusUnknown');
    assert.equal(ready('node-b')?.message, 'Kubelet stopped posting node status.');
    const table = await h.kubectl(['get', 'node', 'node-b', '--no-headers']);
    assert.match(table.stdout, /^node-b\s+NotReady\s/);
    await h.until(() => taints('node-b').join() === 'node.kubernetes.io/unreachable:NoExecute,node.kubernetes.io/unreachable:NoSchedule', 'unreachable taints');
    assert.ok(nodes.get('node-b')?.spec?.taints?.find((t) => t.effect === 'NoExecute')?.timeAdded);
    await h.until(() => pods.get('on-b', 'default')?.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'False', 'pod not ready');
    await h.until(() => h.events('on-b').some((e) => e.reason === 'NodeNotReady'), 'pod NodeNotReady event');
    assert.equal(h.events('on-b').find((e) => e.reason === 'NodeNotReady')?.message, 'Node is not ready');
    assert.equal(h.events('node-b').find((e) => e.reason === 'NodeNotReady')?.message, 'Node node-b status is now: NodeNotReady');
    assert.equal(ready('node-a')?.status, 'True', 'the other node is unaffected');
    // The scheduler keeps new pods off it.
    await h.client.create(podsResource, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'wants-b', namespace: 'default' },
      spec: { nodeSelector: { 'kubernetes.io/hostname': 'node-b' }, containers: [{ name: 'c', image: 'busybox' }] },
    });
    await h.until(() => pods.get('wants-b', 'default')?.status?.conditions?.some((c) => c.reason === 'Unschedulable') === true, 'wants-b unschedulable');
    assert.equal(
      pods.get('wants-b', 'default')?.status?.conditions?.find((c) => c.type === 'PodScheduled')?.message,
      "0/2 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 1 node(s) had untolerated taint {node.kubernetes.io/unreachable: }.",
    );
  });

  test('a node that heartbeats again and reports Ready loses the taints and takes pods', async () => {
    await h.kubelet.resumeHeartbeat('node-b');
    await h.until(() => ready('node-b')?.status === 'True' && taints('node-b').length === 0, 'node-b back and untainted');
    await h.until(() => pods.get('wants-b', 'default')?.spec.nodeName === 'node-b', 'the pending pod placed on node-b');
  });

  test('kubectl cordon adds node.kubernetes.io/unschedulable:NoSchedule, uncordon removes it', async () => {
    assert.equal((await h.kubectl(['cordon', 'node-a'])).code, 0);
    await h.until(() => taints('node-a').join() === 'node.kubernetes.io/unschedulable:NoSchedule', 'unschedulable taint');
    assert.equal((await h.kubectl(['uncordon', 'node-a'])).code, 0);
    await h.until(() => taints('node-a').length === 0, 'taint removed');
  });

  test('every request the controllers made is covered by the family\'s RBAC rules', () => {
    assert.deepEqual(h.deniedToControllers(), []);
  });
});
