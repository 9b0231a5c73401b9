// Runs `bosun up` as a child process, as a user would: for tests that kill and restart it.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

export const bin = join(import.meta.dirname, '..', '..', 'bin', 'bosun.js');

/**
 * A loopback port that was free a moment ago (the restart tests need a fixed one), taken below the kernel's
 * ephemeral range: a port from listen(0) is one any outgoing connection on the machine (kubectl's, another
 * test's) may take as its source port before `bosun up` binds it. Below that range only a listener can take it,
 * and listeners take ports from the range. Also below the NodePort range (30000-32767), which Services use.
 */
export async function freePort(): Promise<number> {
  const top = Math.min(30000, ephemeralRangeStart());
  const bottom = Math.max(1024, top - 10000);
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = bottom + randomInt(top - bottom);
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port from ${bottom} to ${top - 1} after 100 tries`);
}

function ephemeralRangeStart(): number {
  try {
    const start = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(start) && start > 1024 ? start : 32768;
  } catch {
    return 32768;
  }
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/**
 * Starts `bosun up` on dataDir and port (with more flags and environment variables if given); resolves once it
 * prints its ready line (60 s at most).
 */
export function startBosun(dataDir: string, port: number, flags: string[] = [], env: Record<string, string> = {}): Promise<ChildProcess> {
  // Tests run side by side: each takes any free metrics and dashboard port rather than the fixed defaults.
  const metrics = flags.includes('--metrics-port') ? [] : ['--metrics-port', '0'];
  const dashboard = flags.includes('--dashboard-port') || flags.includes('--no-dashboard') ? [] : ['--dashboard-port', '0'];
  // The existing suite runs on the host sandbox; tests of images say --container-runtime themselves.
  const runtime = flags.some((flag) => flag.startsWith('--container-runtime')) ? [] : ['--container-runtime', 'host'];
  return startReady([bin, 'up', '--data-dir', dataDir, '--port', String(port), ...metrics, ...dashboard, ...runtime, ...flags], 'bosun is ready', env);
}

/** Starts a bosun command (with more environment variables if given) and resolves once its stdout shows readyText (60 s at most). */
export async function startReady(args: string[], readyText: string, env: Record<string, string> = {}): Promise<ChildProcess> {
  return (await startReadyWithOutput(args, readyText, env)).child;
}

/** startReady, with what the command printed until it was ready. */
export function startReadyWithOutput(args: string[], readyText: string, env: Record<string, string> = {}): Promise<{ child: ChildProcess; output: string }> {
  return new Promise((resolve, reject) => {
    // BENCH_SERVER_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=DIR", which NODE_OPTIONS refuses) profiles the bosun process alone, as in bench/bosun-harness.ts.
    const nodeArgs = (process.env['BENCH_SERVER_NODE_ARGS'] ?? '').split(' ').filter(Boolean);
    const child = spawn(process.execPath, [...nodeArgs, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`bosun ${args[1] ?? ''} did not get ready within 60 s: ${out}`));
    }, 60_000);
    const onData = (d: Buffer) => {
      out += d.toString();
      if (out.includes(readyText)) {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        child.stdout?.resume();
        resolve({ child, output: out });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-20_000)));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`bosun ${args[1] ?? ''} exited with ${code}: ${out}`));
    });
  });
}

/** Resolves when the child has exited (at once if it already has). */
export function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));
}

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end (asynchronously, so an in-process server keeps answering), with stdin given if any. */
export function runToEnd(command: string, args: string[], options: { input?: string; cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'], ...(options.cwd ? { cwd: options.cwd } : {}), ...(options.env ? { env: options.env } : {}) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input);
  });
}

/** Runs a shell command in cwd, in its own process group (stop it with process.kill(-pid)), until its stdout shows readyText. */
export function startInBackground(command: string, readyText: string, cwd: string): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', command], { cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${command}: not ready within 60 s: ${out}`)), 60_000);
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes(readyText)) {
        clearTimeout(timer);
        child.stdout.resume();
        resolve(child);
      }
    });
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => reject(new Error(`${command} exited with ${code}: ${out}`)));
  });
}
