// Subinstallations and imports (upstream integration: importexport "should pass imports/exports correctly to/from
// subinstallations", "should read imports from DataObjects, ConfigMaps and Secrets"; subinstallations "should add
// and remove subinstallations", "should update imports and exports"; targets "should export Targets", "should
// create a DeployItem for each Target in a TargetList", "should pass a Target and TargetList to a subinstallation",
// target maps; inline "a Blueprint should use an inline subinstallation"), run by the real controller family.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Target } from '../../../src/landscaper/api/target.ts';
import {
  R, RECONCILE, blueprint, createData, createInst, createTarget, dataOf, deployExecution, exportExecution, getExec, getInst, installation, listDeployItems,
  mockDeployTemplate, setData, T, subOf, subinstallationsOf, untilFinished, annotate, type Env, type Yamlish, withEnv,
} from './support.ts';

let env: Env;
withEnv((e) => {
  env = e;
});
const KC = 'landscaper.gardener.cloud/kubernetes-cluster';

const template = (name: string, bp: string, imports: Yamlish, exports: Yamlish): Yamlish => ({
  apiVersion: 'landscaper.gardener.cloud/v1alpha1',
  kind: 'InstallationTemplate',
  name,
  blueprint: { filesystem: { 'blueprint.yaml': bp } },
  imports,
  exports,
});

test('nested subinstallations: one job ID through all levels, exports flow up', T, async () => {
  const ns = await env.namespace('nested');
  await createData(env, ns, 'in', 'v');
  const leaf = blueprint({
    imports: [{ name: 'x', type: 'data', schema: { type: 'string' } }],
    exports: [{ name: 'res', type: 'data', schema: { type: 'string' } }],
    deployExecutions: [deployExecution(mockDeployTemplate([{ name: 'leaf-item', exportYaml: 'value: "{{ .imports.x }}+leaf"' }]))],
    exportExecutions: [exportExecution('exports:\n  res: {{ index .values.deployitems "leaf-item" "value" | quote }}\n')],
  });
  const mid = blueprint({
    imports: [{ name: 'x', type: 'data', schema: { type: 'string' } }],
    exports: [{ name: 'res', type: 'data', schema: { type: 'string' } }],
    subinstallations: [template('leaf', leaf, { data: [{ name: 'x', dataRef: 'x' }] }, { data: [{ name: 'res', dataRef: 'leaf-y' }] })],
    deployExecutions: [deployExecution(mockDeployTemplate([{ name: 'mid-item' }]))],
    exportExecutions: [exportExecution('exports:\n  res: {{ index .values.dataobjects "leaf-y" | printf "%s+mid" | quote }}\n')],
  });
  const top = blueprint({
    imports: [{ name: 'x', type: 'data', schema: { type: 'string' } }],
    exports: [{ name: 'res', type: 'data', schema: { type: 'string' } }],
    subinstallations: [template('mid', mid, { data: [{ name: 'x', dataRef: 'x' }] }, { data: [{ name: 'res', dataRef: 'mid-y' }] })],
    exportExecutions: [exportExecution('exports:\n  res: {{ index .values.dataobjects "mid-y" | printf "%s+top" | quote }}\n')],
  });
  const mark = env.recorder.mark();
  await createInst(env, installation('top', ns, top, { imports: { data: [{ name: 'x', dataRef: 'in' }] }, exports: { data: [{ name: 'res', dataRef: 'top-y' }] } }));
  const root = await untilFinished(env, ns, 'top');
  assert.equal(root.status?.phase, 'Succeeded', root.status?.lastError?.message);
  const jobID = root.status!.jobID!;
  const midInst = await subOf(env, ns, 'top', 'mid');
  const leafInst = await subOf(env, ns, midInst.metadata.name!, 'leaf');
  for (const i of [midInst, leafInst]) {
    assert.equal(i.status?.phase, 'Succeeded', `${i.metadata.name}: ${i.status?.lastError?.message ?? ''}`);
    assert.equal(i.status?.jobID, jobID, `${i.metadata.name} runs the root's job`);
    assert.equal(i.status?.jobIDFinished, jobID);
  }
  for (const name of [midInst.metadata.name!, leafInst.metadata.name!]) {
    const exec = (await getExec(env, ns, name))!;
    assert.equal(exec.status?.jobIDFinished, jobID, `execution ${name} ran the root's job`);
  }
  assert.equal(await getExec(env, ns, 'top'), undefined, 'no deploy executions, no execution');
  const raw = env.recorder.raw(ns, mark);
  assert.ok(raw.every((e) => e.jobID === jobID));
  // The leaf's item runs before the mid's? No ordering between a parent's execution and its subinstallations: both in one job.
  assert.deepEqual(raw.map((e) => `${e.type}:${e.item}`).sort(), ['trigger:leaf-item', 'trigger:mid-item']);
  assert.equal(await dataOf(env, ns, 'top-y'), 'v+leaf+mid+top');
  // Subinstallation exports live in the parent's context, under hashed names.
  const ctxObjects = (await env.client.list(R.dataObjects, { namespace: ns, labelSelector: 'data.landscaper.gardener.cloud/context=Inst.top,data.landscaper.gardener.cloud/sourceType=export' })).items;
  assert.deepEqual(ctxObjects.map((o) => [o.metadata.labels?.['data.landscaper.gardener.cloud/key'], o['data']]), [['mid-y', 'v+leaf+mid']]);
  assert.equal(ctxObjects[0]!.metadata.labels?.['data.landscaper.gardener.cloud/source'], `Inst.${midInst.metadata.name!}`);

  // Updating the root's import: a new job reaches every level, the exports change.
  await setData(env, ns, 'in', 'w');
  await annotate(env, R.installations, ns, 'top', RECONCILE);
  const root2 = await untilFinished(env, ns, 'top', { notJob: jobID });
  assert.equal(root2.status?.phase, 'Succeeded', root2.status?.lastError?.message);
  assert.equal((await getInst(env, ns, leafInst.metadata.name!))?.status?.jobIDFinished, root2.status!.jobID);
  assert.equal(await dataOf(env, ns, 'top-y'), 'w+leaf+mid+top');
});

test('templated subinstallations: one per list entry; removing one deletes it (and its items) before the new job runs', T, async () => {
  const ns = await env.namespace('templated');
  await createData(env, ns, 'names', ['alpha', 'beta']);
  await createData(env, ns, 'hello', 'hello');
  const child = blueprint({
    imports: [{ name: 'prefix', type: 'data', schema: { type: 'string' } }],
    exports: [{ name: 'greeting', type: 'data', schema: { type: 'string' } }],
    // NAME is replaced per subinstallation by the parent's subinstallation execution.
    deployExecutions: [deployExecution(mockDeployTemplate([{ name: 'hello', exportYaml: 'value: "{{ .imports.prefix }} NAME"' }]))],
    exportExecutions: [exportExecution('exports:\n  greeting: {{ index .values.deployitems "hello" "value" | quote }}\n')],
  });
  const subTemplate = [
    'subinstallations:',
    '{{ range $n := .imports.names }}',
    '- apiVersion: landscaper.gardener.cloud/v1alpha1',
    '  kind: InstallationTemplate',
    '  name: sub-{{ $n }}',
    '  blueprint:',
    '    filesystem:',
    '      blueprint.yaml: {{ readFile "child.yaml" | toString | replace "NAME" $n | toJson }}',
    '  imports:',
    '    data:',
    '    - name: prefix',
    '      dataRef: prefix',
    '  exports:',
    '    data:',
    '    - name: greeting',
    '      dataRef: greeting-{{ $n }}',
    '{{ end }}',
  ].join('\n');
  const parent = blueprint({
    imports: [{ name: 'names', type: 'data', schema: { type: 'array', items: { type: 'string' } } }, { name: 'prefix', type: 'data', schema: { type: 'string' } }],
    exports: [{ name: 'all', type: 'data', schema: { type: 'array' } }],
    subinstallationExecutions: [{ name: 'subs', type: 'GoTemplate', template: subTemplate }],
    exportExecutions: [exportExecution('exports:\n  all:\n{{ range $n := .imports.names }}  - {{ index $.values.dataobjects (printf "greeting-%s" $n) | quote }}\n{{ end }}')],
  });
  const bpFs = { 'blueprint.yaml': parent, 'child.yaml': child };
  const inst = installation('tpl', ns, parent, { imports: { data: [{ name: 'names', dataRef: 'names' }, { name: 'prefix', dataRef: 'hello' }] }, exports: { data: [{ name: 'all', dataRef: 'all' }] } });
  inst.spec.blueprint = { inline: { filesystem: bpFs } };
  await createInst(env, inst);
  const first = await untilFinished(env, ns, 'tpl');
  assert.equal(first.status?.phase, 'Succeeded', first.status?.lastError?.message);
  assert.deepEqual(await dataOf(env, ns, 'all'), ['hello alpha', 'hello beta']);
  const subs = await subinstallationsOf(env, ns, 'tpl');
  assert.deepEqual(subs.map((s) => s.metadata.annotations?.['landscaper.gardener.cloud/subinstallation-name']).sort(), ['sub-alpha', 'sub-beta']);
  const alpha = await subOf(env, ns, 'tpl', 'sub-alpha');

  // Drop alpha, add gamma: alpha's item is deleted before any item of the new job is triggered.
  await setData(env, ns, 'names', ['beta', 'gamma']);
  const mark = env.recorder.mark();
  await annotate(env, R.installations, ns, 'tpl', RECONCILE);
  const second = await untilFinished(env, ns, 'tpl', { notJob: first.status!.jobID! });
  assert.equal(second.status?.phase, 'Succeeded', second.status?.lastError?.message);
  const ev = env.recorder.raw(ns, mark).map((e) => `${e.type}:${e.execution.replace(/-[a-z0-9]+$/, '')}`);
  assert.deepEqual(ev.slice(0, 2), ['trigger:sub-alpha', 'delete:sub-alpha'], `the orphaned subinstallation goes first: ${ev.join(', ')}`);
  assert.deepEqual(ev.slice(2).sort(), ['trigger:sub-beta', 'trigger:sub-gamma']);
  assert.equal(await getInst(env, ns, alpha.metadata.name!), undefined);
  assert.deepEqual(await dataOf(env, ns, 'all'), ['hello beta', 'hello gamma']);
  assert.deepEqual(second.status?.subInstCache?.activeSubs?.map((s) => s.specName).sort(), ['sub-beta', 'sub-gamma']);
  assert.deepEqual(second.status?.subInstCache?.orphanedSubs ?? [], []);
});

test('imports of a target, a targetList and a targetMap; a Target is exported and passed to a subinstallation', T, async () => {
  const ns = await env.namespace('targets');
  for (const n of ['t-one', 't-two', 't-three']) await createTarget(env, ns, n, { kubeconfig: `kubeconfig-of-${n}` });
  const child = blueprint({
    imports: [{ name: 'cluster', type: 'target', targetType: KC }],
    deployExecutions: [deployExecution('deployItems:\n- name: on-cluster\n  type: landscaper.gardener.cloud/mock\n  target:\n    import: cluster\n  config:\n    apiVersion: mock.deployer.landscaper.gardener.cloud/v1alpha1\n    kind: ProviderConfiguration\n')],
  });
  const deploy = [
    'deployItems:',
    '- name: single',
    '  type: landscaper.gardener.cloud/mock',
    '  target:',
    '    import: cluster',
    '  config: { apiVersion: mock.deployer.landscaper.gardener.cloud/v1alpha1, kind: ProviderConfiguration }',
    '{{ range $i, $t := .imports.clusters }}',
    '- name: list-{{ $i }}',
    '  type: landscaper.gardener.cloud/mock',
    '  target:',
    '    import: clusters',
    '    index: {{ $i }}',
    '  config: { apiVersion: mock.deployer.landscaper.gardener.cloud/v1alpha1, kind: ProviderConfiguration }',
    '{{ end }}',
    '{{ range $k, $t := .imports.clusterMap }}',
    '- name: map-{{ $k }}',
    '  type: landscaper.gardener.cloud/mock',
    '  target:',
    '    import: clusterMap',
    '    key: {{ $k }}',
    '  config: { apiVersion: mock.deployer.landscaper.gardener.cloud/v1alpha1, kind: ProviderConfiguration }',
    '{{ end }}',
  ].join('\n');
  const bp = blueprint({
    imports: [
      { name: 'cluster', type: 'target', targetType: KC },
      { name: 'clusters', type: 'targetList', targetType: KC },
      { name: 'clusterMap', type: 'targetMap', targetType: KC },
    ],
    exports: [{ name: 'derived', type: 'target', targetType: KC }],
    subinstallations: [template('child', child, { targets: [{ name: 'cluster', target: 'cluster' }] }, {})],
    deployExecutions: [deployExecution(deploy)],
    exportExecutions: [exportExecution('exports:\n  derived:\n    type: landscaper.gardener.cloud/kubernetes-cluster\n    config:\n      kubeconfig: derived-from-{{ .imports.cluster.spec.config.kubeconfig }}\n')],
  });
  await createInst(env, installation('tg', ns, bp, {
    imports: { targets: [
      { name: 'cluster', target: 't-one' },
      { name: 'clusters', targets: ['t-two', 't-three'] },
      { name: 'clusterMap', targetMap: { a: 't-three', b: 't-one' } },
    ] },
    exports: { targets: [{ name: 'derived', target: 'derived-target' }] },
  }));
  const inst = await untilFinished(env, ns, 'tg');
  assert.equal(inst.status?.phase, 'Succeeded', inst.status?.lastError?.message);
  const items = await listDeployItems(env, ns);
  const kubeconfigOf = async (name: string | undefined): Promise<unknown> => {
    assert.ok(name, 'deploy item has a target');
    const t = await env.client.get<Target>(R.targets, name, { namespace: ns });
    return (t.spec.config as { kubeconfig?: unknown } | undefined)?.kubeconfig;
  };
  const want: Record<string, string> = { single: 't-one', 'list-0': 't-two', 'list-1': 't-three', 'map-a': 't-three', 'map-b': 't-one', 'on-cluster': 't-one' };
  assert.deepEqual(items.map((d) => d.metadata.labels?.['execution.landscaper.gardener.cloud/name']).sort(), Object.keys(want).sort());
  for (const di of items) {
    const n = di.metadata.labels?.['execution.landscaper.gardener.cloud/name'] ?? '';
    assert.equal(await kubeconfigOf(di.spec.target?.name), `kubeconfig-of-${want[n]!}`, `target of ${n}`);
    assert.equal(di.status?.jobID, inst.status!.jobID);
  }
  const exported = await env.client.get<Target>(R.targets, 'derived-target', { namespace: ns });
  assert.equal(exported.spec.type, KC);
  assert.deepEqual(exported.spec.config, { kubeconfig: 'derived-from-kubeconfig-of-t-one' });
  assert.equal(exported.metadata.labels?.['data.landscaper.gardener.cloud/sourceType'], 'export');
  assert.equal(exported.metadata.labels?.['data.landscaper.gardener.cloud/source'], 'Inst.tg');
  // Target list copies in the own context carry index labels; map copies carry targetmapkey labels.
  const copies = (await env.client.list<Target>(R.targets, { namespace: ns, labelSelector: 'data.landscaper.gardener.cloud/context=Inst.tg,data.landscaper.gardener.cloud/sourceType=import' })).items;
  const listIdx = copies.filter((c) => c.metadata.labels?.['data.landscaper.gardener.cloud/key'] === 'clusters').map((c) => c.metadata.labels?.['data.landscaper.gardener.cloud/index']).sort();
  assert.deepEqual(listIdx, ['0', '1']);
  const mapKeys = copies.filter((c) => c.metadata.labels?.['data.landscaper.gardener.cloud/key'] === 'clusterMap').map((c) => c.metadata.labels?.['data.landscaper.gardener.cloud/targetmapkey']).sort();
  assert.deepEqual(mapKeys, ['a', 'b']);
});

test('data imports from a DataObject, a Secret and a ConfigMap (by key and whole)', T, async () => {
  const ns = await env.namespace('secretcm');
  await createData(env, ns, 'plain', { n: 1 });
  await env.client.create(R.secrets, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'creds', namespace: ns }, data: { user: Buffer.from('admin').toString('base64'), pass: Buffer.from('s3cret').toString('base64') } });
  await env.client.create(R.configMaps, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: ns }, data: { mode: 'fast', level: '3' } });
  const bp = blueprint({
    imports: [
      { name: 'plain', type: 'data', schema: { type: 'object' } },
      { name: 'user', type: 'data', schema: { type: 'string' } },
      { name: 'allCreds', type: 'data', schema: { type: 'object' } },
      { name: 'mode', type: 'data', schema: { type: 'string' } },
      { name: 'allSettings', type: 'data', schema: { type: 'object' } },
    ],
    exports: [{ name: 'summary', type: 'data', schema: { type: 'string' } }],
    deployExecutions: [deployExecution(mockDeployTemplate([{ name: 'i', exportYaml: 's: "{{ .imports.plain.n }} {{ .imports.user }} {{ .imports.allCreds.pass }} {{ .imports.mode }} {{ .imports.allSettings.level }}"' }]))],
    exportExecutions: [exportExecution('exports:\n  summary: {{ index .values.deployitems "i" "s" | quote }}\n')],
  });
  await createInst(env, installation('imp', ns, bp, {
    imports: { data: [
      { name: 'plain', dataRef: 'plain' },
      { name: 'user', secretRef: { name: 'creds', key: 'user', namespace: ns } },
      { name: 'allCreds', secretRef: { name: 'creds', namespace: ns } },
      { name: 'mode', configMapRef: { name: 'settings', key: 'mode', namespace: ns } },
      { name: 'allSettings', configMapRef: { name: 'settings', namespace: ns } },
    ] },
    exports: { data: [{ name: 'summary', dataRef: 'summary' }] },
  }));
  const inst = await untilFinished(env, ns, 'imp');
  assert.equal(inst.status?.phase, 'Succeeded', inst.status?.lastError?.message);
  assert.equal(await dataOf(env, ns, 'summary'), '1 admin s3cret fast 3');

  // Changing the Secret changes the imports hash; a new job picks it up.
  await env.client.patch(R.secrets, 'creds', { data: { user: Buffer.from('root').toString('base64') } }, { type: 'merge', namespace: ns });
  await annotate(env, R.installations, ns, 'imp', RECONCILE);
  const second = await untilFinished(env, ns, 'imp', { notJob: inst.status!.jobID! });
  assert.equal(second.status?.phase, 'Succeeded', second.status?.lastError?.message);
  assert.equal(await dataOf(env, ns, 'summary'), '1 root s3cret fast 3');
  assert.notEqual(second.status?.importsHash, inst.status?.importsHash);
});

test('a missing import and a wrongly typed import fail the installation, naming the import', T, async () => {
  const ns = await env.namespace('badimports');
  await createData(env, ns, 'num', 42);
  const bp = blueprint({
    imports: [{ name: 'text', type: 'data', schema: { type: 'string' } }],
    deployExecutions: [deployExecution(mockDeployTemplate([{ name: 'never' }]))],
  });
  await createInst(env, installation('missing', ns, bp, { imports: { data: [{ name: 'text', dataRef: 'nope' }] } }));
  await createInst(env, installation('wrongtype', ns, bp, { imports: { data: [{ name: 'text', dataRef: 'num' }] } }));
  const missing = await untilFinished(env, ns, 'missing');
  const wrong = await untilFinished(env, ns, 'wrongtype');
  assert.equal(missing.status?.phase, 'Failed');
  assert.match(missing.status!.lastError!.message, /text/);
  assert.match(missing.status!.lastError!.message, /nope/);
  assert.equal(wrong.status?.phase, 'Failed');
  assert.match(wrong.status!.lastError!.message, /text/);
  assert.deepEqual(env.recorder.of(ns), [], 'no deploy item was triggered');
});
