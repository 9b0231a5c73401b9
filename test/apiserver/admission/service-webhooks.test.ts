// Webhooks reached through `clientConfig.service`, as in a cluster: the embedded server resolves the Service to a
// ready endpoint of its EndpointSlices (or Endpoints) and verifies the certificate against `NAME.NAMESPACE.svc`.
// The webhook is the runtime's server listening on a non-loopback address of this host (kube refuses loopback
// endpoints), which is what a pod IP on the node's bridge is to the API server.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { denied } from '../../../src/runtime/webhook/responses.ts';
import { WebhookServer } from '../../../src/runtime/webhook/server.ts';
import { send, startTestServer, type TestServer } from '../../helpers/api-server.ts';
import { hostAddress } from '../../helpers/host-address.ts';
import { configMap, createValidating, deleteConfiguration, postConfigMap, validatingPath } from './support.ts';


async function createService(server: TestServer, name: string): Promise<void> {
  const service = { apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { ports: [{ name: 'https', port: 443, targetPort: 9443 }] } };
  assert.equal((await send(server, 'POST', '/api/v1/namespaces/default/services', service)).status, 201);
}

async function createSlice(server: TestServer, service: string, ip: string, port: number, ready = true): Promise<void> {
  const slice = {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { name: `${service}-${ready ? 'ready' : 'unready'}`, labels: { 'kubernetes.io/service-name': service } },
    addressType: 'IPv4',
    endpoints: [{ addresses: [ip], conditions: { ready } }],
    ports: [{ name: 'https', port, protocol: 'TCP' }],
  };
  assert.equal((await send(server, 'POST', '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices', slice)).status, 201);
}

describe('admission webhooks behind a Service', () => {
  let server: TestServer;
  let hook: WebhookServer;
  let caBundle: string;
  const ip = hostAddress();
  const service = (name: string) => ({ namespace: 'default', name, path: '/validate' });

  before(async () => {
    server = await startTestServer();
    hook = new WebhookServer({ host: ip, url: 'https://webhook.default.svc' });
    hook.register('/validate', (request) => denied(`${request.name ?? ''} refused by the service's webhook`));
    await hook.start();
    caBundle = Buffer.from(hook.caBundle).toString('base64');
    await createService(server, 'webhook');
  });
  after(async () => {
    await hook.stop();
    await server.close();
  });

  test('no endpoints: the call fails with kube-apiserver message under Fail, the write goes through under Ignore', async () => {
    await createValidating(server, 'svc', [{ name: 'svc.bosun.test', service: service('webhook'), caBundle }]);
    try {
      const { status, body } = await postConfigMap(server, configMap('no-endpoints'));
      assert.equal(status, 500);
      assert.equal(
        body['message'],
        'Internal error occurred: failed calling webhook "svc.bosun.test": failed to call webhook: Post "https://webhook.default.svc:443/validate?timeout=10s": no endpoints available for service "webhook"',
      );
    } finally {
      await deleteConfiguration(server, validatingPath, 'svc');
    }
    await createValidating(server, 'svc-ignored', [{ name: 'svc.bosun.test', service: service('webhook'), caBundle, failurePolicy: 'Ignore' }]);
    try {
      assert.equal((await postConfigMap(server, configMap('no-endpoints'))).status, 201);
    } finally {
      await deleteConfiguration(server, validatingPath, 'svc-ignored');
    }
  });

  test('a missing Service and an unknown port fail with kube-apiserver messages', async () => {
    await createValidating(server, 'svc-missing', [
      { name: 'missing.bosun.test', service: service('absent'), caBundle },
      { name: 'port.bosun.test', service: { ...service('webhook'), port: 8443 }, caBundle },
    ]);
    try {
      const { body } = await postConfigMap(server, configMap('missing-service'));
      assert.equal(
        body['message'],
        'Internal error occurred: failed calling webhook "missing.bosun.test": failed to call webhook: Post "https://absent.default.svc:443/validate?timeout=10s": service "absent" not found',
      );
    } finally {
      await deleteConfiguration(server, validatingPath, 'svc-missing');
    }
    await createValidating(server, 'svc-port', [{ name: 'port.bosun.test', service: { ...service('webhook'), port: 8443 }, caBundle }]);
    try {
      const { body } = await postConfigMap(server, configMap('missing-port'));
      assert.equal(
        body['message'],
        'Internal error occurred: failed calling webhook "port.bosun.test": failed to call webhook: Post "https://webhook.default.svc:8443/validate?timeout=10s": no service port 8443 found for service "webhook"',
      );
    } finally {
      await deleteConfiguration(server, validatingPath, 'svc-port');
    }
  });

  test('a ready endpoint is called over TLS verified for NAME.NAMESPACE.svc; not-ready endpoints are skipped', async () => {
    const port = hook.address?.port ?? 0;
    await createSlice(server, 'webhook', ip, port);
    // A not-ready endpoint on a closed port: were it chosen, the call would fail with connection refused.
    await createSlice(server, 'webhook', '192.0.2.254', 1, false);
    await createValidating(server, 'svc-live', [{ name: 'svc.bosun.test', service: service('webhook'), caBundle }]);
    try {
      for (const name of ['first', 'second', 'third']) {
        const { status, body } = await postConfigMap(server, configMap(name));
        assert.equal(status, 403);
        assert.equal(body['message'], `admission webhook "svc.bosun.test" denied the request: ${name} refused by the service's webhook`);
      }
    } finally {
      await deleteConfiguration(server, validatingPath, 'svc-live');
    }
  });

  test('a Service without EndpointSlices is resolved through its core/v1 Endpoints', async () => {
    await createService(server, 'legacy');
    const endpoints = { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'legacy' }, subsets: [{ addresses: [{ ip }], ports: [{ name: 'https', port: hook.address?.port ?? 0 }] }] };
    assert.equal((await send(server, 'POST', '/api/v1/namespaces/default/endpoints', endpoints)).status, 201);
    await createValidating(server, 'svc-legacy', [{ name: 'legacy.bosun.test', service: service('legacy'), caBundle }]);
    try {
      const { body } = await postConfigMap(server, configMap('legacy'));
      // The certificate is for webhook.default.svc: reaching the server and failing its name check proves the route.
      assert.match(body['message'], /Post "https:\/\/legacy\.default\.svc:443\/validate\?timeout=10s": tls: failed to verify certificate: x509: certificate is valid for .*, not legacy\.default\.svc$/);
    } finally {
      await deleteConfiguration(server, validatingPath, 'svc-legacy');
    }
  });

  test("a certificate that is not for the Service's name is refused, as by kube-apiserver", async () => {
    await createService(server, 'other');
    await createSlice(server, 'other', ip, hook.address?.port ?? 0);
    await createValidating(server, 'svc-other', [{ name: 'other.bosun.test', service: service('other'), caBundle }]);
    try {
      const { status, body } = await postConfigMap(server, configMap('wrong-name'));
      assert.equal(status, 500);
      assert.match(
        body['message'],
        /^Internal error occurred: failed calling webhook "other\.bosun\.test": failed to call webhook: Post "https:\/\/other\.default\.svc:443\/validate\?timeout=10s": tls: failed to verify certificate: x509: certificate is valid for .*webhook\.default\.svc.*, not other\.default\.svc$/,
      );
    } finally {
      await deleteConfiguration(server, validatingPath, 'svc-other');
    }
  });
});
