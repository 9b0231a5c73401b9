// ServiceAccounts: served as core/v1, a `default` one and the `kube-root-ca.crt` ConfigMap kept in every namespace
// by the API server itself (kube-controller-manager's serviceaccounts controller and root CA publisher).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ChangeWaiter } from '../../helpers/change-waiter.ts';
import { startTestServer, type TestServer } from '../../helpers/api-server.ts';
import { kubectlFor } from '../../helpers/kubectl.ts';

let server: TestServer;
const changes = new ChangeWaiter(10_000);
const json = { 'content-type': 'application/json' };

before(async () => {
  server = await startTestServer();
  server.store.subscribe(changes.notify);
});
after(async () => {
  await server.close();
});

const stored = (resource: string, ns: string, name: string) => server.store.get(resource, ns, name)?.object;

test('every namespace, seeded or new, gets the default ServiceAccount and the root CA ConfigMap', async () => {
  for (const ns of ['default', 'kube-system']) {
    await changes.until(`default SA in ${ns}`, () => stored('/serviceaccounts', ns, 'default'), Boolean);
  }
  await server.json('/api/v1/namespaces', { method: 'POST', headers: json, body: JSON.stringify({ metadata: { name: 'team-a' } }), expect: 201 });
  await changes.until('default SA in team-a', () => stored('/serviceaccounts', 'team-a', 'default'), Boolean);
  const cm = await changes.until('root CA in team-a', () => stored('/configmaps', 'team-a', 'kube-root-ca.crt'), Boolean);
  assert.deepEqual(cm?.['data'], { 'ca.crt': server.caCert });
});

test('a deleted default ServiceAccount comes back, a changed root CA ConfigMap is put right', async () => {
  const first = await changes.until('default SA', () => stored('/serviceaccounts', 'default', 'default'), Boolean);
  await server.json('/api/v1/namespaces/default/serviceaccounts/default', { method: 'DELETE' });
  const again = await changes.until('default SA again', () => stored('/serviceaccounts', 'default', 'default'), (o) => Boolean(o) && o?.metadata.uid !== first?.metadata.uid);
  assert.ok(again);
  await server.json('/api/v1/namespaces/default/configmaps/kube-root-ca.crt', { method: 'PATCH', headers: { 'content-type': 'application/merge-patch+json' }, body: JSON.stringify({ data: { 'ca.crt': 'forged' } }) });
  await changes.until('root CA restored', () => stored('/configmaps', 'default', 'kube-root-ca.crt'), (o) => (o?.['data'] as Record<string, string>)['ca.crt'] === server.caCert);
});

test('kubectl lists ServiceAccounts by their short name with their columns', async () => {
  const kubectl = kubectlFor(server.kubeconfigFile);
  await changes.until('default SA', () => stored('/serviceaccounts', 'default', 'default'), Boolean);
  const result = await kubectl(['get', 'sa', '-n', 'default']);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /^NAME\s+SECRETS\s+AGE\n/);
  assert.match(result.stdout, /^default\s+0\s+/m);
});
