// `npm run bench:node`: pods as sandboxed processes, end to end. An embedded API server with the workloads
// controllers (the scheduler) runs in this process; the node agent runs as `bosun node` in a child process, so
// its memory is its own. Measured:
// 1. kubectl create of 100 one-shot pods (`true`) until all are Succeeded;
// 2. pod start latency, create → Running, p50/p99: 30 pods one at a time, and 100 long-running pods at once;
// 3. the agent's memory per running pod: its RSS with those 100 pods against its RSS with none, and the CPU its
//    event loop's thread spent on the burst of them;
// and, in the same run, the ceiling: the same sandboxed process started 100 times without the API (one after
// another for latency, all at once for throughput; all at once also just before and just after the burst of 3.),
// on the host's network; and beside the burst also each in its own network namespace on a bridge, as a pod is (the
// same BridgeNetwork the agent uses, on a bridge of its own): the kernel work a pod's network costs, without Bosun.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pino } from 'pino';
import { podsResource } from '../src/apimachinery/builtin-resources.ts';
import type { KubeObject } from '../src/apimachinery/object.ts';
import { startApiServer } from '../src/apiserver/index.ts';
import type { KubeClient } from '../src/client/client.ts';
import { createKubeClient } from '../src/client/create-client.ts';
import { loadOrCreateKubeletPki } from '../src/node/kubelet-api/kubelet-pki.ts';
import { BridgeNetwork } from '../src/node/network/bridge-network.ts';
import { Sandbox } from '../src/node/sandbox/sandbox.ts';
import type { PodNetwork } from '../src/node/sandbox/types.ts';
import { Manager } from '../src/runtime/manager.ts';
import { registerWorkloads } from '../src/workloads/family.ts';

const PODS = Number(process.env['BENCH_PODS'] ?? 100);
const PACED_PODS = 30;
const NS = 'default';
const bin = join(import.meta.dirname, '..', 'bin', 'bosun.js');

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

function summary(values: number[]): { p50: number; p99: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted[sorted.length - 1] ?? NaN };
}

const ms = (n: number) => `${n.toFixed(0)} ms`;

function podList(prefix: string, command: string[], count = PODS): string {
  const items = Array.from({ length: count }, (_, i) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `${prefix}-${i}`, labels: { bench: prefix } },
    spec: { restartPolicy: 'Never', terminationGracePeriodSeconds: 1, containers: [{ name: 'c', image: 'busybox', command }] },
  }));
  return JSON.stringify({ apiVersion: 'v1', kind: 'List', items });
}

function kubectl(kubeconfig: string, cacheDir: string, args: string[], input?: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('kubectl', ['--kubeconfig', kubeconfig, '--cache-dir', cacheDir, ...args], { stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`kubectl ${args.join(' ')}: ${stderr}`))));
    child.stdin.end(input);
  });
}

interface PodTimes {
  uid: string;
  seen: number;
  started?: number;
  done?: number;
}

/** Watches the pods of one label; resolves when `until` holds for all PODS of them, with each pod's times. */
async function watchPods(client: KubeClient, label: string, until: 'Succeeded' | 'Running', expected = PODS): Promise<{ times: Map<string, PodTimes>; finished: Promise<number> }> {
  const times = new Map<string, PodTimes>();
  const stream = await client.watch<KubeObject>(podsResource, { namespace: NS, labelSelector: `bench=${label}` });
  let resolveFinished!: (at: number) => void;
  const finished = new Promise<number>((resolve) => (resolveFinished = resolve));
  let count = 0;
  void (async () => {
    for await (const event of stream) {
      const now = performance.now();
      const pod = event.object;
      const name = pod.metadata.name ?? '';
      const entry = times.get(name) ?? { uid: pod.metadata.uid ?? '', seen: now };
      times.set(name, entry);
      const status = (pod['status'] ?? {}) as { phase?: string; containerStatuses?: { state?: Record<string, unknown> }[] };
      const state = status.containerStatuses?.[0]?.state ?? {};
      if (entry.started === undefined && ('running' in state || 'terminated' in state)) entry.started = now;
      if (entry.done === undefined && status.phase === until) {
        entry.done = now;
        if (++count === expected) resolveFinished(now);
      }
    }
  })();
  return { times, finished: finished.finally(() => stream.close()) };
}

function rssKiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
  return Number(line?.replace(/\D+/g, '') ?? NaN);
}

/** CPU time in ms from a stat(5) file: utime + stime (fields 14 and 15, in clock ticks of 10 ms). */
function statCpuMs(path: string): number {
  const stat = readFileSync(path, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // The slice starts at field 3.
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** CPU time of the process's main thread (its event loop), in ms. */
const loopCpuMs = (pid: number) => statCpuMs(`/proc/${pid}/task/${pid}/stat`);
/** CPU time of the whole process, every thread (the file system calls run in libuv's pool), in ms. */
const processCpuMs = (pid: number) => statCpuMs(`/proc/${pid}/stat`);

/** The median of ten RSS samples a quarter second apart: the garbage collector makes single readings noisy. */
async function settledRssKiB(pid: number): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < 10; i++) {
    samples.push(rssKiB(pid));
    await new Promise((r) => setTimeout(r, 250));
  }
  return summary(samples).p50;
}

async function startAgent(kubeconfig: string, dataDir: string): Promise<ChildProcess> {
  // `bosun node` serves the kubelet API with the certificates `bosun up` makes beside the kubeconfig.
  await loadOrCreateKubeletPki(join(dirname(kubeconfig), 'pki', 'kubelet'));
  // The host sandbox, which the ceiling measures; `auto` would pull busybox from a registry.
  // BENCH_AGENT_NODE_ARGS: Node options for the agent (e.g. --cpu-prof --cpu-prof-dir=DIR).
  const nodeArgs = (process.env['BENCH_AGENT_NODE_ARGS'] ?? '').split(' ').filter((word) => word !== '');
  const child = spawn(process.execPath, [...nodeArgs, bin, 'node', '--kubeconfig', kubeconfig, '--name', 'bench-node', '--data-dir', dataDir, '--log-level', 'warn', '--container-runtime', 'host'], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('bosun node is ready')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`bosun node exited with ${code}: ${out}`)));
  });
  return child;
}

/**
 * The same sandboxed process as the pods, without the API: started `PODS` times `at once` or one after another; on
 * the host's network, or with `bridge` each in a network namespace of its own attached to that bridge first.
 */
async function ceilingRun(label: string, at: 'once' | 'sequence', bridge?: BridgeNetwork): Promise<number[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bosun-bench-sandbox-'));
  const sandbox = await Sandbox.open({ cgroup: { placement: 'top', name: 'bosun-bench-ceiling' }, privateDirs: [dir] });
  const uid = (i: number) => `bench-ceiling-${label}-${i}`;
  const pod = (i: number, network: PodNetwork) => ({ name: `p${i}`, namespace: NS, uid: uid(i), hostname: `p${i}`, etcHosts: '127.0.0.1 localhost\n', resolvConf: '', podDir: join(dir, `p${i}`), network });
  const run = async (i: number) => {
    const started = performance.now();
    const network: PodNetwork = bridge ? (await bridge.attach({ uid: uid(i), name: `p${i}`, namespace: NS })).network : { kind: 'host' };
    const handle = await sandbox.start({ pod: pod(i, network), container: { name: 'c', argv: ['true'] }, logPath: join(dir, `p${i}`, 'log') });
    await handle.exited;
    return performance.now() - started;
  };
  const latencies: number[] = [];
  if (at === 'sequence') for (let i = 0; i < PODS; i++) latencies.push(await run(i));
  else {
    const started = performance.now();
    await Promise.all(Array.from({ length: PODS }, (_, i) => run(i)));
    latencies.push(performance.now() - started);
  }
  for (let i = 0; i < PODS; i++) {
    await sandbox.destroyPod(uid(i));
    await bridge?.detach(uid(i));
  }
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
  return latencies;
}

async function ceiling(): Promise<{ sequential: ReturnType<typeof summary>; parallelMs: number }> {
  const sequential = summary(await ceilingRun('sequence', 'sequence'));
  const [parallelMs = NaN] = await ceilingRun('once', 'once');
  return { sequential, parallelMs };
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'bosun-bench-node-'));
  const server = await startApiServer({ inMemory: true, port: 0 });
  const kubeconfig = join(work, 'kubeconfig');
  writeFileSync(kubeconfig, server.kubeconfig, { mode: 0o600 });
  const client = createKubeClient({ kubeconfig: server.kubeconfig });
  const mgr = new Manager({ client, logger: pino({ enabled: false }) });
  registerWorkloads(mgr, { job: false, replicaSet: false, deployment: false });
  await mgr.start();
  const agent = await startAgent(kubeconfig, join(work, 'node'));
  // The network ceiling's own bridge and block, so it never meets the agent's (or a test's) pods.
  const bridge = await BridgeNetwork.open({ stateDir: join(work, 'ceiling-network'), bridgeName: `bnc${process.pid % 100000}`, clusterCIDR: '10.247.0.0/16' });
  const cacheDir = mkdtempSync(join(tmpdir(), 'bosun-bench-kubectl-'));
  try {
    // 1. One-shot pods until all Succeeded.
    const oneShot = await watchPods(client, 'oneshot', 'Succeeded');
    const createdAt = performance.now();
    await kubectl(kubeconfig, cacheDir, ['create', '-f', '-'], podList('oneshot', ['true']));
    const allDoneMs = (await oneShot.finished) - createdAt;
    const oneShotStarts = [...oneShot.times.values()].map((t) => (t.started ?? NaN) - t.seen);
    await kubectl(kubeconfig, cacheDir, ['delete', 'pods', '-l', 'bench=oneshot', '--wait=true', '--timeout=120s']);

    // 2. and 3. Long-running pods: start latency to Running, and the agent's memory per running pod.
    const idleKiB = await settledRssKiB(agent.pid ?? 0);
    // The ceiling at once right before and right after the burst as well: on a shared machine the load moves
    // within a run, and the ceiling at the run's end can be half or twice what it was during the burst.
    const [beforeMs = NaN] = await ceilingRun('before', 'once');
    const [beforeNetworkMs = NaN] = await ceilingRun('before-net', 'once', bridge);
    const running = await watchPods(client, 'running', 'Running');
    const burstCpuStart = loopCpuMs(agent.pid ?? 0);
    const burstProcessCpuStart = processCpuMs(agent.pid ?? 0);
    await kubectl(kubeconfig, cacheDir, ['create', '-f', '-'], podList('running', ['sleep', '3600']));
    await running.finished;
    const burstCpuMs = loopCpuMs(agent.pid ?? 0) - burstCpuStart;
    const burstProcessCpuMs = processCpuMs(agent.pid ?? 0) - burstProcessCpuStart;
    const busyKiB = await settledRssKiB(agent.pid ?? 0);
    const toRunning = summary([...running.times.values()].map((t) => (t.done ?? NaN) - t.seen));
    // With the agent's trace on, the burst's pods as the bench saw them (epoch ms), to be joined with it by uid.
    const trace = process.env['BOSUN_POD_START_TRACE'];
    if (trace) writeFileSync(`${trace}.burst.json`, JSON.stringify([...running.times.values()].map((t) => ({ uid: t.uid, seen: performance.timeOrigin + t.seen, running: performance.timeOrigin + (t.done ?? NaN) }))));
    await kubectl(kubeconfig, cacheDir, ['delete', 'pods', '-l', 'bench=running', '--wait=true', '--timeout=120s']);
    const [afterNetworkMs = NaN] = await ceilingRun('after-net', 'once', bridge);
    const [afterMs = NaN] = await ceilingRun('after', 'once');
    const besideMs = (beforeMs + afterMs) / 2;
    const besideNetworkMs = (beforeNetworkMs + afterNetworkMs) / 2;

    // 4. Start latency without a burst: pods created one at a time, each once the one before runs.
    const paced: number[] = [];
    for (let i = 0; i < PACED_PODS; i++) {
      const one = await watchPods(client, `paced-${i}`, 'Running', 1);
      const created = performance.now();
      await client.create(podsResource, JSON.parse(podList(`paced-${i}`, ['sleep', '3600'], 1)).items[0] as KubeObject, { namespace: NS });
      paced.push((await one.finished) - created);
    }
    const pacedLatency = summary(paced);
    await kubectl(kubeconfig, cacheDir, ['delete', 'pods', '--all', '--wait=true', '--timeout=120s']);

    const limit = await ceiling();
    const perPodMiB = (busyKiB - idleKiB) / 1024 / PODS;
    console.log(`node agent, ${PODS} pods (the ceiling: the same sandboxed process without the API, measured in this run)`);
    console.log(`  ${PODS} one-shot pods, kubectl create → all Succeeded: ${ms(allDoneMs)} (target < 10000 ms; ceiling, ${PODS} sandboxed \`true\` at once: ${ms(limit.parallelMs)}, ratio ${(allDoneMs / limit.parallelMs).toFixed(1)}x)`);
    console.log(`  one-shot pods, create → container started: p50 ${ms(summary(oneShotStarts).p50)}, p99 ${ms(summary(oneShotStarts).p99)}`);
    console.log(`  ${PACED_PODS} pods one at a time, create → Running: p50 ${ms(pacedLatency.p50)}, p99 ${ms(pacedLatency.p99)} (target p99 < 500 ms; ceiling, one sandboxed start → exit at a time: p50 ${ms(limit.sequential.p50)}, p99 ${ms(limit.sequential.p99)})`);
    console.log(`  ${PODS} long-running pods created at once, create → Running: p50 ${ms(toRunning.p50)}, p99 ${ms(toRunning.p99)} (a burst: each waits its turn; ceiling, ${PODS} at once: ${ms(limit.parallelMs)} for all); p99 ÷ ceiling ${(toRunning.p99 / limit.parallelMs).toFixed(2)}x (target ≤ 1.3x)`);
    console.log(`  the same burst beside the ceiling at once just before and just after it (${ms(beforeMs)}, ${ms(afterMs)}): p99 ÷ their mean ${(toRunning.p99 / besideMs).toFixed(2)}x`);
    console.log(`  the same burst beside the ceiling with the pods' network (each sandbox in its own network namespace on a bridge) at once just before and just after it (${ms(beforeNetworkMs)}, ${ms(afterNetworkMs)}): p99 ÷ their mean ${(toRunning.p99 / besideNetworkMs).toFixed(2)}x`);
    console.log(`  agent's event loop (main thread) CPU over that burst: ${ms(burstCpuMs)}, ${(burstCpuMs / PODS).toFixed(1)} ms per pod; the whole agent process ${(burstProcessCpuMs / PODS).toFixed(1)} ms per pod`);
    console.log(`  agent RSS: ${(idleKiB / 1024).toFixed(1)} MiB idle, ${(busyKiB / 1024).toFixed(1)} MiB with ${PODS} running pods: ${perPodMiB.toFixed(2)} MiB per pod (target ≤ 2 MiB)`);
  } finally {
    agent.kill('SIGTERM');
    await new Promise((r) => agent.once('exit', r));
    await bridge.teardown();
    await mgr.stop();
    await client.close();
    await server.close();
    rmSync(work, { recursive: true, force: true });
    rmSync(cacheDir, { recursive: true, force: true });
  }
}

await main();
