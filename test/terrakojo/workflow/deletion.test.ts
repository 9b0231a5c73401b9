// Deletion when GitHub cannot be reached the normal way (§9.6): a configuration error (the Secret is gone or
// does not parse) skips the check run cancel at once; a passing failure is retried until the deadline after
// the deletion timestamp, then skipped; one that heals in time still cancels. Each skip is a Warning Event.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { workflowsResource } from '../../../src/terrakojo/api/resources.ts';
import type { Workflow } from '../../../src/terrakojo/api/types.ts';
import { GitHubCredentialsError, GitHubRequestError } from '../../../src/terrakojo/github/errors.ts';
import type { GitHubClient } from '../../../src/terrakojo/github/github-client.ts';
import { isConfigurationError } from '../../../src/terrakojo/workflow/errors.ts';
import { TerminalError } from '../../../src/runtime/controller/terminal-error.ts';
import { startHarness, type Harness } from './harness.ts';

const CANCEL_TIMEOUT_MS = 2000;
let h: Harness;
before(async () => {
  h = await startHarness({ cancelTimeoutMs: CANCEL_TIMEOUT_MS });
});
after(() => h.close());

const WF = 'plan-0123456789';

/** A namespace with a Workflow whose Job runs. */
async function running(): Promise<{ ns: string; wf: Workflow }> {
  const ns = await h.namespace();
  await h.createWorkflow(ns);
  await h.untilWorkflow(ns, WF, 'phase Pending', (w) => w.status?.phase === 'Pending');
  await h.setJobStatus(ns, WF, { active: 1 });
  return { ns, wf: await h.untilWorkflow(ns, WF, 'phase Running', (w) => w.status?.phase === 'Running') };
}

/** The test server's client, with updateCheckRun failing as long as fail() says. */
function failingUpdates(fail: (attempt: number) => boolean): { client: GitHubClient; attempts: () => number } {
  let attempts = 0;
  const client: GitHubClient = Object.create(h.octokit) as GitHubClient;
  client.updateCheckRun = async (...args) => {
    attempts++;
    if (fail(attempts)) throw new GitHubRequestError({ operation: 'updateCheckRun', repository: 'acme/infra', status: 502, detail: 'Bad Gateway' });
    return h.octokit.updateCheckRun(...args);
  };
  return { client, attempts: () => attempts };
}

test('which failures count as configuration errors', () => {
  const request = (status: number | undefined) => new GitHubRequestError({ operation: 'updateCheckRun', repository: 'a/b', status, detail: 'x' });
  assert.equal(isConfigurationError(new GitHubCredentialsError('ns/s', 'SecretNotFound', 'not found')), true);
  assert.equal(isConfigurationError(new TerminalError('no repository for the Branch')), true);
  assert.equal(isConfigurationError(request(401)), true);
  assert.equal(isConfigurationError(request(404)), true);
  assert.equal(isConfigurationError(request(502)), false);
  assert.equal(isConfigurationError(request(undefined)), false);
  assert.equal(isConfigurationError(new Error('socket hang up')), false);
});

test('a Secret that cannot be read: the finalizer goes at once, the check run stays, a Warning says why', async () => {
  const { ns, wf } = await running();
  h.github = async () => {
    throw new GitHubCredentialsError(`${ns}/github`, 'SecretNotFound', 'not found');
  };
  try {
    const started = Date.now();
    await h.client.delete(workflowsResource, WF, { namespace: ns });
    await h.until('the Workflow gone', () => h.getWorkflow(ns, WF), (w) => w === undefined);
    assert.ok(Date.now() - started < CANCEL_TIMEOUT_MS, 'without waiting for the deadline');
  } finally {
    h.github = async () => h.octokit;
  }
  assert.equal(h.checkRuns().find((r) => r.id === wf.status?.checkRunID)?.status, 'in_progress');
  const warning = (await h.events(ns, WF)).find((e) => e.reason === 'CheckRunCancelSkipped');
  assert.equal(warning?.type, 'Warning');
  assert.match(warning?.message ?? '', /secret t-\w+\/github: not found/);
});

test('GitHub failing past the deadline: retried, then the deletion goes on without the cancel', async () => {
  const { ns, wf } = await running();
  const failing = failingUpdates(() => true);
  h.github = async () => failing.client;
  try {
    await h.client.delete(workflowsResource, WF, { namespace: ns });
    await h.until('the Workflow gone', () => h.getWorkflow(ns, WF), (w) => w === undefined, 15_000);
  } finally {
    h.github = async () => h.octokit;
  }
  assert.ok(failing.attempts() > 1, `retried (${failing.attempts()} attempts)`);
  assert.equal(h.checkRuns().find((r) => r.id === wf.status?.checkRunID)?.status, 'in_progress');
  const warning = (await h.events(ns, WF)).find((e) => e.reason === 'CheckRunCancelSkipped');
  assert.match(warning?.message ?? '', /502 Bad Gateway/);
});

test('GitHub failing for a moment: the retry before the deadline still cancels', async () => {
  const { ns, wf } = await running();
  const failing = failingUpdates((attempt) => attempt <= 2);
  h.github = async () => failing.client;
  try {
    await h.client.delete(workflowsResource, WF, { namespace: ns });
    await h.until('the Workflow gone', () => h.getWorkflow(ns, WF), (w) => w === undefined);
  } finally {
    h.github = async () => h.octokit;
  }
  assert.equal(failing.attempts(), 3);
  const run = h.checkRuns().find((r) => r.id === wf.status?.checkRunID);
  assert.deepEqual([run?.status, run?.conclusion], ['completed', 'cancelled']);
  const reasons = (await h.events(ns, WF)).map((e) => e.reason);
  assert.ok(reasons.includes('CheckRunCancelled') && !reasons.includes('CheckRunCancelSkipped'), reasons.join());
});
