// The scheduler against the embedded API server: two nodes of 2 CPUs, pods with requests spread across them,
// the scheduler's unschedulable message, cordon (kubectl), node selectors and taints, and retry on change.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Informer } from '../../src/runtime/informer/informer.ts';
import { nodesResource, podsResource } from '../../src/apimachinery/builtin-resources.ts';
import type { Node, Pod } from '../../src/apimachinery/api/index.ts';
import { startWorkloads, type WorkloadsHarness } from './harness.ts';

function pod(name: string, cpu: string, spec: Record<string, unknown> = {}): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', labels: { app: 'sched' } },
    spec: { containers: [{ name: 'main', image: 'busybox', resources: { requests: { cpu, memory: '64Mi' } } }], ...spec },
  };
}

describe('scheduler', () => {
  let h: WorkloadsHarness;
  let pods: Informer<Pod>;
  let nodes: Informer<Node>;
  const podNamed = (name: string): Pod | undefined => pods.get(name, 'default');
  const scheduled = (name: string): string | undefined => podNamed(name)?.spec.nodeName;
  const unschedulable = (name: string): string | undefined => {
    const c = podNamed(name)?.status?.conditions?.find((x) => x.type === 'PodScheduled');
    return c?.status === 'False' && c.reason === 'Unschedulable' ? c.message : undefined;
  };
  const create = async (...objects: Pod[]): Promise<void> => {
    for (const o of objects) await h.client.create(podsResource, o);
  };
  const remove = async (...names: string[]): Promise<void> => {
    for (const n of names) await h.client.delete(podsResource, n, { namespace: 'default' });
    await h.until(() => names.every((n) => !podNamed(n)), `${names.join(', ')} deleted`);
  };

  before(async () => {
    // Ties go to the first node, so only the least-allocated score can spread pods.
    h = await startWorkloads({
      workloads: { scheduler: { random: () => 0 } },
      kubelet: { nodes: [{ name: 'node-a', cpu: '2' }, { name: 'node-b', cpu: '2', labels: { disk: 'ssd' } }] },
    });
    pods = h.watch<Pod>(podsResource);
    nodes = h.watch<Node>(nodesResource);
    await Promise.all([pods.waitForSync(), nodes.waitForSync()]);
  });
  after(async () => {
    await h.close();
  });

  test('pods with requests spread over the two nodes (least allocated) and fill them; then Insufficient cpu', async () => {
    await create(pod('s1', '500m'), pod('s2', '500m'), pod('s3', '500m'), pod('s4', '500m'));
    await h.until(() => ['s1', 's2', 's3', 's4'].every(scheduled), 'four pods scheduled');
    const perNode = (n: string) => ['s1', 's2', 's3', 's4'].filter((p) => scheduled(p) === n).length;
    assert.equal(perNode('node-a'), 2);
    assert.equal(perNode('node-b'), 2);
    const s1 = podNamed('s1')!;
    assert.equal(s1.status?.conditions?.find((c) => c.type === 'PodScheduled')?.status, 'True');
    // Events are sent in the background, as client-go's recorder sends them: wait for it.
    await h.until(() => h.events('s1').some((e) => e.reason === 'Scheduled'), 'Scheduled event');
    assert.equal(h.events('s1').find((e) => e.reason === 'Scheduled')?.message, `Successfully assigned default/s1 to ${scheduled('s1') ?? ''}`);
    await create(pod('s5', '1'), pod('s6', '1'), pod('big', '1500m'));
    await h.until(() => Boolean(scheduled('s5') && scheduled('s6') && unschedulable('big')), 's5, s6 placed, big refused');
    assert.notEqual(scheduled('s5'), scheduled('s6'));
    assert.equal(unschedulable('big'), '0/2 nodes are available: 2 Insufficient cpu.');
    await h.until(() => h.events('big').some((e) => e.reason === 'FailedScheduling'), 'FailedScheduling event');
    assert.equal(h.events('big').find((e) => e.reason === 'FailedScheduling')?.type, 'Warning');
    assert.equal(h.events('big').find((e) => e.reason === 'FailedScheduling')?.message, '0/2 nodes are available: 2 Insufficient cpu.');
    // Freeing room is a change the scheduler watches: the pending pod is placed without any poll.
    const node = scheduled('s5')!;
    const all = ['s1', 's2', 's3', 's4', 's5', 's6'];
    const onSameNode = all.filter((p) => scheduled(p) === node);
    await remove(...onSameNode);
    await h.until(() => scheduled('big') === node, 'big scheduled once room was freed');
    await remove(...all.filter((p) => !onSameNode.includes(p)), 'big');
  });

  test('kubectl cordon stops scheduling on a node; the message says so; uncordon lets the pending pod in', async () => {
    const cordon = await h.kubectl(['cordon', 'node-a']);
    assert.equal(cordon.code, 0, cordon.stderr);
    await create(pod('c1', '500m'), pod('c2', '500m'), pod('c3', '500m'));
    await h.until(() => ['c1', 'c2', 'c3'].every(scheduled), 'c pods scheduled');
    assert.deepEqual(['c1', 'c2', 'c3'].map(scheduled), ['node-b', 'node-b', 'node-b']);
    await create(pod('c4', '1'));
    await h.until(() => unschedulable('c4') !== undefined, 'c4 unschedulable');
    assert.equal(unschedulable('c4'), '0/2 nodes are available: 1 Insufficient cpu, 1 node(s) were unschedulable.');
    const uncordon = await h.kubectl(['uncordon', 'node-a']);
    assert.equal(uncordon.code, 0, uncordon.stderr);
    await h.until(() => scheduled('c4') === 'node-a', 'c4 scheduled on node-a after uncordon');
    await remove('c1', 'c2', 'c3', 'c4');
  });

  test('nodeSelector, required node affinity, taints and tolerations', async () => {
    await create(
      pod('ssd', '100m', { nodeSelector: { disk: 'ssd' } }),
      pod('not-b', '100m', {
        affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'NotIn', values: ['node-b'] }] }] } } },
      }),
      pod('nowhere', '100m', { nodeSelector: { disk: 'tape' } }),
    );
    await h.until(() => Boolean(scheduled('ssd') && scheduled('not-b') && unschedulable('nowhere')), 'affinity pods decided');
    assert.equal(scheduled('ssd'), 'node-b');
    assert.equal(scheduled('not-b'), 'node-a');
    assert.equal(unschedulable('nowhere'), "0/2 nodes are available: 2 node(s) didn't match Pod's node affinity/selector.");
    const taint = await h.kubectl(['taint', 'node', 'node-a', 'dedicated=gpu:NoSchedule']);
    assert.equal(taint.code, 0, taint.stderr);
    await create(pod('plain', '100m', { nodeSelector: { 'kubernetes.io/hostname': 'node-a' } }));
    await h.until(() => unschedulable('plain') !== undefined, 'plain refused by the taint');
    assert.equal(unschedulable('plain'), "0/2 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 1 node(s) had untolerated taint {dedicated: gpu}.");
    await create(pod('tolerant', '100m', { nodeSelector: { 'kubernetes.io/hostname': 'node-a' }, tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }] }));
    await h.until(() => scheduled('tolerant') === 'node-a', 'tolerant scheduled on the tainted node');
    const untaint = await h.kubectl(['taint', 'node', 'node-a', 'dedicated=gpu:NoSchedule-']);
    assert.equal(untaint.code, 0, untaint.stderr);
    await h.until(() => scheduled('plain') === 'node-a', 'plain scheduled once the taint is gone');
    await remove('ssd', 'not-b', 'nowhere', 'plain', 'tolerant');
  });

  test('pods naming another scheduler are not bound; a malformed request never reaches the scheduler', async () => {
    await create(pod('other', '100m', { schedulerName: 'my-scheduler' }));
    // kube-apiserver's pod validation refuses the quantity, so the scheduler never sees it.
    await assert.rejects(create(pod('bad', 'lots')), (error: Error & { code?: number }) => {
      assert.equal(error.code, 422);
      assert.match(error.message, /spec\.containers\[0\]\.resources\.requests\[cpu\]: Invalid value: "lots": quantities must match/);
      return true;
    });
    await create(pod('after', '100m'));
    await h.until(() => scheduled('after') !== undefined, 'the scheduler keeps going');
    assert.equal(scheduled('other'), undefined);
    assert.equal(podNamed('other')?.status?.conditions, undefined);
    await remove('other', 'after');
  });

  test('a burst created at once: each decision sees the ones before it, so no node takes more than it has', async () => {
    const names = Array.from({ length: 12 }, (_, i) => `burst-${i}`);
    await Promise.all(names.map((name) => h.client.create(podsResource, pod(name, '500m'))));
    // 4 × 500m fit on each 2-CPU node: 8 bound, 4 refused, in whatever order the creates arrive.
    await h.until(() => names.filter((n) => scheduled(n) !== undefined).length === 8 && names.filter((n) => unschedulable(n) !== undefined).length === 4, '8 bound and 4 unschedulable');
    for (const node of ['node-a', 'node-b']) assert.equal(names.filter((n) => scheduled(n) === node).length, 4, node);
    await remove(...names);
  });

  test('every request the controllers made is covered by the family\'s RBAC rules', () => {
    assert.deepEqual(h.deniedToControllers(), []);
  });
});
