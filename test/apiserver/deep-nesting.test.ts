// Deeply nested bodies: every verb and body format answers a 400 naming the depth limit (never a 500, never a
// crash), and bodies just within the limit are served.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { maxNestingDepth } from '../../src/apiserver/http/nesting-depth.ts';
import { startTestServer, type TestServer } from '../helpers/api-server.ts';
import { widgetCrd as widgetCrdOf } from '../helpers/widget-crd.ts';

let server: TestServer;

const widgetCrd = widgetCrdOf();

before(async () => {
  server = await startTestServer({ crds: [widgetCrd] });
  await server.json('/api/v1/namespaces/default/configmaps', { method: 'POST', body: JSON.stringify({ metadata: { name: 'cm' } }), expect: 201 });
  await server.json('/apis/example.com/v1/namespaces/default/widgets', { method: 'POST', body: JSON.stringify({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } }), expect: 201 });
});
after(async () => {
  await server.close();
});

const cms = '/api/v1/namespaces/default/configmaps';
const widgets = '/apis/example.com/v1/namespaces/default/widgets';

/** `{"a":{"a":…1…}}` with `levels` objects. */
const nested = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

interface Case {
  method: string;
  path: string;
  contentType: string;
  /** The body with a value nested `levels` deep in it (the body itself adds `extra` levels around it). */
  body: (levels: number) => string;
  extra: number;
}

const cases: Case[] = [
  { method: 'POST', path: cms, contentType: 'application/json', body: (n) => `{"metadata":{"name":"deep","annotations":${nested(n)}}}`, extra: 2 },
  { method: 'PUT', path: `${cms}/cm`, contentType: 'application/json', body: (n) => `{"metadata":{"name":"cm","annotations":${nested(n)}}}`, extra: 2 },
  { method: 'PATCH', path: `${cms}/cm`, contentType: 'application/merge-patch+json', body: (n) => `{"metadata":{"annotations":${nested(n)}}}`, extra: 2 },
  { method: 'PATCH', path: `${cms}/cm`, contentType: 'application/strategic-merge-patch+json', body: (n) => `{"metadata":{"annotations":${nested(n)}}}`, extra: 2 },
  { method: 'PATCH', path: `${cms}/cm`, contentType: 'application/json-patch+json', body: (n) => `[{"op":"add","path":"/metadata/annotations","value":${nested(n)}}]`, extra: 2 },
  { method: 'PATCH', path: `${cms}/cm?fieldManager=t`, contentType: 'application/apply-patch+yaml', body: (n) => `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm","annotations":${nested(n)}}}`, extra: 2 },
  { method: 'POST', path: cms, contentType: 'application/yaml', body: (n) => `metadata:\n  name: deep\ndata: ${'['.repeat(n)}${']'.repeat(n)}\n`, extra: 1 },
  { method: 'POST', path: cms, contentType: 'application/yaml', body: (n) => `metadata:\n  name: deep\ndata:\n${'- '.repeat(n)}x\n`, extra: 1 },
  { method: 'DELETE', path: `${cms}/cm?dryRun=All`, contentType: 'application/json', body: (n) => `{"preconditions":${nested(n)}}`, extra: 1 },
];

async function send(c: Case, body: string): Promise<Response> {
  return server.api(c.path, { method: c.method, headers: { 'content-type': c.contentType, 'content-length': String(Buffer.byteLength(body)) }, body });
}

test('a body nested deeper than the limit is a 400 naming it, on every verb and format; the server stays up', async () => {
  for (const c of cases) {
    for (const levels of [maxNestingDepth + 1 - c.extra, 100_000]) {
      const res = await send(c, c.body(levels));
      const text = await res.text();
      assert.equal(res.status, 400, `${c.method} ${c.contentType} at ${levels}: ${text}`);
      const status = JSON.parse(text) as { reason: string; message: string };
      assert.equal(status.reason, 'BadRequest');
      assert.match(status.message, new RegExp(`could not be decoded as (JSON|YAML): exceeded max depth of ${maxNestingDepth}$`), `${c.method} ${c.contentType}`);
    }
  }
  assert.equal(server.store.get('/configmaps', 'default', 'deep'), undefined);
  assert.equal((await server.api('/healthz')).status, 200);
});

test('a custom resource nested just within the limit is created, replaced, patched and applied', async () => {
  const spec = (levels: number) => nested(levels - 1);
  const created = await server.api(widgets, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"deep"},"spec":${spec(maxNestingDepth - 1)}}`,
  });
  assert.equal(created.status, 201, (await created.text()).slice(0, 300));
  const current = await server.json<{ metadata: { resourceVersion: string } }>(`${widgets}/deep`);
  const put = await server.api(`${widgets}/deep`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"deep","resourceVersion":"${current.metadata.resourceVersion}"},"spec":${spec(maxNestingDepth - 2)}}`,
  });
  assert.equal(put.status, 200, (await put.text()).slice(0, 300));
  const merged = await server.api(`${widgets}/w`, { method: 'PATCH', headers: { 'content-type': 'application/merge-patch+json' }, body: `{"spec":${spec(maxNestingDepth - 1)}}` });
  assert.equal(merged.status, 200, (await merged.text()).slice(0, 300));
  const applied = await server.api(`${widgets}/applied?fieldManager=t`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/apply-patch+yaml' },
    body: `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"applied"},"spec":${spec(maxNestingDepth - 1)}}`,
  });
  assert.equal(applied.status, 201, (await applied.text()).slice(0, 300));
});
