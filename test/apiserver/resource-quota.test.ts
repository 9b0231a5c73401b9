// v1 ResourceQuotas with kube-apiserver's ResourceQuota admission, driven with real kubectl: creates past a hard
// limit are Forbidden with kube's "exceeded quota" message, pods lacking a tracked request are refused, status
// used/hard is kept current (kubectl describe quota), deletes free usage, and concurrent creates cannot
// overshoot because the check and the write are one synchronous step.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/api-server.ts';
import { kubectlFor, type Kubectl } from '../helpers/kubectl.ts';

const json = { 'content-type': 'application/json' };

function pod(name: string, cpu?: string): Record<string, unknown> {
  const resources = cpu ? { requests: { cpu, memory: '64Mi' } } : {};
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'busybox', resources }] } };
}

describe('ResourceQuota admission', () => {
  let server: TestServer;
  let kubectl: Kubectl;
  const ok = async (args: string[], input?: string): Promise<string> => {
    const result = await kubectl(args, input);
    assert.equal(result.code, 0, result.stderr);
    return result.stdout;
  };
  before(async () => {
    server = await startTestServer();
    kubectl = kubectlFor(server.kubeconfigFile);
  });
  after(async () => {
    await server.close();
  });

  test('a pod past requests.cpu is Forbidden with kube message; describe shows used/hard; deletes free usage', async () => {
    await ok(['create', 'namespace', 'q1']);
    // Every namespace holds the kube-root-ca.crt ConfigMap, which counts, as on a real cluster.
    await ok(['wait', '--for=create', 'configmap/kube-root-ca.crt', '-n', 'q1', '--timeout=30s']);
    await ok(['create', 'quota', 'compute', '-n', 'q1', '--hard=pods=3,requests.cpu=1,configmaps=2']);
    await ok(['apply', '-n', 'q1', '-f', '-'], JSON.stringify(pod('a', '500m')));
    await ok(['apply', '-n', 'q1', '-f', '-'], JSON.stringify(pod('b', '400m')));
    const refused = await kubectl(['apply', '-n', 'q1', '-f', '-'], JSON.stringify(pod('c', '200m')));
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /pods "c" is forbidden: exceeded quota: compute, requested: requests.cpu=200m, used: requests.cpu=900m, limited: requests.cpu=1/);
    const missing = await kubectl(['apply', '-n', 'q1', '-f', '-'], JSON.stringify(pod('d')));
    assert.match(missing.stderr, /pods "d" is forbidden: failed quota: compute: must specify requests.cpu for: c/);
    const describe = await ok(['describe', 'quota', 'compute', '-n', 'q1']);
    assert.match(describe, /configmaps\s+1\s+2\n/);
    assert.match(describe, /pods\s+2\s+3\n/);
    assert.match(describe, /requests.cpu\s+900m\s+1\n/);
    assert.match(await ok(['get', 'quota', '-n', 'q1', '--no-headers']), /^compute\s+\S+\s+configmaps: 1\/2, pods: 2\/3, requests.cpu: 900m\/1\s*\n$/);
    await ok(['delete', 'pod', 'a', '-n', 'q1', '--grace-period=0', '--force']);
    await ok(['apply', '-n', 'q1', '-f', '-'], JSON.stringify(pod('c', '200m')));
    assert.match(await ok(['describe', 'quota', 'compute', '-n', 'q1']), /requests.cpu\s+600m\s+1\n/);
  });

  test('concurrent creates cannot overshoot a count quota', async () => {
    await ok(['create', 'namespace', 'q2']);
    await ok(['wait', '--for=create', 'configmap/kube-root-ca.crt', '-n', 'q2', '--timeout=30s']);
    await ok(['create', 'quota', 'few', '-n', 'q2', '--hard=count/configmaps=4']);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        server.api('/api/v1/namespaces/q2/configmaps', { method: 'POST', headers: json, body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm${i}` } }) }),
      ),
    );
    assert.deepEqual(answers.map((a) => a.status).sort(), [201, 201, 201, 403, 403, 403, 403, 403, 403, 403]);
    const refused = (await answers.find((a) => a.status === 403)!.json()) as { message: string };
    assert.match(refused.message, /exceeded quota: few, requested: count\/configmaps=1, used: count\/configmaps=4, limited: count\/configmaps=4/);
    assert.match(await ok(['describe', 'quota', 'few', '-n', 'q2']), /count\/configmaps\s+4\s+4\n/);
  });

  test('an invalid hard quantity is refused', async () => {
    const bad = await kubectl(['create', 'quota', 'bad', '--hard=pods=lots']);
    assert.notEqual(bad.code, 0);
  });
});
