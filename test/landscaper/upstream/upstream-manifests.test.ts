// Upstream Landscaper's own test and example manifests (fixtures/, copied unchanged; README.md says from where),
// applied with real kubectl to the embedded API server with the Landscaper family running, and checked against
// the outcome upstream's own integration tests expect. Where upstream's Go test does a step in code (a Target
// from the test cluster's kubeconfig, the reconcile annotation, a new status.jobID), a user's kubectl does it.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { pino } from 'pino';
import type { KubeObject } from '../../../src/apimachinery/object.ts';
import type { KubeClient, ResourceRef } from '../../../src/client/client.ts';
import { createKubeClient } from '../../../src/client/create-client.ts';
import { NotFoundError } from '../../../src/client/errors.ts';
import { loadBosunCrds } from '../../../src/crds/index.ts';
import type { DeployItem } from '../../../src/landscaper/api/deploy-item.ts';
import type { Execution } from '../../../src/landscaper/api/execution.ts';
import type { Installation } from '../../../src/landscaper/api/installation.ts';
import { registerLandscaper, type LandscaperOptions } from '../../../src/landscaper/family.ts';
import { Manager } from '../../../src/runtime/manager.ts';
import { startTestServer, type TestServer } from '../../helpers/api-server.ts';
import { kubectlFor, type Kubectl } from '../../helpers/kubectl.ts';
import { R } from '../scenarios/support.ts';

const FIXTURES = join(import.meta.dirname, 'fixtures');
const INLINE = join(FIXTURES, 'test/integration/testdata/inline/installation-inline-blueprint');
const DEPLOYITEMS = join(FIXTURES, 'test/integration/deployitems/testdata');
const EXECUTIONS = join(FIXTURES, 'test/integration/executions/testdata/test1');
const EXAMPLE_DEPLOY_ITEMS = join(FIXTURES, 'examples/deploy-items');

interface Env {
  server: TestServer;
  client: KubeClient;
  kubectl: Kubectl;
  /** kubectl that must succeed; returns its stdout. */
  k(args: string[], input?: string): Promise<string>;
}

/** A fresh server with the Landscaper family on a manager talking to it over HTTP, as `bosun up` runs it. */
async function withLandscaper(options: LandscaperOptions, run: (env: Env) => Promise<void>): Promise<void> {
  const server = await startTestServer({ crds: loadBosunCrds() });
  const client = createKubeClient({ kubeconfig: server.kubeconfig });
  const mgrClient = createKubeClient({ kubeconfig: server.kubeconfig });
  const mgr = new Manager({ client: mgrClient, logger: pino({ enabled: false }), gracefulShutdownTimeoutMs: 2000 });
  registerLandscaper(mgr, options);
  await mgr.start();
  const kubectl = kubectlFor(server.kubeconfigFile);
  const k = async (args: string[], input?: string): Promise<string> => {
    const r = await kubectl(args, input);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
    return r.stdout;
  };
  try {
    await run({ server, client, kubectl, k });
  } finally {
    await mgr.stop();
    await Promise.all([client.close(), mgrClient.close()]);
    await server.close();
  }
}

async function getOrUndefined<T extends KubeObject>(client: KubeClient, r: ResourceRef, ns: string, name: string): Promise<T | undefined> {
  try {
    return await client.get<T>(r, name, { namespace: ns });
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}

/**
 * Waits on a watch of one object until `cond` holds for it (undefined: it does not exist); the failure names
 * what was awaited and shows the last state seen.
 */
async function until<T extends KubeObject>(client: KubeClient, r: ResourceRef, ns: string, name: string, what: string, cond: (o: T | undefined) => boolean, timeoutMs = 30_000): Promise<T | undefined> {
  const list = await client.list<T>(r, { namespace: ns, fieldSelector: `metadata.name=${name}` });
  let last = list.items[0];
  if (cond(last)) return last;
  const stream = await client.watch<T>(r, { namespace: ns, name, resourceVersion: list.metadata.resourceVersion });
  const timer = setTimeout(() => stream.close(), timeoutMs);
  try {
    for await (const ev of stream) {
      last = ev.type === 'DELETED' ? undefined : ev.object;
      if (cond(last)) return last;
    }
  } finally {
    clearTimeout(timer);
    stream.close();
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last state: ${JSON.stringify(last?.['status' as keyof T] ?? last ?? 'absent')}`);
}

type WithJob = KubeObject & { status?: { phase?: string; jobID?: string; jobIDFinished?: string } };

/** Waits until the object finished a job other than `notJob` in `phase`, as upstream's WaitForInstallationToFinish. */
async function untilFinished<T extends WithJob>(client: KubeClient, r: ResourceRef, ns: string, name: string, phase: string, notJob?: string): Promise<T> {
  const done = (o: T | undefined): boolean =>
    o?.status?.jobID !== undefined && o.status.jobID !== notJob && o.status.jobID === o.status.jobIDFinished && o.status.phase === phase;
  return (await until<T>(client, r, ns, name, `${r.kind} ${ns}/${name} to finish a new job in ${phase}`, done))!;
}

const configMapData = async (env: Env, ns: string, name: string): Promise<unknown> => (await getOrUndefined(env.client, R.configMaps, ns, name))?.['data'];

/** The Target upstream's test builds from the test cluster's kubeconfig (utils.BuildInternalKubernetesTarget). */
async function clusterTarget(env: Env, ns: string, name: string): Promise<void> {
  const target = { apiVersion: 'landscaper.gardener.cloud/v1alpha1', kind: 'Target', metadata: { name, namespace: ns }, spec: { type: 'landscaper.gardener.cloud/kubernetes-cluster', config: { kubeconfig: env.server.kubeconfig } } };
  await env.k(['apply', '-f', '-'], JSON.stringify(target));
}

/**
 * What upstream's test does in code to start a job of a standalone Execution or DeployItem (UpdateJobIdFor…):
 * a deploy item's job also gets its generation time, and its status the observedGeneration the CRD requires.
 */
async function newJob(env: Env, kind: 'execution' | 'deployitem', ns: string, name: string, jobID: string): Promise<void> {
  const status = kind === 'execution' ? { jobID } : { jobID, jobIDGenerationTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z'), observedGeneration: 0 };
  await env.k(['patch', kind, name, '-n', ns, '--subresource=status', '--type=merge', '-p', JSON.stringify({ status })]);
}

test('inline blueprints (upstream test/integration/inline/inline_blueprints.go): add and remove deploy items, imports and exports', { timeout: 120_000 }, async () => {
  await withLandscaper({}, async (env) => {
    const ns = 'example';
    await env.k(['create', 'namespace', ns]);
    await env.k(['apply', '-f', join(INLINE, 'import-do-namespace.yaml')]);
    await clusterTarget(env, ns, 'my-cluster');

    await env.k(['apply', '-f', join(INLINE, 'installation-1.yaml')]);
    let inst = await untilFinished<Installation>(env.client, R.installations, ns, 'inline', 'Succeeded');
    assert.deepEqual(await configMapData(env, ns, 'cm-1'), { foo: 'bar' });

    // Three deploy items, item-3 depending on item-1 and item-2.
    await env.k(['apply', '-f', join(INLINE, 'installation-2.yaml')]);
    inst = await untilFinished<Installation>(env.client, R.installations, ns, 'inline', 'Succeeded', inst.status?.jobID);
    for (const cm of ['cm-1', 'cm-2', 'cm-3']) assert.deepEqual(await configMapData(env, ns, cm), { foo: 'bar' }, cm);

    // An import and an export more; item-2 and item-3 (and their ConfigMaps) go.
    await env.k(['apply', '-f', join(INLINE, 'import-do-entry.yaml')]);
    await env.k(['apply', '-f', join(INLINE, 'installation-3.yaml')]);
    inst = await untilFinished<Installation>(env.client, R.installations, ns, 'inline', 'Succeeded', inst.status?.jobID);
    assert.deepEqual(await configMapData(env, ns, 'cm-1'), { key1: 'value1' });
    for (const cm of ['cm-2', 'cm-3']) assert.equal(await configMapData(env, ns, cm), undefined, `${cm} was removed`);
    const exported = await getOrUndefined(env.client, R.dataObjects, ns, 'do-entry-out');
    assert.deepEqual(exported?.['data'], { key: 'key2', value: 'value2' });

    // The deploy execution moves to a file of the blueprint's filesystem; the import goes again.
    await env.k(['apply', '-f', join(INLINE, 'installation-4.yaml')]);
    await untilFinished<Installation>(env.client, R.installations, ns, 'inline', 'Succeeded', inst.status?.jobID);
    assert.deepEqual(await configMapData(env, ns, 'cm-1'), { foo: 'bar' });

    await env.k(['delete', 'installation', 'inline', '-n', ns, '--wait=false']);
    await until(env.client, R.installations, ns, 'inline', 'installation example/inline to be gone', (i) => i === undefined, 60_000);
    for (const cm of ['cm-1', 'cm-2', 'cm-3']) assert.equal(await configMapData(env, ns, cm), undefined, `${cm} was removed`);
  });
});

test('deploy item timeouts (upstream test/integration/deployitems/timeouts.go): no deployer for a type fails at the pickup timeout', { timeout: 60_000 }, async () => {
  // Upstream's test needs "the landscaper configured accordingly" (a short pickup timeout); so does this one.
  await withLandscaper({ deployItem: { pickupTimeout: '3s' } }, async (env) => {
    const ns = 'default';
    await env.k(['apply', '-f', join(DEPLOYITEMS, '00-dummy-installation.yaml'), '-f', join(DEPLOYITEMS, '01-mock-installation.yaml')]);
    // Upstream's test sets the reconcile operation on both before creating them.
    await env.k(['annotate', 'installation', 'dummy-installation', 'mock-installation', '-n', ns, 'landscaper.gardener.cloud/operation=reconcile']);

    await untilFinished<Installation>(env.client, R.installations, ns, 'mock-installation', 'Succeeded');
    const failed = await untilFinished<Installation>(env.client, R.installations, ns, 'dummy-installation', 'Failed');
    const items = (await env.client.list<DeployItem>(R.deployItems, { namespace: ns })).items;
    const dummy = items.find((di) => di.spec.type === 'landscaper.gardener.cloud/dummy');
    const mock = items.find((di) => di.spec.type === 'landscaper.gardener.cloud/mock');
    assert.ok(dummy && mock, `one deploy item each; have ${items.map((di) => di.metadata.name).join(', ')}`);
    assert.equal(dummy.status?.phase, 'Failed');
    assert.equal(dummy.status?.lastError?.reason, 'PickupTimeout');
    assert.ok(dummy.status?.lastError?.codes?.includes('ERR_TIMEOUT'), JSON.stringify(dummy.status?.lastError));
    assert.equal(mock.status?.phase, 'Succeeded');
    assert.ok(failed.status?.jobID !== undefined);
  });
});

test('execution generations (upstream test/integration/executions/generations.go): a standalone Execution and an update of it', { timeout: 60_000 }, async () => {
  await withLandscaper({}, async (env) => {
    const ns = 'default';
    await env.k(['apply', '-f', join(EXECUTIONS, '00-execution.yaml')]);
    await newJob(env, 'execution', ns, 'exec-1', 'job-1');
    await untilFinished<Execution>(env.client, R.executions, ns, 'exec-1', 'Succeeded');
    const managed = async (): Promise<DeployItem> => {
      const items = (await env.client.list<DeployItem>(R.deployItems, { namespace: ns, labelSelector: 'execution.landscaper.gardener.cloud/managed-by=exec-1' })).items;
      assert.equal(items.length, 1, 'one managed deploy item');
      return items[0]!;
    };
    const before = await managed();
    const providerStatus = (di: DeployItem): unknown => (di.spec.config as { providerStatus?: unknown } | undefined)?.providerStatus;
    assert.equal((providerStatus(before) as { key?: unknown }).key, 'foo');

    await env.k(['patch', 'execution', 'exec-1', '-n', ns, '--type=json', '-p', JSON.stringify([{ op: 'replace', path: '/spec/deployItems/0/config/providerStatus/key', value: 'bar' }])]);
    await newJob(env, 'execution', ns, 'exec-1', 'job-2');
    await untilFinished<Execution>(env.client, R.executions, ns, 'exec-1', 'Succeeded', 'job-1');
    const after = await managed();
    assert.equal(after.metadata.name, before.metadata.name, 'the same deploy item, updated');
    assert.equal((providerStatus(after) as { key?: unknown }).key, 'bar');
    assert.ok((after.metadata.generation ?? 0) > (before.metadata.generation ?? 0), 'the deploy item\'s generation moved');
  });
});

test('examples/deploy-items/40-DeployItem-Manifest-secret.yaml: the manifest deployer creates the Namespace and the Secret', { timeout: 60_000 }, async () => {
  await withLandscaper({}, async (env) => {
    await clusterTarget(env, 'default', 'my-cluster');
    await env.k(['apply', '-f', join(EXAMPLE_DEPLOY_ITEMS, '40-DeployItem-Manifest-secret.yaml')]);
    await newJob(env, 'deployitem', 'default', 'my-secret', 'job-1');
    await untilFinished<DeployItem>(env.client, R.deployItems, 'default', 'my-secret', 'Succeeded');
    assert.ok(await getOrUndefined(env.client, R.namespaces, '', 'my-namespace'), 'namespace my-namespace');
    const secret = await getOrUndefined(env.client, R.secrets, 'my-namespace', 'my-secret');
    assert.deepEqual(secret?.['data'], { config: Buffer.from('my-val').toString('base64') });
  });
});
