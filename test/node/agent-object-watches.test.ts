// The agent's watches of the ConfigMaps and Secrets its pods' volumes name: one per object, shared, released
// with the last pod, and stopped for an immutable object.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { configMapsResource } from '../../src/apimachinery/builtin-resources.ts';
import type { ConfigMap } from '../../src/apimachinery/api/index.ts';
import type { KubeClient } from '../../src/client/client.ts';
import { createKubeClient } from '../../src/client/create-client.ts';
import { createLogger } from '../../src/runtime/logger.ts';
import { ObjectWatches } from '../../src/node/agent/volumes/object-watches.ts';
import { startTestServer, type TestServer } from '../helpers/api-server.ts';

let server: TestServer;
let client: KubeClient;
before(async () => {
  server = await startTestServer();
  client = createKubeClient({ kubeconfig: server.kubeconfig });
});
after(async () => {
  await client.close();
  await server.close();
});

const changed = () => {
  let wake = () => undefined as void;
  let count = 0;
  return {
    listener: () => {
      count++;
      wake();
    },
    next: (n: number) => new Promise<void>((resolve) => {
      wake = () => count >= n && resolve();
      wake();
    }),
  };
};

test('one watch per object, shared, scoped to it, released with its last subscriber', async () => {
  const watches = new ObjectWatches(client, createLogger({ level: 'silent' }));
  await client.create<ConfigMap>(configMapsResource, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { k: '1' } }, { namespace: 'default' });
  await client.create<ConfigMap>(configMapsResource, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'other' }, data: { k: 'x' } }, { namespace: 'default' });
  const first = changed();
  const releaseA1 = watches.subscribe('configmap', 'default', 'a', first.listener);
  const releaseA2 = watches.subscribe('configmap', 'default', 'a', () => undefined);
  const releaseB = watches.subscribe('configmap', 'default', 'missing', () => undefined);
  assert.equal(watches.size, 2);
  assert.equal((await watches.get<ConfigMap>('configmap', 'default', 'a'))?.data?.['k'], '1');
  assert.equal(await watches.get('configmap', 'default', 'missing'), undefined);
  await first.next(1);
  await client.patch(configMapsResource, 'a', { data: { k: '2' } }, { namespace: 'default', type: 'merge' });
  await first.next(2);
  assert.equal((await watches.get<ConfigMap>('configmap', 'default', 'a'))?.data?.['k'], '2');
  releaseA1();
  assert.equal(watches.size, 2, 'still held by the second subscriber');
  releaseA2();
  releaseB();
  assert.equal(watches.size, 0);
  await watches.stop();
});

test('an immutable object is read once and not watched further', async () => {
  const watches = new ObjectWatches(client, createLogger({ level: 'silent' }));
  await client.create<ConfigMap>(configMapsResource, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'frozen' }, immutable: true, data: { k: '1' } }, { namespace: 'default' });
  const seen = changed();
  const release = watches.subscribe('configmap', 'default', 'frozen', seen.listener);
  await seen.next(1);
  await client.delete(configMapsResource, 'frozen', { namespace: 'default' });
  await client.create<ConfigMap>(configMapsResource, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'frozen' }, data: { k: '2' } }, { namespace: 'default' });
  // The watch was stopped at the first sight: the cache keeps what it read.
  assert.equal((await watches.get<ConfigMap>('configmap', 'default', 'frozen'))?.data?.['k'], '1');
  release();
  await watches.stop();
});
