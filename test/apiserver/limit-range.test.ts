// v1 LimitRanges with kube-apiserver's LimitRanger admission, driven with real kubectl: a Container item's defaults
// fill a pod's missing requests and limits (and the kubernetes.io/limit-ranger annotation says which), min, max and
// maxLimitRequestRatio refuse pods with upstream's messages, a Pod item checks the sum of the containers, a
// PersistentVolumeClaim item checks storage, and a LimitRange whose default is above its max is a 422.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/api-server.ts';
import { kubectlFor, type Kubectl } from '../helpers/kubectl.ts';

function pod(name: string, containers: { name: string; requests?: Record<string, string>; limits?: Record<string, string> }[]): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name },
    spec: { containers: containers.map((c) => ({ name: c.name, image: 'busybox', resources: { ...(c.requests ? { requests: c.requests } : {}), ...(c.limits ? { limits: c.limits } : {}) } })) },
  });
}

const limitRange = (name: string, limits: unknown[]) => JSON.stringify({ apiVersion: 'v1', kind: 'LimitRange', metadata: { name }, spec: { limits } });

describe('LimitRange and the LimitRanger admission', () => {
  let server: TestServer;
  let kubectl: Kubectl;
  const ok = async (args: string[], input?: string): Promise<string> => {
    const result = await kubectl(args, input);
    assert.equal(result.code, 0, result.stderr);
    return result.stdout;
  };
  const refused = async (args: string[], input: string): Promise<string> => {
    const result = await kubectl(args, input);
    assert.notEqual(result.code, 0, `refused: ${result.stdout}`);
    return result.stderr;
  };
  before(async () => {
    server = await startTestServer();
    kubectl = kubectlFor(server.kubeconfigFile);
  });
  after(async () => {
    await server.close();
  });

  test('defaults fill missing requests and limits, and the annotation says which', async () => {
    await ok(['create', 'namespace', 'lr1']);
    await ok(['apply', '-n', 'lr1', '-f', '-'], limitRange('defaults', [{ type: 'Container', default: { cpu: '500m', memory: '256Mi' }, defaultRequest: { cpu: '100m' }, max: { memory: '1Gi' } }]));
    // Defaulted as SetDefaults_LimitRangeItem: the memory request falls back to the default limit.
    const stored = JSON.parse(await ok(['get', 'limitrange', 'defaults', '-n', 'lr1', '-o', 'json'])) as { spec: { limits: { defaultRequest: Record<string, string> }[] } };
    assert.deepEqual(stored.spec.limits[0]!.defaultRequest, { cpu: '100m', memory: '256Mi' });
    assert.match(await ok(['get', 'limits', '-n', 'lr1']), /^NAME\s+CREATED AT\ndefaults\s+\d{4}-/);

    await ok(['apply', '-n', 'lr1', '-f', '-'], pod('web', [{ name: 'app', requests: { cpu: '200m' } }]));
    const created = JSON.parse(await ok(['get', 'pod', 'web', '-n', 'lr1', '-o', 'json'])) as { metadata: { annotations: Record<string, string> }; spec: { containers: { resources: unknown }[] } };
    assert.deepEqual(created.spec.containers[0]!.resources, { limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '200m', memory: '256Mi' } });
    assert.equal(created.metadata.annotations['kubernetes.io/limit-ranger'], 'LimitRanger plugin set: memory request for container app; cpu, memory limit for container app');
  });

  test('min, max and maxLimitRequestRatio refuse with kube-apiserver words; a Pod item sums the containers', async () => {
    await ok(['create', 'namespace', 'lr2']);
    await ok(['apply', '-n', 'lr2', '-f', '-'], limitRange('bounds', [
      { type: 'Container', min: { cpu: '100m' }, max: { cpu: '1', memory: '512Mi' }, maxLimitRequestRatio: { cpu: '4' } },
      { type: 'Pod', max: { memory: '768Mi' } },
    ]));
    assert.match(
      await refused(['apply', '-n', 'lr2', '-f', '-'], pod('small', [{ name: 'c', requests: { cpu: '50m' }, limits: { cpu: '100m', memory: '64Mi' } }])),
      /pods "small" is forbidden: \[minimum cpu usage per Container is 100m, but request is 50m, cpu max limit to request ratio per Container is 4, but provided ratio is 2\.000000\]|pods "small" is forbidden: minimum cpu usage per Container is 100m, but request is 50m/,
    );
    assert.match(
      await refused(['apply', '-n', 'lr2', '-f', '-'], pod('big', [{ name: 'c', requests: { cpu: '200m' }, limits: { cpu: '2', memory: '64Mi' } }])),
      /pods "big" is forbidden: \[maximum cpu usage per Container is 1, but limit is 2, cpu max limit to request ratio per Container is 4, but provided ratio is 10\.000000\]/,
    );
    assert.match(
      await refused(['apply', '-n', 'lr2', '-f', '-'], pod('nolimit', [{ name: 'c', requests: { cpu: '200m' } }])),
      // The Container item's max became its default limit (SetDefaults_LimitRangeItem): cpu 1 over a 200m request.
      /pods "nolimit" is forbidden: cpu max limit to request ratio per Container is 4, but provided ratio is 5\.000000\n/,
    );
    const two = [
      { name: 'a', requests: { cpu: '200m' }, limits: { cpu: '400m', memory: '400Mi' } },
      { name: 'b', requests: { cpu: '200m' }, limits: { cpu: '400m', memory: '400Mi' } },
    ];
    assert.match(await refused(['apply', '-n', 'lr2', '-f', '-'], pod('pair', two)), /pods "pair" is forbidden: maximum memory usage per Pod is 768Mi, but limit is 800Mi\n/);
    await ok(['apply', '-n', 'lr2', '-f', '-'], pod('fits', [{ name: 'c', requests: { cpu: '200m', memory: '128Mi' }, limits: { cpu: '400m', memory: '256Mi' } }]));
  });

  test('a claim below the PersistentVolumeClaim minimum is refused', async () => {
    await ok(['create', 'namespace', 'lr3']);
    await ok(['apply', '-n', 'lr3', '-f', '-'], limitRange('storage', [{ type: 'PersistentVolumeClaim', min: { storage: '1Gi' }, max: { storage: '10Gi' } }]));
    const claim = (name: string, storage: string) =>
      JSON.stringify({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage } } } });
    assert.match(await refused(['apply', '-n', 'lr3', '-f', '-'], claim('tiny', '500Mi')), /persistentvolumeclaims "tiny" is forbidden: minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 500Mi/);
    await ok(['apply', '-n', 'lr3', '-f', '-'], claim('fine', '2Gi'));
  });

  test('bad LimitRanges are 422 with the field named', async () => {
    const answer = await refused(['apply', '-f', '-'], limitRange('upside-down', [{ type: 'Container', default: { cpu: '2' }, max: { cpu: '1' } }]));
    assert.match(answer, /spec\.limits\[0\]\.default\[cpu\]: Invalid value: "2": default value 2 is greater than max value 1/);
    assert.match(await refused(['apply', '-f', '-'], limitRange('odd', [{ type: 'Node' }])), /spec\.limits\[0\]\.type: Unsupported value: "Node"/);
  });
});
