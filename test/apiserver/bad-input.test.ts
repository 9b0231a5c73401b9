// Bad input gets a clear 4xx Status and loses nothing; the server stays up. Includes a property-based test.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { startTestServer, type TestServer } from '../helpers/api-server.ts';
import { widgetCrd as widgetCrdOf } from '../helpers/widget-crd.ts';

let server: TestServer;

const widgetCrd = widgetCrdOf({ subresources: { status: {} } }, { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } });

before(async () => {
  server = await startTestServer({ crds: [widgetCrd] });
});
after(async () => {
  await server.close();
});

async function expectStatus(res: Response, code: number, reason: string, message: RegExp): Promise<void> {
  const body = (await res.json()) as { kind: string; code: number; reason: string; message: string };
  assert.equal(res.status, code, JSON.stringify(body));
  assert.equal(body.kind, 'Status');
  assert.equal(body.code, code);
  assert.equal(body.reason, reason);
  assert.match(body.message, message);
}

const json = { 'content-type': 'application/json' };
const cms = '/api/v1/namespaces/default/configmaps';

test('malformed JSON is a 400 BadRequest naming the decode error', async () => {
  await expectStatus(await server.api(cms, { method: 'POST', headers: json, body: '{"metadata": {' }), 400, 'BadRequest', /could not be decoded as JSON/);
});

test('malformed YAML is a 400 BadRequest', async () => {
  const res = await server.api(cms, { method: 'POST', headers: { 'content-type': 'application/yaml' }, body: 'metadata:\n  name: [unclosed\n' });
  await expectStatus(res, 400, 'BadRequest', /could not be decoded as YAML/);
});

test('a body of the wrong kind is a 400 BadRequest', async () => {
  const res = await server.api(cms, { method: 'POST', headers: json, body: JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'x' } }) });
  await expectStatus(res, 400, 'BadRequest', /kind in the data \(Secret\) does not match the expected kind \(ConfigMap\)/);
});

test('a name that is not DNS-1123 is a 422 Invalid with a field cause', async () => {
  const res = await server.api(cms, { method: 'POST', headers: json, body: JSON.stringify({ metadata: { name: 'Bad_Name' } }) });
  const body = (await res.clone().json()) as { details: { causes: { field: string }[] } };
  await expectStatus(res, 422, 'Invalid', /ConfigMap "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain/);
  assert.equal(body.details.causes[0]?.field, 'metadata.name');
  assert.equal(server.store.get('/configmaps', 'default', 'Bad_Name'), undefined);
});

test('a body over 3 MiB is a 413', async () => {
  const big = JSON.stringify({ metadata: { name: 'big' }, data: { x: 'a'.repeat(3 * 1024 * 1024 + 10) } });
  await expectStatus(await server.api(cms, { method: 'POST', headers: json, body: big }), 413, 'RequestEntityTooLarge', /^Request entity too large: limit is 3145728$/);
});

test('an unknown field under fieldValidation=Strict is a 400 naming the field, and nothing is stored', async () => {
  const body = JSON.stringify({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1' }, spec: { size: 1, colour: 'red' } });
  const res = await server.api('/apis/example.com/v1/namespaces/default/widgets?fieldValidation=Strict', { method: 'POST', headers: json, body });
  await expectStatus(res, 400, 'BadRequest', /strict decoding error: unknown field "spec.colour"/);
  assert.equal(server.store.count('example.com/widgets'), 0);
});

test('a JSON patch whose test fails is a 422 and leaves the object unchanged', async () => {
  const created = await server.api(cms, { method: 'POST', headers: json, body: JSON.stringify({ metadata: { name: 'p1' }, data: { a: '1' } }) });
  assert.equal(created.status, 201);
  const patch = JSON.stringify([{ op: 'test', path: '/data/a', value: '2' }, { op: 'replace', path: '/data/a', value: '3' }]);
  const res = await server.api(`${cms}/p1`, { method: 'PATCH', headers: { 'content-type': 'application/json-patch+json' }, body: patch });
  assert.equal(res.status, 422);
  const stored = server.store.get('/configmaps', 'default', 'p1');
  assert.deepEqual(stored?.object['data'], { a: '1' });
});

test('a merge patch that is not an object and a patch of an unknown media type are refused', async () => {
  const res = await server.api(`${cms}/p1`, { method: 'PATCH', headers: { 'content-type': 'text/plain' }, body: 'x' });
  await expectStatus(res, 415, 'UnsupportedMediaType', /unknown format/);
});

// Random requests: whatever arrives, the answer is a well-formed Status for errors, never a 5xx, and the server lives.
// Paths of existing objects send PUT, PATCH and apply bodies (deeply nested ones too) down the update paths.
test('property: random bodies, paths and content types never crash the server or yield 5xx', async () => {
  await server.json('/apis/example.com/v1/namespaces/default/widgets', {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w0' } }),
    expect: 201,
  });
  const segment = fc.constantFrom('api', 'apis', 'v1', 'namespaces', 'default', 'configmaps', 'example.com', 'widgets', 'status', 'x', '..', '%2F', 'pods', 'finalize');
  const path = fc.oneof(
    fc.array(segment, { minLength: 0, maxLength: 7 }).map((parts) => `/${parts.join('/')}`),
    fc.constantFrom(`${cms}/p1`, '/apis/example.com/v1/namespaces/default/widgets/w0', '/apis/example.com/v1/namespaces/default/widgets/w0/status'),
  );
  const contentType = fc.constantFrom(
    'application/json',
    'application/yaml',
    'application/merge-patch+json',
    'application/json-patch+json',
    'application/strategic-merge-patch+json',
    'application/apply-patch+yaml',
    'text/plain',
    'application/x-www-form-urlencoded',
  );
  const depth = fc.integer({ min: 1, max: 20_000 });
  const body = fc.oneof(
    fc.string(),
    fc.json(),
    fc.jsonValue().map((v) => JSON.stringify(v)),
    fc.record({ metadata: fc.record({ name: fc.string() }), data: fc.dictionary(fc.string(), fc.string()) }).map((v) => JSON.stringify(v)),
    depth.map((n) => `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w0"},"spec":${'{"a":'.repeat(n)}1${'}'.repeat(n)}}`),
    depth.map((n) => `[{"op":"add","path":"/spec","value":${'['.repeat(n)}${']'.repeat(n)}}]`),
    depth.map((n) => `metadata:\n  name: p1\ndata:\n${'- '.repeat(n)}x\n`),
  );
  const method = fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE');
  const query = fc.constantFrom('', '?fieldValidation=Strict', '?dryRun=All', '?labelSelector=a%3D%3D', '?fieldSelector=spec.x%3D1', '?limit=-1', '?watch=true&resourceVersion=abc', '?fieldManager=t&force=true');
  await fc.assert(
    fc.asyncProperty(method, path, query, contentType, body, async (m, p, q, ct, b) => {
      const isWatch = q.includes('watch=true');
      const res = await server.api(`${p}${q}`, { method: m, headers: { 'content-type': ct }, ...(m === 'GET' || m === 'DELETE' ? {} : { body: b }) });
      assert.ok(res.status < 500, `${m} ${p}${q} (${ct}) → ${res.status}: ${await res.clone().text()}`);
      if (res.status >= 400) {
        const status = (await res.json()) as { kind: string; code: number; message: string };
        assert.equal(status.kind, 'Status');
        assert.equal(status.code, res.status);
        assert.ok(status.message.length > 0);
      } else if (isWatch) await res.body?.cancel();
      else await res.arrayBuffer();
    }),
    { numRuns: 400, seed: 20261121 },
  );
  assert.equal((await server.api('/healthz')).status, 200);
});
