// Issue 27, finding 6: built-in fields are typed as kube-apiserver's Go structs type them. `replicas: 1e15` on a
// Deployment was stored (and the controllers made ~28,000 pods); ConfigMap values of any JSON type were stored.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/api-server.ts';

let server: TestServer;

before(async () => {
  server = await startTestServer();
});
after(async () => {
  await server.close();
});

const json = { 'content-type': 'application/json' };
const deployments = '/apis/apps/v1/namespaces/default/deployments';
const cms = '/api/v1/namespaces/default/configmaps';

function deployment(name: string, spec: Record<string, unknown> = {}): string {
  const labels = { app: name };
  return JSON.stringify({
    metadata: { name },
    spec: { replicas: 1, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'busybox' }] } }, ...spec },
  });
}

async function badRequest(res: Response): Promise<string> {
  const body = (await res.json()) as { kind: string; code: number; reason: string; message: string };
  assert.equal(res.status, 400, JSON.stringify(body));
  assert.equal(body.reason, 'BadRequest');
  return body.message;
}

test('replicas beyond int32 is a 400 in the decoder words, on create, update and patch', async () => {
  const created = await badRequest(await server.api(deployments, { method: 'POST', headers: json, body: deployment('huge', { replicas: 1e15 }) }));
  assert.equal(created, 'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal number 1000000000000000 into Go struct field DeploymentSpec.spec.replicas of type int32');
  assert.equal((await server.api(`${deployments}/huge`)).status, 404);

  await server.json(deployments, { method: 'POST', headers: json, body: deployment('web'), expect: 201 });
  const patched = await badRequest(
    await server.api(`${deployments}/web`, { method: 'PATCH', headers: { 'content-type': 'application/merge-patch+json' }, body: JSON.stringify({ spec: { replicas: 2 ** 31 } }) }),
  );
  assert.match(patched, /cannot unmarshal number 2147483648 into Go struct field DeploymentSpec\.spec\.replicas of type int32$/);
  const fractional = await badRequest(
    await server.api(`${deployments}/web`, { method: 'PATCH', headers: { 'content-type': 'application/json-patch+json' }, body: JSON.stringify([{ op: 'replace', path: '/spec/replicas', value: 1.5 }]) }),
  );
  assert.match(fractional, /cannot unmarshal number 1\.5 into Go struct field DeploymentSpec\.spec\.replicas of type int32$/);
  const scaled = await badRequest(await server.api(`${deployments}/web/scale`, { method: 'PATCH', headers: { 'content-type': 'application/merge-patch+json' }, body: JSON.stringify({ spec: { replicas: 1e15 } }) }));
  assert.match(scaled, /cannot unmarshal number 1000000000000000 into Go struct field \w+Spec\.spec\.replicas of type int32$/);
  const stored = await server.json<{ spec: { replicas: number } }>(`${deployments}/web`);
  assert.equal(stored.spec.replicas, 1);
});

test('a number where a string goes is a 400 naming the Go field', async () => {
  const image = await badRequest(
    await server.api(deployments, {
      method: 'POST',
      headers: json,
      body: deployment('num-image', { template: { metadata: { labels: { app: 'num-image' } }, spec: { containers: [{ name: 'c', image: 5 }] } } }),
    }),
  );
  assert.match(image, /cannot unmarshal number into Go struct field Container\.spec\.template\.spec\.containers\.image of type string$/);
});

test('ConfigMap data, labels and annotations are string maps', async () => {
  const data = await badRequest(await server.api(cms, { method: 'POST', headers: json, body: JSON.stringify({ metadata: { name: 'obj' }, data: { a: { b: 1 } } }) }));
  assert.equal(data, 'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal object into Go struct field ConfigMap.data of type string');
  const label = await badRequest(await server.api(cms, { method: 'POST', headers: json, body: JSON.stringify({ metadata: { name: 'lbl', labels: { a: 1 } } }) }));
  assert.match(label, /cannot unmarshal number into Go struct field ObjectMeta\.metadata\.labels of type string$/);
  const annotation = await badRequest(await server.api(cms, { method: 'POST', headers: json, body: JSON.stringify({ metadata: { name: 'ann', annotations: { a: true } } }) }));
  assert.match(annotation, /cannot unmarshal bool into Go struct field ObjectMeta\.metadata\.annotations of type string$/);
  // Only the root CA ConfigMaps the server keeps in every namespace.
  assert.deepEqual(new Set(server.store.list('/configmaps').map((c) => c.object.metadata.name)), new Set(['kube-root-ca.crt']));
});

test('what Go unmarshals beyond the OpenAPI type is accepted: quantities as numbers, int-or-string ports, nulls', async () => {
  const pod = {
    metadata: { name: 'p', labels: null },
    spec: {
      containers: [{ name: 'c', image: 'busybox', resources: { limits: { cpu: 1, memory: '64Mi' } }, livenessProbe: { httpGet: { port: 8080 } }, readinessProbe: { tcpSocket: { port: 'http' } } }],
    },
  };
  await server.json('/api/v1/namespaces/default/pods', { method: 'POST', headers: json, body: JSON.stringify(pod), expect: 201 });
});
