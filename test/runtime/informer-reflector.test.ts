// The reflector alone, fed watcher events by hand: what a relist replaces, what a list that never finished
// leaves behind (nothing), the sync gate, and watch events that change nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../src/apimachinery/object.ts';
import { Reflector } from '../../src/runtime/informer/reflector.ts';
import { Store } from '../../src/runtime/informer/store.ts';

function obj(name: string, rv: string): KubeObject {
  return { metadata: { name, namespace: 'ns', resourceVersion: rv } };
}

function recorded() {
  const changes: string[] = [];
  const store = new Store();
  const reflector = new Reflector(store, {
    added: (o, initial) => changes.push(`add ${o.metadata.name}@${o.metadata.resourceVersion}${initial ? ' (list)' : ''}`),
    updated: (o, n) => changes.push(`update ${n.metadata.name}@${o.metadata.resourceVersion}->${n.metadata.resourceVersion}`),
    deleted: (o, unknown) => changes.push(`delete ${o.metadata.name}@${o.metadata.resourceVersion}${unknown ? ' (relist)' : ''}`),
    synced: () => changes.push('synced'),
  });
  return { reflector, store, changes };
}

function names(store: Store): string[] {
  return [...store.values()].map((o) => `${o.metadata.name}@${o.metadata.resourceVersion}`).sort();
}

test('a list that never finishes changes nothing; the next init starts over', () => {
  const { reflector, store, changes } = recorded();
  reflector.apply({ type: 'init' });
  reflector.apply({ type: 'initApply', object: obj('stale', '1') });
  assert.equal(store.size, 0);
  assert.equal(reflector.hasSynced(), false);

  reflector.apply({ type: 'init' });
  reflector.apply({ type: 'initApply', object: obj('a', '2') });
  assert.deepEqual(changes, []);
  reflector.apply({ type: 'initDone' });
  assert.deepEqual(names(store), ['a@2']);
  assert.deepEqual(changes, ['add a@2 (list)', 'synced']);
  assert.equal(reflector.hasSynced(), true);

  // Once synced, a failed relist still leaves the cache as it was.
  reflector.apply({ type: 'init' });
  reflector.apply({ type: 'initApply', object: obj('b', '3') });
  reflector.apply({ type: 'init' });
  reflector.apply({ type: 'initDone' });
  assert.deepEqual(names(store), []);
  assert.deepEqual(changes.slice(2), ['delete a@2 (relist)']);
});

test('a relist replaces the store: deletes first, then adds, then updates only where the resourceVersion moved', async () => {
  const { reflector, store, changes } = recorded();
  const synced = reflector.waitForSync();
  reflector.apply({ type: 'init' });
  for (const o of [obj('a', '1'), obj('b', '1'), obj('c', '1')]) reflector.apply({ type: 'initApply', object: o });
  reflector.apply({ type: 'initDone' });
  await synced;

  reflector.apply({ type: 'init' });
  for (const o of [obj('a', '1'), obj('c', '5'), obj('d', '6')]) reflector.apply({ type: 'initApply', object: o });
  reflector.apply({ type: 'initDone' });
  assert.deepEqual(names(store), ['a@1', 'c@5', 'd@6']);
  // synced is reported once, after the first list's changes.
  assert.deepEqual(changes, ['add a@1 (list)', 'add b@1 (list)', 'add c@1 (list)', 'synced', 'delete b@1 (relist)', 'update c@1->5', 'add d@6 (list)']);
});

test('watch events: same-RV applies are silent, deletes of unknown objects are dropped', () => {
  const { reflector, store, changes } = recorded();
  reflector.apply({ type: 'init' });
  reflector.apply({ type: 'initDone' });
  reflector.apply({ type: 'apply', object: obj('a', '1') });
  reflector.apply({ type: 'apply', object: obj('a', '1') });
  reflector.apply({ type: 'apply', object: obj('a', '2') });
  reflector.apply({ type: 'delete', object: obj('ghost', '3') });
  reflector.apply({ type: 'delete', object: obj('a', '4') });
  assert.equal(store.size, 0);
  // The delete carries the object the event carried, not the cached one.
  assert.deepEqual(changes, ['synced', 'add a@1', 'update a@1->2', 'delete a@4']);
});
