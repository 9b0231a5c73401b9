// The manifest deployer applying ConfigMaps into a second embedded server through a kubeconfig Target.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../src/apimachinery/object.ts';
import type { DeployItem } from '../../src/landscaper/api/deploy-item.ts';
import { secretsResource } from '../../src/apimachinery/builtin-resources.ts';
import { deployItemsResource, targetsResource } from '../../src/landscaper/api/resources.ts';
import { deployItem, eventually, getItem, secretData, startServer, trigger, waitFinished, waitGone } from './deployer-harness.ts';
import { cm, configMaps, MANIFEST_TYPE as type, manifestConfig as config, startManifestFixture, type ManifestFixture } from './manifest-fixture.ts';

const ns = 'manifest';

let f: ManifestFixture;

const remoteCm = async (name: string): Promise<KubeObject | undefined> => f.remote.client.get(configMaps, name, { namespace: 'default' }).catch(() => undefined);
const dataOf = (o: KubeObject | undefined): Record<string, string> | undefined => o?.['data'] as Record<string, string> | undefined;

async function setConfig(name: string, cfg: DeployItem['spec']['config']): Promise<void> {
  const di = (await getItem(f.ls.client, ns, name))!;
  await f.ls.client.update(deployItemsResource, { ...di, spec: { ...di.spec, config: cfg } });
}

before(async () => {
  f = await startManifestFixture(ns);
  // The same cluster through a secretRef target: {kubeconfig: …} stored in a Secret key.
  await f.ls.client.create(secretsResource, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'access', namespace: ns }, data: { cluster: Buffer.from(JSON.stringify({ kubeconfig: f.remote.server.kubeconfig })).toString('base64') } });
  await f.ls.client.create(targetsResource, { apiVersion: 'landscaper.gardener.cloud/v1alpha1', kind: 'Target', metadata: { name: 'remote-ref', namespace: ns }, spec: { type: 'landscaper.gardener.cloud/kubernetes-cluster', secretRef: { name: 'access', key: 'cluster' } } });
});
after(() => f.close());

test('policies, managedResources, exports by jsonPath, orphan cleanup', async () => {
  await f.remote.client.create(configMaps, cm('foreign', { owner: 'someone-else' }));
  const manifests = (v: string, withKept: boolean): unknown[] => [
    { policy: 'manage', manifest: cm('managed', { k: v }) },
    { policy: 'fallback', manifest: cm('foreign', { owner: 'me' }) },
    { policy: 'fallback', manifest: cm('fb-new', { k: v }) },
    ...(withKept ? [{ policy: 'keep', manifest: cm('kept', { k: v }) }, { policy: 'manage', manifest: cm('orphan', { k: v }) }] : []),
    { policy: 'ignore', manifest: cm('ignored', { k: v }) },
    { policy: 'immutable', manifest: cm('immut', { k: v }) },
  ];
  const exportsCfg = { exports: [{ key: 'value', jsonPath: '.data.k', fromResource: { apiVersion: 'v1', kind: 'ConfigMap', name: 'managed', namespace: 'default' } }] };
  await f.ls.client.create(deployItemsResource, deployItem('policies', ns, { type, target: { name: 'remote', namespace: ns }, config: config({ manifests: manifests('one', true), exports: exportsCfg }) }));
  const j1 = await trigger(f.ls.client, ns, 'policies');
  const di = await waitFinished(f.ls.client, ns, 'policies', j1);
  assert.equal(di.status?.phase, 'Succeeded', di.status?.lastError?.message);
  const ps = di.status?.providerStatus as { apiVersion: string; kind: string; managedResources: { policy: string; resource: { name: string; kind: string; namespace: string; uid: string } }[] };
  assert.equal(ps.apiVersion, 'manifest.deployer.landscaper.gardener.cloud/v1alpha2');
  assert.equal(ps.kind, 'ProviderStatus');
  assert.deepEqual(ps.managedResources.map((m) => `${m.resource.name}:${m.policy}`).sort(), ['fb-new:fallback', 'immut:immutable', 'kept:keep', 'managed:manage', 'orphan:manage']);
  assert.ok(ps.managedResources.every((m) => m.resource.kind === 'ConfigMap' && m.resource.namespace === 'default' && m.resource.uid));
  assert.equal(await remoteCm('ignored'), undefined, 'ignore: never created');
  assert.deepEqual(dataOf(await remoteCm('foreign')), { owner: 'someone-else' }, 'fallback: a foreign object is left alone');
  assert.equal((await remoteCm('managed'))?.metadata.labels?.['manifest.deployer.landscaper.gardener.cloud/deployitem'], 'policies');
  const secret = await f.ls.client.get(secretsResource, di.status!.exportRef!.name, { namespace: ns });
  assert.deepEqual(JSON.parse(secretData(secret, 'config')!), { value: 'one' });

  await setConfig('policies', config({ manifests: manifests('two', false), exports: exportsCfg }));
  const j2 = await trigger(f.ls.client, ns, 'policies');
  const di2 = await waitFinished(f.ls.client, ns, 'policies', j2);
  assert.equal(di2.status?.phase, 'Succeeded', di2.status?.lastError?.message);
  assert.deepEqual(dataOf(await remoteCm('managed')), { k: 'two' });
  assert.deepEqual(dataOf(await remoteCm('fb-new')), { k: 'two' }, 'fallback: our own object is updated');
  assert.deepEqual(dataOf(await remoteCm('immut')), { k: 'one' }, 'immutable: never updated');
  assert.ok(await remoteCm('kept'), 'keep: not deleted when no longer rendered');
  assert.equal(await remoteCm('orphan'), undefined, 'manage: deleted when no longer rendered');
  const secret2 = await f.ls.client.get(secretsResource, di2.status!.exportRef!.name, { namespace: ns });
  assert.deepEqual(JSON.parse(secretData(secret2, 'config')!), { value: 'two' });
});

test('update strategies: update and patch replace, merge keeps live values, mergeOverwrite overwrites', async () => {
  const strategies = ['update', 'patch', 'merge', 'mergeOverwrite'];
  for (const s of strategies) {
    await f.ls.client.create(deployItemsResource, deployItem(`s-${s.toLowerCase()}`, ns, { type, target: { name: 'remote-ref', namespace: ns }, config: config({ updateStrategy: s, manifests: [{ manifest: cm(`strategy-${s.toLowerCase()}`, { k: 'old' }) }] }) }));
    const j = await trigger(f.ls.client, ns, `s-${s.toLowerCase()}`);
    assert.equal((await waitFinished(f.ls.client, ns, `s-${s.toLowerCase()}`, j)).status?.phase, 'Succeeded');
    // Someone else adds a field in the target cluster.
    await f.remote.client.patch(configMaps, `strategy-${s.toLowerCase()}`, { data: { extra: 'live' } }, { type: 'merge', namespace: 'default' });
    await setConfig(`s-${s.toLowerCase()}`, config({ updateStrategy: s, manifests: [{ manifest: cm(`strategy-${s.toLowerCase()}`, { k: 'new' }) }] }));
    const j2 = await trigger(f.ls.client, ns, `s-${s.toLowerCase()}`);
    assert.equal((await waitFinished(f.ls.client, ns, `s-${s.toLowerCase()}`, j2)).status?.phase, 'Succeeded');
  }
  assert.deepEqual(dataOf(await remoteCm('strategy-update')), { k: 'new' });
  assert.deepEqual(dataOf(await remoteCm('strategy-patch')), { k: 'new' });
  assert.deepEqual(dataOf(await remoteCm('strategy-merge')), { k: 'old', extra: 'live' });
  assert.deepEqual(dataOf(await remoteCm('strategy-mergeoverwrite')), { k: 'new', extra: 'live' });
});

test('custom readiness check waits for its requirement; a short timeout fails with ProgressingTimeout', async () => {
  const readinessChecks = { custom: [{ name: 'gate-open', resourceSelector: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'gate', namespace: 'default' }], requirements: [{ jsonPath: '.data.ready', operator: '==', values: [{ value: 'true' }] }] }] };
  await f.ls.client.create(deployItemsResource, deployItem('ready', ns, { type, target: { name: 'remote', namespace: ns }, config: config({ manifests: [{ manifest: cm('ready-cm', { a: 'b' }) }], readinessChecks }) }));
  const j = await trigger(f.ls.client, ns, 'ready');
  await eventually(async () => (await getItem(f.ls.client, ns, 'ready'))?.status?.phase === 'Progressing', 'ready Progressing');
  await f.remote.client.create(configMaps, cm('gate', { ready: 'false' }));
  await new Promise((r) => setTimeout(r, 200));
  assert.equal((await getItem(f.ls.client, ns, 'ready'))?.status?.phase, 'Progressing');
  await f.remote.client.patch(configMaps, 'gate', { data: { ready: 'true' } }, { type: 'merge', namespace: 'default' });
  assert.equal((await waitFinished(f.ls.client, ns, 'ready', j)).status?.phase, 'Succeeded');

  const never = { custom: [{ name: 'never', resourceSelector: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'no-such-cm', namespace: 'default' }], requirements: [{ jsonPath: '.data.x', operator: 'exists' }] }] };
  await f.ls.client.create(deployItemsResource, deployItem('slow', ns, { type, timeout: '700ms', target: { name: 'remote', namespace: ns }, config: config({ manifests: [{ manifest: cm('slow-cm', { a: 'b' }) }], readinessChecks: never }) }));
  const j2 = await trigger(f.ls.client, ns, 'slow');
  const slow = await waitFinished(f.ls.client, ns, 'slow', j2, 5000);
  assert.equal(slow.status?.phase, 'Failed');
  assert.equal(slow.status?.lastError?.reason, 'ProgressingTimeout');
});

test('deletion groups run in order; delete-without-uninstall leaves the resources', async () => {
  const deletionGroups = [
    { customResourceGroup: { resources: [{ apiVersion: 'v1', kind: 'ConfigMap', names: ['del-c'] }] } },
    { customResourceGroup: { resources: [{ apiVersion: 'v1', kind: 'ConfigMap', names: ['del-a'] }] } },
    { predefinedResourceGroup: { type: 'namespaced-resources' } },
  ];
  await f.ls.client.create(deployItemsResource, deployItem('groups', ns, { type, target: { name: 'remote', namespace: ns }, config: config({ manifests: ['del-a', 'del-b', 'del-c'].map((n) => ({ manifest: cm(n, { n }) })), deletionGroups }) }));
  const j = await trigger(f.ls.client, ns, 'groups');
  assert.equal((await waitFinished(f.ls.client, ns, 'groups', j)).status?.phase, 'Succeeded');

  const order: string[] = [];
  const watch = await f.remote.client.watch(configMaps, { namespace: 'default' });
  const reading = (async () => {
    for await (const ev of watch) if (ev.type === 'DELETED' && ev.object.metadata.name?.startsWith('del-')) order.push(ev.object.metadata.name);
  })();
  await f.ls.client.delete(deployItemsResource, 'groups', { namespace: ns });
  await trigger(f.ls.client, ns, 'groups');
  await waitGone(f.ls.client, ns, 'groups');
  await eventually(() => order.length === 3, () => `three deletions, saw ${order.join(',')}`);
  watch.close();
  await reading.catch(() => {});
  assert.deepEqual(order, ['del-c', 'del-a', 'del-b']);

  await f.ls.client.create(deployItemsResource, deployItem('dwu', ns, { type, target: { name: 'remote', namespace: ns }, config: config({ manifests: [{ manifest: cm('dwu-cm', { a: 'b' }) }] }) }, { annotations: { 'landscaper.gardener.cloud/delete-without-uninstall': 'true' } }));
  const j2 = await trigger(f.ls.client, ns, 'dwu');
  assert.equal((await waitFinished(f.ls.client, ns, 'dwu', j2)).status?.phase, 'Succeeded');
  await f.ls.client.delete(deployItemsResource, 'dwu', { namespace: ns });
  await trigger(f.ls.client, ns, 'dwu');
  await waitGone(f.ls.client, ns, 'dwu');
  assert.ok(await remoteCm('dwu-cm'), 'resources stay without uninstall');
});

test('an unreachable target ends in Failed naming the target and its server', async () => {
  const gone = await startServer(false);
  const kubeconfig = gone.server.kubeconfig;
  const url = gone.server.url;
  await gone.close();
  await f.ls.client.create(targetsResource, { apiVersion: 'landscaper.gardener.cloud/v1alpha1', kind: 'Target', metadata: { name: 'dead', namespace: ns }, spec: { type: 'landscaper.gardener.cloud/kubernetes-cluster', config: { kubeconfig } } });
  await f.ls.client.create(deployItemsResource, deployItem('unreachable', ns, { type, target: { name: 'dead', namespace: ns }, config: config({ manifests: [{ manifest: cm('x', { a: 'b' }) }] }) }));
  const j = await trigger(f.ls.client, ns, 'unreachable');
  const di = await waitFinished(f.ls.client, ns, 'unreachable', j, 15_000);
  assert.equal(di.status?.phase, 'Failed');
  assert.equal(di.status?.lastError?.reason, 'TargetUnreachable');
  assert.ok(di.status?.lastError?.message.includes(`target ${ns}/dead`));
  assert.ok(di.status?.lastError?.message.includes(url), di.status?.lastError?.message);
  assert.ok(!di.status?.lastError?.message.includes('token'), 'no credentials in messages');
});

test('a manifest item is not picked up by the mock type and vice versa (type predicate)', async () => {
  await f.ls.client.create(deployItemsResource, deployItem('mocky', ns, { type: 'landscaper.gardener.cloud/mock', config: { apiVersion: 'mock.deployer.landscaper.gardener.cloud/v1alpha1', kind: 'ProviderConfiguration' } as DeployItem['spec']['config'] }));
  const j = await trigger(f.ls.client, ns, 'mocky');
  await new Promise((r) => setTimeout(r, 300));
  const di = (await getItem(f.ls.client, ns, 'mocky'))!;
  assert.equal(di.status?.jobID, j);
  assert.equal(di.status?.phase, undefined);
});

test('continuousReconcile: a finished item applies its manifests again on schedule, repairing drift', async () => {
  await f.ls.client.create(deployItemsResource, deployItem('drift', ns, { type, target: { name: 'remote', namespace: ns }, config: config({ manifests: [{ policy: 'manage', manifest: cm('drift', { k: 'desired' }) }], continuousReconcile: { every: '1s' } }) }));
  const j1 = await trigger(f.ls.client, ns, 'drift');
  const di = await waitFinished(f.ls.client, ns, 'drift', j1);
  assert.equal(di.status?.phase, 'Succeeded', di.status?.lastError?.message);
  await f.remote.client.delete(configMaps, 'drift', { namespace: 'default' });
  await eventually(async () => dataOf(await remoteCm('drift'))?.['k'] === 'desired', 'the continuous reconcile to apply ConfigMap default/drift again');
  const after = (await getItem(f.ls.client, ns, 'drift'))!;
  assert.notEqual(after.status?.jobID, j1, 'a job of the deployer\'s own');
  assert.ok(Date.parse(after.status!.lastReconcileTime!) > Date.parse(di.status!.lastReconcileTime!));
});
