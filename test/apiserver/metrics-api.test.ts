// metrics.k8s.io without nodes: discovery lists the group (legacy and aggregated) so kubectl top finds it,
// and a request with no node to ask is a 503 that says so. Readings themselves: test/node/e2e/kubectl-top.test.ts.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/api-server.ts';
import { kubectlFor } from '../helpers/kubectl.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(async () => {
  await server.close();
});

test('discovery lists metrics.k8s.io/v1beta1 with nodes and pods', async () => {
  const groups = await server.json<{ groups: { name: string; preferredVersion: { groupVersion: string } }[] }>('/apis');
  assert.equal(groups.groups.find((g) => g.name === 'metrics.k8s.io')?.preferredVersion.groupVersion, 'metrics.k8s.io/v1beta1');
  const aggregated = await server.json<{ items: { metadata: { name: string }; versions: { resources: { resource: string; scope: string }[] }[] }[] }>('/apis', { headers: { accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' } });
  const metrics = aggregated.items.find((i) => i.metadata.name === 'metrics.k8s.io');
  assert.deepEqual(metrics?.versions[0]?.resources.map((r) => `${r.resource}/${r.scope}`), ['nodes/Cluster', 'pods/Namespaced']);
  const list = await server.json<{ resources: { name: string; kind: string }[] }>('/apis/metrics.k8s.io/v1beta1');
  assert.deepEqual(list.resources.map((r) => r.kind), ['NodeMetrics', 'PodMetrics']);
});

test('with no Ready node, a metrics request is a 503 naming why; kubectl top shows it', async () => {
  const status = await server.json<{ reason: string; message: string }>('/apis/metrics.k8s.io/v1beta1/nodes', { expect: 503 });
  assert.equal(status.reason, 'ServiceUnavailable');
  assert.equal(status.message, 'unable to fetch metrics from any node: no node is Ready');
  const top = await kubectlFor(server.kubeconfigFile)(['top', 'pods']);
  assert.notEqual(top.code, 0);
  assert.match(top.stderr, /unable to fetch metrics from any node: no node is Ready/);
  const post = await server.api('/apis/metrics.k8s.io/v1beta1/nodes', { method: 'POST', body: '{}' });
  assert.equal(post.status, 405);
});
