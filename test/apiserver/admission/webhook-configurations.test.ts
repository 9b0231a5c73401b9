// The admissionregistration.k8s.io/v1 resources themselves: discovery, kubectl get/apply, defaulting as
// kube-apiserver stores them, validation with its messages, generation, list and watch.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { KubeObject } from '../../../src/apimachinery/object.ts';
import { startTestServer, type TestServer } from '../../helpers/api-server.ts';
import { kubectlFor } from '../../helpers/kubectl.ts';
import { mutatingPath, validatingPath } from './support.ts';

async function post(server: TestServer, path: string, object: Record<string, unknown>): Promise<{ status: number; body: Record<string, any> }> {
  const res = await server.api(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(object) });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

const validating = (name: string, webhooks: Record<string, unknown>[]) => ({ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name }, webhooks });
const mutating = (name: string, webhooks: Record<string, unknown>[]) => ({ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingWebhookConfiguration', metadata: { name }, webhooks });
const minimal = (extra: Record<string, unknown> = {}) => ({
  name: 'min.bosun.test',
  clientConfig: { url: 'https://127.0.0.1:9443/validate' },
  sideEffects: 'None',
  admissionReviewVersions: ['v1'],
  rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
  ...extra,
});

describe('webhook configuration resources', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  test('discovery lists both kinds, cluster-scoped, in group admissionregistration.k8s.io/v1', async () => {
    const kubectl = kubectlFor(server.kubeconfigFile);
    const result = await kubectl(['api-resources', '--api-group=admissionregistration.k8s.io']);
    assert.equal(result.code, 0, result.stderr);
    const rows = result.stdout
      .trim()
      .split('\n')
      .map((l) => l.trim().split(/\s+/));
    assert.deepEqual(rows, [
      ['NAME', 'SHORTNAMES', 'APIVERSION', 'NAMESPACED', 'KIND'],
      ['mutatingwebhookconfigurations', 'admissionregistration.k8s.io/v1', 'false', 'MutatingWebhookConfiguration'],
      ['validatingwebhookconfigurations', 'admissionregistration.k8s.io/v1', 'false', 'ValidatingWebhookConfiguration'],
    ]);
    const list = await server.json<{ resources: { name: string; verbs: string[]; categories?: string[] }[] }>('/apis/admissionregistration.k8s.io/v1');
    const names = list.resources.map((r) => r.name);
    assert.deepEqual(names, ['mutatingwebhookconfigurations', 'validatingwebhookconfigurations']);
    assert.deepEqual(list.resources[0]?.verbs, ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']);
  });

  test('defaults are filled in as kube-apiserver stores them; generation follows webhook changes', async () => {
    const created = await server.json<KubeObject>(validatingPath, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(
        validating('defaults', [
          minimal(),
          { name: 'svc.bosun.test', clientConfig: { service: { namespace: 'default', name: 'hooks' } }, sideEffects: 'NoneOnDryRun', admissionReviewVersions: ['v1', 'v1beta1'] },
        ]),
      ),
      expect: 201,
    });
    assert.equal(created.metadata.generation, 1);
    assert.deepEqual(created['webhooks'], [
      {
        name: 'min.bosun.test',
        clientConfig: { url: 'https://127.0.0.1:9443/validate' },
        sideEffects: 'None',
        admissionReviewVersions: ['v1'],
        rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'], scope: '*' }],
        failurePolicy: 'Fail',
        matchPolicy: 'Equivalent',
        namespaceSelector: {},
        objectSelector: {},
        timeoutSeconds: 10,
      },
      {
        name: 'svc.bosun.test',
        clientConfig: { service: { namespace: 'default', name: 'hooks', port: 443 } },
        sideEffects: 'NoneOnDryRun',
        admissionReviewVersions: ['v1', 'v1beta1'],
        failurePolicy: 'Fail',
        matchPolicy: 'Equivalent',
        namespaceSelector: {},
        objectSelector: {},
        timeoutSeconds: 10,
      },
    ]);
    const relabelled = await server.json<KubeObject>(`${validatingPath}/defaults`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/merge-patch+json' },
      body: JSON.stringify({ metadata: { labels: { a: 'b' } } }),
    });
    assert.equal(relabelled.metadata.generation, 1);
    const changed = await server.json<KubeObject>(`${validatingPath}/defaults`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json-patch+json' },
      body: JSON.stringify([{ op: 'replace', path: '/webhooks/0/timeoutSeconds', value: 5 }]),
    });
    assert.equal(changed.metadata.generation, 2);

    const mutatingCreated = await server.json<KubeObject>(mutatingPath, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(mutating('defaults', [minimal()])),
      expect: 201,
    });
    assert.equal((mutatingCreated['webhooks'] as Record<string, unknown>[])[0]?.['reinvocationPolicy'], 'Never');
  });

  test('invalid configurations are refused with kube-apiserver field errors', async () => {
    const cases: [Record<string, unknown>[], string][] = [
      [[minimal({ name: 'two.segments' })], 'webhooks[0].name: Invalid value: "two.segments": should be a domain with at least three segments separated by dots'],
      [[minimal(), minimal()], 'webhooks[1].name: Duplicate value: "min.bosun.test"'],
      [[minimal({ sideEffects: undefined })], 'webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun'],
      [[minimal({ sideEffects: 'Some' })], 'webhooks[0].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"'],
      [[minimal({ admissionReviewVersions: undefined })], 'webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1'],
      [[minimal({ admissionReviewVersions: ['v2'] })], 'webhooks[0].admissionReviewVersions: Invalid value: []string{"v2"}: must include at least one of v1, v1beta1'],
      [
        [minimal({ clientConfig: { url: 'http://127.0.0.1/x' } })],
        `webhooks[0].clientConfig.url: Invalid value: "http": 'https' is the only allowed URL scheme; desired format: https://host[/path]`,
      ],
      [
        [minimal({ clientConfig: { url: 'https://127.0.0.1/x', service: { namespace: 'a', name: 'b' } } })],
        'webhooks[0].clientConfig: Required value: exactly one of url or service is required',
      ],
      [[minimal({ timeoutSeconds: 31 })], 'webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds'],
      [[minimal({ failurePolicy: 'Sometimes' })], 'webhooks[0].failurePolicy: Unsupported value: "Sometimes": supported values: "Fail", "Ignore"'],
      [
        [minimal({ rules: [{ operations: ['PATCH'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }] })],
        'webhooks[0].rules[0].operations[0]: Unsupported value: "PATCH": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"',
      ],
      [
        [minimal({ rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['*/*', 'pods'] }] })],
        `webhooks[0].rules[0].resources: Invalid value: []string{"*/*", "pods"}: if '*/*' is present, must not specify other resources`,
      ],
      [
        [minimal({ matchConditions: [{ name: 'bad', expression: 'object.metadata.name ==' }] })],
        'webhooks[0].matchConditions[0].expression: Invalid value: "object.metadata.name ==": compilation failed: Unexpected token: EOF',
      ],
    ];
    for (const [webhooks, message] of cases) {
      const { status, body } = await post(server, validatingPath, validating('invalid', webhooks));
      assert.equal(status, 422, message);
      assert.equal(body['reason'], 'Invalid');
      assert.ok(String(body['message']).startsWith(`ValidatingWebhookConfiguration.admissionregistration.k8s.io "invalid" is invalid: ${message}`), `${String(body['message'])}\n!= ${message}`);
    }
    const { status, body } = await post(server, mutatingPath, mutating('invalid', [minimal({ reinvocationPolicy: 'Always' })]));
    assert.equal(status, 422);
    assert.equal(
      body['message'],
      'MutatingWebhookConfiguration.admissionregistration.k8s.io "invalid" is invalid: webhooks[0].reinvocationPolicy: Unsupported value: "Always": supported values: "IfNeeded", "Never"',
    );
    assert.equal((await server.api(`${validatingPath}/invalid`)).status, 404);
  });

  test('kubectl apply, get and a watch see configurations like any other resource', async () => {
    const kubectl = kubectlFor(server.kubeconfigFile);
    const watch = kubectl.stream(['get', 'validatingwebhookconfigurations', '--watch', '-o', 'name']);
    try {
      const yaml = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: applied
webhooks:
- name: applied.bosun.test
  clientConfig:
    url: https://127.0.0.1:9443/validate
  rules: [{operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [configmaps]}]
  sideEffects: None
  admissionReviewVersions: [v1]
`;
      let result = await kubectl(['apply', '-f', '-'], yaml);
      assert.equal(result.stdout, 'validatingwebhookconfiguration.admissionregistration.k8s.io/applied created\n', result.stderr);
      result = await kubectl(['apply', '-f', '-'], yaml.replace('validate', 'check'));
      assert.equal(result.stdout, 'validatingwebhookconfiguration.admissionregistration.k8s.io/applied configured\n', result.stderr);
      const stored = await server.json<KubeObject>(`${validatingPath}/applied`);
      assert.deepEqual((stored['webhooks'] as Record<string, any>[])[0]?.['clientConfig'], { url: 'https://127.0.0.1:9443/check' });
      result = await kubectl(['get', 'validatingwebhookconfigurations', 'applied']);
      assert.deepEqual(result.stdout.trim().split('\n').map((l) => l.trim().split(/\s+/).slice(0, 2)), [
        ['NAME', 'WEBHOOKS'],
        ['applied', '1'],
      ]);
      const lines = await watch.waitForLines(1);
      assert.ok(lines.includes('validatingwebhookconfiguration.admissionregistration.k8s.io/applied'), JSON.stringify(lines));
    } finally {
      await watch.stop();
    }
  });
});
