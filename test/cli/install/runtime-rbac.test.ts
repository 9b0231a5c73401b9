// The roles `bosun manifests` prints cover what `bosun controllers` itself does as installed (leader election
// in its namespace, webhook configurations, every non-embedded family started): each request it made against
// a real API server is one the generated ClusterRoles allow, or, in the install namespace, the Role.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runControllers } from '../../../src/cli/commands/controllers.ts';
import { selectFamilies } from '../../../src/cli/families.ts';
import { RUNTIME_CLUSTER_RULES, RUNTIME_NAMESPACE_RULES } from '../../../src/cli/install/install-objects.ts';
import { eventually, startTestServer } from '../../helpers/api-server.ts';
import { unauthorizedRequests } from '../../helpers/rbac.ts';

void test('every request bosun controllers makes at start is allowed by the generated roles', async () => {
  const server = await startTestServer();
  const namespace = 'bosun-system';
  await server.json('/api/v1/namespaces', { method: 'POST', body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } }), expect: 201 });
  const mark = server.mark();
  const mgr = await runControllers({
    kubeconfigContent: server.kubeconfig,
    leaderElect: true,
    leaderElectionNamespace: namespace,
    leaderElectionId: 'bosun-controllers',
    metricsPort: 0,
    metricsBindAddress: '127.0.0.1',
    logLevel: 'silent',
    webhook: { serve: { bind: '127.0.0.1', port: 0 }, prune: 'selected' },
  });
  try {
    await eventually(() => mgr.isLeader, 10_000, 'leading');
  } finally {
    await mgr.stop();
    await mgr.done;
  }
  const requests = server.since(mark);
  const inInstallNamespace = (url: string) => url.includes(`/namespaces/${namespace}/`);
  const families = selectFamilies(undefined);
  const clusterRules = [...families.flatMap((f) => f.rbac), ...RUNTIME_CLUSTER_RULES];
  assert.ok(requests.some((r) => r.url.includes('/leases')), 'leader election ran');
  assert.deepEqual(unauthorizedRequests(requests.filter((r) => !inInstallNamespace(r.url)), clusterRules), []);
  assert.deepEqual(unauthorizedRequests(requests.filter((r) => inInstallNamespace(r.url)), [...clusterRules, ...RUNTIME_NAMESPACE_RULES]), []);
  await server.close();
});
