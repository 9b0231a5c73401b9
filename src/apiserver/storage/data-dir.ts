// The data directory: created on first start, the owner's only (0700), locked against a second instance.
//
// The lock is a symbolic link, bosun.lock → "<pid>:<start time>", as Emacs locks files: making one is atomic,
// and its target lives in the inode, so it can be taken on a full disk. The start time (from /proc/<pid>/stat)
// tells a live Bosun from a process that got the same pid later, and a holder that is exiting (killed, not yet
// reaped) no longer holds it, so a restart right after kill -9 goes ahead.
import { accessSync, chmodSync, constants, existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';

export class DataDirError extends Error {
  override readonly name = 'DataDirError' as const;
}

/** Linux's PF_EXITING: the process is tearing down (/proc/<pid>/stat field 9). */
const PF_EXITING = 0x4;
/** SIGKILL's bit in /proc/<pid>/status's pending-signal masks. */
const SIGKILL_BIT = 1n << 8n;
/** Linux reports process times in USER_HZ, 100 per second on every architecture it runs on. */
const TICKS_PER_SECOND = 100;

interface ProcessState {
  /** Clock ticks since boot when the process started: with the pid, it names one process. Unknown without /proc. */
  start: string | undefined;
  exiting: boolean;
}

/** Whether a signal could reach the process: all there is to know of it without /proc (macOS). */
function signalable(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** What /proc says of a process; undefined when there is none. */
function processState(pid: number): ProcessState | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    if (existsSync('/proc/self/stat') || !signalable(pid)) return undefined;
    return { start: undefined, exiting: false };
  }
  // Fields after the command (which may hold spaces and parentheses): state is field 3, flags 9, starttime 22.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const state = fields[0] ?? '';
  const flags = Number(fields[6] ?? 0);
  let killed = false;
  try {
    const pending = readFileSync(`/proc/${pid}/status`, 'utf8').matchAll(/^(?:SigPnd|ShdPnd):\s*([0-9a-f]+)$/gm);
    for (const [, mask] of pending) if ((BigInt(`0x${mask}`) & SIGKILL_BIT) !== 0n) killed = true;
  } catch {
    // Gone between the two reads: the stat fields still say what it was.
  }
  return { start: fields[19] ?? '', exiting: state === 'Z' || state === 'X' || (flags & PF_EXITING) !== 0 || killed };
}

/** When a process started, in milliseconds since the epoch (boot time plus its start in clock ticks); 0 when unknown. */
function startedAtMs(start: string | undefined): number {
  if (start === undefined) return 0;
  const bootSeconds = Number(/^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'))?.[1] ?? 0);
  return (bootSeconds + Number(start) / TICKS_PER_SECOND) * 1000;
}

/** The lock's holder, if a process still holds it; a lock naming no live process (or an exiting one) is stale. */
function liveHolder(lock: string): number | undefined {
  let pid: number;
  let holds: (state: ProcessState) => boolean;
  let link: boolean;
  try {
    link = lstatSync(lock).isSymbolicLink();
  } catch {
    return undefined;
  }
  if (link) {
    const [pidText = '', start] = readlinkSync(lock).split(':');
    pid = Number(pidText);
    // Without /proc a live pid may be its holder: it is taken to be.
    holds = (state) => state.start === undefined || state.start === start;
  } else {
    // An older Bosun's lock: a file holding only the pid. Its holder started before it wrote the file.
    pid = Number(readFileSync(lock, 'utf8').trim());
    const writtenAtMs = statSync(lock).mtimeMs;
    holds = (state) => startedAtMs(state.start) <= writtenAtMs + 2000;
  }
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return undefined;
  const state = processState(pid);
  return state && !state.exiting && holds(state) ? pid : undefined;
}

/** Makes the data dir (or tightens an existing one) to 0700: it holds the token and every Secret. */
export function prepareDataDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const mode = statSync(dir).mode;
    // A shared directory such as /tmp must not be closed to everyone else.
    if ((mode & 0o1000) !== 0) throw new Error('it is a shared directory (sticky bit); give bosun a directory of its own');
    if ((mode & 0o777) !== 0o700) chmodSync(dir, 0o700);
    accessSync(dir, constants.R_OK | constants.W_OK);
  } catch (error) {
    throw new DataDirError(`data dir ${dir} is not usable: ${(error as Error).message}`);
  }
}

/** Takes the data dir's lock; returns its release function. A stale lock is taken over. */
export function lockDataDir(dir: string): () => void {
  prepareDataDir(dir);
  const lock = join(dir, 'bosun.lock');
  const state = processState(process.pid);
  const mine = `${process.pid}:${state?.start ?? ''}`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      symlinkSync(mine, lock);
      return () => {
        // Only our own lock: a successor may have taken it over already.
        try {
          if (readlinkSync(lock) === mine) rmSync(lock, { force: true });
        } catch {
          // Already gone.
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw new DataDirError(`cannot lock data dir ${dir}: ${(error as Error).message}`);
      const pid = liveHolder(lock);
      if (pid !== undefined) throw new DataDirError(`another bosun (pid ${pid}) is already using data dir ${dir}`);
      rmSync(lock, { force: true });
    }
  }
  throw new DataDirError(`cannot lock data dir ${dir}`);
}
