// Stress children (`bosun inject cpu-stress|memory-stress`), both sides. The parent starts one per target
// through HostWrites.spawn (so dry-run never starts it) and stops it with SIGTERM, then SIGKILL after 5 s, as
// upstream's command package does. The child joins the target's cgroups so that what it burns or allocates is
// charged to the target, and ends on its own when its parent is gone, at the deadline or on SIGTERM.
import { writeFile } from 'node:fs/promises';
import type { ChildProcessHandle, HostWrites } from '../host/host-writes.ts';
import type { HostReads } from '../host/host-reads.ts';
import { sleep } from '../durations.ts';
import { StressChildError } from '../errors.ts';

const STOP_GRACE_MS = 5000;
/** Without cgroups to watch (node level), a child still running after this long has started (upstream's bootstrap window). */
const BOOTSTRAP_MS = 1000;
/** How long a child may take to join its cgroups (starting Node on a loaded node takes seconds). */
const JOIN_TIMEOUT_MS = 30_000;

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
 * Resolves once the child is at work: its PID is in every cgroup it joins (it starts stressing right after), or,
 * with none, it outlived the bootstrap window. Throws when it exits first or never joins. A dry-run child
 * (PID 0) is at work at once.
 */
export async function awaitStressChild(child: ChildProcessHandle, joins: readonly string[], reads: HostReads, signal: AbortSignal): Promise<void> {
  if (child.pid === 0) return;
  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  void child.exited.then((result) => (exit = result));
  const joined = async (): Promise<boolean> => {
    for (const dir of joins) {
      const procs = await reads.readFile(`${dir}/cgroup.procs`).catch(() => '');
      if (!procs.split('\n').includes(String(child.pid))) return false;
    }
    return true;
  };
  const end = Date.now() + (joins.length > 0 ? JOIN_TIMEOUT_MS : BOOTSTRAP_MS);
  while (!signal.aborted) {
    if (exit) throw new StressChildError(`stress child ${child.pid} exited at start (code ${exit.code}, signal ${exit.signal})`);
    if (joins.length > 0 && (await joined())) return;
    if (Date.now() >= end) {
      if (joins.length === 0) return;
      throw new StressChildError(`stress child ${child.pid} did not join ${joins.join(', ')} within ${JOIN_TIMEOUT_MS / 1000} s`);
    }
    await sleep(100, signal);
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
      throw new StressChildError(`joining cgroup ${dir}: ${error instanceof Error ? error.message : String(error)}`);
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
