// runc under conmon, for real (root; Debian's runc and conmon, which .ci/run installs): a busybox root file
// system made from busybox-static, exits and their reasons, the CRI log, users and a read-only root, stop with a
// grace period, exec, OOM, and adoption by a second runtime on the same state (an agent restart).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, watch as watchDir, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { OciRuntime, type OciContainer } from '../../../src/node/oci-runtime/oci-runtime.ts';
import { buildRuntimeSpec, type OciSpecInput } from '../../../src/node/oci-runtime/runtime-spec.ts';
import { boundingSet } from '../../../src/node/sandbox/capabilities.ts';

const APPLETS = ['sh', 'echo', 'sleep', 'cat', 'id', 'head', 'tail', 'touch', 'grep', 'hostname', 'trap', 'stty'];

/** A root file system of busybox-static and its applets, with an /etc/passwd that knows uid 1000. */
function busyboxRootfs(dir: string): string {
  mkdirSync(join(dir, 'bin'), { recursive: true });
  mkdirSync(join(dir, 'etc'));
  mkdirSync(join(dir, 'tmp'), { mode: 0o1777 });
  copyFileSync('/bin/busybox', join(dir, 'bin', 'busybox'));
  execFileSync('chmod', ['755', join(dir, 'bin', 'busybox')]);
  for (const applet of APPLETS) symlinkSync('busybox', join(dir, 'bin', applet));
  writeFileSync(join(dir, 'etc', 'passwd'), 'root:x:0:0:root:/root:/bin/sh\napp:x:1000:1000:app:/home/app:/bin/sh\n');
  writeFileSync(join(dir, 'only-in-image'), 'from the image\n');
  return dir;
}

/**
 * Resolves once dir holds name (a watch on dir, no polling). fs.watch starts watching at once, so the check after
 * it cannot miss a file made in between (fs/promises' watch starts only when first iterated).
 */
function untilExists(dir: string, name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (error?: Error): void => {
      watcher.close();
      if (error) reject(error);
      else resolve();
    };
    const watcher = watchDir(dir, (_event, filename) => {
      if (filename === name && existsSync(join(dir, name))) done();
    });
    watcher.on('error', done);
    if (existsSync(join(dir, name))) done();
  });
}

describe('OCI runtime: runc under conmon', () => {
  let dir: string;
  let rootfs: string;
  let runtime: OciRuntime;
  let attempt = 0;
  const cgroupParent = `/bosun-oci-test-${process.pid}`;

  function spec(argv: string[], overrides: Partial<OciSpecInput> = {}, uid = 0): ReturnType<typeof buildRuntimeSpec> {
    attempt++;
    return buildRuntimeSpec({
      process: { argv, env: ['PATH=/bin'], cwd: '/', uid, gid: uid, capabilities: boundingSet(undefined, 40), noNewPrivileges: uid !== 0 },
      hostname: 'pod-a',
      rootfs,
      readonlyRootfs: false,
      mounts: [],
      network: 'host',
      pidNamespace: true,
      cgroupsPath: `${cgroupParent}/c${attempt}`,
      limits: {},
      ...overrides,
    });
  }

  async function start(argv: string[], overrides: Partial<OciSpecInput> = {}, uid = 0): Promise<OciContainer> {
    const s = spec(argv, overrides, uid);
    return runtime.start(s, { podUid: 'pod-uid-1', containerName: `c${attempt}`, attempt: 0, logPath: join(dir, 'logs', `c${attempt}.log`) });
  }

  const log = (container: OciContainer) => readFileSync(container.record.logPath, 'utf8');

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bosun-oci-'));
    rootfs = busyboxRootfs(join(dir, 'rootfs'));
    mkdirSync(join(dir, 'logs'));
    runtime = await OciRuntime.open({ stateDir: join(dir, 'state') });
  });
  after(async () => {
    for (const container of await runtime.list()) await container.remove();
    runtime.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('runs the image file system, writes the CRI log and reports the exit code', async () => {
    const container = await start(['sh', '-c', 'cat /only-in-image; echo oops >&2; test -e /etc/shadow || exit 3']);
    const exit = await container.exited;
    assert.equal(exit.exitCode, 3);
    assert.equal(exit.reason, 'Error');
    const lines = log(container).trim().split('\n');
    assert.match(lines[0] ?? '', /^\d{4}-\d\d-\d\dT[\d:.]+\+00:00 stdout F from the image$/);
    assert.match(lines[1] ?? '', / stderr F oops$/);
    await container.remove();
  });

  test('a uid-1000 process holds no capabilities; a read-only root refuses writes', async () => {
    const container = await start(['sh', '-c', 'id -u; grep CapEff /proc/self/status; touch /x 2>&1 || true'], { readonlyRootfs: true }, 1000);
    assert.equal((await container.exited).exitCode, 0);
    const text = log(container);
    assert.match(text, /stdout F 1000\n/);
    assert.match(text, /CapEff:\s+0000000000000000/);
    assert.match(text, /Read-only file system/);
    await container.remove();
  });

  test('stop sends SIGTERM, then SIGKILL after the grace period to a process that ignores it', async () => {
    // sh is the container's pid 1, which ignores a SIGTERM that comes before its trap: stop once it is set.
    const polite = await start(['sh', '-c', 'trap "exit 0" TERM; touch /tmp/trapped-polite; while true; do sleep 0.1; done']);
    await untilExists(join(rootfs, 'tmp'), 'trapped-polite');
    assert.equal((await polite.stop(10_000)).exitCode, 0);
    const stubborn = await start(['sh', '-c', 'trap "" TERM; touch /tmp/trapped-stubborn; while true; do sleep 0.1; done']);
    await untilExists(join(rootfs, 'tmp'), 'trapped-stubborn');
    const exit = await stubborn.stop(300);
    assert.equal(exit.exitCode, 137);
    await Promise.all([polite.remove(), stubborn.remove()]);
  });

  test('a started container is running as runc sees it, its command executed', async () => {
    const container = await start(['sleep', '30']);
    const state = JSON.parse(await runtime.runc(['state', container.id])) as { status: string; pid: number };
    assert.deepEqual({ status: state.status, pid: state.pid }, { status: 'running', pid: container.pid });
    assert.match(readFileSync(`/proc/${container.pid}/cmdline`, 'utf8'), /^sleep\0/);
    await container.stop(0);
    await container.remove();
  });

  test('exec runs in the container and reports its exit code', async () => {
    const container = await start(['sleep', '30']);
    const proc = await container.exec(['sh', '-c', 'hostname; cat /only-in-image; exit 4']);
    let out = '';
    proc.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    assert.equal((await proc.exited).exitCode, 4);
    assert.equal(out, 'pod-a\nfrom the image\n');
    await container.stop(0);
    await container.remove();
  });

  test('exec on a terminal: the command sees its size from its first instruction (runc sizes it only after the start)', async () => {
    const container = await start(['sleep', '30']);
    // Repeated, since the size runc copies after the start used to lose the race now and then.
    for (let i = 0; i < 15; i++) {
      const proc = await container.exec(['stty', 'size'], { tty: true, size: { rows: 33, columns: 77 } });
      let out = '';
      proc.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
      assert.equal((await proc.exited).exitCode, 0, out);
      // One CR, or two when the command wrote before runc 1.1.5 cleared ONLCR on the container's terminal (docs/node.md).
      assert.match(out, /^33 77\r{1,2}\n$/);
    }
    await container.stop(0);
    await container.remove();
  });

  test('a container over its memory limit is OOMKilled', async () => {
    const container = await start(['sh', '-c', 'head -c 200000000 /dev/zero | tail'], { limits: { memoryBytes: 32 * 1024 * 1024 } });
    const exit = await container.exited;
    assert.equal(exit.reason, 'OOMKilled');
    assert.equal(exit.exitCode, 137);
    await container.remove();
  });

  test('a second runtime on the same state adopts a running container: same pid, the log continues', async () => {
    const container = await start(['sh', '-c', 'echo before; read line < /tmp/go 2>/dev/null; while [ ! -e /tmp/go ]; do sleep 0.05; done; echo after; exit 7']);
    const again = await OciRuntime.open({ stateDir: join(dir, 'state') });
    const adopted = (await again.list()).find((c) => c.id === container.id);
    assert.ok(adopted, 'the running container is listed');
    assert.equal(adopted.pid, container.pid);
    assert.ok(adopted.isRunning);
    assert.equal(adopted.record.containerName, container.record.containerName);
    execFileSync('nsenter', ['-t', String(adopted.pid), '-m', 'touch', '/tmp/go']);
    const exit = await adopted.exited;
    assert.equal(exit.exitCode, 7);
    assert.match(log(adopted), /stdout F before\n.*stdout F after\n/s);
    again.close();
    await adopted.remove();
  });

  test('a command missing from the image fails at start with runc\'s message', async () => {
    await assert.rejects(start(['no-such-binary']), /executable file not found|no such file/);
  });
});
