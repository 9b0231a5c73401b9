// What a newcomer ran into (issue 11): states that never end and errors that say too little. Each case ends
// within a bounded wait with a message that names the cause, and everything it leaves behind can be deleted.
// The whole Landscaper family runs on one manager against an embedded API server, with short timeouts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { stringify } from 'yaml';
import type { KubeObject } from '../../../src/apimachinery/object.ts';
import type { DeployItem } from '../../../src/landscaper/api/deploy-item.ts';
import type { Execution } from '../../../src/landscaper/api/execution.ts';
import type { Installation } from '../../../src/landscaper/api/installation.ts';
import { deployItemsResource, executionsResource, installationsResource, targetsResource } from '../../../src/landscaper/api/resources.ts';
import { buildTree } from '../../../src/landscaper/tree/build.ts';
import { renderTree } from '../../../src/landscaper/tree/render.ts';
import { updateStatus } from '../../../src/runtime/status.ts';
import { getOrUndefined, installation, until, untilFinished, configMapManifestItem, FAULT_PICKUP_MS, useFaultLandscape } from './fixtures.ts';

const PICKUP_MS = FAULT_PICKUP_MS;
const ls = useFaultLandscape();
const namespace = (prefix: string) => ls.namespace(prefix);

/** Imports `in` from the DataObject `from`, exports `out` into `to`. */
function relay(name: string, ns: string, from: string, to: string, annotations?: Record<string, string>): Installation {
  const bp = stringify({
    apiVersion: 'landscaper.gardener.cloud/v1alpha1',
    kind: 'Blueprint',
    imports: [{ name: 'in', type: 'data', schema: { type: 'string' } }],
    exports: [{ name: 'out', type: 'data', schema: { type: 'string' } }],
    exportExecutions: [{ name: 'e', type: 'GoTemplate', template: 'exports:\n  out: x\n' }],
  });
  const spec = { imports: { data: [{ name: 'in', dataRef: from }] }, exports: { data: [{ name: 'out', dataRef: to }] } };
  return annotations ? installation(name, ns, bp, spec, annotations) : installation(name, ns, bp, spec);
}

async function untilGone(ns: string, names: string[], timeoutMs = 15_000): Promise<void> {
  await until(`installations ${names.join(', ')} in ${ns} to be gone`, async () => Promise.all(names.map((n) => getOrUndefined(ls.client, installationsResource, n, ns))), (all) => all.every((i) => i === undefined), timeoutMs);
}

for (const variant of ['plain', 'interrupt and delete-without-uninstall'] as const) {
  test(`siblings that import each other's exports fail, naming the cycle, and delete (${variant})`, { timeout: 60_000 }, async () => {
    const ns = await namespace('cycle');
    // A third sibling that only imports from the cycle fails because its predecessor failed, and deletes too.
    await ls.client.create(installationsResource, relay('cyc-x', ns, 'y-out', 'x-out'));
    await ls.client.create(installationsResource, relay('cyc-y', ns, 'x-out', 'y-out'));
    await ls.client.create(installationsResource, relay('cyc-after', ns, 'y-out', 'after-out'));
    const x = await untilFinished(ls.client, ns, 'cyc-x', 15_000);
    const y = await untilFinished(ls.client, ns, 'cyc-y', 15_000);
    assert.equal(x.status?.phase, 'Failed');
    assert.equal(y.status?.phase, 'Failed');
    assert.equal(x.status?.lastError?.message, 'import cycle between sibling installations: cyc-x → cyc-y → cyc-x');
    assert.equal(y.status?.lastError?.message, 'import cycle between sibling installations: cyc-y → cyc-x → cyc-y');
    assert.equal(x.status?.lastError?.reason, 'ImportCycle');
    const follower = await untilFinished(ls.client, ns, 'cyc-after', 15_000);
    assert.equal(follower.status?.phase, 'Failed');
    assert.match(follower.status?.lastError?.message ?? '', /predecessor.*cyc-y/);

    if (variant !== 'plain') {
      for (const name of ['cyc-x', 'cyc-y']) {
        const annotations = { 'landscaper.gardener.cloud/operation': 'interrupt', 'landscaper.gardener.cloud/delete-without-uninstall': 'true' };
        await ls.client.patch(installationsResource, name, { metadata: { annotations } }, { type: 'merge', namespace: ns });
      }
    }
    for (const name of ['cyc-x', 'cyc-y', 'cyc-after']) await ls.client.delete(installationsResource, name, { namespace: ns });
    await untilGone(ns, ['cyc-x', 'cyc-y', 'cyc-after']);
  });
}

test('one installation of a cycle can be deleted alone', { timeout: 60_000 }, async () => {
  const ns = await namespace('cycle-one');
  await ls.client.create(installationsResource, relay('cyc-x', ns, 'y-out', 'x-out'));
  await ls.client.create(installationsResource, relay('cyc-y', ns, 'x-out', 'y-out'));
  await untilFinished(ls.client, ns, 'cyc-x', 15_000);
  await untilFinished(ls.client, ns, 'cyc-y', 15_000);
  await ls.client.delete(installationsResource, 'cyc-x', { namespace: ns });
  await untilGone(ns, ['cyc-x']);
  assert.equal((await getOrUndefined<Installation>(ls.client, installationsResource, 'cyc-y', ns))?.status?.phase, 'Failed');
});

const manifestBlueprint = stringify({
  apiVersion: 'landscaper.gardener.cloud/v1alpha1',
  kind: 'Blueprint',
  imports: [{ name: 'cluster', type: 'target', targetType: 'landscaper.gardener.cloud/kubernetes-cluster' }],
  deployExecutions: [
    {
      name: 'main',
      type: 'GoTemplate',
      template: stringify({
        deployItems: [
          configMapManifestItem,
        ],
      }),
    },
  ],
});

const garbageKubeconfigs: { case: string; kubeconfig: string; problem: RegExp }[] = [
  { case: 'a YAML syntax error', kubeconfig: 'apiVersion: v1\nclusters: [{name: a, cluster: {server: https://x}\ncontexts: []\n', problem: /its kubeconfig is not valid YAML \(yaml: line \d+/ },
  { case: 'valid YAML that is not a kubeconfig', kubeconfig: 'hello: world\nlist: [1, 2]\n', problem: /its kubeconfig is not a kubeconfig: it has no clusters and no contexts/ },
  {
    case: 'a context naming no cluster it has',
    kubeconfig: stringify({ apiVersion: 'v1', kind: 'Config', 'current-context': 'c', contexts: [{ name: 'c', context: { cluster: 'elsewhere', user: 'u' } }], clusters: [{ name: 'here', cluster: { server: 'https://127.0.0.1:1' } }], users: [{ name: 'u', user: { token: 'secret-token' } }] }),
    problem: /its kubeconfig has a context "c" that names cluster "elsewhere", which is not among its clusters/,
  },
];

for (const garbage of garbageKubeconfigs) {
  test(`a Target whose kubeconfig has ${garbage.case} fails the deploy item at once, naming the Target`, { timeout: 60_000 }, async () => {
    const ns = await namespace('kubeconfig');
    await ls.client.create(targetsResource, { apiVersion: 'landscaper.gardener.cloud/v1alpha1', kind: 'Target', metadata: { name: 'broken', namespace: ns }, spec: { type: 'landscaper.gardener.cloud/kubernetes-cluster', config: { kubeconfig: garbage.kubeconfig } } } as KubeObject);
    const started = Date.now();
    await ls.client.create(installationsResource, installation('inst', ns, manifestBlueprint, { imports: { targets: [{ name: 'cluster', target: 'broken' }] } }));
    const inst = await untilFinished(ls.client, ns, 'inst', 10_000);
    const elapsed = Date.now() - started;
    assert.equal(inst.status?.phase, 'Failed');
    assert.ok(elapsed < 5000, `failed within seconds (${elapsed} ms), not at the progressing timeout`);
    const [item] = (await ls.client.list<DeployItem>(deployItemsResource, { namespace: ns })).items;
    assert.equal(item?.status?.phase, 'Failed');
    assert.equal(item?.status?.lastError?.reason, 'InvalidKubeconfig');
    assert.deepEqual(item?.status?.lastError?.codes, ['ERR_CONFIGURATION_PROBLEM']);
    const message = item?.status?.lastError?.message ?? '';
    assert.ok(message.startsWith(`target ${ns}/broken: `), message);
    assert.match(message, garbage.problem);
    assert.doesNotMatch(message, /secret-token|https:\/\/x/, 'the kubeconfig itself is never quoted');
  });
}

test('an item of a type no deployer here handles says so at once, in a condition and in the tree; an external deployer may still take it', { timeout: 60_000 }, async () => {
  const ns = await namespace('unknown-type');
  const started = Date.now();
  const bp = stringify({ apiVersion: 'landscaper.gardener.cloud/v1alpha1', kind: 'Blueprint', deployExecutions: [{ name: 'main', type: 'GoTemplate', template: stringify({ deployItems: [{ name: 'nobody', type: 'example.com/nobody-deploys-this', config: { apiVersion: 'example.com/v1', kind: 'ProviderConfiguration' } }] }) }] });
  await ls.client.create(installationsResource, installation('inst', ns, bp));
  const item = await until(
    'the DeployerKnown condition',
    async () => (await ls.client.list<DeployItem>(deployItemsResource, { namespace: ns })).items[0],
    (d) => d?.status?.conditions?.some((c) => c.type === 'DeployerKnown') === true,
    10_000,
    5,
  );
  assert.ok(Date.now() - started < PICKUP_MS, `said before the pickup timeout (${Date.now() - started} ms)`);
  assert.notEqual(item?.status?.phase, 'Failed', 'informative, not a failure');
  const condition = item?.status?.conditions?.find((c) => c.type === 'DeployerKnown');
  assert.equal(condition?.status, 'False');
  assert.equal(condition?.reason, 'NoDeployerForType');
  assert.equal(
    condition?.message,
    'no deployer of this Bosun handles deploy item type "example.com/nobody-deploys-this" (this Bosun runs deployers for landscaper.gardener.cloud/container, landscaper.gardener.cloud/helm, landscaper.gardener.cloud/kubernetes-manifest, landscaper.gardener.cloud/mock); a deployer running elsewhere may still pick it up: the item fails if none picks it up within the pickup timeout (1.5s)',
  );

  const [installations, executions, deployItems] = await Promise.all([
    ls.client.list<Installation>(installationsResource, { namespace: ns }),
    ls.client.list<Execution>(executionsResource, { namespace: ns }),
    ls.client.list<DeployItem>(deployItemsResource, { namespace: ns }),
  ]);
  const tree = renderTree(buildTree(ns, 'inst', { installations: installations.items, executions: executions.items, deployItems: deployItems.items }), { color: false, now: new Date(), maxErrorLength: 1000 });
  assert.match(tree, /Waiting: no deployer of this Bosun handles deploy item type "example\.com\/nobody-deploys-this"/, tree);

  // An external deployer picks the item up (upstream's contract: lastReconcileTime at or after the job's
  // generation time): the condition says so, and the pickup timeout does not fire.
  await updateStatus(ls.client, deployItemsResource, item!, (d) => {
    const s = (d.status ??= { observedGeneration: 0 });
    s.phase = 'Progressing';
    s.lastReconcileTime = new Date(Date.now() + 1000).toISOString().replace(/\.\d+Z$/, 'Z');
  });
  const picked = await until(
    'the DeployerKnown condition to turn True',
    async () => getOrUndefined<DeployItem>(ls.client, deployItemsResource, item!.metadata.name!, ns),
    (d) => d?.status?.conditions?.find((c) => c.type === 'DeployerKnown')?.status === 'True',
  );
  assert.equal(picked?.status?.conditions?.find((c) => c.type === 'DeployerKnown')?.reason, 'PickedUp');
  await new Promise((r) => setTimeout(r, PICKUP_MS + 500));
  assert.equal((await getOrUndefined<DeployItem>(ls.client, deployItemsResource, item!.metadata.name!, ns))?.status?.phase, 'Progressing', 'the pickup timeout did not fire');
});
