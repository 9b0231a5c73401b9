// Writes that create first and read only when the server says the object exists: an Execution the cache has
// not seen yet and an export DataObject of a first job. A cache that lags must not turn into a failed job.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startApiServer } from '../../src/apiserver/index.ts';
import { AlreadyExistsError } from '../../src/client/errors.ts';
import { createKubeClient } from '../../src/client/create-client.ts';
import { loadBosunCrds } from '../../src/crds/index.ts';
import type { DataObject } from '../../src/landscaper/api/data-object.ts';
import type { DeployItemTemplate, Execution } from '../../src/landscaper/api/execution.ts';
import type { Installation } from '../../src/landscaper/api/installation.ts';
import { deployItemTemplates } from '../../src/landscaper/api/execution-spec.ts';
import { dataObjectsResource, executionsResource, installationsResource } from '../../src/landscaper/api/resources.ts';
import type { ExecutionEnv } from '../../src/landscaper/execution/env.ts';
import { collectExports } from '../../src/landscaper/execution/exports.ts';
import { ensureExecution } from '../../src/landscaper/installation/execution.ts';
import type { Deps } from '../../src/landscaper/installation/types.ts';
import { executionExportDataObjectName } from '../../src/landscaper/naming.ts';

const items: DeployItemTemplate[] = [{ name: 'a', type: 'landscaper.gardener.cloud/mock', config: { apiVersion: 'mock.deployer.landscaper.gardener.cloud/v1alpha1', kind: 'ProviderConfiguration' } }];

async function harness() {
  const server = await startApiServer({ inMemory: true, port: 0, crds: loadBosunCrds(), onError: () => {} });
  const client = createKubeClient({ kubeconfig: server.kubeconfig });
  // A cache that has seen nothing: every read it cannot answer goes to the server.
  const deps = { client, executions: { get: () => undefined } } as unknown as Deps;
  const installation = (name: string) =>
    client.create<Installation>(installationsResource, { apiVersion: 'landscaper.gardener.cloud/v1alpha1', kind: 'Installation', metadata: { name, namespace: 'default' }, spec: { blueprint: { inline: { filesystem: { 'blueprint.yaml': 'apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: Blueprint\n' } } } } } as Installation);
  const execution = (name: string, ownerUid: string) =>
    client.create<Execution>(executionsResource, {
      apiVersion: 'landscaper.gardener.cloud/v1alpha1',
      kind: 'Execution',
      metadata: { name, namespace: 'default', ownerReferences: [{ apiVersion: 'landscaper.gardener.cloud/v1alpha1', kind: 'Installation', name, uid: ownerUid }] },
      spec: { context: 'default' },
    } as Execution);
  return { client, deps, installation, execution, close: async () => (await client.close(), await server.close()) };
}

test('an Execution the cache has not seen is taken over from the server, not a failed create', async (t) => {
  const h = await harness();
  t.after(h.close);
  const inst = await h.installation('lagging');
  await h.execution('lagging', inst.metadata.uid ?? '');
  const exec = await ensureExecution(h.deps, inst, items, undefined);
  assert.deepEqual(deployItemTemplates(exec?.spec).map((i) => i.name), ['a']);
  const stored = await h.client.get<Execution>(executionsResource, 'lagging', { namespace: 'default' });
  assert.deepEqual(deployItemTemplates(stored.spec).map((i) => i.name), ['a']);
});

test('an Execution of that name owned by another installation still fails the create', async (t) => {
  const h = await harness();
  t.after(h.close);
  const inst = await h.installation('taken');
  const other = await h.installation('other');
  await h.execution('taken', other.metadata.uid ?? '');
  await assert.rejects(ensureExecution(h.deps, inst, items, undefined), AlreadyExistsError);
});

test('a first job whose export DataObject already exists updates it and becomes an owner', async (t) => {
  const h = await harness();
  t.after(h.close);
  const inst = await h.installation('exporter');
  const exec = await h.execution('exporter', inst.metadata.uid ?? '');
  const name = executionExportDataObjectName('exporter');
  await h.client.create<DataObject>(dataObjectsResource, { apiVersion: 'landscaper.gardener.cloud/v1alpha1', kind: 'DataObject', metadata: { name, namespace: 'default' }, data: { old: 1 } } as DataObject);
  const env = { client: h.client } as unknown as ExecutionEnv;
  assert.deepEqual(await collectExports(env, exec, [{ name: 'a', dependsOn: [] }]), { name, namespace: 'default' });
  const stored = await h.client.get<DataObject>(dataObjectsResource, name, { namespace: 'default' });
  assert.deepEqual(stored.data, { a: null });
  assert.deepEqual(stored.metadata.ownerReferences?.map((r) => r.uid), [exec.metadata.uid]);
});
