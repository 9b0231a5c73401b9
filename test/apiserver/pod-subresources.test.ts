// pods/binding and pods/eviction as kube-apiserver serves them: what a scheduler binds pods with and what
// `kubectl drain` evicts them with. Discovery lists both with the group and version of their own kind.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { KubeObject } from '../../src/apimachinery/object.ts';
import { startTestServer, type TestServer } from '../helpers/api-server.ts';
import { kubectlFor } from '../helpers/kubectl.ts';

const json = { 'content-type': 'application/json' };

function pod(name: string, extra: Partial<KubeObject> = {}): KubeObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, ...extra.metadata }, spec: { containers: [{ name: 'c', image: 'busybox' }] } };
}

async function createPod(server: TestServer, object: KubeObject): Promise<KubeObject> {
  return server.json<KubeObject>('/api/v1/namespaces/default/pods', { method: 'POST', headers: json, body: JSON.stringify(object), expect: 201 });
}

async function post(server: TestServer, path: string, body: unknown): Promise<{ status: number; body: Record<string, any> }> {
  const res = await server.api(path, { method: 'POST', headers: json, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

function binding(name: string, node: string, extra: Record<string, unknown> = {}): KubeObject {
  return { apiVersion: 'v1', kind: 'Binding', metadata: { name, ...extra }, target: { apiVersion: 'v1', kind: 'Node', name: node } };
}

describe('pods/binding and pods/eviction', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  test('discovery lists pods/binding (v1 Binding) and pods/eviction (policy/v1 Eviction), legacy and aggregated', async () => {
    const legacy = await server.json<{ resources: Record<string, unknown>[] }>('/api/v1');
    assert.deepEqual(
      legacy.resources.find((r) => r['name'] === 'pods/binding'),
      { name: 'pods/binding', singularName: '', namespaced: true, group: '', version: 'v1', kind: 'Binding', verbs: ['create'] },
    );
    assert.deepEqual(
      legacy.resources.find((r) => r['name'] === 'pods/eviction'),
      { name: 'pods/eviction', singularName: '', namespaced: true, group: 'policy', version: 'v1', kind: 'Eviction', verbs: ['create'] },
    );
    const aggregated = await server.json<{ items: { versions: { resources: { resource: string; subresources?: unknown[] }[] }[] }[] }>('/api', {
      headers: { accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' },
    });
    const pods = aggregated.items[0]!.versions[0]!.resources.find((r) => r.resource === 'pods');
    assert.deepEqual(pods?.subresources, [
      { subresource: 'status', responseKind: { group: '', version: 'v1', kind: 'Pod' }, verbs: ['get', 'patch', 'update'] },
      { subresource: 'attach', responseKind: { group: '', version: 'v1', kind: 'PodAttachOptions' }, verbs: ['create', 'get'] },
      { subresource: 'binding', responseKind: { group: '', version: 'v1', kind: 'Binding' }, verbs: ['create'] },
      { subresource: 'eviction', responseKind: { group: 'policy', version: 'v1', kind: 'Eviction' }, verbs: ['create'] },
      { subresource: 'exec', responseKind: { group: '', version: 'v1', kind: 'PodExecOptions' }, verbs: ['create', 'get'] },
      { subresource: 'log', responseKind: { group: '', version: 'v1', kind: 'Pod' }, verbs: ['get'] },
      { subresource: 'portforward', responseKind: { group: '', version: 'v1', kind: 'PodPortForwardOptions' }, verbs: ['create', 'get'] },
    ]);
  });

  test('a binding sets spec.nodeName, merges annotations, marks PodScheduled True and answers 201 Success', async () => {
    await createPod(server, pod('b1'));
    const answer = await post(server, '/api/v1/namespaces/default/pods/b1/binding', binding('b1', 'node-a', { annotations: { 'bound-by': 'test' } }));
    assert.equal(answer.status, 201);
    assert.deepEqual(answer.body, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
    const bound = await server.json<KubeObject & { spec: { nodeName: string }; status: { conditions: Record<string, unknown>[] } }>('/api/v1/namespaces/default/pods/b1');
    assert.equal(bound.spec.nodeName, 'node-a');
    assert.equal(bound.metadata.annotations?.['bound-by'], 'test');
    const scheduled = bound.status.conditions.find((c) => c['type'] === 'PodScheduled');
    assert.equal(scheduled?.['status'], 'True');
    assert.match(String(scheduled?.['lastTransitionTime']), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  test('a second binding is a Conflict on pods/binding with kube-apiserver message', async () => {
    await createPod(server, pod('b2'));
    assert.equal((await post(server, '/api/v1/namespaces/default/pods/b2/binding', binding('b2', 'node-a'))).status, 201);
    const again = await post(server, '/api/v1/namespaces/default/pods/b2/binding', binding('b2', 'node-b'));
    assert.equal(again.status, 409);
    assert.equal(again.body['reason'], 'Conflict');
    assert.equal(again.body['message'], 'Operation cannot be fulfilled on pods/binding "b2": pod b2 is already assigned to node "node-a"');
  });

  test('binding preconditions, a name mismatch, a missing target and an unknown pod are refused', async () => {
    const created = await createPod(server, pod('b3'));
    const stale = await post(server, '/api/v1/namespaces/default/pods/b3/binding', binding('b3', 'node-a', { uid: 'not-the-uid' }));
    assert.equal(stale.status, 409);
    assert.match(String(stale.body['message']), /Precondition failed: UID in precondition: not-the-uid, UID in object meta: /);
    const mismatch = await post(server, '/api/v1/namespaces/default/pods/b3/binding', binding('other', 'node-a'));
    assert.equal(mismatch.status, 400);
    assert.equal(mismatch.body['message'], 'name in URL does not match name in Binding object');
    const noTarget = await post(server, '/api/v1/namespaces/default/pods/b3/binding', { kind: 'Binding', metadata: { name: 'b3' }, target: { kind: 'Pod' } });
    assert.equal(noTarget.status, 422);
    assert.deepEqual(
      (noTarget.body['details'] as { causes: { field: string }[] }).causes.map((c) => c.field),
      ['target.kind', 'target.name'],
    );
    const missing = await post(server, '/api/v1/namespaces/default/pods/nope/binding', binding('nope', 'node-a'));
    assert.equal(missing.status, 404);
    const get = await server.api('/api/v1/namespaces/default/pods/b3/binding');
    await get.arrayBuffer();
    assert.equal(get.status, 405);
    const unchanged = await server.json<KubeObject>('/api/v1/namespaces/default/pods/b3');
    assert.equal(unchanged.metadata.resourceVersion, created.metadata.resourceVersion);
  });

  test('a pod being deleted cannot be bound', async () => {
    await createPod(server, pod('b4', { metadata: { finalizers: ['example.com/hold'] } }));
    await server.json('/api/v1/namespaces/default/pods/b4', { method: 'DELETE' });
    const answer = await post(server, '/api/v1/namespaces/default/pods/b4/binding', binding('b4', 'node-a'));
    assert.equal(answer.status, 409);
    assert.equal(answer.body['message'], 'Operation cannot be fulfilled on pods/binding "b4": pod b4 is being deleted, cannot be assigned to a host');
  });

  test('an eviction deletes the pod with its deleteOptions and answers 201 Success; a mismatched name is refused', async () => {
    const victim = await createPod(server, pod('e1'));
    const wrongUid = await post(server, '/api/v1/namespaces/default/pods/e1/eviction', {
      apiVersion: 'policy/v1',
      kind: 'Eviction',
      metadata: { name: 'e1', namespace: 'default' },
      deleteOptions: { preconditions: { uid: 'someone-else' } },
    });
    assert.equal(wrongUid.status, 409);
    const mismatch = await post(server, '/api/v1/namespaces/default/pods/e1/eviction', { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'x' } });
    assert.equal(mismatch.status, 400);
    assert.equal(mismatch.body['message'], 'name in URL does not match name in Eviction object');
    const evicted = await post(server, '/api/v1/namespaces/default/pods/e1/eviction', {
      apiVersion: 'policy/v1',
      kind: 'Eviction',
      metadata: { name: 'e1', namespace: 'default' },
      deleteOptions: { preconditions: { uid: victim.metadata.uid } },
    });
    assert.equal(evicted.status, 201);
    assert.deepEqual(evicted.body, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
    const gone = await server.api('/api/v1/namespaces/default/pods/e1');
    await gone.arrayBuffer();
    assert.equal(gone.status, 404);
    const missing = await post(server, '/api/v1/namespaces/default/pods/e1/eviction', { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'e1' } });
    assert.equal(missing.status, 404);
  });

  test('kubectl drain cordons the node and evicts its pods through the eviction API', async () => {
    await server.json('/api/v1/nodes', { method: 'POST', headers: json, body: JSON.stringify({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'drained' } }), expect: 201 });
    await createPod(server, pod('d1'));
    assert.equal((await post(server, '/api/v1/namespaces/default/pods/d1/binding', binding('d1', 'drained'))).status, 201);
    const mark = server.mark();
    const kubectl = kubectlFor(server.kubeconfigFile);
    // No kubelet runs here to finish a graceful deletion: evict with grace 0.
    const drain = await kubectl(['drain', 'drained', '--force', '--grace-period=0', '--timeout=20s']);
    assert.equal(drain.code, 0, drain.stderr);
    assert.match(drain.stdout, /node\/drained cordoned/);
    assert.match(drain.stdout, /pod\/d1 evicted/);
    assert.ok(server.since(mark).some((e) => e.method === 'POST' && e.url.startsWith('/api/v1/namespaces/default/pods/d1/eviction') && e.status === 201));
    const node = await server.json<{ spec: { unschedulable?: boolean } }>('/api/v1/nodes/drained');
    assert.equal(node.spec.unschedulable, true);
  });
});
