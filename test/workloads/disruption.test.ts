// The disruption controller with kube-controller-manager's semantics, driven with real kubectl against the
// embedded server and pods' status written by the fake kubelet: a budget's status counts the selected pods, the
// scale of their Deployment (maxUnavailable, percentages) and the healthy ones; an eviction takes the one
// disruption allowed, the next is refused with 429 until the replacement is healthy.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Informer } from '../../src/runtime/informer/informer.ts';
import { podDisruptionBudgetsResource, podsResource } from '../../src/apimachinery/builtin-resources.ts';
import type { Deployment, Pod, PodDisruptionBudget } from '../../src/apimachinery/api/index.ts';
import { startWorkloads, type WorkloadsHarness } from './harness.ts';

function deployment(name: string, replicas: number): Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default' },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { terminationGracePeriodSeconds: 0, containers: [{ name: 'c', image: 'busybox:1' }] } },
    },
  };
}

function budget(name: string, app: string, bound: { minAvailable?: number | string; maxUnavailable?: number | string }): PodDisruptionBudget {
  return { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name, namespace: 'default' }, spec: { ...bound, selector: { matchLabels: { app } } } };
}

describe('disruption controller', () => {
  let h: WorkloadsHarness;
  let pods: Informer<Pod>;
  let budgets: Informer<PodDisruptionBudget>;
  const status = (name: string): PodDisruptionBudget['status'] => budgets.get(name, 'default')?.status;
  const live = (app: string): Pod[] => pods.list('default').filter((p) => p.metadata.labels?.['app'] === app && p.metadata.deletionTimestamp === undefined);

  before(async () => {
    h = await startWorkloads({ kubelet: { nodes: [{ name: 'node-a', cpu: '16' }] } });
    pods = h.watch<Pod>(podsResource);
    budgets = h.watch<PodDisruptionBudget>(podDisruptionBudgetsResource);
    await Promise.all([pods.waitForSync(), budgets.waitForSync()]);
  });
  after(async () => {
    await h.close();
  });

  test('maxUnavailable counts the Deployment scale; kubectl get pdb shows what is allowed', async () => {
    await h.apply(deployment('web', 3), budget('web', 'web', { maxUnavailable: 1 }));
    await h.until(() => status('web')?.currentHealthy === 3, 'three healthy');
    const s = status('web')!;
    assert.deepEqual({ expected: s.expectedPods, desired: s.desiredHealthy, allowed: s.disruptionsAllowed, generation: s.observedGeneration }, { expected: 3, desired: 2, allowed: 1, generation: 1 });
    assert.deepEqual(s.conditions?.map((c) => `${c.type}=${c.status}/${c.reason ?? ''}`), ['DisruptionAllowed=True/SufficientPods']);
    const table = await h.kubectl(['get', 'pdb', 'web', '--no-headers']);
    assert.match(table.stdout, /^web\s+N\/A\s+1\s+1\s+\S+\n$/);
  });

  test('a minAvailable percentage rounds up against the scale', async () => {
    await h.apply(deployment('half', 3), budget('half', 'half', { minAvailable: '50%' }));
    await h.until(() => status('half')?.currentHealthy === 3, 'three healthy');
    assert.deepEqual([status('half')?.desiredHealthy, status('half')?.disruptionsAllowed], [2, 1]);
  });

  test('one eviction takes the disruption; the next is 429 until the replacement is healthy', async () => {
    const evict = async (pod: Pod): Promise<{ status: number; body: Record<string, any> }> => {
      const res = await h.server.api(`/api/v1/namespaces/default/pods/${pod.metadata.name ?? ''}/eviction`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: pod.metadata.name, namespace: 'default' } }),
      });
      return { status: res.status, body: (await res.json()) as Record<string, any> };
    };
    const [first, second] = live('web');
    assert.equal((await evict(first!)).status, 201);
    const refused = await evict(second!);
    assert.equal(refused.status, 429);
    assert.equal(refused.body['message'], "Cannot evict pod as it would violate the pod's disruption budget.");
    // The Deployment replaces the evicted pod; once it is Ready the budget allows one again.
    await h.until(() => status('web')?.disruptionsAllowed === 1 && status('web')?.currentHealthy === 3, 'the replacement healthy');
    assert.equal((await evict(second!)).status, 201);
    assert.deepEqual(h.deniedToControllers(), []);
  });
});
