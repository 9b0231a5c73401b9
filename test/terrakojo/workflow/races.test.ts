// The races upstream tests with injected client errors, here against the real API server: a status write
// that meets a conflict, a Job create that meets AlreadyExists (ours, or someone else's), and a restart
// that finds a check run id without a name.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { jobsResource } from '../../../src/apimachinery/builtin-resources.ts';
import { statusWriter } from '../../../src/runtime/status.ts';
import { branchesResource, workflowsResource, workflowTemplatesResource } from '../../../src/terrakojo/api/resources.ts';
import type { Branch, Workflow, WorkflowTemplate } from '../../../src/terrakojo/api/types.ts';
import type { Job } from '../../../src/apimachinery/api/index.ts';
import { createCheckRun, syncJobPhase } from '../../../src/terrakojo/workflow/check-run-sync.ts';
import { createJob } from '../../../src/terrakojo/workflow/controller.ts';
import { JobNotControlledError } from '../../../src/terrakojo/workflow/errors.ts';
import { buildJob } from '../../../src/terrakojo/workflow/job-builder.ts';
import type { WorkflowControllerData } from '../../../src/terrakojo/workflow/options.ts';
import { ShownCheckRuns } from '../../../src/terrakojo/workflow/shown-check-runs.ts';
import { writeJobPhase } from '../../../src/terrakojo/workflow/workflow-status.ts';
import { branch, template } from './fixtures.ts';
import { OWNER, REPO, startHarness, type Harness } from './harness.ts';

// The controller starts only for the last test: until then these tests alone write.
let h: Harness;
before(async () => {
  h = await startHarness({ start: false });
});
after(() => h.close());

const WF = 'plan-0123456789';
const signal = new AbortController().signal;

test('a status write that meets a conflict re-reads and applies its change to the fresh object', async () => {
  const ns = await h.namespace();
  const stale = await h.createWorkflow(ns);
  // Someone else writes the status after our read.
  const fresh = await h.client.updateStatus<Workflow>(workflowsResource, { ...stale, status: { checkRunID: 7, checkRunName: 'theirs' } });
  assert.notEqual(fresh.metadata.resourceVersion, stale.metadata.resourceVersion);
  const stored = await writeJobPhase(statusWriter<Workflow>(h.client, workflowsResource), stale, 'Running');
  assert.equal(stored.status?.phase, 'Running');
  assert.equal(stored.status?.checkRunID, 7);
  assert.equal(stored.status?.checkRunName, 'theirs');
  assert.deepEqual(stored.status?.conditions?.map((c) => [c.type, c.status, c.reason, c.message, c.observedGeneration]), [['JobStatus', 'True', 'Running', 'Job is in Running state', 1]]);
});

test('AlreadyExists on Job create: our own Job is carried on with, a foreign one is refused', async () => {
  const ns = await h.namespace();
  const wf = await h.createWorkflow(ns);
  const br: Branch = branch(undefined, ns, { sha: h.sha });
  const job = buildJob(wf, template('plan', ns), br);
  const d = { client: h.client, recorder: h.mgr.recorder('test') };
  const first = await createJob(d, wf, job, signal);
  // The cache had not seen it yet: the second create meets AlreadyExists and finds the Job it controls.
  const again = await createJob(d, wf, job, signal);
  assert.equal(again.metadata.uid, first.metadata.uid);

  await h.client.delete(jobsResource, WF, { namespace: ns, propagationPolicy: 'Background' });
  await h.until('the Job gone', () => h.getJob(ns, WF), (j) => j === undefined);
  const { ownerReferences: _, ...foreignMeta } = job.metadata;
  await h.client.create(jobsResource, { ...job, metadata: foreignMeta });
  await assert.rejects(createJob(d, wf, job, signal), (err: unknown) => err instanceof JobNotControlledError && /is not controlled by Workflow/.test(err.message));
  // A different Workflow of the same name (another uid) does not control it either.
  await assert.rejects(createJob(d, { ...wf, metadata: { ...wf.metadata, uid: 'other' } }, job, signal), JobNotControlledError);
  assert.ok(!((await h.getJob(ns, WF))?.metadata.ownerReferences?.length));
});

test('a reconcile on a cached Workflow that lags the last phase write does not PATCH the check run again', async () => {
  const ns = await h.namespace();
  const d: WorkflowControllerData = {
    client: h.client,
    github: h.github,
    recorder: h.mgr.recorder('test'),
    status: statusWriter<Workflow>(h.client, workflowsResource),
    branches: h.mgr.informer<Branch>(branchesResource),
    templates: h.mgr.informer<WorkflowTemplate>(workflowTemplatesResource),
    jobs: h.mgr.informer<Job>(jobsResource),
    detailsUrlBase: undefined,
    cancelTimeoutMs: 60_000,
    logTail: { tailLines: 50, limitBytes: 16 * 1024 },
    shown: new ShownCheckRuns(),
    now: () => new Date(),
  };
  const gh = () => Promise.resolve(h.octokit);
  const made = await createCheckRun(d, h.octokit, await h.createWorkflow(ns), 'Plan(infra/app)');
  assert.ok(made);
  const patches = () => h.checkRunCalls().filter((c) => c.method === 'PATCH' && c.path.endsWith(`/${made.status?.checkRunID}`)).length;
  const job = (status: Job['status']): Job => ({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: WF, namespace: ns }, spec: { template: { spec: { containers: [] } } }, status });
  await syncJobPhase(d, gh, made, job({ active: 1 }), 'Running', signal);
  // The next Job event finds the Workflow in a cache that has not seen that status write yet.
  await syncJobPhase(d, gh, made, job({ active: 1 }), 'Running', signal);
  assert.equal(patches(), 1);
  assert.equal((await h.getWorkflow(ns, WF))?.status?.phase, 'Running');
  // What the check run shows next still goes out, from the stale copy too.
  await syncJobPhase(d, gh, made, job({ succeeded: 1 }), 'Succeeded', signal);
  assert.equal(patches(), 2);
  assert.deepEqual(h.checkRuns().filter((r) => r.id === made.status?.checkRunID).map((r) => [r.status, r.conclusion]), [['completed', 'success']]);
});

test('a check run id without a name is reused, and the name repaired and persisted before the update', async () => {
  const ns = await h.namespace();
  const wf = await h.createWorkflow(ns);
  const id = await h.octokit.createCheckRun(OWNER, REPO, { name: 'made before a restart', headSha: h.sha });
  await h.client.updateStatus<Workflow>(workflowsResource, { ...wf, status: { checkRunID: id } });
  await h.start();
  const pending = await h.untilWorkflow(ns, WF, 'phase Pending', (w) => w.status?.phase === 'Pending');
  assert.equal(pending.status?.checkRunID, id);
  assert.equal(pending.status?.checkRunName, 'Plan(infra/app)');
  assert.ok(await h.getJob(ns, WF));
  await h.setJobStatus(ns, WF, { active: 1 });
  await h.untilWorkflow(ns, WF, 'phase Running', (w) => w.status?.phase === 'Running');
  const run = h.checkRuns().find((r) => r.id === id);
  assert.deepEqual([run?.name, run?.status], ['Plan(infra/app)', 'in_progress']);
  // The other tests' Workflows made check runs once the controller started; this one made none.
  assert.equal(h.checkRuns().filter((r) => r.details_url?.includes(`/namespaces/${ns}/`)).length, 0);
});
