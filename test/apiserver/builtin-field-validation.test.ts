// Built-in kinds decode like kube-apiserver's typed decoder: unknown fields refused under fieldValidation=Strict,
// dropped with a warning under Warn (the default), dropped silently under Ignore. Namespaces carry the
// kubernetes.io/metadata.name label on every write.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/api-server.ts';
import { kubectlFor } from '../helpers/kubectl.ts';

let server: TestServer;

before(async () => {
  server = await startTestServer();
});
after(async () => {
  await server.close();
});

const cms = '/api/v1/namespaces/default/configmaps';
const json = { 'content-type': 'application/json' };

async function status(res: Response): Promise<{ code: number; reason: string; message: string }> {
  return (await res.json()) as never;
}

test('Strict refuses an unknown top-level, metadata or nested field of a ConfigMap, and stores nothing', async () => {
  const body = JSON.stringify({ metadata: { name: 's1', bogus: 1 }, data: { a: 'b' }, extra: true });
  const res = await server.api(`${cms}?fieldValidation=Strict`, { method: 'POST', headers: json, body });
  const s = await status(res);
  assert.equal(res.status, 400, s.message);
  assert.equal(s.reason, 'BadRequest');
  assert.equal(s.message, 'strict decoding error: unknown field "metadata.bogus", unknown field "extra"');
  assert.equal(server.store.get('/configmaps', 'default', 's1'), undefined);
  const owner = JSON.stringify({ metadata: { name: 's2', ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'o', uid: 'u', colour: 'red' }] } });
  const nested = await server.api(`${cms}?fieldValidation=Strict`, { method: 'POST', headers: json, body: owner });
  assert.equal(nested.status, 400);
  assert.equal((await status(nested)).message, 'strict decoding error: unknown field "metadata.ownerReferences[0].colour"');
});

test('Warn (the default) drops the field and says so in a Warning header; Ignore drops it silently', async () => {
  const created = await server.api(cms, { method: 'POST', headers: json, body: JSON.stringify({ metadata: { name: 'w1' }, data: { a: 'b' }, extra: true }) });
  assert.equal(created.status, 201);
  assert.match(created.headers.get('warning') ?? '', /299 - "unknown field \\"extra\\""/);
  assert.equal('extra' in ((await created.json()) as object), false);
  assert.equal('extra' in (server.store.get('/configmaps', 'default', 'w1')?.object ?? {}), false);
  const ignored = await server.api(`${cms}?fieldValidation=Ignore`, { method: 'POST', headers: json, body: JSON.stringify({ metadata: { name: 'i1' }, extra: true }) });
  assert.equal(ignored.status, 201);
  assert.equal(ignored.headers.get('warning'), null);
  assert.equal('extra' in (server.store.get('/configmaps', 'default', 'i1')?.object ?? {}), false);
});

test('Strict applies to PUT and to the result of a merge patch too', async () => {
  const put = await server.api(`${cms}/w1?fieldValidation=Strict`, { method: 'PUT', headers: json, body: JSON.stringify({ metadata: { name: 'w1' }, extra: 1 }) });
  assert.equal(put.status, 400);
  assert.equal((await status(put)).message, 'strict decoding error: unknown field "extra"');
  const patch = await server.api(`${cms}/w1?fieldValidation=Strict`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/merge-patch+json' },
    body: JSON.stringify({ extra: 1 }),
  });
  assert.equal(patch.status, 400);
  assert.equal((await status(patch)).message, 'strict decoding error: unknown field "extra"');
});

test('kubectl apply (validation strict by default) refuses a ConfigMap with an unknown field', async () => {
  const kubectl = kubectlFor(server.kubeconfigFile);
  const result = await kubectl(['apply', '-f', '-'], 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: k1\n  namespace: default\ndatta:\n  a: b\n');
  assert.notEqual(result.code, 0);
  assert.match(result.stderr, /unknown field "datta"/);
  assert.equal(server.store.get('/configmaps', 'default', 'k1'), undefined);
});

test('namespaces get kubernetes.io/metadata.name on create (generateName too), and keep it on update', async () => {
  const created = await server.json<{ metadata: { name: string; labels: Record<string, string> } }>('/api/v1/namespaces', {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ metadata: { generateName: 'team-', labels: { a: 'b', 'kubernetes.io/metadata.name': 'lie' } } }),
    expect: 201,
  });
  const name = created.metadata.name;
  assert.deepEqual(created.metadata.labels, { a: 'b', 'kubernetes.io/metadata.name': name });
  const updated = await server.json<{ metadata: { labels: Record<string, string> } }>(`/api/v1/namespaces/${name}`, {
    method: 'PUT',
    headers: json,
    body: JSON.stringify({ metadata: { name, labels: {} } }),
  });
  assert.deepEqual(updated.metadata.labels, { 'kubernetes.io/metadata.name': name });
  const kubectl = kubectlFor(server.kubeconfigFile);
  const selected = await kubectl(['get', 'namespaces', '-l', `kubernetes.io/metadata.name=${name}`, '-o', 'name']);
  assert.equal(selected.code, 0, selected.stderr);
  assert.equal(selected.stdout.trim(), `namespace/${name}`);
  const builtin = await server.json<{ metadata: { labels?: Record<string, string> } }>('/api/v1/namespaces/default');
  assert.equal(builtin.metadata.labels?.['kubernetes.io/metadata.name'], 'default');
});

async function deploymentStatus(name: string): Promise<number> {
  const res = await server.api(`/apis/apps/v1/namespaces/default/deployments/${name}`);
  await res.body?.cancel();
  return res.status;
}

const typoDeployment = (name: string): string => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  namespace: default
spec:
  replica: 2
  selector:
    matchLabels: {app: ${name}}
  template:
    metadata:
      labels: {app: ${name}}
    spec:
      containers:
      - name: c
        image: busybox
        comand: [sleep, "3600"]
`;

test('kubectl apply of a Deployment with replica: and comand: is refused, created with warnings under warn, silently under false', async () => {
  const kubectl = kubectlFor(server.kubeconfigFile);
  const strict = await kubectl(['apply', '-f', '-'], typoDeployment('typo'));
  assert.notEqual(strict.code, 0);
  assert.match(strict.stderr, /strict decoding error: unknown field "spec\.replica", unknown field "spec\.template\.spec\.containers\[0\]\.comand"/);
  assert.equal(await deploymentStatus('typo'), 404);
  const warn = await kubectl(['apply', '--validate=warn', '-f', '-'], typoDeployment('typo-warn'));
  assert.equal(warn.code, 0, warn.stderr);
  assert.match(warn.stderr, /Warning: unknown field "spec\.replica"/);
  assert.match(warn.stderr, /Warning: unknown field "spec\.template\.spec\.containers\[0\]\.comand"/);
  assert.equal(await deploymentStatus('typo-warn'), 200);
  const ignore = await kubectl(['apply', '--validate=false', '-f', '-'], typoDeployment('typo-ignore'));
  assert.equal(ignore.code, 0, ignore.stderr);
  assert.doesNotMatch(ignore.stderr, /unknown field/);
  assert.equal(await deploymentStatus('typo-ignore'), 200);
});
