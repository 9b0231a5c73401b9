// Stress children (`bosun inject cpu-stress|memory-stress`), both sides. The parent starts one per target
// through HostWrites.spawn (so dry-run never starts it) and stops it with SIGTERM, then SIGKILL after 5 s, as
// upstream's command package does. The child joins the target's cgroups so that what it burns or allocates is
// charged to the target, and ends on its own when its parent is gone, at the deadline or on SIGTERM.
import { closeSync, writeSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import type { ChildProcessHandle, HostWrites } from '../host/host-writes.ts';
import { StressChildError } from '../errors.ts';
import { messageOf } from '../../../apimachinery/error-message.ts';

const STOP_GRACE_MS = 5000;
/** How long a child may take to be at work (starting Node on a loaded node takes seconds). */
const START_TIMEOUT_MS = 30_000;

/** How to run this same CLI again: node, its loader flags (tsx in a checkout) and the entry script. */
export function selfCommand(): string[] {
  const entry = process.argv[1];
  if (!entry) throw new StressChildError('cannot tell which script runs this injector (process.argv[1] is empty)');
  return [process.execPath, ...process.execArgv, entry];
}

export async function startStressChild(writes: HostWrites, subcommand: string, args: readonly string[], deadline: Date | undefined): Promise<ChildProcessHandle> {
  const argv = [...selfCommand(), 'inject', subcommand, ...args, '--parent-pid', String(process.pid), ...(deadline ? ['--deadline', deadline.toISOString()] : [])];
  return writes.spawn(argv);
}

/**
 * Resolves once the child says it is at work (its line on fd 3: joined the target's cgroups and burning, or
 * holding the memory it was asked for), so that readiness follows the disruption rather than the start of a
 * process. Throws when it exits first or says nothing in time. A dry-run child is at work at once.
 */
export async function awaitStressChild(child: ChildProcessHandle, signal: AbortSignal): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const exitedFirst = child.exited.then(({ code, signal: by }) => Promise.reject(new StressChildError(`stress child ${child.pid} exited at start (code ${code}, signal ${by})`)));
  const tooLate = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StressChildError(`stress child ${child.pid} was not at work within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
  });
  const aborted = new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
  try {
    await Promise.race([child.reported, exitedFirst, tooLate, aborted]);
  } finally {
    clearTimeout(timer);
    exitedFirst.catch(() => undefined);
  }
}

/** Child side: tells the parent it is at work (fd 3); a child started without that channel has nobody to tell. */
export function reportAtWork(): void {
  try {
    writeSync(3, 'at work\n');
    closeSync(3);
  } catch {
    // No fd 3: started by hand or by a test.
  }
}

/** SIGTERM, then SIGKILL if it has not exited after 5 s; resolves once it has exited. */
export async function stopStressChild(child: ChildProcessHandle): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  child.kill('SIGTERM');
  const killed = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve();
    }, STOP_GRACE_MS);
  });
  await Promise.race([child.exited, killed]);
  clearTimeout(timer);
  await child.exited;
}

/** Child side: writes this process's PID into each cgroup directory's cgroup.procs. */
export async function joinCgroups(dirs: readonly string[]): Promise<void> {
  for (const dir of dirs) {
    try {
      await writeFile(`${dir}/cgroup.procs`, String(process.pid), { flag: 'r+' });
    } catch (error) {
      throw new StressChildError(`joining cgroup ${dir}: ${messageOf(error)}`);
    }
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Child side: resolves when the child must end (SIGTERM/SIGINT, its parent gone, the deadline passed). */
export function childEnd(parentPid: number | undefined, deadline: Date | undefined): Promise<string> {
  return new Promise((resolve) => {
    const timers: NodeJS.Timeout[] = [];
    const end = (reason: string): void => {
      timers.forEach(clearTimeout);
      timers.forEach(clearInterval);
      resolve(reason);
    };
    process.once('SIGTERM', () => end('SIGTERM'));
    process.once('SIGINT', () => end('SIGINT'));
    if (parentPid !== undefined) timers.push(setInterval(() => (process.ppid === parentPid && alive(parentPid)) || end('parent gone'), 1000));
    if (deadline) timers.push(setTimeout(() => end('deadline'), Math.min(Math.max(0, deadline.getTime() - Date.now()), 2 ** 31 - 1)));
  });
}
