// The workload kinds as kube-apiserver serves them: batch/v1 Job defaulting (the generated selector and pod
// labels the Job controller and `kubectl logs job/x` rely on), apps/v1 Deployment and ReplicaSet with their
// defaults, validation and the autoscaling/v1 Scale subresource that `kubectl scale` uses.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { KubeObject } from '../../src/apimachinery/object.ts';
import { send, startTestServer, type TestServer } from '../helpers/api-server.ts';
import { kubectlFor, type Kubectl } from '../helpers/kubectl.ts';

const deployments = '/apis/apps/v1/namespaces/default/deployments';

function deployment(name: string, spec: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: {
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } },
      ...spec,
    },
  };
}

describe('workload resources: Job defaulting, Deployment and ReplicaSet, the scale subresource', () => {
  let server: TestServer;
  let kubectl: Kubectl;
  before(async () => {
    server = await startTestServer();
    kubectl = kubectlFor(server.kubeconfigFile);
  });
  after(async () => {
    await server.close();
  });

  test('discovery lists deployments/scale and replicasets/scale as autoscaling/v1 Scale', async () => {
    const apps = await server.json<{ resources: Record<string, unknown>[] }>('/apis/apps/v1');
    assert.deepEqual(
      apps.resources.map((r) => r['name']),
      ['controllerrevisions', 'daemonsets', 'deployments', 'replicasets', 'statefulsets', 'daemonsets/status', 'deployments/status', 'deployments/scale', 'replicasets/status', 'replicasets/scale', 'statefulsets/status', 'statefulsets/scale'],
    );
    assert.deepEqual(apps.resources.find((r) => r['name'] === 'deployments/scale'), {
      name: 'deployments/scale',
      singularName: '',
      namespaced: true,
      group: 'autoscaling',
      version: 'v1',
      kind: 'Scale',
      verbs: ['get', 'patch', 'update'],
    });
    assert.deepEqual(apps.resources.find((r) => r['name'] === 'deployments')?.['shortNames'], ['deploy']);
  });

  test('a Job gets the generated selector, the four pod labels and batch/v1 defaults; the selector is immutable', async () => {
    const created = await send(server, 'POST', '/apis/batch/v1/namespaces/default/jobs', {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'defaults' },
      spec: { template: { metadata: { labels: { team: 'a' } }, spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const uid = created.body['metadata']['uid'] as string;
    assert.deepEqual(created.body['spec']['selector'], { matchLabels: { 'batch.kubernetes.io/controller-uid': uid } });
    assert.deepEqual(created.body['spec']['template']['metadata']['labels'], {
      team: 'a',
      'job-name': 'defaults',
      'batch.kubernetes.io/job-name': 'defaults',
      'controller-uid': uid,
      'batch.kubernetes.io/controller-uid': uid,
    });
    assert.deepEqual(created.body['metadata']['labels'], { team: 'a' });
    const { completions, parallelism, backoffLimit, completionMode, suspend, podReplacementPolicy } = created.body['spec'];
    assert.deepEqual({ completions, parallelism, backoffLimit, completionMode, suspend, podReplacementPolicy }, {
      completions: 1,
      parallelism: 1,
      backoffLimit: 6,
      completionMode: 'NonIndexed',
      suspend: false,
      podReplacementPolicy: 'TerminatingOrFailed',
    });
    const changed = await send(server, 'PATCH', '/apis/batch/v1/namespaces/default/jobs/defaults', { spec: { selector: { matchLabels: { team: 'a' } } } }, 'application/merge-patch+json');
    assert.equal(changed.status, 422);
    assert.match(String(changed.body['message']), /spec\.selector: Invalid value: .*: field is immutable/);
  });

  test('a Job needs restartPolicy OnFailure or Never; a work-queue Job keeps completions unset', async () => {
    const always = await send(server, 'POST', '/apis/batch/v1/namespaces/default/jobs', {
      metadata: { name: 'always' },
      spec: { template: { spec: { restartPolicy: 'Always', containers: [{ name: 'c', image: 'busybox' }] } } },
    });
    assert.equal(always.status, 422);
    assert.equal(always.body['message'], 'Job.batch "always" is invalid: spec.template.spec.restartPolicy: Unsupported value: "Always": supported values: "OnFailure", "Never"');
    const queue = await send(server, 'POST', '/apis/batch/v1/namespaces/default/jobs', {
      metadata: { name: 'queue' },
      spec: { parallelism: 3, template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'c', image: 'busybox' }] } } },
    });
    assert.equal(queue.status, 201);
    assert.equal(queue.body['spec']['completions'], undefined);
    assert.equal(queue.body['spec']['parallelism'], 3);
  });

  test('a Deployment gets apps/v1 defaults; a selector that misses the template and a 0/0 rolling update are Invalid', async () => {
    const created = await send(server, 'POST', deployments, deployment('d1'));
    assert.equal(created.status, 201);
    assert.deepEqual(created.body['spec']['strategy'], { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } });
    assert.equal(created.body['spec']['replicas'], 1);
    assert.equal(created.body['metadata']['generation'], 1);
    const mismatch = await send(server, 'POST', deployments, deployment('d2', { selector: { matchLabels: { app: 'other' } } }));
    assert.equal(mismatch.status, 422);
    assert.equal(
      mismatch.body['message'],
      'Deployment.apps "d2" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"d2"}: `selector` does not match template `labels`',
    );
    const frozen = await send(server, 'POST', deployments, deployment('d3', { strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 0 } } }));
    assert.equal(frozen.status, 422);
    assert.equal(frozen.body['message'], 'Deployment.apps "d3" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0');
    const recreate = await send(server, 'POST', deployments, deployment('d4', { strategy: { type: 'Recreate' } }));
    assert.equal(recreate.status, 201);
    assert.deepEqual(recreate.body['spec']['strategy'], { type: 'Recreate' });
  });

  test('kubectl scale writes spec.replicas through /scale; the Scale carries the selector; bad scales are refused', async () => {
    assert.equal((await send(server, 'POST', deployments, deployment('s1', { replicas: 2 }))).status, 201);
    const scale = await server.json<Record<string, any>>(`${deployments}/s1/scale`);
    assert.equal(scale['kind'], 'Scale');
    assert.equal(scale['apiVersion'], 'autoscaling/v1');
    assert.deepEqual(scale['spec'], { replicas: 2 });
    assert.deepEqual(scale['status'], { replicas: 0, selector: 'app=s1' });
    const mark = server.mark();
    const scaled = await kubectl(['scale', 'deployment', 's1', '--replicas=4']);
    assert.equal(scaled.code, 0, scaled.stderr);
    assert.equal(scaled.stdout.trim(), 'deployment.apps/s1 scaled');
    assert.ok(server.since(mark).some((e) => e.method === 'PATCH' && e.url.startsWith(`${deployments}/s1/scale`) && e.status === 200));
    const after = await server.json<Record<string, any>>(`${deployments}/s1`);
    assert.equal(after['spec']['replicas'], 4);
    assert.equal(after['metadata']['generation'], 2);
    const stale = await send(server, 'PUT', `${deployments}/s1/scale`, { ...scale, spec: { replicas: 1 } });
    assert.equal(stale.status, 409);
    const negative = await send(server, 'PUT', `${deployments}/s1/scale`, { kind: 'Scale', apiVersion: 'autoscaling/v1', metadata: { name: 's1' }, spec: { replicas: -1 } });
    assert.equal(negative.status, 422);
    assert.equal(negative.body['message'], 'Scale.autoscaling "s1" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0');
    const guarded = await kubectl(['scale', 'deployment', 's1', '--replicas=3', '--current-replicas=4']);
    assert.equal(guarded.code, 0, guarded.stderr);
    assert.equal((await server.json<Record<string, any>>(`${deployments}/s1`))['spec']['replicas'], 3);
  });

  test('kubectl set image merges containers by name (strategic merge), and get prints deployment columns', async () => {
    const created = await kubectl(['create', 'deployment', 'web', '--image=busybox:1', '--replicas=2']);
    assert.equal(created.code, 0, created.stderr);
    const set = await kubectl(['set', 'image', 'deployment/web', 'busybox=busybox:2']);
    assert.equal(set.code, 0, set.stderr);
    const web = await server.json<Record<string, any>>(`${deployments}/web`);
    assert.deepEqual(web['spec']['template']['spec']['containers'], [{ name: 'busybox', image: 'busybox:2', resources: {}, imagePullPolicy: 'IfNotPresent', terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File' }]);
    const table = await kubectl(['get', 'deployment', 'web']);
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE\nweb\s+0\/2\s+0\s+0\s+\S+\n$/);
    const wide = await kubectl(['get', 'deployment', 'web', '-o', 'wide']);
    assert.match(wide.stdout, /CONTAINERS\s+IMAGES\s+SELECTOR\n.*busybox\s+busybox:2\s+app=web/);
  });

  test('a ReplicaSet defaults replicas to 1 and prints desired, current and ready', async () => {
    const created = await send(server, 'POST', '/apis/apps/v1/namespaces/default/replicasets', {
      ...deployment('rs1'),
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      spec: { ...(deployment('rs1')['spec'] as object) },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body['spec']['replicas'], 1);
    const table = await kubectl(['get', 'rs', 'rs1']);
    assert.match(table.stdout, /^NAME\s+DESIRED\s+CURRENT\s+READY\s+AGE\nrs1\s+1\s+0\s+0\s+\S+\n$/);
  });
});
