// The HostWrites that change the host: cgroup and proc files, signals, child processes, commands, node
// runtime calls. Every change the injector makes goes through here (dry-run swaps in dry-run-writes.ts).
import { spawn as spawnProcess, execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { ChildProcessHandle, CommandResult, HostWrites } from './host-writes.ts';

/** Runs argv, capturing its output; a missing binary is code 127 as a shell would say. */
export function runCommand(argv: readonly string[]): Promise<CommandResult> {
  const [file, ...args] = argv;
  if (!file) return Promise.resolve({ code: 127, stdout: '', stderr: 'empty command' });
  return new Promise((resolve) => {
    execFile(file, args, { maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : error.code === 'ENOENT' ? 127 : 1) : 0;
      resolve({ code, stdout, stderr: stderr || (error && code === 127 ? error.message : '') });
    });
  });
}

export function createRealWrites(): HostWrites {
  return {
    // r+: the file must exist (cgroup and proc files are never created by the injector).
    writeFile: (path, content) => writeFile(path, content, { flag: 'r+' }),
    kill: (pid, signal) => {
      process.kill(pid, signal);
      return Promise.resolve();
    },
    spawn: (argv, options) => {
      const [file, ...args] = argv;
      if (!file) return Promise.reject(new Error('spawn: empty command'));
      // fd 3: the child's report channel (a stress child says it is at work there).
      const child = spawnProcess(file, args, { stdio: ['ignore', 'inherit', 'inherit', 'pipe'], env: { ...process.env, ...options?.env } });
      const channel = child.stdio[3] as Readable | null;
      const reported = new Promise<void>((done) => channel?.once('data', () => done()));
      channel?.resume();
      return new Promise<ChildProcessHandle>((resolve, reject) => {
        child.once('error', reject);
        child.once('spawn', () => {
          const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => child.once('exit', (code, signal) => done({ code, signal })));
          resolve({ pid: child.pid ?? 0, exited, reported, kill: (signal) => void child.kill(signal) });
        });
      });
    },
    run: runCommand,
    runtimeCall: (_description, call) => call(),
  };
}
