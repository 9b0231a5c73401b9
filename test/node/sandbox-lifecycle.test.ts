// A container's life: limits, OOM, stop with a grace period, exec, logs, start errors, and an agent that
// dies and finds its pods again through their cgroups. Real processes.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, watch } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { text } from 'node:stream/consumers';
import { SandboxSpecError } from '../../src/node/sandbox/errors.ts';
import type { ContainerSpec, StartRequest } from '../../src/node/sandbox/types.ts';
import { isAlive, logContents, openSandboxHarness, readLog, waitForLog, type SandboxHarness } from './harness.ts';

let h: SandboxHarness;
before(async () => {
  h = await openSandboxHarness();
});
after(async () => {
  await h.close();
});

function sh(script: string, extra: Partial<ContainerSpec> = {}): ContainerSpec {
  return { name: 'main', argv: ['sh', '-c', script], ...extra };
}

/**
 * Stalls this process (the agent) for stallMs just after the start spawns the setup, as a loaded machine
 * does: the handle opens the log right before the spawn, so the log's creation is the moment.
 */
async function stallAgentAtSpawn(request: StartRequest, stallMs: number): Promise<void> {
  await mkdir(dirname(request.logPath), { recursive: true });
  const watcher = watch(dirname(request.logPath), () => {
    watcher.close();
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, stallMs);
  });
}

function cgroupDir(controller: string, podUid: string, container: string): string {
  const hierarchy = h.sandbox.cgroupLayout.hierarchies.find((x) => x.controllers.includes(controller));
  assert.ok(hierarchy, `no ${controller} hierarchy`);
  return join(hierarchy.root, `pod${podUid}`, container);
}

test('a memory limit of 32Mi OOM-kills a hungry process and says OOMKilled', async () => {
  // Each round doubles a shell string: 2^27 bytes (128 MiB) is far past the limit, yet bounded if it fails.
  const hungry = 'a=x; i=0; while [ $i -lt 27 ]; do a="$a$a"; i=$((i+1)); done; echo survived';
  const request = h.request('hungry', sh(hungry, { resources: { limits: { memory: '32Mi' } } }));
  const exit = await (await h.sandbox.start(request)).exited;
  assert.equal(exit.reason, 'OOMKilled');
  assert.equal(exit.exitCode, 137);
  assert.equal(exit.signal, 'SIGKILL');
});

test('a cpu limit of 500m is a CFS quota of 50000 per 100000 µs, inside and outside', async () => {
  const inside = h.sandbox.cgroupLayout.version === 1 ? 'cat /sys/fs/cgroup/cpu/cpu.cfs_quota_us /sys/fs/cgroup/cpu/cpu.cfs_period_us' : 'cat /sys/fs/cgroup/cpu.max';
  const request = h.request('cpu', sh(`${inside}; echo ready; exec sleep 30`, { resources: { limits: { cpu: '500m' } } }));
  const handle = await h.sandbox.start(request);
  await waitForLog(request.logPath, 'ready');
  const dir = cgroupDir('cpu', request.pod.uid, 'main');
  if (h.sandbox.cgroupLayout.version === 1) {
    assert.deepEqual(await logContents(request.logPath), ['50000', '100000', 'ready']);
    assert.equal((await readFile(join(dir, 'cpu.cfs_quota_us'), 'utf8')).trim(), '50000');
    assert.equal((await readFile(join(dir, 'cpu.cfs_period_us'), 'utf8')).trim(), '100000');
  } else {
    assert.deepEqual(await logContents(request.logPath), ['50000 100000', 'ready']);
    assert.equal((await readFile(join(dir, 'cpu.max'), 'utf8')).trim(), '50000 100000');
  }
  await handle.stop(0);
  assert.equal(existsSync(dir), false, 'the container cgroup is removed after exit');
});

/** The parent pid from /proc/PID/stat. */
async function parentOf(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

test('a container whose exit the agent lost (the command helper died) is killed, and its exit says why', async () => {
  const request = h.request('orphan', sh('echo ready; exec sleep 30'));
  const handle = await h.sandbox.start(request);
  await waitForLog(request.logPath, 'ready');
  const pid = handle.pid;
  assert.ok(pid !== undefined);
  // The container's pid 1, its waiter (timeout), and the command helper that launched the waiter.
  const waiter = await parentOf(pid);
  const helper = await parentOf(waiter);
  assert.match((await readFile(`/proc/${helper}/cmdline`, 'utf8')).split('\0')[1] ?? '', /host-commands\/helper\.mjs$/);
  process.kill(helper, 'SIGKILL');
  const exit = await handle.exited;
  assert.equal(exit.reason, 'Error');
  assert.match(exit.message ?? '', /lost the sandbox's exit status: the host command helper exited with SIGKILL/);
  assert.equal(await isAlive(pid), false, 'what was left in its cgroup was killed');
});

test('stop delivers SIGTERM to a container that handles it', async () => {
  const request = h.request('graceful', sh("trap 'echo got SIGTERM; exit 3' TERM; echo ready; sleep 30 & wait"));
  const handle = await h.sandbox.start(request);
  await waitForLog(request.logPath, 'ready');
  const started = performance.now();
  const exit = await handle.stop(5000);
  assert.ok(performance.now() - started < 4000, 'it exits without waiting for the grace period');
  assert.equal(exit.exitCode, 3);
  assert.equal(exit.reason, 'Error');
  assert.deepEqual(await logContents(request.logPath), ['ready', 'got SIGTERM']);
});

test('stop waits out the grace period, then SIGKILLs a pid 1 that ignores SIGTERM', async () => {
  const handle = await h.sandbox.start(h.request('stubborn', { name: 'main', argv: ['sleep', '30'] }));
  const started = performance.now();
  const exit = await handle.stop(700);
  const elapsed = performance.now() - started;
  assert.ok(elapsed >= 690 && elapsed < 5000, `took ${elapsed} ms`);
  assert.equal(exit.exitCode, 137);
  assert.equal(exit.signal, 'SIGKILL');
  assert.equal(exit.reason, 'Error');
  assert.ok(exit.startedAt && exit.finishedAt.getTime() >= exit.startedAt.getTime());
});

test('exec runs in the container\'s namespaces, cgroup and user', async () => {
  const request = h.request('exec', { name: 'main', argv: ['sleep', '30'], securityContext: { runAsUser: 1000 }, workingDir: '/tmp' });
  const handle = await h.sandbox.start(request);
  const proc = await handle.exec(['sh', '-c', 'cat /proc/1/cmdline | tr "\\0" " "; echo; hostname; id -u; pwd; cat /proc/self/cgroup | grep memory']);
  const [output, errors, result] = await Promise.all([text(proc.stdout), text(proc.stderr), proc.exited]);
  assert.equal(result.exitCode, 0);
  // Nothing of the host's shell start-up files (a root ~/.bashrc) runs in the exec helper.
  assert.equal(errors, '');
  const [cmdline, hostname, uid, cwd, cgroup] = output.trim().split('\n');
  assert.deepEqual([cmdline, hostname, uid, cwd], ['sleep 30 ', 'exec', '1000', '/tmp']);
  // The container's cgroup namespace: its own memory cgroup is the root it sees.
  assert.match(cgroup ?? '', /^\d+:memory:\/$/);
  const missing = handle.exec(['no-such-tool']);
  await assert.rejects(missing, { name: 'ExecStartError', message: 'exec: "no-such-tool": executable file not found in $PATH' });
  const stdin = await handle.exec(['cat'], { stdin: true });
  stdin.stdin?.end('echoed through stdin\n');
  assert.equal(await text(stdin.stdout), 'echoed through stdin\n');
  assert.equal((await stdin.exited).exitCode, 0);
  await handle.stop(0);
  await assert.rejects(handle.exec(['true']), { name: 'ContainerNotRunningError' });
});

test('output goes to a CRI log: timestamps, streams, full and partial lines', async () => {
  const request = h.request('logs', sh('echo hello; echo oops >&2; echo to-dev-stdout > /dev/stdout; printf "no newline"'));
  const exit = await (await h.sandbox.start(request)).exited;
  assert.equal(exit.reason, 'Completed', exit.message);
  const lines = (await readLog(request.logPath)).trimEnd().split('\n');
  for (const line of lines) assert.match(line, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?Z (stdout|stderr) [PF] /);
  const records = lines.map((line) => line.split(' ').slice(1).join(' '));
  assert.deepEqual(records.filter((r) => r.startsWith('stderr')), ['stderr F oops']);
  assert.deepEqual(records.filter((r) => r.startsWith('stdout')), ['stdout F hello', 'stdout F to-dev-stdout', 'stdout F no newline']);
  const times = lines.map((line) => Date.parse(line.split(' ')[0] as string));
  assert.ok(times.every((t) => Math.abs(t - Date.now()) < 60_000), 'timestamps are wall-clock time');
});

test('an agent that died finds its pods in the cgroup tree and can kill them', async () => {
  const request = h.request('survivor', sh('sleep 30 & echo ready; exec sleep 31'));
  const handle = await h.sandbox.start(request);
  const pid = handle.pid as number;
  await waitForLog(request.logPath, 'ready');
  // The restarted agent: a new Sandbox that knows nothing of the handle.
  const restarted = await h.reopen();
  const pod = (await restarted.listPods()).find((p) => p.podUid === request.pod.uid);
  assert.ok(pod, 'the pod is listed');
  assert.deepEqual(pod.containers.map((c) => c.name), ['main']);
  assert.ok(pod.pids.includes(pid), `pid ${pid} among ${pod.pids.join(',')}`);
  assert.ok(pod.pids.length >= 3, 'the waiter, the container and its child are all in the cgroup');
  await restarted.destroyPod(request.pod.uid);
  assert.equal((await restarted.listPods()).some((p) => p.podUid === request.pod.uid), false);
  for (const p of pod.pids) assert.equal(await isAlive(p), false, `pid ${p} is gone`);
  assert.equal((await handle.exited).exitCode, 137);
});

test('runAsNonRoot refuses root with kubelet\'s messages', async () => {
  const request = h.request('nonroot', sh('true', { securityContext: { runAsNonRoot: true, runAsUser: 0 } }));
  await assert.rejects(h.sandbox.start(request), {
    name: 'SandboxSpecError',
    reason: 'CreateContainerConfigError',
    message: `container's runAsUser breaks non-root policy (pod: "nonroot_default(${request.pod.uid})", container: main)`,
  });
  const rootByDefault = await h.reopen({ allowRootByDefault: true });
  const implicit = h.request('nonroot-image', sh('true', { securityContext: { runAsNonRoot: true } }));
  await assert.rejects(rootByDefault.start(implicit), {
    message: `container has runAsNonRoot and image will run as root (pod: "nonroot-image_default(${implicit.pod.uid})", container: main)`,
  });
  const rootRequest = h.request('root-default', sh('id -u'));
  const rootExit = await (await rootByDefault.start(rootRequest)).exited;
  assert.equal(rootExit.reason, 'Completed', rootExit.message);
  assert.deepEqual(await logContents(rootRequest.logPath), ['0']);
});

test('an unknown command is a StartError with runc\'s message, and leaves nothing behind', async () => {
  const request = h.request('unknown', { name: 'main', argv: ['no-such-command', '--flag'] });
  const exit = await (await h.sandbox.start(request)).exited;
  assert.equal(exit.reason, 'StartError');
  assert.equal(exit.exitCode, 128);
  assert.equal(exit.message, 'exec: "no-such-command": executable file not found in $PATH');
  const absolute = await (await h.sandbox.start(h.request('unknown-path', { name: 'main', argv: ['/no/such/binary'] }))).exited;
  assert.equal(absolute.message, 'exec: "/no/such/binary": stat /no/such/binary: no such file or directory');
  const pod = (await h.sandbox.listPods()).find((p) => p.podUid === request.pod.uid);
  assert.deepEqual(pod?.containers ?? [], []);
  assert.equal(existsSync(join(request.pod.podDir, 'containers', 'main')), false);
});

// Old code: the agent opened the FIFOs only when it read the pid line, after the container and its waiter
// were gone, so the output was lost and the copy waited for an end-of-file Linux never reports; exited hung.
test('an agent stalled while a short container runs loses no output and sees the exit', { timeout: 30_000 }, async () => {
  const request = h.request('stalled', sh('echo hello; echo oops >&2'));
  await stallAgentAtSpawn(request, 2000);
  const exit = await (await h.sandbox.start(request)).exited;
  assert.equal(exit.reason, 'Completed', exit.message);
  assert.deepEqual(await logContents(request.logPath), ['hello', 'oops']);
});

test('a setup that fails while the agent is stalled is a StartError, not a hang', { timeout: 30_000 }, async () => {
  // cd fails after the setup reported its pid, so the agent opens the FIFOs after every writer is gone.
  const request = h.request('stalled-fail', { name: 'main', argv: ['true'], workingDir: '/etc/passwd' });
  await stallAgentAtSpawn(request, 2000);
  const exit = await (await h.sandbox.start(request)).exited;
  assert.equal(exit.reason, 'StartError');
  assert.match(exit.message ?? '', /can't cd to \/etc\/passwd/);
  assert.equal(exit.cleanupError, undefined);
});

test('a setup that blocks fails start with SandboxStartTimeoutError and leaves nothing behind', { timeout: 30_000 }, async () => {
  // nsenter's open of a "namespace" that is a FIFO blocks until a writer comes, which never does.
  const fifo = join(h.dir, 'not-a-netns');
  assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
  const impatient = await h.reopen({ startTimeoutMs: 300 });
  const request = h.request('blocked', sh('true'), { network: { kind: 'namespace', path: fifo } });
  await assert.rejects(impatient.start(request), { name: 'SandboxStartTimeoutError', message: 'the sandbox setup did not start the command within 300 ms' });
  const pod = (await impatient.listPods()).find((p) => p.podUid === request.pod.uid);
  assert.deepEqual(pod?.pids ?? [], []);
  assert.deepEqual(pod?.containers ?? [], []);
  assert.equal(existsSync(join(request.pod.podDir, 'containers', 'main')), false);
});

test('invalid input is a typed error: a negative limit, a missing hostPath, a bad name', async () => {
  await assert.rejects(h.sandbox.start(h.request('negative', sh('true', { resources: { limits: { memory: '-32Mi' } } }))), (error: unknown) => {
    assert.ok(error instanceof SandboxSpecError);
    assert.equal(error.reason, 'CreateContainerConfigError');
    assert.equal(error.message, 'resources.limits.memory: Invalid value: "-32Mi": must be greater than or equal to 0');
    return true;
  });
  const missing = join(h.dir, 'does-not-exist');
  await assert.rejects(h.sandbox.start(h.request('nohost', sh('true', { volumeMounts: [{ hostPath: missing, mountPath: '/data' }] }))), {
    name: 'SandboxSpecError',
    reason: 'CreateContainerError',
    message: `hostPath ${missing} for the volume at /data does not exist`,
  });
  await assert.rejects(h.sandbox.start(h.request('badname', { name: 'Not_A_Label', argv: ['true'] })), { name: 'SandboxSpecError' });
  // The refused containers left no cgroup behind.
  const names = new Set(['negative', 'nohost', 'badname']);
  const refused = (await h.sandbox.listPods()).filter((p) => names.has(p.podUid.split('-')[0] as string));
  assert.deepEqual(refused.flatMap((p) => p.containers), []);
});
