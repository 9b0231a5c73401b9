// Idle `bosun up`: what it costs a machine when nothing happens (issue 26: < 150 MiB RSS, < 1% of one core), and
// whether memory comes back after a load (RSS after the load within 20% of idle).
//
// 1. `bosun up --container-runtime host` as the tests start it, its node Ready, then a settle period;
// 2. SAMPLES windows of WINDOW_S seconds: the process tree's RSS (VmRSS of bosun up and its descendants) at the end of
//    each window and its CPU over it (utime+stime of the tree, plus what bosun up's reaped children used), as % of
//    one core; medians;
// 3. a load through the client: LOAD_CONFIGMAPS ConfigMaps created and deleted, LOAD_PODS `sleep` pods run and
//    deleted; then the settle period again and the RSS sampled as in 2.
// Environment: IDLE_WINDOW_S (default 60), IDLE_SAMPLES (3), IDLE_SETTLE_S (30).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { configMapsResource, podsResource } from '../src/apimachinery/builtin-resources.ts';
import type { KubeObject } from '../src/apimachinery/object.ts';
import { createKubeClient } from '../src/client/create-client.ts';
import { startBosunUp } from '../test/node/e2e/bosun-up.ts';

const WINDOW_S = Number(process.env['IDLE_WINDOW_S'] ?? 60);
const SAMPLES = Number(process.env['IDLE_SAMPLES'] ?? 3);
const SETTLE_S = Number(process.env['IDLE_SETTLE_S'] ?? 30);
const LOAD_CONFIGMAPS = 1000;
const LOAD_PODS = 50;
const TICKS_PER_S = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

/** The fields of /proc/PID/stat after the command name (field 3 onwards), or undefined once the process is gone. */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** pid and all its descendants, found through the parent pid of every process. */
function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const parent = Number(statFields(Number(entry))?.[1]);
    children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i] ?? -1) ?? []));
  return tree;
}

function rssKiB(pid: number): number {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
    return Number(line?.replace(/\D+/g, '') ?? 0);
  } catch {
    return 0;
  }
}

/** CPU ticks of the tree: each live process's utime+stime, and the root's cutime+cstime (its reaped children). */
function cpuTicks(pid: number): number {
  let ticks = 0;
  for (const member of processTree(pid)) {
    const fields = statFields(member);
    if (!fields) continue;
    ticks += Number(fields[11]) + Number(fields[12]);
    if (member === pid) ticks += Number(fields[13]) + Number(fields[14]);
  }
  return ticks;
}

const treeRssMiB = (pid: number): number => processTree(pid).reduce((sum, member) => sum + rssKiB(member), 0) / 1024;
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

/** SAMPLES windows: the tree's RSS at each window's end and its CPU over it. */
async function sample(pid: number, label: string): Promise<{ rss: number; cpu: number; tree: number }> {
  const rss: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const ticks = cpuTicks(pid);
    const begin = performance.now();
    await sleep(WINDOW_S * 1000);
    const seconds = (performance.now() - begin) / 1000;
    cpu.push(((cpuTicks(pid) - ticks) / TICKS_PER_S / seconds) * 100);
    rss.push(treeRssMiB(pid));
    console.log(`  ${label} sample ${i + 1}: RSS ${rss.at(-1)?.toFixed(1)} MiB, CPU ${cpu.at(-1)?.toFixed(2)}% of one core over ${seconds.toFixed(0)} s`);
  }
  return { rss: median(rss), cpu: median(cpu), tree: processTree(pid).length };
}

const up = await startBosunUp(['--log-level', 'warn']);
const client = createKubeClient({ kubeconfigPath: join(up.dataDir, 'kubeconfig') });
try {
  const pid = Number(execFileSync('pgrep', ['-f', '--', `up --data-dir ${up.dataDir}`], { encoding: 'utf8' }).trim().split('\n')[0]);
  const built = readdirSync(join(import.meta.dirname, '..')).includes('dist');
  // bin/bosun.js runs dist/cli while it is current (`npm run build`), the sources through tsx otherwise.
  console.log(`bosun up pid ${pid} (${built ? 'dist/cli if current, else tsx' : 'no dist/: sources through tsx; run "npm run build" first'}); settling ${SETTLE_S} s`);
  await sleep(SETTLE_S * 1000);
  const idle = await sample(pid, 'idle');

  const namespace = 'default';
  const names = Array.from({ length: LOAD_CONFIGMAPS }, (_, i) => `load-${i}`);
  for (let i = 0; i < names.length; i += 50) {
    await Promise.all(names.slice(i, i + 50).map((name) => client.create(configMapsResource, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { value: 'x'.repeat(1024) } }, { namespace })));
  }
  for (let i = 0; i < names.length; i += 50) await Promise.all(names.slice(i, i + 50).map((name) => client.delete(configMapsResource, name, { namespace })));
  const pods = Array.from({ length: LOAD_PODS }, (_, i) => `load-${i}`);
  const running = new Set<string>();
  const stream = await client.watch<KubeObject>(podsResource, { namespace });
  await Promise.all(pods.map((name) => client.create(podsResource, { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { terminationGracePeriodSeconds: 0, containers: [{ name: 'c', image: 'busybox', command: ['sleep', '3600'] }] } }, { namespace })));
  for await (const event of stream) {
    if ((event.object['status'] as { phase?: string } | undefined)?.phase === 'Running') running.add(event.object.metadata.name ?? '');
    if (running.size === LOAD_PODS) break;
  }
  stream.close();
  await client.deleteCollection(podsResource, { namespace });
  const gone = await client.watch<KubeObject>(podsResource, { namespace });
  const left = new Set((await client.list<KubeObject>(podsResource, { namespace })).items.map((pod) => pod.metadata.name));
  if (left.size > 0) {
    for await (const event of gone) {
      if (event.type === 'DELETED') left.delete(event.object.metadata.name);
      if (left.size === 0) break;
    }
  }
  gone.close();
  console.log(`load done (${LOAD_CONFIGMAPS} ConfigMaps and ${LOAD_PODS} pods created and deleted); settling ${SETTLE_S} s`);
  await sleep(SETTLE_S * 1000);
  const after = await sample(pid, 'after load');

  const ratio = after.rss / idle.rss;
  console.log('');
  console.log('| figure | measured | target |');
  console.log('|---|---|---|');
  console.log(`| idle RSS of the process tree (${idle.tree} processes), median of ${SAMPLES} | ${idle.rss.toFixed(0)} MiB | < 150 MiB ${idle.rss < 150 ? '(met)' : '(not met)'} |`);
  console.log(`| idle CPU, median of ${SAMPLES} windows of ${WINDOW_S} s | ${idle.cpu.toFixed(2)}% of one core | < 1% ${idle.cpu < 1 ? '(met)' : '(not met)'} |`);
  console.log(`| RSS after the load, median of ${SAMPLES} | ${after.rss.toFixed(0)} MiB (${((ratio - 1) * 100).toFixed(0)}% over idle) | within 20% ${ratio <= 1.2 ? '(met)' : '(not met)'} |`);
  console.log(`| CPU after the load | ${after.cpu.toFixed(2)}% of one core | |`);
} finally {
  await client.close();
  await up.close();
}
