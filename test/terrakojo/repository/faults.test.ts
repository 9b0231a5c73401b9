// GitHub failing a fifth of the requests (5xx, primary and secondary rate limits, dropped connections) slows the
// sync controllers down but changes nothing in what they converge to: one Branch per commit and ref, each with the
// Workflows its files call for, none twice.
import { strict as assert } from 'node:assert';
import { after, before, describe, it } from 'node:test';
import { secretsResource } from '../../../src/apimachinery/builtin-resources.ts';
import { workflowName } from '../../../src/terrakojo/branch/workflow-name.ts';
import { branchName } from '../../../src/terrakojo/repository/branch-name.ts';
import { createRepository, createTemplate, cursorAt, eventually, listBranches, listWorkflows, OWNER, poke, REPO, startSyncHarness, TOKEN, tokenSecret, type SyncHarness } from './harness.ts';

let h: SyncHarness;

describe('sync under GitHub faults', () => {
  before(async () => {
    h = await startSyncHarness();
    h.gh.createRepository(OWNER, REPO, { defaultBranch: 'main' });
    await h.client.create(secretsResource, tokenSecret(h.namespace, 'github', { token: TOKEN }));
    await createTemplate(h, 'plan', ['infra/**/*.tf']);
  });
  after(() => h.close());

  it('converges to the same Branches and Workflows with 20% of requests failing', async () => {
    const initial = h.gh.branchHead(OWNER, REPO, 'main') ?? '';
    h.gh.setFaults({ rate: 0.2, kinds: ['500', 'rate-limit', 'timeout'], seed: 7, timeoutMs: 200 });
    await createRepository(h);
    await cursorAt(h, initial, 60_000);
    const commits: string[] = [];
    for (let i = 0; i < 8; i++) commits.push(h.gh.commit(OWNER, REPO, { branch: 'main', files: [`infra/c${i}/main.tf`] }));
    const feature = h.gh.commit(OWNER, REPO, { branch: 'feature/f', files: ['infra/f/main.tf'] });
    const pr = h.gh.openPullRequest(OWNER, REPO, { head: 'feature/f', base: 'main' });
    await poke(h);
    await cursorAt(h, commits.at(-1) ?? '', 60_000);

    const expected = new Map<string, string>(commits.map((sha, i) => [branchName(REPO, 'main', sha), `infra/c${i}`]));
    expected.set(branchName(REPO, 'feature/f', feature), 'infra/f');
    await eventually(async () => {
      const branches = await listBranches(h);
      return [...expected.keys()].every((name) => branches.some((b) => b.metadata.name === name && b.metadata.annotations?.['terrakojo.io/last-sha'] === b.spec.sha));
    }, 90_000, 'every Branch generated');
    h.gh.setFaults(undefined);
    assert.ok(h.gh.faultsInjected.total > 0, 'faults were injected');

    const branches = await listBranches(h);
    const workflows = await listWorkflows(h);
    for (const [name, path] of expected) {
      const branch = branches.find((b) => b.metadata.name === name);
      assert.ok(branch, name);
      const own = workflows.filter((w) => w.metadata.labels?.['terrakojo.io/owner-uid'] === branch.metadata.uid);
      assert.deepEqual(own.map((w) => w.metadata.name), [workflowName(name, 'plan', 'folder', path)]);
    }
    assert.equal(branches.find((b) => b.spec.name === 'feature/f')?.spec.prNumber, pr);
    // One Branch per commit or ref: the initial commit's Branch (no match, so deleted) and nothing more.
    assert.deepEqual(branches.map((b) => b.metadata.name).filter((n) => !expected.has(n ?? '')), []);
    assert.equal(workflows.length, expected.size);
  });
});
