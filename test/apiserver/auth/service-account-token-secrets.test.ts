// The legacy kubernetes.io/service-account-token Secret, filled by the tokens controller as kube-controller-manager
// fills it: a token that authenticates as the ServiceAccount while the Secret holds it, the CA and the namespace.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ChangeWaiter } from '../../helpers/change-waiter.ts';
import { startTestServer, type TestServer } from '../../helpers/api-server.ts';

let server: TestServer;
const changes = new ChangeWaiter(10_000);
const json = { 'content-type': 'application/json' };
const secrets = '/api/v1/namespaces/default/secrets';
const decode = (b64: string | undefined) => Buffer.from(b64 ?? '', 'base64').toString('utf8');

before(async () => {
  server = await startTestServer();
  server.store.subscribe(changes.notify);
  await server.json('/api/v1/namespaces/default/serviceaccounts', { method: 'POST', headers: json, body: JSON.stringify({ metadata: { name: 'deployer' } }), expect: 201 });
});
after(async () => {
  await server.close();
});

function tokenSecret(name: string, serviceAccount: string) {
  return JSON.stringify({ metadata: { name, annotations: { 'kubernetes.io/service-account.name': serviceAccount } }, type: 'kubernetes.io/service-account-token' });
}

const filled = (name: string) =>
  changes.until(`${name} filled`, () => server.store.get('/secrets', 'default', name)?.object, (s) => Boolean((s?.['data'] as Record<string, string> | undefined)?.['token']));

async function whoami(token: string): Promise<number> {
  const res = await server.api('/apis/authentication.k8s.io/v1/selfsubjectreviews', { method: 'POST', headers: { ...json, authorization: `Bearer ${token}` }, body: JSON.stringify({ kind: 'SelfSubjectReview', apiVersion: 'authentication.k8s.io/v1' }) });
  await res.arrayBuffer();
  return res.status;
}

test('a token Secret gets token, ca.crt, namespace and the uid; its token authenticates while the Secret holds it', async () => {
  await server.json(secrets, { method: 'POST', headers: json, body: tokenSecret('deployer-token', 'deployer'), expect: 201 });
  const secret = await filled('deployer-token');
  const data = secret?.['data'] as Record<string, string>;
  const sa = server.store.get('/serviceaccounts', 'default', 'deployer')!.object;
  assert.equal(secret?.metadata.annotations?.['kubernetes.io/service-account.uid'], sa.metadata.uid);
  assert.equal(decode(data['ca.crt']), server.caCert);
  assert.equal(decode(data['namespace']), 'default');
  const token = decode(data['token']);
  const review = await server.json<{ status: { user: { username: string } } }>('/apis/authentication.k8s.io/v1/tokenreviews', {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ kind: 'TokenReview', apiVersion: 'authentication.k8s.io/v1', spec: { token } }),
    expect: 201,
  });
  assert.equal(review.status.user.username, 'system:serviceaccount:default:deployer');
  await server.json(`${secrets}/deployer-token`, { method: 'DELETE' });
  assert.equal(await whoami(token), 401);
});

test('a token Secret without its ServiceAccount annotation is invalid; one for a missing ServiceAccount is deleted', async () => {
  const res = await server.api(secrets, { method: 'POST', headers: json, body: JSON.stringify({ metadata: { name: 'bare' }, type: 'kubernetes.io/service-account-token' }) });
  assert.equal(res.status, 422);
  assert.match(((await res.json()) as { message: string }).message, /metadata.annotations\[kubernetes.io\/service-account.name\]: Required value/);
  await server.json(secrets, { method: 'POST', headers: json, body: tokenSecret('orphan', 'nobody'), expect: 201 });
  await changes.until('orphan deleted', () => server.store.get('/secrets', 'default', 'orphan'), (s) => s === undefined);
});

test('deleting the ServiceAccount deletes its token Secrets', async () => {
  await server.json('/api/v1/namespaces/default/serviceaccounts', { method: 'POST', headers: json, body: JSON.stringify({ metadata: { name: 'temp' } }), expect: 201 });
  await server.json(secrets, { method: 'POST', headers: json, body: tokenSecret('temp-token', 'temp'), expect: 201 });
  const token = decode(((await filled('temp-token'))?.['data'] as Record<string, string>)['token']);
  assert.equal(await whoami(token), 201);
  await server.json('/api/v1/namespaces/default/serviceaccounts/temp', { method: 'DELETE' });
  await changes.until('temp-token deleted', () => server.store.get('/secrets', 'default', 'temp-token'), (s) => s === undefined);
  assert.equal(await whoami(token), 401);
});
