// Validating admission webhooks against the real https server and real kubectl: denial and allow texts, the
// AdmissionReview a webhook receives, rule matching, selectors, matchConditions, failurePolicy on a webhook that is
// down, slow or untrusted, dry run, and configuration changes taking effect at once.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { KubeObject } from '../../../src/apimachinery/object.ts';
import type { TestServer } from '../../helpers/api-server.ts';
import { kubectlFor } from '../../helpers/kubectl.ts';
import {
  allow,
  closedPort,
  configMap,
  createLabelledNamespace,
  createValidating,
  deleteConfiguration,
  deny,
  exists,
  postConfigMap,
  withServerAndWebhook,
  validatingPath,
  type WebhookServer,
} from './support.ts';

const configMapYaml = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  a: "1"\n`;

describe('validating admission webhooks', () => {
  let server: TestServer;
  let hook: WebhookServer;
  withServerAndWebhook((s, h) => {
    server = s;
    hook = h;
  });

  test('a denial reaches kubectl apply verbatim and nothing is stored; the webhook got a full AdmissionReview v1', async () => {
    hook.on('/deny', (request) => deny({ message: `configmap ${String(request['name'])} is not allowed`, code: 403, reason: 'Forbidden' }));
    await createValidating(server, 'deny', [{ name: 'deny.bosun.test', url: hook.url('/deny'), caBundle: hook.caBundle }]);
    try {
      const mark = hook.mark();
      const kubectl = kubectlFor(server.kubeconfigFile);
      const result = await kubectl(['apply', '-f', '-'], configMapYaml('denied'));
      assert.equal(result.code, 1);
      assert.equal(result.stdout, '');
      assert.equal(result.stderr, 'Error from server (Forbidden): error when creating "STDIN": admission webhook "deny.bosun.test" denied the request: configmap denied is not allowed\n');
      assert.equal(await exists(server, '/api/v1/namespaces/default/configmaps/denied'), false);

      const [call, ...more] = hook.receivedOn('/deny', mark);
      assert.ok(call);
      assert.equal(more.length, 0);
      assert.equal(call.query, 'timeout=10s');
      assert.equal(call.contentType, 'application/json');
      assert.equal(call.review['apiVersion'], 'admission.k8s.io/v1');
      assert.equal(call.review['kind'], 'AdmissionReview');
      const request = call.request;
      assert.match(request['uid'], /^[0-9a-f-]{36}$/);
      assert.deepEqual(
        Object.keys(request),
        ['uid', 'kind', 'resource', 'requestKind', 'requestResource', 'name', 'namespace', 'operation', 'userInfo', 'object', 'oldObject', 'dryRun', 'options'],
      );
      assert.deepEqual(request['kind'], { group: '', version: 'v1', kind: 'ConfigMap' });
      assert.deepEqual(request['resource'], { group: '', version: 'v1', resource: 'configmaps' });
      assert.deepEqual(request['requestKind'], request['kind']);
      assert.deepEqual(request['requestResource'], request['resource']);
      assert.equal(request['name'], 'denied');
      assert.equal(request['namespace'], 'default');
      assert.equal(request['operation'], 'CREATE');
      assert.deepEqual(request['userInfo'], { username: 'bosun-admin', groups: ['system:masters', 'system:authenticated'] });
      assert.equal(request['oldObject'], null);
      assert.equal(request['dryRun'], false);
      assert.deepEqual(request['options'], { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1', fieldManager: 'kubectl-client-side-apply', fieldValidation: 'Strict' });
      const object = request['object'] as KubeObject;
      assert.equal(object.apiVersion, 'v1');
      assert.equal(object.kind, 'ConfigMap');
      assert.deepEqual(object['data'], { a: '1' });
      assert.equal(object.metadata.name, 'denied');
      assert.equal(object.metadata.namespace, 'default');
      // Validating webhooks see the object as it would be stored (server-set fields included, no resourceVersion yet).
      assert.match(object.metadata.uid ?? '', /^[0-9a-f-]{36}$/);
      assert.equal(object.metadata.resourceVersion, undefined);
    } finally {
      await deleteConfiguration(server, validatingPath, 'deny');
    }
  });

  test("a denial's Status is the webhook's: no code means 500, reason and details pass through, empty means without explanation", async () => {
    hook.on('/plain', () => deny({ message: 'nope' }));
    hook.on('/reason-only', () => deny({ reason: 'TooBig', code: 413 }));
    hook.on('/silent', () => ({ response: { allowed: false } }));
    hook.on('/invalid', () =>
      deny({ status: 'Failure', message: 'spec is wrong', reason: 'Invalid', code: 422, details: { causes: [{ field: 'data.a', message: 'must be 2' }] } }),
    );
    const cases: [string, number, Record<string, unknown>][] = [
      ['/plain', 500, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'admission webhook "plain.bosun.test" denied the request: nope', code: 500 }],
      [
        '/reason-only',
        413,
        { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'admission webhook "reason-only.bosun.test" denied the request: TooBig', reason: 'TooBig', code: 413 },
      ],
      ['/silent', 500, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'admission webhook "silent.bosun.test" denied the request without explanation', code: 500 }],
      [
        '/invalid',
        422,
        {
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Failure',
          message: 'admission webhook "invalid.bosun.test" denied the request: spec is wrong',
          reason: 'Invalid',
          details: { causes: [{ field: 'data.a', message: 'must be 2' }] },
          code: 422,
        },
      ],
    ];
    for (const [path, code, expected] of cases) {
      const name = path.slice(1);
      await createValidating(server, name, [{ name: `${name}.bosun.test`, url: hook.url(path), caBundle: hook.caBundle }]);
      try {
        const { status, body } = await postConfigMap(server, configMap(`status-${name}`));
        assert.equal(status, code, path);
        assert.deepEqual(body, expected);
        assert.equal(await exists(server, `/api/v1/namespaces/default/configmaps/status-${name}`), false);
      } finally {
        await deleteConfiguration(server, validatingPath, name);
      }
    }
  });

  test('an allowing webhook lets the object in, and its warnings reach kubectl', async () => {
    hook.on('/allow', () => allow({ warnings: ['configmaps are discouraged here'] }));
    await createValidating(server, 'allow', [{ name: 'allow.bosun.test', url: hook.url('/allow'), caBundle: hook.caBundle }]);
    try {
      const kubectl = kubectlFor(server.kubeconfigFile);
      const result = await kubectl(['apply', '-f', '-'], configMapYaml('allowed'));
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout, 'configmap/allowed created\n');
      assert.equal(result.stderr, 'Warning: configmaps are discouraged here\n');
      const stored = await server.json<KubeObject>('/api/v1/namespaces/default/configmaps/allowed');
      assert.deepEqual(stored['data'], { a: '1' });
    } finally {
      await deleteConfiguration(server, validatingPath, 'allow');
    }
  });

  test('rules: operations select CREATE, UPDATE, DELETE; UPDATE and DELETE carry oldObject, DELETE has no object', async () => {
    await createValidating(server, 'ops', [
      { name: 'update.bosun.test', url: hook.url('/ops-update'), caBundle: hook.caBundle, rules: [{ operations: ['UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }] },
      { name: 'delete.bosun.test', url: hook.url('/ops-delete'), caBundle: hook.caBundle, rules: [{ operations: ['DELETE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }] },
    ]);
    try {
      const mark = hook.mark();
      assert.equal((await postConfigMap(server, configMap('ops', { a: '1' }))).status, 201);
      assert.equal(hook.received.length, mark, 'CREATE matched neither webhook');
      const current = await server.json<KubeObject>('/api/v1/namespaces/default/configmaps/ops');
      await server.json('/api/v1/namespaces/default/configmaps/ops', {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...current, data: { a: '2' } }),
      });
      const [update] = hook.receivedOn('/ops-update', mark);
      assert.ok(update);
      assert.equal(update.request['operation'], 'UPDATE');
      assert.deepEqual(update.request['object']['data'], { a: '2' });
      assert.deepEqual(update.request['oldObject']['data'], { a: '1' });
      assert.equal(update.request['oldObject']['metadata']['resourceVersion'], current.metadata.resourceVersion);
      assert.deepEqual(update.request['options'], { kind: 'UpdateOptions', apiVersion: 'meta.k8s.io/v1' });
      assert.equal(hook.receivedOn('/ops-delete', mark).length, 0);

      const options = JSON.stringify({ propagationPolicy: 'Background' });
      await server.json('/api/v1/namespaces/default/configmaps/ops', {
        method: 'DELETE',
        headers: { 'content-type': 'application/json', 'content-length': String(options.length) },
        body: options,
      });
      const [del] = hook.receivedOn('/ops-delete', mark);
      assert.ok(del);
      assert.equal(del.request['operation'], 'DELETE');
      assert.equal(del.request['name'], 'ops');
      assert.equal(del.request['object'], null);
      assert.deepEqual(del.request['oldObject']['data'], { a: '2' });
      assert.deepEqual(del.request['options'], { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1', propagationPolicy: 'Background' });
      assert.equal(hook.receivedOn('/ops-update', mark).length, 1);
    } finally {
      await deleteConfiguration(server, validatingPath, 'ops');
    }
  });

  test('rules: a subresource is its own resource (pods and * do not match pods/status; pods/*, */status and */* do)', async () => {
    const rule = (resources: string[]) => [{ operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources }];
    await createValidating(server, 'subresources', [
      { name: 'plain.sub.bosun.test', url: hook.url('/sub-plain'), caBundle: hook.caBundle, rules: rule(['pods']) },
      { name: 'status.sub.bosun.test', url: hook.url('/sub-status'), caBundle: hook.caBundle, rules: rule(['pods/status']) },
      { name: 'any.sub.bosun.test', url: hook.url('/sub-any'), caBundle: hook.caBundle, rules: rule(['pods/*']) },
      { name: 'star-status.sub.bosun.test', url: hook.url('/sub-star-status'), caBundle: hook.caBundle, rules: rule(['*/status']) },
      { name: 'all.sub.bosun.test', url: hook.url('/sub-all'), caBundle: hook.caBundle, rules: rule(['*/*']) },
      { name: 'star.sub.bosun.test', url: hook.url('/sub-star'), caBundle: hook.caBundle, rules: rule(['*']) },
    ]);
    const paths = ['/sub-plain', '/sub-status', '/sub-any', '/sub-star-status', '/sub-all', '/sub-star'];
    const called = (mark: number) => paths.filter((p) => hook.receivedOn(p, mark).length > 0);
    try {
      let mark = hook.mark();
      const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p1' }, spec: { containers: [{ name: 'c', image: 'busybox' }] } };
      await server.json('/api/v1/namespaces/default/pods', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(pod), expect: 201 });
      // As upstream matches it, `pods/*` covers the pods resource itself too (its subresource part `*` matches '').
      assert.deepEqual(called(mark), ['/sub-plain', '/sub-any', '/sub-all', '/sub-star']);

      mark = hook.mark();
      await server.json('/api/v1/namespaces/default/pods/p1/status', {
        method: 'PATCH',
        headers: { 'content-type': 'application/merge-patch+json' },
        body: JSON.stringify({ status: { phase: 'Running' } }),
      });
      assert.deepEqual(called(mark), ['/sub-status', '/sub-any', '/sub-star-status', '/sub-all']);
      const [status] = hook.receivedOn('/sub-status', mark);
      assert.equal(status?.request['subResource'], 'status');
      assert.equal(status?.request['requestSubResource'], 'status');
      assert.deepEqual(status?.request['resource'], { group: '', version: 'v1', resource: 'pods' });
      assert.equal(status?.request['object']['status']['phase'], 'Running');
    } finally {
      await deleteConfiguration(server, validatingPath, 'subresources');
    }
  });

  test('rules: scope Cluster matches namespaces and cluster-scoped kinds, Namespaced matches namespaced ones', async () => {
    const rule = (scope: string) => [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['*'], scope }];
    await createValidating(server, 'scopes', [
      { name: 'cluster.scope.bosun.test', url: hook.url('/scope-cluster'), caBundle: hook.caBundle, rules: rule('Cluster') },
      { name: 'namespaced.scope.bosun.test', url: hook.url('/scope-namespaced'), caBundle: hook.caBundle, rules: rule('Namespaced') },
    ]);
    try {
      const mark = hook.mark();
      await createLabelledNamespace(server, 'scope-ns', {});
      assert.equal((await postConfigMap(server, configMap('scoped'), 'scope-ns')).status, 201);
      const kinds = (path: string) => hook.receivedOn(path, mark).map((r) => `${String(r.request['kind']['kind'])}/${String(r.request['namespace'] ?? '')}`);
      // A Namespace is cluster-scoped; admission gives it its own name as namespace.
      assert.deepEqual(kinds('/scope-cluster'), ['Namespace/scope-ns']);
      assert.deepEqual(kinds('/scope-namespaced'), ['ConfigMap/scope-ns']);
    } finally {
      await deleteConfiguration(server, validatingPath, 'scopes');
    }
  });

  test("namespaceSelector matches the namespace's labels (a Namespace's own labels when it is the object)", async () => {
    await createLabelledNamespace(server, 'sel-prod', { env: 'prod' });
    await createLabelledNamespace(server, 'sel-dev', { env: 'dev' });
    await createValidating(server, 'nssel', [
      {
        name: 'prod.nssel.bosun.test',
        url: hook.url('/nssel'),
        caBundle: hook.caBundle,
        namespaceSelector: { matchLabels: { env: 'prod' } },
        rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps', 'namespaces'] }],
      },
    ]);
    try {
      const mark = hook.mark();
      assert.equal((await postConfigMap(server, configMap('in-prod'), 'sel-prod')).status, 201);
      assert.equal((await postConfigMap(server, configMap('in-dev'), 'sel-dev')).status, 201);
      await createLabelledNamespace(server, 'sel-prod-2', { env: 'prod' });
      await createLabelledNamespace(server, 'sel-dev-2', { env: 'dev' });
      assert.deepEqual(
        hook.receivedOn('/nssel', mark).map((r) => `${String(r.request['kind']['kind'])}:${String(r.request['name'])}`),
        ['ConfigMap:in-prod', 'Namespace:sel-prod-2'],
      );
    } finally {
      await deleteConfiguration(server, validatingPath, 'nssel');
    }
  });

  test('objectSelector matches the new or the old labels', async () => {
    await createValidating(server, 'objsel', [
      {
        name: 'guarded.objsel.bosun.test',
        url: hook.url('/objsel'),
        caBundle: hook.caBundle,
        objectSelector: { matchExpressions: [{ key: 'guarded', operator: 'Exists' }] },
        rules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
      },
    ]);
    try {
      const mark = hook.mark();
      assert.equal((await postConfigMap(server, configMap('unguarded'))).status, 201);
      assert.equal((await postConfigMap(server, configMap('guarded', { a: '1' }, { guarded: 'yes' }))).status, 201);
      // Removing the label is still seen: the old object matches.
      await server.json('/api/v1/namespaces/default/configmaps/guarded', {
        method: 'PATCH',
        headers: { 'content-type': 'application/merge-patch+json' },
        body: JSON.stringify({ metadata: { labels: { guarded: null } } }),
      });
      // Now neither the old nor the new object has it.
      await server.json('/api/v1/namespaces/default/configmaps/guarded', {
        method: 'PATCH',
        headers: { 'content-type': 'application/merge-patch+json' },
        body: JSON.stringify({ data: { a: '3' } }),
      });
      assert.deepEqual(
        hook.receivedOn('/objsel', mark).map((r) => `${String(r.request['operation'])}:${String(r.request['name'])}`),
        ['CREATE:guarded', 'UPDATE:guarded'],
      );
    } finally {
      await deleteConfiguration(server, validatingPath, 'objsel');
    }
  });

  test('matchConditions (CEL over object, oldObject, request) narrow the calls; an evaluation error follows failurePolicy', async () => {
    await createValidating(server, 'conditions', [
      {
        name: 'cel.conditions.bosun.test',
        url: hook.url('/cel'),
        caBundle: hook.caBundle,
        matchConditions: [
          { name: 'guarded-only', expression: "object.metadata.name.startsWith('cel-guarded')" },
          { name: 'creates', expression: "request.operation == 'CREATE' && oldObject == null" },
        ],
      },
    ]);
    try {
      const mark = hook.mark();
      assert.equal((await postConfigMap(server, configMap('cel-guarded-1'))).status, 201);
      assert.equal((await postConfigMap(server, configMap('cel-other'))).status, 201);
      assert.deepEqual(hook.receivedOn('/cel', mark).map((r) => r.request['name']), ['cel-guarded-1']);
    } finally {
      await deleteConfiguration(server, validatingPath, 'conditions');
    }
    const failing = { name: 'broken', expression: 'object.spec.replicas > 1' };
    await createValidating(server, 'broken-conditions', [{ name: 'broken.conditions.bosun.test', url: hook.url('/cel'), caBundle: hook.caBundle, matchConditions: [failing] }]);
    try {
      const { status, body } = await postConfigMap(server, configMap('cel-broken'));
      assert.equal(status, 403);
      assert.equal(body['reason'], 'Forbidden');
      assert.equal(body['message'], `configmaps "cel-broken" is forbidden: expression 'object.spec.replicas > 1' resulted in error: No such key: spec`);
    } finally {
      await deleteConfiguration(server, validatingPath, 'broken-conditions');
    }
    await createValidating(server, 'ignored-conditions', [
      { name: 'ignored.conditions.bosun.test', url: hook.url('/cel'), caBundle: hook.caBundle, matchConditions: [failing], failurePolicy: 'Ignore' },
    ]);
    try {
      const mark = hook.mark();
      assert.equal((await postConfigMap(server, configMap('cel-ignored'))).status, 201);
      assert.equal(hook.receivedOn('/cel', mark).length, 0);
    } finally {
      await deleteConfiguration(server, validatingPath, 'ignored-conditions');
    }
  });

  test('failurePolicy: a webhook that refuses connections fails the request (Fail) or is skipped (Ignore)', async () => {
    const port = await closedPort();
    const url = `https://127.0.0.1:${port}/validate`;
    await createValidating(server, 'down', [{ name: 'down.bosun.test', url, caBundle: hook.caBundle }]);
    try {
      const kubectl = kubectlFor(server.kubeconfigFile);
      const result = await kubectl(['apply', '-f', '-'], configMapYaml('while-down'));
      assert.equal(result.code, 1);
      assert.equal(
        result.stderr,
        `Error from server (InternalError): error when creating "STDIN": Internal error occurred: failed calling webhook "down.bosun.test": failed to call webhook: Post "https://127.0.0.1:${port}/validate?timeout=10s": dial tcp 127.0.0.1:${port}: connect: connection refused\n`,
      );
      assert.equal(await exists(server, '/api/v1/namespaces/default/configmaps/while-down'), false);
      const { status, body } = await postConfigMap(server, configMap('while-down'));
      assert.equal(status, 500);
      assert.deepEqual(body['details'], { causes: [{ message: `failed calling webhook "down.bosun.test": failed to call webhook: Post "${url}?timeout=10s": dial tcp 127.0.0.1:${port}: connect: connection refused` }] });
    } finally {
      await deleteConfiguration(server, validatingPath, 'down');
    }
    await createValidating(server, 'down-ignored', [{ name: 'down.bosun.test', url, caBundle: hook.caBundle, failurePolicy: 'Ignore' }]);
    try {
      assert.equal((await postConfigMap(server, configMap('while-down'))).status, 201);
    } finally {
      await deleteConfiguration(server, validatingPath, 'down-ignored');
    }
  });

  test('failurePolicy: a webhook slower than timeoutSeconds fails the request (Fail) or is skipped (Ignore)', async () => {
    hook.on('/slow', () => ({ hang: true }));
    await createValidating(server, 'slow', [{ name: 'slow.bosun.test', url: hook.url('/slow'), caBundle: hook.caBundle, timeoutSeconds: 1 }]);
    try {
      const started = Date.now();
      const { status, body } = await postConfigMap(server, configMap('slow'));
      const took = Date.now() - started;
      assert.equal(status, 500);
      assert.equal(body['message'], `Internal error occurred: failed calling webhook "slow.bosun.test": failed to call webhook: Post "${hook.url('/slow')}?timeout=1s": context deadline exceeded`);
      assert.ok(took >= 950 && took < 5000, `took ${took} ms`);
    } finally {
      await deleteConfiguration(server, validatingPath, 'slow');
    }
    await createValidating(server, 'slow-ignored', [{ name: 'slow.bosun.test', url: hook.url('/slow'), caBundle: hook.caBundle, timeoutSeconds: 1, failurePolicy: 'Ignore' }]);
    try {
      assert.equal((await postConfigMap(server, configMap('slow'))).status, 201);
    } finally {
      await deleteConfiguration(server, validatingPath, 'slow-ignored');
    }
  });

  test('TLS: a caBundle that did not sign the certificate, or none (system roots), fails as unknown authority', async () => {
    const other = Buffer.from(server.caCert).toString('base64');
    for (const [name, caBundle] of [
      ['wrong-ca', other],
      ['no-ca', undefined],
    ] as const) {
      await createValidating(server, name, [{ name: `${name}.bosun.test`, url: hook.url('/allow'), ...(caBundle ? { caBundle } : {}) }]);
      try {
        const mark = hook.mark();
        const { status, body } = await postConfigMap(server, configMap(`tls-${name}`));
        assert.equal(status, 500, name);
        assert.equal(
          body['message'],
          `Internal error occurred: failed calling webhook "${name}.bosun.test": failed to call webhook: Post "${hook.url('/allow')}?timeout=10s": tls: failed to verify certificate: x509: certificate signed by unknown authority`,
        );
        assert.equal(hook.received.length, mark, 'the webhook must not have been reached');
      } finally {
        await deleteConfiguration(server, validatingPath, name);
      }
    }
  });

  test('answers that are not a valid AdmissionReview are call failures', async () => {
    hook.on('/bad-uid', () => ({ body: JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: 'nope', allowed: true } }) }));
    hook.on('/bad-kind', (request) => ({ body: JSON.stringify({ response: { uid: request['uid'], allowed: true } }) }));
    hook.on('/patching', () => ({ response: { allowed: true, patchType: 'JSONPatch', patch: Buffer.from('[]').toString('base64') } }));
    hook.on('/http-500', () => ({ body: 'boom', status: 500, contentType: 'text/plain' }));
    const cases: [string, string][] = [
      ['/bad-uid', 'received invalid webhook response: expected response.uid="UID", got "nope"'],
      ['/bad-kind', 'received invalid webhook response: expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got /, Kind='],
      ['/patching', 'received invalid webhook response: validating webhook may not return response.patch'],
      ['/http-500', 'failed to call webhook: an error on the server ("boom") has prevented the request from succeeding'],
    ];
    for (const [path, reason] of cases) {
      const name = path.slice(1);
      await createValidating(server, name, [{ name: `${name}.bosun.test`, url: hook.url(path), caBundle: hook.caBundle }]);
      try {
        const mark = hook.mark();
        const { status, body } = await postConfigMap(server, configMap(`answer-${name}`));
        assert.equal(status, 500, path);
        const uid = String(hook.receivedOn(path, mark)[0]?.request['uid']);
        assert.equal(body['message'], `Internal error occurred: failed calling webhook "${name}.bosun.test": ${reason.replace('UID', uid)}`);
      } finally {
        await deleteConfiguration(server, validatingPath, name);
      }
    }
  });

  test('validating webhooks run in parallel; the first refusal in configuration order answers, every warning is kept', async () => {
    let inFlight = 0;
    let overlapped = false;
    const slowDeny = (message: string) => async () => {
      inFlight++;
      if (inFlight > 1) overlapped = true;
      await new Promise((r) => setTimeout(r, 200));
      inFlight--;
      return deny({ message, code: 403, reason: 'Forbidden' }, { warnings: [`warning from ${message}`] });
    };
    hook.on('/par-a', slowDeny('a'));
    hook.on('/par-b', slowDeny('b'));
    await createValidating(server, 'par-2', [{ name: 'b.par.bosun.test', url: hook.url('/par-b'), caBundle: hook.caBundle }]);
    await createValidating(server, 'par-1', [{ name: 'a.par.bosun.test', url: hook.url('/par-a'), caBundle: hook.caBundle }]);
    try {
      const { status, body, warnings } = await postConfigMap(server, configMap('parallel'));
      assert.equal(status, 403);
      assert.equal(body['message'], 'admission webhook "a.par.bosun.test" denied the request: a');
      assert.equal(warnings, '299 - "warning from a", 299 - "warning from b"');
      assert.ok(overlapped, 'the two webhooks were not called concurrently');
    } finally {
      await deleteConfiguration(server, validatingPath, 'par-1');
      await deleteConfiguration(server, validatingPath, 'par-2');
    }
  });

  test('dry run: webhooks are called with dryRun true and nothing is stored; a webhook with side effects refuses it (400)', async () => {
    hook.on('/dry', () => allow());
    await createValidating(server, 'dry', [{ name: 'dry.bosun.test', url: hook.url('/dry'), caBundle: hook.caBundle, sideEffects: 'NoneOnDryRun' }]);
    try {
      const mark = hook.mark();
      const kubectl = kubectlFor(server.kubeconfigFile);
      const result = await kubectl(['apply', '--dry-run=server', '-f', '-'], configMapYaml('dry'));
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout, 'configmap/dry created (server dry run)\n');
      const [call] = hook.receivedOn('/dry', mark);
      assert.equal(call?.request['dryRun'], true);
      assert.deepEqual(call?.request['options']['dryRun'], ['All']);
      assert.equal(await exists(server, '/api/v1/namespaces/default/configmaps/dry'), false);
    } finally {
      await deleteConfiguration(server, validatingPath, 'dry');
    }
    // v1 refuses sideEffects other than None/NoneOnDryRun, but an older server may have stored one: write it directly.
    const legacy = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'legacy', uid: 'legacy-uid', creationTimestamp: '2020-01-01T00:00:00Z' },
      webhooks: [
        {
          name: 'legacy.bosun.test',
          clientConfig: { url: hook.url('/dry'), caBundle: hook.caBundle },
          rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'], scope: '*' }],
          failurePolicy: 'Ignore',
          matchPolicy: 'Equivalent',
          namespaceSelector: {},
          objectSelector: {},
          sideEffects: 'Some',
          timeoutSeconds: 10,
          admissionReviewVersions: ['v1'],
        },
      ],
    };
    server.store.write('admissionregistration.k8s.io/validatingwebhookconfigurations', '', 'legacy', 'ADDED', (rv) => ({ ...legacy, metadata: { ...legacy.metadata, resourceVersion: String(rv) } }));
    try {
      const mark = hook.mark();
      const { status, body } = await postConfigMap(server, configMap('dry-legacy'), 'default', '?dryRun=All');
      assert.equal(status, 400);
      assert.deepEqual(body, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'admission webhook "legacy.bosun.test" does not support dry run', reason: 'BadRequest', code: 400 });
      assert.equal(hook.received.length, mark);
      // Without dry run it is called as usual.
      assert.equal((await postConfigMap(server, configMap('dry-legacy'))).status, 201);
      assert.equal(hook.receivedOn('/dry', mark).length, 1);
    } finally {
      await deleteConfiguration(server, validatingPath, 'legacy');
    }
  });

  test('requests on webhook configurations never call webhooks, so a broken webhook can always be removed', async () => {
    const port = await closedPort();
    const everything = [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'] }];
    await createValidating(server, 'catch-all', [{ name: 'catch-all.bosun.test', url: `https://127.0.0.1:${port}/`, rules: everything }]);
    const kubectl = kubectlFor(server.kubeconfigFile);
    const blocked = await postConfigMap(server, configMap('blocked'));
    assert.equal(blocked.status, 500);
    const mutating = `apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata:
  name: also-broken
webhooks:
- name: also-broken.bosun.test
  clientConfig:
    url: https://127.0.0.1:${port}/
  rules: [{operations: ["*"], apiGroups: ["*"], apiVersions: ["*"], resources: ["*/*"]}]
  sideEffects: None
  admissionReviewVersions: [v1]
`;
    const created = await kubectl(['apply', '-f', '-'], mutating);
    assert.equal(created.code, 0, created.stderr);
    assert.equal(created.stdout, 'mutatingwebhookconfiguration.admissionregistration.k8s.io/also-broken created\n');
    const labelled = await kubectl(['label', 'validatingwebhookconfiguration', 'catch-all', 'broken=true']);
    assert.equal(labelled.code, 0, labelled.stderr);
    assert.equal(labelled.stdout, 'validatingwebhookconfiguration.admissionregistration.k8s.io/catch-all labeled\n');
    const removed = await kubectl(['delete', 'validatingwebhookconfiguration', 'catch-all']);
    assert.equal(removed.code, 0, removed.stderr);
    assert.equal(removed.stdout, 'validatingwebhookconfiguration.admissionregistration.k8s.io "catch-all" deleted\n');
    const removedToo = await kubectl(['delete', 'mutatingwebhookconfiguration', 'also-broken']);
    assert.equal(removedToo.code, 0, removedToo.stderr);
    assert.equal((await postConfigMap(server, configMap('blocked'))).status, 201);
  });

  test('a configuration applies from the next request on, changes and deletion too', async () => {
    hook.on('/first', () => deny({ message: 'first', code: 403 }));
    hook.on('/second', () => deny({ message: 'second', code: 403 }));
    assert.equal((await postConfigMap(server, configMap('live-1'))).status, 201);
    const created = await createValidating(server, 'live', [{ name: 'live.bosun.test', url: hook.url('/first'), caBundle: hook.caBundle }]);
    let attempt = await postConfigMap(server, configMap('live-2'));
    assert.equal(attempt.status, 403);
    assert.equal(attempt.body['message'], 'admission webhook "live.bosun.test" denied the request: first');
    const webhooks = created['webhooks'] as Record<string, any>[];
    webhooks[0]!['clientConfig']['url'] = hook.url('/second');
    await server.json(`${validatingPath}/live`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...created, webhooks }) });
    attempt = await postConfigMap(server, configMap('live-2'));
    assert.equal(attempt.body['message'], 'admission webhook "live.bosun.test" denied the request: second');
    await deleteConfiguration(server, validatingPath, 'live');
    assert.equal((await postConfigMap(server, configMap('live-2'))).status, 201);
  });

  test('the request log records each request once, webhook calls are not in it', async () => {
    hook.on('/logged', () => allow());
    await createValidating(server, 'logged', [{ name: 'logged.bosun.test', url: hook.url('/logged'), caBundle: hook.caBundle }]);
    try {
      const mark = server.mark();
      assert.equal((await postConfigMap(server, configMap('logged'))).status, 201);
      assert.deepEqual(
        server.since(mark).map((e) => `${e.method} ${e.url} ${e.status}`),
        ['POST /api/v1/namespaces/default/configmaps 201'],
      );
    } finally {
      await deleteConfiguration(server, validatingPath, 'logged');
    }
  });
});
