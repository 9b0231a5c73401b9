// What the in-cluster tests share: Bosun's controllers installed on `bosun up` as a user installs them into a
// cluster (`bosun manifests | kubectl apply -f -`), waited for until both replicas run and one holds the Lease,
// a Landscaper Target of its own, and what the pods did when something fails.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { leasesResource } from '../../src/apimachinery/builtin-resources.ts';
import type { KubeObject } from '../../src/apimachinery/object.ts';
import { createKubeClient } from '../../src/client/create-client.ts';
import { bin, runToEnd } from '../helpers/bosun-process.ts';
import type { BosunUp } from '../node/e2e/bosun-up.ts';

export const NS = 'bosun-system';
export const INSTALL = 'bosun-controllers';
export const SELECTOR = 'app.kubernetes.io/name=bosun';

export interface ControllerPod {
  metadata: { name: string; deletionTimestamp?: string };
  spec: { serviceAccountName: string };
}

export interface InstallOptions {
  /** `bosun manifests --image` (default: its own default image). */
  image?: string;
  /** Environment given to the controllers, as `kubectl set env` does. */
  env?: Record<string, string>;
}

/** Applies `bosun manifests` and resolves with the Deployment's two running pods once one of them holds the Lease. */
export async function installControllers(up: BosunUp, options: InstallOptions = {}): Promise<ControllerPod[]> {
  const manifests = await runToEnd(process.execPath, [bin, 'manifests', ...(options.image ? ['--image', options.image] : [])]);
  assert.equal(manifests.code, 0, manifests.stderr);
  await up.ok(['apply', '-f', '-'], manifests.stdout);
  const env = Object.entries(options.env ?? {}).map(([name, value]) => `${name}=${value}`);
  if (env.length > 0) await up.ok(['set', 'env', `deployment/${INSTALL}`, '-n', NS, ...env]);
  // No stopgap: pods reach the plane at the kubernetes Service's ClusterIP (in its serving certificate), and the
  // webhooks are registered through the bosun-webhook Service with the certificate the replicas keep in its Secret.
  const rollout = await up.kubectl(['rollout', 'status', `deployment/${INSTALL}`, '-n', NS, '--timeout=150s']);
  assert.equal(rollout.code, 0, `${rollout.stderr}\n${await podReport(up)}`);
  // The rollout's old pods may still be terminating: the two pods are the ones that are not.
  const listed = (JSON.parse(await up.ok(['get', 'pods', '-n', NS, '-l', SELECTOR, '-o', 'json'])) as { items: ControllerPod[] }).items;
  for (const old of listed.filter((pod) => pod.metadata.deletionTimestamp)) await up.ok(['wait', `pod/${old.metadata.name}`, '-n', NS, '--for=delete', '--timeout=60s']);
  const pods = listed.filter((pod) => !pod.metadata.deletionTimestamp);
  assert.equal(pods.length, 2);
  for (const pod of pods) assert.equal(pod.spec.serviceAccountName, INSTALL);
  // One of the two holds the Lease (the old pods' leader may hold it until it expires).
  await leaseHeldByOneOf(up, pods.map((pod) => pod.metadata.name));
  return pods;
}

/**
 * The Secret `bosun-kubeconfig` in default that examples/landscaper's Targets name: the plane through the
 * kubernetes Service, as a ServiceAccount of its own bound to edit in default (what the deployers may do there).
 */
export async function landscaperTarget(up: BosunUp): Promise<void> {
  await up.ok(['create', 'serviceaccount', 'landscaper-target', '-n', 'default']);
  await up.ok(['create', 'rolebinding', 'landscaper-target-edit', '-n', 'default', '--clusterrole=edit', '--serviceaccount=default:landscaper-target']);
  const kubeconfig = join(up.dataDir, 'in-cluster-kubeconfig');
  const token = (await up.ok(['create', 'token', 'landscaper-target', '-n', 'default', '--duration=1h'])).trim();
  writeFileSync(kubeconfig, inClusterKubeconfig(readFileSync(join(up.dataDir, 'serving.crt'), 'utf8'), token));
  await up.ok(['create', 'secret', 'generic', 'bosun-kubeconfig', '-n', 'default', `--from-file=kubeconfig=${kubeconfig}`]);
}

/** Waits for the installation to be Succeeded; on failure says what the installation and the pods show. */
export async function succeeded(up: BosunUp, name: string): Promise<void> {
  const wait = await up.kubectl(['wait', `installation/${name}`, '-n', 'default', '--for=jsonpath={.status.phase}=Succeeded', '--timeout=120s']);
  assert.equal(wait.code, 0, `${wait.stderr}\n${(await up.kubectl(['get', 'installations,executions,deployitems', '-n', 'default', '-o', 'yaml'])).stdout}\n${await podReport(up)}`);
}

/** Waits, on a watch of the Lease, until one of `names` holds it. */
async function leaseHeldByOneOf(up: BosunUp, names: string[]): Promise<void> {
  const client = createKubeClient({ kubeconfigPath: join(up.dataDir, 'kubeconfig') });
  let holder = '';
  try {
    const leases = await client.watch<KubeObject>(leasesResource, { namespace: NS, fieldSelector: `metadata.name=${INSTALL}` });
    const timer = setTimeout(() => leases.close(), 60_000);
    try {
      for await (const event of leases) {
        holder = String((event.object['spec'] as { holderIdentity?: string } | undefined)?.holderIdentity ?? '');
        if (names.some((name) => holder.startsWith(`${name}_`))) return;
      }
    } finally {
      clearTimeout(timer);
    }
    assert.fail(`the Lease is held by ${holder || 'nobody'}, not by one of ${names.join(', ')}`);
  } finally {
    await client.close();
  }
}

/** What the controller pods did, for a failure message: their state, Events and logs. */
export async function podReport(up: BosunUp): Promise<string> {
  const describe = await up.kubectl(['describe', 'pods', '-n', NS, '-l', SELECTOR]);
  const logs = await up.kubectl(['logs', '-n', NS, '-l', SELECTOR, '--tail=30', '--prefix']);
  return `${describe.stdout}\n${logs.stdout}${logs.stderr}`;
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
