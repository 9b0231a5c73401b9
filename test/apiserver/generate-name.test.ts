// generateName: a generated name that is taken is generated again (KEP-4420, on by default in the 1.32 Bosun
// reports), up to 8 attempts, instead of answering 409 — also when the name is taken while webhooks are awaited.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { KubeObject } from '../../src/apimachinery/object.ts';
import type { TestServer } from '../helpers/api-server.ts';
import { allow, createValidating, withServerAndWebhook, type WebhookServer } from './admission/support.ts';

const cms = '/api/v1/namespaces/default/configmaps';

/** Runs `body` with Math.random answering `values` in turn, then `rest`: the server runs in this process, so its suffixes follow. */
async function withRandom<T>(values: number[], rest: number, body: () => Promise<T>): Promise<T> {
  const real = Math.random;
  let i = 0;
  Math.random = () => (i < values.length ? values[i++]! : rest);
  try {
    return await body();
  } finally {
    Math.random = real;
  }
}

function generated(server: TestServer, prefix: string): Promise<Response> {
  return server.api(cms, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ metadata: { generateName: prefix } }) });
}

describe('generateName', () => {
  let server: TestServer;
  let hook: WebhookServer;
  withServerAndWebhook((s, h) => {
    server = s;
    hook = h;
  });

  test('a taken generated name is generated again; after 8 taken ones the answer is AlreadyExists', async () => {
    const first = await withRandom([], 0, () => generated(server, 'gen-'));
    assert.equal(first.status, 201);
    assert.equal(((await first.json()) as KubeObject).metadata.name, 'gen-bbbbb');
    const second = await withRandom([0, 0, 0, 0, 0], 0.5, () => generated(server, 'gen-'));
    assert.equal(second.status, 201, await second.clone().text());
    assert.equal(((await second.json()) as KubeObject).metadata.name, 'gen-rrrrr');
    const exhausted = await withRandom([], 0, () => generated(server, 'gen-'));
    const status = (await exhausted.json()) as { reason: string; message: string };
    assert.equal(exhausted.status, 409);
    assert.equal(status.reason, 'AlreadyExists');
    assert.equal(status.message, 'configmaps "gen-bbbbb" already exists');
  });

  test('a long prefix is cut so that the generated name stays within 63 characters', async () => {
    const res = await generated(server, `${'a'.repeat(70)}-`);
    assert.equal(res.status, 201);
    const name = ((await res.json()) as KubeObject).metadata.name ?? '';
    assert.equal(name.length, 63);
    assert.ok(name.startsWith('a'.repeat(58)));
  });

  test('a generated name taken while a validating webhook is awaited is generated again', async () => {
    const seen: string[] = [];
    hook.on('/race', async (request) => {
      const object = request['object'] as KubeObject;
      if (object.metadata.generateName === 'race-') {
        seen.push(object.metadata.name ?? '');
        // Another client takes the name the server generated, before the server stores its object.
        if (seen.length === 1) await server.json(cms, { method: 'POST', body: JSON.stringify({ metadata: { name: object.metadata.name } }), expect: 201 });
      }
      return allow();
    });
    await createValidating(server, 'race', [{ name: 'race.bosun.test', url: hook.url('/race'), caBundle: hook.caBundle }]);
    const res = await generated(server, 'race-');
    const created = (await res.json()) as KubeObject;
    assert.equal(res.status, 201, JSON.stringify(created));
    assert.equal(seen.length, 2);
    assert.notEqual(seen[0], seen[1]);
    assert.equal(created.metadata.name, seen[1]);
    assert.ok(server.store.get('/configmaps', 'default', seen[0]!), 'the other client keeps its object');
  });
});
