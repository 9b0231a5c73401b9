// Issue 12's end-to-end flow on `bosun up` with its node agent: GitHub pushes and pull requests, delivered as
// signed webhooks by the GitHub test server, become Branches, Workflows and Jobs that really run, mirrored into
// check runs. Each test has its own namespace and GitHub repository.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Branch, Workflow } from '../../../src/terrakojo/api/types.ts';
import { branchesResource, workflowsResource } from '../../../src/terrakojo/api/resources.ts';
import { Informer } from '../../../src/runtime/informer/informer.ts';
import { completedRuns, OWNER, repositoryIn, runsOn, shellTemplate, startTerrakojoUp, steps, WEBHOOK_SECRET, type TerrakojoUp } from './terrakojo-up.ts';

const PLAN = 'echo "planning $TERRAKOJO_WORKFLOW_PATH at $TERRAKOJO_SHA"; sleep 1; case "$TERRAKOJO_WORKFLOW_PATH" in *broken*) echo "plan failed: $TERRAKOJO_WORKFLOW_PATH is broken"; exit 1;; esac; echo "plan: no changes"';

describe('terrakojo end to end on bosun up', () => {
  let t: TerrakojoUp;
  before(async () => {
    t = await startTerrakojoUp();
  });
  after(async () => {
    await t.close();
  });

  test('a signed push touching two folders: one Branch, two Workflows, two Jobs that run, check runs queued → in_progress → completed', async (ctx) => {
    await repositoryIn(t, 'push', 'push', [shellTemplate('plan', ['infra/**/*.tf'], PLAN)]);
    t.gh.resetCalls();
    const sha = t.gh.commit(OWNER, 'push', { branch: 'main', files: ['infra/app/main.tf', 'infra/net/main.tf', 'README.md'] });
    const runs = await completedRuns(t, 'push', sha, 2);
    assert.deepEqual(runs.map((r) => r.name), ['Plan(infra/app)', 'Plan(infra/net)']);
    for (const run of runs) {
      assert.deepEqual(steps(run), ['queued', 'in_progress', 'completed/success'], run.name);
      assert.match(run.output?.text ?? '', new RegExp(`planning ${run.name.slice(5, -1)} at ${sha}`), 'the log tail of the real run');
      assert.match(run.details_url ?? '', /^http:\/\/bosun\.example\/ui\/namespaces\/push\/workflows\//);
    }
    // Per Workflow: the look-up of a check run made before a crash, the create, and one PATCH per change of what
    // the check run shows (in_progress, completed): distinct phases (Pending, Running, Succeeded) + 1.
    const calls = t.gh.calls.filter((c) => c.path.includes('/check-runs'));
    ctx.diagnostic(`GitHub check run calls per Workflow: ${calls.length / runs.length}`);
    assert.equal(calls.length, 2 * (3 + 1));
    // The default-branch commit's Branch is gone once its Workflows ended; it took its Workflows and Jobs with it.
    await t.up.ok(['wait', '-n', 'push', '--for=delete', 'branches', '--all', '--timeout=60s']);
    assert.equal((await t.up.ok(['get', 'workflows,jobs', '-n', 'push', '-o', 'name'])).trim(), '');
  });

  test('a failing script: completed/failure with the log tail in the check run output', async () => {
    await repositoryIn(t, 'fail', 'fail', [shellTemplate('plan', ['infra/**/*.tf'], PLAN)]);
    const sha = t.gh.commit(OWNER, 'fail', { branch: 'main', files: ['infra/broken/main.tf'] });
    const [run] = await completedRuns(t, 'fail', sha, 1);
    assert.equal(run?.conclusion, 'failure');
    assert.match(run?.output?.text ?? '', /plan failed: infra\/broken is broken/);
  });

  test('a PR opened, then synchronised: the old SHA\'s running check run ends cancelled, the new SHA runs; deleting a Workflow and then the Repository cancels and cleans up', async () => {
    await repositoryIn(t, 'pr', 'pr', [shellTemplate('slow', ['**/*.tf'], 'echo started; sleep 600')]);
    const first = t.gh.commit(OWNER, 'pr', { branch: 'feature/a', files: ['mod/a.tf'] });
    const number = t.gh.openPullRequest(OWNER, 'pr', { head: 'feature/a', base: 'main' });
    const running = (sha: string) => t.gh.until(() => runsOn(t, 'pr', sha).some((r) => r.status === 'in_progress'), 90_000, `a check run in progress on ${sha.slice(0, 8)}`);
    await running(first);
    const branch = (await t.client.list<Branch>(branchesResource, { namespace: 'pr' })).items.find((b) => b.spec.sha === first);
    assert.equal(branch?.spec.prNumber, number);

    const second = t.gh.commit(OWNER, 'pr', { branch: 'feature/a', files: ['mod/b.tf'] });
    await running(second);
    await t.gh.until(() => runsOn(t, 'pr', first).every((r) => r.status === 'completed'), 60_000, 'the old check run to end');
    assert.deepEqual(runsOn(t, 'pr', first).map((r) => r.conclusion), ['cancelled']);
    assert.equal(runsOn(t, 'pr', second).length, 1);

    // Deleting the running Workflow cancels its check run (and its Job goes with it).
    const workflow = (await t.client.list<Workflow>(workflowsResource, { namespace: 'pr' })).items.find((w) => w.spec.sha === second);
    assert.ok(workflow?.metadata.name);
    await t.up.ok(['delete', 'workflow', workflow.metadata.name, '-n', 'pr', '--timeout=60s']);
    assert.deepEqual(runsOn(t, 'pr', second).map((r) => `${r.status}/${r.conclusion}`), ['completed/cancelled']);

    // A push makes a new running Workflow; deleting the Repository ends it and leaves nothing behind.
    const third = t.gh.commit(OWNER, 'pr', { branch: 'feature/a', files: ['mod/c.tf'] });
    await running(third);
    await t.up.ok(['delete', 'repository', 'pr', '-n', 'pr', '--timeout=90s']);
    assert.deepEqual(runsOn(t, 'pr', third).map((r) => `${r.status}/${r.conclusion}`), ['completed/cancelled']);
    await t.up.ok(['wait', '-n', 'pr', '--for=delete', 'jobs', '--all', '--timeout=60s']);
    assert.equal((await t.up.ok(['get', 'branches,workflows,jobs', '-n', 'pr', '-o', 'name'])).trim(), '');
  });

  test('300 commits pushed at once are caught up in two passes of 250, each commit once', async () => {
    await repositoryIn(t, 'many', 'many', [shellTemplate('plan', ['infra/**/*.tf'], PLAN)], { webhook: false });
    const added = new Map<string, number>();
    const informer = new Informer<Branch>({ client: t.client, resource: branchesResource, namespace: 'many' });
    informer.addEventHandler({ onAdd: (b) => added.set(b.spec.sha, (added.get(b.spec.sha) ?? 0) + 1) });
    informer.start();
    try {
      await informer.waitForSync();
      const shas: string[] = [];
      // The commits change no file a template matches: each Branch is made and, having no work, deleted.
      for (let i = 0; i < 299; i++) shas.push(t.gh.commit(OWNER, 'many', { branch: 'main', files: [`docs/${i}.md`] }));
      t.gh.addWebhook(OWNER, 'many', { url: t.webhookUrl, secret: WEBHOOK_SECRET });
      t.gh.resetCalls();
      shas.push(t.gh.commit(OWNER, 'many', { branch: 'main', files: ['docs/last.md'] }));
      const head = shas.at(-1)!;
      await t.up.ok(['wait', '-n', 'many', 'repository/many', `--for=jsonpath={.status.lastDefaultBranchHeadSha}=${head}`, '--timeout=120s']);
      await t.gh.until(() => shas.every((s) => added.has(s)), 30_000, 'a Branch for every commit');
      assert.deepEqual([...added.keys()].filter((s) => !shas.includes(s)), [], 'no Branch for anything but the pushed commits');
      assert.deepEqual([...added.values()].filter((n) => n !== 1), [], 'each commit made into a Branch once');
      const compares = t.gh.calls.filter((c) => c.method === 'GET' && c.path.includes('/compare/') && c.status === 200);
      assert.equal(compares.length, 2, 'two passes: 250, then the rest');
      await t.up.ok(['wait', '-n', 'many', '--for=delete', 'branches', '--all', '--timeout=120s']);
    } finally {
      await informer.stop();
    }
  });

  test('a force-push that removes the cursor falls back to the head (GitHub answers 422 for the gone commit)', async () => {
    await repositoryIn(t, 'force', 'force', [shellTemplate('plan', ['infra/**/*.tf'], PLAN)]);
    const old = t.gh.commit(OWNER, 'force', { branch: 'main', files: ['infra/old/main.tf'] });
    await completedRuns(t, 'force', old, 1);
    await t.up.ok(['wait', '-n', 'force', 'repository/force', `--for=jsonpath={.status.lastDefaultBranchHeadSha}=${old}`, '--timeout=60s']);
    const rewritten = t.gh.commit(OWNER, 'force', { branch: 'rewrite', from: 'main', files: ['infra/new/main.tf'] });
    t.gh.model.get(OWNER, 'force').commits.delete(old);
    t.gh.resetCalls();
    t.gh.setBranchHead(OWNER, 'force', 'main', rewritten);
    await t.up.ok(['wait', '-n', 'force', 'repository/force', `--for=jsonpath={.status.lastDefaultBranchHeadSha}=${rewritten}`, '--timeout=60s']);
    assert.equal(t.gh.calls.find((c) => c.method === 'GET' && c.path.endsWith(`/commits/${old}`))?.status, 422);
    // Two refs point at the commit, each a Branch with its check run: the ref it was pushed to, and now main.
    const runs = await completedRuns(t, 'force', rewritten, 2);
    assert.deepEqual(runs.map((r) => `${r.name} ${r.conclusion}`), ['Plan(infra/new) success', 'Plan(infra/new) success']);
  });

  test('GitHub failing 20% of requests (5xx and rate limits with reset headers) still converges, once per Workflow', async () => {
    await repositoryIn(t, 'faults', 'faults', [shellTemplate('plan', ['infra/**/*.tf'], PLAN)]);
    t.gh.setFaults({ rate: 0.2, kinds: ['500', 'rate-limit'], seed: 12 });
    try {
      const sha = t.gh.commit(OWNER, 'faults', { branch: 'main', files: ['infra/a/main.tf', 'infra/b/main.tf', 'infra/c/main.tf'] });
      const runs = await completedRuns(t, 'faults', sha, 3, 180_000);
      assert.deepEqual(runs.map((r) => r.conclusion), ['success', 'success', 'success']);
      assert.ok(t.gh.calls.some((c) => c.fault !== undefined), 'faults were injected');
    } finally {
      t.gh.setFaults(undefined);
    }
  });
});
