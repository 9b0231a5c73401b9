// The informer cache: one copy per object, indexes that follow updates and deletes, custom indexers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../src/apimachinery/object.ts';
import { builtinIndexers, LABEL_INDEX, NAMESPACE_INDEX, OWNER_INDEX } from '../../src/runtime/informer/indexers.ts';
import { Store, keyOf } from '../../src/runtime/informer/store.ts';

function obj(name: string, namespace: string | undefined, labels?: Record<string, string>, owners: string[] = [], rv = '1'): KubeObject {
  return {
    metadata: {
      name,
      ...(namespace ? { namespace } : {}),
      resourceVersion: rv,
      ...(labels ? { labels } : {}),
      ...(owners.length ? { ownerReferences: owners.map((uid) => ({ apiVersion: 'v1', kind: 'X', name: uid, uid })) } : {}),
    },
  };
}

function put(store: Store, o: KubeObject): void {
  store.set(keyOf(o), o);
}

test('namespace, owner and label indexes follow set and delete', () => {
  const store = new Store(builtinIndexers());
  put(store, obj('a', 'ns1', { app: 'web' }, ['u1']));
  put(store, obj('b', 'ns1', { app: 'db' }, ['u1', 'u2']));
  put(store, obj('c', 'ns2', { app: 'web' }));
  put(store, obj('node1', undefined));

  assert.deepEqual(store.list('ns1').map((o) => o.metadata.name).sort(), ['a', 'b']);
  assert.deepEqual(store.byIndex(NAMESPACE_INDEX, '').map((o) => o.metadata.name), ['node1']);
  assert.deepEqual(store.indexKeys(OWNER_INDEX, 'u1').sort(), ['ns1/a', 'ns1/b']);
  assert.deepEqual(store.indexKeys(OWNER_INDEX, 'u2'), ['ns1/b']);
  assert.deepEqual(store.indexKeys(LABEL_INDEX, 'app=web').sort(), ['ns1/a', 'ns2/c']);

  // Relabel and re-own b: old index entries go away.
  put(store, obj('b', 'ns1', { app: 'web' }, ['u3'], '2'));
  assert.deepEqual(store.indexKeys(LABEL_INDEX, 'app=db'), []);
  assert.deepEqual(store.indexKeys(LABEL_INDEX, 'app=web').sort(), ['ns1/a', 'ns1/b', 'ns2/c']);
  assert.deepEqual(store.indexKeys(OWNER_INDEX, 'u2'), []);
  assert.deepEqual(store.indexKeys(OWNER_INDEX, 'u1'), ['ns1/a']);

  store.delete('ns1/a');
  assert.deepEqual(store.indexKeys(OWNER_INDEX, 'u1'), []);
  assert.deepEqual(store.indexKeys(LABEL_INDEX, 'app=web').sort(), ['ns1/b', 'ns2/c']);
  assert.ok(!store.indexValues(OWNER_INDEX).includes('u1'));
  assert.equal(store.size, 3);
  assert.equal(store.getByName('b', 'ns1')?.metadata.resourceVersion, '2');
});

test('index members are the stored objects themselves, not copies', () => {
  const store = new Store(builtinIndexers());
  const a = obj('a', 'ns', { x: 'y' });
  put(store, a);
  assert.equal(store.byIndex(LABEL_INDEX, 'x=y')[0], a);
  assert.equal(store.list('ns')[0], a);
});

test('custom indexer added later files existing objects', () => {
  const store = new Store();
  put(store, obj('a', 'ns', { tier: 'front' }));
  put(store, obj('b', 'ns', { tier: 'back' }));
  store.addIndexer('tier', (o) => o.metadata.labels?.tier);
  assert.deepEqual(store.indexKeys('tier', 'front'), ['ns/a']);
  put(store, obj('c', 'ns', { tier: 'front' }));
  assert.deepEqual(store.indexKeys('tier', 'front').sort(), ['ns/a', 'ns/c']);
  assert.throws(() => store.addIndexer('tier', () => undefined), /already exists/);
  assert.throws(() => store.byIndex('nope', 'x'), /no index/);
});

test('many members collapse back to a single member', () => {
  const store = new Store(builtinIndexers());
  for (let i = 0; i < 5; i++) put(store, obj(`o${i}`, 'ns', { g: 'same' }));
  for (let i = 1; i < 5; i++) store.delete(`ns/o${i}`);
  assert.deepEqual(store.indexKeys(LABEL_INDEX, 'g=same'), ['ns/o0']);
  store.delete('ns/o0');
  assert.deepEqual(store.indexValues(LABEL_INDEX), []);
});
