// The controller's routing, outcomes and guarantees, on in-memory sources and a manual clock.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../src/apimachinery/object.ts';
import { action, type Action } from '../../src/runtime/controller/action.ts';
import { Controller, CacheSyncTimeoutError } from '../../src/runtime/controller/controller.ts';
import { byField, byLabel } from '../../src/runtime/controller/handler.ts';
import { annotationChanged, generationChanged, labelChanged, or } from '../../src/runtime/controller/predicate.ts';
import type { ReconcileContext } from '../../src/runtime/controller/reconciler.ts';
import { TerminalError } from '../../src/runtime/controller/terminal-error.ts';
import { RuntimeMetrics } from '../../src/runtime/metrics.ts';
import { FakeClock } from '../../src/runtime/workqueue/fake-clock.ts';
import { FakeSource } from './fake-source.ts';

function widget(name: string, extra: Partial<KubeObject['metadata']> = {}, spec: Record<string, unknown> = {}): KubeObject {
  return { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name, namespace: 'ns', generation: 1, ...extra }, spec };
}

const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

async function until(cond: () => boolean, what: string, ms = 2000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await tick();
  }
}

function recorder(outcome: (obj: KubeObject, ctx: ReconcileContext) => Promise<Action> | Action = () => action.awaitChange()) {
  const calls: string[] = [];
  const ctxs: ReconcileContext[] = [];
  const reconcile = async (obj: KubeObject, ctx: ReconcileContext): Promise<Action> => {
    calls.push(ctx.key);
    ctxs.push(ctx);
    return outcome(obj, ctx);
  };
  return { calls, ctxs, reconcile };
}

test('workers wait for every cache to sync, then reconcile every listed object once', async () => {
  const source = new FakeSource();
  const owned = new FakeSource();
  source.set(widget('a'));
  source.set(widget('b'));
  const r = recorder();
  const c = new Controller({ name: 'widgets', source, kind: { group: 'example.com', kind: 'Widget', namespaced: true }, reconcile: r.reconcile, data: undefined }).owns(owned);
  const started = c.start();
  source.sync();
  await tick();
  await tick();
  assert.equal(c.ready, false);
  assert.equal(c.queue.length, 2, 'keys queue up behind the gate');
  assert.deepEqual(r.calls, [], 'no worker runs while the owned cache is unsynced');
  owned.sync();
  await started;
  assert.equal(c.ready, true);
  await until(() => r.calls.length === 2, 'the listed objects');
  source.set(widget('c'));
  await until(() => r.calls.length === 3, 'a new object');
  assert.deepEqual(r.calls.sort(), ['ns/a', 'ns/b', 'ns/c']);
  await c.stop();
});

test('a shared, already-synced source replays its objects to a new controller', async () => {
  const source = new FakeSource();
  source.set(widget('a'));
  source.set(widget('b'));
  source.sync();
  const r = recorder();
  const c = new Controller({ name: 'widgets', source, reconcile: r.reconcile, data: { hello: 1 } });
  await c.start();
  await until(() => r.calls.length === 2, 'two reconciles');
  assert.deepEqual(r.calls.sort(), ['ns/a', 'ns/b']);
  const ctx = r.ctxs[0]!;
  assert.equal(ctx.controller, 'widgets');
  assert.match(ctx.reconcileID, /^[0-9a-f-]{36}$/);
  assert.notEqual(r.ctxs[0]!.reconcileID, r.ctxs[1]!.reconcileID);
  assert.deepEqual(ctx.data, { hello: 1 });
  await c.stop();
});

test('cache sync timeout fails start()', async () => {
  const c = new Controller({ name: 'never', source: new FakeSource(), reconcile: async () => action.awaitChange(), data: null, cacheSyncTimeoutMs: 20 });
  await assert.rejects(c.start(), CacheSyncTimeoutError);
  await c.stop();
});

test('generationChanged drops status-only updates; annotation/label predicates pass their changes', async () => {
  const source = new FakeSource();
  source.sync();
  const r = recorder();
  const c = new Controller({
    name: 'widgets',
    source,
    reconcile: r.reconcile,
    data: undefined,
    predicates: [or(generationChanged(), annotationChanged('bosun.dev/reconcile'), labelChanged())],
  });
  await c.start();
  source.set(widget('a'));
  await until(() => r.calls.length === 1, 'create');
  source.set({ ...widget('a'), status: { phase: 'Ready' } });
  await tick();
  await tick();
  assert.equal(r.calls.length, 1, 'status-only update is filtered');
  source.set(widget('a', { annotations: { other: 'x' } }));
  await tick();
  assert.equal(r.calls.length, 1, 'an unwatched annotation is filtered');
  source.set(widget('a', { annotations: { other: 'x', 'bosun.dev/reconcile': 'now' } }));
  await until(() => r.calls.length === 2, 'annotation change');
  source.set(widget('a', { annotations: { other: 'x', 'bosun.dev/reconcile': 'now' }, labels: { tier: 'web' } }));
  await until(() => r.calls.length === 3, 'label change');
  source.set(widget('a', { generation: 2, annotations: { other: 'x', 'bosun.dev/reconcile': 'now' }, labels: { tier: 'web' } }));
  await until(() => r.calls.length === 4, 'generation change');
  await c.stop();
});

test('owned objects enqueue their controller owner; mapped objects enqueue what the map names', async () => {
  const widgets = new FakeSource();
  const pods = new FakeSource();
  const configs = new FakeSource();
  for (const s of [widgets, pods, configs]) s.sync();
  widgets.set(widget('owner'));
  widgets.set(widget('by-label'));
  widgets.set(widget('by-field'));
  const r = recorder();
  const c = new Controller({ name: 'widgets', source: widgets, kind: { group: 'example.com', kind: 'Widget', namespaced: true }, reconcile: r.reconcile, data: undefined })
    .owns(pods)
    .watches(configs, byLabel('widget'))
    .watches(configs, byField('spec.widgetRef.name'));
  await c.start();
  await until(() => r.calls.length === 3, 'initial reconciles');
  r.calls.length = 0;

  const ref = { apiVersion: 'example.com/v2', kind: 'Widget', name: 'owner', uid: 'u1' };
  pods.set({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns', ownerReferences: [{ ...ref, controller: true }] } });
  await until(() => r.calls.length === 1, 'owner enqueued');
  assert.deepEqual(r.calls, ['ns/owner']);
  // A non-controller reference, or one to another kind, enqueues nothing.
  pods.set({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'q', namespace: 'ns', ownerReferences: [ref, { ...ref, kind: 'Gadget', controller: true }] } });
  await tick();
  await tick();
  assert.equal(r.calls.length, 1);
  pods.remove('ns/p');
  await until(() => r.calls.length === 2, 'owner enqueued on child delete');

  configs.set({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'ns', labels: { widget: 'by-label' } } });
  await until(() => r.calls.includes('ns/by-label'), 'label map');
  configs.set({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm2', namespace: 'ns' }, spec: { widgetRef: { name: 'by-field' } } });
  await until(() => r.calls.includes('ns/by-field'), 'field map');
  await c.stop();
});

test('delayMs coalesces a burst of owned-object events into one reconcile of the owner', async () => {
  const clock = new FakeClock();
  const widgets = new FakeSource();
  const pods = new FakeSource();
  for (const s of [widgets, pods]) s.sync();
  widgets.set(widget('owner'));
  const r = recorder();
  const c = new Controller({ name: 'coalesce', source: widgets, kind: { group: 'example.com', kind: 'Widget', namespaced: true }, reconcile: r.reconcile, data: undefined, queue: { clock } })
    .owns(pods, { delayMs: 10 });
  await c.start();
  await until(() => r.calls.length === 1, 'initial reconcile');
  const ownerRef = { apiVersion: 'example.com/v1', kind: 'Widget', name: 'owner', uid: 'u1', controller: true };
  for (let i = 0; i < 50; i++) pods.set({ apiVersion: 'v1', kind: 'Pod', metadata: { name: `p${i}`, namespace: 'ns', ownerReferences: [ownerRef] } });
  await tick();
  clock.advance(9);
  await tick();
  assert.equal(r.calls.length, 1, 'nothing before the window closes');
  clock.advance(1);
  await until(() => r.calls.length === 2, 'one reconcile for the burst');
  clock.advance(100);
  await tick();
  await tick();
  assert.deepEqual(r.calls, ['ns/owner', 'ns/owner'], '50 events, one reconcile');
  // The primary's own events are not delayed.
  widgets.set(widget('owner', { generation: 2 }));
  await until(() => r.calls.length === 3, 'primary event at once');
  await c.stop();
});

test('outcomes: requeue backs off, requeueAfter resets it, terminal errors stop, panics are counted', async () => {
  const clock = new FakeClock();
  const metrics = new RuntimeMetrics();
  const source = new FakeSource();
  source.sync();
  let plan: Array<() => Action> = [];
  const r = recorder(() => {
    const next = plan.shift();
    if (!next) return action.awaitChange();
    return next();
  });
  const c = new Controller({
    name: 'outcomes',
    source,
    reconcile: r.reconcile,
    data: undefined,
    metrics: metrics.controller('outcomes'),
    queue: { clock, metrics: metrics.queue('outcomes') },
  });
  metrics.trackQueue('outcomes', c.queue);
  await c.start();

  plan = [
    () => {
      throw new Error('boom');
    },
    () => action.requeue(),
    () => action.requeueAfter(1000),
    () => {
      throw new TerminalError('spec is invalid');
    },
  ];
  source.set(widget('a'));
  await until(() => r.calls.length === 1, 'first run');
  await until(() => c.queue.delayedCount === 1, 'error requeued with backoff');
  assert.equal(c.queue.numRequeues('ns/a'), 1);
  clock.advance(5);
  await until(() => r.calls.length === 2, 'after 5 ms');
  await until(() => c.queue.delayedCount === 1, 'requeue with backoff');
  assert.equal(c.queue.numRequeues('ns/a'), 2);
  clock.advance(9);
  await tick();
  assert.equal(r.calls.length, 2, 'second backoff is 10 ms');
  clock.advance(1);
  await until(() => r.calls.length === 3, 'after 10 ms');
  await until(() => c.queue.delayedCount === 1, 'requeueAfter');
  assert.equal(c.queue.numRequeues('ns/a'), 0, 'requeueAfter forgets the backoff');
  clock.advance(1000);
  await until(() => r.calls.length === 4, 'after 1000 ms');
  await tick();
  assert.equal(c.queue.delayedCount, 0, 'terminal errors are not requeued');
  assert.equal(c.queue.length, 0);

  // A TypeError is a bug: counted as a panic and retried like any error.
  plan = [
    () => {
      const missing: { field?: { x: number } } = {};
      return action.requeueAfter(missing.field!.x);
    },
  ];
  source.set(widget('a', { generation: 2 }));
  await until(() => r.calls.length === 5, 'panic run');
  await until(() => c.queue.delayedCount === 1, 'panic requeued');
  assert.equal(await metrics.value('controller_runtime_reconcile_panics_total', { controller: 'outcomes' }), 1);
  assert.equal(await metrics.value('controller_runtime_reconcile_errors_total', { controller: 'outcomes' }), 3);
  assert.equal(await metrics.value('controller_runtime_terminal_reconcile_errors_total', { controller: 'outcomes' }), 1);
  assert.equal(await metrics.value('controller_runtime_reconcile_total', { controller: 'outcomes', result: 'requeue' }), 1);
  assert.equal(await metrics.value('controller_runtime_reconcile_total', { controller: 'outcomes', result: 'requeue_after' }), 1);
  assert.equal(await metrics.value('controller_runtime_reconcile_total', { controller: 'outcomes', result: 'error' }), 3);
  assert.ok((await metrics.value('workqueue_retries_total', { name: 'outcomes' })) >= 4);
  const text = await metrics.registry.metrics();
  for (const name of [
    'controller_runtime_reconcile_time_seconds_bucket',
    'controller_runtime_active_workers',
    'controller_runtime_max_concurrent_reconciles',
    'workqueue_depth',
    'workqueue_adds_total',
    'workqueue_queue_duration_seconds_bucket',
    'workqueue_work_duration_seconds_bucket',
    'workqueue_unfinished_work_seconds',
    'workqueue_longest_running_processor_seconds',
  ]) {
    assert.ok(text.includes(name), `${name} exported`);
  }
  await c.stop({ drain: false });
});

test('errorPolicy decides after an error; a throwing errorPolicy is recovered', async () => {
  const clock = new FakeClock();
  const source = new FakeSource();
  source.sync();
  const seen: unknown[] = [];
  let policyThrows = false;
  const c = new Controller({
    name: 'policy',
    source,
    data: undefined,
    queue: { clock },
    reconcile: async () => {
      throw new Error('nope');
    },
    errorPolicy: (_obj, err) => {
      seen.push(err);
      if (policyThrows) throw new Error('policy bug');
      return action.requeueAfter(60_000);
    },
  });
  await c.start();
  source.set(widget('a'));
  await until(() => c.queue.delayedCount === 1, 'policy requeueAfter');
  assert.equal(seen.length, 1);
  assert.equal((seen[0] as Error).message, 'nope');
  assert.equal(c.queue.numRequeues('ns/a'), 0);
  policyThrows = true;
  clock.advance(60_000);
  await until(() => seen.length === 2 && c.queue.numRequeues('ns/a') === 1, 'fallback requeue with backoff');
  await c.stop({ drain: false });
});

test('a deleted object is not reconciled: its key is forgotten', async () => {
  const source = new FakeSource();
  source.sync();
  const r = recorder();
  const c = new Controller({ name: 'widgets', source, reconcile: r.reconcile, data: undefined });
  await c.start();
  source.set(widget('a'));
  source.remove('ns/a');
  await tick();
  await tick();
  assert.deepEqual(r.calls, []);
  await c.stop();
});

test('concurrency 4: bursts of events never run one key twice at once and the last state is always seen', async () => {
  const source = new FakeSource();
  source.sync();
  const inFlight = new Set<string>();
  let overlaps = 0;
  let maxParallel = 0;
  const lastSeen = new Map<string, number>();
  const c = new Controller({
    name: 'burst',
    source,
    data: undefined,
    concurrency: 4,
    reconcile: async (obj, ctx) => {
      if (inFlight.has(ctx.key)) overlaps++;
      inFlight.add(ctx.key);
      maxParallel = Math.max(maxParallel, inFlight.size);
      await tick();
      lastSeen.set(ctx.key, (obj.spec as { n: number }).n);
      inFlight.delete(ctx.key);
      return action.awaitChange();
    },
  });
  await c.start();
  for (let n = 1; n <= 200; n++) {
    source.set(widget(`w${n % 8}`, {}, { n }));
    if (n % 10 === 0) await tick();
  }
  await c.stop();
  assert.equal(overlaps, 0);
  assert.ok(maxParallel > 1 && maxParallel <= 4, `ran ${maxParallel} in parallel`);
  // The last write to w<k> was the largest n ≤ 200 with n % 8 === k.
  for (let k = 0; k < 8; k++) assert.equal(lastSeen.get(`ns/w${k}`), 200 - ((200 - k) % 8));
});

test('stop without drain aborts ctx.signal and leaves queued keys', async () => {
  const source = new FakeSource();
  source.sync();
  let release: () => void = () => {};
  let aborted = false;
  const calls: string[] = [];
  const c = new Controller({
    name: 'hard',
    source,
    data: undefined,
    reconcile: async (_obj, ctx) => {
      calls.push(ctx.key);
      await new Promise<void>((r) => {
        release = r;
        ctx.signal.addEventListener('abort', () => {
          aborted = true;
          r();
        });
      });
      return action.awaitChange();
    },
  });
  await c.start();
  source.set(widget('a'));
  source.set(widget('b'));
  await until(() => calls.length === 1, 'first reconcile');
  await c.stop({ drain: false });
  assert.equal(aborted, true);
  assert.deepEqual(calls, ['ns/a']);
  release();
});
