// The ServiceAccount admission plugin on pod create, as kube-apiserver's: the default ServiceAccount, Forbidden
// for a missing one, the kube-api-access projected volume mounted in every container unless automount is off.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ChangeWaiter } from '../../helpers/change-waiter.ts';
import { startTestServer, type TestServer } from '../../helpers/api-server.ts';

let server: TestServer;
const changes = new ChangeWaiter(10_000);
const json = { 'content-type': 'application/json' };
const MOUNT = '/var/run/secrets/kubernetes.io/serviceaccount';

before(async () => {
  server = await startTestServer();
  server.store.subscribe(changes.notify);
  await changes.until('default SA', () => server.store.get('/serviceaccounts', 'default', 'default'), Boolean);
});
after(async () => {
  await server.close();
});

type Pod = { spec: { serviceAccountName?: string; volumes?: Record<string, any>[]; containers: { volumeMounts?: Record<string, unknown>[] }[]; initContainers?: { volumeMounts?: Record<string, unknown>[] }[] } };

function create(name: string, spec: Record<string, unknown>, expect = 201) {
  return server.json<Pod>('/api/v1/namespaces/default/pods', { method: 'POST', headers: json, body: JSON.stringify({ metadata: { name }, spec }), expect });
}

test('a pod runs as default and every container mounts the kube-api-access projected volume', async () => {
  const pod = await create('plain', { initContainers: [{ name: 'i', image: 'busybox' }], containers: [{ name: 'a', image: 'busybox' }, { name: 'b', image: 'busybox' }] });
  assert.equal(pod.spec.serviceAccountName, 'default');
  const volume = pod.spec.volumes?.find((v) => String(v['name']).startsWith('kube-api-access-'));
  assert.match(String(volume?.['name']), /^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  assert.deepEqual(volume?.['projected'], {
    defaultMode: 420,
    sources: [
      { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
      { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
      { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
    ],
  });
  for (const container of [...pod.spec.containers, ...(pod.spec.initContainers ?? [])]) {
    assert.deepEqual(container.volumeMounts, [{ name: volume?.['name'], readOnly: true, mountPath: MOUNT }]);
  }
});

test('a missing ServiceAccount is Forbidden in kube-apiserver words', async () => {
  const res = await server.api('/api/v1/namespaces/default/pods', { method: 'POST', headers: json, body: JSON.stringify({ metadata: { name: 'lost' }, spec: { serviceAccountName: 'ghost', containers: [{ name: 'a', image: 'busybox' }] } }) });
  assert.equal(res.status, 403);
  const status = (await res.json()) as { message: string };
  assert.equal(status.message, 'pods "lost" is forbidden: error looking up service account default/ghost: serviceaccount "ghost" not found');
});

test('automountServiceAccountToken false on the pod or its ServiceAccount mounts nothing; the pod wins', async () => {
  assert.equal((await create('off', { automountServiceAccountToken: false, containers: [{ name: 'a', image: 'busybox' }] })).spec.volumes, undefined);
  await server.json('/api/v1/namespaces/default/serviceaccounts', { method: 'POST', headers: json, body: JSON.stringify({ metadata: { name: 'quiet' }, automountServiceAccountToken: false }), expect: 201 });
  assert.equal((await create('quiet', { serviceAccountName: 'quiet', containers: [{ name: 'a', image: 'busybox' }] })).spec.volumes, undefined);
  const overridden = await create('loud', { serviceAccountName: 'quiet', automountServiceAccountToken: true, containers: [{ name: 'a', image: 'busybox' }] });
  assert.equal(overridden.spec.volumes?.length, 1);
});

test('a container that mounts something at the path already keeps it', async () => {
  const pod = await create('own', {
    volumes: [{ name: 'mine', emptyDir: {} }],
    containers: [{ name: 'a', image: 'busybox', volumeMounts: [{ name: 'mine', mountPath: MOUNT }] }],
  });
  assert.deepEqual(pod.spec.volumes?.map((v) => v['name']), ['mine']);
});
