// The execution controller and the pickup timeout against a real embedded API server with the real
// runtime; a stand-in deployer (execution-harness.ts) plays the deployer's part of the contract.
import { eventsResource } from '../../src/apimachinery/builtin-resources.ts';
import { NotFoundError } from '../../src/client/errors.ts';
import type { KubeObject } from '../../src/apimachinery/object.ts';
import type { ResourceRef } from '../../src/client/client.ts';
import { dataObjectsResource, deployItemsResource, executionsResource } from '../../src/landscaper/api/resources.ts';
import { freePort } from '../helpers/bosun-process.ts';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DEPLOYER_TARGET_NAME_ANNOTATION,
  DEPLOYER_TYPE_ANNOTATION,
  EXECUTION_DEPENDS_ON_ANNOTATION,
  EXECUTION_MANAGED_BY_LABEL,
  EXECUTION_MANAGED_NAME_LABEL,
  LANDSCAPER_FINALIZER,
  OPERATION_ANNOTATION,
  RECONCILE_TIME_ANNOTATION,
  DELETE_WITHOUT_UNINSTALL_ANNOTATION,
} from '../../src/landscaper/api/constants.ts';
import type { DataObject } from '../../src/landscaper/api/data-object.ts';
import type { DeployItem } from '../../src/landscaper/api/deploy-item.ts';
import type { Execution } from '../../src/landscaper/api/execution.ts';
import { encodeDeployItemsCompressed } from '../../src/landscaper/api/execution-spec.ts';
import { executionExportDataObjectName } from '../../src/landscaper/naming.ts';
import {
  createExecution,
  createNamespace,
  eventsIn,
  item,
  listDeployItems,
  setJob,
  startExecHarness,
  waitFinished,
  waitGone,
  type ExecHarness,
} from './execution-harness.ts';

let h: ExecHarness;
before(async () => {
  h = await startExecHarness({ pickupTimeout: 1500 });
});
after(async () => {
  await h.close();
});

const names = (events: { item: string }[]): string[] => events.map((e) => e.item);
const index = (list: string[], name: string): number => {
  const i = list.indexOf(name);
  assert.ok(i >= 0, `${name} in ${list.join(',')}`);
  return i;
};

test('a dependsOn DAG is triggered layer by layer, exports are collected, deletion runs in reverse order', async () => {
  const ns = 'dag';
  await createNamespace(h.client, ns);
  h.exports.set(`${ns}/a`, { foo: 'bar' });
  await createExecution(h.client, ns, 'dag', { context: 'ctx', deployItems: [item('a'), item('b', ['a']), item('c', ['a']), item('d', ['b', 'c'])] });
  await setJob(h.client, ns, 'dag', 'job-1');
  const exec = await waitFinished(h.client, ns, 'dag', 'job-1');
  assert.equal(exec.status?.phase, 'Succeeded', JSON.stringify(exec.status));
  assert.ok(exec.metadata.finalizers?.includes(LANDSCAPER_FINALIZER));

  const triggers = names(eventsIn(h.events, ns, 'trigger'));
  assert.equal(triggers[0], 'a');
  assert.deepEqual([...triggers.slice(1, 3)].sort(), ['b', 'c']);
  assert.equal(triggers[3], 'd');
  assert.equal(triggers.length, 4);
  // Each layer started only after the one before finished.
  const timeline = eventsIn(h.events, ns).map((e) => `${e.type}:${e.item}`);
  assert.ok(index(timeline, 'finish:a') < index(timeline, 'trigger:b') && index(timeline, 'finish:a') < index(timeline, 'trigger:c'));
  assert.ok(index(timeline, 'finish:b') < index(timeline, 'trigger:d') && index(timeline, 'finish:c') < index(timeline, 'trigger:d'));

  const dis = await listDeployItems(h.client, ns);
  assert.equal(dis.length, 4);
  const d = dis.find((x) => x.metadata.labels?.[EXECUTION_MANAGED_NAME_LABEL] === 'd')!;
  assert.match(d.metadata.name ?? '', /^dag-d-/);
  assert.equal(d.metadata.labels?.[EXECUTION_MANAGED_BY_LABEL], 'dag');
  assert.equal(d.metadata.annotations?.[EXECUTION_DEPENDS_ON_ANNOTATION], 'b,c');
  assert.equal(d.metadata.annotations?.[DEPLOYER_TYPE_ANNOTATION], 'test.bosun.dev/stand-in');
  assert.equal(d.metadata.annotations?.[DEPLOYER_TARGET_NAME_ANNOTATION], 'noTargetName');
  assert.ok(d.metadata.annotations?.[RECONCILE_TIME_ANNOTATION]);
  assert.deepEqual(d.metadata.finalizers, [LANDSCAPER_FINALIZER]);
  assert.deepEqual(d.metadata.ownerReferences?.map((r) => [r.kind, r.name, r.controller]), [['Execution', 'dag', true]]);
  assert.equal(d.spec.context, 'ctx');
  assert.equal(d.status?.jobID, 'job-1');
  assert.ok(d.status?.jobIDGenerationTime);
  assert.deepEqual(exec.status?.deployItemCache?.activeDIs?.map((p) => p.specName), ['a', 'b', 'c', 'd']);

  const doName = executionExportDataObjectName('dag');
  assert.deepEqual(exec.status?.exportRef, { name: doName, namespace: ns });
  const dobj = await h.client.get<DataObject>(dataObjectsResource, doName, { namespace: ns });
  assert.deepEqual(dobj.data, { a: { foo: 'bar' }, b: null, c: null, d: null });
  assert.equal(dobj.metadata.labels?.['data.landscaper.gardener.cloud/source'], 'Exec.dag');

  // Deletion: the installation deletes the execution and hands it a new job.
  await h.client.delete(executionsResource, 'dag', { namespace: ns });
  await setJob(h.client, ns, 'dag', 'job-2');
  await waitGone(h.client, ns, 'dag');
  const deleted = names(eventsIn(h.events, ns, 'deleted'));
  assert.equal(deleted[0], 'd');
  assert.deepEqual([...deleted.slice(1, 3)].sort(), ['b', 'c']);
  assert.equal(deleted[3], 'a');
  const deleteTriggers = eventsIn(h.events, ns, 'trigger').filter((e) => e.deleting);
  assert.deepEqual(names(deleteTriggers).sort(), ['a', 'b', 'c', 'd']);
  assert.equal((await listDeployItems(h.client, ns)).length, 0);
});

test('orphaned deploy items are removed (in reverse order) before new items run', async () => {
  const ns = 'orphans';
  await createNamespace(h.client, ns);
  await createExecution(h.client, ns, 'ex', { deployItems: [item('x'), item('y', ['x'])] });
  await setJob(h.client, ns, 'ex', 'job-1');
  assert.equal((await waitFinished(h.client, ns, 'ex', 'job-1')).status?.phase, 'Succeeded');
  const mark = h.events.length;

  await h.client.patch(executionsResource, 'ex', { spec: { deployItems: [item('z')] } }, { type: 'merge', namespace: ns });
  await setJob(h.client, ns, 'ex', 'job-2');
  const exec = await waitFinished(h.client, ns, 'ex', 'job-2');
  assert.equal(exec.status?.phase, 'Succeeded', JSON.stringify(exec.status));
  const timeline = eventsIn(h.events.slice(mark), ns)
    .filter((e) => e.type !== 'finish')
    .map((e) => `${e.type}:${e.item}`);
  assert.deepEqual(timeline, ['trigger:y', 'deleted:y', 'trigger:x', 'deleted:x', 'trigger:z']);
  const left = await listDeployItems(h.client, ns);
  assert.deepEqual(left.map((di) => di.metadata.labels?.[EXECUTION_MANAGED_NAME_LABEL]), ['z']);
  assert.deepEqual(exec.status?.deployItemCache?.orphanedDIs, []);
});

test('a failed deploy item stops triggering and fails the execution, naming it', async () => {
  const ns = 'failed';
  await createNamespace(h.client, ns);
  h.behaviour.set(`${ns}/b`, 'fail');
  await createExecution(h.client, ns, 'ex', { deployItems: [item('a'), item('b', ['a']), item('c', ['b'])] });
  await setJob(h.client, ns, 'ex', 'job-1');
  const exec = await waitFinished(h.client, ns, 'ex', 'job-1');
  assert.equal(exec.status?.phase, 'Failed');
  assert.deepEqual(names(eventsIn(h.events, ns, 'trigger')), ['a', 'b']);
  const message = exec.status?.lastError?.message ?? '';
  assert.match(message, /\bb \(ex-b-[a-z0-9]+: Failed: boom: the stand-in deployer failed\)/);
  assert.doesNotMatch(message, /\bc \(/);
  assert.equal(exec.status?.transitionTimes?.finishedTime !== undefined, true);
});

test('a dependsOn cycle fails the execution with a message that names the cycle', async () => {
  const ns = 'cycle';
  await createNamespace(h.client, ns);
  await createExecution(h.client, ns, 'ex', { deployItems: [item('a', ['b']), item('b', ['a']), item('c')] });
  await setJob(h.client, ns, 'ex', 'job-1');
  const exec = await waitFinished(h.client, ns, 'ex', 'job-1');
  assert.equal(exec.status?.phase, 'Failed');
  assert.equal(exec.status?.lastError?.message, 'dependsOn cycle: a → b → a');
  assert.deepEqual(exec.status?.lastError?.codes, ['ERR_CYCLIC_DEPENDENCIES']);
  assert.equal(eventsIn(h.events, ns, 'trigger').length, 0);
  assert.equal((await listDeployItems(h.client, ns)).length, 0);
});

test('interrupt fails the unfinished deploy items and the execution', async () => {
  const ns = 'interrupt';
  await createNamespace(h.client, ns);
  h.behaviour.set(`${ns}/slow`, 'hang');
  await createExecution(h.client, ns, 'ex', { deployItems: [item('slow'), item('next', ['slow'])] });
  await setJob(h.client, ns, 'ex', 'job-1');
  await waitFor(async () => (await listDeployItems(h.client, ns)).some((di) => di.status?.phase === 'Progressing'), 'slow picked up');
  await h.client.patch(executionsResource, 'ex', { metadata: { annotations: { [OPERATION_ANNOTATION]: 'interrupt' } } }, { type: 'merge', namespace: ns });
  const exec = await waitFinished(h.client, ns, 'ex', 'job-1');
  assert.equal(exec.status?.phase, 'Failed');
  assert.equal(exec.metadata.annotations?.[OPERATION_ANNOTATION], undefined);
  const dis = await listDeployItems(h.client, ns);
  for (const di of dis) {
    assert.equal(di.status?.phase, 'Failed');
    assert.equal(di.status?.jobIDFinished, 'job-1');
    assert.equal(di.status?.lastError?.reason, 'InterruptOperation');
  }
  assert.match(exec.status?.lastError?.message ?? '', /slow \(ex-slow-[a-z0-9]+: Failed: operation was interrupted\)/);
  // "next" never ran: its only job ID is the one the interrupt wrote together with Failed.
  assert.deepEqual(names(eventsIn(h.events, ns, 'trigger')), ['slow', 'next']);
  assert.deepEqual(names(eventsIn(h.events, ns, 'finish')).sort(), ['next', 'slow']);
});

test('the pickup timeout fails an item no deployer picks up and names its missing Target', async () => {
  const ns = 'pickup';
  await createNamespace(h.client, ns);
  await createExecution(h.client, ns, 'ex', { deployItems: [item('ok'), item('orphan-type', [], { type: 'example.com/nobody', target: { name: 'missing-target', namespace: ns } })] });
  const started = Date.now();
  await setJob(h.client, ns, 'ex', 'job-1');
  const exec = await waitFinished(h.client, ns, 'ex', 'job-1');
  const elapsed = Date.now() - started;
  assert.equal(exec.status?.phase, 'Failed');
  assert.ok(elapsed >= 1500, `timed out after ${elapsed} ms, before the pickup timeout`);
  const di = (await listDeployItems(h.client, ns)).find((x) => x.spec.type === 'example.com/nobody')!;
  assert.equal(di.status?.phase, 'Failed');
  assert.equal(di.status?.lastError?.reason, 'PickupTimeout');
  assert.equal(di.status?.lastError?.operation, 'WaitingForPickup');
  assert.deepEqual(di.status?.lastError?.codes, ['ERR_TIMEOUT']);
  assert.match(di.status?.lastError?.message ?? '', /within 1\.5s: its Target pickup\/missing-target does not exist/);
  assert.match(exec.status?.lastError?.message ?? '', /orphan-type \(ex-orphan-type-[a-z0-9]+: Failed: no deployer has picked up/);
});

test('a deploy item deleted by hand fails the execution, naming it', async () => {
  const ns = 'byhand';
  await createNamespace(h.client, ns);
  h.behaviour.set(`${ns}/a`, 'hang');
  await createExecution(h.client, ns, 'ex', { deployItems: [item('a'), item('b', ['a'])] });
  await setJob(h.client, ns, 'ex', 'job-1');
  let victim: DeployItem | undefined;
  await waitFor(async () => {
    victim = (await listDeployItems(h.client, ns)).find((di) => di.status?.phase === 'Progressing');
    return victim !== undefined;
  }, 'a picked up');
  // kubectl delete plus a forced finalizer removal, as users do with stuck items.
  await h.client.delete(deployItemsResource, victim!.metadata.name ?? '', { namespace: ns });
  // The controllers may have released it already: gone is gone.
  await h.client
    .patch(deployItemsResource, victim!.metadata.name ?? '', { metadata: { finalizers: null } }, { type: 'merge', namespace: ns })
    .catch((error: unknown) => {
      if (!(error instanceof NotFoundError)) throw error;
    });
  const exec = await waitFinished(h.client, ns, 'ex', 'job-1');
  assert.equal(exec.status?.phase, 'Failed');
  assert.equal(exec.status?.lastError?.message, `has failed or missing deploy items: a (deploy item ${victim!.metadata.name ?? ''} was deleted)`);
  assert.deepEqual(names(eventsIn(h.events, ns, 'trigger')), ['a']);
});

test('deployItemsCompressed is read; delete-without-uninstall removes items without their deployer', async () => {
  const ns = 'compressed';
  await createNamespace(h.client, ns);
  await createExecution(h.client, ns, 'ex', { deployItemsCompressed: encodeDeployItemsCompressed([item('p'), item('q', ['p'])]) });
  await setJob(h.client, ns, 'ex', 'job-1');
  const exec = await waitFinished(h.client, ns, 'ex', 'job-1');
  assert.equal(exec.status?.phase, 'Succeeded', JSON.stringify(exec.status));
  assert.deepEqual(names(eventsIn(h.events, ns, 'trigger')), ['p', 'q']);

  await h.client.patch(executionsResource, 'ex', { metadata: { annotations: { [DELETE_WITHOUT_UNINSTALL_ANNOTATION]: 'true' } } }, { type: 'merge', namespace: ns });
  await h.client.delete(executionsResource, 'ex', { namespace: ns });
  await setJob(h.client, ns, 'ex', 'job-2');
  await waitGone(h.client, ns, 'ex');
  assert.deepEqual(names(eventsIn(h.events, ns, 'deleted')), ['q', 'p']);
  assert.equal(eventsIn(h.events, ns, 'trigger').filter((e) => e.deleting).length, 0, 'no deployer was asked to uninstall');
});

test('a finished execution ignores spec changes until it gets a new job ID', async () => {
  const ns = 'nojob';
  await createNamespace(h.client, ns);
  await createExecution(h.client, ns, 'ex', { deployItems: [item('a')] });
  await new Promise((r) => setTimeout(r, 200));
  const exec = await h.client.get<Execution>(executionsResource, 'ex', { namespace: ns });
  assert.deepEqual(exec.metadata.finalizers, [LANDSCAPER_FINALIZER]);
  assert.equal(exec.status?.phase, undefined);
  assert.equal((await listDeployItems(h.client, ns)).length, 0);
});

const validatingWebhooks: ResourceRef = { group: 'admissionregistration.k8s.io', version: 'v1', resource: 'validatingwebhookconfigurations', namespaced: false, kind: 'ValidatingWebhookConfiguration' };
const reconcileErrors = (): Promise<number> => h.mgr.metrics.value('controller_runtime_reconcile_errors_total', { controller: 'landscaper-execution' });
const terminalErrors = (): Promise<number> => h.mgr.metrics.value('controller_runtime_terminal_reconcile_errors_total', { controller: 'landscaper-execution' });

test('a deploy item create the API server refuses is a normal error: counted, recorded, retried with backoff until it works', async () => {
  const ns = 'refused';
  await createNamespace(h.client, ns);
  // A user's validating webhook for deploy items that is down (failurePolicy Fail): every create is refused with a 500.
  const port = await freePort();
  await h.client.create(validatingWebhooks, {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name: 'deployitems-down' },
    webhooks: [
      {
        name: 'deployitems-down.bosun.test',
        clientConfig: { url: `https://127.0.0.1:${port}/validate` },
        rules: [{ operations: ['CREATE'], apiGroups: ['landscaper.gardener.cloud'], apiVersions: ['v1alpha1'], resources: ['deployitems'] }],
        objectSelector: { matchLabels: { [EXECUTION_MANAGED_BY_LABEL]: 'refused' } },
        failurePolicy: 'Fail',
        sideEffects: 'None',
        admissionReviewVersions: ['v1'],
      },
    ],
  });
  const errorsBefore = await reconcileErrors();
  const terminalBefore = await terminalErrors();
  const key = `${ns}/refused`;
  await createExecution(h.client, ns, 'refused', { deployItems: [item('a')] });
  await setJob(h.client, ns, 'refused', 'job-1');
  // Recording the same error again changes nothing, so only the work queue's backoff brings the retries.
  await waitFor(async () => h.executions.queue.numRequeues(key) >= 3, 'three retries with backoff');
  const failing = await h.client.get<Execution>(executionsResource, 'refused', { namespace: ns });
  assert.equal(failing.status?.phase, 'Init', 'a normal error keeps the phase');
  assert.equal(failing.status?.lastError?.operation, 'Init');
  assert.equal(failing.status?.lastError?.reason, 'CreateDeployItem');
  assert.match(failing.status?.lastError?.message ?? '', /^creating deploy item "a": .*failed calling webhook "deployitems-down\.bosun\.test"/);
  assert.ok((await reconcileErrors()) - errorsBefore >= 3, 'every failed reconcile is counted in controller_runtime_reconcile_errors_total');
  assert.equal(await terminalErrors(), terminalBefore, 'a normal error is not terminal');
  assert.equal((await listDeployItems(h.client, ns)).length, 0);
  // kubectl describe shows it: one Warning Event, its repeats folded into its count.
  const warnings = async (): Promise<KubeObject[]> =>
    (await h.client.list(eventsResource, { namespace: ns })).items.filter((e) => e['type'] === 'Warning' && e['reason'] === 'CreateDeployItem');
  await waitFor(async () => (await warnings()).some((e) => Number(e['count']) >= 2), 'a Warning Event counting the repeats');
  assert.equal((await warnings()).length, 1);

  await h.client.delete(validatingWebhooks, 'deployitems-down');
  const exec = await waitFinished(h.client, ns, 'refused', 'job-1');
  assert.equal(exec.status?.phase, 'Succeeded', JSON.stringify(exec.status));
  assert.equal(exec.status?.lastError, undefined);
  assert.deepEqual(names(eventsIn(h.events, ns, 'trigger')), ['a']);
  await waitFor(async () => h.executions.queue.numRequeues(key) === 0, 'the backoff reset after success');
});

test('a fatal error (deployItemsCompressed that is not gzip) ends the job in Failed as a terminal error, never requeued', async () => {
  const ns = 'fatal';
  await createNamespace(h.client, ns);
  const errorsBefore = await reconcileErrors();
  const terminalBefore = await terminalErrors();
  await createExecution(h.client, ns, 'ex', { deployItemsCompressed: Buffer.from('not gzip').toString('base64') });
  await setJob(h.client, ns, 'ex', 'job-1');
  const exec = await waitFinished(h.client, ns, 'ex', 'job-1');
  assert.equal(exec.status?.phase, 'Failed');
  assert.equal(exec.status?.lastError?.operation, 'ReadDeployItems');
  assert.equal(exec.status?.lastError?.reason, 'InvalidDeployItemsCompressed');
  assert.deepEqual(exec.status?.lastError?.codes, ['ERR_CONFIGURATION_PROBLEM']);
  assert.equal(exec.status?.conditions?.find((c) => c.type === 'ReconcileDeployItems')?.status, 'False');
  await waitFor(async () => (await terminalErrors()) === terminalBefore + 1, 'the terminal error counted');
  const errorsAfter = await reconcileErrors();
  assert.ok(errorsAfter > errorsBefore, 'counted in controller_runtime_reconcile_errors_total too');
  // Nothing retries a terminal error: no backoff requeue, no further failed reconcile.
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(h.executions.queue.numRequeues(`${ns}/ex`), 0);
  assert.equal(await reconcileErrors(), errorsAfter);
  assert.equal((await listDeployItems(h.client, ns)).length, 0);
});

async function waitFor(cond: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
