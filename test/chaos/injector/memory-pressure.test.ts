// memory-pressure against a real cgroup v1 memory group with a 256 MiB limit and a real process in it: the
// stress child joins it and fills it to the requested share; a group without a limit fails the injection.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createTestContainer, readNumber, processAlive, waitFor } from './cgroup-fixture.ts';
import { startInjector, waitReady, waitLog } from './run-injector.ts';
import { parseMemoryLimit } from '../../../src/chaos/injector/cgroups.ts';
import { parseTargetPercent } from '../../../src/chaos/injector/kinds/memory-pressure.ts';

const LIMIT = 256 * 1024 * 1024;

test('limits and percentages', () => {
  assert.equal(parseMemoryLimit('268435456\n', 'f'), LIMIT);
  assert.throws(() => parseMemoryLimit('9223372036854771712', 'memory.limit_in_bytes'), { name: 'CgroupError', message: /no memory limit/ });
  assert.throws(() => parseMemoryLimit('max', 'memory.max'), { name: 'CgroupError' });
  assert.equal(parseTargetPercent('76%'), 76);
  assert.equal(parseTargetPercent('50'), 50);
  assert.throws(() => parseTargetPercent('0%'), { name: 'InjectorFlagError' });
});

test('memory-pressure 50% fills the target cgroup to half its limit, and frees it at clean', { timeout: 120_000 }, async () => {
  const container = await createTestContainer(['memory'], { 'memory.limit_in_bytes': String(LIMIT) });
  const memory = container.runtime.cgroups['memory'] ?? '';
  const injector = startInjector(['memory-pressure', '--level', 'pod', '--target-containers', `app;containerd://${container.runtime.id}`, '--target-percent', '50%', '--ramp-duration', '2s'], { containers: { [container.runtime.id]: container.runtime }, pods: {} });
  try {
    await waitReady(injector);
    await waitLog(injector, 'memory stress allocated');
    const usage = readNumber(`${memory}/memory.usage_in_bytes`);
    assert.ok(Math.abs(usage - LIMIT / 2) <= LIMIT * 0.1, `usage ${usage} is not within 10% of the limit around half of ${LIMIT}`);
    const childPid = Number(injector.logLines().find((line) => line['msg'] === 'memory stress started')?.['pid']);

    injector.child.kill('SIGTERM');
    assert.equal(await injector.exit, 0, injector.output());
    await waitFor('the stress child to exit', () => !processAlive(childPid));
    await waitFor('the memory to be freed', () => readNumber(`${memory}/memory.usage_in_bytes`) < LIMIT * 0.1);
    assert.ok(processAlive(container.runtime.pid ?? 0));
  } finally {
    injector.dispose();
    await container.dispose();
  }
  assert.ok(!existsSync(memory));
});

test('memory-pressure on a target without a memory limit fails the injection: no readiness file', { timeout: 120_000 }, async () => {
  const container = await createTestContainer(['memory']);
  const injector = startInjector(['memory-pressure', '--level', 'pod', '--target-containers', `app;bosun://${container.runtime.id}`, '--target-percent', '50%'], { containers: { [container.runtime.id]: container.runtime }, pods: {} });
  try {
    await waitLog(injector, 'injection failed');
    const failure = injector.logLines().find((line) => line['msg'] === 'injection failed');
    assert.match(String(failure?.['error']), /CgroupError: .*no memory limit/);
    await waitLog(injector, 'not every injection succeeded: the chaos pod does not become ready');
    assert.ok(!existsSync(injector.readinessFile));
    injector.child.kill('SIGTERM');
    assert.equal(await injector.exit, 0, injector.output());
    assert.ok(!existsSync(injector.readinessFile));
  } finally {
    injector.dispose();
    await container.dispose();
  }
});
