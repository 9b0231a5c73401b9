// `bosun up` as a user runs it: the ready line, one-line start-up errors, graceful shutdown.
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import * as k8s from '@kubernetes/client-node';
import { freePort } from '../helpers/bosun-process.ts';
import { kubectlFor } from '../helpers/kubectl.ts';

const bin = join(import.meta.dirname, '..', '..', 'bin', 'bosun.js');

interface Run {
  child: ChildProcess;
  out: () => string;
  err: () => string;
  exit: Promise<number | null>;
}

/** `bosun up` with args; without controllers unless `base` says otherwise. */
function up(args: string[], base = ['--controllers', 'none']): Run {
  const child = spawn(process.execPath, [bin, 'up', ...base, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, out: () => out, err: () => err, exit };
}

async function ready(run: Run): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!run.out().includes('bosun is ready')) {
    if (run.child.exitCode !== null) throw new Error(`exited early: ${run.err()}`);
    if (Date.now() > deadline) throw new Error(`not ready in time: ${run.out()} ${run.err()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function listen(): Promise<{ server: Server; port: number }> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as { port: number }).port }));
  });
}

const dir = () => mkdtempSync(join(tmpdir(), 'bosun-up-'));

test('prints the kubeconfig path and a ready line; token and kubeconfig are 0600; SIGTERM shuts down cleanly', async () => {
  const dataDir = dir();
  const run = up(['--data-dir', dataDir, '--port', '0']);
  await ready(run);
  assert.match(run.out(), new RegExp(`kubeconfig: ${join(dataDir, 'kubeconfig')}`));
  assert.match(run.out(), /bosun is ready: API server listening on https:\/\/127\.0\.0\.1:\d+/);
  assert.equal(statSync(join(dataDir, 'token')).mode & 0o777, 0o600);
  assert.equal(statSync(join(dataDir, 'kubeconfig')).mode & 0o777, 0o600);
  // A watch open at shutdown ends cleanly instead of being cut.
  const kc = new k8s.KubeConfig();
  kc.loadFromString(readFileSync(join(dataDir, 'kubeconfig'), 'utf8'));
  const watchEnded = new Promise<unknown>((resolve) => {
    void new k8s.Watch(kc).watch('/api/v1/namespaces', {}, () => {}, resolve);
  });
  await new Promise((r) => setTimeout(r, 300));
  run.child.kill('SIGTERM');
  assert.equal(await run.exit, 0);
  assert.equal(await watchEnded, null, 'the watch ended normally, not with an error');
  assert.match(run.out(), /SIGTERM received, shutting down/);
});

test('a port in use is one clear line and exit 1', async () => {
  const { server, port } = await listen();
  try {
    const run = up(['--data-dir', dir(), '--port', String(port)]);
    assert.equal(await run.exit, 1);
    assert.equal(run.err().trim(), `bosun up: port ${port} on 127.0.0.1 is already in use (choose another with --port)`);
  } finally {
    server.close();
  }
});

test('a second instance on the same data dir is refused with the first one\'s pid', async () => {
  const dataDir = dir();
  const first = up(['--data-dir', dataDir, '--port', '0']);
  await ready(first);
  try {
    const second = up(['--data-dir', dataDir, '--port', '0']);
    assert.equal(await second.exit, 1);
    assert.equal(second.err().trim(), `bosun up: another bosun (pid ${first.child.pid}) is already using data dir ${dataDir}`);
  } finally {
    first.child.kill('SIGTERM');
    await first.exit;
  }
});

test('a corrupt database and an unusable data dir are one clear line each', async () => {
  const corrupt = dir();
  writeFileSync(join(corrupt, 'bosun.db'), 'this is not a database'.repeat(100));
  const run = up(['--data-dir', corrupt, '--port', '0']);
  assert.equal(await run.exit, 1);
  const line = run.err().trim();
  assert.equal(line.split('\n').length, 1, line);
  assert.match(line, /^bosun up: cannot open storage .*bosun\.db: file is not a database$/);

  const file = join(dir(), 'plain-file');
  writeFileSync(file, 'x');
  const unusable = up(['--data-dir', file, '--port', '0']);
  assert.equal(await unusable.exit, 1);
  assert.match(unusable.err().trim(), /^bosun up: data dir .*plain-file is not usable: /);
});

test('bosun up | head: a reader that goes away is harmless, and SIGTERM still shuts down cleanly', async () => {
  // Without controllers only bosun's own lines go to stdout; with them, the controllers' logs do too.
  for (const controllers of ['none', 'landscaper']) {
    const run = up(['--data-dir', dir(), '--port', '0', '--controllers', controllers]);
    await ready(run);
    run.child.stdout!.destroy();
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(run.child.exitCode, null, `still serving with --controllers ${controllers}: ${run.err()}`);
    run.child.kill('SIGTERM');
    assert.equal(await run.exit, 0, run.err());
    assert.doesNotMatch(run.err(), /EPIPE/);
  }
});

test('serves only the CRDs of families that are built: terrakojo\'s kinds, and a Disruption is an unknown kind', async () => {
  const dataDir = dir();
  const run = up(['--data-dir', dataDir, '--port', '0']);
  try {
    await ready(run);
    // As docs/apiserver.md says: the kubeconfig trusts the serving certificate, it does not skip verification.
    const kubeconfig = readFileSync(join(dataDir, 'kubeconfig'), 'utf8');
    assert.match(kubeconfig, /certificate-authority-data: /);
    assert.doesNotMatch(kubeconfig, /insecure-skip-tls-verify/);
    const kubectl = kubectlFor(join(dataDir, 'kubeconfig'));
    for (const resource of ['installations', 'workflows', 'workflowtemplates', 'repositories', 'branches', 'disruptions']) {
      const served = await kubectl(['get', resource]);
      assert.equal(served.code, 0, `kubectl get ${resource}: ${served.stderr}`);
    }
  } finally {
    run.child.kill('SIGTERM');
    await run.exit;
  }
});

test('--pod-security sets the level of namespaces without labels; an unknown level is refused', async () => {
  const dataDir = dir();
  const run = up(['--data-dir', dataDir, '--port', '0', '--no-node', '--pod-security', 'restricted']);
  try {
    await ready(run);
    const kubectl = kubectlFor(join(dataDir, 'kubeconfig'));
    const created = await kubectl(['run', 'plain', '--image=busybox', '--restart=Never']);
    assert.equal(created.code, 1);
    assert.match(created.stderr, /^Error from server \(Forbidden\): pods "plain" is forbidden: violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false/);
  } finally {
    run.child.kill('SIGTERM');
    await run.exit;
  }
  const bad = up(['--data-dir', dir(), '--port', '0', '--pod-security', 'lax']);
  assert.equal(await bad.exit, 1);
  assert.match(bad.err(), /option '--pod-security <level>' argument 'lax' is invalid\. not one of privileged, baseline, restricted/);
});

test('--service-cluster-ip-range and --cluster-dns place the system Services; a bad range is refused in one line', async () => {
  const dataDir = dir();
  const run = up(['--data-dir', dataDir, '--port', '0', '--no-node', '--service-cluster-ip-range', '10.50.0.0/16', '--cluster-dns', '10.50.0.53']);
  try {
    await ready(run);
    const kubectl = kubectlFor(join(dataDir, 'kubeconfig'));
    const services = await kubectl(['get', 'svc', '-A', '-o', 'jsonpath={range .items[*]}{.metadata.name}={.spec.clusterIP} {end}']);
    assert.equal(services.stdout.trim(), 'kubernetes=10.50.0.1 kube-dns=10.50.0.53');
  } finally {
    run.child.kill('SIGTERM');
    await run.exit;
  }
  const bad = up(['--data-dir', dir(), '--port', '0', '--no-node', '--service-cluster-ip-range', '10.50.0.0']);
  assert.equal(await bad.exit, 1);
  assert.equal(bad.err().trim(), 'bosun up: service CIDR "10.50.0.0" must be an IPv4 CIDR with a prefix between /8 and /30 (e.g. 10.96.0.0/12)');
});

test('on a full disk bosun up starts and serves reads, refuses writes with the cause, and shuts down without a stale lock', { skip: process.getuid?.() !== 0 && 'mounting a tmpfs needs root' }, async (t) => {
  const dataDir = dir();
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=16m,mode=0700', 'tmpfs', dataDir]);
  t.after(() => {
    execFileSync('umount', ['--lazy', dataDir]);
  });
  // With a family whose start writes (its webhook configurations), on a fixed port so the kubeconfig stays.
  const args = ['--data-dir', dataDir, '--port', String(await freePort()), '--controllers', 'landscaper'];
  const first = up(args);
  await ready(first);
  first.child.kill('SIGTERM');
  assert.equal(await first.exit, 0, first.err());
  try {
    writeFileSync(join(dataDir, 'filler'), Buffer.alloc(64 * 1024 * 1024, 1));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  }
  const run = up(args);
  try {
    await ready(run);
    assert.match(run.err(), /bosun up: controllers not started: database space exceeded: the disk holding .*bosun\.db is full/);
    const kubectl = kubectlFor(join(dataDir, 'kubeconfig'));
    const read = await kubectl(['get', 'namespace', 'default', '-o', 'name']);
    assert.equal(read.stdout.trim(), 'namespace/default', read.stderr);
    const write = await kubectl(['create', 'configmap', 'refused']);
    assert.notEqual(write.code, 0);
    assert.match(write.stderr, /database space exceeded: the disk holding .*bosun\.db is full/);
  } finally {
    run.child.kill('SIGTERM');
    assert.equal(await run.exit, 0, run.err());
  }
  assert.equal(existsSync(join(dataDir, 'bosun.lock')), false, 'no stale lock after a shutdown on the full disk');
});

test('the controllers\' metrics are on the fixed default port 10257, named in the ready line with the version; a second bosun up is told the port is taken', async () => {
  const version = (JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'package.json'), 'utf8')) as { version: string }).version;
  const start = () => up(['--in-memory', '--port', '0', '--no-node', '--no-webhook', '--no-webhook-server', '--log-level', 'silent'], []);
  const first = start();
  try {
    await ready(first);
    assert.match(first.out(), new RegExp(`metrics on https://127\\.0\\.0\\.1:10257/metrics; bosun ${version.replaceAll('.', '\\.')}\\n`));
    const second = start();
    assert.equal(await second.exit, 1);
    assert.match(second.err(), /bosun up: controllers: metrics: port 10257 on 127\.0\.0\.1 is already in use \(choose another with --metrics-port, or 0 for any free port\)/);
  } finally {
    first.child.kill('SIGTERM');
    await first.exit;
  }
});
