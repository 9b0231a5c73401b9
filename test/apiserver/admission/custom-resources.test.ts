// Custom resources go through admission like built-ins: the right kind/resource, oldObject on UPDATE and DELETE,
// /status as its own resource, schema pruning/defaulting/validation around mutation, and matchPolicy Equivalent
// across the served versions of a CRD.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { KubeObject } from '../../../src/apimachinery/object.ts';
import { eventually, type TestServer } from '../../helpers/api-server.ts';
import { kubectlFor } from '../../helpers/kubectl.ts';
import { widgetCrd } from '../conformance/support.ts';
import { createMutating, createValidating, deleteConfiguration, exists, mutatingPath, patch, validatingPath, withServerAndWebhook, type WebhookServer } from './support.ts';

const widgetYaml = (size: number) => `apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w1\n  namespace: default\nspec:\n  size: ${size}\n`;
const widgets = '/apis/example.com/v1/namespaces/default/widgets';

/** A two-version CRD (strategy None): v1 is stored, v2 is served too. */
const gizmoCrd: KubeObject = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'gizmos.multi.bosun.test' },
  spec: {
    group: 'multi.bosun.test',
    scope: 'Namespaced',
    names: { plural: 'gizmos', singular: 'gizmo', kind: 'Gizmo', listKind: 'GizmoList' },
    versions: ['v1', 'v2'].map((name) => ({
      name,
      served: true,
      storage: name === 'v1',
      schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } } },
    })),
  },
};

describe('admission webhooks on custom resources', () => {
  let server: TestServer;
  let hook: WebhookServer;
  withServerAndWebhook((s, h) => {
    server = s;
    hook = h;
  }, { crds: [widgetCrd(), gizmoCrd] });

  test('CREATE, UPDATE and DELETE of a Widget reach the webhook with its kind, resource, object and oldObject', async () => {
    await createValidating(server, 'widgets', [
      {
        name: 'widgets.bosun.test',
        url: hook.url('/widgets'),
        caBundle: hook.caBundle,
        rules: [{ operations: ['*'], apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['widgets'], scope: 'Namespaced' }],
      },
    ]);
    try {
      const mark = hook.mark();
      const kubectl = kubectlFor(server.kubeconfigFile);
      let result = await kubectl(['apply', '-f', '-'], widgetYaml(1));
      assert.equal(result.stdout, 'widget.example.com/w1 created\n', result.stderr);
      const created = await server.json<KubeObject>(`${widgets}/w1`);
      result = await kubectl(['apply', '-f', '-'], widgetYaml(2));
      assert.equal(result.stdout, 'widget.example.com/w1 configured\n', result.stderr);
      const updated = await server.json<KubeObject>(`${widgets}/w1`);
      result = await kubectl(['delete', 'widget', 'w1']);
      assert.equal(result.stdout, 'widget.example.com "w1" deleted\n', result.stderr);
      assert.equal(await exists(server, `${widgets}/w1`), false);

      const calls = hook.receivedOn('/widgets', mark).map((r) => r.request);
      assert.deepEqual(
        calls.map((r) => r['operation']),
        ['CREATE', 'UPDATE', 'DELETE'],
      );
      for (const request of calls) {
        assert.deepEqual(request['kind'], { group: 'example.com', version: 'v1', kind: 'Widget' });
        assert.deepEqual(request['resource'], { group: 'example.com', version: 'v1', resource: 'widgets' });
        assert.deepEqual(request['requestKind'], request['kind']);
        assert.equal(request['subResource'], undefined);
        assert.equal(request['name'], 'w1');
        assert.equal(request['namespace'], 'default');
      }
      const [create, update, del] = calls as [Record<string, any>, Record<string, any>, Record<string, any>];
      assert.deepEqual(create['object']['spec'], { size: 1 });
      assert.equal(create['oldObject'], null);
      assert.deepEqual(update['object']['spec'], { size: 2 });
      assert.deepEqual(update['oldObject'], created);
      assert.deepEqual(update['options'], { kind: 'UpdateOptions', apiVersion: 'meta.k8s.io/v1', fieldManager: 'kubectl-client-side-apply', fieldValidation: 'Strict' });
      assert.equal(del['object'], null);
      assert.deepEqual(del['oldObject'], updated);
    } finally {
      await deleteConfiguration(server, validatingPath, 'widgets');
    }
  });

  test('widgets/status is a resource of its own: `widgets` does not see status writes, `widgets/status` and `*/*` do', async () => {
    const rule = (resources: string[]) => [{ operations: ['CREATE', 'UPDATE'], apiGroups: ['example.com'], apiVersions: ['*'], resources }];
    await createValidating(server, 'status-rules', [
      { name: 'main.status.bosun.test', url: hook.url('/main'), caBundle: hook.caBundle, rules: rule(['widgets']) },
      { name: 'status.status.bosun.test', url: hook.url('/status'), caBundle: hook.caBundle, rules: rule(['widgets/status']) },
      { name: 'all.status.bosun.test', url: hook.url('/all'), caBundle: hook.caBundle, rules: rule(['*/*']) },
    ]);
    try {
      let mark = hook.mark();
      await server.json(widgets, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'ws' }, spec: { size: 1 } }),
        expect: 201,
      });
      assert.deepEqual(hook.received.slice(mark).map((r) => r.path).sort(), ['/all', '/main']);
      mark = hook.mark();
      await server.json(`${widgets}/ws/status`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/merge-patch+json' },
        body: JSON.stringify({ status: { phase: 'Ready' } }),
      });
      const calls = hook.received.slice(mark);
      assert.deepEqual(calls.map((r) => r.path).sort(), ['/all', '/status']);
      for (const call of calls) {
        assert.equal(call.request['subResource'], 'status');
        assert.deepEqual(call.request['resource'], { group: 'example.com', version: 'v1', resource: 'widgets' });
        assert.equal(call.request['object']['status']['phase'], 'Ready');
        assert.equal(call.request['oldObject']['status'], undefined);
      }
    } finally {
      await deleteConfiguration(server, validatingPath, 'status-rules');
    }
  });

  test('a mutated custom resource is pruned, defaulted and validated against its schema afterwards', async () => {
    hook.on('/color', () => patch([{ op: 'add', path: '/spec/color', value: 'red' }, { op: 'add', path: '/spec/bogus', value: true }]));
    hook.on('/break', () => patch([{ op: 'replace', path: '/spec/size', value: 'big' }]));
    const rules = [{ operations: ['CREATE'], apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['widgets'] }];
    await createMutating(server, 'color', [{ name: 'color.bosun.test', url: hook.url('/color'), caBundle: hook.caBundle, rules }]);
    try {
      const res = await server.api(widgets, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'wm' }, spec: { size: 3 } }),
      });
      assert.equal(res.status, 201);
      // The field the webhook invented is dropped without a warning (the client did not send it).
      assert.equal(res.headers.get('warning'), null);
      const stored = await server.json<KubeObject>(`${widgets}/wm`);
      assert.deepEqual(stored['spec'], { size: 3, color: 'red' });

      // Strict field validation judges what the client sent, before any webhook is called.
      const mark = hook.mark();
      const strict = await server.api(`${widgets}?fieldValidation=Strict`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'ws2' }, spec: { size: 3, extra: 1 } }),
      });
      assert.equal(strict.status, 400);
      assert.equal(((await strict.json()) as Record<string, unknown>)['message'], 'strict decoding error: unknown field "spec.extra"');
      assert.equal(hook.received.length, mark);
    } finally {
      await deleteConfiguration(server, mutatingPath, 'color');
    }
    await createMutating(server, 'break', [{ name: 'break.bosun.test', url: hook.url('/break'), caBundle: hook.caBundle, rules }]);
    try {
      const res = await server.api(widgets, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'wb' }, spec: { size: 3 } }),
      });
      assert.equal(res.status, 422);
      assert.equal(((await res.json()) as Record<string, unknown>)['message'], 'Widget.example.com "wb" is invalid: spec.size: Invalid value: "string": spec.size in body must be of type integer: "string"');
      assert.equal(await exists(server, `${widgets}/wb`), false);
    } finally {
      await deleteConfiguration(server, mutatingPath, 'break');
    }
  });

  test('matchPolicy Equivalent calls a webhook for another served version, converted; Exact does not', async () => {
    await eventually(() => server.registry.lookup('multi.bosun.test', 'v2', 'gizmos'), 5000, 'gizmos v2 served');
    hook.on('/gizmo', () => patch([{ op: 'add', path: '/spec/touched', value: true }]));
    const rules = [{ operations: ['CREATE'], apiGroups: ['multi.bosun.test'], apiVersions: ['v1'], resources: ['gizmos'] }];
    await createMutating(server, 'gizmo', [
      { name: 'equivalent.gizmo.bosun.test', url: hook.url('/gizmo'), caBundle: hook.caBundle, rules },
      { name: 'exact.gizmo.bosun.test', url: hook.url('/gizmo-exact'), caBundle: hook.caBundle, rules, matchPolicy: 'Exact' },
    ]);
    try {
      const mark = hook.mark();
      const created = await server.json<KubeObject>('/apis/multi.bosun.test/v2/namespaces/default/gizmos', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ apiVersion: 'multi.bosun.test/v2', kind: 'Gizmo', metadata: { name: 'g1' }, spec: { a: 1 } }),
        expect: 201,
      });
      assert.equal(created.apiVersion, 'multi.bosun.test/v2');
      assert.deepEqual(created['spec'], { a: 1, touched: true });
      assert.deepEqual(hook.received.slice(mark).map((r) => r.path), ['/gizmo']);
      const request = hook.receivedOn('/gizmo', mark)[0]!.request;
      assert.deepEqual(request['kind'], { group: 'multi.bosun.test', version: 'v1', kind: 'Gizmo' });
      assert.deepEqual(request['resource'], { group: 'multi.bosun.test', version: 'v1', resource: 'gizmos' });
      assert.deepEqual(request['requestKind'], { group: 'multi.bosun.test', version: 'v2', kind: 'Gizmo' });
      assert.deepEqual(request['requestResource'], { group: 'multi.bosun.test', version: 'v2', resource: 'gizmos' });
      assert.equal(request['object']['apiVersion'], 'multi.bosun.test/v1');
    } finally {
      await deleteConfiguration(server, mutatingPath, 'gizmo');
    }
  });
});
