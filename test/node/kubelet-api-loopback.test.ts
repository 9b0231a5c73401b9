// Issue 27, finding 2: what crosses loopback when the API server proxies `kubectl logs` and `kubectl exec`
// to a kubelet. A pod on the host network can read loopback traffic, so that traffic must carry no secret:
// a listener standing in for the kubelet records the bytes the API server sends, and they must be a TLS
// handshake, never an HTTP request with the API server's bearer token.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { podsResource } from '../../src/apimachinery/builtin-resources.ts';
import type { KubeObject } from '../../src/apimachinery/object.ts';
import type { KubeClient } from '../../src/client/client.ts';
import { createKubeClient } from '../../src/client/create-client.ts';
import { registerNode } from '../../src/node/agent/node-registration.ts';
import { loadOrCreateKubeletPki } from '../../src/node/kubelet-api/kubelet-pki.ts';
import { startTestServer, type TestServer } from '../helpers/api-server.ts';
import { kubectlFor } from '../helpers/kubectl.ts';

let server: TestServer;
let client: KubeClient;
let listener: Server;
let pkiDir: string;
/** The first bytes of each connection the API server opened to the "kubelet". */
const captured: Buffer[] = [];
let onCapture: () => void = () => undefined;

before(async () => {
  pkiDir = await mkdtemp(join(tmpdir(), 'bosun-kubelet-pki-'));
  const pki = await loadOrCreateKubeletPki(pkiDir);
  server = await startTestServer({ kubeletClient: { cert: pki.apiserverClient.cert, key: pki.apiserverClient.key, ca: pki.ca } });
  client = createKubeClient({ kubeconfig: server.kubeconfig });
  listener = createServer((socket) => {
    socket.once('data', (bytes: Buffer) => {
      captured.push(bytes);
      onCapture();
      socket.destroy();
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const port = (listener.address() as { port: number }).port;
  await registerNode(client, { nodeName: 'sniffed', kubeletPort: port });
  const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const created = await client.create<KubeObject>(podsResource, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'talker', namespace: 'default' }, spec: { nodeName: 'sniffed', containers: [{ name: 'main', image: 'busybox' }] } });
  const containerStatuses = [{ name: 'main', image: 'busybox', imageID: '', ready: true, restartCount: 0, started: true, state: { running: { startedAt: now } } }];
  await client.updateStatus<KubeObject>(podsResource, { ...created, status: { phase: 'Running', containerStatuses } });
});
after(async () => {
  listener.close();
  await client.close();
  await server.close();
  await rm(pkiDir, { recursive: true, force: true });
});

/** Runs kubectl (which fails: the listener answers nothing) and resolves with the bytes the API server sent. */
async function sentFor(args: string[]): Promise<Buffer> {
  const seen = new Promise<void>((resolve) => (onCapture = resolve));
  await Promise.all([kubectlFor(server.kubeconfigFile)(['--request-timeout=5s', ...args]), seen]);
  return captured.at(-1) ?? Buffer.alloc(0);
}

for (const [what, args] of [['kubectl logs', ['logs', 'talker']], ['kubectl exec', ['exec', 'talker', '--', 'true']]] as const) {
  test(`${what}: the API server reaches the kubelet over TLS, without its bearer token`, { timeout: 30_000 }, async () => {
    const sent = await sentFor([...args]);
    assert.ok(!sent.toString('latin1').includes(server.token), `the API server's token crossed loopback in clear text: ${JSON.stringify(sent.toString('latin1').slice(0, 200))}`);
    assert.ok(!/authorization:/i.test(sent.toString('latin1')), 'an Authorization header crossed loopback');
    // A TLS record of type handshake (22), as any ClientHello starts.
    assert.equal(sent[0], 0x16, `not a TLS handshake: ${JSON.stringify(sent.toString('latin1').slice(0, 80))}`);
  });
}
