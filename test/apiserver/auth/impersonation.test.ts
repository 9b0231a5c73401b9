// Impersonation as kube-apiserver's filter: real kubectl --as/--as-group against the server (whose authorizer
// allows the admin everything), and each check's Forbidden with a stand-in authorizer that denies.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Authorizer, RequestAttributes } from '../../../src/apiserver/auth/authorizer.ts';
import { impersonate } from '../../../src/apiserver/auth/impersonation.ts';
import { adminUser } from '../../../src/apiserver/auth/user-info.ts';
import { StatusError } from '../../../src/apimachinery/status-error.ts';
import { startTestServer, type TestServer } from '../../helpers/api-server.ts';
import { kubectlFor, type Kubectl } from '../../helpers/kubectl.ts';

let server: TestServer;
let kubectl: Kubectl;
before(async () => {
  server = await startTestServer();
  kubectl = kubectlFor(server.kubeconfigFile);
});
after(async () => {
  await server.close();
});

test('kubectl --as=jane get pods acts as jane, and whoami names the impersonated user with system:authenticated', async () => {
  // jane holds no binding, so RBAC judges the request as hers.
  const pods = await kubectl(['get', 'pods', '--as=jane']);
  assert.match(pods.stderr, /User "jane" cannot list resource "pods" in API group "" in the namespace "default"/);
  const who = await kubectl(['auth', 'whoami', '--as=jane', '--as-group=dev', '--as-group=ops', '--as-uid=42', '-o', 'json']);
  assert.equal(who.code, 0, who.stderr);
  assert.deepEqual((JSON.parse(who.stdout) as { status: { userInfo: unknown } }).status.userInfo, { username: 'jane', uid: '42', groups: ['dev', 'ops', 'system:authenticated'] });
  const sa = await kubectl(['auth', 'whoami', '--as=system:serviceaccount:team:robot', '-o', 'jsonpath={.status.userInfo.groups}']);
  assert.equal(sa.stdout, '["system:serviceaccounts","system:serviceaccounts:team","system:authenticated"]');
});

test('groups without a user are a 400', async () => {
  const res = await server.api('/api/v1/namespaces/default/configmaps', { headers: { 'impersonate-group': 'system:masters' } });
  assert.equal(res.status, 400);
  assert.match(((await res.json()) as { message: string }).message, /without impersonating a user/);
});

/** Denies every check of `resource` (and records all it was asked). */
function denying(resource: string, asked: RequestAttributes[] = []): Authorizer {
  return {
    authorize: (a) => {
      asked.push(a);
      return { allowed: a.resource !== resource, reason: '' };
    },
  };
}

async function forbiddenBy(resource: string, headers: Record<string, string[]>): Promise<string> {
  try {
    await impersonate(denying(resource), adminUser, headers);
  } catch (error) {
    assert.ok(error instanceof StatusError && error.code === 403);
    return error.message;
  }
  throw new Error('not refused');
}

test('each impersonation is authorized, and a denied one is Forbidden in kube-apiserver words', async () => {
  const all = { 'impersonate-user': ['jane'], 'impersonate-group': ['dev'], 'impersonate-uid': ['42'], 'impersonate-extra-scopes%2Fread': ['a', 'b'] };
  const asked: RequestAttributes[] = [];
  const user = await impersonate(denying('none', asked), adminUser, all);
  assert.deepEqual(user, { username: 'jane', uid: '42', groups: ['dev', 'system:authenticated'], extra: { 'scopes/read': ['a', 'b'] } });
  assert.deepEqual(
    asked.map((a) => [a.verb, a.apiGroup, a.resource, a.subresource, a.name]),
    [
      ['impersonate', '', 'users', '', 'jane'],
      ['impersonate', '', 'groups', '', 'dev'],
      ['impersonate', 'authentication.k8s.io', 'userextras', 'scopes/read', 'a'],
      ['impersonate', 'authentication.k8s.io', 'userextras', 'scopes/read', 'b'],
      ['impersonate', 'authentication.k8s.io', 'uids', '', '42'],
    ],
  );
  assert.equal(await forbiddenBy('users', all), 'users "jane" is forbidden: User "bosun-admin" cannot impersonate resource "users" in API group "" at the cluster scope');
  assert.equal(await forbiddenBy('groups', all), 'groups "dev" is forbidden: User "bosun-admin" cannot impersonate resource "groups" in API group "" at the cluster scope');
  assert.equal(
    await forbiddenBy('uids', all),
    'uids.authentication.k8s.io "42" is forbidden: User "bosun-admin" cannot impersonate resource "uids" in API group "authentication.k8s.io" at the cluster scope',
  );
  assert.equal(
    await forbiddenBy('userextras', all),
    'userextras.authentication.k8s.io "a" is forbidden: User "bosun-admin" cannot impersonate resource "userextras/scopes/read" in API group "authentication.k8s.io" at the cluster scope',
  );
  assert.equal(
    await forbiddenBy('serviceaccounts', { 'impersonate-user': ['system:serviceaccount:team:robot'] }),
    'serviceaccounts "robot" is forbidden: User "bosun-admin" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "team"',
  );
});

test('the anonymous user is impersonated as unauthenticated', async () => {
  const user = await impersonate(denying('none'), adminUser, { 'impersonate-user': ['system:anonymous'] });
  assert.deepEqual(user.groups, ['system:unauthenticated']);
});
