// The fault-injecting client wrapper: reproducible with a seed, about the configured fraction, typed errors,
// and lost responses on writes (the server applied the write, the caller saw a failure).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ConflictError, InternalServerError, KubeApiError, NetworkError, TimeoutError, TooManyRequestsError } from '../../src/client/errors.ts';
import { seededRandom, withFaultInjection, type FaultKind } from '../../src/client/fault-injection.ts';
import { configMap, configMaps, createNamespace, startTestServer, uniqueName, type TestServer } from './api-server.ts';

let t: TestServer;
let ns: string;

before(async () => {
  t = await startTestServer();
  ns = uniqueName('faults');
  await createNamespace(t.client, ns);
  await t.client.create(configMaps, configMap('target', ns));
});

after(async () => {
  await t.stop();
});

async function outcomes(seed: number, n: number): Promise<string[]> {
  const c = withFaultInjection(t.client, { rate: 0.2, seed });
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    try {
      await c.get(configMaps, 'target', { namespace: ns });
      out.push('ok');
    } catch (err) {
      out.push((err as Error).name);
    }
  }
  return out;
}

test('seeded: the same seed fails the same requests the same way', async () => {
  const a = await outcomes(7, 60);
  const b = await outcomes(7, 60);
  assert.deepEqual(a, b);
  assert.notDeepEqual(a, await outcomes(8, 60));
});

test('fails about the configured fraction, with the five fault kinds as typed errors', async () => {
  const seen = new Set<string>();
  const c = withFaultInjection(t.client, { rate: 0.2, seed: 3, onFault: (_verb, fault) => seen.add(fault) });
  let failed = 0;
  const n = 400;
  for (let i = 0; i < n; i++) {
    try {
      await c.patch(configMaps, 'target', { data: { i: String(i) } }, { type: 'merge', namespace: ns });
    } catch (err) {
      failed++;
      assert.ok(err instanceof KubeApiError || err instanceof NetworkError, String(err));
      if (err instanceof TooManyRequestsError) assert.equal(err.retryAfter, 1);
      assert.ok(
        err instanceof ConflictError || err instanceof TooManyRequestsError || err instanceof InternalServerError || err instanceof TimeoutError || (err instanceof NetworkError && err.code === 'ECONNRESET'),
        String(err),
      );
    }
  }
  assert.ok(failed > n * 0.12 && failed < n * 0.28, `failed ${failed}/${n}`);
  assert.deepEqual([...seen].sort(), ['conflict', 'internal', 'reset', 'timeout', 'tooManyRequests'] satisfies FaultKind[]);
});

test('reads never get an injected Conflict', async () => {
  const c = withFaultInjection(t.client, { rate: 1, seed: 5 });
  for (let i = 0; i < 30; i++) {
    const err = await c.get(configMaps, 'target', { namespace: ns }).catch((e: unknown) => e);
    assert.ok(!(err instanceof ConflictError));
  }
});

test('a lost response: the write happened although the caller saw a reset or timeout', async () => {
  const c = withFaultInjection(t.client, { rate: 1, seed: 11, faults: ['reset', 'timeout'], lostResponseRate: 1 });
  const name = uniqueName('lost');
  const err = await c.create(configMaps, configMap(name, ns)).catch((e: unknown) => e);
  assert.ok(err instanceof NetworkError || err instanceof TimeoutError, String(err));
  const stored = await t.client.get(configMaps, name, { namespace: ns });
  assert.equal(stored.metadata.name, name);
});

test('rate 0 passes everything through; setRate changes it', async () => {
  const c = withFaultInjection(t.client, { rate: 0 });
  for (let i = 0; i < 20; i++) await c.get(configMaps, 'target', { namespace: ns });
  c.setRate(1);
  await assert.rejects(c.get(configMaps, 'target', { namespace: ns }));
});

test('seededRandom is deterministic and in [0, 1)', () => {
  const r1 = seededRandom(42);
  const r2 = seededRandom(42);
  for (let i = 0; i < 1000; i++) {
    const v = r1();
    assert.equal(v, r2());
    assert.ok(v >= 0 && v < 1);
  }
});
