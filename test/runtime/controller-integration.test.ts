// Controllers on a manager against a real embedded API server over HTTP: bursts of updates, fault
// injection, events, and the metrics/health endpoints.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { eventsResource } from '../../src/apimachinery/builtin-resources.ts';
import type { KubeObject } from '../../src/apimachinery/object.ts';
import { AlreadyExistsError } from '../../src/client/errors.ts';
import { withFaultInjection } from '../../src/client/fault-injection.ts';
import { action } from '../../src/runtime/controller/action.ts';
import { ControllerStateError } from '../../src/runtime/controller/controller.ts';
import { Manager } from '../../src/runtime/manager.ts';
import { updateStatus } from '../../src/runtime/status.ts';
import { configMaps, eventually, startHarness, widget, widgets, type Harness } from './harness.ts';

const quiet = pino({ enabled: false });

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h.close();
});

test('1,000 rapid updates: no reconcile lost, none run twice at once', async () => {
  const ns = 'burst';
  await h.client.create({ apiVersion: 'v1', kind: 'Namespace' }, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  const objects = 10;
  const updatesEach = 100;
  for (let i = 0; i < objects; i++) await h.client.create(widgets, widget(`w${i}`, { n: 0 }, ns));

  const inFlight = new Set<string>();
  let overlaps = 0;
  let runs = 0;
  const lastSeen = new Map<string, number>();
  const mgr = new Manager({ client: h.newClient(), logger: quiet, namespace: ns });
  mgr.controller<KubeObject, null>({
    name: 'burst',
    for: widgets,
    data: null,
    concurrency: 4,
    reconcile: async (obj, ctx) => {
      if (inFlight.has(ctx.key)) overlaps++;
      inFlight.add(ctx.key);
      runs++;
      // Yield so other workers interleave with this one.
      await new Promise((r) => setImmediate(r));
      lastSeen.set(ctx.key, (obj['spec'] as { n: number }).n);
      inFlight.delete(ctx.key);
      return action.awaitChange();
    },
  });
  await mgr.start();
  await eventually(() => lastSeen.size === objects, 'initial reconciles');

  const writer = h.newClient();
  await Promise.all(
    Array.from({ length: objects }, async (_, i) => {
      for (let n = 1; n <= updatesEach; n++) {
        await writer.patch(widgets, `w${i}`, { spec: { n } }, { type: 'merge', namespace: ns });
      }
    }),
  );
  await eventually(() => [...lastSeen.values()].every((n) => n === updatesEach), 'every object reconciled at its last state', 20_000);
  await mgr.stop();
  assert.equal(overlaps, 0, 'one key never ran on two workers');
  assert.ok(runs <= objects + objects * updatesEach, `${runs} reconciles for ${objects * updatesEach} updates`);
  assert.equal(await mgr.metrics.value('controller_runtime_reconcile_total', { controller: 'burst', result: 'success' }), runs);
});

test('a controller converges with 20 % of its requests failing (409, 429, 500, reset, timeout)', async () => {
  const ns = 'faults';
  await h.client.create({ apiVersion: 'v1', kind: 'Namespace' }, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  const count = 20;
  for (let i = 0; i < count; i++) await h.client.create(widgets, widget(`f${i}`, { value: `v${i}` }, ns));

  const faulty = withFaultInjection(h.newClient(), { rate: 0.2, seed: 42 });
  const mgr = new Manager({
    client: faulty,
    logger: quiet,
    namespace: ns,
    // Reconnect quickly after injected watch failures.
    informerDefaults: { backoff: { initialMs: 20, maxMs: 500 } },
  });
  const children = mgr.informer(configMaps);
  mgr
    .controller<KubeObject, null>({
      name: 'copier',
      for: widgets,
      data: null,
      concurrency: 2,
      reconcile: async (w, ctx) => {
        const name = w.metadata.name ?? '';
        const value = String((w['spec'] as { value: string }).value);
        const childName = `${name}-copy`;
        const child = children.store.get(`${ns}/${childName}`);
        if (!child) {
          const desired: KubeObject = {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: {
              name: childName,
              namespace: ns,
              ownerReferences: [{ apiVersion: 'test.bosun.dev/v1', kind: 'Widget', name, uid: w.metadata.uid ?? '', controller: true }],
            },
            data: { value },
          };
          try {
            await faulty.create(configMaps, desired, { signal: ctx.signal });
          } catch (err) {
            // The cache lags our own earlier create (or a lost response): converge through a patch.
            if (!(err instanceof AlreadyExistsError)) throw err;
            await faulty.patch(configMaps, childName, { data: { value } }, { type: 'merge', namespace: ns });
          }
        } else if ((child['data'] as Record<string, string> | undefined)?.['value'] !== value) {
          await faulty.patch(configMaps, childName, { data: { value } }, { type: 'merge', namespace: ns });
        }
        await updateStatus(faulty, widgets, w, (draft) => {
          draft['status'] = { observedValue: value };
        });
        return action.awaitChange();
      },
    })
    .owns(children);
  await mgr.start();

  const converged = async (): Promise<boolean> => {
    const [ws, cms] = await Promise.all([h.client.list(widgets, { namespace: ns }), h.client.list(configMaps, { namespace: ns })]);
    const copies = new Map(cms.items.map((c) => [c.metadata.name, (c['data'] as Record<string, string> | undefined)?.['value']]));
    return ws.items.every((w) => {
      const value = (w['spec'] as { value: string }).value;
      return copies.get(`${w.metadata.name}-copy`) === value && (w['status'] as { observedValue?: string } | undefined)?.observedValue === value;
    });
  };
  await eventually(converged, 'copies and statuses', 60_000);
  // Change everything once more while faults continue.
  for (let i = 0; i < count; i++) await h.client.patch(widgets, `f${i}`, { spec: { value: `second-${i}` } }, { type: 'merge', namespace: ns });
  // Deleting a child is repaired through the owns() watch.
  await h.client.delete(configMaps, 'f0-copy', { namespace: ns });
  await eventually(converged, 'convergence after changes', 60_000);
  const injected = Object.values(faulty.injected).reduce((a, b) => a + b, 0);
  await mgr.stop();
  assert.ok(injected >= 10, `faults were injected (${JSON.stringify(faulty.injected)})`);
  assert.ok((await mgr.metrics.value('controller_runtime_reconcile_errors_total', { controller: 'copier' })) > 0, 'some reconciles failed and were retried');
});

test('a controller added to a running manager starts after its builder chain: owned objects reach it', async () => {
  const ns = 'late';
  await h.client.create({ apiVersion: 'v1', kind: 'Namespace' }, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  const owner = await h.client.create(widgets, widget('owner', {}, ns));
  const child: KubeObject = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'owned', namespace: ns, ownerReferences: [{ apiVersion: 'test.bosun.dev/v1', kind: 'Widget', name: 'owner', uid: owner.metadata.uid ?? '', controller: true }] },
    data: { n: '0' },
  };
  await h.client.create(configMaps, child);
  const mgr = new Manager({ client: h.newClient(), logger: quiet, namespace: ns });
  await mgr.start();
  await eventually(() => mgr.isLeader, 'controllers running');
  let reconciles = 0;
  const controller = mgr
    .controller<KubeObject, null>({
      name: 'late',
      for: widgets,
      data: null,
      reconcile: async () => {
        reconciles++;
        return action.awaitChange();
      },
    })
    .owns(mgr.informer(configMaps));
  await eventually(() => reconciles >= 1, 'the first reconcile');
  const before = reconciles;
  await h.client.patch(configMaps, 'owned', { data: { n: '1' } }, { type: 'merge', namespace: ns });
  await eventually(() => reconciles > before, 'the owner reconciled after its ConfigMap changed');
  assert.throws(() => controller.watches(mgr.informer(configMaps), () => []), ControllerStateError);
  await mgr.stop();
});

test('the event recorder writes core/v1 Events and folds repeats into a count', async () => {
  const obj = await h.client.create(widgets, widget('evented'));
  const mgr = new Manager({ client: h.client, logger: quiet });
  const recorder = mgr.recorder('bosun-test', 'instance-1');
  for (let i = 0; i < 3; i++) await recorder.normal(obj, 'Synced', 'widget synced');
  await recorder.warning(obj, 'Failed', 'could not sync');
  const list = await h.client.list(eventsResource, { namespace: 'default' });
  const mine = list.items.filter((e) => (e['involvedObject'] as { name?: string }).name === 'evented');
  assert.equal(mine.length, 2);
  const synced = mine.find((e) => e['reason'] === 'Synced')!;
  assert.equal(synced['count'], 3);
  assert.equal(synced['type'], 'Normal');
  assert.equal(synced['message'], 'widget synced');
  assert.deepEqual(synced['source'], { component: 'bosun-test', host: 'instance-1' });
  assert.equal(synced['reportingComponent'], 'bosun-test');
  assert.equal(synced['reportingInstance'], 'instance-1');
  assert.deepEqual(synced['involvedObject'], {
    apiVersion: 'test.bosun.dev/v1',
    kind: 'Widget',
    name: 'evented',
    namespace: 'default',
    uid: obj.metadata.uid,
    resourceVersion: obj.metadata.resourceVersion,
  });
  assert.ok(String(synced['lastTimestamp']) >= String(synced['firstTimestamp']));
  assert.equal(mine.find((e) => e['reason'] === 'Failed')!['type'], 'Warning');
});

test('the manager serves /metrics, /healthz and /readyz (ready once caches synced)', async () => {
  const mgr = new Manager({ client: h.newClient(), logger: quiet, metricsServer: { port: 0 } });
  let release: () => void = () => {};
  const gate = new Promise<void>((r) => (release = r));
  mgr.controller<KubeObject, null>({
    name: 'probe',
    for: widgets,
    data: null,
    reconcile: async () => {
      await gate;
      return action.awaitChange();
    },
  });
  await mgr.start();
  const base = `http://127.0.0.1:${mgr.metricsAddress!.port}`;
  assert.equal((await fetch(`${base}/healthz`)).status, 200);
  await eventually(async () => (await fetch(`${base}/readyz`)).status === 200, 'readyz');
  assert.match(await (await fetch(`${base}/readyz`)).text(), /\[\+\]informers-synced ok/);
  const text = await (await fetch(`${base}/metrics`)).text();
  assert.match(text, /controller_runtime_max_concurrent_reconciles\{controller="probe"\} 1/);
  assert.match(text, /controller_runtime_active_workers\{controller="probe"\} 1/);
  assert.match(text, /workqueue_adds_total\{name="probe"\} \d+/);
  assert.match(text, /workqueue_longest_running_processor_seconds\{name="probe"\} [0-9.e-]+/);
  assert.match(text, /process_resident_memory_bytes/);
  assert.equal((await fetch(`${base}/nope`)).status, 404);
  release();
  await mgr.stop();
  await assert.rejects(fetch(`${base}/healthz`));
});
