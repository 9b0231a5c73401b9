// `bosun controllers` in a pod: the server from KUBERNETES_SERVICE_HOST/PORT, the token, ca.crt and namespace
// from the service account mount (a temp dir stands in for `/`), against a real API server.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { createKubeClient } from '../../src/client/create-client.ts';
import { startTestServer, type TestServer } from '../helpers/api-server.ts';

let server: TestServer;
let root: string;
const saved = { host: process.env['KUBERNETES_SERVICE_HOST'], port: process.env['KUBERNETES_SERVICE_PORT'] };

before(async () => {
  server = await startTestServer();
  root = mkdtempSync(join(tmpdir(), 'bosun-in-cluster-'));
  const mount = join(root, 'var/run/secrets/kubernetes.io/serviceaccount');
  mkdirSync(mount, { recursive: true });
  writeFileSync(join(mount, 'token'), server.token);
  writeFileSync(join(mount, 'ca.crt'), server.caCert);
  // With a trailing newline, as a hand-written file has: the namespace is still "team-a".
  writeFileSync(join(mount, 'namespace'), 'team-a\n');
  const url = new URL(server.url);
  process.env['KUBERNETES_SERVICE_HOST'] = url.hostname;
  process.env['KUBERNETES_SERVICE_PORT'] = url.port;
});

after(async () => {
  for (const [name, value] of [['KUBERNETES_SERVICE_HOST', saved.host], ['KUBERNETES_SERVICE_PORT', saved.port]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await server.close();
});

void test('in-cluster config: server from the environment, token and ca.crt from the mount, the pod namespace as default', async () => {
  const client = createKubeClient({ inCluster: true, inClusterRoot: root });
  assert.equal(client.defaultNamespace, 'team-a');
  await client.create({ apiVersion: 'v1', kind: 'Namespace' }, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } });
  // A namespaced call that names none lands in the pod's namespace, verified over TLS with the mounted CA.
  await client.create({ apiVersion: 'v1', kind: 'ConfigMap' }, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'from-pod' } });
  const got = await server.json<{ metadata: { namespace: string } }>('/api/v1/namespaces/team-a/configmaps/from-pod');
  assert.equal(got.metadata.namespace, 'team-a');
});
