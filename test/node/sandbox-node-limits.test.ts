// Issue 27, finding 8: a node-wide pid limit. pids.max of 4096 per pod with no cap on all pods together let
// eight pods exhaust the host's pid_max (32768); the sandbox's root cgroup now holds pid_max less a reserve
// for the host (kubelet's --system-reserved pid), or what the agent says.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { defaultNodePidsLimit } from '../../src/node/sandbox/sandbox.ts';
import { logContents, openSandboxHarness, type SandboxHarness } from './harness.ts';

function pidsMax(h: SandboxHarness): Promise<string> {
  const hierarchy = h.sandbox.cgroupLayout.hierarchies.find((x) => x.controllers.includes('pids'));
  assert.ok(hierarchy, 'no pids hierarchy');
  return readFile(join(hierarchy.root, 'pids.max'), 'utf8').then((text) => text.trim());
}

test('by default every pod together may hold pid_max less a quarter of it, at least 1024 kept for the host', async () => {
  assert.equal(defaultNodePidsLimit(32768), 24576);
  assert.equal(defaultNodePidsLimit(4096), 3072);
  const h = await openSandboxHarness();
  try {
    const pidMax = Number(await readFile('/proc/sys/kernel/pid_max', 'utf8'));
    assert.equal(await pidsMax(h), String(defaultNodePidsLimit(pidMax)));
  } finally {
    await h.close();
  }
});

test('a pod under its own pids.max still stops at the node-wide limit', { timeout: 30_000 }, async () => {
  const h = await openSandboxHarness({ nodePidsLimit: 30, podPidsLimit: 4096 });
  try {
    assert.equal(await pidsMax(h), '30');
    // 50 children asked for: the pod's limit allows them, the node's does not. A shell would exit at the first
    // fork that fails, so python counts the forks that worked.
    const script = 'import os, time\nforks = 0\nfor _ in range(50):\n    try:\n        pid = os.fork()\n    except OSError:\n        continue\n    if pid == 0:\n        time.sleep(30)\n        os._exit(0)\n    forks += 1\nprint(forks)\n';
    const request = h.request('forks', { name: 'main', argv: ['python3', '-c', script] });
    await (await h.sandbox.start(request)).exited;
    const count = Number((await logContents(request.logPath)).at(-1));
    assert.ok(count > 0 && count < 30, `the pod forked ${count} processes, past the node's 30`);
  } finally {
    await h.close();
  }
});
