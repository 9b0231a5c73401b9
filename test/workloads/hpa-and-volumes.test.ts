// The HorizontalPodAutoscaler controller's failure paths and the volume binder, on the workloads family against
// the embedded API server: a target that does not exist (AbleToScale False, FailedGetScale), pods without
// readings (ScalingActive False, FailedGetResourceMetric, the Scale untouched), a static volume bound and
// released; and nothing the controllers ask for is outside the family's RBAC rules.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Deployment, HorizontalPodAutoscaler, PersistentVolume, PersistentVolumeClaim } from '../../src/apimachinery/api/index.ts';
import { deploymentsResource, horizontalPodAutoscalersResource, persistentVolumeClaimsResource, persistentVolumesResource } from '../../src/apimachinery/builtin-resources.ts';
import { startWorkloads, type WorkloadsHarness } from './harness.ts';

function autoscaler(name: string, target: string): HorizontalPodAutoscaler {
  return {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name, namespace: 'default' },
    spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: target }, maxReplicas: 3, metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }] },
  };
}

describe('HorizontalPodAutoscaler controller and volume binding', () => {
  let h: WorkloadsHarness;
  before(async () => {
    h = await startWorkloads({ workloads: { horizontalPodAutoscaler: { syncPeriodMs: 200 } } });
  });
  after(async () => {
    await h.close();
  });

  const condition = (hpa: HorizontalPodAutoscaler | undefined, type: string) => hpa?.status?.conditions?.find((c) => c.type === type);

  test('a missing target: AbleToScale False FailedGetScale', async () => {
    const hpas = h.watch<HorizontalPodAutoscaler>(horizontalPodAutoscalersResource);
    await h.apply(autoscaler('ghost', 'nothing'));
    await h.until(() => condition(hpas.get('ghost', 'default'), 'AbleToScale')?.reason === 'FailedGetScale', 'AbleToScale False FailedGetScale');
    const able = condition(hpas.get('ghost', 'default'), 'AbleToScale');
    assert.equal(able?.status, 'False');
    assert.match(able?.message ?? '', /the HPA controller was unable to get the target's current scale: .*not found/);
  });

  test('pods without readings: ScalingActive False FailedGetResourceMetric, the Scale untouched', async () => {
    const hpas = h.watch<HorizontalPodAutoscaler>(horizontalPodAutoscalersResource);
    const deployment: Deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'default' },
      spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'busybox', resources: { requests: { cpu: '50m' } } }] } } },
    };
    await h.apply(deployment, autoscaler('web', 'web'));
    await h.until(() => condition(hpas.get('web', 'default'), 'ScalingActive')?.reason === 'FailedGetResourceMetric', 'ScalingActive False FailedGetResourceMetric');
    const hpa = hpas.get('web', 'default');
    assert.equal(condition(hpa, 'ScalingActive')?.status, 'False');
    assert.match(condition(hpa, 'ScalingActive')?.message ?? '', /the HPA was unable to compute the replica count: unable to get metrics for resource cpu/);
    assert.equal(condition(hpa, 'AbleToScale')?.reason, 'SucceededGetScale');
    assert.equal(hpa?.status?.currentReplicas, 2);
    assert.equal((await h.client.get<Deployment>(deploymentsResource, 'web', { namespace: 'default' })).spec.replicas, 2);
    // Events are sent in the background, as client-go's recorder sends them: wait for it.
    await h.until(() => h.events('web').some((e) => e.reason === 'FailedGetResourceMetric'), 'FailedGetResourceMetric event');
  });

  test('a static volume is bound to the claim that fits, and Released when the claim goes', async () => {
    const volumes = h.watch<PersistentVolume>(persistentVolumesResource);
    const claims = h.watch<PersistentVolumeClaim>(persistentVolumeClaimsResource);
    const volume = (name: string, storage: string): PersistentVolume => ({
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name },
      spec: { capacity: { storage }, accessModes: ['ReadWriteOnce'], storageClassName: 'manual', hostPath: { path: `/tmp/${name}` } },
    });
    await h.apply(volume('big', '10Gi'), volume('small', '2Gi'), volume('tiny', '100Mi'));
    await h.apply({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data', namespace: 'default' }, spec: { storageClassName: 'manual', accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } });
    await h.until(() => claims.get('data', 'default')?.status?.phase === 'Bound' && volumes.get('small')?.status?.phase === 'Bound', 'the claim bound to the smallest volume that fits');
    const claim = claims.get('data', 'default');
    assert.equal(claim?.spec?.volumeName, 'small');
    assert.deepEqual(claim?.status?.capacity, { storage: '2Gi' });
    assert.equal(claim?.metadata.annotations?.['pv.kubernetes.io/bind-completed'], 'yes');
    assert.equal(volumes.get('big')?.status?.phase, 'Available');
    await h.client.delete(persistentVolumeClaimsResource, 'data', { namespace: 'default' });
    await h.until(() => volumes.get('small')?.status?.phase === 'Released', 'the volume Released');
  });

  test('the controllers stay within the family’s RBAC rules', () => {
    assert.deepEqual(h.deniedToControllers(), []);
  });
});
