// The node runtime API's Service watch against the embedded API server over HTTP: what a chaos injector's
// `services` filter learns through the agent (it has no API identity of its own) — nothing while the Service
// does not exist, its ClusterIP and ports once created, the ready endpoints with their target ports from the
// EndpointSlices, a line on every change (an endpoint added, one turning unready, the Service deleted).
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { get } from 'node:http';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Service } from '../../src/apimachinery/api/core-v1.ts';
import type { EndpointSlice } from '../../src/apimachinery/api/discovery-v1.ts';
import { endpointSlicesResource, namespacesResource, servicesResource } from '../../src/apimachinery/builtin-resources.ts';
import type { KubeClient } from '../../src/client/client.ts';
import { createKubeClient } from '../../src/client/create-client.ts';
import { NodeRuntimeClient } from '../../src/client/node-runtime/client.ts';
import type { RuntimeService } from '../../src/client/node-runtime/protocol.ts';
import { ContainerRegistry } from '../../src/node/agent/pods/container-registry.ts';
import { startRuntimeApi, type RuntimeApi } from '../../src/node/runtime-api/server.ts';
import { createLogger } from '../../src/runtime/logger.ts';
import { startTestServer, type TestServer } from '../helpers/api-server.ts';

const NS = 'shop';
let server: TestServer;
let client: KubeClient;
let api: RuntimeApi;
let dir: string;
let runtime: NodeRuntimeClient;

before(async () => {
  server = await startTestServer();
  client = createKubeClient({ kubeconfig: server.kubeconfig });
  await client.create(namespacesResource, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
  dir = await mkdtemp(join(tmpdir(), 'bosun-runtime-api-'));
  api = await startRuntimeApi({
    socketPath: join(dir, 'runtime.sock'),
    nodeName: 'node-a',
    client,
    registry: new ContainerRegistry(),
    cgroupLayout: { version: 2, hierarchies: [] },
    failNode: () => undefined,
    logger: createLogger({ level: 'silent' }),
  });
  runtime = new NodeRuntimeClient(api.socketPath);
});
after(async () => {
  await api.close();
  await client.close();
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

const slice = (name: string, endpoints: EndpointSlice['endpoints']): EndpointSlice => ({
  apiVersion: 'discovery.k8s.io/v1',
  kind: 'EndpointSlice',
  metadata: { name, namespace: NS, labels: { 'kubernetes.io/service-name': 'api' } },
  addressType: 'IPv4',
  endpoints,
  ports: [{ name: 'http', protocol: 'TCP', port: 8080 }, { name: 'metrics', protocol: 'TCP', port: 9090 }],
});
function getOnce(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    get({ socketPath: api.socketPath, path }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => (res.statusCode === 200 ? resolve(text) : reject(new Error(`${res.statusCode ?? 0}: ${text}`))));
    }).on('error', reject);
  });
}

const ready = (ip: string, isReady = true) => ({ addresses: [ip], conditions: { ready: isReady } });

test('a watch follows the Service and its ready endpoints, a line per change; a GET answers once', { timeout: 30_000 }, async () => {
  const stop = new AbortController();
  const lines = runtime.watchService(NS, 'api', stop.signal);
  const next = async (): Promise<RuntimeService> => {
    const { value, done } = await lines.next();
    assert.equal(done, false);
    return value as RuntimeService;
  };
  assert.deepEqual(await next(), { namespace: NS, name: 'api', exists: false, ports: [], endpointIPs: [] }, 'no Service yet');

  const created = await client.create<Service>(servicesResource, { apiVersion: 'v1', kind: 'Service', metadata: { name: 'api', namespace: NS }, spec: { selector: { app: 'api' }, ports: [{ name: 'http', port: 80, targetPort: 'http' }, { name: 'metrics', port: 9090 }] } }, { namespace: NS });
  const clusterIP = created.spec?.clusterIP ?? '';
  assert.match(clusterIP, /^10\./);
  const empty = [{ name: 'http', protocol: 'TCP', port: 80, endpoints: [] }, { name: 'metrics', protocol: 'TCP', port: 9090, endpoints: [] }];
  assert.deepEqual(await next(), { namespace: NS, name: 'api', exists: true, clusterIP, ports: empty, endpointIPs: [] });

  await client.create(endpointSlicesResource, slice('api-1', [ready('10.244.0.5'), ready('10.244.0.6', false)]), { namespace: NS });
  const withOne = await next();
  assert.deepEqual(withOne.ports.map((p) => p.endpoints), [[{ ip: '10.244.0.5', port: 8080 }], [{ ip: '10.244.0.5', port: 9090 }]], 'the ready endpoint with its target ports; the unready one left out');
  assert.deepEqual(withOne.endpointIPs, ['10.244.0.5']);

  const current = await client.get<EndpointSlice>(endpointSlicesResource, 'api-1', { namespace: NS });
  await client.update(endpointSlicesResource, { ...current, endpoints: [ready('10.244.0.5'), ready('10.244.0.6')] }, { namespace: NS });
  assert.deepEqual((await next()).endpointIPs, ['10.244.0.5', '10.244.0.6'], 'the pod that turned ready joins');

  const once = JSON.parse(await getOnce(`/v1/services/${NS}/api`)) as RuntimeService;
  assert.deepEqual(once.endpointIPs, ['10.244.0.5', '10.244.0.6'], 'a GET without watch answers the view once');
  await client.delete(servicesResource, 'api', { namespace: NS });
  const deleted = await next();
  assert.equal(deleted.exists, false, 'the Service is gone');
  stop.abort();
  assert.equal((await lines.next()).done, true, 'the watch ends with the signal');
});
