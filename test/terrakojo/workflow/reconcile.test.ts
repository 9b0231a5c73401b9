// Upstream's workflow_controller_test.go scenarios (§6.2) against a real API server and GitHub test server:
// the run from check run to Job to phase, GitHub calls per Workflow, steady state, the Invalid Job, a
// missing template or Branch, a foreign Job, and the deletion paths.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { jobsResource } from '../../../src/apimachinery/builtin-resources.ts';
import { workflowsResource } from '../../../src/terrakojo/api/resources.ts';
import type { Workflow } from '../../../src/terrakojo/api/types.ts';
import type { Container } from '../../../src/apimachinery/api/index.ts';
import { simpleJob, template } from './fixtures.ts';
import { startHarness, stays, type Harness } from './harness.ts';

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(() => h.close());

const WF = 'plan-0123456789';
const phaseIs = (phase: string) => (w: Workflow) => w.status?.phase === phase;
const runOf = (h: Harness, id: number | undefined) => h.checkRuns().find((r) => r.id === id);
const callsFor = (h: Harness, id: number | undefined, method: string) => h.checkRunCalls().filter((c) => c.method === method && (method === 'POST' || c.path.endsWith(`/check-runs/${id}`)));

test('a Workflow runs: finalizer, check run persisted before the Job, the Job, then phases follow the Job; one GitHub call per change', async () => {
  const ns = await h.namespace();
  h.gh.resetCalls();
  await h.createWorkflow(ns);
  const pending = await h.untilWorkflow(ns, WF, 'phase Pending', phaseIs('Pending'));
  assert.deepEqual(pending.metadata.finalizers, ['terrakojo.io/cleanup-checkrun']);
  assert.equal(pending.status?.checkRunName, 'Plan(infra/app)');
  const id = pending.status?.checkRunID;
  assert.ok(id && id > 0);
  const created = runOf(h, id);
  assert.equal(created?.name, 'Plan(infra/app)');
  assert.equal(created?.head_sha, h.sha);
  assert.equal(created?.status, 'queued');
  assert.equal(created?.details_url, `https://bosun.test/ui/namespaces/${ns}/workflows/${WF}`);
  const condition = pending.status?.conditions?.find((c) => c.type === 'JobStatus');
  assert.deepEqual({ ...condition, lastTransitionTime: undefined }, { type: 'JobStatus', status: 'True', reason: 'Pending', message: 'Job is in Pending state', observedGeneration: 1, lastTransitionTime: undefined });

  const job = await h.getJob(ns, WF);
  assert.ok(job);
  assert.deepEqual(job.metadata.ownerReferences?.map((r) => [r.kind, r.name, r.uid, r.controller]), [['Workflow', WF, pending.metadata.uid, true]]);
  assert.equal(job.spec.backoffLimit, 0);
  const container = job.spec.template?.spec?.containers?.[0] as Container;
  assert.equal(container.env?.find((e) => e.name === 'TERRAKOJO_REF_NAME')?.value, 'feature/x');
  assert.equal(container.env?.find((e) => e.name === 'TERRAKOJO_SHA')?.value, h.sha);
  assert.deepEqual(container.securityContext, { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } });

  await h.setJobStatus(ns, WF, { active: 1 });
  await h.untilWorkflow(ns, WF, 'phase Running', phaseIs('Running'));
  assert.equal(runOf(h, id)?.status, 'in_progress');

  // Steady state: Job events that change nothing the check run shows cost no GitHub call.
  const before = h.checkRunCalls().length;
  await h.client.patch(jobsResource, WF, { metadata: { labels: { touched: 'yes' } } }, { type: 'merge', namespace: ns });
  await h.setJobStatus(ns, WF, { active: 1, ready: 1 });
  await stays('no GitHub call for Job events that change nothing shown', async () => h.checkRunCalls().length, (n) => n === before);

  await h.setJobStatus(ns, WF, { active: 0, succeeded: 1 });
  const done = await h.untilWorkflow(ns, WF, 'phase Succeeded', phaseIs('Succeeded'));
  const run = runOf(h, id);
  assert.equal(run?.status, 'completed');
  assert.equal(run?.conclusion, 'success');
  assert.equal(run?.output?.title, 'Plan(infra/app) succeeded');
  assert.match(run?.output?.summary ?? '', /^Job plan-0123456789 succeeded\. Its log could not be read: no pod of Job plan-0123456789 was found$/);
  assert.deepEqual(run?.history.map((e) => [e.status, e.conclusion]), [['queued', null], ['in_progress', null], ['completed', 'success']]);
  // lastTransitionTime stays while the condition's status does (True all along); the reason follows the phase.
  const last = done.status?.conditions?.find((c) => c.type === 'JobStatus');
  assert.equal(last?.reason, 'Succeeded');
  assert.equal(last?.lastTransitionTime, condition?.lastTransitionTime);

  // Phases Pending → Running → Succeeded: one create, and one PATCH per state after queued.
  assert.equal(callsFor(h, id, 'POST').length, 1);
  assert.equal(callsFor(h, id, 'PATCH').length, 2);
  assert.equal(h.checkRunCalls().length - before, 1, 'only the Succeeded PATCH after the steady-state events');
  const events = (await h.events(ns, WF)).map((e) => `${e.type}/${e.reason}`);
  assert.ok(events.includes('Normal/CheckRunCreated') && events.includes('Normal/JobCreated'), events.join());
});

test('a failed Job fails the check run; a terminal Workflow whose Job is gone does not run again', async () => {
  const ns = await h.namespace();
  h.gh.resetCalls();
  await h.createWorkflow(ns);
  const pending = await h.untilWorkflow(ns, WF, 'phase Pending', phaseIs('Pending'));
  await h.setJobStatus(ns, WF, { failed: 1 });
  await h.untilWorkflow(ns, WF, 'phase Failed', phaseIs('Failed'));
  const run = runOf(h, pending.status?.checkRunID);
  assert.deepEqual([run?.status, run?.conclusion, run?.output?.title], ['completed', 'failure', 'Plan(infra/app) failed']);
  // Pending → Failed: the look-up of a check run made before a crash, the create and one PATCH.
  assert.equal(h.checkRunCalls().length, 3);

  await h.client.delete(jobsResource, WF, { namespace: ns });
  await h.until('the Job gone', () => h.getJob(ns, WF), (j) => j === undefined);
  await h.client.patch(workflowsResource, WF, { metadata: { annotations: { poke: '1' } } }, { type: 'merge', namespace: ns });
  await stays('no new Job', () => h.getJob(ns, WF), (j) => j === undefined);
  assert.equal(h.checkRunCalls().length, 3);
});

test('a Job the API server refuses (container "Plan Step") ends Failed at once: check run failure, no Job, no retry', async () => {
  const ns = await h.namespace({ template: template('plan', 'x', simpleJob('Plan Step')) });
  h.gh.resetCalls();
  await h.createWorkflow(ns);
  const failed = await h.untilWorkflow(ns, WF, 'phase Failed', phaseIs('Failed'));
  assert.equal(await h.getJob(ns, WF), undefined);
  const condition = failed.status?.conditions?.find((c) => c.type === 'JobStatus');
  assert.equal(condition?.status, 'False');
  assert.equal(condition?.reason, 'JobCreateFailed');
  assert.match(condition?.message ?? '', /Plan Step/);
  const run = runOf(h, failed.status?.checkRunID);
  assert.deepEqual([run?.status, run?.conclusion], ['completed', 'failure']);
  assert.match(run?.output?.summary ?? '', /could not be created: .*Plan Step/);
  const events = await h.events(ns, WF);
  assert.ok(events.some((e) => e.type === 'Warning' && e.reason === 'JobCreateFailed'));
  // A write to the Workflow wakes it; a Failed Workflow tries no second Job and makes no second check run.
  await h.client.patch(workflowsResource, WF, { metadata: { annotations: { poke: '1' } } }, { type: 'merge', namespace: ns });
  await stays('nothing more', async () => h.checkRunCalls().length, (n) => n === 3);
  assert.equal(h.checkRuns().filter((r) => r.details_url?.includes(`/namespaces/${ns}/`)).length, 1);
});

test('a missing template ends Failed with TemplateNotFound, an Event and a failed check run', async () => {
  const ns = await h.namespace({ template: false });
  await h.createWorkflow(ns);
  const failed = await h.untilWorkflow(ns, WF, 'phase Failed', phaseIs('Failed'));
  const condition = failed.status?.conditions?.find((c) => c.type === 'JobStatus');
  assert.deepEqual([condition?.status, condition?.reason], ['False', 'TemplateNotFound']);
  assert.equal(failed.status?.checkRunName, 'plan(infra/app)');
  const run = runOf(h, failed.status?.checkRunID);
  assert.deepEqual([run?.status, run?.conclusion], ['completed', 'failure']);
  assert.match(run?.output?.summary ?? '', /WorkflowTemplate t-\w+\/plan not found/);
  assert.ok((await h.events(ns, WF)).some((e) => e.type === 'Warning' && e.reason === 'TemplateNotFound'));
});

test('a Workflow whose Branch is missing is deleted', async () => {
  const ns = await h.namespace();
  h.gh.resetCalls();
  await h.createWorkflow(ns, WF, { branch: 'no-such-branch' });
  await h.until('the Workflow gone', () => h.getWorkflow(ns, WF), (w) => w === undefined);
  assert.equal(h.checkRunCalls().length, 0);
});

test('a Job of the same name that the Workflow does not control is refused with a condition, never adopted', async () => {
  const ns = await h.namespace();
  await h.client.create(jobsResource, { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: WF, namespace: ns }, spec: foreignJob() });
  await h.createWorkflow(ns);
  const refused = await h.untilWorkflow(ns, WF, 'the JobNotControlled condition', (w) => w.status?.conditions?.some((c) => c.reason === 'JobNotControlled') === true);
  assert.match(refused.status?.conditions?.[0]?.message ?? '', /is not controlled by Workflow/);
  assert.equal(refused.status?.phase, undefined);
  const job = await h.getJob(ns, WF);
  assert.equal(job?.metadata.ownerReferences, undefined);
  assert.ok((await h.events(ns, WF)).some((e) => e.type === 'Warning' && e.reason === 'JobNotControlled'));
});

test('deleting a Workflow whose Job runs marks its check run cancelled, then lets it go', async () => {
  const ns = await h.namespace();
  await h.createWorkflow(ns);
  await h.untilWorkflow(ns, WF, 'phase Pending', phaseIs('Pending'));
  await h.setJobStatus(ns, WF, { active: 1 });
  const running = await h.untilWorkflow(ns, WF, 'phase Running', phaseIs('Running'));
  await h.client.delete(workflowsResource, WF, { namespace: ns });
  await h.until('the Workflow gone', () => h.getWorkflow(ns, WF), (w) => w === undefined);
  const run = runOf(h, running.status?.checkRunID);
  assert.deepEqual([run?.status, run?.conclusion, run?.output?.title], ['completed', 'cancelled', 'Plan(infra/app) was cancelled']);
  assert.ok((await h.events(ns, WF)).some((e) => e.type === 'Normal' && e.reason === 'CheckRunCancelled'));
});

test('deleting a finished Workflow leaves its check run alone', async () => {
  const ns = await h.namespace();
  await h.createWorkflow(ns);
  await h.untilWorkflow(ns, WF, 'phase Pending', phaseIs('Pending'));
  await h.setJobStatus(ns, WF, { succeeded: 1 });
  const done = await h.untilWorkflow(ns, WF, 'phase Succeeded', phaseIs('Succeeded'));
  h.gh.resetCalls();
  await h.client.delete(workflowsResource, WF, { namespace: ns });
  await h.until('the Workflow gone', () => h.getWorkflow(ns, WF), (w) => w === undefined);
  assert.equal(h.checkRunCalls().length, 0);
  assert.equal(runOf(h, done.status?.checkRunID)?.conclusion, 'success');
});

function foreignJob(): Record<string, unknown> {
  const spec = simpleJob() as { template: { spec: Record<string, unknown> } };
  spec.template.spec['restartPolicy'] = 'Never';
  return spec;
}
