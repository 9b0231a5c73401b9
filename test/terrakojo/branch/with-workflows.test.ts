// The sync controllers with the WorkflowReconciler behind them: a push or a PR reaches check runs on GitHub.
// Jobs do not run here (no node agent): the test writes Job status as the Job controller would.
import { strict as assert } from 'node:assert';
import { after, before, describe, it } from 'node:test';
import { jobsResource, secretsResource } from '../../../src/apimachinery/builtin-resources.ts';
import { repositoriesResource } from '../../../src/terrakojo/api/resources.ts';
import type { Repository } from '../../../src/terrakojo/api/types.ts';
import { findRepository } from '../../../src/terrakojo/branch/repository-lookup.ts';
import { GitHubCredentialsError } from '../../../src/terrakojo/github/errors.ts';
import { registerWorkflowController } from '../../../src/terrakojo/workflow/index.ts';
import { createRepository, createTemplate, cursorAt, eventually, listBranches, listWorkflows, OWNER, poke, REPO, startSyncHarness, TOKEN, tokenSecret, type SyncHarness } from '../repository/harness.ts';

let h: SyncHarness;

const runs = (sha: string) => h.gh.checkRuns(OWNER, REPO).filter((r) => r.head_sha === sha);

async function setJobs(names: string[], status: Record<string, unknown>): Promise<void> {
  for (const name of names) await h.client.patchStatus(jobsResource, name, { status }, { type: 'merge', namespace: h.namespace });
}

describe('push and PR through to check runs', () => {
  before(async () => {
    h = await startSyncHarness();
    const repositories = h.mgr.informer<Repository>(repositoriesResource);
    // What the family wires: a Branch's Repository, then the client for its Secret.
    registerWorkflowController(h.mgr, {
      github: async (branch) => {
        const repo = await findRepository(repositories.store, h.client, branch);
        if (!repo) throw new GitHubCredentialsError(`${branch.metadata.namespace}/?`, 'SecretNotFound', `no Repository for Branch ${branch.metadata.name}`);
        return h.github(repo);
      },
    });
    h.gh.createRepository(OWNER, REPO, { defaultBranch: 'main' });
    await h.client.create(secretsResource, tokenSecret(h.namespace, 'github', { token: TOKEN }));
    await createTemplate(h, 'plan', ['infra/**/*.tf']);
    await createRepository(h);
    await cursorAt(h, h.gh.branchHead(OWNER, REPO, 'main') ?? '');
  });
  after(() => h.close());

  it('a push touching two folders: two Jobs, two check runs queued, then success, and the Branch goes', async () => {
    const sha = h.gh.commit(OWNER, REPO, { branch: 'main', files: ['infra/app/main.tf', 'infra/db/main.tf'] });
    await poke(h);
    await eventually(() => runs(sha).length === 2 || undefined, 15_000, 'two check runs');
    assert.deepEqual(runs(sha).map((r) => r.name).sort(), ['plan(infra/app)', 'plan(infra/db)']);
    const workflows = (await listWorkflows(h)).filter((w) => w.spec.sha === sha);
    const jobs = await eventually(async () => {
      const list = (await h.client.list(jobsResource, { namespace: h.namespace })).items.map((j) => j.metadata.name ?? '');
      return workflows.every((w) => list.includes(w.metadata.name ?? '')) ? workflows.map((w) => w.metadata.name ?? '') : undefined;
    }, 10_000, 'a Job per Workflow');
    await setJobs(jobs, { active: 0, succeeded: 1 });
    await eventually(() => runs(sha).every((r) => r.status === 'completed' && r.conclusion === 'success') || undefined, 15_000, 'check runs succeeded');
    await eventually(async () => !(await listBranches(h)).some((b) => b.spec.sha === sha), 15_000, 'finished Branch deleted');
  });

  it('a PR synchronized while its Jobs run: the old check runs end cancelled, the new SHA runs', async () => {
    const first = h.gh.commit(OWNER, REPO, { branch: 'feature/x', files: ['infra/x/main.tf'] });
    h.gh.openPullRequest(OWNER, REPO, { head: 'feature/x', base: 'main' });
    await poke(h);
    await eventually(() => runs(first).length === 1 || undefined, 15_000, 'the first SHA\'s check run');
    const [old] = (await listWorkflows(h)).filter((w) => w.spec.sha === first);
    assert.ok(old);
    await eventually(async () => (await h.client.list(jobsResource, { namespace: h.namespace })).items.some((j) => j.metadata.name === old.metadata.name) || undefined, 10_000, 'the old Job');
    await setJobs([old.metadata.name ?? ''], { active: 1 });
    await eventually(() => runs(first)[0]?.status === 'in_progress' || undefined, 10_000, 'the old check run in progress');

    const second = h.gh.commit(OWNER, REPO, { branch: 'feature/x', files: ['infra/y/main.tf'] });
    await poke(h);
    await eventually(() => (runs(first)[0]?.conclusion === 'cancelled' && runs(second).length === 2) || undefined, 15_000, 'old cancelled, new queued');
    assert.deepEqual(runs(second).map((r) => r.name).sort(), ['plan(infra/x)', 'plan(infra/y)']);
    assert.ok(!(await listWorkflows(h)).some((w) => w.spec.sha === first), 'the old Workflows went');
  });
});
