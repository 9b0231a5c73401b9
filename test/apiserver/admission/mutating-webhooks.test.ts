// Mutating admission webhooks: JSON patches applied in configuration order and stored, validating webhooks seeing
// the result, reinvocation, fields a webhook may not change, patches on DELETE, bad patches under failurePolicy.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { KubeObject } from '../../../src/apimachinery/object.ts';
import type { TestServer } from '../../helpers/api-server.ts';
import { kubectlFor } from '../../helpers/kubectl.ts';
import {
  allow,
  configMap,
  createMutating,
  createValidating,
  deleteConfiguration,
  exists,
  mutatingPath,
  patch,
  postConfigMap,
  withServerAndWebhook,
  validatingPath,
  type WebhookServer,
} from './support.ts';

describe('mutating admission webhooks', () => {
  let server: TestServer;
  let hook: WebhookServer;
  withServerAndWebhook((s, h) => {
    server = s;
    hook = h;
  });

  test('JSON patches apply in configuration-name order, each webhook seeing the previous result; the stored object has them', async () => {
    hook.on('/label', () => patch([{ op: 'add', path: '/metadata/labels', value: { injected: 'yes' } }]));
    hook.on('/data', (request) =>
      patch([{ op: 'add', path: '/data/seen-label', value: String((request['object'] as KubeObject).metadata.labels?.['injected'] ?? 'none') }], { warnings: ['data was added'] }),
    );
    hook.on('/check', () => allow());
    // "b-data" sorts after "a-label", whatever the creation order.
    await createMutating(server, 'b-data', [{ name: 'data.bosun.test', url: hook.url('/data'), caBundle: hook.caBundle }]);
    await createMutating(server, 'a-label', [{ name: 'label.bosun.test', url: hook.url('/label'), caBundle: hook.caBundle }]);
    await createValidating(server, 'check', [{ name: 'check.bosun.test', url: hook.url('/check'), caBundle: hook.caBundle }]);
    try {
      const mark = hook.mark();
      const kubectl = kubectlFor(server.kubeconfigFile);
      const result = await kubectl(['apply', '-f', '-'], 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: mutated\ndata:\n  a: "1"\n');
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout, 'configmap/mutated created\n');
      assert.equal(result.stderr, 'Warning: data was added\n');
      const stored = await server.json<KubeObject>('/api/v1/namespaces/default/configmaps/mutated');
      assert.deepEqual(stored.metadata.labels, { injected: 'yes' });
      assert.deepEqual(stored['data'], { a: '1', 'seen-label': 'yes' });
      assert.deepEqual(hook.received.slice(mark).map((r) => r.path), ['/label', '/data', '/check']);
      // Mutating webhooks see the object before the server fills in uid and creationTimestamp.
      const first = hook.receivedOn('/label', mark)[0]!.request['object'] as KubeObject;
      assert.equal(first.metadata.uid, undefined);
      assert.equal(first.metadata.labels, undefined);
      // The validating webhook sees the final object.
      const checked = hook.receivedOn('/check', mark)[0]!.request['object'] as KubeObject;
      assert.deepEqual(checked.metadata.labels, { injected: 'yes' });
      assert.deepEqual(checked['data'], { a: '1', 'seen-label': 'yes' });
    } finally {
      await deleteConfiguration(server, mutatingPath, 'a-label');
      await deleteConfiguration(server, mutatingPath, 'b-data');
      await deleteConfiguration(server, validatingPath, 'check');
    }
  });

  test('updates are mutated too (PUT and patch); the webhook sees the old object', async () => {
    hook.on('/stamp', (request) => patch([{ op: 'add', path: '/data/stamp', value: `${String(request['operation'])}-${String((request['oldObject'] as KubeObject | null)?.['data'] ? 'old' : 'none')}` }]));
    assert.equal((await postConfigMap(server, configMap('stamped', { a: '1' }))).status, 201);
    await createMutating(server, 'stamp', [
      { name: 'stamp.bosun.test', url: hook.url('/stamp'), caBundle: hook.caBundle, rules: [{ operations: ['UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }] },
    ]);
    try {
      const patched = await server.json<KubeObject>('/api/v1/namespaces/default/configmaps/stamped', {
        method: 'PATCH',
        headers: { 'content-type': 'application/merge-patch+json' },
        body: JSON.stringify({ data: { a: '2' } }),
      });
      assert.deepEqual(patched['data'], { a: '2', stamp: 'UPDATE-old' });
      const replaced = await server.json<KubeObject>('/api/v1/namespaces/default/configmaps/stamped', {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...patched, data: { a: '3' } }),
      });
      assert.deepEqual(replaced['data'], { a: '3', stamp: 'UPDATE-old' });
      const stored = await server.json<KubeObject>('/api/v1/namespaces/default/configmaps/stamped');
      assert.deepEqual(stored['data'], { a: '3', stamp: 'UPDATE-old' });
    } finally {
      await deleteConfiguration(server, mutatingPath, 'stamp');
    }
  });

  test('server-side apply is admitted too: CREATE when the object is new, UPDATE after', async () => {
    hook.on('/ssa', (request) => patch([{ op: 'add', path: '/metadata/annotations', value: { 'seen-as': String(request['operation']) } }]));
    await createMutating(server, 'ssa', [
      {
        name: 'ssa.bosun.test',
        url: hook.url('/ssa'),
        caBundle: hook.caBundle,
        rules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
        objectSelector: { matchLabels: { ssa: 'yes' } },
      },
    ]);
    try {
      const mark = hook.mark();
      const kubectl = kubectlFor(server.kubeconfigFile);
      const manifest = (value: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\n  labels:\n    ssa: "yes"\ndata:\n  a: "${value}"\n`;
      let result = await kubectl(['apply', '--server-side', '-f', '-'], manifest('1'));
      assert.equal(result.stdout, 'configmap/applied serverside-applied\n', result.stderr);
      let stored = await server.json<KubeObject>('/api/v1/namespaces/default/configmaps/applied');
      assert.deepEqual(stored.metadata.annotations, { 'seen-as': 'CREATE' });
      result = await kubectl(['apply', '--server-side', '-f', '-'], manifest('2'));
      assert.equal(result.stdout, 'configmap/applied serverside-applied\n', result.stderr);
      stored = await server.json<KubeObject>('/api/v1/namespaces/default/configmaps/applied');
      assert.deepEqual(stored.metadata.annotations, { 'seen-as': 'UPDATE' });
      assert.deepEqual(stored['data'], { a: '2' });
      const calls = hook.receivedOn('/ssa', mark).map((r) => r.request);
      assert.deepEqual(calls.map((r) => [r['operation'], r['options']['kind'], r['options']['fieldManager']]), [
        ['CREATE', 'CreateOptions', 'kubectl'],
        ['UPDATE', 'UpdateOptions', 'kubectl'],
      ]);
    } finally {
      await deleteConfiguration(server, mutatingPath, 'ssa');
    }
  });

  test('reinvocationPolicy IfNeeded calls a webhook again when a later webhook changed the object', async () => {
    const seen: string[] = [];
    hook.on('/first', (request) => {
      const data = (request['object'] as KubeObject)['data'] as Record<string, string>;
      seen.push(Object.keys(data).sort().join(','));
      return data['count'] === undefined ? patch([{ op: 'add', path: '/data/count', value: String(Object.keys(data).length) }]) : allow();
    });
    hook.on('/second', () => patch([{ op: 'add', path: '/data/second', value: 'x' }]));
    await createMutating(server, 'reinvoke', [
      { name: 'first.reinvoke.bosun.test', url: hook.url('/first'), caBundle: hook.caBundle, reinvocationPolicy: 'IfNeeded' },
      { name: 'second.reinvoke.bosun.test', url: hook.url('/second'), caBundle: hook.caBundle },
    ]);
    try {
      const mark = hook.mark();
      const { status, body } = await postConfigMap(server, configMap('reinvoked', { a: '1' }));
      assert.equal(status, 201);
      assert.deepEqual(body['data'], { a: '1', count: '1', second: 'x' });
      assert.deepEqual(hook.received.slice(mark).map((r) => r.path), ['/first', '/second', '/first']);
      assert.deepEqual(seen, ['a', 'a,count,second']);
    } finally {
      await deleteConfiguration(server, mutatingPath, 'reinvoke');
    }
    // With Never (the default) there is no second call.
    seen.length = 0;
    await createMutating(server, 'no-reinvoke', [
      { name: 'first.reinvoke.bosun.test', url: hook.url('/first'), caBundle: hook.caBundle },
      { name: 'second.reinvoke.bosun.test', url: hook.url('/second'), caBundle: hook.caBundle },
    ]);
    try {
      const mark = hook.mark();
      assert.equal((await postConfigMap(server, configMap('not-reinvoked', { a: '1' }))).status, 201);
      assert.deepEqual(hook.received.slice(mark).map((r) => r.path), ['/first', '/second']);
    } finally {
      await deleteConfiguration(server, mutatingPath, 'no-reinvoke');
    }
  });

  test('a webhook may not rename the object or move it to another namespace', async () => {
    hook.on('/rename', () => patch([{ op: 'replace', path: '/metadata/name', value: 'renamed' }]));
    hook.on('/move', () => patch([{ op: 'replace', path: '/metadata/namespace', value: 'kube-system' }]));
    await createMutating(server, 'rename', [{ name: 'rename.bosun.test', url: hook.url('/rename'), caBundle: hook.caBundle }]);
    try {
      const { status, body } = await postConfigMap(server, configMap('original'));
      assert.equal(status, 422);
      assert.equal(body['message'], 'ConfigMap "original" is invalid: metadata.name: Invalid value: "renamed": field is immutable');
      assert.equal(await exists(server, '/api/v1/namespaces/default/configmaps/renamed'), false);
      assert.equal(await exists(server, '/api/v1/namespaces/default/configmaps/original'), false);
    } finally {
      await deleteConfiguration(server, mutatingPath, 'rename');
    }
    await createMutating(server, 'move', [{ name: 'move.bosun.test', url: hook.url('/move'), caBundle: hook.caBundle }]);
    try {
      const { status, body } = await postConfigMap(server, configMap('moved'));
      assert.equal(status, 400);
      assert.equal(body['message'], 'the namespace of the provided object does not match the namespace sent on the request');
      assert.equal(await exists(server, '/api/v1/namespaces/kube-system/configmaps/moved'), false);
    } finally {
      await deleteConfiguration(server, mutatingPath, 'move');
    }
  });

  test('a patch on DELETE is refused (500); an empty patch is fine', async () => {
    hook.on('/del-patch', () => patch([{ op: 'add', path: '/metadata/labels', value: { x: 'y' } }]));
    hook.on('/del-empty', () => patch([]));
    const rules = [{ operations: ['DELETE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }];
    assert.equal((await postConfigMap(server, configMap('undeletable'))).status, 201);
    await createMutating(server, 'del-patch', [{ name: 'del-patch.bosun.test', url: hook.url('/del-patch'), caBundle: hook.caBundle, rules }]);
    try {
      const res = await server.api('/api/v1/namespaces/default/configmaps/undeletable', { method: 'DELETE' });
      assert.equal(res.status, 500);
      assert.equal(
        ((await res.json()) as Record<string, unknown>)['message'],
        'Internal error occurred: admission webhook "del-patch.bosun.test" attempted to modify the object, which is not supported for this operation',
      );
      assert.equal(await exists(server, '/api/v1/namespaces/default/configmaps/undeletable'), true);
    } finally {
      await deleteConfiguration(server, mutatingPath, 'del-patch');
    }
    await createMutating(server, 'del-empty', [{ name: 'del-empty.bosun.test', url: hook.url('/del-empty'), caBundle: hook.caBundle, rules }]);
    try {
      await server.json('/api/v1/namespaces/default/configmaps/undeletable', { method: 'DELETE' });
      assert.equal(await exists(server, '/api/v1/namespaces/default/configmaps/undeletable'), false);
    } finally {
      await deleteConfiguration(server, mutatingPath, 'del-empty');
    }
  });

  test('a patch that does not apply is a 500; an unsupported patch type follows failurePolicy', async () => {
    hook.on('/bad-op', () => patch([{ op: 'remove', path: '/data/missing' }]));
    hook.on('/bad-type', () => ({ response: { allowed: true, patchType: 'MergePatch', patch: Buffer.from('{}').toString('base64') } }));
    await createMutating(server, 'bad-op', [{ name: 'bad-op.bosun.test', url: hook.url('/bad-op'), caBundle: hook.caBundle }]);
    try {
      const { status, body } = await postConfigMap(server, configMap('bad-op'));
      assert.equal(status, 500);
      assert.equal(body['message'], "Internal error occurred: error in remove for path: '/data/missing': Unable to remove nonexistent key: missing: missing value");
    } finally {
      await deleteConfiguration(server, mutatingPath, 'bad-op');
    }
    await createMutating(server, 'bad-type', [{ name: 'bad-type.bosun.test', url: hook.url('/bad-type'), caBundle: hook.caBundle }]);
    try {
      const { status, body } = await postConfigMap(server, configMap('bad-type'));
      assert.equal(status, 500);
      assert.equal(body['message'], 'Internal error occurred: failed calling webhook "bad-type.bosun.test": unsupported patch type "MergePatch"');
    } finally {
      await deleteConfiguration(server, mutatingPath, 'bad-type');
    }
    await createMutating(server, 'bad-type-ignored', [{ name: 'bad-type.bosun.test', url: hook.url('/bad-type'), caBundle: hook.caBundle, failurePolicy: 'Ignore' }]);
    try {
      const { status, body } = await postConfigMap(server, configMap('bad-type'));
      assert.equal(status, 201);
      assert.deepEqual(body['data'], { a: '1' });
    } finally {
      await deleteConfiguration(server, mutatingPath, 'bad-type-ignored');
    }
  });

  test('dry run: a mutated object is answered but not stored', async () => {
    hook.on('/dry-mutate', () => patch([{ op: 'add', path: '/data/dry', value: 'run' }]));
    await createMutating(server, 'dry-mutate', [{ name: 'dry-mutate.bosun.test', url: hook.url('/dry-mutate'), caBundle: hook.caBundle }]);
    try {
      const mark = hook.mark();
      const { status, body } = await postConfigMap(server, configMap('dry-mutated'), 'default', '?dryRun=All');
      assert.equal(status, 201);
      assert.deepEqual(body['data'], { a: '1', dry: 'run' });
      assert.equal(hook.receivedOn('/dry-mutate', mark)[0]?.request['dryRun'], true);
      assert.equal(await exists(server, '/api/v1/namespaces/default/configmaps/dry-mutated'), false);
    } finally {
      await deleteConfiguration(server, mutatingPath, 'dry-mutate');
    }
  });

  test('a write that raced the webhook is admitted again against the new object', async () => {
    assert.equal((await postConfigMap(server, configMap('raced', { n: '0' }))).status, 201);
    let calls = 0;
    hook.on('/race', async () => {
      calls++;
      if (calls === 1) {
        // Another client changes the object while the webhook is deciding.
        await server.json('/api/v1/namespaces/default/configmaps/raced', {
          method: 'PATCH',
          headers: { 'content-type': 'application/merge-patch+json' },
          body: JSON.stringify({ data: { other: 'writer' } }),
        });
      }
      return patch([{ op: 'add', path: '/data/calls', value: String(calls) }]);
    });
    await createMutating(server, 'race', [
      {
        name: 'race.bosun.test',
        url: hook.url('/race'),
        caBundle: hook.caBundle,
        objectSelector: { matchLabels: { race: 'yes' } },
        rules: [{ operations: ['UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
      },
    ]);
    try {
      const updated = await server.json<KubeObject>('/api/v1/namespaces/default/configmaps/raced', {
        method: 'PATCH',
        headers: { 'content-type': 'application/merge-patch+json' },
        body: JSON.stringify({ metadata: { labels: { race: 'yes' } }, data: { n: '1' } }),
      });
      assert.equal(calls, 2);
      assert.deepEqual(updated['data'], { n: '1', other: 'writer', calls: '2' });
    } finally {
      await deleteConfiguration(server, mutatingPath, 'race');
    }
  });
});
