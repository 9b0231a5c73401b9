// Runs `bosun inject ...` (inject-cli.ts, with a FilePort over files in a temporary directory) as a child
// process, as a chaos pod would run it, and collects its JSON log lines.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PortState } from './file-port.ts';

const CLI = join(import.meta.dirname, 'inject-cli.ts');

export interface RunningInjector {
  child: ChildProcess;
  readinessFile: string;
  /** Resolves with the exit code. */
  exit: Promise<number | null>;
  output(): string;
  logLines(): Record<string, unknown>[];
  calls(): { call: string; args: unknown }[];
  setState(state: PortState): void;
  dispose(): void;
}

export function startInjector(args: readonly string[], state: PortState = { containers: {}, pods: {} }, env: Record<string, string> = {}): RunningInjector {
  const dir = mkdtempSync(join(tmpdir(), 'bosun-inject-'));
  const statePath = join(dir, 'state.json');
  const callsPath = join(dir, 'calls.jsonl');
  const readinessFile = join(dir, 'readiness_probe');
  writeFileSync(statePath, JSON.stringify(state));
  writeFileSync(callsPath, '');
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, 'inject', ...args, '--readiness-file', readinessFile], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, BOSUN_TEST_PORT_STATE: statePath, BOSUN_TEST_PORT_CALLS: callsPath, INJECTOR_POD_NAME: 'chaos-pod-1', ...env },
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    readinessFile,
    exit,
    output: () => out,
    logLines: () =>
      out
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    calls: () =>
      existsSync(callsPath)
        ? readFileSync(callsPath, 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((line) => JSON.parse(line) as { call: string; args: unknown })
        : [],
    setState: (next) => writeFileSync(statePath, JSON.stringify(next)),
    dispose: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Resolves when the readiness file exists; rejects when the injector exits first or after 60 s. */
export async function waitReady(injector: RunningInjector): Promise<void> {
  let exited = false;
  void injector.exit.then(() => (exited = true));
  const end = Date.now() + 60_000;
  while (!existsSync(injector.readinessFile)) {
    if (exited) throw new Error(`injector exited before it was ready:\n${injector.output()}`);
    if (Date.now() > end) throw new Error(`injector not ready after 60 s:\n${injector.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Resolves when a log line with this msg appeared; rejects on exit or after 60 s. */
export async function waitLog(injector: RunningInjector, msg: string, count = 1): Promise<void> {
  const end = Date.now() + 60_000;
  while (injector.logLines().filter((line) => line['msg'] === msg).length < count) {
    if (injector.child.exitCode !== null) throw new Error(`injector exited before logging ${msg}:\n${injector.output()}`);
    if (Date.now() > end) throw new Error(`no ${JSON.stringify(msg)} after 60 s:\n${injector.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
