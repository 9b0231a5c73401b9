// apps/v1 DaemonSet as kube-apiserver serves it: SetDefaults_DaemonSet, the template generation annotation the
// strategy keeps, ValidateDaemonSetSpec's messages, the short name and kubectl's columns.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { KubeObject } from '../../src/apimachinery/object.ts';
import { send, startTestServer, type TestServer } from '../helpers/api-server.ts';
import { kubectlFor, type Kubectl } from '../helpers/kubectl.ts';

const daemonSets = '/apis/apps/v1/namespaces/default/daemonsets';
const GENERATION = 'deprecated.daemonset.template.generation';

function daemonSet(name: string, spec: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name },
    spec: {
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } },
      ...spec,
    },
  };
}

describe('DaemonSet resource', () => {
  let server: TestServer;
  let kubectl: Kubectl;
  before(async () => {
    server = await startTestServer();
    kubectl = kubectlFor(server.kubeconfigFile);
  });
  after(async () => {
    await server.close();
  });

  test('discovery: ds is a short name in category all, with a status subresource', async () => {
    const apps = await server.json<{ resources: Record<string, unknown>[] }>('/apis/apps/v1');
    const ds = apps.resources.find((r) => r['name'] === 'daemonsets');
    assert.deepEqual(ds?.['shortNames'], ['ds']);
    assert.deepEqual(ds?.['categories'], ['all']);
    assert.ok(apps.resources.some((r) => r['name'] === 'daemonsets/status'));
    const resources = await kubectl(['api-resources', '--api-group=apps', '--no-headers']);
    assert.match(resources.stdout, /^daemonsets\s+ds\s+apps\/v1\s+true\s+DaemonSet$/m);
  });

  test('defaults: RollingUpdate 1/0, history 10, template generation 1 that goes up when the template changes', async () => {
    const created = await send(server, 'POST', daemonSets, daemonSet('agent'));
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.deepEqual(created.body['spec']['updateStrategy'], { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } });
    assert.equal(created.body['spec']['revisionHistoryLimit'], 10);
    assert.equal(created.body['spec']['template']['spec']['restartPolicy'], 'Always');
    assert.equal(created.body['metadata']['annotations'][GENERATION], '1');
    const patched = await send(server, 'PATCH', `${daemonSets}/agent`, { spec: { template: { spec: { containers: [{ name: 'c', image: 'busybox:2' }] } } } }, 'application/strategic-merge-patch+json');
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.equal(patched.body['metadata']['annotations'][GENERATION], '2');
    assert.equal(patched.body['metadata']['generation'], 2);
    const same = await send(server, 'PATCH', `${daemonSets}/agent`, { spec: { minReadySeconds: 1 } }, 'application/merge-patch+json');
    assert.equal(same.body['metadata']['annotations'][GENERATION], '2');
  });

  test('validation: kube-apiserver messages for the update strategy, restart policy and selector', async () => {
    const zero = await send(server, 'POST', daemonSets, daemonSet('zero', { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 0 } } }));
    assert.equal(zero.status, 422);
    assert.match(zero.body['message'], /spec\.updateStrategy\.rollingUpdate\.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0/);
    const bad = await send(server, 'POST', daemonSets, daemonSet('bad', { updateStrategy: { type: 'Recreate' } }));
    assert.equal(bad.status, 422);
    assert.match(bad.body['message'], /spec\.updateStrategy\.type: Unsupported value: "Recreate": supported values: "OnDelete", "RollingUpdate"/);
    const never = daemonSet('never');
    (never['spec'] as any).template.spec.restartPolicy = 'Never';
    const refused = await send(server, 'POST', daemonSets, never);
    assert.match(refused.body['message'], /spec\.template\.spec\.restartPolicy: Unsupported value: "Never": supported values: "Always"/);
    const moved = await send(server, 'PATCH', `${daemonSets}/agent`, { spec: { selector: { matchLabels: { app: 'agent', x: 'y' } }, template: { metadata: { labels: { x: 'y' } } } } }, 'application/merge-patch+json');
    assert.equal(moved.status, 422);
    assert.match(moved.body['message'], /spec\.selector: Invalid value: .*field is immutable/);
  });

  test('kubectl get ds prints the daemon counts and the node selector', async () => {
    await send(server, 'POST', daemonSets, daemonSet('picky', { template: { metadata: { labels: { app: 'picky' } }, spec: { nodeSelector: { disk: 'ssd' }, containers: [{ name: 'c', image: 'busybox' }] } } }));
    const out = await kubectl(['get', 'ds', 'picky', '-o', 'wide']);
    assert.match(out.stdout, /^NAME\s+DESIRED\s+CURRENT\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+NODE SELECTOR\s+AGE\s+CONTAINERS\s+IMAGES\s+SELECTOR$/m);
    assert.match(out.stdout, /^picky\s+0\s+0\s+0\s+0\s+0\s+disk=ssd\s+\S+\s+c\s+busybox\s+app=picky$/m);
  });
});
