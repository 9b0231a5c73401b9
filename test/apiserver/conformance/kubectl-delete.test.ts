// Conformance K14, K21, K22 (research/apiserver.md §8): finalizers and deletionTimestamp, garbage collection in
// its three propagation policies, and namespace deletion through the Terminating phase.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { stringify } from 'yaml';
import type { KubeObject } from '../../../src/apimachinery/object.ts';
import type { StoreEvent } from '../../../src/apiserver/storage/sqlite-store.ts';
import type { TestServer } from '../../helpers/api-server.ts';
import { eventually } from '../../helpers/api-server.ts';
import { kubectlFor } from '../../helpers/kubectl.ts';
import { byPath, createNamespace, createWidget, getWidget, mergePatch, query, sleep, startConformanceServer, status, widget, widgetsPath } from './support.ts';

function configMapOwnedBy(name: string, owner: KubeObject, finalizers?: string[]): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name,
      ...(finalizers ? { finalizers } : {}),
      ownerReferences: [{ apiVersion: 'example.com/v1', kind: 'Widget', name: owner.metadata.name!, uid: owner.metadata.uid!, controller: true, blockOwnerDeletion: true }],
    },
    data: { owned: 'yes' },
  };
}

async function createConfigMap(server: TestServer, ns: string, object: KubeObject): Promise<KubeObject> {
  return server.json<KubeObject>(`/api/v1/namespaces/${ns}/configmaps`, { method: 'POST', body: JSON.stringify(object), headers: { 'content-type': 'application/json' }, expect: 201 });
}

let typedCreateResult: { code: number; stderr: string } | undefined;

describe('kubectl delete, finalizers, garbage collection, namespaces', () => {
  let server: TestServer;
  before(async () => {
    server = await startConformanceServer();
    for (const ns of ['k14', 'k21']) await createNamespace(server, ns);
  });
  after(async () => {
    await server.close();
  });

  test('K14: a finalizer holds deletion; no new finalizers while deleting (Invalid); removal completes it', async () => {
    await createWidget(server, widget('w14', { size: 1 }), 'k14');
    const kubectl = kubectlFor(server.kubeconfigFile);
    const add = await kubectl(['patch', 'widget', 'w14', '-n', 'k14', '--type=merge', '-p', '{"metadata":{"finalizers":["example.com/hold"]}}']);
    assert.equal(add.code, 0, add.stderr);
    const before = await getWidget(server, 'w14', 'k14');
    assert.equal(before.metadata.generation, 1);

    let mark = server.mark();
    const del = await kubectl(['delete', 'widget', 'w14', '-n', 'k14', '--wait=false']);
    assert.equal(del.code, 0, del.stderr);
    assert.equal(del.stdout.trim(), 'widget.example.com "w14" deleted');
    assert.equal(server.since(mark).find((e) => e.method === 'DELETE')?.status, 200);
    const deleting = await getWidget(server, 'w14', 'k14');
    assert.match(deleting.metadata.deletionTimestamp ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.equal(deleting.metadata.deletionGracePeriodSeconds, 0);
    assert.equal(deleting.metadata.generation, 2);
    assert.deepEqual(deleting.metadata.finalizers, ['example.com/hold']);

    mark = server.mark();
    const more = await kubectl(['patch', 'widget', 'w14', '-n', 'k14', '--type=merge', '-p', '{"metadata":{"finalizers":["example.com/hold","example.com/new"]}}']);
    assert.equal(more.code, 1);
    assert.match(more.stderr, /The Widget "w14" is invalid: metadata\.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers \[\]string\{"example\.com\/new"\}/);
    assert.equal(server.since(mark).find((e) => e.method === 'PATCH')?.status, 422);
    const invalid = await server.api(`${widgetsPath('k14')}/w14`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/merge-patch+json' },
      body: JSON.stringify({ metadata: { finalizers: ['example.com/hold', 'example.com/new'] } }),
    });
    const body = (await invalid.json()) as { reason: string; details: { causes: { reason: string; field: string }[] } };
    assert.equal(body.reason, 'Invalid');
    assert.deepEqual(body.details.causes.map((c) => [c.reason, c.field]), [['FieldValueForbidden', 'metadata.finalizers']]);
    assert.deepEqual((await getWidget(server, 'w14', 'k14')).metadata.finalizers, ['example.com/hold']);

    const remove = await kubectl(['patch', 'widget', 'w14', '-n', 'k14', '--type=json', '-p', '[{"op":"remove","path":"/metadata/finalizers"}]']);
    assert.equal(remove.code, 0, remove.stderr);
    const gone = await kubectl(['get', 'widget', 'w14', '-n', 'k14']);
    assert.equal(gone.code, 1);
    assert.equal(gone.stderr.trim(), 'Error from server (NotFound): widgets.example.com "w14" not found');
    assert.equal(await status(server, `${widgetsPath('k14')}/w14`), 404);

    // kubectl delete (wait=true) blocks until the finalizer is removed.
    await createWidget(server, widget('w14b', { size: 1 }, { finalizers: ['example.com/hold'] }), 'k14');
    mark = server.mark();
    const start = Date.now();
    let finished = false;
    const blocking = kubectl(['delete', 'widget', 'w14b', '-n', 'k14']).finally(() => (finished = true));
    await sleep(1500);
    assert.equal(finished, false, 'kubectl delete returned while a finalizer was pending');
    assert.ok((await getWidget(server, 'w14b', 'k14')).metadata.deletionTimestamp);
    await mergePatch(server, `${widgetsPath('k14')}/w14b`, { metadata: { finalizers: null } });
    const r = await blocking;
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), 'widget.example.com "w14b" deleted');
    assert.ok(Date.now() - start >= 1500);
    assert.equal(await status(server, `${widgetsPath('k14')}/w14b`), 404);
    const watched = byPath(server.since(mark), widgetsPath('k14')).find((e) => query(e).get('watch') === 'true');
    assert.ok(watched, 'kubectl delete did not watch for the deletion');
    assert.equal(query(watched).get('fieldSelector'), 'metadata.name=w14b');
  });

  test('K21: --cascade=foreground deletes the blocking dependent first, then the owner', async () => {
    const owner = await createWidget(server, widget('w21f', { size: 1 }), 'k21');
    // The dependent carries its own finalizer so the intermediate state can be observed.
    await createConfigMap(server, 'k21', configMapOwnedBy('c21f', owner, ['example.com/hold']));
    const deletions: string[] = [];
    const unsubscribe = server.store.subscribe((e: StoreEvent) => {
      if (e.type === 'DELETED' && e.namespace === 'k21') deletions.push(`${e.resource}/${e.current.object.metadata.name ?? ''}`);
    });
    try {
      const kubectl = kubectlFor(server.kubeconfigFile);
      const r = await kubectl(['delete', 'widget', 'w21f', '-n', 'k21', '--cascade=foreground', '--wait=false']);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout.trim(), 'widget.example.com "w21f" deleted');
      const deleting = await eventually(async () => {
        const cm = await server.json<KubeObject>('/api/v1/namespaces/k21/configmaps/c21f');
        return cm.metadata.deletionTimestamp ? cm : undefined;
      }, 3000, 'the dependent to be deleted');
      assert.ok(deleting);
      const ownerNow = await getWidget(server, 'w21f', 'k21');
      assert.ok(ownerNow.metadata.deletionTimestamp, 'owner not deleting');
      assert.deepEqual(ownerNow.metadata.finalizers, ['foregroundDeletion']);
      await mergePatch(server, '/api/v1/namespaces/k21/configmaps/c21f', { metadata: { finalizers: null } });
      await eventually(async () => (await status(server, `${widgetsPath('k21')}/w21f`)) === 404, 3000, 'the owner to go');
      assert.deepEqual(deletions, ['/configmaps/c21f', 'example.com/widgets/w21f']);
    } finally {
      unsubscribe();
    }
  });

  test('K21: --cascade=orphan keeps the dependent without its ownerReference; background deletes both', async () => {
    const orphanOwner = await createWidget(server, widget('w21o', { size: 1 }), 'k21');
    await createConfigMap(server, 'k21', configMapOwnedBy('c21o', orphanOwner));
    const kubectl = kubectlFor(server.kubeconfigFile);
    const orphan = await kubectl(['delete', 'widget', 'w21o', '-n', 'k21', '--cascade=orphan']);
    assert.equal(orphan.code, 0, orphan.stderr);
    assert.equal(orphan.stdout.trim(), 'widget.example.com "w21o" deleted');
    assert.equal(await status(server, `${widgetsPath('k21')}/w21o`), 404);
    await sleep(300);
    const survivor = await server.json<KubeObject>('/api/v1/namespaces/k21/configmaps/c21o');
    assert.equal(survivor.metadata.ownerReferences, undefined);
    assert.equal(survivor.metadata.deletionTimestamp, undefined);

    const bgOwner = await createWidget(server, widget('w21b', { size: 1 }), 'k21');
    await createConfigMap(server, 'k21', configMapOwnedBy('c21b', bgOwner));
    const background = await kubectl(['delete', 'widget', 'w21b', '-n', 'k21']);
    assert.equal(background.code, 0, background.stderr);
    assert.equal(await status(server, `${widgetsPath('k21')}/w21b`), 404);
    await eventually(async () => (await status(server, '/api/v1/namespaces/k21/configmaps/c21b')) === 404, 3000, 'the dependent to be collected');
  });

  test('K22: kubectl delete ns: Terminating, 403 on create, then all content and the namespace gone', async () => {
    await createNamespace(server, 'k22');
    await createWidget(server, widget('held', { size: 1 }, { finalizers: ['example.com/hold'] }), 'k22');
    await createWidget(server, widget('plain', { size: 2 }), 'k22');
    await createConfigMap(server, 'k22', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, data: { a: 'b' } });
    const kubectl = kubectlFor(server.kubeconfigFile);
    const r = await kubectl(['delete', 'ns', 'k22', '--wait=false']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), 'namespace "k22" deleted');
    const ns = await server.json<KubeObject>('/api/v1/namespaces/k22');
    assert.equal((ns['status'] as { phase: string }).phase, 'Terminating');
    assert.ok(ns.metadata.deletionTimestamp);
    const phase = await kubectl(['get', 'ns', 'k22', '-o', 'jsonpath={.status.phase}']);
    assert.equal(phase.stdout, 'Terminating');
    await eventually(async () => (await status(server, `${widgetsPath('k22')}/plain`)) === 404, 3000, 'content to be deleted');
    assert.equal(await status(server, '/api/v1/namespaces/k22/configmaps/cm'), 404);

    const mark = server.mark();
    const create = await kubectl(['create', '-n', 'k22', '-f', '-'], stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'late' }, data: { a: 'b' } }));
    assert.equal(create.code, 1);
    assert.equal(
      create.stderr.trim(),
      'Error from server (Forbidden): error when creating "STDIN": configmaps "late" is forbidden: unable to create new content in namespace k22 because it is being terminated',
    );
    assert.equal(server.since(mark).find((e) => e.method === 'POST')?.status, 403);
    assert.equal(await status(server, '/api/v1/namespaces/k22/configmaps/late'), 404);

    const typed = await kubectl(['create', 'configmap', 'late2', '-n', 'k22', '--from-literal=a=b']);
    typedCreateResult = typed;

    await mergePatch(server, `${widgetsPath('k22')}/held`, { metadata: { finalizers: null } });
    await eventually(async () => (await status(server, '/api/v1/namespaces/k22')) === 404, 5000, 'the namespace to go');
    assert.equal(await status(server, `${widgetsPath('k22')}/held`), 404);
    const get = await kubectl(['get', 'ns', 'k22']);
    assert.equal(get.code, 1);
    assert.equal(get.stderr.trim(), 'Error from server (NotFound): namespaces "k22" not found');
  });

  test(
    'K22: typed `kubectl create configmap` (a protobuf body) in a terminating namespace → 403 Forbidden',
    () => {
      assert.ok(typedCreateResult, 'runs after the K22 test above');
      assert.equal(typedCreateResult.code, 1);
      assert.equal(
        typedCreateResult.stderr.trim(),
        'error: failed to create configmap: configmaps "late2" is forbidden: unable to create new content in namespace k22 because it is being terminated',
      );
    },
  );
});
