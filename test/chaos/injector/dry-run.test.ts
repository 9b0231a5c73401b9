// --dry-run changes nothing: the cgroup files and the processes are the same before and after a full
// inject/clean cycle of every kind, and the log says what would have been written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { createTestContainer, processAlive, type TestContainer } from './cgroup-fixture.ts';
import { startInjector, waitReady } from './run-injector.ts';

/** Every readable file of the container's cgroup directories, except the counters that move by themselves. */
function snapshot(container: TestContainer): Record<string, string> {
  const moving = /usage|stat|max_usage|failcnt|pressure|numa|slabinfo/;
  const files: Record<string, string> = {};
  for (const dir of Object.values(container.runtime.cgroups)) {
    for (const name of readdirSync(dir)) {
      if (moving.test(name)) continue;
      try {
        files[`${dir}/${name}`] = readFileSync(`${dir}/${name}`, 'utf8');
      } catch {
        // write-only files
      }
    }
  }
  return files;
}

/** PIDs of processes whose command line names a stress child. */
function stressChildren(): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return /inject\0(cpu|memory)-stress/.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
      } catch {
        return false;
      }
    })
    .map(Number);
}

const cases: { kind: string; flags: string[]; controllers: string[]; files?: Record<string, string> }[] = [
  { kind: 'cpu-pressure', flags: ['--count', '100%'], controllers: ['cpu', 'cpuacct'], files: { 'cpu.cfs_quota_us': '100000' } },
  { kind: 'memory-pressure', flags: ['--target-percent', '80%'], controllers: ['memory'], files: { 'memory.limit_in_bytes': String(128 * 1024 * 1024) } },
  { kind: 'container-failure', flags: ['--forced'], controllers: ['pids'] },
];

for (const { kind, flags, controllers, files } of cases) {
  test(`${kind} --dry-run leaves the cgroups and processes as they were`, { timeout: 120_000 }, async () => {
    const container = await createTestContainer(controllers, files);
    const before = snapshot(container);
    const childrenBefore = stressChildren();
    const injector = startInjector([kind, '--level', 'pod', '--dry-run', '--target-containers', `app;bosun://${container.runtime.id}`, ...flags], { containers: { [container.runtime.id]: container.runtime }, pods: {} });
    try {
      await waitReady(injector);
      assert.deepEqual(stressChildren(), childrenBefore, 'no stress child started');
      assert.deepEqual(snapshot(container), before);
      assert.ok(processAlive(container.runtime.pid ?? 0), 'the target is alive');
      assert.ok(injector.logLines().some((line) => String(line['msg']).startsWith('dry-run: would')), injector.output());
      injector.child.kill('SIGTERM');
      assert.equal(await injector.exit, 0, injector.output());
      assert.deepEqual(snapshot(container), before);
      assert.ok(processAlive(container.runtime.pid ?? 0));
    } finally {
      injector.dispose();
      await container.dispose();
    }
  });
}
