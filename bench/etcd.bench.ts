// `npm run bench:etcd`: Bosun's durable creates/s against etcd 3.4's durable puts/s, side by side on this
// machine with the same client, in alternating rounds (etcd over HTTP, etcd over HTTPS, Bosun over HTTPS); then watch delivery with 100 watchers at 1,000 events/s.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { client, freePort, median, startBosun, watchLatency, type Client } from './bosun-harness.ts';

const rounds = Number(process.env['BENCH_ROUNDS'] ?? 3);
const roundSeconds = Number(process.env['BENCH_ROUND_SECONDS'] ?? 5);
const connections = Number(process.env['BENCH_CONNECTIONS'] ?? 16);
const watchers = Number(process.env['BENCH_WATCHERS'] ?? 100);
const watchSeconds = Number(process.env['BENCH_WATCH_SECONDS'] ?? 10);
const namespace = 'x';

function run(command: string, args: string[]): string {
  const result = spawnSync(command, args, { encoding: 'utf8', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status ?? result.signal}): ${result.stderr || result.error?.message}`);
  return result.stdout;
}

/** Debian's etcd-server (etcd 3.4), installed when `etcd` is not on the PATH. */
function ensureEtcd(): string {
  if (spawnSync('etcd', ['--version']).status !== 0) {
    console.log('etcd is missing: installing Debian etcd-server');
    run('apt-get', ['update']);
    run('apt-get', ['install', '-y', '--no-install-recommends', 'etcd-server']);
  }
  return run('etcd', ['--version']).split('\n')[0] ?? 'etcd';
}

/**
 * One etcd member on loopback ports with its own data dir and the defaults (fdatasync of its WAL per commit).
 * It serves clients on plain HTTP and, with Bosun's serving certificate, on HTTPS: the client that talks to
 * Bosun then talks to etcd with the same TLS, as kube-apiserver's etcd connection has it.
 */
async function startEtcd(dataDir: string, cert: string, key: string): Promise<{ child: ChildProcess; port: number; tlsPort: number }> {
  const port = await freePort();
  const tlsPort = await freePort();
  const peer = `http://127.0.0.1:${await freePort()}`;
  const child = spawn(
    'etcd',
    [
      '--name', 'bench',
      '--data-dir', dataDir,
      '--listen-client-urls', `http://127.0.0.1:${port},https://127.0.0.1:${tlsPort}`,
      '--advertise-client-urls', `http://127.0.0.1:${port}`,
      '--cert-file', cert,
      '--key-file', key,
      '--listen-peer-urls', peer,
      '--initial-advertise-peer-urls', peer,
      '--initial-cluster', `bench=${peer}`,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  await new Promise<void>((resolve, reject) => {
    let log = '';
    const onData = (d: Buffer) => {
      log = (log + d.toString()).slice(-10_000);
      if (log.includes('ready to serve client requests')) {
        child.stderr?.off('data', onData);
        child.stderr?.resume();
        resolve();
      }
    };
    child.stderr?.on('data', onData);
    child.on('exit', (code) => reject(new Error(`etcd exited ${code}: ${log}`)));
  });
  return { child, port, tlsPort };
}

/** About 1 KiB of ConfigMap JSON. */
function configMap(i: number): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: `cm-${i}`, namespace, labels: { app: 'bench', shard: String(i % 10) } },
    data: { key: `value-${i}`, payload: 'x'.repeat(880) },
  };
}

/**
 * CPU time (user + system, ms) a process has used, from /proc: on a machine shared with other work the
 * server's CPU per request says more than its wall-clock rate, which the other work also sets.
 */
function cpuMs(pid: number, thread?: number): number {
  // The fields after the command name (which may hold spaces) start at the third of /proc/PID/stat.
  const stat = readFileSync(thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) / 100) * 1000;
}

interface RoundResult {
  rate: number;
  /** The server's CPU per request (µs). */
  cpuPerRequest: number;
  /**
   * The CPU per request (µs) of the server's main thread: Bosun's event loop, which bounds its rate, where the
   * process's total also counts its worker threads (commits, syncs).
   */
  mainCpuPerRequest: number;
  /** This process's (the client's) CPU per request (µs): it shares the machine's cores with the server. */
  clientCpuPerRequest: number;
}

/** Requests/s that `connections` callers complete in one round of roundSeconds; every request a new object. */
async function round(send: (i: number) => Promise<void>, seconds: number, counter: { next: number }, server: number): Promise<RoundResult> {
  let done = 0;
  const cpuBefore = cpuMs(server);
  const mainBefore = cpuMs(server, server);
  const clientBefore = process.cpuUsage();
  const start = performance.now();
  const deadline = start + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < deadline) {
        await send(counter.next++);
        done++;
      }
    }),
  );
  const rate = (done / (performance.now() - start)) * 1000;
  const client = process.cpuUsage(clientBefore);
  return {
    rate,
    cpuPerRequest: ((cpuMs(server) - cpuBefore) / done) * 1000,
    mainCpuPerRequest: ((cpuMs(server, server) - mainBefore) / done) * 1000,
    clientCpuPerRequest: (client.user + client.system) / done };
}

function bosunCreate(call: Client, token: string): (i: number) => Promise<void> {
  const headers = { authorization: `Bearer ${token}` };
  return async (i) => {
    const res = await call('POST', `/api/v1/namespaces/${namespace}/configmaps`, JSON.stringify(configMap(i)), headers);
    if (res.status !== 201) throw new Error(`bosun create ${res.status} ${res.text}`);
  };
}

/** A put through etcd's JSON gateway: the same ConfigMap JSON under a kube-apiserver-style key. */
function etcdPut(call: Client): (i: number) => Promise<void> {
  const b64 = (text: string) => Buffer.from(text).toString('base64');
  return async (i) => {
    const body = JSON.stringify({ key: b64(`/registry/configmaps/${namespace}/cm-${i}`), value: b64(JSON.stringify(configMap(i))) });
    const res = await call('POST', '/v3/kv/put', body);
    if (res.status !== 200) throw new Error(`etcd put ${res.status} ${res.text}`);
  };
}

async function main(): Promise<void> {
  const etcdVersion = ensureEtcd();
  const dataDir = mkdtempSync(join(tmpdir(), 'bosun-bench-'));
  const port = await freePort();
  const bosun = await startBosun(dataDir, port);
  const etcdDir = mkdtempSync(join(tmpdir(), 'bosun-bench-etcd-'));
  const etcd = await startEtcd(etcdDir, join(dataDir, 'serving.crt'), join(dataDir, 'serving.key'));
  try {
    const token = readFileSync(join(dataDir, 'token'), 'utf8').trim();
    const ca = readFileSync(join(dataDir, 'serving.crt'), 'utf8');
    const bosunCall = client(port, connections, ca);
    const created = await bosunCall('POST', '/api/v1/namespaces', { metadata: { name: namespace } }, { authorization: `Bearer ${token}` });
    if (created.status !== 201) throw new Error(`namespace ${created.status} ${created.text}`);
    const sides = {
      'etcd http': etcdPut(client(etcd.port, connections)),
      'etcd https': etcdPut(client(etcd.tlsPort, connections, ca)),
      bosun: bosunCreate(bosunCall, token),
    };
    const order = Object.keys(sides) as (keyof typeof sides)[];
    // Both etcd sides put new keys into the one etcd.
    const etcdKeys = { next: 0 };
    const counters = { 'etcd http': etcdKeys, 'etcd https': etcdKeys, bosun: { next: 0 } };
    const servers = { 'etcd http': etcd.child.pid!, 'etcd https': etcd.child.pid!, bosun: bosun.pid! };
    // A short warm-up of each (connections, JIT), not counted.
    for (const side of order) await round(sides[side], 1, counters[side], servers[side]);
    const results = { 'etcd http': [] as number[], 'etcd https': [] as number[], bosun: [] as number[] };
    const cpu = { 'etcd http': [] as number[], 'etcd https': [] as number[], bosun: [] as number[] };
    const bosunMainCpu: number[] = [];
    for (let r = 0; r < rounds; r++) {
      for (const side of order) {
        const { rate, cpuPerRequest, mainCpuPerRequest, clientCpuPerRequest } = await round(sides[side], roundSeconds, counters[side], servers[side]);
        results[side].push(rate);
        cpu[side].push(cpuPerRequest);
        if (side === 'bosun') bosunMainCpu.push(mainCpuPerRequest);
        const main = side === 'bosun' ? ` (main thread ${mainCpuPerRequest.toFixed(0)} µs)` : '';
        console.log(`round ${r + 1} ${side.padEnd(10)} ${rate.toFixed(0)}/s, server CPU ${cpuPerRequest.toFixed(0)} µs${main}, client CPU ${clientCpuPerRequest.toFixed(0)} µs per request`);
      }
    }

    const watchCpuBefore = cpuMs(bosun.pid!);
    const watch = await watchLatency(port, dataDir, '0', watchSeconds * 1000, watchers);
    const watchCpu = cpuMs(bosun.pid!) - watchCpuBefore;

    const all = (side: keyof typeof results) => `rounds: ${results[side].map((v) => v.toFixed(0)).join(', ')}`;
    const ratio = (side: keyof typeof results) => `${(median(results.bosun) / median(results[side])).toFixed(2)}×`;
    const rows = [
      [`etcd puts/s (JSON gateway, HTTP), median of ${rounds}`, median(results['etcd http']).toFixed(0), all('etcd http')],
      [`etcd puts/s (JSON gateway, HTTPS), median of ${rounds}`, median(results['etcd https']).toFixed(0), all('etcd https')],
      [`Bosun creates/s (HTTPS, bearer token), median of ${rounds}`, median(results.bosun).toFixed(0), all('bosun')],
      ['Bosun / etcd over HTTP', ratio('etcd http'), '≥ 1.5×'],
      ['Bosun / etcd over HTTPS (the same TLS client)', ratio('etcd https'), '≥ 1.5×'],
      [`server CPU per request (µs), etcd HTTP, median of ${rounds}`, median(cpu['etcd http']).toFixed(0), ''],
      [`server CPU per request (µs), etcd HTTPS, median of ${rounds}`, median(cpu['etcd https']).toFixed(0), ''],
      [`server CPU per request (µs), Bosun, median of ${rounds}`, median(cpu.bosun).toFixed(0), ''],
      [`Bosun main thread (event loop) CPU per request (µs), median of ${rounds}`, median(bosunMainCpu).toFixed(0), ''],
      [`watch latency p50 (ms), ${watchers} watchers at ${watch.rate.toFixed(0)} events/s`, watch.p50.toFixed(2), ''],
      ['watch latency p99 (ms)', watch.p99.toFixed(2), '< 50 ms'],
      ['watch events delivered', `${watch.delivered}/${watch.expected}`, 'all'],
      ['Bosun server CPU during the watch phase (% of one core)', ((watchCpu / (watchSeconds * 1000)) * 100).toFixed(0), ''],
      ['the watchers\' process CPU during the watch phase (% of one core)', watch.consumerCpu.toFixed(0), ''],
      ['Bosun server CPU per watch event, all watchers (µs)', ((watchCpu * 1000) / (watchSeconds * 1000)).toFixed(0), ''],
    ];
    console.log(`bench:etcd — ${connections} connections, ${roundSeconds} s rounds, ~1 KiB ConfigMaps, ${etcdVersion}, node ${process.version}, ${new Date().toISOString()}`);
    console.log('durability: etcd fdatasyncs its WAL before it answers (default); Bosun commits each group of writes to the SQLite WAL and fdatasyncs the log before it answers');
    for (const [what, value, note] of rows) console.log(`${what!.padEnd(62)} ${value!.padStart(10)}   ${note}`);
  } finally {
    // Both data directories go once their servers are gone: a run leaves ~0.5 GB in them.
    const exited = [bosun, etcd.child].map((child) => (child.exitCode === null && child.signalCode === null ? once(child, 'exit') : Promise.resolve([])));
    bosun.kill('SIGTERM');
    etcd.child.kill('SIGTERM');
    await Promise.all(exited);
    for (const dir of [dataDir, etcdDir]) rmSync(dir, { recursive: true, force: true });
  }
}

await main();
