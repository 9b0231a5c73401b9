// Secret stringData: merged into data (base64) on every write, never stored or answered, as kube-apiserver does.
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

const secrets = '/api/v1/namespaces/default/secrets';
const json = { 'content-type': 'application/json' };
const b64 = (s: string) => Buffer.from(s).toString('base64');

type Secret = { data?: Record<string, string>; stringData?: unknown; type?: string };

function stored(name: string): Secret {
  return server.store.get('/secrets', 'default', name)?.object as Secret;
}

test('create merges stringData into data (stringData wins on the same key), and neither answer nor store keeps it', async () => {
  const body = { metadata: { name: 'c1' }, data: { token: b64('old'), keep: b64('k') }, stringData: { token: 'new', 'user.name': 'ädmin' } };
  const created = await server.json<Secret>(secrets, { method: 'POST', headers: json, body: JSON.stringify(body), expect: 201 });
  const expected = { token: b64('new'), keep: b64('k'), 'user.name': b64('ädmin') };
  assert.deepEqual(created.data, expected);
  assert.equal('stringData' in created, false);
  assert.equal(created.type, 'Opaque');
  const read = await server.json<Secret>(`${secrets}/c1`);
  assert.deepEqual(read.data, expected);
  assert.equal('stringData' in read, false);
  assert.equal('stringData' in stored('c1'), false);
});

test('update, merge patch, strategic merge patch and server-side apply merge stringData too', async () => {
  await server.json(secrets, { method: 'POST', headers: json, body: JSON.stringify({ metadata: { name: 'u1' }, data: { a: b64('1') } }), expect: 201 });
  const put = await server.json<Secret>(`${secrets}/u1`, { method: 'PUT', headers: json, body: JSON.stringify({ metadata: { name: 'u1' }, stringData: { b: '2' } }) });
  assert.deepEqual(put.data, { b: b64('2') });
  const merged = await server.json<Secret>(`${secrets}/u1`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/merge-patch+json' },
    body: JSON.stringify({ stringData: { c: '3' } }),
  });
  assert.deepEqual(merged.data, { b: b64('2'), c: b64('3') });
  const strategic = await server.json<Secret>(`${secrets}/u1`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/strategic-merge-patch+json' },
    body: JSON.stringify({ stringData: { d: '4' } }),
  });
  assert.deepEqual(strategic.data, { b: b64('2'), c: b64('3'), d: b64('4') });
  const applied = await server.json<Secret>(`${secrets}/s1?fieldManager=test`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/apply-patch+yaml' },
    body: JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's1' }, stringData: { token: 't0k3n' } }),
    expect: 201,
  });
  assert.deepEqual(applied.data, { token: b64('t0k3n') });
  for (const name of ['u1', 's1']) assert.equal('stringData' in stored(name), false, name);
  assert.deepEqual(stored('s1').data, { token: b64('t0k3n') });
});

test('kubectl apply of a stringData Secret stores data a consumer can read', async () => {
  const kubectl = kubectlFor(server.kubeconfigFile);
  const manifest = 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: k1\n  namespace: default\nstringData:\n  token: s3cret\n';
  const applied = await kubectl(['apply', '-f', '-'], manifest);
  assert.equal(applied.code, 0, applied.stderr);
  const token = await kubectl(['get', 'secret', 'k1', '-n', 'default', '-o', 'jsonpath={.data.token}']);
  assert.equal(token.code, 0, token.stderr);
  assert.equal(Buffer.from(token.stdout, 'base64').toString(), 's3cret');
  const again = await kubectl(['apply', '--server-side', '-f', '-'], manifest.replace('s3cret', 'rotated'));
  assert.equal(again.code, 0, again.stderr);
  assert.deepEqual(stored('k1').data, { token: b64('rotated') });
});

test('invalid keys are a 422 naming data[key]; a stringData value that is not a string is a 400', async () => {
  const res = await server.api(secrets, { method: 'POST', headers: json, body: JSON.stringify({ metadata: { name: 'bad' }, stringData: { 'a/b': 'x', '..x': 'y' } }) });
  const status = (await res.json()) as { code: number; message: string; details: { causes: { field: string }[] } };
  assert.equal(res.status, 422, status.message);
  assert.match(status.message, /data\[a\/b\]: Invalid value: "a\/b": a valid config key must consist of alphanumeric characters, '-', '_' or '.'/);
  assert.match(status.message, /data\[\.\.x\]: Invalid value: "\.\.x": must not start with '\.\.'/);
  assert.deepEqual(status.details.causes.map((c) => c.field).sort(), ['data[..x]', 'data[a/b]']);
  const wrong = await server.api(secrets, { method: 'POST', headers: json, body: JSON.stringify({ metadata: { name: 'bad' }, stringData: { n: 1 } }) });
  const body = (await wrong.json()) as { message: string };
  assert.equal(wrong.status, 400, body.message);
  assert.match(body.message, /cannot be handled as a Secret: json: cannot unmarshal number into Go struct field Secret.stringData of type string/);
  const big = await server.api(secrets, { method: 'POST', headers: json, body: JSON.stringify({ metadata: { name: 'big' }, stringData: { a: 'x'.repeat(1024 * 1024 + 1) } }) });
  assert.equal(big.status, 422);
  assert.match(((await big.json()) as { message: string }).message, /data: Too long: may not be more than 1048576 bytes/);
  assert.equal(stored('bad'), undefined);
});
