// Issue 22's first "Must show" on Bosun's own plane, with real kubectl: `bosun up --controllers none`, then
// `bosun manifests | kubectl apply -f -`. The controller Deployment runs as pods on the node agent under its
// ServiceAccount (Bosun's default image runs this checkout's CLI), one replica holds the leader Lease, and the
// controllers in the pods run a Landscaper example to Succeeded.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseAllDocuments } from 'yaml';
import { bin, runToEnd } from '../helpers/bosun-process.ts';
import { startBosunUp, type BosunUp } from '../node/e2e/bosun-up.ts';

const NS = 'bosun-system';
const SELECTOR = 'app.kubernetes.io/name=bosun';

describe('bosun manifests installed on bosun up', () => {
  let up: BosunUp;
  before(async () => {
    up = await startBosunUp(['--controllers', 'workloads']);
  });
  after(async () => {
    await up.close();
  });

  test('the controller pods run under the ServiceAccount, elect a leader and run a Landscaper example', { timeout: 300_000 }, async () => {
    const manifests = await runToEnd(process.execPath, [bin, 'manifests']);
    assert.equal(manifests.code, 0, manifests.stderr);
    await up.ok(['apply', '-f', '-'], await servedOnly(up, manifests.stdout));
    // The plane's serving certificate names the kubernetes Service by DNS but not by its ClusterIP, the address
    // in-cluster config uses (src/apiserver/auth/serving-cert.ts, owned by the RBAC work): name it by DNS until then.
    await up.ok(['set', 'env', 'deployment/bosun-controllers', '-n', NS, 'KUBERNETES_SERVICE_HOST=kubernetes.default.svc']);
    // The embedded API server calls webhooks by URL from the host, where the Service's DNS name does not resolve,
    // and does not follow clientConfig.service yet: the pods serve no webhooks until it does.
    const args = JSON.parse(await up.ok(['get', 'deployment/bosun-controllers', '-n', NS, '-o', 'jsonpath={.spec.template.spec.containers[0].args}'])) as string[];
    const webhookUrl = args.findIndex((arg) => arg.startsWith('--webhook-url='));
    assert.notEqual(webhookUrl, -1);
    await up.ok(['patch', 'deployment/bosun-controllers', '-n', NS, '--type=json', '-p', JSON.stringify([{ op: 'replace', path: `/spec/template/spec/containers/0/args/${webhookUrl}`, value: '--no-webhook' }])]);
    const rollout = await up.kubectl(['rollout', 'status', 'deployment/bosun-controllers', '-n', NS, '--timeout=90s']);
    assert.equal(rollout.code, 0, `${rollout.stderr}\n${await podReport(up)}`);
    const pods = JSON.parse(await up.ok(['get', 'pods', '-n', NS, '-l', SELECTOR, '-o', 'json'])) as { items: { metadata: { name: string }; spec: { serviceAccountName: string }; status: { phase: string } }[] };
    assert.equal(pods.items.length, 2);
    for (const pod of pods.items) {
      assert.equal(pod.spec.serviceAccountName, 'bosun-controllers');
      assert.equal(pod.status.phase, 'Running');
    }
    await up.ok(['wait', 'lease/bosun-controllers', '-n', NS, '--for=jsonpath={.spec.holderIdentity}', '--timeout=60s']);

    // The manifest deployer reaches the plane from inside the pod: the kubernetes Service, with the plane's CA.
    const kubeconfig = join(up.dataDir, 'in-cluster-kubeconfig');
    writeFileSync(kubeconfig, inClusterKubeconfig(readFileSync(join(up.dataDir, 'serving.crt'), 'utf8'), (await up.ok(['create', 'token', 'default', '--duration=1h'])).trim()));
    await up.ok(['create', 'secret', 'generic', 'bosun-kubeconfig', '-n', 'default', `--from-file=kubeconfig=${kubeconfig}`]);
    await up.ok(['apply', '-f', 'examples/landscaper/manifest-configmaps']);
    await up.ok(['wait', 'installation/configmaps', '-n', 'default', '--for=jsonpath={.status.phase}=Succeeded', '--timeout=120s']);
    assert.equal(await up.ok(['get', 'configmap', 'settings', '-n', 'default', '-o', 'jsonpath={.data.replicas}']), '3');
  });
});

/** What the controller pods did, for a failure message: their state, Events and logs. */
async function podReport(up: BosunUp): Promise<string> {
  const describe = await up.kubectl(['describe', 'pods', '-n', NS, '-l', SELECTOR]);
  const logs = await up.kubectl(['logs', '-n', NS, '-l', SELECTOR, '--tail=30', '--prefix']);
  return `${describe.stdout}\n${logs.stdout}${logs.stderr}`;
}

/**
 * The manifests less the kinds this plane does not serve yet (the RBAC kinds, until authorization lands): kubectl
 * would apply the rest and exit 1. Once they are served, nothing is dropped.
 */
async function servedOnly(up: BosunUp, stream: string): Promise<string> {
  const served = new Set(
    (await up.ok(['api-resources', '--no-headers'])).split('\n').map((line) => {
      const columns = line.trim().split(/\s+/);
      return `${columns.at(-3) ?? ''} ${columns.at(-1) ?? ''}`;
    }),
  );
  const documents = parseAllDocuments(stream).filter((doc) => served.has(`${String(doc.get('apiVersion'))} ${String(doc.get('kind'))}`));
  return documents.map((doc) => doc.toString()).join('---\n');
}

function inClusterKubeconfig(ca: string, token: string): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'plane', cluster: { server: 'https://kubernetes.default.svc:443', 'certificate-authority-data': Buffer.from(ca).toString('base64') } }],
    users: [{ name: 'default', user: { token } }],
    contexts: [{ name: 'plane', context: { cluster: 'plane', user: 'default' } }],
    'current-context': 'plane',
  });
}
