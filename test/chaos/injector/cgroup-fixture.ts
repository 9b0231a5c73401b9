// Real cgroup v1 groups and processes for the injector tests (run as root): a "container" is a set of cgroup
// directories, one per controller, with a real process in them, described as the node runtime would.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import type { RuntimeContainer } from '../../../src/client/node-runtime/protocol.ts';

const ROOT = '/sys/fs/cgroup';

export interface TestContainer {
  runtime: RuntimeContainer;
  process: ChildProcess;
  dispose(): Promise<void>;
}

export function readNumber(path: string): number {
  return Number(readFileSync(path, 'utf8').trim());
}

function procsOf(dir: string): number[] {
  return readFileSync(`${dir}/cgroup.procs`, 'utf8').split('\n').filter(Boolean).map(Number);
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Polls `check` every 100 ms until it is true or `timeoutMs` passed (then throws with `what`). */
export async function waitFor(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Creates one cgroup per controller (`files` are written after creation: cpu.cfs_quota_us, memory.limit_in_bytes),
 * starts `sleep` in them and returns it as a RuntimeContainer. dispose() kills whatever is left in them and removes them.
 */
export async function createTestContainer(controllers: readonly string[], files: Record<string, string> = {}, id = `c${randomBytes(4).toString('hex')}`): Promise<TestContainer> {
  const name = `bosun-test-${randomBytes(4).toString('hex')}`;
  const cgroups: Record<string, string> = {};
  for (const controller of controllers) {
    const dir = `${ROOT}/${controller}/${name}`;
    mkdirSync(dir);
    cgroups[controller] = dir;
  }
  for (const [file, value] of Object.entries(files)) {
    const controller = file.split('.')[0] === 'cpuacct' ? 'cpuacct' : (file.split('.')[0] ?? '');
    const dir = cgroups[controller];
    if (!dir) throw new Error(`no ${controller} cgroup for ${file}`);
    writeFileSync(`${dir}/${file}`, value);
  }
  const sleeper = spawn('sleep', ['600'], { stdio: 'ignore' });
  await new Promise((resolve) => sleeper.once('spawn', resolve));
  const pid = sleeper.pid ?? 0;
  for (const dir of Object.values(cgroups)) writeFileSync(`${dir}/cgroup.procs`, String(pid));
  return {
    runtime: { id, podUid: 'uid-1', namespace: 'default', pod: 'target', container: 'app', pid, cgroupVersion: 1, cgroups },
    process: sleeper,
    dispose: async () => {
      sleeper.kill('SIGKILL');
      for (const dir of Object.values(cgroups)) {
        if (!existsSync(dir)) continue;
        for (const leftover of procsOf(dir)) {
          try {
            process.kill(leftover, 'SIGKILL');
          } catch {
            // already gone
          }
        }
        await waitFor(`${dir} to empty`, () => procsOf(dir).length === 0, 10_000);
        await waitFor(`${dir} to be removed`, () => {
          try {
            rmdirSync(dir);
            return true;
          } catch {
            return false;
          }
        }, 10_000);
      }
    },
  };
}
