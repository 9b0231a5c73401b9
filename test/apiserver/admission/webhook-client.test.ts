// The API server's webhook client keeps connections alive; a webhook server may close one as idle just as the
// client reuses it (Node's default keepAliveTimeout is 5 s). The request then never reached the webhook: it is
// sent again on a new connection, as kube-apiserver's webhook client retries a connection reset. A reset on a
// fresh connection, or any answer, is not retried.
import assert from 'node:assert/strict';
import { Agent, createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { postAdmissionReview, WebhookCallError } from '../../../src/apiserver/admission/webhook-client.ts';
import { generateWebhookCertificates } from '../../../src/runtime/webhook/certificates.ts';

let server: Server;
let url: URL;
let ca: string;
/** What the server does with the request that arrives on a connection that already served `n` requests. */
let onRequest: (served: number) => 'answer' | 'reset' = () => 'answer';
let requests = 0;

before(async () => {
  const certs = await generateWebhookCertificates(['127.0.0.1']);
  ca = certs.caBundle;
  const served = new WeakMap<object, number>();
  server = createServer({ cert: certs.cert, key: certs.key }, (req, res) => {
    requests++;
    const n = served.get(req.socket) ?? 0;
    served.set(req.socket, n + 1);
    if (onRequest(n) === 'reset') {
      req.socket.destroy();
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: 'u', allowed: true } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = new URL(`https://127.0.0.1:${(server.address() as AddressInfo).port}/validate?timeout=10s`);
});

after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

test('a reset on a reused keep-alive connection is sent again on a new one', async () => {
  const agent = new Agent({ keepAlive: true, maxSockets: 1, ca });
  try {
    onRequest = (served) => (served >= 1 ? 'reset' : 'answer');
    requests = 0;
    const call = { url, agent, body: '{}', timeoutMs: 10_000 };
    assert.deepEqual(((await postAdmissionReview(call)) as { response: unknown }).response, { uid: 'u', allowed: true });
    // The second request goes out on the kept-alive connection, which the server resets: retried on a new one.
    assert.deepEqual(((await postAdmissionReview(call)) as { response: unknown }).response, { uid: 'u', allowed: true });
    assert.equal(requests, 3);
  } finally {
    agent.destroy();
  }
});

test('a reset on a fresh connection is the webhook call failing, not retried', async () => {
  const agent = new Agent({ keepAlive: true, ca });
  try {
    onRequest = () => 'reset';
    requests = 0;
    await assert.rejects(postAdmissionReview({ url, agent, body: '{}', timeoutMs: 10_000 }), (error: unknown) => {
      assert.ok(error instanceof WebhookCallError);
      assert.match(error.message, /^failed to call webhook: Post "https:\/\/127\.0\.0\.1:\d+\/validate\?timeout=10s": (read: connection reset by peer|EOF)/);
      return true;
    });
    assert.equal(requests, 1);
  } finally {
    agent.destroy();
  }
});
