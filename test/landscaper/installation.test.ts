// The Installation controller against a real embedded API server, with a stand-in execution controller.
import { recordPhases } from '../helpers/record-phases.ts';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { stringify } from 'yaml';
import type { KubeObject } from '../../src/apimachinery/object.ts';
import type { DataObject } from '../../src/landscaper/api/data-object.ts';
import type { Execution } from '../../src/landscaper/api/execution.ts';
import type { Installation } from '../../src/landscaper/api/installation.ts';
import { deployItemTemplates } from '../../src/landscaper/api/execution-spec.ts';
import { dataObjectsResource, executionsResource, installationsResource } from '../../src/landscaper/api/resources.ts';
import { getInst, untilInst, installation, newNamespace, phaseOf, RECONCILE, startLsHarness, until, type LsHarness } from './installation-harness.ts';

let h: LsHarness;
before(async () => {
  h = await startLsHarness();
});
after(async () => {
  await h.close();
});

const OP = 'landscaper.gardener.cloud/operation';

function dataObject(name: string, ns: string, data: unknown): KubeObject {
  return { apiVersion: 'landscaper.gardener.cloud/v1alpha1', kind: 'DataObject', metadata: { name, namespace: ns }, data };
}

async function getData(ns: string, name: string): Promise<unknown> {
  try {
    return (await h.client.get<DataObject>(dataObjectsResource, name, { namespace: ns })).data;
  } catch {
    return undefined;
  }
}

const finished = (i: Installation | undefined): boolean => i?.status?.jobID !== undefined && i.status.jobID === i.status.jobIDFinished;

/** A blueprint that deploys one mock item carrying an import and exports what the item exported. */
const mockBlueprint = stringify({
  apiVersion: 'landscaper.gardener.cloud/v1alpha1',
  kind: 'Blueprint',
  imports: [{ name: 'greeting', type: 'data', schema: { type: 'string' } }],
  exports: [{ name: 'result', type: 'data', schema: { type: 'string' } }],
  deployExecutions: [
    {
      name: 'default',
      type: 'GoTemplate',
      template: [
        'deployItems:',
        '  - name: item',
        '    type: landscaper.gardener.cloud/mock',
        '    config:',
        '      apiVersion: mock.deployer.landscaper.gardener.cloud/v1alpha1',
        '      kind: ProviderConfiguration',
        '      export:',
        '        value: {{ .imports.greeting }}',
        '',
      ].join('\n'),
    },
  ],
  exportExecutions: [{ name: 'default', type: 'GoTemplate', template: 'exports:\n  result: {{ index .values.deployitems "item" "value" }}-done\n' }],
});

test('a root installation runs a full job: Init → … → Succeeded, exports written', async () => {
  const ns = await newNamespace(h, 'full');
  await h.client.create(dataObjectsResource, dataObject('greeting-data', ns, 'hello'));
  h.outcomes.set('a', { phase: 'Succeeded', exports: { item: { value: 'hello' } } });
  const rec = await recordPhases(h.client, installationsResource, ns, 'a');
  await h.client.create(installationsResource, installation('a', ns, mockBlueprint, {
    imports: { data: [{ name: 'greeting', dataRef: 'greeting-data' }] },
    exports: { data: [{ name: 'result', dataRef: 'result-data' }] },
  }, RECONCILE));
  const done = await untilInst(h, ns, 'a', 'a Succeeded', (i) => phaseOf(i) === 'Succeeded' && finished(i));
  await rec.stop();
  // The phases one reconcile passes through go out in one write: the job is seen waiting in Progressing, then done.
  assert.deepEqual(rec.phases, ['Progressing', 'Succeeded']);
  assert.match(done.status!.jobID!, /^[0-9a-f-]{36}$/);
  assert.equal(done.metadata.annotations?.[OP], undefined, 'reconcile annotation removed');
  assert.ok(done.metadata.finalizers?.includes('finalizer.landscaper.gardener.cloud'));
  assert.ok(done.status!.importsHash && done.status!.phaseTransitionTime && done.status!.transitionTimes?.finishedTime);
  assert.equal(done.status!.executionRef?.name, 'a');
  assert.equal(done.status!.lastError, undefined);
  const exec = await h.client.get<Execution>(executionsResource, 'a', { namespace: ns });
  assert.equal(exec.status?.jobID, done.status!.jobID);
  assert.equal(exec.spec.context, 'default');
  assert.ok(exec.spec.deployItemsCompressed, 'deploy items written compressed, as upstream');
  assert.deepEqual(deployItemTemplates(exec.spec).map((d) => [d.name, (d.config as { export: unknown }).export]), [['item', { value: 'hello' }]]);
  assert.equal(exec.metadata.ownerReferences?.[0]?.controller, true);
  assert.equal(await getData(ns, 'result-data'), 'hello-done');
  const exported = await h.client.get(dataObjectsResource, 'result-data', { namespace: ns });
  assert.equal(exported.metadata.labels?.['data.landscaper.gardener.cloud/sourceType'], 'export');
  assert.equal(exported.metadata.labels?.['data.landscaper.gardener.cloud/source'], 'Inst.a');
  assert.equal(exported.metadata.labels?.['data.landscaper.gardener.cloud/jobid'], done.status!.jobID);
  // The import copy in the own context, and the default Context created on demand.
  const copies = await h.client.list(dataObjectsResource, { namespace: ns, labelSelector: 'data.landscaper.gardener.cloud/context=Inst.a' });
  assert.deepEqual(copies.items.map((c) => (c as DataObject).data), ['hello']);
  await h.client.get({ apiVersion: 'landscaper.gardener.cloud/v1alpha1', kind: 'Context' }, 'default', { namespace: ns });
});

test('the reconcile annotation is postponed while a job runs, then starts the next job', async () => {
  const ns = await newNamespace(h, 'postpone');
  await h.client.create(dataObjectsResource, dataObject('g', ns, 'x'));
  h.outcomes.set('b', { phase: 'hold' });
  await h.client.create(installationsResource, installation('b', ns, mockBlueprint, { imports: { data: [{ name: 'greeting', dataRef: 'g' }] } }, RECONCILE));
  const running = await untilInst(h, ns, 'b', 'b Progressing', (i) => phaseOf(i) === 'Progressing');
  const firstJob = running.status!.jobID!;
  await h.client.patch(installationsResource, 'b', { metadata: { annotations: RECONCILE } }, { type: 'merge', namespace: ns });
  await new Promise((r) => setTimeout(r, 300));
  const still = (await getInst(h, ns, 'b'))!;
  assert.equal(still.status?.jobID, firstJob, 'no new job while one runs');
  assert.equal(still.metadata.annotations?.[OP], 'reconcile', 'annotation kept for later');
  h.outcomes.set('b', { phase: 'Succeeded', exports: { item: { value: 'b' } } });
  await h.client.patch(executionsResource, 'b', { metadata: { annotations: { poke: '1' } } }, { type: 'merge', namespace: ns });
  const second = await untilInst(h, ns, 'b', 'second job finished', (i) => finished(i) && i!.status!.jobID !== firstJob && phaseOf(i) === 'Succeeded');
  assert.equal(second.metadata.annotations?.[OP], undefined);
});

test('two sibling roots pass data through exports and imports, in order', async () => {
  const ns = await newNamespace(h, 'siblings');
  await h.client.create(dataObjectsResource, dataObject('seed', ns, 'seed'));
  h.outcomes.set('producer', { phase: 'Succeeded', exports: { item: { value: 'from-producer' } } });
  h.outcomes.set('consumer', { phase: 'Succeeded', exports: { item: { value: 'consumed' } } });
  const start = h.log.length;
  await h.client.create(installationsResource, installation('producer', ns, mockBlueprint, {
    imports: { data: [{ name: 'greeting', dataRef: 'seed' }] },
    exports: { data: [{ name: 'result', dataRef: 'shared' }] },
  }, RECONCILE));
  await h.client.create(installationsResource, installation('consumer', ns, mockBlueprint, {
    imports: { data: [{ name: 'greeting', dataRef: 'shared' }] },
    exports: { data: [{ name: 'result', dataRef: 'final' }] },
  }, RECONCILE));
  await untilInst(h, ns, 'consumer', 'consumer Succeeded', (i) => phaseOf(i) === 'Succeeded' && finished(i) && i!.metadata.annotations?.[OP] === undefined);
  assert.equal(await getData(ns, 'shared'), 'from-producer-done');
  assert.equal(await getData(ns, 'final'), 'consumed-done');
  const consumerExec = await h.client.get<Execution>(executionsResource, 'consumer', { namespace: ns });
  assert.deepEqual((deployItemTemplates(consumerExec.spec)[0]!.config as { export: unknown }).export, { value: 'from-producer-done' });
  const runs = h.log.slice(start);
  assert.ok(runs.indexOf('producer:item') >= 0 && runs.indexOf('producer:item') < runs.indexOf('consumer:item'), `producer ran first: ${runs.join(', ')}`);
});

const childBlueprint = stringify({
  imports: [{ name: 'v', type: 'data', schema: { type: 'string' } }],
  exports: [{ name: 'r', type: 'data', schema: { type: 'string' } }],
  exportExecutions: [{ name: 'e', type: 'GoTemplate', template: 'exports:\n  r: {{ .imports.v }}+\n' }],
});

function parentBlueprint(subs: unknown[]): string {
  return stringify({
    imports: [{ name: 'in', type: 'data', schema: { type: 'string' } }],
    exports: [{ name: 'out', type: 'data', schema: { type: 'string' } }],
    subinstallations: subs,
    exportExecutions: [{ name: 'e', type: 'GoTemplate', template: 'exports:\n  out: {{ index .values.dataobjects "final" }}\n' }],
  });
}

const sub = (name: string, from: string, to: string): unknown => ({
  apiVersion: 'landscaper.gardener.cloud/v1alpha1',
  kind: 'InstallationTemplate',
  name,
  blueprint: { filesystem: { 'blueprint.yaml': childBlueprint } },
  imports: { data: [{ name: 'v', dataRef: from }] },
  exports: { data: [{ name: 'r', dataRef: to }] },
});

test('subinstallations: created, ordered by their imports, exports collected by the parent', async () => {
  const ns = await newNamespace(h, 'subs');
  await h.client.create(dataObjectsResource, dataObject('input', ns, 'x'));
  // "second" is listed first: it still has to wait for "first", whose export it imports.
  await h.client.create(installationsResource, installation('parent', ns, parentBlueprint([sub('second', 'mid', 'final'), sub('first', 'in', 'mid')]), {
    imports: { data: [{ name: 'in', dataRef: 'input' }] },
    exports: { data: [{ name: 'out', dataRef: 'parent-out' }] },
  }, RECONCILE));
  const parent = await untilInst(h, ns, 'parent', 'parent Succeeded', (i) => finished(i), 20_000);
  assert.equal(phaseOf(parent), 'Succeeded', parent.status?.lastError?.message);
  assert.equal(await getData(ns, 'parent-out'), 'x++');
  const children = (await h.client.list<Installation>(installationsResource, { namespace: ns, labelSelector: 'landscaper.gardener.cloud/encompassed-by=parent' })).items;
  assert.deepEqual(children.map((c) => c.metadata.annotations?.['landscaper.gardener.cloud/subinstallation-name']).sort(), ['first', 'second']);
  for (const c of children) {
    assert.match(c.metadata.name!, /^(first|second)-/);
    assert.equal(c.status?.jobIDFinished, parent.status!.jobID);
    assert.equal(c.status?.phase, 'Succeeded');
    assert.equal(c.metadata.ownerReferences?.[0]?.name, 'parent');
    assert.equal(c.metadata.ownerReferences?.[0]?.controller, true);
  }
  assert.deepEqual(parent.status?.subInstCache?.activeSubs?.map((s) => s.specName).sort(), ['first', 'second']);

  // A reconcile annotation on a subinstallation is removed without effect.
  const child = children[0]!;
  await h.client.patch(installationsResource, child.metadata.name!, { metadata: { annotations: RECONCILE } }, { type: 'merge', namespace: ns });
  const after = await untilInst(h, ns, child.metadata.name!, 'annotation removed', (i) => i?.metadata.annotations?.[OP] === undefined);
  assert.equal(after.status?.jobID, child.status?.jobID);

  // A new job on the parent reaches the children again; dropping a subinstallation deletes the orphan.
  await h.client.patch(installationsResource, 'parent', { spec: { blueprint: { inline: { filesystem: { 'blueprint.yaml': parentBlueprint([sub('first', 'in', 'final')]) } } } }, metadata: { annotations: RECONCILE } }, { type: 'merge', namespace: ns });
  const again = await untilInst(h, ns, 'parent', 'parent second job', (i) => finished(i) && i!.status!.jobID !== parent.status!.jobID, 20_000);
  assert.equal(phaseOf(again), 'Succeeded', again.status?.lastError?.message);
  assert.equal(await getData(ns, 'parent-out'), 'x+');
  const left = (await h.client.list<Installation>(installationsResource, { namespace: ns, labelSelector: 'landscaper.gardener.cloud/encompassed-by=parent' })).items;
  assert.deepEqual(left.map((c) => c.metadata.annotations?.['landscaper.gardener.cloud/subinstallation-name']), ['first']);
});

test('a missing import fails the installation with a message naming it', async () => {
  const ns = await newNamespace(h, 'missing');
  await h.client.create(installationsResource, installation('m', ns, mockBlueprint, { imports: { data: [{ name: 'greeting', dataRef: 'does-not-exist' }] } }, RECONCILE));
  const failed = await untilInst(h, ns, 'm', 'm Failed', (i) => finished(i));
  assert.equal(phaseOf(failed), 'Failed');
  assert.match(failed.status!.lastError!.message, /import "greeting".*does-not-exist/);
  assert.equal(failed.status!.lastError!.operation, 'Init');
});

test('a cycle between subinstallations fails the parent, naming the cycle', async () => {
  const ns = await newNamespace(h, 'cycle');
  await h.client.create(dataObjectsResource, dataObject('input', ns, 'x'));
  await h.client.create(installationsResource, installation('cyc', ns, parentBlueprint([sub('a', 'from-b', 'from-a'), sub('b', 'from-a', 'from-b')]), {
    imports: { data: [{ name: 'in', dataRef: 'input' }] },
  }, RECONCILE));
  const failed = await untilInst(h, ns, 'cyc', 'cyc Failed', (i) => finished(i));
  assert.equal(phaseOf(failed), 'Failed');
  assert.match(failed.status!.lastError!.message, /cycle: (a -> b -> a|b -> a -> b)/);
  const children = await h.client.list(installationsResource, { namespace: ns, labelSelector: 'landscaper.gardener.cloud/encompassed-by=cyc' });
  assert.equal(children.items.length, 0, 'nothing was created');
});

test('interrupt is forwarded to the execution; the job then ends Failed', async () => {
  const ns = await newNamespace(h, 'interrupt');
  await h.client.create(dataObjectsResource, dataObject('g', ns, 'x'));
  h.outcomes.set('i', { phase: 'hold' });
  await h.client.create(installationsResource, installation('i', ns, mockBlueprint, { imports: { data: [{ name: 'greeting', dataRef: 'g' }] } }, RECONCILE));
  await untilInst(h, ns, 'i', 'i Progressing', (x) => phaseOf(x) === 'Progressing');
  await h.client.patch(installationsResource, 'i', { metadata: { annotations: { [OP]: 'interrupt' } } }, { type: 'merge', namespace: ns });
  await until('interrupt on the execution', () => h.client.get<Execution>(executionsResource, 'i', { namespace: ns }), (e) => e.metadata.annotations?.[OP] === 'interrupt');
  await untilInst(h, ns, 'i', 'interrupt removed from the installation', (x) => x?.metadata.annotations?.[OP] === undefined);
  // Stand-in for the execution controller's interrupt handling.
  h.outcomes.set('i', { phase: 'Failed', message: 'interrupted' });
  await h.client.patch(executionsResource, 'i', { metadata: { annotations: { [OP]: null } } }, { type: 'merge', namespace: ns });
  const failed = await untilInst(h, ns, 'i', 'i Failed', (x) => finished(x));
  assert.equal(phaseOf(failed), 'Failed');
  assert.match(failed.status!.lastError!.message, /execution i is Failed: interrupted/);
});

test('delete-without-uninstall is passed to the execution; the installation disappears', async () => {
  const ns = await newNamespace(h, 'dwu');
  await h.client.create(dataObjectsResource, dataObject('g', ns, 'x'));
  await h.client.create(installationsResource, installation('d', ns, mockBlueprint, { imports: { data: [{ name: 'greeting', dataRef: 'g' }] } }, RECONCILE));
  await untilInst(h, ns, 'd', 'd Succeeded', (x) => phaseOf(x) === 'Succeeded' && finished(x));
  await h.client.patch(installationsResource, 'd', { metadata: { annotations: { 'landscaper.gardener.cloud/delete-without-uninstall': 'true' } } }, { type: 'merge', namespace: ns });
  const seen: string[] = [];
  const watch = await h.client.watch<Execution>(executionsResource, { namespace: ns, name: 'd' });
  void (async () => {
    try {
      for await (const ev of watch) seen.push(ev.object.metadata.annotations?.['landscaper.gardener.cloud/delete-without-uninstall'] ?? '-');
    } catch {
      // closed
    }
  })();
  await h.client.delete(installationsResource, 'd', { namespace: ns });
  await until('d gone', () => getInst(h, ns, 'd'), (x) => x === undefined);
  watch.close();
  assert.ok(seen.includes('true'), 'the execution carried delete-without-uninstall');
  await assert.rejects(h.client.get(executionsResource, 'd', { namespace: ns }), { name: 'NotFoundError' });
});

test('deleting a predecessor waits for its successor, naming it, and finishes after it', async () => {
  const ns = await newNamespace(h, 'delwait');
  await h.client.create(dataObjectsResource, dataObject('seed', ns, 'seed'));
  await h.client.create(installationsResource, installation('p', ns, mockBlueprint, {
    imports: { data: [{ name: 'greeting', dataRef: 'seed' }] },
    exports: { data: [{ name: 'result', dataRef: 'shared' }] },
  }, RECONCILE));
  h.outcomes.set('p', { phase: 'Succeeded', exports: { item: { value: 'v' } } });
  await untilInst(h, ns, 'p', 'p Succeeded', (x) => phaseOf(x) === 'Succeeded' && finished(x));
  await h.client.create(installationsResource, installation('c', ns, mockBlueprint, { imports: { data: [{ name: 'greeting', dataRef: 'shared' }] } }, RECONCILE));
  await untilInst(h, ns, 'c', 'c Succeeded', (x) => phaseOf(x) === 'Succeeded' && finished(x) && x!.metadata.annotations?.[OP] === undefined);
  await h.client.delete(installationsResource, 'p', { namespace: ns });
  const waiting = await untilInst(h, ns, 'p', 'p waits in InitDelete', (x) => phaseOf(x) === 'InitDelete' && x!.status?.lastError !== undefined);
  assert.match(waiting.status!.lastError!.message, /waiting for successor installation\(s\).*: c/);
  await h.client.delete(installationsResource, 'c', { namespace: ns });
  await until('c gone', () => getInst(h, ns, 'c'), (x) => x === undefined);
  await until('p gone', () => getInst(h, ns, 'p'), (x) => x === undefined);
});
