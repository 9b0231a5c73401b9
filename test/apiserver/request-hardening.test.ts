// Issue 27, finding 10: the smaller holes a probe found. Each answer is kube-apiserver's (or, where it answers a
// 500 for the client's mistake, a 400 in its words), and the server stays up.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/api-server.ts';

let server: TestServer;

before(async () => {
  server = await startTestServer();
  await server.json(cms, { method: 'POST', headers: json, body: JSON.stringify({ metadata: { name: 'cm', finalizers: ['a/b'] }, data: { k: 'v' } }), expect: 201 });
});
after(async () => {
  await server.close();
});

const cms = '/api/v1/namespaces/default/configmaps';
const json = { 'content-type': 'application/json' };
const smp = { 'content-type': 'application/strategic-merge-patch+json' };

async function status(res: Response, code: number): Promise<{ reason: string; message: string }> {
  const body = (await res.json()) as { kind: string; code: number; reason: string; message: string };
  assert.equal(res.status, code, JSON.stringify(body));
  assert.equal(body.kind, 'Status');
  assert.equal(body.code, code);
  return body;
}

test('bad percent-encoding in a path is a 400 naming the escape', async () => {
  for (const [path, escape] of [
    ['/api/v1/namespaces/%zz/configmaps', '"%zz"'],
    ['/api/v1/namespaces/default/configmaps/%', '"%"'],
    ['/api/v1/namespaces/default/configmaps/a%2', '"%2"'],
    ['/apis/%E0%A4%A/v1/x', '"%A"'],
  ] as const) {
    const body = await status(await server.api(path), 400);
    assert.equal(body.message, `invalid URL escape ${escape}`, path);
  }
  const notUtf8 = await status(await server.api('/api/v1/namespaces/%ff/configmaps'), 400);
  assert.match(notUtf8.message, /not UTF-8/);
  assert.equal((await server.api('/healthz')).status, 200);
});

test('malformed strategic-merge directives are 400s in strategicpatch words', async () => {
  const unknown = await status(await server.api(`${cms}/cm`, { method: 'PATCH', headers: smp, body: JSON.stringify({ data: { $patch: 'foo' } }) }), 400);
  assert.equal(unknown.message, 'unknown patch type: foo in map: {"$patch":"foo"}');
  const notString = await status(await server.api(`${cms}/cm`, { method: 'PATCH', headers: smp, body: JSON.stringify({ metadata: { $patch: 5 } }) }), 400);
  assert.equal(notString.message, 'unknown patch type: 5 in map: {"$patch":5}');
  const retainKeys = await status(await server.api(`${cms}/cm`, { method: 'PATCH', headers: smp, body: JSON.stringify({ $retainKeys: 'data' }) }), 400);
  assert.equal(retainKeys.message, 'invalid patch format of retainKeys');
  const mixed = await status(await server.api(`${cms}/cm`, { method: 'PATCH', headers: smp, body: JSON.stringify({ metadata: { finalizers: [{}] } }) }), 400);
  assert.match(mixed.message, /^list element types are not identical/);
  const stored = await server.json<{ data: Record<string, string> }>(`${cms}/cm`);
  assert.deepEqual(stored.data, { k: 'v' });
});

test('a watch with a negative timeoutSeconds ends at once, as kube-apiserver ends it', { timeout: 30_000 }, async () => {
  const res = await server.api(`${cms}?watch=true&timeoutSeconds=-5`);
  assert.equal(res.status, 200);
  const events = (await res.text()).trim().split('\n').filter(Boolean);
  // At most the initial ADDED of what is there: the ConfigMap made here and the root CA one.
  assert.ok(events.length <= 2);
});

test('the bearer scheme is matched in any case (RFC 7235)', async () => {
  for (const scheme of ['bearer', 'BEARER', 'Bearer']) {
    const res = await server.api('/api/v1/namespaces', { headers: { authorization: `${scheme} ${server.token}` } });
    assert.equal(res.status, 200, scheme);
    await res.arrayBuffer();
  }
  await status(await server.api('/api/v1/namespaces', { headers: { authorization: `Basic ${server.token}` } }), 401);
  await status(await server.api('/api/v1/namespaces', { headers: { authorization: `Bearer  ${server.token}` } }), 401);
});

test('a negative or malformed resourceVersion on get, list and watch is a 400', async () => {
  for (const path of [`${cms}/cm?resourceVersion=-1`, `${cms}?resourceVersion=-1`, `${cms}?watch=true&resourceVersion=-1`]) {
    const body = await status(await server.api(path), 400);
    assert.equal(body.message, 'invalid resource version: resourceVersion: Invalid value: "-1": strconv.ParseUint: parsing "-1": invalid syntax', path);
  }
  const malformed = await status(await server.api(`${cms}?resourceVersion=abc`), 400);
  assert.equal(malformed.message, 'invalid resource version: resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax');
  const ok = await server.api(`${cms}?resourceVersion=0`);
  assert.equal(ok.status, 200);
  await ok.arrayBuffer();
});
