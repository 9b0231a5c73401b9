// policy/v1 PodDisruptionBudgets as kube-apiserver serves them, and the eviction subresource honouring them:
// a budget without disruptions left answers 429 with kube's message, one with a disruption left gives it to the
// eviction (disruptionsAllowed down, the pod in disruptedPods, DisruptionTarget on the pod).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { KubeObject } from '../../src/apimachinery/object.ts';
import { startTestServer, type TestServer } from '../helpers/api-server.ts';
import { kubectlFor } from '../helpers/kubectl.ts';

const json = { 'content-type': 'application/json' };
const budgets = '/apis/policy/v1/namespaces/default/poddisruptionbudgets';

async function post(server: TestServer, path: string, body: unknown): Promise<{ status: number; body: Record<string, any> }> {
  const res = await server.api(path, { method: 'POST', headers: json, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

async function runningPod(server: TestServer, name: string, labels: Record<string, string>): Promise<void> {
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name, labels }, spec: { containers: [{ name: 'c', image: 'busybox' }] } };
  const created = await server.json<KubeObject>('/api/v1/namespaces/default/pods', { method: 'POST', headers: json, body: JSON.stringify(pod), expect: 201 });
  const status = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] };
  await server.json(`/api/v1/namespaces/default/pods/${name}/status`, { method: 'PUT', headers: json, body: JSON.stringify({ ...created, status }), expect: 200 });
}

async function budgetWithStatus(server: TestServer, name: string, selector: Record<string, string>, disruptionsAllowed: number): Promise<void> {
  const budget = { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name }, spec: { minAvailable: 1, selector: { matchLabels: selector } } };
  const created = await server.json<KubeObject>(budgets, { method: 'POST', headers: json, body: JSON.stringify(budget), expect: 201 });
  const status = { observedGeneration: 1, disruptionsAllowed, currentHealthy: 1 + disruptionsAllowed, desiredHealthy: 1, expectedPods: 1 + disruptionsAllowed };
  await server.json(`${budgets}/${name}/status`, { method: 'PUT', headers: json, body: JSON.stringify({ ...created, status }), expect: 200 });
}

const eviction = (name: string): unknown => ({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace: 'default' } });

describe('PodDisruptionBudgets and the eviction subresource', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  test('validation: minAvailable and maxUnavailable cannot be both set; percentages up to 100%', async () => {
    const answer = await post(server, budgets, { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'bad' }, spec: { minAvailable: 1, maxUnavailable: '120%' } });
    assert.equal(answer.status, 422);
    assert.match(answer.body['message'], /spec: Invalid value: .*minAvailable and maxUnavailable cannot be both set/);
    assert.match(answer.body['message'], /spec.maxUnavailable: Invalid value: "120%": must not be greater than 100%/);
  });

  test('kubectl get pdb prints MIN AVAILABLE, MAX UNAVAILABLE, ALLOWED DISRUPTIONS', async () => {
    await budgetWithStatus(server, 'shown', { app: 'shown' }, 1);
    const result = await kubectlFor(server.kubeconfigFile)(['get', 'pdb', 'shown']);
    assert.equal(result.code, 0, result.stderr);
    const out = result.stdout;
    assert.match(out, /^NAME\s+MIN AVAILABLE\s+MAX UNAVAILABLE\s+ALLOWED DISRUPTIONS\s+AGE\n/);
    assert.match(out, /\nshown\s+1\s+N\/A\s+1\s+\S+\n/);
  });

  test('an eviction the budget does not allow is 429 with kube-apiserver message; the pod stays', async () => {
    await runningPod(server, 'kept', { app: 'kept' });
    await budgetWithStatus(server, 'none-left', { app: 'kept' }, 0);
    const answer = await post(server, '/api/v1/namespaces/default/pods/kept/eviction', eviction('kept'));
    assert.equal(answer.status, 429);
    assert.equal(answer.body['reason'], 'TooManyRequests');
    assert.equal(answer.body['message'], "Cannot evict pod as it would violate the pod's disruption budget.");
    assert.deepEqual(answer.body['details']['causes'], [{ reason: 'DisruptionBudget', message: 'The disruption budget none-left needs 1 healthy pods and has 1 currently' }]);
    await server.json('/api/v1/namespaces/default/pods/kept', { expect: 200 });
  });

  test('an allowed eviction takes the disruption, records the pod and marks it DisruptionTarget', async () => {
    await runningPod(server, 'gone', { app: 'gone' });
    await budgetWithStatus(server, 'one-left', { app: 'gone' }, 1);
    const answer = await post(server, '/api/v1/namespaces/default/pods/gone/eviction', eviction('gone'));
    assert.equal(answer.status, 201);
    const budget = await server.json<{ status: Record<string, any> }>(`${budgets}/one-left`);
    assert.equal(budget.status['disruptionsAllowed'], 0);
    assert.deepEqual(Object.keys(budget.status['disruptedPods']), ['gone']);
    assert.equal(budget.status['conditions'][0]['type'], 'DisruptionAllowed');
    assert.equal(budget.status['conditions'][0]['status'], 'False');
    const res = await server.api('/api/v1/namespaces/default/pods/gone');
    if (res.status === 200) {
      const pod = (await res.json()) as { status: { conditions: Record<string, unknown>[] } };
      assert.equal(pod.status.conditions.find((c) => c['type'] === 'DisruptionTarget')?.['reason'], 'EvictionByEvictionAPI');
    } else assert.equal(res.status, 404);
  });

  test('a budget not yet observed by its controller is 429 still being processed', async () => {
    await runningPod(server, 'fresh', { app: 'fresh' });
    await post(server, budgets, { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'unobserved' }, spec: { maxUnavailable: 1, selector: { matchLabels: { app: 'fresh' } } } });
    const answer = await post(server, '/api/v1/namespaces/default/pods/fresh/eviction', eviction('fresh'));
    assert.equal(answer.status, 429);
    assert.equal(answer.body['details']['causes'][0]['message'], 'The disruption budget unobserved is still being processed by the server.');
  });
});
