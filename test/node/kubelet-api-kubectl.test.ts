// kubectl logs and kubectl exec end to end: real kubectl, the embedded API server proxying pods/log and
// pods/exec, the agent's kubelet API, and real sandboxed containers. No pod lifecycle runs here: the test
// starts each container itself and writes the pod's status as the agent would.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodesResource, podsResource } from '../../src/apimachinery/builtin-resources.ts';
import type { KubeObject } from '../../src/apimachinery/object.ts';
import type { KubeClient } from '../../src/client/client.ts';
import { createKubeClient } from '../../src/client/create-client.ts';
import { registerNode } from '../../src/node/agent/node-registration.ts';
import type { ContainerRef, RunningContainers } from '../../src/node/agent/running-containers.ts';
import { loadOrCreateKubeletPki } from '../../src/node/kubelet-api/kubelet-pki.ts';
import { startKubeletApi, SPDY_REFUSAL, type RunningKubeletApi } from '../../src/node/kubelet-api/server.ts';
import type { ContainerHandle } from '../../src/node/sandbox/container-handle.ts';
import { startTestServer, type TestServer } from '../helpers/api-server.ts';
import { runToEnd, type Finished } from '../helpers/bosun-process.ts';
import { kubectlFor, type Kubectl } from '../helpers/kubectl.ts';
import { openSandboxHarness, waitForLog, type SandboxHarness } from './harness.ts';

let server: TestServer;
let client: KubeClient;
let sandbox: SandboxHarness;
let kubelet: RunningKubeletApi;
let kubectl: Kubectl;
let pkiDir: string;

interface Run {
  handle: ContainerHandle;
  logPath: string;
  live: boolean;
  previous?: string;
}
const runs = new Map<string, Run>();
const key = (ref: ContainerRef) => `${ref.namespace}/${ref.pod}/${ref.container}`;
// What the agent's pod lifecycle will provide; here, the runs this test started.
const containers: RunningContainers = {
  running: (ref) => {
    const run = runs.get(key(ref));
    return run?.live ? run.handle : undefined;
  },
  logPath: (ref, previous) => (previous ? runs.get(key(ref))?.previous : runs.get(key(ref))?.logPath),
  forwardTarget: () => undefined,
};

async function startContainer(pod: string, name: string, script: string): Promise<Run> {
  const request = sandbox.request(pod, { name, argv: ['sh', '-c', script] });
  const handle = await sandbox.sandbox.start(request);
  const previous = runs.get(`default/${pod}/${name}`)?.logPath;
  const run: Run = { handle, logPath: request.logPath, live: true, ...(previous ? { previous } : {}) };
  runs.set(`default/${pod}/${name}`, run);
  void handle.exited.then(() => (run.live = false));
  return run;
}

/** Creates the pod bound to the node, starts its containers and reports them running. */
async function runPod(name: string, scripts: Record<string, string>, extra: { annotations?: Record<string, string>; nodeName?: string } = {}): Promise<Record<string, Run>> {
  const spec = { nodeName: extra.nodeName ?? 'node-a', containers: Object.entries(scripts).map(([c, script]) => ({ name: c, image: 'busybox', command: ['sh', '-c', script] })) };
  const created = await client.create<KubeObject>(podsResource, { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', ...(extra.annotations ? { annotations: extra.annotations } : {}) }, spec });
  const started: Record<string, Run> = {};
  for (const [c, script] of Object.entries(scripts)) started[c] = await startContainer(name, c, script);
  const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const containerStatuses = Object.keys(scripts).map((c) => ({ name: c, image: 'busybox', imageID: '', ready: true, restartCount: 0, started: true, state: { running: { startedAt: now } } }));
  await client.updateStatus<KubeObject>(podsResource, { ...created, status: { phase: 'Running', containerStatuses } });
  return started;
}

before(async () => {
  pkiDir = await mkdtemp(join(tmpdir(), 'bosun-kubelet-pki-'));
  const pki = await loadOrCreateKubeletPki(pkiDir);
  server = await startTestServer({ kubeletClient: { cert: pki.apiserverClient.cert, key: pki.apiserverClient.key, ca: pki.ca } });
  client = createKubeClient({ kubeconfig: server.kubeconfig });
  sandbox = await openSandboxHarness();
  kubelet = await startKubeletApi({ containers, tls: { cert: pki.kubelet.cert, key: pki.kubelet.key, clientCA: pki.ca } });
  await registerNode(client, { nodeName: 'node-a', kubeletPort: kubelet.port });
  kubectl = kubectlFor(server.kubeconfigFile);
  const node = await client.get<KubeObject>(nodesResource, 'node-a');
  assert.deepEqual((node['status'] as { daemonEndpoints?: unknown }).daemonEndpoints, { kubeletEndpoint: { Port: kubelet.port } });
});
after(async () => {
  for (const run of runs.values()) if (run.live) await run.handle.stop(0);
  await kubelet.close();
  await sandbox.close();
  await client.close();
  await server.close();
  await rm(pkiDir, { recursive: true, force: true });
});

let talker: Record<string, Run>;
test('kubectl logs: -c, --tail, --timestamps, --since', async () => {
  talker = await runPod('talker', { main: 'echo hello-main; echo second-main; mkfifo /tmp/go; read x < /tmp/go; echo "bye $x"', side: 'echo from-side; exec sleep 600' });
  await waitForLog(talker['main']!.logPath, 'second-main');
  await waitForLog(talker['side']!.logPath, 'from-side');
  const main = await kubectl(['logs', 'talker', '-c', 'main']);
  assert.equal(main.stdout, 'hello-main\nsecond-main\n', main.stderr);
  assert.equal((await kubectl(['logs', 'talker', '-c', 'side'])).stdout, 'from-side\n');
  assert.equal((await kubectl(['logs', 'talker', '-c', 'main', '--tail=1'])).stdout, 'second-main\n');
  assert.match((await kubectl(['logs', 'talker', '-c', 'main', '--timestamps'])).stdout, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{9}Z hello-main\n\S+ second-main\n$/);
  assert.equal((await kubectl(['logs', 'talker', '-c', 'main', '--since=1h'])).stdout, 'hello-main\nsecond-main\n');
  const previous = await kubectl(['logs', 'talker', '-c', 'main', '--previous']);
  assert.notEqual(previous.code, 0);
  assert.match(previous.stderr, /previous terminated container "main" in pod "talker" not found/);
});

test('kubectl exec: the pod name as hostname, stdin, exit codes', async () => {
  const hostname = await kubectl(['exec', 'talker', '-c', 'side', '--', 'cat', '/etc/hostname']);
  assert.deepEqual([hostname.code, hostname.stdout], [0, 'talker\n'], hostname.stderr);
  const echoed = await kubectl(['exec', '-i', 'talker', '-c', 'side', '--', 'sh', '-c', 'read a; echo "got $a"; cat'], 'hi\nrest\n');
  assert.deepEqual([echoed.code, echoed.stdout], [0, 'got hi\nrest\n'], echoed.stderr);
  const failed = await kubectl(['exec', 'talker', '-c', 'side', '--', 'sh', '-c', 'echo oops >&2; exit 3']);
  assert.equal(failed.code, 3);
  assert.match(failed.stderr, /oops/);
  assert.match(failed.stderr, /command terminated with exit code 3/);
  const missing = await kubectl(['exec', 'talker', '-c', 'side', '--', 'no-such-command']);
  assert.notEqual(missing.code, 0);
  assert.match(missing.stderr, /executable file not found/);
});

test('kubectl exec -it: a terminal in the container, the exit code passed on', async () => {
  // kubectl wants a terminal of its own for -t: script(1) gives it one.
  const command = ['kubectl', '--kubeconfig', server.kubeconfigFile, '--cache-dir', kubectl.cacheDir, 'exec', '-it', 'talker', '-c', 'side', '--', 'sh', '-c', "tty; stty size; exit 4"];
  const quoted = command.map((word) => `'${word.replaceAll("'", `'\\''`)}'`).join(' ');
  const result = await new Promise<{ code: number | null; stdout: string }>((resolve, reject) => {
    const child = spawn('script', ['-q', '-e', '-c', `stty rows 33 cols 77; exec ${quoted}`, '/dev/null'], { stdio: ['pipe', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout }));
  });
  assert.equal(result.code, 4, result.stdout);
  assert.match(result.stdout, /\/dev\/pts\/\d+\r\n/);
});

test('kubectl logs -f streams until the container exits', async () => {
  const follow = kubectl.stream(['logs', '-f', 'talker', '-c', 'main']);
  await follow.waitForLines(2);
  // The writer races the container's end (it dies with the container's PID namespace): its status is moot.
  await kubectl(['exec', 'talker', '-c', 'main', '--', 'sh', '-c', 'echo go > /tmp/go']);
  await follow.waitForLines(3);
  await talker['main']!.handle.exited;
  await follow.stop();
  assert.deepEqual(follow.lines, ['hello-main', 'second-main', 'bye go']);
  // Its status still says running (nothing updates it here): the kubelet's refusal reaches kubectl.
  const gone = await kubectl(['exec', 'talker', '-c', 'main', '--', 'true']);
  assert.notEqual(gone.code, 0);
  assert.match(gone.stderr, /container not found \("main"\)/);
});

test('kubectl logs --previous shows the run before', async () => {
  const first = await runPod('restarter', { main: 'echo run-one' });
  await first['main']!.handle.exited;
  const second = await startContainer('restarter', 'main', 'echo run-two; exec sleep 600');
  await waitForLog(second.logPath, 'run-two');
  assert.equal((await kubectl(['logs', 'restarter', '--previous'])).stdout, 'run-one\n');
  assert.equal((await kubectl(['logs', 'restarter'])).stdout, 'run-two\n');
});

/** A kubectl of a given minor version, bypassing the dispatcher's choice (which follows the server's 1.32). */
function kubectlVersion(minor: number, args: string[]): Promise<Finished> {
  return runToEnd(`/usr/lib/google-cloud-sdk/bin/kubectl.1.${minor}`, ['--kubeconfig', server.kubeconfigFile, '--cache-dir', kubectl.cacheDir, ...args]);
}

test('kubectl 1.29 (SPDY only) gets a clear refusal and does not hang', { timeout: 60_000 }, async () => {
  const old = await kubectlVersion(29, ['exec', 'talker', '-c', 'side', '--', 'true']);
  assert.notEqual(old.code, 0);
  assert.ok(old.stderr.includes(SPDY_REFUSAL), old.stderr);
});

test('kubectl 1.30, the first to speak WebSocket by default, and 1.33 exec', { timeout: 60_000 }, async () => {
  for (const minor of [30, 33]) {
    const result = await kubectlVersion(minor, ['exec', 'talker', '-c', 'side', '--', 'cat', '/etc/hostname']);
    assert.deepEqual([result.code, result.stdout], [0, 'talker\n'], `kubectl 1.${minor}: ${result.stderr}`);
  }
});

async function status(path: string): Promise<{ code: number; reason: string; message: string }> {
  const res = await server.api(path);
  const body = (await res.json()) as { code: number; reason: string; message: string };
  return { code: res.status, reason: body.reason, message: body.message };
}

test('the API server chooses and checks the container as kube-apiserver does', async () => {
  assert.deepEqual(await status('/api/v1/namespaces/default/pods/talker/log'), {
    code: 400,
    reason: 'BadRequest',
    message: 'a container name must be specified for pod talker, choose one of: [main side]',
  });
  assert.deepEqual(await status('/api/v1/namespaces/default/pods/talker/log?container=nope'), { code: 400, reason: 'BadRequest', message: 'container nope is not valid for pod talker' });
  await runPod('annotated', { a: 'echo from-a; exec sleep 600', b: 'echo from-b; exec sleep 600' }, { annotations: { 'kubectl.kubernetes.io/default-container': 'b' } });
  await waitForLog(runs.get('default/annotated/b')!.logPath, 'from-b');
  assert.equal(await (await server.api('/api/v1/namespaces/default/pods/annotated/log')).text(), 'from-b\n');
  assert.equal((await status('/api/v1/namespaces/default/pods/nosuch/log')).code, 404);
});

test('pending, waiting and off-machine pods are refused with clear errors', async () => {
  await client.create<KubeObject>(podsResource, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'pending', namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'busybox' }] } });
  const pendingLog = await server.api('/api/v1/namespaces/default/pods/pending/log');
  assert.deepEqual([pendingLog.status, await pendingLog.text()], [200, '']);
  const pendingExec = await kubectl(['exec', 'pending', '--', 'true']);
  assert.match(pendingExec.stderr, /pod pending does not have a host assigned/);
  const waiting = await client.create<KubeObject>(podsResource, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'waiting', namespace: 'default' }, spec: { nodeName: 'node-a', containers: [{ name: 'c', image: 'busybox' }] } });
  await client.updateStatus<KubeObject>(podsResource, { ...waiting, status: { phase: 'Pending', containerStatuses: [{ name: 'c', image: 'busybox', imageID: '', ready: false, restartCount: 0, state: { waiting: { reason: 'ContainerCreating' } } }] } });
  const waitingLog = await kubectl(['logs', 'waiting']);
  assert.match(waitingLog.stderr, /container "c" in pod "waiting" is waiting to start: ContainerCreating/);
  // kubelet's validateContainerLogStatus words the two image pull failures.
  for (const [reason, words] of [['ErrImagePull', "image can't be pulled"], ['ImagePullBackOff', 'trying and failing to pull image']] as const) {
    const current = await client.get<KubeObject>(podsResource, 'waiting', { namespace: 'default' });
    await client.updateStatus<KubeObject>(podsResource, { ...current, status: { phase: 'Pending', containerStatuses: [{ name: 'c', image: 'busybox', imageID: '', ready: false, restartCount: 0, state: { waiting: { reason } } }] } });
    const pulling = await kubectl(['logs', 'waiting']);
    assert.notEqual(pulling.code, 0);
    assert.equal(pulling.stderr.trim(), `Error from server (BadRequest): container "c" in pod "waiting" is waiting to start: ${words}`);
  }
  const remoteNode = await client.create<KubeObject>(nodesResource, { apiVersion: 'v1', kind: 'Node', metadata: { name: 'far' } });
  await client.updateStatus<KubeObject>(nodesResource, { ...remoteNode, status: { addresses: [{ type: 'InternalIP', address: '10.1.2.3' }], daemonEndpoints: { kubeletEndpoint: { Port: 10250 } } } });
  await runPod('faraway', { c: 'exec sleep 600' }, { nodeName: 'far' });
  assert.deepEqual(await status('/api/v1/namespaces/default/pods/faraway/log'), {
    code: 403,
    reason: 'Forbidden',
    message: 'Bosun proxies to kubelets on loopback addresses only; node "far" has InternalIP 10.1.2.3',
  });
});
