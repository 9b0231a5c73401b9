// autoscaling HorizontalPodAutoscalers and storage as kube-apiserver serves them: v2 defaults and validation, the
// same object read as autoscaling/v1 (kubectl autoscale's version) and written back through it without losing
// the v2 fields; the default StorageClass, its immutable fields, and the DefaultStorageClass admission of claims.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { send, startTestServer, type TestServer } from '../helpers/api-server.ts';
import { kubectlFor, type Kubectl } from '../helpers/kubectl.ts';

const v2 = '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers';
const v1 = '/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers';

describe('HorizontalPodAutoscaler and storage resources', () => {
  let server: TestServer;
  let kubectl: Kubectl;
  before(async () => {
    server = await startTestServer();
    kubectl = kubectlFor(server.kubeconfigFile);
  });
  after(async () => {
    await server.close();
  });

  test('v2 defaults minReplicas, a CPU metric and a given behavior', async () => {
    const created = await send(server, 'POST', v2, {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'web' },
      spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 3, behavior: { scaleDown: { stabilizationWindowSeconds: 5 } } },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const spec = created.body['spec'];
    assert.equal(spec.minReplicas, 1);
    assert.deepEqual(spec.metrics, [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }]);
    assert.deepEqual(spec.behavior.scaleUp, { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }] });
    assert.deepEqual(spec.behavior.scaleDown, { stabilizationWindowSeconds: 5, selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] });
  });

  test('v1 shows the CPU target and keeps the rest in annotations; a v1 update keeps the v2 fields', async () => {
    const read = await send(server, 'GET', `${v1}/web`);
    assert.equal(read.body['apiVersion'], 'autoscaling/v1');
    assert.equal(read.body['spec'].targetCPUUtilizationPercentage, 80);
    assert.equal(read.body['spec'].metrics, undefined);
    assert.ok(read.body['metadata'].annotations['autoscaling.alpha.kubernetes.io/behavior']);
    const updated = await send(server, 'PUT', `${v1}/web`, { ...read.body, spec: { ...read.body['spec'], targetCPUUtilizationPercentage: 50, maxReplicas: 4 } });
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    const back = await send(server, 'GET', `${v2}/web`);
    assert.equal(back.body['spec'].maxReplicas, 4);
    assert.equal(back.body['spec'].metrics[0].resource.target.averageUtilization, 50);
    assert.equal(back.body['spec'].behavior.scaleDown.stabilizationWindowSeconds, 5);
    assert.equal(back.body['metadata'].annotations, undefined);
  });

  test('invalid autoscalers are refused with kube-apiserver’s messages', async () => {
    const refused = await send(server, 'POST', v2, {
      metadata: { name: 'bad' },
      spec: { scaleTargetRef: { kind: 'Deployment', name: '' }, minReplicas: 3, maxReplicas: 2, metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization' } } }] },
    });
    assert.equal(refused.status, 422);
    const causes = (refused.body['details'].causes as { field: string; message: string }[]).map((c) => `${c.field}: ${c.message}`);
    assert.deepEqual(causes, [
      'spec.scaleTargetRef.name: Required value',
      'spec.maxReplicas: Invalid value: 2: must be greater than or equal to `minReplicas`',
      'spec.metrics[0].resource.target.averageUtilization: Required value: must be greater than 0',
    ]);
  });

  test('kubectl autoscale (autoscaling/v1 in protobuf) creates one kubectl get hpa lists', async () => {
    assert.equal((await kubectl(['create', 'deployment', 'api', '--image=busybox'])).code, 0);
    const made = await kubectl(['autoscale', 'deployment', 'api', '--cpu-percent=60', '--min=2', '--max=5']);
    assert.equal(made.code, 0, made.stderr);
    const listed = await kubectl(['get', 'hpa', 'api']);
    assert.match(listed.stdout, /^api\s+Deployment\/api\s+cpu: <unknown>\/60%\s+2\s+5\s+0\s+\S+$/m);
    const asV1 = await kubectl(['get', 'horizontalpodautoscalers.v1.autoscaling', 'api']);
    assert.match(asV1.stdout, /^api\s+Deployment\/api\s+cpu: <unknown>\/60%\s+2\s+5\s+0\s+\S+$/m);
  });

  test('local-path is the default class; a claim without a class gets it, one with a class keeps it', async () => {
    const storageClass = await send(server, 'GET', '/apis/storage.k8s.io/v1/storageclasses/local-path');
    assert.equal(storageClass.body['provisioner'], 'rancher.io/local-path');
    assert.equal(storageClass.body['volumeBindingMode'], 'WaitForFirstConsumer');
    const claim = (name: string, extra = {}) => ({ metadata: { name }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...extra } });
    const defaulted = await send(server, 'POST', '/api/v1/namespaces/default/persistentvolumeclaims', claim('a'));
    assert.equal(defaulted.body['spec'].storageClassName, 'local-path');
    assert.equal(defaulted.body['status'].phase, 'Pending');
    const explicit = await send(server, 'POST', '/api/v1/namespaces/default/persistentvolumeclaims', claim('b', { storageClassName: '' }));
    assert.equal(explicit.body['spec'].storageClassName, '');
  });

  test('a class may not change its provisioner', async () => {
    const changed = await send(server, 'PATCH', '/apis/storage.k8s.io/v1/storageclasses/local-path', { provisioner: 'example.com/other' }, 'application/merge-patch+json');
    assert.equal(changed.status, 422);
    assert.match(JSON.stringify(changed.body), /provisioner: Forbidden: updates to provisioner are forbidden/);
  });
});
