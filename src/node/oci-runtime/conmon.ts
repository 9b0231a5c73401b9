// Starting a container under conmon (CRI-O's shim): conmon daemonises, runs `runc create`, keeps the
// container's stdio, writes the CRI log, the exit file and the oom file, and outlives the agent. That is what
// lets the next agent adopt a running container: nothing of the container hangs on the agent's process.
// Measured pitfalls (shared/research/images.md): without _OCI_SYNCPIPE conmon cannot report the container's pid
// and `runc start` races the create; without an existing --persist-dir it exits 1 and writes no exit file.
import type { LaunchedProcess } from '../host-commands/command-helper.ts';
import { launchHostProcess } from '../host-commands/host-command.ts';
import type { Readable } from 'node:stream';
import { OciRuntimeError } from './errors.ts';

export interface ConmonLaunch {
  conmon: string;
  runc: string;
  /** runc's --root: the state of every container of this runtime. */
  runcRoot: string;
  id: string;
  bundle: string;
  logPath: string;
  exitDir: string;
  persistDir: string;
  socketDir: string;
  pidFile: string;
  conmonPidFile: string;
  /** Keep a stdin pipe open for attach (pod spec stdin: true). */
  stdin?: boolean;
  terminal?: boolean;
  /** Refuse to wait longer for the create (a mount that blocks). */
  timeoutMs: number;
}

/** Reads the JSON conmon writes on the sync pipe: {"data": pid} on success, {"data": -1, "message": …} on failure. */
function readSyncPipe(pipe: Readable, timeoutMs: number, id: string): Promise<number> {
  return new Promise((resolve, reject) => {
    let text = '';
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      pipe.destroy(); // conmon keeps its end open; the agent needs nothing more from it
      outcome();
    };
    const timer = setTimeout(() => settle(() => reject(new OciRuntimeError(`conmon did not report container ${id} within ${timeoutMs} ms`))), timeoutMs);
    const report = (line: string) => {
      try {
        const parsed = JSON.parse(line) as { data?: number; message?: string };
        if (typeof parsed.data === 'number' && parsed.data > 0) return settle(() => resolve(parsed.data as number));
        settle(() => reject(new OciRuntimeError(runcMessage(parsed.message) || `runc create failed for container ${id}`)));
      } catch {
        settle(() => reject(new OciRuntimeError(`conmon reported something unreadable for container ${id}: ${line.slice(0, 200)}`)));
      }
    };
    pipe.setEncoding('utf8');
    // One JSON object per report; the first is the create's outcome.
    pipe.on('data', (chunk: string) => {
      text += chunk;
      const end = text.indexOf('\n');
      if (end >= 0) report(text.slice(0, end));
    });
    pipe.on('error', (error: Error) => settle(() => reject(error)));
    pipe.on('end', () => (text.trim() === '' ? settle(() => reject(new OciRuntimeError(`conmon exited without reporting container ${id}`))) : report(text.trim())));
  });
}

/** runc's logrus line (time="…" level=error msg="…") as its message alone. */
export function runcMessage(text: string | undefined): string {
  const trimmed = (text ?? '').trim();
  const match = /msg="((?:[^"\\]|\\.)*)"/.exec(trimmed);
  return match?.[1] !== undefined ? match[1].replaceAll('\\"', '"') : trimmed;
}

/** Runs `runc create` through conmon; resolves with the container's pid once it exists (created, not started). */
export async function createUnderConmon(launch: ConmonLaunch): Promise<number> {
  const args = [
    '--api-version', '1',
    '--cid', launch.id,
    '--cuuid', launch.id,
    '--name', launch.id,
    '--runtime', launch.runc,
    '--bundle', launch.bundle,
    '--container-pidfile', launch.pidFile,
    '--conmon-pidfile', launch.conmonPidFile,
    '--log-path', `k8s-file:${launch.logPath}`,
    '--exit-dir', launch.exitDir,
    '--persist-dir', launch.persistDir,
    '--socket-dir-path', launch.socketDir,
    '--log-level', 'error',
    '--runtime-arg', `--root=${launch.runcRoot}`,
    ...(launch.stdin === true ? ['--stdin', '--leave-stdin-open'] : []),
    ...(launch.terminal === true ? ['--terminal'] : []),
  ];
  // fd 3 is the sync pipe conmon reports on; stdout/stderr are not the container's (conmon keeps those). The
  // command helper starts it, off the agent's event loop (host-commands/command-helper.ts says why).
  let child: LaunchedProcess;
  try {
    child = await launchHostProcess({
      argv: [launch.conmon, ...args],
      // conmon writes an `oom` file into its working directory (besides the persist dir's): keep it in the bundle.
      cwd: launch.bundle,
      stdio: ['ignore', 'ignore', 'channel', 'channel'],
      env: { ...process.env, _OCI_SYNCPIPE: '3' },
    });
  } catch (error) {
    throw new OciRuntimeError(`conmon did not start for container ${launch.id}: ${(error as Error).message}`);
  }
  let stderr = '';
  const [, , stderrChannel, syncPipe] = child.stdio;
  if (stderrChannel == null || syncPipe == null) throw new OciRuntimeError('conmon started without its sync pipe');
  stderrChannel.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
  // Read to its end (conmon's later messages must not meet a closed socket), without holding the agent open.
  stderrChannel.unref();
  try {
    return await readSyncPipe(syncPipe, launch.timeoutMs, launch.id);
  } catch (error) {
    if (error instanceof OciRuntimeError && stderr.trim() !== '') throw new OciRuntimeError(`${error.message}: ${stderr.trim()}`);
    throw error;
  }
}
