// Scenarios around one installation and its deploy items (upstream: test/landscaper/e2e/simple_test.go,
// controllers/execution "should trigger deploy items in the correct order" / "should cleanup orphaned deploy
// items", integration inline "add/remove deploy items with dependencies", importexport "should update the name of
// a DataObject and a DeployItem", templating "state"), run by the real controller family.
import { recordPhases } from '../../helpers/record-phases.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DataObject } from '../../../src/landscaper/api/data-object.ts';
import type { Execution } from '../../../src/landscaper/api/execution.ts';
import {
  R, blueprint, createData, createInst, dataOf, deployExecution, exportExecution, finished, getExec, installation, listDeployItems, mockDeployTemplate,
  setData, T, untilFinished, untilGone, annotate, RECONCILE, type Env, withEnv,
} from './support.ts';

let env: Env;
withEnv((e) => {
  env = e;
});

test('a simple installation with mock deploy items: phases, job IDs, exports', T, async () => {
  const ns = await env.namespace('simple');
  await createData(env, ns, 'in', 'hello');
  const bp = blueprint({
    imports: [{ name: 'greeting', type: 'data', schema: { type: 'string' } }],
    exports: [{ name: 'result', type: 'data', schema: { type: 'string' } }],
    deployExecutions: [deployExecution(mockDeployTemplate([
      { name: 'a', exportYaml: 'value: {{ .imports.greeting }}-a' },
      { name: 'b', exportYaml: 'value: {{ .imports.greeting }}-b' },
    ]))],
    exportExecutions: [exportExecution('exports:\n  result: {{ index .values.deployitems "a" "value" }}+{{ index .values.deployitems "b" "value" }}\n')],
  });
  const instPhases = await recordPhases(env.client, R.installations, ns, 'simple');
  const execPhases = await recordPhases(env.client, R.executions, ns, 'simple');
  const mark = env.recorder.mark();
  await createInst(env, installation('simple', ns, bp, { imports: { data: [{ name: 'greeting', dataRef: 'in' }] }, exports: { data: [{ name: 'result', dataRef: 'out' }] } }));
  const inst = await untilFinished(env, ns, 'simple');
  await instPhases.stop();
  await execPhases.stop();
  assert.equal(inst.status?.phase, 'Succeeded', inst.status?.lastError?.message);
  const jobID = inst.status!.jobID!;
  // The phases one reconcile passes through go out in one write: each is seen waiting in Progressing, then done.
  assert.deepEqual(instPhases.phases, ['Progressing', 'Succeeded']);
  assert.deepEqual(execPhases.phases, ['Progressing', 'Succeeded']);

  const exec = (await getExec(env, ns, 'simple'))!;
  assert.equal(exec.status?.jobID, jobID);
  assert.equal(exec.status?.jobIDFinished, jobID);
  const items = await listDeployItems(env, ns);
  assert.equal(items.length, 2);
  for (const di of items) {
    assert.equal(di.status?.phase, 'Succeeded');
    assert.equal(di.status?.jobID, jobID, 'the deploy item runs the installation\'s job');
    assert.equal(di.status?.jobIDFinished, jobID);
    assert.match(di.metadata.name!, /^simple-(a|b)-/);
  }
  // Both items are independent: each is triggered exactly once, nothing is deleted.
  assert.deepEqual(env.recorder.of(ns, mark).sort(), ['trigger:a', 'trigger:b']);
  assert.ok(env.recorder.raw(ns, mark).every((e) => e.jobID === jobID && e.execution === 'simple'));

  const out = await env.client.get<DataObject>(R.dataObjects, 'out', { namespace: ns });
  assert.equal(out.data, 'hello-a+hello-b');
  assert.equal(out.metadata.labels?.['data.landscaper.gardener.cloud/sourceType'], 'export');
  assert.equal(out.metadata.labels?.['data.landscaper.gardener.cloud/source'], 'Inst.simple');
  assert.equal(out.metadata.labels?.['data.landscaper.gardener.cloud/jobid'], jobID);
  // The execution's export DataObject holds every item's exports.
  assert.ok(exec.status?.exportRef?.name, 'execution exportRef');
  assert.deepEqual(await dataOf(env, ns, exec.status!.exportRef!.name), { a: { value: 'hello-a' }, b: { value: 'hello-b' } });
});

test('a deploy item DAG runs in dependency order and is deleted in reverse order', T, async () => {
  const ns = await env.namespace('dag');
  // A chain c → b → a (c depends on b, b on a), plus a diamond: d and e depend on a; f on d and e.
  const bp = blueprint({
    deployExecutions: [deployExecution(mockDeployTemplate([
      { name: 'c', dependsOn: ['b'] },
      { name: 'f', dependsOn: ['d', 'e'] },
      { name: 'b', dependsOn: ['a'] },
      { name: 'd', dependsOn: ['a'] },
      { name: 'e', dependsOn: ['a'] },
      { name: 'a' },
    ]))],
  });
  const mark = env.recorder.mark();
  await createInst(env, installation('dag', ns, bp));
  const inst = await untilFinished(env, ns, 'dag');
  assert.equal(inst.status?.phase, 'Succeeded', inst.status?.lastError?.message);
  const ev = env.recorder.of(ns, mark);
  assert.equal(ev.length, 6, `six triggers: ${ev.join(', ')}`);
  assert.equal(ev[0], 'trigger:a', `a runs first: ${ev.join(', ')}`);
  // Items whose dependencies finished are triggered together; each only after all of its dependencies.
  const pos = (x: string): number => ev.indexOf(`trigger:${x}`);
  for (const [item, deps] of [['b', ['a']], ['c', ['b']], ['d', ['a']], ['e', ['a']], ['f', ['d', 'e']]] as const) {
    for (const d of deps) assert.ok(pos(d) >= 0 && pos(d) < pos(item), `${item} after ${d}: ${ev.join(', ')}`);
  }
  // Finish times confirm it: an item is triggered only after its dependencies finished.
  const items = await listDeployItems(env, ns);
  const byName = new Map(items.map((d) => [d.metadata.labels?.['execution.landscaper.gardener.cloud/name'], d]));
  assert.equal(byName.get('f')?.metadata.annotations?.['execution.landscaper.gardener.cloud/dependsOn'], 'd,e');

  // Deletion: reverse order; an item is triggered for deletion only when no remaining item depends on it.
  const del = env.recorder.mark();
  await env.client.delete(R.installations, 'dag', { namespace: ns });
  await untilGone(env, R.installations, ns, 'dag');
  const dev = env.recorder.of(ns, del);
  assert.equal(dev.filter((e) => e.startsWith('delete:')).length, 6, `six deletions: ${dev.join(', ')}`);
  assert.ok(env.recorder.raw(ns, del).filter((e) => e.type === 'trigger').every((e) => e.deleting), 'deletion triggers only items being deleted');
  const dpos = (x: string): number => dev.indexOf(`delete:${x}`);
  const tpos = (x: string): number => dev.indexOf(`trigger:${x}`);
  for (const [item, dependents] of [['a', ['b', 'd', 'e']], ['b', ['c']], ['d', ['f']], ['e', ['f']]] as const) {
    for (const d of dependents) assert.ok(dpos(d) >= 0 && dpos(d) < tpos(item), `${item} is triggered for deletion only after ${d} is gone: ${dev.join(', ')}`);
  }
  assert.equal(dev[dev.length - 1], 'delete:a', `a is deleted last: ${dev.join(', ')}`);
  assert.deepEqual(await listDeployItems(env, ns), []);
  await untilGone(env, R.executions, ns, 'dag');
});

test('a strict chain: the exact trigger and delete order', T, async () => {
  const ns = await env.namespace('chain');
  const bp = blueprint({ deployExecutions: [deployExecution(mockDeployTemplate([{ name: 'three', dependsOn: ['two'] }, { name: 'two', dependsOn: ['one'] }, { name: 'one' }]))] });
  const mark = env.recorder.mark();
  await createInst(env, installation('chain', ns, bp));
  const inst = await untilFinished(env, ns, 'chain');
  assert.equal(inst.status?.phase, 'Succeeded', inst.status?.lastError?.message);
  assert.deepEqual(env.recorder.of(ns, mark), ['trigger:one', 'trigger:two', 'trigger:three']);
  const del = env.recorder.mark();
  await env.client.delete(R.installations, 'chain', { namespace: ns });
  await untilGone(env, R.installations, ns, 'chain');
  assert.deepEqual(env.recorder.of(ns, del), ['trigger:three', 'delete:three', 'trigger:two', 'delete:two', 'trigger:one', 'delete:one']);
  const deleteJobs = new Set(env.recorder.raw(ns, del).map((e) => e.jobID));
  assert.equal(deleteJobs.size, 1, 'one deletion job for all items');
  assert.ok(!deleteJobs.has(inst.status!.jobID!), 'deletion runs under a new job ID');
});

test('orphaned deploy items are removed before new items run; updated imports give a new job with new exports', T, async () => {
  const ns = await env.namespace('orphans');
  await createData(env, ns, 'in', 'v1');
  const bpOf = (names: string[]): string => blueprint({
    imports: [{ name: 'input', type: 'data', schema: { type: 'string' } }],
    exports: [{ name: 'output', type: 'data', schema: { type: 'string' } }],
    deployExecutions: [deployExecution(mockDeployTemplate(names.map((n) => ({ name: n, exportYaml: `value: {{ .imports.input }}-${n}` }))))],
    exportExecutions: [exportExecution(`exports:\n  output: {{ index .values.deployitems "${names[names.length - 1]!}" "value" }}\n`)],
  });
  const spec = { imports: { data: [{ name: 'input', dataRef: 'in' }] }, exports: { data: [{ name: 'output', dataRef: 'out' }] } };
  await createInst(env, installation('orph', ns, bpOf(['old', 'keep']), spec));
  const first = await untilFinished(env, ns, 'orph');
  assert.equal(first.status?.phase, 'Succeeded', first.status?.lastError?.message);
  assert.equal(await dataOf(env, ns, 'out'), 'v1-keep');

  // New blueprint: "old" goes, "new" comes; new import value.
  await setData(env, ns, 'in', 'v2');
  const mark = env.recorder.mark();
  await env.client.patch(R.installations, 'orph', { spec: { blueprint: { inline: { filesystem: { 'blueprint.yaml': bpOf(['keep', 'new']) } } } }, metadata: { annotations: RECONCILE } }, { type: 'merge', namespace: ns });
  const second = await untilFinished(env, ns, 'orph', { notJob: first.status!.jobID! });
  assert.equal(second.status?.phase, 'Succeeded', second.status?.lastError?.message);
  const ev = env.recorder.of(ns, mark);
  assert.deepEqual(ev.slice(0, 2), ['trigger:old', 'delete:old'], `the orphan is removed first: ${ev.join(', ')}`);
  assert.deepEqual(ev.slice(2).sort(), ['trigger:keep', 'trigger:new'], `then the new job runs: ${ev.join(', ')}`);
  assert.ok(env.recorder.raw(ns, mark).every((e) => e.jobID === second.status!.jobID), 'all under the new job');
  assert.equal(await dataOf(env, ns, 'out'), 'v2-new', 'exports changed with the new imports');
  const out = await env.client.get<DataObject>(R.dataObjects, 'out', { namespace: ns });
  assert.equal(out.metadata.labels?.['data.landscaper.gardener.cloud/jobid'], second.status!.jobID);
  assert.notEqual(second.status?.importsHash, first.status?.importsHash, 'imports hash follows the import');
  const names = (await listDeployItems(env, ns)).map((d) => d.metadata.labels?.['execution.landscaper.gardener.cloud/name']).sort();
  assert.deepEqual(names, ['keep', 'new']);
  const exec = (await getExec(env, ns, 'orph'))!;
  assert.deepEqual((exec.status as Execution['status'] & { deployItemCache?: { orphanedDIs?: string[] } })?.deployItemCache?.orphanedDIs ?? [], []);
});

test('template state round trip: deploy execution state is stored and fed back into the next job', T, async () => {
  const ns = await env.namespace('state');
  const template = [
    '{{ $n := add (default 0 .state.counter) 1 }}',
    'state:',
    '  counter: {{ $n }}',
    mockDeployTemplate([{ name: 'item', exportYaml: 'run: {{ $n }}' }]),
  ].join('\n');
  const bp = blueprint({
    exports: [{ name: 'runs', type: 'data', schema: { type: 'integer' } }],
    deployExecutions: [deployExecution(template, 'counting')],
    exportExecutions: [exportExecution('exports:\n  runs: {{ index .values.deployitems "item" "run" }}\n')],
  });
  await createInst(env, installation('st', ns, bp, { exports: { data: [{ name: 'runs', dataRef: 'runs' }] } }));
  const first = await untilFinished(env, ns, 'st');
  assert.equal(first.status?.phase, 'Succeeded', first.status?.lastError?.message);
  assert.equal(await dataOf(env, ns, 'runs'), 1);
  await annotate(env, R.installations, ns, 'st', RECONCILE);
  const second = await untilFinished(env, ns, 'st', { notJob: first.status!.jobID! });
  assert.equal(second.status?.phase, 'Succeeded', second.status?.lastError?.message);
  assert.equal(await dataOf(env, ns, 'runs'), 2, 'the second job saw the state of the first');
  // The state lives in a Secret owned by the installation.
  const secrets = (await env.client.list(R.secrets, { namespace: ns })).items.filter((s) => s.metadata.ownerReferences?.some((o) => o.kind === 'Installation' && o.name === 'st'));
  assert.equal(secrets.length, 1);
  const raw = (secrets[0]!['data'] as Record<string, string>)['config']!;
  assert.deepEqual(JSON.parse(Buffer.from(raw, 'base64').toString('utf8')), { counter: 2 });
  assert.ok(finished(second));
  assert.equal((await listDeployItems(env, ns)).length, 1);
});
