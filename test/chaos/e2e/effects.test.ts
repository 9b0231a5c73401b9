// What a disruption really does to its target, measured from the target's own cgroups through `bosun up`:
// CPU burnt, memory filled, direct writes throttled, the container restarted; and that a dry run changes
// nothing at all (cgroup files and processes identical).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../../src/apimachinery/object.ts';
import {
  chaosPods,
  containerCgroup,
  cpuRate,
  createDisruption,
  createRunningPod,
  deleteDisruptionAndWait,
  deleteRunningPod,
  execIn,
  expectStatus,
  freshNamespace,
  pgrep,
  restartCount,
  startChaosUp,
  until,
  workloadPod,
  type ChaosUp,
} from './chaos-up.ts';

const MEMORY_LIMIT = 256 * 1024 * 1024;
const WRITE_LIMIT = 4 * 1024 * 1024;

/** dd's own figure: "10485760 bytes (10 MB, 10 MiB) copied, 2.50493 s, 4.2 MB/s" → bytes per second. */
function ddRate(stderr: string): number {
  const m = /(\d+) bytes .* copied, ([\d.]+) s/.exec(stderr);
  assert.ok(m, `dd's summary in ${stderr}`);
  return Number(m[1]) / Number(m[2]);
}

/** 10 MiB of direct writes to the target's emptyDir; the file is removed afterwards. */
async function directWrite(c: ChaosUp, pod: KubeObject): Promise<number> {
  const { stdout } = await execIn(c, pod, 'ctn1', ['sh', '-c', 'dd if=/dev/zero of=/scratch/x bs=64k count=160 oflag=direct 2>&1; rm -f /scratch/x']);
  return ddRate(stdout);
}

function memoryUsage(pod: KubeObject): number {
  const dir = containerCgroup('memory', pod, 'ctn1');
  assert.ok(dir, 'memory cgroup of the target');
  return Number(readFileSync(join(dir, 'memory.usage_in_bytes'), 'utf8'));
}

/** What a dry run must leave alone: the limit and throttle files and the processes of each of the target's cgroups. */
function cgroupSnapshot(pod: KubeObject): Record<string, string> {
  const files: Record<string, string[]> = {
    cpu: ['cpu.cfs_quota_us', 'cpu.cfs_period_us', 'cpu.shares', 'cgroup.procs', 'tasks'],
    cpuacct: ['cgroup.procs'],
    cpuset: ['cpuset.cpus', 'cpuset.mems'],
    memory: ['memory.limit_in_bytes', 'memory.soft_limit_in_bytes', 'cgroup.procs', 'tasks'],
    blkio: ['cgroup.procs', 'tasks'],
    pids: ['pids.max', 'cgroup.procs'],
  };
  const snapshot: Record<string, string> = {};
  for (const [controller, names] of Object.entries(files)) {
    const dir = containerCgroup(controller, pod, 'ctn1');
    if (!dir) continue;
    const present = new Set(readdirSync(dir));
    const throttles = controller === 'blkio' ? [...present].filter((n) => n.startsWith('blkio.throttle.') && n.endsWith('_device')) : [];
    for (const name of [...names, ...throttles]) if (present.has(name)) snapshot[`${controller}/${name}`] = readFileSync(join(dir, name), 'utf8');
  }
  return snapshot;
}

describe('chaos e2e: real effects, measured', { timeout: 600_000 }, () => {
  let c: ChaosUp;
  before(async () => {
    c = await startChaosUp();
  });
  after(async () => {
    await c?.close();
  });

  it('a. cpu-pressure 50% of a 1-CPU target burns half a CPU in its cgroup, and stops on delete', async () => {
    const ns = await freshNamespace(c, 'cpu');
    const target = await createRunningPod(c, workloadPod(ns, { limits: { cpu: '1', memory: '256Mi' } }));
    const baseline = await cpuRate(target, 'ctn1');
    await createDisruption(c, ns, { count: 1, cpuPressure: { count: '50%' } });
    await expectStatus(c, ns, ['Injected']);
    // The stress child starts with the injection; wait until it shows, then measure a window of its own.
    await until('the stress child burning', async () => ((await cpuRate(target, 'ctn1', 1000)) > baseline + 0.2 ? true : undefined));
    const injected = await cpuRate(target, 'ctn1', 4000);
    const added = injected - baseline;
    console.log(`cpu: baseline ${baseline.toFixed(3)} CPU, injected ${injected.toFixed(3)} CPU, added ${added.toFixed(3)} CPU`);
    assert.ok(added >= 0.4 && added <= 0.6, `added ${added} CPU, expected 0.4–0.6`);
    assert.ok((await pgrep(`inject cpu-stress.*pod${target.metadata.uid ?? ''}`)).length > 0, 'a cpu-stress process while injected');

    await deleteDisruptionAndWait(c, ns);
    assert.deepEqual(await pgrep(`inject cpu-stress.*pod${target.metadata.uid ?? ''}`), [], 'no cpu-stress process left');
    const afterDelete = await cpuRate(target, 'ctn1');
    console.log(`cpu: after delete ${afterDelete.toFixed(3)} CPU`);
    assert.ok(afterDelete < baseline + 0.05, `after delete ${afterDelete} CPU, baseline ${baseline}`);
    await deleteRunningPod(c, target);
  });

  it('b. memory-pressure 50% of a 256Mi target fills half its limit, released on delete', async () => {
    const ns = await freshNamespace(c, 'mem');
    const target = await createRunningPod(c, workloadPod(ns));
    const baseline = memoryUsage(target);
    await createDisruption(c, ns, { count: 1, memoryPressure: { targetPercent: '50%' } });
    await expectStatus(c, ns, ['Injected']);
    await until('memory filled', async () => (memoryUsage(target) >= 0.4 * MEMORY_LIMIT ? true : undefined));
    const samples: number[] = [];
    for (let i = 0; i < 3; i++) {
      samples.push(memoryUsage(target));
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    console.log(`memory: baseline ${baseline} B, injected ${samples.join(', ')} B (${samples.map((s) => ((100 * s) / MEMORY_LIMIT).toFixed(1)).join(', ')} % of the limit)`);
    for (const s of samples) assert.ok(s >= 0.4 * MEMORY_LIMIT && s <= 0.6 * MEMORY_LIMIT, `usage ${s} B, expected 40–60 % of ${MEMORY_LIMIT}`);

    await deleteDisruptionAndWait(c, ns);
    assert.deepEqual(await pgrep(`inject memory-stress.*pod${target.metadata.uid ?? ''}`), [], 'no memory-stress process left');
    const released = await until('memory released', async () => {
      const usage = memoryUsage(target);
      return usage < 0.1 * MEMORY_LIMIT ? usage : undefined;
    });
    console.log(`memory: after delete ${released} B`);
    await deleteRunningPod(c, target);
  });

  it('c. disk-pressure writeBytesPerSec 4 MiB/s throttles direct writes to an emptyDir, unthrottled on delete', async () => {
    const ns = await freshNamespace(c, 'disk');
    const target = await createRunningPod(c, workloadPod(ns));
    const before = await directWrite(c, target);
    await createDisruption(c, ns, { count: 1, diskPressure: { path: '/scratch', throttling: { writeBytesPerSec: WRITE_LIMIT } } });
    await expectStatus(c, ns, ['Injected']);
    const blkio = containerCgroup('blkio', target, 'ctn1');
    assert.ok(blkio, 'blkio cgroup of the target');
    const rule = readFileSync(join(blkio, 'blkio.throttle.write_bps_device'), 'utf8').trim();
    assert.match(rule, new RegExp(`^\\d+:\\d+ ${WRITE_LIMIT}$`), 'one write throttle at the limit');
    const throttled = await directWrite(c, target);
    console.log(`disk: before ${(before / 2 ** 20).toFixed(1)} MiB/s, throttle "${rule}", injected ${(throttled / 2 ** 20).toFixed(2)} MiB/s`);
    assert.ok(Math.abs(throttled - WRITE_LIMIT) <= 0.2 * WRITE_LIMIT, `throttled to ${throttled} B/s, expected ${WRITE_LIMIT} ±20 %`);

    await deleteDisruptionAndWait(c, ns);
    assert.equal(readFileSync(join(blkio, 'blkio.throttle.write_bps_device'), 'utf8').trim(), '', 'throttle removed');
    const unthrottled = await directWrite(c, target);
    console.log(`disk: after delete ${(unthrottled / 2 ** 20).toFixed(1)} MiB/s`);
    assert.ok(unthrottled > 2 * WRITE_LIMIT, `after delete ${unthrottled} B/s`);
    await deleteRunningPod(c, target);
  });

  for (const forced of [true, false]) {
    it(`d. container-failure (forced: ${forced}) restarts the target container`, async () => {
      const ns = await freshNamespace(c, 'fail');
      const target = await createRunningPod(c, workloadPod(ns));
      assert.equal(await restartCount(c, target, 'ctn1'), 0);
      await createDisruption(c, ns, { count: 1, containerFailure: { forced } });
      await expectStatus(c, ns, ['Injected']);
      const restarts = await until('the container restarted', async () => {
        const n = await restartCount(c, target, 'ctn1');
        return n > 0 ? n : undefined;
      });
      console.log(`container-failure forced=${forced}: restartCount ${restarts}`);
      await deleteDisruptionAndWait(c, ns);
      // Not injected again after the restart (upstream #747): one restart only.
      assert.equal(await restartCount(c, target, 'ctn1'), 1);
      await deleteRunningPod(c, target);
    });
  }

  it('e. a dry-run cpu + memory + disk disruption leaves the target cgroups and processes identical', async () => {
    const ns = await freshNamespace(c, 'dry');
    // sleep infinity: a process list that changes only if something joins the cgroups.
    const target = await createRunningPod(c, workloadPod(ns, { command: ['sleep', 'infinity'] }));
    const before = cgroupSnapshot(target);
    assert.ok(Object.keys(before).length >= 10, `files read: ${Object.keys(before).join(', ')}`);
    await createDisruption(c, ns, { dryRun: true, count: 1, cpuPressure: { count: '50%' }, memoryPressure: { targetPercent: '50%' }, diskPressure: { path: '/scratch', throttling: { writeBytesPerSec: WRITE_LIMIT } } });
    await expectStatus(c, ns, ['Injected']);
    assert.equal((await chaosPods(c, ns)).length, 3, 'one chaos pod per kind');
    assert.deepEqual(cgroupSnapshot(target), before);
    assert.deepEqual(await pgrep(`inject (cpu|memory)-stress.*pod${target.metadata.uid ?? ''}`), [], 'no stress process in a dry run');
    await deleteDisruptionAndWait(c, ns);
    await deleteRunningPod(c, target);
  });
});
