// An API server and the webhooks in one process (`bosun up`): the API server calls them in process, with the
// same answers and messages as over HTTPS; a webhook URL this process does not serve keeps the network path.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { pino } from 'pino';
import { AdmissionWebhooks, allowed, denied, WebhookServer } from '../../../src/runtime/webhook/index.ts';
import { startHarness, widget, widgets, type Harness } from '../harness.ts';

let h: Harness;
let hooks: AdmissionWebhooks;
const answered: boolean[] = [];

before(async () => {
  h = await startHarness();
  const silent = pino({ level: 'silent' });
  hooks = new AdmissionWebhooks({ client: h.client, server: new WebhookServer({ logger: silent }), logger: silent });
  hooks.handle('/validate/widgets', (req) => (req.object?.metadata.name === 'bad' ? denied('bad widgets are refused') : allowed()));
  hooks.configure({
    type: 'Validating',
    name: 'widgets-validation',
    component: 'test',
    webhooks: [{ name: 'widgets.validation.test.bosun.dev', path: '/validate/widgets', rules: [{ apiGroups: ['test.bosun.dev'], apiVersions: ['v1'], resources: ['widgets'], operations: ['CREATE'] }] }],
  });
  h.server.callWebhooksInProcess((url, body) => {
    const answer = hooks.server.answerInProcess(url, body);
    answered.push(answer !== undefined);
    return answer;
  });
  await hooks.start();
});

after(async () => {
  await hooks.stop();
  await h.close();
});

test('the API server answers its writes with the webhooks of its own process, without HTTPS', async () => {
  await h.client.create(widgets, widget('good'));
  await assert.rejects(h.client.create(widgets, widget('bad')), /admission webhook "widgets.validation.test.bosun.dev" denied the request: bad widgets are refused/);
  assert.deepEqual(answered, [true, true], 'both reviews answered in process');
});

test('a URL this process does not serve is left to the network', () => {
  const body = JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request: {} });
  assert.equal(hooks.server.answerInProcess(new URL('https://127.0.0.1:1/validate/widgets'), body), undefined, 'another port');
  assert.equal(hooks.server.answerInProcess(new URL(`${hooks.server.url}/validate/other`), body), undefined, 'no handler at that path');
});
