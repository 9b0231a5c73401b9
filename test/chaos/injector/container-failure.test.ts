// container-failure kills the target container's main process: SIGTERM, or SIGKILL with --forced; clean does
// nothing, and the kind is not re-injected after a restart (upstream #747).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createTestContainer, processAlive } from './cgroup-fixture.ts';
import { startInjector, waitReady } from './run-injector.ts';
import { REINJECTABLE_KINDS } from '../../../src/chaos/injector/injector.ts';

test('container-failure sends SIGTERM to the container process, exits 0 after SIGTERM', { timeout: 120_000 }, async () => {
  const container = await createTestContainer(['pids']);
  const exited = new Promise<NodeJS.Signals | null>((resolve) => container.process.once('exit', (_code, signal) => resolve(signal)));
  const injector = startInjector(['container-failure', '--level', 'pod', '--target-containers', `app;bosun://${container.runtime.id}`], { containers: { [container.runtime.id]: container.runtime }, pods: {} });
  try {
    await waitReady(injector);
    assert.equal(await exited, 'SIGTERM');
    injector.child.kill('SIGTERM');
    assert.equal(await injector.exit, 0, injector.output());
  } finally {
    injector.dispose();
    await container.dispose();
  }
});

test('container-failure --forced sends SIGKILL (a process that ignores SIGTERM dies too)', { timeout: 120_000 }, async () => {
  const stubborn = spawn('sh', ['-c', "trap '' TERM; while :; do sleep 1; done"], { stdio: 'ignore' });
  await new Promise((resolve) => stubborn.once('spawn', resolve));
  const pid = stubborn.pid ?? 0;
  const exited = new Promise<NodeJS.Signals | null>((resolve) => stubborn.once('exit', (_code, signal) => resolve(signal)));
  const runtime = { id: 'forced1', podUid: 'u', namespace: 'default', pod: 'target', container: 'app', pid, cgroupVersion: 1 as const, cgroups: {} };
  const injector = startInjector(['container-failure', '--level', 'pod', '--target-containers', 'app;bosun://forced1', '--forced'], { containers: { forced1: runtime }, pods: {} });
  try {
    await waitReady(injector);
    assert.equal(await exited, 'SIGKILL');
    assert.ok(!processAlive(pid));
    injector.child.kill('SIGTERM');
    assert.equal(await injector.exit, 0, injector.output());
  } finally {
    injector.dispose();
    stubborn.kill('SIGKILL');
  }
});

test('container-failure is not reinjectable', () => {
  assert.ok(!REINJECTABLE_KINDS.includes('container-failure'));
});
