// The handlers called directly with AdmissionRequests, against the embedded API server: what passes without a
// judgement (delete, the status subresource), the patches the mutators answer with, and a failed cluster read
// denying the request with upstream's wording of what failed (the API server's answers turned into 500s).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DISRUPTION_FINALIZER } from '../../src/chaos/api/constants.ts';
import type { Disruption } from '../../src/chaos/api/types.ts';
import { DEFAULT_CHAOS_CONFIG } from '../../src/chaos/config.ts';
import { chaosWebhookHandlers } from '../../src/chaos/webhook/index.ts';
import type { KubeClient } from '../../src/client/client.ts';
import { createKubeClient } from '../../src/client/create-client.ts';
import { withFaultInjection } from '../../src/client/fault-injection.ts';
import type { AdmissionRequest } from '../../src/runtime/webhook/index.ts';
import { startTestServer, type TestServer } from '../helpers/api-server.ts';

let server: TestServer;
let client: KubeClient;

before(async () => {
  server = await startTestServer();
  client = createKubeClient({ kubeconfigPath: server.kubeconfigFile });
});

after(async () => {
  await client.close();
  await server.close();
});

const dis: Disruption = { apiVersion: 'chaos.datadoghq.com/v1beta1', kind: 'Disruption', metadata: { name: 'd', namespace: 'default' }, spec: { count: 1, selector: { app: 'web' }, cpuPressure: {} } };
const request = (operation: AdmissionRequest['operation'], object?: Disruption, oldObject?: Disruption, extra: Partial<AdmissionRequest> = {}): AdmissionRequest => ({
  uid: 'u',
  kind: { group: 'chaos.datadoghq.com', version: 'v1beta1', kind: 'Disruption' },
  resource: { group: 'chaos.datadoghq.com', version: 'v1beta1', resource: 'disruptions' },
  operation,
  userInfo: { username: 'alice', groups: ['dev'] },
  dryRun: false,
  ...(object ? { object } : {}),
  ...(oldObject ? { oldObject } : {}),
  ...extra,
});

test('delete and status writes pass without a judgement', async () => {
  const h = chaosWebhookHandlers(client, DEFAULT_CHAOS_CONFIG);
  assert.equal((await h.validate(request('DELETE', undefined, dis))).allowed, true);
  const invalid = { ...dis, spec: { ...dis.spec, count: 0 } };
  assert.equal((await h.validate(request('UPDATE', invalid, dis, { subResource: 'status' }))).allowed, true);
  assert.equal((await h.validate(request('UPDATE', invalid, dis))).allowed, false);
});

test('the mutators patch only their own part', async () => {
  const h = chaosWebhookHandlers(client, DEFAULT_CHAOS_CONFIG);
  assert.deepEqual((await h.mutate(request('CREATE', dis))).patch, [
    { op: 'add', path: '/spec/duration', value: '1h0m0s' },
    { op: 'add', path: '/spec/level', value: 'pod' },
  ]);
  assert.deepEqual((await h.userInfo(request('CREATE', dis))).patch, [{ op: 'add', path: '/metadata/annotations', value: { UserInfo: '{"username":"alice","groups":["dev"]}' } }]);
  assert.equal((await h.userInfo(request('UPDATE', dis, dis))).patch, undefined, 'nothing to carry over');
});

test('a failed read denies with what failed', async () => {
  const failing = withFaultInjection(client, { rate: 1, faults: ['internal'], verbs: ['list', 'get'] });
  const h = chaosWebhookHandlers(failing, DEFAULT_CHAOS_CONFIG);
  const create = await h.validate(request('CREATE', dis));
  assert.equal(create.allowed, false);
  assert.equal(create.result?.code, 500);
  assert.match(create.result?.message ?? '', /^error checking for countNotTooLarge safetynet: /);
  const withFinalizer = { ...dis, metadata: { ...dis.metadata, finalizers: [DISRUPTION_FINALIZER] } };
  const removal = await h.validate(request('UPDATE', dis, withFinalizer));
  assert.match(removal.result?.message ?? '', /^error getting disruption pods: /);
  const network = { ...dis, spec: { count: 1, selector: { app: 'web' }, network: { drop: 1, services: [{ name: 'api', namespace: 'default' }] } } };
  assert.match((await h.validate(request('CREATE', network))).result?.message ?? '', /^error retrieving the specified network disruption service: /);
});
