// kubelet's Summary API from fixture cgroup files (v1 and v2): CPU rates from two readings, working set as
// usage less inactive file pages, pods the agent does not know left out. The node's readings are the host's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StatsSummary } from '../../src/node/stats/stats-summary.ts';
import { parseMeminfo, parseProcStatCpu } from '../../src/node/stats/node-usage.ts';

const MI = 1024 * 1024;

async function writeFiles(dir: string, files: Record<string, string>): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
}

function v1Files(cpuNs: number, usage: number, inactiveFile: number, rss: number) {
  return {
    cpu: { 'cpuacct.usage': `${cpuNs}\n` },
    memory: { 'memory.usage_in_bytes': `${usage}\n`, 'memory.stat': `cache 1\nrss ${rss}\ntotal_rss ${rss}\ntotal_inactive_file ${inactiveFile}\n` },
  };
}

async function writeV1(root: string, path: string, files: ReturnType<typeof v1Files>): Promise<void> {
  await writeFiles(join(root, 'cpuacct', path), files.cpu);
  await writeFiles(join(root, 'memory', path), files.memory);
}

test('stats summary (cgroup v1): one core busy over the window is 1e9 nanocores; working set is usage less inactive file', async () => {
  const root = await mkdtemp(join(tmpdir(), 'bosun-stats-'));
  try {
    let clock = Date.parse('2026-11-28T10:00:00Z');
    const pods = new Map([['u1', { namespace: 'default', name: 'burn' }]]);
    const summary = new StatsSummary({
      nodeName: 'n1',
      fsPath: root,
      roots: [{ version: 1, cpu: join(root, 'cpuacct'), memory: join(root, 'memory') }],
      podByUid: (uid) => pods.get(uid),
      now: () => new Date(clock),
    });
    await writeV1(root, 'podu1', v1Files(5e9, 100 * MI, 36 * MI, 60 * MI));
    await writeV1(root, 'podu1/burn', v1Files(5e9, 100 * MI, 36 * MI, 60 * MI));
    // A cgroup of a pod the agent does not know (an orphan from a previous agent) is not reported.
    await writeV1(root, 'podu2', v1Files(1e9, MI, 0, MI));
    const first = await summary.summary();
    assert.equal(first.pods.length, 1);
    assert.equal(first.pods[0]?.cpu.usageNanoCores, 0, 'unchanged counters over the first window');

    clock += 10_000;
    await writeV1(root, 'podu1', v1Files(15e9, 100 * MI, 36 * MI, 60 * MI));
    await writeV1(root, 'podu1/burn', v1Files(15e9, 100 * MI, 36 * MI, 60 * MI));
    const second = await summary.summary();
    const pod = second.pods[0]!;
    assert.deepEqual(pod.podRef, { name: 'burn', namespace: 'default', uid: 'u1' });
    assert.equal(pod.cpu.usageNanoCores, 1e9);
    assert.equal(pod.cpu.usageCoreNanoSeconds, 15e9);
    assert.equal(pod.cpu.time, '2026-11-28T10:00:10Z');
    assert.deepEqual(pod.memory, { time: '2026-11-28T10:00:10Z', usageBytes: 100 * MI, workingSetBytes: 64 * MI, rssBytes: 60 * MI });
    assert.equal(pod.containers.length, 1);
    assert.equal(pod.containers[0]?.name, 'burn');
    assert.equal(pod.containers[0]?.cpu.usageNanoCores, 1e9);
    assert.equal(pod.containers[0]?.memory.workingSetBytes, 64 * MI);
    assert.equal(second.node.nodeName, 'n1');
    assert.ok(second.node.memory.availableBytes! > 0 && second.node.fs.capacityBytes > 0 && second.node.rlimit.maxpid > 0);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test('stats summary (cgroup v2): cpu.stat usage_usec, memory.current less inactive_file, anon as RSS', async () => {
  const root = await mkdtemp(join(tmpdir(), 'bosun-stats-'));
  try {
    let clock = Date.parse('2026-11-28T10:00:00Z');
    const summary = new StatsSummary({ nodeName: 'n1', fsPath: root, roots: [{ version: 2, cpu: root, memory: root }], podByUid: () => ({ namespace: 'ns', name: 'p' }), now: () => new Date(clock) });
    const files = (usec: number) => ({ 'cpu.stat': `usage_usec ${usec}\nuser_usec 1\nsystem_usec 1\n`, 'memory.current': `${80 * MI}\n`, 'memory.stat': `anon ${70 * MI}\nfile ${10 * MI}\ninactive_file ${16 * MI}\n` });
    await writeFiles(join(root, 'podu1'), files(0));
    await writeFiles(join(root, 'podu1', 'c'), files(0));
    await summary.summary();
    clock += 4_000;
    await writeFiles(join(root, 'podu1'), files(2_000_000));
    await writeFiles(join(root, 'podu1', 'c'), files(2_000_000));
    const pod = (await summary.summary()).pods[0]!;
    assert.equal(pod.cpu.usageNanoCores, 5e8, 'two CPU-seconds over four seconds is half a core');
    assert.equal(pod.memory.workingSetBytes, 64 * MI);
    assert.equal(pod.memory.rssBytes, 70 * MI);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test('node readings: busy time from /proc/stat without idle and iowait; meminfo in bytes', () => {
  assert.equal(parseProcStatCpu('cpu  100 0 50 1000 30 0 0 0 0 0\ncpu0 1 2 3 4\n'), 150 * 10_000_000);
  const meminfo = parseMeminfo('MemTotal:       2048 kB\nMemAvailable:   1024 kB\nHugePages_Total:       0\n');
  assert.equal(meminfo.get('MemTotal'), 2048 * 1024);
  assert.equal(meminfo.get('MemAvailable'), 1024 * 1024);
  assert.equal(meminfo.get('HugePages_Total'), 0);
});
