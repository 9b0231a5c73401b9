// GitHub access in the live path: credentials that cannot work are retried and said in a Warning Event, and
// the run goes on once they work; a Workflow deleted while its check run is being created ends the reconcile
// quietly (upstream's "ignores not found error ... after checkrun creation").
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { workflowsResource } from '../../../src/terrakojo/api/resources.ts';
import { GitHubCredentialsError } from '../../../src/terrakojo/github/errors.ts';
import type { GitHubClient } from '../../../src/terrakojo/github/github-client.ts';
import { startHarness, stays, type Harness } from './harness.ts';

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(() => h.close());

const WF = 'plan-0123456789';

async function reconcileErrors(): Promise<number> {
  const metric = await h.mgr.metrics.registry.getSingleMetric('controller_runtime_reconcile_errors_total')?.get();
  return metric?.values.find((v) => v.labels['controller'] === 'terrakojo-workflow')?.value ?? 0;
}

test('credentials that cannot work: a Warning Event, retries, and the run once they work', async () => {
  const ns = await h.namespace();
  let broken = true;
  h.github = async () => {
    if (broken) throw new GitHubCredentialsError(`${ns}/github`, 'NoCredentials', 'secret does not contain valid GitHub credentials');
    return h.octokit;
  };
  try {
    await h.createWorkflow(ns);
    const warning = await h.until('the GitHubAccessFailed Event', () => h.events(ns, WF), (events) => events.some((e) => e.reason === 'GitHubAccessFailed'));
    assert.match(warning.find((e) => e.reason === 'GitHubAccessFailed')?.message ?? '', /does not contain valid GitHub credentials/);
    assert.equal((await h.getWorkflow(ns, WF))?.status?.checkRunID, undefined);
    assert.equal(await h.getJob(ns, WF), undefined);
    broken = false;
    const pending = await h.untilWorkflow(ns, WF, 'phase Pending once the credentials work', (w) => w.status?.phase === 'Pending');
    assert.ok(pending.status?.checkRunID);
  } finally {
    h.github = async () => h.octokit;
  }
});

test('a Workflow deleted while its check run is created: the reconcile ends without an error and makes no Job', async () => {
  const ns = await h.namespace();
  const deleting: GitHubClient = Object.create(h.octokit) as GitHubClient;
  deleting.createCheckRun = async (...args) => {
    const id = await h.octokit.createCheckRun(...args);
    // Gone for good before the id can be written: the finalizer removed, then deleted.
    await h.client.patch(workflowsResource, WF, { metadata: { finalizers: null } }, { type: 'merge', namespace: ns });
    await h.client.delete(workflowsResource, WF, { namespace: ns });
    return id;
  };
  h.github = async () => deleting;
  try {
    const errors = await reconcileErrors();
    await h.createWorkflow(ns);
    await h.until('the Workflow gone', () => h.getWorkflow(ns, WF), (w) => w === undefined);
    await stays('no reconcile error and no Job', async () => [await reconcileErrors(), await h.getJob(ns, WF)] as const, ([n, job]) => n === errors && job === undefined);
  } finally {
    h.github = async () => h.octokit;
  }
});
