// A family's webhooks as installed in a cluster, against the embedded API server: the server keeps its
// certificate in a Secret, registers `clientConfig.service` with that certificate's CA as caBundle, and the API
// server reaches it through the Service's endpoint. The webhook listens on a non-loopback address of this host,
// which the API server reaches as it reaches a pod IP.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Secret } from '../../../src/apimachinery/api/core-v1.ts';
import { secretsResource } from '../../../src/apimachinery/builtin-resources.ts';
import type { KubeClient } from '../../../src/client/client.ts';
import { createKubeClient } from '../../../src/client/create-client.ts';
import { createLogger } from '../../../src/runtime/logger.ts';
import {
  AdmissionWebhooks,
  denied,
  webhookConfigurationResource,
  WebhookCertificateSecret,
  WebhookServer,
  type WebhookConfigurationObject,
} from '../../../src/runtime/webhook/index.ts';
import { send, startTestServer, type TestServer } from '../../helpers/api-server.ts';
import { hostAddress } from '../../helpers/host-address.ts';


let server: TestServer;
let client: KubeClient;
before(async () => {
  server = await startTestServer();
  client = createKubeClient({ kubeconfig: server.kubeconfig });
});
after(async () => {
  await client.close();
  await server.close();
});

void test('webhooks behind a Service serve the Secret’s certificate and the API server calls them through the Service', async () => {
  const ip = hostAddress();
  await client.create<Secret>(secretsResource, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'webhook-cert', namespace: 'default' }, type: 'Opaque' });
  const service = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'bosun-webhook' }, spec: { ports: [{ name: 'webhook', port: 443, targetPort: 'webhook' }] } };
  assert.equal((await send(server, 'POST', '/api/v1/namespaces/default/services', service)).status, 201);

  const logger = createLogger({ level: 'silent' });
  const webhooks = new AdmissionWebhooks({
    client,
    server: new WebhookServer({ host: ip, url: 'https://bosun-webhook.default.svc', logger }),
    certificates: new WebhookCertificateSecret({ client, namespace: 'default', name: 'webhook-cert', dnsName: 'bosun-webhook.default.svc' }),
    logger,
  });
  webhooks.handle('/validate-configmaps', (request) => denied(`${request.name ?? ''} is refused through the Service`));
  webhooks.configure({
    type: 'Validating',
    name: 'service-test',
    component: 'test',
    webhooks: [{ name: 'configmaps.service.bosun.test', path: '/validate-configmaps', rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }] }],
  });
  await webhooks.start();
  try {
    const secret = await client.get<Secret>(secretsResource, 'webhook-cert', { namespace: 'default' });
    const configuration = await client.get<WebhookConfigurationObject>(webhookConfigurationResource('Validating'), 'service-test');
    assert.deepEqual(configuration.webhooks?.[0]?.clientConfig, {
      service: { namespace: 'default', name: 'bosun-webhook', port: 443, path: '/validate-configmaps' },
      caBundle: secret.data?.['ca.crt'],
    });

    const slice = {
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: { name: 'bosun-webhook-1', labels: { 'kubernetes.io/service-name': 'bosun-webhook' } },
      addressType: 'IPv4',
      endpoints: [{ addresses: [ip], conditions: { ready: true } }],
      ports: [{ name: 'webhook', port: webhooks.server.address?.port ?? 0, protocol: 'TCP' }],
    };
    assert.equal((await send(server, 'POST', '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices', slice)).status, 201);
    const attempt = await send(server, 'POST', '/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'through-service' } });
    assert.equal(attempt.status, 403);
    assert.equal(attempt.body['message'], 'admission webhook "configmaps.service.bosun.test" denied the request: through-service is refused through the Service');
  } finally {
    await webhooks.stop();
  }
  // Replicas share the certificate: one stopping leaves the configuration to the others.
  assert.ok(await client.get(webhookConfigurationResource('Validating'), 'service-test'));
});
