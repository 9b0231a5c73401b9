// The agent's kubelet API over real HTTPS and WebSocket, in front of real sandboxed containers: logs with
// every option kubectl passes, follow until the run ends, exec with stdin, exit codes, and the refusals, among
// them any client without a certificate of the kubelet CA (issue 27, finding 2: no token on loopback).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { loadOrCreateKubeletPki } from '../../src/node/kubelet-api/kubelet-pki.ts';
import type { ContainerRef, RunningContainers } from '../../src/node/agent/running-containers.ts';
import { startKubeletApi, SPDY_REFUSAL, type RunningKubeletApi } from '../../src/node/kubelet-api/server.ts';
import type { ContainerHandle } from '../../src/node/sandbox/container-handle.ts';
import { openSandboxHarness, waitForLog, type SandboxHarness } from './harness.ts';

let h: SandboxHarness;
let pkiDir: string;
/** What the API server presents: its client certificate, and the CA it verifies the kubelet with. */
let clientTls: { ca: string; cert?: string; key?: string };
/** A client certificate of another CA, and that CA. */
let strangerTls: { ca: string; cert: string; key: string };
let strangerCA: string;
let api: RunningKubeletApi;
const runs = new Map<string, { handle: ContainerHandle; logPath: string; previous?: string }>();
const exited = new Set<string>();
const key = (ref: ContainerRef) => `${ref.namespace}/${ref.pod}/${ref.container}`;
const containers: RunningContainers = {
  running: (ref) => (exited.has(key(ref)) ? undefined : runs.get(key(ref))?.handle),
  logPath: (ref, previous) => (previous ? runs.get(key(ref))?.previous : runs.get(key(ref))?.logPath),
  forwardTarget: () => undefined,
};

async function run(pod: string, script: string): Promise<{ handle: ContainerHandle; logPath: string }> {
  const request = h.request(pod, { name: 'main', argv: ['sh', '-c', script] });
  const handle = await h.sandbox.start(request);
  runs.set(`default/${pod}/main`, { handle, logPath: request.logPath });
  void handle.exited.then(() => exited.add(`default/${pod}/main`));
  return { handle, logPath: request.logPath };
}

before(async () => {
  h = await openSandboxHarness();
  pkiDir = await mkdtemp(join(tmpdir(), 'bosun-kubelet-pki-'));
  const [pki, stranger] = await Promise.all([loadOrCreateKubeletPki(join(pkiDir, 'ours')), loadOrCreateKubeletPki(join(pkiDir, 'theirs'))]);
  clientTls = { ca: pki.ca, cert: pki.apiserverClient.cert, key: pki.apiserverClient.key };
  strangerTls = { ca: pki.ca, cert: stranger.apiserverClient.cert, key: stranger.apiserverClient.key };
  strangerCA = stranger.ca;
  api = await startKubeletApi({ containers, tls: { cert: pki.kubelet.cert, key: pki.kubelet.key, clientCA: pki.ca } });
});
after(async () => {
  await api.close();
  await h.close();
  await rm(pkiDir, { recursive: true, force: true });
});

function open(path: string, tls: typeof clientTls = clientTls): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(`${api.url}${path}`, tls, resolve);
    req.on('error', reject);
    req.end();
  });
}

async function get(path: string, tls: typeof clientTls = clientTls): Promise<{ status: number; body: string }> {
  const res = await open(path, tls);
  let body = '';
  for await (const chunk of res) body += (chunk as Buffer).toString();
  return { status: res.statusCode ?? 0, body };
}

const long = 'x'.repeat(20_000);
let printed: { handle: ContainerHandle; logPath: string };
test('logs: stdout and stderr, a long line joined from its partial records', async () => {
  printed = await run('printer', `echo one; printf '%s\\n' ${long}; echo three; echo two >&2`);
  await printed.handle.exited;
  const { status, body } = await get('/containerLogs/default/printer/main');
  assert.equal(status, 200);
  // The two streams are copied apart, so only each stream's own order is certain.
  const lines = body.split('\n');
  assert.deepEqual(lines.filter((line) => line !== 'two'), ['one', long, 'three', '']);
  assert.equal(lines.filter((line) => line === 'two').length, 1);
});

test('logs: tailLines, limitBytes, timestamps and since', async () => {
  assert.equal((await get('/containerLogs/default/printer/main?tailLines=1')).body, 'two\n');
  assert.equal((await get('/containerLogs/default/printer/main?tailLines=0')).body, '');
  assert.equal((await get('/containerLogs/default/printer/main?limitBytes=6')).body, 'one\nxx');
  const stamped = (await get('/containerLogs/default/printer/main?timestamps=true&tailLines=3')).body.split('\n');
  assert.match(stamped[0]!, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{9}Z x{20000}$/);
  assert.match(stamped[1]!, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{9}Z three$/);
  assert.equal((await get('/containerLogs/default/printer/main?sinceTime=2000-01-01T00:00:00Z')).body.split('\n').length, 5);
  assert.equal((await get('/containerLogs/default/printer/main?sinceTime=2999-01-01T00:00:00Z')).body, '');
  assert.equal((await get('/containerLogs/default/printer/main?sinceSeconds=600')).body.split('\n').length, 5);
});

test('logs: refusals as kubelet words them', async () => {
  assert.deepEqual(await get('/containerLogs/default/printer/main?previous=true'), { status: 400, body: 'previous terminated container "main" in pod "printer" not found' });
  assert.deepEqual(await get('/containerLogs/default/nothere/main'), { status: 404, body: 'container "main" not found in pod "nothere"' });
  assert.equal((await get('/containerLogs/default/printer/main?sinceSeconds=0')).status, 400);
  assert.equal((await get('/containerLogs/default/printer/main?sinceSeconds=5&sinceTime=2000-01-01T00:00:00Z')).status, 400);
  assert.equal((await get('/nothing')).status, 404);
});

test('only the API server\'s client certificate is served: no certificate, another CA\'s, plain HTTP are refused', async () => {
  assert.deepEqual(await get('/containerLogs/default/printer/main', { ca: clientTls.ca }), { status: 401, body: 'Unauthorized' });
  assert.deepEqual(await get('/containerLogs/default/printer/main', strangerTls), { status: 401, body: 'Unauthorized' });
  const plain = await new Promise<string>((resolve) => {
    const req = httpRequest(`${api.url.replace('https:', 'http:')}/containerLogs/default/printer/main`, (res) => resolve(`answered ${res.statusCode}`));
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    req.end();
  });
  assert.ok(!plain.startsWith('answered 200'), `plain HTTP was served: ${plain}`);
  // The API server's side checks the kubelet too: a server certificate of another CA is not trusted.
  await assert.rejects(get('/containerLogs/default/printer/main', { ...clientTls, ca: strangerCA }));
});

test('logs: previous serves the run before', async () => {
  runs.set('default/again/main', { handle: printed.handle, logPath: '/nonexistent', previous: printed.logPath });
  assert.equal((await get('/containerLogs/default/again/main?previous=true&tailLines=1')).body, 'two\n');
});

test('logs: a run that left no log file (it failed to start) has an empty log', async () => {
  runs.set('default/start-error/main', { handle: printed.handle, logPath: '/nonexistent' });
  assert.deepEqual(await get('/containerLogs/default/start-error/main'), { status: 200, body: '' });
  assert.deepEqual(await get('/containerLogs/default/start-error/main?follow=true'), { status: 200, body: '' });
});

/** A WebSocket exec; resolves with what each channel carried once the server closes. */
function exec(path: string, protocols: string[], stdin?: string, size?: { Width: number; Height: number }): Promise<{ protocol: string; stdout: string; stderr: string; error: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${api.url.replace('https', 'wss')}${path}`, protocols, clientTls);
    const out = { protocol: '', stdout: '', stderr: '', error: '' };
    ws.on('open', () => {
      out.protocol = ws.protocol;
      if (size) ws.send(Buffer.concat([Buffer.of(4), Buffer.from(JSON.stringify(size))]));
      if (stdin === undefined) return;
      ws.send(Buffer.concat([Buffer.of(0), Buffer.from(stdin)]));
      ws.send(Buffer.of(255, 0));
    });
    ws.on('message', (data: Buffer) => {
      const text = data.subarray(1).toString();
      if (data[0] === 1) out.stdout += text;
      else if (data[0] === 2) out.stderr += text;
      else if (data[0] === 3) out.error += text;
    });
    ws.on('close', () => resolve(out));
    ws.on('error', reject);
  });
}

test('follow streams new lines and ends when the run ends; exec reaches the container', async () => {
  const fifo = await run('follower', 'mkfifo /tmp/go; echo first; read x < /tmp/go; echo "second $x"');
  await waitForLog(fifo.logPath, 'first');
  const reader = (await open('/containerLogs/default/follower/main?follow=true'))[Symbol.asyncIterator]();
  let seen = String((await reader.next()).value);
  assert.equal(seen, 'first\n');
  const hostname = await exec('/exec/default/follower/main?command=cat&command=/etc/hostname&stdout=1&stderr=1', ['v5.channel.k8s.io', 'v4.channel.k8s.io']);
  assert.deepEqual(hostname, { protocol: 'v5.channel.k8s.io', stdout: 'follower\n', stderr: '', error: '{"metadata":{},"status":"Success"}' });
  // The exec's stdin reaches the container, which then ends (and its PID namespace with it: the exec's exit
  // status races that, so only the container's output tells).
  await exec('/exec/default/follower/main?command=sh&command=-c&command=cat%20>%20/tmp/go&stdin=1&stdout=1&stderr=1', ['v5.channel.k8s.io'], 'go\n');
  for (let chunk = await reader.next(); chunk.done !== true; chunk = await reader.next()) seen += String(chunk.value);
  assert.equal(seen, 'first\nsecond go\n');
});

test('exec: a non-zero exit is a NonZeroExitCode status, v4 works, a missing command says so', async () => {
  await run('sleeper', 'exec sleep 60');
  const failed = await exec('/exec/default/sleeper/main?command=sh&command=-c&command=echo%20oops%20>%262;%20exit%203&stdout=1&stderr=1', ['v4.channel.k8s.io']);
  assert.equal(failed.protocol, 'v4.channel.k8s.io');
  assert.equal(failed.stderr, 'oops\n');
  const status = JSON.parse(failed.error) as { status: string; reason: string; details: { causes: { reason: string; message: string }[] } };
  assert.equal(status.status, 'Failure');
  assert.equal(status.reason, 'NonZeroExitCode');
  assert.deepEqual(status.details.causes, [{ reason: 'ExitCode', message: '3' }]);
  const large = await exec(`/exec/default/sleeper/main?command=sh&command=-c&command=${encodeURIComponent('head -c 3000000 /dev/zero | tr "\\0" x')}&stdout=1`, ['v5.channel.k8s.io']);
  assert.equal(large.stdout, 'x'.repeat(3_000_000));
  const missing = await exec('/exec/default/sleeper/main?command=nosuchcommand&stdout=1', ['v5.channel.k8s.io']);
  assert.match(missing.error, /executable file not found/);
});

test('exec with a terminal: the command runs on a pseudo-terminal that takes the size the client sends', async () => {
  // The trap fires on the SIGWINCH the resize sends; the loop only keeps the shell alive until then. stty sets
  // rows and columns with one ioctl each, so the first SIGWINCH may come with the rows set and not yet the
  // columns: the trap answers once both are.
  const script = encodeURIComponent('trap \'set -- $(stty size); [ "$2" = 123 ] && { echo "$1 $2"; tty; exit 0; }\' WINCH; echo ready; while :; do sleep 0.1; done');
  const result = await exec(`/exec/default/sleeper/main?command=sh&command=-c&command=${script}&stdin=1&stdout=1&tty=1`, ['v5.channel.k8s.io'], undefined, { Width: 123, Height: 45 });
  assert.match(result.stdout, /^ready\r\n45 123\r\n\/dev\/pts\/\d+\r\n$/);
  assert.equal(result.error, '{"metadata":{},"status":"Success"}');
});

function rawUpgrade(path: string, headers: Record<string, string>, method = 'GET', tls: typeof clientTls = clientTls): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(`${api.url}${path}`, { ...tls, method, headers: { connection: 'Upgrade', ...headers } });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('upgrade', () => reject(new Error('upgraded')));
    req.on('error', reject);
    req.end();
  });
}

test('exec: SPDY, unknown subprotocols and stopped containers are refused, not left hanging', async () => {
  const spdy = await rawUpgrade('/exec/default/sleeper/main?command=true&stdout=1', { upgrade: 'SPDY/3.1', 'x-stream-protocol-version': 'v4.channel.k8s.io' }, 'POST');
  assert.equal(spdy.status, 400);
  assert.equal((JSON.parse(spdy.body) as { message: string }).message, SPDY_REFUSAL);
  const other = await rawUpgrade('/exec/default/sleeper/main?command=true&stdout=1', { upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', 'sec-websocket-protocol': 'channel.k8s.io' });
  assert.equal(other.status, 400);
  const stopped = await rawUpgrade('/exec/default/printer/main?command=true&stdout=1', { upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', 'sec-websocket-protocol': 'v5.channel.k8s.io' });
  assert.deepEqual(stopped, { status: 404, body: 'container not found ("main")' });
  const noStreams = await rawUpgrade('/exec/default/sleeper/main?command=true', { upgrade: 'websocket' });
  assert.deepEqual(noStreams, { status: 400, body: 'you must specify at least 1 of stdin, stdout, stderr' });
  const unauthorized = await rawUpgrade('/exec/default/sleeper/main?command=true&stdout=1', { upgrade: 'websocket' }, 'GET', { ca: clientTls.ca });
  assert.equal(unauthorized.status, 401);
  await runs.get('default/sleeper/main')!.handle.stop(0);
});
