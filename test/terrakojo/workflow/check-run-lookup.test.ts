// The look-up of a check run by external_id (the Workflow's UID) before one is created: skipped on the pass that
// adds the finalizer (no check run can exist before it), made on every later pass, so that a check run made
// before a crash, or by a create whose answer was lost, is found instead of made twice.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { workflowsResource } from '../../../src/terrakojo/api/resources.ts';
import type { Workflow } from '../../../src/terrakojo/api/types.ts';
import { GitHubRequestError } from '../../../src/terrakojo/github/errors.ts';
import type { GitHubClient } from '../../../src/terrakojo/github/github-client.ts';
import { workflow } from './fixtures.ts';
import { OWNER, REPO, startHarness, type Harness } from './harness.ts';

// The controller starts in the first test, once a Workflow waits for it as a killed controller left it.
let h: Harness;
before(async () => {
  h = await startHarness({ start: false });
});
after(() => h.close());

const WF = 'plan-0123456789';
const calls = (method: string) => h.checkRunCalls().filter((c) => c.method === method).length;
const runsIn = (ns: string) => h.checkRuns().filter((r) => r.details_url?.includes(`/namespaces/${ns}/`));

test('a check run made before a crash (finalizer there, no id in the status) is found, not made again', async () => {
  const ns = await h.namespace();
  const wf = workflow(WF, ns, { sha: h.sha });
  delete wf.metadata.uid;
  const stored = await h.client.create<Workflow>(workflowsResource, { ...wf, metadata: { ...wf.metadata, finalizers: ['terrakojo.io/cleanup-checkrun'] } });
  const id = await h.octokit.createCheckRun(OWNER, REPO, {
    name: 'Plan(infra/app)',
    headSha: h.sha,
    externalId: stored.metadata.uid ?? '',
    detailsUrl: `https://bosun.test/ui/namespaces/${ns}/workflows/${WF}`,
  });
  h.gh.resetCalls();
  await h.start();
  const pending = await h.untilWorkflow(ns, WF, 'phase Pending', (w) => w.status?.phase === 'Pending');
  assert.equal(pending.status?.checkRunID, id);
  assert.deepEqual([calls('GET'), calls('POST')], [1, 0]);
  assert.equal(runsIn(ns).length, 1);
});

test('a new Workflow: no look-up on the pass that adds the finalizer, one create', async () => {
  const ns = await h.namespace();
  h.gh.resetCalls();
  await h.createWorkflow(ns);
  const pending = await h.untilWorkflow(ns, WF, 'phase Pending', (w) => w.status?.phase === 'Pending');
  assert.ok(pending.status?.checkRunID);
  assert.deepEqual([calls('GET'), calls('POST')], [0, 1]);
});

test('a create whose answer was lost: the next pass looks the check run up and uses it', async () => {
  const ns = await h.namespace();
  let lost = 0;
  const losing: GitHubClient = Object.create(h.octokit) as GitHubClient;
  losing.createCheckRun = async (...args) => {
    await h.octokit.createCheckRun(...args);
    if (lost++ > 0) return assert.fail('created a second time');
    throw new GitHubRequestError({ operation: 'createCheckRun', repository: `${OWNER}/${REPO}`, status: undefined, timedOut: true, detail: 'no answer' });
  };
  h.github = async () => losing;
  try {
    h.gh.resetCalls();
    await h.createWorkflow(ns);
    const pending = await h.untilWorkflow(ns, WF, 'phase Pending', (w) => w.status?.phase === 'Pending');
    const runs = runsIn(ns);
    assert.equal(runs.length, 1);
    assert.equal(pending.status?.checkRunID, runs[0]?.id);
    assert.deepEqual([calls('GET'), calls('POST')], [1, 1]);
  } finally {
    h.github = async () => h.octokit;
  }
});
