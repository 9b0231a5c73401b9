// Ordering and validation between subinstallations and inside a blueprint (upstream integration dependencies
// "should process subinstallations in the correct order" (chain, then changed order), "should detect a dependency
// cycle", "should detect an export conflict"; importexport "should apply import executions", "should fail if import
// executions return errors"; installation Init "dependsOn cycle → Failed"), run by the real controller family.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  R, RECONCILE, blueprint, createData, createInst, dataOf, deployExecution, exportExecution, installation, mockDeployTemplate, T, subinstallationsOf,
  untilFinished, type Env, type Yamlish, withEnv,
} from './support.ts';

let env: Env;
withEnv((e) => {
  env = e;
});

const child = blueprint({
  imports: [{ name: 'in', type: 'data', schema: { type: 'string' } }],
  exports: [{ name: 'out', type: 'data', schema: { type: 'string' } }],
  deployExecutions: [deployExecution(mockDeployTemplate([{ name: 'work', exportYaml: 'v: "{{ .imports.in }}."' }]))],
  exportExecutions: [exportExecution('exports:\n  out: {{ index .values.deployitems "work" "v" | quote }}\n')],
});

const sub = (name: string, from: string, to: string): Yamlish => ({
  apiVersion: 'landscaper.gardener.cloud/v1alpha1',
  kind: 'InstallationTemplate',
  name,
  blueprint: { filesystem: { 'blueprint.yaml': child } },
  imports: { data: [{ name: 'in', dataRef: from }] },
  exports: { data: [{ name: 'out', dataRef: to }] },
});

const parent = (subs: Yamlish[], last: string): string => blueprint({
  imports: [{ name: 'seed', type: 'data', schema: { type: 'string' } }],
  exports: [{ name: 'result', type: 'data', schema: { type: 'string' } }],
  subinstallations: subs,
  exportExecutions: [exportExecution(`exports:\n  result: {{ index .values.dataobjects "${last}" | quote }}\n`)],
});

/** Subinstallation template names in the order their deploy item was triggered. */
async function subOrder(ns: string, parentName: string, from: number): Promise<string[]> {
  const byExec = new Map((await subinstallationsOf(env, ns, parentName)).map((s) => [s.metadata.name!, s.metadata.annotations?.['landscaper.gardener.cloud/subinstallation-name'] ?? '?']));
  return env.recorder.raw(ns, from).filter((e) => e.type === 'trigger').map((e) => byExec.get(e.execution) ?? e.execution);
}

test('subinstallations run in import order (a chain), and in the new order after the chain is reversed', T, async () => {
  const ns = await env.namespace('order');
  await createData(env, ns, 'seed', 's');
  const spec = { imports: { data: [{ name: 'seed', dataRef: 'seed' }] }, exports: { data: [{ name: 'result', dataRef: 'result' }] } };
  // Listed c, b, a; the chain is seed → a → b → c.
  const mark = env.recorder.mark();
  await createInst(env, installation('p', ns, parent([sub('c', 'b-out', 'c-out'), sub('b', 'a-out', 'b-out'), sub('a', 'seed', 'a-out')], 'c-out'), spec));
  const first = await untilFinished(env, ns, 'p');
  assert.equal(first.status?.phase, 'Succeeded', first.status?.lastError?.message);
  assert.deepEqual(await subOrder(ns, 'p', mark), ['a', 'b', 'c']);
  assert.equal(await dataOf(env, ns, 'result'), 's...');

  // Reverse the chain: seed → c → b → a.
  const mark2 = env.recorder.mark();
  await env.client.patch(R.installations, 'p', {
    spec: { blueprint: { inline: { filesystem: { 'blueprint.yaml': parent([sub('c', 'seed', 'c-out'), sub('b', 'c-out', 'b-out'), sub('a', 'b-out', 'a-out')], 'a-out') } } } },
    metadata: { annotations: RECONCILE },
  }, { type: 'merge', namespace: ns });
  const second = await untilFinished(env, ns, 'p', { notJob: first.status!.jobID! });
  assert.equal(second.status?.phase, 'Succeeded', second.status?.lastError?.message);
  assert.deepEqual(await subOrder(ns, 'p', mark2), ['c', 'b', 'a']);
  assert.equal(await dataOf(env, ns, 'result'), 's...');
  assert.ok(env.recorder.raw(ns, mark2).every((e) => e.type === 'trigger' && e.jobID === second.status!.jobID), 'the same subinstallations are reused, nothing deleted');
});

test('a dependency cycle between subinstallations and an export conflict fail the parent', T, async () => {
  const ns = await env.namespace('subcheck');
  await createData(env, ns, 'seed', 's');
  const spec = { imports: { data: [{ name: 'seed', dataRef: 'seed' }] } };
  await createInst(env, installation('cyc', ns, parent([sub('a', 'b-out', 'a-out'), sub('b', 'a-out', 'b-out')], 'a-out'), spec));
  await createInst(env, installation('dup', ns, parent([sub('a', 'seed', 'same'), sub('b', 'seed', 'same')], 'same'), spec));
  const cyc = await untilFinished(env, ns, 'cyc');
  const dup = await untilFinished(env, ns, 'dup');
  assert.equal(cyc.status?.phase, 'Failed');
  assert.match(cyc.status?.lastError?.message ?? '', /cycle/i);
  assert.match(cyc.status?.lastError?.message ?? '', /a -> b -> a|b -> a -> b/);
  assert.equal(dup.status?.phase, 'Failed');
  assert.match(dup.status?.lastError?.message ?? '', /same/, 'the conflicting export is named');
  assert.deepEqual(env.recorder.of(ns), [], 'nothing ran');
});

test('a dependsOn cycle between deploy items fails the installation in Init, naming the cycle', T, async () => {
  const ns = await env.namespace('dicycle');
  const bp = blueprint({ deployExecutions: [deployExecution(mockDeployTemplate([{ name: 'xa', dependsOn: ['za'] }, { name: 'ya', dependsOn: ['xa'] }, { name: 'za', dependsOn: ['ya'] }, { name: 'free' }]))] });
  await createInst(env, installation('dc', ns, bp));
  const inst = await untilFinished(env, ns, 'dc');
  assert.equal(inst.status?.phase, 'Failed');
  assert.equal(inst.status?.lastError?.operation, 'Init');
  assert.match(inst.status?.lastError?.message ?? '', /cycle: (xa|ya|za) -> (xa|ya|za) -> (xa|ya|za) -> (xa|ya|za)/);
  assert.deepEqual(env.recorder.of(ns), [], 'no deploy item was created or triggered');
});

test('import executions: bindings are usable by templates; returned errors fail the installation', T, async () => {
  const ns = await env.namespace('impexec');
  await createData(env, ns, 'num', 3);
  const bp = (importExecution: string): string => blueprint({
    imports: [{ name: 'num', type: 'data', schema: { type: 'integer' } }],
    exports: [{ name: 'doubled', type: 'data', schema: { type: 'integer' } }],
    importExecutions: [{ name: 'check', type: 'GoTemplate', template: importExecution }],
    deployExecutions: [deployExecution(mockDeployTemplate([{ name: 'i', exportYaml: 'd: {{ .imports.twice }}' }]))],
    exportExecutions: [exportExecution('exports:\n  doubled: {{ index .values.deployitems "i" "d" }}\n')],
  });
  const spec = (out: string): Partial<ReturnType<typeof installation>['spec']> => ({ imports: { data: [{ name: 'num', dataRef: 'num' }] }, exports: { data: [{ name: 'doubled', dataRef: out }] } });
  await createInst(env, installation('good', ns, bp('bindings:\n  twice: {{ mul .imports.num 2 }}\n'), spec('good-out')));
  await createInst(env, installation('bad', ns, bp('errors:\n{{ if gt .imports.num 2.0 }}- "num must be at most 2, is {{ .imports.num }}"\n{{ end }}bindings:\n  twice: 0\n'), spec('bad-out')));
  const good = await untilFinished(env, ns, 'good');
  assert.equal(good.status?.phase, 'Succeeded', good.status?.lastError?.message);
  assert.equal(await dataOf(env, ns, 'good-out'), 6);
  const bad = await untilFinished(env, ns, 'bad');
  assert.equal(bad.status?.phase, 'Failed');
  assert.match(bad.status?.lastError?.message ?? '', /num must be at most 2, is 3/);
  assert.equal(await dataOf(env, ns, 'bad-out'), undefined);
});
