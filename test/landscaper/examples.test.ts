// Every example under examples/landscaper must stay valid: `kubectl apply --dry-run=server --validate=strict`
// of each folder against a server with Bosun's CRDs, and the sibling chain applied for real with the Landscaper
// controllers running (as `bosun up` runs them) until all three installations are Succeeded. Every request
// the controllers make on the way is one the Landscaper family's RBAC rules allow.
import assert from 'node:assert/strict';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { bosunFamilies } from '../../src/cli/families.ts';
import { runControllers } from '../../src/cli/commands/controllers.ts';
import type { KubeClient } from '../../src/client/client.ts';
import { createKubeClient } from '../../src/client/create-client.ts';
import { loadBosunCrds } from '../../src/crds/index.ts';
import type { DataObject } from '../../src/landscaper/api/data-object.ts';
import type { Installation } from '../../src/landscaper/api/installation.ts';
import { landscaperFamily } from '../../src/landscaper/family.ts';
import { dataObjectsResource, deployItemsResource, executionsResource, installationsResource, targetsResource } from '../../src/landscaper/api/resources.ts';
import type { DeployItem } from '../../src/landscaper/api/deploy-item.ts';
import type { Manager } from '../../src/runtime/manager.ts';
import { eventually, startTestServer, type TestServer } from '../helpers/api-server.ts';
import { kubectlFor, type Kubectl } from '../helpers/kubectl.ts';
import { unauthorizedRequests } from '../helpers/rbac.ts';

const ROOT = 'examples/landscaper';
const folders = readdirSync(ROOT).filter((d) => statSync(join(ROOT, d)).isDirectory() && readdirSync(join(ROOT, d)).some((f) => f.endsWith('.yaml')));

let server: TestServer;
let kubectl: Kubectl;

before(async () => {
  server = await startTestServer({ crds: loadBosunCrds() });
  kubectl = kubectlFor(server.kubeconfigFile);
});

after(async () => {
  await server.close();
});

// blueprint-render is a blueprint directory for `bosun blueprint render`, not manifests to apply.
for (const folder of folders.filter((f) => f !== 'blueprint-render')) {
  test(`examples/landscaper/${folder} passes kubectl apply --dry-run=server with strict validation`, async () => {
    const r = await kubectl(['apply', '--dry-run=server', '--validate=strict', '-f', join(ROOT, folder)]);
    assert.equal(r.code, 0, `stdout: ${r.stdout}\nstderr: ${r.stderr}`);
    assert.equal(r.stderr, '', 'no warnings (unknown fields would be one)');
  });
}

/** The controllers' requests (their client's user agent) that the family's RBAC rules would deny. */
function deniedToControllers(live: TestServer): string[] {
  const controllers = live.requests.filter((r) => r.userAgent === 'bosun-controllers');
  assert.ok(controllers.length > 0, 'the controllers made requests');
  return unauthorizedRequests(controllers, landscaperFamily.rbac);
}

/** Applies an example folder to a fresh server with the Landscaper controllers, as `bosun up` runs them. */
async function withControllers(run: (live: TestServer, client: KubeClient) => Promise<void>): Promise<void> {
  // A server of its own, so the dry runs above never race with real controllers.
  const live = await startTestServer({ crds: loadBosunCrds() });
  let mgr: Manager | undefined;
  const client = createKubeClient({ kubeconfigPath: live.kubeconfigFile });
  try {
    mgr = await runControllers(
      { kubeconfigContent: live.kubeconfig, leaderElect: false, leaderElectionId: 'bosun-controllers', metricsPort: 0, metricsBindAddress: '127.0.0.1', logLevel: 'silent', controllers: ['landscaper'] },
      bosunFamilies,
    );
    await run(live, client);
    assert.deepEqual(deniedToControllers(live), [], 'requests outside the family\'s RBAC rules');
  } finally {
    await mgr?.stop();
    await client.close();
    await live.close();
  }
}

/** Waits until every named installation in default finished its job Succeeded. */
async function untilSucceeded(client: KubeClient, names: string[], timeoutMs = 60_000): Promise<void> {
  let last = '';
  try {
    await eventually(async () => {
      const list = await client.list<Installation>(installationsResource, { namespace: 'default' });
      last = list.items.map((i) => `${i.metadata.name}=${i.status?.phase ?? '-'} ${i.status?.lastError?.message ?? ''}`).join('; ');
      return names.every((n) => list.items.some((i) => i.metadata.name === n && i.status?.phase === 'Succeeded' && i.status.jobID !== undefined && i.status.jobID === i.status.jobIDFinished));
    }, timeoutMs, `${names.join(', ')} Succeeded`);
  } catch (err) {
    throw new Error(`${(err as Error).message}; last state: ${last}`, { cause: err });
  }
}

test('examples/landscaper/manifest-configmaps deploys the ConfigMaps and exports a value read back from one', async () => {
  await withControllers(async (live, client) => {
    const k = kubectlFor(live.kubeconfigFile);
    const secret = await k(['create', 'secret', 'generic', 'bosun-kubeconfig', '-n', 'default', `--from-file=kubeconfig=${live.kubeconfigFile}`]);
    assert.equal(secret.code, 0, secret.stderr);
    const r = await k(['apply', '-f', join(ROOT, 'manifest-configmaps')]);
    assert.equal(r.code, 0, r.stderr);
    await untilSucceeded(client, ['configmaps']);
    const exported = await client.get<DataObject>(dataObjectsResource, 'configmaps-greeting', { namespace: 'default' });
    assert.equal(exported.data, 'Hello from Landscaper on bosun');
    const cm = await client.get({ apiVersion: 'v1', kind: 'ConfigMap' }, 'settings', { namespace: 'default' });
    assert.deepEqual(cm['data'], { replicas: '3' });
  });
});

test('examples/landscaper/subinstallations and deployitem-dag run to Succeeded', async () => {
  await withControllers(async (live, client) => {
    const k = kubectlFor(live.kubeconfigFile);
    for (const folder of ['subinstallations', 'deployitem-dag']) {
      const r = await k(['apply', '-f', join(ROOT, folder)]);
      assert.equal(r.code, 0, r.stderr);
    }
    await untilSucceeded(client, ['platform', 'dag']);
    const summary = await client.get<DataObject>(dataObjectsResource, 'platform-summary', { namespace: 'default' });
    assert.equal(summary.data, 'https://demo.example.com (in 10.0.0.0/16)');
    const endpoints = await client.get<DataObject>(dataObjectsResource, 'dag-endpoints', { namespace: 'default' });
    assert.deepEqual(endpoints.data, { api: 'api.default.svc', database: 'database.default.svc', frontend: 'frontend.default.svc', worker: 'worker.default.svc' });
  });
});

/** kubectl against `live`; the test fails with kubectl's stderr unless it exits 0. Returns stdout. */
function kubectlOk(live: TestServer): (args: string[]) => Promise<string> {
  const k = kubectlFor(live.kubeconfigFile);
  return async (args) => {
    const r = await k(args);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
}

/** The README's first two steps: apply the stuck example, see it Progressing, interrupt it until it is Failed. */
async function applyAndInterruptStuck(client: KubeClient, ok: (args: string[]) => Promise<string>): Promise<Installation> {
  const inst = () => client.get<Installation>(installationsResource, 'stuck', { namespace: 'default' });
  await ok(['apply', '-f', join(ROOT, 'interrupt-and-delete-without-uninstall')]);
  await eventually(async () => {
    const items = await client.list<DeployItem>(deployItemsResource, { namespace: 'default' });
    return items.items.some((d) => d.status?.phase === 'Progressing');
  }, 30_000, 'the deploy item Progressing');
  // The installation writes the phases of one pass together, after the pass created the Execution: its
  // Progressing may land a moment after the deploy item's.
  await eventually(async () => (await inst()).status?.phase === 'Progressing', 30_000, 'the installation Progressing');
  await ok(['annotate', 'inst', 'stuck', 'landscaper.gardener.cloud/operation=interrupt']);
  return eventually(async () => {
    const i = await inst();
    return i.status?.phase === 'Failed' && i.status.jobID === i.status.jobIDFinished ? i : undefined;
  }, 30_000, 'stuck Failed after the interrupt');
}

/** Installations, executions and deploy items left in default. */
async function landscaperObjects(client: KubeClient): Promise<string[]> {
  const lists = await Promise.all([installationsResource, executionsResource, deployItemsResource].map((r) => client.list(r, { namespace: 'default' })));
  return lists.flatMap((l) => l.items.map((o) => `${o.kind}/${o.metadata.name}`));
}

test('examples/landscaper/interrupt-and-delete-without-uninstall: the walk-through as its README runs it', async () => {
  await withControllers(async (live, client) => {
    const ok = kubectlOk(live);
    const failed = await applyAndInterruptStuck(client, ok);
    assert.ok(failed.status?.lastError?.message, 'the failure says why');
    await ok(['annotate', 'inst', 'stuck', 'landscaper.gardener.cloud/delete-without-uninstall=true']);
    await ok(['delete', 'inst', 'stuck', '--wait=false']);
    await eventually(async () => (await landscaperObjects(client)).length === 0, 30_000, 'installation, execution and deploy item gone');
  });
});

test('examples/landscaper/interrupt-and-delete-without-uninstall: after the optional reconcile step, delete-without-uninstall completes', async () => {
  await withControllers(async (live, client) => {
    const ok = kubectlOk(live);
    const first = await applyAndInterruptStuck(client, ok);
    // The README's optional step: a new job, whose deploy item hangs in Progressing again.
    await ok(['annotate', 'inst', 'stuck', 'landscaper.gardener.cloud/operation=reconcile']);
    await eventually(async () => {
      const i = await client.get<Installation>(installationsResource, 'stuck', { namespace: 'default' });
      const items = await client.list<DeployItem>(deployItemsResource, { namespace: 'default' });
      return i.status?.jobID !== first.status?.jobID && items.items.some((d) => d.status?.phase === 'Progressing' && d.status.jobID === i.status?.jobID);
    }, 30_000, 'the second job\'s deploy item Progressing');
    await ok(['annotate', 'inst', 'stuck', 'landscaper.gardener.cloud/delete-without-uninstall=true']);
    // kubectl waits for the finalizers; the timeout turns a hang into a failure.
    await ok(['delete', 'inst', 'stuck', '--timeout=30s']);
    assert.deepEqual(await landscaperObjects(client), []);
  });
});

test('examples/landscaper/sibling-chain runs to Succeeded with the controllers, passing data along', async () => {
  // A server of its own, so the dry runs above never race with real controllers.
  const live = await startTestServer({ crds: loadBosunCrds() });
  let mgr: Manager | undefined;
  let client: KubeClient | undefined;
  try {
    mgr = await runControllers(
      { kubeconfigContent: live.kubeconfig, leaderElect: false, leaderElectionId: 'bosun-controllers', metricsPort: 0, metricsBindAddress: '127.0.0.1', logLevel: 'silent', controllers: ['landscaper'] },
      bosunFamilies,
    );
    client = createKubeClient({ kubeconfigPath: live.kubeconfigFile });
    const r = await kubectlFor(live.kubeconfigFile)(['apply', '-f', join(ROOT, 'sibling-chain')]);
    assert.equal(r.code, 0, r.stderr);
    const c = client;
    const all = await eventually(async () => {
      const list = await c.list<Installation>(installationsResource, { namespace: 'default' });
      const done = list.items.filter((i) => i.status?.phase === 'Succeeded' && i.status.jobID !== undefined && i.status.jobID === i.status.jobIDFinished);
      return done.length === 3 ? list.items : undefined;
    }, 60_000, 'chain-a, chain-b and chain-c Succeeded');
    assert.deepEqual(all.map((i) => i.metadata.name).sort(), ['chain-a', 'chain-b', 'chain-c']);
    const final = await c.get<DataObject>(dataObjectsResource, 'chain-c', { namespace: 'default' });
    assert.equal(final.data, 'hello-a-b-c');
    assert.deepEqual(deniedToControllers(live), [], 'requests outside the family\'s RBAC rules');
  } finally {
    await mgr?.stop();
    await client?.close();
    await live.close();
  }
});

test('kubectl delete -f of every example folder completes, the manifest Target outliving the uninstall through it', { timeout: 240_000 }, async () => {
  await withControllers(async (live, client) => {
    const k = kubectlFor(live.kubeconfigFile);
    const ok = async (args: string[]) => {
      const r = await k(args);
      assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stdout}\n${r.stderr}`);
      return r.stdout;
    };
    await ok(['create', 'secret', 'generic', 'bosun-kubeconfig', '-n', 'default', `--from-file=kubeconfig=${live.kubeconfigFile}`]);
    // The container and helm-chart examples run pods, which this node-less server cannot: their own tests run them
    // on bosun up (test/landscaper/container/e2e.test.ts, test/landscaper/helm/e2e.test.ts).
    const applied = folders.filter((f) => !['blueprint-render', 'container', 'helm-chart'].includes(f));
    for (const folder of applied) await ok(['apply', '-f', join(ROOT, folder)]);
    await untilSucceeded(client, ['configmaps', 'platform', 'dag', 'chain-a', 'chain-b', 'chain-c']);
    // The stuck example ends as its README says: interrupt, then delete without uninstalling.
    await ok(['annotate', 'inst', 'stuck', 'landscaper.gardener.cloud/operation=interrupt']);
    await eventually(async () => {
      const i = await client.get<Installation>(installationsResource, 'stuck', { namespace: 'default' });
      return i.status?.phase === 'Failed' && i.status.jobID === i.status.jobIDFinished;
    }, 30_000, 'stuck Failed after the interrupt');
    await ok(['annotate', 'inst', 'stuck', 'landscaper.gardener.cloud/delete-without-uninstall=true']);

    for (const folder of applied) {
      // kubectl waits for the finalizers; the timeout turns a hang into a failure naming the folder.
      await ok(['delete', '-f', join(ROOT, folder), '--timeout=60s']);
    }
    const [installations, executions, items, targets] = await Promise.all([
      client.list(installationsResource, { namespace: 'default' }),
      client.list(executionsResource, { namespace: 'default' }),
      client.list(deployItemsResource, { namespace: 'default' }),
      client.list(targetsResource, { namespace: 'default' }),
    ]);
    assert.deepEqual([...installations.items, ...executions.items, ...items.items, ...targets.items].map((o) => `${o.kind}/${o.metadata.name}`), []);
    // The deploy item uninstalled through the Target before the Target went: the ConfigMaps are gone.
    const configMaps = await client.list({ apiVersion: 'v1', kind: 'ConfigMap' }, { namespace: 'default' });
    assert.deepEqual(configMaps.items.map((c) => c.metadata.name).filter((n) => n === 'greeting' || n === 'settings'), []);
  });
});
