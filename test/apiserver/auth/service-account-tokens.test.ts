// Bound service account tokens through real kubectl: `kubectl create token` (TokenRequest), the token
// authenticating as the ServiceAccount, expired, forged and orphaned tokens refused with 401, bad requests worded
// as kube-apiserver's.
import assert from 'node:assert/strict';
import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { signJwt } from '../../../src/apiserver/auth/jwt.ts';
import { ChangeWaiter } from '../../helpers/change-waiter.ts';
import { startTestServer, type TestServer } from '../../helpers/api-server.ts';
import { kubectlFor, type Kubectl } from '../../helpers/kubectl.ts';

let server: TestServer;
let kubectl: Kubectl;
let dataDir: string;
const changes = new ChangeWaiter(10_000);
const json = { 'content-type': 'application/json' };

before(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'bosun-sa-tokens-'));
  server = await startTestServer({ dataDir });
  server.store.subscribe(changes.notify);
  kubectl = kubectlFor(server.kubeconfigFile);
  await changes.until('default SA', () => server.store.get('/serviceaccounts', 'default', 'default'), Boolean);
});
after(async () => {
  await server.close();
});

/** A kubeconfig with the server and its CA but no credentials, for `kubectl --token`. */
function anonymousKubeconfig(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'bosun-anon-')), 'kubeconfig');
  writeFileSync(file, server.kubeconfig.replace(/^(\s*)token: .*$/m, '$1{}').replace(/user:\n\s*\{\}/, 'user: {}'));
  return file;
}

async function whoami(token: string): Promise<{ status: number; body: Record<string, any> }> {
  const res = await server.api('/apis/authentication.k8s.io/v1/selfsubjectreviews', {
    method: 'POST',
    headers: { ...json, authorization: `Bearer ${token}` },
    body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

test('kubectl create token default: a JWT in kube-apiserver format that authenticates as the ServiceAccount', async () => {
  const created = await kubectl(['create', 'token', 'default', '--duration=20m', '--audience=https://kubernetes.default.svc.cluster.local', '--audience=vault']);
  assert.equal(created.code, 0, created.stderr);
  const token = created.stdout.trim();
  const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, any>;
  const sa = server.store.get('/serviceaccounts', 'default', 'default')!.object;
  assert.equal(claims['iss'], 'https://kubernetes.default.svc.cluster.local');
  assert.equal(claims['sub'], 'system:serviceaccount:default:default');
  assert.deepEqual(claims['aud'], ['https://kubernetes.default.svc.cluster.local', 'vault']);
  assert.equal(claims['exp'] - claims['iat'], 1200);
  assert.deepEqual(claims['kubernetes.io'], { namespace: 'default', serviceaccount: { name: 'default', uid: sa.metadata.uid } });

  const whoamiResult = await kubectlFor(anonymousKubeconfig())(['auth', 'whoami', '--token', token, '-o', 'json']);
  assert.equal(whoamiResult.code, 0, whoamiResult.stderr);
  const user = (JSON.parse(whoamiResult.stdout) as { status: { userInfo: Record<string, unknown> } }).status.userInfo;
  assert.equal(user['username'], 'system:serviceaccount:default:default');
  assert.equal(user['uid'], sa.metadata.uid);
  assert.deepEqual(user['groups'], ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated']);
  // The ServiceAccount holds no binding: RBAC refuses it in its own name.
  const pods = await server.api('/api/v1/namespaces/default/pods', { headers: { authorization: `Bearer ${token}` } });
  assert.equal(pods.status, 403);
  assert.match(((await pods.json()) as { message: string }).message, /User "system:serviceaccount:default:default" cannot list resource "pods"/);
});

test('the signing key is kept 0600 in the data dir', () => {
  assert.equal(statSync(join(dataDir, 'service-account.key')).mode & 0o777, 0o600);
});

test('an expired, a not-yet-valid, a forged token and one for another audience get 401', async () => {
  const key = createPrivateKey(readFileSync(join(dataDir, 'service-account.key')));
  const sa = server.store.get('/serviceaccounts', 'default', 'default')!.object;
  const now = Math.floor(Date.now() / 1000);
  const claims = (iat: number, exp: number, aud = ['https://kubernetes.default.svc.cluster.local']) => ({
    aud,
    exp,
    iat,
    nbf: iat,
    iss: 'https://kubernetes.default.svc.cluster.local',
    sub: 'system:serviceaccount:default:default',
    'kubernetes.io': { namespace: 'default', serviceaccount: { name: 'default', uid: sa.metadata.uid } },
  });
  assert.equal((await whoami(signJwt(claims(now - 10, now + 600), key))).status, 201, 'a good token is the control');
  const forger = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  for (const [what, token] of [
    ['expired', signJwt(claims(now - 7200, now - 3600), key)],
    ['not yet valid', signJwt(claims(now + 3600, now + 7200), key)],
    ['forged', signJwt(claims(now - 10, now + 600), forger)],
    ['another audience', signJwt(claims(now - 10, now + 600, ['vault']), key)],
  ] as const) {
    const result = await whoami(token);
    assert.equal(result.status, 401, what);
    assert.equal(result.body['reason'], 'Unauthorized', what);
  }
});

test('a token dies with its ServiceAccount, and one bound to a pod with the pod', async () => {
  await server.json('/api/v1/namespaces/default/serviceaccounts', { method: 'POST', headers: json, body: JSON.stringify({ metadata: { name: 'robot' } }), expect: 201 });
  const pod = await server.json('/api/v1/namespaces/default/pods', {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ metadata: { name: 'p1' }, spec: { serviceAccountName: 'robot', containers: [{ name: 'c', image: 'busybox' }] } }),
    expect: 201,
  });
  const request = (boundObjectRef?: unknown) =>
    server.json<{ status: { token: string } }>('/api/v1/namespaces/default/serviceaccounts/robot/token', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { ...(boundObjectRef ? { boundObjectRef } : {}) } }),
      expect: 201,
    });
  const bound = (await request({ kind: 'Pod', apiVersion: 'v1', name: 'p1', uid: pod['metadata'].uid })).status.token;
  const plain = (await request()).status.token;
  const user = (await whoami(bound)).body['status'].userInfo as { extra: Record<string, string[]> };
  assert.deepEqual(user.extra['authentication.kubernetes.io/pod-name'], ['p1']);
  assert.deepEqual(user.extra['authentication.kubernetes.io/pod-uid'], [pod['metadata'].uid]);

  await server.json('/api/v1/namespaces/default/pods/p1?gracePeriodSeconds=0', { method: 'DELETE' });
  await changes.until('p1 gone', () => server.store.get('/pods', 'default', 'p1'), (p) => p === undefined);
  assert.equal((await whoami(bound)).status, 401);
  assert.equal((await whoami(plain)).status, 201);
  await server.json('/api/v1/namespaces/default/serviceaccounts/robot', { method: 'DELETE' });
  assert.equal((await whoami(plain)).status, 401);
});

test('bad token requests: a missing ServiceAccount is 404, a short expiry 422, a pod of another ServiceAccount 400', async () => {
  const missing = await kubectl(['create', 'token', 'nobody']);
  assert.notEqual(missing.code, 0);
  assert.match(missing.stderr, /serviceaccounts "nobody" not found/);
  const short = await kubectl(['create', 'token', 'default', '--duration=5m']);
  assert.notEqual(short.code, 0);
  assert.match(short.stderr, /may not specify a duration less than 10 minutes/);
  await server.json('/api/v1/namespaces/default/pods', {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ metadata: { name: 'p2' }, spec: { serviceAccountName: 'default', containers: [{ name: 'c', image: 'busybox' }] } }),
    expect: 201,
  });
  await server.json('/api/v1/namespaces/default/serviceaccounts', { method: 'POST', headers: json, body: JSON.stringify({ metadata: { name: 'other' } }), expect: 201 });
  const res = await server.api('/api/v1/namespaces/default/serviceaccounts/other/token', {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ spec: { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'p2' } } }),
  });
  assert.equal(res.status, 400);
  assert.match(await res.text(), /cannot bind token for serviceaccount \\"other\\" to pod running with different serviceaccount name/);
});

test('TokenReview: whose a token is, for which audiences; an unknown token is not authenticated', async () => {
  const review = (token: string, audiences?: string[]) =>
    server.json<{ status: { authenticated?: boolean; user: Record<string, unknown>; audiences?: string[] } }>('/apis/authentication.k8s.io/v1/tokenreviews', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token, ...(audiences ? { audiences } : {}) } }),
      expect: 201,
    });
  const token = (await kubectl(['create', 'token', 'default', '--audience=vault'])).stdout.trim();
  const forVault = await review(token, ['vault', 'other']);
  assert.equal(forVault.status.authenticated, true);
  assert.equal(forVault.status.user['username'], 'system:serviceaccount:default:default');
  assert.deepEqual(forVault.status.audiences, ['vault']);
  assert.equal((await review(token)).status.authenticated, undefined, 'not good for the API server');
  const admin = await review(server.token);
  assert.equal(admin.status.user['username'], 'bosun-admin');
  assert.deepEqual(admin.status.audiences, ['https://kubernetes.default.svc.cluster.local']);
  assert.deepEqual((await review('garbage')).status, { user: {} });
  const empty = await server.api('/apis/authentication.k8s.io/v1/tokenreviews', { method: 'POST', headers: json, body: JSON.stringify({ spec: {} }) });
  assert.equal(empty.status, 400);
});
