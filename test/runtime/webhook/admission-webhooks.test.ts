// The webhooks as a manager runnable: served and configured before the controllers start, on every
// replica; a stale configuration (a killed process's dead port) replaced at start; Bosun's unserved
// configurations pruned; their own configuration removed on a clean stop when nobody else can serve it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pino } from 'pino';
import { Manager, type Runnable } from '../../../src/runtime/manager.ts';
import { AdmissionWebhooks, allowed, applyWebhookConfiguration, jsonPatchFor, WebhookServer, type WebhookConfigurationObject, type WebhookConfigurationSpec } from '../../../src/runtime/webhook/index.ts';
import { memoryClient, type MemoryClient } from './memory-client.ts';
import { post, review } from './https.ts';

const silent = pino({ level: 'silent' });
const spec: WebhookConfigurationSpec = {
  type: 'Validating',
  name: 'demo-validation',
  component: 'demo',
  webhooks: [{ name: 'widgets.validation.demo.test', path: '/validate/widgets', rules: [{ apiGroups: ['demo.test'], apiVersions: ['v1'], resources: ['widgets'], operations: ['CREATE'] }] }],
};

function webhooks(client: MemoryClient, extra: Partial<ConstructorParameters<typeof AdmissionWebhooks>[0]> = {}): AdmissionWebhooks {
  const w = new AdmissionWebhooks({ client, server: new WebhookServer({ logger: silent }), logger: silent, ...extra });
  w.handle('/validate/widgets', () => allowed('ok'));
  w.configure(spec);
  return w;
}

const stored = (client: MemoryClient, name = 'demo-validation') => client.objects.get(`validatingwebhookconfigurations/${name}`) as WebhookConfigurationObject | undefined;
const clientConfig = (obj: WebhookConfigurationObject | undefined) => obj?.webhooks?.[0]?.['clientConfig'] as { url: string; caBundle: string } | undefined;

test('start replaces a stale configuration with the live URL and CA; the API server can then call it', async () => {
  const client = memoryClient();
  await applyWebhookConfiguration(client, spec, { url: 'https://127.0.0.1:1', caBundle: 'old CA' });
  const w = webhooks(client);
  assert.equal(w.ready, false);
  await w.start();
  try {
    assert.equal(w.ready, true);
    const cc = clientConfig(stored(client));
    assert.equal(cc?.url, `${w.server.url}/validate/widgets`);
    const ca = Buffer.from(cc?.caBundle ?? '', 'base64').toString('utf8');
    assert.equal(ca, w.server.caBundle);
    // Exactly what the API server does with a configuration: POST to clientConfig.url, trusting caBundle.
    const res = JSON.parse((await post(cc!.url, ca, review({ uid: 'from-config' }))).body) as { response: { uid: string; allowed: boolean } };
    assert.deepEqual([res.response.uid, res.response.allowed], ['from-config', true]);
  } finally {
    await w.stop();
  }
  assert.equal(stored(client), undefined, 'removed on a clean stop: the certificate was this process\'s own');
  assert.equal(w.server.listening, false);
});

test('stop keeps the configuration when another process took it over, or with a shared certificate', async () => {
  const client = memoryClient();
  const w = webhooks(client);
  await w.start();
  await applyWebhookConfiguration(client, spec, { url: 'https://10.0.0.2:9443', caBundle: 'replica B' });
  await w.stop();
  assert.equal(clientConfig(stored(client))?.url, 'https://10.0.0.2:9443/validate/widgets');
  const kept = webhooks(memoryClient(), { removeOnStop: false });
  await kept.start();
  await kept.stop();
});

test('start prunes Bosun\'s configurations that nothing here serves', async () => {
  const client = memoryClient();
  const dead = { url: 'https://127.0.0.1:1', caBundle: 'x' };
  await applyWebhookConfiguration(client, { ...spec, name: 'chaos-validation', component: 'chaos' }, dead);
  await applyWebhookConfiguration(client, { ...spec, name: 'other-validation', component: 'other' }, dead);
  const scoped = webhooks(client, { prune: ['demo', 'chaos'] });
  await scoped.start();
  await scoped.stop();
  assert.equal(stored(client, 'chaos-validation'), undefined);
  assert.ok(stored(client, 'other-validation'), 'outside the scope');
  const all = webhooks(client, { prune: 'all' });
  await all.start();
  assert.equal(stored(client, 'other-validation'), undefined);
  assert.ok(stored(client), 'its own stays');
  await all.stop();
});

test('an API server without admissionregistration: served anyway, ready, nothing written', async () => {
  const client = memoryClient();
  client.unserved.add('validatingwebhookconfigurations');
  const w = webhooks(client, { prune: 'all' });
  await w.start();
  assert.equal(w.ready, true);
  assert.equal(w.server.listening, true);
  await w.stop();
  assert.deepEqual(client.writes, []);
});

test('configure refuses a webhook whose path has no handler', () => {
  const w = new AdmissionWebhooks({ client: memoryClient(), server: new WebhookServer({ logger: silent }) });
  assert.throws(() => w.configure(spec), /no handler is registered at \/validate\/widgets/);
});

test('the manager starts runnables in order before the controllers and stops them in reverse, last', async () => {
  const events: string[] = [];
  const runnable = (name: string, fail = false): Runnable => ({
    name,
    start: async () => {
      events.push(`start ${name}`);
      if (fail) throw new Error(`${name} cannot start`);
    },
    stop: async () => {
      events.push(`stop ${name}`);
    },
  });
  const mgr = new Manager({ client: memoryClient(), logger: silent });
  mgr.add(runnable('a'));
  mgr.add(runnable('b'));
  await mgr.start();
  assert.throws(() => mgr.add(runnable('late')), /after the manager started/);
  await mgr.stop();
  assert.deepEqual(events, ['start a', 'start b', 'stop b', 'stop a']);

  events.length = 0;
  const failing = new Manager({ client: memoryClient(), logger: silent });
  failing.add(runnable('ok'));
  failing.add(runnable('broken', true));
  failing.add(runnable('never'));
  await assert.rejects(failing.start(), /broken cannot start/);
  await assert.rejects(failing.done, /broken cannot start/);
  assert.deepEqual(events, ['start ok', 'start broken', 'stop ok']);
});

test('jsonPatchFor turns one object into another', () => {
  const from = { metadata: { name: 'a', labels: { x: '1', 'a/b': '2' } }, spec: { list: [1, 2], gone: true } };
  const to = { metadata: { name: 'a', labels: { x: '2', 'a/b': '2', 'new~key': 'v' } }, spec: { list: [1, 2, 3] } };
  assert.deepEqual(jsonPatchFor(from, to), [
    { op: 'replace', path: '/metadata/labels/x', value: '2' },
    { op: 'add', path: '/metadata/labels/new~0key', value: 'v' },
    { op: 'remove', path: '/spec/gone' },
    { op: 'replace', path: '/spec/list', value: [1, 2, 3] },
  ]);
  assert.deepEqual(jsonPatchFor(from, structuredClone(from)), []);
});
