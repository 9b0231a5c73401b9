// Webhook configurations: built with the server's URL and CA, written only when they differ, removed only
// when they are Bosun's (and, if asked, still point at this server), and stale ones pruned.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mutatingWebhookConfigurationsResource, validatingWebhookConfigurationsResource } from '../../../src/apimachinery/builtin-resources.ts';
import {
  applyWebhookConfiguration,
  buildWebhookConfiguration,
  deleteWebhookConfiguration,
  pruneWebhookConfigurations,
  WebhookConfigurationUnsupportedError,
  type WebhookConfigurationObject,
  type WebhookConfigurationSpec,
} from '../../../src/runtime/webhook/index.ts';
import { memoryClient } from './memory-client.ts';

const spec: WebhookConfigurationSpec = {
  type: 'Validating',
  name: 'demo-validation',
  component: 'demo',
  webhooks: [{ name: 'widgets.validation.demo.test', path: '/webhook/validate/widgets', rules: [{ apiGroups: ['demo.test'], apiVersions: ['v1'], resources: ['widgets'], operations: ['CREATE', 'UPDATE'] }] }],
};
const endpoint = { url: 'https://127.0.0.1:9443/', caBundle: '-----BEGIN CERTIFICATE-----\nAAA\n-----END CERTIFICATE-----\n' };

test('the configuration carries the URL per path, the CA in base64 and upstream-compatible defaults', () => {
  const obj = buildWebhookConfiguration(spec, endpoint);
  assert.equal(obj.apiVersion, 'admissionregistration.k8s.io/v1');
  assert.equal(obj.kind, 'ValidatingWebhookConfiguration');
  assert.deepEqual(obj.metadata.labels, { 'app.kubernetes.io/managed-by': 'bosun', 'app.kubernetes.io/component': 'demo' });
  assert.deepEqual(obj.webhooks, [
    {
      name: 'widgets.validation.demo.test',
      clientConfig: { url: 'https://127.0.0.1:9443/webhook/validate/widgets', caBundle: Buffer.from(endpoint.caBundle).toString('base64') },
      rules: [{ apiGroups: ['demo.test'], apiVersions: ['v1'], resources: ['widgets'], operations: ['CREATE', 'UPDATE'], scope: '*' }],
      failurePolicy: 'Fail',
      sideEffects: 'None',
      timeoutSeconds: 10,
      admissionReviewVersions: ['v1'],
      matchPolicy: 'Equivalent',
    },
  ]);
  const mutating = buildWebhookConfiguration({ ...spec, type: 'Mutating' }, endpoint);
  assert.equal(mutating.kind, 'MutatingWebhookConfiguration');
  assert.equal(mutating.webhooks?.[0]?.['reinvocationPolicy'], 'Never');
});

test('apply creates, is a no-op when nothing changed (even with server defaults), and updates a stale URL', async () => {
  const client = memoryClient();
  await applyWebhookConfiguration(client, spec, endpoint);
  assert.deepEqual(client.writes, ['create validatingwebhookconfigurations/demo-validation']);
  // The API server fills in defaults; an operator adds a label. Neither makes us write again.
  const stored = client.objects.get('validatingwebhookconfigurations/demo-validation') as WebhookConfigurationObject;
  stored.webhooks![0]!['namespaceSelector'] = {};
  stored.metadata.labels = { ...stored.metadata.labels, team: 'platform' };
  await applyWebhookConfiguration(client, spec, endpoint);
  assert.equal(client.writes.length, 1);
  // A restart on another port (the dead-port case) rewrites the URL and keeps the operator's label.
  const moved = await applyWebhookConfiguration(client, spec, { ...endpoint, url: 'https://127.0.0.1:40001' });
  assert.deepEqual(client.writes.slice(1), ['update validatingwebhookconfigurations/demo-validation']);
  assert.equal((moved.webhooks?.[0]?.['clientConfig'] as { url: string }).url, 'https://127.0.0.1:40001/webhook/validate/widgets');
  assert.equal(moved.metadata.labels?.['team'], 'platform');
});

test('an API server without admissionregistration is a typed error', async () => {
  const client = memoryClient();
  client.unserved.add('validatingwebhookconfigurations');
  await assert.rejects(applyWebhookConfiguration(client, spec, endpoint), WebhookConfigurationUnsupportedError);
  assert.deepEqual(await pruneWebhookConfigurations(client), []);
  assert.equal(await deleteWebhookConfiguration(client, 'Validating', 'demo-validation'), false);
});

test('delete removes only Bosun\'s configuration, and with onlyIfEndpoint only one that still points here', async () => {
  const client = memoryClient();
  await applyWebhookConfiguration(client, spec, endpoint);
  assert.equal(await deleteWebhookConfiguration(client, 'Validating', 'demo-validation', { onlyIfEndpoint: { ...endpoint, url: 'https://127.0.0.1:1' } }), false);
  assert.equal(await deleteWebhookConfiguration(client, 'Validating', 'demo-validation', { onlyIfEndpoint: { ...endpoint, caBundle: 'other' } }), false);
  assert.equal(await deleteWebhookConfiguration(client, 'Validating', 'demo-validation', { onlyIfEndpoint: endpoint }), true);
  assert.equal(await deleteWebhookConfiguration(client, 'Validating', 'demo-validation'), false, 'already gone');
  await client.create(validatingWebhookConfigurationsResource, { metadata: { name: 'someone-elses' }, webhooks: [] });
  assert.equal(await deleteWebhookConfiguration(client, 'Validating', 'someone-elses'), false);
  assert.equal(await deleteWebhookConfiguration(client, 'Validating', 'someone-elses', { onlyIfManagedByBosun: false }), true);
});

test('prune deletes Bosun\'s configurations that are not kept, within the given components', async () => {
  const client = memoryClient();
  await applyWebhookConfiguration(client, spec, endpoint);
  await applyWebhookConfiguration(client, { ...spec, name: 'chaos-validation', component: 'chaos' }, endpoint);
  await applyWebhookConfiguration(client, { ...spec, type: 'Mutating', name: 'chaos-mutation', component: 'chaos' }, endpoint);
  await client.create(mutatingWebhookConfigurationsResource, { metadata: { name: 'istio-sidecar-injector' }, webhooks: [] });
  assert.deepEqual(await pruneWebhookConfigurations(client, { components: ['demo'], keep: [{ type: 'Validating', name: 'demo-validation' }] }), []);
  assert.deepEqual(await pruneWebhookConfigurations(client, { components: ['chaos'] }), ['ValidatingWebhookConfiguration/chaos-validation', 'MutatingWebhookConfiguration/chaos-mutation']);
  assert.deepEqual(await pruneWebhookConfigurations(client), ['ValidatingWebhookConfiguration/demo-validation']);
  assert.ok(client.objects.has('mutatingwebhookconfigurations/istio-sidecar-injector'), 'a foreign configuration stays');
});
