// The mock deployer and the deployer contract against a real embedded API server.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { secretsResource } from '../../src/apimachinery/builtin-resources.ts';
import { deployItemsResource, targetsResource } from '../../src/landscaper/api/resources.ts';
import { registerMockDeployer } from '../../src/landscaper/deployers/mock/index.ts';
import type { Manager } from '../../src/runtime/manager.ts';
import { updateStatus } from '../../src/runtime/status.ts';
import type { DeployItem } from '../../src/landscaper/api/deploy-item.ts';
import { createNamespace, deployItem, eventually, getItem, secretData, startManager, startServer, trigger, waitFinished, waitGone, type Server } from './deployer-harness.ts';

const ns = 'mock';
const mockType = 'landscaper.gardener.cloud/mock';
const mockConfig = (extra: Record<string, unknown> = {}): DeployItem['spec']['config'] => ({ apiVersion: 'mock.deployer.landscaper.gardener.cloud/v1alpha1', kind: 'ProviderConfiguration', ...extra }) as DeployItem['spec']['config'];

let s: Server;
let mgr: Manager;
before(async () => {
  s = await startServer();
  await createNamespace(s.client, ns);
  await createNamespace(s.client, 'noctx', false);
  mgr = startManager(s.client);
  registerMockDeployer(mgr, { errorBackoff: { initialMs: 50, maxMs: 200 } });
  await mgr.start();
});
after(async () => {
  await mgr.stop();
  await s.close();
});

test('default: Succeeded with jobIDFinished, pickup fields, providerStatus and exports in a Secret', async () => {
  await s.client.create(deployItemsResource, deployItem('a', ns, { type: mockType, config: mockConfig({ providerStatus: { apiVersion: 'x/v1', kind: 'S', n: 1 }, export: { key: 'value', list: [1, 2] } }) }));
  // Not triggered: nothing happens.
  await new Promise((r) => setTimeout(r, 150));
  assert.equal((await getItem(s.client, ns, 'a'))?.status?.phase, undefined);

  const jobID = await trigger(s.client, ns, 'a');
  const di = await waitFinished(s.client, ns, 'a', jobID);
  const st = di.status!;
  assert.equal(st.phase, 'Succeeded');
  assert.equal(st.jobID, jobID);
  assert.equal(st.observedGeneration, di.metadata.generation);
  assert.ok(st.lastReconcileTime, 'lastReconcileTime set on pickup');
  assert.ok(st.transitionTimes?.initTime && st.transitionTimes.finishedTime);
  assert.equal(st.deployer?.name, 'mock-deployer');
  assert.deepEqual(st.providerStatus, { apiVersion: 'x/v1', kind: 'S', n: 1 });
  assert.ok(st.exportRef?.name.startsWith('mock-export-'));
  if (!st.exportRef) return;
  const secret = await s.client.get(secretsResource, st.exportRef.name, { namespace: ns });
  assert.deepEqual(JSON.parse(secretData(secret, 'config') ?? 'null'), { key: 'value', list: [1, 2] });
  assert.equal(secret.metadata.ownerReferences?.[0]?.uid, di.metadata.uid);
  assert.equal(st.conditions?.find((c) => c.type === 'DeployItemValidation')?.status, 'True');

  // A second job reuses the export secret.
  const job2 = await trigger(s.client, ns, 'a');
  const di2 = await waitFinished(s.client, ns, 'a', job2);
  assert.equal(di2.status?.exportRef?.name, st.exportRef.name);
});

test('phase, initialPhase: Failed finishes the job; initialPhase Progressing suppresses Succeeded', async () => {
  await s.client.create(deployItemsResource, deployItem('failed', ns, { type: mockType, config: mockConfig({ phase: 'Failed' }) }));
  const j1 = await trigger(s.client, ns, 'failed');
  assert.equal((await waitFinished(s.client, ns, 'failed', j1)).status?.phase, 'Failed');

  await s.client.create(deployItemsResource, deployItem('initial', ns, { type: mockType, timeout: 'none', config: mockConfig({ initialPhase: 'Progressing' }) }));
  const j2 = await trigger(s.client, ns, 'initial');
  await eventually(async () => (await getItem(s.client, ns, 'initial'))?.status?.phase === 'Progressing', 'initial to be Progressing');
  await new Promise((r) => setTimeout(r, 200));
  const di = (await getItem(s.client, ns, 'initial'))!;
  assert.equal(di.status?.phase, 'Progressing');
  assert.notEqual(di.status?.jobIDFinished, j2, 'a non-final phase does not finish the job');
});

test('progressing timeout: a short timeout fails the job with ProgressingTimeout; `none` never times out', async () => {
  await s.client.create(deployItemsResource, deployItem('slow', ns, { type: mockType, timeout: '300ms', config: mockConfig({ phase: 'Progressing' }) }));
  await s.client.create(deployItemsResource, deployItem('forever', ns, { type: mockType, timeout: 'none', config: mockConfig({ phase: 'Progressing' }) }));
  const j1 = await trigger(s.client, ns, 'slow');
  const j2 = await trigger(s.client, ns, 'forever');
  const slow = await waitFinished(s.client, ns, 'slow', j1, 5000);
  assert.equal(slow.status?.phase, 'Failed');
  assert.equal(slow.status?.lastError?.reason, 'ProgressingTimeout');
  assert.deepEqual(slow.status?.lastError?.codes, ['ERR_TIMEOUT']);
  await new Promise((r) => setTimeout(r, 500));
  const forever = (await getItem(s.client, ns, 'forever'))!;
  assert.equal(forever.status?.phase, 'Progressing');
  assert.notEqual(forever.status?.jobIDFinished, j2);
});

test('interrupt: an item the execution set to Failed stays Failed and finished', async () => {
  await s.client.create(deployItemsResource, deployItem('hang', ns, { type: mockType, timeout: 'none', config: mockConfig({ phase: 'Progressing' }) }));
  const jobID = await trigger(s.client, ns, 'hang');
  await eventually(async () => (await getItem(s.client, ns, 'hang'))?.status?.phase === 'Progressing', 'hang Progressing');
  const current = (await getItem(s.client, ns, 'hang'))!;
  // What the execution controller's interrupt does.
  await updateStatus(s.client, deployItemsResource, current, (d) => {
    d.status = { ...d.status, phase: 'Failed', jobIDFinished: jobID, lastError: { operation: 'InterruptOperation', reason: 'InterruptOperation', message: 'operation was interrupted', lastTransitionTime: '2020-01-01T00:00:00Z', lastUpdateTime: '2020-01-01T00:00:00Z' } };
  });
  await new Promise((r) => setTimeout(r, 300));
  const after = (await getItem(s.client, ns, 'hang'))!;
  assert.equal(after.status?.phase, 'Failed');
  assert.equal(after.status?.lastError?.reason, 'InterruptOperation');
});

test('NoTargetFound and a missing Context end in Failed with a message naming the cause', async () => {
  await s.client.create(deployItemsResource, deployItem('notarget', ns, { type: mockType, target: { name: 'nope', namespace: ns }, config: mockConfig() }));
  const j1 = await trigger(s.client, ns, 'notarget');
  const di = await waitFinished(s.client, ns, 'notarget', j1);
  assert.equal(di.status?.phase, 'Failed');
  assert.equal(di.status?.lastError?.reason, 'NoTargetFound');
  assert.match(di.status?.lastError?.message ?? '', /target mock\/nope/);

  await s.client.create(deployItemsResource, deployItem('noctx', 'noctx', { type: mockType, config: mockConfig() }));
  const j2 = await trigger(s.client, 'noctx', 'noctx');
  const di2 = await waitFinished(s.client, 'noctx', 'noctx', j2);
  assert.equal(di2.status?.phase, 'Failed');
  assert.match(di2.status?.lastError?.message ?? '', /context noctx\/default/);
});

test('a mock item with an existing target succeeds (the mock ignores its content)', async () => {
  await s.client.create(targetsResource, { apiVersion: 'landscaper.gardener.cloud/v1alpha1', kind: 'Target', metadata: { name: 't', namespace: ns }, spec: { type: 'landscaper.gardener.cloud/kubernetes-cluster', config: { kubeconfig: 'x' } } });
  await s.client.create(deployItemsResource, deployItem('withtarget', ns, { type: mockType, target: { name: 't', namespace: ns }, config: mockConfig() }));
  const j = await trigger(s.client, ns, 'withtarget');
  assert.equal((await waitFinished(s.client, ns, 'withtarget', j)).status?.phase, 'Succeeded');
});

test('delete: uninstall removes the export secret; delete-without-uninstall keeps it; both remove the finalizer', async () => {
  await s.client.create(deployItemsResource, deployItem('del', ns, { type: mockType, config: mockConfig({ export: { a: 1 } }) }));
  await s.client.create(deployItemsResource, deployItem('keep', ns, { type: mockType, config: mockConfig({ export: { b: 2 } }) }, { annotations: { 'landscaper.gardener.cloud/delete-without-uninstall': 'true' } }));
  const refs: string[] = [];
  for (const name of ['del', 'keep']) {
    const j = await trigger(s.client, ns, name);
    refs.push((await waitFinished(s.client, ns, name, j)).status!.exportRef!.name);
  }
  for (const name of ['del', 'keep']) {
    await s.client.delete(deployItemsResource, name, { namespace: ns });
    await trigger(s.client, ns, name);
    await waitGone(s.client, ns, name);
  }
  // Without uninstall the deployer did not delete the secret (GC may still do so through the owner reference).
  await assert.rejects(s.client.get(secretsResource, refs[0]!, { namespace: ns }).then((sec) => {
    if (sec.metadata.deletionTimestamp) throw new Error('deleting');
    return sec;
  }));
});

test('items of another type are not picked up', async () => {
  await s.client.create(deployItemsResource, deployItem('other', ns, { type: 'example.com/unknown', config: mockConfig() }));
  const jobID = await trigger(s.client, ns, 'other');
  await new Promise((r) => setTimeout(r, 300));
  const di = (await getItem(s.client, ns, 'other'))!;
  assert.equal(di.status?.jobID, jobID);
  assert.equal(di.status?.phase, undefined);
  assert.equal(di.status?.lastReconcileTime, undefined);
});

test('continuousReconcile: a finished item is reconciled again on its schedule, unless annotated inactive', async () => {
  await s.client.create(deployItemsResource, deployItem('cont', ns, { type: mockType, config: mockConfig({ continuousReconcile: { every: '1s' } }) }));
  const first = await waitFinished(s.client, ns, 'cont', await trigger(s.client, ns, 'cont'));
  const seen = [first.status!.jobID!];
  // Each due reconcile is a job of the deployer's own: a new job ID, finished, and a later lastReconcileTime.
  for (let round = 0; round < 2; round++) {
    let item: DeployItem | undefined;
    await eventually(
      async () => {
        item = await getItem(s.client, ns, 'cont');
        const st = item?.status;
        return st?.jobID !== undefined && !seen.includes(st.jobID) && st.jobIDFinished === st.jobID;
      },
      () => `another continuous reconcile of mock/cont after jobs ${seen.join(', ')}; status ${JSON.stringify(item?.status)}`,
      5000,
    );
    assert.equal(item!.status?.phase, 'Succeeded');
    assert.ok(Date.parse(item!.status!.lastReconcileTime!) > Date.parse(first.status!.lastReconcileTime!), 'lastReconcileTime moves');
    seen.push(item!.status!.jobID!);
  }

  await s.client.create(deployItemsResource, deployItem('cont-off', ns, { type: mockType, config: mockConfig({ continuousReconcile: { every: '1s' } }) }, { annotations: { 'continuousreconcile.extensions.landscaper.gardener.cloud/active': 'false' } }));
  const off = await waitFinished(s.client, ns, 'cont-off', await trigger(s.client, ns, 'cont-off'));
  await new Promise((r) => setTimeout(r, 2200));
  assert.equal((await getItem(s.client, ns, 'cont-off'))?.status?.jobID, off.status?.jobID);
});

test('continuousReconcile: an invalid schedule fails the job, naming the field', async () => {
  for (const [name, spec, message] of [
    ['cont-both', { every: '1m', cron: '* * * * *' }, /continuousReconcile: exactly one of cron and every may be set/],
    ['cont-neg', { every: '-5s' }, /continuousReconcile\.every: Invalid value: "-5s": specified duration has to be greater than zero/],
    ['cont-cron', { cron: 'every day' }, /continuousReconcile\.cron: invalid cron spec "every day"/],
  ] as const) {
    await s.client.create(deployItemsResource, deployItem(name, ns, { type: mockType, config: mockConfig({ continuousReconcile: spec }) }));
    const di = await waitFinished(s.client, ns, name, await trigger(s.client, ns, name));
    assert.equal(di.status?.phase, 'Failed', name);
    assert.match(di.status?.lastError?.message ?? '', message);
  }
});
