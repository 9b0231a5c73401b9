// Conformance K18, K19, K23, K24 (research/apiserver.md §8): CRDs registered at run time (Established,
// discovery refresh, api-resources), a CRD and its object in one file, server dry run and diff, and
// strict/warn field validation with pruning.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { stringify } from 'yaml';
import type { KubeObject } from '../../../src/apimachinery/object.ts';
import type { TestServer } from '../../helpers/api-server.ts';
import { kubectlFor } from '../../helpers/kubectl.ts';
import { byPath, createNamespace, createWidget, fixturePath, fromKubectl, getWidget, query, startConformanceServer, status, widget, widgetsPath } from './support.ts';

describe('kubectl CRDs, validation and dry run', () => {
  let server: TestServer;
  before(async () => {
    server = await startConformanceServer();
    for (const ns of ['k23', 'k24']) await createNamespace(server, ns);
  });
  after(async () => {
    await server.close();
  });

  test('K18: apply a CRD, wait for Established, then get and api-resources see it without a restart', async () => {
    const kubectl = kubectlFor(server.kubeconfigFile);
    // Warm the discovery cache before the CRD exists, so the later `get gadgets` must refresh it.
    const warm = await kubectl(['get', 'widgets', '-o', 'name']);
    assert.equal(warm.code, 0, warm.stderr);
    const applied = await kubectl(['apply', '-f', fixturePath('gadget-crd.yaml')]);
    assert.equal(applied.code, 0, applied.stderr);
    assert.equal(applied.stdout.trim(), 'customresourcedefinition.apiextensions.k8s.io/gadgets.demo.io created');
    const crd = await server.json<KubeObject>('/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gadgets.demo.io');
    const crdStatus = crd['status'] as { conditions: { type: string; status: string }[]; acceptedNames: { kind: string; plural: string }; storedVersions: string[] };
    assert.ok(crdStatus.conditions.some((c) => c.type === 'Established' && c.status === 'True'));
    assert.ok(crdStatus.conditions.some((c) => c.type === 'NamesAccepted' && c.status === 'True'));
    assert.equal(crdStatus.acceptedNames.kind, 'Gadget');
    assert.deepEqual(crdStatus.storedVersions, ['v1']);

    const waited = await kubectl(['wait', '--for', 'condition=established', 'crd/gadgets.demo.io', '--timeout=10s']);
    assert.equal(waited.code, 0, waited.stderr);
    assert.equal(waited.stdout.trim(), 'customresourcedefinition.apiextensions.k8s.io/gadgets.demo.io condition met');

    let mark = server.mark();
    const empty = await kubectl(['get', 'gadgets']);
    assert.equal(empty.code, 0, empty.stderr);
    assert.equal(empty.stderr.trim(), 'No resources found in default namespace.');
    const paths = fromKubectl(server.since(mark)).map((e) => e.url.split('?')[0]);
    assert.ok(paths.includes('/apis'), `discovery was not refreshed: ${JSON.stringify(paths)}`);
    assert.ok(paths.includes('/apis/demo.io/v1/namespaces/default/gadgets'));

    const created = await kubectl(['apply', '-f', fixturePath('gadget.yaml')]);
    assert.equal(created.code, 0, created.stderr);
    assert.equal(created.stdout.trim(), 'gadget.demo.io/g1 created');
    const listed = await kubectl(['get', 'gd', '-o', 'name']);
    assert.equal(listed.stdout.trim(), 'gadget.demo.io/g1');
    const stored = await server.json<KubeObject>('/apis/demo.io/v1/namespaces/default/gadgets/g1');
    assert.deepEqual(stored['spec'], { mode: 'fast' });

    mark = server.mark();
    const resources = await kubectl(['api-resources']);
    assert.equal(resources.code, 0, resources.stderr);
    const line = resources.stdout.split('\n').find((l) => l.startsWith('gadgets '));
    assert.deepEqual(line?.trim().split(/\s+/), ['gadgets', 'gd', 'demo.io/v1', 'true', 'Gadget']);
    const widgetLine = resources.stdout.split('\n').find((l) => l.startsWith('widgets '));
    assert.deepEqual(widgetLine?.trim().split(/\s+/), ['widgets', 'wd', 'example.com/v1', 'true', 'Widget']);
    assert.ok(fromKubectl(server.since(mark)).some((e) => e.url.startsWith('/apis?') || e.url === '/apis'), 'api-resources did not refresh discovery');
  });

  test('K19: CRD and CR in one file: the CRD is created, the CR needs a second run', async () => {
    const kubectl = kubectlFor(server.kubeconfigFile);
    const first = await kubectl(['apply', '-f', fixturePath('crd-and-cr.yaml')]);
    assert.equal(first.code, 1);
    assert.equal(first.stdout.trim(), 'customresourcedefinition.apiextensions.k8s.io/sprockets.demo.io created');
    assert.match(first.stderr, /resource mapping not found for name: "s1" namespace: "" from ".*crd-and-cr\.yaml": no matches for kind "Sprocket" in version "demo\.io\/v1"/);
    assert.match(first.stderr, /ensure CRDs are installed first/);
    assert.equal(await status(server, '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/sprockets.demo.io'), 200);
    assert.equal(await status(server, '/apis/demo.io/v1/namespaces/default/sprockets/s1'), 404);

    const second = await kubectl(['apply', '-f', fixturePath('crd-and-cr.yaml')]);
    assert.equal(second.code, 0, second.stderr);
    assert.deepEqual(second.stdout.trim().split('\n'), ['customresourcedefinition.apiextensions.k8s.io/sprockets.demo.io unchanged', 'sprocket.demo.io/s1 created']);
    const stored = await server.json<KubeObject>('/apis/demo.io/v1/namespaces/default/sprockets/s1');
    assert.deepEqual(stored['spec'], { teeth: 12 });
  });

  test('K23: create --dry-run=server shows the object and persists nothing; diff exits 1 and persists nothing', async () => {
    const kubectl = kubectlFor(server.kubeconfigFile);
    let mark = server.mark();
    const dry = await kubectl(['create', '-n', 'k23', '-f', fixturePath('widget-w1.yaml'), '--dry-run=server', '-o', 'json']);
    assert.equal(dry.code, 0, dry.stderr);
    const shown = JSON.parse(dry.stdout) as KubeObject;
    assert.equal(shown.metadata.name, 'w1');
    assert.equal(shown.metadata.namespace, 'k23');
    assert.deepEqual(shown['spec'], { size: 1, color: 'red' });
    assert.equal(shown.metadata.generation, 1);
    assert.ok(shown.metadata.uid && shown.metadata.creationTimestamp, 'dry run did not fill server-owned metadata');
    const post = server.since(mark).find((e) => e.method === 'POST');
    assert.deepEqual(Object.fromEntries(query(post!)), { dryRun: 'All', fieldManager: 'kubectl-create', fieldValidation: 'Strict' });
    assert.equal(post?.status, 201);
    const plain = await kubectl(['create', '-n', 'k23', '-f', fixturePath('widget-w1.yaml'), '--dry-run=server']);
    assert.equal(plain.stdout.trim(), 'widget.example.com/w1 created (server dry run)');
    const get = await kubectl(['get', 'widget', 'w1', '-n', 'k23']);
    assert.equal(get.code, 1);
    assert.equal(get.stderr.trim(), 'Error from server (NotFound): widgets.example.com "w1" not found');

    // diff of a new object.
    const revision = server.store.currentRevision;
    mark = server.mark();
    const diffNew = await kubectl(['diff', '-n', 'k23', '-f', fixturePath('widget-w1.yaml')]);
    assert.equal(diffNew.code, 1, diffNew.stderr);
    assert.match(diffNew.stdout, /^\+ {2}name: w1$/m);
    assert.match(diffNew.stdout, /^\+ {2}size: 1$/m);
    const dryWrites = server.since(mark).filter((e) => e.method !== 'GET');
    assert.ok(dryWrites.length > 0);
    for (const e of dryWrites) assert.equal(query(e).get('dryRun'), 'All', `${e.method} ${e.url}`);
    assert.equal(await status(server, `${widgetsPath('k23')}/w1`), 404);

    // diff of a change to an existing object.
    await createWidget(server, widget('w1', { size: 1, color: 'red' }, { labels: { app: 'demo' } }), 'k23');
    const before = await getWidget(server, 'w1', 'k23');
    const changed = stringify({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1', labels: { app: 'demo' } }, spec: { size: 2, color: 'red' } });
    const diffChange = await kubectl(['diff', '-n', 'k23', '-f', '-'], changed);
    assert.equal(diffChange.code, 1, diffChange.stderr);
    assert.match(diffChange.stdout, /^- {2}size: 1$/m);
    assert.match(diffChange.stdout, /^\+ {2}size: 2$/m);
    const afterDiff = await getWidget(server, 'w1', 'k23');
    assert.equal(afterDiff.metadata.resourceVersion, before.metadata.resourceVersion);
    assert.deepEqual(afterDiff['spec'], { size: 1, color: 'red' });
    assert.equal(server.store.currentRevision, revision + 1, 'only the createWidget wrote');
  });

  test('K24: unknown field: strict decoding error by default; --validate=warn warns and prunes', async () => {
    const kubectl = kubectlFor(server.kubeconfigFile);
    let mark = server.mark();
    const strict = await kubectl(['apply', '-n', 'k24', '-f', fixturePath('widget-unknown-field.yaml')]);
    assert.equal(strict.code, 1);
    assert.match(strict.stderr, /Error from server \(BadRequest\): error when creating ".*widget-unknown-field\.yaml": .*strict decoding error: unknown field "spec\.foo"/);
    const post = server.since(mark).find((e) => e.method === 'POST');
    assert.equal(query(post!).get('fieldValidation'), 'Strict');
    assert.equal(post?.status, 400);
    assert.equal(await status(server, `${widgetsPath('k24')}/wunknown`), 404);

    mark = server.mark();
    const warn = await kubectl(['apply', '-n', 'k24', '--validate=warn', '-f', fixturePath('widget-unknown-field.yaml')]);
    assert.equal(warn.code, 0, warn.stderr);
    assert.equal(warn.stdout.trim(), 'widget.example.com/wunknown created');
    assert.match(warn.stderr, /^Warning: unknown field "spec\.foo"$/m);
    const warnPost = byPath(server.since(mark), widgetsPath('k24')).find((e) => e.method === 'POST');
    assert.equal(query(warnPost!).get('fieldValidation'), 'Warn');
    const stored = await getWidget(server, 'wunknown', 'k24');
    assert.deepEqual(stored['spec'], { size: 3 });
  });
});
