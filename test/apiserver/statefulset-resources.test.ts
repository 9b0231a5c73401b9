// apps/v1 StatefulSet and ControllerRevision as kube-apiserver serves them: SetDefaults_StatefulSet (policies, the
// claim templates' PersistentVolumeClaim defaults), ValidateStatefulSetSpec's and ValidateStatefulSetUpdate's
// messages, the scale subresource `kubectl scale sts` uses, the short name and kubectl's columns.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { KubeObject } from '../../src/apimachinery/object.ts';
import { send, startTestServer, type TestServer } from '../helpers/api-server.ts';
import { kubectlFor, type Kubectl } from '../helpers/kubectl.ts';

const statefulSets = '/apis/apps/v1/namespaces/default/statefulsets';
const revisions = '/apis/apps/v1/namespaces/default/controllerrevisions';

function statefulSet(name: string, spec: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name },
    spec: {
      serviceName: name,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'busybox', volumeMounts: [{ name: 'www', mountPath: '/data' }] }] } },
      volumeClaimTemplates: [{ metadata: { name: 'www' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
      ...spec,
    },
  };
}

describe('StatefulSet and ControllerRevision resources', () => {
  let server: TestServer;
  let kubectl: Kubectl;
  before(async () => {
    server = await startTestServer();
    kubectl = kubectlFor(server.kubeconfigFile);
  });
  after(async () => {
    await server.close();
  });

  test('discovery: sts is a short name, statefulsets are in category all, with status and scale', async () => {
    const apps = await server.json<{ resources: Record<string, unknown>[] }>('/apis/apps/v1');
    const sts = apps.resources.find((r) => r['name'] === 'statefulsets');
    assert.deepEqual(sts?.['shortNames'], ['sts']);
    assert.deepEqual(sts?.['categories'], ['all']);
    assert.ok(apps.resources.some((r) => r['name'] === 'statefulsets/scale' && r['kind'] === 'Scale' && r['group'] === 'autoscaling'));
    assert.ok(apps.resources.some((r) => r['name'] === 'statefulsets/status'));
    assert.ok(apps.resources.some((r) => r['name'] === 'controllerrevisions' && r['kind'] === 'ControllerRevision'));
    const resources = await kubectl(['api-resources', '--api-group=apps', '--no-headers']);
    assert.match(resources.stdout, /^statefulsets\s+sts\s+apps\/v1\s+true\s+StatefulSet$/m);
    assert.match(resources.stdout, /^controllerrevisions\s+apps\/v1\s+true\s+ControllerRevision$/m);
  });

  test('a StatefulSet gets apps/v1 defaults, and its claim templates the PersistentVolumeClaim defaults', async () => {
    const created = await send(server, 'POST', statefulSets, statefulSet('web'));
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const spec = created.body['spec'];
    assert.equal(spec['replicas'], 1);
    assert.equal(spec['podManagementPolicy'], 'OrderedReady');
    assert.deepEqual(spec['updateStrategy'], { type: 'RollingUpdate', rollingUpdate: { partition: 0 } });
    assert.deepEqual(spec['persistentVolumeClaimRetentionPolicy'], { whenDeleted: 'Retain', whenScaled: 'Retain' });
    assert.equal(spec['revisionHistoryLimit'], 10);
    assert.equal(spec['template']['spec']['restartPolicy'], 'Always');
    assert.deepEqual(spec['volumeClaimTemplates'], [
      {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: { name: 'www' },
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, volumeMode: 'Filesystem' },
        status: { phase: 'Pending' },
      },
    ]);
    assert.equal(created.body['metadata']['generation'], 1);
    const onDelete = await send(server, 'POST', statefulSets, statefulSet('ondelete', { updateStrategy: { type: 'OnDelete' }, podManagementPolicy: 'Parallel' }));
    assert.equal(onDelete.status, 201);
    assert.deepEqual(onDelete.body['spec']['updateStrategy'], { type: 'OnDelete' });
  });

  test('invalid StatefulSets are refused with kube-apiserver\'s messages', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ podManagementPolicy: 'Eager' }, `spec.podManagementPolicy: Invalid value: "Eager": must be 'OrderedReady' or 'Parallel'`],
      [{ updateStrategy: { type: 'OnDelete', rollingUpdate: { partition: 1 } } }, `spec.updateStrategy.rollingUpdate: Invalid value: {"partition":1}: only allowed for updateStrategy 'RollingUpdate'`],
      [{ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: -1 } } }, 'spec.updateStrategy.rollingUpdate.partition: Invalid value: -1: must be greater than or equal to 0'],
      [{ persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Keep' } }, 'spec.persistentVolumeClaimRetentionPolicy.whenDeleted: Unsupported value: "Keep": supported values: "Retain", "Delete"'],
      [{ replicas: -1 }, 'spec.replicas: Invalid value: -1: must be greater than or equal to 0'],
      [{ selector: { matchLabels: { app: 'other' } } }, 'spec.template.metadata.labels: Invalid value: map[string]string{"app":"bad"}: `selector` does not match template `labels`'],
      [{ volumeClaimTemplates: [{ metadata: { name: 'www' }, spec: { resources: { requests: { storage: '1Gi' } } } }] }, 'spec.volumeClaimTemplates[0].spec.accessModes: Required value: at least 1 access mode is required'],
      [{ volumeClaimTemplates: [] }, 'spec.template.spec.containers[0].volumeMounts[0].name: Not found: "www"'],
    ];
    for (const [spec, message] of cases) {
      const refused = await send(server, 'POST', statefulSets, statefulSet('bad', spec));
      assert.equal(refused.status, 422, JSON.stringify(spec));
      assert.equal(refused.body['message'], `StatefulSet.apps "bad" is invalid: ${message}`);
    }
    const never = statefulSet('bad');
    (never['spec'] as any).template.spec.restartPolicy = 'Never';
    const refused = await send(server, 'POST', statefulSets, never);
    assert.equal(refused.body['message'], 'StatefulSet.apps "bad" is invalid: spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"');
  });

  test('an update may change replicas, template and strategy, not the service name or the claim templates', async () => {
    assert.equal((await send(server, 'POST', statefulSets, statefulSet('upd'))).status, 201);
    const patched = await send(server, 'PATCH', `${statefulSets}/upd`, { spec: { replicas: 3, minReadySeconds: 5, updateStrategy: { rollingUpdate: { partition: 2 } } } }, 'application/merge-patch+json');
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.equal(patched.body['metadata']['generation'], 2);
    const renamed = await send(server, 'PATCH', `${statefulSets}/upd`, { spec: { serviceName: 'other' } }, 'application/merge-patch+json');
    assert.equal(renamed.status, 422);
    assert.equal(
      renamed.body['message'],
      "StatefulSet.apps \"upd\" is invalid: spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
    );
  });

  test('kubectl scale sts writes spec.replicas through /scale; kubectl get prints NAME READY AGE', async () => {
    assert.equal((await send(server, 'POST', statefulSets, statefulSet('scaled', { replicas: 2 }))).status, 201);
    const scaled = await kubectl(['scale', 'sts', 'scaled', '--replicas=4']);
    assert.equal(scaled.code, 0, scaled.stderr);
    assert.equal(scaled.stdout.trim(), 'statefulset.apps/scaled scaled');
    const scale = await server.json<Record<string, any>>(`${statefulSets}/scaled/scale`);
    assert.deepEqual(scale['spec'], { replicas: 4 });
    assert.deepEqual(scale['status'], { replicas: 0, selector: 'app=scaled' });
    const table = await kubectl(['get', 'sts', 'scaled']);
    assert.match(table.stdout, /^NAME\s+READY\s+AGE\nscaled\s+0\/4\s+\S+\n$/);
    const wide = await kubectl(['get', 'sts', 'scaled', '-o', 'wide']);
    assert.match(wide.stdout, /^NAME\s+READY\s+AGE\s+CONTAINERS\s+IMAGES\nscaled\s+0\/4\s+\S+\s+c\s+busybox\n$/);
  });

  test('a ControllerRevision needs data, which is immutable; kubectl prints its controller and revision', async () => {
    const sts = await server.json<Record<string, any>>(`${statefulSets}/web`);
    const owner = { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: sts['metadata']['uid'], controller: true };
    const missing = await send(server, 'POST', revisions, { apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name: 'empty' }, revision: 1 });
    assert.equal(missing.status, 422);
    assert.equal(missing.body['message'], 'ControllerRevision.apps "empty" is invalid: data: Required value: data is mandatory');
    const created = await send(server, 'POST', revisions, { apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name: 'web-1', ownerReferences: [owner] }, data: { spec: {} }, revision: 1 });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const changed = await send(server, 'PATCH', `${revisions}/web-1`, { data: { spec: { x: 1 } } }, 'application/merge-patch+json');
    assert.equal(changed.status, 422);
    assert.equal(changed.body['message'], 'ControllerRevision.apps "web-1" is invalid: data: Invalid value: "object": field is immutable');
    const bumped = await send(server, 'PATCH', `${revisions}/web-1`, { revision: 3 }, 'application/merge-patch+json');
    assert.equal(bumped.status, 200);
    const table = await kubectl(['get', 'controllerrevisions']);
    assert.match(table.stdout, /^NAME\s+CONTROLLER\s+REVISION\s+AGE\nweb-1\s+statefulset\.apps\/web\s+3\s+\S+\n$/);
  });
});
