// What the API server benches share: a child `bosun up` on durable storage, a keep-alive HTTP(S) client,
// a pool of concurrent callers, and quantiles.
import { spawn, type ChildProcess } from 'node:child_process';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { bin } from '../test/helpers/bosun-process.ts';

/** A loopback port below the ephemeral range, which no outgoing connection can take before the server binds it. */
export { freePort } from '../test/helpers/bosun-process.ts';

/**
 * `bosun up` with no controllers on dataDir (SQLite, durable); resolves once it is ready. Its metrics and dashboard
 * take any free port, so a bench never takes the fixed defaults from a bosun up (or a test) running beside it.
 */
export async function startBosun(dataDir: string, port: number, extraArgs: string[] = []): Promise<ChildProcess> {
  // BENCH_SERVER_NODE_ARGS (e.g. "--cpu-prof") profiles the server alone.
  const nodeArgs = (process.env['BENCH_SERVER_NODE_ARGS'] ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, bin, 'up', '--data-dir', dataDir, '--port', String(port), '--controllers', 'none', '--metrics-port', '0', '--dashboard-port', '0', ...extraArgs], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('bosun is ready')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`bosun up exited ${code}`)));
  });
  return child;
}

export type Client = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<{ status: number; text: string }>;

/**
 * One keep-alive client on 127.0.0.1:port with at most `connections` sockets: HTTPS when `ca` is given, else
 * plain HTTP. A string body is sent as it is, anything else as JSON.
 */
export function client(port: number, connections: number, ca?: string): Client {
  const agent = ca ? new HttpsAgent({ keepAlive: true, maxSockets: connections, ca }) : new HttpAgent({ keepAlive: true, maxSockets: connections });
  const send = ca ? httpsRequest : httpRequest;
  return (method, path, body, headers = {}) =>
    new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
      const req = send(
        {
          host: '127.0.0.1',
          port,
          method,
          path,
          agent,
          headers: { 'content-type': 'application/json', ...headers, ...(payload ? { 'content-length': Buffer.byteLength(payload) } : {}) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
}

/** Runs task(0..n-1) on `concurrency` callers; the milliseconds it took. */
export async function pool(concurrency: number, n: number, task: (i: number) => Promise<void>): Promise<number> {
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) await task(next++);
    }),
  );
  return performance.now() - start;
}

export function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

export const median = (values: number[]) => quantile(values, 0.5);

/** The annotation that carries a watched object's send time (wall clock, ms). */
export const SENT_AT_ANNOTATION = 'bench.bosun.dev/sent-at';

export interface WatchLatency {
  /** Events per second the writer achieved (it aims at 1,000). */
  rate: number;
  /** Events received, over every watcher. */
  delivered: number;
  expected: number;
  p50: number;
  p99: number;
  /** The receiving process's CPU over the phase, % of one core. */
  consumerCpu: number;
}

/**
 * Watch delivery latency from a writer's send to a watcher's receipt: `watchers` watch streams from
 * `fromRevision` on labelled ConfigMaps in `default`, while one writer creates `events` of them at 1,000/s.
 * Writer and watchers are fresh processes of their own (wall clock with sub-millisecond precision, same
 * machine), so neither the bench's garbage nor the writer's load delays the watchers.
 */
export async function watchLatency(port: number, dataDir: string, fromRevision: string, events: number, watchers: number): Promise<WatchLatency> {
  const script = (name: string) => join(import.meta.dirname, name);
  const consumer = spawn(process.execPath, ['--import', 'tsx', script('watch-consumer.ts'), String(port), dataDir, fromRevision, String(events), String(watchers)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let consumerOut = '';
  const ready = new Promise<void>((resolve) =>
    consumer.stdout?.on('data', (d: Buffer) => {
      consumerOut += d.toString();
      if (consumerOut.includes('ready\n')) resolve();
    }),
  );
  const consumerDone = new Promise<void>((resolve) => consumer.on('exit', () => resolve()));
  await ready;
  const writer = spawn(process.execPath, ['--import', 'tsx', script('watch-writer.ts'), String(port), dataDir, String(events)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let writerOut = '';
  writer.stdout?.on('data', (d: Buffer) => (writerOut += d.toString()));
  await new Promise((resolve) => writer.on('exit', resolve));
  const { rate } = JSON.parse(writerOut) as { rate: number };
  await consumerDone;
  const result = JSON.parse(consumerOut.slice(consumerOut.indexOf('ready\n') + 'ready\n'.length)) as { delivered: number; p50: number; p99: number; consumerCpu: number };
  return { rate, expected: events * watchers, ...result };
}
