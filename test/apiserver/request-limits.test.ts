// Issue 27, findings 3 and 6: the size limits of one request. A 2.5 KB JSON patch of doubling copies used to take
// the process to 6.4 GB and down; objects over etcd's 1.5 MiB were stored.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/api-server.ts';

let server: TestServer;

before(async () => {
  server = await startTestServer();
});
after(async () => {
  await server.close();
});

const cms = '/api/v1/namespaces/default/configmaps';
const json = { 'content-type': 'application/json' };

interface Status {
  kind: string;
  code: number;
  reason: string;
  message: string;
  details?: { causes?: { message: string }[] };
}

async function createConfigMap(name: string, data: Record<string, string>): Promise<void> {
  await server.json(cms, { method: 'POST', headers: json, body: JSON.stringify({ metadata: { name }, data }), expect: 201 });
}

async function status(res: Response, code: number): Promise<Status> {
  const body = (await res.json()) as Status;
  assert.equal(res.status, code, JSON.stringify(body).slice(0, 500));
  assert.equal(body.kind, 'Status');
  return body;
}

test('finding 3: a JSON patch of 30 doubling copies is a 422 naming the copy limit, and memory stays bounded', async () => {
  await createConfigMap('doubling', { seed: 's' });
  const before = process.memoryUsage().rss;
  const patch = [
    { op: 'add', path: '/data/a', value: 'x'.repeat(1000) },
    ...Array.from({ length: 30 }, (_, i) => ({ op: 'copy', from: '/data', path: `/data/c${i}` })),
  ];
  assert.ok(JSON.stringify(patch).length < 3000);
  const res = await server.api(`${cms}/doubling`, { method: 'PATCH', headers: { 'content-type': 'application/json-patch+json' }, body: JSON.stringify(patch) });
  const body = await status(res, 422);
  assert.equal(body.reason, 'Invalid');
  assert.match(body.details?.causes?.[0]?.message ?? '', /^Unable to complete the copy, the accumulated size increase of copy is \d+, exceeding the limit 3145728$/);
  assert.ok(process.memoryUsage().rss - before < 256 * 1024 * 1024, `RSS grew by ${process.memoryUsage().rss - before} bytes`);
  const stored = await server.json<{ data: Record<string, string> }>(`${cms}/doubling`);
  assert.deepEqual(stored.data, { seed: 's' });
});

test('finding 3: a JSON patch of more than 10,000 operations is a 413 in kube-apiserver words', async () => {
  await createConfigMap('many-ops', {});
  const patch = Array.from({ length: 10_001 }, () => ({ op: 'test', path: '/kind', value: 'ConfigMap' }));
  const res = await server.api(`${cms}/many-ops`, { method: 'PATCH', headers: { 'content-type': 'application/json-patch+json' }, body: JSON.stringify(patch) });
  const body = await status(res, 413);
  assert.equal(body.message, 'Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001');
});

test('finding 6: an object over 1.5 MiB is refused with a 413 and not stored', async () => {
  const body = JSON.stringify({ metadata: { name: 'two-mib' }, data: { a: 'a'.repeat(900_000), b: 'b'.repeat(900_000) } });
  const res = await server.api(cms, { method: 'POST', headers: json, body });
  const answer = await status(res, 413);
  assert.equal(answer.reason, 'RequestEntityTooLarge');
  assert.equal(answer.message, 'etcdserver: request is too large');
  assert.equal((await server.api(`${cms}/two-mib`)).status, 404);
});

test('finding 6: a merge patch that grows an object past 1.5 MiB is refused and the object is unchanged', async () => {
  await createConfigMap('grows', { a: 'a'.repeat(1_000_000) });
  const patch = JSON.stringify({ data: { b: 'b'.repeat(1_000_000) } });
  const res = await server.api(`${cms}/grows`, { method: 'PATCH', headers: { 'content-type': 'application/merge-patch+json' }, body: patch });
  assert.equal((await status(res, 413)).message, 'etcdserver: request is too large');
  const stored = await server.json<{ data: Record<string, string> }>(`${cms}/grows`);
  assert.deepEqual(Object.keys(stored.data), ['a']);
});

test('finding 6: a JSON patch that copies an object past 1.5 MiB within the copy limit is a 413', async () => {
  await createConfigMap('copied', { a: 'a'.repeat(1_000_000) });
  const patch = JSON.stringify([{ op: 'copy', from: '/data/a', path: '/data/b' }]);
  const res = await server.api(`${cms}/copied`, { method: 'PATCH', headers: { 'content-type': 'application/json-patch+json' }, body: patch });
  assert.equal((await status(res, 413)).message, 'etcdserver: request is too large');
});
