// The finalizer helper against a real embedded API server: guarded adds and removes.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../src/apimachinery/object.ts';
import { NotFoundError } from '../../src/client/errors.ts';
import { action } from '../../src/runtime/controller/action.ts';
import { cleanupPending, finalizer, FinalizerError, removeAllFinalizers, removeFinalizerWithRetry } from '../../src/runtime/finalizer.ts';
import { startHarness, widget, widgets, type Harness } from './harness.ts';

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h.close();
});

const ours = 'bosun.dev/test';

function recorder() {
  const calls: string[] = [];
  return {
    calls,
    handlers: {
      apply: async (obj: KubeObject) => {
        calls.push(`apply:${obj.metadata.name}`);
        return action.requeueAfter(60_000);
      },
      cleanup: async (obj: KubeObject) => {
        calls.push(`cleanup:${obj.metadata.name}`);
        return action.awaitChange();
      },
    },
  };
}

async function get(name: string): Promise<KubeObject> {
  return h.client.get(widgets, name, { namespace: 'default' });
}

test('adds the finalizer first, then runs apply; on deletion runs cleanup and removes it', async () => {
  const r = recorder();
  let obj = await h.client.create(widgets, widget('lifecycle'));
  assert.deepEqual(await finalizer(h.client, widgets, ours, obj, r.handlers), action.awaitChange());
  assert.deepEqual(r.calls, [], 'adding the finalizer is the whole reconcile');
  obj = await get('lifecycle');
  assert.deepEqual(obj.metadata.finalizers, [ours]);
  assert.deepEqual(await finalizer(h.client, widgets, ours, obj, r.handlers), action.requeueAfter(60_000));
  assert.deepEqual(r.calls, ['apply:lifecycle']);

  await h.client.delete(widgets, 'lifecycle', { namespace: 'default' });
  obj = await get('lifecycle');
  assert.ok(obj.metadata.deletionTimestamp, 'held by the finalizer');
  assert.deepEqual(await finalizer(h.client, widgets, ours, obj, r.handlers), action.awaitChange());
  assert.deepEqual(r.calls, ['apply:lifecycle', 'cleanup:lifecycle']);
  await assert.rejects(get('lifecycle'), { name: 'NotFoundError' });
});

test('applyAfterAdd: apply runs in the same pass, on the object as stored with the finalizer', async () => {
  const created = await h.client.create(widgets, widget('eager'));
  const seen: KubeObject[] = [];
  const next = await finalizer(h.client, widgets, ours, created, {
    apply: async (obj) => {
      seen.push(obj);
      return action.requeueAfter(60_000);
    },
    cleanup: async () => action.awaitChange(),
  }, { applyAfterAdd: true });
  assert.deepEqual(next, action.requeueAfter(60_000));
  assert.equal(seen.length, 1);
  assert.deepEqual(seen[0]!.metadata.finalizers, [ours]);
  assert.equal(seen[0]!.metadata.resourceVersion, (await get('eager')).metadata.resourceVersion);
});

test('appends to an existing finalizer list without clobbering it', async () => {
  const r = recorder();
  const obj = await h.client.create(widgets, { ...widget('append'), metadata: { name: 'append', namespace: 'default', finalizers: ['other.io/keep'] } });
  await finalizer(h.client, widgets, ours, obj, r.handlers);
  assert.deepEqual((await get('append')).metadata.finalizers, ['other.io/keep', ours]);
  await h.client.patch(widgets, 'append', { metadata: { finalizers: null } }, { type: 'merge', namespace: 'default' });
});

test('two owners adding from the same stale read: the second add is refused, nothing is lost or doubled', async () => {
  const stale = await h.client.create(widgets, widget('race'));
  await finalizer(h.client, widgets, 'a.io/one', stale, recorder().handlers);
  await assert.rejects(finalizer(h.client, widgets, 'b.io/two', stale, recorder().handlers), (err: unknown) => err instanceof FinalizerError && err.kind === 'AddFinalizer');
  assert.deepEqual((await get('race')).metadata.finalizers, ['a.io/one']);
  // The retry reads again and appends.
  await finalizer(h.client, widgets, 'b.io/two', await get('race'), recorder().handlers);
  assert.deepEqual((await get('race')).metadata.finalizers, ['a.io/one', 'b.io/two']);
  await h.client.patch(widgets, 'race', { metadata: { finalizers: null } }, { type: 'merge', namespace: 'default' });
});

test("a stale index never removes another owner's finalizer", async () => {
  await h.client.create(widgets, { ...widget('guarded'), metadata: { name: 'guarded', namespace: 'default', finalizers: ['other.io/a', ours, 'other.io/b'] } });
  await h.client.delete(widgets, 'guarded', { namespace: 'default' });
  const stale = await get('guarded');
  assert.deepEqual(stale.metadata.finalizers, ['other.io/a', ours, 'other.io/b']);

  // Meanwhile owner a finishes: our stale index 1 now holds 'other.io/b'.
  await h.client.patch(widgets, 'guarded', [{ op: 'remove', path: '/metadata/finalizers/0' }], { type: 'json', namespace: 'default' });

  const r = recorder();
  await assert.rejects(finalizer(h.client, widgets, ours, stale, r.handlers), (err: unknown) => err instanceof FinalizerError && err.kind === 'RemoveFinalizer');
  assert.deepEqual((await get('guarded')).metadata.finalizers, [ours, 'other.io/b'], 'nothing was removed');

  // Same index, same name, but the object changed since the read: the resourceVersion test refuses too.
  const fresh = await get('guarded');
  await h.client.patch(widgets, 'guarded', { metadata: { labels: { touched: 'yes' } } }, { type: 'merge', namespace: 'default' });
  await assert.rejects(finalizer(h.client, widgets, ours, fresh, r.handlers), FinalizerError);
  assert.deepEqual((await get('guarded')).metadata.finalizers, [ours, 'other.io/b']);

  // With a fresh read only our entry goes.
  await finalizer(h.client, widgets, ours, await get('guarded'), r.handlers);
  assert.deepEqual((await get('guarded')).metadata.finalizers, ['other.io/b']);
  assert.equal(r.calls.filter((c) => c === 'cleanup:guarded').length, 3, 'cleanup ran on every attempt (it must be idempotent)');
  await h.client.patch(widgets, 'guarded', [{ op: 'remove', path: '/metadata/finalizers/0' }], { type: 'json', namespace: 'default' });
  await assert.rejects(get('guarded'), { name: 'NotFoundError' });
});

test('a failing cleanup keeps the finalizer; a deleted object without ours is left alone', async () => {
  await h.client.create(widgets, { ...widget('stuck'), metadata: { name: 'stuck', namespace: 'default', finalizers: [ours] } });
  await h.client.delete(widgets, 'stuck', { namespace: 'default' });
  const failing = {
    apply: async () => action.awaitChange(),
    cleanup: async () => {
      throw new Error('cloud API down');
    },
  };
  await assert.rejects(finalizer(h.client, widgets, ours, await get('stuck'), failing), /cloud API down/);
  assert.deepEqual((await get('stuck')).metadata.finalizers, [ours]);

  const r = recorder();
  await h.client.create(widgets, { ...widget('theirs'), metadata: { name: 'theirs', namespace: 'default', finalizers: ['other.io/a'] } });
  await h.client.delete(widgets, 'theirs', { namespace: 'default' });
  assert.deepEqual(await finalizer(h.client, widgets, ours, await get('theirs'), r.handlers), action.awaitChange());
  assert.deepEqual(r.calls, []);
  assert.deepEqual((await get('theirs')).metadata.finalizers, ['other.io/a']);
});

test('a cleanup still waiting keeps the finalizer and returns its action; once done the finalizer goes', async () => {
  await h.client.create(widgets, { ...widget('waiting'), metadata: { name: 'waiting', namespace: 'default', finalizers: [ours] } });
  await h.client.delete(widgets, 'waiting', { namespace: 'default' });
  let children = 2;
  const handlers = {
    apply: async () => action.awaitChange(),
    cleanup: async () => (--children > 0 ? cleanupPending(action.requeueAfter(1_000)) : action.awaitChange()),
  };
  assert.deepEqual(await finalizer(h.client, widgets, ours, await get('waiting'), handlers), action.requeueAfter(1_000));
  assert.deepEqual((await get('waiting')).metadata.finalizers, [ours], 'kept while cleanup waits');
  assert.deepEqual(await finalizer(h.client, widgets, ours, await get('waiting'), handlers), action.awaitChange());
  await assert.rejects(get('waiting'), { name: 'NotFoundError' });
});

test('rejects invalid finalizer names and unsaved objects', async () => {
  for (const bad of ['not a name', 'Example.com/x', 'example.com/', '/x', 'a/b/c']) {
    await assert.rejects(finalizer(h.client, widgets, bad, widget('x'), recorder().handlers), (err: unknown) => err instanceof FinalizerError && err.kind === 'InvalidFinalizer', bad);
  }
  await assert.rejects(finalizer(h.client, widgets, ours, widget('x'), recorder().handlers), (err: unknown) => err instanceof FinalizerError && err.kind === 'UnnamedObject');
});

test('the guards: resourceVersion always; the whole array when appending; the entry at the index when removing', async () => {
  const sent: unknown[] = [];
  const recording = { patch: async (_r: unknown, _n: string, body: unknown) => (sent.push(body), {}) } as unknown as Harness['client'];
  const base = { apiVersion: 'test.bosun.dev/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'default', resourceVersion: '42' } };
  await finalizer(recording, widgets, ours, base, recorder().handlers);
  await finalizer(recording, widgets, ours, { ...base, metadata: { ...base.metadata, finalizers: ['x.io/a'] } }, recorder().handlers);
  await finalizer(recording, widgets, ours, { ...base, metadata: { ...base.metadata, finalizers: ['x.io/a', ours], deletionTimestamp: '2026-01-01T00:00:00Z' } }, recorder().handlers);
  assert.deepEqual(sent, [
    [
      { op: 'test', path: '/metadata/resourceVersion', value: '42' },
      { op: 'add', path: '/metadata/finalizers', value: [ours] },
    ],
    [
      { op: 'test', path: '/metadata/resourceVersion', value: '42' },
      { op: 'test', path: '/metadata/finalizers', value: ['x.io/a'] },
      { op: 'add', path: '/metadata/finalizers/-', value: ours },
    ],
    [
      { op: 'test', path: '/metadata/resourceVersion', value: '42' },
      { op: 'test', path: '/metadata/finalizers/1', value: ours },
      { op: 'remove', path: '/metadata/finalizers/1' },
    ],
  ]);
});

test('removeFinalizerWithRetry: a status write in between does not fail it; a list that moved is read again; gone is done', async () => {
  const created = await h.client.create(widgets, { ...widget('busy'), metadata: { ...widget('busy').metadata, finalizers: ['x.io/a', ours, 'x.io/b'] } });
  // The status moves on after our read (the kubelet writing a pod's status): the entry guard still holds.
  await h.client.patchStatus(widgets, 'busy', { status: { beat: 1 } }, { type: 'merge', namespace: 'default' });
  await removeFinalizerWithRetry(h.client, widgets, created, ours);
  assert.deepEqual((await get('busy')).metadata.finalizers, ['x.io/a', 'x.io/b']);

  // Another owner's finalizer goes first, moving ours to another index: the stale read's test fails, the helper
  // reads again and removes ours, and only ours.
  const again = await h.client.patch(widgets, 'busy', { metadata: { finalizers: ['x.io/a', ours, 'x.io/b'] } }, { type: 'merge', namespace: 'default' });
  await h.client.patch(widgets, 'busy', { metadata: { finalizers: [ours, 'x.io/b'] } }, { type: 'merge', namespace: 'default' });
  await removeFinalizerWithRetry(h.client, widgets, again, ours, { backoffMs: 1 });
  assert.deepEqual((await get('busy')).metadata.finalizers, ['x.io/b']);

  await h.client.patch(widgets, 'busy', { metadata: { finalizers: null } }, { type: 'merge', namespace: 'default' });
  await h.client.delete(widgets, 'busy', { namespace: 'default' });
  await removeFinalizerWithRetry(h.client, widgets, again, ours, { backoffMs: 1 });
});

test("removeAllFinalizers: a force-deleted object goes whatever its owners' finalizers; gone is done", async () => {
  const created = await h.client.create(widgets, { ...widget('forced'), metadata: { ...widget('forced').metadata, finalizers: ['x.io/a', ours] } });
  await h.client.delete(widgets, 'forced', { namespace: 'default' });
  assert.ok((await get('forced')).metadata.deletionTimestamp, 'held by its finalizers');
  await removeAllFinalizers(h.client, widgets, created);
  await assert.rejects(get('forced'), NotFoundError);
  await removeAllFinalizers(h.client, widgets, created);
});
