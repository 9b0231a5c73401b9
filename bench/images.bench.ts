// `npm run bench:images`: images through `bosun up --container-runtime oci`, from Debian's docker-registry on
// 127.0.0.1. The image is built here, offline: busybox and a layer of the host's shared libraries, about 70 MB
// compressed. Measured:
// 1. cold start: create of a one-shot pod until Succeeded, with the pull (fetch, verify, unpack) in it, and the
//    pull's own time from its Pulled Event;
// 2. warm start, create → container started (running or terminated seen on a watch), p50/p99, of 100 one-shot pods
//    one after another, beside `runc run` of the same image's bundle (umoci unpack) 100 times in the same run;
// 3. the agent's memory per running container: bosun up's RSS with 30 `sleep` pods against its RSS with none.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventsResource, podsResource } from '../src/apimachinery/builtin-resources.ts';
import type { KubeObject } from '../src/apimachinery/object.ts';
import { createKubeClient } from '../src/client/create-client.ts';
import { buildOciImage, pushImage } from '../test/helpers/oci-image.ts';
import { startTestRegistry } from '../test/helpers/test-registry.ts';
import { startBosunUp } from '../test/node/e2e/bosun-up.ts';

const WARM_PODS = Number(process.env['BENCH_PODS'] ?? 100);
const RUNNING_PODS = 30;
const LIBRARY_MB = 160;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}
function summary(values: number[]): { p50: number; p99: number } {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
}
const ms = (n: number) => `${n.toFixed(0)} ms`;

/** About LIBRARY_MB of the host's shared libraries: content that compresses as real images' does. */
function libraryLayer(dir: string): string {
  const from = '/usr/lib/x86_64-linux-gnu';
  const to = join(dir, 'usr', 'lib', 'bench');
  mkdirSync(to, { recursive: true });
  let bytes = 0;
  for (const name of readdirSync(from).sort()) {
    const path = join(from, name);
    const info = lstatSync(path);
    if (!info.isFile()) continue; // symlinks and directories: their targets are counted once
    cpSync(path, join(to, name));
    bytes += info.size;
    if (bytes > LIBRARY_MB * 2 ** 20) break;
  }
  return dir;
}

function rssKiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
  return Number(line?.replace(/\D+/g, '') ?? NaN);
}

const work = mkdtempSync(join(tmpdir(), 'bosun-bench-images-'));
const registry = await startTestRegistry();
const image = await buildOciImage({ layers: [{ dir: libraryLayer(join(work, 'libs')) }] });
const compressed = image.layers.reduce((sum, layer) => sum + layer.size, 0);
const reference = `${registry.host}/bench/libs:1.0`;
await pushImage(image, reference);
const up = await startBosunUp(['--container-runtime', 'oci', '--log-level', 'warn']);
const client = createKubeClient({ kubeconfigPath: join(up.dataDir, 'kubeconfig') });

const pod = (name: string, command: string[]): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'default' },
  spec: { restartPolicy: 'Never', terminationGracePeriodSeconds: 0, containers: [{ name: 'c', image: reference, command }] },
});

/** Creates the pod and resolves with the times (from the create) its container was first seen started and the pod reached phase. */
async function run(name: string, command: string[], phase: 'Succeeded' | 'Running'): Promise<{ started: number; done: number }> {
  const stream = await client.watch<KubeObject>(podsResource, { namespace: 'default', fieldSelector: `metadata.name=${name}` });
  const begin = performance.now();
  await client.create(podsResource, pod(name, command), { namespace: 'default' });
  let started: number | undefined;
  for await (const event of stream) {
    const status = (event.object['status'] ?? {}) as { phase?: string; containerStatuses?: { state?: Record<string, unknown> }[] };
    const state = status.containerStatuses?.[0]?.state ?? {};
    if (started === undefined && ('running' in state || 'terminated' in state)) started = performance.now() - begin;
    if (status.phase === phase) {
      stream.close();
      return { started: started ?? performance.now() - begin, done: performance.now() - begin };
    }
  }
  throw new Error(`the watch of ${name} ended`);
}

try {
  const cold = await run('cold', ['true'], 'Succeeded');
  const events = await client.list<KubeObject>(eventsResource, { namespace: 'default', fieldSelector: 'involvedObject.name=cold,reason=Pulled' });
  const pulled = String(events.items[0]?.['message'] ?? '');
  console.log(`image: ${(compressed / 2 ** 20).toFixed(1)} MB compressed in ${image.layers.length} layers`);
  console.log(`cold: create → Succeeded ${ms(cold.done)} (pull, unpack and start); ${pulled}`);

  const warm: number[] = [];
  for (let i = 0; i < WARM_PODS; i++) warm.push((await run(`warm-${i}`, ['true'], 'Succeeded')).started);
  const warmSummary = summary(warm);

  // Bare runc: the same image unpacked by umoci into a bundle, `true` run to its end each time.
  const bundle = join(work, 'bundle');
  execFileSync('umoci', ['unpack', '--image', `${image.layout}:latest`, bundle], { stdio: 'ignore' });
  const config = JSON.parse(readFileSync(join(bundle, 'config.json'), 'utf8')) as { process: { terminal: boolean; args: string[] } };
  config.process.terminal = false;
  config.process.args = ['true'];
  writeFileSync(join(bundle, 'config.json'), JSON.stringify(config));
  const bare: number[] = [];
  for (let i = 0; i < WARM_PODS; i++) {
    const begin = performance.now();
    const result = spawnSync('runc', ['--root', join(work, 'runc'), 'run', '--bundle', bundle, `bench-${i}`], { stdio: 'ignore' });
    bare.push(performance.now() - begin);
    if (result.status !== 0) throw new Error(`runc run exited with ${result.status}`);
  }
  const bareSummary = summary(bare);
  console.log(`warm: create → started p50 ${ms(warmSummary.p50)}, p99 ${ms(warmSummary.p99)} (${WARM_PODS} pods, one at a time)`);
  console.log(`bare runc run of the same bundle, to its exit: p50 ${ms(bareSummary.p50)}, p99 ${ms(bareSummary.p99)}; warm p99 / bare p99 = ${(warmSummary.p99 / bareSummary.p99).toFixed(2)}`);

  const pid = Number(execFileSync('pgrep', ['-f', '--', `up --data-dir ${up.dataDir}`], { encoding: 'utf8' }).trim().split('\n')[0]);
  await client.deleteCollection(podsResource, { namespace: 'default' });
  const idle = rssKiB(pid);
  for (let i = 0; i < RUNNING_PODS; i++) await run(`sleep-${i}`, ['sleep', '3600'], 'Running');
  const busy = rssKiB(pid);
  console.log(`bosun up RSS: ${(idle / 1024).toFixed(0)} MiB idle, ${(busy / 1024).toFixed(0)} MiB with ${RUNNING_PODS} running containers: ${((busy - idle) / RUNNING_PODS).toFixed(0)} KiB per container`);
} finally {
  await up.close();
  await registry.stop();
  image.remove();
  rmSync(work, { recursive: true, force: true });
}
