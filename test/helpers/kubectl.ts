// Runs the real kubectl (the dispatcher on PATH) against a test server, with a fresh discovery cache.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { tempDirRemovedAtExit } from './temp-dir.ts';

export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface Kubectl {
  (args: string[], input?: string): Promise<KubectlResult>;
  /** Starts a long-running kubectl (e.g. `get -w`) and returns its process. */
  spawn(args: string[]): ChildProcessWithoutNullStreams;
  /** Starts a long-running kubectl and collects its stdout lines. */
  stream(args: string[]): KubectlStream;
  readonly cacheDir: string;
}

export interface KubectlStream {
  readonly lines: string[];
  readonly stderr: () => string;
  /** Resolves once `count` lines arrived; rejects after `timeoutMs`. */
  waitForLines(count: number, timeoutMs?: number): Promise<string[]>;
  /** Resolves with the first line matching `pattern`; rejects after `timeoutMs`. */
  waitForLine(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** Resolves once stderr matches `pattern` (e.g. a `-v=6` request trace); rejects after `timeoutMs`. */
  waitForStderr(pattern: RegExp, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

/** `binary` defaults to the dispatcher on PATH; a bundled `kubectl.1.NN` forces that version. */
export function kubectlFor(kubeconfigFile: string, binary = 'kubectl'): Kubectl {
  const cacheDir = tempDirRemovedAtExit('bosun-kubectl-cache-');
  const base = ['--kubeconfig', kubeconfigFile, '--cache-dir', cacheDir];
  const env = { ...process.env, KUBECONFIG: kubeconfigFile, HOME: cacheDir };
  const spawnKubectl = (args: string[]) => spawn(binary, [...base, ...args], { env });
  const run = (args: string[], input?: string) =>
    new Promise<KubectlResult>((resolve, reject) => {
      const child = spawnKubectl(args);
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
      if (input !== undefined) child.stdin.end(input);
      else child.stdin.end();
    });
  const stream = (args: string[]): KubectlStream => {
    const child = spawnKubectl(args);
    const lines: string[] = [];
    let partial = '';
    let stderr = '';
    const waiters = new Set<() => void>();
    /** Resolves with what `found` returns once it returns something, checked on every chunk of output. */
    const until = <T>(found: () => T | undefined, timeoutMs: number, failure: () => string) =>
      new Promise<T>((resolve, reject) => {
        const check = () => {
          const value = found();
          if (value === undefined) return;
          cleanup();
          resolve(value);
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`kubectl ${args.join(' ')}: ${failure()}`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    child.stdout.on('data', (d: Buffer) => {
      partial += d.toString();
      const parts = partial.split('\n');
      partial = parts.pop() ?? '';
      lines.push(...parts.filter((l) => l.trim() !== ''));
      for (const w of waiters) w();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      for (const w of waiters) w();
    });
    const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
    return {
      lines,
      stderr: () => stderr,
      waitForLines: (count, timeoutMs = 5000) =>
        until(() => (lines.length >= count ? [...lines] : undefined), timeoutMs, () => `wanted ${count} lines within ${timeoutMs} ms, got ${JSON.stringify(lines)}; stderr: ${stderr}`),
      waitForLine: (pattern, timeoutMs = 5000) =>
        until(() => lines.find((line) => pattern.test(line)), timeoutMs, () => `no line matched ${String(pattern)} within ${timeoutMs} ms: ${JSON.stringify(lines.slice(-20))}; stderr: ${stderr}`),
      waitForStderr: async (pattern, timeoutMs = 5000) => {
        await until(() => (pattern.test(stderr) ? true : undefined), timeoutMs, () => `stderr did not match ${String(pattern)} within ${timeoutMs} ms: ${stderr}`);
      },
      async stop() {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
        await exited;
      },
    };
  };
  return Object.assign(run, { spawn: spawnKubectl, stream, cacheDir });
}
