// The webhook certificate kept in a Secret, against the embedded API server with an injected clock: the first
// replica fills the empty Secret, the others serve what it made, a certificate with less than a third of its
// validity left is made again (the serving one alone while the CA is good; with the CA, the old CA stays in
// the bundle), and one for another Service name is replaced.
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { after, before, test } from 'node:test';
import type { Secret } from '../../../src/apimachinery/api/core-v1.ts';
import { secretsResource } from '../../../src/apimachinery/builtin-resources.ts';
import type { KubeClient } from '../../../src/client/client.ts';
import { createKubeClient } from '../../../src/client/create-client.ts';
import { WebhookCertificateSecret } from '../../../src/runtime/webhook/certificate-secret.ts';
import { startTestServer, type TestServer } from '../../helpers/api-server.ts';

const DAY = 24 * 60 * 60 * 1000;
const T0 = Date.parse('2026-01-01T00:00:00Z');
const dnsName = 'bosun-webhook.default.svc';

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

async function emptySecret(name: string): Promise<void> {
  await client.create<Secret>(secretsResource, { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace: 'default' }, type: 'Opaque' });
}

const resourceVersion = async (name: string): Promise<string | undefined> =>
  (await client.get<Secret>(secretsResource, name, { namespace: 'default' })).metadata.resourceVersion;

/** A replica whose clock reads `clock.at`; leaf 90 days, CA 300 days. */
function replica(name: string, clock: { at: number }, dns = dnsName): WebhookCertificateSecret {
  return new WebhookCertificateSecret({ client, namespace: 'default', name, dnsName: dns, now: () => new Date(clock.at), servingValidityMs: 90 * DAY, caValidityMs: 300 * DAY });
}

const blocks = (bundle: string): X509Certificate[] => (bundle.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []).map((b) => new X509Certificate(b));

void test('the first replica fills the Secret; the others share it; renewal at a third of the validity left', async () => {
  await emptySecret('cert');
  const clockA = { at: T0 };
  const clockB = { at: T0 + 10 * DAY };
  const a = replica('cert', clockA);
  const b = replica('cert', clockB);

  const first = await a.ensure();
  const leaf = new X509Certificate(first.cert);
  const [ca, ...olderCas] = blocks(first.caBundle);
  assert.ok(ca);
  assert.equal(olderCas.length, 0);
  assert.ok(leaf.checkIssued(ca) && leaf.verify(ca.publicKey));
  assert.equal(leaf.checkHost(dnsName), dnsName);
  assert.equal(Date.parse(leaf.validFrom), T0);
  // The leaf's 90 days come first: renewal with 30 days left.
  assert.equal(first.renewAt.getTime(), T0 + 60 * DAY);

  const written = await resourceVersion('cert');
  const shared = await b.ensure();
  assert.equal(shared.cert, first.cert);
  assert.equal(shared.key, first.key);
  assert.equal(await resourceVersion('cert'), written, 'a replica that finds a good certificate writes nothing');

  clockA.at = T0 + 59 * DAY;
  assert.equal((await a.ensure()).cert, first.cert, 'not due yet');

  clockA.at = T0 + 61 * DAY;
  const renewed = await a.ensure();
  assert.notEqual(renewed.cert, first.cert);
  assert.equal(renewed.caBundle, first.caBundle, 'a new serving certificate from the same CA: the caBundle stays');
  assert.ok(new X509Certificate(renewed.cert).checkIssued(ca));
  assert.notEqual(await resourceVersion('cert'), written);
  // The other replica's timer fires at the same moment and takes what the first one wrote.
  clockB.at = T0 + 61 * DAY;
  assert.equal((await b.ensure()).cert, renewed.cert);

  // The CA (300 days) is due at day 200: a new CA, and the old one stays in the bundle while it is valid.
  clockA.at = T0 + 201 * DAY;
  const newCa = await a.ensure();
  const [current, previous, ...rest] = blocks(newCa.caBundle);
  assert.ok(current && previous);
  assert.equal(rest.length, 0);
  assert.equal(previous.fingerprint256, ca.fingerprint256);
  assert.notEqual(current.fingerprint256, ca.fingerprint256);
  assert.ok(new X509Certificate(newCa.cert).checkIssued(current));
  assert.equal(newCa.renewAt.getTime(), T0 + 201 * DAY + 60 * DAY);
});

void test('a certificate for another Service name is replaced; an empty Secret is never left half-written', async () => {
  await emptySecret('renamed');
  const clock = { at: T0 };
  const before = await replica('renamed', clock, 'old.default.svc').ensure();
  const after = await replica('renamed', clock).ensure();
  assert.notEqual(after.cert, before.cert);
  assert.equal(new X509Certificate(after.cert).checkHost(dnsName), dnsName);
  const data = (await client.get<Secret>(secretsResource, 'renamed', { namespace: 'default' })).data ?? {};
  assert.deepEqual(Object.keys(data).sort(), ['ca.crt', 'ca.key', 'tls.crt', 'tls.key']);
  assert.equal(Buffer.from(data['tls.crt'] ?? '', 'base64').toString('utf8'), after.cert);
});

void test('a missing Secret is a clear error: the install creates it, the controllers may not', async () => {
  await assert.rejects(replica('absent', { at: T0 }).ensure(), {
    message: 'the webhook certificate Secret default/absent does not exist: create it empty (bosun manifests does)',
  });
});
