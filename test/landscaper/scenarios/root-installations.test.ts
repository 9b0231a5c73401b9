// Sibling root installations and the job protocol on roots (upstream: integration rootinstallations "a root
// installation should trigger its successor"; installation controller units "should not reconcile an installation
// without reconcile annotation", "should reconcile an installation with reconcile-if-changed annotation", "should
// not delete if another installation still imports a exported value", "should retry … (automatic reconcile)"),
// run by the real controller family against a real server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Installation } from '../../../src/landscaper/api/installation.ts';
import {
  OP, R, RECONCILE, annotate, blueprint, createData, createInst, dataOf, deployExecution, exportExecution, finished, getInst, installation, mockDeployTemplate,
  setData, T, stays, until, untilFinished, untilGone, type Env, withEnv,
} from './support.ts';

let env: Env;
withEnv((e) => {
  env = e;
});

/** A link of a chain: imports `in`, deploys one mock item exporting "<in>><name>", exports it as `out`. */
const linkBlueprint = (name: string): string => blueprint({
  imports: [{ name: 'in', type: 'data', schema: { type: 'string' } }],
  exports: [{ name: 'out', type: 'data', schema: { type: 'string' } }],
  deployExecutions: [deployExecution(mockDeployTemplate([{ name: 'item', exportYaml: `value: "{{ .imports.in }}>${name}"` }]))],
  exportExecutions: [exportExecution('exports:\n  out: {{ index .values.deployitems "item" "value" | quote }}\n')],
});

const link = (name: string, ns: string, from: string, to: string, annotations: Record<string, string> = {}): Installation =>
  installation(name, ns, linkBlueprint(name), { imports: { data: [{ name: 'in', dataRef: from }] }, exports: { data: [{ name: 'out', dataRef: to }] } }, annotations);

/** The executions in the order their first deploy item was triggered. */
const executionOrder = (ns: string, from: number): string[] => {
  const out: string[] = [];
  for (const e of env.recorder.raw(ns, from)) if (e.type === 'trigger' && out[out.length - 1] !== e.execution) out.push(e.execution);
  return out;
};

test('sibling roots chained by exports/imports: only the first is triggered, successors follow; a new job re-runs them', T, async () => {
  const ns = await env.namespace('chain');
  await createData(env, ns, 'seed', 's1');
  // Created in reverse order and without the reconcile annotation: nothing runs yet.
  await createInst(env, link('third', ns, 'second-out', 'third-out'));
  await createInst(env, link('second', ns, 'first-out', 'second-out'));
  await createInst(env, link('first', ns, 'seed', 'first-out'));
  await stays('no job without a reconcile annotation', () => getInst(env, ns, 'second'), (i) => i?.status?.jobID === undefined || i.status.jobID === '', 300);
  assert.deepEqual(env.recorder.of(ns), []);

  const mark = env.recorder.mark();
  await annotate(env, R.installations, ns, 'first', RECONCILE);
  const third = await untilFinished(env, ns, 'third');
  const first = (await getInst(env, ns, 'first'))!;
  const second = (await getInst(env, ns, 'second'))!;
  for (const i of [first, second, third]) assert.equal(i.status?.phase, 'Succeeded', `${i.metadata.name}: ${i.status?.lastError?.message ?? ''}`);
  assert.deepEqual(env.recorder.of(ns, mark), ['trigger:item', 'trigger:item', 'trigger:item']);
  assert.deepEqual(executionOrder(ns, mark), ['first', 'second', 'third'], 'successors run after their predecessor');
  assert.equal(new Set([first, second, third].map((i) => i.status!.jobID)).size, 3, 'every root runs its own job');
  assert.equal(await dataOf(env, ns, 'third-out'), 's1>first>second>third');
  for (const i of [first, second, third]) assert.deepEqual(i.status?.dependentsToTrigger ?? [], [], 'dependentsToTrigger consumed');

  // A new job on the predecessor (new import value) re-runs its successors via dependentsToTrigger.
  await setData(env, ns, 'seed', 's2');
  const mark2 = env.recorder.mark();
  await annotate(env, R.installations, ns, 'first', RECONCILE);
  const third2 = await untilFinished(env, ns, 'third', { notJob: third.status!.jobID! });
  assert.equal(third2.status?.phase, 'Succeeded', third2.status?.lastError?.message);
  assert.deepEqual(executionOrder(ns, mark2), ['first', 'second', 'third']);
  const second2 = (await getInst(env, ns, 'second'))!;
  assert.notEqual(second2.status?.jobID, second.status?.jobID, 'the successor ran a new job');
  assert.ok(finished(second2));
  assert.equal(await dataOf(env, ns, 'third-out'), 's2>first>second>third', 'changed exports flowed down the chain');
});

test('deletion is blocked by a successor (message names it) and proceeds once the successor is gone', T, async () => {
  const ns = await env.namespace('delblock');
  await createData(env, ns, 'seed', 'x');
  await createInst(env, link('p', ns, 'seed', 'p-out', RECONCILE));
  await untilFinished(env, ns, 'p');
  await createInst(env, link('c', ns, 'p-out', 'c-out', RECONCILE));
  const c = await untilFinished(env, ns, 'c');
  assert.equal(c.status?.phase, 'Succeeded', c.status?.lastError?.message);

  const mark = env.recorder.mark();
  await env.client.delete(R.installations, 'p', { namespace: ns });
  const blocked = await until('p waiting in InitDelete with a message', () => getInst(env, ns, 'p'), (i) => i?.status?.phase === 'InitDelete' && i.status.lastError !== undefined);
  assert.match(blocked!.status!.lastError!.message, /\bc\b/, 'the message names the successor');
  assert.deepEqual(env.recorder.of(ns, mark), [], 'nothing of p is deleted while c imports its export');
  await stays('p still waiting', () => getInst(env, ns, 'p'), (i) => i?.status?.phase === 'InitDelete', 300);

  await env.client.delete(R.installations, 'c', { namespace: ns });
  await untilGone(env, R.installations, ns, 'c');
  await untilGone(env, R.installations, ns, 'p');
  const order = env.recorder.raw(ns, mark).filter((e) => e.type === 'delete').map((e) => e.execution);
  assert.deepEqual(order, ['c', 'p'], 'the successor\'s items go first');
  assert.equal(await dataOf(env, ns, 'p-out'), undefined, 'exports are removed with their installation');
});

test('delete-ignore-successors deletes a predecessor while its successor still imports its export', T, async () => {
  const ns = await env.namespace('ignsucc');
  await createData(env, ns, 'seed', 'x');
  await createInst(env, link('p', ns, 'seed', 'p-out', RECONCILE));
  await untilFinished(env, ns, 'p');
  await createInst(env, link('c', ns, 'p-out', 'c-out', RECONCILE));
  await untilFinished(env, ns, 'c');
  const mark = env.recorder.mark();
  await annotate(env, R.installations, ns, 'p', { 'landscaper.gardener.cloud/delete-ignore-successors': 'true' });
  await env.client.delete(R.installations, 'p', { namespace: ns });
  await untilGone(env, R.installations, ns, 'p');
  assert.deepEqual(env.recorder.raw(ns, mark).map((e) => `${e.type}:${e.execution}`), ['trigger:p', 'delete:p']);
  const c = (await getInst(env, ns, 'c'))!;
  assert.equal(c.status?.phase, 'Succeeded', 'the successor is untouched');
  assert.equal(c.metadata.deletionTimestamp, undefined);
});

test('reconcile-if-changed: a spec change of a finished root starts a job; a metadata-only change does not', T, async () => {
  const ns = await env.namespace('ifchanged');
  await createData(env, ns, 'seed', 'a');
  await createData(env, ns, 'seed2', 'b');
  // Upstream: generation 1 ≠ observedGeneration 0 on a fresh object, so it runs without a reconcile annotation.
  await createInst(env, link('r', ns, 'seed', 'r-out', { 'landscaper.gardener.cloud/reconcile-if-changed': 'true' }));
  const first = await untilFinished(env, ns, 'r');
  assert.equal(first.status?.phase, 'Succeeded', first.status?.lastError?.message);
  assert.equal(await dataOf(env, ns, 'r-out'), 'a>r');

  await annotate(env, R.installations, ns, 'r', { unrelated: 'change' });
  await stays('no new job for a metadata-only change', () => getInst(env, ns, 'r'), (i) => i?.status?.jobID === first.status!.jobID && i?.metadata.annotations?.[OP] === undefined, 400);

  await env.client.patch(R.installations, 'r', { spec: { imports: { data: [{ name: 'in', dataRef: 'seed2' }] } } }, { type: 'merge', namespace: ns });
  const second = await untilFinished(env, ns, 'r', { notJob: first.status!.jobID! });
  assert.equal(second.status?.phase, 'Succeeded', second.status?.lastError?.message);
  assert.equal(second.status?.observedGeneration, second.metadata.generation);
  assert.equal(await dataOf(env, ns, 'r-out'), 'b>r');
});

test('automatic reconcile: a succeeded root with a short interval runs new jobs by itself', T, async () => {
  const ns = await env.namespace('autorec');
  await createData(env, ns, 'seed', 'a');
  const inst = link('auto', ns, 'seed', 'auto-out', RECONCILE);
  inst.spec.automaticReconcile = { succeededReconcile: { interval: '1s' } };
  await createInst(env, inst);
  const first = await untilFinished(env, ns, 'auto');
  assert.equal(first.status?.phase, 'Succeeded', first.status?.lastError?.message);
  const mark = env.recorder.mark();
  const second = await untilFinished(env, ns, 'auto', { notJob: first.status!.jobID!, timeoutMs: 8000 });
  assert.equal(second.status?.phase, 'Succeeded');
  const third = await untilFinished(env, ns, 'auto', { notJob: second.status!.jobID!, timeoutMs: 8000 });
  assert.equal(third.status?.phase, 'Succeeded');
  assert.ok((third.status?.automaticReconcileStatus?.numberOfReconciles ?? 0) >= 2, JSON.stringify(third.status?.automaticReconcileStatus));
  assert.equal(third.status?.automaticReconcileStatus?.onFailed, false);
  const triggers = env.recorder.raw(ns, mark).filter((e) => e.type === 'trigger');
  assert.ok(triggers.length >= 2 && triggers.every((e) => e.item === 'item'), 'each automatic job re-triggers the deploy item');
  assert.ok(triggers.some((e) => e.jobID === second.status!.jobID) && triggers.some((e) => e.jobID === third.status!.jobID));
  // Stop it, so it does not keep the manager busy.
  await env.client.delete(R.installations, 'auto', { namespace: ns });
  await untilGone(env, R.installations, ns, 'auto');
});

test('automatic reconcile of a failed root: retried numberOfReconciles times, then left Failed', T, async () => {
  const ns = await env.namespace('autofail');
  const bp = blueprint({ deployExecutions: [deployExecution(mockDeployTemplate([{ name: 'bad', phase: 'Failed' }]))] });
  const inst = installation('af', ns, bp);
  inst.spec.automaticReconcile = { failedReconcile: { numberOfReconciles: 2, interval: '1s' } };
  const mark = env.recorder.mark();
  await createInst(env, inst);
  // First failure: retried at once (count 1), then once more after 1s (count 2), then no more.
  await until('two automatic retries', () => getInst(env, ns, 'af'), (i) => finished(i) && i?.status?.automaticReconcileStatus?.numberOfReconciles === 2 && i.metadata.annotations?.[OP] === undefined, 10_000);
  const settled = await stays('no third retry', () => getInst(env, ns, 'af'), (i) => i?.status?.automaticReconcileStatus?.numberOfReconciles === 2, 1500);
  assert.equal(settled?.status?.phase, 'Failed');
  assert.equal(settled?.status?.automaticReconcileStatus?.onFailed, true);
  const jobs = new Set(env.recorder.raw(ns, mark).filter((e) => e.type === 'trigger').map((e) => e.jobID));
  assert.equal(jobs.size, 3, 'the original job plus two retries');
  await env.client.delete(R.installations, 'af', { namespace: ns });
  await untilGone(env, R.installations, ns, 'af');
});
