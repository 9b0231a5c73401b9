// The webhook server over real HTTPS: AdmissionReview in and out, the uid echoed, malformed bodies a 400,
// a throwing handler a 500 denial while the server keeps serving, JSONPatch responses base64-encoded,
// and a certificate that only its own CA verifies.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { pino } from 'pino';
import { allowed, denied, patched, withWarnings, WebhookServer, type AdmissionRequest } from '../../../src/runtime/webhook/index.ts';
import { post, review } from './https.ts';

let server: WebhookServer;
let seen: AdmissionRequest[];

before(async () => {
  seen = [];
  server = new WebhookServer({ logger: pino({ level: 'silent' }) });
  server.register('/validate', (req) => {
    seen.push(req);
    const size = (req.object?.['spec'] as { size?: number } | undefined)?.size ?? 0;
    return size > 3 ? denied('spec.size: Invalid value: 4: must be at most 3') : withWarnings(allowed('fine'), 'size is small');
  });
  server.register('/mutate', () => patched([{ op: 'add', path: '/metadata/labels', value: { defaulted: 'true' } }]));
  server.register('/explode', (req) => {
    if (req.name === 'boom') throw new Error('handler bug');
    return allowed();
  });
  await server.start();
});

after(() => server.stop());

const parse = (body: string) => JSON.parse(body) as { apiVersion: string; kind: string; response: Record<string, any> };

test('binds to loopback on a free port and names its URL', () => {
  assert.equal(server.address?.address, '127.0.0.1');
  assert.match(server.url, /^https:\/\/127\.0\.0\.1:\d+$/);
  assert.equal(server.urlFor('/validate'), `${server.url}/validate`);
  assert.match(server.caBundle, /^-----BEGIN CERTIFICATE-----/);
});

test('a valid review gets a response with the uid echoed and the typed request reaches the handler', async () => {
  const res = await post(server.urlFor('/validate'), server.caBundle, review({ uid: 'uid-echo-1', operation: 'UPDATE', oldObject: { metadata: { name: 'w1' }, spec: { size: 0 } }, subResource: 'status', dryRun: true }));
  assert.equal(res.status, 200);
  assert.match(String(res.headers['content-type']), /application\/json/);
  const body = parse(res.body);
  assert.equal(body.apiVersion, 'admission.k8s.io/v1');
  assert.equal(body.kind, 'AdmissionReview');
  assert.equal(body.response['uid'], 'uid-echo-1');
  assert.equal(body.response['allowed'], true);
  assert.deepEqual(body.response['warnings'], ['size is small']);
  const req = seen.at(-1)!;
  assert.equal(req.operation, 'UPDATE');
  assert.equal(req.subResource, 'status');
  assert.equal(req.dryRun, true);
  assert.deepEqual(req.kind, { group: 'test.bosun.dev', version: 'v1', kind: 'Widget' });
  assert.deepEqual(req.resource, { group: 'test.bosun.dev', version: 'v1', resource: 'widgets' });
  assert.equal(req.userInfo.username, 'kubernetes-admin');
  assert.equal(req.object?.metadata.name, 'w1');
  assert.deepEqual(req.oldObject?.['spec'], { size: 0 });
});

test('a denial carries code 403 and the message', async () => {
  const res = await post(server.urlFor('/validate'), server.caBundle, review({ uid: 'deny-1', object: { metadata: { name: 'w1' }, spec: { size: 4 } } }));
  assert.equal(res.status, 200);
  const { response } = parse(res.body);
  assert.equal(response['uid'], 'deny-1');
  assert.equal(response['allowed'], false);
  assert.equal(response['status'].code, 403);
  assert.equal(response['status'].reason, 'Forbidden');
  assert.equal(response['status'].message, 'spec.size: Invalid value: 4: must be at most 3');
});

test('a patched response carries a base64 JSONPatch', async () => {
  const res = await post(server.urlFor('/mutate'), server.caBundle, review({ uid: 'patch-1' }));
  const { response } = parse(res.body);
  assert.equal(response['uid'], 'patch-1');
  assert.equal(response['allowed'], true);
  assert.equal(response['patchType'], 'JSONPatch');
  assert.deepEqual(JSON.parse(Buffer.from(response['patch'] as string, 'base64').toString('utf8')), [{ op: 'add', path: '/metadata/labels', value: { defaulted: 'true' } }]);
});

test('malformed bodies are a 400, never a crash', async () => {
  const cases: [string, string | Buffer, RegExp][] = [
    ['not JSON', '{"apiVersion":', /body is not JSON/],
    ['not an object', '[1,2]', /must be a JSON object/],
    ['wrong kind', JSON.stringify({ apiVersion: 'admission.k8s.io/v1beta1', kind: 'AdmissionReview', request: {} }), /expected apiVersion admission\.k8s\.io\/v1/],
    ['no request', JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview' }), /request is required/],
    ['no uid', review({ uid: undefined }), /request\.uid is required/],
    ['empty uid', review({ uid: '' }), /request\.uid must not be empty/],
    ['bad operation', review({ operation: 'PATCH' }), /request\.operation "PATCH"/],
    ['kind not an object', review({ kind: 'Widget' }), /request\.kind must be an object/],
    ['object not an object', review({ object: 'x' }), /request\.object must be an object/],
    ['dryRun not a boolean', review({ dryRun: 'yes' }), /request\.dryRun must be a boolean/],
    ['empty body', '', /body is not JSON/],
  ];
  for (const [what, body, message] of cases) {
    const res = await post(server.urlFor('/validate'), server.caBundle, body);
    assert.equal(res.status, 400, what);
    const { response } = parse(res.body);
    assert.equal(response['allowed'], false, what);
    assert.match(response['status'].message as string, message, what);
  }
  const wrongType = await post(server.urlFor('/validate'), server.caBundle, review({}), { 'content-type': 'text/plain' });
  assert.equal(wrongType.status, 400);
  assert.match(parse(wrongType.body).response['status'].message as string, /content type "text\/plain"/);
  assert.equal((await post(server.urlFor('/nowhere'), server.caBundle, review({}))).status, 404);
  assert.equal((await post(server.urlFor('/validate'), server.caBundle, '', {}, 'GET')).status, 405);
  assert.equal((await post(server.urlFor('/healthz'), server.caBundle, '', {}, 'GET')).status, 200);
  // Still serving after all of that.
  assert.equal(parse((await post(server.urlFor('/validate'), server.caBundle, review({ uid: 'after-400' }))).body).response['allowed'], true);
});

test('a handler that throws is a denial with code 500 and the server stays up', async () => {
  const res = await post(server.urlFor('/explode'), server.caBundle, review({ uid: 'boom-1', name: 'boom' }));
  assert.equal(res.status, 200);
  const { response } = parse(res.body);
  assert.equal(response['uid'], 'boom-1');
  assert.equal(response['allowed'], false);
  assert.equal(response['status'].code, 500);
  assert.equal(response['status'].message, 'internal error in webhook /explode: handler bug');
  const next = parse((await post(server.urlFor('/explode'), server.caBundle, review({ uid: 'fine-1', name: 'fine' }))).body);
  assert.equal(next.response['uid'], 'fine-1');
  assert.equal(next.response['allowed'], true);
});

test('the certificate verifies against the announced CA only', async () => {
  const other = new WebhookServer({ logger: pino({ level: 'silent' }) });
  other.register('/x', () => allowed());
  await other.start();
  try {
    await assert.rejects(post(server.urlFor('/validate'), other.caBundle, review({})), /certificate|self.signed|unable to verify/i);
    // localhost is in the certificate too.
    const viaName = await post(server.urlFor('/validate').replace('127.0.0.1', 'localhost'), server.caBundle, review({ uid: 'by-name' }));
    assert.equal(parse(viaName.body).response['uid'], 'by-name');
  } finally {
    await other.stop();
  }
});

test('a configured URL is used as is; a wildcard bind without one has no URL', async () => {
  const s = new WebhookServer({ host: '0.0.0.0', url: 'https://webhooks.example.test:443/base/', logger: pino({ level: 'silent' }) });
  assert.equal(s.urlFor('/v'), 'https://webhooks.example.test:443/base/v');
  assert.throws(() => new WebhookServer({ url: 'http://plain.example' }), /must be https/);
  const wild = new WebhookServer({ host: '0.0.0.0', logger: pino({ level: 'silent' }) });
  wild.register('/x', () => allowed());
  await wild.start();
  try {
    assert.throws(() => wild.url, /give it the url/);
  } finally {
    await wild.stop();
  }
  assert.throws(() => server.register('/validate', () => allowed()), /already registered/);
  assert.throws(() => server.register('validate', () => allowed()), /must start with/);
});
