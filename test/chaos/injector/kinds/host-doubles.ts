// Host reads and writes for the kinds' tests: real ones (files and processes of this machine, as the injector
// would use them) and a recording writes (upstream tests its tc and iptables sequences against mocks too).
import { createRealReads } from '../../../../src/chaos/injector/host/real-reads.ts';
import { createRealWrites, runCommand } from '../../../../src/chaos/injector/host/real-writes.ts';
import type { ChildProcessHandle, CommandResult, HostWrites } from '../../../../src/chaos/injector/host/host-writes.ts';
import type { HostReads } from '../../../../src/chaos/injector/host/host-reads.ts';
import type { InjectorContext, InjectorLogger, InjectorTarget } from '../../../../src/chaos/injector/injector.ts';

// The injector's own implementations: the kinds' tests change this machine as a chaos pod would.
export const realReads: HostReads = createRealReads();
export const realWrites: HostWrites = createRealWrites();
export { runCommand };

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
