// Every built-in kind the server serves (from the registry's list, so a new kind is covered without editing this
// test) refuses unknown fields under fieldValidation=Strict with kube-apiserver's message, using the OpenAPI
// definition it serves for kubectl explain.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { builtinDefinitionName, builtinDefinitions } from '../../src/apiserver/discovery/builtin-openapi.ts';
import { builtinResources } from '../../src/apiserver/registry/builtin-resources.ts';
import { startTestServer, type TestServer } from '../helpers/api-server.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(async () => {
  await server.close();
});

const creatable = builtinResources.filter((type) => type.verbs.includes('create'));

async function create(type: (typeof creatable)[number], body: object): Promise<{ status: number; message: string }> {
  const base = type.group === '' ? `/api/${type.version}` : `/apis/${type.group}/${type.version}`;
  const path = `${base}${type.namespaced ? '/namespaces/default' : ''}/${type.plural}?fieldValidation=Strict`;
  const res = await server.api(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, message: text };
}

for (const type of creatable) {
  test(`${type.group || 'core'}/${type.version} ${type.kind}: unknown fields refused under Strict`, async () => {
    const name = builtinDefinitionName(type.group, type.version, type.kind);
    assert.ok(name, `the served OpenAPI document defines ${type.kind}`);
    const definition = builtinDefinitions()[name];
    const hasSpec = Boolean((definition?.['properties'] as Record<string, unknown> | undefined)?.['spec']);
    const objectName = `t-${type.plural.replace(/[^a-z0-9]/g, '')}`;
    const known = await create(type, { metadata: { name: `${objectName}-ok` } });
    assert.doesNotMatch(known.message, /strict decoding error/);
    const topField = hasSpec ? 'spec.bogus' : 'bogus';
    const top = await create(type, hasSpec ? { metadata: { name: objectName }, spec: { bogus: 1 } } : { metadata: { name: objectName }, bogus: 1 });
    assert.equal(top.status, 400, top.message);
    assert.equal((JSON.parse(top.message) as { message: string }).message, `strict decoding error: unknown field "${topField}"`);
    const nested = await create(type, { metadata: { name: objectName, ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'o', uid: 'u', colour: 'red' }] } });
    assert.equal(nested.status, 400, nested.message);
    assert.equal((JSON.parse(nested.message) as { message: string }).message, 'strict decoding error: unknown field "metadata.ownerReferences[0].colour"');
  });
}
