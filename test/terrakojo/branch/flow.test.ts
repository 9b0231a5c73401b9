// Repository and Branch controllers together, as a push or a PR reaches them (research §3.5): GitHub changes, the
// Repository is poked (what the webhook server does), Branches and Workflows follow. Tests play the Workflow
// controller by writing phases.
import { strict as assert } from 'node:assert';
import { after, before, describe, it } from 'node:test';
import { secretsResource } from '../../../src/apimachinery/builtin-resources.ts';
import { repositoriesResource, workflowsResource } from '../../../src/terrakojo/api/resources.ts';
import type { Branch, Workflow } from '../../../src/terrakojo/api/types.ts';
import { branchName } from '../../../src/terrakojo/repository/branch-name.ts';
import {
  createRepository,
  createTemplate,
  cursorAt,
  eventually,
  getRepository,
  listBranches,
  listWorkflows,
  OWNER,
  poke,
  REPO,
  startSyncHarness,
  TOKEN,
  tokenSecret,
  type SyncHarness,
} from '../repository/harness.ts';

let h: SyncHarness;

const ofBranch = (workflows: Workflow[], branch: Branch): Workflow[] => workflows.filter((w) => w.metadata.labels?.['terrakojo.io/owner-uid'] === branch.metadata.uid);

async function finishAll(workflows: Workflow[]): Promise<void> {
  for (const w of workflows) await h.client.patchStatus(workflowsResource, w.metadata.name ?? '', { status: { phase: 'Succeeded' } }, { type: 'merge', namespace: h.namespace });
}

describe('push and pull request flow', () => {
  before(async () => {
    h = await startSyncHarness();
    h.gh.createRepository(OWNER, REPO, { defaultBranch: 'main' });
    await h.client.create(secretsResource, tokenSecret(h.namespace, 'github', { token: TOKEN }));
    await createTemplate(h, 'plan', ['infra/**/*.tf']);
    await createRepository(h);
    // The first sync makes a Branch for the initial commit (README.md only): no template matches, so it goes.
    await cursorAt(h, h.gh.branchHead(OWNER, REPO, 'main') ?? '');
    await eventually(async () => (await listBranches(h)).length === 0, 10_000, 'initial commit Branch gone');
  });
  after(() => h.close());

  it('a push touching two folders: one Branch, two Workflows; once they end the Branch goes', async () => {
    const sha = h.gh.commit(OWNER, REPO, { branch: 'main', files: ['infra/app/main.tf', 'infra/db/main.tf', 'README.md'] });
    await poke(h);
    const branch = await eventually(async () => (await listBranches(h)).find((b) => b.spec.sha === sha && b.metadata.annotations?.['terrakojo.io/last-sha'] === sha), 10_000, 'push Branch generated');
    assert.equal(branch.metadata.name, branchName(REPO, 'main', sha));
    const workflows = ofBranch(await listWorkflows(h), branch);
    assert.deepEqual(workflows.map((w) => w.spec.path).sort(), ['infra/app', 'infra/db']);
    assert.deepEqual(branch.status?.changedFiles, ['infra/app/main.tf', 'infra/db/main.tf', 'README.md']);
    await finishAll(workflows);
    await eventually(async () => (await listBranches(h)).length === 0, 10_000, 'finished push Branch deleted');
    assert.equal((await getRepository(h))?.status?.lastDefaultBranchHeadSha, sha);
  });

  it('a PR opened, then synchronized: the old Branch and its Workflows go, the new SHA gets its own', async () => {
    const first = h.gh.commit(OWNER, REPO, { branch: 'feature/net', files: ['infra/net/main.tf'] });
    const pr = h.gh.openPullRequest(OWNER, REPO, { head: 'feature/net', base: 'main' });
    await poke(h);
    const opened = await eventually(async () => (await listBranches(h)).find((b) => b.spec.sha === first && b.metadata.annotations?.['terrakojo.io/last-sha'] === first), 10_000, 'PR Branch generated');
    assert.equal(opened.spec.prNumber, pr);
    const oldWorkflows = ofBranch(await listWorkflows(h), opened);
    assert.deepEqual(oldWorkflows.map((w) => [w.spec.path, w.spec.parameters?.['isDefaultBranch']]), [['infra/net', 'false']]);

    const second = h.gh.commit(OWNER, REPO, { branch: 'feature/net', files: ['infra/edge/main.tf'] });
    await poke(h);
    const synced = await eventually(async () => {
      const branches = await listBranches(h);
      const next = branches.find((b) => b.spec.sha === second && b.metadata.annotations?.['terrakojo.io/last-sha'] === second);
      return next && !branches.some((b) => b.metadata.uid === opened.metadata.uid) ? next : undefined;
    }, 10_000, 'old PR Branch replaced');
    assert.equal(synced.spec.prNumber, pr);
    const workflows = await listWorkflows(h);
    assert.deepEqual(ofBranch(workflows, opened), [], 'the old SHA\'s Workflows went with its Branch');
    // The PR's files are the whole diff: both folders run on the new SHA.
    assert.deepEqual(ofBranch(workflows, synced).map((w) => [w.spec.path, w.spec.sha]).sort(), [['infra/edge', second], ['infra/net', second]]);
  });

  it('deleting the Repository removes every Branch and Workflow, then the Repository', async () => {
    assert.ok((await listWorkflows(h)).length > 0);
    await h.client.delete(repositoriesResource, 'infra', { namespace: h.namespace });
    await eventually(async () => (await getRepository(h)) === undefined, 15_000, 'Repository gone');
    assert.deepEqual(await listBranches(h), []);
    assert.deepEqual(await listWorkflows(h), []);
  });
});
