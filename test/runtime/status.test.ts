// Conditions (pure) and status updates that converge through conflicts (against the embedded API server).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../src/apimachinery/object.ts';
import { conditionsOf, getCondition, isFalse, isTrue, removeCondition, setCondition, setObjectCondition, type Condition } from '../../src/runtime/conditions.ts';
import { pino } from 'pino';
import { ConflictError } from '../../src/client/errors.ts';
import { Manager } from '../../src/runtime/manager.ts';
import { StatusConflictError, updateStatus } from '../../src/runtime/status.ts';
import { startHarness, widget, widgets, type Harness } from './harness.ts';

test('setCondition moves lastTransitionTime only when the status changes', () => {
  const conditions: Condition[] = [];
  const t0 = new Date('2026-01-01T00:00:00.123Z');
  const t1 = new Date('2026-01-01T00:05:00Z');
  const t2 = new Date('2026-01-01T00:10:00Z');
  assert.equal(setCondition(conditions, { type: 'Ready', status: 'False', reason: 'Pending', message: 'waiting', observedGeneration: 1 }, t0), true);
  assert.equal(conditions[0]!.lastTransitionTime, '2026-01-01T00:00:00Z');
  assert.equal(setCondition(conditions, { type: 'Ready', status: 'False', reason: 'Pending', message: 'waiting', observedGeneration: 1 }, t1), false, 'no change, no write');
  assert.equal(setCondition(conditions, { type: 'Ready', status: 'False', reason: 'Installing', message: 'step 2', observedGeneration: 2 }, t1), true);
  assert.equal(conditions[0]!.lastTransitionTime, '2026-01-01T00:00:00Z', 'same status keeps the transition time');
  assert.equal(conditions[0]!.observedGeneration, 2);
  assert.equal(setCondition(conditions, { type: 'Ready', status: 'True', reason: 'Installed', message: '', observedGeneration: 2 }, t2), true);
  assert.equal(conditions[0]!.lastTransitionTime, '2026-01-01T00:10:00Z');
  assert.equal(isTrue(conditions, 'Ready'), true);
  assert.equal(isFalse(conditions, 'Ready'), false);
  assert.equal(isTrue(conditions, 'Missing'), false);
  assert.equal(getCondition(undefined, 'Ready'), undefined);
  assert.equal(removeCondition(conditions, 'Ready'), true);
  assert.equal(removeCondition(conditions, 'Ready'), false);
});

test('setObjectCondition stamps observedGeneration from the object', () => {
  const obj: KubeObject = { metadata: { name: 'a', generation: 7 } };
  setObjectCondition(obj, { type: 'Ready', status: 'Unknown', reason: 'Starting', message: '' });
  assert.equal(conditionsOf(obj)[0]!.observedGeneration, 7);
  assert.equal((obj.status as { conditions: Condition[] }).conditions.length, 1);
});

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h.close();
});

test('ten writers from one stale read: every status change lands, through conflicts', async () => {
  const stale = await h.client.create(widgets, widget('contended'));
  let conflicts = 0;
  const writers = Array.from({ length: 10 }, (_, i) =>
    updateStatus(h.newClient(), widgets, stale, (draft) => {
      if (draft.metadata.resourceVersion !== stale.metadata.resourceVersion) conflicts++;
      setCondition(conditionsOf(draft), { type: `Writer${i}`, status: 'True', reason: 'Done', message: `writer ${i}` });
    }, { attempts: 20 }),
  );
  await Promise.all(writers);
  const final = await h.client.get(widgets, 'contended', { namespace: 'default' });
  const types = conditionsOf(final).map((c) => c.type).sort();
  assert.deepEqual(types, Array.from({ length: 10 }, (_, i) => `Writer${i}`).sort());
  assert.ok(conflicts >= 1, `writers re-read after conflicts (${conflicts})`);
  assert.deepEqual(final['spec'], {}, 'status writes leave the spec alone');
});

test('no write when mutate changes nothing; a hopeless conflict gives up with StatusConflictError', async () => {
  const obj = await h.client.create(widgets, { ...widget('quiet'), status: {} });
  const same = await updateStatus(h.client, widgets, obj, () => {});
  assert.equal(same.metadata.resourceVersion, obj.metadata.resourceVersion);

  // A mutate that always writes and an object someone else changes on every read: give up after 3.
  let n = 0;
  const rival = h.newClient();
  await assert.rejects(
    updateStatus(h.client, widgets, obj, async (draft) => {
      await rival.patchStatus(widgets, 'quiet', { status: { rival: ++n } }, { type: 'merge', namespace: 'default' });
      draft.status = { ...(draft.status as object), mine: n };
    }, { attempts: 3, backoffMs: 1 }),
    (err) => err instanceof StatusConflictError && err instanceof ConflictError && err.code === 409,
    'a StatusConflictError is a ConflictError: the controller retries it quietly like any conflict',
  );
});

test("mgr.statusWriter with readYourWrites: the cache's older object resolves to the written one", async () => {
  const mgr = new Manager({ client: h.client, logger: pino({ enabled: false }) });
  const writes = mgr.readYourWrites<KubeObject>(widgets);
  const writer = mgr.statusWriter<KubeObject>(widgets, { readYourWrites: writes });
  const cached = await h.client.create(widgets, { ...widget('ryw'), status: {} });
  const stored = await writer.write(cached, (draft) => {
    draft.status = { seen: true };
  });
  assert.notEqual(stored.metadata.resourceVersion, cached.metadata.resourceVersion);
  assert.equal(writes.resolve(cached), stored, 'a reconcile on the stale cached object sees our write');
  const unchanged = await writer.write(stored, () => {});
  assert.equal(unchanged, stored, 'no write, nothing recorded');
});
