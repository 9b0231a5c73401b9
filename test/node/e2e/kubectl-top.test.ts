// kubectl top and kubectl describe node on `bosun up` (root): metrics.k8s.io from the node's kubelet
// Summary tracks a pod burning a CPU and a pod holding memory, compared with the pods' own cgroup counters
// over the same window; the Node shows kubelet's pressure conditions and System Info.
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, test } from 'node:test';
import { startBosunUp, type BosunUp } from './bosun-up.ts';

const CGROUP_V1 = '/sys/fs/cgroup';
const MI = 1024 * 1024;

let up: BosunUp;
before(async () => {
  up = await startBosunUp();
});
after(async () => {
  await up.close();
});

/** The pod's cgroup directory in a v1 hierarchy (cpuacct, memory), under whichever node root holds it. */
async function podCgroup(hierarchy: string, uid: string): Promise<string> {
  for (const root of await readdir(join(CGROUP_V1, hierarchy))) {
    const dir = join(CGROUP_V1, hierarchy, root, `pod${uid}`);
    if (await readFile(join(dir, 'cgroup.procs'), 'utf8').then(() => true, () => false)) return dir;
  }
  throw new Error(`no ${hierarchy} cgroup for pod ${uid}`);
}

async function cpuNs(uid: string): Promise<{ ns: number; at: number }> {
  return { ns: Number(await readFile(join(await podCgroup('cpuacct', uid), 'cpuacct.usage'), 'utf8')), at: performance.now() };
}

async function workingSet(uid: string): Promise<number> {
  const dir = await podCgroup('memory', uid);
  const usage = Number(await readFile(join(dir, 'memory.usage_in_bytes'), 'utf8'));
  const inactive = /^total_inactive_file (\d+)$/m.exec(await readFile(join(dir, 'memory.stat'), 'utf8'))?.[1] ?? '0';
  return usage - Number(inactive);
}

/** kubectl top pod's CPU (millicores) and memory (Mi) for one pod. */
async function topPod(name: string): Promise<{ milli: number; mi: number }> {
  const line = (await up.ok(['top', 'pod', name, '--no-headers'])).trim();
  const match = /^\S+\s+(\d+)m\s+(\d+)Mi$/.exec(line);
  assert.ok(match, `kubectl top pod: ${line}`);
  return { milli: Number(match[1]), mi: Number(match[2]) };
}

function pod(name: string, script: string, resources?: object): string {
  return JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name, labels: { app: 'top' } }, spec: { terminationGracePeriodSeconds: 1, containers: [{ name: 'c', image: 'busybox', command: ['sh', '-c', script], ...(resources ? { resources } : {}) }] } });
}

function within(actual: number, expected: number, what: string): void {
  assert.ok(Math.abs(actual - expected) <= expected * 0.2, `${what}: kubectl top says ${actual}, the cgroup ${expected.toFixed(1)}`);
}

test('kubectl top pods and nodes track a CPU burner and a memory holder within 20% of their cgroups', { timeout: 180_000 }, async (t) => {
  // A CPU limit keeps the burner's rate steady whatever else runs on the machine: kubectl top's window (between
  // the node's two readings) and the cgroup's (around the two kubectl runs) are not the same interval, and an
  // unlimited burner's share of a busy machine changes between them.
  await up.ok(['apply', '-f', '-'], pod('burn', 'while :; do :; done', { limits: { cpu: '300m' } }));
  // 64 MiB held in a shell variable (anonymous memory: all of it in the working set).
  await up.ok(['apply', '-f', '-'], pod('hold', 'x=$(head -c 67108864 /dev/zero | tr "\\0" a); echo held; sleep 3600'));
  await up.ok(['wait', '--for=condition=Ready', 'pod/burn', 'pod/hold', '--timeout=60s']);
  for (;;) {
    if ((await up.ok(['logs', 'hold'])).includes('held')) break;
    await sleep(200);
  }
  const burnUid = await up.ok(['get', 'pod', 'burn', '-o', 'jsonpath={.metadata.uid}']);
  const holdUid = await up.ok(['get', 'pod', 'hold', '-o', 'jsonpath={.metadata.uid}']);

  // The first request starts the node's rate window; the second reads it. The cgroup is read around both.
  const start = await cpuNs(burnUid);
  await topPod('burn');
  // A rate needs an interval: three seconds of burning between the two readings.
  await sleep(3000);
  const top = await topPod('burn');
  const end = await cpuNs(burnUid);
  const cgroupMilli = ((end.ns - start.ns) / 1e6 / (end.at - start.at)) * 1000;
  assert.ok(cgroupMilli > 150, `the burner got ${cgroupMilli.toFixed(0)}m of CPU: the machine is too busy to compare`);
  t.diagnostic(`burn: kubectl top ${top.milli}m, cgroup ${cgroupMilli.toFixed(0)}m`);
  within(top.milli, cgroupMilli, 'burn CPU (m)');

  const held = await topPod('hold');
  const heldBytes = await workingSet(holdUid);
  assert.ok(heldBytes >= 64 * MI, `the holder's working set is ${heldBytes} bytes`);
  t.diagnostic(`hold: kubectl top ${held.mi}Mi, cgroup working set ${(heldBytes / MI).toFixed(1)}Mi`);
  within(held.mi, heldBytes / MI, 'hold memory (Mi)');

  // kubectl top's own selection: label selectors in the namespace, all namespaces.
  const byLabel = await up.ok(['top', 'pods', '-l', 'app=top', '--no-headers']);
  assert.deepEqual(byLabel.trim().split('\n').map((l) => l.split(/\s+/)[0]).sort(), ['burn', 'hold']);
  assert.match(await up.ok(['top', 'pods', '-A', '--containers']), /burn\s+c\s+\d+m/);
  const missing = await up.kubectl(['top', 'pod', 'nope']);
  assert.notEqual(missing.code, 0);
  assert.match(missing.stderr, /podmetrics\.metrics\.k8s\.io "default\/nope" not found/);

  const nodes = (await up.ok(['top', 'nodes', '--no-headers'])).trim().split('\n');
  assert.equal(nodes.length, 1);
  assert.match(nodes[0] ?? '', /^\S+\s+\d+m\s+\d+%\s+\d+Mi\s+\d+%$/);
});

test('kubectl describe node shows the pressure conditions and System Info', { timeout: 60_000 }, async () => {
  const described = await up.ok(['describe', 'node']);
  for (const line of [/MemoryPressure\s+False\s.*KubeletHasSufficientMemory/, /DiskPressure\s+False\s.*KubeletHasNoDiskPressure/, /PIDPressure\s+False\s.*KubeletHasSufficientPID/, /Ready\s+True\s.*KubeletReady/]) {
    assert.match(described, line);
  }
  assert.match(described, /Kernel Version:\s+\S+/);
  assert.match(described, /OS Image:\s+\S+/);
  assert.match(described, /Architecture:\s+(amd64|arm64)/);
  assert.match(described, /Container Runtime Version:\s+bosun:\/\/\d+\.\d+/);
  assert.match(described, /Kubelet Version:\s+v1\.\d+\.\d+/);
});
