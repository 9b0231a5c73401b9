// Pods as kube-apiserver's pod strategy serves them: SetDefaults_PodSpec (also in workload templates), the
// validation a kubelet relies on, which spec fields an update may change, and graceful deletion: a pod on a
// node stays, marked with its grace period, until its kubelet deletes it with grace 0.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/api-server.ts';
import { kubectlFor, type Kubectl } from '../helpers/kubectl.ts';

const pods = '/api/v1/namespaces/default/pods';

type Body = Record<string, any>;

function pod(name: string, spec: Body = {}): Body {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'busybox:1.36' }], ...spec } };
}

describe('pods: defaults, validation, updates and graceful deletion', () => {
  let server: TestServer;
  let kubectl: Kubectl;
  const send = async (method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<{ status: number; body: Body }> => {
    const res = await server.api(path, { method, headers: { 'content-type': contentType }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    return { status: res.status, body: (await res.json()) as Body };
  };
  const bind = (name: string, node: string) =>
    send('POST', `${pods}/${name}/binding`, { apiVersion: 'v1', kind: 'Binding', metadata: { name }, target: { apiVersion: 'v1', kind: 'Node', name: node } });

  before(async () => {
    server = await startTestServer();
    kubectl = kubectlFor(server.kubeconfigFile);
  });
  after(async () => {
    await server.close();
  });

  test('a new pod gets SetDefaults_PodSpec, the default tolerations and requests from its limits', async () => {
    const created = await send('POST', pods, pod('defaults', {
      containers: [{ name: 'c', image: 'busybox', resources: { limits: { cpu: '500m' } }, readinessProbe: { httpGet: { port: 8080 } }, ports: [{ containerPort: 80 }] }],
      volumes: [{ name: 'cm', configMap: { name: 'x' } }],
    }));
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const spec = created.body['spec'];
    assert.equal(spec['restartPolicy'], 'Always');
    assert.equal(spec['terminationGracePeriodSeconds'], 30);
    assert.equal(spec['dnsPolicy'], 'ClusterFirst');
    assert.equal(spec['schedulerName'], 'default-scheduler');
    assert.deepEqual(spec['tolerations'].map((t: Body) => t['key']), ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable']);
    const container = spec['containers'][0];
    assert.equal(container['imagePullPolicy'], 'Always');
    assert.equal(container['terminationMessagePath'], '/dev/termination-log');
    assert.deepEqual(container['resources'], { limits: { cpu: '500m' }, requests: { cpu: '500m' } });
    assert.deepEqual(container['readinessProbe'], { httpGet: { port: 8080, path: '/', scheme: 'HTTP' }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 });
    assert.equal(container['ports'][0]['protocol'], 'TCP');
    assert.equal(spec['volumes'][0]['configMap']['defaultMode'], 420);
    assert.equal(created.body['status']['qosClass'], 'Burstable');
  });

  test('a Deployment template is defaulted as a pod is; a Job without restartPolicy gets Always and is refused', async () => {
    const created = await send('POST', '/apis/apps/v1/namespaces/default/deployments', {
      metadata: { name: 'd' },
      spec: { selector: { matchLabels: { app: 'd' } }, template: { metadata: { labels: { app: 'd' } }, spec: { containers: [{ name: 'c', image: 'busybox:1.36' }] } } },
    });
    assert.equal(created.status, 201);
    assert.equal(created.body['spec']['template']['spec']['terminationGracePeriodSeconds'], 30);
    assert.equal(created.body['spec']['template']['spec']['containers'][0]['imagePullPolicy'], 'IfNotPresent');
    const job = await send('POST', '/apis/batch/v1/namespaces/default/jobs', { metadata: { name: 'j' }, spec: { template: { spec: { containers: [{ name: 'c', image: 'busybox' }] } } } });
    assert.equal(job.status, 422);
    assert.equal(job.body['message'], 'Job.batch "j" is invalid: spec.template.spec.restartPolicy: Unsupported value: "Always": supported values: "OnFailure", "Never"');
  });

  test('what a kubelet could not run is refused with kube-apiserver\'s words', async () => {
    const cases: [Body, RegExp][] = [
      [pod('neg', { containers: [{ name: 'c', image: 'busybox', resources: { limits: { memory: '-1' } } }] }), /spec\.containers\[0\]\.resources\.limits\[memory\]: Invalid value: "-1": must be greater than or equal to 0/],
      [pod('over', { containers: [{ name: 'c', image: 'busybox', resources: { limits: { cpu: '1' }, requests: { cpu: '2' } } }] }), /spec\.containers\[0\]\.resources\.requests: Invalid value: "2": must be less than or equal to cpu limit of 1/],
      [pod('mount', { containers: [{ name: 'c', image: 'busybox', volumeMounts: [{ name: 'data', mountPath: '/data' }] }] }), /spec\.containers\[0\]\.volumeMounts\[0\]\.name: Not found: "data"/],
      [pod('noimage', { containers: [{ name: 'c' }] }), /spec\.containers\[0\]\.image: Required value/],
      [pod('dup', { containers: [{ name: 'c', image: 'a' }], initContainers: [{ name: 'c', image: 'b' }] }), /spec\.containers\[0\]\.name: Duplicate value: "c"/],
      [pod('empty', { containers: [] }), /spec\.containers: Required value/],
      [pod('policy', { restartPolicy: 'Sometimes' }), /spec\.restartPolicy: Unsupported value: "Sometimes"/],
      [pod('deadline', { activeDeadlineSeconds: 0 }), /spec\.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive/],
    ];
    for (const [body, message] of cases) {
      const res = await send('POST', pods, body);
      assert.equal(res.status, 422, `${body['metadata']['name']}: ${JSON.stringify(res.body)}`);
      assert.match(res.body['message'], message);
    }
  });

  test('an update may change images and the deadline, not the rest of the spec', async () => {
    await send('POST', pods, pod('immutable'));
    const image = await send('PATCH', `${pods}/immutable`, { spec: { containers: [{ name: 'c', image: 'busybox:1.37' }], activeDeadlineSeconds: 60 } }, 'application/strategic-merge-patch+json');
    assert.equal(image.status, 200, JSON.stringify(image.body));
    const command = await send('PATCH', `${pods}/immutable`, { spec: { containers: [{ name: 'c', command: ['sleep', '1'] }] } }, 'application/strategic-merge-patch+json');
    assert.equal(command.status, 422);
    assert.match(command.body['message'], /spec: Forbidden: pod updates may not change fields other than `spec\.containers\[\*\]\.image`/);
    const bound = await bind('immutable', 'node-a');
    assert.equal(bound.status, 201, JSON.stringify(bound.body));
  });

  test('a pod on a node is deleted gracefully; its kubelet removes it with grace 0', async () => {
    await send('POST', pods, pod('graceful', { terminationGracePeriodSeconds: 45 }));
    await bind('graceful', 'node-a');
    const first = await send('DELETE', `${pods}/graceful`);
    assert.equal(first.status, 200);
    assert.equal(first.body['metadata']['deletionGracePeriodSeconds'], 45);
    const marked = Date.parse(first.body['metadata']['deletionTimestamp']);
    assert.ok(Math.abs(marked - (Date.now() + 45_000)) < 5_000, 'deletionTimestamp is now + the grace period');
    // A second delete leaves the running grace period alone; a shorter one shortens it.
    const again = await send('DELETE', `${pods}/graceful`);
    assert.equal(again.body['metadata']['deletionGracePeriodSeconds'], 45);
    const shorter = await send('DELETE', `${pods}/graceful`, { kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 10 });
    assert.equal(shorter.body['metadata']['deletionGracePeriodSeconds'], 10);
    assert.equal(Date.parse(shorter.body['metadata']['deletionTimestamp']), marked - 35_000);
    assert.equal((await send('GET', `${pods}/graceful`)).status, 200, 'still there until the kubelet says so');
    // The kubelet's status writes while it stops the containers do not remove the pod either.
    const current = (await send('GET', `${pods}/graceful`)).body;
    assert.equal((await send('PUT', `${pods}/graceful/status`, { ...current, status: { ...current['status'], phase: 'Failed' } })).status, 200);
    assert.equal((await send('GET', `${pods}/graceful`)).status, 200, 'a terminal phase does not end the grace period');
    const uid = first.body['metadata']['uid'];
    const last = await send('DELETE', `${pods}/graceful?gracePeriodSeconds=0`, { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { uid } });
    assert.equal(last.status, 200);
    assert.equal((await send('GET', `${pods}/graceful`)).status, 404);
  });

  test('an unscheduled or finished pod, or --force --grace-period=0, is removed at once', async () => {
    await send('POST', pods, pod('pending'));
    assert.equal((await send('DELETE', `${pods}/pending`)).status, 200);
    assert.equal((await send('GET', `${pods}/pending`)).status, 404);
    await send('POST', pods, pod('done'));
    await bind('done', 'node-a');
    const current = await send('GET', `${pods}/done`);
    const finished = await send('PUT', `${pods}/done/status`, { ...current.body, status: { ...current.body['status'], phase: 'Succeeded' } });
    assert.equal(finished.status, 200);
    await send('DELETE', `${pods}/done`);
    assert.equal((await send('GET', `${pods}/done`)).status, 404);
    await send('POST', pods, pod('forced'));
    await bind('forced', 'node-a');
    const forced = await kubectl(['delete', 'pod', 'forced', '--force', '--grace-period=0']);
    assert.equal(forced.code, 0, forced.stderr);
    assert.equal((await send('GET', `${pods}/forced`)).status, 404);
  });

  test('kubectl delete --wait=false shows a running pod Terminating', async () => {
    await send('POST', pods, pod('terminating'));
    await bind('terminating', 'node-a');
    const deleted = await kubectl(['delete', 'pod', 'terminating', '--wait=false']);
    assert.equal(deleted.code, 0, deleted.stderr);
    const listed = await kubectl(['get', 'pod', 'terminating', '--no-headers']);
    assert.match(listed.stdout, /^terminating\s+0\/1\s+Terminating/);
  });
});
