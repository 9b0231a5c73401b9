// Host reads and writes for the kinds' tests: real ones (files and processes of this machine, as the injector
// would use them) and a recording writes (upstream tests its tc and iptables sequences against mocks too).
import { execFile, spawn } from 'node:child_process';
import { access, readFile, writeFile } from 'node:fs/promises';
import type { ChildProcessHandle, CommandResult, HostWrites } from '../../../../src/chaos/injector/host/host-writes.ts';
import type { HostReads } from '../../../../src/chaos/injector/host/host-reads.ts';
import type { InjectorContext, InjectorLogger, InjectorTarget } from '../../../../src/chaos/injector/injector.ts';

export function runCommand(argv: readonly string[]): Promise<CommandResult> {
  const [file, ...args] = argv;
  return new Promise((resolve) => {
    execFile(file ?? 'false', args, { encoding: 'utf8' }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 127) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

export const realReads: HostReads = {
  readFile: (path) => readFile(path, 'utf8'),
  exists: (path) => access(path).then(() => true, () => false),
  run: runCommand,
};

export const realWrites: HostWrites = {
  writeFile: (path, content) => writeFile(path, content, { flag: 'r+' }),
  kill: (pid, signal) => Promise.resolve(void process.kill(pid, signal)),
  spawn: (argv, options) => {
    const [file, ...args] = argv;
    const child = spawn(file ?? 'false', args, { env: { ...process.env, ...options?.env }, stdio: 'ignore' });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
    const handle: ChildProcessHandle = { pid: child.pid ?? -1, exited, kill: (signal) => void child.kill(signal) };
    return Promise.resolve(handle);
  },
  run: runCommand,
  runtimeCall: (_description, call) => call(),
};

export type Recorded =
  | { op: 'writeFile'; path: string; content: string }
  | { op: 'run'; argv: string[] }
  | { op: 'runtimeCall'; description: string };

/** Records every write; `run` answers through `answer` (default: success). `dryRun` skips runtime calls too. */
export class RecordingWrites implements HostWrites {
  readonly recorded: Recorded[] = [];
  constructor(
    private readonly answer: (argv: readonly string[]) => CommandResult = () => ({ code: 0, stdout: '', stderr: '' }),
    private readonly dryRun = false,
  ) {}
  writeFile(path: string, content: string): Promise<void> {
    this.recorded.push({ op: 'writeFile', path, content });
    return Promise.resolve();
  }
  kill(): Promise<void> {
    return Promise.reject(new Error('unexpected kill'));
  }
  spawn(): Promise<ChildProcessHandle> {
    return Promise.reject(new Error('unexpected spawn'));
  }
  run(argv: readonly string[]): Promise<CommandResult> {
    this.recorded.push({ op: 'run', argv: [...argv] });
    return Promise.resolve(this.dryRun ? { code: 0, stdout: '', stderr: '' } : this.answer(argv));
  }
  async runtimeCall(description: string, call: () => Promise<void>): Promise<void> {
    this.recorded.push({ op: 'runtimeCall', description });
    if (!this.dryRun) await call();
  }
  /** The commands run, each joined by spaces, for golden comparison. */
  commands(): string[] {
    return this.recorded.flatMap((r) => (r.op === 'run' ? [r.argv.join(' ')] : []));
  }
}

export interface LogLine {
  level: 'info' | 'warn' | 'error';
  message: string;
  fields?: Record<string, unknown>;
}

export function memoryLogger(lines: LogLine[] = []): InjectorLogger & { lines: LogLine[] } {
  return {
    lines,
    info: (message, fields) => void lines.push({ level: 'info', message, ...(fields && { fields }) }),
    warn: (message, fields) => void lines.push({ level: 'warn', message, ...(fields && { fields }) }),
    error: (message, fields) => void lines.push({ level: 'error', message, ...(fields && { fields }) }),
  };
}

export function context(target: InjectorTarget, writes: HostWrites, reads: HostReads = realReads, dryRun = false): InjectorContext & { log: ReturnType<typeof memoryLogger> } {
  return { target, writes, reads, log: memoryLogger(), dryRun, signal: new AbortController().signal };
}
