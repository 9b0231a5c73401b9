// cpu-pressure against a real cgroup v1 "container" (cpu + cpuacct, a 1-CPU quota on this 2-CPU machine) with a
// real idle process in it: the stress child joins it and the cgroup's CPU usage rises by half a CPU.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, statSync, readFileSync } from 'node:fs';
import { createTestContainer, readNumber, processAlive, waitFor } from './cgroup-fixture.ts';
import { startInjector, waitReady } from './run-injector.ts';
import { burnPlan } from '../../../src/chaos/injector/stress/cpu-stress.ts';
import { parseCpuCount, percentageOfCapacity } from '../../../src/chaos/injector/kinds/cpu-pressure.ts';
import { countCpuList } from '../../../src/chaos/injector/cgroups.ts';

/** CPUs used by the cgroup over a ~2 s window, from cpuacct.usage (ns). */
async function usageRate(cpuacctDir: string): Promise<number> {
  const t0 = process.hrtime.bigint();
  const u0 = readNumber(`${cpuacctDir}/cpuacct.usage`);
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const u1 = readNumber(`${cpuacctDir}/cpuacct.usage`);
  const elapsed = Number(process.hrtime.bigint() - t0);
  return (u1 - u0) / elapsed;
}

test('count and capacity arithmetic', () => {
  assert.deepEqual(parseCpuCount('50%'), { percent: 50 });
  assert.deepEqual(parseCpuCount('2'), { cpus: 2 });
  assert.deepEqual(parseCpuCount('150%'), { percent: 100 });
  assert.throws(() => parseCpuCount('half'), { name: 'InjectorFlagError' });
  assert.equal(percentageOfCapacity({ cpus: 1 }, 2), 50);
  assert.equal(percentageOfCapacity({ cpus: 4 }, 2), 100);
  assert.deepEqual(burnPlan(50, 1), { workers: 1, duty: 0.5 });
  assert.deepEqual(burnPlan(75, 2), { workers: 2, duty: 0.75 });
  assert.equal(countCpuList('0-3,6'), 5);
});

test('cpu-pressure 50% burns half of a 1-CPU quota in the target cgroup, and stops at clean', { timeout: 120_000 }, async () => {
  // A high cpu.shares, as a pod that requested its CPU: in cgroup v1 the group competes as one entity with
  // the machine's other processes, and this machine is shared with other test runs.
  const container = await createTestContainer(['cpu', 'cpuacct'], { 'cpu.cfs_period_us': '100000', 'cpu.cfs_quota_us': '100000', 'cpu.shares': '262144' });
  const cpuacct = container.runtime.cgroups['cpuacct'] ?? '';
  const idle = await usageRate(cpuacct);
  assert.ok(idle < 0.05, `idle target uses ${idle} CPU`);
  const injector = startInjector(['cpu-pressure', '--level', 'pod', '--target-containers', `app;bosun://${container.runtime.id}`, '--count', '50%', '--log-context-target-name', 'target'], { containers: { [container.runtime.id]: container.runtime }, pods: {} });
  try {
    await waitReady(injector);
    assert.equal(readFileSync(injector.readinessFile, 'utf8'), '1');
    assert.equal(statSync(injector.readinessFile).mode & 0o777, 0o400);
    const started = injector.logLines().find((line) => line['msg'] === 'cpu stress started');
    assert.ok(started, injector.output());
    const childPid = Number(started['pid']);
    assert.ok(readFileSync(`${cpuacct}/cgroup.procs`, 'utf8').split('\n').includes(String(childPid)), 'the stress child joined the cgroup');
    assert.equal(injector.logLines().find((line) => line['msg'] === 'starting cpu stress')?.['capacity'], 1, 'capacity is the quota, not the 2-CPU cpuset');

    const stressed = await usageRate(cpuacct);
    assert.ok(stressed >= 0.4 && stressed <= 0.6, `injected: ${stressed} CPU, expected 0.4–0.6`);

    injector.child.kill('SIGTERM');
    assert.equal(await injector.exit, 0, injector.output());
    await waitFor('the stress child to exit', () => !processAlive(childPid));
    const after = await usageRate(cpuacct);
    assert.ok(after < 0.05, `after clean: ${after} CPU`);
    assert.ok(processAlive(container.runtime.pid ?? 0), 'the target itself is untouched');
    assert.deepEqual(
      injector.calls().filter((c) => c.call === 'removeFinalizer').map((c) => c.args),
      [{ namespace: 'chaos-engineering', name: 'chaos-pod-1', finalizer: 'finalizer.chaos.datadoghq.com/chaos-pod' }],
    );
  } finally {
    injector.dispose();
    await container.dispose();
  }
  assert.ok(!existsSync(cpuacct));
});

test('the cpu-stress child ends by itself when its parent injector is killed', { timeout: 120_000 }, async () => {
  const container = await createTestContainer(['cpu', 'cpuacct'], { 'cpu.cfs_quota_us': '50000' });
  const injector = startInjector(['cpu-pressure', '--level', 'pod', '--target-containers', `app;bosun://${container.runtime.id}`, '--count', '1'], { containers: { [container.runtime.id]: container.runtime }, pods: {} });
  try {
    await waitReady(injector);
    const childPid = Number(injector.logLines().find((line) => line['msg'] === 'cpu stress started')?.['pid']);
    assert.ok(processAlive(childPid));
    injector.child.kill('SIGKILL');
    await injector.exit;
    await waitFor('the orphaned stress child to exit', () => !processAlive(childPid));
  } finally {
    injector.dispose();
    await container.dispose();
  }
});
