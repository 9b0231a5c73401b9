// The Disruption controller with its configurable deadlines short: the expired-disruption GC, the deletion
// timeout that flags a disruption stuck, safeguards at node level; plus node-level targeting, orphaned chaos
// pods, disruptions created together, and the metrics.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { nodesResource, podsResource } from '../../../src/apimachinery/builtin-resources.ts';
import { disruptionsResource } from '../../../src/chaos/api/resources.ts';
import { ConflictError } from '../../../src/client/errors.ts';
import { CHAOS_NS, startHarness, type Harness } from './harness.ts';

let h: Harness;
before(async () => {
  // An RNG that always takes the first candidate: node selection below is deterministic.
  h = await startHarness({ config: { expiredDisruptionGCDelayMs: 1500, disruptionDeletionTimeoutMs: 1500, controllerNodeName: 'node-ctrl' }, rng: () => 0 });
});
after(() => h.close());

const reasons = (ns: string, name: string) => h.events(ns, name).map((e) => `${e.type}/${e.reason}`);

test('node level: Ready nodes matching the selector, never the controller\'s own node; one chaos pod per node, pinned to it', async () => {
  await h.node('node-ctrl', { pool: 'chaos' });
  await h.node('node-x', { pool: 'chaos' });
  await h.node('node-down', { pool: 'chaos' }, false);
  const ns = await h.namespace();
  await h.createDisruption(ns, 'nodes', { level: 'node', count: '100%', selector: { pool: 'chaos' }, cpuPressure: {} });
  const d = await h.untilDisruption(ns, 'nodes', 'one node selected', (x) => x.status?.selectedTargetsCount === 1);
  assert.deepEqual(Object.keys(d.status?.targetInjections ?? {}), ['node-x']);
  assert.equal(d.status?.ignoredTargetsCount, 2);
  const [pod] = await h.until('chaos pod', () => h.chaosPods(ns, 'nodes'), (p) => p.length === 1);
  assert.equal(pod?.spec?.nodeName, 'node-x');
  const args = (pod?.spec?.containers?.[0]?.['args'] as string[] | undefined) ?? [];
  assert.deepEqual(args.slice(args.indexOf('--level'), args.indexOf('--level') + 6), ['--level', 'node', '--target-containers', '', '--target-pod-ip', '']);
  await h.until('Disrupted on the node', () => h.events('default', 'node-x'), (e) => e.some((x) => x.reason === 'Disrupted'));

  // The node going NotReady drops it (dynamic targeting) and its chaos pod goes.
  await h.client.patchStatus(nodesResource, 'node-x', { status: { conditions: [{ type: 'Ready', status: 'False' }] } }, { type: 'merge' });
  await h.untilDisruption(ns, 'nodes', 'node dropped', (x) => x.status?.selectedTargetsCount === 0);
  await h.until('chaos pod gone', () => h.chaosPods(ns, 'nodes'), (p) => p.length === 0);
  await h.client.delete(disruptionsResource, 'nodes', { namespace: ns });
  await h.until('disruption gone', () => h.getDisruption(ns, 'nodes'), (x) => x === undefined);
});

test('expiry with a GC delay: DurationOver, then GCOver and the disruption is deleted and cleaned', async () => {
  const ns = await h.namespace();
  await h.targetPod(ns, 'p', { app: 'gc' });
  await h.createDisruption(ns, 'gc', { selector: { app: 'gc' }, cpuPressure: {}, duration: '2s' });
  const [pod] = await h.until('chaos pod', () => h.chaosPods(ns, 'gc'), (p) => p.length === 1);
  await h.kubelet(pod!, 'ready');
  await h.until('disruption gone', () => h.getDisruption(ns, 'gc'), (x) => x === undefined);
  const r = reasons(ns, 'gc');
  for (const reason of ['Normal/DurationOver', 'Normal/GCOver', 'Normal/Cleaned', 'Normal/Finished']) assert.ok(r.includes(reason), `${reason} in ${r.join()}`);
  assert.equal(h.chaosPods(ns, 'gc').length, 0);
});

test('a deletion whose chaos pods are still there after the deletion timeout is flagged stuck on removal', async () => {
  const ns = await h.namespace();
  // A pod held by a finalizer of someone else stays after the kubelet's final delete.
  await h.targetPod(ns, 'p', { app: 'slow' });
  await h.createDisruption(ns, 'slow', { selector: { app: 'slow' }, cpuPressure: {} });
  const [pod] = await h.until('chaos pod', () => h.chaosPods(ns, 'slow'), (p) => p.length === 1);
  await h.client.patch(podsResource, pod!.metadata.name ?? '', { metadata: { finalizers: ['finalizer.chaos.datadoghq.com/chaos-pod', 'test/hold'] } }, { type: 'merge', namespace: CHAOS_NS });
  await h.client.delete(disruptionsResource, 'slow', { namespace: ns });
  const stuck = await h.untilDisruption(ns, 'slow', 'isStuckOnRemoval after the timeout', (d) => d.status?.isStuckOnRemoval === true);
  assert.equal(stuck.status?.cleanedAt, undefined);
  await h.until('StuckOnRemoval', () => reasons(ns, 'slow'), (r) => r.includes('Warning/StuckOnRemoval'));
  // The gauge reads the controller's cache at scrape time.
  await h.until('stuck gauge', () => h.mgr.metrics.value('chaos_controller_disruptions_stuck_on_removal_current'), (n) => n === 1);
  await h.client.patch(podsResource, pod!.metadata.name ?? '', { metadata: { finalizers: null } }, { type: 'merge', namespace: CHAOS_NS });
  await h.until('disruption gone', () => h.getDisruption(ns, 'slow'), (x) => x === undefined);
});

test('disruptions created together never share a target', async () => {
  const ns = await h.namespace();
  for (const name of ['t1', 't2', 't3']) await h.targetPod(ns, name, { app: 'race' });
  await Promise.all(['r1', 'r2', 'r3'].map((name) => h.createDisruption(ns, name, { selector: { app: 'race' }, cpuPressure: {} })));
  const targets = await h.until(
    'three disjoint targets',
    () => ['r1', 'r2', 'r3'].flatMap((name) => h.chaosPods(ns, name).map((p) => p.metadata.labels?.['chaos.datadoghq.com/target'] ?? '')),
    (t) => t.length === 3,
  );
  assert.deepEqual([...new Set(targets)].sort(), ['t1', 't2', 't3']);
});

test('an orphaned chaos pod (its disruption\'s finalizer removed by hand) goes once its target is gone', async () => {
  const ns = await h.namespace();
  await h.targetPod(ns, 'p', { app: 'orphan' });
  await h.createDisruption(ns, 'orphan', { selector: { app: 'orphan' }, cpuPressure: {} });
  const [pod] = await h.until('chaos pod', () => h.chaosPods(ns, 'orphan'), (p) => p.length === 1);
  await h.untilDisruption(ns, 'orphan', 'finalizer', (d) => (d.metadata.finalizers ?? []).length === 1);
  // Remove the finalizer by hand (what the webhook forbids while chaos pods exist), then delete. The controller
  // adds a missing finalizer back when it sees the disruption, and a delete after that cleans up as usual: the
  // delete is made on the object as patched (a resourceVersion precondition), both again if the controller won.
  for (;;) {
    const patched = await h.client.patch(disruptionsResource, 'orphan', { metadata: { finalizers: null } }, { type: 'merge', namespace: ns });
    const deleted = await h.client.delete(disruptionsResource, 'orphan', { namespace: ns, preconditions: { resourceVersion: patched.metadata.resourceVersion ?? '' } }).then(
      () => true,
      (err: unknown) => {
        if (err instanceof ConflictError) return false;
        throw err;
      },
    );
    if (deleted) break;
  }
  await h.until('disruption gone', () => h.getDisruption(ns, 'orphan'), (x) => x === undefined);
  // Its target still runs: the chaos pod stays (its injector may still have to clean).
  assert.equal(h.chaosPods(ns, 'orphan').length, 1);
  await h.client.delete(podsResource, 'p', { namespace: ns, gracePeriodSeconds: 0 });
  await h.until('orphan removed', () => h.chaosPods(ns, 'orphan'), (p) => p.length === 0);
  assert.ok((await h.mgr.metrics.value('chaos_controller_orphan_found_total')) >= 1);
  void pod;
});

test('metrics: reconciles, chaos pods created, disruptions by namespace', async () => {
  assert.ok((await h.mgr.metrics.value('chaos_controller_reconcile_total')) > 0);
  assert.ok((await h.mgr.metrics.value('chaos_controller_pods_created_total', { status: 'succeed' })) >= 4);
  const text = await h.mgr.metrics.registry.metrics();
  for (const name of ['chaos_controller_inject_duration_seconds', 'chaos_controller_cleanup_duration_seconds', 'chaos_controller_disruptions_gauge', 'chaos_controller_disruptions_count_total', 'chaos_controller_pods_gauge']) {
    assert.ok(text.includes(name), name);
  }
  assert.ok((await h.mgr.metrics.value('chaos_controller_disruptions_count_total', { kind: 'cpu-pressure' })) >= 1);
});
