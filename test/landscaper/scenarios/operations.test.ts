// Operation annotations and failures (upstream installation controller units "should pass an interrupt annotation to
// an execution", "should propagate the delete-without-uninstall annotation to an execution", "should fail if a
// preceding installation is 'Failed'"; execution units "should adapt the status … Failed to Succeeded and vice
// versa"; docs/usage/Annotations.md reconcile while a job runs), run by the real controller family.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DeployItem } from '../../../src/landscaper/api/deploy-item.ts';
import {
  OP, R, RECONCILE, annotate, blueprint, createData, createInst, dataOf, deployExecution, exportExecution, getExec, getInst, installation, listDeployItems,
  mockDeployTemplate, setData, T, stays, until, untilFinished, untilGone, type Env, withEnv,
} from './support.ts';

let env: Env;
withEnv((e) => {
  env = e;
});

/** One item whose mock phase comes from the import `phase` (Progressing = hangs), and one that depends on it. */
const phasedBlueprint = blueprint({
  imports: [{ name: 'phase', type: 'data', schema: { type: 'string' } }],
  exports: [{ name: 'out', type: 'data', schema: { type: 'string' } }],
  deployExecutions: [deployExecution(mockDeployTemplate([
    { name: 'first', phase: '{{ .imports.phase }}', exportYaml: 'v: "{{ .imports.phase }}"' },
    { name: 'second', dependsOn: ['first'] },
  ]))],
  exportExecutions: [exportExecution('exports:\n  out: {{ index .values.deployitems "first" "v" | quote }}\n')],
});
const phased = (name: string, ns: string, dataRef: string): ReturnType<typeof installation> =>
  installation(name, ns, phasedBlueprint, { imports: { data: [{ name: 'phase', dataRef }] }, exports: { data: [{ name: 'out', dataRef: `${name}-out` }] } });

async function itemByName(ns: string, name: string): Promise<DeployItem> {
  const di = (await listDeployItems(env, ns)).find((d) => d.metadata.labels?.['execution.landscaper.gardener.cloud/name'] === name);
  assert.ok(di, `deploy item ${name} in ${ns}`);
  return di;
}

test('a reconcile annotation on a root while its job runs is postponed until the job finished', T, async () => {
  const ns = await env.namespace('postpone');
  await createData(env, ns, 'ph', 'Progressing');
  await createInst(env, phased('pp', ns, 'ph'));
  await until('first item hanging in Progressing', () => listDeployItems(env, ns), (l) => l.some((d) => d.status?.phase === 'Progressing' && d.status.jobID !== undefined));
  const running = (await getInst(env, ns, 'pp'))!;
  const job1 = running.status!.jobID!;
  assert.equal(running.status?.phase, 'Progressing');

  await setData(env, ns, 'ph', 'Succeeded');
  await annotate(env, R.installations, ns, 'pp', RECONCILE);
  await stays('job 1 keeps running, the annotation stays', () => getInst(env, ns, 'pp'), (i) => i?.status?.jobID === job1 && i.metadata.annotations?.[OP] === 'reconcile', 500);

  // The hanging item finishes (a deployer would): the job completes with the old imports, then the postponed job runs.
  const mark = env.recorder.mark();
  const first = await itemByName(ns, 'first');
  await env.client.updateStatus(R.deployItems, { ...first, status: { ...first.status!, phase: 'Succeeded', jobIDFinished: job1 } });
  const second = await untilFinished(env, ns, 'pp', { notJob: job1 });
  assert.equal(second.status?.phase, 'Succeeded', second.status?.lastError?.message);
  const ev = env.recorder.raw(ns, mark);
  assert.deepEqual(ev.map((e) => `${e.type}:${e.item}`), ['trigger:second', 'trigger:first', 'trigger:second'], 'job 1 ends (second), then job 2 runs first → second');
  assert.equal(ev[0]!.jobID, job1);
  assert.ok(ev.slice(1).every((e) => e.jobID === second.status!.jobID));
  assert.equal(await dataOf(env, ns, 'pp-out'), 'Succeeded');
});

test('interrupt: the running job ends Failed at once, the unfinished items are failed, dependents never start', T, async () => {
  const ns = await env.namespace('interrupt');
  await createData(env, ns, 'ph', 'Progressing');
  const mark = env.recorder.mark();
  await createInst(env, phased('int', ns, 'ph'));
  await until('first item hanging', () => listDeployItems(env, ns), (l) => l.some((d) => d.status?.phase === 'Progressing' && d.status.jobID !== undefined));
  const job = (await getInst(env, ns, 'int'))!.status!.jobID!;
  await annotate(env, R.installations, ns, 'int', { [OP]: 'interrupt' });
  const failed = await untilFinished(env, ns, 'int');
  assert.equal(failed.status?.jobID, job);
  assert.equal(failed.status?.phase, 'Failed');
  assert.equal(failed.metadata.annotations?.[OP], undefined, 'interrupt annotation removed');
  const exec = (await getExec(env, ns, 'int'))!;
  assert.equal(exec.status?.phase, 'Failed');
  assert.equal(exec.status?.jobIDFinished, job);
  assert.equal(exec.metadata.annotations?.[OP], undefined);
  const first = await itemByName(ns, 'first');
  assert.equal(first.status?.phase, 'Failed');
  assert.equal(first.status?.jobIDFinished, job);
  assert.match(first.status?.lastError?.message ?? '', /interrupt/i);
  // As upstream's handleInterruptOperation: every unfinished item of the job, triggered or not, is finished as Failed.
  const second = await itemByName(ns, 'second');
  assert.equal(second.status?.phase, 'Failed');
  assert.equal(second.status?.jobIDFinished, job);
  assert.deepEqual(env.recorder.of(ns, mark), ['trigger:first'], 'the dependent was never handed to the deployer');
  assert.match(failed.status?.lastError?.message ?? '', /int|execution/i);

  // "Failed to Succeeded": a new job with a working import succeeds.
  await setData(env, ns, 'ph', 'Succeeded');
  await annotate(env, R.installations, ns, 'int', RECONCILE);
  const again = await untilFinished(env, ns, 'int', { notJob: job });
  assert.equal(again.status?.phase, 'Succeeded', again.status?.lastError?.message);
  assert.equal(again.status?.lastError, undefined, 'lastError cleared on success');
});

test('a failing deploy item fails execution and installation; the successor root fails naming its predecessor', T, async () => {
  const ns = await env.namespace('failing');
  await createData(env, ns, 'ph', 'Failed');
  await createInst(env, phased('pred', ns, 'ph'));
  const succ = installation('succ', ns, phasedBlueprint, { imports: { data: [{ name: 'phase', dataRef: 'pred-out' }] } }, {});
  await createInst(env, succ);
  const mark = env.recorder.mark();
  const pred = await untilFinished(env, ns, 'pred');
  assert.equal(pred.status?.phase, 'Failed');
  assert.match(pred.status?.lastError?.message ?? '', /first/, 'the message names the failed item');
  const exec = (await getExec(env, ns, 'pred'))!;
  assert.equal(exec.status?.phase, 'Failed');
  // Failed jobs also wake dependents: the successor runs a job and fails its predecessor check.
  const s = await untilFinished(env, ns, 'succ');
  assert.equal(s.status?.phase, 'Failed');
  assert.match(s.status?.lastError?.message ?? '', /pred/);
  assert.deepEqual(env.recorder.raw(ns, mark).map((e) => `${e.type}:${e.execution}/${e.item}`).filter((x) => x.includes('succ')), [], 'the successor triggered nothing');
});

test('delete-without-uninstall: items are removed in reverse order without being uninstalled', T, async () => {
  const ns = await env.namespace('dwu');
  const bp = blueprint({ deployExecutions: [deployExecution(mockDeployTemplate([{ name: 'b', dependsOn: ['a'] }, { name: 'a' }]))] });
  await createInst(env, installation('d', ns, bp));
  await untilFinished(env, ns, 'd');
  const mark = env.recorder.mark();
  const execAnnotations: string[] = [];
  const watch = await env.client.watch(R.executions, { namespace: ns, name: 'd' });
  void (async () => {
    try {
      for await (const ev of watch) execAnnotations.push(ev.object.metadata.annotations?.['landscaper.gardener.cloud/delete-without-uninstall'] ?? '-');
    } catch {
      // closed
    }
  })();
  await annotate(env, R.installations, ns, 'd', { 'landscaper.gardener.cloud/delete-without-uninstall': 'true' });
  await env.client.delete(R.installations, 'd', { namespace: ns });
  await untilGone(env, R.installations, ns, 'd');
  watch.close();
  assert.ok(execAnnotations.includes('true'), 'the annotation reached the execution');
  assert.deepEqual(env.recorder.of(ns, mark), ['delete:b', 'delete:a'], 'no deletion job for the deployer, reverse order');
  assert.deepEqual(await listDeployItems(env, ns), []);
  assert.equal(await getInst(env, ns, 'd'), undefined);
});
