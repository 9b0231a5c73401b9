// The manifest deployer inside the full family (upstream integration deployers "manifest deployer v1alpha2",
// tutorial "echo server"-style ConfigMaps, targets "should use a Target …"): a kubeconfig Target pointing at the same
// server, ConfigMaps applied, exports by jsonPath flowing into installation exports, cleanup on update and uninstall.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../src/apimachinery/object.ts';
import {
  MANIFEST, R, RECONCILE, annotate, blueprint, createData, createInst, createTarget, dataOf, deployExecution, exportExecution, getOrUndefined, installation,
  listDeployItems, setData, untilFinished, untilGone, type Env, withEnv,
} from './support.ts';

let env: Env;
withEnv((e) => {
  env = e;
});

const T = { timeout: 40_000 };

const configMap = async (ns: string, name: string): Promise<KubeObject | undefined> => getOrUndefined(env.client, R.configMaps, ns, name);
const cmData = async (ns: string, name: string): Promise<unknown> => (await configMap(ns, name))?.['data'];

/** Deploys ConfigMaps cm-<n> for every n in `names` into `ns` of the imported cluster, exporting cm-first's value. */
function manifestBlueprint(ns: string, names: string[]): string {
  const manifests = names.map((n) => [
    '    - policy: manage',
    '      manifest:',
    '        apiVersion: v1',
    '        kind: ConfigMap',
    `        metadata: { name: cm-${n}, namespace: ${ns} }`,
    `        data: { key: "{{ .imports.value }}-${n}" }`,
  ].join('\n'));
  const template = [
    'deployItems:',
    '- name: configs',
    `  type: ${MANIFEST}`,
    '  target:',
    '    import: cluster',
    '  config:',
    '    apiVersion: manifest.deployer.landscaper.gardener.cloud/v1alpha2',
    '    kind: ProviderConfiguration',
    '    updateStrategy: update',
    '    manifests:',
    ...manifests,
    '    exports:',
    '      exports:',
    '      - key: firstValue',
    '        jsonPath: .data.key',
    `        fromResource: { apiVersion: v1, kind: ConfigMap, name: cm-${names[0]!}, namespace: ${ns} }`,
    '',
  ].join('\n');
  return blueprint({
    imports: [{ name: 'cluster', type: 'target', targetType: 'landscaper.gardener.cloud/kubernetes-cluster' }, { name: 'value', type: 'data', schema: { type: 'string' } }],
    exports: [{ name: 'first', type: 'data', schema: { type: 'string' } }],
    deployExecutions: [deployExecution(template)],
    exportExecutions: [exportExecution('exports:\n  first: {{ index .values.deployitems "configs" "firstValue" | quote }}\n')],
  });
}

async function setup(prefix: string, names: string[], value: string): Promise<string> {
  const ns = await env.namespace(prefix);
  await createTarget(env, ns, 'self', { kubeconfig: env.server.kubeconfig });
  await createData(env, ns, 'value', value);
  await createInst(env, installation('m', ns, manifestBlueprint(ns, names), {
    imports: { targets: [{ name: 'cluster', target: 'self' }], data: [{ name: 'value', dataRef: 'value' }] },
    exports: { data: [{ name: 'first', dataRef: 'first' }] },
  }));
  return ns;
}

test('manifest deployer: ConfigMaps applied through a kubeconfig Target to the same server, exports by jsonPath, updates, uninstall', T, async () => {
  const ns = await setup('manifest', ['one', 'two'], 'v1');
  const first = await untilFinished(env, ns, 'm', { timeoutMs: 20_000 });
  assert.equal(first.status?.phase, 'Succeeded', first.status?.lastError?.message);
  assert.deepEqual(await cmData(ns, 'cm-one'), { key: 'v1-one' });
  assert.deepEqual(await cmData(ns, 'cm-two'), { key: 'v1-two' });
  assert.equal(await dataOf(env, ns, 'first'), 'v1-one', 'export read by jsonPath from the applied ConfigMap');
  const [di] = await listDeployItems(env, ns);
  assert.equal(di?.status?.jobID, first.status!.jobID);
  const managed = (di?.status?.providerStatus as { managedResources?: { resource: { name: string } }[] } | undefined)?.managedResources?.map((m) => m.resource.name).sort();
  assert.deepEqual(managed, ['cm-one', 'cm-two']);

  // New import value and cm-two dropped: cm-one is updated, cm-two removed from the cluster, the export follows.
  await setData(env, ns, 'value', 'v2');
  await env.client.patch(R.installations, 'm', { spec: { blueprint: { inline: { filesystem: { 'blueprint.yaml': manifestBlueprint(ns, ['one']) } } } }, metadata: { annotations: RECONCILE } }, { type: 'merge', namespace: ns });
  const mark = env.recorder.mark();
  const second = await untilFinished(env, ns, 'm', { notJob: first.status!.jobID!, timeoutMs: 20_000 });
  assert.equal(second.status?.phase, 'Succeeded', second.status?.lastError?.message);
  assert.deepEqual(await cmData(ns, 'cm-one'), { key: 'v2-one' });
  assert.equal(await configMap(ns, 'cm-two'), undefined, 'a manifest no longer listed is deleted');
  assert.equal(await dataOf(env, ns, 'first'), 'v2-one');
  assert.deepEqual(env.recorder.of(ns, mark), ['trigger:configs'], 'the same deploy item is updated, not replaced');

  // Uninstall: the ConfigMaps go with the installation.
  const del = env.recorder.mark();
  await env.client.delete(R.installations, 'm', { namespace: ns });
  await untilGone(env, R.installations, ns, 'm', 20_000);
  assert.deepEqual(env.recorder.of(ns, del), ['trigger:configs', 'delete:configs']);
  assert.equal(await configMap(ns, 'cm-one'), undefined, 'uninstalled');
  assert.equal(await dataOf(env, ns, 'first'), undefined, 'the export is removed');
});

test('manifest deployer with delete-without-uninstall: the ConfigMaps stay in the cluster', T, async () => {
  const ns = await setup('keepcm', ['kept'], 'k');
  const inst = await untilFinished(env, ns, 'm', { timeoutMs: 20_000 });
  assert.equal(inst.status?.phase, 'Succeeded', inst.status?.lastError?.message);
  assert.deepEqual(await cmData(ns, 'cm-kept'), { key: 'k-kept' });
  const mark = env.recorder.mark();
  await annotate(env, R.installations, ns, 'm', { 'landscaper.gardener.cloud/delete-without-uninstall': 'true' });
  await env.client.delete(R.installations, 'm', { namespace: ns });
  await untilGone(env, R.installations, ns, 'm', 20_000);
  assert.deepEqual(env.recorder.of(ns, mark), ['delete:configs'], 'the deployer was not asked to uninstall');
  assert.deepEqual(await cmData(ns, 'cm-kept'), { key: 'k-kept' }, 'the deployed ConfigMap is left in place');
});
