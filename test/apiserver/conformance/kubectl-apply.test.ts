// Conformance K4–K8, K16, K17, K25 (research/apiserver.md §8): client-side apply (merge patch for CRs,
// strategic merge for built-ins), server-side apply with managedFields, conflicts and force, kubectl patch in
// its three types, AlreadyExists, stale replace, the status subresource. Output, stored state, request log.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { stringify } from 'yaml';
import type { KubeObject, ManagedFieldsEntry } from '../../../src/apimachinery/object.ts';
import type { TestServer } from '../../helpers/api-server.ts';
import { kubectlFor } from '../../helpers/kubectl.ts';
import { byPath, createNamespace, createWidget, fixturePath, fromKubectl, getWidget, mergePatch, query, startConformanceServer, widget, widgetsPath } from './support.ts';

const spec = (o: KubeObject) => o['spec'] as Record<string, unknown>;

function owned(entry: ManagedFieldsEntry | undefined): string {
  return JSON.stringify(entry?.fieldsV1 ?? {});
}

describe('kubectl apply and patch', () => {
  let server: TestServer;
  before(async () => {
    server = await startConformanceServer();
    for (const ns of ['k4', 'k5', 'k6', 'k7', 'k8', 'k16', 'k17', 'k25']) await createNamespace(server, ns);
  });
  after(async () => {
    await server.close();
  });

  test('K4: client-side apply: created (POST, Strict, last-applied), unchanged (no PATCH), configured (merge patch, generation +1)', async () => {
    const kubectl = kubectlFor(server.kubeconfigFile);
    let mark = server.mark();
    const created = await kubectl(['apply', '-n', 'k4', '-f', fixturePath('widget-w1.yaml')]);
    assert.equal(created.code, 0, created.stderr);
    assert.equal(created.stdout.trim(), 'widget.example.com/w1 created');
    const post = server.since(mark).find((e) => e.method === 'POST');
    assert.ok(post, 'no POST');
    assert.equal(post.url.split('?')[0], widgetsPath('k4'));
    assert.equal(query(post).get('fieldManager'), 'kubectl-client-side-apply');
    assert.equal(query(post).get('fieldValidation'), 'Strict');
    assert.equal(post.status, 201);
    let stored = await getWidget(server, 'w1', 'k4');
    const lastApplied = JSON.parse(stored.metadata.annotations?.['kubectl.kubernetes.io/last-applied-configuration'] ?? '{}') as KubeObject;
    assert.deepEqual(spec(lastApplied), { size: 1, color: 'red' });
    assert.equal(stored.metadata.generation, 1);
    const rv = stored.metadata.resourceVersion;

    mark = server.mark();
    const again = await kubectl(['apply', '-n', 'k4', '-f', fixturePath('widget-w1.yaml')]);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.stdout.trim(), 'widget.example.com/w1 unchanged');
    assert.deepEqual(server.since(mark).filter((e) => e.method !== 'GET'), [], 'a write was sent for an unchanged apply');
    assert.equal((await getWidget(server, 'w1', 'k4')).metadata.resourceVersion, rv);

    const changed = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1', labels: { app: 'demo' } }, spec: { size: 2, color: 'red' } };
    mark = server.mark();
    const configured = await kubectl(['apply', '-n', 'k4', '-f', '-'], stringify(changed));
    assert.equal(configured.code, 0, configured.stderr);
    assert.equal(configured.stdout.trim(), 'widget.example.com/w1 configured');
    const patch = server.since(mark).find((e) => e.method === 'PATCH');
    assert.equal(patch?.contentType, 'application/merge-patch+json');
    assert.equal(patch?.status, 200);
    assert.equal(query(patch!).get('fieldManager'), 'kubectl-client-side-apply');
    stored = await getWidget(server, 'w1', 'k4');
    assert.equal(spec(stored)['size'], 2);
    assert.equal(stored.metadata.generation, 2);
  });

  test('K5: client-side apply of a ConfigMap sends a strategic merge patch; data updated; no generation', async () => {
    const kubectl = kubectlFor(server.kubeconfigFile);
    const first = await kubectl(['apply', '-n', 'k5', '-f', fixturePath('configmap.yaml')]);
    assert.equal(first.code, 0, first.stderr);
    assert.equal(first.stdout.trim(), 'configmap/c1 created');
    const mark = server.mark();
    const second = await kubectl(['apply', '-n', 'k5', '-f', fixturePath('configmap-changed.yaml')]);
    assert.equal(second.code, 0, second.stderr);
    assert.equal(second.stdout.trim(), 'configmap/c1 configured');
    const writes = server.since(mark).filter((e) => e.method !== 'GET');
    assert.equal(writes.length, 1, JSON.stringify(writes));
    assert.equal(writes[0]?.method, 'PATCH');
    assert.equal(writes[0]?.url.split('?')[0], '/api/v1/namespaces/k5/configmaps/c1');
    assert.equal(writes[0]?.contentType, 'application/strategic-merge-patch+json');
    assert.equal(writes[0]?.status, 200);
    const stored = await server.json<KubeObject>('/api/v1/namespaces/k5/configmaps/c1');
    assert.deepEqual(stored['data'], { color: 'green', shape: 'round' });
    assert.equal(stored.metadata.generation, undefined);
    const lastApplied = JSON.parse(stored.metadata.annotations?.['kubectl.kubernetes.io/last-applied-configuration'] ?? '{}') as KubeObject;
    assert.deepEqual(lastApplied['data'], { color: 'green', shape: 'round' });
  });

  test('K6: apply --server-side: apply-patch+yaml PATCH with fieldManager=kubectl, 201 then 200, managedFields', async () => {
    const kubectl = kubectlFor(server.kubeconfigFile);
    const doc = (size: number) => stringify({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w6' }, spec: { size } });
    let mark = server.mark();
    const created = await kubectl(['apply', '--server-side', '-n', 'k6', '-f', '-'], doc(1));
    assert.equal(created.code, 0, created.stderr);
    assert.equal(created.stdout.trim(), 'widget.example.com/w6 serverside-applied');
    let patches = fromKubectl(server.since(mark)).filter((e) => e.method !== 'GET');
    assert.equal(patches.length, 1, JSON.stringify(patches));
    const p = patches[0]!;
    assert.equal(p.method, 'PATCH');
    assert.equal(p.url.split('?')[0], `${widgetsPath('k6')}/w6`);
    assert.equal(p.contentType, 'application/apply-patch+yaml');
    assert.deepEqual(Object.fromEntries(query(p)), { fieldManager: 'kubectl', fieldValidation: 'Strict', force: 'false' });
    assert.equal(p.status, 201);
    let stored = await getWidget(server, 'w6', 'k6');
    assert.equal(spec(stored)['size'], 1);
    const entry = stored.metadata.managedFields?.[0];
    assert.equal(entry?.manager, 'kubectl');
    assert.equal(entry?.operation, 'Apply');
    assert.equal(entry?.apiVersion, 'example.com/v1');
    assert.equal(entry?.fieldsType, 'FieldsV1');
    assert.match(owned(entry), /"f:spec":\{"f:size":\{\}\}/);

    mark = server.mark();
    const updated = await kubectl(['apply', '--server-side', '-n', 'k6', '-f', '-'], doc(2));
    assert.equal(updated.code, 0, updated.stderr);
    assert.equal(updated.stdout.trim(), 'widget.example.com/w6 serverside-applied');
    patches = fromKubectl(server.since(mark)).filter((e) => e.method === 'PATCH');
    assert.equal(patches[0]?.status, 200);
    stored = await getWidget(server, 'w6', 'k6');
    assert.equal(spec(stored)['size'], 2);
    assert.equal(stored.metadata.generation, 2);
    assert.deepEqual(stored.metadata.managedFields?.map((m) => [m.manager, m.operation]), [['kubectl', 'Apply']]);
  });

  test('K7: SSA conflict between managers a and b is a 409 listing the field; --force-conflicts moves ownership', async () => {
    const kubectl = kubectlFor(server.kubeconfigFile);
    const doc = (size: number) => stringify({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w7' }, spec: { size } });
    const byA = await kubectl(['apply', '--server-side', '--field-manager=a', '-n', 'k7', '-f', '-'], doc(1));
    assert.equal(byA.code, 0, byA.stderr);
    let mark = server.mark();
    const byB = await kubectl(['apply', '--server-side', '--field-manager=b', '-n', 'k7', '-f', '-'], doc(2));
    assert.equal(byB.code, 1);
    assert.match(byB.stderr, /Apply failed with 1 conflict: conflict with "a": \.spec\.size/);
    const conflict = server.since(mark).find((e) => e.method === 'PATCH');
    assert.equal(conflict?.status, 409);
    assert.equal(query(conflict!).get('force'), 'false');
    let stored = await getWidget(server, 'w7', 'k7');
    assert.equal(spec(stored)['size'], 1);
    // The Status itself: reason Conflict with a FieldManagerConflict cause.
    const res = await server.api(`${widgetsPath('k7')}/w7?fieldManager=b`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/apply-patch+yaml' },
      body: doc(2),
    });
    const status = (await res.json()) as { reason: string; code: number; details?: { causes?: { reason: string; field: string; message: string }[] } };
    assert.equal(res.status, 409);
    assert.equal(status.reason, 'Conflict');
    assert.deepEqual(status.details?.causes?.map((c) => [c.reason, c.field]), [['FieldManagerConflict', '.spec.size']]);
    assert.match(status.details?.causes?.[0]?.message ?? '', /conflict with "a"/);

    mark = server.mark();
    const forced = await kubectl(['apply', '--server-side', '--field-manager=b', '--force-conflicts', '-n', 'k7', '-f', '-'], doc(2));
    assert.equal(forced.code, 0, forced.stderr);
    assert.equal(forced.stdout.trim(), 'widget.example.com/w7 serverside-applied');
    const forcedReq = server.since(mark).find((e) => e.method === 'PATCH');
    assert.equal(query(forcedReq!).get('force'), 'true');
    assert.equal(forcedReq?.status, 200);
    stored = await getWidget(server, 'w7', 'k7');
    assert.equal(spec(stored)['size'], 2);
    const a = stored.metadata.managedFields?.find((m) => m.manager === 'a');
    const b = stored.metadata.managedFields?.find((m) => m.manager === 'b');
    assert.match(owned(b), /"f:size"/);
    assert.doesNotMatch(owned(a), /"f:size"/, 'a still owns spec.size after a forced apply by b');
  });

  test('K8: kubectl patch on a CR: default strategic → 415; --type=merge and --type=json succeed', async () => {
    await createWidget(server, widget('w8', { size: 1 }), 'k8');
    const kubectl = kubectlFor(server.kubeconfigFile);
    let mark = server.mark();
    const smp = await kubectl(['patch', 'widget', 'w8', '-n', 'k8', '-p', '{"spec":{"size":2}}']);
    assert.equal(smp.code, 1);
    assert.match(smp.stderr, /application\/strategic-merge-patch\+json is not supported by example\.com\/v1, Kind=Widget/);
    assert.match(smp.stderr, /the body of the request was in an unknown format - accepted media types include: application\/json-patch\+json, application\/merge-patch\+json, application\/apply-patch\+yaml/);
    const refused = server.since(mark).find((e) => e.method === 'PATCH');
    assert.equal(refused?.contentType, 'application/strategic-merge-patch+json');
    assert.equal(refused?.status, 415);
    assert.equal(spec(await getWidget(server, 'w8', 'k8'))['size'], 1);

    mark = server.mark();
    const merge = await kubectl(['patch', 'widget', 'w8', '-n', 'k8', '--type=merge', '-p', '{"spec":{"size":2}}']);
    assert.equal(merge.code, 0, merge.stderr);
    assert.equal(merge.stdout.trim(), 'widget.example.com/w8 patched');
    assert.equal(server.since(mark).find((e) => e.method === 'PATCH')?.contentType, 'application/merge-patch+json');
    assert.equal(spec(await getWidget(server, 'w8', 'k8'))['size'], 2);

    mark = server.mark();
    const json = await kubectl(['patch', 'widget', 'w8', '-n', 'k8', '--type=json', '-p', '[{"op":"test","path":"/spec/size","value":2},{"op":"replace","path":"/spec/size","value":3}]']);
    assert.equal(json.code, 0, json.stderr);
    assert.equal(json.stdout.trim(), 'widget.example.com/w8 patched');
    assert.equal(server.since(mark).find((e) => e.method === 'PATCH')?.contentType, 'application/json-patch+json');
    const stored = await getWidget(server, 'w8', 'k8');
    assert.equal(spec(stored)['size'], 3);
    assert.equal(stored.metadata.generation, 3);

    // A failing `test` op is refused and changes nothing.
    const failed = await kubectl(['patch', 'widget', 'w8', '-n', 'k8', '--type=json', '-p', '[{"op":"test","path":"/spec/size","value":99},{"op":"replace","path":"/spec/size","value":4}]']);
    assert.equal(failed.code, 1);
    assert.match(failed.stderr, /testing value \/spec\/size failed/);
    assert.equal(spec(await getWidget(server, 'w8', 'k8'))['size'], 3);
  });

  test('K16: create twice → AlreadyExists, the first object untouched', async () => {
    const kubectl = kubectlFor(server.kubeconfigFile);
    const first = await kubectl(['create', '-n', 'k16', '-f', fixturePath('widget-w1.yaml')]);
    assert.equal(first.code, 0, first.stderr);
    assert.equal(first.stdout.trim(), 'widget.example.com/w1 created');
    const before = await getWidget(server, 'w1', 'k16');
    const mark = server.mark();
    const second = await kubectl(['create', '-n', 'k16', '-f', fixturePath('widget-w1.yaml')]);
    assert.equal(second.code, 1);
    assert.match(second.stderr, /^Error from server \(AlreadyExists\): error when creating ".*widget-w1\.yaml": widgets\.example\.com "w1" already exists$/m);
    const post = server.since(mark).find((e) => e.method === 'POST');
    assert.equal(post?.status, 409);
    assert.equal(query(post!).get('fieldManager'), 'kubectl-create');
    const afterwards = await getWidget(server, 'w1', 'k16');
    assert.equal(afterwards.metadata.uid, before.metadata.uid);
    assert.equal(afterwards.metadata.resourceVersion, before.metadata.resourceVersion);
  });

  test('K17: replace with a stale resourceVersion → Conflict "the object has been modified"', async () => {
    const created = await createWidget(server, widget('w17', { size: 1 }), 'k17');
    await mergePatch(server, `${widgetsPath('k17')}/w17`, { spec: { size: 2 } });
    const stale = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w17', resourceVersion: created.metadata.resourceVersion }, spec: { size: 9 } };
    const kubectl = kubectlFor(server.kubeconfigFile);
    const mark = server.mark();
    const r = await kubectl(['replace', '-n', 'k17', '-f', '-'], stringify(stale));
    assert.equal(r.code, 1);
    assert.match(
      r.stderr,
      /Error from server \(Conflict\): error when replacing "STDIN": Operation cannot be fulfilled on widgets\.example\.com "w17": the object has been modified; please apply your changes to the latest version and try again/,
    );
    const put = server.since(mark).find((e) => e.method === 'PUT');
    assert.equal(put?.status, 409);
    assert.equal(spec(await getWidget(server, 'w17', 'k17'))['size'], 2);
  });

  test('K25: status subresource: patch --subresource=status changes only status; apply ignores status', async () => {
    await createWidget(server, widget('w25', { size: 1 }), 'k25');
    const before = await getWidget(server, 'w25', 'k25');
    const kubectl = kubectlFor(server.kubeconfigFile);
    const mark = server.mark();
    const r = await kubectl(['patch', 'widget', 'w25', '-n', 'k25', '--subresource=status', '--type=merge', '-p', '{"status":{"phase":"Ready"},"spec":{"size":99}}']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), 'widget.example.com/w25 patched');
    const log = server.since(mark);
    assert.ok(byPath(log, `${widgetsPath('k25')}/w25/status`).some((e) => e.method === 'GET'), 'no GET of /status');
    const patch = byPath(log, `${widgetsPath('k25')}/w25/status`).find((e) => e.method === 'PATCH');
    assert.equal(patch?.status, 200);
    assert.equal(query(patch!).get('fieldManager'), 'kubectl-patch');
    const after1 = await getWidget(server, 'w25', 'k25');
    assert.deepEqual(after1['status'], { phase: 'Ready' });
    assert.equal(spec(after1)['size'], 1);
    assert.equal(after1.metadata.generation, before.metadata.generation);

    // apply with a status stanza: create drops status; a later apply changing status leaves it alone.
    const created = await kubectl(['apply', '-n', 'k25', '-f', fixturePath('widget-with-status.yaml')]);
    assert.equal(created.code, 0, created.stderr);
    let stored = await getWidget(server, 'wstatus', 'k25');
    assert.equal(stored['status'], undefined);
    await server.json(`${widgetsPath('k25')}/wstatus/status`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/merge-patch+json' },
      body: JSON.stringify({ status: { phase: 'Real' } }),
    });
    const doc = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'wstatus' }, spec: { size: 6 }, status: { phase: 'FromApply2' } };
    const configured = await kubectl(['apply', '-n', 'k25', '-f', '-'], stringify(doc));
    assert.equal(configured.code, 0, configured.stderr);
    stored = await getWidget(server, 'wstatus', 'k25');
    assert.equal(spec(stored)['size'], 6);
    assert.deepEqual(stored['status'], { phase: 'Real' });
  });
});
