// `bosun controllers` and admission webhooks: what the flags mean against an arbitrary cluster, and a standby
// replica (leader election lost to another holder) that still serves the webhook, as controller-runtime does.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { leasesResource, validatingWebhookConfigurationsResource } from '../../src/apimachinery/builtin-resources.ts';
import { controllersCommand, resolveWebhookFlags, runControllers, WebhookOptionsError, type WebhookFlags } from '../../src/cli/commands/controllers.ts';
import { bosunFamilies } from '../../src/cli/families.ts';
import type { KubeClient } from '../../src/client/client.ts';
import { createKubeClient } from '../../src/client/create-client.ts';
import { loadBosunCrds } from '../../src/crds/index.ts';
import { executionsResource } from '../../src/landscaper/api/resources.ts';
import type { Lease } from '../../src/apimachinery/api/index.ts';
import type { WebhookConfigurationObject } from '../../src/runtime/webhook/index.ts';
import { freePort } from '../helpers/bosun-process.ts';
import { startTestServer, type TestServer } from '../helpers/api-server.ts';

const flags = (f: Partial<WebhookFlags>): WebhookFlags => ({ webhook: true, ...f });
const files: Record<string, string> = { 'tls.crt': 'CERT', 'tls.key': 'KEY', 'ca.crt': 'CA' };
const read = (f: string) => files[f] ?? assert.fail(`unexpected file ${f}`);

test('webhook flags: off without a URL, served where the URL says, removed with --no-webhook', () => {
  assert.equal(resolveWebhookFlags(flags({}), read), undefined);
  assert.deepEqual(resolveWebhookFlags(flags({ webhook: false }), read), { prune: 'selected' });
  assert.deepEqual(resolveWebhookFlags(flags({ webhookUrl: 'https://127.0.0.1:9555' }), read), { serve: { bind: '127.0.0.1', port: 9555, url: 'https://127.0.0.1:9555' }, prune: 'selected' });
  assert.deepEqual(resolveWebhookFlags(flags({ webhookUrl: 'https://bosun-webhook.bosun-system.svc' }), read), {
    serve: { bind: '0.0.0.0', port: 9443, url: 'https://bosun-webhook.bosun-system.svc' },
    prune: 'selected',
  });
  assert.deepEqual(resolveWebhookFlags(flags({ webhookUrl: 'https://10.0.0.7:8443', webhookBind: '10.0.0.7', webhookPort: 8443 }), read), {
    serve: { bind: '10.0.0.7', port: 8443, url: 'https://10.0.0.7:8443' },
    prune: 'selected',
  });
  assert.deepEqual(resolveWebhookFlags(flags({ webhookBind: '192.168.1.5' }), read), { serve: { bind: '192.168.1.5', port: 9443 }, prune: 'selected' });
  assert.deepEqual(resolveWebhookFlags(flags({ webhookUrl: 'https://svc.example:443', webhookTlsCert: 'tls.crt', webhookTlsKey: 'tls.key', webhookCaBundle: 'ca.crt' }), read), {
    serve: { bind: '0.0.0.0', port: 9443, url: 'https://svc.example:443', tls: { cert: 'CERT', key: 'KEY', caBundle: 'CA' } },
    prune: 'selected',
  });
  assert.deepEqual(resolveWebhookFlags(flags({ webhookUrl: 'https://bosun-webhook.ns1.svc:443', webhookCertSecret: 'bosun-webhook-cert' }), read), {
    serve: { bind: '0.0.0.0', port: 9443, url: 'https://bosun-webhook.ns1.svc:443', certSecret: { namespace: 'ns1', name: 'bosun-webhook-cert', dnsName: 'bosun-webhook.ns1.svc' } },
    prune: 'selected',
  });
  const refused: [Partial<WebhookFlags>, RegExp][] = [
    [{ webhookUrl: 'http://127.0.0.1:9443' }, /must be https/],
    [{ webhookUrl: 'not a url' }, /is not a URL/],
    [{ webhookBind: '0.0.0.0' }, /needs --webhook-url/],
    [{ webhookBind: 'myhost' }, /takes an IP address/],
    [{ webhookPort: 9443 }, /need --webhook-url/],
    [{ webhookUrl: 'https://a.example', webhookTlsCert: 'tls.crt' }, /go together/],
    [{ webhookUrl: 'https://a.example', webhookCaBundle: 'ca.crt' }, /needs --webhook-tls-cert/],
    [{ webhookUrl: 'https://a.example', webhookCertSecret: 'cert' }, /needs --webhook-url of a Service/],
    [{ webhookUrl: 'https://w.ns.svc', webhookCertSecret: 'cert', webhookTlsCert: 'tls.crt', webhookTlsKey: 'tls.key' }, /exclude each other/],
  ];
  for (const [f, message] of refused) assert.throws(() => resolveWebhookFlags(flags(f), read), (e: unknown) => e instanceof WebhookOptionsError && message.test(e.message), JSON.stringify(f));
});

test('the command has the webhook flags', () => {
  const names = controllersCommand().options.map((o) => o.long);
  for (const flag of ['--webhook-url', '--webhook-bind', '--webhook-port', '--webhook-tls-cert', '--webhook-tls-key', '--webhook-ca-bundle', '--webhook-cert-secret', '--no-webhook']) assert.ok(names.includes(flag), flag);
});

let server: TestServer;
let client: KubeClient;
let kubeconfig: string;
before(async () => {
  server = await startTestServer({ crds: loadBosunCrds() });
  client = createKubeClient({ kubeconfig: server.kubeconfig });
  kubeconfig = join(mkdtempSync(join(tmpdir(), 'bosun-controllers-webhook-')), 'kubeconfig');
  writeFileSync(kubeconfig, server.kubeconfig);
});
after(async () => {
  await client.close();
  await server.close();
});

test('a standby replica serves the webhook: validation does not wait for leadership', { timeout: 60_000 }, async () => {
  const now = new Date().toISOString();
  const lease: Lease = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'webhook-standby', namespace: 'default' }, spec: { holderIdentity: 'someone-else', leaseDurationSeconds: 3600, acquireTime: now, renewTime: now } };
  await client.create(leasesResource, lease);
  const webhookPort = await freePort();
  const url = `https://127.0.0.1:${webhookPort}`;
  const webhook = resolveWebhookFlags(flags({ webhookUrl: url }));
  assert.ok(webhook);
  const mgr = await runControllers(
    { kubeconfig, leaderElect: true, leaderElectionId: 'webhook-standby', leaderElectionNamespace: 'default', metricsPort: 0, metricsBindAddress: '127.0.0.1', logLevel: 'silent', controllers: ['landscaper'], webhook },
    bosunFamilies,
  );
  try {
    assert.equal(mgr.isLeader, false);
    const vwc = await client.get<WebhookConfigurationObject>(validatingWebhookConfigurationsResource, 'landscaper-validation-webhook');
    assert.equal((vwc.webhooks?.[1]?.['clientConfig'] as { url: string }).url, `${url}/webhook/validate/executions`);
    const cyclic = {
      apiVersion: 'landscaper.gardener.cloud/v1alpha1',
      kind: 'Execution',
      metadata: { name: 'cyclic', namespace: 'default' },
      spec: { deployItems: [{ name: 'a', type: 't', config: { apiVersion: 'mock.deployer.landscaper.gardener.cloud/v1alpha1', kind: 'ProviderConfiguration' }, dependsOn: ['a'] }] },
    };
    await assert.rejects(client.create(executionsResource, cyclic), /admission webhook "executions\.validation\.landscaper\.gardener\.cloud" denied the request: spec\.deployItems\[0\]\.dependsOn\[0\]: Invalid value: "a": a deploy item must not depend on itself/);
    const ready = await fetch(`http://127.0.0.1:${mgr.metricsAddress!.port}/readyz`);
    assert.match(await ready.text(), /\[\+\]webhooks ok/);
  } finally {
    await mgr.stop();
  }
  // Its own generated certificate: nobody else can serve this configuration, so a clean stop removes it.
  await assert.rejects(client.get(validatingWebhookConfigurationsResource, 'landscaper-validation-webhook'), /not found/);
});
