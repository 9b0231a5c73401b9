// `npm run bench:runtime`: the controller runtime against the embedded API server over HTTP.
// 1. no-op reconciles per second over 10,000 objects (from the moment the caches synced);
// 2. latency from a write (just before the PATCH is sent) to the start of its reconcile, p50/p99;
// 3. informer memory for 10,000 objects, measured in a child process that holds only the client and
//    the informer: RSS and heap deltas against the objects' JSON size.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import type { KubeObject } from '../src/apimachinery/object.ts';
import { startApiServer } from '../src/apiserver/index.ts';
import type { KubeClient, ResourceRef } from '../src/client/client.ts';
import { createKubeClient } from '../src/client/create-client.ts';
import { action } from '../src/runtime/controller/action.ts';
import { Informer } from '../src/runtime/informer/informer.ts';
import { Manager } from '../src/runtime/manager.ts';

const configMaps: ResourceRef = { group: '', version: 'v1', resource: 'configmaps', namespaced: true, kind: 'ConfigMap' };
const OBJECTS = Number(process.env["BENCH_OBJECTS"] ?? 10_000);
const LATENCY_SAMPLES = 500;
const NS = 'bench';

/** A ConfigMap of a realistic size (~700 bytes of JSON once stored). */
function object(i: number): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: `obj-${i}`,
      namespace: NS,
      labels: { app: 'bench', shard: String(i % 16), 'app.kubernetes.io/managed-by': 'bosun' },
      annotations: { 'bosun.dev/description': `benchmark object number ${i}` },
    },
    data: { seq: '0', config: JSON.stringify({ replicas: 3, image: 'registry.example.com/team/app:1.2.3', env: { LOG_LEVEL: 'info', FEATURE_X: 'on' } }), note: 'x'.repeat(200) },
  };
}

async function seed(client: KubeClient): Promise<void> {
  await client.create({ apiVersion: 'v1', kind: 'Namespace' }, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < OBJECTS) await client.create(configMaps, object(next++));
    }),
  );
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

async function reconcileThroughput(client: KubeClient, concurrency: number): Promise<{ perSecond: number; ms: number }> {
  const mgr = new Manager({ client, logger: pino({ enabled: false }), namespace: NS });
  let done = 0;
  let started = 0;
  let finish: () => void = () => {};
  const all = new Promise<void>((r) => (finish = r));
  mgr.controller<KubeObject, null>({
    name: `noop-${concurrency}`,
    for: configMaps,
    data: null,
    concurrency,
    reconcile: async () => {
      if (started === 0) started = performance.now();
      if (++done === OBJECTS) finish();
      return action.awaitChange();
    },
  });
  await mgr.start();
  await all;
  const ms = performance.now() - started;
  await mgr.stop();
  return { perSecond: (OBJECTS / ms) * 1000, ms };
}

async function writeToReconcile(client: KubeClient, writer: KubeClient): Promise<{ p50: number; p99: number; max: number }> {
  const mgr = new Manager({ client, logger: pino({ enabled: false }), namespace: NS });
  const sentAt = new Map<string, number>();
  const latencies: number[] = [];
  let waiting: (() => void) | undefined;
  let initial = 0;
  let warm: () => void = () => {};
  const warmed = new Promise<void>((r) => (warm = r));
  mgr.controller<KubeObject, null>({
    name: 'latency',
    for: configMaps,
    data: null,
    concurrency: 4,
    reconcile: async (obj) => {
      const tag = `${obj.metadata.name ?? ''}@${(obj['data'] as Record<string, string>)['seq'] ?? ''}`;
      if (++initial === OBJECTS) warm();
      const sent = sentAt.get(tag);
      if (sent !== undefined) {
        latencies.push(performance.now() - sent);
        sentAt.delete(tag);
        waiting?.();
      }
      return action.awaitChange();
    },
  });
  await mgr.start();
  // Let the initial 10,000 reconciles pass: they are not what this measures.
  await warmed;
  for (let i = 0; i < LATENCY_SAMPLES; i++) {
    const name = `obj-${(i * 37) % OBJECTS}`;
    const seq = String(i + 1);
    const seen = new Promise<void>((r) => (waiting = r));
    sentAt.set(`${name}@${seq}`, performance.now());
    await writer.patch(configMaps, name, { data: { seq } }, { type: 'merge', namespace: NS });
    await seen;
  }
  await mgr.stop();
  latencies.sort((a, b) => a - b);
  return { p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: latencies[latencies.length - 1] ?? NaN };
}

/** Child process: only a client and an informer, so RSS deltas are the cache's own. */
async function informerMemoryChild(kubeconfig: string): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  const client = createKubeClient({ kubeconfig });
  // Warm-up: page through the same list once and drop it, so the baseline already holds what listing
  // itself costs (V8's grown young generation, allocator arenas, the HTTP agent). What the delta then
  // shows is what keeping the cache costs. Without it the RSS delta swings by ±20 MiB run to run.
  let cont: string | undefined;
  do {
    const page = await client.list(configMaps, { namespace: NS, limit: 500, ...(cont ? { continue: cont } : {}) });
    cont = page.metadata.continue || undefined;
  } while (cont);
  const settle = async (): Promise<void> => {
    for (let i = 0; i < 4; i++) {
      gc();
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  await settle();
  const before = process.memoryUsage();
  const informer = new Informer({ client, resource: configMaps, namespace: NS });
  informer.start();
  await informer.waitForSync();
  // Let list-response buffers and parse garbage die before measuring what the cache holds.
  await informer.stop();
  await settle();
  const after = process.memoryUsage();
  let json = 0;
  for (const obj of informer.list()) json += Buffer.byteLength(JSON.stringify(obj));
  process.stdout.write(JSON.stringify({ objects: informer.list().length, json, rss: after.rss - before.rss, heap: after.heapUsed - before.heapUsed }));
  await client.close();
}

/** Runs the child asynchronously: the server it lists from lives in this process's event loop. */
function informerMemory(kubeconfig: string): Promise<{ objects: number; json: number; rss: number; heap: number }> {
  const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', fileURLToPath(import.meta.url), '--informer-memory-child'], {
    env: { ...process.env, BOSUN_BENCH_KUBECONFIG: kubeconfig },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`informer memory child failed: ${err}`));
      else resolve(JSON.parse(out) as { objects: number; json: number; rss: number; heap: number });
    });
  });
}

const mb = (n: number): string => `${(n / 1024 / 1024).toFixed(1)} MiB`;

async function main(): Promise<void> {
  if (process.argv.includes('--informer-memory-child')) {
    await informerMemoryChild(process.env['BOSUN_BENCH_KUBECONFIG'] ?? '');
    return;
  }
  const server = await startApiServer({ inMemory: true, port: 0 });
  const client = createKubeClient({ kubeconfig: server.kubeconfig });
  const writer = createKubeClient({ kubeconfig: server.kubeconfig });
  try {
    const t0 = performance.now();
    await seed(writer);
    console.log(`seeded ${OBJECTS} ConfigMaps in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    const one = await reconcileThroughput(client, 1);
    const four = await reconcileThroughput(client, 4);
    console.log(`no-op reconciles/s over ${OBJECTS} objects: ${one.perSecond.toFixed(0)} (1 worker), ${four.perSecond.toFixed(0)} (4 workers)   target ≥ 2,000`);

    const lat = await writeToReconcile(client, writer);
    console.log(`write → reconcile start over ${LATENCY_SAMPLES} writes: p50 ${lat.p50.toFixed(2)} ms, p99 ${lat.p99.toFixed(2)} ms, max ${lat.max.toFixed(2)} ms   target p99 < 50 ms`);

    const mem = await informerMemory(server.kubeconfig);
    console.log(
      `informer memory for ${mem.objects} objects: RSS +${mb(mem.rss)} (${(mem.rss / mem.json).toFixed(2)}× JSON), heap +${mb(mem.heap)} (${(mem.heap / mem.json).toFixed(2)}× JSON), JSON ${mb(mem.json)}   target ≤ 3× JSON`,
    );
    const pass = Math.max(one.perSecond, four.perSecond) >= 2000 && lat.p99 < 50 && mem.rss <= 3 * mem.json;
    console.log(pass ? 'all targets met' : 'TARGETS MISSED');
  } finally {
    await client.close();
    await writer.close();
    await server.close();
  }
}

await main();
