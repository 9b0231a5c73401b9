// `bosun webhook-server` and `bosun up`'s webhook server as a user runs them: real processes, a real API
// server, deliveries signed as GitHub signs them.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { KubeClient } from '../../../src/client/client.ts';
import { startTestServer, type TestServer } from '../../helpers/api-server.ts';
import { bin } from '../../helpers/bosun-process.ts';
import { createRepository, getRepository, startTerrakojoApi, syncRequestedAt } from './harness.ts';
import { delivery, pingPayload, pushPayload, send } from './payloads.ts';

const SECRET = 'cli-test-secret';

interface Run {
  child: ChildProcess;
  out: () => string;
  err: () => string;
  exit: Promise<number | null>;
}

/** Runs `bosun ARGS` with env (without any GITHUB_WEBHOOK_SECRET of the test's own environment). */
function bosun(args: string[], env: Record<string, string> = {}): Run {
  const { GITHUB_WEBHOOK_SECRET: _ignored, ...inherited } = process.env;
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...inherited, ...env } });
  let out = '';
  let err = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, out: () => out, err: () => err, exit };
}

/** The first match of pattern in the run's stdout, once it appears (30 s at most). */
async function waitFor(run: Run, pattern: RegExp): Promise<RegExpMatchArray> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const match = run.out().match(pattern);
    if (match) return match;
    if (run.child.exitCode !== null) throw new Error(`exited with ${run.child.exitCode}: ${run.out()} ${run.err()}`);
    if (Date.now() > deadline) throw new Error(`no ${pattern} in time: ${run.out()} ${run.err()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

let api: TestServer;
let client: KubeClient;

before(async () => {
  ({ api, client } = await startTerrakojoApi());
});

after(async () => {
  await client.close();
  await api.close();
});

const tmp = () => mkdtempSync(join(tmpdir(), 'bosun-webhook-'));

test('without a secret it refuses to start: one line, exit 1', async () => {
  const run = bosun(['webhook-server', '--kubeconfig', api.kubeconfigFile, '--port', '0']);
  assert.equal(await run.exit, 1);
  assert.equal(run.err(), 'bosun webhook-server: no webhook secret: set GITHUB_WEBHOOK_SECRET or give --secret-file (or --insecure-skip-signature to accept unsigned deliveries)\n');
  const emptyFile = join(tmp(), 'secret');
  writeFileSync(emptyFile, '\n');
  const empty = bosun(['webhook-server', '--kubeconfig', api.kubeconfigFile, '--port', '0', '--secret-file', emptyFile]);
  assert.equal(await empty.exit, 1);
  assert.equal(empty.err(), `bosun webhook-server: the secret file ${emptyFile} is empty\n`);
});

test('bosun webhook-server: a signed push pokes the Repository; SIGTERM shuts down', async () => {
  await createRepository(client, 'default', 'cli-infra', 'acme', 'cli-infra');
  const secretFile = join(tmp(), 'secret');
  writeFileSync(secretFile, `${SECRET}\n`, { mode: 0o600 });
  const run = bosun(['webhook-server', '--kubeconfig', api.kubeconfigFile, '--port', '0', '--secret-file', secretFile]);
  try {
    const [, url] = await waitFor(run, /bosun webhook-server is ready: GitHub deliveries to (http:\/\/127\.0\.0\.1:\d+\/webhook) sync the Repositories in all namespaces/);
    assert.equal(run.err(), '', 'nothing to warn about');
    const unsigned = await send(url!, await delivery('push', pushPayload('acme', 'cli-infra')));
    assert.equal(unsigned.status, 401);
    const answer = await send(url!, await delivery('push', pushPayload('acme', 'cli-infra'), { secret: SECRET }));
    assert.deepEqual([answer.status, answer.message], [202, 'sync requested for acme/cli-infra']);
    assert.ok(syncRequestedAt(await getRepository(client, 'default', 'cli-infra')));
    assert.ok(!run.out().includes(SECRET) && !run.err().includes(SECRET), 'the secret is not printed');
  } finally {
    run.child.kill('SIGTERM');
  }
  assert.equal(await run.exit, 0, run.err());
  assert.match(run.out(), /bosun webhook-server: SIGTERM received, shutting down/);
});

test('bosun webhook-server against a cluster without the terrakojo CRDs says so in one line and serves', async () => {
  const bare = await startTestServer();
  const run = bosun(['webhook-server', '--kubeconfig', bare.kubeconfigFile, '--port', '0', '--namespace', 'infra'], { GITHUB_WEBHOOK_SECRET: SECRET });
  try {
    const [, url] = await waitFor(run, /bosun webhook-server is ready: GitHub deliveries to (\S+) sync the Repositories in namespace infra/);
    assert.equal(run.err(), 'bosun webhook-server: cannot list Repositories yet: the API server has no terrakojo.io Repository kind (install the CRDs: bosun manifests); deliveries are answered 503 until that works\n');
    assert.equal((await send(url!, await delivery('push', pushPayload('acme', 'infra'), { secret: SECRET }))).status, 503);
  } finally {
    run.child.kill('SIGTERM');
    await run.exit;
    await bare.close();
  }
});

test('bosun up: the webhook server on loopback with a secret, off with one line without', async () => {
  const common = ['up', '--in-memory', '--port', '0', '--controllers', 'none', '--no-node', '--metrics-port', '0'];
  const withSecret = bosun([...common, '--data-dir', tmp(), '--webhook-server-port', '0'], { GITHUB_WEBHOOK_SECRET: SECRET });
  try {
    const [, url] = await waitFor(withSecret, /bosun is ready: .*; GitHub webhooks on (http:\/\/127\.0\.0\.1:\d+\/webhook); bosun \d+\.\d+\.\d+\n/);
    const ping = await send(url!, await delivery('ping', pingPayload('acme', 'up'), { secret: SECRET }));
    assert.deepEqual([ping.status, ping.message], [200, 'pong']);
    assert.equal((await send(url!, await delivery('ping', pingPayload('acme', 'up'), { secret: 'wrong' }))).status, 401);
  } finally {
    withSecret.child.kill('SIGTERM');
  }
  assert.equal(await withSecret.exit, 0, withSecret.err());

  const without = bosun([...common, '--data-dir', tmp()]);
  try {
    await waitFor(without, /bosun is ready/);
    assert.match(without.out(), /^GitHub webhook server off: set GITHUB_WEBHOOK_SECRET or give --webhook-secret-file to receive push and pull_request deliveries$/m);
    assert.doesNotMatch(without.out(), /GitHub webhooks on/);
  } finally {
    without.child.kill('SIGTERM');
  }
  assert.equal(await without.exit, 0, without.err());
});
