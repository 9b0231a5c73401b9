// `npm run bench:images`: images through `bosun up --container-runtime oci`, from Debian's docker-registry on
// 127.0.0.1. The image is built here, offline: busybox and a layer of the host's shared libraries, about 70 MB
// compressed. Measured:
// 1. cold start: create of a one-shot pod until Succeeded, with the pull (fetch, verify, unpack) in it, and the
//    pull's own time from its Pulled Event;
// 2. warm start, create → container started (running or terminated seen on a watch), p50/p99, of 100 one-shot pods
//    one after another, beside `runc run` of the same image's bundle (umoci unpack) 100 times in the same run,
//    and beside conmon + `runc create` + `runc start` of that bundle (what the agent runs, for adoption across
//    restarts); with where a warm start's time goes (medians), from the agent's BOSUN_POD_START_TRACE;
// 3. the agent's memory per running container: bosun up's RSS with 30 `sleep` pods against its RSS with none.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventsResource, podsResource } from '../src/apimachinery/builtin-resources.ts';
import type { KubeObject } from '../src/apimachinery/object.ts';
import { createKubeClient } from '../src/client/create-client.ts';
import { createUnderConmon } from '../src/node/oci-runtime/conmon.ts';
import { ExitWatcher } from '../src/node/oci-runtime/exit-watcher.ts';
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
const median = (values: number[]) => summary(values).p50;
/** Epoch milliseconds with the monotonic clock's resolution: the agent's trace uses the same. */
const now = () => performance.timeOrigin + performance.now();

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
const traceFile = join(work, 'pod-start-trace.jsonl');
const up = await startBosunUp(['--container-runtime', 'oci', '--log-level', 'warn'], { BOSUN_POD_START_TRACE: traceFile });
const client = createKubeClient({ kubeconfigPath: join(up.dataDir, 'kubeconfig') });

const pod = (name: string, command: string[]): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'default' },
  spec: { restartPolicy: 'Never', terminationGracePeriodSeconds: 0, containers: [{ name: 'c', image: reference, command }] },
});

interface Run {
  uid: string;
  /** Epoch ms: the create sent, its answer, the first watch event with spec.nodeName (bound), the container seen started. */
  sent: number;
  created: number;
  bound: number;
  seen: number;
  /** From the create: container first seen started, and the pod in phase. */
  started: number;
  done: number;
}

/** Creates the pod and resolves with when (see Run) it was created, bound, seen started and in phase. */
async function run(name: string, command: string[], phase: 'Succeeded' | 'Running'): Promise<Run> {
  const stream = await client.watch<KubeObject>(podsResource, { namespace: 'default', fieldSelector: `metadata.name=${name}` });
  const sent = now();
  const object = await client.create(podsResource, pod(name, command), { namespace: 'default' });
  const created = now();
  let bound: number | undefined;
  let seen: number | undefined;
  for await (const event of stream) {
    const at = now();
    if (bound === undefined && (event.object['spec'] as { nodeName?: string } | undefined)?.nodeName) bound = at;
    const status = (event.object['status'] ?? {}) as { phase?: string; containerStatuses?: { state?: Record<string, unknown> }[] };
    const state = status.containerStatuses?.[0]?.state ?? {};
    if (seen === undefined && ('running' in state || 'terminated' in state)) seen = at;
    if (status.phase === phase) {
      stream.close();
      seen ??= at;
      return { uid: String(object.metadata.uid), sent, created, bound: bound ?? at, seen, started: seen - sent, done: at - sent };
    }
  }
  throw new Error(`the watch of ${name} ended`);
}

/**
 * Where the warm starts' time went: the agent's trace steps of each pod, with the bench's own (created, bound,
 * seen), as the median time from the step before. The status write is the first to begin after the start.
 */
function breakdown(runs: Run[]): string[] {
  const steps = new Map<string, { step: string; at: number }[]>();
  for (const line of readFileSync(traceFile, 'utf8').split('\n')) {
    if (line === '') continue;
    const { pod: uid, step, at } = JSON.parse(line) as { pod: string; step: string; at: number };
    steps.set(uid, [...(steps.get(uid) ?? []), { step, at }]);
  }
  const order = [
    ['created', 'API create answered'],
    ['bound', 'bound (seen on the bench\'s watch)'],
    ['worker', 'pod worker made (agent\'s informer)'],
    ['network', 'network namespace, veth, address'],
    ['prepared', 'pod directory, volumes, /etc files'],
    ['image', 'image resolved (present)'],
    ['config', 'container config (env, argv)'],
    ['dirs', 'overlay and scratch directories made'],
    ['overlay', 'overlay mounted'],
    ['spec', 'OCI spec, /etc files of the container'],
    ['bundle', 'leftover removed, bundle written'],
    ['runc-create', 'conmon spawned, runc create'],
    ['runc-start', 'runc start'],
    ['record', 'record.json written'],
    ['started', 'worker sees it started'],
    ['status-write', 'status write begins'],
    ['status-written', 'status write answered'],
    ['seen', 'watch event at the bench'],
  ] as const;
  const deltas = new Map<string, number[]>(order.map(([step]) => [step, []]));
  for (const r of runs) {
    const trace = steps.get(r.uid) ?? [];
    const first = (step: string, after = 0) => trace.find((t) => t.step === step && t.at >= after)?.at;
    const started = first('started') ?? NaN;
    const at: Record<string, number | undefined> = { created: r.created, bound: r.bound, seen: r.seen };
    for (const [step] of order) at[step] ??= step === 'status-write' ? first(step, started) : step === 'status-written' ? first(step, at['status-write'] ?? started) : first(step);
    let before = r.sent;
    for (const [step] of order) {
      const value = at[step];
      if (value === undefined) continue;
      deltas.get(step)?.push(value - before);
      before = value;
    }
  }
  return order.map(([step, what]) => `  ${what.padEnd(40)} +${median(deltas.get(step) ?? []).toFixed(1)} ms`);
}

try {
  const cold = await run('cold', ['true'], 'Succeeded');
  const events = await client.list<KubeObject>(eventsResource, { namespace: 'default', fieldSelector: 'involvedObject.name=cold,reason=Pulled' });
  const pulled = String(events.items[0]?.['message'] ?? '');
  console.log(`image: ${(compressed / 2 ** 20).toFixed(1)} MB compressed in ${image.layers.length} layers`);
  console.log(`cold: create → Succeeded ${ms(cold.done)} (pull, unpack and start); ${pulled}`);

  const warmRuns: Run[] = [];
  for (let i = 0; i < WARM_PODS; i++) warmRuns.push(await run(`warm-${i}`, ['true'], 'Succeeded'));
  const warmSummary = summary(warmRuns.map((r) => r.started));

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

  // conmon + runc create + runc start of the same bundle, as the agent runs them (its conmon.ts), until started.
  const shim = join(work, 'conmon');
  const dirs = { exits: join(shim, 'exits'), sockets: join(shim, 'sockets'), persist: join(shim, 'persist'), runcRoot: join(shim, 'runc') };
  for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
  const exits = new ExitWatcher(dirs.exits);
  const underConmon: number[] = [];
  for (let i = 0; i < WARM_PODS; i++) {
    const id = `bench-conmon-${i}`;
    const begin = performance.now();
    await createUnderConmon({
      conmon: '/usr/bin/conmon', runc: '/usr/sbin/runc', runcRoot: dirs.runcRoot, id, bundle, logPath: join(shim, `${id}.log`), exitDir: dirs.exits,
      persistDir: dirs.persist, socketDir: dirs.sockets, pidFile: join(shim, `${id}.pid`), conmonPidFile: join(shim, `${id}.conmon.pid`), timeoutMs: 30_000,
    });
    execFileSync('runc', ['--root', dirs.runcRoot, 'start', id]);
    underConmon.push(performance.now() - begin);
    await exits.wait(id);
    execFileSync('runc', ['--root', dirs.runcRoot, 'delete', '--force', id]);
  }
  exits.close();
  const conmonSummary = summary(underConmon);
  const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
  console.log(`warm: create → started p50 ${ms(warmSummary.p50)}, p99 ${ms(warmSummary.p99)} (${WARM_PODS} pods, one at a time); median steps:`);
  for (const line of breakdown(warmRuns)) console.log(line);
  console.log(`bare runc run of the same bundle, to its exit: p50 ${ms(bareSummary.p50)}, p99 ${ms(bareSummary.p99)}; warm / bare: p50 ${ratio(warmSummary.p50, bareSummary.p50)}, p99 ${ratio(warmSummary.p99, bareSummary.p99)}`);
  console.log(`bare conmon + runc create + runc start of the same bundle: p50 ${ms(conmonSummary.p50)}, p99 ${ms(conmonSummary.p99)}; warm / it: p50 ${ratio(warmSummary.p50, conmonSummary.p50)}, p99 ${ratio(warmSummary.p99, conmonSummary.p99)}`);

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
