// The Disruption admission webhooks end to end: the embedded API server with the CRD installed calls the chaos
// family's webhooks over real HTTPS (their configurations written at start), and real kubectl is the user.
// Defaults and the user-info annotation are set on create; invalid specs and the safety nets are refused with
// upstream's messages (counting real Pods); spec changes other than count are refused; the finalizer cannot be
// removed while chaos pods exist; deletes pass. Every request the webhooks made is one the family's RBAC allows.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { mutatingWebhookConfigurationsResource, validatingWebhookConfigurationsResource } from '../../src/apimachinery/builtin-resources.ts';
import { DISRUPTION_FINALIZER, USER_INFO_ANNOTATION } from '../../src/chaos/api/constants.ts';
import { disruptionsResource } from '../../src/chaos/api/resources.ts';
import type { Disruption } from '../../src/chaos/api/types.ts';
import { DEFAULT_CHAOS_CONFIG } from '../../src/chaos/config.ts';
import { chaosFamily } from '../../src/chaos/family.ts';
import { NotFoundError } from '../../src/client/errors.ts';
import type { WebhookConfigurationObject } from '../../src/runtime/webhook/index.ts';
import { eventually } from '../helpers/api-server.ts';
import { unauthorizedRequests } from '../helpers/rbac.ts';
import { startChaosWebhooks, WEBHOOK_USER_AGENT, type ChaosWebhookHarness } from './webhook-harness.ts';

const T = { timeout: 60_000 };
const VALIDATING = 'admission webhook "chaos-controller-webhook-service.chaos-engineering.svc" denied the request';
let h: ChaosWebhookHarness;

before(async () => {
  h = await startChaosWebhooks(DEFAULT_CHAOS_CONFIG);
  const setup = await h.kubectl(['apply', '-f', '-'], [namespace('shop'), namespace('other'), namespace('chaos-engineering')].join('---\n'));
  assert.equal(setup.code, 0, setup.stderr);
});

after(async () => {
  await h.stop();
});

const namespace = (name: string) => `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${name}\n`;
const pod = (name: string, ns: string, labels: Record<string, string>) =>
  `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${name}\n  namespace: ${ns}\n  labels: ${JSON.stringify(labels)}\nspec:\n  containers:\n  - name: app\n    image: busybox\n`;
const disruption = (name: string, spec: string, extraMeta = '') =>
  `apiVersion: chaos.datadoghq.com/v1beta1\nkind: Disruption\nmetadata:\n  name: ${name}\n  namespace: shop\n${extraMeta}spec:\n${spec}`;
const apply = (yaml: string, ...flags: string[]) => h.kubectl(['apply', '-f', '-', ...flags], yaml);
const get = (name: string) => h.client.get<Disruption>(disruptionsResource, name, { namespace: 'shop' });

test('the validating and mutating configurations point at the loopback webhook server', T, async () => {
  const vwc = await h.client.get<WebhookConfigurationObject>(validatingWebhookConfigurationsResource, 'chaos-controller');
  const mwc = await h.client.get<WebhookConfigurationObject>(mutatingWebhookConfigurationsResource, 'chaos-controller');
  const urls = [...(vwc.webhooks ?? []), ...(mwc.webhooks ?? [])].map((w) => (w['clientConfig'] as { url: string }).url.replace(/^https:\/\/127\.0\.0\.1:\d+/, ''));
  assert.deepEqual(urls, ['/validate-chaos-datadoghq-com-v1beta1-disruption', '/mutate-chaos-datadoghq-com-v1beta1-disruption', '/mutate-chaos-datadoghq-com-v1beta1-user-info']);
  assert.deepEqual(mwc.webhooks?.map((w) => (w['rules'] as { operations: string[] }[])[0]?.operations), [['CREATE', 'UPDATE'], ['CREATE', 'UPDATE']]);
  assert.deepEqual(vwc.webhooks?.[0]?.['rules'], [{ apiGroups: ['chaos.datadoghq.com'], apiVersions: ['v1beta1'], resources: ['disruptions'], operations: ['CREATE', 'UPDATE', 'DELETE'], scope: 'Namespaced' }]);
  assert.equal(vwc.webhooks?.[0]?.['failurePolicy'], 'Fail');
});

test('create: the default duration and the creator\'s UserInfo (a claimed one replaced) are set', T, async () => {
  const claimed = `  annotations:\n    ${USER_INFO_ANNOTATION}: '{"username":"someone-else"}'\n`;
  const res = await apply(disruption('defaults', '  count: 1\n  selector: {app: none}\n  cpuPressure: {}\n', claimed));
  assert.equal(res.code, 0, res.stderr);
  const stored = await get('defaults');
  assert.equal(stored.spec.duration, '1h0m0s');
  assert.equal(stored.spec.level, 'pod');
  assert.deepEqual(JSON.parse(stored.metadata.annotations?.[USER_INFO_ANNOTATION] ?? '{}'), { username: 'bosun-admin', groups: ['system:masters', 'system:authenticated'] });
});

test('create: an invalid spec is refused with each error and nothing is stored (also on a server dry run)', T, async () => {
  const bad = disruption('bad', '  count: "150%"\n  level: node\n  containers: [app]\n  selector: {app: web}\n  containerFailure: {}\n  cpuPressure: {}\n');
  for (const flags of [['--dry-run=server'], []]) {
    const res = await apply(bad, ...flags);
    assert.notEqual(res.code, 0);
    assert.match(res.stderr, new RegExp(`${VALIDATING}: 4 errors occurred:`));
    for (const line of [
      'spec.containers: cannot target specific containers because the level configuration is set to node',
      'spec.containerFailure: cannot execute a container failure because the level configuration is set to node',
      'spec.containerFailure: container failure disruptions are not compatible with other disruption kinds',
      'spec.count: count must be a positive integer or a valid percentage value',
    ]) {
      assert.ok(res.stderr.includes(line), `${line}\nin: ${res.stderr}`);
    }
  }
  await assert.rejects(get('bad'), NotFoundError);
});

test('create: grpc and disk failure are refused as not supported by this injector', T, async () => {
  const res = await apply(disruption('grpc', '  count: 1\n  selector: {app: web}\n  grpc:\n    port: 50051\n    endpoints: [{endpoint: /a.B/c, error: NOT_FOUND}]\n'));
  assert.notEqual(res.code, 0);
  assert.match(res.stderr, /spec\.grpc: grpc-disruption is not supported by this injector/);
});

test('create: countTooLarge counts the real pods of the namespace and the cluster', T, async () => {
  const pods = [0, 1, 2, 3, 4].map((i) => pod(`web-${i}`, 'shop', { app: 'web' })).concat([pod('db-0', 'shop', { app: 'db' }), pod('x-0', 'other', { app: 'x' }), pod('x-1', 'other', { app: 'x' })]);
  assert.equal((await apply(pods.join('---\n'))).code, 0);
  // 5 of the namespace's 6 pods: 83.33 % > 80 %.
  const all = await apply(disruption('too-many', '  count: "100%"\n  selector: {app: web}\n  cpuPressure: {}\n'));
  assert.notEqual(all.code, 0);
  assert.match(all.stderr, new RegExp(`${VALIDATING}: at least one of the initial safety nets caught an issue\\n1 error occurred:\\n\\t\\* spec\\.count: target selection represents 83\\.33 % of the total pods in the namespace while the threshold is 80\\.00 %`));
  // With the namespace threshold lifted: 5 of the cluster's 8 pods, 62.5 % < 66 %, accepted; 6 of 8 is not.
  const lifted = (name: string, count: string) => disruption(name, `  count: ${count}\n  selector: {app: web}\n  cpuPressure: {}\n  unsafeMode: {config: {countTooLarge: {namespaceThreshold: 100}}}\n`);
  assert.equal((await apply(lifted('most', '5'))).code, 0);
  const cluster = await apply(lifted('cluster-wide', '6'));
  assert.match(cluster.stderr, /target selection represents 75\.00 % of the total pods in the cluster while the threshold is 66\.00 %/);
  assert.equal((await apply(disruption('two', '  count: 2\n  selector: {app: web}\n  cpuPressure: {}\n'))).code, 0);
  assert.equal((await apply(disruption('opt-out', '  count: "100%"\n  selector: {app: web}\n  cpuPressure: {}\n  unsafeMode: {disableCountTooLarge: true}\n'))).code, 0);
});

test('create: a network disruption without hosts or services is caught; opting out lets it in', T, async () => {
  const res = await apply(disruption('net', '  count: 1\n  selector: {app: web}\n  network: {drop: 100}\n'));
  assert.match(res.stderr, /spec\.network: the specified disruption either contains no Host or Service filters\. This will result in all network traffic being affected\./);
  assert.equal((await apply(disruption('net', '  count: 1\n  selector: {app: web}\n  network: {drop: 100}\n  unsafeMode: {disableNeitherHostNorPort: true}\n'))).code, 0);
  const missing = await apply(disruption('svc', '  count: 1\n  selector: {app: web}\n  network:\n    drop: 100\n    services: [{name: nope, namespace: shop}]\n'));
  assert.match(missing.stderr, /spec\.network\.services\[0\]: the service specified in the network disruption \(shop\/nope\) does not exist/);
});

test('update: only count may change under dynamic targeting; nothing under static targeting', T, async () => {
  const dynamic = (count: number, drop: number) => disruption('dyn', `  count: ${count}\n  selector: {app: web}\n  network: {drop: ${drop}, hosts: [{host: 10.0.0.1}]}\n`);
  assert.equal((await apply(dynamic(1, 10))).code, 0);
  assert.equal((await apply(dynamic(2, 10))).code, 0, 'count is editable');
  assert.equal((await get('dyn')).spec.count, 2);
  const changed = await apply(dynamic(2, 50));
  assert.notEqual(changed.code, 0);
  assert.match(changed.stderr, new RegExp(`${VALIDATING}: 1 error occurred:\\n\\t\\* spec: \\[StaticTargeting: false\\] only a disruption spec's Count field can be updated, please delete and recreate it if needed`));
  const fixed = (count: number) => disruption('static', `  count: ${count}\n  staticTargeting: true\n  selector: {app: web}\n  cpuPressure: {}\n`);
  assert.equal((await apply(fixed(1))).code, 0);
  const patched = await h.kubectl(['patch', 'disruption', 'static', '-n', 'shop', '--type', 'merge', '-p', '{"spec":{"count":2}}']);
  assert.match(patched.stderr, /\[StaticTargeting: true\] a disruption spec cannot be updated, please delete and recreate it if needed/);
  assert.equal((await h.kubectl(['label', 'disruption', 'static', '-n', 'shop', 'team=sre'])).code, 0, 'metadata stays editable');
  // Replacing with the original manifest (no duration, no UserInfo) is no change: both are set again.
  const replaced = await h.kubectl(['replace', '-f', '-'], fixed(1));
  assert.equal(replaced.code, 0, replaced.stderr);
  const replacedObject = await get('static');
  assert.equal(replacedObject.spec.duration, '1h0m0s');
  assert.match(replacedObject.metadata.annotations?.[USER_INFO_ANNOTATION] ?? '', /"username":"bosun-admin"/);
});

test('update: the UserInfo annotation cannot be rewritten', T, async () => {
  const res = await h.kubectl(['annotate', '--overwrite', 'disruption', 'defaults', '-n', 'shop', `${USER_INFO_ANNOTATION}={"username":"mallory"}`]);
  assert.notEqual(res.code, 0);
  assert.match(res.stderr, /metadata\.annotations\.UserInfo: the user info annotation is immutable/);
});

test('the finalizer cannot be removed while a chaos pod exists; once it is gone the disruption goes', T, async () => {
  const withFinalizer = `  finalizers: [${DISRUPTION_FINALIZER}]\n`;
  assert.equal((await apply(disruption('guarded', '  count: 1\n  selector: {app: web}\n  cpuPressure: {}\n', withFinalizer))).code, 0);
  const labels = { 'chaos.datadoghq.com/disruption-name': 'guarded', 'chaos.datadoghq.com/disruption-namespace': 'shop', 'chaos.datadoghq.com/disruption-kind': 'cpu-pressure' };
  assert.equal((await apply(pod('chaos-guarded-abcde', 'chaos-engineering', labels))).code, 0);
  assert.equal((await h.kubectl(['delete', 'disruption', 'guarded', '-n', 'shop', '--wait=false'])).code, 0, 'delete is allowed');
  const remove = ['patch', 'disruption', 'guarded', '-n', 'shop', '--type', 'json', '-p', '[{"op":"remove","path":"/metadata/finalizers"}]'];
  const denied = await h.kubectl(remove);
  assert.notEqual(denied.code, 0);
  assert.ok(
    denied.stderr.includes(
      "metadata.finalizers: unable to remove disruption finalizer, disruption 'shop/guarded' still has associated pods:\n- chaos-engineering/chaos-guarded-abcde\nYou first need to remove those chaos pods (and potentially their finalizers) to be able to remove disruption finalizer",
    ),
    denied.stderr,
  );
  assert.ok((await get('guarded')).metadata.deletionTimestamp, 'still there, being deleted');
  assert.equal((await h.kubectl(['delete', 'pod', 'chaos-guarded-abcde', '-n', 'chaos-engineering', '--grace-period=0', '--force'])).code, 0);
  assert.equal((await h.kubectl(remove)).code, 0);
  await eventually(async () => get('guarded').then(() => false, (e: unknown) => e instanceof NotFoundError), 5000, 'the disruption gone');
});

test('every request the webhooks made is allowed by the family\'s RBAC rules', T, () => {
  const own = h.server.requests.filter((r) => r.userAgent === WEBHOOK_USER_AGENT && !r.url.includes('webhookconfigurations'));
  assert.ok(own.some((r) => r.url.includes('/pods')), 'the webhooks read pods');
  assert.deepEqual(unauthorizedRequests(own, chaosFamily.rbac), []);
});
