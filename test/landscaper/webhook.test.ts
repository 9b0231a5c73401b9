// The validating webhook end to end: a child `bosun up` (API server + Landscaper in one process, the webhook on
// an ephemeral loopback port) and the real kubectl. Invalid Executions, DeployItem type changes and Targets are
// rejected with upstream's webhook names and the field errors; valid objects and the controllers' own writes
// pass; a restart after SIGKILL re-registers the new port before anything writes. Needs admission webhook
// support in the embedded API server (src/apiserver/admission).
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { validatingWebhookConfigurationsResource } from '../../src/apimachinery/builtin-resources.ts';
import { startTestServer } from '../helpers/api-server.ts';
import { exited, freePort, startBosun } from '../helpers/bosun-process.ts';
import { kubectlFor, type Kubectl } from '../helpers/kubectl.ts';
import type { KubeClient } from '../../src/client/client.ts';
import { createKubeClient } from '../../src/client/create-client.ts';
import { NotFoundError } from '../../src/client/errors.ts';
import { runControllers } from '../../src/cli/commands/controllers.ts';
import { bosunFamilies } from '../../src/cli/families.ts';
import { loadBosunCrds } from '../../src/crds/index.ts';
import type { Installation } from '../../src/landscaper/api/installation.ts';
import { installationsResource, targetsResource } from '../../src/landscaper/api/resources.ts';
import { landscaperWebhookConfiguration } from '../../src/landscaper/webhook/index.ts';
import { applyWebhookConfiguration, type WebhookConfigurationObject } from '../../src/runtime/webhook/index.ts';

const T = { timeout: 120_000 };
let dataDir: string;
let port: number;
let child: ChildProcess;
let kubectl: Kubectl;
let client: KubeClient;

before(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'bosun-webhook-'));
  port = await freePort();
  child = await startBosun(dataDir, port);
  kubectl = kubectlFor(join(dataDir, 'kubeconfig'));
  client = createKubeClient({ kubeconfig: readFileSync(join(dataDir, 'kubeconfig'), 'utf8') });
});

after(async () => {
  await client.close();
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  await exited(child);
});

const apply = (yaml: string, ...flags: string[]) => kubectl(['apply', '-f', '-', ...flags], yaml);

async function webhookUrls(): Promise<string[]> {
  const vwc = await client.get<WebhookConfigurationObject>(validatingWebhookConfigurationsResource, 'landscaper-validation-webhook');
  return (vwc.webhooks ?? []).map((w) => (w['clientConfig'] as { url: string }).url);
}

const cyclicExecution = `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Execution
metadata:
  name: cyclic
  namespace: default
spec:
  deployItems:
  - name: a
    type: landscaper.gardener.cloud/mock
    dependsOn: [b]
    config: {apiVersion: mock.deployer.landscaper.gardener.cloud/v1alpha1, kind: ProviderConfiguration}
  - name: b
    type: landscaper.gardener.cloud/mock
    dependsOn: [a]
    config: {apiVersion: mock.deployer.landscaper.gardener.cloud/v1alpha1, kind: ProviderConfiguration}
`;

const deployItem = (type: string) => `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: DeployItem
metadata:
  name: typed
  namespace: default
spec:
  type: ${type}
`;

const target = (spec: string, name = 'cluster') => `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Target
metadata:
  name: ${name}
  namespace: default
spec:
  type: landscaper.gardener.cloud/kubernetes-cluster
${spec}`;

const bothConfigAndSecretRef = target('  config:\n    kubeconfig: "apiVersion: v1"\n  secretRef:\n    name: kubeconfig\n', 'both');

test('bosun up registers landscaper-validation-webhook at its loopback webhook server', T, async () => {
  const vwc = await client.get<WebhookConfigurationObject>(validatingWebhookConfigurationsResource, 'landscaper-validation-webhook');
  assert.equal(vwc.metadata.labels?.['app.kubernetes.io/managed-by'], 'bosun');
  const webhooks = vwc.webhooks ?? [];
  assert.deepEqual(
    webhooks.map((w) => w['name']),
    ['installations', 'executions', 'deployitems', 'targets'].map((r) => `${r}.validation.landscaper.gardener.cloud`),
  );
  for (const w of webhooks) {
    assert.match((w['clientConfig'] as { url: string }).url, /^https:\/\/127\.0\.0\.1:\d+\/webhook\/validate\/(installations|executions|deployitems|targets)$/);
    assert.equal(w['failurePolicy'], 'Fail');
    assert.equal(w['sideEffects'], 'None');
  }
});

test('kubectl apply of an Execution with a dependsOn cycle is rejected, naming the cycle (also on a server dry run)', T, async () => {
  for (const flags of [['--dry-run=server'], []]) {
    const res = await apply(cyclicExecution, ...flags);
    assert.notEqual(res.code, 0, res.stdout);
    assert.match(
      res.stderr,
      /admission webhook "executions\.validation\.landscaper\.gardener\.cloud" denied the request: spec\.deployItems: Invalid value: "a -> b -> a": cycle found in dependencies/,
    );
  }
  assert.notEqual((await kubectl(['get', 'execution', 'cyclic', '-n', 'default'])).code, 0, 'nothing was stored');
});

test('changing a DeployItem\'s spec.type is rejected as immutable', T, async () => {
  const created = await apply(deployItem('test.bosun.dev/some-type'));
  assert.equal(created.code, 0, created.stderr);
  const changed = await apply(deployItem('test.bosun.dev/other-type'));
  assert.notEqual(changed.code, 0);
  assert.match(changed.stderr, /admission webhook "deployitems\.validation\.landscaper\.gardener\.cloud" denied the request: spec\.type: Invalid value: "test\.bosun\.dev\/other-type": field is immutable/);
  const patched = await kubectl(['patch', 'deployitem', 'typed', '-n', 'default', '--type', 'merge', '-p', '{"spec":{"type":"x"}}']);
  assert.notEqual(patched.code, 0);
  assert.match(patched.stderr, /field is immutable/);
  const other = await kubectl(['annotate', 'deployitem', 'typed', '-n', 'default', 'note=unchanged-type']);
  assert.equal(other.code, 0, other.stderr);
});

test('a Target with both config and secretRef is rejected', T, async () => {
  const res = await apply(bothConfigAndSecretRef);
  assert.notEqual(res.code, 0);
  assert.match(res.stderr, /admission webhook "targets\.validation\.landscaper\.gardener\.cloud" denied the request: spec: Invalid value: either config or secretRef may be set, not both/);
});

test('valid objects are accepted', T, async () => {
  assert.equal((await apply(target('  secretRef:\n    name: kubeconfig\n    key: kubeconfig\n'))).code, 0);
  const valid = cyclicExecution.replace('name: cyclic', 'name: acyclic').replace('    dependsOn: [b]\n', '');
  const res = await apply(valid);
  assert.equal(res.code, 0, res.stderr);
});

test('the controllers\' writes pass the webhook: a mock DAG installation succeeds', T, async () => {
  const manifest = readFileSync(join(import.meta.dirname, '..', '..', 'examples', 'landscaper', 'deployitem-dag', 'installation.yaml'), 'utf8');
  const res = await apply(manifest);
  assert.equal(res.code, 0, res.stderr);
  const deadline = Date.now() + 60_000;
  let inst: Installation | undefined;
  while (Date.now() < deadline) {
    inst = await client.get<Installation>(installationsResource, 'dag', { namespace: 'default' });
    if (inst.status?.phase === 'Succeeded' || inst.status?.phase === 'Failed') break;
    await new Promise((r) => setTimeout(r, 200));
  }
  assert.equal(inst?.status?.phase, 'Succeeded', inst?.status?.lastError?.message);
});

test('after SIGKILL, the restarted bosun up points the configuration at its new port before it is ready', T, async () => {
  const before = await webhookUrls();
  child.kill('SIGKILL');
  await exited(child);
  child = await startBosun(dataDir, port);
  const now = await webhookUrls();
  assert.notDeepEqual(now, before, 'a new ephemeral port');
  // The first write after "ready" is judged by the live webhook, not failed against the dead port.
  const res = await apply(bothConfigAndSecretRef);
  assert.notEqual(res.code, 0);
  assert.match(res.stderr, /denied the request: spec: Invalid value: either config or secretRef/);
  assert.doesNotMatch(res.stderr, /failed calling webhook/);
  assert.equal((await apply(target('  secretRef:\n    name: other\n', 'after-restart'))).code, 0);
});

test('bosun up --controllers none removes a stale configuration instead of leaving writes blocked', T, async () => {
  const server = await startTestServer({ crds: loadBosunCrds() });
  const direct = createKubeClient({ kubeconfig: server.kubeconfig });
  const run = (controllers: string[]) =>
    runControllers(
      { kubeconfig: server.kubeconfigFile, leaderElect: false, leaderElectionId: 'bosun-controllers', metricsPort: 0, metricsBindAddress: '127.0.0.1', logLevel: 'silent', controllers, webhook: { prune: 'all' } },
      bosunFamilies,
    );
  try {
    // What a `bosun up` killed with SIGKILL leaves behind: the configuration, pointing at a dead port.
    await applyWebhookConfiguration(direct, landscaperWebhookConfiguration(), { url: 'https://127.0.0.1:1', caBundle: 'dead' });
    const t = { apiVersion: 'landscaper.gardener.cloud/v1alpha1', kind: 'Target', metadata: { name: 't', namespace: 'default' }, spec: { type: 'x' } };
    await assert.rejects(direct.create(targetsResource, t), /failed calling webhook "targets\.validation\.landscaper\.gardener\.cloud"/);
    // The same start-up `bosun up --controllers none` makes.
    const mgr = await run([]);
    await mgr.stop();
    await assert.rejects(direct.get(validatingWebhookConfigurationsResource, 'landscaper-validation-webhook'), NotFoundError);
    await direct.create(targetsResource, t);
  } finally {
    await direct.close();
    await server.close();
  }
});
