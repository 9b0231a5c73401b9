// RBAC enforced on every request, through real kubectl: a ServiceAccount token may do what its Role allows and is
// Forbidden from the rest; view, edit and admin behave as on kube-apiserver; escalation is refused; can-i tells
// the truth; malformed rules are 422 and a binding to a missing role grants nothing.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { eventually, startTestServer, type TestServer } from '../../helpers/api-server.ts';
import { kubectlFor, type Kubectl } from '../../helpers/kubectl.ts';

let server: TestServer;
let kubectl: Kubectl;

before(async () => {
  server = await startTestServer();
  kubectl = kubectlFor(server.kubeconfigFile);
  for (const ns of ['team-a', 'team-b']) assert.equal((await kubectl(['create', 'namespace', ns])).code, 0);
});
after(async () => {
  await server.close();
});

async function ok(args: string[], input?: string): Promise<string> {
  const result = await kubectl(args, input);
  assert.equal(result.code, 0, `kubectl ${args.join(' ')}: ${result.stderr}`);
  return result.stdout;
}

async function refused(args: string[], input?: string): Promise<string> {
  const result = await kubectl(args, input);
  assert.notEqual(result.code, 0, `kubectl ${args.join(' ')} should have failed: ${result.stdout}`);
  return result.stderr;
}

/** A kubeconfig acting with `token` instead of the administrator's. */
function kubectlWithToken(token: string): Kubectl {
  const file = join(mkdtempSync(join(tmpdir(), 'bosun-rbac-')), 'kubeconfig');
  writeFileSync(file, server.kubeconfig.replace(/^(\s*)token: .*$/m, `$1token: ${token}`));
  return kubectlFor(file);
}

test("a ServiceAccount's token lists what its Role allows and is Forbidden from the rest", async () => {
  await ok(['-n', 'team-a', 'create', 'serviceaccount', 'reader']);
  await ok(['-n', 'team-a', 'create', 'role', 'pod-reader', '--verb=get,list,watch', '--resource=pods']);
  await ok(['-n', 'team-a', 'create', 'rolebinding', 'reader-pods', '--role=pod-reader', '--serviceaccount=team-a:reader']);
  const token = (await ok(['-n', 'team-a', 'create', 'token', 'reader'])).trim();
  const asReader = kubectlWithToken(token);
  const pods = await asReader(['-n', 'team-a', 'get', 'pods']);
  assert.equal(pods.code, 0, pods.stderr);
  const secrets = await asReader(['-n', 'team-a', 'get', 'secrets']);
  assert.notEqual(secrets.code, 0);
  assert.match(secrets.stderr, /secrets is forbidden: User "system:serviceaccount:team-a:reader" cannot list resource "secrets" in API group "" in the namespace "team-a"/);
  const elsewhere = await asReader(['-n', 'team-b', 'get', 'pods']);
  assert.match(elsewhere.stderr, /cannot list resource "pods" in API group "" in the namespace "team-b"/);
  const whoami = await asReader(['auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username}']);
  assert.equal(whoami.stdout, 'system:serviceaccount:team-a:reader', whoami.stderr);
});

test('kubectl auth can-i --list --as a ServiceAccount matches its bindings', async () => {
  await ok(['-n', 'team-a', 'create', 'serviceaccount', 'lister']);
  await ok(['-n', 'team-a', 'create', 'role', 'cm-writer', '--verb=create,delete', '--resource=configmaps', '--resource-name=settings']);
  await ok(['-n', 'team-a', 'create', 'rolebinding', 'lister-cm', '--role=cm-writer', '--serviceaccount=team-a:lister']);
  const list = await ok(['auth', 'can-i', '--list', '--as=system:serviceaccount:team-a:lister', '-n', 'team-a']);
  assert.match(list, /^configmaps\s+\[\]\s+\[settings\]\s+\[create delete\]$/m);
  assert.match(list, /selfsubjectaccessreviews\.authorization\.k8s\.io\s+\[\]\s+\[\]\s+\[create\]/);
  assert.doesNotMatch(list, /^pods/m);
  assert.equal((await ok(['auth', 'can-i', 'create', 'configmaps/settings', '--as=system:serviceaccount:team-a:lister', '-n', 'team-a'])).trim(), 'yes');
  const other = await kubectl(['auth', 'can-i', 'create', 'configmaps/other', '--as=system:serviceaccount:team-a:lister', '-n', 'team-a']);
  assert.equal(other.stdout.trim(), 'no');
  const elsewhere = await kubectl(['auth', 'can-i', 'create', 'configmaps/settings', '--as=system:serviceaccount:team-a:lister', '-n', 'team-b']);
  assert.equal(elsewhere.stdout.trim(), 'no');
});

test('a view user cannot read Secrets or write', async () => {
  await ok(['create', 'clusterrolebinding', 'viewer', '--clusterrole=view', '--user=vera']);
  // view is aggregated from system:aggregate-to-view by the aggregation controller.
  await eventually(async () => (await kubectl(['auth', 'can-i', 'list', 'pods', '--as=vera', '-n', 'team-a'])).stdout.trim() === 'yes', 10_000, 'view aggregated');
  await ok(['get', 'deployments', '-A', '--as=vera']);
  assert.match(await refused(['-n', 'team-a', 'get', 'secrets', '--as=vera']), /User "vera" cannot list resource "secrets"/);
  assert.match(await refused(['-n', 'team-a', 'create', 'configmap', 'x', '--as=vera']), /User "vera" cannot create resource "configmaps" in API group "" in the namespace "team-a"/);
});

test('a namespaced edit binding does not leak to other namespaces', async () => {
  await ok(['-n', 'team-a', 'create', 'rolebinding', 'editor', '--clusterrole=edit', '--user=ed']);
  await eventually(async () => (await kubectl(['auth', 'can-i', 'create', 'secrets', '--as=ed', '-n', 'team-a'])).stdout.trim() === 'yes', 10_000, 'edit aggregated');
  await ok(['-n', 'team-a', 'create', 'configmap', 'by-ed', '--as=ed']);
  assert.match(await refused(['-n', 'team-b', 'create', 'configmap', 'by-ed', '--as=ed']), /User "ed" cannot create resource "configmaps" in API group "" in the namespace "team-b"/);
  assert.match(await refused(['get', 'namespaces', '--as=ed']), /cannot list resource "namespaces" in API group "" at the cluster scope/);
  // edit grants no RBAC writes.
  assert.match(await refused(['-n', 'team-a', 'create', 'rolebinding', 'x', '--clusterrole=view', '--user=ed', '--as=ed']), /cannot create resource "rolebindings"/);
});

test('a RoleBinding to a role with more than its creator holds is refused', async () => {
  await ok(['-n', 'team-a', 'create', 'rolebinding', 'owner', '--clusterrole=admin', '--user=ada']);
  await eventually(async () => (await kubectl(['auth', 'can-i', 'create', 'rolebindings', '--as=ada', '-n', 'team-a'])).stdout.trim() === 'yes', 10_000, 'admin aggregated');
  const escalation = await refused(['-n', 'team-a', 'create', 'rolebinding', 'grab', '--clusterrole=cluster-admin', '--user=ada', '--as=ada']);
  assert.match(escalation, /rolebindings\.rbac\.authorization\.k8s\.io "grab" is forbidden: user "ada" \(groups=\["system:authenticated"\]\) is attempting to grant RBAC permissions not currently held:/);
  assert.match(escalation, /\{APIGroups:\["\*"\], Resources:\["\*"\], Verbs:\["\*"\]\}/);
  const role = await refused(['-n', 'team-a', 'create', 'role', 'nodes', '--verb=get', '--resource=nodes', '--as=ada']);
  assert.match(role, /is attempting to grant RBAC permissions not currently held:\n\{APIGroups:\[""\], Resources:\["nodes"\], Verbs:\["get"\]\}/);
  // What ada holds she may pass on.
  await eventually(async () => (await kubectl(['auth', 'can-i', 'update', 'deployments.apps', '--as=ada', '-n', 'team-a'])).stdout.trim() === 'yes', 10_000, 'admin holds edit');
  await ok(['-n', 'team-a', 'create', 'rolebinding', 'pass-on', '--clusterrole=edit', '--user=eve', '--as=ada']);
  // The binding's roleRef never changes.
  const patched = await refused(['-n', 'team-a', 'patch', 'rolebinding', 'pass-on', '--type=merge', '-p', '{"roleRef":{"name":"view"}}']);
  assert.match(patched, /roleRef: Invalid value: .*cannot change roleRef/);
});

test('malformed rules are 422 with the field named', async () => {
  const noVerbs = await refused(['create', '-f', '-', '--validate=false'], JSON.stringify({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'bad', namespace: 'team-a' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: [] }] }));
  assert.match(noVerbs, /The Role "bad" is invalid: rules\[0\]\.verbs: Required value: verbs must contain at least one value/);
  const urls = await refused(['create', '-f', '-', '--validate=false'], JSON.stringify({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'bad', namespace: 'team-a' }, rules: [{ nonResourceURLs: ['/metrics'], verbs: ['get'] }] }));
  assert.match(urls, /rules\[0\]\.nonResourceURLs: Invalid value: .*namespaced rules cannot apply to non-resource URLs/);
  const res = await server.api('/apis/rbac.authorization.k8s.io/v1/clusterroles', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ metadata: { name: 'bad' }, rules: [{ verbs: ['get'] }] }),
  });
  assert.equal(res.status, 422);
  const status = (await res.json()) as { message: string };
  assert.match(status.message, /rules\[0\]\.apiGroups: Required value: resource rules must supply at least one api group/);
});

test('a binding to a missing role is allowed and grants nothing', async () => {
  await ok(['-n', 'team-b', 'create', 'rolebinding', 'ghost', '--role=missing', '--user=gus']);
  const denied = await refused(['-n', 'team-b', 'get', 'pods', '--as=gus']);
  assert.match(denied, /User "gus" cannot list resource "pods" in API group "" in the namespace "team-b": RBAC: role\.rbac\.authorization\.k8s\.io "missing" not found/);
});

test('the administrator is system:masters and discovery is open to every authenticated user', async () => {
  const whoami = await ok(['auth', 'whoami', '-o', 'json']);
  assert.ok((JSON.parse(whoami) as { status: { userInfo: { groups: string[] } } }).status.userInfo.groups.includes('system:masters'));
  assert.equal((await ok(['auth', 'can-i', '*', '*'])).trim(), 'yes');
  await ok(['api-resources', '--as=nobody']);
  await ok(['version', '--as=nobody']);
});

test('a ClusterRole labelled aggregate-to-view extends view, and leaves it when the label goes', async () => {
  await ok(['create', 'clusterrolebinding', 'lease-viewer', '--clusterrole=view', '--user=wendy']);
  const role = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'leases-view', labels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } }, rules: [{ apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['get', 'list'] }] };
  await ok(['apply', '-f', '-'], JSON.stringify(role));
  const canList = async () => (await kubectl(['auth', 'can-i', 'list', 'leases.coordination.k8s.io', '--as=wendy', '-n', 'team-a'])).stdout.trim();
  await eventually(async () => (await canList()) === 'yes', 10_000, 'leases aggregated into view');
  // edit and admin take view's rules too (view is labelled aggregate-to-edit, edit aggregate-to-admin).
  const holdsLeaseRule = async (name: string) =>
    (JSON.parse(await ok(['get', 'clusterrole', name, '-o', 'json'])) as { rules: { resources?: string[]; verbs: string[] }[] }).rules.some(
      (r) => r.resources?.join() === 'leases' && r.verbs.join() === 'get,list',
    );
  await eventually(() => holdsLeaseRule('admin'), 10_000, 'the lease rule aggregated into admin');
  await ok(['label', 'clusterrole', 'leases-view', 'rbac.authorization.k8s.io/aggregate-to-view-']);
  await eventually(async () => (await canList()) === 'no', 10_000, 'leases gone from view');
});

test('SubjectAccessReview and LocalSubjectAccessReview answer for the user they name', async () => {
  await ok(['-n', 'team-b', 'create', 'rolebinding', 'sam-view', '--clusterrole=view', '--user=sam']);
  const review = (kind: string, spec: object, namespace?: string) =>
    server.json(`/apis/authorization.k8s.io/v1${namespace ? `/namespaces/${namespace}` : ''}/${kind.toLowerCase()}s`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'authorization.k8s.io/v1', kind, spec }),
      expect: 201,
    });
  const allowed = await review('SubjectAccessReview', { user: 'sam', resourceAttributes: { namespace: 'team-b', verb: 'list', resource: 'pods' } });
  assert.equal(allowed['status'].allowed, true);
  assert.match(allowed['status'].reason, /RBAC: allowed by RoleBinding "sam-view" of ClusterRole "view" to User "sam" in namespace "team-b"/);
  const denied = await review('SubjectAccessReview', { user: 'sam', resourceAttributes: { namespace: 'team-a', verb: 'list', resource: 'pods' } });
  assert.equal(denied['status'].allowed, false);
  const local = await review('LocalSubjectAccessReview', { user: 'sam', resourceAttributes: { verb: 'get', resource: 'configmaps' } }, 'team-b');
  assert.equal(local['status'].allowed, true);
  const mismatch = await server.api('/apis/authorization.k8s.io/v1/namespaces/team-b/localsubjectaccessreviews', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ apiVersion: 'authorization.k8s.io/v1', kind: 'LocalSubjectAccessReview', spec: { user: 'sam', resourceAttributes: { namespace: 'team-a', verb: 'get', resource: 'configmaps' } } }),
  });
  assert.equal(mismatch.status, 400);
  const nobody = await server.api('/apis/authorization.k8s.io/v1/subjectaccessreviews', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec: { resourceAttributes: { verb: 'get', resource: 'pods' } } }),
  });
  assert.equal(nobody.status, 400);
});

test('a binding to the group system:serviceaccounts:NS covers every ServiceAccount of that namespace only', async () => {
  await ok(['-n', 'team-b', 'create', 'role', 'cm-reader', '--verb=get', '--resource=configmaps']);
  await ok(['-n', 'team-b', 'create', 'rolebinding', 'all-sas', '--role=cm-reader', '--group=system:serviceaccounts:team-b']);
  const can = async (user: string) => (await kubectl(['auth', 'can-i', 'get', 'configmaps', `--as=${user}`, '-n', 'team-b'])).stdout.trim();
  assert.equal(await can('system:serviceaccount:team-b:anyone'), 'yes');
  assert.equal(await can('system:serviceaccount:team-a:anyone'), 'no');
  assert.equal(await can('jane'), 'no');
});
